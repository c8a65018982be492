"""What every part of a comparison shares: the two documents, values compared up to the tolerances, differences
collected in document order, paragraphs described and matched (actual ids to expected ones)."""

from __future__ import annotations

import math
from typing import Any, Iterable

from autodw.core.colours import same_named_colour
from autodw.eval.canonical import Prepared, formatting
from autodw.eval.judge.describe import UNITS, border_line, label, paragraph_description, show
from autodw.eval.judge.tolerances import (AUTO_COLOUR, COLOUR_KEYS, FREE_TEXT_MIN_RATIO, JudgeContext, colour_counts,
                                          numeric_tolerance, trimmed)
from autodw.eval.judge.verdict import Difference
from autodw.analysis.state import header_footer_stories
from autodw.analysis.state.blocks import side_order

LINE_KEYS = ("style", "width_pt", "color", "space_pt", "shadow")  # what of a border line is compared


class Comparison:
    """One comparison of two prepared documents: its state, value comparison and descriptions; the parts of the
    documents are compared by the subclasses in this package (assembled in :class:`autodw.eval.judge.comparer.Comparer`)."""

    def __init__(self, exp: Prepared, act: Prepared, ctx: JudgeContext):
        self.e, self.a = exp.state, act.state
        self.fe, self.fa = formatting(exp), formatting(act)
        self.ctx = ctx
        # the colours the named-colour tolerance may apply to: with the initial document known, those the expected
        # one has more of than it (the instruction's); a colour it left alone is compared exactly (counted only when
        # the instruction names a colour: else there is no tolerance to bound)
        self.new_colours = None if ctx.initial is None or not ctx.colour_names else \
            set(colour_counts(exp.state) - colour_counts(ctx.initial.state))
        self.diffs: list[Difference] = []
        self.used: dict[str, None] = {}  # the instruction's own tolerances that turned a difference, in order
        self.pmap: dict[str, str] = {}  # actual paragraph id -> expected paragraph id
        self.pdesc_e: dict[str, str] = {}
        self.pdesc_a: dict[str, str] = {}
        self.cells_e: dict[str, dict[str, Any]] = {}  # cell, header and footer paragraphs by id, described when needed
        self.cells_a: dict[str, dict[str, Any]] = {}
        self.ptext_e: dict[str, str] = {}  # paragraph texts by id, body and cells
        self.ptext_a: dict[str, str] = {}
        # with the same styles and defaults, paragraphs written identically look identical (a fast path)
        self.same_styles = exp.state["styles"] == act.state["styles"] and exp.paragraph_defaults == act.paragraph_defaults
        # the initial document's texts at the places of the expected and actual paragraphs, by id (free text; found by
        # the comparer when it applies)
        self.initial_e: dict[str, str] = {}
        self.initial_a: dict[str, str] = {}

    def add(self, where: str, what: str) -> None:
        self.diffs.append(Difference(where, what))

    # values ---------------------------------------------------------------------------------------

    def same(self, key: str, e: Any, a: Any, inner: bool = False) -> bool:
        """Equal up to the tolerances that apply to `key`, the instruction's own last (recorded when one accepts);
        `inner`: a value inside another (a watermark's colour, whose default is not black as a run's or a line's is)."""
        return self.same_without_instruction(key, e, a, inner) or self.use(self.ctx.tolerated(key, e, a, inner))

    def use(self, tolerance: str | None) -> bool:
        """Record the instruction's `tolerance` (None: none accepts) as used; whether there is one."""
        if tolerance is not None:
            self.used[tolerance] = None
        return tolerance is not None

    def same_without_instruction(self, key: str, e: Any, a: Any, inner: bool = False) -> bool:
        """:meth:`same` without the instruction's own tolerances (at this level: inner values get them)."""
        if e == a:
            return True
        if key in COLOUR_KEYS and (isinstance(e, str) or isinstance(a, str)):
            automatic = e in (None, "auto")
            if key == "color" and not inner:  # automatic (none) text and line colour is black: "black" accepts 0D0D0D
                e, a = (AUTO_COLOUR if v in (None, "auto") else v for v in (e, a))
                if e == a:
                    return True
            if self.new_colours is not None and not automatic and e not in self.new_colours:
                return False  # a colour the instruction did not set (an automatic one has no count to compare)
            return isinstance(e, str) and isinstance(a, str) and \
                same_named_colour(e, a, list(self.ctx.colour_names)) is not None
        if isinstance(e, (int, float)) and isinstance(a, (int, float)) and not isinstance(e, bool) and not isinstance(a, bool):
            return abs(e - a) <= numeric_tolerance(key) + 1e-9
        if isinstance(e, dict) and isinstance(a, dict):
            return all(self.same(k, e.get(k), a.get(k), True) for k in set(e) | set(a))
        if isinstance(e, list) and isinstance(a, list):
            return len(e) == len(a) and all(self.same(key, x, y, inner) for x, y in zip(e, a))
        return False

    def fields(self, e: dict[str, Any], a: dict[str, Any], keys: Iterable[str], path: tuple[str, ...] = ()) -> list[str]:
        """`what` parts for the keys whose values differ (dicts compared key by key)."""
        out = []
        for key in keys:
            ev, av = e.get(key), a.get(key)
            if self.same(key, ev, av, bool(path)):
                continue
            if isinstance(ev, dict) and isinstance(av, dict):
                out.extend(self.fields(ev, av, sorted(set(ev) | set(av)), path + (key,)))
            else:
                # a value in a dict of lengths ("margins_cm": {"header": 1.27}) has the dict's unit
                unit = next((k for k in (key, *path[::-1]) if k.endswith(UNITS)), key) if key not in COLOUR_KEYS else key
                none = "none" if path else None  # a colour within a setting (a watermark's) is not automatic
                out.append(f"{label(path + (key,))}: expected {show(ev, unit, none)}, actual {show(av, unit, none)}")
        return out

    def border_fields(self, e: dict[str, Any] | None, a: dict[str, Any] | None) -> list[str]:
        """`what` parts for paragraph and table borders: each side's style, width and colour; sides with the same
        difference named together ("border top/left/bottom/right color: ...")."""
        e, a = e or {}, a or {}
        by_what: dict[str, list[str]] = {}
        for side in sorted(set(e) | set(a), key=side_order):
            le, la = e.get(side), a.get(side)
            if le is None or la is None:
                by_what.setdefault(f": expected {border_line(le)}, actual {border_line(la)}", []).append(side)
                continue
            for part in self.fields(le, la, LINE_KEYS):
                by_what.setdefault(" " + part, []).append(side)
        return [f"border {'/'.join(sides)}{what}" for what, sides in by_what.items()]

    def text_same(self, e: str, a: str) -> bool:
        """Equal after trimming the ends (:func:`trimmed`); or, for free text, a plausible written text (see
        :mod:`autodw.eval.judge`)."""
        e, a = trimmed(e), trimmed(a)
        return e == a or self.free_text_ok(e, a)

    def free_text_ok(self, e: str, a: str, places: tuple[str, str] | None = None) -> bool:
        """Whether `a` is a plausible written text for `e`; `places`: their paragraphs' ids (or a cell's or a story's,
        :func:`whole`), a text the initial document has at either place is not written (an existing text to keep, or
        one left as it was)."""
        e, a = trimmed(e), trimmed(a)
        if not self.ctx.free_text or not e or not a:
            return False
        if places is not None and (e == self.initial_e.get(places[0]) or a == self.initial_a.get(places[1])):
            return False
        if self.ctx.dictates(e, a):
            return False
        return len(a) >= math.ceil(len(e) * FREE_TEXT_MIN_RATIO)

    # paragraphs described and matched ---------------------------------------------------------------------

    def describe_paragraphs(self) -> None:
        """Describe every paragraph of both documents (body, cells, headers and footers) and keep their texts by id."""
        for state, out, cells in ((self.e, self.pdesc_e, self.cells_e), (self.a, self.pdesc_a, self.cells_a)):
            previous = None
            for p in state["paragraphs"]:
                out[p["id"]] = paragraph_description(p, previous)
                if p["text"].strip():
                    previous = p["text"]
            stories = [story for *_, story in header_footer_stories(state)]
            for t in [*state["tables"], *(t for story in stories for t in story.get("table_details", []))]:
                for row in t.get("cell_details", []):
                    for cell in row:
                        for p in (cell or {}).get("paragraphs", []):
                            cells[p["id"]] = p
            cells.update({p["id"]: p for story in stories for p in story.get("paragraph_details") or []})
        for state, texts, cells in ((self.e, self.ptext_e, self.cells_e), (self.a, self.ptext_a, self.cells_a)):
            texts.update({p["id"]: p["text"] for p in state["paragraphs"]})
            texts.update({pid: p["text"] for pid, p in cells.items()})

    def describe_e(self, pid: str | None) -> str:
        """An expected paragraph (body, cell, header or footer) by its text."""
        if pid in self.cells_e:
            return paragraph_description(self.cells_e[pid], None)
        return self.pdesc_e.get(pid or "", "the start of the document" if pid is None else f"paragraph {pid}")

    def describe_a(self, pid: str | None) -> str:
        """An actual paragraph as the expected one it corresponds to, else as new."""
        if pid in self.pmap:
            return self.describe_e(self.pmap[pid])
        if pid is None:
            return "the start of the document"
        described = paragraph_description(self.cells_a[pid], None) if pid in self.cells_a else self.pdesc_a.get(pid, f"paragraph {pid}")
        return described.replace(f"({pid})", "(new)")

    def expected_id(self, pid: str | None) -> str | None:
        """An actual paragraph id as the id of the expected paragraph it corresponds to (``new:ID`` if none)."""
        return None if pid is None else self.pmap.get(pid, f"new:{pid}")


def whole(pid: str) -> str:
    """The key of the whole text of the cell, header or footer whose first paragraph is `pid`."""
    return "whole:" + pid
