"""A seeded random source that lives inside the game state.

Python's `random.Random` carries 625 words of state; ours is one 64-bit integer, so it
serialises into the game's JSON and an undo or a replay reproduces every later draw exactly.
SplitMix64 is small, fast and statistically sound for tabletop use; bounded integers use
rejection sampling so no face of a die is favoured.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TypeVar
from collections.abc import MutableSequence, Sequence

T = TypeVar("T")

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


@dataclass
class Rng:
    state: int = 0

    @classmethod
    def from_seed(cls, seed: int | str) -> Rng:
        if isinstance(seed, str):
            # Stable across processes (unlike hash()), so a text seed replays too.
            value = 0
            for ch in seed.encode():
                value = (value * 131 + ch) & _MASK
            seed = value
        return cls(state=seed & _MASK)

    def next_u64(self) -> int:
        self.state = (self.state + _GOLDEN) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Uniform integer in [0, n)."""
        if n <= 0:
            raise ValueError("bound_not_positive", n)
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next_u64()
            if x < limit:
                return x % n

    def randint(self, low: int, high: int) -> int:
        """Uniform integer in [low, high], both ends included."""
        return low + self.below(high - low + 1)

    def die(self, sides: int) -> int:
        return self.randint(1, sides)

    def choice(self, items: Sequence[T]) -> T:
        if not items:
            raise ValueError("empty_sequence")
        return items[self.below(len(items))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def sample(self, items: Sequence[T], k: int) -> list[T]:
        pool = list(items)
        self.shuffle(pool)
        return pool[:k]

    def random(self) -> float:
        """Float in [0, 1) with 53 bits of precision."""
        return (self.next_u64() >> 11) / float(1 << 53)

    def to_dict(self) -> dict:
        return {"state": self.state}

    @classmethod
    def from_dict(cls, data: dict) -> Rng:
        return cls(state=int(data["state"]))
