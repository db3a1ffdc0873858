"""Karmic for games played over days: the rulebook's default answer to each decision (digest
``karmic.md``), the events that open a chapter and those that are turning points, and the standing.

A kind not in ``DEFAULTS`` has no default, because the choice is the player's own draw: ``play`` and
``initiative`` (§1.7, §1.5 "the player picks which card of his draw to play"). Unlike
`KarmicEngine.default_option` (the cog's time-out, which lets the bot policy pick a card), these are
only what the rules themselves give.
"""
from __future__ import annotations

from collections.abc import Sequence

from rules.common.defaults import Rule, offered
from rules.common.engine import GM, Prompt, Standing

from .state import KarmicState


def _joker(state: KarmicState, prompt: Prompt) -> Sequence[str] | None:
    """§8 A3: a joker is the GM's ruling, the default offered being success (house rule joker_default)."""
    return offered(state.house_rules.get("joker_default", "success"))(state, prompt)


def _initiative_joker(state: KarmicState, prompt: Prompt) -> Sequence[str] | None:
    """§8 A3 for a joker played for initiative: its success is winning the initiative."""
    won = state.house_rules.get("joker_default", "success") == "success"
    return offered("win" if won else "lose")(state, prompt)


DEFAULTS: dict[str, Rule] = {
    # §1.2 hitting is optional each time; §8 A4 "each decision ... with a time-out (default: stand)"
    "hit": offered("stand"),
    "combat_hit": offered("stand"),
    "initiative_hit": offered("stand"),
    # §1.6 the Rule of Fives: a reshuffle offered "may" be declined (it waits for the next multiple)
    "offer": offered("no"),
    # §2.3 the attacker may leave maneuvers unused (stop), but must declare one or else yield or
    # hesitate (§2.5); the defender may pass (§9.4). Those come last in the list: on an earlier page
    # of maneuvers, the default turns the page toward them.
    "declare": offered("stop", "pass", "hes", "more"),
    # §2.3 a declaration is made with its card: unanswered, the half-made one is taken back (the
    # declare prompt then gives its own default)
    "declare_location": offered("back"),
    "declare_card": offered("back"),
    # §8 A3 the GM's joker rulings
    "joker": _joker,
    "joker_drawn": _joker,
    "combat_joker": _joker,
    "combat_joker_drawn": _joker,
    "initiative_joker": _initiative_joker,
    # §3.4 a choke or pin hold: the held character's one answer, its struggle (A32)
    "hold": offered("struggle"),
}

# §2.3 a round of combat
CHAPTER_KINDS = frozenset({"round_start"})
# §2.8 an engagement or the combat ends (incapacitation, yielding, a combat-ending maneuver), §3.4 a
# hold starts, §1.5 a joker's ruling ("drastic and impressive"), §1.7 the result of a check
TURNING_KINDS = frozenset({"engagement_end", "hold_start", "ruling", "combat_end", "check_result"})


def _seats(state: KarmicState, keys: Sequence[str]) -> tuple[str, ...]:
    """The players (not the GM) who control these characters, each once."""
    return tuple(dict.fromkeys(state.controllers[k] for k in keys if state.controllers.get(k, GM) != GM))


def standing(state: KarmicState) -> Standing | None:
    """A check: §1.7/§1.8 success or failure of the acting side (an opposed check that fails is won by
    the other side). A combat: §2.8 it ends with all but one incapacitated (that one's side wins) or
    by yielding or a combat-ending maneuver (no winner); those left
    standing when others are incapacitated win (their players: an NPC's side is the GM's). Karmic keeps no score. Advancement: None."""
    if state.mode == "check" and state.check is not None:
        result = state.check.result
        if not state.over or not result:
            return Standing(result="unfinished")
        sides = state.check.sides
        success = bool(result.get("success"))
        if success:
            won = [sides[0].key]
        else:
            won = [s.key for s in sides[1:]]
        return Standing(winners=_seats(state, won), result="success" if success else "failure",
                        data={"margin": result.get("margin"), "character": sides[0].key})
    if state.mode == "combat" and state.combat is not None:
        fighters = list(state.combat.fighters)
        hp = {k: state.characters[k].hp_marked for k in fighters}
        if not state.over:
            return Standing(result="unfinished", data={"hp": hp})
        standing_up = [k for k in fighters if not state.characters[k].incapacitated]
        if standing_up and len(standing_up) < len(fighters):
            return Standing(winners=_seats(state, standing_up), result="won",
                            data={"hp": hp, "characters": standing_up})
        return Standing(result="ended", data={"hp": hp})
    return None
