"""What each 1-AP action does once paid for (digest §2.1-§2.5, the terrain rules): one handler per
action in MOVES, each returning the inches the model may move (None: no move) and how the action
ended, a term for the narration's tail ("up to 6''", "Fumble: no movement")."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rules.common import Event, IllegalAction, term

from . import mechanics as M, shooting, tables
from .dice import PoolResult, ceil_half
from .mechanics import attr, has, said
from .state import GameState, ModelState, WeaponState
from .sections import Sections



@dataclass
class Step:
    """One paid action: who, the Dex roll it needed (if any), its MOV this action, the weapon it serves."""

    engine: Sections
    state: GameState
    m: ModelState
    action: Any                 # the SpendAP action (its note, its karma)
    r: PoolResult | None
    mov: int
    weapon: WeaponState | None
    events: list[Event]


Result = tuple[int | None, dict]


def walk(s: Step) -> Result:
    return s.mov, said("up_to", inches=s.mov)


def walk_difficult(s: Step) -> Result:
    if s.state.house_rules.get("terrain") == "es_ttcombat":
        r = M.model_roll(s.state, s.m, attr(s.m, "DEX", s.state), what=term("roll_difficult_terrain"), kind="DEX",
                         events=s.events)
        return s.mov, said("up_to" if r.success else "up_to_stopped", inches=s.mov)
    dist = ceil_half(s.mov)
    return dist, said("up_to_halved", inches=dist)


def run(s: Step) -> Result:
    assert s.r is not None
    dist = 0 if s.r.fumble else s.mov + s.r.aces + (3 if s.r.critical else 0)
    return dist, term("fumble_no_move") if s.r.fumble else said("up_to", inches=dist)


def jump(s: Step) -> Result:
    dist = ceil_half(s.mov)
    if has(s.m, "High Jump"):
        hj = M.model_roll(s.state, s.m, attr(s.m, "DEX", s.state), what=term("roll_high_jump"), kind="DEX", events=s.events)
        dist += hj.aces
    return dist, said("up_to", inches=dist)


def running_jump(s: Step) -> Result:
    assert s.r is not None
    dist = 0 if s.r.fumble else ceil_half(s.mov) + s.r.aces + (3 if s.r.critical else 0)
    return dist, term("fumble_action_lost") if s.r.fumble else said("up_to", inches=dist)


def swim(s: Step) -> Result:
    dist = M.swim_allowance(s.m)
    return dist, said("up_to_water", inches=dist)


def climb(s: Step) -> Result:
    assert s.r is not None
    if s.r.fumble:
        s.m.ap = max(0, s.m.ap - 1)
        return None, term("climb_fumble")
    dist = s.r.aces + (3 if s.r.critical else 0)
    return dist, said("up_to_wall", inches=dist)


def hide(s: Step) -> Result:
    s.m.hidden = True
    dist = ceil_half(s.mov) if s.state.house_rules.get("hide_distance") == "half_mov" else s.mov
    return dist, said("hide_move", inches=dist)


def _stunning_wall_move(s: Step, inches_per_ace: int, stun_cause: str, fumble: str, told: str) -> Result:
    """Rappel and Run on Walls: a Fumble Stuns the model and it goes nowhere; otherwise so many
    inches per Ace, +3 on a Critical."""
    assert s.r is not None
    if s.r.fumble:
        s.events += M.stun(s.state, s.m, stun_cause)
        return None, term(fumble)
    dist = inches_per_ace * s.r.aces + (3 if s.r.critical else 0)
    return dist, said(told, inches=dist)


def rappel(s: Step) -> Result:
    return _stunning_wall_move(s, 3, "fumbled Rappel", "rappel_fumble", "up_to_down")


def run_on_walls(s: Step) -> Result:
    return _stunning_wall_move(s, 1, "fumbled Run on Walls", "walls_fumble", "up_to_along")


def clear_stun(s: Step) -> Result:
    s.m.stunned = False
    return None, term("stun_cleared")


def at_ready(s: Step) -> Result:
    s.m.at_ready = "melee" if s.action.action == "at_ready_melee" else "shooting"
    return None, term("at_ready")


def reload(s: Step) -> Result:
    assert s.weapon is not None
    shooting.reload(s.weapon)
    return None, said("reloaded", weapon=s.weapon.name)


def fix_jam(s: Step) -> Result:
    assert s.weapon is not None
    s.weapon.jammed = False
    return None, said("jam_cleared", weapon=s.weapon.name)


def row(s: Step) -> Result:
    assert s.r is not None
    dist = tables.row_distance(s.r)
    return dist, term("row_fumble") if dist is None else said("row", inches=dist)


def fill_vial(s: Step) -> Result:
    if s.state.fountains <= 0:
        raise IllegalAction("no_fountain")
    s.state.fountains -= 1
    s.state.players[s.m.owner].vials += 1
    return None, said("vial", left=s.state.fountains)


def pick_up_fragment(s: Step) -> Result:
    if any(x.carrying == "fragment" for x in s.state.models.values()):
        raise IllegalAction("fragment_carried")
    s.m.carrying = "fragment"
    return None, term("fragment_taken")


def drink_elixir(s: Step) -> Result:
    s.m.used_once.append("elixir")
    s.events += M.healing_roll(s.state, s.m, s.m, 6, "Life Elixir")
    return None, term("moved")


def drink_infusion(s: Step) -> Result:
    if "infusion" in s.m.used_once:
        raise IllegalAction("infusion_used")
    s.m.used_once.append("infusion")
    s.events += s.engine._power_roll(s.state, s.m, temporary=True)
    return None, term("moved")


def other(s: Step) -> Result:
    """An action the table plays out itself (interact, or what the player noted)."""
    return None, said("note", note=s.action.note) if s.action.note else term("moved")


MOVES: dict[str, Callable[[Step], Result]] = {
    "walk": walk, "walk_difficult": walk_difficult, "run": run, "jump": jump, "running_jump": running_jump,
    "swim": swim, "climb": climb, "hide": hide, "rappel": rappel, "run_on_walls": run_on_walls,
    "clear_stun": clear_stun, "interact": other, "row": row, "at_ready_melee": at_ready,
    "at_ready_shooting": at_ready, "fix_jam": fix_jam, "fill_vial": fill_vial, "pick_up_fragment": pick_up_fragment,
    "reload": reload, "drink_infusion": drink_infusion, "drink_elixir": drink_elixir, "other": other,
}
