"""Random legal play through pending()/Choose, with secrecy and Discord-limit checks on every step."""
import json
import random

import pytest

from rules.common import GM, PUBLIC, Actor, Choose
from rules.karmic import ENGINE
from rules.karmic.cards import label

from .helpers import said
from .test_maneuvers import BEAR, RAT, br, sw
from content import sample_pack

SCENARIOS = [
    [{"character": "Devon", "player": "u1"}, {"character": "Soldier", "player": GM}],
    [{"character": "Devon", "player": "u1"}, {"character": "Enris", "player": "u2"},
     {"character": "Bandit", "player": GM}],
    [{"character": "Mara", "player": "u1"}, {"character": "Young Noble", "player": GM}],
    [{"character": br("Brawler"), "player": "u1"}, {"character": br("Thug", npc=True), "player": GM}],
    [{"character": sw("Knight"), "player": "u1"}, {"character": dict(BEAR, npc=True), "player": GM}],
    [{"character": dict(sw("Ogre"), size=2), "player": "u1"}, {"character": dict(RAT, npc=True), "player": GM},
     {"character": dict(RAT, npc=True, name="Rat2"), "player": GM}],
]


def _strings(obj, out):
    if isinstance(obj, str):
        out.add(obj)
    elif isinstance(obj, dict):
        for k, v in obj.items():
            _strings(k, out)
            _strings(v, out)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            _strings(v, out)
    return out


def secrets(state):
    """owner key -> cards nobody else may see now (hands, face-down register cards)."""
    out = {}
    cb = state.combat
    for k, f in cb.fighters.items():
        out.setdefault(k, set()).update(f.hand)
    for r in cb.registers:
        for d in r.decls:
            if not d.revealed:
                out.setdefault(d.owner, set()).add(d.card)
    for k, hand in cb.init_hands.items():
        out.setdefault(k, set()).update(hand)
    return out


def public_cards(state, events):
    """Cards legitimately public now (revealed from some deck), to ignore same-id cards of other decks."""
    shown = set()
    for r in state.combat.registers:
        for d in r.decls:
            if d.revealed:
                shown.update([d.card] + d.chain)
    for e in events:
        if e.audience == PUBLIC:
            for item in e.data.get("cards", []) if e.kind == "reveal" else []:
                shown.add(item[2])
            if e.kind == "round_end":          # the finished round's snapshot: revealed cards only
                for r in e.data.get("track", {}).get("registers", []):
                    for d in r["decls"]:
                        assert d["revealed"] or "card" not in d
                        if d["revealed"]:
                            shown.update([d["card"]] + d.get("chain", []))
            if e.kind in ("hit", "stand", "initiative", "hold_break", "hold_struggle", "choke_check") \
                    and e.data.get("card"):
                shown.add(e.data["card"])
                shown.update(e.data.get("chain", []))
    return shown


def check_limits(prompts):
    ids = [p.id for p in prompts]
    assert len(ids) == len(set(ids))
    for p in prompts:
        assert len(p.id) <= 40, p.id
        assert 1 <= len(p.options) <= 25, (p.id, len(p.options))
        for o in p.options:
            assert len(o.id) <= 20 and len(o.label) <= 80, o


def _others_only(state, view, viewer):
    """The viewer's view without his own cards (his deck shares card ids with the world deck)."""
    mine = {k for k, ctl in state.controllers.items() if ctl == viewer}
    view = json.loads(json.dumps(view))
    for ch in view["characters"]:
        ch.pop("karma", None)
        ch.get("sheet", {}).pop("aim_row", None)
    for f in view["combat"]["fighters"]:
        if f["key"] in mine:
            f.pop("hand", None)
            f.pop("hand_labels", None)
            f.pop("initiative_hand", None)
    for r in view["combat"]["registers"]:
        r["decls"] = [d for d in r["decls"] if d["owner"] not in mine]
    view.pop("prompts", None)
    return view


def check_secrecy(state, events):
    sec = secrets(state)
    shown = public_cards(state, events)
    pub_view = ENGINE.view_for(state, PUBLIC)
    json.dumps(pub_view)
    pub_strings = _strings(pub_view, set())
    pub_events = [e for e in events if e.audience == PUBLIC]
    ev_strings = _strings([e.data for e in pub_events], set())
    ev_text = " ".join(said(e) for e in pub_events)
    for owner, cards in sec.items():
        for c in cards - shown:
            assert c not in pub_strings, (c, "public view")
            assert c not in ev_strings, (c, "public event data")
            if label(c) not in {label(x) for x in shown}:      # the two jokers share a label
                assert label(c) not in ev_text, (c, "public event text")
        # other players never see this owner's secret cards either
        for viewer in {ctl for ctl in state.controllers.values() if ctl != GM}:
            if viewer == state.controllers[owner]:
                continue
            v = _strings(_others_only(state, ENGINE.view_for(state, viewer), viewer), set())
            for c in cards - shown:
                assert c not in v, (c, "view of", viewer)
    # NPC sheets stay with the GM
    for ch in pub_view["characters"]:
        assert "sheet" not in ch and "karma" not in ch


VARIANTS = [{}, {"offhand_rules": "skilllist"}, {"unopposed_needs_positive_total": True},
            {"h2h_defender_may_strike": True}, {"range_parry_inside_reach": True}, {"card_rules_enabled": False},
            {"reshuffle_mode": "riffle"}, {"unstoppable_defense_is_unopposed": False},
            {"initiative_attr": "awareness"}, {"world_deck_size": 52}]


def play(seed, combatants, bot):
    rng = random.Random(seed)
    opts = {"mode": "combat", "combatants": combatants, "bot_plays_npcs": bot,
            "house_rules": VARIANTS[seed % len(VARIANTS)]}
    k = rng.random()
    if k < 0.15:
        opts["charge"] = 0
    elif k < 0.3:
        opts["surprise"] = {"attacker": 0, "target": 1}
    elif k < 0.4:
        opts["show_down"] = True
    out = ENGINE.start(["u1", "u2"], {**opts, "pack": sample_pack("karmic")}, seed)
    state, events = out.state, out.events
    check_secrecy(state, events)
    steps = 0
    while not ENGINE.is_over(state) and steps < 250:
        prompts = ENGINE.pending(state)
        check_limits(prompts)
        assert prompts, (state.phase, state.combat.turn)
        if bot:
            assert not any(p.player == GM and state.phase == "declare" for p in prompts)
        p = rng.choice(prompts)
        opts = [o.id for o in p.options if o.id not in ("more", "back")] or [p.options[0].id]
        if "hes" in opts and rng.random() < 0.8:
            opts.remove("hes")
        choice = rng.choice(opts)
        out = ENGINE.apply(state, Choose(p.id, (choice,)), Actor(p.player, gm=p.player == GM))
        state = out.state
        check_secrecy(state, out.events)
        steps += 1
    assert ENGINE.load_state(json.loads(json.dumps(ENGINE.dump_state(state)))) == state
    return state, steps


@pytest.mark.parametrize("scenario", range(len(SCENARIOS)))
def test_random_legal_combats_never_leak(scenario):
    total = 0
    for seed in range(6):
        state, steps = play(seed * 31 + scenario, SCENARIOS[scenario], bot=seed % 2 == 1)
        total += steps
    assert total > 30


def test_random_checks_never_leak():
    for seed in range(30):
        rng = random.Random(seed)
        out = ENGINE.start(["u1"], {"mode": "check", "actor": {"character": "Enris", "player": "u1"},
                                    "pack": sample_pack("karmic"),
                                    "skill": "tracking", "attribute": "awareness", "hidden_modifier": -2,
                                    "opponent": {"character": "Soldier", "player": GM, "attribute": "awareness"}},
                           seed)
        state = out.state
        npc_hand = set(state.check.sides[1].hand) - set(state.check.sides[0].hand)   # decks share card ids
        for e in out.events:
            if e.audience == PUBLIC:
                assert not (_strings(e.data, set()) & npc_hand) and "-2" not in said(e)
        while not state.over:
            p = rng.choice(ENGINE.pending(state))
            out = ENGINE.apply(state, Choose(p.id, (rng.choice(p.options).id,)), Actor(p.player, gm=p.player == GM))
            state = out.state
            for e in out.events:
                if e.audience == PUBLIC:
                    assert not (_strings(e.data, set()) & npc_hand), e
                    assert not any(label(c) in said(e) for c in npc_hand), e
            view = ENGINE.view_for(state, PUBLIC)
            assert not (_strings(view, set()) & npc_hand)
            assert "hidden_modifier" not in json.dumps(view)


def test_face_down_declarations_are_public_as_maneuver_only():
    from .helpers import DEVON, SOLDIER, declare, fight, said
    state, _ = fight(DEVON, SOLDIER, stack={"c1": ["2S", "KS", "2H", "10S"], "c2": ["4H", "QH", "5S"]})
    state, ev = declare(state, "atk", "KS")
    pub = [e for e in ev if e.audience == PUBLIC]
    assert said(pub[0]) == "Devon — Attack vs Soldier — register 1 — face down"
    assert "KS" not in json.dumps(ENGINE.view_for(state, PUBLIC))
    assert "KS" in json.dumps(ENGINE.view_for(state, "u1"))
    gm_view = ENGINE.view_for(state, GM)
    assert set(gm_view["combat"]["fighters"][1]["hand"]) == {"QH", "5S"}
    assert "hand" not in ENGINE.view_for(state, "u1")["combat"]["fighters"][1]


def test_garbage_actions_get_clear_errors_and_change_nothing():
    from i18n.present import Presenter
    from rules.common import IllegalAction
    from rules.karmic.actions import Declare, GmModifier, Hit, PlayCard, Reshuffle, Ruling
    from rules.karmic.tables import MANEUVERS
    cards = ["KS", "2H", "10S", "JK1", "ZZ", ""]
    for seed in range(12):
        rng = random.Random(seed)
        state = ENGINE.start(["u1", "u2"], {"mode": "combat", "combatants": SCENARIOS[seed % len(SCENARIOS)],
                                            "pack": sample_pack("karmic")},
                             seed).state
        for _ in range(40):
            if state.over:
                break
            act = rng.choice([Declare(rng.choice(list(MANEUVERS) + ["stop", "pass", "hes", "xx"]), rng.choice(cards),
                                      weapon=rng.choice(["", "Sword", "Nope"]),
                                      location=rng.choice(["torso", "head", "feet"]), nostep=rng.random() < 0.3),
                              PlayCard("KS"), Hit(True), GmModifier(3), Ruling("success"), Reshuffle(True)])
            actor = Actor(rng.choice(["u1", "u2", "gm", "x"]), gm=rng.random() < 0.3)
            before = state.to_json()
            try:
                ENGINE.apply(state, act, actor)
            except IllegalAction as exc:
                say = Presenter(None, "karmic")
                said = say.error(exc)            # a code from the catalogue, or (not converted yet) a sentence
                assert said and said[0].isupper() and say.counts["missing"] == 0 and say.counts["unresolved"] == 0
            assert state.to_json() == before
            p = rng.choice(ENGINE.pending(state))
            state = ENGINE.apply(state, Choose(p.id, (rng.choice(p.options).id,)),
                                 Actor(p.player, gm=p.player == GM)).state
