"""Every slash command, driven with generated option values inside and outside their declared
bounds, through the app-command path as Discord would call it (checks, transformers, the cog's
callback, the tree's error handler), against a real SQLite file.

For every input the bot must:
- answer (a response or a followup Discord accepts: ≤ 2,000 characters, an embed ≤ 4,096),
- answer a refusal privately (ephemeral), and refuse with a sentence, never an internal error,
- ping nobody by @everyone, @here or a role, in any message it sends,
- change nothing in the database when it refuses.

The examples are deterministic (`derandomize`, no example database): CI runs exactly these.
`BAUTA_PROPERTY_EXAMPLES` scales the number of examples per command; `BAUTA_PROPERTY_REPORT` names a
JSON file that receives the figures per command path (inputs, answers, refusals, violations).
"""
from __future__ import annotations

import asyncio
import hashlib
import json
import os
import sqlite3
import time
from collections import Counter, defaultdict
from pathlib import Path

import pytest
from discord import app_commands
from discord.enums import AppCommandOptionType as T
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import make_bot
from tests.support.command_worlds import (
    CONTEXTS,
    FREE_TABLE,
    TABLE,
    FakeAttachment,
    Traced,
    TracedInteraction,
    build_world,
    invoke,
)

settings.register_profile("bauta-commands", derandomize=True, database=None, deadline=None,
                          print_blob=False, suppress_health_check=list(HealthCheck))
EXAMPLES = int(os.environ.get("BAUTA_PROPERTY_EXAMPLES", "20"))
TIMEOUT = 20.0            # seconds for one command: a hang is a violation, not a stuck test run
ROLE_ID = 345678901234567890

# Strings that have hurt bots: mentions, over-long text, numbers that are not, format fields, NULs.
NASTY = ["", " ", "@everyone", "@here", f"<@&{ROLE_ID}>", "<@234567890123456789>", "@everyone " * 300,
         "x" * 3000, "é" * 2100, "zzz", "test", "none", "-", "-1", "0", "1e309", "nan", "inf",
         "1000000d1000000", "{name}", "%s", "\x00", "[" * 3000, "a, b, c", ";;", "~world", "#1", ":"]


# Plausible values for string options that offer no autocomplete, by option name: enough valid
# input reaches the deeper code (a started check, a paid award) next to the nasty values.
HINTS = {
    "character": ["Mara", "Enris", "Devon"], "ally_character": ["Mara"], "opponent_character": ["Enris"],
    "target_character": ["Mara", "Enris"], "charge": ["Devon", "Soldier"], "surprised": ["Soldier", "Devon"],
    "ambusher": ["Devon"], "dodge_only": ["Devon", "Soldier, Devon"], "riding": ["Soldier"],
    "pairs": ["Devon-Soldier", "Devon-Devon", "Soldier vs Bandit; Devon-Soldier"],
    "cards": ["4S", "AS 3S", "test", "KH", "2D 2H", "JK1", "1S", "10C"], "skill": ["tracking", "brawl", "none"],
    "skill2": ["tracking", "climbing"], "opponent_skill": ["tracking", "none"], "skills": ["tracking, brawl", "tracking"],
    "field": ["rivers", "tracking"], "target": ["tracking", "might", "zzz"], "weapon": ["sword", "bow"],
    "expression": ["2d6+3", "4d6kh3", "1000000d1000000", "d", "8d10>=7"], "setting": ["zzz"],
    "value": ["true", "3", "zzz"], "members": ["Leader", "a, b"], "enemies": ["b1", "b1, b2"],
    "targets": ["b1, b2"], "what": ["equipment", "zzz"], "name": ["Mara", "sample", "Blade"],
    "direction": ["north", "n", "zzz"], "confirm": ["Test Server", "nope", "forget"], "pack": ["sample", "zzz"],
    "start": ["23:00", "7", "25:00"], "end": ["07:30", "23:00", "7.61"],
}


def _bounded_text(low: int, high: int):
    return st.text(min_size=low, max_size=high)


def string_values(param: app_commands.Parameter, vocabulary: list[str]):
    words = [w for w in vocabulary if isinstance(w, str)] + HINTS.get(param.name, [])
    parts = [st.sampled_from(NASTY), st.text(max_size=30)]
    if words:       # twice: half the values are plausible ones
        parts[:0] = [st.sampled_from(words), st.sampled_from(words)]
    if param.min_value is not None or param.max_value is not None:     # a string's declared lengths
        parts.append(_bounded_text(int(param.min_value or 0), min(int(param.max_value or 100), 200)))
    return st.one_of(*parts)


def int_values(param: app_commands.Parameter, vocabulary: list, wild: bool):
    low, high = param.min_value, param.max_value
    if wild:        # past the declared bounds, or past what Discord and SQLite can hold
        outside = [-2**63, 2**63, -10**18, 10**18]
        outside += [int(low) - 1] if low is not None else []
        outside += [int(high) + 1] if high is not None else []
        return st.sampled_from(outside)
    inside = st.integers(int(low) if low is not None else -10**6, int(high) if high is not None else 10**6)
    numbers = [v for v in vocabulary if isinstance(v, int) and not isinstance(v, bool)]
    return st.one_of(st.sampled_from(numbers), inside) if numbers else inside


def float_values(param: app_commands.Parameter, wild: bool):
    low, high = param.min_value, param.max_value
    if wild:
        outside = [float("nan"), float("inf"), float("-inf"), 1e308, -1e308]
        outside += [float(low) - 1] if low is not None else []
        outside += [float(high) + 1] if high is not None else []
        return st.sampled_from(outside)
    return st.floats(float(low) if low is not None else -1e6, float(high) if high is not None else 1e6)


ATTACHMENT_TEXTS = [b"name: Mara\n", b"", b"\xff\xfe\x00garbage", b"[" * 600, b"a: " + b"x" * 300_000,
                    b"name: '@everyone'\nskills: {tracking: 99}\n", b"- &a [*a]\n", b"{" * 200 + b"}" * 200,
                    b"name: " + b"y" * 3000 + b"\n"]


def bounded(param: app_commands.Parameter) -> bool:
    """An option with declared bounds or choices, or a string (which Discord lets run to 6,000)."""
    return bool(param.choices) or param.type in (T.integer, T.number, T.string)


def attachment_values():
    texts = st.one_of(st.sampled_from(ATTACHMENT_TEXTS), st.binary(max_size=200))
    names = st.sampled_from(["sheet.yaml", "pack.yml", "x.json", "@everyone.yaml", "a" * 300 + ".yaml", "noext"])
    sizes = st.one_of(st.none(), st.sampled_from([0, 10**9, 26 * 1024 * 1024]))
    return st.builds(FakeAttachment, names, texts, sizes)


def value_strategy(param: app_commands.Parameter, world, vocabulary: list, wild: bool = False):
    """Values of the option's declared type: inside its bounds, or (`wild`) outside them."""
    if param.choices:
        if wild:        # a value outside the choices, of the option's own type
            return st.just("zzz" if param.type is T.string else -1)
        return st.sampled_from([c.value for c in param.choices])
    kind = param.type
    if kind is T.string:
        if wild:
            return st.sampled_from(["x" * 3000, "@everyone " * 300, "é" * 2100, "[" * 3000])
        return string_values(param, vocabulary)
    if kind is T.integer:
        return int_values(param, vocabulary, wild)
    if kind is T.number:
        return float_values(param, wild)
    if kind is T.boolean:
        return st.booleans()
    if kind is T.user:
        return st.sampled_from(sorted(world.users.values(), key=lambda u: u.id))
    if kind is T.role:
        return st.sampled_from(sorted(world.guild.roles.values(), key=lambda r: r.id))
    if kind is T.channel:
        return st.sampled_from(sorted(world.channels.values(), key=lambda c: c.id))
    if kind is T.mentionable:
        return st.sampled_from(sorted(world.users.values(), key=lambda u: u.id)
                               + sorted(world.guild.roles.values(), key=lambda r: r.id))
    if kind is T.attachment:
        return attachment_values()
    raise AssertionError(f"no strategy for option type {kind}")


def db_digest(path: str) -> str:
    """Every row of every table: what a refusal must leave unchanged."""
    with sqlite3.connect(path) as db:
        tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table' "
                                           "AND name NOT LIKE 'sqlite_%' ORDER BY name")]
        digest = hashlib.sha256()
        for table in tables:
            rows = sorted(repr(r) for r in db.execute(f'SELECT * FROM "{table}"'))
            digest.update(f"{table}:{len(rows)}:{rows}".encode())
    return digest.hexdigest()


def leaf_commands(tree: app_commands.CommandTree, top: str) -> list[app_commands.Command]:
    def walk(node):
        if isinstance(node, app_commands.Group):
            for child in node.commands:
                yield from walk(child)
        else:
            yield node
    return list(walk(tree.get_command(top)))


def top_level_names() -> list[str]:
    async def names():
        import tempfile
        with tempfile.TemporaryDirectory() as folder:
            bot = await make_bot(os.path.join(folder, "names.sqlite3"))
            try:
                return sorted(c.name for c in bot.tree.get_commands())
            finally:
                await bot.close()
    return asyncio.run(names())


class Figures:
    """Per command path: inputs tried and what became of them."""

    def __init__(self):
        self.counts: dict[str, Counter] = defaultdict(Counter)
        self.examples: dict[str, list[str]] = defaultdict(list)
        self.reasons: dict[str, Counter] = defaultdict(Counter)      # refusal sentences, for the report
        self.seconds: dict[str, float] = {}

    def add(self, path: str, outcome: str, detail: str = "") -> None:
        self.counts[path][outcome] += 1
        if outcome not in ("answered", "refused") and len(self.examples[path]) < 4:
            self.examples[path].append(f"{outcome}: {detail}"[:400])

    def violations(self) -> list[str]:
        lines = []
        for path, counts in sorted(self.counts.items()):
            bad = {k: v for k, v in counts.items() if k not in ("answered", "refused")}
            if bad:
                lines.append(f"/{path}: {dict(bad)} of {sum(counts.values())} — " + " | ".join(self.examples[path]))
        return lines

    def save(self, top: str) -> None:
        target = os.environ.get("BAUTA_PROPERTY_REPORT")
        if not target:
            return
        old = json.loads(Path(target).read_text()) if os.path.exists(target) else {}
        old.update({path: {"counts": dict(c), "examples": self.examples[path],
                           "reasons": self.reasons[path].most_common(5), "seconds": self.seconds.get(path)}
                    for path, c in self.counts.items()})
        with open(target, "w") as out:
            json.dump(old, out, indent=1, sort_keys=True)


def judge(figures: Figures, path: str, interaction: TracedInteraction, traced: Traced, changed: bool,
          values: dict, failure: str | None) -> None:
    shown = {k: (v if not isinstance(v, str) else v[:40]) for k, v in values.items()}
    detail = f"{shown} by {interaction.user.id}"
    refused = bool(interaction.extras.get("bauta_refused"))
    if failure:
        figures.add(path, "escaped", f"{failure} {detail}")
    elif interaction.extras.get("bauta_internal"):
        figures.add(path, "internal", f"{interaction.extras['bauta_internal']} {detail}")
    elif not interaction.answers:
        rejected = [s for s in traced.sends if "rejected" in s]
        figures.add(path, "unanswered", f"{'too long ' + str(rejected[-1]) if rejected else ''} {detail}")
    elif any("rejected" in s for s in traced.sends):
        figures.add(path, "too_long", f"{[s for s in traced.sends if 'rejected' in s][-1]} {detail}")
    elif refused and not interaction.answers[-1][0]:
        figures.add(path, "public_refusal", detail)
    elif traced.pings:
        figures.add(path, "ping", f"{traced.pings[0]} {detail}")
    elif refused and changed:
        figures.add(path, "changed_on_refusal", detail)
    else:
        figures.add(path, "refused" if refused else "answered")
        if refused:
            figures.reasons[path][interaction.answers[-1][1][:70]] += 1


def autocomplete_once(loop, bot, world, command, param, user, typed: str, figures: Figures) -> list:
    """What Discord would show while `typed` is being typed: at most 25 choices, names 1–100
    characters, values up to 100. An exception here is dropped by discord.py: counted as a bug."""
    where = f"{command.qualified_name} (autocomplete)"
    try:
        choices = loop.run_until_complete(autocomplete_choices(bot, world, command, param, user, typed))
    except Exception as exc:  # noqa: BLE001
        figures.add(where, "internal", f"{param.name}={typed[:20]!r}: {exc!r}")
        return []
    if len(choices) > 25 or any(not 1 <= len(c.name) <= 100 or len(str(c.value)) > 100 for c in choices):
        figures.add(where, "too_long", f"{param.name}={typed[:20]!r}: {len(choices)} choices")
    else:
        figures.add(where, "answered")
    return [c.value for c in choices]


async def autocomplete_choices(bot, world, command, param, user, current: str) -> list:
    interaction = TracedInteraction(world, user, world.channels[TABLE], command, {param.display_name: current})
    await command._invoke_autocomplete(interaction, param.display_name, interaction.namespace)
    return interaction.extras.get("autocomplete", [])


@pytest.mark.parametrize("top", top_level_names())
def test_every_command_answers_every_input(tmp_path, top):
    loop = asyncio.new_event_loop()
    figures = Figures()
    try:
        bot = loop.run_until_complete(make_bot(tmp_path / "bauta.sqlite3"))
        try:
            world = loop.run_until_complete(build_world(bot, CONTEXTS.get(top)))
            for command in leaf_commands(bot.tree, top):
                run_command(loop, bot, world, command, figures)
        finally:
            loop.run_until_complete(bot.close())
    finally:
        loop.close()
    figures.save(top)
    problems = figures.violations()
    assert not problems, "\n".join(problems)


AUTOCOMPLETE_TYPED = ["", "x" * 3000, "@everyone", "[", "é", "1", "a, b, "]


def run_command(loop, bot, world, command: app_commands.Command, figures: Figures) -> None:
    path = command.qualified_name
    vocabulary: dict[str, list] = {}
    for param in command.parameters:
        words = []
        if param.autocomplete:
            for user in (world.users[1], world.users[2]):
                for typed in AUTOCOMPLETE_TYPED:
                    words += autocomplete_once(loop, bot, world, command, param, user, typed, figures)
        vocabulary[param.display_name] = list(dict.fromkeys(words))
    params = command.parameters
    users = [world.users[1], world.users[2], world.users[3], world.users[4]]

    started = time.perf_counter()

    @settings(settings.get_profile("bauta-commands"), max_examples=EXAMPLES + 2 * len(params))
    @given(data=st.data())
    def example(data):
        user = data.draw(st.sampled_from(users), label="user")
        # Mostly at the table where the group's game runs; the free table for what starts one.
        channel = world.channels[data.draw(st.sampled_from([TABLE, TABLE, TABLE, FREE_TABLE]), label="channel")]
        # One example in four gives one option a value outside its declared bounds; the others
        # stay inside, so the deeper code is reached too.
        wild = data.draw(st.sampled_from([None, None, None, *[p.display_name for p in params if bounded(p)]])
                         if any(bounded(p) for p in params) else st.none(), label="out of bounds")
        values = {}
        for param in params:
            if param.required or param.display_name == wild or data.draw(st.booleans(), label=f"give {param.name}"):
                strategy = value_strategy(param, world, vocabulary[param.display_name], param.display_name == wild)
                values[param.display_name] = data.draw(strategy, label=param.display_name)
        loop.run_until_complete(run_one(bot, world, command, user, channel, values, figures))

    example()
    figures.seconds[path] = round(time.perf_counter() - started, 2)


async def run_one(bot, world, command, user, channel, values, figures: Figures) -> None:
    traced = Traced(world, bot)
    before = db_digest(bot.config.db_path)
    interaction = TracedInteraction(world, user, channel, command, values)
    failure = None
    try:
        await asyncio.wait_for(invoke(bot, command, interaction, values), TIMEOUT)
    except TimeoutError:
        failure = f"no answer within {TIMEOUT:.0f} s"
    except Exception as exc:  # noqa: BLE001 - escaped the error handler: the user sees nothing
        failure = repr(exc)[:200]
    finally:
        traced.close()
    changed = db_digest(bot.config.db_path) != before
    judge(figures, command.qualified_name, interaction, traced, changed, values, failure)
    await world_reset(bot, world)


async def world_reset(bot, world) -> None:
    """The free table is free again for the next example (the game a command started there ends)."""
    game = await bot.store.active_game(world.guild.id, FREE_TABLE)
    if game is not None:
        await bot.store.end_game(game)
    world.sent.clear()
