"""The lobby speaks data: players as ids, no sentence, no mention; the presenter words it."""
import json

import pytest

from i18n.present import Presenter
from rules.common import Actor, Choose, IllegalAction
from rules.common.lobby import Lobby

ENGINE = Lobby()


def table(**options):
    return ENGINE.new_game(["2"], {"system": "duel", "title": "Duel", "min_players": 2, "max_players": 3, **options})


def choose(state, who, option, gm=False):
    prompt = ENGINE.pending(state)[0]
    return ENGINE.apply(state, Choose(prompt.id, (option,)), Actor(who, gm=gm))


def test_the_table_prompt_and_events_are_data():
    state = table()
    prompt = ENGINE.pending(state)[0]
    assert (prompt.kind, prompt.text, [o.kind for o in prompt.options]) == (
        "lobby", "", ["table_join", "table_leave", "table_start", "table_cancel"])
    assert prompt.args == {"title": "Duel", "count": 1, "max": 3, "min": 2, "players": ["2"], "host_player": "2"}
    joined = choose(state, "3", "join")
    assert [(e.kind, e.data, e.text) for e in joined.events] == [("table_join", {"player": "3"}, "")]
    left = choose(joined.state, "2", "leave")
    assert [(e.kind, e.data) for e in left.events] == [("table_new_host", {"player": "2", "host_player": "3"})]
    started = choose(choose(left.state, "4", "join").state, "3", "start")
    assert [(e.kind, e.data) for e in started.events] == [("table_start", {"title": "Duel", "players": ["3", "4"]})]
    assert "<@" not in json.dumps([e.to_dict() for o in (joined, left, started) for e in o.events])


@pytest.mark.parametrize("who, option, code, params", [
    ("2", "join", "table_already_seated", {}),
    ("3", "leave", "table_not_seated", {}),
    ("2", "start", "table_too_few", {"title": "Duel", "min": 2}),
    ("3", "cancel", "table_host_cancels", {}),
])
def test_refusals_are_codes(who, option, code, params):
    with pytest.raises(IllegalAction) as refused:
        choose(table(), who, option)
    assert (refused.value.code, refused.value.params, refused.value.system) == (code, params, "lobby")


def test_the_table_reads_as_before_in_english():
    say = Presenter("en-GB", "lobby", names={"2": "Alice"})
    state = choose(table(), "3", "join").state
    assert say.prompt(ENGINE.pending(state)[0]) == (
        "**Duel** table (2/3, at least 2): <@2>, <@3>. Join or leave; the host (<@2>) starts when everyone is in.")
    assert [say.option(o) for o in ENGINE.pending(state)[0].options] == ["Join", "Leave", "Start", "Cancel"]
    full = choose(state, "4", "join").state
    with pytest.raises(IllegalAction) as refused:
        choose(full, "5", "join")
    assert say.error(refused.value) == "The table is full (3 players)."
    assert say.fallbacks == 0


def test_the_table_in_italian_and_spanish():
    state = choose(table(), "3", "join").state
    prompt = ENGINE.pending(state)[0]
    it, es = Presenter("it", "lobby"), Presenter("es-419", "lobby")
    assert [it.option(o) for o in prompt.options] == ["Entra", "Esci", "Via", "Annulla"]
    assert it.prompt(prompt).startswith("Tavolo di **Duel** (2/3, almeno 2): <@2>, <@3>.")
    assert es.event(choose(state, "4", "join").events[0]) == "<@4> se sienta a la mesa."
    assert it.fallbacks == es.fallbacks == 0
