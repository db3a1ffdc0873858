"""Victory Points at the end of the adventure (digest §5.4, §5.5): kills, survivors, the objective,
the vials, the secret Agendas; conceding."""
from __future__ import annotations


from rules.common import Actor, Event, IllegalAction, NotYourTurn, term

from . import actions as A
from . import tables
from .mechanics import has, said, say
from .state import GameState
from .sections import Sections



class Victory(Sections):
    """Methods of `CarnevaleEngine` (a mixin: every `self` is the whole engine; what it uses of
    the other sections is declared in `Sections`)."""

    # ------------------------------------------------------------------ victory
    def _finish(self, state: GameState, conceded_by: str = "") -> list[Event]:
        state.phase = "over"
        state.over = True
        events: list[Event] = []
        breakdown = {}
        for pid in state.seats:
            other = state.opponent(pid)
            mine = [m for m in state.models.values() if m.owner == pid and not has(m, "Trifling")]
            theirs = [m for m in state.models.values() if m.owner == other and not has(m, "Trifling")]
            kills = sum(1 for m in theirs if m.fallen)
            alive = sum(1 for m in mine if not m.fallen)
            p = state.players[pid]
            vp = 2 * kills + alive + (5 if p.objective else 0) + p.vials
            agenda_vp = 0
            if p.agenda and self._agenda_met(state, pid):
                agenda_vp = tables.AGENDAS[p.agenda][1]
            p.vp = vp + agenda_vp
            breakdown[pid] = {"kills": kills, "alive": alive, "objective": 5 if p.objective else 0, "vials": p.vials,
                              "agenda": p.agenda, "agenda_name": term(f"agenda_{p.agenda}") if p.agenda else "",
                              "agenda_vp": agenda_vp, "total": p.vp}
        a, b = state.seats
        if conceded_by:
            state.winner = state.opponent(conceded_by)
        elif state.players[a].vp != state.players[b].vp:
            state.winner = a if state.players[a].vp > state.players[b].vp else b
        else:
            state.winner = None
        state.result = {"vp": breakdown, "winner": state.winner}
        scores = [said("score", player=pid, vp=breakdown[pid]["total"]) for pid in state.seats]
        events.append(say("game_over" if state.winner else "game_over_draw", result=state.result, scores=scores,
                          winner_player=state.winner))
        return events

    def _agenda_met(self, state: GameState, pid: str) -> bool:
        n = state.players[pid].agenda
        other = state.opponent(pid)
        mine = [m for m in state.models.values() if m.owner == pid]
        theirs = [m for m in state.models.values() if m.owner == other]
        alive = [m for m in mine if not m.fallen]
        leader_alive = any(m.uid == state.players[pid].leader for m in alive) or any(
            "Leader" in m.descriptors for m in alive)
        if n in tables.AGENDAS_NEEDING_THE_TABLE:
            return state.players[pid].agenda_claimed
        if n == 1:
            leaders = {m.uid for m in mine if "Leader" in m.descriptors}
            return any(m.fallen and "Leader" in m.descriptors and m.killed_by in leaders for m in theirs)
        if n == 2:
            return all(m.fallen for m in theirs)
        if n == 3:
            return sum(1 for m in theirs if m.fallen) * 2 >= len(theirs)
        if n == 7:
            return leader_alive
        if n == 8:
            return len(alive) * 2 >= len(mine)
        if n == 9:
            return len(alive) > sum(1 for m in theirs if not m.fallen)
        if n == 10:
            return len(alive) == len(mine)
        return False

    def _do_objective(self, state: GameState, a: A.Objective, actor: Actor) -> list[Event]:
        if not actor.gm:
            raise NotYourTurn("objective_gm")
        if a.player not in state.players:
            raise IllegalAction("not_in_game")
        state.players[a.player].objective = a.achieved
        return [say("objective" if a.achieved else "objective_missed", player=a.player)]

    def _do_claim_agenda(self, state: GameState, a: A.ClaimAgenda, actor: Actor) -> list[Event]:
        pid = self._player(state, a.player, actor)
        if state.players[pid].agenda not in tables.AGENDAS_NEEDING_THE_TABLE:
            raise IllegalAction("agenda_judged")
        state.players[pid].agenda_claimed = True
        return [say("agenda_claim", audience=pid)]

    def _do_concede(self, state: GameState, a: A.Concede, actor: Actor) -> list[Event]:
        pid = self._player(state, a.player, actor)
        events = [say("concede", player=pid)]
        return events + self._finish(state, conceded_by=pid)
