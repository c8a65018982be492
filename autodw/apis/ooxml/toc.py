"""Headings and the table of contents.

A TOC is a complex field (``TOC \\o "1-3" \\h \\z \\u``) whose result is one paragraph per heading in
the ``TOC N`` styles. Word recomputes the result (with page numbers) when it updates fields;
LibreOffice's PDF export shows the stored result, so we store the current headings' texts there
(without page numbers: page layout is Word's to compute).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from lxml import etree

from autodw.apis.ooxml.builtin_styles import ensure_style, styles_element
from autodw.apis.ooxml.elements import get_or_add_ppr, insert_ordered, make
from autodw.apis.ooxml.fields import field_runs
from autodw.apis.ooxml.text import new_run, paragraph_text
from autodw.core.document import WordDocument
from autodw.core.errors import UnsupportedOperationError
from autodw.core.xml import MC, qn, wval

P = qn("w:p")
_HEADING_NAME = re.compile(r"^heading\s*([1-9])$", re.IGNORECASE)
_LEVELS = re.compile(r'\\o\s+"?\s*([1-9])\s*-\s*([1-9])\s*"?')


class StyleLevels:
    """Outline level (1-9) of each paragraph style, following ``w:basedOn``; None for body text."""

    def __init__(self, doc: WordDocument):
        root = styles_element(doc)
        self._styles = {s.get(qn("w:styleId")): s for s in root.iterchildren(qn("w:style"))}
        self._default = next((sid for sid, s in self._styles.items()
                              if s.get(qn("w:type"), "paragraph") == "paragraph" and s.get(qn("w:default")) in ("1", "true")), None)
        self._cache: dict[str | None, int | None] = {}

    def level(self, style_id: str | None) -> int | None:
        """The outline level a paragraph of this style has (1 = top)."""
        if style_id not in self._cache:
            self._cache[style_id] = self._compute(style_id or self._default)
        return self._cache[style_id]

    def _compute(self, style_id: str | None) -> int | None:
        seen: set[str] = set()
        while style_id and style_id not in seen:
            seen.add(style_id)
            style = self._styles.get(style_id)
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


@dataclass
class Heading:
    """One heading of the body: its paragraph, level and text."""

    element: etree._Element
    level: int
    text: str


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
        text = " ".join(paragraph_text(p).replace("\t", " ").split())
        if text:
            out.append(Heading(p, level, text))
    return out


def parse_levels(instruction: str) -> tuple[int, int]:
    """The \\o level range of a TOC instruction (1-9 when absent)."""
    m = _LEVELS.search(instruction)
    if not m:
        return 1, 9
    a, b = int(m.group(1)), int(m.group(2))
    return min(a, b), max(a, b)


def toc_paragraphs(doc: WordDocument, instruction: str, exclude: set[int] | None = None) -> list[etree._Element]:
    """The paragraphs of a TOC field with `instruction`, its result filled with the current headings."""
    first, last = parse_levels(instruction)
    entries = [h for h in headings(doc, first, last) if id(h.element) not in (exclude or set())]
    begin, instr, separate, placeholder, end = field_runs(instruction, "")
    paragraphs = []
    for n, heading in enumerate(entries or [None]):
        p = make("w:p")
        ppr = get_or_add_ppr(p)
        level = heading.level if heading else first
        insert_ordered(ppr, make("w:pStyle", w_val=ensure_style(doc, f"toc {level}", "paragraph")))
        if n == 0:
            for r in (begin, instr, separate):
                p.append(r)
        if heading is not None:
            p.append(new_run(heading.text))
        paragraphs.append(p)
    paragraphs[-1].append(end)
    return paragraphs


@dataclass
class TocField:
    """Where a TOC field sits: its first and last paragraph and the field's own nodes in them."""

    first: etree._Element
    last: etree._Element
    begin: etree._Element
    end: etree._Element
    instruction: str


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

    Text before the field in its first paragraph and after it in its last one is kept, and so is a
    section break carried by the last paragraph.
    """
    old = region(field)
    before = _siblings_before(field.first, field.begin)
    after = _siblings_after(field.last, field.end)
    new = toc_paragraphs(doc, field.instruction, exclude={id(p) for p in old})
    for node in reversed(before):
        new[0].insert(1, node)
    for node in after:
        new[-1].append(node)
    sect = field.last.find(f"{qn('w:pPr')}/{qn('w:sectPr')}")
    if sect is not None:
        insert_ordered(get_or_add_ppr(new[-1]), sect)
    anchor = old[0]
    for p in new:
        anchor.addprevious(p)
    for p in old:
        p.getparent().remove(p)
    return new


def toc_starting_at(doc: WordDocument, p: etree._Element) -> TocField | None:
    """The TOC whose field begins in paragraph `p` (where the state puts the TOC)."""
    return next((f for f in find_tocs(doc) if p is f.first), None)


def toc_blocks(field: TocField) -> list[etree._Element]:
    """The blocks a TOC takes: its "Table of Contents" content control (title included) when it sits in one,
    else the field's paragraphs."""
    paragraphs = region(field)
    parent = paragraphs[0].getparent()
    if parent.tag == qn("w:sdtContent"):
        sdt = parent.getparent()
        gallery = sdt.find(f"{qn('w:sdtPr')}/{qn('w:docPartObj')}/{qn('w:docPartGallery')}")
        if gallery is not None and (wval(gallery) or "").lower() == "table of contents":
            return [sdt]
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
