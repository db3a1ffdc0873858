"""The web companion's settings: BAUTA_WEB (where it listens, or off), BAUTA_PUBLIC_URL (its
links' address), BAUTA_WEB_SECRET; and a bot whose port is taken still plays, without pages."""
import socket
from dataclasses import replace

import pytest

from tests.conftest import make_bot
from tests.web.helpers import WEB
from web import links
from web.server import DEFAULT_BIND, WebConfig, parse_bind


def test_where_it_listens_and_how_its_links_are_written():
    assert WebConfig.from_env({}) == WebConfig(DEFAULT_BIND, "http://127.0.0.1:8080")
    assert WebConfig.from_env({"BAUTA_WEB": "off"}).bind is None
    assert WebConfig.from_env({"BAUTA_WEB": "0.0.0.0:9000"}).public_url == "http://127.0.0.1:9000"
    config = WebConfig.from_env({"BAUTA_WEB": ":9001", "BAUTA_PUBLIC_URL": "https://bauta.example.org/",
                                 "BAUTA_WEB_SECRET": "s3cret"})
    assert config.bind == ("127.0.0.1", 9001) and config.public_url == "https://bauta.example.org"
    assert config.secret == b"s3cret" and config.days == links.DAYS == 30
    assert parse_bind("8081") == ("127.0.0.1", 8081) and parse_bind("[::1]:8082") == ("::1", 8082)
    with pytest.raises(SystemExit, match="BAUTA_WEB must be off, host:port or a port"):
        parse_bind("here:port")


def test_a_link_is_signed_and_an_altered_one_refused():
    link = links.Link("abc", 1, 2, 3, links.PLAYER, 2_000)
    token = links.sign(b"k", link)
    assert links.verify(b"k", token, 1_000) == link
    for bad in (token + "x", token.replace(".", ".A", 1), "", "x" * 500, links.sign(b"other", link)):
        with pytest.raises(links.LinkRefused, match="altered"):
            links.verify(b"k", bad, 1_000)
    with pytest.raises(links.LinkRefused, match="expired"):
        links.verify(b"k", token, 2_000)


async def test_a_taken_port_leaves_the_bot_playing_without_its_pages(database):
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    try:
        bot = await make_bot(replace(database.config(), web=replace(WEB, bind=("127.0.0.1", taken.getsockname()[1]))))
        await bot.start_web()
        assert bot.web is None
        await bot.close()
    finally:
        taken.close()
