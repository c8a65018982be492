"""Headings, the table of contents and tables of figures.

A TOC is a complex field (``TOC \\o "1-3" \\h \\z \\u``) whose result is one paragraph per heading in
the ``TOC N`` styles. A table of figures is a TOC field with ``\\c "Figure"`` (or ``\\a "Figure"``): one paragraph
per caption holding a ``SEQ Figure`` field, in the "table of figures" style. Word recomputes the result (with page numbers) when it updates fields;
LibreOffice's PDF export shows the stored result, so we store the listed headings there (list number and text).
Page layout is Word's to compute: an entry gets a PAGEREF field only where the old entries had page numbers,
showing the old number for the same heading.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass
from typing import Callable

from lxml import etree

from autodw.analysis.state.context import StateContext, styles_by_id
from autodw.analysis.state.extract import extract_state
from autodw.analysis.state.render import custom_headings, heading_level
from autodw.analysis.state.layout import figures_identifier
from autodw.analysis.state.numbering import ListCounter
from autodw.apis.ooxml.builtin_styles import ensure_style, find_style_id, styles_element
from autodw.apis.ooxml.elements import get_or_add_ppr, insert_ordered, make
from autodw.apis.ooxml.lifecycle import iter_fields
from autodw.apis.ooxml.fields import SEQ_INSTRUCTION, bookmark_starts, field_runs, new_bookmark_id
from autodw.apis.ooxml.text import atoms, new_run, paragraph_text
from autodw.core.document import WordDocument
from autodw.core.errors import UnsupportedOperationError
from autodw.core.ids import element_id
from autodw.core.xml import MC, W, parse, qn, wval

P = qn("w:p")
_HEADING_NAME = re.compile(r"^heading\s*([1-9])$", re.IGNORECASE)


class StyleLevels:
    """Outline level (1-9) of each paragraph style, following ``w:basedOn``; None for body text."""

    def __init__(self, doc: WordDocument):
        root = styles_element(doc)
        self.styles = styles_by_id(root)
        self.default = next((sid for sid, s in self.styles.items()
                              if s.get(qn("w:type"), "paragraph") == "paragraph" and s.get(qn("w:default")) in ("1", "true")), None)
        self._cache: dict[str | None, int | None] = {}

    def level(self, style_id: str | None) -> int | None:
        """The outline level a paragraph of this style has (1 = top)."""
        if style_id not in self._cache:
            self._cache[style_id] = self._compute(style_id or self.default)
        return self._cache[style_id]

    def _compute(self, style_id: str | None) -> int | None:
        seen: set[str] = set()
        while style_id and style_id not in seen:
            seen.add(style_id)
            style = self.styles.get(style_id)
            if style is None:
                return None
            lvl = wval(style.find(f"{qn('w:pPr')}/{qn('w:outlineLvl')}"))
            if lvl is not None:
                return int(lvl) + 1 if lvl.isdigit() and int(lvl) < 9 else None
            name = wval(style.find(qn("w:name"))) or ""
            m = _HEADING_NAME.match(name.strip())
            if m:
                return int(m.group(1))
            style_id = wval(style.find(qn("w:basedOn")))
        return None


def paragraph_level(p: etree._Element, levels: StyleLevels) -> int | None:
    """The outline level of paragraph `p`: its own ``w:outlineLvl`` if set, else its style's."""
    ppr = p.find(qn("w:pPr"))
    direct = wval(ppr.find(qn("w:outlineLvl"))) if ppr is not None else None
    if direct is not None and direct.isdigit():
        return int(direct) + 1 if int(direct) < 9 else None
    return levels.level(wval(ppr.find(qn("w:pStyle"))) if ppr is not None else None)


def heading_reader(doc: WordDocument) -> Callable[[etree._Element], int | None]:
    """The heading level of a paragraph of `doc`: its outline level (:func:`paragraph_level`), else the level the
    state's rendering reads off its style (:func:`heading_level` with :func:`custom_headings`: a UN document's
    "_ H_1_GA"), else None."""
    levels, state = StyleLevels(doc), extract_state(doc)
    custom = custom_headings(state)
    styles = {p["id"]: p.get("style") for p in state.get("paragraphs", [])}

    def level(p: etree._Element) -> int | None:
        outline = paragraph_level(p, levels)
        if outline is not None:
            return outline
        pid = element_id(p)
        return heading_level(styles[pid], custom) if pid in styles else None
    return level


@dataclass
class Heading:
    """One heading of the body: its paragraph, level and text."""

    element: etree._Element
    level: int
    text: str


def entry_text(text: str) -> str:
    """A paragraph's text as its contents entry shows it: as written, its spaces kept ("第一章  总则" keeps both),
    its tabs and line breaks made spaces and the spaces around it dropped."""
    return text.replace("\t", " ").replace("\n", " ").strip(" ")


def headings(doc: WordDocument, first: int = 1, last: int = 9) -> list[Heading]:
    """Body headings with levels in [first, last], in document order (text boxes and TOCs skipped)."""
    levels = StyleLevels(doc)
    out = []
    skip = {qn("w:txbxContent"), f"{{{MC}}}Fallback"}
    for p in doc.body.iter(P):
        if any(a.tag in skip for a in p.iterancestors()):
            continue
        level = paragraph_level(p, levels)
        if level is None or not first <= level <= last:
            continue
        text = entry_text(paragraph_text(p))
        if text.strip():
            out.append(Heading(p, level, text))
    return out


_SWITCH = re.compile(r'\\([A-Za-z])(?:\s+(?:"([^"]*)"|([^\\\s"]+)))?')
_RANGE = re.compile(r"^\s*([1-9])\s*-\s*([1-9])\s*$")
#: "Heading N" as Word writes it in a \\t switch in some languages (the stored style name stays "heading N")
_LOCAL_HEADING = re.compile(r"^(?:heading|überschrift|titre|título|titolo|kop|nagłówek|заголовок|标题|標題|見出し)\s*([1-9])$",
                            re.IGNORECASE)


@dataclass
class TocSwitches:
    """Which paragraphs a TOC lists and at which level: ``\\o`` (style outline levels), ``\\t`` (styles mapped to
    levels), ``\\u`` (paragraphs' own outline level), ``\\f`` / ``\\l`` (TC fields of an identifier and levels),
    ``\\b`` (only inside a bookmark), ``\\c`` / ``\\a`` (captions numbered by a SEQ identifier: a table of
    figures, with or without their label and number); how entries look: ``\\n`` (levels without page numbers), ``\\p`` (the
    separator before the page number), ``\\h`` (entries are hyperlinks)."""

    outline: tuple[int, int] | None
    styles: dict[str, int]
    own_levels: bool
    no_pages: tuple[int, int] | None
    bookmark: str | None = None
    tc_identifier: str | None = None  # \f's identifier ("C" for a bare \f); None: TC fields are not listed
    tc_levels: tuple[int, int] = (1, 9)
    separator: str = "\t"
    links: bool = False
    figures: str | None = None  # \c or \a: a table of figures of this SEQ identifier ("" for a bare \c); None: a TOC
    figure_numbers: bool = True  # False for \a: entries without the caption's label and number

    def tc_level(self, instruction: str) -> int | None:
        """The TOC level of a TC field with `instruction`, None if the TOC does not list it."""
        if self.tc_identifier is None:
            return None
        found = {m.group(1).lower(): m.group(2) if m.group(2) is not None else m.group(3)
                 for m in _SWITCH.finditer(instruction)}
        if (found.get("f") or "C").upper() != self.tc_identifier.upper():
            return None
        level = (found.get("l") or "1").strip()
        level_n = int(level) if level.isdigit() else 1
        return level_n if self.tc_levels[0] <= level_n <= self.tc_levels[1] else None

    def level(self, p: etree._Element, levels: StyleLevels) -> int | None:
        """The TOC level of paragraph `p`, None if the TOC does not list it."""
        ppr = p.find(qn("w:pPr"))
        sid = wval(ppr.find(qn("w:pStyle"))) if ppr is not None else None
        sid = sid or levels.default
        if sid in self.styles:
            return self.styles[sid]
        first, last = self.outline or (1, 9)
        direct = wval(ppr.find(qn("w:outlineLvl"))) if ppr is not None else None
        if self.own_levels and direct is not None and direct.isdigit():
            level = int(direct) + 1 if int(direct) < 9 else None
        elif self.outline is not None:
            level = levels.level(sid)
        else:
            return None
        return level if level is not None and first <= level <= last else None

    def pages(self, level: int) -> bool:
        """False if ``\\n`` omits page numbers at `level`."""
        return self.no_pages is None or not self.no_pages[0] <= level <= self.no_pages[1]


def parse_switches(doc: WordDocument, instruction: str) -> TocSwitches:
    """The listing switches of a TOC instruction; with none of \\o, \\t, \\u, \\f, \\c "id", \\a "id", Word's default
    \\o "1-9"."""
    outline, styles, own, no_pages = None, {}, False, None
    extra: dict = {}
    for m in _SWITCH.finditer(instruction):
        name, arg = m.group(1).lower(), m.group(2) if m.group(2) is not None else m.group(3)
        if name == "o":
            r = _RANGE.match(arg or "")
            outline = tuple(sorted((int(r.group(1)), int(r.group(2))))) if r else (1, 9)
        elif name == "t":
            styles.update(_style_levels(doc, arg or ""))
        elif name == "u":
            own = True
        elif name == "n":
            r = _RANGE.match(arg or "")
            no_pages = tuple(sorted((int(r.group(1)), int(r.group(2))))) if r else (1, 9)
        elif name == "b":
            if not arg:
                raise UnsupportedOperationError(f"the TOC field's \\b switch names no bookmark: {instruction!r}")
            extra["bookmark"] = arg
        elif name == "f":
            extra["tc_identifier"] = arg or "C"
        elif name == "l":
            r = _RANGE.match(arg or "") or re.match(r"^\s*([1-9])()\s*$", arg or "")
            first_last = (int(r.group(1)), int(r.group(2) or r.group(1))) if r else (1, 9)
            extra["tc_levels"] = tuple(sorted(first_last))
            extra.setdefault("tc_identifier", "C")
        elif name == "p":
            extra["separator"] = arg if arg is not None else "\t"
        elif name == "h":
            extra["links"] = True
        elif name in ("c", "a"):
            extra["figures"], extra["figure_numbers"] = arg or "", name == "c"
    if outline is None and not styles and not own and "tc_identifier" not in extra and not extra.get("figures"):
        outline = (1, 9)
    return TocSwitches(outline, styles, own, no_pages, **extra)


def _style_levels(doc: WordDocument, arg: str) -> dict[str, int]:
    """Style id -> level from a \\t argument ("Style,level,Style,level"; ";" in some locales). Styles the
    document does not define are skipped, as Word does."""
    parts = [x.strip() for x in re.split(r"[,;]", arg)]
    out: dict[str, int] = {}
    for name, level in zip(parts[::2], parts[1::2]):
        if not name or not level.isdigit() or not 1 <= int(level) <= 9:
            continue
        sid = find_style_id(doc, name, "paragraph")
        local = _LOCAL_HEADING.match(name)
        if sid is None and local:
            sid = find_style_id(doc, f"heading {local.group(1)}", "paragraph")
        if sid is not None:
            out[sid] = int(level)
    return out


@dataclass
class _Entry:
    """One listed paragraph: its heading, TOC level and list number text ("" if not numbered)."""

    element: etree._Element
    level: int
    text: str
    number: str
    page: bool = True  # False for a TC field with \\n


_TC_TEXT = re.compile(r'^TC\s+(?:"([^"]*)"|([^\\\s"]+))', re.IGNORECASE)


def _tc_entries(p: etree._Element, switches: TocSwitches) -> list[_Entry]:
    """The entries the TC fields of paragraph `p` give (``TC "text" \\f id \\l level \\n``)."""
    out = []
    for f in iter_fields(p) if switches.tc_identifier is not None else []:
        m = _TC_TEXT.match(f.instruction)
        if m is None:
            continue
        rest = f.instruction[m.end():]
        level = switches.tc_level(rest)
        text = entry_text(m.group(1) if m.group(1) is not None else m.group(2))
        if level is not None and text:
            out.append(_Entry(p, level, text, "", not re.search(r"\\n\b", rest, re.IGNORECASE)))
    return out


#: what Word's captions put between the number and the text (Insert Caption's separators)
_CAPTION_SEPARATOR = re.compile(r"^[\s:.\-\u2013\u2014\uff1a\u3002]+")


def _caption_entry(p: etree._Element, switches: TocSwitches) -> _Entry | None:
    """The table-of-figures entry of paragraph `p` if it holds a SEQ field of the switches' identifier: the whole
    caption for \\c ("Figure 1: Sales by region"), the text after the number for \\a ("Sales by region")."""
    for f in iter_fields(p):
        m = SEQ_INSTRUCTION.match(f.instruction)
        first = f.simple if f.simple is not None else f.code_runs[0]
        if m is None or m.group(1) != switches.figures or next(first.iterancestors(P)) is not p:
            continue
        if switches.figure_numbers:
            text = paragraph_text(p)
        else:
            last = f.simple if f.simple is not None else f.code_runs[-1]
            order = {el: n for n, el in enumerate(p.iter())}
            end = max(order[el] for el in last.iter())
            text = _CAPTION_SEPARATOR.sub("", "".join(a.text for a in atoms(p) if order[a.run] > end))
        text = entry_text(text)
        return _Entry(p, 1, text, "") if text.strip() else None
    return None


def _in_bookmark(doc: WordDocument, name: str) -> set[etree._Element]:
    """The body paragraphs that overlap bookmark `name`'s range (the ``\\b`` switch); the elements themselves,
    not their ids: lxml's proxies (and so their ids) live only while referenced."""
    start = next((b for b in bookmark_starts(doc) if b.get(qn("w:name")) == name), None)
    if start is None or not any(a is doc.body for a in start.iterancestors()):
        raise UnsupportedOperationError(f"the TOC's \\b switch names bookmark {name!r}, which the document body "
                                        "does not have (Word shows \"Error! Bookmark not defined.\")")
    out, inside, bid = set(), False, start.get(qn("w:id"))
    for el in doc.body.iter():
        if el is start:
            inside = True
            out.update(el.iterancestors(P))
        elif inside and el.tag == P:
            out.add(el)
        elif inside and el.tag == qn("w:bookmarkEnd") and el.get(qn("w:id")) == bid:
            return out
    return out


def _entries(doc: WordDocument, switches: TocSwitches, exclude: set[int]) -> list[_Entry]:
    """The paragraphs (and TC fields) a TOC lists, in document order, with the list numbers they show; for a table
    of figures, the captions of its SEQ identifier (text boxes included, as Word lists their captions too)."""
    levels = StyleLevels(doc)  # first: it adds the styles part a document without one lacks
    lists = StateContext(doc)
    counter = ListCounter(lists.numbering)
    captions = bool(switches.figures)
    skip = {f"{{{MC}}}Fallback"} if captions else {qn("w:txbxContent"), f"{{{MC}}}Fallback"}
    within = _in_bookmark(doc, switches.bookmark) if switches.bookmark else None
    out = []
    for p in doc.body.iter(P):
        if any(a.tag in skip for a in p.iterancestors()):
            continue
        num = lists.list_num_pr(p)
        label = counter.label(*num) if num else None
        if id(p) in exclude or (within is not None and p not in within):
            continue
        caption = _caption_entry(p, switches) if captions else None
        if caption is not None:
            out.append(caption)
            continue
        level = switches.level(p, levels)
        text = entry_text(paragraph_text(p))
        if level is not None and text.strip():
            out.append(_Entry(p, level, text, label or ""))
        out.extend(_tc_entries(p, switches))
    return out


@dataclass
class _OldEntries:
    """What the entries of the TOC being replaced carried: hyperlinks, page numbers (bookmark -> page text)."""

    links: bool = False
    pages: dict[str, str] | None = None
    ppr: dict[str, etree._Element] | None = None  # TOC N style id -> the paragraph properties of its first entry
    by_text: dict[str, str] | None = None  # entry text -> the page number shown after its last tab


_PAGE_TEXT = re.compile(r"^(?:[0-9]{1,5}|[ivxlcdm]{1,8}|[IVXLCDM]{1,8})$")


def _old_entries(paragraphs: list[etree._Element]) -> _OldEntries:
    """Read the hyperlinks, PAGEREF results and paragraph properties (tab stops) of a TOC's old entries."""
    out = _OldEntries(ppr={})
    for p in paragraphs:
        style = wval(p.find(f"{qn('w:pPr')}/{qn('w:pStyle')}"))
        if style and style not in out.ppr:
            out.ppr[style] = p.find(qn("w:pPr"))
        out.links = out.links or any(h.get(qn("w:anchor")) for h in p.iter(qn("w:hyperlink")))
        parts = paragraph_text(p).split("\t")
        if len(parts) > 1 and _PAGE_TEXT.match(page := parts[-1].strip("\u200c\u200f\u200e ")):
            out.by_text = out.by_text or {}
            out.by_text.setdefault(parts[-2].strip(), page)
        for f in iter_fields(p):
            m = re.match(r"PAGEREF\s+(\S+)", f.instruction)
            if m and f.simple is None:
                out.pages = out.pages if out.pages is not None else {}
                out.pages[m.group(1)] = "".join(t.text or "" for r in f.result_runs for t in r.iter(qn("w:t"))).strip()
    if out.pages is None and out.by_text:
        out.pages = {}  # page numbers typed as text: the entries get PAGEREF fields showing them
    return out


@dataclass
class _Bookmarks:
    """The document's bookmarks as an update reads them once (not once per heading) and adds ``_Toc`` ones to them:
    the name of each start by its id (the body's first), every name taken, the next free id."""

    names: dict[str, str]
    taken: set[str]
    next_id: int

    @classmethod
    def read(cls, doc: WordDocument) -> _Bookmarks:
        names: dict[str, str] = {}
        taken: set[str] = set()
        for b in bookmark_starts(doc):
            names.setdefault(b.get(qn("w:id")) or "", b.get(qn("w:name")) or "")
            taken.add(b.get(qn("w:name")) or "")
        return cls(names, taken, int(new_bookmark_id(doc)))


def _bookmark(p: etree._Element, known: dict[str, str], marks: _Bookmarks) -> str:
    """The name of a ``_Toc`` bookmark in heading `p` (one the old entries referred to first), added if it has
    none (to `marks` too). A bookmark that ends in `p` counts too: Word may start a heading's ``_Toc`` bookmark in
    the empty paragraph before it."""
    starts = {b.get(qn("w:id")): b.get(qn("w:name")) or "" for b in p.iter(qn("w:bookmarkStart"))}
    names = [*starts.values(), *(marks.names[i] for e in p.iter(qn("w:bookmarkEnd"))
                                 if (i := e.get(qn("w:id"))) not in starts and i in marks.names)]
    found = [n for n in names if n in known] or [n for n in names if n.startswith("_Toc")]
    if found:
        return found[0]
    n = 1
    while f"_Toc{n:09d}" in marks.taken:
        n += 1
    name, bid = f"_Toc{n:09d}", str(marks.next_id)
    marks.names[bid], marks.next_id = name, marks.next_id + 1
    marks.taken.add(name)
    ppr = p.find(qn("w:pPr"))
    start = make("w:bookmarkStart", w_id=bid, w_name=name)
    if ppr is not None:
        ppr.addnext(start)
    else:
        p.insert(0, start)
    p.append(make("w:bookmarkEnd", w_id=bid))
    return name


def _entry_runs(doc: WordDocument, entry: _Entry, old: _OldEntries, switches: TocSwitches,
                marks: _Bookmarks) -> list[etree._Element]:
    """An entry's content as Word writes it: its list number and a tab, its text, and (where the old entries had
    page numbers) the ``\\p`` separator (a tab by default) and a PAGEREF field to the heading, showing the old
    entry's page number for the same heading or nothing; in a hyperlink to the heading for ``\\h`` or where the
    old entries had links, its text in the Hyperlink character style and the rest hidden on the web."""
    links = old.links or switches.links
    text_rpr = parse(f'<w:rPr xmlns:w="{W}"><w:noProof/></w:rPr>')
    if links:
        text_rpr.insert(0, make("w:rStyle", w_val=ensure_style(doc, "Hyperlink", "character")))
    rest = f'<w:rPr xmlns:w="{W}"><w:noProof/>{"<w:webHidden/>" if links else ""}</w:rPr>'
    runs = [new_run(entry.number, text_rpr), new_run("\t", text_rpr)] if entry.number else []
    runs.append(new_run(entry.text, text_rpr))
    pages = old.pages is not None and switches.pages(entry.level) and entry.page
    anchor = _bookmark(entry.element, old.pages or {}, marks) if pages or links else None
    if pages:
        runs.append(new_run(switches.separator, parse(rest)))
        shown = (old.pages or {}).get(anchor) or (old.by_text or {}).get(entry.text.strip(), "")
        runs.extend(field_runs(f"PAGEREF {anchor} \\h", shown, rest.replace(f' xmlns:w="{W}"', "")))
    if not links:
        return runs
    link = make("w:hyperlink", w_anchor=anchor, w_history="1")
    for r in runs:
        link.append(r)
    return [link]


#: what Word writes as the result of a TOC field that lists nothing (in English), for a TOC and a table of figures
NO_ENTRIES = {"contents": "No table of contents entries found.", "figures": "No table of figures entries found."}


def toc_paragraphs(doc: WordDocument, instruction: str, exclude: set[int] | None = None,
                   old: _OldEntries | None = None, end: bool = True) -> list[etree._Element]:
    """The paragraphs of a TOC field with `instruction`, its result filled with the paragraphs it lists (entries
    shaped like `old`'s: with hyperlinks and page numbers only if those had them), in the TOC N style of their level
    or, for a table of figures, in the "table of figures" style. With nothing to list, the result is Word's message
    ("No table of contents entries found.") in bold, in a paragraph of the default style, as Word writes it. The
    field's end closes the last paragraph, unless `end` is False (the caller keeps the paragraph holding it)."""
    switches = parse_switches(doc, instruction)
    entries = _entries(doc, switches, exclude or set())
    old = old or _OldEntries()
    begin, instr, separate, _, field_end = field_runs(instruction, "")
    if not entries:
        message = NO_ENTRIES["figures" if switches.figures is not None else "contents"]
        p = make("w:p")
        for r in (begin, instr, separate, new_run(message, parse(f'<w:rPr xmlns:w="{W}"><w:b/><w:bCs/><w:noProof/></w:rPr>'))):
            p.append(r)
        if end:
            p.append(field_end)
        return [p]
    paragraphs, marks = [], _Bookmarks.read(doc)
    for n, entry in enumerate(entries):
        p = make("w:p")
        style = ensure_style(doc, "table of figures" if switches.figures is not None else f"toc {entry.level}", "paragraph")
        kept = (old.ppr or {}).get(style)
        if kept is not None:
            ppr = copy.deepcopy(kept)
            for drop in (qn("w:sectPr"), qn("w:pPrChange")):
                for el in ppr.findall(drop):
                    ppr.remove(el)
            p.append(ppr)
        else:
            insert_ordered(get_or_add_ppr(p), make("w:pStyle", w_val=style))
        if n == 0:
            for r in (begin, instr, separate):
                p.append(r)
        for r in _entry_runs(doc, entry, old, switches, marks):
            p.append(r)
        paragraphs.append(p)
    if end:
        paragraphs[-1].append(field_end)
    return paragraphs


def entry_count(paragraphs: list[etree._Element]) -> int:
    """How many entries a TOC's paragraphs show (Word's no-entries message is none)."""
    return sum(1 for p in paragraphs if paragraph_text(p).strip() not in ("", *NO_ENTRIES.values()))


@dataclass
class TocField:
    """Where a TOC field sits: its first and last paragraph and the field's own nodes in them."""

    first: etree._Element
    last: etree._Element
    begin: etree._Element
    end: etree._Element
    instruction: str

    @property
    def figures(self) -> str | None:
        """The SEQ identifier of a table of figures (``\\c "Figure"``; "" for a bare ``\\c``), None for a TOC."""
        return figures_identifier(self.instruction)


def find_tocs(doc: WordDocument) -> list[TocField]:
    """Every TOC field of the body (complex fields and ``w:fldSimple``)."""
    out: list[TocField] = []
    chars = list(doc.body.iter(qn("w:fldChar"), qn("w:instrText"), qn("w:fldSimple")))
    i = 0
    while i < len(chars):
        el = chars[i]
        if el.tag == qn("w:fldSimple"):
            instr = (el.get(qn("w:instr")) or "").strip()
            if instr.upper().startswith("TOC"):
                p = _paragraph_of(el)
                out.append(TocField(p, p, el, el, instr))
            i += 1
            continue
        if el.tag == qn("w:fldChar") and el.get(qn("w:fldCharType")) == "begin":
            depth, instr, j, end = 0, [], i, None
            while j < len(chars):
                c = chars[j]
                if c.tag == qn("w:fldChar"):
                    kind = c.get(qn("w:fldCharType"))
                    depth += kind == "begin"
                    depth -= kind == "end"
                    if depth == 0:
                        end = c
                        break
                elif c.tag == qn("w:instrText") and depth == 1:
                    instr.append(c.text or "")
                j += 1
            text = "".join(instr).strip()
            if end is not None and text.upper().startswith("TOC"):
                out.append(TocField(_paragraph_of(el), _paragraph_of(end), el.getparent(), end.getparent(), text))
                i = j + 1
                continue
        i += 1
    return out


def _paragraph_of(el: etree._Element) -> etree._Element:
    for a in el.iterancestors(P):
        return a
    raise UnsupportedOperationError("a TOC field is not inside a paragraph")


def region(field: TocField) -> list[etree._Element]:
    """The sibling paragraphs from the field's first to its last paragraph."""
    if field.first.getparent() is not field.last.getparent():
        raise UnsupportedOperationError("the table of contents spans several containers (e.g. it starts inside a "
                                        "content control and ends outside it); it cannot be regenerated safely")
    out, node = [field.first], field.first
    while node is not field.last:
        node = node.getnext()
        if node is None:
            raise UnsupportedOperationError("the table of contents field has no end")
        out.append(node)
    return out


def regenerate(doc: WordDocument, field: TocField) -> list[etree._Element]:
    """Replace a TOC's paragraphs by a fresh result from the current headings; return the new paragraphs.

    Text before the field in its first paragraph is kept. When the field ends at the start of a later paragraph
    (Word's own layout: the end in an empty paragraph after the last entry, or at the start of the heading that
    follows), that paragraph is kept as it is, field end, properties, text and id included, as Word's update keeps
    it. Otherwise text after the field in its last paragraph is kept after the last entry, and so is a section
    break carried by the last paragraph.
    """
    old = region(field)
    keep_last = _ends_at_paragraph_start(field)
    if keep_last:
        old = old[:-1]
    before = _siblings_before(field.first, field.begin)
    after = [] if keep_last else _siblings_after(field.last, field.end)
    new = toc_paragraphs(doc, field.instruction, exclude={id(p) for p in old}, old=_old_entries(old), end=not keep_last)
    for node in reversed(before):
        new[0].insert(1, node)
    for node in after:
        new[-1].append(node)
    sect = old[-1].find(f"{qn('w:pPr')}/{qn('w:sectPr')}")
    if sect is not None:
        insert_ordered(get_or_add_ppr(new[-1]), sect)
    anchor = old[0]
    for p in new:
        anchor.addprevious(p)
    for p in old:
        p.getparent().remove(p)
    return new


def _ends_at_paragraph_start(field: TocField) -> bool:
    """True if the field ends in a later paragraph than it begins, with no text before the end there."""
    if field.last is field.first:
        return False
    return not any(paragraph_text(_wrap(c)).strip() for c in _siblings_before(field.last, field.end))


def _wrap(node: etree._Element) -> etree._Element:
    """A detached paragraph holding a copy of `node` (to read its text)."""
    p = make("w:p")
    p.append(copy.deepcopy(node))
    return p


def toc_starting_at(doc: WordDocument, p: etree._Element) -> TocField | None:
    """The TOC whose field begins in paragraph `p` (where the state puts the TOC)."""
    return next((f for f in find_tocs(doc) if p is f.first), None)


def toc_blocks(doc: WordDocument, field: TocField) -> list[etree._Element]:
    """The blocks a TOC takes: its "Table of Contents" content control (title included) when it sits in one,
    else the field's paragraphs, after its title (the paragraph in the "TOC Heading" style just before them, as
    insert_toc writes it; not one that ends a section) if it has one."""
    paragraphs = region(field)
    parent = paragraphs[0].getparent()
    if parent.tag == qn("w:sdtContent"):
        sdt = parent.getparent()
        gallery = sdt.find(f"{qn('w:sdtPr')}/{qn('w:docPartObj')}/{qn('w:docPartGallery')}")
        if gallery is not None and (wval(gallery) or "").lower() == "table of contents":
            return [sdt]
    title, style = paragraphs[0].getprevious(), find_style_id(doc, "TOC Heading", "paragraph")
    if (style and title is not None and title.tag == P and title.find(f"{qn('w:pPr')}/{qn('w:sectPr')}") is None
            and wval(title.find(f"{qn('w:pPr')}/{qn('w:pStyle')}")) == style):
        return [title, *paragraphs]
    return paragraphs


def _top(node: etree._Element, p: etree._Element) -> etree._Element:
    while node.getparent() is not p:
        node = node.getparent()
    return node


def _siblings_before(p: etree._Element, node: etree._Element) -> list[etree._Element]:
    top = _top(node, p)
    return [c for c in p if c is not top and c.tag != qn("w:pPr") and _precedes(c, top)]


def _siblings_after(p: etree._Element, node: etree._Element) -> list[etree._Element]:
    top = _top(node, p)
    return [c for c in p if c is not top and c.tag != qn("w:pPr") and _precedes(top, c)]


def _precedes(a: etree._Element, b: etree._Element) -> bool:
    parent = a.getparent()
    return parent.index(a) < parent.index(b)
