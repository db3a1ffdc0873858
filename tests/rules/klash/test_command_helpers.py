"""The read-only helpers the Discord cog uses for typed commands, and how events name players."""
import pytest

from rules.common import Actor, IllegalAction
from rules.klash import ENGINE
from rules.klash.actions import Activate, Move, Pick
from rules.klash import arena
from tests.rules.klash.helpers import SAMPLE, A, B, do, skirmish


def test_command_models_and_targets():
    state = skirmish([("orc", 30, 60), ("acolyte", 40, 80)], [("dwarf", 33.0, 60), ("wolf", 55, 80)])
    assert [m.id for m in ENGINE.command_models(state, A, "ready")] == ["m1", "m2"]
    assert [m.id for m in ENGINE.command_models(state, A, "own")] == ["m1", "m2"]
    assert len(ENGINE.command_models(state, B, "any")) == 4
    assert [m.id for m in ENGINE.command_targets(state, "m1", "assault")] == ["m3"]
    assert ENGINE.command_targets(state, "m1", "charge") == []          # engaged: no charge
    assert ENGINE.spells(state, "m2") == ["mystic_dart", "armour", "healing"]
    assert ENGINE.spells(state, "m1") == []
    assert "m4" in [m.id for m in ENGINE.command_targets(state, "m2", "spell:mystic_dart")]
    assert ENGINE.command_targets(state, "m2", "spell:armour") == []    # armour needs no target
    state, _ = do(state, Activate("m1"), A)
    assert [m.id for m in ENGINE.command_models(state, A, "active")] == ["m1"]


def test_route_toward_the_altar_a_gate_and_a_model():
    state = skirmish([("orc", 20, 60)], [("dwarf", 100, 60)])
    route = ENGINE.route_toward(state, "m1", "alt")
    x, y = route[-1]
    assert abs(x - 30.0) < 0.05 and abs(y - 60.0) < 0.05            # a full 10 cm toward the centre
    # the Move buttons offer the Altar too
    assert "to:alt" in [o.id for o, _ in ENGINE._move_destinations(state, state.model("m1"), 10.0, False)]
    short = ENGINE.route_toward(state, "m1", "alt", distance=4)
    assert abs(short[-1][0] - 24.0) < 0.05
    # toward the far Gate the straight line crosses the Altar: the route goes around it
    around = ENGINE.route_toward(state, "m1", "g1", double=True)
    assert arena.path_length([(20, 60)] + around) <= 20.0 + 1e-6
    state, _ = do(state, Activate("m1"), A)
    px, py = around[-1]
    via = tuple(c for p in around[:-1] for c in p)
    state, events = do(state, Move("m1", px, py, double=True, via=via), A)
    assert (state.model("m1").x, state.model("m1").y) == (px, py)
    with pytest.raises(IllegalAction):
        ENGINE.route_toward(state, "m1", "m1")


def test_deploy_spots_are_legal_deployments():
    state = ENGINE.new_game(["2", "3"], SAMPLE, seed=5)
    assert state.player_a in ("2", "3")
    # events name players by id in their data (the presenter makes the mention)
    picker = ENGINE.picker(state)
    out = ENGINE.apply(state, Pick(0), Actor(picker))
    assert any(e.kind == "pick" and e.data["player"] == picker and not e.text for e in out.events)
    skirmish_state = skirmish([("orc", 20, 60)], [("dwarf", 100, 60)])
    assert ENGINE.deploy_spots(skirmish_state, "m1")   # from its Gate, the spots helper answers


def test_final_swap_with_one_card_can_keep_it():
    """With one card the swap prompt is two buttons (discard it / keep it): "none" must be choosable."""
    from rules.klash.actions import EndActivation
    from tests.rules.klash.helpers import choose, prompt
    state = skirmish([("orc", 30, 30)], [("dwarf", 90, 90)])
    state.hands = {A: ["roar"], B: []}
    state, _ = do(state, Activate("m1"))
    state, _ = do(state, EndActivation("m1"))
    state, _ = do(state, Activate("m2"))
    state, _ = do(state, EndActivation("m2"))
    p = prompt(state, "swap")
    assert [o.id for o in p.options] == ["h0", "keep"] and p.max_choices == 1
    state, ev = choose(state, "swap", "keep")
    assert state.hands[A][0] == "roar"        # kept (plus the next Hourglass's draw)
    assert not [e for e in ev if e.kind == "event_swap" and e.data["count"]]


def test_event_cards_stay_playable_while_a_target_is_chosen():
    """The hand prompts do not vanish during a two-step choice (no DM re-sent after every step)."""
    from tests.rules.klash.helpers import choose, prompt
    state = skirmish([("orc", 30, 60)], [("dwarf", 90, 60)])
    state.hands = {A: ["roar"], B: ["sand"]}
    state, _ = do(state, Activate("m1"))
    hand_a = prompt(state, "hand")
    state, _ = choose(state, "act", "mv")
    assert state.sel == {"kind": "mv"}
    ids = [p.id for p in ENGINE.pending(state)]
    assert hand_a.id in ids and any(p.kind == "hand" and p.player == B for p in ENGINE.pending(state))
    # the opponent's card: the move target is still waiting afterwards
    p = next(x for x in ENGINE.pending(state) if x.kind == "hand" and x.player == B)
    state = ENGINE.apply(state, __import__("rules.common", fromlist=["Choose"]).Choose(p.id, ("h0",)), Actor(B)).state
    state, _ = choose(state, "etgt", "t:m1")
    state, _ = choose(state, "resp", "pass")
    assert state.model("m1").hex == 1 and state.sel == {"kind": "mv"} and prompt(state, "tgt")
    # your own card cancels your half-made choice
    state, _ = choose(state, "hand", "h0")
    state, _ = choose(state, "resp", "pass")
    assert state.vp[A] == 1 and state.sel is None and prompt(state, "act")


def test_route_toward_goes_around_a_friend_in_the_way():
    """`/klash move model:m1 toward:alt` with a friend right in front: around it, not "no closer"."""
    state = skirmish([("orc", 20, 60), ("orc", 23.5, 60)], [("dwarf", 100, 60)])
    route = ENGINE.route_toward(state, "m1", "alt")
    assert arena.path_length([(20, 60)] + route) == pytest.approx(10, abs=0.1)
    state, _ = do(state, Activate("m1"), A)
    via = tuple(c for p in route[:-1] for c in p)
    state, _ = do(state, Move("m1", *route[-1], via=via), A)
    assert arena.dist((state.model("m1").x, state.model("m1").y), arena.CENTRE) < 33
