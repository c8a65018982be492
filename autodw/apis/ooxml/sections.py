"""Sections by 0-based index (as in the state's ``page_layout.sections``): look-up, page sizes, breaks."""

from __future__ import annotations

from typing import Any

from lxml import etree

from autodw.apis.ooxml.elements import get_or_add, make
from autodw.core.document import WordDocument
from autodw.core.errors import ArgumentError
from autodw.analysis.state.layout import section_properties
from autodw.core.xml import qn

#: Argument schema: one section index or every section.
SECTION: dict[str, Any] = {
    "description": 'section index from the state\'s page_layout.sections (0 = first), or "all"',
    "oneOf": [{"type": "integer", "minimum": 0}, {"type": "string", "enum": ["all"]}],
}
ONE_SECTION: dict[str, Any] = {"type": "integer", "minimum": 0,
                               "description": "section index from the state's page_layout.sections (0 = first)"}

#: Paper sizes in twips, portrait (width, height).
PAPER_SIZES: dict[str, tuple[int, int]] = {
    "A3": (16838, 23811), "A4": (11906, 16838), "A5": (8391, 11906),
    "Letter": (12240, 15840), "Legal": (12240, 20160),
}
#: API start names -> ``w:type`` values.
STARTS = {"new_page": "nextPage", "continuous": "continuous", "even_page": "evenPage", "odd_page": "oddPage"}


def all_sections(doc: WordDocument) -> list[etree._Element]:
    """Every section's ``w:sectPr`` in document order (the last one is the body's own)."""
    return section_properties(doc.body)


def final_section(doc: WordDocument) -> etree._Element:
    """The body's own ``w:sectPr``; a document without one (Word then uses Letter with 1in margins) gets it."""
    sect = doc.body.find(qn("w:sectPr"))
    if sect is None:
        sect = make("w:sectPr")
        sect.append(make("w:pgSz", w_w="12240", w_h="15840"))
        sect.append(make("w:pgMar", w_top="1440", w_right="1440", w_bottom="1440", w_left="1440", w_header="720",
                         w_footer="720", w_gutter="0"))
        doc.body.append(sect)
    return sect


def section_at(doc: WordDocument, index: int) -> etree._Element:
    """The ``w:sectPr`` of section `index`; ArgumentError names the valid range."""
    final_section(doc)
    sections = all_sections(doc)
    if not 0 <= index < len(sections):
        raise ArgumentError(f"there is no section {index}; the document has {len(sections)} section(s), "
                            f"indices 0 to {len(sections) - 1}")
    return sections[index]


def section_indices(doc: WordDocument, section: int | str) -> list[int]:
    """Indices named by a SECTION argument (an index or "all")."""
    if section == "all":
        final_section(doc)
        return list(range(len(all_sections(doc))))
    section_at(doc, section)  # validates
    return [int(section)]


def describe(indices: list[int], total: int) -> str:
    """"section 2" / "all 3 sections" for messages."""
    if len(indices) == total and total > 1:
        return f"all {total} sections"
    return "sections " + ", ".join(map(str, indices)) if len(indices) > 1 else f"section {indices[0]}"


def section_of_paragraph(doc: WordDocument, p: etree._Element) -> etree._Element:
    """The ``w:sectPr`` that ends the section holding body paragraph `p`."""
    node = p
    while node is not None:
        sect = node.find(f"{qn('w:pPr')}/{qn('w:sectPr')}") if node.tag == qn("w:p") else None
        if sect is not None:
            return sect
        node = node.getnext()
    return final_section(doc)


def page_size(sect: etree._Element) -> tuple[int | None, int | None]:
    """(width, height) in twips, or None when unset."""
    sz = sect.find(qn("w:pgSz"))
    if sz is None:
        return None, None
    return _int(sz.get(qn("w:w"))), _int(sz.get(qn("w:h")))


def twips_attr(el: etree._Element, name: str, default: int = 0) -> int:
    """A twips attribute ``w:<name>`` as int (real files write "12240.0" too)."""
    return _int(el.get(qn(f"w:{name}"))) or default


def text_area(sect: etree._Element) -> tuple[int, int]:
    """(width, height) in twips of the area inside the margins (Letter and 1-inch margins if unset)."""
    w, h = page_size(sect)
    w, h = w or 12240, h or 15840
    mar = sect.find(qn("w:pgMar"))
    get = (lambda k, d: _int(mar.get(qn(f"w:{k}"))) if mar is not None and mar.get(qn(f"w:{k}")) else d)
    width = w - abs(get("left", 1440)) - abs(get("right", 1440))
    height = h - abs(get("top", 1440)) - abs(get("bottom", 1440))
    return max(width, 1440), max(height, 1440)


def _int(v: str | None) -> int | None:
    try:
        return int(float(v)) if v is not None else None
    except ValueError:
        return None


def settings_root(doc: WordDocument, create: bool = True) -> etree._Element | None:
    """The ``w:settings`` element; python-docx adds a settings part when `create` and there is none."""
    from docx.opc.constants import RELATIONSHIP_TYPE as RT

    for rel in doc.part.rels.values():
        if rel.reltype == RT.SETTINGS and not rel.is_external and hasattr(rel.target_part, "element"):
            return rel.target_part.element
    return doc.docx.settings.element if create else None


def set_orientation(sect: etree._Element, orientation: str) -> None:
    """Swap width and height so the page is `orientation`; keep w:orient in step."""
    sz = get_or_add(sect, "w:pgSz")
    w, h = page_size(sect)
    w, h = w or 12240, h or 15840
    if (orientation == "landscape") != (w > h):
        w, h = h, w
    write_page_size(sz, w, h)


def write_page_size(sz: etree._Element, w: int, h: int) -> None:
    """Write a ``w:pgSz`` of `w` x `h` twips, with ``w:orient`` set for landscape."""
    sz.set(qn("w:w"), str(w))
    sz.set(qn("w:h"), str(h))
    if w > h:
        sz.set(qn("w:orient"), "landscape")
    elif qn("w:orient") in sz.attrib:
        del sz.attrib[qn("w:orient")]
