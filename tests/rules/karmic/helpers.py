"""Shared helpers for the Karmic tests."""
from __future__ import annotations

from rules.common import GM, PUBLIC, Actor, Choose
from rules.karmic import ENGINE
from rules.karmic.actions import Declare

GM_ACTOR = Actor(GM, gm=True)

DEVON = {"name": "Devon", "attributes": {"finesse": 0, "will": 0, "might": 0},
         "skills": {"sword": 3, "combat_training": 1, "dagger": 2},
         "weapons": [{"name": "Sword", "skill": "sword", "range": 1, "force": 1, "max_maneuvers": 3,
                      "edge": 1, "max_damage": 4},
                     {"name": "Dagger", "skill": "dagger", "range": 0, "force": 1, "max_maneuvers": 3,
                      "edge": 0, "max_damage": 3}],
         "wielding": ["Sword"]}
SOLDIER = {"name": "Soldier", "npc": True, "skills": {"sword": 2},
           "weapons": [{"name": "Sword", "skill": "sword", "range": 1, "force": 1, "max_maneuvers": 3,
                        "edge": 1, "max_damage": 4}],
           "wielding": ["Sword"], "armor": {"name": "Soldier's Armor", "finesse_mod": -1}}


def fight(a, b, stack=None, seed=1, a_player="u1", b_player=GM, **options):
    opts = {"mode": "combat", "combatants": [{"character": a, "player": a_player},
                                             {"character": b, "player": b_player}]}
    opts.update(options)
    if stack:
        opts["stack"] = stack
    out = ENGINE.start([p for p in (a_player, b_player) if p != GM], opts, seed)
    return out.state, out.events


def actor_for(state, key):
    ctl = state.controllers[key]
    return Actor(ctl, gm=ctl == GM)


def declare(state, maneuver, card="", **kw):
    who = state.combat.turn.who
    out = ENGINE.apply(state, Declare(maneuver, card, **kw), actor_for(state, who))
    return out.state, out.events


def answer(state, option, player=None):
    """Answer the single pending prompt (or the one of `player`) with option."""
    prompts = ENGINE.pending(state)
    if player is not None:
        prompts = [p for p in prompts if p.player == player]
    assert prompts, "no prompt pending"
    p = prompts[0]
    out = ENGINE.apply(state, Choose(p.id, (option,)), Actor(p.player, gm=p.player == GM))
    return out.state, out.events


def stand_all(state, events=None):
    """Answer every pending hit prompt with 'stand'."""
    events = list(events or [])
    while True:
        hits = [p for p in ENGINE.pending(state) if any(o.id == "stand" for o in p.options)]
        if not hits:
            return state, events
        out = ENGINE.apply(state, Choose(hits[0].id, ("stand",)), Actor(hits[0].player, gm=hits[0].player == GM))
        state = out.state
        events += out.events


def outcomes(events):
    return [o for e in events if e.kind == "resolve" for o in e.data["outcomes"]]


def public_text(events):
    return "\n".join(said(e) + " " + repr(e.data) for e in events if e.audience == PUBLIC)


def said(event) -> str:
    """An event as the table reads it in English (plain: names, no mentions)."""
    from i18n.present import Presenter
    return Presenter("en", "karmic").event(event, plain=True)


def said_all(events, audience=None) -> str:
    return " ".join(said(e) for e in events if audience is None or e.audience == audience)


def refusal(error) -> str:
    """An error as its reader reads it in English."""
    from i18n.present import Presenter
    return Presenter("en", "karmic").error(error)


class refused_as:
    """`with refused_as("needs the initiative"):` — the action raises an IllegalAction whose English
    words match the pattern (the rules speak codes; the presenter words them)."""

    def __init__(self, pattern: str, kind=None):
        from rules.common import IllegalAction
        self.pattern, self.kind = pattern, kind or IllegalAction

    def __enter__(self):
        return self

    def __exit__(self, kind, value, tb):
        import re
        assert value is not None, f"nothing was refused (wanted {self.pattern!r})"
        if not isinstance(value, self.kind):
            return False
        self.value = value
        assert re.search(self.pattern, refusal(value)), (self.pattern, refusal(value), str(value))
        return True


def why_said(*args, **kw):
    """`why_illegal` as its English sentence (None when the declaration is legal)."""
    from rules.common import IllegalAction
    from rules.karmic.combat import why_illegal
    found = why_illegal(*args, **kw)
    return None if found is None else refusal(IllegalAction(found[0], **found[1]))
