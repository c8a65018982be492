"""The deterministic judge: is the actual document equivalent to the expected one, and if not, why?

``judge(expected, actual)`` canonicalises both documents (see :mod:`autodw.eval.canonical`), aligns
their elements by content (never by id: two files number their elements independently), compares
them and returns a :class:`Verdict` whose differences each say *where* (the element described by
its text, e.g. ``paragraph "Quarterly results..." (p4)`` or ``table 1 "Region | Q1" row 3 cell 2``;
ids are those of the expected document) and *what* (``bold: expected yes, actual no``; colours labelled by the
named ranges they fall in, ``color: expected 1F4E79 (dark blue), actual FFFF99 (pale yellow)``).

Canonicalisation (never a difference): element ids; rsids, proofing marks and ``_GoBack`` (not in the state);
``_Toc`` bookmarks (Word regenerates them, so the names a TOC's hyperlinks and PAGEREF fields give them do not count
either) and Word's other hidden bookmarks (names starting with "_", e.g. ``_Hlk``) unless a field or hyperlink
refers to them; run splits; explicit values equal to the inherited ones (formatting is compared as effective values:
document defaults (every run property they set), style chain - font, size, bold, italic, colour (``auto`` on a run
takes away the style's), underline, strike, caps, hidden, raised or lowered text, highlight - a character
style's toggle properties (bold, italic, caps, strike, hidden...) turn over the paragraph style's -, paragraph
borders side by side, keep flags, contextual spacing, shading, direction, tab stops merged as Word merges them - a
layer's stop replaces the one at its position, a "clear" stop takes it away; an off flag or an automatic fill takes
away what a style gives -, a list level's indent (over the paragraph style's, under it when the style gives the
list), direct formatting, theme fonts as the theme part's fonts, an indent in characters or a
spacing in lines as Word reads it - the count when it is not 0 (each attribute inherited on its own), the length
written beside it then not compared; automatic spacing before or after over both -, for runs as for styles; in body
paragraphs, table cells and header and footer paragraphs alike; styles themselves by what they give, resolved along
their chain, a table style as a table of it); tables as effective properties (the table style's alignment, borders,
width, layout, indent and default cell margins under the table's own; alignment left, indent 0, cell margins Word's
0.19 cm left and right, cell vertical alignment top and text direction lrTb by default) and cells as effective
properties (a cell's own border sides and margins over the table's, a border side of its own against the table's
line at its place, a side it does not set its neighbour's opposite side where the neighbour sets it - the line
between two cells written on either cell -, an automatic or zero cell width as its grid columns); colour ``auto`` vs ``000000`` (text and
lines); image file and drawing names; list numbering ids (the list kind, level, number format and the label each
item shows, counted as Word counts, are compared); a header or footer linked to the previous section vs an
identical copy; core properties that saving changes (revision, last modified by); comment and note ids; what Word
does not draw: one column's spacing and separator, decimal page numbers, a row height "auto" or 0, a field's
``\\* MERGEFORMAT`` and ``\\* Arabic`` switches and the case of its name.

Effective run formatting: bold, italic, underline, strike, double strike, caps, small caps, hidden, superscript,
subscript, font, East Asian font, size, colour, highlight, shading, character spacing, raised or lowered position,
width scale, outline, shadow, emboss and imprint.

Besides texts, styles and effective formatting, the judge compares properties that show on the page but are easy to
leave out: each side of a paragraph, table or cell border (style, width, colour, distance from the text, shadow; a
cell's sides where either cell sets them); a cell's width (its ``w:tcW``, what Word lays out by, where either side's is out of step with its grid
columns: else the column widths say it), margins (where either cell sets them) and text direction; a table's indent;
where a line, page or column break sits (a column break recorded as a page break is, with no character in the text);
the order of the paragraphs of a cell, a header or a footer; a header's or footer's tables, pictures and hyperlinks
as the body's (cells, size, image, target); the text a comment is on (not only its paragraph); where a footnote's or
endnote's reference mark sits in its paragraph (the text before it, when both paragraphs have the same text); a
picture's image (a digest of its bytes, so "replace the picture" left undone is seen while file names still do not
count) and its cropping; a section's page borders, the text's vertical alignment on the page, line numbers and
columns of unequal widths; a header's or footer's fields in order (PAGE and NUMPAGES swapped is "Page 5 of 1").

Tolerances a person would accept (each tested in tests/test_judge.py):

| tolerance | rule | applies |
|---|---|---|
| whitespace at the ends of texts | texts are compared with leading and trailing spaces and line ends removed; not tabs (a tab at the start indents the text) | always |
| formatting of spaces | bold, italic, font, size, colour, raised or lowered position, outline, shadow, emboss and imprint of whitespace-only stretches are not compared (underline, strike, highlight and shading are: they show on spaces; so are character spacing and width scale: they widen a space as any character) | always |
| lengths | centimetre values within 0.05 cm (page size, margins, indents, image size, column widths, table width and indent, cell widths and margins) | always |
| spacing | paragraph spacing within 0.5 pt, line spacing within 0.01 lines (indents in characters and spacing in lines, stored in hundredths, exactly; a run's character spacing and position exactly, as its size: a spacing adds up along a line) | always |
| border widths | paragraph, table and cell border widths within 0.125 pt (Word stores eighths of a point) | always |
| cropping | each side of a picture's crop within 0.5 % (a side not cropped: 0 %) | always |
| named colours | a colour the instruction names in words ("blue", "蓝色") matches any colour of that name, from the HSV ranges in ``colour_names.json`` ("blue" accepts 0000FF and 0070C0, not 00B050; light and pale names cover Word's theme tints and the web colours of that name: "light green" accepts E2EFDA, C6EFCE and 90EE90, "pale yellow" FFF2CC and FFFF99; an automatic text or line colour counts as 000000, so "black" accepts 0D0D0D against it) | only when ``instruction`` names the colour, and only for colours both sides have of that name; with ``initial`` given, only for colours the expected document has more of than the initial one (a run's colour counted by its characters: those the instruction set; a heading it left alone is compared exactly) |
| free text | a text the instruction asks the system to write is judged by its place, style, formatting (the format of most of its characters) and length (at least a third of the expected text's length, not empty), not by its words | only with ``free_text=True``; not for texts the instruction dictates (quoted: "...", '...', “...”, 「...」, or written out as they are: "set the cell to 105"; a quoted part of a text must be in the actual one); with ``initial`` given, not for a text the initial document has at the same place (the paragraph, cell, header or footer aligned with it, of one paragraph or several), on either side (an existing text to keep, or one left as it was) |
| the instruction's own | a colour of a named family matches any colour of it (``{"colour": "dark blue"}``, by the ranges of the named-colour rule); a numeric property, by its state key, within a margin (``{"key": "size_pt", "within": 4}``: "make it a bit bigger"); a heading at any of several levels (``{"heading_levels": [2, 3]}``: "Heading 2" and "Heading 3", or "标题 2" and "标题 3", alike; the expected paragraph is then compared at the actual one's level) | only with ``tolerances`` (an instruction's ``accept.tolerances``); each one that turns a difference into a match is named in the verdict's ``tolerances_used`` ("size_pt within 4", "colour dark blue", "heading levels 2-3") |
"""

from __future__ import annotations

import json
import math
import re
import unicodedata
import weakref
from collections import Counter
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from typing import Any, Callable, Hashable, Iterable, Sequence

from autodw.agent.grounding import quotes
from autodw.eval.canonical import Prepared, Source, formatting, prepare
from autodw.state.blocks import field_code, side_order
from autodw.state.effective import (STYLE_PARAGRAPH_KEYS, STYLE_RUN_KEYS, VISIBLE_ON_SPACES, Formatting, dominant_format,
                                    drawn, segments)
from autodw.colours import colour_family, colour_names_in, colour_ranges, same_named_colour
from autodw.errors import ConfigError
from autodw.units import color_name

JUDGE_VERSION = 7
"""Raised whenever a change can turn a verdict; a run records the version its records were judged by (1: before
versions were recorded) and ``autodw bench rescore --rejudge`` judges an older run's outputs again. 5: a run's
automatic colour over its style's, a style's hidden and raised or lowered text, the document defaults' run
formatting, a list level's indent, a border's distance from the text and shadow, header and footer fields in order,
unequal section columns, a character style's toggles over the paragraph style's; one column's spacing, decimal page numbers, automatic or zero row heights and
``\\* MERGEFORMAT`` no longer differ. 6: a field's name in any case and ``\\* Arabic`` are one field code; unequal
section columns are their ``w:col`` children (count, widths, spaces). 7: an instruction's own tolerances (a colour
family, a number within a margin, heading levels), named in the verdict; nothing changes without them."""

CM_TOLERANCE = 0.05
PT_TOLERANCE = 0.5
LINE_TOLERANCE = 0.01
BORDER_TOLERANCE = 0.125  # paragraph, table and cell border widths (pt): Word stores eighths of a point
CROP_TOLERANCE = 0.5  # picture cropping, percent of a side
FREE_TEXT_MIN_RATIO = 1 / 3
MAX_DIFFERENCES = 200
_COLOUR_KEYS = {"color", "shading", "fill"}
_UNITS = ("_cm", "_pt", "_pct")
_EXACT_PT = {"size_pt", "char_spacing_pt", "position_pt"}  # run measures: no tolerance (a spacing adds up along a line)
_AUTO_COLOUR = "000000"  # an automatic colour, for the named-colour tolerance (a missing fill is no fill: not this)
_SNIPPET = 40
_ENDS = "".join(ch for ch in map(chr, range(0x3001)) if ch.isspace() and ch != "\t")  # what trimming removes
_END_PUNCTUATION = " \t.,;:!?。，；：！？"
_LISTED = 5  # stretches of text named in one difference
_HEADING = re.compile(r"(?:heading|标题)\s*(\d)", re.IGNORECASE)  # a heading style's name: "Heading 2", "标题 2"


@dataclass(frozen=True)
class Difference:
    """One reason the documents differ: where (the element, described by its text) and what (expected vs actual)."""

    where: str
    what: str

    def to_dict(self) -> dict[str, str]:
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
        if key in _COLOUR_KEYS and self.families:
            e, a = (_AUTO_COLOUR if key == "color" and not inner and v in (None, "auto") else v for v in (e, a))
            name = same_named_colour(e, a, list(self.families)) if isinstance(e, str) and isinstance(a, str) else None
            return f"colour {name}" if name else None
        numbers = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (e, a))
        return next((f"{k} within {margin:g}" for k, margin in self.within
                     if k == key and numbers and abs(e - a) <= margin + 1e-9), None)

    def heading_tolerated(self, e: str | None, a: str | None) -> str | None:
        """The heading-levels tolerance (named) that accepts paragraph style `a` for expected `e`, or None."""
        le, la = (_HEADING.fullmatch(s or "") for s in (e, a))
        if not (le and la):
            return None
        levels = next((ls for ls in self.heading_levels if {int(le[1]), int(la[1])} <= set(ls)), None)
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


def judge(expected: Source, actual: Source, *, instruction: str | None = None, free_text: bool = False,
          initial: Source | None = None, tolerances: Iterable[dict[str, Any]] = ()) -> Verdict:
    """Compare `actual` with `expected` (documents, paths, extracted states or prepared documents).

    `instruction` enables the named-colour tolerance for the colours it names (with `initial`, only where the
    expected document set them); `free_text` the free-text tolerance (not for a text `initial`, when given, has at
    the same place); `tolerances` the instruction's own (``accept.tolerances``: module docstring), those that turned a
    difference into a match named in the verdict's ``tolerances_used``. Raises DocumentError for a
    file that cannot be opened and ConfigError for a dict that is not a state, or a tolerance of no known kind.
    """
    exp, act = prepare(expected), prepare(actual)
    if exp.paragraph_defaults is None or act.paragraph_defaults is None:  # a state on one side: neither is known
        exp, act = Prepared(exp.state, None, exp.name), Prepared(act.state, None, act.name)
    comparer = _Comparer(exp, act, JudgeContext.make(instruction, free_text, initial, tolerances))
    diffs = comparer.run()
    count = len(diffs)
    if count > MAX_DIFFERENCES:
        diffs = diffs[:MAX_DIFFERENCES] + [Difference("document", f"{count - MAX_DIFFERENCES} more difference(s) not listed")]
    return Verdict(not diffs, diffs, count=count, tolerances_used=list(comparer.used))


# --- alignment ------------------------------------------------------------------------------------


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


def _ratio(x: str, y: str) -> float:
    sm = SequenceMatcher(None, x, y, autojunk=False)
    return sm.ratio() if sm.real_quick_ratio() >= 0.5 and sm.quick_ratio() >= 0.5 else 0.0


# --- describing --------------------------------------------------------------------------------------


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
        named = color_name(value) if key in _COLOUR_KEYS else None
        return f"{value} ({named})" if named else json.dumps(value, ensure_ascii=False)
    elif isinstance(value, list) and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value):
        text = json.dumps(value)  # lengths: one unit after them
    else:
        return json.dumps(value, ensure_ascii=False)
    unit = " cm" if key.endswith("_cm") else " pt" if key.endswith("_pt") else " %" if key.endswith("_pct") else ""
    return text + unit


def _label(path: Iterable[str]) -> str:
    words = []
    for part in path:
        for suffix in _UNITS:
            part = part[: -len(suffix)] if part.endswith(suffix) else part
        words.append(part.replace("_", " "))
    return " ".join(words)


def _text_difference(e: str, a: str) -> str:
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


# --- comparing -----------------------------------------------------------------------------------


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
                if key in _COLOUR_KEYS and isinstance(value, str):
                    counts[value] += weight
                else:
                    stack.append(value)
        elif isinstance(item, list):
            stack.extend(item)
    return counts


class _Comparer:
    """One comparison of two prepared documents; differences collected in document order."""

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
        # the initial document's texts at the places of the expected and actual paragraphs, by id (free text)
        self.initial_e = _initial_texts(ctx.initial, exp) if ctx.initial is not None and ctx.free_text else {}
        self.initial_a = _initial_texts(ctx.initial, act) if ctx.initial is not None and ctx.free_text else {}

    def run(self) -> list[Difference]:
        self._describe_paragraphs()
        self._body()
        self._tables()
        self._images()
        self._sections()
        self._interactive()
        self._document_info()
        self._styles()
        return self.diffs

    def add(self, where: str, what: str) -> None:
        self.diffs.append(Difference(where, what))

    # values ---------------------------------------------------------------------------------------

    def same(self, key: str, e: Any, a: Any, inner: bool = False) -> bool:
        """Equal up to the tolerances that apply to `key`, the instruction's own last (recorded when one accepts);
        `inner`: a value inside another (a watermark's colour, whose default is not black as a run's or a line's is)."""
        return self._same(key, e, a, inner) or self.use(self.ctx.tolerated(key, e, a, inner))

    def use(self, tolerance: str | None) -> bool:
        """Record the instruction's `tolerance` (None: none accepts) as used; whether there is one."""
        if tolerance is not None:
            self.used[tolerance] = None
        return tolerance is not None

    def _same(self, key: str, e: Any, a: Any, inner: bool = False) -> bool:
        """:meth:`same` without the instruction's own tolerances (at this level: inner values get them)."""
        if e == a:
            return True
        if key in _COLOUR_KEYS and (isinstance(e, str) or isinstance(a, str)):
            automatic = e in (None, "auto")
            if key == "color" and not inner:  # automatic (none) text and line colour is black: "black" accepts 0D0D0D
                e, a = (_AUTO_COLOUR if v in (None, "auto") else v for v in (e, a))
                if e == a:
                    return True
            if self.new_colours is not None and not automatic and e not in self.new_colours:
                return False  # a colour the instruction did not set (an automatic one has no count to compare)
            return isinstance(e, str) and isinstance(a, str) and \
                same_named_colour(e, a, list(self.ctx.colour_names)) is not None
        if isinstance(e, (int, float)) and isinstance(a, (int, float)) and not isinstance(e, bool) and not isinstance(a, bool):
            tol = CM_TOLERANCE if key.endswith("_cm") else LINE_TOLERANCE if key == "line" else \
                BORDER_TOLERANCE if key == "width_pt" else CROP_TOLERANCE if key.endswith("_pct") else PT_TOLERANCE if key.endswith("_pt") and key not in _EXACT_PT else 0
            return abs(e - a) <= tol + 1e-9
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
                unit = next((k for k in (key, *path[::-1]) if k.endswith(_UNITS)), key) if key not in _COLOUR_KEYS else key
                none = "none" if path else None  # a colour within a setting (a watermark's) is not automatic
                out.append(f"{_label(path + (key,))}: expected {show(ev, unit, none)}, actual {show(av, unit, none)}")
        return out

    def border_fields(self, e: dict[str, Any] | None, a: dict[str, Any] | None) -> list[str]:
        """`what` parts for paragraph and table borders: each side's style, width and colour; sides with the same
        difference named together ("border top/left/bottom/right color: ...")."""
        e, a = e or {}, a or {}
        by_what: dict[str, list[str]] = {}
        for side in sorted(set(e) | set(a), key=side_order):
            le, la = e.get(side), a.get(side)
            if le is None or la is None:
                by_what.setdefault(f": expected {_line(le)}, actual {_line(la)}", []).append(side)
                continue
            for part in self.fields(le, la, ("style", "width_pt", "color", "space_pt", "shadow")):
                by_what.setdefault(" " + part, []).append(side)
        return [f"border {'/'.join(sides)}{what}" for what, sides in by_what.items()]

    def text_same(self, e: str, a: str) -> bool:
        """Equal after trimming the ends (:func:`trimmed`); or, for free text, a plausible written text (see the module
        docstring)."""
        e, a = trimmed(e), trimmed(a)
        return e == a or self.free_text_ok(e, a)

    def free_text_ok(self, e: str, a: str, places: tuple[str, str] | None = None) -> bool:
        """Whether `a` is a plausible written text for `e`; `places`: their paragraphs' ids (or a cell's or a story's,
        :func:`_whole`), a text the initial document has at either place is not written (an existing text to keep, or
        one left as it was)."""
        e, a = trimmed(e), trimmed(a)
        if not self.ctx.free_text or not e or not a:
            return False
        if places is not None and (e == self.initial_e.get(places[0]) or a == self.initial_a.get(places[1])):
            return False
        if self.ctx.dictates(e, a):
            return False
        return len(a) >= math.ceil(len(e) * FREE_TEXT_MIN_RATIO)

    # paragraphs -------------------------------------------------------------------------------------

    def _describe_paragraphs(self) -> None:
        for state, out, cells in ((self.e, self.pdesc_e, self.cells_e), (self.a, self.pdesc_a, self.cells_a)):
            previous = None
            for p in state["paragraphs"]:
                out[p["id"]] = _paragraph_description(p, previous)
                if p["text"].strip():
                    previous = p["text"]
            for t in [*state["tables"], *(t for story in _stories(state) for t in story.get("table_details", []))]:
                for row in t.get("cell_details", []):
                    for cell in row:
                        for p in (cell or {}).get("paragraphs", []):
                            cells[p["id"]] = p
            cells.update({p["id"]: p for story in _stories(state) for p in story.get("paragraph_details") or []})
        for state, texts, cells in ((self.e, self.ptext_e, self.cells_e), (self.a, self.ptext_a, self.cells_a)):
            texts.update({p["id"]: p["text"] for p in state["paragraphs"]})
            texts.update({pid: p["text"] for pid, p in cells.items()})

    def describe_e(self, pid: str | None) -> str:
        if pid in self.cells_e:
            return _paragraph_description(self.cells_e[pid], None)
        return self.pdesc_e.get(pid or "", "the start of the document" if pid is None else f"paragraph {pid}")

    def describe_a(self, pid: str | None) -> str:
        """An actual paragraph as the expected one it corresponds to, else as new."""
        if pid in self.pmap:
            return self.describe_e(self.pmap[pid])
        if pid is None:
            return "the start of the document"
        described = _paragraph_description(self.cells_a[pid], None) if pid in self.cells_a else self.pdesc_a.get(pid, f"paragraph {pid}")
        return described.replace(f"({pid})", "(new)")

    def _body(self) -> None:
        pe, pa = self.e["paragraphs"], self.a["paragraphs"]
        ke, ka = [trimmed(p["text"]) for p in pe], [trimmed(p["text"]) for p in pa]
        al = align(ke, ka, lambda i, j: _ratio(ke[i], ka[j]))
        for i, j in al.pairs + al.moved:
            self.pmap[pa[j]["id"]] = pe[i]["id"]
        events: list[tuple[int, float, Callable[[], None]]] = []
        for i, j in al.pairs:
            events.append((i, 0, lambda i=i, j=j: self.paragraph(self.describe_e(pe[i]["id"]), pe[i], pa[j])))
        for i, j in al.moved:
            events.append((i, 0, lambda i=i, j=j: self._moved(pe, pa, i, j)))
        for i in al.missing:
            events.append((i, 0, lambda i=i: self.add(self.describe_e(pe[i]["id"]), "missing: the paragraph is absent "
                                                       "from the actual document")))
        for j in al.extra:
            before = self._expected_position(pa, j)
            events.append((before, 0.5, lambda j=j: self.add(
                f"extra paragraph {snippet(pa[j]['text'])}" if pa[j]["text"].strip() else "extra empty paragraph",
                f"unexpected: not in the expected document (actual paragraph {j + 1}, after "
                f"{self.describe_a(pa[j - 1]['id']) if j else 'the start of the document'})")))
        for _, _, emit in sorted(events, key=lambda ev: (ev[0], ev[1])):
            emit()

    def _expected_position(self, pa: list[dict[str, Any]], j: int) -> int:
        """Index in the expected paragraphs just after which the actual paragraph `j` sits."""
        order = {pid: k for k, pid in enumerate(p["id"] for p in self.e["paragraphs"])}
        for k in range(j - 1, -1, -1):
            if pa[k]["id"] in self.pmap:
                return order[self.pmap[pa[k]["id"]]]
        return -1

    def _moved(self, pe: list[dict[str, Any]], pa: list[dict[str, Any]], i: int, j: int) -> None:
        where = self.describe_e(pe[i]["id"])
        exp_after = self.describe_e(pe[i - 1]["id"]) if i else "the start of the document"
        act_after = self.describe_a(pa[j - 1]["id"]) if j else "the start of the document"
        self.add(where, f"order: expected after {exp_after}, actual after {act_after}")
        self.paragraph(where, pe[i], pa[j])

    def paragraphs(self, where: str, te: str, ta: str, pe: list[dict[str, Any]], pa: list[dict[str, Any]]) -> None:
        """The paragraphs of a table cell or a header or footer (texts `te`, `ta`), aligned by text: each pair compared
        (one paragraph each side: `where` itself), a paragraph found at another place reported as out of order; missing
        and extra ones, when the whole texts differ (trimmed, and not as free text), one by one, or as a difference of
        the whole text if no paragraph corresponds."""
        ke, ka = [trimmed(p["text"]) for p in pe], [trimmed(p["text"]) for p in pa]
        al = Alignment([(0, 0)], [], [], []) if len(pe) == len(pa) == 1 else align(ke, ka, lambda i, j: _ratio(ke[i], ka[j]))
        for i, j in sorted(al.pairs + al.moved):
            self.pmap[pa[j]["id"]] = pe[i]["id"]
            at = where if len(pe) == len(pa) == 1 else _nth(i, ke[i], where)
            if (i, j) in al.moved:
                self.add(at, f"order: expected paragraph {i + 1}, actual paragraph {j + 1}")
            self.paragraph(at, pe[i], pa[j])
        places = (_whole(pe[0]["id"]), _whole(pa[0]["id"])) if pe and pa else None
        if not (al.missing or al.extra) or trimmed(te) == trimmed(ta) or self.free_text_ok(te, ta, places):
            return
        if not (al.pairs or al.moved):
            self.add(where, _text_difference(te, ta))
            return
        for i in al.missing:
            self.add(_nth(i, ke[i], where), "missing: the paragraph is absent from the actual document")
        for j in al.extra:
            self.add(f"extra paragraph {snippet(ka[j])} in {where}" if ka[j] else f"extra empty paragraph in {where}",
                     f"unexpected: not in the expected document (actual paragraph {j + 1} of {len(pa)})")

    def paragraph(self, where: str, pe: dict[str, Any], pa: dict[str, Any]) -> None:
        """Compare two corresponding paragraphs: text, style, paragraph format, list, run formatting (a heading at
        another level the instruction accepts: the expected paragraph at that level, as the actual document's styles
        make it; the styles themselves are compared apart)."""
        resolve_e = self.fe
        if pe.get("style") != pa.get("style") and self.use(self.ctx.heading_tolerated(pe.get("style"), pa.get("style"))):
            pe, resolve_e = {**pe, "style": pa.get("style")}, self.fa
        if self.same_styles and _same_raw(pe, pa):
            return
        te, ta = pe["text"], pa["text"]
        free = False
        if trimmed(te) != trimmed(ta):
            free = self.free_text_ok(te, ta, (pe["id"], pa["id"]))
            if not free:
                self.add(where, _text_difference(te, ta))
        parts = []
        if pe.get("style") != pa.get("style"):
            parts.append(f"style: expected {show(pe.get('style'))}, actual {show(pa.get('style'))}")
        fe, fa = resolve_e.paragraph(pe), self.fa.paragraph(pa)
        parts += self.fields(fe, fa, [k for k in fe if k != "border"])
        parts += self.border_fields(fe.get("border"), fa.get("border"))
        later: list[tuple[str, str]] = []
        if free or (trimmed(te) != trimmed(ta) and _ratio(te, ta) < 0.5):  # other words: their format as a whole
            de, da = dominant_format(pe, resolve_e), dominant_format(pa, self.fa)
            runs = self.fields(de, da, list(de)) if de and da else []
            if runs:
                parts.append("formatting of most of the text: " + "; ".join(runs))
        else:
            for at, what in self._runs(where, pe, pa, resolve_e):
                parts.append(what) if at == where else later.append((at, what))
        if parts:
            self.add(where, "; ".join(parts))
        for at, what in later:
            self.add(at, what)

    def _runs(self, where: str, pe: dict[str, Any], pa: dict[str, Any], resolve_e: Formatting) -> list[tuple[str, str]]:
        """(where, what) of the run formatting that differs, by stretch of text (whole paragraph: `where`); the
        expected runs resolved by `resolve_e`."""
        te, ta = pe["text"], pa["text"]
        se, sa = segments(pe, resolve_e), segments(pa, self.fa)
        if len(se) == 1 and len(sa) == 1 and se[0][2] == sa[0][2]:
            return []
        blocks = [(0, 0, len(te))] if te == ta else \
            [(i, j, n) for i, j, n in SequenceMatcher(None, te, ta, autojunk=False).get_matching_blocks() if n >= 3]
        found: list[tuple[int, int, str, Any, Any]] = []  # expected start, end, key, expected value, actual value
        open_: dict[tuple[str, Any, Any], int] = {}  # the last range of each (key, values), to extend
        for i0, j0, n in blocks:
            for start, end, f_e, f_a in _overlaps(se, sa, i0, j0, n):
                blank = not te[start:end].strip()
                for key, ev in f_e.items():
                    av = f_a.get(key)
                    if (blank and key not in VISIBLE_ON_SPACES) or self.same(key, ev, av):
                        continue
                    k = open_.get((key, ev, av))
                    if k is not None and found[k][1] >= start - _gap(te, found[k][1], start):
                        found[k] = (found[k][0], end, key, ev, av)
                    else:
                        open_[(key, ev, av)] = len(found)
                        found.append((start, end, key, ev, av))
        by_range: dict[tuple[int, int], list[str]] = {}
        for start, end, key, ev, av in found:
            by_range.setdefault((start, end), []).append(f"{_label((key,))}: expected {show(ev, key)}, actual {show(av, key)}")
        whole = (len(te) - len(te.lstrip()), len(te.rstrip()))
        by_what: dict[str, list[tuple[int, int]]] = {}  # the same change on several stretches: one difference
        for rng, parts in by_range.items():
            by_what.setdefault("; ".join(parts), []).append(rng)
        out = []
        for what, ranges in by_what.items():
            if len(ranges) == 1 and ranges[0][0] <= whole[0] and ranges[0][1] >= whole[1]:
                out.append((where, what))
                continue
            shown = ", ".join(snippet(te[a:b]) for a, b in ranges[:_LISTED])
            more = f" and {len(ranges) - _LISTED} more" if len(ranges) > _LISTED else ""
            out.append((f"text {shown}{more} in {where}", what))
        return out

    # tables -----------------------------------------------------------------------------------------------

    def _tables(self) -> None:
        self.table_list(self.e["tables"], self.a["tables"])

    def table_list(self, te: list[dict[str, Any]], ta: list[dict[str, Any]], within: str = "") -> None:
        """Align two lists of tables (the body's, or a header's or footer's: `within` names it) and compare them."""
        at = f" in {within}" if within else ""
        ce = [tuple(tuple(c.strip() for c in r) for r in t["cells"]) for t in te]
        ca = [tuple(tuple(c.strip() for c in r) for r in t["cells"]) for t in ta]
        # keyed by place and content: tables with the same cells (common in forms) stay apart by where they are
        ke = [(self._table_anchor(t, False), c) for t, c in zip(te, ce)]
        ka = [(self._table_anchor(t, True), c) for t, c in zip(ta, ca)]
        flat_e = [" ".join(" ".join(r) for r in k) for k in ce]
        flat_a = [" ".join(" ".join(r) for r in k) for k in ca]
        al = align(ke, ka, lambda i, j: _ratio(flat_e[i], flat_a[j]), moves=(ce, ca))
        for i, j in sorted(al.pairs + al.moved):
            self.table(_table_where(i, te[i]) + at, te[i], ta[j])
        for i in al.missing:
            self.add(_table_where(i, te[i]) + at, "missing: the table is absent from the actual document")
        for j in al.extra:
            t = ta[j]
            self.add(f"extra table {snippet(' | '.join(t['cells'][0]) if t['cells'] else '')}{at}",
                     f"unexpected: not in the expected document ({t['rows']} rows x {t['cols']} columns, after "
                     f"{self.describe_a(t.get('after_paragraph'))})")

    def _table_anchor(self, t: dict[str, Any], actual: bool) -> Hashable:
        if "nested_in" in t:
            return ("nested", t["nested_in"].get("row"), t["nested_in"].get("col"))
        return self._expected_id(t.get("after_paragraph")) if actual else t.get("after_paragraph")

    def table(self, where: str, te: dict[str, Any], ta: dict[str, Any]) -> None:
        """Compare two corresponding tables (`where`: the expected one described): place, properties, rows, cells."""
        if "nested_in" not in te and self._expected_id(ta.get("after_paragraph")) != te.get("after_paragraph"):
            self.add(where, f"position: expected after {self.describe_e(te.get('after_paragraph'))}, "
                            f"actual after {self.describe_a(ta.get('after_paragraph'))}")
        ne, na = self._table_props(te, self.fe), self._table_props(ta, self.fa)
        parts = self.fields(ne, na, ("style", *_TABLE_KEYS, "header_rows", "exact_height_rows"))
        parts += self.border_fields(ne["borders"], na["borders"])
        if (te["rows"], te["cols"]) != (ta["rows"], ta["cols"]):
            parts.insert(0, f"size: expected {te['rows']} rows x {te['cols']} columns, actual {ta['rows']} rows x {ta['cols']} columns")
        if parts:
            self.add(where, "; ".join(parts))
        rows_e = [tuple(c.strip() for c in r) for r in te["cells"]]
        rows_a = [tuple(c.strip() for c in r) for r in ta["cells"]]
        if len(rows_e) == len(rows_a):  # as many rows: row by row (a content match could pair one of several empty rows)
            ral = Alignment([(i, i) for i in range(len(rows_e))], [], [], [])
        else:
            ral = align(rows_e, rows_a, lambda i, j: _ratio(" ".join(rows_e[i]), " ".join(rows_a[j])))
        for i in ral.missing:
            self.add(f"{where} row {i + 1}", f"missing row: expected {snippet(' | '.join(rows_e[i]), 60)}, actual none")
        for j in ral.extra:
            self.add(f"{where}", f"extra row {snippet(' | '.join(rows_a[j]), 60)} (actual row {j + 1})")
        for i, j in ral.moved:
            self.add(f"{where} row {i + 1}", f"order: expected row {i + 1}, actual row {j + 1}")
        row_pairs = sorted(ral.pairs + ral.moved)
        col_pairs = self._columns(where, te, ta, row_pairs)
        cmap_r = {j: i for i, j in row_pairs}
        cmap_c = {j: i for i, j in col_pairs}
        de, da = te.get("cell_details", []), ta.get("cell_details", [])
        # cells in the same place of tables formatted alike have the same format (a large table's cells are not each
        # resolved twice)
        alike = ne == na and (te["rows"], te["cols"], te.get("column_widths_cm")) == \
            (ta["rows"], ta["cols"], ta.get("column_widths_cm")) and _frames(de) == _frames(da)
        for i, j in row_pairs:
            if te["row_heights_cm"][i:i + 1] and ta["row_heights_cm"][j:j + 1] and \
                    not self.same("height_cm", te["row_heights_cm"][i], ta["row_heights_cm"][j]):
                self.add(f"{where} row {i + 1}", f"height: expected {show(te['row_heights_cm'][i], '_cm')}, "
                                                 f"actual {show(ta['row_heights_cm'][j], '_cm')}")
            for ci, cj in col_pairs:
                ce = de[i][ci] if i < len(de) and ci < len(de[i]) else None
                ca = da[j][cj] if j < len(da) and cj < len(da[j]) else None
                formats = None if alike and (i, ci) == (j, cj) else \
                    (_cell_format(ce, te, ne, i, ci), _cell_format(ca, ta, na, j, cj))
                self.cell(f"{where} row {i + 1} cell {ci + 1}", ce, ca, formats)
        merged_e = {tuple(m) for m in te.get("merged", [])}
        merged_a = set()
        for r1, c1, r2, c2 in ta.get("merged", []):
            corners = (cmap_r.get(r1), cmap_c.get(c1), cmap_r.get(r2), cmap_c.get(c2))
            merged_a.add(corners if None not in corners else ("actual",) + (r1, c1, r2, c2))
        for m in sorted(merged_e - merged_a):
            self.add(f"{where} cells {_cells(m)}", "merged: expected yes, actual no")
        for m in sorted(merged_a - merged_e, key=str):
            label = _cells(m) if m[0] != "actual" else _cells(m[1:]) + " (actual rows and columns)"
            self.add(f"{where} cells {label}", "merged: expected no, actual yes")
        widths_e, widths_a = te.get("column_widths_cm", []), ta.get("column_widths_cm", [])
        if len(widths_e) == len(widths_a) and not self.same("widths_cm", widths_e, widths_a):
            self.add(where, f"column widths: expected {widths_e} cm, actual {widths_a} cm")

    @staticmethod
    def _table_props(t: dict[str, Any], fmt) -> dict[str, Any]:
        """A table's effective properties: its style's (chain) under its own, side by side for borders and default cell
        margins (Word's when nothing sets them); alignment left and indent 0 when nothing sets them; a width in
        centimetres as a length."""
        out = {k: t.get(k) for k in ("style", "header_rows", "exact_height_rows")}
        props: dict[str, Any] = {"alignment": "left", "autofit": True, "indent_cm": 0.0}
        borders: dict[str, dict[str, Any]] = {}
        margins = dict(_CELL_MARGINS_CM)
        for layer in [s.get("table") or {} for s in fmt.chain(t.get("style"))] + [t]:
            props.update({k: layer[k] for k in ("alignment", "width", "autofit", "indent_cm") if k in layer})
            borders.update(layer.get("borders") or {})
            margins.update(layer.get("cell_margins_cm") or {})
        out.update(props, borders=drawn(borders), **{f"cell_margin_{side}_cm": cm for side, cm in margins.items()})
        out.update(_length(out.pop("width", None)))
        return out

    def _columns(self, where: str, te: dict[str, Any], ta: dict[str, Any],
                 row_pairs: list[tuple[int, int]]) -> list[tuple[int, int]]:
        if te["cols"] == ta["cols"]:
            return [(c, c) for c in range(te["cols"])]
        cols_e = [tuple(te["cells"][i][c].strip() for i, _ in row_pairs) for c in range(te["cols"])]
        cols_a = [tuple(ta["cells"][j][c].strip() for _, j in row_pairs) for c in range(ta["cols"])]
        cal = align(cols_e, cols_a, lambda i, j: _ratio(" ".join(cols_e[i]), " ".join(cols_a[j])))
        for c in cal.missing:
            self.add(f"{where} column {c + 1}", f"missing column: expected {snippet(' | '.join(cols_e[c]), 60)}, actual none")
        for c in cal.extra:
            self.add(where, f"extra column {snippet(' | '.join(cols_a[c]), 60)} (actual column {c + 1})")
        return sorted(cal.pairs + cal.moved)

    def cell(self, where: str, ce: dict[str, Any] | None, ca: dict[str, Any] | None,
             formats: tuple[dict[str, Any], dict[str, Any]] | None) -> None:
        """Compare two corresponding cells (`formats`: their :func:`_cell_format`s, None when they are known to be the
        same): formatting, then paragraphs. The
        width, margins and border sides are compared where either cell sets them (else the table's differences say
        it): a cell's own value against what the other cell has there, its own or the table's; the width only when one
        side's is out of step with its grid columns (else the column widths say it)."""
        ce, ca = ce or {}, ca or {}
        if ce.get("gap") or ca.get("gap"):
            if bool(ce.get("gap")) != bool(ca.get("gap")):
                self.add(where, f"cell: expected {'none' if ce.get('gap') else 'a cell'}, actual {'none' if ca.get('gap') else 'a cell'}")
            return
        if "text" not in ce or "text" not in ca:  # merged continuations: the merge regions say it
            return
        where = f"{where} {snippet(ce['text'])}" if ce["text"].strip() else f"{where} (empty)"
        if formats is not None:
            self._cell_formats(where, ce, ca, *formats)
        self.paragraphs(where, ce["text"], ca["text"], ce.get("paragraphs", []), ca.get("paragraphs", []))

    def _cell_formats(self, where: str, ce: dict[str, Any], ca: dict[str, Any], fe: dict[str, Any],
                      fa: dict[str, Any]) -> None:
        parts = self.fields(fe, fa, ("shading", "vertical_alignment", "text_direction"))
        if ("width" in ce or "width" in ca) and \
                not all(self._same("width_cm", f.get("width_cm"), f["columns_cm"]) for f in (fe, fa)):
            parts += self.fields(fe, fa, ("width", "width_cm"))
        parts += self.fields(fe, fa, [f"margin_{side}_cm" for side in sorted({*ce.get("margins_cm", {}), *ca.get("margins_cm", {})},
                                                                          key=side_order)])
        sides = {*(ce.get("borders") or {}), *(ca.get("borders") or {})}
        parts += self.border_fields({s: line for s, line in fe["borders"].items() if s in sides},
                                    {s: line for s, line in fa["borders"].items() if s in sides})
        if parts:
            self.add(where, "; ".join(parts))

    # images, charts, shapes ---------------------------------------------------------------------------------

    def _images(self) -> None:
        self.image_list(self.e["images"], self.a["images"])

    def image_list(self, ie: list[dict[str, Any]], ia: list[dict[str, Any]], within: str = "") -> None:
        """Align two lists of drawings (the body's, or a header's or footer's: `within` names it) and compare them:
        place, size, cropping, the picture's image, a chart's data."""
        ke = [(x.get("type"), x.get("paragraph")) for x in ie]
        ka = [(x.get("type"), self._expected_id(x.get("paragraph"))) for x in ia]
        al = align(ke, ka)
        for i, j in sorted(al.pairs + al.moved):
            where = self._image_where(ie, i, within)
            if ke[i][1] != ka[j][1]:
                self.add(where, f"position: expected in {self.describe_e(ie[i].get('paragraph'))}, "
                                f"actual in {self.describe_a(ia[j].get('paragraph'))}")
            keys = ("type", "placement", "width_cm", "height_cm", "width", "height", "alt_text", "wrap", "position",
                    "crop", "chart_type", "title", "legend", "categories", "series", "text")
            parts = self.fields({**ie[i], "crop": _crop(ie[i])}, {**ia[j], "crop": _crop(ia[j])}, keys)
            if ie[i].get("image_hash") != ia[j].get("image_hash") and ie[i].get("image_hash") and ia[j].get("image_hash"):
                parts.insert(0, "picture: another image (the picture's content differs)")
            if parts:
                self.add(where, "; ".join(parts))
        for i in al.missing:
            self.add(self._image_where(ie, i, within), "missing: absent from the actual document")
        for j in al.extra:
            x = ia[j]
            self.add(f"extra {x.get('type', 'drawing')}" + (f" {snippet(x['title'])}" if x.get("title") else "") +
                     (f" in {within}" if within else ""),
                     f"unexpected: in {self.describe_a(x.get('paragraph'))}, {show(x.get('width_cm'), '_cm')} x "
                     f"{show(x.get('height_cm'), '_cm')}")

    def _image_where(self, images: list[dict[str, Any]], i: int, within: str = "") -> str:
        x = images[i]
        kind = x.get("type", "drawing")
        number = sum(1 for y in images[: i + 1] if y.get("type") == kind)
        name = f" {snippet(x['title'])}" if x.get("title") else f" {snippet(x['alt_text'])}" if x.get("alt_text") else ""
        return f"{kind} {number}{name} in {within or self.describe_e(x.get('paragraph'))}"

    # page layout --------------------------------------------------------------------------------------------

    def _sections(self) -> None:
        se, sa = self.e["page_layout"]["sections"], self.a["page_layout"]["sections"]
        if len(se) != len(sa):
            self.add("document", f"sections: expected {len(se)}, actual {len(sa)}")
        keys = ("start", "orientation", "page_width_cm", "page_height_cm", "margins_cm", "columns", "page_numbering",
                "vertical_alignment", "page_borders", "line_numbering", "different_first_page", "different_odd_even")  # watermarks: compared with the headers that hold them
        for n, (xe, xa) in enumerate(zip(se, sa), 1):
            parts = self.fields(xe, xa, keys)
            if parts:
                self.add(f"page setup of section {n}", "; ".join(parts))
            for key in ("headers", "footers"):
                for kind in sorted(set(xe.get(key, {})) | set(xa.get(key, {}))):
                    self._story(f"{'' if kind == 'default' else kind + '-page '}{key[:-1]} of section {n}",
                                xe.get(key, {}).get(kind), xa.get(key, {}).get(kind))
        toc_e, toc_a = self.e["page_layout"].get("table_of_contents"), self.a["page_layout"].get("table_of_contents")
        if bool(toc_e) != bool(toc_a):
            self.add("table of contents", f"present: expected {show(bool(toc_e))}, actual {show(bool(toc_a))}")
        elif toc_e and toc_a:
            parts = self.fields(toc_e, toc_a, ("levels",))
            if [t.strip() for t in toc_e.get("entries", [])] != [t.strip() for t in toc_a.get("entries", [])]:
                parts.append(f"entries: expected {show(toc_e.get('entries'))}, actual {show(toc_a.get('entries'))}")
            if parts:
                self.add("table of contents", "; ".join(parts))

    def _story(self, where: str, xe: dict[str, Any] | None, xa: dict[str, Any] | None) -> None:
        if xe is None or xa is None:
            have = xe or xa or {}
            if (have.get("text") or "").strip() or have.get("images") or have.get("tables") or have.get("watermark"):
                self.add(where, f"expected {snippet(xe['text']) if xe else 'none'}, actual {snippet(xa['text']) if xa else 'none'}")
            return
        pe, pa = xe.get("paragraph_details"), xa.get("paragraph_details")
        if pe is None or pa is None:  # a state without the story's paragraphs: texts and alignments as written
            if not self.text_same(xe.get("text", ""), xa.get("text", "")):
                self.add(where, _text_difference(xe.get("text", ""), xa.get("text", "")))
            parts = self.fields(xe, xa, ("alignments",))
        else:  # paragraph by paragraph, as body paragraphs: text, style, effective paragraph and run formatting
            self.paragraphs(where, xe.get("text", ""), xa.get("text", ""), pe, pa)
            parts = []
        parts += self.fields(xe, xa, ("page_number", "fields", "watermark"))
        for key, details in (("tables", "table_details"), ("images", "image_details")):
            if any(x.get(key) and details not in x for x in (xe, xa)):  # a state without them: counted
                if len(xe.get(key, [])) != len(xa.get(key, [])):
                    parts.append(f"{key}: expected {len(xe.get(key, []))}, actual {len(xa.get(key, []))}")
        if parts:
            self.add(where, "; ".join(parts))
        # after the paragraphs, whose pairs place the tables, drawings and links: compared as the body's
        self.table_list(xe.get("table_details", []), xa.get("table_details", []), where)
        self.image_list(xe.get("image_details", []), xa.get("image_details", []), where)
        self.hyperlinks(xe.get("hyperlinks", []), xa.get("hyperlinks", []), where)

    # interactive ---------------------------------------------------------------------------------------------

    def _interactive(self) -> None:
        ie, ia = self.e["interactive"], self.a["interactive"]
        self.hyperlinks(ie["hyperlinks"], ia["hyperlinks"])
        self._records("bookmark", _visible_bookmarks(ie), _visible_bookmarks(ia), ("name",), ("offset",))
        self._records("line break", ie["line_breaks"], ia["line_breaks"], ("paragraph", "offset"), ())
        self._records("page break", ie["page_breaks"], ia["page_breaks"], ("paragraph", "offset"), ())
        self._records("column break", ie.get("column_breaks", []), ia.get("column_breaks", []), ("paragraph", "offset"), ())
        self._records("comment", ie["comments"], ia["comments"], ("text",), ("author", "initials"), refs="paragraphs",
                      check=self._commented_text)
        self._records("footnote", ie["footnotes"], ia["footnotes"], ("text",), (), check=self._note_place)
        self._records("endnote", ie["endnotes"], ia["endnotes"], ("text",), (), check=self._note_place)
        self._records("tracked change", ie["tracked_changes"], ia["tracked_changes"], ("type", "text"), ("author",))
        norm = lambda f: {**f, "instruction": field_code(_toc_unnamed(f, "instruction")["instruction"])}  # noqa: E731
        self._records("field", [norm(f) for f in ie["fields"]], [norm(f) for f in ia["fields"]], ("type", "instruction"), ())

    def hyperlinks(self, he: list[dict[str, Any]], ha: list[dict[str, Any]], within: str = "") -> None:
        """Two lists of hyperlinks (the body's, or a header's or footer's: `within` names it) by text: target, place."""
        links_e, links_a = ([_toc_unnamed(h, "anchor") for h in x] for x in (he, ha))
        self._records("hyperlink", links_e, links_a, ("text",), ("url", "anchor"), within=within)

    def _records(self, kind: str, re_: list[dict[str, Any]], ra: list[dict[str, Any]], key: tuple[str, ...],
                 compared: tuple[str, ...], refs: str = "paragraph",
                 check: Callable[[dict[str, Any], dict[str, Any]], list[str]] | None = None, within: str = "") -> None:
        """Align two lists of records by `key` (texts trimmed, paragraph references in expected ids) and compare them;
        `within`: the story they are in, named instead of their paragraph."""
        def mapped(rec: dict[str, Any], actual: bool) -> Any:
            ref = rec.get(refs)
            conv = self._expected_id if actual else (lambda p: p)
            return tuple(conv(p) for p in ref) if isinstance(ref, list) else conv(ref)

        def k(rec: dict[str, Any], actual: bool) -> tuple:
            return tuple(mapped(rec, actual) if f == refs else _trimmed(rec.get(f)) for f in key)

        def where(rec: dict[str, Any], describe: Callable[[str], str]) -> str:
            name = rec.get("name") or rec.get("text")
            ref = _first(rec.get(refs))
            place = within or (describe(ref) if ref is not None else "the document (between paragraphs)")
            return f"{kind} {snippet(name)} in {place}" if name else f"{kind} in {place}"

        ke, ka = [k(r, False) for r in re_], [k(r, True) for r in ra]
        texts_e = [" ".join(str(x) for x in t) for t in ke]
        texts_a = [" ".join(str(x) for x in t) for t in ka]
        al = align(ke, ka, lambda i, j: _ratio(texts_e[i], texts_a[j]))
        for i, j in sorted(al.pairs + al.moved):
            e, a = re_[i], ra[j]
            parts = []
            if "text" in key and not self.text_same(e.get("text") or "", a.get("text") or ""):
                parts.append(f"text: expected {snippet(e.get('text') or '', 80)}, actual {snippet(a.get('text') or '', 80)}")
            if mapped(e, False) != mapped(a, True):
                parts.append(f"place: expected in {self.describe_e(_first(e.get(refs)))}, "
                             f"actual in {self.describe_a(_first(a.get(refs)))}")
            parts += self.fields(e, a, [f for f in key if f not in ("text", refs)] + list(compared))
            if check is not None and mapped(e, False) == mapped(a, True):
                parts += check(e, a)
            if parts:
                self.add(where(e, self.describe_e), "; ".join(parts))
        for i in al.missing:
            self.add(where(re_[i], self.describe_e), "missing: absent from the actual document")
        for j in al.extra:
            self.add("extra " + where(ra[j], self.describe_a), "unexpected: not in the expected document")

    def _texts(self, pids: Any, actual: bool) -> list[str | None]:
        by_id = self.ptext_a if actual else self.ptext_e
        return [by_id.get(p) for p in (pids if isinstance(pids, list) else [pids])]

    def _commented_text(self, e: dict[str, Any], a: dict[str, Any]) -> list[str]:
        """The text a comment is on (its paragraphs are compared by the caller)."""
        ce, ca = (e.get("commented_text") or "").strip(), (a.get("commented_text") or "").strip()
        if ce == ca:
            return []
        if self.ctx.free_text and [(t or "").strip() for t in self._texts(e.get("paragraphs"), False)] != \
                [(t or "").strip() for t in self._texts(a.get("paragraphs"), True)]:
            return []  # a written text: its words are free, so are the words commented
        return [f"commented text: expected {snippet(ce, 60) if ce else 'none'}, actual {snippet(ca, 60) if ca else 'none'}"]

    def _note_place(self, e: dict[str, Any], a: dict[str, Any]) -> list[str]:
        """Where a note's reference mark sits in its paragraph (compared when both paragraphs have the same text; the
        text before it trimmed as texts are)."""
        (te,), (ta,) = self._texts(e.get("paragraph"), False), self._texts(a.get("paragraph"), True)
        if te is None or ta is None or te.strip() != ta.strip() or "offset" not in e or "offset" not in a:
            return []
        be, ba = te[: min(e["offset"], len(te.rstrip()))].lstrip(), ta[: min(a["offset"], len(ta.rstrip()))].lstrip()
        if be == ba:
            return []

        def after(t: str) -> str:
            return "at the start" if not t.strip() else \
                "after " + json.dumps(("..." if len(t) > 30 else "") + t[-30:], ensure_ascii=False)
        return [f"reference mark: expected {after(be)}, actual {after(ba)}"]

    def _expected_id(self, pid: str | None) -> str | None:
        """An actual paragraph id as the id of the expected paragraph it corresponds to (``new:ID`` if none)."""
        return None if pid is None else self.pmap.get(pid, f"new:{pid}")

    # document properties and styles -----------------------------------------------------------------------------

    def _document_info(self) -> None:
        de, da = self.e["document_info"], self.a["document_info"]
        ce = {k: v for k, v in de.get("core_properties", {}).items() if k not in ("revision", "last_modified_by")}
        ca = {k: v for k, v in da.get("core_properties", {}).items() if k not in ("revision", "last_modified_by")}
        parts = self.fields(ce, ca, sorted(set(ce) | set(ca)))
        parts += [f"custom property {p}" for p in self.fields(de.get("custom_properties", {}), da.get("custom_properties", {}),
                                                               sorted(set(de.get("custom_properties", {})) | set(da.get("custom_properties", {}))))]
        parts += self.fields(de, da, ("track_changes", "protection"))
        if parts:
            self.add("document properties", "; ".join(parts))

    def _styles(self) -> None:
        """The document defaults' run formatting (font, size, colour...), and each style by what it gives (resolved along its chain: theme
        fonts as the theme's, an underline "none" where nothing underlines as none) on what either side's sets; a table
        style by the effective properties of a table of it."""
        parts = self.fields(self.fe.style(None), self.fa.style(None), STYLE_RUN_KEYS)
        if parts:
            self.add("document defaults", "; ".join(parts))
        by_e = {s["name"]: s for s in self.e["styles"]["styles"]}
        by_a = {s["name"]: s for s in self.a["styles"]["styles"]}
        for name in sorted(set(by_e) | set(by_a)):
            e, a = by_e.get(name), by_a.get(name)
            if e is not None and a is not None:
                given = [k for k in (*STYLE_RUN_KEYS, *STYLE_PARAGRAPH_KEYS) if k in e or k in a]
                ve, va = self.fe.style(name), self.fa.style(name)
                parts = self.fields(e, a, ("category", "based_on")) + self.fields(ve, va, [k for k in given if k != "border"])
                parts += self.border_fields(ve["border"], va["border"]) if "border" in given else []
                if e.get("category") == "table":  # what a table of the style has, resolved as tables are
                    te, ta = self._table_props({"style": name}, self.fe), self._table_props({"style": name}, self.fa)
                    parts += self.fields(te, ta, _TABLE_KEYS) + self.border_fields(te["borders"], ta["borders"])
                if parts:
                    self.add(f"style {snippet(name)}", "; ".join(parts))
            elif (e or a).get("custom"):
                self.add(f"style {snippet(name)}", f"custom style: expected {'defined' if e else 'none'}, actual {'defined' if a else 'none'}")


_VOLATILE = {"id", "index", "section"}
_CELL_MARGINS_CM = {"top": 0.0, "left": 0.19, "bottom": 0.0, "right": 0.19}  # Word's (108 twips left and right)
# a table's and a table style's effective properties
_TABLE_KEYS = ("alignment", "width", "width_cm", "autofit", "indent_cm",
               *(f"cell_margin_{side}_cm" for side in _CELL_MARGINS_CM))
_TOC_NAME = re.compile(r"_Toc\d+")


def _line(line: dict[str, Any] | None) -> str:
    """A border line for a `what`: "single 1 pt 0070C0 (blue)", or none."""
    if not line:
        return "none"
    width = f" {show(line['width_pt'], 'width_pt')}" if line.get("width_pt") is not None else ""
    color = f" {show(line['color'], 'color')}" if line.get("color") else ""
    return f"{line.get('style')}{width}{color}"


def _visible_bookmarks(interactive: dict[str, Any]) -> list[dict[str, Any]]:
    """The bookmarks that count: Word's hidden ones (names starting with "_": ``_Hlk``, ``_Ref``...) only when a field
    or a hyperlink refers to them, and ``_Toc`` ones never (Word regenerates them)."""
    refs = " ".join(f.get("instruction") or "" for f in interactive.get("fields", []))
    anchors = {h.get("anchor") for h in interactive.get("hyperlinks", [])}

    def referenced(name: str) -> bool:
        return name in anchors or any(word.strip('"') == name for word in refs.split())

    return [b for b in interactive["bookmarks"]
            if not b.get("hidden") or (not b["name"].startswith("_Toc") and referenced(b["name"]))]


def _initial_texts(initial: Prepared, doc: Prepared) -> dict[str, str]:
    """The initial document's text (trimmed) at the place of each paragraph of `doc` (by its id) and of each table cell,
    header and footer (by :func:`_whole` of its first paragraph's id); found once for two documents (partial credit
    judges the output and the initial document against one expected document)."""
    found = _PLACES.setdefault(initial, weakref.WeakKeyDictionary())
    if doc not in found:
        found[doc] = _Places(initial, doc).find()
    return found[doc]


_PLACES: "weakref.WeakKeyDictionary[Prepared, weakref.WeakKeyDictionary[Prepared, dict[str, str]]]" = \
    weakref.WeakKeyDictionary()


class _Places(_Comparer):
    """The initial document's texts at the places of another document's: their paragraphs aligned as the judge aligns
    them, in the body, in table cells and in headers and footers; nothing compared."""

    def __init__(self, initial: Prepared, doc: Prepared):
        super().__init__(initial, doc, JudgeContext())
        self.texts: dict[str, str] = {}

    def find(self) -> dict[str, str]:
        self._body()
        self._tables()
        self._sections()
        return self.texts

    def add(self, where: str, what: str) -> None:
        pass

    def cell(self, where: str, ce: dict[str, Any] | None, ca: dict[str, Any] | None,
             formats: tuple[dict[str, Any], dict[str, Any]] | None) -> None:
        if ce and ca and "text" in ce and "text" in ca:
            self.paragraphs(where, ce["text"], ca["text"], ce.get("paragraphs", []), ca.get("paragraphs", []))

    def paragraph(self, where: str, pe: dict[str, Any], pa: dict[str, Any]) -> None:
        self.texts[pa["id"]] = trimmed(pe["text"])

    def paragraphs(self, where: str, te: str, ta: str, pe: list[dict[str, Any]], pa: list[dict[str, Any]]) -> None:
        if pe and pa:
            self.texts[_whole(pa[0]["id"])] = trimmed(te)
        super().paragraphs(where, te, ta, pe, pa)


def _stories(state: dict[str, Any]) -> Iterable[dict[str, Any]]:
    """The headers and footers of every section (one linked to the previous section's again)."""
    for section in state["page_layout"]["sections"]:
        for key in ("headers", "footers"):
            yield from (section.get(key) or {}).values()


def _nth(i: int, text: str, where: str) -> str:
    """Paragraph `i` (0-based, its text `text`) of a cell or a story described by `where`."""
    return f"paragraph {i + 1}{' ' + snippet(text) if text else ''} of {where}"


def _whole(pid: str) -> str:
    """The key of the whole text of the cell, header or footer whose first paragraph is `pid`."""
    return "whole:" + pid


def _toc_unnamed(record: dict[str, Any], key: str) -> dict[str, Any]:
    """`record` with the ``_Toc`` bookmark names in its `key` (a hyperlink's anchor, a PAGEREF field's instruction) as
    "_Toc": the bookmarks never count (Word renumbers them), so neither do the names that refer to them."""
    return {**record, key: _TOC_NAME.sub("_Toc", record[key])} if record.get(key) else record


def _length(width: str | None) -> dict[str, Any]:
    """A table's or a cell's width as written in the state ("3.5cm", "50%"): {"width_cm": 3.5} for a length (compared
    with its tolerance), {"width": "50%"} for anything else, {} for none."""
    if isinstance(width, str) and width.endswith("cm"):
        try:
            return {"width_cm": float(width[:-2])}
        except ValueError:
            pass
    return {"width": width} if width is not None else {}


#: what of a cell (or its neighbour) its :func:`_cell_format` reads
_FRAME_KEYS = ("gap", "span", "borders", "width", "margins_cm", "shading", "vertical_alignment", "text_direction")


def _frames(details: list[list[dict[str, Any] | None]]) -> list[list[tuple | None]]:
    """Each cell's :data:`_FRAME_KEYS` values: two tables with the same frames and properties format each cell alike."""
    return [[None if cell is None else tuple(cell.get(k) for k in _FRAME_KEYS) for cell in row] for row in details]


def _cell_format(cell: dict[str, Any] | None, t: dict[str, Any], props: dict[str, Any], r: int, c: int) -> dict[str, Any]:
    """The effective formatting of the cell at row `r`, column `c` of table `t` (`props`: its :meth:`_table_props`):
    shading, vertical alignment (top when unset), text direction (left to right, top to bottom when unset); each border
    side its own (a cleared side: no line), else the table's line there (an outer side at the table's edge, an inner one
    within), only sides with a line; each margin its own, else the table's; its width its own, else (an automatic or
    zero width) the sum of its grid columns (``columns_cm``), which Word keeps in step with it."""
    cell = cell or {}
    span = cell.get("span", 1)
    table_lines = props.get("borders") or {}
    place = {"top": "top" if r == 0 else "insideH", "left": "left" if c == 0 else "insideV",
             "bottom": "bottom" if r == t["rows"] - 1 else "insideH", "right": "right" if c + span >= t["cols"] else "insideV"}
    lines = {side: table_lines.get(at) for side, at in place.items()}
    lines.update(_shared_edges(t.get("cell_details") or [], r, c, span))
    lines.update(cell.get("borders") or {})
    grid = t.get("column_widths_cm", [])[c:c + span]
    columns = round(sum(grid), 2) if len(grid) == span and None not in grid else None
    width = _length(cell.get("width"))
    if not width or width.get("width_cm") == 0:
        width = {"width_cm": columns} if columns is not None else {}
    margins = {f"margin_{side}_cm": props.get(f"cell_margin_{side}_cm") for side in _CELL_MARGINS_CM}
    margins.update({f"margin_{side}_cm": cm for side, cm in (cell.get("margins_cm") or {}).items()})
    return {"shading": cell.get("shading"), "vertical_alignment": cell.get("vertical_alignment") or "top",
            "text_direction": cell.get("text_direction") or "lrTb", **width, "columns_cm": columns, **margins,
            "borders": drawn({side: line for side, line in lines.items() if line}) or {}}


_OPPOSITE = {"left": "right", "right": "left", "top": "bottom", "bottom": "top"}


def _shared_edges(details: list[list[dict[str, Any] | None]], r: int, c: int, span: int) -> dict[str, Any]:
    """The sides of the cell at row `r`, column `c` that a neighbouring cell draws: a line between two cells is
    written as either cell's side (the left cell's right or the right cell's left) and Word draws it either way."""
    def at(row: int, col: int, spanning: bool = False) -> dict[str, Any] | None:
        """The cell at `row`, `col` (`spanning`: or the cell spanning from its left into it); None for none."""
        if not (0 <= row < len(details) and 0 <= col < len(details[row])):
            return None
        found = next((details[row][k] for k in range(col, -1, -1) if details[row][k] is not None), None) \
            if spanning else details[row][col]
        return None if found is None or found.get("gap") else found

    neighbours = {"left": at(r, c - 1, spanning=True), "right": at(r, c + span),
                  "top": at(r - 1, c), "bottom": at(r + 1, c)}
    drawn_by = {side: (cell or {}).get("borders") or {} for side, cell in neighbours.items()}
    return {side: lines[_OPPOSITE[side]] for side, lines in drawn_by.items() if _OPPOSITE[side] in lines}


def _crop(image: dict[str, Any]) -> dict[str, float]:
    """A picture's cropping, each side (a side or a picture not cropped: 0 %)."""
    return {side: (image.get("crop") or {}).get(side, 0.0) for side in ("left_pct", "top_pct", "right_pct", "bottom_pct")}


def trimmed(text: str) -> str:
    """`text` without the spaces and line ends at its ends; tabs kept (a tab at the start indents the text)."""
    return text.strip(_ENDS)


def _trimmed(value: Any) -> Any:
    return value.strip() if isinstance(value, str) else value


def _first(ref: Any) -> Any:
    """A record's paragraph reference, or the first of a list of them (None if there is none)."""
    return (ref[0] if ref else None) if isinstance(ref, list) else ref


def _same_raw(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """The same paragraph as written (ids and positions aside)."""
    return a.keys() == b.keys() and all(a[k] == b[k] for k in a if k not in _VOLATILE)


def _paragraph_description(p: dict[str, Any], previous: str | None) -> str:
    text = p["text"]
    if text.strip():
        return f"paragraph {snippet(text)} ({p['id']})"
    what = "paragraph with a drawing" if p.get("images") else "empty paragraph"
    return f"{what} ({p['id']})" + (f" after {snippet(previous)}" if previous else "")


def _table_where(n: int, t: dict[str, Any]) -> str:
    head = " | ".join(c.strip() for c in t["cells"][0]) if t.get("cells") else ""
    return f"table {n + 1} {snippet(head)}" if head.strip(" |") else f"table {n + 1}"


def _cells(m: Sequence[int]) -> str:
    r1, c1, r2, c2 = m
    return f"row {r1 + 1} cell {c1 + 1} to row {r2 + 1} cell {c2 + 1}"


def _gap(text: str, end: int, start: int) -> int:
    """Length of the whitespace between two ranges (a difference on two words separated by a space is one range)."""
    between = text[end:start]
    return len(between) if not between.strip() else 0


def _overlaps(se: list[tuple[int, int, dict]], sa: list[tuple[int, int, dict]], i0: int, j0: int, n: int):
    """(start, end, expected format, actual format) over a matching block: text[i0:i0+n] == actual[j0:j0+n]."""
    a_idx = 0
    for s, e, f in se:
        lo, hi = max(s, i0), min(e, i0 + n)
        if lo >= hi:
            continue
        pos = lo
        while pos < hi:
            apos = pos - i0 + j0
            while a_idx < len(sa) and sa[a_idx][1] <= apos:
                a_idx += 1
            if a_idx >= len(sa):
                return
            a_s, a_e, a_f = sa[a_idx]
            if a_s > apos:  # actual text with no run (should not happen): skip to where runs resume
                pos += a_s - apos
                continue
            stop = min(hi, a_e - j0 + i0)
            yield pos, stop, f, a_f
            pos = stop
