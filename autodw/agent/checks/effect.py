"""Rule checks of the call's effect on the document."""

from __future__ import annotations

from typing import Any

from autodw.agent.checks.registry import BUILT_ON, Certainty, CheckFinding, State, check
from autodw.analysis.state.effective import Formatting

#: APIs that may rightly change nothing (fields already up to date)
MAY_CHANGE_NOTHING = ("update_fields",)
_ORIGIN = {"by_style"}  # a list's origin (its paragraph style or direct numbering): not a change of content
_MISSING = object()


def looks_unchanged(before: State, after: State) -> bool:
    """Whether a call left the document as it looked: the states are equal, or differ only in where a paragraph's
    list comes from (``by_style``: its paragraph style or direct numbering) while the paragraph's effective formatting
    (the indent the origin decides) stays the same. Only the parts that differ are walked: equal subtrees are
    compared at C speed."""
    looks: Formatting | None = None  # built once, for the first paragraph whose list changed origin

    def same(a: Any, b: Any) -> bool:
        nonlocal looks
        if a == b:
            return True
        if isinstance(a, dict) and isinstance(b, dict):
            keys = [*a, *(k for k in b if k not in a)]  # in order: the walk stops at the first real difference
            if not all(same(a.get(k, _MISSING), b.get(k, _MISSING)) for k in keys if k not in _ORIGIN):
                return False
            if "runs" not in a or a.get("list") == b.get("list"):
                return True
            looks = looks or Formatting(after["styles"])
            return looks.paragraph(a) == looks.paragraph(b)
        if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
            return all(same(x, y) for x, y in zip(a, b))
        return False

    return same(before, after)


@check("unchanged", certain=Certainty.REJECTS, tuned_on=BUILT_ON)
def unchanged(api: str, before: State, after: State) -> list[CheckFinding]:
    """The call changed nothing in the document (the same list written as direct numbering over its paragraph style's
    counts as no change when the paragraph looks the same: :func:`looks_unchanged`); not for the APIs that may rightly
    change nothing (:data:`MAY_CHANGE_NOTHING`: fields already up to date)."""
    if api not in MAY_CHANGE_NOTHING and looks_unchanged(before, after):
        return [CheckFinding("unchanged", "the call changed nothing in the document", True)]
    return []
