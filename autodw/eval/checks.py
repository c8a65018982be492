"""Small helpers for checking a document state against an expected outcome (plain functions over state)."""

from __future__ import annotations

from typing import Any, Iterable

from autodw.analysis.state import State


def paragraphs(state: State, *, cells: bool = False) -> list[dict[str, Any]]:
    """Story paragraphs, optionally followed by every table-cell paragraph."""
    out = list(state["paragraphs"])
    if cells:
        for t in state["tables"]:
            for row in t.get("cell_details", []):
                for cell in row:
                    out.extend((cell or {}).get("paragraphs", []))
    return out


def paragraph(state: State, pid: str) -> dict[str, Any] | None:
    """The paragraph with id `pid` (story or cell), or None."""
    return next((p for p in paragraphs(state, cells=True) if p["id"] == pid), None)


def find_paragraph(state: State, text: str, *, exact: bool = False) -> dict[str, Any] | None:
    """The first story paragraph whose text equals (or contains) `text`."""
    return next((p for p in state["paragraphs"] if (p["text"].strip() == text if exact else text in p["text"])), None)


def all_runs(p: dict[str, Any]) -> list[dict[str, Any]]:
    """The paragraph's runs that carry text."""
    return [r for r in p.get("runs", []) if r.get("text", "").strip()]


def every_run(p: dict[str, Any] | None, **expected: Any) -> bool:
    """True if every text run of `p` has the expected formatting values."""
    return bool(p) and bool(all_runs(p)) and all(all(r.get(k) == v for k, v in expected.items()) for r in all_runs(p))


def is_blue(color: str | None) -> bool:
    """A colour whose blue channel clearly dominates."""
    if not color or len(color) != 6:
        return False
    r, g, b = (int(color[i:i + 2], 16) for i in (0, 2, 4))
    return b >= 0x80 and b > r + 0x30 and b >= g


def is_red(color: str | None) -> bool:
    """A colour whose red channel clearly dominates."""
    if not color or len(color) != 6:
        return False
    r, g, b = (int(color[i:i + 2], 16) for i in (0, 2, 4))
    return r >= 0x99 and r > g + 0x40 and r > b + 0x40


def table_with(state: State, header: Iterable[str]) -> dict[str, Any] | None:
    """The first table whose first row starts with the given cells."""
    header = list(header)
    return next((t for t in state["tables"] if t["cells"] and t["cells"][0][: len(header)] == header), None)


def has_row(table: dict[str, Any] | None, row: Iterable[str]) -> bool:
    """True if the table has a row equal to `row` (cell texts, stripped)."""
    wanted = [c.strip() for c in row]
    return bool(table) and any([c.strip() for c in r] == wanted for r in table["cells"])


def order(state: State, *texts: str) -> bool:
    """True if story paragraphs containing each text appear in this order."""
    positions = []
    for text in texts:
        p = find_paragraph(state, text)
        if p is None:
            return False
        positions.append(p["index"])
    return positions == sorted(positions) and len(set(positions)) == len(positions)


def close(value: float | None, target: float, tolerance: float = 0.1) -> bool:
    """Numeric equality within a tolerance (units already matched)."""
    return value is not None and abs(value - target) <= tolerance
