"""Reactions the rules grant, offered to their owner as prompts: the free Attack of Opportunity after
a fumbled melee attack (digest §3.1-§3.2) and the reroll window of Morale rolls made inside another
action (§2.10: Fear, a Leader falling, the last survivor, fleeing at End of Round)."""
import pytest

from rules.carnevale import ENGINE
from rules.carnevale import actions as A
from rules.common import Choose, IllegalAction, NotYourTurn

from .helpers import GM_ACTOR, P1, P2, apply, game, kinds, rolls, said, script, squad, start, tag
from .test_engine import two_sample_squads

MISSES = (2,) * 9


def fumbled_attack():
    """P2's Capodecime (b1, COM 4) fumbles a sword attack on the Citizen of Venice (a4)."""
    s = start(two_sample_squads(), P2)
    s, _ = apply(s, A.Activate("b1"), P2)
    script(s, 1, 2, 2, 2)                       # Destiny 1 and no Ace: a Fumble
    s, ev = apply(s, A.Attack("b1", "a4"), P2)
    return s, ev


def offer(s):
    return next(p for p in ENGINE.pending(s) if p.kind == "opportunity")


def test_a_fumbled_attack_offers_its_target_an_attack_of_opportunity():
    s, ev = fumbled_attack()
    assert rolls(ev)[-1]["fumble"] and "opportunity" in kinds(ev)
    prompts = ENGINE.pending(s)
    assert [p.kind for p in prompts] == ["opportunity"]          # nothing else goes on meanwhile
    p = prompts[0]
    assert p.player == P1
    assert p.args == {"model": "Citizen of Venice", "target": "Capodecime"}
    assert [(o.id, o.kind) for o in p.options] == [("take", "opportunity_take"), ("decline", "opportunity_decline")]


def test_the_attack_of_opportunity_is_taken_by_button_at_no_ap():
    s, _ = fumbled_attack()
    ap = s.models["a4"].ap
    script(s, 9)                                 # the Citizen (COM 2 −1, unarmed) hits once vs DEX 6
    s, ev = apply(s, Choose(offer(s).id, ("take",)), P1)
    attack = next(e for e in ev if e.kind == "opportunity_attack")
    assert (attack.data["model"], attack.data["target"], attack.data["weapon"]) == ("a4", "b1", "Unarmed")
    assert (rolls(ev)[0]["model"], rolls(ev)[0]["dice"], rolls(ev)[0]["aces"]) == ("a4", [9], 1)
    dmg = next(e.data for e in ev if e.kind == "damage")
    assert (dmg["amount"], dmg["protection"], dmg["lost"]) == (0, 2, 0)   # 1 Ace, unarmed Aces−1, PRO 2
    assert s.models["a4"].ap == ap and s.opportunities == []
    # the Capodecime's activation goes on: its prompt is back
    assert [(p.kind, p.args) for p in ENGINE.pending(s)] == [("action", {"model": "Capodecime", "ap": 2})]


def test_the_attack_of_opportunity_is_taken_by_command():
    s, _ = fumbled_attack()
    script(s, 9, 2)
    s, ev = apply(s, A.Attack("a4", "b1", opportunity=True), P1)
    assert kinds(ev)[:2] == ["opportunity_attack", "roll"] and rolls(ev)[0]["aces"] == 1
    assert s.opportunities == []
    with pytest.raises(IllegalAction) as exc:                     # only once
        apply(s, A.Attack("a4", "b1", opportunity=True), P1)
    assert exc.value.code == "no_opportunity"


def test_declining_lets_the_activation_go_on_and_other_actions_wait_for_the_answer():
    s, _ = fumbled_attack()
    with pytest.raises(IllegalAction) as exc:
        apply(s, A.EndActivation("b1"), P2)
    assert exc.value.code == "opportunity_pending"
    assert exc.value.params == {"model": "Citizen of Venice", "target": "Capodecime"}
    with pytest.raises(NotYourTurn):                              # the offer is the Citizen's owner's
        apply(s, Choose(offer(s).id, ("take",)), P2)
    s, ev = apply(s, Choose(offer(s).id, ("decline",)), P1)
    assert kinds(ev) == ["opportunity_declined"] and "roll" not in kinds(ev)
    s, ev = apply(s, A.EndActivation("b1"), P2)
    assert s.active == ""


def test_no_free_attack_of_opportunity_without_a_trigger():
    s = start(two_sample_squads(), P1)
    with pytest.raises(IllegalAction) as exc:
        apply(s, A.Attack("a4", "b1", opportunity=True), P1)
    assert exc.value.code == "no_opportunity"


# ------------------------------------------------------------------ Morale inside another action
def base(first=P1, *extra):
    """P1 the Guild (a1 Capodecime, a2 Butcher, a3 Pulcinella), P2 the Rashaar (b1 Magi-Rashaar,
    b2 Hybrid, b3 Citizen of Venice)."""
    s = game(squad("The Guild", ("Capodecime", {"leader": True}), "Butcher", "Pulcinella"),
             squad("The Rashaar", ("Magi-Rashaar", {"leader": True}), "Hybrid", *extra))
    return start(s, first)


def give(s, uid, name, x=None):
    s.models[uid].abilities.append({"name": name, **({"x": x} if x is not None else {})})


def window(s):
    p = ENGINE.pending(s)[0]
    assert p.id.startswith("rr-")
    return p


def test_a_fear_test_gets_its_reroll_window_and_the_attack_waits_for_it():
    s = base(P1, "Citizen of Venice")
    give(s, "a2", "Fear", 0)                            # the Butcher (COM 5) causes Fear
    give(s, "b2", "Reroll Dice", 1)                     # the Hybrid (Mind 3, Karma 2) may reroll a die
    s, _ = apply(s, A.Activate("a2"), P1)
    script(s, 5, 3, 2)                                  # the Fear test: no Ace
    s, ev = apply(s, A.Attack("a2", "b2"), P1)
    assert [tag(r) for r in rolls(ev)] == [("roll_morale", {"why": {"term": "morale_fear", "x": 0}})]      # no attack roll yet
    assert "reroll_window" in kinds(ev) and "stun" not in kinds(ev)
    p = window(s)
    assert p.player == P2 and {o.id for o in p.options} == {"keep", "dice"}
    script(s, 9, 2, 2, 2, 2, 2)                         # the reroll: an Ace; then the attack misses
    s, ev = apply(s, Choose(p.id, ("dice",)), P2)
    assert [tag(r) for r in rolls(ev)] == [("roll_reroll_dice", {}), ("roll_combat", {"difficulty": 5})]
    assert rolls(ev)[0]["dice"] == [5, 3, 9] and rolls(ev)[1]["aces"] == 0
    assert kinds(ev) == ["roll", "morale_pass", "roll", "miss"]
    assert not s.models["b2"].stunned and s.models["b2"].karma == 1 and s.models["a2"].ap == 2


def test_the_group_test_when_the_leader_falls_gets_its_reroll_window():
    s = base(P1, "Citizen of Venice")
    give(s, "b2", "Reroll All Dice")
    script(s, 3, 2, 2)                                  # the group roll (Hybrid, Mind 3): no Ace
    s, ev = apply(s, A.Damage("b1", 30), GM_ACTOR)
    assert "fallen" in kinds(ev) and "reroll_window" in kinds(ev)
    assert [tag(r) for r in rolls(ev)] == [("roll_group_morale", {"why": {"term": "morale_the_leader_fell"}})]
    p = window(s)
    assert p.player == P2 and {o.id for o in p.options} == {"keep", "all"}
    script(s, 9, 9, 2)
    s, ev = apply(s, Choose(p.id, ("all",)), P2)
    assert rolls(ev)[0]["dice"] == [9, 9, 2] and kinds(ev)[-1] == "squad_holds"
    assert not s.models["b2"].stunned and not s.models["b3"].stunned and s.models["b2"].karma == 1


def test_the_last_survivor_test_gets_its_reroll_window():
    s = base(P1)                                        # the Rashaar: the Magi-Rashaar and the Hybrid
    give(s, "b1", "Reroll All Dice")
    script(s, 3, 2, 2, 2, 2, 2)                         # the Magi (Mind 6) alone: no Ace
    s, ev = apply(s, A.Damage("b2", 30), GM_ACTOR)
    assert [tag(r) for r in rolls(ev)] == [("roll_morale", {"why": {"term": "morale_last_survivor_of_the_squad"}})]
    p = window(s)
    script(s, 2, 2, 2, 2, 2, 2)
    s, ev = apply(s, Choose(p.id, ("all",)), P2)
    assert rolls(ev)[0]["rerolled"] == [True] * 6 and rolls(ev)[0]["aces"] == 0
    assert s.models["b1"].stunned and s.models["b1"].karma == 4


def test_the_rally_roll_of_a_fleeing_model_at_end_of_round_gets_its_reroll_window():
    s = base(P1, "Citizen of Venice")
    s.models["b3"].fleeing = True
    give(s, "b3", "Reroll All Dice")                    # the Citizen: Mind 3, Karma 1
    script(s, 3, 2, 2)
    s, ev = apply(s, A.EndRound(), GM_ACTOR)
    assert [tag(r) for r in rolls(ev)][:1] == [("roll_morale", {"why": {"term": "morale_fleeing"}})] and "rally" not in kinds(ev)
    p = window(s)
    assert p.player == P2
    script(s, 9, 2, 2)
    s, ev = apply(s, Choose(p.id, ("all",)), P2)
    assert kinds(ev) == ["roll", "rally"] and not s.models["b3"].fleeing
    assert not s.models["b3"].stunned                  # a rally roll never Stuns
    assert ENGINE.pending(s)[0].id == f"order-r{s.round}"


# ------------------------------------------------------------------ every roll explains itself
def test_an_in_game_roll_names_its_attribute_and_each_modifier():
    s = base(P1, "Citizen of Venice")
    s, _ = apply(s, A.Activate("a1"), P1)             # the Capodecime: SHO 4, a Pistol (range 8'')
    script(s, 4)
    s, ev = apply(s, A.Shoot("a1", "b2", distance=12, cover_size="medium", cover_hardness="light"), P1)
    roll = next(e for e in ev if e.kind == "roll")
    assert (roll.data["stat"], roll.data["base"], roll.data["modifiers"]) == ("SHO", 4, [["range", -1], ["cover", -2]])
    assert said(roll.data["pool"]) == "SHO 4 −1 range, −2 cover = 1d10"
    assert said(roll) == "Capodecime: Shooting vs 7 — SHO 4 −1 range, −2 cover = 1d10 → [4] vs 7: 0 Aces"


# ------------------------------------------------------------------ the buttons ask what the table knows
def click_through(s, player, *picks):
    for pick in picks:
        s, ev = apply(s, Choose(ENGINE.pending(s)[0].id, (pick,)), player)
    return s, ev


def test_the_shoot_buttons_ask_the_distance_band_then_the_cover():
    s = base(P1, "Citizen of Venice")
    s, _ = apply(s, A.Activate("a1"), P1)             # the Capodecime's Pistol: range 8''
    s, _ = click_through(s, P1, "shoot", "b2")
    p = ENGINE.pending(s)[0]
    assert (p.kind, p.args) == ("shot_distance", {"model": "Capodecime", "target": "Hybrid", "weapon": "Pistol",
                                                  "range": 8})
    assert [(o.id, o.args) for o in p.options] == [("d8", {"range": 8}), ("d9", {"near": 8, "far": 13, "dice": -1}),
                                                    ("d14", {"near": 13, "far": 16, "dice": -2}), ("back", {})]
    script(s, 9, 9)
    s, ev = click_through(s, P1, "d14", "m-light")    # 13–16'' and medium light cover: 4 −2 −2 = 0 dice
    roll = next(e for e in ev if e.kind == "roll")
    assert roll.data["modifiers"] == [["range", -2], ["cover", -2]] and roll.data["dice"] == []


def test_the_melee_buttons_ask_who_else_is_in_contact():
    s = base(P1, "Citizen of Venice")
    s, _ = apply(s, A.Activate("a1"), P1)             # the Capodecime: COM 4
    s, _ = click_through(s, P1, "melee", "b2")
    p = ENGINE.pending(s)[0]
    assert (p.kind, p.args) == ("melee_contact", {"model": "Capodecime", "target": "Hybrid"})
    assert [o.id for o in p.options] == ["a0e0", "a0e1", "a0e2", "a1e0", "a1e1", "a1e2", "a2e0", "a2e1", "a2e2",
                                         "back"]
    script(s, 2, 2, 2, 2, 2)
    s, ev = click_through(s, P1, "a2e1")
    roll = next(e for e in ev if e.kind == "roll")
    assert said(roll.data["pool"]) == "COM 4 +2 friends in contact with the target, −1 other enemies in contact = 5d10"
    assert s.models["a1"].ap == 2
