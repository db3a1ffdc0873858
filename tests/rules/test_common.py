from dataclasses import dataclass, field

import pytest

from i18n.present import Presenter
from rules.common import (Actor, Choose, Deck, Engine, IllegalAction, NotYourTurn, Option, PackError, Problem, Prompt,
                          Rng, Serial, StalePrompt, Where)
from rules.common.packs import load_pack


def test_rng_is_reproducible_and_serialisable():
    a = Rng.from_seed(42)
    first = [a.die(6) for _ in range(5)]
    saved = a.to_dict()
    later = [a.die(6) for _ in range(20)]
    b = Rng.from_dict(saved)
    assert [b.die(6) for _ in range(20)] == later
    again = Rng.from_seed(42)
    assert [again.die(6) for _ in range(5)] == first
    assert Rng.from_seed("table-1").state == Rng.from_seed("table-1").state


def test_rng_faces_are_uniform():
    rng = Rng.from_seed(7)
    counts = [0] * 6
    for _ in range(60000):
        counts[rng.die(6) - 1] += 1
    chi2 = sum((c - 10000) ** 2 / 10000 for c in counts)
    assert chi2 < 20.5  # p = 0.001 with 5 degrees of freedom


@dataclass
class Inner(Serial):
    name: str
    hp: int = 0


@dataclass
class Outer(Serial):
    rng: Rng
    deck: Deck
    inners: list[Inner] = field(default_factory=list)
    by_seat: dict[int, Inner] = field(default_factory=dict)
    maybe: Inner | None = None
    pair: tuple[int, int] = (0, 0)


def test_serial_round_trip():
    state = Outer(rng=Rng.from_seed(1), deck=Deck(cards=["a", "b"]), inners=[Inner("x", 3)],
                  by_seat={2: Inner("y")}, maybe=Inner("z", 1), pair=(1, 2))
    again = Outer.from_json(state.to_json())
    assert again == state
    assert isinstance(again.by_seat[2], Inner) and again.pair == (1, 2)


def test_deck_draw_and_reshuffle():
    rng = Rng.from_seed(3)
    deck = Deck(cards=[str(i) for i in range(10)])
    deck.shuffle(rng)
    drawn = deck.draw(3)
    deck.discard(*drawn)
    assert len(deck) == 7 and len(deck.discards) == 3
    with pytest.raises(IllegalAction):
        deck.draw(8)
    deck.reshuffle_discards(rng)
    assert sorted(deck.cards) == sorted(str(i) for i in range(10))


def test_pack_errors_name_file_entry_and_field():
    schema = {"type": "object", "properties": {"characters": {"type": "array", "items": {
        "type": "object", "required": ["name"], "properties": {"name": {"type": "string"},
                                                               "speed": {"type": "integer"}}}}}}
    text = "characters:\n  - name: Brutus\n    speed: fast\n"
    with pytest.raises(PackError) as err:
        load_pack(text, schema, "sample.yaml")
    [problem] = err.value.problems
    assert problem == Problem("type", Where("sample.yaml", ("characters", 0), "Brutus", "speed"),
                              {"value": "'fast'", "expected": [{"term": "json_integer"}]})
    with pytest.raises(PackError) as err:
        load_pack("a: [", schema, "bad.yaml")
    [problem] = err.value.problems
    assert (problem.code, problem.where, problem.params["line"], problem.params["column"]) == (
        "not_yaml_at", Where("bad.yaml"), 2, 1)


def test_every_schema_validator_becomes_a_code_with_its_parameters():
    schema = {"type": "object", "required": ["name", "cards"], "additionalProperties": False, "properties": {
        "name": {"type": "string", "maxLength": 5, "pattern": "^[a-z]+$"},
        "kind": {"enum": ["a", "b"]}, "copies": {"type": "integer", "minimum": 1, "maximum": 4},
        "tags": {"type": "array", "minItems": 2, "uniqueItems": True},
        "odd": {"not": {"type": "string"}}, "cards": {}}}
    with pytest.raises(PackError) as err:
        validate({"name": "ABCDEFG", "kind": "c", "copies": 9, "tags": ["x", "x"] * 0 + ["x"], "odd": "s",
                  "wings": 1, "horns": 2}, schema, "p.yaml")
    got = sorted((p.code, p.where.field, tuple(sorted(p.params.items()))) for p in err.value.problems)
    assert got == sorted([
        ("required", "", (("property", "cards"),)),
        ("additionalProperties", "", (("count", 2), ("fields", "'wings', 'horns'"))),
        ("maxLength", "name", (("length", 7), ("limit", 5), ("value", "'ABCDEFG'"))),
        ("pattern", "name", (("pattern", "^[a-z]+$"), ("value", "'ABCDEFG'"))),
        ("enum", "kind", (("allowed", "a, b"), ("value", "'c'"))),
        ("maximum", "copies", (("limit", 4), ("value", "9"))),
        ("minItems", "tags", (("count", 1), ("limit", 2))),
        ("invalid", "odd", (("rule", "not"), ("value", "'s'"))),     # no code of its own: named
    ])
    assert all(p.where.file == "p.yaml" and p.where.entry == () for p in err.value.problems)
    # worded for each reader, in the reader's language; a plural by the count of unexpected fields
    en, it = Presenter("en").error(err.value).split("\n"), Presenter("it").error(err.value).split("\n")
    assert "p.yaml: (top level): field 'copies': 9 is greater than the maximum of 4" in en
    assert "p.yaml: (livello principale): campo 'copies': 9 supera il massimo di 4" in it
    assert "p.yaml: unexpected fields 'wings', 'horns'" in en          # the document itself: no entry
    with pytest.raises(PackError) as err:
        validate({"name": "ab", "cards": 1, "wings": 1}, schema, "p.yaml")
    assert Presenter("es").error(err.value) == "p.yaml: campo inesperado 'wings'"


def test_a_pack_error_crosses_a_process_boundary_whole():
    import pickle
    error = PackError(problems=[Problem("type", Where("a.yaml", ("x", 1), "X", "f"), {"value": "1"})], at_least=True)
    error.system = "klash"
    copy = pickle.loads(pickle.dumps(error))
    assert (copy.code, copy.problems, copy.at_least, copy.system) == ("pack_refused", error.problems, True, "klash")
    coded = pickle.loads(pickle.dumps(IllegalAction("no_card_left", register=3)))
    assert (type(coded), coded.code, coded.params) == (IllegalAction, "no_card_left", {"register": 3})


@dataclass
class CoinState(Serial):
    player: str
    rng: Rng
    flips: list[int] = field(default_factory=list)


class Coin(Engine[CoinState]):
    system = "coin"
    state_type = CoinState

    def setup(self, seats, options, seed):
        return CoinState(player=seats[0], rng=Rng.from_seed(seed))

    def pending(self, state):
        return [Prompt(id=f"flip{len(state.flips)}", player=state.player, text="Flip?",
                       options=(Option("go", "Flip"),))]

    def step(self, state, action, actor):
        self.check_choice(state, action, actor)
        state.flips.append(state.rng.die(2))
        return []

    def view_for(self, state, viewer):
        return {"flips": state.flips}


def test_engine_apply_is_pure_and_checks_prompts():
    engine = Coin()
    state = engine.new_game(["u1"], seed=5)
    out = engine.apply(state, Choose("flip0", ("go",)), Actor("u1"))
    assert state.flips == [] and len(out.state.flips) == 1
    with pytest.raises(StalePrompt):
        engine.apply(out.state, Choose("flip0", ("go",)), Actor("u1"))
    with pytest.raises(NotYourTurn):
        engine.apply(state, Choose("flip0", ("go",)), Actor("u2"))
    assert engine.apply(state, Choose("flip0", ("go",)), Actor("u2", gm=True)).state.flips
    with pytest.raises(IllegalAction):
        engine.apply(state, Choose("flip0", ("nope",)), Actor("u1"))
    action = engine.load_action(engine.dump_action(Choose("flip0", ("go",))))
    assert action == Choose("flip0", ("go",))
    assert engine.load_state(engine.dump_state(out.state)) == out.state


def test_default_start_has_no_setup_events():
    started = Coin().start(["u1"], seed=5)
    assert started.events == [] and started.state.player == "u1"


# ------------------------------------------------------------------ untrusted YAML and JSON
# (rules/common/safe_yaml.py and the bounded error list of rules/common/packs.py)
import time  # noqa: E402

from rules.common.packs import parse_yaml as load_yaml, validate  # noqa: E402
from rules.karmic import PACK_SCHEMA, load_pack_text  # noqa: E402
from rules.karmic.character import parse_sheet  # noqa: E402
from tests.support.hostile import bad_entries, billion_laughs, longest_quote, nested, nested_json  # noqa: E402

MAX_DEPTH, MAX_SHOWN = 40, 10   # rules.common.safe_yaml.MAX_DEPTH, rules.common.packs.MAX_SHOWN


def refusal(call, *args) -> tuple[str, float]:
    """What the reader (in English) is told, and how long the refusal took."""
    start = time.perf_counter()
    with pytest.raises(PackError) as err:
        call(*args)
    seconds = time.perf_counter() - start
    return Presenter("en").error(err.value), seconds


def problem_of(call, *args) -> Problem:
    with pytest.raises(PackError) as err:
        call(*args)
    [problem] = err.value.problems
    return problem


def test_billion_laughs_is_refused_at_once_with_a_short_message():
    text = billion_laughs()
    assert len(text.encode()) == 403 and text.count("*") == 72   # 9**9 "lol"s once expanded
    message, seconds = refusal(parse_sheet, text, "laughs.yaml")
    assert message == "laughs.yaml: refused: its aliases expand to more than 200,000 values and characters."
    assert seconds < 0.5
    assert problem_of(parse_sheet, text, "laughs.yaml") == Problem("aliases_too_big", Where("laughs.yaml"),
                                                                  {"limit": 200_000})
    message, seconds = refusal(load_pack_text, text, "laughs.yaml")   # the pack limit is larger, still refused
    assert message == "laughs.yaml: refused: its aliases expand to more than 2,000,000 values and characters."
    assert seconds < 0.5


def test_reasonable_aliases_still_load():
    text = "defaults: &d {skill: sword, force: 2}\nweapons:\n- {<<: *d, name: Sabre}\n- {<<: *d, name: Rapier, edge: 1}\n"
    doc = load_yaml(text, "merge.yaml")
    assert doc["weapons"][1] == {"skill": "sword", "force": 2, "name": "Rapier", "edge": 1}


@pytest.mark.parametrize("text", [nested(3000), nested_json(3000), nested(MAX_DEPTH)])
def test_deep_nesting_is_refused_not_a_recursion_error(text):
    message, seconds = refusal(parse_sheet, text, "deep.yaml")
    assert message == f"deep.yaml: refused: nested more than {MAX_DEPTH} levels deep."
    assert problem_of(parse_sheet, text, "deep.yaml") == Problem("too_deep", Where("deep.yaml"), {"limit": MAX_DEPTH})
    assert seconds < 0.5


def test_an_alias_deepening_its_own_anchor_counts_as_deep():
    text = "a: &a " + "[" * 30 + "]" * 30 + "\nb: " + "[" * 20 + "*a" + "]" * 20 + "\n"
    assert problem_of(load_yaml, text, "deep.yaml") == Problem("aliases_too_deep", Where("deep.yaml"), {"limit": 40})


def test_an_alias_inside_its_own_anchor_is_refused():
    # It passes any schema that allows a free-form object, then makes json.dumps (the game state) fail.
    assert problem_of(load_yaml, "victory: &v {again: *v}\n", "loop.yaml") == Problem("alias_cycle", Where("loop.yaml"),
                                                                                    {"limit": 0})


def test_forty_thousand_bad_entries_give_the_first_ten_and_a_count():
    text = bad_entries(40_000)
    assert 900_000 < len(text.encode()) < 1_000_000
    doc = load_yaml(text, "many.yaml")
    start = time.perf_counter()
    with pytest.raises(PackError) as err:
        validate(doc, PACK_SCHEMA, "many.yaml")
    assert time.perf_counter() - start < 1.0
    problems = err.value.problems
    assert len(problems) == 1_000 and err.value.at_least      # counting stopped there
    assert problems[9] == Problem("type", Where("many.yaml", ("weapons", 9), "w9", "aim"),      # document order
                                  {"value": "'x'", "expected": [{"term": "json_integer"}]})
    said = Presenter("en").error(err.value)
    lines = said.split("\n")
    assert len(lines) == MAX_SHOWN + 1
    assert lines[0] == "many.yaml: weapons[0] (w0): field 'aim': 'x' is not of type integer"
    assert lines[9] == "many.yaml: weapons[9] (w9): field 'aim': 'x' is not of type integer"
    assert lines[-1] == "… and at least 990 more"
    assert len(said) < 1000


def test_problem_lines_quote_a_short_excerpt():
    long_name, long_value = "N" * 5000, "v" * 5000
    message, _ = refusal(load_pack_text, f"weapons:\n- {{name: {long_name}, skill: [{long_value}]}}\n", "x" * 300)
    assert not longest_quote(message, long_name + long_value + "x" * 300, 61)
    assert message.endswith("is not of type text") and len(message) <= 160
    # the games' own checks (unknown weapon names here) are cut and counted the same way
    sheets = "".join(f"- {{name: c{i}, weapons: [{'W' * 3000}{i}]}}\n" for i in range(25))
    message, _ = refusal(load_pack_text, "characters:\n" + sheets, "refs.yaml")
    lines = message.split("\n")
    assert len(lines) == MAX_SHOWN + 1 and lines[-1] == "… and 15 more"
    assert all(len(line) <= 160 for line in lines)


def test_shorten_keeps_both_ends():
    from rules.common.safe_yaml import shorten
    assert shorten("abcdefghij", 7) == "abcd…ij"
    assert shorten("short", 60) == "short"


def test_bad_yaml_and_json_name_the_line_briefly():
    message, _ = refusal(parse_sheet, "name: [unclosed\n" + "x" * 5000, "bad.yaml")
    assert message.startswith("bad.yaml: line ") and len(message) < 200
    assert problem_of(parse_sheet, "name: [unclosed\n" + "x" * 5000, "bad.yaml").code == "not_yaml_at"
    message, _ = refusal(parse_sheet, '{"name": ' + "x" * 5000, "bad.json")
    assert message.startswith("bad.json: line 1: not valid JSON") and len(message) < 200
    problem = problem_of(parse_sheet, '{"name": ' + "x" * 5000, "bad.json")
    assert (problem.code, problem.where, problem.params["line"]) == ("not_json", Where("bad.json"), 1)


# ---------------------------------------------------------------------------- forced choices
def test_settle_applies_a_lone_public_choice_and_says_so():
    from rules.common import FORCED
    from tests.support.duel import Duel

    engine = Duel()
    started = engine.start(["1", "2"], {"fixed_start": True}, seed=3)
    assert [p.kind for p in engine.pending(started.state)] == ["start"]
    settled = engine.settle(started)
    assert settled.state.phase == "play" and settled.state.turn == 0
    forced = [e for e in settled.events if e.kind == FORCED]
    assert len(forced) == 1 and forced[0].audience == "public" and forced[0].data["player"] == "1"
    assert forced[0].data["choice"]["option"]["id"] == "me"
    assert [e.kind for e in settled.events] == [FORCED, "first"]
    # the next decision is a private hand of three cards: asked, not settled
    assert [p.kind for p in engine.pending(settled.state)] == ["play"]


def test_settle_leaves_real_choices_and_private_single_options_alone():
    from rules.common.engine import forced
    from tests.support.duel import Duel

    engine = Duel()
    two = engine.start(["1", "2"], {}, seed=3)
    assert forced(engine, two.state) is None and engine.settle(two).events == []
    state = engine.settle(engine.start(["1", "2"], {"fixed_start": True}, seed=3)).state
    state.hands["1"] = state.hands["1"][:1]              # one card left: still the player's secret to play
    assert len(engine.pending(state)[0].options) == 1 and forced(engine, state) is None


def test_a_short_deck_is_refused_as_a_code_worded_for_the_reader():
    from i18n.present import Presenter
    from rules.common import IllegalAction
    from rules.common.deck import Deck
    with pytest.raises(IllegalAction) as short:
        Deck(["a", "b"]).draw(3)
    assert (short.value.code, short.value.params) == ("deck_short", {"left": 2, "needed": 3})
    assert Presenter("it").error(short.value) == "Restano solo 2 carte da pescare; ne servono 3."
