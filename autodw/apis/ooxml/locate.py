"""Find what an API call names: elements by stable id, insertion positions, table cells.

Look elements up on every call; never keep them across calls (rollback rebuilds the tree).
"""

from __future__ import annotations

from typing import Any

from docx.opc.constants import RELATIONSHIP_TYPE as RT
from docx.table import Table
from docx.text.paragraph import Paragraph
from lxml import etree

from autodw.core.document import WordDocument
from autodw.core.errors import ArgumentError
from autodw.core.xml import qn

P, TBL = qn("w:p"), qn("w:tbl")


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


def insert_block(doc: WordDocument, position: Any, new: etree._Element) -> None:
    """Insert the paragraph or table element `new` at `position` ("start", "end", {"after": id}, {"before": id})."""
    body = doc.body
    if position == "start":
        first = next((c for c in body if c.tag != qn("w:sectPr")), None)
        if first is None:
            body.insert(0, new)
        else:
            first.addprevious(new)
    elif position == "end":
        sect = body.find(qn("w:sectPr"))
        if sect is not None:
            sect.addprevious(new)
        else:
            body.append(new)
    elif isinstance(position, dict) and "after" in position:
        anchor = block(doc, position["after"])
        anchor.addnext(new)
    elif isinstance(position, dict) and "before" in position:
        block(doc, position["before"]).addprevious(new)
    else:
        raise ArgumentError(f'position {position!r} must be "start", "end", {{"after": ID}} or {{"before": ID}}')
    if new.tag == TBL and new.getnext() is None and new.getparent().tag == qn("w:tc"):
        new.addnext(etree.SubElement(new.getparent(), P))  # a cell must end with a paragraph


def drawing(doc: WordDocument, did: str, kind: str | None = None) -> etree._Element:
    """A ``wp:inline``/``wp:anchor``/``w:pict`` by id, optionally of one kind (img, chart, shape)."""
    return doc.find(did, kind)


def body_paragraphs(doc: WordDocument) -> list[str]:
    """Ids of all paragraphs in the body (including cells), in document order."""
    return [pid for pid, el in doc.iter_elements() if el.tag == P and el.getroottree().getroot() is doc.part._element]
