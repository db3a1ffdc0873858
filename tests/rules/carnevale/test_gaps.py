"""The gaps closed after the first build: reroll windows after Magic and Morale rolls, the Events
and the Geyser resolved by the engine, the Fire Breath and Lightning Bolt Powers, reaction prompts."""
import pytest

from rules.carnevale import ENGINE
from rules.carnevale import actions as A
from rules.common import Choose, IllegalAction

from .helpers import P1, P2, apply, game, kinds, rolls, script, squad, start


def base(first=P1, **kw):
    s = game(squad("The Guild", ("Capodecime", {"leader": True}), "Butcher", "Pulcinella"),
             squad("The Rashaar", ("Magi-Rashaar", {"leader": True}), "Hybrid", "Citizen of Venice"), **kw)
    return start(s, first)


def give(s, uid, name, x=None):
    s.models[uid].abilities.append({"name": name, **({"x": x} if x is not None else {})})


# ------------------------------------------------------------------ 1. reroll windows: Magic and Morale
def test_reroll_window_after_a_magic_roll():
    s = base(P2)
    s.models["b1"].spells = ["Blessing"]
    give(s, "b1", "Reroll All Dice")
    s, _ = apply(s, A.Activate("b1"), P2)
    script(s, 3, 2, 2, 4, 5, 6)                      # Mind 6, Blessing +0d10: no Ace, no Fumble
    s, ev = apply(s, A.Cast("b1", "Blessing", target="b2", attribute="COM"), P2)
    assert "reroll_window" in kinds(ev) and "cast_fail" not in kinds(ev) and "effect" not in kinds(ev)
    assert s.models["b1"].karma == 5 - 1                           # the spell's cost is paid already
    p = ENGINE.pending(s)[0]
    assert p.id.startswith("rr-") and p.player == P2 and {o.id for o in p.options} == {"keep", "all"}
    with pytest.raises(IllegalAction, match="pending"):
        apply(s, A.EndActivation("b1"), P2)
    script(s, 9, 9, 2, 2, 2, 2)
    s, ev = apply(s, Choose(p.id, ("all",)), P2)
    assert rolls(ev)[0]["rerolled"] == [True] * 6 and rolls(ev)[0]["aces"] == 2
    assert s.models["b1"].karma == 3 and not s.models["b1"].cast_locked
    assert [(e.attr, e.delta) for e in s.models["b2"].effects] == [("COM", 1)]


def test_a_failed_magic_roll_that_stands_locks_casting():
    s = base(P2)
    s.models["b1"].spells = ["Blessing"]
    give(s, "b1", "Reroll All Dice")
    s, _ = apply(s, A.Activate("b1"), P2)
    script(s, 3, 2, 2, 4, 5, 6)
    s, ev = apply(s, A.Cast("b1", "Blessing", target="b2", attribute="COM"), P2)
    s, ev = apply(s, Choose(ENGINE.pending(s)[0].id, ("keep",)), P2)
    assert "cast_fail" in kinds(ev) and s.models["b1"].cast_locked and not s.models["b2"].effects
    assert s.models["b1"].karma == 4


def test_reroll_window_after_a_single_morale_roll():
    s = base()
    give(s, "a3", "Reroll Dice", 1)                    # Pulcinella, Mind 3, Karma 2
    script(s, 5, 3, 2)
    s, ev = apply(s, A.Morale(("a3",)), P1)
    assert "reroll_window" in kinds(ev) and "stun" not in kinds(ev)
    p = ENGINE.pending(s)[0]
    assert p.player == P1 and {o.id for o in p.options} == {"keep", "dice"}
    script(s, 9)
    s, ev = apply(s, Choose(p.id, ("dice",)), P1)
    assert rolls(ev)[0]["dice"] == [5, 3, 9] and rolls(ev)[0]["aces"] == 1
    assert "morale_pass" in kinds(ev) and not s.models["a3"].stunned and s.models["a3"].karma == 1


def test_reroll_window_after_a_group_morale_roll_then_the_single_rolls_resume():
    s = base()
    give(s, "b1", "Reroll All Dice")                   # Mind 6 + Command 3 = 9 dice
    script(s, 3, 2, 2, 2, 2, 2, 2, 2, 2, 8, 8, 8, 8, 8, 8)
    s, ev = apply(s, A.Morale(group=True, player=P2), P1)
    assert len(rolls(ev)[0]["dice"]) == 9 and rolls(ev)[0]["aces"] == 0 and "reroll_window" in kinds(ev)
    s, ev = apply(s, Choose(ENGINE.pending(s)[0].id, ("keep",)), P2)
    # the group failed: every model tests on its own, b1 first (6 Aces), and may reroll that too
    assert "morale_group_fail" in kinds(ev) and rolls(ev)[0]["aces"] == 6 and "reroll_window" in kinds(ev)
    script(s, 2, 2, 2, 2, 2, 2)                        # b2 and b3 (Mind 3 each): no Ace
    s, ev = apply(s, Choose(ENGINE.pending(s)[0].id, ("keep",)), P2)
    assert "morale_pass" in kinds(ev)
    assert [e.data["model"] for e in ev if e.kind == "stun"] == ["b2", "b3"]
    assert not s.models["b1"].stunned and s.models["b1"].karma == 5
    assert ENGINE.pending(s)[0].id.startswith("do-") or ENGINE.pending(s)[0].id.startswith("turn-")
