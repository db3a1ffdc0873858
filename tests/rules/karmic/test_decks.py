"""Karma deck, world deck, Rule of Fives (T13, T14, T22) and draw statistics."""
from collections import Counter

from rules.common import Rng
from rules.karmic.cards import (KarmaDeck, is_face, karma_deck_cards, sideboard_cards, value)


def test_T22_deck_construction():
    deck = KarmaDeck.new_karma(Rng.from_seed(1))
    assert len(deck.cards) == 44
    assert sum(1 for c in deck.cards if c.startswith("JK")) == 2
    assert sum(value(c) for c in deck.cards) == 0
    assert sum(1 for c in deck.cards if is_face(c)) == 12
    assert sorted(value(c) for c in deck.sideboard) == [-10, -9, -8, -7, -6, 6, 7, 8, 9, 10]
    world = KarmaDeck.new_world(Rng.from_seed(1))
    assert len(world.cards) == 42 and not any(c.startswith("JK") for c in world.cards)
    assert world.world and world.sideboard == []
    assert len(KarmaDeck.new_world(Rng.from_seed(1), 52).cards) == 52


def test_T13_rule_of_fives_single_card():
    deck = KarmaDeck.new_karma(Rng.from_seed(2))
    rng = Rng.from_seed(3)
    deck.stack(["10S"])
    c = deck.draw(rng, 1)
    assert not deck.discard(c)
    assert not deck.offer
    for _ in range(3):
        assert not deck.discard(deck.draw(rng, 1))
    assert deck.discard(deck.draw(rng, 1))        # 5 discarded: offered
    assert deck.offer


def test_T14_rule_of_fives_declining():
    rng = Rng.from_seed(4)
    deck = KarmaDeck.new_karma(rng)
    deck.discard(deck.draw(rng, 3))
    assert not deck.offer                          # 3: no offer
    deck.stack(["2H", "5H", "9H"])
    assert deck.discard(deck.draw(rng, 3))         # 6: passed 5 → offer
    deck.decline()
    for _ in range(3):                             # 7, 8, 9: no offer
        assert not deck.discard(deck.draw(rng, 1))
        assert not deck.offer
    assert deck.discard(deck.draw(rng, 1))         # 10: offer again
    deck.reshuffle(rng)
    assert deck.since_shuffle == 0 and deck.discards == [] and len(deck.cards) == 44


def test_forced_reshuffle_mid_draw_and_world_deck_only_when_dealt_out():
    rng = Rng.from_seed(5)
    deck = KarmaDeck.new_karma(rng)
    hand = deck.draw(rng, 42)
    deck.discard(hand)
    drawn = deck.draw(rng, 5)                      # 2 left: forced reshuffle in the middle
    assert len(drawn) == 5 and len(deck.cards) + len(deck.discards) == 39
    world = KarmaDeck.new_world(rng)
    world.discard(world.draw(rng, 10))
    assert not world.offer                         # no Rule of Fives for the world deck
    assert len(world.cards) == 32                  # not reshuffled until dealt out


def test_deck_statistics_chi_square_10000_seeded_draws():
    """10,000 seeded draws from a fresh shuffled karma deck match its exact composition."""
    rng = Rng.from_seed(20261129)
    counts: Counter = Counter()
    for _ in range(10000):
        deck = KarmaDeck.new_karma(rng)
        counts[deck.draw(rng, 1)[0]] += 1
    cards = karma_deck_cards()
    assert set(counts) <= set(cards)
    expected = 10000 / len(cards)
    chi2 = sum((counts[c] - expected) ** 2 / expected for c in cards)
    assert chi2 < 81.4          # p = 0.001 with 43 degrees of freedom
    # by value: positives and negatives balance, jokers ≈ 2/44
    jokers = counts["JK1"] + counts["JK2"]
    assert abs(jokers - 10000 * 2 / 44) < 4 * (10000 * 2 / 44) ** 0.5


def test_deck_statistics_through_reshuffles():
    """Drawing through many forced reshuffles keeps every card equally likely."""
    rng = Rng.from_seed(99)
    deck = KarmaDeck.new_karma(rng)
    counts: Counter = Counter()
    for _ in range(10000):
        c = deck.draw(rng, 1)
        counts[c[0]] += 1
        deck.discard(c)
        if deck.offer:
            deck.decline()
    expected = 10000 / 44
    chi2 = sum((counts[c] - expected) ** 2 / expected for c in karma_deck_cards())
    assert chi2 < 81.4
    assert sorted(deck.cards + deck.discards) == sorted(karma_deck_cards())


def test_deck_round_trip_and_stack():
    rng = Rng.from_seed(6)
    deck = KarmaDeck.new_karma(rng)
    deck.stack(["KS", "2H"])
    assert deck.draw(rng, 2) == ["KS", "2H"]
    again = KarmaDeck.from_json(deck.to_json())
    assert again == deck
    assert sorted(sideboard_cards()) == sorted(KarmaDeck.new_karma().sideboard)


def test_riffle_reshuffle_variant_keeps_every_card():
    from rules.karmic.cards import riffle
    rng = Rng.from_seed(7)
    deck = KarmaDeck.new_karma(rng)
    deck.mode = "riffle"
    deck.discard(deck.draw(rng, 20))
    deck.reshuffle(rng)
    assert sorted(deck.cards) == sorted(karma_deck_cards()) and deck.discards == []
    cards = [str(i) for i in range(52)]
    once = riffle(cards, rng)
    assert sorted(once) == sorted(cards) and once != cards
