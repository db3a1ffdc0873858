"""Klash! for games played over days: the rulebook's default answer to each decision (digest
``klash.md``), the events that open a chapter and those that are turning points, and the standing.

A kind not in ``DEFAULTS`` has no default, because the choice is the game itself:
- ``pick``, ``team`` (§2.1, §2.2): which gladiators to take and to field;
- ``deploy``, ``spot`` (§1.5): which model goes where;
- ``initiative`` (§3.1): the winner's choice of who activates first, which the rules leave wholly to them;
- ``activate`` (§3.2): a model must be activated ("you may not pass unless you have no alternative"),
  and which one is the player's;
- ``target`` (§3.3-§3.8): whom to attack, where to move;
- ``free_second``, ``free_rapid`` (§4.1 Double Attack, Rapid Fire): the second attack of the action,
  a target to choose;
- ``hand``, ``arm_reroll`` (§3.11, §3.9): standing offers that hold nothing up; not answering them is
  already not playing a card, not arming a token.
"""
from __future__ import annotations

from rules.common.defaults import Rule, offered
from rules.common.engine import Standing

from .state import KlashState

DEFAULTS: dict[str, Rule] = {
    # §3.9 a Training Token re-roll is "may": the dice stand
    "reroll_*": offered("no"),
    # §3.11 Event Cards are played at will: the answer to a card played is to play none
    "respond": offered("pass"),
    # §3.11 a card whose target is not named is not played (it stays in hand)
    "event_target": offered("back"),
    # §4.1 Counterattack and Fury "may" make a free attack: declined
    "free_counter": offered("no"),
    "free_fury": offered("no"),
    # §3.1 III.1 "may discard any number": none (keep the hand)
    "swap": offered("keep"),
    # §3.2 "up to two Actions", the second optional: the activation ends (a Madman bound to attack
    # is offered no end, so it has no default)
    "act": offered("end"),
    # §3.9 the extra-activation token is optional: the turn ends
    "extra_activation": offered("no"),
}

# §3.1 the Hourglass, the game's round; §2.1 the rounds of the auction
CHAPTER_KINDS = frozenset({"draft_round", "hourglass"})
# §3.6 a gladiator Defeated, Massacred (or removed by a spell); §3.8 Domination
TURNING_KINDS = frozenset({"removed", "dominated"})


def standing(state: KlashState) -> Standing:
    """§3.10: the VP each player scored; the winner by annihilation or on the count after the 8th
    Hourglass (ties broken by d12, so a finished game always has one)."""
    scores = {p: int(state.vp.get(p, 0)) for p in state.seats}
    if not state.over:
        return Standing(scores=scores, result="unfinished", data={"hourglass": state.hourglass})
    return Standing(winners=(state.winner,) if state.winner else (), scores=scores,
                    result="won" if state.winner else "draw", data={"how": state.result})
