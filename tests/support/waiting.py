"""The rows of the turn clock as a publish writes them (`awaiting`): one per decision a game waits
on from a member, written here for real games so `/turns` and `/profile` read what they will read."""
from __future__ import annotations

from datetime import datetime, timedelta

from clock import hours, source
from db.clock import Awaiting
from db.store import GameRecord, Store
from rules.common import Prompt


def pending(game: GameRecord) -> list[Prompt]:
    from cogs.host import systems
    engine = systems.get(game.system).engine
    return engine.pending(engine.load_state(game.state))


async def await_from(store: Store, game: GameRecord, prompt: Prompt, *, period: timedelta | None = None,
                     asked: datetime | None = None) -> Awaiting:
    """Write the row of `prompt` (asked of its player now, or at `asked`; `period`: its deadline)."""
    at = asked or source.now()
    person = await store.profile(int(prompt.player))
    timer = hours.Timer.asked(at, period, person)
    row = Awaiting(game.id, prompt.id, int(prompt.player), game.guild_id, game.channel_id, prompt.private, at,
                   game.version, timer, hours.due(timer, person))
    keep = [r.prompt_id for r in await store.awaiting_of(game.id)]
    await store._write(*store.awaiting_statements(game.id, keep, [row]))
    return row
