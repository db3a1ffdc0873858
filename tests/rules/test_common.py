from dataclasses import dataclass, field
from typing import Optional

import pytest

from rules.common import Actor, Choose, Deck, Engine, IllegalAction, NotYourTurn, Option, PackError, Prompt, Rng, Serial, StalePrompt
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
    maybe: Optional[Inner] = None
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
    assert "sample.yaml: characters[0] (Brutus): field 'speed'" in str(err.value)
    with pytest.raises(PackError, match="not valid YAML"):
        load_pack("a: [", schema, "bad.yaml")


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
