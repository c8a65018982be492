"""How a difference is written: elements described by their text (`where`), values as a reader reads them (`what`)."""

from __future__ import annotations

import json
import unicodedata
from difflib import SequenceMatcher
from typing import Any, Iterable, Sequence

from autodw.eval.judge.tolerances import COLOUR_KEYS
from autodw.core.units import color_name

UNITS = ("_cm", "_pt", "_pct")  # the suffixes of state keys that name a unit
LISTED = 5  # stretches of text named in one difference
_SNIPPET = 40


def snippet(text: str, limit: int = _SNIPPET) -> str:
    """A text quoted for a description: whitespace collapsed, cut at `limit` characters."""
    text = " ".join(text.split()) or text[:limit]  # only whitespace: shown as it is
    return json.dumps(text if len(text) <= limit else text[:limit].rstrip() + "...", ensure_ascii=False)


def show(value: Any, key: str = "", none: str | None = None) -> str:
    """A value for a `what`: yes/no, `none` for None (by default "automatic" for a text or line colour, else
    "none"), quoted texts, colours with their name, numbers with units."""
    if value is None or value is False and key == "underline":
        return none or ("automatic" if key == "color" else "none")
    if key == "tabs" and isinstance(value, list):  # "left 5 cm, right 16 cm dot"
        return ", ".join(" ".join([str(t.get("alignment")), show(t.get("position_cm"), "position_cm"),
                                   *([t["leader"]] if t.get("leader") else [])]) for t in value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        value = round(value, 2)
        text = f"{value:g}"
    elif isinstance(value, int):
        text = str(value)
    elif isinstance(value, str):
        named = color_name(value) if key in COLOUR_KEYS else None
        return f"{value} ({named})" if named else json.dumps(value, ensure_ascii=False)
    elif isinstance(value, list) and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value):
        text = json.dumps(value)  # lengths: one unit after them
    else:
        return json.dumps(value, ensure_ascii=False)
    unit = " cm" if key.endswith("_cm") else " pt" if key.endswith("_pt") else " %" if key.endswith("_pct") else ""
    return text + unit


def label(path: Iterable[str]) -> str:
    """A property's name for a `what`, from its state keys: ``("margins_cm", "header")`` is "margins header"."""
    words = []
    for part in path:
        for suffix in UNITS:
            part = part[: -len(suffix)] if part.endswith(suffix) else part
        words.append(part.replace("_", " "))
    return " ".join(words)


def border_line(line: dict[str, Any] | None) -> str:
    """A border line for a `what`: "single 1 pt 0070C0 (blue)", or none."""
    if not line:
        return "none"
    width = f" {show(line['width_pt'], 'width_pt')}" if line.get("width_pt") is not None else ""
    color = f" {show(line['color'], 'color')}" if line.get("color") else ""
    return f"{line.get('style')}{width}{color}"


def text_difference(e: str, a: str) -> str:
    """'text: expected ..., actual ...' with short excerpts of two texts around their first difference; when the
    excerpts read the same (the texts differ in white space: a no-break space, a tab, a doubled space), the first
    differing characters are named."""
    ops = [op for op in SequenceMatcher(None, e, a, autojunk=False).get_opcodes() if op[0] != "equal"]
    _, i1, i2, j1, j2 = ops[0] if ops else ("", 0, 0, 0, 0)

    def excerpt(t: str, s: int, f: int) -> str:
        lo, hi = max(0, s - 20), min(len(t), max(f, s) + 20)
        return json.dumps(("..." if lo else "") + " ".join(t[lo:hi].split(" ")) + ("..." if hi < len(t) else ""),
                          ensure_ascii=False)

    if len(e) <= 2 * _SNIPPET and len(a) <= 2 * _SNIPPET:
        ex, ac = snippet(e, 2 * _SNIPPET), snippet(a, 2 * _SNIPPET)
    else:
        ex, ac = excerpt(e, i1, i2), excerpt(a, j1, j2)
    what = f"text: expected {ex}, actual {ac}"
    if ops and " ".join(ex.split()) == " ".join(ac.split()):  # they read the same
        what += f" (at character {i1 + 1}: expected {_characters(e[i1:i2])}, actual {_characters(a[j1:j2])})"
    return what


def _characters(text: str) -> str:
    """Characters named by their code points ("U+00A0 NO-BREAK SPACE"), or none."""
    names = {"\t": "TAB", "\n": "LINE FEED", "\r": "CARRIAGE RETURN"}
    return ", ".join(f"U+{ord(c):04X} {names.get(c) or unicodedata.name(c, 'CHARACTER')}" for c in text[:3]) or "none"


def paragraph_description(p: dict[str, Any], previous: str | None) -> str:
    """A paragraph by its text and id; an empty one (or one with only a drawing) after the last text before it."""
    text = p["text"]
    if text.strip():
        return f"paragraph {snippet(text)} ({p['id']})"
    what = "paragraph with a drawing" if p.get("images") else "empty paragraph"
    return f"{what} ({p['id']})" + (f" after {snippet(previous)}" if previous else "")


def nth_paragraph(i: int, text: str, where: str) -> str:
    """Paragraph `i` (0-based, its text `text`) of a cell or a story described by `where`."""
    return f"paragraph {i + 1}{' ' + snippet(text) if text else ''} of {where}"


def table_where(n: int, t: dict[str, Any]) -> str:
    """Table `n` (0-based) by its number and its first row."""
    head = " | ".join(c.strip() for c in t["cells"][0]) if t.get("cells") else ""
    return f"table {n + 1} {snippet(head)}" if head.strip(" |") else f"table {n + 1}"


def cell_range(m: Sequence[int]) -> str:
    """A merge region (first row, first column, last row, last column; 0-based) as cells."""
    r1, c1, r2, c2 = m
    return f"row {r1 + 1} cell {c1 + 1} to row {r2 + 1} cell {c2 + 1}"
