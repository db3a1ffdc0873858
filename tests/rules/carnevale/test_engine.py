"""The engine: a full game of two sample squads, prompts, permissions, secrets, random play."""
import json
import random
import time

import pytest

from i18n.present import Presenter
from rules.carnevale import ENGINE, load_sample_pack
from rules.carnevale import actions as A
from rules.carnevale.squad import SquadMember, check_squad, sample_squad, validate_squad, SquadError
from rules.common import GM, PUBLIC, Actor, Choose, IllegalAction, NotYourTurn

from .helpers import GM_ACTOR, P1, P2, apply, fighting_game, game, kinds, rolls, rolls_of, said, script, squad, start, tag


SAY = Presenter("en", "carnevale")      # the English labels players read


def two_sample_squads():
    rashaar = squad("The Rashaar", SquadMember("Magi-Rashaar", leader=True, spells=["Infernal Images", "Blessing"]),
                    "Ugdru-Rashaar", "Hybrid", "Citizen of Venice", points=200)
    guild = squad("The Guild", ("Capodecime", {"leader": True}), "Butcher", "Pulcinella", "Harlot", points=200)
    return game(rashaar, guild, seed=11)


def test_full_game_of_two_sample_squads():
    s = two_sample_squads()
    assert s.phase == "order"
    s = start(s, P1)
    # --- Round 1, P1: the Magi-Rashaar casts twice; the second spell costs 2 Karma
    s, ev = apply(s, A.Activate("a1"), P1)
    karma0 = s.models["a1"].karma
    script(s, 9, 9, 9, 9)                                   # MIN 6 − 2 = 4 dice
    s, ev = apply(s, A.Cast("a1", "Infernal Images", target="b2"), P1)
    assert [e.data["karma_cost"] for e in ev if e.kind == "cast"] == [1]
    assert s.models["b2"].stunned                          # the Butcher is Stunned
    script(s, 9, 9, 9, 9, 9, 9)
    s, ev = apply(s, A.Cast("a1", "Blessing", target="a2", attribute="COM"), P1)
    assert [e.data["karma_cost"] for e in ev if e.kind == "cast"] == [2]
    assert s.models["a1"].karma == karma0 - 3 and s.models["a1"].ap == 1
    s, _ = apply(s, A.EndActivation("a1"), P1)
    # --- P2: the Butcher is hit again in a later Turn while still Stunned → 1 damage
    assert s.turn_player == P2
    s, _ = apply(s, A.Activate("b3"), P2)                 # Pulcinella
    s, ev = apply(s, A.Stun("b2", "Low Blow"), P2)
    assert "stun_damage" in kinds(ev) and s.models["b2"].damage == 1
    s, ev = apply(s, A.Stun("b2", "again"), P2)            # same Turn: ignored
    assert "stun_ignored" in kinds(ev) and s.models["b2"].damage == 1
    s, _ = apply(s, A.EndActivation("b3"), P2)
    # --- P1: the Ugdru (blessed, COM 6) mauls the Butcher across two pain thresholds
    s, _ = apply(s, A.Activate("a2"), P1)
    script(s, 9, 9, 9, 9, 9, 9)
    s, ev = apply(s, A.Attack("a2", "b2", enemies=0), P1)
    assert len(rolls(ev)[-1]["dice"]) == 6                # Blessing +1 COM
    dmg = [e.data for e in ev if e.kind == "damage"][0]
    # Six Aces against the Butcher: 6 damage, its Protection 1 stops one, so 5 boxes are lost.
    assert (dmg["amount"], dmg["protection"], dmg["lost"]) == (6, 1, 5)
    assert "pain" in kinds(ev)
    b2 = s.models["b2"]
    assert b2.damage >= 6
    s, _ = apply(s, A.EndActivation("a2"), P1)
    # --- P2: the Harlot's single Morale roll fumbles: Stun and flee
    s, _ = apply(s, A.Activate("b4"), P2)
    script(s, 1, 2, 3, 4)                                   # MIN 4: Destiny 1, no Ace
    s, ev = apply(s, A.Morale(("b4",)), P2)
    assert "flee" in kinds(ev) and s.models["b4"].fleeing and s.models["b4"].stunned
    s, _ = apply(s, A.EndActivation("b4"), P2)
    # --- play the rest of the round out
    while s.phase == "activation":
        p = ENGINE.pending(s)[-1]
        if p.id.startswith("turn-"):
            s, _ = apply(s, Choose(p.id, (p.options[0].id,)), p.player)
        else:
            s, _ = apply(s, Choose(p.id, ("end",)), p.player)
    assert s.phase == "end_round"
    eor = ENGINE.pending(s)[-1]
    assert eor.id == "eor-r1"
    s, ev = apply(s, Choose(eor.id, ("go",)), eor.player)
    # --- End of Round resets
    assert s.round == 2 and s.phase == "order"
    a1 = s.models["a1"]
    assert a1.ap == a1.ap_max and not a1.activated and a1.casts_this_round == 0 and not a1.cast_locked
    assert not any(e.name == "Blessing" for e in s.models["a2"].effects)
    assert s.models["b2"].stunned or s.models["b2"].fallen          # Stun stays
    assert any(tag(r) == ("roll_morale", {"why": {"term": "morale_fleeing"}}) for r in rolls(ev))
    # --- and to the end, by buttons only
    rnd = random.Random(3)
    guard = 0
    while not ENGINE.is_over(s) and guard < 2000:
        p = ENGINE.pending(s)[0]
        opts = [o.id for o in p.options if o.id not in ("back",)] or [p.options[0].id]
        k = max(p.min_choices, 1)
        s, _ = apply(s, Choose(p.id, tuple(rnd.sample(opts, min(k, len(opts))))), p.player)
        guard += 1
    assert s.over and s.round == 5
    # §5.3: 2 VP per enemy model killed, 1 per own model alive, 5 for the objective, +1 per vial,
    # plus the Agenda's VP when met; the squad with more VP wins.
    vp = s.result["vp"]
    for side in (P1, P2):
        v = vp[side]
        assert v["total"] == 2 * v["kills"] + v["alive"] + v["objective"] + v["vials"] + v["agenda_vp"]
    # (the seeded random clicks: the melee and shoot buttons ask the table facts since issue 14)
    assert (vp[P1]["total"], vp[P2]["total"]) == (9, 1) and s.result["winner"] == P1


def test_view_shows_life_tracks_and_the_cost_of_the_next_spell():
    s = two_sample_squads()
    v = ENGINE.view_for(s, P1)
    m = [x for x in v["models"] if x["uid"] == "a1"][0]
    assert m["life_track"] == [0, 0, 0, -1, -1, -1, -2, -2, -3] and m["thresholds"] == [5, 7]
    assert m["next_spell_cost"] == 1 and m["command"] == 3 and m["leader"]
    json.dumps(v)


def test_actions_only_for_your_own_models():
    s = start(two_sample_squads(), P1)
    with pytest.raises(NotYourTurn):
        apply(s, A.Activate("a1"), P2)
    with pytest.raises(NotYourTurn):
        apply(s, A.Activate("b1"), P2)                    # not P2's Turn
    s2, _ = apply(s, A.Activate("a1"), GM_ACTOR)           # a GM may act for anyone
    with pytest.raises(NotYourTurn):
        apply(s2, A.SpendAP("a1", "walk"), P2)
    with pytest.raises(NotYourTurn):
        apply(s2, A.SpendKarma("a1", 1, "protection"), P2)
    with pytest.raises(IllegalAction) as exc:
        apply(s2, A.Activate("a2"), P1)
    assert (exc.value.code, exc.value.params) == ("still_activating", {"model": "Magi-Rashaar"})


def test_command_gives_ap_with_its_limits_and_chain_activation():
    s = start(two_sample_squads(), P1)
    s, _ = apply(s, A.Activate("a2"), P1)
    s, ev = apply(s, A.SpendCommand("a1", "a2", 2), P1)
    assert s.models["a2"].ap == 5 and s.models["a1"].command == 1
    with pytest.raises(IllegalAction, match=r"^command_at_most_2\b"):
        apply(s, A.SpendCommand("a1", "a2", 1), P1)
    with pytest.raises(IllegalAction, match=r"^command_activating_now\b"):
        apply(s, A.SpendCommand("a1", "a3", 1), P1)
    # chain: end with 1 Command; the enemy leader may cancel
    opts = [o.id for o in ENGINE.pending(s)[-1].options]
    assert "endchain" in opts
    p = ENGINE.pending(s)[-1]
    s, ev = apply(s, Choose(p.id, ("endchain",)), P1)
    assert s.models["a1"].command == 0
    cancel = ENGINE.pending(s)[-1]
    assert cancel.player == P2 and cancel.id.startswith("cancel-")
    s2, _ = apply(s, Choose(cancel.id, ("allow",)), P2)
    assert s2.turn_player == P1
    s3, _ = apply(s, Choose(cancel.id, ("cancel",)), P2)
    assert s3.turn_player == P2 and s3.models["b1"].command == 2


def test_leader_cannot_give_himself_ap_and_rebels_get_nothing():
    s = game(squad("Doctors of the Ospedale", ("Plague Doctor", {"leader": True}), "Madman of the Ospedale"),
             squad("The Guild", ("Capodecime", {"leader": True})))
    s = start(s, P1)
    s, _ = apply(s, A.Activate("a1"), P1)
    with pytest.raises(IllegalAction, match="himself"):
        apply(s, A.SpendCommand("a1", "a1", 1), P1)
    s, _ = apply(s, A.EndActivation("a1"), P1)
    s, _ = apply(s, A.Activate("b1"), P2)
    s, _ = apply(s, A.EndActivation("b1"), P2)
    s, _ = apply(s, A.Activate("a2"), P1)
    with pytest.raises(IllegalAction, match=r"^rebellious\b"):
        apply(s, A.SpendCommand("a1", "a2", 1), P1)


def test_pass_only_with_fewer_unactivated_models():
    def fresh():
        return game(squad("The Guild", ("Capodecime", {"leader": True})),
                    squad("The Guild", ("Capodecime", {"leader": True}), "Harlot", "Pulcinella"))
    s = start(fresh(), P2)
    assert not any(o.id == "pass" for o in ENGINE.pending(s)[-1].options)      # 3 left against 1
    with pytest.raises(IllegalAction, match="no_pass"):
        apply(s, A.Pass(P2), P2)
    s = start(fresh(), P1)
    assert any(o.id == "pass" for o in ENGINE.pending(s)[-1].options)          # 1 left against 3
    s, ev = apply(s, A.Pass(P1), P1)
    assert s.turn_player == P2 and "pass" in kinds(ev)


def test_deployment_prompts_and_reinforcements_from_round_two():
    rashaar = squad("The Rashaar", ("Magi-Rashaar", {"leader": True}), "Hybrid", "Citizen of Venice")
    guild = squad("The Guild", ("Capodecime", {"leader": True}), "Harlot")
    s = ENGINE.new_game([P1, P2], {"squads": {P1: rashaar.to_dict(), P2: guild.to_dict()}}, seed=5)
    ps = ENGINE.pending(s)
    assert [p.id for p in ps] == ["deploy-0", "deploy-1"] and ps[0].min_choices == 2
    with pytest.raises(IllegalAction, match=r"^advance_party\b"):
        apply(s, A.Deploy(P1, ("a1",)), P1)
    s, _ = apply(s, Choose("deploy-0", ("a1", "a2")), P1)
    s, ev = apply(s, Choose("deploy-1", ("b1", "b2")), P2)
    assert "deploy_roll" in kinds(ev) and s.phase == "order"
    assert not s.models["a3"].on_table
    s = start(s, P1)
    assert not any(o.id == "reinforce" for o in ENGINE.pending(s)[-1].options)   # Round 1
    s, _ = apply(s, A.EndRound(), GM_ACTOR)
    s = start(s, P1)
    p = ENGINE.pending(s)[-1]
    assert any(o.id == "reinforce" for o in p.options)
    s, _ = apply(s, Choose(p.id, ("reinforce",)), P1)
    p = ENGINE.pending(s)[-1]
    assert p.id.startswith("rf-") and "a:a3" in [o.id for o in p.options]
    s, ev = apply(s, Choose(p.id, ("a:a3",)), P1)
    assert s.models["a3"].on_table and s.active == "a3"


def test_flanking_failure_lets_another_model_activate():
    rashaar = squad("The Rashaar", ("Magi-Rashaar", {"leader": True}), "Hybrid", "Citizen of Venice")
    guild = squad("The Guild", ("Capodecime", {"leader": True}), "Harlot")
    s = ENGINE.new_game([P1, P2], {"squads": {P1: rashaar.to_dict(), P2: guild.to_dict()}}, seed=5)
    s, _ = apply(s, A.Deploy(P1, ("a1", "a2")), P1)
    s, _ = apply(s, A.Deploy(P2, ("b1", "b2")), P2)
    s = start(s, P1)
    s, _ = apply(s, A.EndRound(), GM_ACTOR)
    s = start(s, P1)
    script(s, 6)
    s, ev = apply(s, A.Reinforce("a3", "flanking"), P1)
    assert "reinforce_fail" in kinds(ev) and not s.models["a3"].on_table
    with pytest.raises(IllegalAction, match=r"^reinforce_tried\b"):
        apply(s, A.Reinforce("a3", "assault"), P1)
    s, _ = apply(s, A.Activate("a1"), P1)


def test_karma_protection_limit_and_zero_karma_penalty():
    s = start(two_sample_squads(), P1)
    s, _ = apply(s, A.SpendKarma("a2", 2, "protection"), P1)
    with pytest.raises(IllegalAction, match=r"^karma_protection_max\b"):
        apply(s, A.SpendKarma("a2", 1, "protection"), P1)
    s, ev = apply(s, A.Damage("a2", 5), GM_ACTOR)          # PRO 3 + 2
    assert [e.data["lost"] for e in ev if e.kind == "damage"] == [0]
    s, ev = apply(s, A.Damage("a2", 5), GM_ACTOR)          # the boost is used up
    assert [e.data["lost"] for e in ev if e.kind == "damage"] == [2]
    assert s.models["a2"].karma == 0
    s, ev = apply(s, A.Roll(model="a2", attribute="COM"), P1)
    assert len(rolls(ev)[0]["dice"]) == 5 - 1               # no Karma left


def test_group_morale_uses_highest_mind_plus_leader_command_and_cascades():
    s = start(two_sample_squads(), P1)
    script(s, *([2] * 9), *([9] * 30))                      # the group roll fails, every single roll passes
    s, ev = apply(s, A.Morale(group=True, player=P2), P2)
    group = rolls(ev)[0]
    assert group["model"] == "b1" and len(group["dice"]) == 5 + 3   # Capodecime MIN 5 + Command 3
    singles = [r for r in rolls(ev)[1:]]
    assert len(singles) == 4 and "morale_group_fail" in kinds(ev)


def test_leader_falling_triggers_group_morale_and_gives_karma():
    s = start(two_sample_squads(), P1)
    s.models["a2"].karma = 0
    s, ev = apply(s, A.Damage("b1", 30, ignore_protection=True, attacker="a2"), P1)
    assert "fallen" in kinds(ev) and rolls_of(ev, "roll_group_morale")
    assert s.models["a2"].karma == 2                       # +3, capped at the starting 2


def test_friend_falling_asks_who_was_within_5_inches():
    s = start(two_sample_squads(), P1)
    s, ev = apply(s, A.Damage("b4", 30, ignore_protection=True), GM_ACTOR)
    p = [p for p in ENGINE.pending(s) if p.id.startswith("mor-")][0]
    assert p.player == P2 and p.max_choices >= 2
    s, ev = apply(s, Choose(p.id, ("b2", "b3")), P2)
    assert [r["model"] for r in rolls(ev)] == ["b2", "b3"]
    assert not [p for p in ENGINE.pending(s) if p.id.startswith("mor-")]


def test_hold_breath_at_end_of_round_and_drown():
    s = start(two_sample_squads(), P1)
    s, _ = apply(s, A.SetStatus("b3", "in_water"), P2)
    s, _ = apply(s, A.SetStatus("b3", "immobilised"), P2)
    script(s, 2, 2, 2, 2, 2, 2)
    s, ev = apply(s, A.EndRound(), GM_ACTOR)
    assert rolls_of(ev, "roll_hold_breath") and s.models["b3"].stunned
    # the Hybrid drowns the Pulcinella
    s = start(two_sample_squads(), P1)
    for uid, pid in (("a3", P1), ("b3", P2)):
        s, _ = apply(s, A.SetStatus(uid, "in_water"), pid)
    s, _ = apply(s, A.Activate("a3"), P1)
    script(s, 9, 9, 9, 9, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2)
    s, ev = apply(s, A.Attack("a3", "b3", manoeuvre="drown"), P1)
    assert "drown" in kinds(ev) and s.models["a3"].ap == 1 and s.models["b3"].stunned


def test_falls_by_category():
    s = start(two_sample_squads(), P1)
    script(s, 2, 2, 2, 2, 2, 2)                             # failed Dex: no reduction
    s, ev = apply(s, A.Fall("b3", 7), P2)
    d = [e.data for e in ev if e.kind == "damage"][0]
    assert d["amount"] == 4 and d["protection"] == 0 and d["lost"] == 4   # base PRO 2 − Penetration 2
    assert s.models["b3"].stunned                          # 7'' ≥ DEX 6
    s, ev = apply(s, A.Fall("b4", 12), P2)
    assert s.models["b4"].fallen


def test_shooting_cover_aim_critical_and_jam():
    s = game(squad("The Patricians", ("Noble", {"leader": True}), "Venice City Guard"),
             squad("The Guild", ("Capodecime", {"leader": True}), "Pulcinella"))
    s = start(s, P1)
    s, _ = apply(s, A.Activate("a2"), P1)                  # musket, SHO 4
    s, ev = apply(s, A.Shoot("a2", "b2", cover_size="medium", cover_hardness="blunt", aim=2), P1)
    assert len(rolls(ev)[0]["dice"]) == 4 - 3 + 2 and s.models["a2"].ap == 0
    assert not s.models["a2"].weapons[0].loaded
    s, _ = apply(s, A.EndActivation("a2"), P1)
    s, _ = apply(s, A.Activate("b1"), P2)
    s, _ = apply(s, A.EndActivation("b1"), P2)
    s, _ = apply(s, A.Activate("a1"), P1)                  # pistol, SHO 5
    script(s, 10, 2, 2, 2, 2)
    s, ev = apply(s, A.Shoot("a1", "b2"), P1)
    assert s.models["b2"].stunned                          # Critical: Stunned even without damage
    s, _ = apply(s, A.EndRound(), GM_ACTOR)
    s = start(s, P1)
    s, _ = apply(s, A.Activate("a1"), P1)
    s, _ = apply(s, A.SpendAP("a1", "reload"), P1)
    script(s, 1, 2, 2, 2, 2, 8)                             # Fumble, then 8 on the table: jam
    s, ev = apply(s, A.Shoot("a1", "b2"), P1)
    assert "shooting_fumble" in kinds(ev) and s.models["a1"].weapons[1].jammed
    with pytest.raises(IllegalAction, match="jammed"):
        apply(s, A.Shoot("a1", "b2"), P1)


def test_events_table():
    s = game(squad("The Guild", ("Capodecime", {"leader": True}), "Harlot", events=2),
             squad("The Rashaar", ("Magi-Rashaar", {"leader": True}), "Hybrid"))
    s = start(s, P1)
    s.models["b1"].command = 3
    script(s, 10, 10)
    s, ev = apply(s, A.PlayEvent(P1), P1)
    assert s.models["b1"].command == 2 and "Prestige Loss" in said(ev[0])
    script(s, 2, 2)
    s, ev = apply(s, A.PlayEvent(P1, target="b2"), P1)
    assert "Combat Stress" in said(ev[0]) and s.models["b2"].stunned
    with pytest.raises(IllegalAction, match=r"^no_event_left\b"):
        apply(s, A.PlayEvent(P1), P1)


def test_squad_building_refuses_over_limit_with_a_clear_reason():
    pack = load_sample_pack()
    big = squad("The Rashaar", ("Magi-Rashaar", {"leader": True}), "Ugdru-Rashaar", "Ugdru-Rashaar", "Hybrid",
                points=150)
    reasons = [said(r) for r in validate_squad(pack, big)]
    assert reasons == ["too many Ugdru-Rashaar (2): its Frequency at 150 points is 1",
                       "the squad costs 166 points, over the limit of 150 by 16"]
    with pytest.raises(SquadError) as refused:
        check_squad(pack, big)
    assert said(refused.value) == ("This squad cannot be fielded: too many Ugdru-Rashaar (2): its Frequency at 150 "
                                   "points is 1, the squad costs 166 points, over the limit of 150 by 16.")
    with pytest.raises(IllegalAction) as refused:
        game(big, squad("The Guild", ("Capodecime", {"leader": True})))
    assert said(refused.value).startswith("The squad of <@111> cannot be fielded: too many Ugdru-Rashaar (2)")


def test_squad_building_other_checks():
    pack = load_sample_pack()
    def reasons(sq):
        return [said(r) for r in validate_squad(pack, sq)]
    assert reasons(squad("The Guild", "Harlot")) == ["nominate exactly one Leader (a model with Command)"]
    r = reasons(squad("The Guild", ("Capodecime", {"leader": True}), "Hybrid"))
    assert "Hybrid belongs to The Rashaar: squads are single-affiliation (The Guild)" in r
    r = reasons(squad("The Guild", ("Capodecime", {"leader": True}), SquadMember("Harlot", equipment=["Devil's Mask"]),
                      SquadMember("Pulcinella", equipment=["Newt Gill Potion"])))
    assert "a squad may carry at most one magical item, not 2 (Devil's Mask, Newt Gill Potion)" in r
    r = reasons(squad("The Guild", ("Capodecime", {"leader": True}), events=3))
    assert "at most 2 Events per adventure, not 3" in r
    r = reasons(squad("The Rashaar", SquadMember("Magi-Rashaar", leader=True, spells=["Blessing", "Curse", "Petrify"])))
    assert "Magi-Rashaar has Mage (2) and cannot know 3 spells" in r
    r = reasons(squad("The Guild", ("Capodecime", {"leader": True}), SquadMember("Harlot", spells=["Blessing"])))
    assert "Harlot is no Mage and cannot learn spells" in r
    r = reasons(squad("The Guild", ("Capodecime", {"leader": True}), SquadMember("Harlot", equipment=["Musket"])))
    assert any(x.startswith("Harlot: 'Musket' can be bought only in a campaign") for x in r)
    r = reasons(squad("The Rashaar", ("Magi-Rashaar", {"leader": True}), "Ugdru-Rashaar", "Ugdru-Rashaar", points=150))
    assert "too many Ugdru-Rashaar (2): its Frequency at 150 points is 1" in r
    ok = squad("Doctors of the Ospedale", SquadMember("Plague Doctor", leader=True, spells=["Spiritual Bond"]))
    assert check_squad(pack, ok) == 45 + 10                 # the Plague Doctor's Spirit Bond discount
    for f in pack.factions[:4]:
        assert not validate_squad(pack, sample_squad(pack, f, 200))


def _magic_item_game(seed):
    a = squad("The Guild", ("Capodecime", {"leader": True}), SquadMember("Harlot", equipment=["Devil's Mask"]),
              "Pulcinella", "Butcher")
    b = squad("The Rashaar", SquadMember("Magi-Rashaar", leader=True, equipment=["Pope Clement XIII's Ring"],
                                         spells=["Infernal Images", "Mother Hidra's Claws"]),
              "Ugdru-Rashaar", "Hybrid")
    return ENGINE.new_game([P1, P2], {"squads": {P1: a.to_dict(), P2: b.to_dict()}}, seed=seed)


SECRETS = ("Devil's Mask", "Pope Clement XIII's Ring")


def _agenda_names(state):
    """Each secret Agenda as a public view or event could betray it: its English name, and its term."""
    from rules.carnevale.tables import AGENDAS
    agendas = [state.players[p].agenda for p in state.seats if state.players[p].agenda]
    return [AGENDAS[n][0] for n in agendas] + [f'"agenda_{n}"' for n in agendas]


def test_secrets_never_leak_into_public_view_or_public_events():
    for seed in range(8):
        s = _magic_item_game(seed)
        names = _agenda_names(s)
        rnd = random.Random(seed)
        steps = 0
        while not ENGINE.is_over(s) and steps < 400:
            pub = json.dumps(ENGINE.view_for(s, PUBLIC))
            for secret in SECRETS + tuple(names):
                assert secret not in pub
            mine = json.dumps(ENGINE.view_for(s, P1))
            assert "Devil's Mask" in mine and "Pope Clement" not in mine
            p = rnd.choice(ENGINE.pending(s))
            k = rnd.randint(p.min_choices, min(p.max_choices, len(p.options)))
            out = ENGINE.apply(s, Choose(p.id, tuple(o.id for o in rnd.sample(p.options, k))), Actor(p.player))
            for e in out.events:
                if e.public and e.kind != "game_over":
                    for secret in SECRETS + tuple(names):
                        assert secret not in e.text and secret not in json.dumps(e.data)
            agenda_events = [e for e in out.events if e.kind == "agenda"]
            assert all(e.audience in s.seats for e in agenda_events)
            s = out.state
            steps += 1
        gm = json.dumps(ENGINE.view_for(s, GM))
        assert "Pope Clement" in gm


def test_random_legal_play_from_pending_reaches_the_end():
    start_t = time.perf_counter()
    applied = 0
    for seed in range(25):
        pack = load_sample_pack()
        fa, fb = pack.factions[seed % 4], pack.factions[(seed + 1) % 4]
        s = ENGINE.new_game([P1, P2], {"factions": {P1: fa, P2: fb}, "points": 150 + 10 * (seed % 6),
                                       "rounds": 3}, seed=seed)
        rnd = random.Random(seed)
        steps = 0
        while not ENGINE.is_over(s):
            prompts = ENGINE.pending(s)
            assert prompts, f"stuck in {s.phase}"
            for p in prompts:
                assert len(p.options) <= 25 and len(p.id) <= 40
                assert all(len(o.id) <= 20 and len(SAY.option(o)) <= 80 for o in p.options)
            p = rnd.choice(prompts)
            # prefer doing things over ending, so damage, spells and falls happen
            opts = [o.id for o in p.options]
            if "melee" in opts and rnd.random() < 0.6:
                pick = ("melee",)
            elif "cast" in opts and rnd.random() < 0.5:
                pick = ("cast",)
            else:
                k = rnd.randint(p.min_choices, min(p.max_choices, len(p.options)))
                pick = tuple(o.id for o in rnd.sample(p.options, k))
            out = ENGINE.apply(s, Choose(p.id, pick), Actor(p.player))
            s = out.state
            applied += 1
            steps += 1
            if steps % 50 == 0:
                again = ENGINE.load_state(json.loads(json.dumps(ENGINE.dump_state(s))))
                assert again == s
            assert steps < 3000
        assert s.result["winner"] in (P1, P2, None)
    per = (time.perf_counter() - start_t) / applied
    assert per < 0.02


def test_house_rules_are_validated():
    with pytest.raises(IllegalAction, match=r"^unknown_house_rule\b"):
        ENGINE.new_game([P1, P2], {"house_rules": {"nope": 1}})
    with pytest.raises(IllegalAction, match=r"^house_rule_choices\b"):
        ENGINE.new_game([P1, P2], {"house_rules": {"terrain": "moon"}})
    with pytest.raises(IllegalAction):
        ENGINE.new_game([P1], {})


def test_difficult_terrain_en_halves_es_rolls():
    s = start(two_sample_squads(), P1)
    s, _ = apply(s, A.Activate("a3"), P1)
    s, ev = apply(s, A.SpendAP("a3", "walk_difficult"), P1)
    assert ev[0].data["inches"] == 3 and not rolls(ev)
    rashaar = squad("The Rashaar", ("Magi-Rashaar", {"leader": True}), "Hybrid")
    guild = squad("The Guild", ("Capodecime", {"leader": True}))
    s = start(game(rashaar, guild, house_rules={"terrain": "es_ttcombat"}), P1)
    s, _ = apply(s, A.Activate("a2"), P1)
    s, ev = apply(s, A.SpendAP("a2", "walk_difficult"), P1)
    assert rolls(ev) and rolls(ev)[0]["label"] == "roll_difficult_terrain"


def test_victory_points_and_concede():
    s = start(two_sample_squads(), P1)
    s, _ = apply(s, A.Damage("b4", 30, ignore_protection=True, attacker="a2"), P1)
    s, _ = apply(s, A.Objective(P1), GM_ACTOR)
    with pytest.raises(NotYourTurn):
        apply(s, A.Objective(P2), P2)
    s.max_rounds = 1
    s, ev = apply(s, A.EndRound(), GM_ACTOR)
    vp = s.result["vp"]
    assert vp[P1]["kills"] == 1 and vp[P1]["objective"] == 5 and vp[P1]["alive"] == 3   # the Citizen is Trifling
    assert vp[P1]["total"] == 2 + 3 + 5 + vp[P1]["agenda_vp"]
    assert s.over and "game_over" in kinds(ev)
    s2 = start(two_sample_squads(), P1)
    s2, _ = apply(s2, A.Concede(P2), P2)
    assert s2.winner == P1


def test_an_activating_model_that_falls_ends_its_activation():
    s = start(two_sample_squads(), P1)
    s, _ = apply(s, A.Activate("a4"), P1)
    s, ev = apply(s, A.Damage("a4", 30, ignore_protection=True), GM_ACTOR)
    assert "activation_end" in kinds(ev) and s.active == "" and s.turn_player == P2


def test_squad_building_one_model_at_a_time_and_the_sheet_outside_a_game():
    from rules.carnevale import Squad, add_member, remove_member, squad_view
    from renderers import carnevale as R
    pack = load_sample_pack()
    sq = Squad("Bravi", "The Guild", 80)
    sq = add_member(pack, sq, SquadMember("Harlot"))          # no Leader yet: fine while building
    sq = add_member(pack, sq, SquadMember("Capodecime", leader=True))
    with pytest.raises(SquadError) as refused:
        add_member(pack, sq, SquadMember("Butcher"))
    assert said(refused.value) == "Cannot add Butcher: the squad costs 94 points, over the limit of 80 by 14."
    with pytest.raises(SquadError) as refused:
        add_member(pack, sq, SquadMember("Hybrid"))
    assert "squads are single-affiliation" in said(refused.value)
    assert check_squad(pack, sq) == 64
    v = squad_view(pack, sq, "u1")
    assert v["cost"] == 64 and not v["problems"] and [m["profile"] for m in v["models"]] == ["Harlot", "Capodecime"]
    assert R.squad_sheet(v, "u1")[:4] == b"\x89PNG"
    sq = remove_member(sq, 2)
    assert [said(r) for r in squad_view(pack, sq, "u1")["problems"]] == [
        "nominate exactly one Leader (a model with Command)"]


def test_evacuated_models_are_neither_fallen_nor_reserves():
    s = start(two_sample_squads(), P1)
    s, ev = apply(s, A.SetStatus("a3", "evacuated"), P1)
    m = s.models["a3"]
    assert m.evacuated and not m.fallen and not m.on_table
    s.max_rounds = 1
    s, _ = apply(s, A.EndRound(), GM_ACTOR)
    assert s.result["vp"][P2]["kills"] == 0


def test_random_play_with_reactions_rerolls_annulments_and_bodyguards():
    seen = set()
    for seed in range(12):
        s = fighting_game(seed)
        rnd = random.Random(seed)
        steps = 0
        while not ENGINE.is_over(s):
            p = rnd.choice(ENGINE.pending(s))
            seen.add(p.id.split("-")[0])
            opts = [o.id for o in p.options]
            if p.id.startswith("do-"):
                pref = [o for o in ("cast", "melee", "shoot") if o in opts]
                pick = (rnd.choice(pref),) if pref and rnd.random() < 0.7 else (rnd.choice(opts),)
            else:
                k = rnd.randint(p.min_choices, min(p.max_choices, len(p.options)))
                pick = tuple(o.id for o in rnd.sample(p.options, k))
            s = ENGINE.apply(s, Choose(p.id, pick), Actor(p.player)).state
            steps += 1
            assert steps < 3000
    assert {"rr", "bg", "annul", "do", "turn", "order", "eor", "deploy"} <= seen


def test_a_public_squad_sheet_outside_a_game_hides_the_magical_item():
    from rules.carnevale import squad_view
    pack = load_sample_pack()
    sq = squad("The Guild", ("Capodecime", {"leader": True}), SquadMember("Harlot", equipment=["Devil's Mask"]),
               points=200)
    mine = json.dumps(squad_view(pack, sq, "u1"))
    assert "Devil's Mask" in mine
    public = squad_view(pack, sq, "u1", viewer=PUBLIC)
    assert "Devil's Mask" not in json.dumps(public)
    assert [m["magic_item"] for m in public["models"]] == ["", "hidden"]
    bad = squad("The Guild", SquadMember("Harlot", equipment=["Devil's Mask", "Newt Gill Potion"]))
    assert "Newt Gill" not in json.dumps(squad_view(pack, bad, "u1", viewer=PUBLIC))


def test_start_returns_the_set_up_events_with_each_agenda_addressed_to_its_owner():
    from rules.carnevale.tables import AGENDAS
    rashaar = squad("The Rashaar", ("Magi-Rashaar", {"leader": True}), "Hybrid", points=200)
    guild = squad("The Guild", ("Capodecime", {"leader": True}), "Butcher", points=200)
    options = {"squads": {P1: rashaar.to_dict(), P2: guild.to_dict()}, "deploy_all": True,
               "names": {P1: "Ann", P2: "Bob"}}
    out = ENGINE.start([P1, P2], options, seed=3)
    assert ENGINE.dump_state(out.state) == ENGINE.dump_state(ENGINE.new_game([P1, P2], options, seed=3))
    agendas = [e for e in out.events if e.kind == "agenda"]
    assert sorted(e.audience for e in agendas) == [P1, P2]
    for e in agendas:
        assert AGENDAS[out.state.players[e.audience].agenda][0] in said(e)
    public = [said(e) for e in out.events if e.public]
    assert [e.kind for e in out.events if e.public][:2] == ["deploy_roll", "initiative"]
    for name in _agenda_names(out.state):
        assert not any(name in text for text in public)
    # an advance party to choose first: no Agenda yet (it comes with the last Deploy), nothing to tell
    out = ENGINE.start([P1, P2], {**options, "deploy_all": False}, seed=3)
    assert out.state.phase == "deploy" and out.events == []
    # the Rounds: asked for, else the adventure's, else 5
    assert ENGINE.rounds_of({"rounds": 3}) == 3 == ENGINE.start([P1, P2], {**options, "rounds": 3}).state.max_rounds
    assert ENGINE.rounds_of({}) == 5
    assert ENGINE.rounds_of({"adventure": "nighttime_ambush"}) == ENGINE.start(
        [P1, P2], {**options, "adventure": "nighttime_ambush"}).state.max_rounds
