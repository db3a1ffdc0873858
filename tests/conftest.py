import pytest

import content
from clock.source import FakeClock, use
from bot import BautaBot, Config
from tests.support.duel import register as register_duel
from tests.support.fakes import World
from tests.support.stores import Database, postgres_required


content.install()      # the bundled sample packs, as the bot's start-up hands them to the rules


def make_config(path) -> Config:
    return Config(token=None, db_path=str(path), dev_guild=None, log_level="WARNING")


async def make_bot(db_path_or_config) -> BautaBot:
    config = db_path_or_config if isinstance(db_path_or_config, Config) else make_config(db_path_or_config)
    bot = BautaBot(config)
    await bot.prepare()
    register_duel()
    return bot


@pytest.fixture
def backend() -> str:
    """SQLite for every test; a module that must also run on PostgreSQL overrides this fixture
    with `params=BACKENDS` (tests/support/stores.py)."""
    return "sqlite"


@pytest.fixture
async def database(backend, tmp_path):
    database = Database(backend, tmp_path)
    yield database
    await database.drop()


@pytest.fixture
async def bot(database):
    bot = await make_bot(database.config())
    yield bot
    await bot.close()


@pytest.fixture
def world(bot):
    world = World(bot)
    world.channel(10, "table")
    world.channel(11, "gm-room")
    world.user(1, "Owner", admin=True)
    world.user(2, "Alice")
    world.user(3, "Bruno")
    world.user(4, "Carla")
    yield world
    # Whatever the test did, no message the bot sent could have pinged everyone, here or a role,
    # and none was longer than Discord takes.
    assert world.mass_pings() == []
    assert [m for m in world.sent if len(m.content or "") > 2000] == []


@pytest.fixture
def fake_clock():
    """The one clock (clock/source.py) stopped at Monday 2026-01-05 12:00 UTC, moved by the test."""
    with use(FakeClock()) as clock:
        yield clock


@pytest.fixture
def seed(monkeypatch):
    """Fix the game seed the host draws, so a test plays the same game every time: `seed(7)`."""
    def use(value: int):
        monkeypatch.setattr("cogs.host.gamehost.secrets.randbits", lambda bits: value)
    use(5)
    return use


def pytest_sessionfinish(session, exitstatus):
    """In CI every test must run: a skipped one (a missing server, a platform check) fails the
    run, so a green CI never hides an untested part."""
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    skipped = reporter.stats.get("skipped", []) if reporter is not None else []
    if skipped and postgres_required() and exitstatus == 0:
        reporter.write_line(f"{len(skipped)} test(s) skipped: in CI every test must run", red=True)
        session.exitstatus = 1
