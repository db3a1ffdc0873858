"""Every spell of the table (§2.11) through the engine."""
import pytest

from rules.carnevale import ENGINE
from rules.carnevale import actions as A
from rules.carnevale import mechanics as M
from rules.common import Choose, IllegalAction

from .helpers import GM_ACTOR, P1, P2, apply, game, kinds, rolls, rolls_of, script, squad, start
from .test_examples import tpack


def mages():
    s = game(squad("Test House", ("Test Mage", {"leader": True}), "Test Brute", "Test Swimmer"),
             squad("Test House", ("Dull Mage", {"leader": True}), "Test Brute", "Test Swimmer"), pack=tpack())
    s = start(s, P1)
    s, _ = apply(s, A.Activate("a1"), P1)
    return s


def test_curse_lowers_per_ace_with_a_minimum_of_one():
    s = mages()
    script(s, 9, 9, 9, 2, 2, 2)
    s, _ = apply(s, A.Cast("a1", "Curse", target="b2", attribute="COM"), P1)
    assert M.attr(s.models["b2"], "COM") == 5 - 3
    script(s, 9, 9, 9, 9, 9, 9)
    s, ev = apply(s, A.Cast("a1", "Curse", target="b2", attribute="DEX"), P1)
    assert "spell_void" in kinds(ev)                        # one Curse at a time


def test_dispel_magic_uses_half_the_casters_mind():
    s = mages()
    script(s, 9, 9, 9, 9, 9, 9, 9)
    s, _ = apply(s, A.Cast("a1", "Protection of the Eye", target="b2"), P1)
    script(s, 9, 9, 9)
    s, ev = apply(s, A.Cast("a1", "Dispel Magic", target="b2"), P1)
    magic = [r for r in rolls_of(ev, "roll_magic") if r["what"]["spell"] == "Dispel Magic"][0]
    assert len(magic["dice"]) == 6 - 3 and not s.models["b2"].effects


def test_immediate_healing_rolls_aces_dice_and_fumble_hurts():
    s = mages()
    s, _ = apply(s, A.Damage("a2", 4, ignore_protection=True), GM_ACTOR)
    script(s, 9, 9, 2, 2, 2, 2, 9, 9)                       # 2 Aces → Healing (2): 2 more Aces
    s, _ = apply(s, A.Cast("a1", "Immediate Healing", target="a2"), P1)
    assert s.models["a2"].damage == 2
    with pytest.raises(IllegalAction, match=r"^touch_not_caster\b"):
        apply(s, A.Cast("a1", "Immediate Healing", target="a1"), P1)
    script(s, 1, 2, 2, 2, 2, 2)
    s, ev = apply(s, A.Cast("a1", "Immediate Healing", target="a2"), P1)
    assert s.models["a2"].damage == 3 and not s.models["a1"].stunned


def test_infernal_images_critical_stuns_as_many_as_aces():
    s = mages()
    script(s, 10, 9, 9, 2)
    s, ev = apply(s, A.Cast("a1", "Infernal Images", target="b2", targets=("b3", "b1")), P1)
    assert s.models["b2"].stunned and s.models["b3"].stunned and s.models["b1"].stunned
    assert s.models["a1"].ap == 4                           # Critical: the AP comes back


def test_mother_hidras_claws_spiritual_damage_per_ace():
    s = mages()
    script(s, 9, 9, 2, 2)
    s, ev = apply(s, A.Cast("a1", "Mother Hidra's Claws", targets=("b2", "b3")), P1)
    assert s.models["b2"].damage == 2 and s.models["b3"].damage == 2
    script(s, 9, 9, 2, 2)
    with pytest.raises(IllegalAction, match=r"^claws_targets\b"):
        apply(s, A.Cast("a1", "Mother Hidra's Claws", targets=("b2", "b2")), P1)


def test_claws_fumble_three_spiritual_on_the_opponents_pick():
    s = mages()
    script(s, 1, 2, 2, 2)
    s, ev = apply(s, A.Cast("a1", "Mother Hidra's Claws", target="a2"), P1)
    assert s.models["a2"].damage == 3


def test_petrify_zeroes_ap_until_end_of_round_and_fumble_halves_caster_ap():
    s = mages()
    script(s, 9, 2, 2)
    s, _ = apply(s, A.Cast("a1", "Petrify", target="b2"), P1)
    assert s.models["b2"].ap == 0 and s.models["b2"].petrified
    script(s, 1, 2, 2)
    s, ev = apply(s, A.Cast("a1", "Petrify", target="b3"), P1)
    assert s.models["a1"].half_ap
    s, _ = apply(s, A.EndRound(), GM_ACTOR)
    assert s.models["b2"].ap == 3 and not s.models["b2"].petrified and s.models["a1"].ap == 2


def test_mist_from_the_abyss_darkness_for_aces_rounds():
    s = mages()
    script(s, 9, 9, 2, 2, 2, 2)
    s, _ = apply(s, A.Cast("a1", "Mist from the Abyss", targets=("b2", "b3")), P1)
    assert s.models["b2"].in_darkness
    s, _ = apply(s, A.EndRound(), GM_ACTOR)
    assert s.models["b2"].in_darkness
    s = start(s, P1)
    s, _ = apply(s, A.EndRound(), GM_ACTOR)
    assert not s.models["b2"].in_darkness


def test_krakens_breath_one_attack_roll_against_every_model():
    pack = tpack()
    pack["factions"][0]["classes"][0]["spells"].append("Kraken's Breath")
    pack["factions"][0]["classes"][0]["karma"] = 20
    s = game(squad("Test House", ("Test Mage", {"leader": True}), "Test Brute"),
             squad("Test House", ("Dull Mage", {"leader": True}), "Test Brute", "Test Swimmer"), pack=pack)
    s = start(s, P1)
    s, _ = apply(s, A.Activate("a1"), P1)
    script(s, 9, 9, 2, 2,  9, 9, 9, 9, 2,  2, 2, 2, 2,  2, 2, 2, 2)
    s, ev = apply(s, A.Cast("a1", "Kraken's Breath", targets=("b2", "b3")), P1)
    attacks = rolls_of(ev, "roll_kraken")
    assert [len(r["dice"]) for r in attacks] == [5, 5] and attacks[0]["dice"] == attacks[1]["dice"]
    assert [e.data["lost"] for e in ev if e.kind == "damage"] == [2, 2]


def test_walk_between_worlds_penalises_attackers():
    s = mages()
    script(s, 9, 9, 2, 2)
    s, _ = apply(s, A.Cast("a1", "Walk Between Worlds"), P1)
    s, _ = apply(s, A.EndActivation("a1"), P1)
    s, _ = apply(s, A.Activate("b2"), P2)
    s, ev = apply(s, A.Attack("b2", "a1"), P2)
    assert len(rolls(ev)[0]["dice"]) == 5 - 4


def test_spell_buttons_drive_a_cast():
    s = mages()
    p = ENGINE.pending(s)[-1]
    s, _ = apply(s, Choose(p.id, ("cast",)), P1)
    p = ENGINE.pending(s)[-1]
    blessing = [o.id for o in p.options if o.args.get("spell") == "Blessing"][0]
    s, _ = apply(s, Choose(p.id, (blessing,)), P1)
    p = ENGINE.pending(s)[-1]
    s, _ = apply(s, Choose(p.id, ("a2",)), P1)
    p = ENGINE.pending(s)[-1]
    assert p.id.startswith("at-")
    script(s, 9, 9, 9, 9, 9, 9)
    s, ev = apply(s, Choose(p.id, ("COM",)), P1)
    assert M.attr(s.models["a2"], "COM") == 6


def test_casting_in_contact_provokes_attacks_of_opportunity_before_the_roll():
    s = mages()
    s, ev = apply(s, A.Cast("a1", "Walk Between Worlds", enemies=("b2",)), P1)
    order = [e.kind for e in ev if e.kind in ("cast", "opportunity_attack", "roll")]
    assert order[0] == "cast" and order[1] == "opportunity_attack"
    magic = [i for i, e in enumerate(ev) if e.kind == "roll" and e.data["label"] == "roll_magic"][0]
    attack = [i for i, e in enumerate(ev) if e.kind == "opportunity_attack"][0]
    assert attack < magic
