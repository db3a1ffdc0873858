"""One action, one pass (issue 10): a click reads its game, commits, and its publish reads the game
once and writes the meta it changed once, with the mark that the action was published; a game's
publishes run one after another, so two at once never both post a table."""
import asyncio
import threading
from collections import Counter

import aiosqlite

from tests.cogs.test_framework import start_duel, start_prompt
from tests.support.fakes import click

COUNTED = ("game", "fresh", "set_meta", "patch_meta", "commit_action", "mark_published")


def count_store_calls(store, monkeypatch) -> Counter:
    calls: Counter = Counter()
    for name in COUNTED:
        original = getattr(store, name)

        async def counted(*args, _name=name, _original=original, **kwargs):
            calls[_name] += 1
            return await _original(*args, **kwargs)
        monkeypatch.setattr(store, name, counted)
    return calls


async def test_a_click_reads_its_game_twice_and_writes_twice(bot, world, monkeypatch):
    await start_duel(world)
    calls = count_store_calls(bot.store, monkeypatch)
    await click(world, start_prompt(world), world.users[2], index=0)     # "Alice starts": a DM, the table
    # before: 5 reads of the game, 3 meta writes and a separate mark per click; then the
    # publish's read decoded the state again (`fresh` reads the meta, and the state only when
    # another action changed it meanwhile)
    assert calls == Counter(game=1, fresh=1, commit_action=1, patch_meta=1)


async def test_two_status_calls_at_once_leave_one_table(bot, world):
    game = await start_duel(world)
    record = await bot.store.game(game.id)
    statuses = [world.interaction(world.users[u], world.channels[10]) for u in (2, 3)]
    await asyncio.gather(*(bot.host.republish(i, record, dm_prompts=False) for i in statuses))
    # one table with the prompt's buttons; an older one is kept only as the record of its narration
    record, live = [m for m in world.sent if m.id in world.tables() and not m.deleted]
    assert live.view is not None and record.view is None and record.file is None
    assert record.content == record.said and record.content.startswith("**Duel (test game)** — game #1 starts.")


async def test_a_click_decodes_its_state_once_and_asks_the_engine_for_its_prompts_three_times(bot, world,
                                                                                            monkeypatch):
    """The click's prompt, the engine's own legality check and the prompts after the action; the
    acknowledgement, the single-choice check and the publish reuse the commit's (before: the state
    was decoded twice and `pending` computed six times)."""
    from tests.support.duel import Duel
    await start_duel(world)
    calls: Counter = Counter()
    for name in ("pending", "load_state"):
        original = getattr(Duel, name)

        def counted(self, *args, _name=name, _original=original, **kwargs):
            calls[_name] += 1
            return _original(self, *args, **kwargs)
        monkeypatch.setattr(Duel, name, counted)
    await click(world, start_prompt(world), world.users[2], index=0)
    assert calls == Counter(pending=3, load_state=1)


async def test_the_table_builds_no_components_it_does_not_send(bot, world, monkeypatch):
    """A public prompt's picture is asked of the system alone (before: the prompt's whole View was
    built for it, then dropped; the table sends its own components)."""
    import cogs.host.publish
    built: list = []
    original = cogs.host.publish.prompt_view

    def counted(*args, **kwargs):
        built.append(args[1].id)
        return original(*args, **kwargs)
    monkeypatch.setattr(cogs.host.publish, "prompt_view", counted)
    await start_duel(world)          # the table with the public "who starts" prompt; hands by DM, no prompt
    assert built == [] and start_prompt(world).custom_ids()


async def test_a_click_runs_its_statements_on_the_loop_thread_and_hands_none_to_a_database_thread(bot, world,
                                                                                                monkeypatch):
    """Each hand-off to aiosqlite's thread was a wake-up of the loop, and at 500 clicks a second
    their queue was most of a click's latency (before: ~5.6 per click)."""
    await start_duel(world)
    hops: list = []
    original = aiosqlite.Connection._execute

    async def counted(self, fn, *args, **kwargs):
        hops.append(fn)
        return await original(self, fn, *args, **kwargs)
    monkeypatch.setattr(aiosqlite.Connection, "_execute", counted)
    statements: list[tuple[int, str]] = []
    bot.store.raw.set_trace_callback(lambda sql: statements.append((threading.get_ident(), sql)))
    try:
        await click(world, start_prompt(world), world.users[2], index=0)
    finally:
        bot.store.raw.set_trace_callback(None)
    assert hops == []
    assert {thread for thread, _ in statements} == {threading.get_ident()}
    # two transactions: the action with its outbox row, and the publish's meta with its mark
    assert [sql for _, sql in statements].count("BEGIN IMMEDIATE") == 2
