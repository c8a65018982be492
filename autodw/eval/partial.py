"""Partial credit: how much of an instruction's expected change an output made, from the judge's differences.

iACC counts an instruction only when every part of it is right, so for a small model on multi-step instructions it
sits near zero for every system and cannot order them. Partial credit compares two lists of the judge's
differences, both taken against the expected document (so both describe its elements the same way):

- *start*: the instruction's initial document against the expected one, the changes the instruction asks for;
- *end*: the system's output against the expected one, what is still not as expected.

Each difference is split into *aspects*: where (the element, its ids removed: two files number elements
independently) and which property (the label before the colon: ``bold``, ``text``, ``missing``, ``order``...).
A start aspect absent from the end was **made**; an end aspect that was not a start aspect is **unasked** (a change
nobody asked for, or an element added or lost). A start aspect still present at the end was not made, whatever
value it now has. The score is ``made / (expected + unasked)``: 1 exactly when the output is equivalent (no end
differences), 0 when nothing asked for was made, and it falls with every unasked change.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import asdict, dataclass
from typing import Any, Iterable

from autodw.eval.canonical import Source, prepare
from autodw.eval.judge import Difference, judge
from autodw.core.ids import ID_IN_TEXT

_IDS = re.compile(rf"\s*\({ID_IN_TEXT.pattern}\)")
_PART = re.compile(r"; (?=[a-z][a-z0-9 ]*:)")  # "style: expected ...; spacing after: expected ..."
_NOT_LISTED = re.compile(r"^\d+ more difference\(s\) not listed$")


@dataclass(frozen=True)
class Credit:
    """Partial credit of one output (see the module docstring)."""

    expected: int  # aspects the instruction changes
    made: int  # of them, as expected in the output
    unasked: int  # aspects the output changed or lost that the instruction does not change
    capped: bool  # a list of differences reached the judge's limit: the counts are lower bounds

    @property
    def score(self) -> float:
        total = self.expected + self.unasked
        return round(self.made / total, 4) if total else 1.0

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "score": self.score}


def aspects(differences: Iterable[Difference]) -> tuple[Counter[tuple[str, str]], bool]:
    """The (where, property) pairs of `differences`, and whether the list was cut at the judge's limit."""
    out: Counter[tuple[str, str]] = Counter()
    capped = False
    for d in differences:
        if d.where == "document" and _NOT_LISTED.match(d.what):
            capped = True
            continue
        where = _IDS.sub("", d.where)
        for part in _PART.split(d.what):
            label, colon, _ = part.partition(":")
            out[(where, label if colon else part)] += 1
    return out, capped


def credit(start: Iterable[Difference], end: Iterable[Difference]) -> Credit:
    """Partial credit from the differences of the initial document (`start`) and of the output (`end`), both
    against the expected document."""
    asked, capped_start = aspects(start)
    left, capped_end = aspects(end)
    expected = sum(asked.values())
    return Credit(expected, expected - sum((asked & left).values()), sum((left - asked).values()),
                  capped_start or capped_end)


def partial_credit(expected: Source, initial: Source, actual: Source | None = None, *, instruction: str | None = None,
                   free_text: bool = False, end: list[Difference] | None = None) -> Credit:
    """Judge `initial` and `actual` against `expected` (with the judge's tolerances for `instruction`) and give the
    output's credit; `end`, the differences of the output when they are known, saves judging it again."""
    exp, start = prepare(expected), prepare(initial)
    tolerances = {"instruction": instruction, "free_text": free_text, "initial": start if free_text else None}
    if end is None:
        if actual is None:
            raise ValueError("partial_credit needs the output (actual) or its differences (end)")
        end = judge(exp, actual, **tolerances).differences
    return credit(judge(exp, start, **tolerances).differences, end)
