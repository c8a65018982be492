"""What the judge answers: a verdict and its differences, and the version of the judge that gave it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

JUDGE_VERSION = 7
"""Raised whenever a change can turn a verdict; a run records the version its records were judged by (1: before
versions were recorded) and ``autodw bench rescore --rejudge`` judges an older run's outputs again. 5: a run's
automatic colour over its style's, a style's hidden and raised or lowered text, the document defaults' run
formatting, a list level's indent, a border's distance from the text and shadow, header and footer fields in order,
unequal section columns, a character style's toggles over the paragraph style's; one column's spacing, decimal page numbers, automatic or zero row heights and
``\\* MERGEFORMAT`` no longer differ. 6: a field's name in any case and ``\\* Arabic`` are one field code; unequal
section columns are their ``w:col`` children (count, widths, spaces). 7: an instruction's own tolerances (a colour
family, a number within a margin, heading levels), named in the verdict; nothing changes without them."""

MAX_DIFFERENCES = 200  # listed in a verdict; the rest counted in one last difference


@dataclass(frozen=True)
class Difference:
    """One reason the documents differ: where (the element, described by its text) and what (expected vs actual)."""

    where: str
    what: str

    def to_dict(self) -> dict[str, str]:
        """``{"where", "what"}``, as a record and ``autodw judge --format json`` give it."""
        return {"where": self.where, "what": self.what}


@dataclass
class Verdict:
    """The judge's answer."""

    equivalent: bool
    differences: list[Difference] = field(default_factory=list)
    judge: str = "deterministic"
    usage: dict[str, int] | None = None  # tokens, for the LLM judge
    count: int | None = None  # differences found (the list stops at MAX_DIFFERENCES and says how many more)
    tolerances_used: list[str] = field(default_factory=list)  # the instruction's tolerances that turned differences
    matched: str | None = None  # what the output matched: "gold" or "alternative N" (autodw.eval.accept)

    def to_dict(self) -> dict[str, Any]:
        """The verdict as JSON data (``autodw judge --format json``)."""
        out = {"equivalent": self.equivalent, "differences": [d.to_dict() for d in self.differences], "judge": self.judge}
        if self.usage is not None:
            out["usage"] = self.usage
        if self.tolerances_used:
            out["tolerances_used"] = self.tolerances_used
        if self.matched is not None:
            out["matched"] = self.matched
        return out

    def to_text(self) -> str:
        """Human-readable: one line for the verdict, one per difference."""
        head = "equivalent" if self.equivalent else f"not equivalent: {len(self.differences)} difference(s)"
        return "\n".join([head] + [f"- {d.where}: {d.what}" for d in self.differences])

