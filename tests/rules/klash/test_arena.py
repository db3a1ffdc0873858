"""Geometry on hand-made positions with known answers (default 120 cm arena)."""
import math

import pytest

from rules.klash import arena
from rules.klash.arena import Disc


def d(x, y, key, side=0, r=1.5, huge=False):
    return Disc(x, y, r, key, side, huge)


def test_layout_is_documented_and_symmetric():
    assert arena.DIAMETER == 120 and arena.CENTRE == (60.0, 60.0)
    assert arena.GATES == ((0.0, 60.0), (120.0, 60.0))
    assert arena.inside_arena(60, 1.5, 1.5) and not arena.inside_arena(60, 1.4, 1.5)


def test_edge_gap_and_contact():
    a, b = d(50, 30, "a"), d(53, 30, "b", 1)
    assert arena.edge_gap(a, b) == pytest.approx(0.0)
    assert arena.in_contact(a, b)
    assert not arena.in_contact(a, d(53.2, 30, "c", 1))
    big = d(54, 30, "h", 1, r=2.5)
    assert arena.in_contact(a, big)


def test_segment_point_distance():
    assert arena.seg_point_distance((0, 0), (10, 0), (5, 3)) == pytest.approx(3)
    assert arena.seg_point_distance((0, 0), (10, 0), (13, 4)) == pytest.approx(5)


def test_move_length_and_obstacles():
    me = d(30, 30, "me")
    assert arena.check_path(me, [(30, 30), (40, 30)], [me], allowance=10) is None
    assert arena.check_path(me, [(30, 30), (41, 30)], [me], allowance=10).code == "path_too_long"
    # through the Altar of Chaos
    me2 = d(40, 60, "me")
    assert arena.check_path(me2, [(40, 60), (80, 60)], [me2], allowance=50).code == "path_through_altar"
    # around it with waypoints
    assert arena.check_path(me2, [(40, 60), (45, 45), (75, 45), (80, 60)], [me2], allowance=62) is None
    # through a Gate and out of the walls
    me3 = d(12, 60, "me")
    assert arena.check_path(me3, [(12, 60), (3, 60)], [me3], allowance=20).code == "path_through_gate"
    assert arena.check_path(me, [(30, 30), (10, 10)], [me], allowance=40).code == "outside_walls"


def test_no_passing_through_models_and_one_cm_from_enemies():
    me = d(30, 30, "me", 0)
    friend = d(35, 30, "f", 0)
    enemy = d(35, 36, "e", 1)
    models = [me, friend, enemy]
    assert arena.check_path(me, [(30, 30), (40, 30)], models, allowance=20).code == "path_through_model"
    # friends may touch: stop in base contact
    assert arena.check_path(me, [(30, 30), (32, 30)], models, allowance=20) is None
    # enemies: keep 1 cm (centre distance at least 4 cm)
    assert arena.check_path(me, [(30, 30), (35, 32.5)], [me, enemy], allowance=20) is not None
    assert arena.check_path(me, [(30, 30), (35, 31.9)], [me, enemy], allowance=20) is None


def test_line_of_sight_blocked_by_altar_and_gates_and_cover_from_models():
    shooter, target = d(40, 60, "s"), d(80, 60, "t", 1)
    assert arena.line_of_sight(shooter, target, [shooter, target]) == (False, False)
    shooter, target = d(30, 30, "s"), d(50, 30, "t", 1)
    assert arena.line_of_sight(shooter, target, [shooter, target]) == (True, False)
    blocker = d(40, 31, "b", 1)
    assert arena.line_of_sight(shooter, target, [shooter, target, blocker]) == (True, True)
    off = d(40, 33, "o", 1)
    assert arena.line_of_sight(shooter, target, [shooter, target, off]) == (True, False)
    huge = d(50, 30, "t", 1, r=2.5, huge=True)
    assert arena.line_of_sight(shooter, huge, [shooter, huge, blocker]) == (True, False)
    assert arena.blocked_by_scenery((4, 50), (4, 70))  # the west Gate


def test_range_bands():
    assert arena.range_band(10, 10, 20) == "short"
    assert arena.range_band(15, 10, 20) == "long"
    assert arena.range_band(20, 10, 20) == "long"
    assert arena.range_band(21, 10, 20) is None


def test_charge_is_a_straight_line_into_contact():
    c, t = d(40, 30, "c"), d(50, 30, "t", 1)
    end, travel = arena.charge_end(c, t)
    assert end == pytest.approx((47, 30)) and travel == pytest.approx(7)
    assert arena.check_charge(c, t, [c, t], 10) is None
    assert arena.check_charge(c, t, [c, t], 6).code == "charge_too_far"
    wall = d(45, 30, "w", 1)
    assert arena.check_charge(c, t, [c, t, wall], 10).code == "path_through_model"


def test_deployment_near_the_gate():
    m = d(10.5, 60, "m")
    assert arena.deploy_check(m, 0, 10, []) is None            # 3 cm from the Gate's edge
    assert arena.deploy_check(d(7.9, 60, "m"), 0, 10, []).code == "deploy_gate_gap"
    assert arena.deploy_check(d(20, 60, "m"), 0, 10, []).code == "deploy_too_far"
    spots = arena.deploy_spots(0, 1.5, 10, [], 0, "m")
    assert spots and all(arena.deploy_check(d(x, y, "m"), 0, 10, []) is None for x, y in spots)


def test_step_toward_stops_short_of_obstacles():
    me = d(30, 60, "me")
    p = arena.step_toward(me, (60, 60), [me], 30, stop_gap=arena.ALTAR_RADIUS + 1.5 + 0.02)
    assert p is not None and p[0] <= 60 - 8 - 1.5 + 1e-6 and p[0] > 49
    assert math.isclose(p[1], 60)


def test_route_goes_around_the_altar():
    me = d(40, 60, "me")
    route = arena.step_route(me, (80, 60), [me], 40)
    assert len(route) >= 2 and arena.check_path(me, [(40, 60)] + route, [me], allowance=40) is None
    # hugging the Altar the way is 2 × 17.6 cm of tangents + 9.4 cm of arc = 44.6 cm: 40 cm end ~5 short
    assert arena.path_length([(40, 60)] + route) <= 40 + 0.01 and arena.dist(route[-1], (80, 60)) < 6
    assert arena.step_route(me, (40, 30), [me], 10) == [(40, 50)]


def test_route_goes_around_friendly_models_in_the_way():
    """Models may not pass through each other, friends included, so a route walks around them (L25)."""
    me, friend = d(20, 60, "me"), d(23.5, 60, "friend")
    stuck = arena.step_toward(me, (60, 60), [me, friend], 10, stop_gap=9.52)
    assert stuck is not None and stuck[0] < 20.6                          # straight: half a cm, then the friend
    route = arena.step_route(me, (60, 60), [me, friend], 10, stop_gap=9.52)
    assert route and arena.check_path(me, [(20, 60)] + route, [me, friend], allowance=10) is None
    assert arena.path_length([(20, 60)] + route) == pytest.approx(10, abs=0.1)
    assert arena.dist(route[-1], (60, 60)) < 33                                      # 7+ cm closer


def test_route_goes_around_a_wall_of_friends_and_keeps_clear_of_enemies():
    me = d(20, 60, "me")
    wall = [d(24, 55 + 3.2 * k, f"f{k}") for k in range(4)]                      # 4 friends side by side
    enemy = d(30, 73, "e", side=1)
    route = arena.step_route(me, (40, 60), [me, enemy, *wall], 20)
    assert route and arena.check_path(me, [(20, 60)] + route, [me, enemy, *wall], allowance=20) is None
    assert arena.dist(route[-1], (40, 60)) < 10
