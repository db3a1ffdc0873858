"""Quartet: a tiny four-seat test game for the turn clock's simulation (bench/clock.py).

Four seats take turns, one decision each in order (a public move: "a", "b" or "c"); every third
round all four bid at once, privately (1, 2 or 3). It never ends by itself (a clock runs for
weeks). Its rulebook default is the first option (`default_choice`), and it has a bot player
(`QuartetAI`) that can stand in for an idle seat. Words: `tests/support/i18n/en.quartet.yaml`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from rules.common import Choose, Engine, Event, IllegalAction, Option, Prompt, Rng, Serial
from rules.common.player import GameAI

SEATS = 4
MOVES = ("a", "b", "c")
BIDS = ("1", "2", "3")


@dataclass
class QuartetState(Serial):
    seats: list[str]
    rng: Rng
    round: int = 0
    turn: int = 0                                          # the seat whose move it is (move rounds)
    bids: dict[str, str] = field(default_factory=dict)     # this bid round's, so far
    scores: dict[str, int] = field(default_factory=dict)
    schema: int = 1

    @property
    def bidding(self) -> bool:
        return self.round % 3 == 2


class Quartet(Engine[QuartetState]):
    system = "quartet"
    state_type = QuartetState
    actions = {"choose": Choose}

    def setup(self, seats, options, seed):
        if len(seats) != SEATS:
            raise IllegalAction("four_players", seats=len(seats))
        return QuartetState(seats=list(seats), rng=Rng.from_seed(seed), scores={s: 0 for s in seats})

    def pending(self, state):
        if state.bidding:
            return [Prompt.ask("bid", {"round": state.round + 1}, seat, (Option.of(b, "bid", n=b) for b in BIDS),
                               key=(state.round, seat), private=True)
                    for seat in state.seats if seat not in state.bids]
        seat = state.seats[state.turn]
        return [Prompt.ask("move", {"round": state.round + 1}, seat, (Option.of(m, "move", move=m) for m in MOVES),
                           key=(state.round,))]

    def step(self, state, action, actor):
        prompt = self.check_choice(state, action, actor)
        choice = action.options[0]
        if prompt.kind == "bid":
            state.bids[prompt.player] = choice
            if len(state.bids) < SEATS:
                return [Event("bid", {"player": prompt.player})]
            best = max(state.bids.values())
            for seat, bid in state.bids.items():
                state.scores[seat] += int(bid == best)
            state.bids, state.round = {}, state.round + 1
            return [Event("bids", {"best": best})]
        state.scores[prompt.player] += MOVES.index(choice)
        state.turn += 1
        if state.turn == SEATS:
            state.turn, state.round = 0, state.round + 1
        return [Event("move", {"player": prompt.player, "move": choice})]

    def default_choice(self, state, prompt):
        return (prompt.options[0].id,)

    def view_for(self, state, viewer):
        return {"round": state.round, "turn": state.seats[state.turn], "scores": state.scores,
                "bid": sorted(state.bids)}


class QuartetAI(GameAI):
    def evaluate(self, state, seat):
        total = sum(state.scores.values()) or 1
        return state.scores[seat] / total


def register() -> None:
    from cogs.host import systems
    from i18n.present import add_catalogues
    add_catalogues(Path(__file__).parent / "i18n")
    engine = Quartet()
    systems.register(systems.System(name="quartet", title="Quartet (test game)", engine=engine,
                                    ai=QuartetAI(engine), listed=False))
