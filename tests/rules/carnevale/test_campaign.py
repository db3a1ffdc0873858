"""Campaign ledger (§5.6-§5.9), content packs and the tables."""
import json

import pytest

from rules.carnevale import load_pack_text, load_sample_pack
from rules.carnevale import campaign as C
from rules.carnevale import tables
from rules.common import IllegalAction, Rng
from tests.support.packs import brief, carnevale_pack, problems

from .helpers import FixedRng, said, squad


def record(seed=1):
    pack = load_sample_pack()
    sq = squad("The Guild", ("Capodecime", {"leader": True}), "Butcher", "Pulcinella", "The Duke",
               "Harlot", points=250)
    return C.new_campaign(pack, sq, "111", seed=seed)


def test_campaign_points_and_bank_and_spending():
    rec = record()
    assert C.campaign_points(7, True) == 12 and C.campaign_points(7, False) == 7
    assert C.record_adventure(rec, "Unexpected Clash", 9, True) == 14 and rec.bank == 14
    C.spend(rec, 10, "a First-aid kit")
    assert rec.bank == 4
    with pytest.raises(IllegalAction) as refused:
        C.spend(rec, 5, "an Event")
    assert said(refused.value) == "an Event costs 5 Campaign Points; the bank holds 4."
    with pytest.raises(IllegalAction) as refused:
        C.discard(rec, "Butcher")
    assert said(refused.value) == "Characters cannot be discarded during a campaign."
    again = C.CampaignRecord.from_json(rec.to_json())
    assert again == rec


def test_experience_thresholds_and_eligibility():
    rec = record()
    leader, butcher, duke = rec.member("Capodecime"), rec.member("Butcher"), rec.member("The Duke")
    res = C.experience_roll(FixedRng(faces=[1]), leader, first=8)
    assert "result" not in res and res["needed"] == 9 and res["roll"] == 8          # no improvement
    res = C.experience_roll(FixedRng(faces=[]), leader, first=9)
    assert res["needed"] == 9 and leader.improvements                # Leaders' table
    res = C.experience_roll(FixedRng(faces=[2]), butcher, first=8)
    assert said(res["result"]) == "+1 DEX" and butcher.attr_mods == {"DEX": 1}
    assert not C.experience_roll(Rng.from_seed(1), duke)["eligible"]  # Independent
    butcher.improvements += ["a", "b"]
    assert said(C.experience_roll(Rng.from_seed(1), butcher)["why"]) == "already has 3 improvements this campaign"


def test_leaders_table_and_duplicates():
    rec = record()
    leader = rec.member("Capodecime")
    res = C.roll_improvement(FixedRng(faces=[]), leader, True, first=6)
    assert said(res["result"]) == "+2 Command" and leader.command == 5
    m = C.CampaignMember(name="x", profile="y", abilities=[{"name": "Spiritual Protection", "x": 1}])
    res = C.roll_improvement(FixedRng(faces=[8, 4]), m, False, first=8)    # dup → 8−1 = 7 → dup? no: Penetration
    assert res["faces"] == [8, 8] and res["value"] == 7 and said(res["result"]) == "Penetration (1)"


def test_powers_table_roll_twice_and_duplicates():
    m = C.CampaignMember(name="x", profile="y")
    res = C.roll_power(FixedRng(faces=[1, 9]), m, first=10)
    assert res["result"] == ["Fly", "Stun"] and m.powers == ["Fly", "Stun"]
    C.CampaignMember(name="x", profile="y", abilities=[{"name": "Fly"}])
    gained, faces = C.roll_power_names(FixedRng(faces=[1]), {"Fly"}, first=1)
    assert gained == [] and faces == [1, 1]              # dup → 1−1 = 0 → nothing
    assert said(C.can_improve(C.CampaignMember(name="p", profile="q", powers=["Fly"]))) == "already has a Power"


def test_bonus_experience_per_five_vp():
    rec = record()
    with pytest.raises(IllegalAction) as refused:
        C.bonus_experience(Rng.from_seed(1), rec, 9, ["Butcher", "Harlot"])
    assert said(refused.value) == "One bonus roll per 5 VP: 9 VP allow 1, not 2."
    with pytest.raises(IllegalAction) as refused:
        C.bonus_experience(Rng.from_seed(1), rec, 10, ["Capodecime"])
    assert said(refused.value) == "Capodecime is a Leader: the bonus roll is for a non-Leader."
    out = C.bonus_experience(FixedRng(faces=[9, 4]), rec, 10, ["Butcher"])
    assert out[0]["roll"] == 9 and said(out[0]["result"]) == "+1 MOV"


def test_fallen_in_combat_table():
    rec = record()
    b = rec.member("Butcher")
    assert said(C.fallen_roll(Rng.from_seed(1), b, first=5)["result"]) == "recovers"
    assert said(C.fallen_roll(Rng.from_seed(1), b, first=4, second=3)["result"]) == "−1 DEX"
    assert said(C.fallen_roll(Rng.from_seed(1), b, first=1, second=9)["result"]) == (
        "compulsory maintenance of 10 CP, paid first before every adventure")
    assert b.maintenance == 10
    h = rec.member("Harlot")
    assert said(C.fallen_roll(Rng.from_seed(1), h, first=2, second=1)["result"]) == "dies and leaves the campaign"
    assert h.dead


def test_only_a_member_who_fell_in_the_recorded_game_rolls_on_the_fallen_table():
    rec = record()
    names = [m.name for m in rec.members]
    fell = [(name, name == "Butcher") for name in names]             # the game's models, in squad order
    assert C.fallen_in_game(rec, fell) == ["Butcher"]
    C.record_adventure(rec, "Unexpected Clash", 12, False, fallen=C.fallen_in_game(rec, fell))
    with pytest.raises(IllegalAction) as exc:
        C.injury_roll(rec, "Harlot")
    assert (exc.value.code, exc.value.params) == ("not_fallen", {"member": "Harlot", "adventure": "Unexpected Clash"})
    assert said(C.injury_roll(rec, "Butcher", first=5)["result"]) == "recovers"
    with pytest.raises(IllegalAction) as exc:                          # one roll per fall
        C.injury_roll(rec, "Butcher", first=5)
    assert exc.value.code == "injury_rolled"
    # an adventure recorded by hand (played without the bot): any member may roll
    C.record_adventure(rec, "Rescue of the Prisoner", 8, True)
    assert said(C.injury_roll(rec, "Harlot", first=4, second=3)["result"]) == "−1 DEX"


def test_upkeep_pays_injuries_first_then_independents():
    rec = record()
    C.record_adventure(rec, "Unexpected Clash", 12, False)
    rec.member("Butcher").maintenance = 10
    out = C.pay_upkeep(rec)
    assert out == [{"member": "Butcher", "cost": 10, "paid": True}, {"member": "The Duke", "cost": 10, "paid": False}]
    assert rec.member("The Duke").misses_next


def test_hostage_is_the_cheapest_dead_model():
    rec = record()
    for n in ("Butcher", "Harlot"):
        rec.member(n).dead = True
    h = C.hostage(rec, ["Butcher", "Harlot"])
    assert h.name == "Harlot" and h.captured and not h.dead


def test_legacy_rules():
    rec = record()
    m = rec.member("Butcher")
    m.improvements = ["+1 COM"]
    assert C.legacy_promote(rec, "Butcher") == {"member": "Butcher", "command": 3, "gained": True}
    assert m.leader and m.command == 3 and m.cost == 30 + 10
    assert C.legacy_cost(m) == 40 + 10
    assert C.legacy_retire(Rng.from_seed(1), rec, "Pulcinella", first=5)["left"]
    assert not C.legacy_retire(Rng.from_seed(1), rec, "Harlot", first=4)["left"]
    total = C.new_legacy_campaign(rec)
    assert rec.campaign_no == 2 and total == sum(C.legacy_cost(x) for x in rec.members)


def test_black_statue_adventures():
    assert [C.adventure(i)["rounds"] for i in range(1, 6)] == [5, 5, 5, 10, 7]
    assert C.adventure("nighttime_ambush")["name"] == "Nighttime Ambush"
    assert C.extra_fountain(Rng.from_seed(1), 2, first=5) == (5, True)
    assert C.extra_fountain(Rng.from_seed(1), 0, first=6) == (6, False)
    faces, left = C.fountains_dry(FixedRng(faces=[1, 5, 1, 9]), 4)
    assert left == 2
    took, res = C.steal_fragment(FixedRng(faces=[9, 2, 2, 9, 2, 2]), 3, 3)
    assert res.a_aces == 1 and res.b_aces == 1 and not took        # a tie: the bearer keeps it


def test_tables():
    assert tables.fall_category(0.5) == 0 and tables.fall_category(4) == 1 and tables.fall_category(4.5) == 2
    assert tables.fall_category(9) == 4 and tables.fall_category(11) == 5
    assert tables.cover_penalty("big", "heavy") == -5 and tables.cover_penalty("medium", "") == -1
    assert [tables.shooting_fumble(d) for d in (1, 2, 5, 6, 10)] == ["explosion", "backfire", "backfire", "jam", "jam"]
    assert tables.shooting_fumble(1, firearm_or_magic=False) == "backfire"
    assert set(tables.EVENTS) == set(range(2, 21)) and set(tables.AGENDAS) == set(range(1, 11))
    assert tables.reinforcement_needed("flanking") == 7 and tables.reinforcement_needed("sneak") == 9


def test_guild_pack_errors_name_file_entry_and_field():
    bad = carnevale_pack(cost="ten")
    [cost] = problems(load_pack_text, bad, "guild.yaml")
    assert brief(cost) == ("type", "guild.yaml", ("factions", 0, "classes", 0), "Bravo", "cost")
    unknown = carnevale_pack(equipment="Laser")
    [laser] = problems(load_pack_text, unknown, "guild.yaml")
    assert (brief(laser), laser.params) == (("no_equipment", "guild.yaml", ("classes",), "Bravo", "equipment"),
                                            {"value": "'Laser'"})


def test_guild_pack_plays_with_sample_tables():
    good = """
pack: {name: Guild pack, game: carnevale}
factions:
  - name: Mine
    classes:
      - name: Bravo Captain
        cost: 30
        ap: 3
        command: 2
        attributes: {MOV: 4, COM: 4, DEX: 5, SHO: 5, MIN: 6, PRO: 2}
        life_track: [0, 0, -1, -1, -2]
        equipment: [Sword, Pistol]
"""
    pack = load_pack_text(good, "guild.yaml")
    assert pack.weapons["Pistol"]["damage"] == 2 and "Blessing" in pack.spells
    from rules.carnevale import ENGINE
    s = ENGINE.new_game(["1", "2"], {"pack": pack.doc, "deploy_all": True, "squads": {
        "1": squad("Mine", ("Bravo Captain", {"leader": True})).to_dict(),
        "2": squad("Mine", ("Bravo Captain", {"leader": True})).to_dict()}}, seed=1)
    assert s.models["a1"].weapons[0].name == "Sword"
    json.dumps(ENGINE.dump_state(s))


def test_sample_pack_labels_and_all_five_factions():
    pack = load_sample_pack()
    assert pack.sample and pack.factions == ["Doctors of the Ospedale", "The Patricians", "The Rashaar",
                                             "The Guild", "Independent Characters"]
    assert all(p.get("sample") for p in pack.profiles.values())
    assert all("SAMPLE" in p.get("note", "") for p in pack.profiles.values())
    assert len(pack.spells) == 14 and len(pack.weapons) == 17


def test_command_gives_the_leader_descriptor_for_experience():
    """§5.7 with §2 (every model with Command has the Leader descriptor): the Butcher gains Command (3)
    from the Basic table (a 6); from then on he is a Leader for Experience: 9+ to improve, on the
    Leaders' table (a 1 gives +2 COM, not +1), and no bonus roll for VP."""
    rec = record()
    butcher = rec.member("Butcher")
    res = C.experience_roll(FixedRng(faces=[6]), butcher, first=8)
    assert said(res["result"]) == "Command (3)" and butcher.command == 3 and C.is_leader(butcher)
    butcher.improved_this_adventure = False
    res = C.experience_roll(FixedRng(faces=[]), butcher, first=8)
    assert res == {"member": "Butcher", "eligible": True, "roll": 8, "needed": 9}       # no improvement
    res = C.experience_roll(FixedRng(faces=[1]), butcher, first=9)
    assert res["needed"] == 9 and said(res["result"]) == "+2 COM" and butcher.attr_mods == {"COM": 2}
    butcher.improved_this_adventure = False
    with pytest.raises(IllegalAction) as refused:
        C.bonus_experience(Rng.from_seed(1), rec, 10, ["Butcher"])
    assert said(refused.value) == "Butcher is a Leader: the bonus roll is for a non-Leader."
    # a profile that carries Command is a Leader too, nominated or not; one without is not
    assert C.is_leader(C.CampaignMember(name="x", profile="y", abilities=[{"name": "Command", "x": 2}], command=2))
    assert not C.is_leader(C.CampaignMember(name="z", profile="y"))


def test_the_ledger_keeps_each_change_as_data_and_takes_back_only_its_last_twenty():
    from rules.carnevale import ledger as L
    rec = record()
    events = L.apply(rec, L.RecordAdventure("Unexpected Clash", 30, True))
    assert [(e.kind, e.data["cp"], e.data["bank"]) for e in events] == [("campaign_adventure_won", 35, 35)]
    for _ in range(21):
        L.apply(rec, L.Spend(1, "a candle"))
    assert rec.bank == 14 and [e.number for e in rec.ledger] == list(range(1, 23))
    assert L.undoable(rec) == L.UNDO_DEPTH == 20 and rec.ledger[1].before is None
    with pytest.raises(IllegalAction) as refused:
        L.undo(rec, 21)
    assert said(refused.value) == "Only the last 20 entries of the ledger can be taken back."
    taken = L.undo(rec, 20)
    assert [e.number for e in taken] == list(range(22, 2, -1)) and rec.bank == 34 and len(rec.ledger) == 2
    with pytest.raises(IllegalAction):
        L.undo(rec)
    assert L.action_from_dict(rec.ledger[0].action) == L.RecordAdventure("Unexpected Clash", 30, True)
