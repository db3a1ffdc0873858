"""Carnival Zombie for games played over days: the rulebook's default answer to each decision (digest
``carnival-zombie.md``), the events that open a chapter and those that are turning points, and the
standing of the group.

A kind not in ``DEFAULTS`` has no default, because the choice is the game itself or a fact of the table:
- ``order_pick``, ``swap_char``, ``swap_to`` (§10.1): the order and seats the table is setting;
- ``story_boss``, ``search_inf``, ``scavenge``, ``reward`` (§3.3, §4.3, §4.6): an Item or the other gain;
- ``target``, ``paranoia``, ``hit``, ``enter``, ``boss_cave``, ``terrain_cave``, ``terrain_pit``,
  ``barr_cave``, ``explore``, ``spill_split`` (§4.3-§4.8): who, where, how many;
- ``finale`` (§5): engaging a Finale (and, on the third Night, not engaging one) decides the game;
- ``dawn_exit`` (§4.9): the direction of the next Day's first move;
- ``pile_honour``, ``pile_react`` (§10.4): the dexterity element, a fact told by its player (the timed
  click is never answered for anyone).
"""
from __future__ import annotations

from rules.common.defaults import Rule, offered
from rules.common.engine import Standing

from .state import GameState

DEFAULTS: dict[str, Rule] = {
    # §10.1 the set-up keeps the Activation Order as it stands: the game starts
    "setup": offered("start"),
    # §3.3 each step ends in Hide or Keep looking: unanswered, the Character stops looking
    "story": offered("hide"),
    # §4.2 the Group decides how many Hours to move: it stops (unless the first move is forced)
    "move": offered("stop"),
    # §10.3 "on timeout: Day -> the player's pre-set default (e.g. Rest)"; §4.3 Rest
    "dayact": offered("rest"),
    # §4.6 step 4 a Night Action: Pass (the second one: end the activation)
    "act": offered("end"),
    # §1.14 using an Item is optional: done
    "item_use": offered("done"),
    # §10.1 Barricade placement: the "even" preset
    "barricades": offered("even"),
    # §10.1 the Attack step's "Auto-assign" (spread the Stress evenly)
    "attack": offered("auto"),
    # §4.6 discarding an Item to cancel an Attack is optional: back
    "discard": offered("back"),
    # §4.9 the Dawn Assault is optional: hold back
    "dawn_asl": offered("pass"),
}

# §4.0 a Day (it opens with its Sunrise), and the Night (it opens with Sunset)
CHAPTER_KINDS = frozenset({"day", "sunset"})
# §4.4 a Character Incapacitated; §1.12 a Boss killed; §4.1 a Location sinks; §5 a Finale engaged, the
# Airship called; §1.8 the Leviathan rises; Just a Matter of Time: the traitor unmasked
TURNING_KINDS = frozenset({"incapacitated", "boss_killed", "sink", "finale", "airship_called", "leviathan",
                           "unmask"})


def standing(state: GameState) -> Standing:
    """§2: the group wins or loses together (a traitor wins when the group loses); §4.10 the Overall
    Score of a win, the group's, counted for each of its players."""
    group = tuple(p for p in state.seats if p != state.traitor)
    if not state.over:
        return Standing(result="unfinished", data={"day": state.ticket})
    data = {"reason": state.reason, **({"score": dict(state.score)} if state.score else {})}
    if state.result == "win":
        total = int((state.score or {}).get("total", 0))
        return Standing(winners=group, scores={p: total for p in group}, result="won", data=data)
    return Standing(winners=(state.traitor,) if state.traitor else (), result="lost", data=data)
