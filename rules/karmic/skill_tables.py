"""The skill list's own tables (digest §6.10, rulebook seed 004 L755–L819): named situations a check
may name instead of a number the GM types, and what some skills' results mean beyond success.

A situation belongs to one skill and, for the tables whose rows exclude each other (one surface,
one lock, one set of tools, one language relation), to a group from which a check takes one row.
Rows of the same skill add up, as the rulebook says for climbing ("both of these modifiers are
added together", L755) and for lock picking (equipment, lock, other considerations, L805–L819).
"""
from __future__ import annotations

from dataclasses import dataclass

from rules.common import Event, IllegalAction

from . import fatigue, wounds
from .base import skill_term
from .tables import skill_key


@dataclass(frozen=True)
class Situation:
    id: str
    skill: str          # the skill key whose check it modifies
    group: str          # rows of one exclusive group exclude each other; "" = combinable
    mod: int


_ROWS = [
    # CLIMBING (L755–L769): the surface (one) plus the equipment.
    ("average_tree", "climbing", "surface", 0),             # L757
    ("rock_many_holds", "climbing", "surface", -1),         # L758: numerous outcroppings
    ("rock_some_holds", "climbing", "surface", -2),         # L759: some outcroppings
    ("stone_wall", "climbing", "surface", -3),              # L760
    ("brick_wall", "climbing", "surface", -4),              # L761
    ("rough_rock", "climbing", "surface", -5),              # L762: rough, no outcroppings
    ("smooth_rock", "climbing", "surface", -7),             # L763: smooth, no outcroppings
    ("top_rope", "climbing", "rope", 4),                    # L765
    ("knotted_top_rope", "climbing", "rope", 5),            # L766
    ("pitons", "climbing", "", 2),                          # L767
    ("climbing_shoes", "climbing", "", 2),                  # L768
    ("belay", "climbing", "", 3),                           # L769: a belay device with a skilled belayer
    # LOCK PICKING (L805–L819): the tools (one), the lock (one), other considerations.
    ("lock_picks", "lock_picking", "tools", 2),             # L807: professional lock picks
    ("basic_tools", "lock_picking", "tools", 0),            # L808
    ("utility_knife", "lock_picking", "tools", -2),         # L809
    ("hair_pin", "lock_picking", "tools", -4),              # L810: or another small piece of metal
    ("straw", "lock_picking", "tools", -7),                 # L811: straw or wood chips
    ("poor_lock", "lock_picking", "lock", 2),               # L813: a suitcase lock
    ("door_lock", "lock_picking", "lock", 0),               # L814: an average door lock
    ("fine_door_lock", "lock_picking", "lock", -2),         # L815: a high-quality door lock
    ("strongbox_lock", "lock_picking", "lock", -3),         # L816
    ("prison_lock", "lock_picking", "lock", -5),            # L817: a heavy-duty lock
    ("leave_no_mark", "lock_picking", "", -3),              # L819
    # LANGUAGES (L783–L788): how the unknown language relates to one the character knows.
    ("derived_language", "languages", "relation", -1),      # L784: American and Irish English
    ("same_tradition_language", "languages", "relation", -3),   # L785: Italian and Spanish
    ("same_root_language", "languages", "relation", -5),    # L786: German and Italian
    ("cultures_met_language", "languages", "relation", -8),     # L787: Russian and Chinese
    ("unrelated_language", "languages", "relation", -10),   # L788: Navajo and Chinese
    # RIDING (L773): a whole day on horseback, checked at its end; a failure costs a fatigue card.
    ("day_ride", "riding", "", 0),
]
SITUATIONS: dict[str, Situation] = {r[0]: Situation(*r) for r in _ROWS}

LANGUAGES = "languages"


def unknown_language(ids: list[str]) -> bool:
    """A languages check with a relation row is about a language the character does not know (L783):
    its field names that new language, not one of his fields of expertise."""
    return any(SITUATIONS[i].skill == LANGUAGES for i in ids if i in SITUATIONS)


# TRACKING (L797): "on a deal of −10 or less the trail is lost completely".
TRAIL_LOST_AT = -10
TRACKING = "tracking"
# BLACK SMITH (L802): above 6 fine quality, below −4 poor quality (bonuses and penalties: the GM's).
FINE_ABOVE, POOR_BELOW = 6, -4
BLACKSMITHING = {"blacksmithing", "black_smith", "blacksmith"}


def situations_for(skill: str) -> list[Situation]:
    """The named situations a check of this skill may take (for the command's choices)."""
    key = skill_key(skill) if skill else ""
    return [s for s in SITUATIONS.values() if s.skill == key]


def pick(skill: str, names: list[str]) -> list[Situation]:
    """The situations named for a check of `skill`, validated: each known, of that skill, none twice,
    at most one row of each exclusive group."""
    key = skill_key(skill) if skill else ""
    chosen: list[Situation] = []
    for raw in names:
        sid = skill_key(str(raw))
        s = SITUATIONS.get(sid)
        if s is None:
            raise IllegalAction("unknown_situation", situation=str(raw)[:40])
        if s.skill != key:
            raise IllegalAction("situation_of_another_skill", situation={"term": f"situation.{sid}"},
                                skill=skill_term(s.skill))
        if s in chosen:
            raise IllegalAction("situation_twice", situation={"term": f"situation.{sid}"})
        rival = next((c for c in chosen if s.group and c.group == s.group), None)
        if rival is not None:
            raise IllegalAction("situations_exclude", situation={"term": f"situation.{sid}"},
                                other={"term": f"situation.{rival.id}"})
        chosen.append(s)
    return chosen


def situation_parts(ids: list[str]) -> tuple[int, list[dict]]:
    """The total of the chosen situations and one arithmetic part each ("stone wall −3")."""
    parts = [{"term": "situation_part", "situation": {"term": f"situation.{i}"}, "n": SITUATIONS[i].mod}
             for i in ids]
    return sum(SITUATIONS[i].mod for i in ids), parts


def trail_lost(skill: str, mt: int) -> bool:
    return skill_key(skill) == TRACKING and mt <= TRAIL_LOST_AT


def smith_quality(skill: str, mt: int) -> str | None:
    """fine / common / poor for a blacksmithing check's total; None for another skill."""
    if skill_key(skill) not in BLACKSMITHING:
        return None
    if mt > FINE_ABOVE:
        return "fine"
    if mt < POOR_BELOW:
        return "poor"
    return "common"


def check_outcomes(state, success: bool) -> list[Event]:
    """What a finished check's skill table says beyond success (the check's actor, `c1`): a lost
    trail, a smith's quality band, a fatigue card after a failed day's ride. Sets `result` keys
    `trail_lost`, `quality`, `fatigue` and returns the events the table reads. A joker's outcome is
    the GM's ruling, so it has no total to read a band from. A successful first aid check stops the
    actor's bleeding (`wounds`)."""
    check = state.check
    actor = check.sides[0]
    char = state.characters[actor.key]
    mt = actor.mt if actor.mt is not None else 0
    by_total = actor.play is not None and not actor.play.joker
    events: list[Event] = []
    if by_total and trail_lost(actor.skill, mt):
        check.result["trail_lost"] = True
        events.append(Event("trail_lost", {"name": char.shown, "threshold": TRAIL_LOST_AT}))
    quality = smith_quality(actor.skill, mt) if by_total else None
    if quality is not None:
        check.result["quality"] = quality
        events.append(Event("smith_quality", {"name": char.shown, "quality": {"term": f"smith.{quality}"},
                                              "band": quality, "fine_above": FINE_ABOVE, "poor_below": POOR_BELOW}))
    if wounds.first_aid_stops_bleeding(actor.skill, char, success):
        check.result["bleeding_stopped"] = True
        events.append(Event("bleeding_stopped", {"name": char.shown, "who": actor.key}))
    learned = _learn_language(state, char, actor, success)
    if learned:
        check.result["language_learned"] = learned
        events.append(Event("language_learned", {"name": char.shown, "language": learned,
                                                 "known": len(char.fields.get(LANGUAGES, [])),
                                                 "level": char.skill(LANGUAGES)}))
    if fatigue.day_ride_failed(actor.skill, check.situations, success):
        now = fatigue.take_fatigue(char)
        check.result["fatigue"] = now
        events.append(Event("fatigue_taken", {"name": char.shown, "who": actor.key, "fatigue": now,
                                              "hours": fatigue.FATIGUE_HOURS}))
    return events


def _learn_language(state, char, actor, success: bool) -> str:
    """L789 (optional rule, house rule `languages_learned_in_play`): a gist check won in a new language
    makes it one he knows, while he knows fewer languages than his skill level. Returns it, or ''."""
    new = actor.foe_field
    if not (success and new and state.house_rules.get("languages_learned_in_play")
            and skill_key(actor.skill) == LANGUAGES and unknown_language(state.check.situations)):
        return ""
    known = char.fields.setdefault(LANGUAGES, [])
    if any(k.lower() == new.lower() for k in known) or len(known) >= char.skill(LANGUAGES):
        return ""
    known.append(new)
    return new
