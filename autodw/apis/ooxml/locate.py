"""Find what an API call names: elements by stable id, insertion positions, table cells.

Look elements up on every call; never keep them across calls (rollback rebuilds the tree).
"""

from __future__ import annotations

from typing import Any

from docx.opc.constants import RELATIONSHIP_TYPE as RT
from docx.table import Table
from docx.text.paragraph import Paragraph
from lxml import etree

from autodw.apis.ooxml.elements import get_or_add_ppr, insert_ordered
from autodw.core.document import WordDocument
from autodw.core.errors import ArgumentError
from autodw.core.xml import qn

P, TBL, PPR, SECT_PR = qn("w:p"), qn("w:tbl"), qn("w:pPr"), qn("w:sectPr")
BLOCK_TAGS = (P, TBL, qn("w:sdt"), qn("w:customXml"))


class PartParent:
    """The minimal parent python-docx proxies need: something with a ``part``."""

    def __init__(self, part):
        self.part = part


def part_of(doc: WordDocument, el: etree._Element):
    """The XML part (document, header or footer) whose tree holds `el`."""
    root = el.getroottree().getroot()
    for part in (doc.part, *doc.header_footer_parts()):
        if part._element is root:
            return part
    raise ArgumentError("the element is not in the document body, a header or a footer")


def story_of(doc: WordDocument, el: etree._Element) -> str:
    """"body", "header" or "footer": which story the part holding `el` is (:func:`part_of`)."""
    part = part_of(doc, el)
    if part is doc.part:
        return "body"
    return next("header" if rel.reltype == RT.HEADER else "footer" for rel in doc.part.rels.values()
                if not rel.is_external and rel.target_part is part)


def paragraph(doc: WordDocument, pid: str) -> Paragraph:
    """The python-docx paragraph with id `pid` (body, cell, header or footer)."""
    el = doc.find(pid, "p")
    return Paragraph(el, PartParent(part_of(doc, el)))


def table(doc: WordDocument, tid: str) -> Table:
    """The python-docx table with id `tid`."""
    el = doc.find(tid, "t")
    return Table(el, PartParent(part_of(doc, el)))


def block(doc: WordDocument, bid: str) -> etree._Element:
    """A paragraph or table element by id."""
    el = doc.find(bid)
    if el.tag not in (P, TBL):
        raise ArgumentError(f"{bid!r} is not a paragraph or table id")
    return el


def in_table_cell(el: etree._Element) -> bool:
    """True if `el` sits inside a table cell."""
    parent = el.getparent()
    while parent is not None:
        if parent.tag == qn("w:tc"):
            return True
        parent = parent.getparent()
    return False


def insert_block(doc: WordDocument, position: Any, *new: etree._Element) -> None:
    """Insert the paragraph or table elements `new`, in order, at `position` ("start", "end", {"after": id},
    {"before": id}). After a paragraph that ends a section they stay in that section (:func:`insert_after`)."""
    body = doc.body
    if position == "start":
        first = next((c for c in body if c.tag != qn("w:sectPr")), None)
        if first is None:
            for i, el in enumerate(new):
                body.insert(i, el)
        else:
            for el in new:
                first.addprevious(el)
    elif position == "end":
        sect = body.find(qn("w:sectPr"))
        for el in new:
            if sect is not None:
                sect.addprevious(el)
            else:
                body.append(el)
    elif isinstance(position, dict) and "after" in position:
        insert_after(block(doc, position["after"]), *new)
    elif isinstance(position, dict) and "before" in position:
        anchor = block(doc, position["before"])
        for el in new:
            anchor.addprevious(el)
    else:
        raise ArgumentError(f'position {position!r} must be "start", "end", {{"after": ID}} or {{"before": ID}}')
    last = new[-1]
    if last.tag == TBL and last.getnext() is None and last.getparent().tag == qn("w:tc"):
        last.addnext(etree.SubElement(last.getparent(), P))  # a cell must end with a paragraph


def insert_after(anchor: etree._Element, *new: etree._Element) -> None:
    """Put blocks `new`, in order, just after block `anchor`. When `anchor` is the paragraph that ends a section
    (its ``w:pPr`` holds the ``w:sectPr``) and the last new block is a paragraph, they stay in that section, as text
    typed at a section's end does in Word: the section break moves to that paragraph. New content that ends with a
    table starts the next section instead: keeping it would need a new paragraph after the table to hold the break,
    and that paragraph's id would renumber the ids later gold calls of DWBench 2.0 name. When no block follows
    `anchor` (the next section has no content of its own, as after a move took it all), the new blocks become that
    section's content and the break stays."""
    ppr = anchor.find(PPR) if anchor.tag == P else None
    sect = ppr.find(SECT_PR) if ppr is not None else None
    if sect is not None and not any(s.tag in BLOCK_TAGS for s in anchor.itersiblings()):
        sect = None
    for el in reversed(new):
        anchor.addnext(el)
    if sect is None or new[-1].tag != P:
        return
    insert_ordered(get_or_add_ppr(new[-1]), sect)  # moves it: an element has one parent
    if not len(ppr) and not ppr.attrib:
        anchor.remove(ppr)


def drawing(doc: WordDocument, did: str, kind: str | None = None) -> etree._Element:
    """A ``wp:inline``/``wp:anchor``/``w:pict`` by id, optionally of one kind (img, chart, shape)."""
    return doc.find(did, kind)


def body_paragraphs(doc: WordDocument) -> list[str]:
    """Ids of all paragraphs in the body (including cells), in document order."""
    return [pid for pid, el in doc.iter_elements() if el.tag == P and el.getroottree().getroot() is doc.part._element]
