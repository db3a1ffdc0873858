"""Untrusted files: read an attachment within a size limit, then parse and validate it in a child
process with a time limit, so no file a member uploads can stall the bot for anyone else.

`read_text` checks the attachment's declared size before downloading it (and the real size after),
and decodes UTF-8 with a short message. `parse(func, *args)` runs a pure `rules/` function (a pack or
sheet loader) in a fresh child process and returns its result; PackError on refusal.

Why a process and not a thread: a thread cannot be stopped, so a file that takes a minute to
validate keeps a core busy for that minute whatever the time limit says; and a thread shares the
GIL with the event loop, while C code such as `repr` of a huge list holds it without a break (the
billion-laughs file once spent 80 s building a 3 GB error message). A child process is killed at
the time limit, has its own memory limit (RLIMIT_AS), runs at a lower priority, and whatever it
does the event loop keeps running. Children come from a fork server started once with the rules
already imported, so one costs about 10-20 ms (measured), nothing next to a parse.
"""
from __future__ import annotations

import logging
import multiprocessing
import signal
import traceback
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TYPE_CHECKING, Any
from collections.abc import Callable

import asyncio

from discord import app_commands

from i18n import t
from rules.common import BautaError, PackError
from rules.common.safe_yaml import shorten

if TYPE_CHECKING:
    import discord

log = logging.getLogger("bauta.untrusted")

# The time limit is CPU time (RLIMIT_CPU, whole seconds), so a busy machine does not refuse a good file:
# a valid 1 MB pack takes about 2.5 s of CPU to parse and validate. WALL_FACTOR bounds the wait.
PARSE_SECONDS = 10
WALL_FACTOR = 4
MEMORY_BYTES = 1 << 30        # address space of one child (the fork server's own modules included)
WORKERS = 2                   # children at once; more files wait their turn (the machine has 2 cores)

try:
    _CONTEXT = multiprocessing.get_context("forkserver")
except ValueError:  # no fork server on this platform
    _CONTEXT = multiprocessing.get_context("spawn")
# Each job waits for its child in one of these threads: at most WORKERS children run at once, and
# the wait never occupies the event loop or the default executor (images render there).
_JOBS = ThreadPoolExecutor(max_workers=WORKERS, thread_name_prefix="bauta-untrusted")
# The bot's thinking pool (cogs/host/thinking.py) forks its children from the same server: they
# need the games' players (rules.bots) and the sample packs' reader (content).
_PRELOAD = ["cogs.host.untrusted", "content", "rules.bots", "rules.karmic", "rules.klash", "rules.carnival_zombie",
            "rules.carnevale"]
_preloaded = False


def _preload_once() -> None:
    """Tell the fork server (before it starts) to import the rules and the cogs whose loaders run in
    children, so a child is forked ready instead of importing them each time."""
    global _preloaded
    if _preloaded:
        return
    from . import systems
    modules = set(_PRELOAD) | {system.load_pack.__module__ for system in systems.SYSTEMS.values()
                               if system.load_pack is not None}
    if hasattr(_CONTEXT, "set_forkserver_preload"):
        _CONTEXT.set_forkserver_preload(sorted(modules))
    _preloaded = True


def context() -> Any:
    """The multiprocessing context of the fork server, its preload set (before it starts): other
    children of the bot (the thinking pool) come from it too, not from a fork of the bot's own
    process, whose threads (the executor's, aiohttp's resolver's) may hold a lock at the fork."""
    _preload_once()
    return _CONTEXT


def warm() -> Future[None]:
    """Start the fork server in the background (it takes seconds) so the first import is quick."""
    _preload_once()
    return _JOBS.submit(_start_server)


def _start_server() -> None:
    try:
        from multiprocessing import forkserver
        if _CONTEXT.get_start_method() == "forkserver":
            forkserver.ensure_running()
    except Exception:  # noqa: BLE001 - the first parse will start it (or report why it cannot)
        log.exception("could not start the fork server")


def _child(conn, func: Callable[..., Any], args: tuple, seconds: int, memory: int) -> None:
    """In the child: limit CPU time and memory, run, send back ("ok", result) or why not."""
    try:
        import resource
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
        # SIGXCPU at the soft limit (it ends the process), SIGKILL a second later.
        resource.setrlimit(resource.RLIMIT_CPU, (seconds, seconds + 1))
    except (ImportError, OSError, ValueError):
        pass
    try:
        outcome: tuple = ("ok", func(*args))
    except BautaError as exc:
        outcome = ("refused", exc)        # whole (code, problems): the parent's reader words it
    except RecursionError:
        outcome = ("too_deep", "")
    except MemoryError:
        outcome = ("too_big", "")
    except Exception:  # noqa: BLE001 - a bug: the parent logs it with a reference for the user
        outcome = ("bug", traceback.format_exc()[-4000:])
    try:
        conn.send(outcome)
    except MemoryError:
        conn.send(("too_big", ""))
    except Exception:  # noqa: BLE001 - e.g. a result that cannot be pickled
        conn.send(("bug", traceback.format_exc()[-4000:]))
    conn.close()


def _run_in_child(func: Callable[..., Any], args: tuple, seconds: int, memory: int) -> tuple:
    receiver, sender = _CONTEXT.Pipe(duplex=False)
    process = _CONTEXT.Process(target=_child, args=(sender, func, args, seconds, memory), daemon=True,
                               name="bauta-untrusted")
    try:
        process.start()
    finally:
        sender.close()
    try:
        if not receiver.poll(seconds * WALL_FACTOR + 5):
            return ("timeout", "")
        try:
            return receiver.recv()
        except EOFError:  # ended by a signal before it could answer
            process.join(5)
            stopped = (-signal.SIGXCPU, -signal.SIGKILL)
            return ("timeout", "") if process.exitcode in stopped else ("too_big", "")
    finally:
        if process.is_alive():
            process.kill()
        process.join(5)
        receiver.close()


async def parse(func: Callable[..., Any], *args: Any, source: str, locale=None, seconds: int = PARSE_SECONDS) -> Any:
    """`func(*args)` in a child process; its result, or PackError (a refusal by the rules, or the
    time or memory limit). `func` must be a module-level function (it is sent by name)."""
    _preload_once()
    loop = asyncio.get_running_loop()
    kind, value = await loop.run_in_executor(_JOBS, _run_in_child, func, args, seconds, MEMORY_BYTES)
    if kind == "ok":
        return value
    name = shorten(source, 60)
    if kind == "refused":
        raise value if isinstance(value, BautaError) else PackError(str(value))
    if kind == "timeout":
        raise PackError(t("files.too_slow", locale, file=name, seconds=seconds))
    if kind == "too_deep":
        raise PackError(t("files.too_deep", locale, file=name))
    if kind == "too_big":
        raise PackError(t("files.too_big_to_read", locale, file=name))
    raise RuntimeError(f"reading {name} failed in the child process:\n{value}")


# Each upload costs a child process up to PARSE_SECONDS of CPU: a member may send a few a minute.
# The bucket is per client too: the cooldown lives on the command, which every bot in one process
# (the test suite's) shares.
def per_member(interaction: discord.Interaction) -> tuple:
    return (id(interaction.client), interaction.guild_id, interaction.user.id)


def uploads_cooldown():
    """The cooldown check for a command that takes a file (CommandOnCooldown → "Slow down")."""
    return app_commands.checks.cooldown(5, 60.0, key=per_member)


def _size(limit: int) -> str:
    return f"{limit / 1_000_000:g} MB" if limit >= 1_000_000 else f"{limit // 1000:,} KB"


def check_size(attachment: discord.Attachment, limit: int, locale=None, size: int | None = None) -> None:
    """PackError when the attachment (by the size Discord declares, so before downloading) is over `limit`."""
    if (attachment.size if size is None else size) > limit:
        raise PackError(t("files.too_big", locale, file=shorten(attachment.filename, 60), limit=_size(limit)))


async def read_text(attachment: discord.Attachment, limit: int, locale=None) -> str:
    """The attachment as text: refused before downloading when its declared size is over `limit`."""
    name = shorten(attachment.filename, 60)
    check_size(attachment, limit, locale)
    raw = await attachment.read()
    check_size(attachment, limit, locale, size=len(raw))  # in case the declared size was wrong
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise PackError(t("files.not_utf8", locale, file=name, offset=f"{exc.start:,}")) from None
