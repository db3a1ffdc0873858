"""A game ended by force (`/game end`) or by the GM: every card still in play goes back to its
owner's discard pile (`settle_cards`), so the decks written back lose no card."""
from rules.common import GM, Actor
from rules.karmic import ENGINE, settle_cards
from rules.karmic.actions import EndCombat, PlayCard

from .helpers import DEVON, GM_ACTOR, SOLDIER, declare, fight
from .test_checks import BARKEEP, ENRIS, check


def pile(deck) -> list[str]:
    return sorted(deck.cards + deck.discards)


def assert_nothing_lost(state, size_own: int, size_world: int) -> None:
    own, world = state.characters["c1"].deck, state.world
    assert len(pile(own)) == len(set(pile(own))) == size_own
    assert len(pile(world)) == len(set(pile(world))) == size_world


def test_a_combat_ended_by_force_during_initiative_returns_the_initiative_cards():
    state, _ = fight(DEVON, SOLDIER, seed=3)
    assert state.phase == "initiative" and state.combat.init_hands["c1"]
    out_own = len(pile(state.characters["c1"].deck))
    assert out_own < 44                                             # a card is in the initiative hand
    settle_cards(state)
    assert_nothing_lost(state, 44, 42)
    assert state.combat.init_hands == {} and state.combat.init_plays == {}
    before = (pile(state.characters["c1"].deck), pile(state.world))
    settle_cards(state)                                             # twice: nothing more
    assert (pile(state.characters["c1"].deck), pile(state.world)) == before


def test_a_combat_ended_by_force_mid_round_returns_hands_and_face_down_cards():
    state, _ = fight(DEVON, SOLDIER, stack={"c1": ["2S", "KS", "2H", "10S"], "c2": ["4H", "QH", "5S"]})
    assert state.phase == "declare"
    hand = list(state.combat.fighters["c1"].hand)
    state, _ = declare(state, "atk", hand[0])                       # one card face down in register 1
    assert any(d.card == hand[0] and not d.revealed for r in state.combat.registers for d in r.decls)
    settle_cards(state)
    assert_nothing_lost(state, 44, 42)
    assert hand[0] in state.characters["c1"].deck.discards
    assert all(not f.hand for f in state.combat.fighters.values())


def test_the_gm_ending_a_combat_during_initiative_loses_no_card():
    state, _ = fight(DEVON, SOLDIER, seed=3)
    assert state.phase == "initiative"
    out = ENGINE.apply(state, EndCombat("They part."), GM_ACTOR)
    assert out.state.over
    assert_nothing_lost(out.state, 44, 42)


def test_a_check_ended_by_force_returns_its_hands_and_hits():
    state, _ = check({"actor": {"character": ENRIS, "player": "u1"}, "skill": "charm", "attribute": "finesse",
                      "opponent": {"character": BARKEEP, "player": GM, "attribute": "awareness"},
                      "stack": {"c1": ["KH", "3H", "4H"]}})
    hand = list(state.check.sides[0].hand)
    assert "KH" in hand
    state = ENGINE.apply(state, PlayCard("KH"), Actor("u1")).state      # a face: a hit is owed
    assert not state.check.result
    settle_cards(state)
    own = state.characters["c1"].deck
    assert len(pile(own)) == len(set(pile(own))) == 44
    assert sorted(hand) == sorted(c for c in own.discards if c in hand)
    assert len(pile(state.world)) == len(set(pile(state.world))) == 42   # the barkeeper's world-deck draws
    assert state.check.sides[0].hand == [] and state.check.sides[1].hand == []


def test_a_finished_game_is_left_as_it_is():
    state, _ = check({"actor": {"character": ENRIS, "player": "u1"}, "skill": "tracking",
                      "attribute": "awareness", "difficulty": "easy", "stack": {"c1": ["3H", "4H", "7H"]}})
    state = ENGINE.apply(state, PlayCard("3H"), Actor("u1")).state
    assert state.over
    before = state.characters["c1"].deck.to_dict()
    settle_cards(state)
    assert state.characters["c1"].deck.to_dict() == before
