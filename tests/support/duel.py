"""Duel: a tiny test-only game that exercises the framework (not shipped with the bot).

Two seats. Cards 1–12 are shuffled; each player holds 3 secret cards. The first seat decides
publicly who starts; then players alternate, each playing one card from their hand (a private
decision) and drawing a replacement in secret. After 4 cards each, the higher total wins.

It speaks the protocol's data only (no sentence, no mention): its words are in
`tests/support/i18n/<lang>.duel.yaml` (en, it, es), the presenter's model for every game.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from rules.common import GM, Choose, Deck, Engine, Event, IllegalAction, Option, Prompt, Rng, Serial

ROUNDS = 4


@dataclass
class DuelState(Serial):
    seats: list[str]
    rng: Rng
    deck: Deck
    hands: dict[str, list[str]]
    scores: dict[str, int]
    played: dict[str, int]
    turn: int = 0
    phase: str = "start"          # start | play | over
    over: bool = False
    winner: str | None = None
    fixed_start: bool = False     # the first seat always starts: the start prompt has one option
    schema: int = 1


@dataclass(frozen=True)
class Concede(Serial):
    type: ClassVar[str] = "concede"


class Duel(Engine[DuelState]):
    system = "duel"
    state_type = DuelState
    actions = {"choose": Choose, "concede": Concede}

    def setup(self, seats, options, seed):
        if len(seats) != 2:
            raise IllegalAction("two_players", seats=len(seats))
        rng = Rng.from_seed(seed)
        deck = Deck(cards=[str(n) for n in range(1, 13)])
        deck.shuffle(rng)
        hands = {s: deck.draw(3) for s in seats}
        return DuelState(seats=seats, rng=rng, deck=deck, hands=hands, fixed_start=bool(options.get("fixed_start")),
                         scores={s: 0 for s in seats}, played={s: 0 for s in seats})

    def current(self, state: DuelState) -> str:
        return state.seats[state.turn % 2]

    def pending(self, state):
        if state.phase == "start":
            first, second = state.seats
            options = [Option.of("me", "starts", player=first), Option.of("you", "starts", player=second)]
            return [Prompt.ask("start", {}, first, options[:1] if state.fixed_start else options)]
        if state.phase == "play":
            player = self.current(state)
            n = state.played[player]
            return [Prompt.ask("play", {"round": n + 1}, player, (Option.of(c, "card", card=c) for c in state.hands[player]),
                               key=(player, n), private=True)]
        return []

    def step(self, state, action, actor):
        if isinstance(action, Concede):
            if actor.id not in state.seats:
                raise IllegalAction("only_players_concede")
            state.winner = next(s for s in state.seats if s != actor.id)
            state.phase, state.over = "over", True
            return [Event("concede", {"player": actor.id, "winner_player": state.winner})]
        prompt = self.check_choice(state, action, actor)
        if prompt.kind == "start":
            state.turn = 0 if action.options[0] == "me" else 1
            state.phase = "play"
            return [Event("first", {"player": self.current(state)})]
        player = prompt.player
        card = action.options[0]
        state.hands[player].remove(card)
        state.scores[player] += int(card)
        state.played[player] += 1
        events = [Event("play", {"player": player, "card": card})]
        if len(state.deck):
            drawn = state.deck.draw_one()
            state.hands[player].append(drawn)
            events.append(Event("draw", {"card": drawn}, player))
        events.append(Event("peek", {"player": player, "cards": sorted(state.hands[player], key=int)}, GM))
        state.turn += 1
        if all(n >= ROUNDS for n in state.played.values()):
            a, b = state.seats
            state.winner = a if state.scores[a] > state.scores[b] else b if state.scores[b] > state.scores[a] else None
            state.phase, state.over = "over", True
            events.append(Event("end", {"first": state.scores[a], "second": state.scores[b],
                                        "winner_player": state.winner}))
        return events

    def view_for(self, state, viewer):
        view = {"phase": state.phase, "scores": state.scores, "turn": self.current(state),
                "hand_sizes": {s: len(h) for s, h in state.hands.items()}, "deck": len(state.deck),
                "winner": state.winner}
        if viewer == GM:
            view["hands"] = state.hands
        elif viewer in state.hands:
            view["hand"] = state.hands[viewer]
        return view


def register() -> None:
    from cogs.host import systems
    from i18n.present import add_catalogues
    add_catalogues(Path(__file__).parent / "i18n")
    systems.register(systems.System(name="duel", title="Duel (test game)", engine=Duel(),
                                    house_rules={"rounds": ROUNDS}))
