"""The web companion live: a Klash! auction's page shows its picture; a pick clicked in Discord
reaches an open page's event stream within a second; the replay steps back to the earlier
picture; a move made by another bot process over the same store reaches a page served by this one;
an open stream keeps no game record (a Klash! state decoded weighs some 55 KB); the pages of one
move are made once per kind of viewer, however many ask at once."""
from __future__ import annotations

import asyncio
import random
import time

import aiohttp
import pytest

from db.records import GameRecord
from rules.klash import ENGINE
from tests.cogs.test_klash import answer, start_draft, state_of
from tests.support.stores import BACKENDS
from tests.web.helpers import ask_link, fetch, fetch_bytes, web_bot
from web import sight as sight_module

PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(params=BACKENDS)
def backend(request):
    """Both stores: with PostgreSQL, several processes serve one deployment's pages."""
    return request.param


@pytest.fixture
async def bot(database):
    bot = await web_bot(database)
    yield bot
    await bot.close()


async def first_message(response: aiohttp.ClientResponse, timeout: float) -> str:
    """The first `data:` line of a server-sent event stream."""
    async def read() -> str:
        async for raw in response.content:
            line = raw.decode().strip()
            if line.startswith("data:"):
                return line[5:].strip()
        raise AssertionError("the stream ended")
    return await asyncio.wait_for(read(), timeout)


async def test_a_pick_in_discord_reaches_an_open_page_within_a_second(bot, world, seed):
    game = await start_draft(bot, world, seed)
    link = await ask_link(bot, world, world.users[2])
    status, page, _ = await fetch(link)
    assert status == 200 and 'id="board"' in page
    status, png, headers = await fetch_bytes(f"{link}/board.png?s=2&v={game.version}")
    assert status == 200 and png.startswith(PNG) and headers["Content-Type"] == "image/png"
    record, state = await state_of(bot, game.id)
    async with aiohttp.ClientSession() as session:
        async with session.get(f"{link}/live?v={record.version}") as stream:
            assert stream.headers["Content-Type"].startswith("text/event-stream")
            await asyncio.sleep(0.05)
            prompt = ENGINE.pending(state)[0]
            moved = time.perf_counter()
            await answer(world, game.id, prompt, [random.Random(1).choice(prompt.options).id])
            version = await first_message(stream, timeout=1.0)
            took = time.perf_counter() - moved
    assert int(version) == record.version + 1
    assert took < 1.0
    status, fragment, _ = await fetch(f"{link}/table")
    assert f'data-version="{record.version + 1}"' in fragment


async def test_the_replay_steps_back_to_the_earlier_picture(bot, world, seed):
    game = await start_draft(bot, world, seed)
    rnd = random.Random(3)
    for _ in range(3):
        _, state = await state_of(bot, game.id)
        prompt = ENGINE.pending(state)[0]
        await answer(world, game.id, prompt, [rnd.choice(prompt.options).id])
    link = await ask_link(bot, world, world.users[2])
    status, page, _ = await fetch(f"{link}/replay")
    assert status == 200 and 'max="3"' in page and 'value="3"' in page
    pictures = []
    for k in (0, 3):
        status, png, _ = await fetch_bytes(f"{link}/board.png?s=1&step={k}")
        assert status == 200 and png.startswith(PNG)
        pictures.append(png)
    now = (await fetch_bytes(f"{link}/board.png?s=1"))[1]
    assert pictures[1] == now and pictures[0] != now
    status, step, _ = await fetch(f"{link}/step/1")
    assert status == 200 and 'data-k="1"' in step and "Step 1 of 3" in step


async def test_a_move_in_another_process_reaches_a_page_served_by_this_one(bot, world, seed, database):
    game = await start_draft(bot, world, seed)
    other = await web_bot(database)          # a second bot process over the same store
    try:
        link = await ask_link(bot, world, world.users[2])
        served = link.replace(f":{bot.web.port}/", f":{other.web.port}/")
        record, state = await state_of(bot, game.id)
        async with aiohttp.ClientSession() as session:
            async with session.get(f"{served}/live?v={record.version}") as stream:
                await asyncio.sleep(0.05)
                prompt = ENGINE.pending(state)[0]
                await answer(world, game.id, prompt, [prompt.options[0].id])    # made through `bot`
                assert int(await first_message(stream, timeout=1.0)) == record.version + 1
    finally:
        world.attach(bot)
        await other.close()


def records_held_by_live_streams() -> tuple[int, list]:
    """The live handlers running now, and the game records their frames hold."""
    streams, held = 0, []
    for task in asyncio.all_tasks():
        coro = task.get_coro()
        while coro is not None:
            frame = getattr(coro, "cr_frame", None)
            if frame is not None and frame.f_code.co_name == "live" and "self" in frame.f_locals:
                streams += 1
                held += [v for v in frame.f_locals.values() if isinstance(v, GameRecord)]
            coro = getattr(coro, "cr_await", None)
    return streams, held


async def test_an_open_stream_keeps_its_game_id_not_its_record(bot, world, seed):
    game = await start_draft(bot, world, seed)
    link = await ask_link(bot, world, world.users[2])
    async with aiohttp.ClientSession() as session:
        async with session.get(f"{link}/live?v={game.version}") as stream:
            assert (await stream.content.readline()).startswith(b"retry:")
            streams, held = records_held_by_live_streams()
    assert streams == 1 and held == []


async def test_the_pages_of_one_move_are_seen_once_per_kind_of_viewer(bot, world, seed, monkeypatch):
    """Each move sends every open page for its fragment at once: what a player sees of that
    version is made once for all their pages, and anew after the next move."""
    made = []
    real = sight_module.sight
    monkeypatch.setattr(sight_module, "sight", lambda *a: made.append(a[2].key) or real(*a))
    game = await start_draft(bot, world, seed)
    alice, bruno = ask_link(bot, world, world.users[2]), ask_link(bot, world, world.users[3])
    alice, bruno = await alice, await bruno
    fragments = await asyncio.gather(*(fetch(f"{link}/table") for link in [alice, bruno] * 10))
    assert {(status, f'data-version="{game.version}"' in body) for status, body, _ in fragments} == {(200, True)}
    assert sorted(made) == ["2", "3"]
    record, state = await state_of(bot, game.id)
    prompt = ENGINE.pending(state)[0]
    await answer(world, game.id, prompt, [prompt.options[0].id])
    fragments = await asyncio.gather(*(fetch(f"{link}/table") for link in [alice] * 5))
    assert all(f'data-version="{record.version + 1}"' in body for _, body, _ in fragments)
    assert sorted(made) == ["2", "2", "3"]
