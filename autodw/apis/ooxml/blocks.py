"""Blocks (paragraphs, tables, content controls) in their stories: reading order, which cell holds a paragraph,
what removing or splitting a block must keep valid (a container ends with a paragraph, section breaks move,
notes/comments/bookmarks whose marks went with it are cleaned up)."""

from __future__ import annotations

from typing import Any, Iterator

from docx.opc.constants import RELATIONSHIP_TYPE as RT
from lxml import etree

from autodw.apis.ooxml.elements import get_or_add_ppr, insert_ordered, make
from autodw.apis.ooxml.notes import notes_root, remove_note
from autodw.core.document import WordDocument
from autodw.core.errors import UnsupportedOperationError
from autodw.core.ids import element_id
from autodw.core.xml import MC, qn

P, TBL, TC, TR, SDT = (qn(t) for t in ("w:p", "w:tbl", "w:tc", "w:tr", "w:sdt"))
BODY = qn("w:body")
BLOCKS = (P, TBL, SDT)
_FALLBACK = f"{{{MC}}}Fallback"


def in_fallback(el: etree._Element) -> bool:
    """Whether `el` lies in an mc:Fallback (a copy of content shown by mc:Choice)."""
    return any(a.tag == _FALLBACK for a in el.iterancestors())


def story_paragraphs(doc: WordDocument, scope: str) -> Iterator[tuple[etree._Element, str]]:
    """(paragraph, story name) in reading order: the body, then headers, footers and notes if scope is "all"."""
    stories: list[tuple[etree._Element, str]] = [(doc.body, "body")]
    if scope == "all":
        for part in doc.header_footer_parts():
            stories.append((part._element, "header" if "header" in str(part.partname) else "footer"))
        for kind in ("footnote", "endnote"):
            root = notes_root(doc, kind, create=False)
            for note in (root.iterchildren(qn(f"w:{kind}")) if root is not None else ()):
                if note.get(qn("w:type")) is None:
                    stories.append((note, f"{kind} {note.get(qn('w:id'))}"))
    for root, story in stories:
        for p in root.iter(P):
            if not in_fallback(p):
                yield p, story


def cell_location(p: etree._Element) -> dict[str, Any] | None:
    """{"table", "row", "col"} of the cell holding `p` (grid column, 0-based), or None."""
    tc = next((a for a in p.iterancestors(TC)), None)
    if tc is None:
        return None
    tr = tc.getparent()
    tbl = next(tr.iterancestors(TBL))
    col = 0
    for cell in tr.iterchildren(TC):
        if cell is tc:
            break
        span = cell.find(f"{qn('w:tcPr')}/{qn('w:gridSpan')}")
        col += int(span.get(qn("w:val"), "1")) if span is not None else 1
    row = [r for r in tbl.iterchildren(TR)].index(tr) if tr.getparent() is tbl else None
    return {"table": element_id(tbl), "row": row, "col": col}


def section_number(doc: WordDocument, p: etree._Element) -> int:
    """The index of the section body paragraph `p` lies in."""
    n = 0
    for q in doc.body.iter(P):
        if q is p:
            return n
        if q.find(f"{qn('w:pPr')}/{qn('w:sectPr')}") is not None:
            n += 1
    return n


def check_container_keeps_paragraph(el: etree._Element, bid: str) -> None:
    """Refuse removing `el` when its cell, header, footer or the body would no longer end with a paragraph."""
    parent = el.getparent()
    rest = [c for c in parent if c is not el and c.tag in BLOCKS]
    if rest and rest[-1].tag != TBL and any(c.tag != TBL for c in rest):
        return
    fix = "Empty it with set_paragraph_text (text \"\") instead"
    if parent.tag == TC:
        cell = cell_location(el) or {}
        raise UnsupportedOperationError(f"{bid} is the last paragraph of cell ({cell.get('row')}, {cell.get('col')}) of "
                                        f"table {cell.get('table')}; a cell must keep a paragraph. {fix}")
    if parent.tag != BODY:
        local = etree.QName(parent).localname
        story = {"hdr": "header", "ftr": "footer", "sdtContent": "content control"}.get(local, local)
        raise UnsupportedOperationError(f"{bid} is the last paragraph of its {story}; it must keep one. {fix}")
    if not rest or all(c.tag == TBL for c in rest):
        raise UnsupportedOperationError(f"{bid} is the only paragraph of the document; it cannot be removed. {fix}")
    raise UnsupportedOperationError(f"{bid} is the paragraph after the last table and a document cannot end with a "
                                    f"table; it cannot be removed. {fix}")


def hand_over_section_break(doc: WordDocument, el: etree._Element, bid: str, *, moving: bool = False) -> str:
    """If paragraph `el` ends a section, keep that section break where it is before `el` leaves; return a note for
    the message. The break goes to the paragraph just before `el`. When none can take it (`el` follows a table,
    is the first block, or is its section's only paragraph) a move (`moving`) leaves a new empty paragraph in the
    default style holding the break in `el`'s place, as Word keeps a paragraph mark after a table, so both
    sections keep their page layout; a deletion is refused."""
    sect = el.find(f"{qn('w:pPr')}/{qn('w:sectPr')}") if el.tag == P else None
    if sect is None:
        return ""
    n = section_number(doc, el)
    prev = el.getprevious()
    while prev is not None and prev.tag not in BLOCKS:
        prev = prev.getprevious()
    if prev is not None and prev.tag == P and prev.find(f"{qn('w:pPr')}/{qn('w:sectPr')}") is None:
        insert_ordered(get_or_add_ppr(prev), sect)
        return f"; the section break ending section {n} moved to {element_id(prev)}"
    if moving:
        holder = make("w:p")
        insert_ordered(get_or_add_ppr(holder), sect)
        el.addprevious(holder)
        doc.refresh_ids()
        where = "at the start of the document" if prev is None else f"after {element_id(prev)}"
        return (f"; the section break ending section {n} stayed in place, on a new empty paragraph "
                f"{element_id(holder)} {where}")
    if prev is None or prev.tag != P:
        what = "it is the first block of the document" if prev is None else f"the block before it is table {element_id(prev)}"
        raise UnsupportedOperationError(
            f"{bid} holds the section break that ends section {n} and {what}, so the break cannot move to the "
            f"previous paragraph; insert a paragraph before {bid} first, or remove the section break")
    raise UnsupportedOperationError(
        f"{bid} is the only paragraph of section {n} and holds its section break; removing it would merge two "
        "sections. Remove the section break first")


def drop_dangling_marks(doc: WordDocument, removed: etree._Element) -> list[str]:
    """After `removed` left the tree: delete the notes and comments whose reference went with it, and the
    other half of bookmark and comment ranges that were cut. Returns what was deleted, for the message."""
    dropped: list[str] = []
    for kind in ("footnote", "endnote"):
        for ref in removed.iter(qn(f"w:{kind}Reference")):
            if remove_note(doc, kind, int(ref.get(qn("w:id")))):
                dropped.append(f"{kind} {ref.get(qn('w:id'))}")
    comments = {ref.get(qn("w:id")) for ref in removed.iter(qn("w:commentReference"))}
    rel = next((r for r in doc.part.rels.values() if r.reltype == RT.COMMENTS and not r.is_external), None)
    if comments and rel is not None:
        root = rel.target_part.element
        for c in list(root.iterchildren(qn("w:comment"))):
            if c.get(qn("w:id")) in comments:
                root.remove(c)
                dropped.append(f"comment {c.get(qn('w:id'))}")
    for tags, extra in ((("w:bookmarkStart", "w:bookmarkEnd"), set()),
                        (("w:commentRangeStart", "w:commentRangeEnd"), comments)):
        cut = {m.get(qn("w:id")) for m in removed.iter(*map(qn, tags))} | extra
        for mark in list(doc.body.iter(*map(qn, tags))) if cut else ():
            if mark.get(qn("w:id")) in cut:
                mark.getparent().remove(mark)
    return dropped


def _field_balance(el: etree._Element) -> tuple[int, list[etree._Element]]:
    """(fields `el` begins and does not end, the fldChar/instrText nodes of fields begun before `el`)."""
    depth, outer = 0, []
    for node in el.iter(qn("w:fldChar"), qn("w:instrText")):
        kind = node.get(qn("w:fldCharType")) if node.tag == qn("w:fldChar") else None
        if kind == "begin":
            depth += 1
        elif depth == 0:
            outer.append(node)  # the instruction, separator or end of a field begun earlier
        elif kind == "end":
            depth -= 1
    return depth, outer


def check_fields_whole(el: etree._Element, bid: str) -> None:
    """Refuse to move block `el` when it holds the begin or the end of a complex field whose other end lies
    outside it (Word repairs a file with half a field)."""
    depth, outer = _field_balance(el)
    if depth or outer:
        raise UnsupportedOperationError(
            f"{bid} holds the {'start' if depth else 'end'} of a field that goes on in another paragraph; moving it "
            "would cut the field in two. Move its text instead (cut and insert it)")


def hand_over_field_ends(doc: WordDocument, el: etree._Element, bid: str) -> str:
    """Before paragraph `el` is deleted: the end of a field begun in an earlier paragraph moves to the end of the
    paragraph before `el` (as when Word joins an emptied paragraph to the one before), so the field stays whole;
    return a note for the message. Refuses when `el` begins a field that ends after it."""
    depth, outer = _field_balance(el)
    if depth:
        raise UnsupportedOperationError(
            f"{bid} holds the start of a field that ends in a later paragraph; deleting it would cut the field in "
            "two. Delete the text of the paragraph (set_paragraph_text) or every paragraph of the field")
    if not outer:
        return ""
    prev = el.getprevious()
    while prev is not None and prev.tag not in BLOCKS:
        prev = prev.getprevious()
    if prev is None or prev.tag != P:
        raise UnsupportedOperationError(f"{bid} holds the end of a field begun earlier and no paragraph comes just "
                                        "before it to take that end; delete the text of the paragraph instead")
    runs: list[etree._Element] = []
    for node in outer:
        run = node.getparent()
        if run.tag == qn("w:r") and run not in runs:
            runs.append(run)
    for run in runs:
        prev.append(run)
    return f"; the end of the field it closed moved to {element_id(prev)}"


def field_depth_before(p: etree._Element, node: etree._Element) -> int:
    """How many complex fields are open at `node` inside paragraph `p`."""
    depth = 0
    for el in p.iter(qn("w:fldChar"), node.tag):
        if el is node:
            return depth
        kind = el.get(qn("w:fldCharType")) if el.tag == qn("w:fldChar") else None
        depth += 1 if kind == "begin" else -1 if kind == "end" else 0
    return depth


def split_up_to(p: etree._Element, node: etree._Element) -> etree._Element:
    """Split the containers between `node` and `p` (hyperlinks, insertions, smart tags) so that `node` and
    everything after it can move; return the direct child of `p` where the second part starts."""
    while node.getparent() is not p:
        parent = node.getparent()
        if parent.tag in (qn("w:sdtContent"), qn("w:fldSimple")) or parent.tag.startswith(f"{{{MC}}}"):
            raise UnsupportedOperationError("the offset falls inside a content control or a simple field; "
                                            "choose an offset outside it")
        if node.getprevious() is None or all(c.tag == qn("w:rPr") for c in node.itersiblings(preceding=True)):
            node = parent  # nothing of the container stays before the split: move it whole
            continue
        twin = etree.Element(parent.tag, attrib=dict(parent.attrib), nsmap=parent.nsmap)
        for sibling in [node, *node.itersiblings()]:
            twin.append(sibling)
        parent.addnext(twin)
        node = twin
    return node
