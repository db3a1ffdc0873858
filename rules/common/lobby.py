"""A table gathering players before a game starts: join, leave, start, cancel.

It is an engine like any other (so it persists, survives restarts and is undoable); when the
host starts it, the lobby ends with `started` set and the hosting layer opens the real game
with the players who joined, in the order they joined.
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
        return LobbyState(system=options["system"], title=options.get("title", options["system"]), host=seats[0],
                          players=list(seats), min_players=int(options.get("min_players", 1)),
                          max_players=int(options.get("max_players", 6)), options=dict(options.get("options", {})))

    def pending(self, state):
        if state.over:
            return []
        names = ", ".join(f"<@{p}>" for p in state.players) or "nobody yet"
        # One id while the table is open: simultaneous Joins all answer the same live prompt (the
        # host retries each against the fresh table, where the engine checks it again).
        return [Prompt(id="lobby", player=ANYONE,
                       text=(f"**{state.title}** table ({len(state.players)}/{state.max_players}, "
                             f"at least {state.min_players}): {names}. Join or leave; the host (<@{state.host}>) "
                             f"starts when everyone is in."),
                       options=(Option("join", "Join"), Option("leave", "Leave"), Option("start", "Start"),
                                Option("cancel", "Cancel")))]

    def step(self, state, action: Choose, actor: Actor):
        self.check_choice(state, action, actor)
        choice = action.options[0]
        who = actor.id
        if choice == "join":
            if who in state.players:
                raise IllegalAction("You are already at this table.")
            if len(state.players) >= state.max_players:
                raise IllegalAction(f"The table is full ({state.max_players} players).")
            state.players.append(who)
            event = Event("join", f"<@{who}> joins the table.")
        elif choice == "leave":
            if who not in state.players:
                raise IllegalAction("You are not at this table.")
            state.players.remove(who)
            event = Event("leave", f"<@{who}> leaves the table.")
            if who == state.host:
                if not state.players:
                    state.cancelled = state.over = True
                    return [event, Event("cancel", "The table is empty; the game is called off.")]
                state.host = state.players[0]
                event = Event("leave", f"<@{who}> leaves; <@{state.host}> is now the host.")
        elif choice == "start":
            if who != state.host and not actor.gm:
                raise IllegalAction("Only the host or a GM can start the game.")
            if len(state.players) < state.min_players:
                raise IllegalAction(f"{state.title} needs at least {state.min_players} player(s).")
            state.started = state.over = True
            event = Event("start", f"Starting {state.title} with " + ", ".join(f"<@{p}>" for p in state.players) + ".")
        else:
            if who != state.host and not actor.gm:
                raise IllegalAction("Only the host or a GM can cancel the game.")
            state.cancelled = state.over = True
            event = Event("cancel", f"{state.title} is called off.")
        state.round += 1
        return [event]

    def view_for(self, state, viewer):
        return {"game": state.title, "host": state.host, "players": state.players,
                "min_players": state.min_players, "max_players": state.max_players,
                "started": state.started, "cancelled": state.cancelled}
