"""Decisions from fuzzer bytes: one interface over atheris's data provider and over a seeded random source.

A harness asks a :class:`Draw` for numbers, choices and bytes. Under atheris the answers come from the
fuzzer's input (so coverage guides the decisions); in the test suite and the random campaigns they come
from ``random.Random(seed)`` (so a crash is reproduced by its seed).
"""

from __future__ import annotations

import random
from typing import Protocol, Sequence, TypeVar

T = TypeVar("T")


class Draw(Protocol):
    """Where a harness's decisions come from."""

    def int(self, low: int, high: int) -> int:
        """A whole number from `low` to `high`, both included."""

    def bytes(self, count: int) -> bytes:
        """At most `count` bytes."""

    def text(self, count: int) -> str:
        """A string of at most `count` characters (any code point a JSON string can carry)."""


def pick(draw: Draw, items: Sequence[T]) -> T:
    """One of `items`."""
    return items[draw.int(0, len(items) - 1)]


def coin(draw: Draw, percent: int = 50) -> bool:
    """True `percent` times in a hundred."""
    return draw.int(0, 99) < percent


def small(draw: Draw, high: int) -> int:
    """A number from 0 to `high`, small ones more often (a fuzzer's bytes run out at 0)."""
    bits = draw.int(0, max(0, high.bit_length()))
    return min(high, draw.int(0, (1 << bits) - 1))


class RandomDraw:
    """Decisions from a seeded random source."""

    def __init__(self, seed: int | str):
        self.random = random.Random(seed)

    def int(self, low: int, high: int) -> int:
        return self.random.randint(low, high)

    def bytes(self, count: int) -> bytes:
        return self.random.randbytes(self.random.randint(0, count))

    def text(self, count: int) -> str:
        n = self.random.randint(0, count)
        alphabet = self.random.choice((_ASCII, _ANY))
        return "".join(alphabet(self.random) for _ in range(n))


def _ASCII(r: random.Random) -> str:
    return chr(r.randint(32, 126))


def _ANY(r: random.Random) -> str:
    code = r.choice((r.randint(0, 0x7F), r.randint(0x80, 0xFFFF), r.randint(0x10000, 0x10FFFF)))
    return chr(code)


class ProviderDraw:
    """Decisions from atheris's FuzzedDataProvider (the fuzzer's bytes)."""

    def __init__(self, data: bytes):
        import atheris

        self.provider = atheris.FuzzedDataProvider(data)

    def int(self, low: int, high: int) -> int:
        return self.provider.ConsumeIntInRange(low, high) if high > low else low

    def bytes(self, count: int) -> bytes:
        return self.provider.ConsumeBytes(self.provider.ConsumeIntInRange(0, count))

    def text(self, count: int) -> str:
        return self.provider.ConsumeUnicode(self.provider.ConsumeIntInRange(0, count))
