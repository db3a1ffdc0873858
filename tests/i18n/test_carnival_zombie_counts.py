"""Carnival Zombie's counts reach the presenter as numbers with the names they count ({"term": "cubes",
"n": 2, "name": "Vermin"}): each language words them (the rules once wrote "2 Vermin" themselves)."""
from __future__ import annotations

import pytest

from i18n.present import Presenter
from rules.common import Event

ENTRANCE = Event("entrance", {"drawn": {"V": 2, "B": 1}, "survivors": 1, "paranoia": 0,
                              "infected": [{"term": "cubes", "n": 1, "name": "Barghest"},
                                           {"term": "cubes", "n": 2, "name": "Vermin"}]})
BARRICADES = Event("barricades", {"storage": 4, "placed": {"N1": 3, "E2": 1},
                                  "caves": [{"term": "cave_count", "cave": "N1", "n": 3},
                                            {"term": "cave_count", "cave": "E2", "n": 1}]})


@pytest.mark.parametrize("lang,entrance,barricades", [
    ("en", "From the Abyss: 1 Barghest, 2 Vermin; Survivors 1, Paranoia 0.", "Barricades: N1 3, E2 1 (Storage 4)."),
    ("it", "Dall'Abisso: 1 Barghest, 2 Vermin; Sopravvissuti 1, Paranoia 0.", None),
    ("es", "Del Abismo: 1 Barghest, 2 Vermin; Supervivientes 1, Paranoia 0.", "Barricadas: N1 3, E2 1 (Almacén 4)."),
])
def test_cube_counts_and_barricades_are_worded_by_the_reader_s_catalogue(lang, entrance, barricades):
    say = Presenter(lang, "carnival_zombie")
    assert say.event(ENTRANCE) == entrance
    if barricades is not None:
        assert say.event(BARRICADES) == barricades
    assert say.fallbacks == 0


def test_the_rules_send_the_entrance_s_counts_as_data():
    """A seeded game's first Entrance from the Abyss: each Infected count is a term with its number,
    and the counts are the cubes drawn."""
    from rules.carnival_zombie import ENGINE
    from rules.common import Actor, Choose, Rng
    state, rng = ENGINE.new_game(["u1"], {}, seed=3), Rng.from_seed(3)
    for _ in range(3000):
        prompt = ENGINE.pending(state)[0]
        option = prompt.options[rng.below(len(prompt.options))]
        outcome = ENGINE.apply(state, Choose(prompt.id, (option.id,)), Actor(prompt.player, seated=True))
        state = outcome.state
        entrance = next((e for e in outcome.events if e.kind == "entrance"), None)
        if entrance is not None:
            break
    else:
        raise AssertionError("no Entrance in 3000 steps")
    counts = entrance.data["infected"]
    assert counts and all(set(c) == {"term", "n", "name"} and c["term"] == "cubes" and type(c["n"]) is int
                          for c in counts), counts
    drawn = entrance.data["drawn"]
    assert sorted(c["n"] for c in counts) == sorted(n for k, n in drawn.items() if k not in ("S", "P") and n)
