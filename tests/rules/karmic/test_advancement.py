"""Advancement as engine actions (§6.3, §6.4, §6.8): T15 and T18 numbers through `ENGINE.apply`,
the RNG in the state (the same actions on the same state draw the same cards), GM-only steps,
a skill improving at most once per adventure, the distinction cap, and kind + data events."""
import pytest

from rules.common import GM, Actor, IllegalAction, NotYourTurn
from rules.karmic import ENGINE
from rules.karmic.advancement import CloseAdvancement, Effort, Improve, KarmaAward, TakeDistinction
from rules.karmic.character import Character, character_from_sheet

GM_ACTOR = Actor("1", gm=True)
OWNER = Actor("2")


def session(seed: int = 7, **house):
    return ENGINE.start(["1"], {"mode": "advance", "house_rules": house}, seed).state


def devon(*top: str, **skills) -> dict:
    char = character_from_sheet({"name": "Devon", "attributes": {"might": 1},
                                 "skills": {"tracking": 2, "sword": 3, **skills}})
    char.deck.stack(list(top))
    return char.to_dict()


def apply(state, action, actor=GM_ACTOR):
    outcome = ENGINE.apply(state, action, actor)
    return outcome.state, outcome.events


def sheet(state, key="d") -> Character:
    return state.characters[key]


def test_effort_hard_work_draws_once_per_skill_and_saves_the_rest():
    """T15 numbers: hard work = 3 checks; tracking 2 listed twice: 5♠ beats 2 → 3, the second try
    is not drawn (a skill improves at most once per adventure); the third check is saved."""
    state, events = apply(session(), Effort("d", "hard", ("tracking", "tracking"), character=devon("5S"),
                                            player="2"))
    assert sheet(state).skills["tracking"] == 3 and sheet(state).saved_checks == 1
    assert [e.kind for e in events] == ["advance_effort", "advance_draw", "advance_once", "advance_saved"]
    draw = events[1].data
    assert (draw["what"], draw["chain"], draw["total"], draw["level"], draw["new_level"], draw["success"]) == \
        ({"term": "skill.tracking"}, ["5♠"], 5, 2, 3, True)
    assert events[0].data["n"] == 3 and events[3].data["n"] == 1
    assert "5S" in sheet(state).deck.discards


def test_a_failed_first_try_leaves_the_second_one_its_draw():
    state, events = apply(session(), Effort("d", "hard", ("tracking", "tracking"), character=devon("2S", "4S"),
                                            player="2"))
    draws = [e.data for e in events if e.kind == "advance_draw"]
    assert [(d["chain"], d["success"]) for d in draws] == [(["2♠"], False), (["4♠"], True)]
    assert sheet(state).skills["tracking"] == 3


def test_eight_checks_buy_an_attribute_attempt_and_too_few_are_refused():
    state, events = apply(session(), Effort("d", "long_and_tiring", attribute="might", character=devon("3S"),
                                            player="2"))
    assert sheet(state).attributes["might"] == 2 and sheet(state).saved_checks == 0
    assert events[1].data["what"] == {"term": "attribute.might"} and events[1].data["total"] == 3
    with pytest.raises(IllegalAction) as exc:
        apply(state, Effort("d", "some", attribute="might"))
    assert (exc.value.code, exc.value.params, exc.value.system) == ("attribute_costs_8", {"checks": 1}, "karmic")


def test_a_teachers_extra_card_keeps_the_best():
    state, events = apply(session(), Improve("d", "sword", teacher=True, character=devon("2S", "9S"), player="2"))
    assert sheet(state).skills["sword"] == 4
    assert (events[0].data["chain"], events[0].data["others"]) == (["9♠"], ["2♠"])


def test_the_rng_lives_in_the_state_so_a_replay_draws_the_same_cards():
    first = apply(session(seed=11), Effort("d", "very_difficult", ("sword",) * 6, character=devon(), player="2"))
    again = apply(session(seed=11), Effort("d", "very_difficult", ("sword",) * 6, character=devon(), player="2"))
    assert [e.data for e in first[1]] == [e.data for e in again[1]]
    assert first[0].characters["d"].to_dict() == again[0].characters["d"].to_dict()


def test_only_the_gm_awards_and_improves_and_only_the_owner_takes_a_distinction():
    state = session()
    with pytest.raises(NotYourTurn) as exc:
        apply(state, KarmaAward("d", 4, ("AH", "3H"), "remove_negative", character=devon(), player="2"), OWNER)
    assert exc.value.code == "gm_only"
    with pytest.raises(NotYourTurn) as exc:
        apply(state, TakeDistinction("d", "Blahblah", -4, ("AS", "3S"), "remove_positive", character=devon(),
                                     player="2"), Actor("3"))
    assert (exc.value.code, exc.value.params) == ("not_your_character", {"name": "Devon"})
    assert state.characters == {}                   # a refused step brings no one in
    # the GM may take one for a player too
    state, _ = apply(state, TakeDistinction("d", "Blahblah", -4, ("4S",), "remove_positive", character=devon(),
                                            player="2"))
    assert [d.name for d in sheet(state).distinctions] == ["Blahblah"]


def test_T18_a_minus_4_distinction_paid_exactly_and_the_cap_and_duplicates_refused():
    state, events = apply(session(distinction_cap=5), TakeDistinction(
        "d", "Blahblah", -4, ("AS", "3S"), "remove_positive", character=devon(), player="2"), OWNER)
    deck = sheet(state).deck
    assert {"AS", "3S"} <= set(deck.sideboard) and len(deck.cards) == 42
    assert events[0].kind == "advance_distinction" and events[0].data == {
        "name": "Devon", "distinction": "Blahblah", "value": -4, "cards": ["A♠", "3♠"], "deck": 42, "sideboard": 12}
    with pytest.raises(IllegalAction) as exc:
        apply(state, TakeDistinction("d", "blahblah", -4, ("4S",), "remove_positive"), OWNER)
    assert exc.value.code == "has_distinction"
    with pytest.raises(IllegalAction) as exc:       # −4 −2 = −6 past the GM's cap of −5
        apply(state, TakeDistinction("d", "Empathic", -2, ("2S",), "remove_positive"), OWNER)
    assert (exc.value.code, exc.value.params) == ("distinction_cap", {"total": -6, "cap": 5})
    with pytest.raises(IllegalAction) as exc:
        apply(state, TakeDistinction("d", "Lucky", 2, ("5H",), "remove_negative"), OWNER)
    assert (exc.value.code, exc.value.params) == ("cards_do_not_add_up", {"total": 5, "want": 2})


def test_a_karma_award_reaches_the_owner_privately_and_the_table_and_close_ends_the_session():
    state, events = apply(session(), KarmaAward("d", 4, ("ah", "3h"), "remove_negative", character=devon(),
                                                player="2"))
    assert [(e.kind, e.audience) for e in events] == [("advance_karma", "2")]
    assert events[0].data["cards"] == ["A♥", "3♥"] and events[0].data["sideboard"] == 12
    assert ENGINE.pending(state) == []
    state, events = apply(state, CloseAdvancement())
    assert state.over and events[0].data == {"names": ["Devon"]}


def test_an_action_is_not_changed_by_being_applied():
    action = KarmaAward("d", 4, ("AH", "3H"), "remove_negative", character=devon(), player="2")
    logged = ENGINE.dump_action(action)
    apply(session(), action)
    assert ENGINE.dump_action(action) == logged


def test_actions_round_trip_through_the_log():
    action = Effort("d", "hard", ("tracking",), "might", character=devon(), player=GM)
    assert ENGINE.load_action(ENGINE.dump_action(action)) == action
