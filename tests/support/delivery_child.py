"""The bot that tests/test_kill_9.py kills right after acknowledged clicks, counting every message.

It shares kill_child.py's zygote (one fork per run). Each run is the bot starting again: a real
`BautaBot` over the SQLite file, its outbox sweep running as at start-up (at once, then every 2 s),
and a fake Discord whose memory survives the kills: the `discord` file holds one fsynced JSON line
per message Discord created (where, nonce, content, component ids). A send that repeats a nonce
Discord has seen creates nothing, as Discord does for a few minutes; it is noted as `absorbed`
(and each run's start as `restart`).

A run first notes how long the decision the table waits on took to appear (`waits` file), then
clicks `clicks` times. Every decision is a function of the game state (and every game's seed is
fixed), so a run without kills over a fresh database, the reference, plays the very same games.
With `target` [n, k] the run stops at the k-th point after its n-th acknowledged click (a point:
the acknowledgement itself, a message Discord created, a store write done, or the next click
about to begin) and waits there for the parent's SIGKILL. With `actions` it stops once the
database holds that many actions, and waits until nothing is left in the outbox.
"""
from __future__ import annotations

import asyncio
import itertools
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import bot as bauta  # noqa: E402
from bot import BautaBot, Config  # noqa: E402
from cogs.host import systems  # noqa: E402
from cogs.host.components import prompt_view  # noqa: E402
from tests.support import fakes  # noqa: E402
from tests.support.fakes import FakeInteraction, FakePartialMessage, FakeResponse, Sent, World, click  # noqa: E402
from tests.support.kill_child import append, say, serve  # noqa: E402

GUILD, CHANNEL, ALICE, BRUNO = 1, 10, 2, 3
PAUSE = 30.0            # seconds a stopped run waits for its kill
SALT = "kill-9"         # both databases: a slot has the same nonce in the killed runs and the reference
SEED = 7                # every game's seed


# The table plays the test game only: the game cogs are not loaded (each run would compile them
# again, about a second on a busy machine with bytecode caching off). Start-up is otherwise the bot's.
bauta.available_cogs = lambda: []   # type: ignore[assignment]


def lines(path: str) -> list[dict]:
    file = Path(path)
    return [json.loads(line) for line in file.read_text().splitlines()] if file.exists() else []


class Points:
    """Where a run stops: the k-th point after its n-th acknowledged click."""

    def __init__(self, target):
        self.click, self.point = target if target else (None, None)
        self.acks = 0
        self.after: int | None = None        # points since the target click's acknowledgement

    def acknowledged(self) -> None:
        self.acks += 1
        if self.acks == self.click:
            self.after = -1
            self.reached("ack")

    def reached(self, kind: str) -> None:
        if self.after is None:
            return
        self.after += 1
        if self.after >= self.point or kind == "next":
            say(f"at {kind} {self.after}")
            time.sleep(PAUSE)       # blocks the loop on purpose: nothing else may happen now


def fake_discord(world: World, path: str, points: Points, run: int) -> None:
    """Make `world` the Discord that remembers across kills (see the module's docstring): the
    messages of earlier runs are there again, with their ids (unique across runs), their last
    content and components, so an edit, a click or the channel's newest message after a restart
    is as Discord would have it. Every change is logged with the message's whole content and
    component ids after it, so the parent can rebuild what each channel and DM shows at the end."""
    fakes._ids = itertools.count(10**9 + run * 10**6)   # type: ignore[attr-defined]
    seen: dict[str, int] = {}               # nonce -> the message it created
    for r in lines(path):
        if "id" in r:
            message = Sent(r["where"], r["content"], id=r["id"])
            message.logged_ids = r.get("ids") or []     # type: ignore[attr-defined]
            world.sent.append(message)
            if r.get("nonce"):
                seen[r["nonce"]] = r["id"]
        elif "edited" in r:
            for message in world.sent:
                if message.id == r["edited"]:
                    message.content = r.get("content", message.content)
                    message.logged_ids = r.get("ids") or []     # type: ignore[attr-defined]
        elif "deleted" in r:
            for message in world.sent:
                message.deleted = message.deleted or message.id == r["deleted"]
    record = World.record
    delete = FakePartialMessage.delete

    async def deleted(message):
        await delete(message)
        append(path, {"deleted": message.id})

    FakePartialMessage.delete = deleted     # type: ignore[method-assign]
    edit = FakePartialMessage.edit

    def log_edit(message: Sent) -> None:
        message.logged_ids = message.custom_ids()      # type: ignore[attr-defined]
        append(path, {"edited": message.id, "content": message.content, "ids": message.logged_ids})
        points.reached("edited")

    async def edited(message, **kwargs):
        changed = await edit(message, **kwargs)
        log_edit(changed)
        return changed

    FakePartialMessage.edit = edited        # type: ignore[method-assign]

    def created(where, content=None, **kwargs):
        nonce = kwargs.get("nonce")
        if nonce is not None and str(nonce) in seen:
            # Discord returns the message that nonce created, and creates none
            append(path, {"absorbed": str(nonce), "where": where})
            return next(m for m in world.sent if m.id == seen[str(nonce)])
        message = record(world, where, content, **kwargs)
        if not message.ephemeral:      # an interaction's private answer is no message of the table's
            message.logged_ids = message.custom_ids()      # type: ignore[attr-defined]
            append(path, {"where": where, "nonce": None if nonce is None else str(nonce), "content": content,
                          "ids": message.logged_ids, "id": message.id})
            if nonce is not None:
                seen[str(nonce)] = message.id
            points.reached("sent")
        return message

    world.record = created      # type: ignore[method-assign]
    edit_message, defer = FakeResponse.edit_message, FakeResponse.defer

    async def acknowledge(response, **kwargs):
        await edit_message(response, **kwargs)
        clicked = response.interaction.message      # the message clicked, as Discord holds it
        real = next((m for m in world.sent if m.id == clicked.id and not m.deleted), None)
        if real is not None:
            real.content = clicked.content
            real.view = clicked.view
            log_edit(real)
        points.acknowledged()

    async def deferred(response, *, ephemeral=False, thinking=False):
        await defer(response, ephemeral=ephemeral, thinking=thinking)
        if not thinking:        # a component's deferred update: the click shows as accepted
            points.acknowledged()

    FakeResponse.edit_message, FakeResponse.defer = acknowledge, deferred     # type: ignore[method-assign]

    # the click's webhook edits and deletes the clicked message too (the table's next state)
    edit_original, delete_original = FakeInteraction.edit_original_response, FakeInteraction.delete_original_response

    async def edited_through(interaction, **kwargs):
        await edit_original(interaction, **kwargs)
        real = next((m for m in world.sent if m.id == interaction.message.id and not m.deleted), None)
        if real is not None:
            log_edit(real)

    async def deleted_through(interaction):
        await delete_original(interaction)
        append(path, {"deleted": interaction.message.id})

    FakeInteraction.edit_original_response = edited_through       # type: ignore[method-assign]
    FakeInteraction.delete_original_response = deleted_through    # type: ignore[method-assign]


def showing(world: World, game_id: int, prompt_id: str) -> Sent | None:
    """The message that shows the prompt's components now (the one a player clicks)."""
    button, select = f"bauta:b:{game_id}:{prompt_id}:", f"bauta:s:{game_id}:{prompt_id}"
    for message in reversed(world.sent):
        ids = message.custom_ids() if message.view is not None else getattr(message, "logged_ids", [])
        if not message.deleted and any(i.startswith(button) or i == select for i in ids):
            return message
    return None


def shown(path: str, game_id: int, prompt_id: str) -> bool:
    """Whether Discord holds a message showing the prompt's components now (posted so, or edited
    into it: a DM prompt is often the player's previous one, edited)."""
    button, select = f"bauta:b:{game_id}:{prompt_id}:", f"bauta:s:{game_id}:{prompt_id}"
    now: dict[int, list[str]] = {}
    for r in lines(path):
        if "id" in r or "edited" in r:
            now[r.get("id", r.get("edited"))] = r.get("ids") or []
        elif "deleted" in r:
            now.pop(r["deleted"], None)
    return any(i.startswith(button) or i == select for ids in now.values() for i in ids)


async def waiting_on(bot: BautaBot):
    """The game in the channel and the decision it waits on (None, None: no game; game, None: over)."""
    game = await bot.store.active_game(GUILD, CHANNEL)
    if game is None:
        return None, None
    engine = systems.get(game.system).engine
    pending = engine.pending(engine.load_state(game.state))
    return game, (pending[0] if pending else None)


async def run(config: dict) -> None:
    started = time.monotonic()
    import cogs.host.gamehost
    cogs.host.gamehost.secrets.randbits = lambda bits: SEED     # type: ignore[attr-defined]
    bot = BautaBot(Config(token=None, db_path=config["db"], dev_guild=None, log_level="WARNING"))
    await bot.prepare()
    assert bot.store is not None
    if await bot.store.get_meta("outbox_salt") is None:
        await bot.store.set_meta_value("outbox_salt", SALT)
    points = Points(config.get("target"))
    append(config["discord"], {"restart": config.get("run")})       # (the parent counts per run)
    world = World(bot)
    world.channel(CHANNEL, "table")
    world.user(ALICE, "Alice")
    world.user(BRUNO, "Bruno")
    fake_discord(world, config["discord"], points, config.get("run") or 0)
    write = bot.store._write

    async def written(*statements):
        result = await write(*statements)
        points.reached("written")
        return result

    bot.store._write = written      # type: ignore[method-assign]
    # the bot's start-up: ready, then its outbox sweep (at once, then every 2 s)
    await bot._async_setup_hook()
    bot._ready.set()
    sweeping = asyncio.get_running_loop().create_task(bot._sweep_outbox_forever())

    game, prompt = await waiting_on(bot)
    if prompt is not None:
        while not shown(config["discord"], game.id, prompt.id) and time.monotonic() - started < 20:
            await asyncio.sleep(0.01)
        append(config["waits"], {"game": game.id, "prompt": prompt.id, "seconds": round(time.monotonic() - started, 3),
                                 "shown": shown(config["discord"], game.id, prompt.id)})
    clicks = 0
    while clicks < config.get("clicks", 10**6):
        if "actions" in config:
            row = await bot.store._one("SELECT COUNT(*) FROM game_actions")
            if row is not None and row[0] >= config["actions"]:
                break
        points.reached("next")
        game, prompt = await waiting_on(bot)
        if game is None:            # a new table (a slash command, not a click)
            await bot.host.open_lobby(world.interaction(world.users[ALICE], world.channels[CHANNEL]),
                                      "duel", min_players=2, max_players=2)
            continue
        assert prompt is not None, f"game {game.id} is over by its rules yet active"
        if game.system == "lobby":
            index, user = (0, BRUNO) if str(BRUNO) not in game.state["players"] else (2, ALICE)   # Join, Start
        else:
            index, user = (game.id + game.version) % len(prompt.options), int(prompt.player)
        # the click comes from the message that shows the prompt (its acknowledgement edits it)
        where = f"dm:{user}" if prompt.private else f"channel:{CHANNEL}"
        live = showing(world, game.id, prompt.id)
        message = Sent(where, live.content if live else "", view=prompt_view(game.id, prompt),
                       **({"id": live.id} if live else {}))
        await click(world, message, world.users[user], index=index, in_dm=prompt.private)
        clicks += 1
    points.reached("next")          # (a target past the run's last click stops here)
    # a run that ends (not killed): every message of its last action goes out first
    while await bot.store._one("SELECT 1 FROM outbox WHERE status = 'pending'"):
        await asyncio.sleep(0.05)
    sweeping.cancel()
    await bot.close()


if __name__ == "__main__":
    serve(run)
