"""Start Bauta: `python bot.py` runs the bot; `python bot.py --check` checks an install offline;
`python bot.py --shards 0-3 --shard-count 16` runs shards 0..3 of 16 (one process of several over
one PostgreSQL database); `python bot.py --copy-to postgresql://…` copies the SQLite database there.

Config comes from the environment or a `.env` file:
  DISCORD_TOKEN    (required to run)  the bot token from the Discord developer portal
  BAUTA_DB         SQLite file, default data/bauta.sqlite3 (folder created)
  BAUTA_DATABASE_URL  postgresql://… : keep everything in PostgreSQL instead (several processes)
  BAUTA_DB_SCHEMA  optional PostgreSQL schema for Bauta's tables (default: the database's own)
  BAUTA_DEV_GUILD  a guild id: commands are synced there at start-up, instantly; otherwise global
  BAUTA_LOG_LEVEL  DEBUG, INFO (default), WARNING, ...
  BAUTA_SHARDS, BAUTA_SHARD_COUNT  as --shards and --shard-count (default: Discord's recommendation)
  BAUTA_WEB        where the web companion listens, host:port (default 127.0.0.1:8080), or off
  BAUTA_PUBLIC_URL the address its links are written with (default: where it listens)
  BAUTA_WEB_SECRET optional: the links' signing secret (default: one made once, kept in the store)
"""
from __future__ import annotations

import argparse
import asyncio
import gc
import hashlib
import json
import logging
import os
import sys
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any
from collections.abc import Coroutine

import aiohttp
import discord
from discord import app_commands
from discord.ext import commands

from clock import source as clock_source
from cogs.host import GameHost, PromptButton, PromptSelect, thinking
from cogs.host.chronicle import RematchButton
from cogs.host.errors import check_options, report_error
from db import open_store
from db.store import Store
import content
from i18n import present
from i18n.translator import BautaTranslator, write_english
from web.server import Companion, WebConfig

log = logging.getLogger("bauta")

ROOT = Path(__file__).parent
COGS = ("cogs.dice", "cogs.game", "cogs.hand", "cogs.gm", "cogs.packs", "cogs.help", "cogs.profile", "cogs.turns",
        "cogs.karmic", "cogs.klash", "cogs.carnival_zombie", "cogs.carnevale")

# What the bot does in a channel: read it, post, embed, attach board images, and thread replies.
PERMISSIONS = discord.Permissions(view_channel=True, send_messages=True, send_messages_in_threads=True,
                                  embed_links=True, attach_files=True, read_message_history=True)


@dataclass
class Config:
    token: str | None
    db_path: str
    dev_guild: int | None
    log_level: str
    database_url: str | None = None     # postgresql://…; None: the SQLite file at db_path
    db_schema: str | None = None
    shard_ids: list[int] | None = None  # the shards this process runs; None: all of them
    shard_count: int | None = None      # shards of the whole deployment; None: Discord's recommendation
    web: WebConfig | None = None        # the web companion (web/); None: off

    @classmethod
    def from_env(cls, env_file: str | Path | None = ROOT / ".env") -> Config:
        if env_file and Path(env_file).exists():
            from dotenv import load_dotenv
            load_dotenv(env_file, override=False)  # the real environment wins over .env
        guild = os.environ.get("BAUTA_DEV_GUILD", "").strip()
        if guild and not guild.isdigit():
            raise SystemExit(f"BAUTA_DEV_GUILD must be a guild id (digits), not {guild!r}.")
        shards = parse_shards(os.environ.get("BAUTA_SHARDS", ""), os.environ.get("BAUTA_SHARD_COUNT", ""))
        return cls(token=os.environ.get("DISCORD_TOKEN", "").strip() or None,
                   db_path=os.environ.get("BAUTA_DB", "").strip() or str(ROOT / "data" / "bauta.sqlite3"),
                   dev_guild=int(guild) if guild else None,
                   log_level=os.environ.get("BAUTA_LOG_LEVEL", "INFO").upper(),
                   database_url=os.environ.get("BAUTA_DATABASE_URL", "").strip() or None,
                   db_schema=os.environ.get("BAUTA_DB_SCHEMA", "").strip() or None,
                   shard_ids=shards[0], shard_count=shards[1], web=_web_config())


def _web_config() -> WebConfig | None:
    web = WebConfig.from_env()
    return web if web.bind is not None else None


def parse_shards(ids: str | None, count: str | int | None) -> tuple[list[int] | None, int | None]:
    """`"0-3"`, `"0,2,5-7"` and a shard count → (sorted shard ids, count). A process runs a range
    of the deployment's shards; discord.py needs the whole deployment's count to know which
    guilds are its own. Errors end start-up with one line naming the setting."""
    ids, count = (ids or "").strip(), str(count or "").strip()
    if not ids and not count:
        return None, None
    if not count.isdigit() or int(count) < 1:
        raise SystemExit(f"--shard-count / BAUTA_SHARD_COUNT must be a positive number, not {count!r}"
                         + (" (it is needed with --shards)" if ids else ""))
    total = int(count)
    if not ids:
        return None, total
    chosen: set[int] = set()
    for part in ids.split(","):
        low, _, high = part.strip().partition("-")
        if not low.isdigit() or (high and not high.isdigit()):
            raise SystemExit(f"--shards / BAUTA_SHARDS: write ids like 0-3 or 0,2,5-7, not {ids!r}")
        chosen.update(range(int(low), int(high or low) + 1))
    if not chosen or max(chosen) >= total:
        raise SystemExit(f"--shards {ids}: shard ids go from 0 to {total - 1} with --shard-count {total}")
    return sorted(chosen), total


def available_cogs() -> list[str]:
    """The cogs start-up loads (a test's child process that needs none replaces this)."""
    return list(COGS)


# The outbox sweep leaves the newest actions to the publish under way in their own process, and
# a shard's leftovers to that shard's process unless they are this old (its process is down).
OUTBOX_GRACE = timedelta(seconds=3)
OUTBOX_ORPHANED = timedelta(seconds=60)
# The turn clock's scheduler sleeps until the next due decision, between these bounds (seconds):
# a one-minute deadline's reminders are 30 and 54 seconds in.
CLOCK_MIN, CLOCK_IDLE = 1.0, 15.0

SAFE_MENTIONS = discord.AllowedMentions(everyone=False, roles=False, users=True, replied_user=False)

# Bauta never joins voice: silence discord.py's start-up warnings about voice libraries.
discord.VoiceClient.warn_nacl = False
discord.VoiceClient.warn_dave = False


class BautaBot(commands.AutoShardedBot):
    """Auto-sharded from day one: one process serves any number of guilds (2,500 per shard)."""

    def __init__(self, config: Config, store: Store | None = None):
        # No privileged intents: slash commands and components need none of them.
        # Every message may ping the users it names, never everyone/here or a role, and a reply
        # never pings the author it answers: members' text echoed by the bot cannot ping a crowd.
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default(),
                         help_command=None, allowed_mentions=SAFE_MENTIONS,
                         shard_ids=config.shard_ids, shard_count=config.shard_count)
        self.config = config
        self.store: Store | None = store
        self.host: GameHost | None = None
        self.web: Companion | None = None       # the web companion, when config.web says where
        self.tree.on_error = self._on_app_command_error
        self.tree.interaction_check = self._check       # declared option bounds, checked again

    async def prepare(self) -> None:
        """Everything start-up does that needs no connection to Discord."""
        if self.store is None:
            self.store = await open_store(self.config.db_path, self.config.database_url, self.config.db_schema)
        self.host = GameHost(self, self.store)
        if self.config.web is not None:
            self.web = Companion(self.host, self.config.web)
        present.preload()
        content.install()       # the games' bundled sample packs, read here: rules/ reads no file
        self.add_dynamic_items(PromptButton, PromptSelect, RematchButton)
        for name in available_cogs():
            await self.load_extension(name)
        if not gc.get_freeze_count():
            # What start-up built (modules, catalogues, packs, cogs) lives as long as the process:
            # out of the collector's sight, a full collection walks only what came since instead
            # of pausing the loop (every click with it) for 30-65 ms at 500 clicks a second.
            # Once a process (a test suite's bots come and go), after a collection: no garbage
            # is kept for good.
            gc.collect()
            gc.freeze()

    async def setup_hook(self) -> None:
        self._logged_in = True
        await self.prepare()
        await self.tree.set_translator(BautaTranslator())
        await self.sync_commands()
        await self.start_web()
        self.loop.create_task(self._clock_forever())
        self.loop.create_task(self._sweep_outbox_forever())
        log.info("invite URL: %s", discord.utils.oauth_url(
            self.application_id, permissions=PERMISSIONS, scopes=("bot", "applications.commands")))

    async def start_web(self) -> None:
        """Listen for the web companion's pages; a port taken (another process on this machine)
        leaves the bot playing without them, and says which setting to change."""
        if self.web is None:
            return
        try:
            await self.web.start()
        except OSError as exc:
            log.error("the web companion cannot listen on %s (%s): set BAUTA_WEB to another host:port, or off",
                      self.config.web and self.config.web.bind, exc)
            self.web = None

    async def sync_commands(self) -> None:
        """Sync only when the command tree changed: Discord allows 200 creations a guild a day."""
        if self.config.dev_guild:
            guild = discord.Object(self.config.dev_guild)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d commands to dev guild %s", len(synced), self.config.dev_guild)
            return
        # Once per deployment (the other processes skip it), and per application: a database
        # moved to another application must sync that application's commands too.
        async with self.store.lock("commands") as held:
            if not held:
                log.info("another process syncs the commands")
                return
            key = f"commands_digest:{self.application_id}"
            digest = command_digest(self.tree)
            if await self.store.get_meta(key) == digest:
                log.info("commands unchanged; no sync needed")
                return
            synced = await self.tree.sync()
            await self.store.set_meta_value(key, digest)
            log.info("synced %d global commands (they may take a while to appear)", len(synced))

    async def _clock_forever(self) -> None:
        """The turn clock's scheduler (cogs/host/scheduler.py), in one process of the deployment
        at a time: a tick, then sleep until the next thing is due (at most CLOCK_IDLE, so a
        decision asked in another process, or a process that took the lock over, is seen soon)."""
        await self.wait_until_ready()
        while not self.is_closed():
            pause = CLOCK_IDLE
            try:
                async with self.store.lock("reminders") as held:    # one process of the deployment
                    if held:
                        await self.host.scheduler.tick()
                        upcoming = await self.host.scheduler.next_due()
                        if upcoming is not None:
                            pause = (upcoming - clock_source.now()).total_seconds()
            except Exception:  # noqa: BLE001 - a failed tick must not stop the next
                log.exception("the turn clock failed")
            await asyncio.sleep(min(max(pause, CLOCK_MIN), CLOCK_IDLE))

    async def sweep_outbox(self, startup: bool = False) -> int:
        """Deliver what an action committed but never published (see GameHost.deliver_outbox):
        this process's own shards, everything at start-up and then what is older than a few
        seconds; and, in one process of the deployment at a time, every shard's leftovers older
        than a minute (a shard whose process is down)."""
        shards = self.shard_ids if self.shard_ids is not None else None
        count = self.shard_count or 1
        # A lone process starting over an SQLite file: what is claimed, a dead process claimed.
        sent = await self.host.deliver_outbox(shards, count, older_than=None if startup else OUTBOX_GRACE,
                                              abandoned=startup and self.store.single_process)
        if shards is not None:
            async with self.store.lock("outbox-orphans") as held:
                if held:
                    sent += await self.host.deliver_outbox(None, count, older_than=OUTBOX_ORPHANED)
        return sent

    def _sweep_outbox_forever(self, every: float = 2.0) -> Coroutine[Any, Any, None]:
        """The outbox sweep, to schedule. Not a coroutine function on purpose: from the moment it
        is scheduled, before it runs, no action commits until its start-up claim (cogs/outbox.py)."""
        if self.host is not None:
            self.host.order.recovering()
        return self._sweeping(every)

    async def _sweeping(self, every: float) -> None:
        await self.wait_until_ready()
        startup = True
        while not self.is_closed():
            try:
                await self.sweep_outbox(startup)
                startup = False
            except Exception:  # noqa: BLE001 - a failed sweep must not stop the next
                log.exception("outbox sweep failed")
            if self.host is not None:
                self.host.order.recovered()     # (a failed start-up claim holds no action back)
            await asyncio.sleep(every)

    async def on_ready(self) -> None:
        log.info("logged in as %s, serving %d guild(s)", self.user, len(self.guilds))

    async def on_guild_remove(self, guild: discord.Guild) -> None:
        log.info("removed from guild %s; its data is kept until purged", guild.id)

    async def _check(self, interaction: discord.Interaction) -> bool:
        """Before every command: the member's own language (`/profile language`), then the
        declared option bounds checked again."""
        if self.host is not None:
            await self.host.speak_their_language(interaction)
        return await check_options(interaction)

    async def _on_app_command_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError):
        await report_error(interaction, error)

    async def close(self) -> None:
        if self.web is not None:
            await self.web.stop()
        if getattr(self, "_logged_in", False):
            await super().close()
        else:
            # Prepared offline (--check, tests) or failed to log in: the sharded client has no
            # gateway state to close, so unload the cogs and close the HTTP session if one opened.
            for name in list(self.extensions):
                await self.unload_extension(name)
            await self.http.close()
        if self.store is not None:
            await self.store.close()
            self.store = None
        thinking.shutdown()     # the bot's thinking children (started by its first heavy decision)


def _redacted(url: str) -> str:
    """A database URL without its password, for logs and --check."""
    from urllib.parse import urlsplit
    parts = urlsplit(url)
    if parts.password:
        parts = parts._replace(netloc=parts.netloc.replace(f":{parts.password}@", ":***@"))
    return parts.geturl()


def command_digest(tree: app_commands.CommandTree) -> str:
    payload = [command.to_dict(tree) for command in tree.get_commands()]
    payload.append(getattr(tree.translator, "fingerprint", None))  # a changed translation syncs too
    return hashlib.sha256(json.dumps(payload, sort_keys=True, default=str).encode()).hexdigest()


def command_list(tree: app_commands.CommandTree) -> list[str]:
    lines = []

    def walk(command, prefix=""):
        if isinstance(command, app_commands.Group):
            for child in command.commands:
                walk(child, f"{prefix}{command.name} ")
        else:
            params = " ".join(f"[{p.name}]" if not p.required else p.name for p in command.parameters)
            lines.append(f"/{prefix}{command.name} {params}".rstrip() + f" — {command.description}")

    for command in sorted(tree.get_commands(), key=lambda c: c.name):
        walk(command)
    return lines


async def check(config: Config) -> int:
    """Offline: config, database migration, cogs, command tree. No Discord connection."""
    print(f"DISCORD_TOKEN: {'set' if config.token else 'missing (needed to run, not for --check)'}")
    bot = BautaBot(config)
    try:
        await bot.prepare()
        where = _redacted(config.database_url) if config.database_url else config.db_path
        print(f"database: {where} (schema version {await bot.store.schema_version()})")
        if config.shard_count:
            print(f"shards: {config.shard_ids if config.shard_ids is not None else 'all'} of {config.shard_count}")
        print(f"cogs: {', '.join(sorted(bot.extensions))}")
        lines = command_list(bot.tree)
        print(f"{len(lines)} commands:")
        for line in lines:
            print(f"  {line}")
    finally:
        await bot.close()
    return 0


async def write_commands(path: Path | None = None) -> int:
    """The translators' English snapshot of the command tree (`i18n/commands/en.yaml`, or `path`),
    from every cog loaded offline, over a throwaway database: nothing of the deployment's is read."""
    import tempfile
    with tempfile.TemporaryDirectory() as folder:
        bot = BautaBot(Config(token=None, db_path=str(Path(folder) / "b.sqlite3"), dev_guild=None,
                              log_level="WARNING"))
        try:
            await bot.prepare()
            print(f"wrote {await write_english(bot.tree, path)}")
        finally:
            await bot.close()
    return 0


async def copy_to(config: Config, url: str) -> int:
    """Copy this deployment's SQLite database into PostgreSQL (see db/copy.py)."""
    import asyncpg

    from db import is_postgres_url
    from db.copy import copy_store
    from db.postgres import PostgresStore
    from db.store import StoreError

    if not is_postgres_url(url):
        print("--copy-to needs a postgresql:// URL.", file=sys.stderr)
        return 2
    if not Path(config.db_path).exists():
        print(f"no SQLite database at {config.db_path} (BAUTA_DB) to copy.", file=sys.stderr)
        return 2
    source = await Store.open(config.db_path)
    try:
        target = await PostgresStore.open(url, schema=config.db_schema)
    except (OSError, asyncpg.PostgresError) as exc:
        await source.close()
        print(f"cannot open {_redacted(url)}: {exc}", file=sys.stderr)
        return 1
    try:
        counts = await copy_store(source, target)
    except StoreError as exc:
        print(f"not copied: {exc}", file=sys.stderr)
        return 1
    finally:
        await source.close()
        await target.close()
    print(f"copied {config.db_path} to {_redacted(url)}: "
          + ", ".join(f"{table} {n}" for table, n in counts.items()))
    print("now set BAUTA_DATABASE_URL to that URL and start the bot.")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Bauta, a Discord game master.")
    parser.add_argument("--check", action="store_true", help="check the install offline and list the commands")
    parser.add_argument("--shards", metavar="IDS", help="the shards this process runs, e.g. 0-3 (env BAUTA_SHARDS)")
    parser.add_argument("--shard-count", metavar="N", help="shards of the whole deployment (env BAUTA_SHARD_COUNT)")
    parser.add_argument("--write-commands", action="store_true",
                        help="rewrite i18n/commands/en.yaml, the English of every command, offline, then exit")
    parser.add_argument("--copy-to", metavar="URL", help="copy the SQLite database (BAUTA_DB) into an empty "
                                                           "PostgreSQL database, then exit")
    args = parser.parse_args(argv)
    config = Config.from_env()
    if args.shards is not None or args.shard_count is not None:
        config.shard_ids, config.shard_count = parse_shards(
            args.shards if args.shards is not None else ",".join(map(str, config.shard_ids or [])),
            args.shard_count if args.shard_count is not None else config.shard_count)
    logging.basicConfig(level=getattr(logging, config.log_level, logging.INFO),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("discord").setLevel(max(logging.INFO, getattr(logging, config.log_level, logging.INFO)))
    if args.check:
        return asyncio.run(check(config))
    if args.write_commands:
        return asyncio.run(write_commands())
    if args.copy_to:
        return asyncio.run(copy_to(config, args.copy_to))
    if not config.token:
        print("DISCORD_TOKEN is not set: put it in the environment or in a .env file (see README).",
              file=sys.stderr)
        return 2
    return asyncio.run(run(config))


async def run(config: Config) -> int:
    """Connect and serve until stopped. Every way start-up can fail ends in one line and exit 1."""
    bot = BautaBot(config)
    try:
        async with bot:
            await bot.start(config.token)
    except discord.LoginFailure:
        print("Discord rejected DISCORD_TOKEN: copy the token again from the developer portal (Bot → Reset Token).",
              file=sys.stderr)
        return 1
    except discord.PrivilegedIntentsRequired:
        print("Discord refused a privileged intent; Bauta needs none, so check the code you changed.", file=sys.stderr)
        return 1
    except (aiohttp.ClientError, OSError, discord.GatewayNotFound) as exc:
        print(f"Cannot reach Discord ({exc.__class__.__name__}: {exc}). Check the network and try again.",
              file=sys.stderr)
        return 1
    except (KeyboardInterrupt, asyncio.CancelledError):
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
