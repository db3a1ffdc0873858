"""The Events table (digest §5.6): 2d10 on the table, each total its effect."""
from __future__ import annotations

from collections.abc import Callable

from rules.common import Actor, Event, IllegalAction, term

from . import actions as A
from . import mechanics as M, shooting
from .dice import BASIC_DIFFICULTY, PoolResult, ceil_half, scatter
from .mechanics import attr, say
from .state import GameState, ModelState
from .sections import Sections



class EventsTable(Sections):
    """Methods of `CarnevaleEngine` (a mixin: every `self` is the whole engine; what it uses of
    the other sections is declared in `Sections`)."""

    def _do_event(self, state: GameState, a: A.PlayEvent, actor: Actor) -> list[Event]:
        pid = self._player(state, a.player, actor)
        p = state.players[pid]
        if p.events_left <= 0:
            raise IllegalAction("no_event_left")
        if state.phase != "activation" or state.turn_player != pid:
            raise IllegalAction("event_when")
        enemy = state.opponent(pid)
        own = state.model(a.model) if a.model else None
        tgt = state.model(a.target) if a.target else None
        if own is not None and own.owner != pid:
            raise IllegalAction("event_model_yours")
        if tgt is not None and tgt.owner != enemy:
            raise IllegalAction("event_target_enemy")
        p.events_left -= 1
        d1, d2 = state.rng.die(10), state.rng.die(10)
        total = d1 + d2
        events = [say("event", player=pid, total=total, d1=d1, d2=d2, name=term(f"event_{total}"),
                      text=term(f"event_{total}_text"))]
        events += self._event_effect(state, pid, total, own, tgt)
        return events

    def _event_effect(self, state: GameState, pid: str, total: int, own: ModelState | None,
                      tgt: ModelState | None) -> list[Event]:
        return EFFECTS[total](self, state, pid, state.opponent(pid), own, tgt)


# ------------------------------------------------------------------ the table: 2d10, each total its effect
def lost() -> list[Event]:
    """The Event cannot be applied (no fitting model): it is lost."""
    return [say("event_lost")]


def aqua_alta(self, state: GameState, pid: str, enemy: str, own: ModelState | None,
              tgt: ModelState | None) -> list[Event]:
    """Event 2."""
    state.aqua_alta = pid
    return []


def bad_coordination(self, state: GameState, pid: str, enemy: str, own: ModelState | None,
                     tgt: ModelState | None) -> list[Event]:
    """Event 3."""
    if tgt is None or tgt.activated or not tgt.in_play:
        return lost()
    tgt.activated = True
    return [say("marked_activated", model=tgt.uid, name=tgt.name)]


def combat_stress(self, state: GameState, pid: str, enemy: str, own: ModelState | None,
                  tgt: ModelState | None) -> list[Event]:
    """Event 4."""
    if tgt is None or tgt.stunned or not tgt.in_play:
        return lost()
    return M.stun(state, tgt, "Combat Stress")


def adrenaline_boost(self, state: GameState, pid: str, enemy: str, own: ModelState | None,
                     tgt: ModelState | None) -> list[Event]:
    """Event 5."""
    if own is None or not own.activated or not own.in_play:
        return lost()
    own.activated = False
    return [say("acts_again", model=own.uid, name=own.name)]


def wake_up(self, state: GameState, pid: str, enemy: str, own: ModelState | None,
            tgt: ModelState | None) -> list[Event]:
    """Event 6."""
    if own is None or not own.stunned:
        return lost()
    own.stunned = False
    return [say("unstunned", model=own.uid, name=own.name)]


def reload_weapons(self, state: GameState, pid: str, enemy: str, own: ModelState | None,
                   tgt: ModelState | None) -> list[Event]:
    """Event 7."""
    w = next((w for w in (own.weapons if own else []) if w.firearm and not w.loaded and not w.destroyed), None)
    if w is None:
        return lost()
    w.jammed = False
    shooting.reload(w)
    return [say("event_reloaded", model=own.uid, name=own.name, weapon=w.name)]


def good_cover(self, state: GameState, pid: str, enemy: str, own: ModelState | None,
               tgt: ModelState | None) -> list[Event]:
    """Event 8."""
    state.good_cover = pid
    return [say("good_cover", player=pid, dice=state.house_rules.get("event8_heavy", -4))]


def anxiety(self, state: GameState, pid: str, enemy: str, own: ModelState | None,
            tgt: ModelState | None) -> list[Event]:
    """Event 9."""
    return self._morale_group(state, enemy, "Anxiety")


def battle_shock(self, state: GameState, pid: str, enemy: str, own: ModelState | None,
                 tgt: ModelState | None) -> list[Event]:
    """Event 10."""
    if tgt is None or state.players[enemy].leader == tgt.uid or tgt.independent or "Leader" in tgt.descriptors:
        return lost()
    return self._morale_queue(state, [tgt.uid], 0, "Battle Shock")


def the_geyser(self, state: GameState, pid: str, enemy: str, own: ModelState | None,
               tgt: ModelState | None) -> list[Event]:
    """Event 11."""
    state.geyser = True
    s = scatter(state.rng, 0)
    self._queue_geyser(state, pid)
    return [say("geyser_placed", distance=s.distance, clock=s.clock)]


def miraculous_recovery(self, state: GameState, pid: str, enemy: str, own: ModelState | None,
                        tgt: ModelState | None) -> list[Event]:
    """Event 12."""
    if own is None or not own.in_play or not own.damage:
        return lost()
    return M.healing_roll(state, own, own, 6, "Miraculous Recovery")


def evil_eye(self, state: GameState, pid: str, enemy: str, own: ModelState | None,
             tgt: ModelState | None) -> list[Event]:
    """Event 13."""
    if tgt is None or not tgt.in_play:
        return lost()
    events: list[Event] = []
    from .dice import roll_pool
    r = roll_pool(state.rng, 4, max(BASIC_DIFFICULTY, attr(tgt, "DEX", state)))
    events.append(M.record(state, None, r, term("roll_evil_eye")))
    if r.aces:
        events += M.apply_damage(state, tgt, r.aces, ignore_protection=bool(
            state.house_rules.get("evil_eye_ignores_protection", True)), source="Evil Eye")[1]
    if r.critical:
        events += M.stun(state, tgt, "Evil Eye")
    if r.fumble:
        if any(m.stunned for m in state.squad(enemy)):
            state.counter += 1
            state.morale_queue.append({"id": f"ee-{state.counter}", "player": enemy, "kind": "evil_eye"})
            events.append(say("evil_eye_fumble", player=enemy))
        else:
            events.append(say("evil_eye_fumble_none", player=enemy))
    return events


def _mind_roll(state: GameState, m: ModelState, total: int) -> tuple[list[Event], PoolResult]:
    """Events 14 and 15: the model rolls its Mind (the roll told as the Event's)."""
    events: list[Event] = []
    r = M.model_roll(state, m, attr(m, "MIN"), events=events, stat="MIN", what=term(f"event_{total}"))
    return events, r


def a_matter_of_honor(self, state: GameState, pid: str, enemy: str, own: ModelState | None,
                      tgt: ModelState | None) -> list[Event]:
    """Event 14."""
    if own is None or not own.in_play:
        return lost()
    events, r = _mind_roll(state, own, 14)
    if r.critical:
        own.karma = own.karma_max
    elif r.fumble:
        own.karma = max(0, own.karma - 1)
    else:
        own.karma = min(own.karma_max, own.karma + r.aces)
    events.append(say("karma_now", model=own.uid, name=own.name, karma=own.karma, karma_max=own.karma_max))
    return events


def we_will_never_beat_them(self, state: GameState, pid: str, enemy: str, own: ModelState | None,
                            tgt: ModelState | None) -> list[Event]:
    """Event 15."""
    if tgt is None or not tgt.in_play:
        return lost()
    events, r = _mind_roll(state, tgt, 15)
    if r.aces == 0:
        loss = ceil_half(tgt.karma)
        tgt.karma -= loss
        events.append(say("karma_lost", model=tgt.uid, name=tgt.name, n=loss, karma=tgt.karma,
                          karma_max=tgt.karma_max))
    return events


def mad_minute(self, state: GameState, pid: str, enemy: str, own: ModelState | None,
               tgt: ModelState | None) -> list[Event]:
    """Event 16."""
    shooters = [m.uid for m in state.squad(pid) if any(
        w.firearm and w.loaded and not w.jammed and not w.destroyed for w in m.weapons)]
    if not shooters:
        return lost()
    state.mad_minute = shooters
    return [say("mad_minute", player=pid, models=shooters, names=[state.models[u].name for u in shooters])]


def hes_alive(self, state: GameState, pid: str, enemy: str, own: ModelState | None,
              tgt: ModelState | None) -> list[Event]:
    """Event 17."""
    if own is None or not own.fallen or own.fled:
        return lost()
    events: list[Event] = []
    r = M.model_roll(state, own, 4, auto_mods=False, events=events,
                     what=term("event_17"))
    if r.aces:
        own.fallen = False
        own.on_table = False
        own.damage = max(0, own.life - r.aces)
        own.killed_by = ""
        events.append(say("alive", model=own.uid, name=own.name, n=r.aces))
    return events


def blend_with_shadows(self, state: GameState, pid: str, enemy: str, own: ModelState | None,
                       tgt: ModelState | None) -> list[Event]:
    """Event 18."""
    if own is None or not own.in_play:
        return lost()
    own.on_table = False
    own.activated = True
    return [say("withdrawn", model=own.uid, name=own.name)]


def charismatic_leader(self, state: GameState, pid: str, enemy: str, own: ModelState | None,
                       tgt: ModelState | None) -> list[Event]:
    """Event 19."""
    leader = M.first_leader(state, pid)
    if leader is None or leader.command >= leader.command_max:
        return lost()
    leader.command += 1
    return [say("command_regained", model=leader.uid, name=leader.name, command=leader.command,
                command_max=leader.command_max)]


def prestige_loss(self, state: GameState, pid: str, enemy: str, own: ModelState | None,
                  tgt: ModelState | None) -> list[Event]:
    """Event 20."""
    leader = M.first_leader(state, enemy)
    if leader is None or leader.command <= 0:
        return lost()
    leader.command -= 1
    return [say("command_lost", model=leader.uid, name=leader.name, command=leader.command,
                command_max=leader.command_max)]


EFFECTS: dict[int, Callable[..., list[Event]]] = {
    2: aqua_alta, 3: bad_coordination, 4: combat_stress, 5: adrenaline_boost, 6: wake_up, 7: reload_weapons,
    8: good_cover, 9: anxiety, 10: battle_shock, 11: the_geyser, 12: miraculous_recovery, 13: evil_eye,
    14: a_matter_of_honor, 15: we_will_never_beat_them, 16: mad_minute, 17: hes_alive, 18: blend_with_shadows,
    19: charismatic_leader, 20: prestige_loss,
}
