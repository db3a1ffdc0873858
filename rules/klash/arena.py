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
from typing import NamedTuple
from functools import lru_cache

from rules.common.errors import IllegalAction

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


class Disc(NamedTuple):
    """A circular base or obstacle. (A named tuple: a bot's search makes millions of them, and a
    frozen dataclass is about three times slower to make.)"""

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
    px, py = p
    dx, dy = q[0] - px, q[1] - py
    length2 = dx * dx + dy * dy
    if length2 == 0:
        return math.hypot(px - c[0], py - c[1])
    t = ((c[0] - px) * dx + (c[1] - py) * dy) / length2
    if t < 0.0:          # clamped to the segment (comparisons: the route planner calls this a million times)
        t = 0.0
    elif t > 1.0:
        t = 1.0
    return math.hypot(px + t * dx - c[0], py + t * dy - c[1])


def seg_distances(p: Point, q: Point, discs: list[Disc]) -> list[float]:
    """``seg_point_distance(p, q, (d.x, d.y))`` of every disc, the very same arithmetic in one loop: a
    path's check asks it of every obstacle for every leg, and the calls were most of its cost."""
    px, py = p
    dx, dy = q[0] - px, q[1] - py
    length2 = dx * dx + dy * dy
    hypot = math.hypot
    if length2 == 0:
        return [hypot(px - d.x, py - d.y) for d in discs]
    out = []
    for d in discs:
        t = ((d.x - px) * dx + (d.y - py) * dy) / length2
        t = 0.0 if t < 0.0 else (1.0 if t > 1.0 else t)
        out.append(hypot(px + t * dx - d.x, py + t * dy - d.y))
    return out


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
               enemy_gap: bool = True, exempt: tuple[str, ...] = ()) -> IllegalAction | None:
    """Why a movement along ``points`` (start first) is illegal, or None if it is legal.

    Checks: total length within ``allowance``; never leaving the arena; never passing through the Altar,
    a Gate or another model (friendly models may touch); staying at least 1 cm from enemies when
    ``enemy_gap`` (models in ``exempt`` — those it is disengaging from — must only be 1 cm away at the end).
    """
    length = path_length(points)
    if length > allowance + 0.01:
        return IllegalAction("path_too_long", length=length, allowance=allowance)
    for (x, y) in points[1:]:
        if not inside_arena(x, y, mover.r):
            return IllegalAction("outside_walls", x=x, y=y)
    fixed = scenery()
    for a, b in zip(points, points[1:]):
        for s, d in zip(fixed, seg_distances(a, b, fixed)):
            if d < s.r + mover.r - EPS:
                return IllegalAction("path_through_altar" if s.key == "altar" else "path_through_gate")
        for m, d in zip(models, seg_distances(a, b, models)):
            if m.key == mover.key:
                continue
            if d < m.r + mover.r - CONTACT_TOL:
                return IllegalAction("path_through_model", key=m.key)
            if enemy_gap and m.side != mover.side and m.key not in exempt and d < m.r + mover.r + MIN_ENEMY_GAP - CONTACT_TOL:
                return IllegalAction("path_near_enemy", key=m.key)
    end = points[-1]
    for m in models:
        if m.key in exempt and m.side != mover.side:
            if dist(end, (m.x, m.y)) - m.r - mover.r < MIN_ENEMY_GAP - CONTACT_TOL:
                return IllegalAction("end_near_enemy", key=m.key)
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


def check_charge(charger: Disc, target: Disc, models: list[Disc], speed: float) -> IllegalAction | None:
    """Why the straight-line Charge cannot reach the target, or None (digest §6.3)."""
    if blocked_by_scenery((charger.x, charger.y), (target.x, target.y)):
        return IllegalAction("charge_not_in_sight")
    end, travel = charge_end(charger, target)
    if travel > speed + 1e-6:
        return IllegalAction("charge_too_far", travel=travel, speed=speed)
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


def _clearance(mover: Disc, o: Disc, exempt: tuple[str, ...]) -> float:
    """How far a mover's centre keeps from an obstacle's centre: touching for scenery and friends,
    1 cm more for enemies (except the ones it is disengaging from)."""
    extra = MIN_ENEMY_GAP if o.side >= 0 and o.side != mover.side and o.key not in exempt else 0.0
    return o.r + mover.r + extra


def _first_blocker(start: Point, goal: Point, mover: Disc, models: list[Disc], stop_gap: float,
                   exempt: tuple[str, ...]) -> Disc | None:
    """The first obstacle the straight line toward ``goal`` runs into before its stopping point (the
    goal's own disc -- the model or the Altar a route heads for -- is not in the way)."""
    d = dist(start, goal)
    if d - stop_gap <= 0.5:
        return None
    u = ((goal[0] - start[0]) / d, (goal[1] - start[1]) / d)
    best, first = None, d - stop_gap
    for o in [*scenery(), *(m for m in models if m.key != mover.key)]:
        if dist((o.x, o.y), goal) < 0.05:
            continue
        t = _ray_entry(start, u, (o.x, o.y), _clearance(mover, o, exempt) - CONTACT_TOL)
        if t < first:
            best, first = o, t
    return best


def _group(o: Disc, mover: Disc, models: list[Disc], exempt: tuple[str, ...]) -> list[Disc]:
    """``o`` and every obstacle chained to it by gaps the mover cannot pass through (a row of
    friends, a melee cluster, a model beside the Altar): a route goes around them as one."""
    pool = [(x, _clearance(mover, x, exempt)) for x in [*scenery(), *models] if x.key != mover.key]
    group, todo, keys = [o], [(o, _clearance(mover, o, exempt))], {o.key}   # keys: unique per model and scenery
    while todo:
        a, clear_a = todo.pop()
        for b, clear_b in pool:
            # the mover's centre passes between a and b only where it keeps clear of both
            if b.key not in keys and math.hypot(a.x - b.x, a.y - b.y) < clear_a + clear_b:
                group.append(b)
                todo.append((b, clear_b))
                keys.add(b.key)
    return group


def _around(start: Point, goal: Point, group: list[Disc], mover: Disc, models: list[Disc],
            exempt: tuple[str, ...], side: int) -> list[Point] | None:
    """The shortest way past a group of obstacles on one side of the line start-goal: waypoints on
    8-sided polygons just outside each one's keep-out circle (vertices standing in an obstacle or
    outside the arena are skipped; the legs between them are re-planned by the caller)."""
    n = 8
    sx, sy = goal[0] - start[0], goal[1] - start[1]
    keep = [(x, _clearance(mover, x, exempt)) for x in group]
    # the hot loops below read plain numbers, computed once (the same arithmetic as dist() and
    # seg_point_distance(), so the routes are the very same)
    others = [(x.x, x.y, _clearance(mover, x, exempt) + 0.05) for x in [*scenery(), *models] if x.key != mover.key]
    limits = [(o.x, o.y, clear - 0.02) for o, clear in keep]
    hypot = math.hypot
    nodes = [start, goal]
    for o, clear in keep:
        rp = (clear + 0.3) / math.cos(math.pi / n)
        for k in range(n):
            a = 2 * math.pi * k / n
            v = (round(o.x + rp * math.cos(a), 2), round(o.y + rp * math.sin(a), 2))
            if (sx * (v[1] - start[1]) - sy * (v[0] - start[0])) * side < 0 or not inside_arena(v[0], v[1], mover.r):
                continue
            for ox, oy, near in others:
                if hypot(v[0] - ox, v[1] - oy) < near:
                    break
            else:
                nodes.append(v)

    def free(a: Point, b: Point) -> bool:
        """No keep-out circle of the group cut by the segment a-b."""
        ax, ay = a
        dx, dy = b[0] - ax, b[1] - ay
        length2 = dx * dx + dy * dy
        for ox, oy, limit in limits:
            if length2 == 0:
                d = hypot(ax - ox, ay - oy)
            else:
                t = ((ox - ax) * dx + (oy - ay) * dy) / length2
                t = 0.0 if t < 0.0 else (1.0 if t > 1.0 else t)
                d = hypot(ax + t * dx - ox, ay + t * dy - oy)
            if d < limit:
                return False
        return True

    best = {0: 0.0}
    back: dict[int, int] = {}
    todo = {0}
    while todo:          # Dijkstra over the polygons' vertices
        i = min(todo, key=best.__getitem__)
        todo.discard(i)
        if i == 1:
            break
        here, so_far = nodes[i], best[i]
        for j in range(1, len(nodes)):
            if j == i:
                continue
            there = nodes[j]
            length = so_far + hypot(here[0] - there[0], here[1] - there[1])
            if length >= best.get(j, math.inf) - 1e-9:
                continue
            if free(here, there):
                best[j], back[j] = length, i
                todo.add(j)
    if 1 not in back:
        return None
    path, i = [], back[1]
    while i != 0:
        path.append(nodes[i])
        i = back[i]
    return path[::-1]


def _plan(mover: Disc, goal: Point, models: list[Disc], stop_gap: float, exempt: tuple[str, ...],
          depth: int) -> list[Point]:
    return list(_planned(mover, (float(goal[0]), float(goal[1])), tuple(models), stop_gap, exempt, depth))


# Remembered by value, like ``_step_route``: the prompts plan the same route for each allowance they
# offer (one action, two actions, a disengage) and the legs of the two sides around a group repeat.
@lru_cache(maxsize=4096)
def _planned(mover: Disc, goal: Point, models: tuple[Disc, ...], stop_gap: float, exempt: tuple[str, ...],
             depth: int) -> tuple[Point, ...]:
    """Waypoints of a legal route toward ``goal`` (no length limit), ending ``stop_gap`` short of it or
    as close as the arena allows: straight when nothing is in the way, else around the first obstacle
    (the Altar, a Gate, a friend, an enemy's 1 cm) on whichever side ends nearer, then shorter; each
    leg is planned the same way (``depth`` obstacles deep). Empty when no progress is possible."""
    start = (mover.x, mover.y)
    listed = list(models)
    straight = step_toward(mover, goal, listed, math.inf, stop_gap=stop_gap, exempt=exempt)
    best = [straight] if straight else []
    if depth == 0 or (straight and dist(straight, goal) <= stop_gap + 0.6):
        return tuple(best)
    blocker = _first_blocker(start, goal, mover, listed, stop_gap, exempt)
    if blocker is None:
        return tuple(best)

    def score(route: list[Point]) -> tuple[float, float]:
        end = route[-1] if route else start
        return round(max(0.0, dist(end, goal) - stop_gap), 1), path_length([start, *route])

    group = _group(blocker, mover, listed, exempt)
    for side in (1, -1):
        waypoints = _around(start, goal, group, mover, listed, exempt, side)
        if not waypoints:
            continue
        route: list[Point] = []
        here = mover
        for w in waypoints:
            leg = _plan(here, w, listed, 0.0, exempt, depth - 1)
            route += leg
            if not leg or dist(leg[-1], w) > 0.3:
                break
            here = Disc(leg[-1][0], leg[-1][1], mover.r, mover.key, mover.side, mover.huge)
        else:
            route += _plan(here, goal, listed, stop_gap, exempt, depth - 1)
        if route and score(route) < score(best):
            best = route
    return tuple(best)


def _cut(start: Point, route: list[Point], allowance: float) -> list[Point]:
    """The part of a route within ``allowance`` cm (the last leg cut short)."""
    out, here, left = [], start, allowance
    for p in route:
        leg = dist(here, p)
        if leg <= left + 1e-9:
            out.append(p)
            here, left = p, left - leg
            continue
        if left >= 0.05:
            for spare in (0.0, 0.01):        # a hair shorter when rounding would overshoot the allowance
                t = (left - spare) / leg
                q = (round(here[0] + (p[0] - here[0]) * t, 2), round(here[1] + (p[1] - here[1]) * t, 2))
                if path_length([start, *out, q]) <= allowance + 1e-6:
                    break
            out.append(q)
        break
    return out


def step_route(mover: Disc, goal: Point, models: list[Disc], allowance: float, *, stop_gap: float = 0.0,
               exempt: tuple[str, ...] = ()) -> list[Point] | None:
    """Like ``step_toward``, but a route walks around what stands in the way -- the Altar of Chaos, a
    Gate, friendly models (no model passes through another, L25) and the 1 cm kept from enemies --
    through waypoints beside each obstacle. Returns the waypoints after the start, the last one the
    destination, cut to ``allowance``; None if no progress of 0.5 cm is possible."""
    route = _step_route(mover, (float(goal[0]), float(goal[1])), tuple(models), allowance, stop_gap, tuple(exempt))
    return list(route) if route else None


def straight_route(mover: Disc, goal: Point, models: list[Disc], allowance: float, *, stop_gap: float = 0.0,
                   exempt: tuple[str, ...] = ()) -> Point | None:
    """The end of ``step_route`` when it is the straight line (nothing in the way within reach), else
    None: then only ``step_route`` tells whether there is a way around. Much cheaper, so whether a
    model can go anywhere asks it of every goal first."""
    return _straight(mover, (float(goal[0]), float(goal[1])), tuple(models), allowance, stop_gap, tuple(exempt))


@lru_cache(maxsize=4096)
def _straight(mover: Disc, goal: Point, models: tuple[Disc, ...], allowance: float, stop_gap: float,
              exempt: tuple[str, ...]) -> Point | None:
    start = (mover.x, mover.y)
    straight = step_toward(mover, goal, list(models), allowance, stop_gap=stop_gap, exempt=exempt)
    if straight and (dist(start, straight) >= allowance - 0.05 or dist(straight, goal) <= stop_gap + 0.6):
        return straight
    return None


@lru_cache(maxsize=2048)
def _step_route(mover: Disc, goal: Point, models: tuple[Disc, ...], allowance: float, stop_gap: float,
                exempt: tuple[str, ...]) -> tuple[Point, ...] | None:
    """``step_route``, remembered: the prompts ask the same question of the same position many times."""
    start = (mover.x, mover.y)
    straight = _straight(mover, goal, models, allowance, stop_gap, exempt)
    if straight:
        return (straight,)       # nothing in the way within reach: the straight line is the route
    route = _cut(start, _plan(mover, goal, list(models), stop_gap, exempt, depth=2), allowance)
    for back in (0.0, 0.05, 0.2):
        if not route:
            return None
        if back:
            *head, last = route
            here = head[-1] if head else start
            leg = dist(here, last)
            if leg <= back + 0.5:
                route = head
                continue
            t = (leg - back) / leg
            route = head + [(round(here[0] + (last[0] - here[0]) * t, 2), round(here[1] + (last[1] - here[1]) * t, 2))]
        if dist(start, route[-1]) >= 0.5 and \
                check_path(mover, [start, *route], list(models), allowance=allowance, exempt=exempt) is None:
            return tuple(route)
    return None


def deploy_check(model: Disc, gate_index: int, speed: float, models: list[Disc]) -> IllegalAction | None:
    """Initial deployment: within Speed of the Gate's edge, at least 1 cm from it, inside the arena,
    not overlapping anyone and at least 1 cm from enemies (L20)."""
    g = gate(gate_index)
    gap = edge_gap(model, g)
    if gap < MIN_ENEMY_GAP - EPS:
        return IllegalAction("deploy_gate_gap")
    if gap > speed + EPS:
        return IllegalAction("deploy_too_far", gap=gap, speed=speed)
    if not inside_arena(model.x, model.y, model.r):
        return IllegalAction("point_outside")
    if edge_gap(model, altar()) < -EPS:
        return IllegalAction("point_in_altar")
    for m in models:
        if m.key == model.key:
            continue
        gap = edge_gap(model, m)
        if gap < -CONTACT_TOL:
            return IllegalAction("spot_overlaps", key=m.key)
        if m.side != model.side and gap < MIN_ENEMY_GAP - CONTACT_TOL:
            return IllegalAction("spot_near_enemy", key=m.key)
    return None


def deploy_spots(gate_index: int, r: float, speed: float, models: list[Disc], side: int, key: str,
                 limit: int = 12) -> list[Point]:
    """Legal deployment points around a Gate for button play, spread over the whole reach (every
    distance up to the model's Speed, all along the Gate's arc) rather than bunched at the Gate: the
    farthest legal point straight ahead first, then each next point as far as possible from those
    already offered (deterministic farthest-point sampling)."""
    return list(_deploy_spots(gate_index, r, speed, tuple(models), side, key, limit))


@lru_cache(maxsize=1024)
def _deploy_spots(gate_index: int, r: float, speed: float, models: tuple[Disc, ...], side: int, key: str,
                  limit: int) -> tuple[Point, ...]:
    """``deploy_spots``, remembered: the deployment prompt and its answer ask the same question."""
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
            if deploy_check(Disc(p[0], p[1], r, key, side), gate_index, speed, list(models)) is None:
                candidates.append(p)
    if not candidates:
        return ()
    ahead = [p for p in candidates if abs(p[1] - gy) < 0.05]
    spots = [max(ahead or candidates, key=lambda p: math.hypot(p[0] - gx, p[1] - gy))]
    # each candidate's distance to the nearest spot so far, kept up to date as spots are added
    # (the same minimum as recomputing it over every spot, in a fraction of the time)
    nearest = {p: math.hypot(p[0] - spots[0][0], p[1] - spots[0][1]) for p in candidates}
    while len(spots) < min(limit, len(candidates)):
        nxt = max((p for p in candidates if p not in spots), key=lambda p: nearest[p])
        spots.append(nxt)
        for p in candidates:
            nearest[p] = min(nearest[p], math.hypot(p[0] - nxt[0], p[1] - nxt[1]))
    return tuple(spots)
