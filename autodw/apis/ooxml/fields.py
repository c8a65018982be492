"""Word fields (PAGE, NUMPAGES, SEQ, TOC, REF ...) as complex-field runs."""

from __future__ import annotations

import re
from typing import Iterator

from lxml import etree

from autodw.apis.ooxml.elements import get_or_add
from autodw.apis.ooxml.text import text_elements
from autodw.core.document import WordDocument
from autodw.core.xml import W, parse, qn


def field_runs(instruction: str, placeholder: str = "", rpr_xml: str = "") -> list[etree._Element]:
    """The runs of a complex field: begin, instruction, separate, placeholder result, end.

    The placeholder is what shows until Word (or LibreOffice) updates the field.
    """
    def run(inner: str) -> etree._Element:
        return parse(f'<w:r xmlns:w="{W}">{rpr_xml}{inner}</w:r>')

    result = run("")
    for el in text_elements(placeholder):
        result.append(el)
    instr = run('<w:instrText xml:space="preserve"></w:instrText>')
    instr[-1].text = f" {instruction.strip()} "
    return [run('<w:fldChar w:fldCharType="begin" w:dirty="true"/>'), instr,
            run('<w:fldChar w:fldCharType="separate"/>'), result, run('<w:fldChar w:fldCharType="end"/>')]


def request_field_update(settings_root: etree._Element) -> None:
    """Ask Word to update all fields when the document is opened (``w:updateFields``)."""
    get_or_add(settings_root, "w:updateFields").set(f"{{{W}}}val", "true")


#: a SEQ field's instruction and its sequence name ("SEQ 图 \* ARABIC" -> 图)
SEQ_INSTRUCTION = re.compile(r"^SEQ\s+(\S+)", re.IGNORECASE)


def seq_labels(doc: WordDocument) -> list[str]:
    """The sequence names of the body's SEQ fields, in document order ("Table", "图" ...)."""
    out = []
    for el in doc.body.iter(qn("w:instrText"), qn("w:fldSimple")):
        instr = el.text if el.tag == qn("w:instrText") else el.get(qn("w:instr"))
        m = SEQ_INSTRUCTION.match((instr or "").strip())
        if m:
            out.append(m.group(1))
    return out


def bookmark_starts(doc: WordDocument) -> Iterator[etree._Element]:
    """Every ``w:bookmarkStart`` of the document (body, headers, footers, notes, comments)."""
    for root in doc.id_roots():
        yield from root.iter(qn("w:bookmarkStart"))


def new_bookmark_id(doc: WordDocument) -> str:
    """An id no bookmark of the document has (one above the highest)."""
    ids = [int(b.get(qn("w:id"))) for b in bookmark_starts(doc) if (b.get(qn("w:id")) or "").lstrip("-").isdigit()]
    return str(max([-1, *ids]) + 1)


def bookmark_text(start: etree._Element) -> str:
    """The text between a bookmarkStart and its bookmarkEnd (same paragraph only)."""
    bid = start.get(qn("w:id"))
    out, node = [], start.getnext()
    while node is not None and not (node.tag == qn("w:bookmarkEnd") and node.get(qn("w:id")) == bid):
        out.extend(t.text or "" for t in node.iter(qn("w:t")))
        node = node.getnext()
    return "".join(out)
