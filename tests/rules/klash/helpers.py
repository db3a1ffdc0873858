"""Shared helpers for the Klash! tests."""
from __future__ import annotations

import random
from contextlib import contextmanager

import pytest

from rules.common import Actor, Choose, IllegalAction
from content import sample_pack
from rules.klash import ENGINE

A, B = "alice", "bob"
SAMPLE = {"pack": sample_pack("klash")}    # the engine takes its pack from the caller


def skirmish(teams_a, teams_b, seed=1, options=None, first=A, hourglass=1):
    return ENGINE.new_skirmish([A, B], {A: teams_a, B: teams_b}, seed=seed, options=options or SAMPLE, first=first,
                               hourglass=hourglass)


def do(state, action, who=None, dice=None, window=False):
    """Apply an action (with forced dice) and return (new_state, events). Training Token re-roll windows
    are declined (the dice stand) unless ``window`` is true."""
    if dice is not None:
        state.dice_queue = list(dice)
    who = who or _owner(state, action)
    out = ENGINE.apply(state, action, Actor(who))
    return _decline(out.state, list(out.events), window)


def _decline(state, events, window):
    while state.window is not None and not window:
        p = ENGINE.pending(state)[0]
        out = ENGINE.apply(state, Choose(p.id, ("no",)), Actor(p.player))
        state = out.state
        events += out.events
    return state, events


def _owner(state, action):
    model = getattr(action, "model", None)
    if model:
        if state.acts and state.acts[-1].model == model:
            return state.acts[-1].controller
        return state.model(model).owner
    return state.turn_player or A


# Short names the tests use for prompt kinds (the rules never read ids; neither do the tests).
SHORT = {"initiative": "init", "extra_activation": "ext", "target": "tgt", "arm_reroll": "tok", "respond": "resp",
         "event_target": "etgt"}


def tag(state, p) -> str:
    """A prompt's short name: its kind (`free_counter` is `free`, a re-roll window `rr<answers so far>`)."""
    if p.kind.startswith("free_"):
        return "free"
    if p.kind.startswith("reroll_"):
        return f"rr{len(state.window['decisions'])}"
    return SHORT.get(p.kind, p.kind)


def choose(state, prompt_tag, *options, dice=None, window=False):
    for p in ENGINE.pending(state):
        if tag(state, p) == prompt_tag:
            if dice is not None:
                state.dice_queue = list(dice)
            out = ENGINE.apply(state, Choose(p.id, tuple(options)), Actor(p.player))
            return _decline(out.state, list(out.events), window)
    raise AssertionError(f"no prompt {prompt_tag}: {[p.kind for p in ENGINE.pending(state)]}")


def kinds(events, kind):
    return [e for e in events if e.kind == kind]


def prompt(state, short):
    for p in ENGINE.pending(state):
        if tag(state, p) == short:
            return p
    return None


def random_game(seed, max_steps=6000, keep_events=False):
    """Play a whole game from pending() with a seeded random legal policy."""
    rnd = random.Random(seed)
    state = ENGINE.new_game([A, B], SAMPLE, seed=seed)
    log = []
    steps = 0
    while not ENGINE.is_over(state):
        prompts = ENGINE.pending(state)
        assert prompts, (state.phase, state.stage)
        pr = rnd.choice(prompts)
        ids = [o.id for o in pr.options]
        if pr.max_choices > 1 or pr.min_choices == 0:
            picked = tuple(rnd.sample(ids, rnd.randint(pr.min_choices, pr.max_choices)))
        else:
            forward = [i for i in ids if i != "back"] or ids
            picked = (rnd.choice(forward),)
        try:
            out = ENGINE.apply(state, Choose(pr.id, picked), Actor(pr.player))
        except IllegalAction:
            assert pr.kind == "team", pr.kind  # only a random team may break Champion requirements
            continue
        state = out.state
        if keep_events:
            log.append((state, out.events))
        steps += 1
        assert steps < max_steps, (state.phase, state.stage, state.hourglass)
    return state, steps, log


# ----------------------------------------------------------------- a plain test pack
import yaml  # noqa: E402

from rules.klash.pack import QUALITIES, load_pack_text  # noqa: E402

BASE = dict(type="gregario", copies=2, initiative=3, vp=4, melee_attack="d6", melee_defence="d6",
            ranged_attack="0", ranged_defence="d6", magic_attack="0", magic_defence="d6", tenacity="d6",
            speed=10, discipline=7)
EXTRA = {
    "plain": {},
    "plain8": {"melee_attack": "d8"},
    "big": {"melee_attack": "2d8"},
    "shooter": {"ranged_attack": "d8", "ranged_range": [10, 20], "qualities": ["ranged_attack"]},
    "caster": {"magic_attack": "d8", "qualities": ["spellcaster"],
               "spells": ["armour", "mystic_dart", "domination", "healing", "stun", "terror", "teleport",
                          "destructive_touch"]},
    "beast": {"type": "bestia", "qualities": ["savage_beast"]},
    "monster": {"type": "mostro", "qualities": ["stupid"]},
    "champ": {"type": "campione", "copies": 1, "vp": 10, "requirements": [{"kind": "min_type", "type": "gregario", "count": 2}],
              "qualities": ["requirements"]},
    "vp20": {"vp": 20, "copies": 2},
    "vp26": {"vp": 26, "copies": 2},
    "d10": {"discipline": 10},
}


_PACK: dict = {}


def test_pack():
    """The plain test pack (built and validated once, then copied)."""
    import copy
    if not _PACK:
        _PACK.update(_build_test_pack())
    return copy.deepcopy(_PACK)


def _build_test_pack():
    chars = []
    for key, extra in EXTRA.items():
        chars.append({"id": key, "name": f"T {key}", **BASE, **extra})
    for i, q in enumerate(QUALITIES):
        entry = {"id": f"q{i}", "name": f"T {q}", **BASE, "qualities": [q]}
        if q == "ranged_attack" or q in ("hawk_eye", "mighty_shot", "rapid_fire"):
            entry.update(ranged_attack="d8", ranged_range=[10, 20], qualities=sorted({"ranged_attack", q}))
        if q in ("spellcaster", "destructive_power", "mystic_vocation"):
            entry.update(magic_attack="d8", spells=["mystic_dart", "destructive_touch", "stun"],
                         qualities=sorted({"spellcaster", q}))
        if q in ("savage_beast", "feral", "stupid"):
            entry["type"] = "bestia"
        chars.append(entry)
    events = [
        {"id": "roar", "name": "T roar", "copies": 2, "timing": "own_turn", "effect": "vp", "amount": 2},
        {"id": "water", "name": "T water", "copies": 2, "timing": "any", "effect": "recover"},
        {"id": "drill", "name": "T drill", "copies": 2, "timing": "own_turn", "effect": "token"},
        {"id": "bless", "name": "T bless", "copies": 2, "timing": "any", "effect": "boost"},
        {"id": "sand", "name": "T sand", "copies": 2, "timing": "any", "effect": "hex"},
        {"id": "omen", "name": "T omen", "copies": 2, "timing": "any", "effect": "cancel"},
    ]
    text = yaml.safe_dump({"name": "TEST", "sample": True, "characters": chars, "events": events})
    return load_pack_text(text, "test.yaml")


def Q(quality):
    """Card id of the test card carrying exactly this quality."""
    return f"q{QUALITIES.index(quality)}"


def tskirmish(team_a, team_b, **kw):
    opts = dict(kw.pop("options", None) or {})
    opts["pack"] = test_pack()
    return skirmish(team_a, team_b, options=opts, **kw)


@contextmanager
def illegal(code: str, **params):
    """The action is refused with errors.<code> (and these parameters): the rules speak codes."""
    with pytest.raises(IllegalAction) as refused:
        yield refused
    assert refused.value.code == code, f"refused with {refused.value}"
    for key, value in params.items():
        assert refused.value.params.get(key) == value, f"{key}: {refused.value}"
