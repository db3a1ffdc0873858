"""Playing cards as karma: ids, values, hit cards, and the karma / world / NPC decks.

A card id is rank + suit: "AS", "10H", "KD", or "JK1"/"JK2" for the jokers. Black suits (S, C) count
positive, red suits (H, D) negative; J/Q/K are hit cards worth 1/2/3. The top of a draw pile is the
*end* of its list, like `rules.common.Deck`.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from rules.common import IllegalAction, Rng, Serial

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
SHORT_RANKS = ["A", "2", "3", "4", "5", "J", "Q", "K"]
REMOVED_RANKS = ["6", "7", "8", "9", "10"]
RANK_VALUE = {"A": 1, "J": 1, "Q": 2, "K": 3, **{str(n): n for n in range(2, 11)}}
SUIT_SYMBOL = {"S": "♠", "C": "♣", "H": "♥", "D": "♦"}
JOKERS = ["JK1", "JK2"]
# The full black and red suits, and the short ones (6-10 removed into the sideboard).
FULL_BLACK, SHORT_BLACK, FULL_RED, SHORT_RED = "S", "C", "H", "D"


def is_joker(card: str) -> bool:
    return card.startswith("JK")


def rank(card: str) -> str:
    return card[:-1]


def suit(card: str) -> str:
    return card[-1]


def is_face(card: str) -> bool:
    """A hit card (Jack, Queen or King)."""
    return not is_joker(card) and rank(card) in ("J", "Q", "K")


def value(card: str) -> int:
    """Signed value: black positive, red negative. Jokers have no value (0 here; callers check)."""
    if is_joker(card):
        return 0
    v = RANK_VALUE[rank(card)]
    return v if suit(card) in ("S", "C") else -v


def label(card: str) -> str:
    if is_joker(card):
        return "Joker (GM rules)"
    v = value(card)
    hit = " hit" if is_face(card) else ""
    return f"{rank(card)}{SUIT_SYMBOL[suit(card)]} {v:+d}{hit}"


def valid_card(card: str) -> bool:
    if card in JOKERS:
        return True
    return len(card) >= 2 and suit(card) in SUIT_SYMBOL and rank(card) in RANK_VALUE


def karma_deck_cards(jokers: bool = True) -> list[str]:
    """The 44-card karma recipe (42 without jokers)."""
    cards = [r + FULL_BLACK for r in RANKS] + [r + SHORT_BLACK for r in SHORT_RANKS]
    cards += [r + FULL_RED for r in RANKS] + [r + SHORT_RED for r in SHORT_RANKS]
    if jokers:
        cards += list(JOKERS)
    return cards


def sideboard_cards() -> list[str]:
    return [r + SHORT_BLACK for r in REMOVED_RANKS] + [r + SHORT_RED for r in REMOVED_RANKS]


def full_pack(jokers: bool = False) -> list[str]:
    cards = [r + s for s in "SCHD" for r in RANKS]
    return cards + (list(JOKERS) if jokers else [])


@dataclass
class KarmaDeck(Serial):
    """A character's karma deck (or the GM's world deck when `world` is true).

    `since_shuffle` counts cards discarded since the last reshuffle; `offer` is true while a
    Rule-of-Fives reshuffle window is open (declining closes it until the next multiple of 5).
    """

    cards: list[str] = field(default_factory=list)
    discards: list[str] = field(default_factory=list)
    sideboard: list[str] = field(default_factory=list)
    since_shuffle: int = 0
    offer: bool = False
    world: bool = False
    mode: str = "uniform"       # house rule reshuffle_mode: uniform | riffle (one bridge shuffle)

    @classmethod
    def new_karma(cls, rng: Rng | None = None) -> KarmaDeck:
        deck = cls(cards=karma_deck_cards(True), sideboard=sideboard_cards())
        if rng is not None:
            rng.shuffle(deck.cards)
        return deck

    @classmethod
    def new_world(cls, rng: Rng | None = None, size: int = 42) -> KarmaDeck:
        cards = full_pack(False) if size == 52 else karma_deck_cards(False)
        deck = cls(cards=cards, world=True)
        if rng is not None:
            rng.shuffle(deck.cards)
        return deck

    def __len__(self) -> int:
        return len(self.cards)

    def all_cards(self) -> list[str]:
        return self.cards + self.discards

    def draw(self, rng: Rng, n: int = 1) -> list[str]:
        """Draw n cards; an empty pile forces a reshuffle of the discards, even mid-draw."""
        out = []
        for _ in range(n):
            if not self.cards:
                if not self.discards:
                    raise IllegalAction("deck_empty")
                self.reshuffle(rng)
            out.append(self.cards.pop())
        return out

    def discard(self, cards: list[str], card_rules: bool = True) -> bool:
        """Put cards on the discard pile. Returns True when a Rule-of-Fives window just opened."""
        if not cards:
            return False
        self.discards.extend(cards)
        before = self.since_shuffle
        self.since_shuffle += len(cards)
        if self.world or not card_rules:
            return False
        if self.since_shuffle // 5 > before // 5:
            self.offer = True
            return True
        return False

    def reshuffle(self, rng: Rng) -> None:
        """Discards go under the remaining pile and everything is shuffled (uniformly)."""
        self.cards[0:0] = self.discards
        self.discards = []
        if self.mode == "riffle":
            self.cards = riffle(self.cards, rng)
        else:
            rng.shuffle(self.cards)
        self.since_shuffle = 0
        self.offer = False

    def decline(self) -> None:
        self.offer = False

    def stack(self, cards: list[str]) -> None:
        """Put these cards on top so they are drawn in the order given (tests, replaying a table)."""
        for card in cards:
            if card in self.cards:
                self.cards.remove(card)
            elif card in self.discards:
                self.discards.remove(card)
            else:
                raise IllegalAction("card_not_in_deck", card=card)
        self.cards.extend(reversed(cards))

    # --- karma changes (distinctions, awards, cleansing) ---------------------------------
    def move_to_sideboard(self, cards: list[str]) -> None:
        for card in cards:
            if card in self.cards:
                self.cards.remove(card)
            elif card in self.discards:
                self.discards.remove(card)
            else:
                raise IllegalAction("card_not_in_deck", card=card)
        self.sideboard.extend(cards)

    def move_to_deck(self, cards: list[str], rng: Rng | None = None) -> None:
        for card in cards:
            if card not in self.sideboard:
                raise IllegalAction("card_not_in_sideboard", card=card)
            self.sideboard.remove(card)
            self.cards.append(card)
        if rng is not None:
            rng.shuffle(self.cards)


def riffle(cards: list[str], rng: Rng) -> list[str]:
    """One bridge (riffle) shuffle, Gilbert–Shannon–Reeds model: a binomial cut, then cards drop
    from each half in proportion to its size."""
    cut = sum(rng.below(2) for _ in cards)
    left, right = list(cards[:cut]), list(cards[cut:])
    out: list[str] = []
    while left or right:
        if rng.below(len(left) + len(right)) < len(left):
            out.append(left.pop(0))
        else:
            out.append(right.pop(0))
    return out
