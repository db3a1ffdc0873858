"""Whole campaigns from setup to the end, driven only by `pending()` (digest §2 invariants)."""
from __future__ import annotations

import json
import random

import pytest

from rules.carnival_zombie import ENGINE, FocusPenalty, census
from i18n.present import Presenter
from rules.common import PUBLIC, Actor, Choose

from .policies import random_policy, sensible_policy

# Every way a game ends (`events.over_<reason>` in the catalogues).
ENDINGS = {"incapacitated", "sunken", "leviathan_sunset", "leviathan", "nobody_survived", "pile_full", "pile_short",
           "survived", "finale_nobody", "finale_sank", "finale_no_bearer", "finale_overrun", "finale_won"}
SAY = Presenter("en", ENGINE.system)


def play(seed: int, policy, *, scenario="campaign", n_players=None, check_every=1, roundtrip=False):
    r = random.Random(seed)
    n = n_players or r.randint(1, 6)
    seats = [f"p{seed}_{i}" for i in range(n)]
    s = ENGINE.new_game(seats, {"difficulty": r.choice(["easy", "medium", "difficult"]), "scenario": scenario}, seed)
    pick = policy(r)
    last = ENGINE.clock_ordinal(s)
    steps = 0
    while not ENGINE.is_over(s):
        prompts = ENGINE.pending(s)
        assert len(prompts) == 1, (s.stage, s.ask)
        p = prompts[0]
        assert len(p.options) <= 25 and len(p.id) <= 40
        assert all(len(o.id) <= 20 and len(SAY.option(o)) <= 80 for o in p.options), p
        assert len(SAY.prompt(p)) <= 1000
        choice = Choose(p.id, (pick(s, p),))
        if roundtrip and steps % 97 == 0:
            s = ENGINE.apply(s, choice, Actor(p.player)).state
            s = ENGINE.load_state(ENGINE.dump_state(s))
        else:
            ENGINE.step(s, choice, Actor(p.player))
        steps += 1
        if steps % check_every == 0:
            assert census(s)["total"] == 195, census(s)
        if steps % 40 == 0:
            json.dumps(ENGINE.view_for(s, PUBLIC))          # JSON-safe at any moment
            json.dumps(ENGINE.dump_state(s))
        now = ENGINE.clock_ordinal(s)
        assert now >= last, (last, now)
        last = now
        assert steps < 5000
    assert census(s)["total"] == 195
    assert s.result in ("win", "loss")
    assert s.reason in ENDINGS, s.reason
    assert SAY.fallbacks == 0, [k for k, n in SAY.counts.items() if k != "catalogue"]
    return s, steps


def test_200_random_campaigns():
    """`play` checks the §2 invariants at every step. Random choices never engage a Finale, so every
    campaign must be lost, and by one of the two §2 defeats random play can reach: the whole Group
    Incapacitated, or a Night in a Sunken Location (a random Group walks into one now and then)."""
    results: dict[tuple[str, str], int] = {}
    for seed in range(200):
        s, _ = play(seed, random_policy, roundtrip=(seed % 20 == 0))
        results[(s.result, s.reason)] = results.get((s.result, s.reason), 0) + 1
    incapacitated = results.pop(("loss", "incapacitated"), 0)
    sunken = results.pop(("loss", "sunken"), 0)
    assert results == {}, results            # no win, no other ending
    assert incapacitated > sunken > 0, (incapacitated, sunken)


def test_50_sensible_campaigns():
    results = {"win": 0, "loss": 0}
    tickets = []
    for seed in range(1000, 1050):
        s, _ = play(seed, sensible_policy)
        results[s.result] += 1
        tickets.append(s.ticket)
        if s.result == "win":
            assert s.score and s.score["total"] == sum(v for k, v in s.score.items() if k != "total")
    # a sensible Group gets past the first Night at least sometimes
    assert max(tickets) >= 2


@pytest.mark.parametrize("scenario", ["plague", "no_rest", "gorini", "jmot", "finale_bridge", "finale_boat",
                                      "finale_airship", "finale_holy_bomb"])
def test_scenarios_play_to_the_end(scenario):
    for seed in range(8):
        n = 3 + seed % 4 if scenario == "jmot" else None
        play(seed, sensible_policy if seed % 2 else random_policy, scenario=scenario, n_players=n)


def test_long_fuzz_games_with_a_tough_group():
    """A pack with a 60-space Terror Track keeps the Group alive, so random play reaches Days 2-3, every
    Finale and scenario ending, all pile modes and the Battle Focus penalty. Only legality is checked."""
    import yaml

    from rules.carnival_zombie import load_pack_text
    from content import sample_text
    doc = yaml.safe_load(sample_text("carnival_zombie"))
    doc["terror_track"]["spaces"] = 60
    pack = load_pack_text(yaml.safe_dump(doc), "tough.yaml")
    endings = set()
    for seed in range(80):
        r = random.Random(seed)
        scen = r.choice(["campaign"] * 6 + ["plague", "no_rest", "gorini", "jmot", "finale_boat", "finale_holy_bomb"])
        n = max(r.randint(1, 6), 3 if scen == "jmot" else 1)
        hr = {"pile_mode": r.choice(["probabilistic", "honour", "reaction", "off"]), "battle_focus": True,
              "allow_early_finale": r.random() < 0.3, "dawn_assault_scope": r.choice(["pit", "anywhere"])}
        s = ENGINE.new_game([f"p{i}" for i in range(n)], {"difficulty": r.choice(["easy", "medium", "difficult"]),
                                                          "scenario": scen, "house_rules": hr, "pack": pack}, seed)
        last = ENGINE.clock_ordinal(s)
        for _ in range(20000):
            if s.over:
                break
            p = ENGINE.pending(s)[0]
            ENGINE.step(s, Choose(p.id, (r.choice(p.options).id,)), Actor(p.player))
            if s.phase == "night" and not s.over and r.random() < 0.01:
                ENGINE.step(s, FocusPenalty("talk"), Actor("gm", gm=True))
            assert census(s)["total"] == 195
            now = ENGINE.clock_ordinal(s)
            assert now >= last
            last = now
        assert s.over
        endings.add(s.reason)
    assert len(endings) >= 4


def test_a_sensible_group_can_win_a_first_campaign_on_easy():
    """Issue 13's balance targets on the sample pack (bench/cz_balance.py prints them over 200
    campaigns): on Easy a sensible Group survives Night 1 in ≥ 70% and wins in ≥ 25%; Medium is won
    sometimes (5–20%), Difficult less; Night 1 is survived less often from Easy to Difficult."""
    from bench.cz_balance import measure

    results = measure(60)
    easy, medium, difficult = results["easy"], results["medium"], results["difficult"]
    assert easy.survived_night_1 >= 0.7 * 60 and easy.won >= 0.25 * 60, (easy.survived_night_1, easy.won)
    assert 0.05 * 60 <= medium.won <= 0.2 * 60, medium.won            # 7 of these 60 (29 of 200)
    assert easy.won > medium.won > difficult.won
    assert easy.survived_night_1 >= medium.survived_night_1 > difficult.survived_night_1
