"""Event Cards (digest §3.11, §6.24): the draw of each Initial Phase, when a card may be played and why
not, the LIFO answer stack, the Final Phase swap, and the private hand prompts.

A mixin of ``KlashEngine`` (``engine.py``): its methods call the other sections' through ``self``
(typed ``Any``: mypy checks mixins' cross-calls only through a Protocol, which would repeat every signature).
"""
from __future__ import annotations

from typing import Any

from rules.common.engine import Option, Prompt
from rules.common.errors import IllegalAction

from . import core
from .core import require, say
from .state import KlashState, Model


class EventCards:
    def _draw_event(self: Any, state: KlashState, out: list, player: str) -> None:
        if not state.event_deck.cards and state.event_deck.discards:
            state.event_deck.reshuffle_discards(state.rng)
            say(out, "event_reshuffle")
        if not state.event_deck.cards:
            say(out, "event_empty")
            return
        card = state.event_deck.draw_one()
        state.hands[player].append(card)
        say(out, "event_draw", player=player)
        say(out, "event_card", player, card=card, card_name=core.words(state.event_cards[card], "name"),
            card_text=core.words(state.event_cards[card], "text"))

    def _card_targets(self: Any, state: KlashState, player: str, card: str) -> list[Model] | None:
        """None: no target needed; []: no legal target (unplayable)."""
        effect = state.event_cards[card]["effect"]
        if effect == "recover":
            return [m for m in state.on_field(player) if m.stunned]
        if effect == "boost":
            return state.on_field(player)
        if effect == "hex":
            return state.on_field(state.other(player))
        return None

    def _playable(self: Any, state: KlashState, player: str, card: str, ignore_sel: bool = False) -> bool:
        """ignore_sel: as if no action target were being chosen (a card played then cancels the choice)."""
        # A card says when it is played (§3.11, §6.24): "any" cards at any moment of the match -- the
        # Initiative and Final Phases and a free-attack choice included; "own_turn" cards in your turn of
        # the Action Phase.
        if state.phase != "match" or state.stage not in ("initiative", "action", "final") or \
                (state.sel is not None and not ignore_sel):
            return False
        spec = state.event_cards[card]
        if state.stack:
            if player != state.stack_next or spec["timing"] != "any":
                return False
        else:
            if spec["effect"] == "cancel":
                return False
            if spec["timing"] == "own_turn" and (player != state.turn_player or state.stage != "action"
                                                  or state.choices):
                return False
        targets = self._card_targets(state, player, card)
        return targets is None or bool(targets)

    def _unplayable(self: Any, state: KlashState, player: str, card: str) -> IllegalAction:
        """Why a card in the hand cannot be played now, in the terms of its own timing (§3.11)."""
        spec = state.event_cards[card]
        name = core.words(spec, "name")
        if state.phase != "match" or state.stage not in ("initiative", "action", "final"):
            return IllegalAction("card_match_only", card_name=name)
        if state.stack:
            if player != state.stack_next:
                return IllegalAction("card_answer_waits", card_name=name, answer_player=state.stack_next)
            if spec["timing"] != "any":
                return IllegalAction("card_own_turn_no_answer", card_name=name)
        elif spec["effect"] == "cancel":
            return IllegalAction("card_answers_only", card_name=name)
        elif spec["timing"] == "own_turn" and (player != state.turn_player or state.stage != "action"):
            return IllegalAction("card_own_turn", card_name=name)
        elif spec["timing"] == "own_turn" and state.choices:
            return IllegalAction("card_after_free_attack", card_name=name)
        if self._card_targets(state, player, card) == []:
            return IllegalAction("card_no_target", card_name=name)
        return IllegalAction("card_not_now", card_name=name)   # pragma: no cover - every case is named above

    def _play_event(self: Any, state: KlashState, out: list, player: str, card: str, target: str) -> None:
        require(player in state.seats and card in state.hands[player], "card_not_in_hand")
        require(state.esel is None or state.esel["player"] == player, "card_being_played")
        if not self._playable(state, player, card, ignore_sel=True):
            raise self._unplayable(state, player, card)
        targets = self._card_targets(state, player, card)
        if targets is not None:
            require(any(t.id == target for t in targets), "card_target")
        state.hands[player].remove(card)
        state.esel = None
        state.stack.append({"player": player, "card": card, "target": target or ""})
        state.stack_next = state.other(player)
        spec = state.event_cards[card]
        if target:
            say(out, "event_played_on", player=player, card=card, card_name=core.words(spec, "name"), target=target,
                target_name=state.label(state.model(target)))
        else:
            say(out, "event_played", player=player, card=card, card_name=core.words(spec, "name"), target=target)

    def _resolve_stack(self: Any, state: KlashState, out: list) -> None:
        """Last played resolves first (L58); Ill Omen cancels the card below it."""
        cancelled = False
        while state.stack:
            entry = state.stack.pop()
            spec = state.event_cards[entry["card"]]
            state.event_deck.discard(entry["card"])
            if cancelled:
                say(out, "event_cancelled", card=entry["card"], card_name=core.words(spec, "name"))
                cancelled = False
                continue
            p, effect, amount = entry["player"], spec["effect"], spec.get("amount", 1)
            say(out, "event_resolves", card=entry["card"], card_name=core.words(spec, "name"), player=p)
            target = state.model(entry["target"]) if entry["target"] else None
            if target is not None and target.removed:
                continue
            if effect == "cancel":
                cancelled = True
            elif effect == "vp":
                core.score(state, p, amount, "event", out, card_name=core.words(spec, "name"))
            elif effect == "token":
                state.tokens[p] += amount
                say(out, "token_gain", player=p, amount=amount)
            elif effect == "recover" and target is not None:
                target.stunned = False
                say(out, "recovered", model=target.id, name=state.label(target))
            elif effect == "boost" and target is not None:
                target.boost += amount
            elif effect == "hex" and target is not None:
                target.hex += amount
        state.stack_next = ""

    def _final_swap(self: Any, state: KlashState, out: list, player: str, indices: list[int]) -> None:
        require(state.phase == "match" and state.stage == "final" and state.final_order
                and state.final_order[0] == player, "not_your_swap")
        hand = state.hands[player]
        require(all(0 <= i < len(hand) for i in indices) and len(set(indices)) == len(indices), "pick_from_hand")
        gone = [hand[i] for i in sorted(indices)]
        for i in sorted(indices, reverse=True):
            hand.pop(i)
        state.event_deck.discard(*gone)
        say(out, "event_swap" if gone else "event_keep", player=player, count=len(gone))
        for _ in gone:
            self._draw_event(state, out, player)
        state.final_order.pop(0)

    def _hand_prompts(self: Any, state: KlashState) -> list[Prompt]:
        # Optional prompts stay up while a target is being chosen, so their buttons (DMs for hands) are
        # not sent again after every step. Your own card played then cancels your half-made choice; an
        # opponent's card leaves it waiting for after the Event Cards resolve.
        prompts = []
        for i, p in enumerate(state.seats):
            playable = [self._playable(state, p, c, ignore_sel=True) for c in state.hands[p]]
            opts = [Option.of(f"h{j}", "event_card", card_name=core.words(state.event_cards[c], "name"))
                    for j, c in enumerate(state.hands[p]) if playable[j]]
            if opts:
                # One decision while the hand and what is playable in it stay the same: the id names
                # them (it rides only in this player's DM and the GM's log), not the deck count, which
                # the other player's draws change, so the same question is not DMed again.
                prompts.append(Prompt.ask("hand", {}, p, opts, private=True,
                                          key=(i, *(c + "+" * ok for c, ok in zip(state.hands[p], playable)))))
        return prompts

    def _esel_prompt(self: Any, state: KlashState) -> Prompt:
        p = state.esel["player"]
        card = state.esel["card"]
        targets = self._card_targets(state, p, card) or []
        return Prompt.ask("event_target", {"card_name": core.words(state.event_cards[card], "name")}, p,
                          [Option.of(f"t:{t.id}", "model", name=state.label(t)) for t in targets] + [Option.of("back")],
                          key=(state.seq,), private=True)
