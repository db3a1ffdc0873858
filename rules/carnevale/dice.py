"""Carnevale dice: d10 pools with one Destiny Die (digest §1).

Everything here is a pure function of its arguments and the `Rng` it is given, so the engine,
the cog's `/carnevale roll` and the tests share one implementation.

* A pool is built from a base value and signed modifiers; by default the modifiers are summed
  and the result clamped to 0..10 (house rule ``pool_order = "net_then_clamp"``; the other
  reading ``"cap_bonuses_first"`` caps base+bonuses at 10 before the penalties come off).
  Penalties take normal dice away first: the Destiny Die is the last die to go, and a pool with
  no die left is an automatic failure with no Critical and no Fumble.
* Index 0 of every rolled pool is the Destiny Die.
* An Ace is a die >= difficulty; a 1 never is and a 10 always is.
* Destiny 10 = Critical (and an Ace). Destiny 1 = discard one Ace, or a Fumble if there were none.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import comb
import re
from collections.abc import Iterable, Sequence

from rules.common import IllegalAction, Rng, Serial, term


def refused(code: str, **params) -> IllegalAction:
    """A refusal worded by Carnevale's catalogue (errors.<code>), also when a cog calls these
    functions outside the engine (a /carnevale roll)."""
    error = IllegalAction(code, **params)
    error.system = "carnevale"
    return error


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")

MAX_DICE = 10
BASIC_DIFFICULTY = 7
MAX_KARMA_DICE = 2


def ceil_half(n: int) -> int:
    """Halving in Carnevale always rounds up (7 → 4)."""
    return -(-n // 2)


def d5_from_d10(face: int) -> int:
    """d5: a d10 halved, rounded up (1-2 → 1 … 9-10 → 5)."""
    if not 1 <= face <= 10:
        raise ValueError("not_a_d10_face", face)
    return ceil_half(face)


def roll_d5(rng: Rng) -> tuple[int, int]:
    """(the d10 rolled, the d5 it gives)."""
    face = rng.die(10)
    return face, d5_from_d10(face)


def parse_pool(text: str) -> int:
    """'5d10' → 5, '1d10' → 1, 'd10' → 1, '4' → 4."""
    t = text.strip().lower()
    if t.endswith("d10"):
        head = t[:-3]
        n = int(head) if head else 1
    else:
        n = int(t)
    if n < 0 or n > 100:
        raise refused("pool_range")
    return n


def is_ace(face: int, difficulty: int) -> bool:
    return face == 10 or (face != 1 and face >= difficulty)


# ----------------------------------------------------------------------------- pools
@dataclass(frozen=True)
class Pool(Serial):
    """A built pool: how many dice are rolled and how that number came about."""

    dice: int
    base: int = 0
    modifiers: tuple[tuple[str, int], ...] = ()
    raw: int = 0                 # base + every modifier, before clamping
    lost_to_cap: int = 0         # dice above 10 that were lost

    @property
    def normal_dice(self) -> int:
        return max(0, self.dice - 1)

    @property
    def has_destiny(self) -> bool:
        return self.dice > 0


def build_pool(base: int, modifiers: Iterable[tuple[str, int]] | dict | None = None,
               order: str = "net_then_clamp", minimum: int = 0) -> Pool:
    """Build a pool from a base value and (label, delta) modifiers, capped at 10 dice.

    `minimum` is 1 for Initiative (it always rolls at least one die)."""
    if isinstance(modifiers, dict):
        mods = tuple((str(k), int(v)) for k, v in modifiers.items())
    else:
        mods = tuple((str(k), int(v)) for k, v in (modifiers or ()))
    base = int(base)
    bonus = sum(v for _, v in mods if v > 0)
    malus = sum(v for _, v in mods if v < 0)
    raw = base + bonus + malus
    if order == "cap_bonuses_first":
        before = base + bonus
        capped = min(MAX_DICE, before)
        lost = max(0, before - MAX_DICE)
        n = max(0, capped + malus)
    elif order == "net_then_clamp":
        lost = max(0, raw - MAX_DICE)
        n = max(0, min(MAX_DICE, raw))
    else:
        raise ValueError("unknown_pool_order", order)
    n = max(n, minimum)
    return Pool(dice=n, base=base, modifiers=mods, raw=raw, lost_to_cap=lost)


# ----------------------------------------------------------------------------- rolls
@dataclass(frozen=True)
class PoolResult(Serial):
    """One rolled pool. `dice[0]` is the Destiny Die (absent when nothing was rolled). What the roll
    is for is the roll event's (`mechanics.record`), not the dice's: a stored result written with a
    `label` (an English tag, before labels were codes) still loads, the key is ignored."""

    dice: tuple[int, ...]
    difficulty: int
    aces: int                  # after the Destiny-1 discard
    raw_aces: int              # before it
    critical: bool
    fumble: bool
    discarded: bool            # a Destiny 1 took away an Ace
    rerolled: tuple[bool, ...] = ()
    reroll_sources: tuple[str, ...] = ()
    pool: Pool | None = None

    @property
    def destiny(self) -> int | None:
        return self.dice[0] if self.dice else None

    @property
    def success(self) -> bool:
        return self.aces > 0

    @property
    def ace_flags(self) -> tuple[bool, ...]:
        return tuple(is_ace(d, self.difficulty) for d in self.dice)

    @property
    def can_reroll(self) -> bool:
        """A Destiny 1 forbids every reroll of the roll (digest §1.5)."""
        return bool(self.dice) and self.dice[0] != 1

    def to_public(self) -> dict:
        return {"dice": list(self.dice), "destiny": self.destiny, "difficulty": self.difficulty,
                "aces": self.aces, "critical": self.critical, "fumble": self.fumble,
                "discarded": self.discarded, "ace_flags": list(self.ace_flags),
                "rerolled": list(self.rerolled)}


def score(dice: Sequence[int], difficulty: int) -> tuple[int, int, bool, bool, bool]:
    """(aces, raw_aces, critical, fumble, discarded) for faces with the Destiny Die first."""
    if not dice:
        return 0, 0, False, False, False
    raw = sum(1 for d in dice if is_ace(d, difficulty))
    destiny = dice[0]
    crit = destiny == 10
    fumble = discarded = False
    aces = raw
    if destiny == 1:
        if raw > 0:
            aces -= 1
            discarded = True
        else:
            fumble = True
    return aces, raw, crit, fumble, discarded


def result_from_dice(dice: Sequence[int], difficulty: int = BASIC_DIFFICULTY,
                     pool: Pool | None = None, rerolled: Sequence[bool] | None = None,
                     sources: Sequence[str] = ()) -> PoolResult:
    """A PoolResult for given faces (tests use this to fix a roll, e.g. the Destiny Die)."""
    dice = tuple(int(d) for d in dice)
    for d in dice:
        if not 1 <= d <= 10:
            raise ValueError("not_a_d10_face", d)
    aces, raw, crit, fumble, disc = score(dice, difficulty)
    return PoolResult(dice=dice, difficulty=difficulty, aces=aces, raw_aces=raw, critical=crit,
                      fumble=fumble, discarded=disc,
                      rerolled=tuple(rerolled) if rerolled is not None else tuple(False for _ in dice),
                      reroll_sources=tuple(sources), pool=pool)


def roll_pool(rng: Rng, pool: int | Pool, difficulty: int = BASIC_DIFFICULTY, karma: int = 0,
              order: str = "net_then_clamp",
              modifiers: Iterable[tuple[str, int]] = ()) -> PoolResult:
    """Roll a pool. `karma` adds up to 2 dice (the pool is still capped at 10)."""
    if karma < 0 or karma > MAX_KARMA_DICE:
        raise refused("karma_dice_max")
    if isinstance(pool, Pool):
        mods = list(pool.modifiers) + list(modifiers)
        if karma:
            mods.append(("Karma", karma))
        built = build_pool(pool.base, mods, order) if (karma or modifiers) else pool
    else:
        if pool < 0:
            raise refused("pool_range")
        mods = list(modifiers)
        if karma:
            mods.append(("Karma", karma))
        built = build_pool(int(pool), mods, order)
    if not 1 <= difficulty <= 11:
        raise refused("difficulty_range")
    dice = [rng.die(10) for _ in range(built.dice)]
    return result_from_dice(dice, difficulty, built)


# ----------------------------------------------------------------------------- rerolls
def reroll_dice(rng: Rng, result: PoolResult, indices: Sequence[int], source: str = "Reroll Dice") -> PoolResult:
    """Reroll some normal dice (never the Destiny Die on its own); each die at most once."""
    if not result.can_reroll:
        raise refused("destiny_forbids")
    if source in result.reroll_sources:
        raise refused("once_per_roll", source=term(f"source_{_slug(source)}"))
    idx = sorted(set(int(i) for i in indices))
    if not idx:
        raise refused("name_a_die")
    for i in idx:
        if i == 0:
            raise refused("destiny_whole_pool")
        if not 0 < i < len(result.dice):
            raise refused("no_die", n=i)
        if result.rerolled[i]:
            raise refused("rerolled_once")
    dice = list(result.dice)
    flags = list(result.rerolled)
    for i in idx:
        dice[i] = rng.die(10)
        flags[i] = True
    return result_from_dice(dice, result.difficulty, result.pool, flags,
                            result.reroll_sources + (source,))


def reroll_misses(rng: Rng, result: PoolResult, count: int, source: str = "Reroll Dice") -> PoolResult:
    """Reroll up to `count` missed normal dice (the lowest first)."""
    if not result.can_reroll:
        raise refused("destiny_forbids")
    if source in result.reroll_sources:
        raise refused("once_per_roll", source=term(f"source_{_slug(source)}"))
    misses = [i for i in range(1, len(result.dice))
              if not is_ace(result.dice[i], result.difficulty) and not result.rerolled[i]]
    misses.sort(key=lambda i: result.dice[i])
    if not misses:
        raise refused("no_missed_die")
    return reroll_dice(rng, result, misses[:count], source)


def reroll_aces(rng: Rng, result: PoolResult, count: int, source: str = "Reroll Dice") -> PoolResult:
    """An opponent's Reroll Dice: reroll up to `count` normal dice that are Aces (the highest first)."""
    if not result.can_reroll:
        raise refused("destiny_forbids")
    if source in result.reroll_sources:
        raise refused("once_per_roll", source=term(f"source_{_slug(source)}"))
    aces = [i for i in range(1, len(result.dice))
            if is_ace(result.dice[i], result.difficulty) and not result.rerolled[i]]
    aces.sort(key=lambda i: -result.dice[i])
    if not aces:
        raise refused("no_ace_to_reroll")
    return reroll_dice(rng, result, aces[:count], source)


def reroll_all(rng: Rng, result: PoolResult, source: str = "Reroll All Dice") -> PoolResult:
    """Reroll the whole pool, Destiny Die included; only if no die was rerolled yet."""
    if not result.can_reroll:
        raise refused("destiny_forbids")
    if not result.dice:
        raise refused("no_dice_to_reroll")
    if any(result.rerolled):
        raise refused("whole_pool_rerolled")
    dice = [rng.die(10) for _ in result.dice]
    return result_from_dice(dice, result.difficulty, result.pool,
                            [True] * len(dice), result.reroll_sources + (source,))


# ----------------------------------------------------------------------------- opposed
# How a tie is settled (the cog's `tie_rule` choices; worded as carnevale.opposed.rule_<code>).
TIE_RULES = ("none", "a_wins", "b_wins", "escaper", "status_quo", "reroll")


@dataclass(frozen=True)
class Opposed(Serial):
    a: PoolResult
    b: PoolResult
    a_aces: int          # after the Critical/Fumble adjustments
    b_aces: int
    winner: str          # "a", "b" or "tie"
    margin: int
    tie_rule: str = "none"
    adjustments: tuple[str, ...] = ()    # codes: a_critical, b_critical, a_fumble, b_fumble


def adjust_opposed(a: PoolResult, b: PoolResult) -> tuple[int, int, tuple[str, ...]]:
    """Apply both sides' Critical (−1 opponent Ace) and Fumble (+1 opponent Ace); the notes are
    codes, side first (a_critical: the first side's Critical removed an Ace from the second)."""
    A, B = a.aces, b.aces
    notes = []
    if a.critical:
        B = max(0, B - 1)
        notes.append("a_critical")
    if b.critical:
        A = max(0, A - 1)
        notes.append("b_critical")
    if a.fumble:
        B += 1
        notes.append("a_fumble")
    if b.fumble:
        A += 1
        notes.append("b_fumble")
    return A, B, tuple(notes)


def compare(a: PoolResult, b: PoolResult, tie_rule: str = "none") -> Opposed:
    A, B, notes = adjust_opposed(a, b)
    if A > B:
        winner = "a"
    elif B > A:
        winner = "b"
    else:
        winner = {"a_wins": "a", "escaper": "a", "b_wins": "b", "status_quo": "b"}.get(tie_rule, "tie")
    return Opposed(a=a, b=b, a_aces=A, b_aces=B, winner=winner, margin=abs(A - B),
                   tie_rule=tie_rule, adjustments=notes)


def opposed_roll(rng: Rng, pool_a: int | Pool, pool_b: int | Pool, difficulty_a: int = BASIC_DIFFICULTY,
                 difficulty_b: int = BASIC_DIFFICULTY, tie_rule: str = "none", karma_a: int = 0,
                 karma_b: int = 0, max_rerolls: int = 20) -> Opposed:
    """Both sides roll; adjustments applied. With tie_rule 'reroll' ties are rolled again.
    For "escaper"/"status_quo" pass the escaper / the holder as side a / side b respectively."""
    for _ in range(max_rerolls):
        a = roll_pool(rng, pool_a, difficulty_a, karma_a)
        b = roll_pool(rng, pool_b, difficulty_b, karma_b)
        res = compare(a, b, tie_rule)
        if res.winner != "tie" or tie_rule != "reroll":
            return res
    return res


# ----------------------------------------------------------------------------- initiative
@dataclass(frozen=True)
class Initiative(Serial):
    rolls: tuple[tuple[PoolResult, PoolResult], ...]
    winner: str       # "a" or "b"
    reason: str


def initiative_winner(a: PoolResult, b: PoolResult, mind_a: int, mind_b: int) -> tuple[str | None, str]:
    """Decide one Initiative exchange; None means reroll (digest §1.7)."""
    if a.fumble and b.fumble:
        return None, "both fumbled: reroll"
    if a.critical and b.critical:
        A, B, why = a.aces, b.aces, "both rolled a Critical: Aces compared"
    elif a.critical or b.fumble:
        return "a", "a Critical wins the initiative" if a.critical else "a Fumble hands over the initiative"
    elif b.critical or a.fumble:
        return "b", "a Critical wins the initiative" if b.critical else "a Fumble hands over the initiative"
    else:
        A, B, why = a.aces, b.aces, "more Aces"
    if A != B:
        return ("a" if A > B else "b"), why
    if mind_a != mind_b:
        return ("a" if mind_a > mind_b else "b"), "tie: the leader with the higher Mind wins"
    return None, "tie with equal Mind: reroll"


def roll_initiative(rng: Rng, command_a: int, mind_a: int, command_b: int, mind_b: int,
                    modifiers_a: Iterable[tuple[str, int]] = (), modifiers_b: Iterable[tuple[str, int]] = (),
                    max_rerolls: int = 50) -> Initiative:
    """Each side rolls its leader's current Command (at least 1 die) at difficulty 7."""
    pa = build_pool(command_a, list(modifiers_a), minimum=1)
    pb = build_pool(command_b, list(modifiers_b), minimum=1)
    rolls = []
    for _ in range(max_rerolls):
        a = roll_pool(rng, pa, BASIC_DIFFICULTY)
        b = roll_pool(rng, pb, BASIC_DIFFICULTY)
        rolls.append((a, b))
        w, why = initiative_winner(a, b, mind_a, mind_b)
        if w:
            return Initiative(rolls=tuple(rolls), winner=w, reason=why)
    return Initiative(rolls=tuple(rolls), winner="a", reason="no decision after many rerolls")


# ----------------------------------------------------------------------------- exact odds
@dataclass(frozen=True)
class Odds:
    dice: int
    difficulty: int
    aces: tuple[Fraction, ...]       # P(exactly k Aces), k = 0..dice
    critical: Fraction
    fumble: Fraction

    @property
    def success(self) -> Fraction:
        return 1 - self.aces[0]

    def at_least(self, k: int) -> Fraction:
        return sum(self.aces[k:], Fraction(0))

    @property
    def expected(self) -> Fraction:
        return sum((k * p for k, p in enumerate(self.aces)), Fraction(0))

    def as_dict(self) -> dict:
        """JSON-safe: exact fractions as strings, and floats for display."""
        return {"dice": self.dice, "difficulty": self.difficulty,
                "aces": [{"k": k, "p": float(p), "exact": str(p), "at_least": float(self.at_least(k))}
                         for k, p in enumerate(self.aces)],
                "critical": float(self.critical), "critical_exact": str(self.critical),
                "fumble": float(self.fumble), "fumble_exact": str(self.fumble),
                "success": float(self.success), "expected": float(self.expected)}


def _ace_faces(difficulty: int) -> int:
    """How many of the faces 2..9 are Aces (the 1 never is, the 10 always is)."""
    return sum(1 for f in range(2, 10) if f >= difficulty)


def odds(pool: int | Pool, difficulty: int = BASIC_DIFFICULTY, karma: int = 0,
         modifiers: Iterable[tuple[str, int]] = (), order: str = "net_then_clamp") -> Odds:
    """Exact probabilities by convolution: the n−1 normal dice are binomial, and the
    Destiny Die's ten faces are worked through one by one."""
    built = pool if isinstance(pool, Pool) else build_pool(
        int(pool), list(modifiers) + ([("Karma", karma)] if karma else []), order)
    if isinstance(pool, Pool) and (karma or modifiers):
        built = build_pool(pool.base, list(pool.modifiers) + list(modifiers) + ([("Karma", karma)] if karma else []), order)
    n = built.dice
    if n == 0:
        return Odds(0, difficulty, (Fraction(1),), Fraction(0), Fraction(0))
    mid = _ace_faces(difficulty)
    p = Fraction(mid + 1, 10)                      # a normal die: the 10 plus the middle Aces
    normal = [comb(n - 1, k) * p ** k * (1 - p) ** (n - 1 - k) for k in range(n)]
    dist = [Fraction(0)] * (n + 1)
    fumble = Fraction(0)
    tenth = Fraction(1, 10)
    for k, pk in enumerate(normal):
        dist[k + 1] += pk * tenth                  # Destiny 10: an Ace and a Critical
        if k > 0:                                  # Destiny 1: discard one Ace …
            dist[k - 1] += pk * tenth
        else:                                      # … or Fumble when there was none
            dist[0] += pk * tenth
            fumble += pk * tenth
        dist[k + 1] += pk * Fraction(mid, 10)      # Destiny 2..9 that is an Ace
        dist[k] += pk * Fraction(8 - mid, 10)      # Destiny 2..9 that misses
    return Odds(n, difficulty, tuple(dist), Fraction(1, 10), fumble)


# ----------------------------------------------------------------------------- scatter
CLOCK = ("12", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11")


@dataclass(frozen=True)
class Scatter(Serial):
    die: int
    distance: int
    bearing: int        # degrees, 0 = towards the top of the table, clockwise
    clock: str


def scatter(rng: Rng, shooting: int) -> Scatter:
    """d10 − the thrower's unmodified Shooting, at least 0 inches, in a random direction."""
    die = rng.die(10)
    bearing = rng.below(360)
    return Scatter(die=die, distance=max(0, die - int(shooting)), bearing=bearing,
                   clock=CLOCK[((bearing + 15) % 360) // 30])
