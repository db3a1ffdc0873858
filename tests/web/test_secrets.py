"""Safe by construction (issue 42): no other player's secret is in anything a viewer can fetch.

For a seeded game of each system (Klash! in its match with Event Card hands, Karmic in a combat with
karma hands, Carnival Zombie's "Just a Matter of Time" with its traitor, Carnevale with its Agendas and
magical items, the Duel test game), for every viewer (each seated player, the GM, a spectator) and
every other viewer: the secret strings are the words of what the other's view holds and the viewer
can see nowhere (neither in the public view nor in their own, at any step, nor in any event they may
read), worded as the page words them; none may appear in the viewer's page, table fragment, replay,
any replay step or their live stream. Each system's secrets are shown on their owner's page (the test
would catch a leak). Every board a viewer fetches is the system's render of that viewer's own view.
"""
from __future__ import annotations

import asyncio
import html
import random
import re
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import pytest

from cogs.host import systems
from i18n import supported, t
from rules.common import GM, PUBLIC, Actor, BautaError, Choose
from rules.karmic.advancement import card_text
from rules.klash.core import words as card_words
from tests.rules.karmic.helpers import DEVON, SOLDIER
from tests.support.fakes import World
from tests.web.helpers import ask_link, fetch, fetch_bytes, web_bot
from web import markup, pictures, replay

GUILD, TABLE, OTHER_TABLE = 1, 10, 12
SPECTATOR = 5                       # a member with no seat and no GM rights
TAGS = re.compile(r"<[^>]*>")
KARMA_CARD = re.compile(r"^(10|[2-9JQKA])[SCHD]$")


@pytest.fixture
async def bot(database):
    bot = await web_bot(database)
    yield bot
    await bot.close()


@pytest.fixture
def world(bot):
    world = World(bot, guild_id=GUILD)
    world.channel(TABLE, "table")
    world.channel(11, "gm-room")
    world.channel(OTHER_TABLE, "other-table")
    world.user(1, "Owner", admin=True)        # the GM (an administrator)
    world.user(2, "Alice")
    world.user(3, "Bruno")
    world.user(4, "Carla")
    world.user(SPECTATOR, "Dario")
    yield world
    assert world.mass_pings() == []


# ---------------------------------------------------------------------------- playing a game forward
def _pick(prompt, rnd: random.Random) -> list[str]:
    ids = [o.id for o in prompt.options]
    if prompt.max_choices > 1:
        return rnd.sample(ids, rnd.randint(max(1, prompt.min_choices), min(prompt.max_choices, len(ids))))
    forward = [i for i in ids if i not in ("back", "no", "pass", "concede", "swap", "order")] or ids
    return [rnd.choice(forward)]


async def move(bot, game_id: int, rnd: random.Random) -> bool:
    """One action of the game: a seated player's answer as the page would send it (the host's
    `answer`), else the GM's decision as the GM's click would commit it. False: nothing to do."""
    for _attempt in range(20):
        game = await bot.store.game(game_id)
        engine = systems.get(game.system).engine
        prompts = [p for p in engine.pending(engine.load_state(game.state)) if not p.confirm] if game.active else []
        if not prompts:
            return False
        seated = [p for p in prompts if p.player in game.seats]
        prompt = rnd.choice(seated or prompts)
        options = _pick(prompt, rnd)
        try:
            if prompt.player in game.seats:
                await bot.host.answer(game_id, prompt.id, options, int(prompt.player))
            else:
                new, outcome, before = await bot.host.commit(game, Choose(prompt.id, tuple(options)), Actor(GM, gm=True))
                await bot.host.publish(None, new, outcome.state, outcome.events, before)
            return True
        except BautaError:
            continue
    raise AssertionError("no legal move found")


async def forward(bot, game_id: int, moves: int, seed: int = 1) -> None:
    rnd = random.Random(seed)
    for _ in range(moves):
        if not await move(bot, game_id, rnd):
            return


def at_table(world, user_id: int, channel: int = TABLE):
    return world.interaction(world.users[user_id], world.channels[channel])


# ---------------------------------------------------------------------------- the seeded games
async def duel(bot, world, channel: int = TABLE, seed: int = 7):
    game = await bot.host.start(at_table(world, 2, channel), "duel", ["2", "3"], seed=seed)
    await forward(bot, game.id, 3)
    return game.id


async def klash(bot, world):
    from content import sample_pack
    from rules.klash import ENGINE
    state = ENGINE.new_skirmish(["2", "3"], {"2": [("orc", 20, 60), ("javelin", 30, 80)],
                                             "3": [("dwarf", 100, 60), ("wolf", 60, 95)]}, seed=3, first="2",
                                options={"pack": sample_pack("klash")})
    state.hands = {"2": ["roar", "sand", "drill"], "3": ["water", "roar", "omen"]}
    game = await bot.store.create_game(GUILD, TABLE, "klash", ["2", "3"], ENGINE.dump_state(state), 2,
                                       meta={"names": {"2": "Alice", "3": "Bruno"}})
    await forward(bot, game.id, 4)
    return game.id


async def karmic(bot, world):
    combatants = [{"character": DEVON, "player": "2", "side": "A"},
                  {"character": {**DEVON, "name": "Mara"}, "player": "3", "side": "B"},
                  {"character": SOLDIER, "player": GM, "side": "B"}]
    game = await bot.host.start(at_table(world, 2), "karmic", ["2", "3"], {"mode": "combat", "combatants": combatants},
                                seed=3)
    await forward(bot, game.id, 4)
    return game.id


async def carnival_zombie(bot, world, scenario: str = "jmot"):
    game = await bot.host.start(at_table(world, 2), "carnival_zombie", ["2", "3", "4"],
                                {"scenario": scenario, "difficulty": "easy"}, seed=3)
    await bot.host.answer(game.id, "setup.0", ["start"], 2)
    await forward(bot, game.id, 2)
    return game.id


async def carnevale(bot, world):
    cog = bot.get_cog("CarnevaleCog")
    await cog.game_start.callback(cog, at_table(world, 2), opponent=world.users[3], deploy_all=True)
    game = await bot.store.active_game(GUILD, TABLE)
    await forward(bot, game.id, 4)
    return game.id


# ---------------------------------------------------------------------------- what a viewer may see
def leaves(value: Any, path: tuple = ()):
    """(path, text) of every string, number and key in a view or an event."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield path + (str(k),), str(k)
            yield from leaves(v, path + (str(k),))
    elif isinstance(value, (list, tuple)):
        for i, v in enumerate(value):
            yield from leaves(v, path + (i,))
    elif value is not None and not isinstance(value, bool):
        yield path, str(value)


@dataclass
class Seen:
    """A game at its end and at every step of its replay, as each viewer may see it."""
    game: Any
    states: list[Any]                      # the engine's state after each step (0: the start)
    events: list[list[dict]]               # each step's events (with audiences)
    language: str
    links: dict[str, str] = field(default_factory=dict)     # viewer key → link

    @property
    def engine(self):
        return systems.get(self.game.system).engine

    def views(self, key: str) -> list[dict]:
        return [self.engine.view_for(s, key) for s in self.states]

    def visible(self, key: str) -> set[str]:
        """Every text the viewer `key` reads somewhere: the public view and theirs, at every step,
        and every event of an audience they belong to."""
        audiences = {PUBLIC, key}
        seen = {text for v in self.views(PUBLIC) + self.views(key) for _, text in leaves(v)}
        seen |= {text for step in self.events for e in step if e.get("audience", PUBLIC) in audiences
                 for _, text in leaves(e)}
        return seen


async def seen(bot, game_id: int) -> Seen:
    game = await bot.store.game(game_id)
    engine = systems.get(game.system).engine
    steps = await bot.store.history(game.id)
    timeline = replay.build(steps, game.state)
    states = [engine.load_state(timeline.state(k)) for k in range(timeline.last + 1)]
    language = supported(await bot.host.server_locale(game, None))
    return Seen(game, states, [s.events for s in steps], language)


def worded(found: Seen, path: tuple, text: str, say) -> list[str]:
    """A secret of a view, as the page words it (its summary, an option's label, a narrated line)."""
    system, state = found.game.system, found.states[-1]
    if system == "duel" and path and path[0] in ("hand", "hands") and not isinstance(path[-1], str):
        return [f"- '{text}'"]                          # the default describer's list item
    if system == "klash" and text in state.event_cards:
        return [say.value(card_words(state.event_cards[text], "name"), plain=True)]     # its name, no "SAMPLE " mark
    if system == "karmic" and KARMA_CARD.match(text):
        return [card_text(text)]                        # "10♥", "K♣"
    if system == "carnevale" and text.startswith("agenda_") and "agenda" in path:
        return [say.value({"term": text}, plain=True)]
    if system == "carnevale" and path and path[-1] == "magic_item" and text != "hidden":
        return [t("carnevale.describe.magic", found.language, name="", item=text).strip()]
    if system == "carnival_zombie" and path and path[0] in ("traitor", "sabotage"):
        # the traitor's own line and the GM's, whoever they name
        return [t("carnival_zombie.describe.traitor_you", found.language, sabotage="").split(".")[0],
                t("carnival_zombie.describe.traitor_public", found.language, player="").strip(" ."),
                t("carnival_zombie.describe.traitor_gm", found.language, player="", sabotage="").split(" .")[0].strip()]
    return []


def secrets(found: Seen, viewer: str, other: str, say, now_only: bool = False) -> set[str]:
    """The strings of `other`'s view (at any step, or `now_only`) that `viewer` may read nowhere,
    as the page words them."""
    visible = found.visible(viewer)
    theirs = {p for v in found.views(viewer) + found.views(PUBLIC) for p in leaves(v)}
    out: set[str] = set()
    for view in found.views(other)[-1:] if now_only else found.views(other):
        for path, text in leaves(view):
            if (path, text) in theirs:
                continue
            # a value the viewer reads anywhere is no secret to them; CZ's traitor is a seat (public),
            # its secret is where it stands in the view
            if text in visible and found.game.system != "carnival_zombie":
                continue
            out.update(w for w in worded(found, path, text, say) if w)
    return out


def told(found: Seen, viewer: str, other: str, say) -> set[str]:
    """The narrated lines of the events only `other`'s audience reads (theirs, or the GM's), minus
    any line the viewer reads from an event of their own audiences (the same words are no secret)."""
    audiences = {PUBLIC, viewer}

    def lines(events: list[dict]) -> set[str]:
        return {plain(str(markup.html(line, say.names, say.text("words.someone")))).strip()
                for line in say.events(events)}
    theirs = lines([e for step in found.events for e in step if e.get("audience", PUBLIC) in audiences])
    hidden = lines([e for step in found.events for e in step if e.get("audience", PUBLIC) == other
                    and other not in audiences])
    return {line for line in hidden - theirs if line}


def plain(page: str) -> str:
    return html.unescape(TAGS.sub(" ", page))


def leaks(texts: dict[str, str], secret: set[str]) -> list[tuple[str, str]]:
    return [(where, s) for where, text in texts.items() for s in sorted(secret) if s in text or s in plain(text)]


async def texts_of(link: str, last: int) -> dict[str, str]:
    """Everything of a game a link reads as text: the page, its live part, the replay and each step."""
    urls = {"page": link, "table": link + "/table", "replay": link + "/replay",
            **{f"replay?step={k}": link + f"/replay?step={k}" for k in (0, last)},
            **{f"step/{k}": link + f"/step/{k}" for k in range(last + 1)}}
    out = {}
    for where, url in urls.items():
        status, body, _ = await fetch(url)
        assert status == 200, (where, status)
        out[where] = body
    return out


async def live_after_a_move(bot, found: Seen, rnd: random.Random) -> dict[str, str]:
    """Each viewer's live stream, from before one more move of the game to its first news of it."""
    async with aiohttp.ClientSession() as session:
        responses = {key: await session.get(link + f"/live?v={found.game.version}")
                     for key, link in found.links.items()}
        try:
            for response in responses.values():
                assert response.status == 200
                assert await response.content.readuntil(b"\n\n") == b"retry: 1000\n\n"
            assert await move(bot, found.game.id, rnd)

            async def news(response) -> str:
                return (await asyncio.wait_for(response.content.readuntil(b"\n\n"), 5)).decode()
            said = {key: await news(r) for key, r in responses.items()}
        finally:
            for response in responses.values():
                response.close()
    version = (await bot.store.game(found.game.id)).version
    assert all(text == f"data: {version}\n\n" for text in said.values()), said
    return said


async def links_for(bot, world, found: Seen) -> dict[str, str]:
    links = {seat: await ask_link(bot, world, world.users[int(seat)]) for seat in found.game.seats}
    links[GM] = await ask_link(bot, world, world.users[1])
    await bot.store.set_house_rule(GUILD, found.game.system, systems.WEB_SPECTATORS, True)
    links[PUBLIC] = await ask_link(bot, world, world.users[SPECTATOR])
    return links


TOLD = ("duel", "karmic", "carnival_zombie")         # their games above narrate private events
BUILD = {"klash": klash, "karmic": karmic, "carnival_zombie": carnival_zombie, "carnevale": carnevale, "duel": duel}


@pytest.mark.parametrize("system", sorted(BUILD))
async def test_no_viewer_reads_another_viewers_secret(bot, world, system):
    game_id = await BUILD[system](bot, world)
    found = await seen(bot, game_id)
    found.links = await links_for(bot, world, found)
    live = await live_after_a_move(bot, found, random.Random(2))
    links, found = found.links, await seen(bot, game_id)    # the game after that move: what the pages show now
    found.links = links
    say = bot.host.presenter(found.game, found.language)
    viewers = list(found.links)
    texts = {key: {**await texts_of(link, len(found.events)), "live": live[key]} for key, link in found.links.items()}
    shown_to_owner, told_to_owner, unshown = 0, 0, []
    for viewer in viewers:
        for other in found.game.seats + [GM]:
            if other == viewer:
                continue
            secret = secrets(found, viewer, other, say)
            assert leaks(texts[viewer], secret) == [], (viewer, other)
            if other in found.game.seats:
                now = secrets(found, viewer, other, say, now_only=True)
                mine = [s for s in now if s in plain(texts[other]["page"])]
                shown_to_owner += bool(mine)
                if now and not mine:
                    unshown.append((viewer, other, sorted(now)))
            # and what the events of other audiences say, as the log and the replay narrate them
            hidden = told(found, viewer, other, say)
            assert leaks(texts[viewer], hidden) == [], (viewer, other)
            told_to_owner += bool(hidden) and bool(leaks(texts[other], hidden))
    # the secrets are real words of the pages: their owners read them (so a leak would be caught)
    assert shown_to_owner, f"no secret of {system} found on its owner's page"
    assert unshown == []
    if system in TOLD:        # a private event is narrated to its audience (the test would catch it told to others)
        assert told_to_owner, f"no private event of {system} narrated on its audience's page"


@pytest.mark.parametrize("system", sorted(BUILD))
async def test_every_board_is_the_render_of_the_viewers_own_view(bot, world, system):
    game_id = await BUILD[system](bot, world)
    found = await seen(bot, game_id)
    found.links = await links_for(bot, world, found)
    say = bot.host.presenter(found.game, found.language)
    last = len(found.events)
    for key, link in found.links.items():
        for query, state in (("?s=1", found.states[-1]), (f"?s=1&step={last - 1}", found.states[last - 1])):
            status, png, headers = await fetch_bytes(link + "/board.png" + query)
            if systems.get(system).render is None:        # the Duel draws no board
                assert status == 404
                continue
            assert status == 200 and headers["Content-Type"] == "image/png"
            assert png == pictures.draw(system, found.engine.view_for(state, key), say, 1), (key, query)


async def test_carnival_zombie_without_a_traitor_has_no_secret(bot, world):
    """Carnival Zombie keeps nothing private but the traitor of "Just a Matter of Time": in any other
    scenario every viewer's view is the public one."""
    found = await seen(bot, await carnival_zombie(bot, world, scenario="campaign"))
    for state in found.states:
        public = {**found.engine.view_for(state, PUBLIC), "viewer": None}
        for key in [*found.game.seats, GM]:
            assert {**found.engine.view_for(state, key), "viewer": None} == public


# ---------------------------------------------------------------------------- who gets which view
async def test_a_spectator_needs_the_servers_leave_and_then_sees_the_public_view(bot, world):
    game_id = await duel(bot, world)
    cog = bot.get_cog("GameCog")
    await cog.web.callback(cog, at_table(world, SPECTATOR))
    said = [m for m in world.sent if m.ephemeral][-1].content
    assert said == t("web.not_allowed", "en", system="duel") and "http" not in said
    await bot.store.set_house_rule(GUILD, "duel", systems.WEB_SPECTATORS, True)
    link = await ask_link(bot, world, world.users[SPECTATOR])
    found = await seen(bot, game_id)
    say = bot.host.presenter(found.game, found.language)
    _, page, _ = await fetch(link)
    assert 'class="role">spectator<' in page
    public = systems.get("duel").describe(found.engine.view_for(found.states[-1], PUBLIC), PUBLIC)
    assert str(markup.html(public, say.names)) in page
    assert 'name="option"' not in page                   # nothing to answer
    for seat in found.game.seats:
        assert not leaks({"page": page}, secrets(found, PUBLIC, seat, say))


async def test_a_gm_gets_the_gm_view(bot, world):
    game_id = await duel(bot, world)
    found = await seen(bot, game_id)
    say = bot.host.presenter(found.game, found.language)
    _, page, _ = await fetch(await ask_link(bot, world, world.users[1]))
    assert 'class="role">GM<' in page
    view = found.engine.view_for(found.states[-1], GM)
    assert str(markup.html(systems.get("duel").describe(view, GM), say.names)) in page
    for seat in found.game.seats:                       # both hands
        assert all(f"- '{card}'" in plain(page) for card in view["hands"][seat])


async def test_a_link_to_one_game_opens_no_other(bot, world):
    mine = await duel(bot, world)
    other = await duel(bot, world, channel=OTHER_TABLE, seed=8)
    link = await ask_link(bot, world, world.users[2])
    version = (await bot.store.game(other)).version
    assert link.endswith(f"/{mine}")
    elsewhere = link[: -len(str(mine))] + str(other)
    for path in ("", "/table", "/replay", "/step/1", "/live"):
        status, page, _ = await fetch(elsewhere + path)
        assert status == 403 and 'data-code="altered"' in page, path
    status, png, _ = await fetch_bytes(elsewhere + "/board.png?s=1")
    assert status == 403 and b"<svg" not in png and not png.startswith(b"\x89PNG")
    status, page, _ = await fetch(elsewhere + "/answer", "POST", data={"prompt": "play", "option": "1"})
    assert status == 403
    assert (await bot.store.game(other)).version == version         # the answer changed nothing there


async def test_another_games_board_is_refused_to_a_player_link(bot, world):
    """A drawn game (Klash!) and another one: the board of the other is 403, never its picture."""
    mine = await klash(bot, world)
    other = await duel(bot, world, channel=OTHER_TABLE)
    link = await ask_link(bot, world, world.users[2])
    assert (await fetch_bytes(link + "/board.png?s=1"))[0] == 200
    status, body, _ = await fetch_bytes(link[: -len(str(mine))] + str(other) + "/board.png?s=1")
    assert status == 403 and not body.startswith(b"\x89PNG")


# ---------------------------------------------------------------------------- hostile names
HOSTILE = {2: "<script>alert(1)</script>", 3: '"><img src=x onerror=alert(1)>', 4: "javascript:alert(1)"}


async def test_hostile_names_are_only_ever_text(bot, world):
    for user_id, name in HOSTILE.items():
        world.users[user_id].name = world.users[user_id].display_name = name
    game = await bot.host.start(at_table(world, 2), "carnival_zombie", ["2", "3", "4"],
                                {"scenario": "campaign", "difficulty": "easy"}, seed=3)
    await bot.host.answer(game.id, "setup.0", ["start"], 2)
    await forward(bot, game.id, 2)
    record = await bot.store.game(game.id)
    assert set(record.meta["names"].values()) >= set(HOSTILE.values())
    for user_id in HOSTILE:
        link = await ask_link(bot, world, world.users[user_id])
        for where in (link, link + "/table", link + "/replay", link + "/step/1"):
            status, page, _ = await fetch(where)
            assert status == 200
            assert "<script>alert" not in page and "<img src=x" not in page and "onerror=alert(1)>" not in page
            assert 'href="javascript:' not in page.lower() and "src=\"javascript:" not in page.lower()
        # and they are there, as text
        _, page, _ = await fetch(link)
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page and "javascript:alert(1)" in page
        assert "&#34;&gt;&lt;img src=x onerror=alert(1)&gt;" in page        # markupsafe's escape of '"'
