"""Default virtual arena for Klash! (the rulebook gives no board size, digest §1.1 and §6.23).

Documented geometry (all in centimetres, origin at the arena's lower-left corner of its bounding box):
- the arena is a circle of diameter ``DIAMETER`` = 120 cm, centre ``CENTRE`` = (60, 60);
- the Altar of Chaos is a solid disc of radius 8 cm at the centre;
- two Entrance Gates are solid discs of radius 6 cm centred on the wall at (0, 60) (gate 0, west) and
  (120, 60) (gate 1, east), so only a half-disc of each juts into the arena;
- bases are circles: normal radius 1.5 cm (30 mm), large (Huge) radius 2.5 cm (50 mm).

Distances between models ("within X cm", ranges, movement allowances) are measured base edge to base
edge; line of sight runs centre to centre (L38). Everything here is pure maths on tuples.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

DIAMETER = 120.0
RADIUS = DIAMETER / 2
CENTRE = (60.0, 60.0)
ALTAR_RADIUS = 8.0
GATE_RADIUS = 6.0
GATES = ((0.0, 60.0), (120.0, 60.0))
BASE_NORMAL = 1.5
BASE_LARGE = 2.5
MIN_ENEMY_GAP = 1.0
EPS = 1e-6
CONTACT_TOL = 0.05  # edge gap that still counts as base contact

Point = tuple[float, float]


@dataclass(frozen=True)
class Disc:
    """A circular base or obstacle."""

    x: float
    y: float
    r: float
    key: str = ""
    side: int = -1      # owner seat index for models, -1 for scenery
    huge: bool = False


def polar(x: float, y: float, distance: float, degrees: float) -> Point:
    """The point ``distance`` cm from (x, y) in a compass-free direction: 0° = east (+x), 90° = north (+y).
    Lets a command take "distance and direction" instead of coordinates."""
    rad = math.radians(degrees)
    return (round(x + distance * math.cos(rad), 2), round(y + distance * math.sin(rad), 2))


def dist(a: Point, b: Point) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])


def edge_gap(a: Disc, b: Disc) -> float:
    """Distance between the edges of two circles (negative if they overlap)."""
    return dist((a.x, a.y), (b.x, b.y)) - a.r - b.r


def in_contact(a: Disc, b: Disc) -> bool:
    return edge_gap(a, b) <= CONTACT_TOL


def seg_point_distance(p: Point, q: Point, c: Point) -> float:
    """Shortest distance from point c to the segment p-q."""
    dx, dy = q[0] - p[0], q[1] - p[1]
    length2 = dx * dx + dy * dy
    if length2 == 0:
        return dist(p, c)
    t = ((c[0] - p[0]) * dx + (c[1] - p[1]) * dy) / length2
    t = max(0.0, min(1.0, t))
    return dist((p[0] + t * dx, p[1] + t * dy), c)


def altar() -> Disc:
    return Disc(CENTRE[0], CENTRE[1], ALTAR_RADIUS, "altar")


def gate(index: int) -> Disc:
    x, y = GATES[index]
    return Disc(x, y, GATE_RADIUS, f"gate{index}")


_SCENERY: list[Disc] = []


def scenery() -> list[Disc]:
    if not _SCENERY:
        _SCENERY.extend([altar(), gate(0), gate(1)])
    return _SCENERY


def inside_arena(x: float, y: float, r: float) -> bool:
    return dist((x, y), CENTRE) + r <= RADIUS + EPS


def path_length(points: list[Point]) -> float:
    return sum(dist(points[i], points[i + 1]) for i in range(len(points) - 1))


def check_path(mover: Disc, points: list[Point], models: list[Disc], *, allowance: float,
               enemy_gap: bool = True, exempt: tuple[str, ...] = ()) -> str | None:
    """Why a movement along ``points`` (start first) is illegal, or None if it is legal.

    Checks: total length within ``allowance``; never leaving the arena; never passing through the Altar,
    a Gate or another model (friendly models may touch); staying at least 1 cm from enemies when
    ``enemy_gap`` (models in ``exempt`` — those it is disengaging from — must only be 1 cm away at the end).
    """
    length = path_length(points)
    if length > allowance + 0.01:
        return f"That path is {length:.1f} cm long; this move allows {allowance:.1f} cm."
    for (x, y) in points[1:]:
        if not inside_arena(x, y, mover.r):
            return f"({x:.1f}, {y:.1f}) is outside the arena walls."
    for a, b in zip(points, points[1:]):
        for s in scenery():
            if seg_point_distance(a, b, (s.x, s.y)) < s.r + mover.r - EPS:
                name = "the Altar of Chaos" if s.key == "altar" else "an Entrance Gate"
                return f"The path passes through {name}."
        for m in models:
            if m.key == mover.key:
                continue
            d = seg_point_distance(a, b, (m.x, m.y))
            if d < m.r + mover.r - CONTACT_TOL:
                return f"The path passes through another model ({m.key})."
            if enemy_gap and m.side != mover.side and m.key not in exempt and d < m.r + mover.r + MIN_ENEMY_GAP - CONTACT_TOL:
                return f"The path comes within 1 cm of an enemy ({m.key})."
    end = points[-1]
    for m in models:
        if m.key in exempt and m.side != mover.side:
            if dist(end, (m.x, m.y)) - m.r - mover.r < MIN_ENEMY_GAP - CONTACT_TOL:
                return f"The move must end at least 1 cm from {m.key}."
    return None


def blocked_by_scenery(a: Point, b: Point) -> bool:
    """Line of sight between two centres is blocked by the Altar or a Gate (L38)."""
    return any(seg_point_distance(a, b, (s.x, s.y)) < s.r - EPS for s in scenery())


def line_of_sight(shooter: Disc, target: Disc, models: list[Disc]) -> tuple[bool, bool]:
    """(visible, in_cover). Centre-to-centre segment; the Altar and Gates block; any other model the
    segment crosses gives cover, except that a Huge target gets no cover from normal models."""
    a, b = (shooter.x, shooter.y), (target.x, target.y)
    if blocked_by_scenery(a, b):
        return False, False
    cover = False
    for m in models:
        if m.key in (shooter.key, target.key):
            continue
        if target.huge and not m.huge:
            continue
        if seg_point_distance(a, b, (m.x, m.y)) < m.r - EPS:
            cover = True
    return True, cover


def range_band(gap: float, short: float, long: float) -> str | None:
    """'short', 'long' or None (beyond max range). Boundaries belong to the nearer band (EX-15)."""
    if gap <= short + 1e-9:
        return "short"
    if gap <= long + 1e-9:
        return "long"
    return None


def charge_end(charger: Disc, target: Disc) -> tuple[Point, float]:
    """Where a straight-line Charge ends (touching the target) and how far it travels."""
    d = dist((charger.x, charger.y), (target.x, target.y))
    travel = d - charger.r - target.r
    if d == 0:
        return (charger.x, charger.y), 0.0
    ux, uy = (target.x - charger.x) / d, (target.y - charger.y) / d
    reach = d - charger.r - target.r
    return (charger.x + ux * reach, charger.y + uy * reach), max(0.0, travel)


def check_charge(charger: Disc, target: Disc, models: list[Disc], speed: float) -> str | None:
    """Why the straight-line Charge cannot reach the target, or None (digest §6.3)."""
    if blocked_by_scenery((charger.x, charger.y), (target.x, target.y)):
        return "The target is not in line of sight."
    end, travel = charge_end(charger, target)
    if travel > speed + 1e-6:
        return f"The target is {travel:.1f} cm away; the Charge reaches {speed:.1f} cm."
    others = [m for m in models if m.key != target.key]
    return check_path(charger, [(charger.x, charger.y), end], others, allowance=speed + 1e-6, enemy_gap=False)


def _ray_entry(s: Point, u: Point, c: Point, r: float) -> float:
    """Smallest t >= 0 where s + u*t enters the circle (c, r); inf if never. A ray starting inside
    (or on) the circle is free when it moves outward and blocked at once when it moves inward."""
    fx, fy = s[0] - c[0], s[1] - c[1]
    b = fx * u[0] + fy * u[1]
    cc = fx * fx + fy * fy - r * r
    if cc <= 0:
        return math.inf if b >= 0 else 0.0
    disc = b * b - cc
    if disc <= 0:
        return math.inf
    t = -b - math.sqrt(disc)
    return t if t >= 0 else math.inf


def _ray_exit(s: Point, u: Point, c: Point, r: float) -> float:
    """Largest t where s + u*t is still inside the circle (c, r), for s inside it."""
    fx, fy = s[0] - c[0], s[1] - c[1]
    b = fx * u[0] + fy * u[1]
    cc = fx * fx + fy * fy - r * r
    disc = b * b - cc
    if disc <= 0:
        return 0.0
    return max(0.0, -b + math.sqrt(disc))


def step_toward(mover: Disc, goal: Point, models: list[Disc], allowance: float, *, stop_gap: float = 0.0,
                enemy_gap: bool = True, exempt: tuple[str, ...] = ()) -> Point | None:
    """The farthest legal point on the straight line toward ``goal`` within ``allowance`` (stopping
    ``stop_gap`` short of the goal point). None if no progress of at least 0.5 cm is possible."""
    start = (mover.x, mover.y)
    d = dist(start, goal) - stop_gap
    if d <= 0.5:
        return None
    reach = min(allowance, d)
    ux, uy = (goal[0] - start[0]) / dist(start, goal), (goal[1] - start[1]) / dist(start, goal)

    def ok(t: float) -> bool:
        p = (start[0] + ux * t, start[1] + uy * t)
        return check_path(mover, [start, p], models, allowance=allowance, enemy_gap=enemy_gap, exempt=exempt) is None

    # Analytic first guess: the first point where the ray would enter any keep-out circle.
    limit = reach
    for sc in scenery():
        limit = min(limit, _ray_entry(start, (ux, uy), (sc.x, sc.y), sc.r + mover.r))
    for m in models:
        if m.key == mover.key:
            continue
        clearance = m.r + mover.r - CONTACT_TOL
        if enemy_gap and m.side != mover.side and m.key not in exempt:
            clearance += MIN_ENEMY_GAP
        limit = min(limit, _ray_entry(start, (ux, uy), (m.x, m.y), clearance + 0.01))
    limit = min(limit, _ray_exit(start, (ux, uy), CENTRE, RADIUS - mover.r))
    guess = limit - 0.03 if limit < reach else reach
    if guess < 0.5 and not exempt:
        return None
    if guess >= 0.5 and ok(guess):
        best = guess
    elif ok(reach):
        best = reach
    else:
        lo, hi = 0.0, reach
        for _ in range(8):
            mid = (lo + hi) / 2
            if ok(mid):
                lo = mid
            else:
                hi = mid
        best = lo
    for back in (0.0, 0.05, 0.2):
        t = best - back
        if t < 0.5:
            return None
        p = (round(start[0] + ux * t, 2), round(start[1] + uy * t, 2))
        if check_path(mover, [start, p], models, allowance=allowance, enemy_gap=enemy_gap, exempt=exempt) is None:
            return p
    return None


def step_route(mover: Disc, goal: Point, models: list[Disc], allowance: float, *, stop_gap: float = 0.0,
               exempt: tuple[str, ...] = ()) -> list[Point] | None:
    """Like ``step_toward`` but walks around the Altar of Chaos: when the straight line would cross it,
    the route passes a flank point just north or south of the Altar (whichever is shorter). Returns the
    waypoints after the start (one or two points), or None if no progress is possible."""
    start = (mover.x, mover.y)
    if seg_point_distance(start, goal, CENTRE) >= ALTAR_RADIUS + mover.r:
        p = step_toward(mover, goal, models, allowance, stop_gap=stop_gap, exempt=exempt)
        return [p] if p else None
    clear = ALTAR_RADIUS + mover.r + 0.5
    best_w, best_len = None, math.inf
    for sign in (1, -1):
        k = ALTAR_RADIUS + mover.r + 1.0
        while k < RADIUS - mover.r - 1:
            f = (CENTRE[0], CENTRE[1] + sign * k)
            if seg_point_distance(start, f, CENTRE) >= clear and seg_point_distance(f, goal, CENTRE) >= clear:
                length = dist(start, f) + dist(f, goal)
                if length < best_len:
                    best_w, best_len = f, length
                break
            k += 1.0
    if best_w is None:
        return None
    w = best_w
    p = step_toward(mover, w, models, allowance, exempt=exempt)
    if p is None:
        return None
    used = dist(start, p)
    if dist(p, w) > 0.3 or allowance - used < 0.5:
        return [p]
    moved = Disc(p[0], p[1], mover.r, mover.key, mover.side, mover.huge)
    q = step_toward(moved, goal, models, allowance - used - 0.01, stop_gap=stop_gap, exempt=exempt)
    return [p, q] if q else [p]


def deploy_check(model: Disc, gate_index: int, speed: float, models: list[Disc]) -> str | None:
    """Initial deployment: within Speed of the Gate's edge, at least 1 cm from it, inside the arena,
    not overlapping anyone and at least 1 cm from enemies (L20)."""
    g = gate(gate_index)
    gap = edge_gap(model, g)
    if gap < MIN_ENEMY_GAP - EPS:
        return "Models must be placed at least 1 cm from their Gate."
    if gap > speed + EPS:
        return f"That is {gap:.1f} cm from the Gate; this model may enter up to {speed:.0f} cm."
    if not inside_arena(model.x, model.y, model.r):
        return "That point is outside the arena."
    if edge_gap(model, altar()) < -EPS:
        return "That point is inside the Altar of Chaos."
    for m in models:
        if m.key == model.key:
            continue
        gap = edge_gap(model, m)
        if gap < -CONTACT_TOL:
            return f"That spot overlaps {m.key}."
        if m.side != model.side and gap < MIN_ENEMY_GAP - CONTACT_TOL:
            return f"That spot is within 1 cm of an enemy ({m.key})."
    return None


def deploy_spots(gate_index: int, r: float, speed: float, models: list[Disc], side: int, key: str,
                 limit: int = 12) -> list[Point]:
    """Legal deployment points around a Gate for button play, spread over the whole reach (every
    distance up to the model's Speed, all along the Gate's arc) rather than bunched at the Gate: the
    farthest legal point straight ahead first, then each next point as far as possible from those
    already offered (deterministic farthest-point sampling)."""
    gx, gy = GATES[gate_index]
    facing = 0.0 if gate_index == 0 else math.pi
    candidates: list[Point] = []
    for extra in (2.0, 5.0, 8.0, 11.0, 14.0, 17.0, 20.0):
        if extra > speed:
            break
        rad = GATE_RADIUS + r + extra
        for k in range(-8, 9):
            ang = facing + k * math.radians(12)
            p = (round(gx + rad * math.cos(ang), 1), round(gy + rad * math.sin(ang), 1))
            if deploy_check(Disc(p[0], p[1], r, key, side), gate_index, speed, models) is None:
                candidates.append(p)
    if not candidates:
        return []
    ahead = [p for p in candidates if abs(p[1] - gy) < 0.05]
    spots = [max(ahead or candidates, key=lambda p: math.hypot(p[0] - gx, p[1] - gy))]
    while len(spots) < min(limit, len(candidates)):
        spots.append(max((p for p in candidates if p not in spots),
                         key=lambda p: min(math.hypot(p[0] - q[0], p[1] - q[1]) for q in spots)))
    return spots
