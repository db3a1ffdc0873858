"""bench/strength.py stamps every result with the config it was played with, and never mixes configs:
a resumed run must play the same levels, and one table counts one config."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from bench import strength

BENCH = Path(strength.__file__)


def _line(config: str, g: int, score: float) -> str:
    return json.dumps({"game": "klash", "a": "normal", "b": "random", "g": g, "seed": 1, "options": {},
                       "score": score, "cpu": 1.0, "times": {"normal": [0.1]}, "memory": {},
                       "config": config, "commit": f"c{config}"}) + "\n"


def _bench(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(BENCH), *args], capture_output=True, text=True, timeout=120)


def test_the_config_hash_changes_with_a_level_and_not_otherwise(monkeypatch):
    before = strength.config_hash("klash")
    assert strength.config_hash("klash") == before and len(before) == 12
    monkeypatch.setitem(strength.LEVELS, "hard", strength.LEVELS["normal"])
    assert strength.config_hash("klash") != before


def test_each_game_has_its_own_config(monkeypatch):
    """A change to one game's bot must not strand the other game's long run."""
    hashes = {name: strength.config_hash(name) for name in ("klash", "klash-skirmish", "carnevale")}
    assert len(set(hashes.values())) == 3
    assert not any("klash" in top for top in strength.SOURCES["carnevale"])
    assert not any("carnevale" in top for top in strength.SOURCES["klash"])
    monkeypatch.setattr(strength, "SKIRMISH_HOURGLASS", 5)
    assert strength.config_hash("klash-skirmish") != hashes["klash-skirmish"]
    assert strength.config_hash("klash") == hashes["klash"] and strength.config_hash("carnevale") == hashes["carnevale"]


def test_a_run_refuses_to_add_to_a_file_of_another_config(tmp_path):
    out = tmp_path / "r.jsonl"
    out.write_text(_line("aaaaaaaaaaaa", 0, 1.0))
    done = _bench("--games", "1", "--only", "klash", "--match", "normal:random", "--out", str(out))
    assert done.returncode != 0
    assert "another config (aaaaaaaaaaaa at commit caaaaaaaaaaaa)" in done.stderr
    assert out.read_text() == _line("aaaaaaaaaaaa", 0, 1.0)        # nothing was played or appended
    other_game = _bench("--games", "1", "--only", "klash-skirmish", "--match", "random:random", "--out", str(out))
    assert other_game.returncode == 0, other_game.stderr            # another game's run goes on beside it
    assert [json.loads(line)["game"] for line in out.read_text().splitlines()] == ["klash", "klash-skirmish"]


def test_the_report_counts_one_config_and_names_it(tmp_path):
    out = tmp_path / "r.jsonl"
    out.write_text(_line("aaaaaaaaaaaa", 0, 1.0) + _line("aaaaaaaaaaaa", 1, 0.0) + _line("bbbbbbbbbbbb", 2, 1.0))
    mixed = _bench("--report", "--out", str(out))
    assert mixed.returncode != 0 and "holds games of 2 configs" in mixed.stderr
    one = _bench("--report", "--out", str(out), "--config", "aaaaaaaaaaaa")
    assert one.returncode == 0, one.stderr
    assert "klash: config aaaaaaaaaaaa, commit caaaaaaaaaaaa" in one.stdout
    row = next(line for line in one.stdout.splitlines() if line.startswith("klash "))
    assert row.split()[4:6] == ["2", "50.0%"]


def test_a_played_game_carries_its_stamp():
    result = strength.one_game("klash-skirmish", "random", "random", 0, 1, False, None, {"config": "x", "commit": "y"})
    assert (result["config"], result["commit"]) == ("x", "y")


def test_carnevale_is_a_mirror_match_cycling_the_factions_every_second_game():
    """Between close levels the default pairing's stronger faction decided nearly every game from
    either seat; in a mirror match only the levels differ."""
    seeds = [1 * 100_000 + g for g in range(10)]
    factions = [strength.mirror(seed)["factions"] for seed in seeds]
    assert all(len(set(f.values())) == 1 and set(f) == set(strength.SEATS) for f in factions)
    names = [f[strength.SEATS[0]] for f in factions]
    assert names[:8] == ["Doctors of the Ospedale"] * 2 + ["The Patricians"] * 2 + ["The Rashaar"] * 2 + ["The Guild"] * 2
    assert names[8:] == ["Doctors of the Ospedale"] * 2          # Independent Characters field no squad of their own
    state = strength.games()["carnevale"][1](seeds[4])
    assert {p.faction for p in state.players.values()} == {"The Rashaar"}


def test_a_game_records_the_trace_of_its_moves_the_same_in_every_run():
    """The trace lets a later checkout show it plays a recorded game move for move the same."""
    first, again, other = (strength.one_game("klash-skirmish", "random", "greedy", g, 1, False) for g in (0, 0, 1))
    assert (first["trace"], first["steps"]) == (again["trace"], again["steps"])
    assert len(first["trace"]) == 16 and first["trace"] != other["trace"]


def _played(out: Path, games: int) -> list[dict]:
    done = _bench("--games", str(games), "--only", "klash-skirmish", "--match", "random:greedy", "--out", str(out))
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in out.read_text().splitlines()]


def test_verify_lets_a_run_go_on_at_a_checkout_that_replays_its_games_move_for_move(tmp_path):
    """A run of many hours outlives the checkout it began at: a later config goes on with it only once
    it has replayed recorded games with the same moves, length and result."""
    out = tmp_path / "r.jsonl"
    older = [{**r, "config": "aaaaaaaaaaaa", "commit": "old"} for r in _played(out, 2)]
    out.write_text("".join(json.dumps(r) + "\n" for r in older))
    refused = _bench("--games", "3", "--only", "klash-skirmish", "--match", "random:greedy", "--out", str(out))
    assert refused.returncode != 0 and "--verify K" in refused.stderr
    shown = _bench("--verify", "2", "--only", "klash-skirmish", "--out", str(out))
    assert shown.returncode == 0, shown.stderr
    assert "plays as config aaaaaaaaaaaa: 2 of its games replayed move for move the same" in shown.stdout
    lines = _played(out, 3)                                          # the run goes on here: game 2 is added
    assert [r.get("g") for r in lines] == [0, 1, None, 2] and lines[2]["replayed"] == [["random", "greedy", 0],
                                                                                       ["random", "greedy", 1]]
    table = _bench("--report", "--out", str(out))
    assert table.returncode == 0, table.stderr
    assert f"config aaaaaaaaaaaa, commit old; = config {lines[3]['config']} at commit" in table.stdout
    row = next(line for line in table.stdout.splitlines() if line.startswith("klash-skirmish "))
    assert row.split()[4] == "3"


def test_verify_refuses_a_checkout_whose_moves_differ(tmp_path):
    out = tmp_path / "r.jsonl"
    older = [{**r, "config": "aaaaaaaaaaaa"} for r in _played(out, 2)]
    older[1]["trace"] = "0" * 16                                     # as if game 1 had been played otherwise
    out.write_text("".join(json.dumps(r) + "\n" for r in older))
    shown = _bench("--verify", "2", "--only", "klash-skirmish", "--out", str(out))
    assert shown.returncode != 0
    assert f"does not play as config aaaaaaaaaaaa: random vs greedy game 1: trace {'0' * 16} -> " in shown.stderr
    assert len(out.read_text().splitlines()) == 2                    # nothing recorded
