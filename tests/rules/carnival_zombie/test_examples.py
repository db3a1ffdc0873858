"""Digest §7: every worked example EX-01 ... EX-10 through the engine's public API."""
from __future__ import annotations

import pytest

from rules.carnival_zombie import ENGINE, census
from rules.carnival_zombie.state import BossSlot
from rules.common import Actor, Choose, IllegalAction

from .helpers import answer, assign_attacks, attack_rows, box, clear_board, kind, new, nm_top, options, prompt, put, said, until

OFF = {"pile_mode": "off"}


def ch(s, cid):
    return next(c for c in s.characters if c.id == cid)


# --------------------------------------------------------------------------- EX-01
def test_ex01_story_so_far():
    s = new(difficulty="medium", characters=["brighella", "arlecchino", "pantalone", "medico"])
    assert kind(s) == "setup"
    s.bag_script = ["V", "P", "B", "B", "B", "M", "G", "S"]
    s.boss_deck.remove("joker")
    s.boss_deck.append("joker")           # top of the Boss deck
    answer(s, "start")
    # 01a Brighella: Vermin (+1, +1 Barricade), keep looking, Paranoia -> forced Hide
    assert ch(s, "brighella").stress == 1 and s.storage["#"] == 1
    answer(s, "keep", expect="story")
    assert ch(s, "brighella").stress == 1
    # 01b Arlecchino: Barghest, keep, Barghest, hide
    answer(s, "keep", expect="story")
    answer(s, "hide", expect="story")
    assert ch(s, "arlecchino").stress == 0 and s.storage["#"] == 1
    # 01c Pantalone: Barghest, keep, Moloch (+2+1), keep, Joker (+1), Item
    answer(s, "keep", expect="story")
    assert ch(s, "pantalone").stress == 3 and s.storage["#"] == 2
    answer(s, "keep", expect="story")
    assert ch(s, "pantalone").stress == 4
    answer(s, "item", expect="story_boss")
    assert len(ch(s, "pantalone").items) == 1
    assert "joker" in s.boss_deck and len(s.boss_deck) == 10
    # 01d Medico: Goliath (+1), keep, Survivor (to Storage), keep, Martyr (+3), Barricade
    s.boss_deck.remove("martyr")
    s.boss_deck.append("martyr")
    assert ch(s, "medico").stress == 1
    answer(s, "keep", expect="story")
    assert s.storage["S"] == 1
    answer(s, "keep", expect="story")
    assert ch(s, "medico").stress == 4
    answer(s, "barr", expect="story_boss")
    # aggregate
    assert s.storage["#"] == 3 and s.storage["S"] == 1
    assert sum(s.abyss[t] for t in "GMBV") == 140 and s.abyss["S"] == 0 and s.abyss["P"] == 5
    assert s.phase == "day" and kind(s) == "move"


def test_ex01_barghest_bonus_every_step_house_rule():
    s = new(difficulty="medium", characters=["pantalone"], house_rules={"barghest_bonus_mode": "every_later_step"})
    s.bag_script = ["B", "M"]
    s.boss_deck.remove("joker")
    s.boss_deck.append("joker")
    answer(s, "start")
    answer(s, "keep")
    answer(s, "keep")
    assert ch(s, "pantalone").stress == 5  # 2+1, then 1+1


# --------------------------------------------------------------------------- EX-02
def test_ex02_group_movement_costs():
    s = new(quick=True, auto_start=True, location=4)
    s.sunken.append(7)
    assert kind(s) == "move"
    assert ("S", 7, 1) in ENGINE.move_options(s)
    answer(s, "go.S")
    opts = {d: (dest, cost) for d, dest, cost in ENGINE.move_options(s)}
    assert opts["W"] == (6, 2) and opts["E"] == (9, 3)
    answer(s, "go.W")
    assert s.group_at == 6 and s.ctx["used"] == 3 and s.hour == 4
    answer(s, "stop")
    assert s.clock == "day" and s.hour == 4 and kind(s) == "dayact"


# --------------------------------------------------------------------------- EX-03
def test_ex03_day_actions_at_the_arsenal():
    s = new(quick=True, auto_start=True, location=18, difficulty="medium")
    assert [c.id for c in s.characters] == ["capitan", "colombina", "arlecchino", "brighella", "pantalone", "medico"]
    answer(s, "go.E")
    answer(s, "go.N")
    assert s.group_at == 2 and s.hour == 3
    answer(s, "stop")
    b, p = ch(s, "brighella"), ch(s, "pantalone")
    b.incapacitated, b.stress = True, 9
    p.stress = 5
    s.item_decks["colombina"].remove("spyglass")
    s.item_decks["colombina"].append("spyglass")
    nm_top(s, "nm14")                     # Search box: Infected
    abyss_s = s.abyss["S"]
    answer(s, "spec", expect="dayact")
    answer(s, "c.colombina", expect="target")
    assert "spyglass" in ch(s, "colombina").items
    answer(s, "abil", expect="dayact")    # Colombina: Exploration
    answer(s, "rean.brighella", expect="dayact")
    assert not b.incapacitated and b.stress == 5
    answer(s, "search", expect="dayact")  # Brighella
    assert b.stress == 6
    answer(s, "surv", expect="search_inf")
    assert s.abyss["S"] == abyss_s + 1
    answer(s, "rest", expect="dayact")    # Pantalone
    assert p.stress == 3 and p.stress < 5
    answer(s, "abil", expect="dayact")    # Medico: Treatment
    answer(s, "c.brighella", expect="target")
    assert b.stress == 3
    assert s.hour == 4 and s.clock == "day" and s.fewer_obstacles == 2
    assert said(prompt(s)).startswith("Day 1, Hour 4: Capitan")


# --------------------------------------------------------------------------- EX-04
def test_ex04_discover_the_terrains_at_location_4():
    s = new(quick_night=True, location=4)
    s.tiles = [3, 5, 6, 7, 4, 1, 2, 0]          # drawn from the end: 0 (Pier), 2 (Manhole), 1, 4
    s.fort_tiles = ["altar", "alley", "belltower", "jerrycans"]
    nm_top(s, "nm03", "nm02", "nm05", "nm13", "nm17")      # E1, N2, S1, S1, choice
    answer(s, "start")
    assert kind(s) == "terrain_pit"
    answer(s, "N")
    assert s.night.obstacles == {"E1.3": "pier", "N2.2": "manhole", "S1.1": "building", "W2.1": "catacomb"}
    assert s.night.forts == {"N": "jerrycans"}


# --------------------------------------------------------------------------- EX-05
def test_ex05_closing_sunset():
    s = new(quick_night=True, location=8, ticket=2, difficulty="medium")
    s.boss_deck.remove("martyr")
    s.boss_area[2] = BossSlot(boss="martyr")
    answer(s, "start")
    until(s, {"barricades"}, policy=lambda s, k, ids: "N" if k == "terrain_pit" else ("N1" if "N1" in ids else None))
    s.storage["#"], s.supply["#"] = 15, 9           # A2: "05" is read as 15
    answer(s, "custom")
    for n in (2, 1, 0, 2, 1, 3, 3, 3):               # clockwise: N2 N1 E2 E1 S2 S1 W2 W1
        answer(s, f"n{n}", expect="barr_cave")
    counts = {cv: s.night.boxes[cv].count("#") for cv in s.night.boxes}
    assert counts == {"W1": 3, "W2": 3, "S1": 3, "E1": 2, "N2": 2, "N1": 1, "S2": 1, "E2": 0}
    assert s.storage["#"] == 0
    s.night.obstacles = {}
    seats = {"capitan": "W", "colombina": "W", "arlecchino": "S", "brighella": "N", "pantalone": "E", "medico": "E"}
    for cid in ["capitan", "colombina", "arlecchino", "brighella", "pantalone"]:
        assert said(prompt(s)).startswith(f"Where does {ENGINE.view_for(s, 'public')['characters'][[c.id for c in s.characters].index(cid)]['name']}")
        answer(s, seats[cid], expect="enter")
    nm_top(s, "nm05", "nm02", "nm03", "nm04", "nm06")   # S1 (Martyr), then N2, E1, E2, S2
    events = answer(s, "E", expect="enter")
    assert {c.id: c.refuge for c in s.characters} == seats
    entered = [(e.data["boss"], e.data["space"]) for e in events if e.kind == "boss_enter"]
    new_bosses = [e.data for e in events if e.kind == "boss"]
    assert len(entered) == 5 and entered[0] == ("martyr", "S1.3")
    assert entered[1] == (new_bosses[0]["boss"], "N2.3") and new_bosses[0]["slot"] == 1   # topmost free slot
    assert [b["slot"] for b in new_bosses] == [1, 2, 4, 5]
    assert s.boss_area[2].boss == "martyr"
    assert [k for k, b in enumerate(s.boss_area) if b] == [0, 1, 2, 3, 4]


# --------------------------------------------------------------------------- EX-06
def _bosses_back_to_the_deck(s):
    """Empty the Boss Area (its Tarots back in the deck), so an example places exactly its own Bosses."""
    for k in range(len(s.boss_area)):
        if s.boss_area[k]:
            s.boss_deck.append(s.boss_area[k].boss)
            s.boss_area[k] = None


def _night(**opts):
    s = new(quick_night=True, location=8, house_rules=OFF, **opts)
    answer(s, "start")
    until(s, {"act"}, policy=lambda s, k, ids: "N" if k in ("enter", "terrain_pit") else None)
    return s


def test_ex06_the_stronger_comes_first_at_the_boxes():
    s = _night()
    clear_board(s)
    s.night.obstacles = {}
    _bosses_back_to_the_deck(s)
    s.boss_deck.remove("joker")
    s.boss_area[0] = BossSlot(boss="joker", pos="E1.1")
    put(s, "E1.1", M=2, V=1)
    ENGINE.movement(s)
    assert s.night.boxes["E1"] == ["@0", "@0", "@0"] and s.boss_area[0].pos == "E1.b"
    assert s.night.rings["E1.1"] == {"M": 2, "V": 1}


# --------------------------------------------------------------------------- EX-07
def test_ex07_a_full_night_hour():
    s = _night(order=["arlecchino", "medico", "pantalone", "capitan", "colombina", "brighella"])
    # Hour 1: clean the board, then everyone passes.
    clear_board(s)
    s.night.obstacles = {"N2.2": "manhole"}
    _bosses_back_to_the_deck(s)
    for b in ("admiral", "mistress"):
        s.boss_deck.remove(b)
    s.boss_area[0] = BossSlot(boss="admiral", pos="N2.3")
    s.boss_area[1] = BossSlot(boss="mistress", pos="N2.3")
    box(s, "N2", "#", "#", "")
    s.bag_script = ["V"] * 24 + ["B"]
    for c in s.characters:
        c.refuge = "N"
    until(s, {"act"}, policy=None, limit=1)
    events = []
    while s.night.hour == 1:
        events = answer(s, "end" if "end" in options(s) else "auto")
    assert s.night.hour == 2
    # entrance (24 + 1 on the Manhole) and movement already ran: check them
    entrance = next(e for e in events if e.kind == "entrance")
    assert entrance.data["drawn"] == {"V": 24, "B": 1}
    kinds = [e.kind for e in events]
    assert kinds.index("entrance") < kinds.index("movement")
    assert s.boss_area[0].pos == "N2.3"           # Admiral, Move 0
    assert s.boss_area[1].pos == "N2.2"           # Mistress, Move 1
    assert s.night.rings["N2.1"].get("B") == 1    # the Manhole Barghest stops in Ring I
    assert s.night.boxes["N2"] == ["#", "#", ""]
    # Activation: set the example's board.
    clear_board(s)
    s.boss_area[1] = None
    s.boss_deck.append("mistress")
    s.boss_area[0] = None
    s.boss_deck.append("admiral")
    s.boss_deck.remove("tenor")
    s.boss_area[2] = BossSlot(boss="tenor", pos="N2.1")
    put(s, "N2.1", V=1, B=1, G=2)
    put(s, "N1.2", M=1)
    box(s, "N2", "#", "#", "B")
    arl, _med, pan = ch(s, "arlecchino"), ch(s, "medico"), ch(s, "pantalone")
    for c in s.characters:
        c.stress = 0
        if c.paranoia:
            c.paranoia = False
            s.abyss["P"] += 1
    arl.paranoia = True
    s.abyss["P"] -= 1
    assert said(prompt(s)).startswith("Night Hour 2: Arlecchino")
    answer(s, "fire.s", expect="act")
    assert arl.stress == 1                               # +1: enemy in a North box, Paranoia does not block
    ids = options(s)
    assert "N2.1.@2" not in ids                          # the Tenor is shielded by Infected
    assert "N2.1.V" in ids and "N1.2.M" in ids
    answer(s, "N2.1.V", expect="hit")
    answer(s, "N1.2.M", expect="hit")
    assert sum(s.pile.values()) == 2
    ids = options(s)
    assert not any(i.startswith(("fire", "asl", "mv.", "surv")) for i in ids)   # no 2nd Action with Paranoia
    with pytest.raises(IllegalAction):
        ENGINE.apply(s, Choose(prompt(s).id, ("fire.s",)), Actor("u1"))
    answer(s, "end")
    # Medico: Assault on the boxed Barghest; Night Ability on Arlecchino
    answer(s, "asl.s", expect="act")                     # the boxed Barghest is the only target: no question
    assert s.night.boxes["N2"] == ["#", "#", ""]
    p_storage = s.storage["P"]
    answer(s, "heal.arlecchino", expect="act")
    assert not arl.paranoia and arl.stress == 0 and s.storage["P"] == p_storage + 1
    answer(s, "end")
    # Pantalone: explosive Fire twice at N2 Ring I
    pile_before = sum(s.pile.values())
    assert pile_before == 3                                # 2 (Arlecchino) + 1 (Medico)
    answer(s, "fire.s", expect="act")
    assert pan.stress == 0                                 # nobody left in the North boxes
    # N2 Ring I is the only space in range: the explosive Hit lands there without a question
    assert s.night.rings["N2.1"] == {"V": 0, "B": 0, "G": 2} and s.boss_area[2].wounds == 1
    answer(s, "fire.s", expect="act")
    assert pan.stress == 1                                 # the second Action
    assert s.night.rings["N2.1"].get("G") == 0 and s.boss_area[2].wounds == 2
    assert s.boss_area[2].cubes == 2
    assert sum(s.pile.values()) - pile_before == 3         # Pantalone: 3 cubes over the 2 drops
    assert census(s)["total"] == 195


# --------------------------------------------------------------------------- EX-08
def _attack_board(boss: str, pos: str):
    """A Night at its Activation step with an empty board (no Obstacle, Fortification or other Boss)
    and one Boss, `boss`, at `pos`: the worked examples place their own Infected around it."""
    s = _night()
    clear_board(s)
    s.night.obstacles, s.night.forts = {}, {}
    _bosses_back_to_the_deck(s)
    s.boss_deck.remove(boss)
    s.boss_area[0] = BossSlot(boss=boss, pos=pos)
    return s


def test_ex08_attack_step():
    s = _attack_board("martyr", "E2.1")
    put(s, "N1.1", M=1, G=1)
    put(s, "N2.1", V=1)
    box(s, "N2", "#")
    put(s, "E1.1", M=1, V=1)
    put(s, "E2.1", B=1, M=1)
    put(s, "S1.1", B=1)
    box(s, "S1", "#")
    put(s, "S2.1", M=1)
    box(s, "S2", "#")
    put(s, "W2.1", V=3)
    box(s, "W2", "#", "#", "#")
    s.storage["S"] = 0
    where = {"colombina": "N", "capitan": "N", "brighella": "S", "medico": "S", "arlecchino": "W", "pantalone": "W"}
    for c in s.characters:
        c.refuge = where[c.id]
        c.stress = 0
        c.items = []
    ch(s, "colombina").items = ["spyglass"]
    supply = s.supply["#"]
    # everyone passes
    while kind(s) == "act":
        answer(s, "end")
    plan = [("Martyr", "E2", "t.medico"), ("Moloch", "N1", "x.colombina"), ("Moloch", "E1", "t.capitan"),
            ("Moloch", "E2", "t.colombina"), ("Goliath", "N1", "t.capitan"), ("Barghest", "E2", "t.colombina"),
            ("Vermin", "E1", "t.brighella")]
    # Nobody stands in the East: any of the six can take the East's attacks, so the step's choices
    # (7 attacks, 41 options) are more than one select of 25 holds: two questions
    assert assign_attacks(s, plan) == 2
    stress = {c.id: c.stress for c in s.characters}
    assert stress["capitan"] == 3 and stress["brighella"] == 1 and stress["medico"] == 3
    assert stress["colombina"] == 3                      # A1: the Barghest deals 1, not 2
    assert ch(s, "colombina").items == []
    assert s.supply["#"] - supply == 6                   # N2 1, S1 1, S2 1, W2 3
    assert s.night.hour == 2


# --------------------------------------------------------------------------- EX-09
def test_ex09_dawn():
    s = new(quick_night=True, location=6, house_rules=OFF)
    answer(s, "start")

    def calm(s, k, ids):          # a quiet Night: the test empties the board before each activation
        if k == "act":
            clear_board(s)
        return "N" if k in ("enter", "terrain_pit") else None

    until(s, {"dawn_exit"}, policy=calm)
    for c in s.characters:
        c.incapacitated, c.stress, c.refuge = False, 0, "N"
    assert sorted(options(s)) == ["E", "N", "S", "W"]
    clear_board(s)
    _bosses_back_to_the_deck(s)
    for b in ("tenor", "doge"):
        s.boss_deck.remove(b)
    s.boss_area[0] = BossSlot(boss="tenor", pos="W1.2")
    s.boss_area[1] = BossSlot(boss="doge", pos="W2.3")
    put(s, "W2.1", M=1)
    put(s, "W2.2", G=1, B=1)
    put(s, "W1.3", V=1)
    put(s, "W2.3", G=1)
    ch(s, "brighella").items = ["chainsaw"]
    for c in s.characters:
        c.paranoia = False
    answer(s, "W", expect="dawn_exit")
    assert s.forced_dir == "W"
    answer(s, "asl.s", expect="dawn_asl")           # Capitan
    answer(s, "W1.2.@0", expect="hit")
    assert s.boss_area[0].wounds == 2
    answer(s, "asl.s", expect="dawn_asl")           # Colombina
    answer(s, "W1.2.@0", expect="hit")
    assert s.boss_area[0] is None and "tenor" in s.boss_deck
    assert kind(s) == "reward"
    answer(s, "heal.capitan")
    answer(s, "asl.s", expect="dawn_asl")           # Arlecchino
    answer(s, "W2.1.M", expect="hit")
    answer(s, "asl.i0", expect="dawn_asl")          # Brighella with the Chainsaw (2/1)
    answer(s, "W2.2.G", expect="hit")
    answer(s, "W2.2.B", expect="hit")
    assert "Pantalone" in said(prompt(s))
    answer(s, "pass", expect="dawn_asl")
    assert "Medico" in said(prompt(s))
    answer(s, "asl.s", expect="dawn_asl")
    answer(s, "W1.3.V", expect="hit")
    assert s.night.rings["W1.3"].get("V", 0) == 0
    # the Goliath and the Doge are left: 2 attacks
    assert "1. the Doge in W2" in said(prompt(s)) and "2. the Goliath in W2" in said(prompt(s))
    assert assign_attacks(s, [("Doge", "W2", "t.capitan"), ("Goliath", "W2", "t.colombina")]) == 1
    assert ch(s, "capitan").stress == 2 and ch(s, "colombina").stress == 1
    # next Day: the first move goes West, 6 -> 8
    assert s.ticket == 2 and s.phase == "day" and kind(s) == "move"
    assert options(s) == ["go.W"]
    answer(s, "go.W")
    assert s.group_at == 8


# --------------------------------------------------------------------------- EX-10
def test_ex10_quick_playtest_setup():
    s = new(quick=True, auto_start=True)
    assert s.phase == "day" and s.clock == "day" and s.hour == 1
    assert s.storage["#"] == 8 and s.supply["#"] == 16
    assert all(c.stress == 0 for c in s.characters)
    assert kind(s) == "move"


def test_ex09_variant_tenor_life_5_with_two_earlier_wounds():
    """A5's other reading: the Tenor has Life 5 and kept 2 Wounds from an earlier Night."""
    import yaml

    from rules.carnival_zombie import load_pack_text
    from content import sample_text
    doc = yaml.safe_load(sample_text("carnival_zombie"))
    next(b for b in doc["bosses"] if b["id"] == "tenor")["life"] = 5
    pack = load_pack_text(yaml.safe_dump(doc), "a5.yaml")
    s = new(quick_night=True, location=6, house_rules=OFF, pack=pack)
    answer(s, "start")

    def calm(s, k, ids):
        if k == "act":
            clear_board(s)
        return "N" if k in ("enter", "terrain_pit") else None

    until(s, {"dawn_exit"}, policy=calm)
    for c in s.characters:
        c.incapacitated, c.stress, c.refuge = False, 0, "N"
    clear_board(s)
    s.boss_deck.remove("tenor")
    s.boss_area[0] = BossSlot(boss="tenor", wounds=2, cubes=2, pos="W1.2")
    s.supply["W"] -= 2
    answer(s, "W")
    answer(s, "asl.s", expect="dawn_asl")           # Capitan: 2 Wounds -> 4 of 5, Life 1 left (his only target)
    assert s.boss_area[0].wounds == 4
    answer(s, "asl.s", expect="dawn_asl")           # Colombina: the last Wound (her only target too)
    assert s.boss_area[0] is None and kind(s) == "reward" and s.supply["W"] == 15


def test_ex06_bosses_attack_before_any_infected_then_by_attack():
    """"The stronger comes first" (L408-411): any Boss before any Infected, then from the higher Attack
    down. The rulebook's own picture: the Joker (Attack 1) in E1's boxes attacks before the two Molochs
    (Attack 2) in Ring I, and the Vermin comes last."""
    s = _attack_board("joker", "E1.b")
    box(s, "E1", "@0", "@0", "@0")
    put(s, "E1.1", M=2, V=1)
    for c in s.characters:
        c.refuge, c.stress, c.items = "E", 0, []
    while kind(s) == "act":
        answer(s, "end")
    order = []
    while kind(s) == "attack":
        p = prompt(s)
        order += [(attacker, cave) for _k, attacker, cave in attack_rows(p)]
        answer(s, p.options[0].id, expect="attack")
    assert order == [("Joker", "E1"), ("Moloch", "E1"), ("Moloch", "E1"), ("Vermin", "E1")], order


def test_a_hit_that_wounds_without_killing_is_told():
    """A Goliath has Life 2: one Hit of 1 Wound leaves it standing, and the table is told (1/2)."""
    s = _night(order=["arlecchino", "medico", "pantalone", "capitan", "colombina", "brighella"])
    clear_board(s)
    s.night.obstacles = {}
    _bosses_back_to_the_deck(s)
    put(s, "N2.1", G=1, V=1)                     # two targets: the player aims each Hit
    for c in s.characters:
        c.refuge, c.stress, c.paranoia = "N", 0, False
    assert said(prompt(s)).startswith("Night Hour 1: Arlecchino")
    answer(s, "fire.s", expect="act")
    events = answer(s, "N2.1.G", expect="hit")
    wound = [e for e in events if e.kind == "wound"]
    assert [(e.data["infected"], e.data["wounds"], e.data["life"]) for e in wound] == [("G", 1, 2)]
    assert s.night.rings["N2.1"]["G"] == 1 and s.night.focus["N2.1.G"] == [1]
