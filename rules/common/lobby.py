"""A table gathering players before a game starts: join, leave, start, cancel.

It is an engine like any other (so it persists, survives restarts and is undoable); when the
host starts it, the lobby ends with `started` set and the hosting layer opens the real game
with the players who joined, in the order they joined. It speaks data only: its words are the
`common.*` `table_*`/`lobby` keys of `i18n/<lang>.yaml`.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .engine import ANYONE, Actor, Choose, Engine, Event, Option, Prompt
from .errors import IllegalAction
from .serial import Serial


@dataclass
class LobbyState(Serial):
    system: str
    title: str
    host: str
    players: list[str]
    min_players: int = 1
    max_players: int = 6
    options: dict = field(default_factory=dict)
    round: int = 0
    started: bool = False
    cancelled: bool = False
    over: bool = False
    schema: int = 1


class Lobby(Engine[LobbyState]):
    system = "lobby"
    state_type = LobbyState

    def setup(self, seats, options, seed):
        # a rematch seats its players at once, and whoever asked for it leads the table
        host = options.get("host") if options.get("host") in seats else seats[0]
        return LobbyState(system=options["system"], title=options.get("title", options["system"]), host=host,
                          players=list(seats), min_players=int(options.get("min_players", 1)),
                          max_players=int(options.get("max_players", 6)), options=dict(options.get("options", {})))

    def pending(self, state):
        if state.over:
            return []
        # One id while the table is open: simultaneous Joins all answer the same live prompt (the
        # host retries each against the fresh table, where the engine checks it again).
        return [Prompt.ask("lobby", {"title": state.title, "count": len(state.players), "max": state.max_players,
                                     "min": state.min_players, "players": list(state.players),
                                     "host_player": state.host}, ANYONE,
                           (Option.of("join", "table_join"), Option.of("leave", "table_leave"),
                            Option.of("start", "table_start"), Option.of("cancel", "table_cancel")))]

    def step(self, state, action: Choose, actor: Actor):
        self.check_choice(state, action, actor)
        choice = action.options[0]
        who = actor.id
        if choice == "join":
            if who in state.players:
                raise IllegalAction("table_already_seated")
            if len(state.players) >= state.max_players:
                raise IllegalAction("table_full", max=state.max_players)
            state.players.append(who)
            event = Event("table_join", {"player": who})
        elif choice == "leave":
            if who not in state.players:
                raise IllegalAction("table_not_seated")
            state.players.remove(who)
            event = Event("table_leave", {"player": who})
            if who == state.host:
                if not state.players:
                    state.cancelled = state.over = True
                    return [event, Event("table_empty")]
                state.host = state.players[0]
                event = Event("table_new_host", {"player": who, "host_player": state.host})
        elif choice == "start":
            if who != state.host and not actor.gm:
                raise IllegalAction("table_host_starts")
            if len(state.players) < state.min_players:
                raise IllegalAction("table_too_few", title=state.title, min=state.min_players)
            state.started = state.over = True
            event = Event("table_start", {"title": state.title, "players": list(state.players)})
        else:
            if who != state.host and not actor.gm:
                raise IllegalAction("table_host_cancels")
            state.cancelled = state.over = True
            event = Event("table_cancel", {"title": state.title})
        state.round += 1
        return [event]

    def view_for(self, state, viewer):
        return {"game": state.title, "host": state.host, "players": state.players,
                "min_players": state.min_players, "max_players": state.max_players,
                "started": state.started, "cancelled": state.cancelled}
