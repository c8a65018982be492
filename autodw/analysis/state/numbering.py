"""List numbering as Word shows it: each list level's format, and the label ("3.", "2.1", "(c)") a list paragraph shows.

Word counts the paragraphs of every list instance (``w:num``) of one definition (``w:abstractNum``) together, in
document order within a story: a second instance continues the first unless it overrides a level's start
(``w:lvlOverride/w:startOverride``), which restarts that level where the instance is first used. A level counts
from its ``w:start``; using a level restarts the deeper ones (unless ``w:lvlRestart`` says otherwise). A definition
that links to a numbering style (``w:numStyleLink``) takes the levels of the definition that style's list uses.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable

from lxml import etree

from autodw.core.units import format_number
from autodw.core.xml import first_child, on_off, qn, wval

_PLACEHOLDER = re.compile(r"%([1-9])")


def own_num_pr(el: etree._Element) -> tuple[str | None, int] | None:
    """(numId, level) of the ``w:numPr`` in a paragraph's or a style's own properties; None without one naming a
    list."""
    num_pr = first_child(el, qn("w:pPr"), qn("w:numPr"))
    if num_pr is None or first_child(num_pr, qn("w:numId")) is None:
        return None
    ilvl = wval(first_child(num_pr, qn("w:ilvl"))) or "0"
    return wval(first_child(num_pr, qn("w:numId"))), int(ilvl) if ilvl.isdigit() else 0


def style_chain_num_pr(style_of: Callable[[str], etree._Element | None], style_id: str | None
                       ) -> tuple[str | None, int] | None:
    """(numId, level) the first style of `style_id`'s ``w:basedOn`` chain with a ``w:numPr`` gives; None if none
    does. `style_of` finds a style element by id (None for a missing one)."""
    seen: set[str] = set()
    while style_id and style_id not in seen:
        seen.add(style_id)
        style = style_of(style_id)
        if style is None:
            return None
        found = own_num_pr(style)
        if found is not None:
            return found
        style_id = wval(first_child(style, qn("w:basedOn")))
    return None


@dataclass(frozen=True)
class Level:
    """One level of a list definition."""

    fmt: str  # w:numFmt ("decimal", "lowerLetter", "bullet", ...)
    text: str  # w:lvlText, "%1." with a placeholder per level
    start: int = 1
    restart: int | None = None  # w:lvlRestart: restart after a use of this (1-based) level or a higher one; 0 never
    legal: bool = False  # w:isLgl: every level's number in decimal
    ppr: etree._Element | None = field(default=None, compare=False)  # the level's paragraph properties (its indent)


_UNDEFINED = Level("decimal", "")  # a level the definition lacks: from 1, in decimal, restarted as by default


def _int(el: etree._Element | None, default: int | None = None) -> int | None:
    value = wval(el)
    try:
        return int(value) if value is not None else default
    except ValueError:
        return default


def _level(lvl: etree._Element) -> Level:
    return Level(wval(first_child(lvl, qn("w:numFmt"))) or "decimal", wval(first_child(lvl, qn("w:lvlText"))) or "",
                 _int(first_child(lvl, qn("w:start")), 0), _int(first_child(lvl, qn("w:lvlRestart"))),
                 on_off(first_child(lvl, qn("w:isLgl"))) is True, first_child(lvl, qn("w:pPr")))


class Numbering:
    """The numbering part, read once: each list instance's definition, levels and start overrides."""

    def __init__(self, root: etree._Element | None, styles: dict[str, etree._Element]):
        self._abstract: dict[str, etree._Element] = {}
        self._nums: dict[str, etree._Element] = {}
        if root is not None:
            self._abstract = {a.get(qn("w:abstractNumId")): a for a in root.iterchildren(qn("w:abstractNum"))}
            self._nums = {n.get(qn("w:numId")): n for n in root.iterchildren(qn("w:num"))}
        self._styles = styles
        self._levels: dict[tuple[str, str], Level | None] = {}

    def defines(self, num_id: str) -> bool:
        """True if list instance `num_id` is in the numbering part (numId 0 never is: it means no list)."""
        return num_id != "0" and num_id in self._nums

    def definition(self, num_id: str) -> str | None:
        """The abstractNumId whose levels `num_id` uses (following a numbering style link), None if undefined."""
        seen: set[str] = set()
        num = self._nums.get(num_id)
        abstract_id = wval(first_child(num, qn("w:abstractNumId"))) if num is not None else None
        while abstract_id is not None and abstract_id not in seen:
            seen.add(abstract_id)
            abstract = self._abstract.get(abstract_id)
            link = wval(first_child(abstract, qn("w:numStyleLink"))) if abstract is not None else None
            style = self._styles.get(link) if link else None
            linked = wval(first_child(style, qn("w:pPr"), qn("w:numPr"), qn("w:numId"))) if style is not None else None
            linked_num = self._nums.get(linked) if linked else None
            if linked_num is None:
                return abstract_id if abstract is not None else None
            abstract_id = wval(first_child(linked_num, qn("w:abstractNumId")))
        return None

    def level(self, num_id: str, ilvl: str) -> Level | None:
        """Level `ilvl` of list instance `num_id` (a level the instance overrides whole comes from the override)."""
        key = (num_id, ilvl)
        if key not in self._levels:
            found = None
            num = self._nums.get(num_id)
            override = self._override(num, ilvl)
            if override is not None and first_child(override, qn("w:lvl")) is not None:
                found = _level(first_child(override, qn("w:lvl")))
            else:
                abstract = self._abstract.get(self.definition(num_id) or "")
                lvl = None if abstract is None else next(
                    (x for x in abstract.iterchildren(qn("w:lvl")) if x.get(qn("w:ilvl")) == ilvl), None)
                found = _level(lvl) if lvl is not None else None
            self._levels[key] = found
        return self._levels[key]

    def start_overrides(self, num_id: str) -> dict[int, int]:
        """The levels list instance `num_id` restarts where it is first used, and their start values."""
        num = self._nums.get(num_id)
        out: dict[int, int] = {}
        for override in num.iterchildren(qn("w:lvlOverride")) if num is not None else ():
            start, ilvl = _int(first_child(override, qn("w:startOverride"))), override.get(qn("w:ilvl")) or ""
            if start is not None and ilvl.isdigit():
                out[int(ilvl)] = start
        return out

    @staticmethod
    def _override(num: etree._Element | None, ilvl: str) -> etree._Element | None:
        if num is None:
            return None
        return next((o for o in num.iterchildren(qn("w:lvlOverride")) if o.get(qn("w:ilvl")) == ilvl), None)


class ListCounter:
    """The labels of one story's list paragraphs, counted in document order (call :meth:`label` for each)."""

    def __init__(self, numbering: Numbering):
        self.numbering = numbering
        self._counts: dict[str, list[int | None]] = {}
        self._seen: set[str] = set()

    def label(self, num_id: str, ilvl: int) -> str | None:
        """Count a paragraph of list instance `num_id` at level `ilvl` and return the label it shows (None for a
        bullet or an undefined level)."""
        definition = self.numbering.definition(num_id)
        level = self.numbering.level(num_id, str(ilvl))
        if definition is None or level is None or not 0 <= ilvl <= 8:
            return None
        counts = self._counts.setdefault(definition, [None] * 9)
        if num_id not in self._seen:
            self._seen.add(num_id)
            for overridden, start in self.numbering.start_overrides(num_id).items():
                if 0 <= overridden <= 8:
                    counts[overridden] = start - 1
        counts[ilvl] = level.start if counts[ilvl] is None else counts[ilvl] + 1
        for deeper in range(ilvl + 1, 9):
            restart = (self.numbering.level(num_id, str(deeper)) or _UNDEFINED).restart
            if restart is None or (restart > 0 and ilvl <= restart - 1):
                counts[deeper] = None
        if level.fmt == "bullet":
            return None

        def number(match: re.Match[str]) -> str:
            at = int(match.group(1)) - 1
            shown = self.numbering.level(num_id, str(at)) or _UNDEFINED
            value = counts[at] if counts[at] is not None else shown.start
            fmt = "decimal" if level.legal and shown.fmt != "none" else shown.fmt
            return "" if fmt == "none" else format_number(value, fmt)

        return _PLACEHOLDER.sub(number, level.text)
