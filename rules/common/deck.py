"""A deck of card ids with a draw pile and a discard pile, shuffled by the state's Rng.

The top of the draw pile is the *end* of `cards` (pop is O(1)). Cards are plain strings so a
deck serialises as is; what a card means is each game's business.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .errors import IllegalAction
from .rng import Rng
from .serial import Serial


@dataclass
class Deck(Serial):
    cards: list[str] = field(default_factory=list)
    discards: list[str] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.cards)

    def shuffle(self, rng: Rng) -> None:
        rng.shuffle(self.cards)

    def draw(self, n: int = 1) -> list[str]:
        if n > len(self.cards):
            raise IllegalAction("deck_short", left=len(self.cards), needed=n)
        drawn = [self.cards.pop() for _ in range(n)]
        return drawn

    def draw_one(self) -> str:
        return self.draw(1)[0]

    def discard(self, *cards: str) -> None:
        self.discards.extend(cards)

    def put_bottom(self, *cards: str) -> None:
        self.cards[0:0] = list(reversed(cards))

    def put_top(self, *cards: str) -> None:
        self.cards.extend(reversed(cards))

    def reshuffle_discards(self, rng: Rng) -> None:
        """Discards go back into the draw pile, and the whole pile is shuffled."""
        self.cards.extend(self.discards)
        self.discards.clear()
        rng.shuffle(self.cards)
