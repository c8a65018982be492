"""Alignment of two sequences by content: which items correspond, which moved, which are missing or extra."""

from __future__ import annotations

from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Callable, Hashable, Sequence


@dataclass
class Alignment:
    """Index pairs of corresponding items, pairs of equal items found at other places, and the unmatched."""

    pairs: list[tuple[int, int]]
    moved: list[tuple[int, int]]
    missing: list[int]
    extra: list[int]


def align(a: Sequence[Hashable], b: Sequence[Hashable], similarity: Callable[[int, int], float] | None = None,
          threshold: float = 0.5, moves: tuple[Sequence[Hashable], Sequence[Hashable]] | None = None) -> Alignment:
    """Align two sequences by content: equal stretches (SequenceMatcher), then within each replaced
    stretch items paired by position when both sides have as many, else in order by `similarity`;
    finally unmatched items with equal keys (or equal `moves` keys, when given) become moves."""
    if list(a) == list(b):  # one equal stretch, as SequenceMatcher finds it (slowly when items repeat: empty paragraphs)
        return Alignment([(i, i) for i in range(len(a))], [], [], [])
    pairs: list[tuple[int, int]] = []
    missing: list[int] = []
    extra: list[int] = []
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, list(a), list(b), autojunk=False).get_opcodes():
        if tag == "equal" or (tag == "replace" and i2 - i1 == j2 - j1):
            pairs.extend(zip(range(i1, i2), range(j1, j2)))
        elif tag == "replace" and similarity is not None:
            j = j1
            used: set[int] = set()
            for i in range(i1, i2):
                best = next((k for k in range(j, j2) if similarity(i, k) >= threshold), None)
                if best is None:
                    missing.append(i)
                else:
                    pairs.append((i, best))
                    used.add(best)
                    j = best + 1
            extra.extend(k for k in range(j1, j2) if k not in used)
        else:
            missing.extend(range(i1, i2))
            extra.extend(range(j1, j2))
    moved: list[tuple[int, int]] = []
    move_a, move_b = moves or (a, b)
    for i in list(missing):
        j = next((k for k in extra if move_b[k] == move_a[i]), None)
        if j is not None:
            moved.append((i, j))
            missing.remove(i)
            extra.remove(j)
    pairs.sort()
    return Alignment(pairs, moved, missing, extra)


def ratio(x: str, y: str) -> float:
    """How alike two texts are (SequenceMatcher's ratio), 0 when a quick upper bound already puts it below one half."""
    sm = SequenceMatcher(None, x, y, autojunk=False)
    return sm.ratio() if sm.real_quick_ratio() >= 0.5 and sm.quick_ratio() >= 0.5 else 0.0
