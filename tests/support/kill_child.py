"""The bot process that tests/test_kill_9.py kills: a scripted table played by clicks through the
real GameHost, with fake interactions over a real SQLite file.

It imports everything once, says `ready`, then for each JSON line on stdin forks a child (so the
50 runs do not pay 50 imports) that plays up to `clicks` clicks and exits. The child writes every
acknowledgement it gives (a click answered as accepted) to the `acks` file, fsynced, *before* the
response counts as sent, and every click it is about to make to `tries`. With a `target`
[n, phase], it stops the n-th time it reaches that phase (`before-commit`, `after-commit`:
stored but not answered, `after-ack`) and prints where it is, so the parent's SIGKILL lands there.
Markers and pids go to stdout as single `os.write` lines.

Each run resumes the table left by the previous one, and first re-clicks the last click it tried
(a player who is not sure it worked): that must never apply twice.
"""
from __future__ import annotations

import asyncio
import json
import os
import random
import sys
import time
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from cogs.host import systems  # noqa: E402
from cogs.host import GameHost, prompt_view  # noqa: E402
from db.store import Store  # noqa: E402
from rules.common import Option, Prompt  # noqa: E402
from tests.support import duel  # noqa: E402
from tests.support.fakes import FakeResponse, Sent, World, click  # noqa: E402

GUILD, CHANNEL, ALICE, BRUNO = 1, 10, 2, 3
PAUSE = 30.0                       # seconds a targeted child waits for its kill


def say(line: str) -> None:
    os.write(1, (line + "\n").encode())


def append(path: str, record: dict) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(fd, (json.dumps(record, sort_keys=True) + "\n").encode())
        os.fsync(fd)
    finally:
        os.close(fd)


class Script:
    """One run: which click this is, and where to stop."""

    def __init__(self, config: dict):
        self.config = config
        self.target = tuple(config["target"]) if config.get("target") else None
        self.seen: dict[str, int] = {}  # how many times each phase was reached in this run
        self.current: dict | None = None    # the click in progress

    def reached(self, phase: str) -> None:
        self.seen[phase] = self.seen.get(phase, 0) + 1
        if self.target == (self.seen[phase], phase):
            say(f"at {phase} {self.seen[phase]}")
            time.sleep(PAUSE)       # blocks the loop on purpose: nothing else may happen now

    def instrument(self, store: Store) -> None:
        for name in ("commit_action", "commit_and_create"):
            real = getattr(store, name, None)
            if real is None:
                continue

            async def staged(*args, _real=real, **kwargs):
                self.reached("before-commit")
                result = await _real(*args, **kwargs)
                self.reached("after-commit")
                return result

            setattr(store, name, staged)
        script = self
        edit_message, defer = FakeResponse.edit_message, FakeResponse.defer

        async def acknowledge(response, **kwargs):
            script.acknowledged()
            await edit_message(response, **kwargs)
            script.reached("after-ack")

        async def deferred(response, *, ephemeral=False, thinking=False):
            if not thinking:        # a component's deferred update: the click shows as accepted
                script.acknowledged()
            await defer(response, ephemeral=ephemeral, thinking=thinking)
            if not thinking:
                script.reached("after-ack")

        FakeResponse.edit_message, FakeResponse.defer = acknowledge, deferred
        record = World.record

        def recorded(world, where, content=None, **kwargs):
            # A refusal after a deferred click (the old order) takes the acknowledgement back.
            if kwargs.get("ephemeral") and script.current is not None:
                append(script.config["acks"], {**script.current, "refused": True})
            return record(world, where, content, **kwargs)

        World.record = recorded

    def acknowledged(self) -> None:
        if self.current is not None:
            append(self.config["acks"], self.current)


async def next_click(store: Store, rng: random.Random):
    """The click the table is waiting for: (game, prompt, option index, user id); None to open a
    table; the game alone when it is stuck (no decision left, yet active)."""
    game = await store.active_game(GUILD, CHANNEL)
    if game is None:
        return None
    engine = systems.get(game.system).engine
    pending = engine.pending(engine.load_state(game.state))
    if not pending:                 # over by its rules yet still active: a GM would have to /game end it
        return game
    prompt = pending[0]
    if game.system == "lobby":
        index, user = (0, BRUNO) if str(BRUNO) not in game.state["players"] else (2, ALICE)   # Join, Start
    else:
        index, user = rng.randrange(len(prompt.options)), int(prompt.player)
    return game, prompt, index, user


async def play(config: dict) -> None:
    rng = random.Random(config["seed"])
    store = await Store.open(config["db"])
    script = Script(config)
    script.instrument(store)
    client = SimpleNamespace()
    client.host = GameHost(client, store)
    world = World(client)
    world.channel(CHANNEL, "table")
    world.user(ALICE, "Alice")
    world.user(BRUNO, "Bruno")
    tries = Path(config["tries"])
    retry = json.loads(tries.read_text().splitlines()[-1]) if tries.exists() and tries.read_text() else None
    for attempt in range(config["clicks"]):
        if retry is not None:
            click_record, retry = retry, None
        else:
            found = await next_click(store, rng)
            if found is None:       # a new table (a slash command, not a click)
                script.current = None
                await client.host.open_lobby(world.interaction(world.users[ALICE], world.channels[CHANNEL]),
                                             "duel", min_players=2, max_players=2)
                continue
            if not isinstance(found, tuple):
                append(config["stuck"], {"game": found.id})
                await store.end_game(found)
                continue
            game, prompt, index, user = found
            click_record = {"game": game.id, "prompt": prompt.id, "index": index, "user": user,
                            "option": prompt.options[index].id, "private": prompt.private,
                            "options": [o.id for o in prompt.options], "text": prompt.text}
            append(config["tries"], click_record)
        script.current = {**click_record, "attempt": f"{config['seed']}.{attempt}"}
        # the message as it was posted, rebuilt from the record (a legacy prompt: labels are the ids)
        prompt = Prompt(id=click_record["prompt"], player="", text=click_record["text"],
                        options=tuple(Option(id=o, label=o) for o in click_record["options"]))
        message = Sent("dm" if click_record["private"] else f"channel:{CHANNEL}", click_record["text"],
                       view=prompt_view(click_record["game"], prompt))
        await click(world, message, world.users[click_record["user"]], index=click_record["index"],
                    in_dm=click_record["private"])
    await store.close()


def serve(run) -> None:
    """The zygote: for each JSON line on stdin, fork a child that runs `run(config)` and exits."""
    duel.register()
    say("ready")
    for line in sys.stdin:
        config = json.loads(line)
        pid = os.fork()
        if pid == 0:
            code = 0
            try:
                asyncio.run(run(config))
            except BaseException:  # noqa: BLE001 - the parent reads the exit status
                import traceback
                traceback.print_exc()
                code = 1
            os._exit(code)
        say(f"child {pid}")
        _, status = os.waitpid(pid, 0)
        say(f"exit {pid} {status}")


if __name__ == "__main__":
    serve(play)
