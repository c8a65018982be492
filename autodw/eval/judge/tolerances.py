"""The tolerances a person would accept (the table in :mod:`autodw.eval.judge`): their margins, and what justifies
the ones an instruction grants (:class:`JudgeContext`)."""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass
from typing import Any, Iterable

from autodw.agent.grounding import quotes
from autodw.core.colours import colour_family, colour_names_in, colour_ranges, same_named_colour
from autodw.core.errors import ConfigError
from autodw.eval.canonical import Prepared, Source, prepare

CM_TOLERANCE = 0.05
PT_TOLERANCE = 0.5
LINE_TOLERANCE = 0.01
BORDER_TOLERANCE = 0.125  # paragraph, table and cell border widths (pt): Word stores eighths of a point
CROP_TOLERANCE = 0.5  # picture cropping, percent of a side
FREE_TEXT_MIN_RATIO = 1 / 3

#: the margin of a number by its state key; else by the unit its key ends with; any other number exactly
KEY_TOLERANCES = {"line": LINE_TOLERANCE, "width_pt": BORDER_TOLERANCE,
                  # run measures: no tolerance (a spacing adds up along a line)
                  "size_pt": 0, "char_spacing_pt": 0, "position_pt": 0}
UNIT_TOLERANCES = (("_cm", CM_TOLERANCE), ("_pct", CROP_TOLERANCE), ("_pt", PT_TOLERANCE))

COLOUR_KEYS = {"color", "shading", "fill"}  # state keys whose values are colours
AUTO_COLOUR = "000000"  # an automatic colour, for the named-colour tolerance (a missing fill is no fill: not this)
_ENDS = "".join(ch for ch in map(chr, range(0x3001)) if ch.isspace() and ch != "\t")  # what trimming removes
_END_PUNCTUATION = " \t.,;:!?。，；：！？"
_HEADING = re.compile(r"(?:heading|标题)\s*(\d)", re.IGNORECASE)  # a heading style's name: "Heading 2", "标题 2"


def _heading_level(style: str | None) -> int | None:
    """The heading level a paragraph style's name gives ("Heading 2", "标题 2"; 0 for "Title", as insert_heading
    numbers it), or None."""
    match = _HEADING.fullmatch(style or "")
    return int(match[1]) if match else 0 if (style or "").casefold() == "title" else None


def numeric_tolerance(key: str) -> float:
    """How far two numbers of state key `key` may lie apart (:data:`KEY_TOLERANCES`, :data:`UNIT_TOLERANCES`)."""
    if key in KEY_TOLERANCES:
        return KEY_TOLERANCES[key]
    return next((margin for unit, margin in UNIT_TOLERANCES if key.endswith(unit)), 0)


def trimmed(text: str) -> str:
    """`text` without the spaces and line ends at its ends; tabs kept (a tab at the start indents the text)."""
    return text.strip(_ENDS)


def colour_counts(state: Any) -> Counter[str]:
    """How much of each colour value (text, line, shading and fill colours) an extracted state has: a run's colour
    counts its characters (recolouring a run to match its neighbours merges them into fewer runs), any other one 1."""
    counts: Counter[str] = Counter()
    stack = [state]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            weight = max(1, len(item["text"])) if isinstance(item.get("text"), str) and "runs" not in item else 1
            for key, value in item.items():
                if key in COLOUR_KEYS and isinstance(value, str):
                    counts[value] += weight
                else:
                    stack.append(value)
        elif isinstance(item, list):
            stack.extend(item)
    return counts


@dataclass(frozen=True)
class JudgeContext:
    """What justifies a tolerance: the instruction's colour names, whether its text is free, the initial document; and
    the instruction's own tolerances."""

    colour_names: tuple[str, ...] = ()
    free_text: bool = False
    initial: Prepared | None = None
    instruction: str = ""
    quoted: tuple[str, ...] = ()  # the texts the instruction quotes ("...", '...', “...”, 「...」): dictated
    families: tuple[str, ...] = ()  # the instruction's own tolerances: colour families,
    within: tuple[tuple[str, float], ...] = ()  # (state key, margin) pairs,
    heading_levels: tuple[tuple[int, ...], ...] = ()  # and sets of heading levels alike

    @classmethod
    def make(cls, instruction: str | None = None, free_text: bool = False, initial: Source | None = None,
             tolerances: Iterable[dict[str, Any]] = ()) -> "JudgeContext":
        """The context of one judgement; ConfigError for a tolerance of no known kind."""
        # a colour family by any of its names ("light grey", "浅灰色"): the one name colour_names.json gives it
        tolerances = [{"colour": isinstance(t["colour"], str) and colour_family(t["colour"]) or t["colour"]}
                      if set(t) == {"colour"} else t for t in tolerances]
        for t in tolerances:
            if not ({"colour"} == set(t) and t["colour"] in colour_ranges() or {"key", "within"} == set(t)
                    or {"heading_levels"} == set(t)):
                raise ConfigError(f"not a tolerance: {json.dumps(t, ensure_ascii=False)[:80]} (a known colour family, "
                                  "a key within a margin, or heading levels)")
        return cls(tuple(colour_names_in(instruction)), free_text, prepare(initial) if initial is not None else None,
                   instruction or "",
                   tuple(q.text for q in quotes(instruction or "")),
                   tuple(t["colour"] for t in tolerances if "colour" in t),
                   tuple((t["key"], float(t["within"])) for t in tolerances if "key" in t),
                   tuple(tuple(sorted(t["heading_levels"])) for t in tolerances if "heading_levels" in t))

    def tolerated(self, key: str, e: Any, a: Any, inner: bool = False) -> str | None:
        """The instruction's own tolerance (named as in :attr:`Verdict.tolerances_used`) that accepts actual value `a`
        for expected `e` of `key`, or None; an automatic text or line colour counts as black."""
        if not (self.families or self.within):
            return None
        if key in COLOUR_KEYS and self.families:
            e, a = (AUTO_COLOUR if key == "color" and not inner and v in (None, "auto") else v for v in (e, a))
            name = same_named_colour(e, a, list(self.families)) if isinstance(e, str) and isinstance(a, str) else None
            return f"colour {name}" if name else None
        numbers = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (e, a))
        return next((f"{k} within {margin:g}" for k, margin in self.within
                     if k == key and numbers and abs(e - a) <= margin + 1e-9), None)

    def heading_tolerated(self, e: str | None, a: str | None) -> str | None:
        """The heading-levels tolerance (named) that accepts paragraph style `a` for expected `e`, or None."""
        le, la = (_heading_level(s) for s in (e, a))
        if le is None or la is None:
            return None
        levels = next((ls for ls in self.heading_levels if {le, la} <= set(ls)), None)
        if levels is None:
            return None
        consecutive = list(levels) == list(range(levels[0], levels[-1] + 1))
        return "heading levels " + (f"{levels[0]}-{levels[-1]}" if consecutive else ", ".join(map(str, levels)))

    def dictates(self, e: str, a: str) -> bool:
        """True if the instruction gives the expected text `e` word for word (quoted, or as it is: "set the cell to
        105"), or quotes a part of it that the actual text `a` lacks."""
        core = e.strip(_END_PUNCTUATION)
        if not core:
            return False
        if any(core == q.strip(_END_PUNCTUATION) for q in self.quoted):
            return True
        word = re.compile(r"[A-Za-z0-9]")  # whole words in English; Chinese has no spaces to bound them
        if re.search((r"(?<![A-Za-z0-9])" if word.match(core[0]) else "") + re.escape(core) +
                     (r"(?![A-Za-z0-9])" if word.match(core[-1]) else ""), self.instruction):
            return True
        return any(q in e and q not in a for q in self.quoted)
