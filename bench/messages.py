"""How many messages a table costs: seeded whole games of each system through the real cogs.

    python bench/messages.py [--seed 7] [--games klash,carnival_zombie,karmic,carnevale]
                             [--language it] [--dump FILE]

`--language` plays in another language (the server's `/gm language` and every player's client);
`--dump` writes every message as its reader last saw it, in order, with its buttons: to read a
whole game as its players did.

Every decision is answered the way a player answers it, by clicking the message that carries the
prompt (in the channel, a DM or the GM channel), with a seeded policy. Printed per game: public
messages posted, edits of public messages, DMs (and the most any one player got), prompt messages,
decisions, and messages per decision; next to the budgets of issue 10 (a Klash! match ≤ 150 public
messages, a Carnival Zombie Night ≤ 40, a Karmic combat round ≤ 6 public messages and ≤ 2 DMs per
fighter, at most one DM per private decision).

A prompt that no message carries (closed DMs aside) is counted as "unreachable": a player could not
have answered it by clicking.

Then what the table costs in requests (issue 40), from the fake world's log of writes
(tests/support/writes.py), per interaction (every click and slash command of the game): channel
writes (posts, edits, deletes in the guild channels; DM writes apart), interaction responses and
followups, bytes uploaded; edits that changed nothing ("no-op") or repeated their message's content;
the interaction that made the most channel writes. And with Discord's per-channel bucket emulated
(5 writes per 5 s; responses and followups outside it) on a virtual clock, the log replayed with
clicks made at a pace (`--fast`, a click every 0.3 s; a Klash! auction also at one pick a second),
no click before its component shows, each request taking `--round-trip` seconds: the time from a
click to its next prompt being visible, p50/p90, and the total time writes waited on the bucket, for
a leaky bucket (5 at once, then one a second) and for Discord's fixed window (5, then a reset 5 s
after the window opened). Computed, not slept.
"""
from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from collections.abc import Callable

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot import BautaBot, Config  # noqa: E402
from cogs.host import systems  # noqa: E402
from rules.common import ANYONE, GM  # noqa: E402
from tests.support.fakes import Sent, World, click, component_of  # noqa: E402
from tests.support.writes import Buckets, WriteLog, percentile, replay  # noqa: E402

BUDGETS = {
    "klash": "≤ 150 public messages per match",
    "carnival_zombie": "≤ 40 public messages per Night",
    "karmic": "≤ 6 public messages per combat round, ≤ 2 DMs per fighter per round",
    "carnevale": "within the framework's budget",
}


@dataclass
class Tally:
    name: str
    decisions: int = 0
    unreachable: int = 0
    phases: Counter = field(default_factory=Counter)     # public messages per phase (Night, round…)
    phase_dms: Counter = field(default_factory=Counter)
    note: str = ""


def prompt_message(world: World, game_id: int, prompt_id: str) -> Sent | None:
    """The newest message whose components answer this prompt (the custom_id names game and prompt)."""
    heads = (f"bauta:b:{game_id}:{prompt_id}:", f"bauta:s:{game_id}:{prompt_id}")
    for message in reversed(world.sent):
        if message.deleted:
            continue
        if message.view is not None and any(cid == heads[1] or cid.startswith(heads[0])
                                            for cid in message.custom_ids()):
            return message
    return None


async def answer(world: World, game_id: int, prompt, option_ids: list[str], user) -> bool:
    """Click the prompt's message as `user`; False when no message carries it."""
    message = prompt_message(world, game_id, prompt.id)
    if message is None:
        return False
    options = [o.id for o in prompt.options]
    index, values = component_of(message, prompt, option_ids[0] if option_ids else None)
    if values is not None:          # a select: every chosen option, by its token
        values = [o if len(o) <= 90 else f"#{options.index(o)}" for o in option_ids]
    await click(world, message, user, index=index, values=values)
    return True


def random_policy(rnd: random.Random, prompt) -> list[str]:
    ids = [o.id for o in prompt.options]
    if prompt.max_choices > 1:
        k = rnd.randint(max(1, prompt.min_choices), min(prompt.max_choices, len(ids)))
        return rnd.sample(ids, k)
    forward = [i for i in ids if i not in ("back", "no", "pass")] or ids
    return [rnd.choice(forward)]


async def drive(bot: BautaBot, world: World, game_id: int, policy: Callable, tally: Tally,
                phase_of: Callable[[Any], str], stop: Callable[[Any], bool], max_steps: int = 3000,
                pick_prompt: Callable | None = None) -> Any:
    """Answer prompts until the game ends or `stop(state)`; counts messages per phase."""
    engine = systems.get((await bot.store.game(game_id)).system).engine
    seen = len(world.sent)
    gm = world.users[world.guild.owner_id]
    state = None
    for _ in range(max_steps):
        record = await bot.store.game(game_id)
        state = engine.load_state(record.state)
        phase = phase_of(state)
        tally.phases[phase] += 0            # a phase that posted nothing is still listed (0 public)
        for message in world.sent[seen:]:
            if message.public:
                tally.phases[phase] += 1
            elif message.where.startswith("dm:"):
                tally.phase_dms[(phase, message.where)] += 1
        seen = len(world.sent)
        if not record.active or stop(state):
            break
        prompts = engine.pending(state)
        if not prompts:
            break
        prompt = pick_prompt(prompts) if pick_prompt else prompts[0]
        if prompt.player == GM:
            user = gm
        elif prompt.player == ANYONE:
            user = world.users[int(record.seats[0])]
        else:
            user = world.users[int(prompt.player)]
        if not await answer(world, game_id, prompt, policy(prompt), user):
            tally.unreachable += 1
            await bot.host.choose(world.interaction(user, world.channels[10]), game_id, prompt.id, policy(prompt))
        world.interactions[-1].stage = getattr(state, "phase", None)     # a Klash! "draft", a Carnival Zombie "sunset"…
        tally.decisions += 1
    return state


# ------------------------------------------------------------------------------ the four games
async def klash(bot, world, rnd) -> Tally:
    from tests.cogs.test_klash import _policy, valid_team

    tally = Tally("klash")
    cog = bot.get_cog("KlashCog")
    await cog.draft.callback(cog, world.interaction(world.users[2], world.channels[10]), opponent=world.users[3])
    game = await bot.store.active_game(1, 10)
    latest: dict[str, Any] = {}

    def phase_of(state):
        latest["state"] = state
        return "match"

    def policy(prompt):
        state = latest["state"]
        if state.phase == "team":
            return [f"p{i}" for i in valid_team(state, prompt.player, 3)]
        return _policy(rnd, prompt)

    def pick(prompts):
        plain = [p for p in prompts if p.kind not in ("hand", "arm_reroll")]
        return plain[0] if plain else prompts[0]

    await drive(bot, world, game.id, policy, tally, phase_of, lambda s: False, pick_prompt=pick)
    return tally


async def carnival_zombie(bot, world, rnd) -> Tally:
    from tests.rules.carnival_zombie.policies import sensible_policy

    tally = Tally("carnival_zombie")
    cog = bot.get_cog("CarnivalZombieCog")
    await cog.start.callback(cog, world.interaction(world.users[2], world.channels[10]), difficulty="easy")
    lobby = world.last("channel:10", with_view=True)
    for user in (world.users[3], world.users[4]):
        await click(world, lobby, user, index=0)
        lobby = world.last("channel:10", with_view=True)
    await click(world, lobby, world.users[2], index=2)
    game = await bot.store.active_game(1, 10)
    pick = sensible_policy(rnd)
    latest: dict[str, Any] = {}

    def phase_of(state):
        latest["state"] = state
        if state.night is not None:
            return f"Night {state.ticket}"
        return f"Day {state.ticket}"

    await drive(bot, world, game.id, lambda p: [pick(latest["state"], p)], tally, phase_of, lambda s: False)
    nights = [k for k in tally.phases if k.startswith("Night")]
    tally.note = "; ".join(f"{k}: {tally.phases[k]} public" for k in nights)
    return tally


async def karmic(bot, world, rnd) -> Tally:
    from tests.cogs.test_karmic import choose_option

    tally = Tally("karmic")
    cog = bot.get_cog("KarmicCog")
    await cog.combat_start.callback(cog, world.interaction(world.users[2], world.channels[10]), opponents="Soldier",
                                    ally=world.users[3], character="Devon", ally_character="Mara",
                                    bot_plays_npcs=True)
    game = await bot.store.active_game(1, 10)

    def phase_of(state):
        return f"round {state.combat.round}" if state.combat else "over"

    await drive(bot, world, game.id, lambda p: [choose_option(p, False)], tally, phase_of,
                lambda s: s.combat is not None and s.combat.round > 3)
    rounds = sorted(k for k in tally.phases if k.startswith("round"))
    fighters = Counter()
    for (phase, _where), n in tally.phase_dms.items():
        fighters[phase] = max(fighters[phase], n)
    tally.note = "; ".join(f"{k}: {tally.phases[k]} public, ≤{fighters[k]} DMs a fighter" for k in rounds)
    return tally


async def carnevale(bot, world, rnd) -> Tally:
    tally = Tally("carnevale")
    cog = bot.get_cog("CarnevaleCog")
    await cog.game_start.callback(cog, world.interaction(world.users[2], world.channels[10]), opponent=world.users[3],
                                  my_faction="The Guild", their_faction="Doctors of the Ospedale", rounds=2)
    game = await bot.store.active_game(1, 10)

    def phase_of(state):
        return f"round {state.round}"

    await drive(bot, world, game.id, lambda p: random_policy(rnd, p), tally, phase_of, lambda s: False)
    return tally


GAMES = {"klash": klash, "carnival_zombie": carnival_zombie, "karmic": karmic, "carnevale": carnevale}


# Seconds between two interactions on the game's clock (a FakeClock): how long players take. It
# decides who is at the table when the turn passes to them (cogs/host/table.py, PRESENT): a player
# who just played is shown their turn, one away is pinged (a new message). The bucket's replay
# paces its clicks apart (`--fast`).
PACE = 20.0


async def run_one(name: str, seed: int, language: str = "en", pace: float = PACE) -> tuple[Tally, World]:
    from clock import source
    with source.use(source.FakeClock()) as clock:
        return await _run_one(name, seed, language, lambda: clock.advance(seconds=pace))


async def _run_one(name: str, seed: int, language: str, tick: Callable[[], Any]) -> tuple[Tally, World]:
    import cogs.host.gamehost

    with tempfile.TemporaryDirectory() as tmp:
        bot = BautaBot(Config(token=None, db_path=str(Path(tmp) / "bench.sqlite3"), dev_guild=None,
                              log_level="ERROR"))
        await bot.prepare()
        world = World(bot)
        made = world.interaction

        def paced(*args: Any, **kwargs: Any) -> Any:       # each interaction `pace` after the one before
            tick()
            return made(*args, **kwargs)
        world.interaction = paced  # type: ignore[method-assign]
        world.locale = {"en": "en-US", "it": "it", "es": "es-ES"}[language]
        if language != "en":
            await bot.store.update_settings(1, locale=world.locale)
        record = world.record

        def record_prompts(where, content=None, **kwargs):
            message = record(where, content, **kwargs)
            message.was_prompt = message.view is not None    # answered prompts lose their view later
            return message
        world.record = record_prompts
        world.channel(10, "table")
        world.channel(11, "gm-room")
        world.user(1, "Owner", admin=True)
        for uid, name_ in ((2, "Alice"), (3, "Bruno"), (4, "Carla")):
            world.user(uid, name_)
        randbits = cogs.host.gamehost.secrets.randbits
        cogs.host.gamehost.secrets.randbits = lambda bits: seed      # the seeded game the host draws
        try:
            tally = await GAMES[name](bot, world, random.Random(seed))
        finally:
            cogs.host.gamehost.secrets.randbits = randbits
            await bot.close()
    return tally, world


def dump(world: World) -> str:
    """Every message as its reader last saw it (deleted ones marked), in the order sent."""
    out = []
    for message in world.sent:
        head = f"--- {message.where} #{message.id}" + (" (deleted)" if message.deleted else "") + (
            f" ({message.edits} edits)" if message.edits else "")
        labels = [text for text in message.texts()[1:] if text]
        out += [head, message.content or "", *(f"  [{label}]" for label in labels)]
    return "\n".join(out) + "\n"


def report(tally: Tally, world: World) -> str:
    public = [m for m in world.sent if m.public]
    dms = [m for m in world.sent if m.where.startswith("dm:")]
    per_player = Counter(m.where for m in dms)
    prompts = [m for m in world.sent if getattr(m, "was_prompt", False)]
    edits = sum(m.edits for m in public)
    per_decision = (len(public) + len(dms)) / max(1, tally.decisions)
    lines = [f"{tally.name:<16} public={len(public):>5}  edits={edits:>5}  DMs={len(dms):>4} "
             f"(max {max(per_player.values(), default=0)} a player)  prompts={len(prompts):>4}  "
             f"decisions={tally.decisions:>4}  messages/decision={per_decision:4.2f}  "
             f"unreachable={tally.unreachable}",
             f"{'':<16} budget: {BUDGETS[tally.name]}"]
    if tally.note:
        lines.append(f"{'':<16} {tally.note}")
    return "\n".join(lines)


# ------------------------------------------------------------------------------ writes (issue 40)
PACES = {   # game -> (label, seconds between clicks, the clicks it times: their stage, None for all)
    "klash": [("auction, fast", None, "draft"), ("auction, a pick a second", 1.0, "draft")],
    "carnival_zombie": [("Sunset, fast", None, "sunset")],
}


def writes_figures(world: World, name: str, fast: float = 0.3, round_trip: float = 0.1) -> dict[str, Any]:
    """The requests of a whole game, per interaction, and the bucket's waits at the game's paces."""
    log: WriteLog = world.writes
    n = max(1, len(world.interactions))
    channel = log.channel()
    worst, most = log.worst()
    figures: dict[str, Any] = {
        "interactions": len(world.interactions),
        "posts": sum(w.kind == "post" for w in channel) / n, "edits": sum(w.kind == "edit" for w in channel) / n,
        "deletes": sum(w.kind == "delete" for w in channel) / n, "channel": len(channel) / n,
        "dm": sum(w.dm for w in log) / n, "responses": sum(w.response for w in log) / n,
        "followups": sum(w.followup for w in log) / n, "bytes": log.uploaded() / n,
        "reuploaded": log.reuploaded() / n,
        "noop": len(log.noops()), "noop_channel": sum(w.channel for w in log.noops()),
        "repeats": len(log.repeats()), "most": most, "worst": getattr(worst, "label", None),
        "worst_stage": getattr(worst, "stage", None),
        "public": sum(1 for m in world.sent if m.public),
    }
    paces = [("whole game, fast", None, None)] + PACES.get(name, [])
    for label, every, stage in paces:
        for kind in ("leaky", "window"):
            timeline = replay(log, world.interactions, every or fast, round_trip=round_trip, buckets=Buckets(kind=kind))
            keep = None if stage is None else (lambda i, s=stage: getattr(i, "stage", None) == s)
            shown = timeline.latencies(keep)
            figures[f"{label}/{kind}"] = (len(shown), percentile(shown, 50), percentile(shown, 90),
                                          max(shown, default=0.0), timeline.waited_for(keep), timeline.lasted)
    figures["paces"] = [(label, every or fast) for label, every, _ in paces]
    return figures


def writes_report(name: str, f: dict[str, Any]) -> str:
    lines = [f"{'':<16} per interaction ({f['interactions']}): channel writes {f['channel']:.2f} "
             f"(posts {f['posts']:.2f}, edits {f['edits']:.2f}, deletes {f['deletes']:.2f}), DM writes "
             f"{f['dm']:.2f}, responses {f['responses']:.2f}, followups {f['followups']:.2f}, "
             f"uploaded {f['bytes'] / 1024:.1f} KiB (the same bytes again {f['reuploaded'] / 1024:.1f} KiB)",
             f"{'':<16} no-op edits {f['noop']} ({f['noop_channel']} in channels), repeated content "
             f"{f['repeats']}; most channel writes by one interaction: {f['most']} "
             f"({f['worst']}, {f['worst_stage']}); public messages {f['public']}"]
    for label, every in f["paces"]:
        cells = []
        for kind in ("leaky", "window"):
            count, p50, p90, top, waited, lasted = f[f"{label}/{kind}"]
            cells.append(f"{kind} p50 {p50:.2f} s p90 {p90:.2f} s max {top:.1f} s, waited {waited:.1f} s"
                         + (f" (the game lasted {lasted:.0f} s)" if label.startswith("whole") else ""))
        lines.append(f"{'':<16} bucket, {label} (a click every {every:g} s, {count} clicks): " + "; ".join(cells))
    return "\n".join(lines)


async def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--language", default="en", choices=("en", "it", "es"))
    parser.add_argument("--dump", help="write every message, as its reader saw it, to this file")
    parser.add_argument("--pace", type=float, default=PACE,
                        help="seconds between interactions on the game's clock (who is at the table)")
    parser.add_argument("--fast", type=float, default=0.3, help="seconds between clicks of a fast table")
    parser.add_argument("--round-trip", type=float, default=0.1, help="seconds each request takes")
    args = parser.parse_args(argv)
    dumped = []
    for name in args.games.split(","):
        tally, world = await run_one(name.strip(), args.seed, args.language, args.pace)
        print(report(tally, world), flush=True)
        print(writes_report(name, writes_figures(world, name.strip(), args.fast, args.round_trip)), flush=True)
        dumped.append(f"===== {name}\n" + dump(world))
    if args.dump:
        Path(args.dump).write_text("".join(dumped), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main()))
