"""Records stored under an older schema, read as today's: the one place each conversion is made.

`GameState.from_dict` and `CampaignRecord.from_dict` call these for a dict of an older `schema`
(every load goes through them: the cog's, the bot player's, an undo's, a ledger entry's copy), so
the rest of the engine only ever sees today's shapes. Each takes the stored dict and returns a
converted copy (the caller's dict, which the store diffs against, is left as it was).
"""
from __future__ import annotations

import copy
import re

from .schema import BAUTA, FEAR, RECORD_SCHEMA, SAMPLE, SCHEMA_VERSION

# Tags of schema 1, matched only to be converted.
OLD_FEAR = re.compile(r"Fear \((-?\d+)\)\Z")                 # a Fear test's Morale reason, X inside
OLD_BUILT = {" (sample)": SAMPLE, " (Bauta)": BAUTA}         # the name the rules gave a squad they built
OLD_ADVENTURE = re.compile(r"Adventure (\d+)\Z")             # the name schemas 1-2 gave an unnamed adventure


def game_state(data: dict) -> dict:
    """A Carnevale GameState of schema 1 as schema 2: a Fear test waiting (in a reroll window, or
    due once the action is done) has the reason FEAR with its X as the modifier; a sample squad
    and the bot's squad lose the English name the rules gave them for who built them."""
    data = copy.deepcopy(data)
    for player in (data.get("players") or {}).values():
        for suffix, built_by in OLD_BUILT.items():
            if player.get("squad") == f"{player.get('faction', '')}{suffix}":
                player["squad"], player["squad_built_by"] = "", built_by
    pending = [data.get("sub") or {}, *(data.get("morale_due") or []), *(data.get("morale_queue") or [])]
    for item in pending:
        _fear(item)
    data["schema"] = SCHEMA_VERSION
    return data


def _fear(value) -> None:
    """Every Morale context inside `value` (a reroll window keeps its roll's under "ctx")."""
    if isinstance(value, dict):
        found = OLD_FEAR.match(str(value.get("reason", "")))
        if found:
            value["reason"], value["modifier"] = FEAR, int(found.group(1))
        for inner in value.values():
            _fear(inner)
    elif isinstance(value, list):
        for inner in value:
            _fear(inner)


def campaign_record(data: dict) -> dict:
    """A CampaignRecord of schema 1 or 2 as schema 3: an adventure recorded without a name, stored
    as "Adventure N" (its own number), has no name; so have the copies the ledger's entries keep."""
    data = copy.deepcopy(data)
    for adventure in data.get("adventures") or []:
        found = OLD_ADVENTURE.match(str(adventure.get("name", "")))
        if found and int(found.group(1)) == adventure.get("number"):
            adventure["name"] = ""
    for entry in data.get("ledger") or []:
        if entry.get("before"):
            entry["before"] = campaign_record(entry["before"])
    data["schema"] = RECORD_SCHEMA
    return data
