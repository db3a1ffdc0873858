"""Undo history as reverse deltas: small per action, exact over a whole seeded match."""
import functools
import json
import sqlite3
import zlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from db import delta
from db.store import MIGRATIONS, SNAPSHOT_EVERY, Store, _split_sql
from rules.klash import ENGINE
from tests.rules.klash.helpers import SAMPLE, random_game
from tests.support.matches import SYSTEMS, engine, random_match

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=3), inner, max_size=5),
    max_leaves=30)


def same_json(a, b) -> bool:
    """Equal as JSON text: 1, 1.0 and true are three different values."""
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


@settings(max_examples=300, deadline=None)
@given(json_values, json_values)
def test_a_delta_turns_the_new_value_back_into_the_old_one_exactly(new, old):
    change = delta.diff(new, old)
    assert same_json(delta.patch(new, change), old)
    assert (change is None) == same_json(new, old)
    kind, stored = delta.unpack(delta.pack(delta.DELTA, change))
    assert kind == delta.DELTA and same_json(delta.patch(new, stored), old)


def test_a_small_delta_is_stored_plain_and_a_large_one_compressed_and_both_read_back():
    """zlib's set-up costs more than a small action's whole commit, so a delta under PLAIN_UNDER
    bytes is kept as JSON ("d"); a large one (a snapshot) is compressed ("S"); rows written by the
    previous version (every delta compressed, "D") still read."""
    small = ["{", {"turn": ["=", 3]}, []]
    big = {"board": [{"model": f"orc {i}", "wounds": i % 4} for i in range(200)]}
    assert delta.pack(delta.DELTA, small) == b'd["{",{"turn":["=",3]},[]]'
    packed = delta.pack(delta.SNAPSHOT, big)
    assert packed[:1] == b"S" and len(packed) < len(json.dumps(big)) // 4
    assert delta.unpack(delta.pack(delta.DELTA, small)) == (delta.DELTA, small)
    assert delta.unpack(packed) == (delta.SNAPSHOT, big)
    old_row = b"D" + zlib.compress(json.dumps(small, separators=(",", ":")).encode(), 6)
    assert delta.unpack(old_row) == (delta.DELTA, small)


def test_delta_keeps_json_types_apart():
    assert delta.patch({"a": 1}, delta.diff({"a": 1}, {"a": True})) == {"a": True}
    assert type(delta.patch([1], delta.diff([1], [1.0]))[0]) is float


@functools.cache
def klash_match(seed=3):
    """A whole seeded random Klash! match: the state after each action, as stored JSON."""
    _, _, log = random_game(seed, keep_events=True)
    return [ENGINE.dump_state(ENGINE.new_game(["alice", "bob"], SAMPLE, seed=seed))] + [ENGINE.dump_state(s) for s, _ in log]


async def test_undo_walks_back_every_step_of_a_seeded_match_exactly(store):
    states = klash_match()
    assert len(states) > 2 * SNAPSHOT_EVERY              # deltas and snapshots both on the way
    game = await store.create_game(1, 10, "klash", ["alice", "bob"], states[0], 2)
    for n, state in enumerate(states[1:], 1):
        game = await store.commit_action(game, "alice", {"step": n}, state, [])
    sizes = await store._all("SELECT state_before, undo_data FROM game_actions WHERE game_id = ?", (game.id,))
    per_action = sum(len(r["state_before"]) + len(bytes(r["undo_data"])) for r in sizes) / len(sizes)
    whole = sum(len(json.dumps(s, separators=(",", ":"))) for s in states[:-1]) / (len(states) - 1)
    print(f"klash match: {len(states) - 1} actions, {per_action:.0f} B of undo data per action "
          f"(whole states before: {whole:.0f} B)")
    assert per_action <= 1024 and whole > 10 * per_action
    for expected in reversed(states[:-1]):
        game, undone = await store.undo(game)
        assert undone == 1 and same_json(game.state, expected)


async def test_undo_of_several_steps_at_once_and_after_new_actions(store):
    states = klash_match(5)[:130]
    game = await store.create_game(1, 10, "klash", ["a", "b"], states[0], 2)
    for state in states[1:101]:
        game = await store.commit_action(game, "a", {}, state, [])
    game, _ = await store.undo(game, 40)                  # across the snapshot at seq 50
    assert same_json(game.state, states[60])
    for state in states[61:130]:                          # the same match goes on from there
        game = await store.commit_action(game, "a", {}, state, [])
    game, undone = await store.undo(game, 70)             # across live rows only, undone ones skipped
    assert undone == 70 and same_json(game.state, states[59])


async def test_an_old_database_keeps_its_whole_states_readable_for_undo(tmp_path):
    """Rows written before migration 004 hold state_before; undo still uses them, then new rows
    hold deltas, and both kinds undo in one go."""
    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
        for number in ("001_initial.sql", "002_reminders.sql"):
            for statement in _split_sql((MIGRATIONS / number).read_text()):
                conn.execute(statement)
        conn.execute("INSERT INTO schema_version VALUES (2)")
        conn.execute("INSERT INTO games (id, guild_id, channel_id, system, seats, state, version, created_by, "
                     "created_at, updated_at) VALUES (1, 1, 10, 'duel', '[]', '{\"n\": 2}', 2, 2, 'x', 'x')")
        for seq, before in ((1, {"n": 0}), (2, {"n": 1})):
            conn.execute("INSERT INTO game_actions (game_id, seq, actor, action, state_before, version_before, "
                         "created_at) VALUES (1, ?, 'a', '{}', ?, ?, 'x')", (seq, json.dumps(before), seq - 1))
    store = await Store.open(path)
    try:
        game = await store.game(1)
        game = await store.commit_action(game, "a", {}, {"n": 3}, [])
        game, undone = await store.undo(game, 2)
        assert undone == 2 and game.state == {"n": 1}
        game, _ = await store.undo(game)
        assert game.state == {"n": 0}
    finally:
        await store.close()


@pytest.mark.parametrize("system", SYSTEMS)
async def test_each_game_stores_at_most_1_kb_of_undo_data_per_action(tmp_path, system):
    """Whole random matches (the bytes are the same on both backends: SQLite only here)."""
    first, steps = random_match(system, seed=2, max_actions=3000)
    store = await Store.open(tmp_path / "b.sqlite3")
    game = await store.create_game(1, 10, system, ["2", "3"], first, 2)
    states = [first]
    for actor, action, state in steps:
        game = await store.commit_action(game, actor, action, state, [])
        states.append(state)
    rows = await store._all("SELECT state_before, undo_data FROM game_actions WHERE game_id = ?", (game.id,))
    per_action = sum(len(r["state_before"]) + len(bytes(r["undo_data"])) for r in rows) / len(rows)
    whole = sum(len(json.dumps(s, separators=(",", ":"))) for s in states[:-1]) / len(rows)
    print(f"{system}: {len(rows)} actions, {per_action:.0f} B per action (whole state before: {whole:.0f} B)")
    eng = engine(system)
    assert eng.is_over(eng.load_state(states[-1]))           # a whole match, to its end
    assert len(rows) >= 50 and per_action <= 1024
    game, undone = await store.undo(game, len(rows))
    assert undone == len(rows) and same_json(game.state, first)
    await store.close()
