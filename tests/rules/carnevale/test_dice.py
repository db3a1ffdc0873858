"""The dice engine (digest §1): pools, Aces, the Destiny Die, rerolls, opposed rolls, initiative,
exact odds against independent enumeration, and a chi-square check of seeded rolls."""
import itertools
import json
from fractions import Fraction

import pytest

import i18n
from i18n.present import Presenter
from rules.carnevale import ENGINE
from rules.carnevale import actions as A
from rules.carnevale.dice import (build_pool, ceil_half, compare, d5_from_d10, initiative_winner, is_ace,
                                  odds, opposed_roll, parse_pool, reroll_all, reroll_dice, reroll_misses,
                                  result_from_dice, roll_d5, roll_initiative, roll_pool, scatter, score)
from rules.common import IllegalAction, Rng

from .helpers import P1, apply, game, rolls, script, squad, start, tag


def reference(dice, difficulty):
    """The digest's §1.6 reference algorithm, written independently of the engine."""
    aces = 0
    for d in dice:
        if d == 10:
            aces += 1
        elif d != 1 and d >= difficulty:
            aces += 1
    crit = dice[0] == 10
    fumble = False
    if dice[0] == 1:
        if aces > 0:
            aces -= 1
        else:
            fumble = True
    return aces, crit, fumble


def test_one_always_fails_ten_always_an_ace():
    assert not is_ace(1, 2) and is_ace(10, 11) and is_ace(7, 7) and not is_ace(6, 7)


def test_cap_and_destiny_removed_last():
    p = build_pool(8, [("Karma", 2), ("charge", 1)])
    assert p.dice == 10 and p.lost_to_cap == 1 and p.normal_dice == 9
    p = build_pool(3, [("pain", -2)])
    assert p.dice == 1 and p.normal_dice == 0 and p.has_destiny          # normal dice go first
    p = build_pool(2, [("pain", -2), ("Stun", -1)])
    assert p.dice == 0 and not p.has_destiny                              # nothing to roll
    r = roll_pool(Rng.from_seed(1), p, 7)
    assert r.dice == () and r.aces == 0 and not r.critical and not r.fumble
    # net sum first (default) versus bonuses capped before penalties (house rule)
    assert build_pool(9, [("k", 2), ("cover", -2)]).dice == 9
    assert build_pool(9, [("k", 2), ("cover", -2)], order="cap_bonuses_first").dice == 8
    assert build_pool(0, [], minimum=1).dice == 1


def test_destiny_one_discards_or_fumbles_and_ten_is_critical():
    assert score([1, 8, 9], 7)[:5] == (1, 2, False, False, True)
    assert score([1, 3, 4], 7)[:4] == (0, 0, False, True)
    assert score([1, 7], 7) == (0, 1, False, False, True)      # discarding the only Ace is no fumble
    assert score([10, 2], 7)[:3] == (1, 1, True)


def test_rerolls_and_their_limits():
    rng = Rng.from_seed(5)
    r = result_from_dice([5, 2, 3, 9], 7)
    r2 = reroll_dice(rng, r, [1, 2])
    assert r2.rerolled == (False, True, True, False) and r2.dice[0] == 5 and r2.dice[3] == 9
    with pytest.raises(IllegalAction, match=r"^rerolled_once\b"):
        reroll_dice(rng, r2, [1], "other")
    with pytest.raises(IllegalAction, match=r"^once_per_roll\b"):
        reroll_dice(rng, r2, [3])
    with pytest.raises(IllegalAction, match=r"^destiny_whole_pool\b"):
        reroll_dice(rng, r, [0])
    with pytest.raises(IllegalAction, match=r"^whole_pool_rerolled\b"):
        reroll_all(rng, r2)
    full = reroll_all(rng, r)
    assert all(full.rerolled) and len(full.dice) == 4
    with pytest.raises(IllegalAction, match=r"^destiny_forbids\b"):
        reroll_all(rng, result_from_dice([1, 9, 9], 7))
    with pytest.raises(IllegalAction, match=r"^destiny_forbids\b"):
        reroll_misses(rng, result_from_dice([1, 2, 9], 7), 1)
    m = reroll_misses(rng, result_from_dice([8, 2, 9, 3], 7), 1)
    assert m.rerolled == (False, True, False, False)                 # the lowest miss


def test_opposed_adjustments_exact():
    crit = result_from_dice([10, 8, 2], 7)       # 2 Aces, Critical
    fum = result_from_dice([1, 2, 3], 7)         # 0 Aces, Fumble
    plain2 = result_from_dice([7, 8, 2], 7)      # 2 Aces
    plain3 = result_from_dice([7, 8, 9], 7)
    res = compare(crit, plain3)                   # 2 vs 3 → 2 vs 2
    assert (res.a_aces, res.b_aces, res.winner) == (2, 2, "tie")
    res = compare(plain2, fum)                    # 2 vs 0 → 3 vs 0
    assert (res.a_aces, res.b_aces, res.winner, res.margin) == (3, 0, "a", 3)
    res = compare(crit, fum)                      # 2+1 vs 0 (floor 0)
    assert (res.a_aces, res.b_aces) == (3, 0)
    res = compare(fum, crit)
    assert (res.a_aces, res.b_aces, res.winner) == (0, 3, "b")
    both = compare(result_from_dice([10, 2], 7), result_from_dice([10, 9], 7))   # 1 vs 2 → 0 vs 1
    assert (both.a_aces, both.b_aces) == (0, 1)
    tie = compare(plain2, result_from_dice([7, 7, 1], 7), "escaper")
    assert (tie.a_aces, tie.b_aces, tie.winner, tie.tie_rule, tie.adjustments) == (2, 2, "a", "escaper", ())
    # what changed the Aces is data, side first; the cog words it in the server's language
    assert compare(crit, fum).adjustments == ("a_critical", "b_fumble")
    assert compare(fum, crit).adjustments == ("b_critical", "a_fumble")
    assert compare(plain2, result_from_dice([7, 7, 1], 7), "status_quo").winner == "b"
    rr = opposed_roll(Rng.from_seed(3), 3, 3, tie_rule="reroll")
    assert rr.winner in ("a", "b")


def test_initiative_overrides():
    c = result_from_dice([10, 2], 7)
    f = result_from_dice([1, 2], 7)
    p = result_from_dice([8, 9, 9], 7)
    assert initiative_winner(c, p, 1, 9)[0] == "a"          # Critical wins outright
    assert initiative_winner(p, f, 1, 1)[0] == "a"          # Fumble hands it over
    assert initiative_winner(f, f, 1, 1)[0] is None          # both fumble: reroll
    assert initiative_winner(c, result_from_dice([10, 9, 9], 7), 5, 5)[0] == "b"   # both crit: compare Aces
    assert initiative_winner(p, result_from_dice([9, 9, 8], 7), 3, 5)[0] == "b"    # tie: higher Mind
    assert initiative_winner(p, result_from_dice([9, 9, 8], 7), 5, 5)[0] is None   # then reroll
    ini = roll_initiative(Rng.from_seed(2), 0, 3, 0, 4)
    assert all(len(a.dice) == 1 and len(b.dice) == 1 for a, b in ini.rolls)        # at least 1 die


def test_d5_and_parse_and_half():
    assert [d5_from_d10(x) for x in range(1, 11)] == [1, 1, 2, 2, 3, 3, 4, 4, 5, 5]
    face, d5 = roll_d5(Rng.from_seed(1))
    assert d5 == ceil_half(face)
    assert parse_pool("5d10") == 5 and parse_pool("1d10") == 1 and parse_pool("d10") == 1


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_odds_match_brute_force_enumeration(n):
    for diff in range(2, 11):
        counts = [0] * (n + 1)
        crit = fum = 0
        total = 10 ** n
        for dice in itertools.product(range(1, 11), repeat=n):
            aces, c, f = reference(dice, diff)
            assert score(dice, diff)[0] == aces
            counts[aces] += 1
            crit += c
            fum += f
        o = odds(n, diff)
        assert list(o.aces) == [Fraction(c, total) for c in counts]
        assert o.critical == Fraction(crit, total) and o.fumble == Fraction(fum, total)


def _dp_distribution(n, diff):
    """Independent exact method: fold the n−1 normal dice face by face, then the Destiny Die."""
    dist = {0: Fraction(1)}
    for _ in range(n - 1):
        new = {}
        for k, p in dist.items():
            for face in range(1, 11):
                hit = face == 10 or (face != 1 and face >= diff)
                new[k + hit] = new.get(k + hit, 0) + p / 10
        dist = new
    final = [Fraction(0)] * (n + 1)
    crit = fum = Fraction(0)
    for k, p in dist.items():
        for face in range(1, 11):
            hit = face == 10 or (face != 1 and face >= diff)
            total = k + hit
            f = False
            if face == 1:
                if total > 0:
                    total -= 1
                else:
                    f = True
            final[total] += p / 10
            crit += p / 10 if face == 10 else 0
            fum += p / 10 if f else 0
    return final, crit, fum


@pytest.mark.parametrize("n", range(1, 11))
def test_odds_match_dynamic_programming_for_every_pool(n):
    for diff in range(2, 11):
        final, crit, fum = _dp_distribution(n, diff)
        o = odds(n, diff)
        assert list(o.aces) == final
        assert o.critical == crit and o.fumble == fum
        assert sum(o.aces) == 1


def test_odds_with_karma_and_modifiers_and_zero_pool():
    assert odds(9, 7, karma=2).dice == 10
    z = odds(1, 7, modifiers=[("pain", -2)])
    assert z.dice == 0 and z.aces == (Fraction(1),) and z.fumble == 0
    d = odds(3, 7).as_dict()
    assert d["dice"] == 3 and abs(sum(x["p"] for x in d["aces"]) - 1) < 1e-12


def test_ten_thousand_seeded_rolls_match_the_exact_distribution():
    rng = Rng.from_seed(20261129)
    n, diff, N = 5, 7, 10000
    o = odds(n, diff)
    # categories: k Aces without fumble, plus "fumble" (which always has 0 Aces)
    observed = {}
    for _ in range(N):
        r = roll_pool(rng, n, diff)
        key = "F" if r.fumble else r.aces
        observed[key] = observed.get(key, 0) + 1
    expected = {"F": o.fumble * N}
    for k, p in enumerate(o.aces):
        expected[k] = (p - (o.fumble if k == 0 else 0)) * N
    cats = [k for k in expected if expected[k] >= 5]
    rest_e = sum(expected[k] for k in expected if k not in cats)
    rest_o = sum(observed.get(k, 0) for k in expected if k not in cats)
    chi2 = sum((observed.get(k, 0) - float(expected[k])) ** 2 / float(expected[k]) for k in cats)
    df = len(cats) - 1
    if rest_e:
        chi2 += (rest_o - float(rest_e)) ** 2 / float(rest_e)
        df += 1
    assert df >= 4
    critical_value = {4: 18.47, 5: 20.52, 6: 22.46, 7: 24.32}[df]   # p = 0.001
    assert chi2 < critical_value
    crits = 0
    for _ in range(N):
        crits += roll_pool(rng, 3, 7).critical
    assert abs(crits / N - 0.1) < 0.012


def test_scatter_distance_and_bearing():
    s = scatter(Rng.from_seed(4), 2)
    assert s.distance == max(0, s.die - 2) and 0 <= s.bearing < 360
    assert s.clock in ("12", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11")


def test_a_game_stored_with_english_roll_labels_still_loads_rerolls_and_reads():
    """Before a roll's label was a code, a stored game carried English labels: in each roll event, in
    `last_roll` and inside the stored dice (PoolResult.label). Such a game still loads and rerolls,
    and its stored roll events read in the reader's language."""
    s = game(squad("The Guild", ("Capodecime", {"leader": True}), "The Duke"),
             squad("The Rashaar", ("Magi-Rashaar", {"leader": True})))
    s = start(s, P1)
    script(s, 8, 2, 3, 9)
    s, first = apply(s, A.Roll(pool=4, difficulty=7), P1)
    old = json.loads(json.dumps(ENGINE.dump_state(s)))
    old["last_roll"]["label"] = old["last_roll"]["result"]["label"] = "roll"
    s = ENGINE.load_state(old)
    s, ev = apply(s, A.Reroll("a2", "dice", 2), P1)
    assert rolls(ev)[0]["rerolled"] == [False, True, True, False]
    assert tag(rolls(ev)[0]) == ("roll_reroll_by", {"name": "The Duke"})
    # the roll events as a game stored them then: an English label, beside the `what` players read
    stored = [{"kind": "roll", "audience": "public", "data": {**first[0].data, "label": "roll"}},
              {"kind": "roll", "audience": "public", "data": {**ev[0].data, "label": "reroll by The Duke"}}]
    say = Presenter("it", "carnevale")
    with i18n.watch() as notes:
        lines = say.events(stored)
    assert lines[0].startswith("tiro — 4 = 4d10 → [8] 2 3 9 contro 7")
    assert lines[1].startswith("ritirato da The Duke — ")
    assert [n for n in notes if n.fallback] == []
