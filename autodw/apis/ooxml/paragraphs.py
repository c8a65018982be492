"""New paragraphs, inline content placed into a paragraph at a character offset, and hyperlinks."""

from __future__ import annotations

from lxml import etree

from autodw.apis.ooxml.builtin_styles import ensure_style
from autodw.apis.ooxml.elements import get_or_add_ppr, insert_ordered, make
from autodw.apis.ooxml.text import (atom_text, atoms, formatting_at, insertion_point, new_run, paragraph_text,
                                   replace_span, without_link_look)
from autodw.core.document import WordDocument
from autodw.core.xml import NS, qn

#: Alignment names of the API schema -> ``w:jc`` values.
JC = {"left": "left", "center": "center", "right": "right", "justify": "both"}



def make_paragraph(doc: WordDocument, content: str, style: str | None = None,
                   alignment: str | None = None) -> etree._Element:
    """A new ``w:p`` with `content` (tabs/newlines kept), a style and an alignment."""
    p = make("w:p")
    if style or alignment:
        ppr = get_or_add_ppr(p)
        if style:
            insert_ordered(ppr, make("w:pStyle", w_val=ensure_style(doc, style, "paragraph")))
        if alignment:
            insert_ordered(ppr, make("w:jc", w_val=JC[alignment]))
    if content:
        p.append(new_run(content))
    return p


def hyperlink_runs(doc: WordDocument, link_text: str, rpr: etree._Element | None = None) -> etree._Element:
    """A run showing `link_text` in the Hyperlink character style (for a ``w:hyperlink``), over the run properties
    `rpr` (those of the text it is placed in: its font, size, bold, italic) when given, their own character style,
    colour and underline dropped (the style's blue underline shows it is a link, as Word's links look)."""
    style = ensure_style(doc, "Hyperlink", "character")
    rpr = make("w:rPr") if rpr is None else without_link_look(rpr)
    insert_ordered(rpr, make("w:rStyle", w_val=style))
    return new_run(link_text, rpr)


def place_inline(p: etree._Element, offset: int | None, *elements: etree._Element) -> None:
    """Put inline elements (runs, hyperlinks, fields), in order, into paragraph `p` at character `offset` (None: end),
    where :func:`insert_text` puts text: at a field's edge outside the field, on the side the offset names. They go
    into no hyperlink, content control or tracked insertion: before one the offset falls inside, after one it ends."""
    if offset is None or offset > len(paragraph_text(p)):
        p.extend(elements)
        return
    anchor, side, _ = insertion_point(p, offset)
    if anchor is None:
        p.extend(elements)
        return
    top = _top_level(anchor, p)
    if top is not anchor and side == "after" and any(
            a.end > offset for a in atoms(p) if any(anc is top for anc in a.run.iterancestors())):
        side = "before"
    for el in elements:
        if side == "after":
            top.addnext(el)
            top = el
        else:
            top.addprevious(el)


def _top_level(el, p):
    """The ancestor of `el` that is a direct child of `p` (runs may sit in hyperlinks or insertions)."""
    while el.getparent() is not p:
        el = el.getparent()
    return el


def paragraph_links(p: etree._Element) -> list[etree._Element]:
    """The ``w:hyperlink`` elements of a paragraph."""
    return [h for h in p.iter(qn("w:hyperlink"))]


def link_text(link: etree._Element) -> str:
    """The text a hyperlink shows."""
    return "".join(s for r in link.iter(qn("w:r")) for s in (atom_text(c) for c in r) if s is not None)


def drop_rel(part, r_id: str | None) -> None:
    """Drop relationship `r_id` of `part` once nothing in the part's XML names it any more. (python-docx's own
    drop_rel expects the caller's reference to be there still: it dropped a relationship one element still used,
    the one a retargeted link got back from relate_to for the same URL, or a header another section shares.)"""
    if not r_id or r_id not in part.rels:
        return
    r = f"{{{NS['r']}}}"
    if not any(v == r_id for el in part.element.iter() for k, v in el.attrib.items() if k.startswith(r)):
        del part.rels[r_id]


def set_link_text(doc: WordDocument, p: etree._Element, link: etree._Element, new_text: str) -> None:
    """Replace the text a hyperlink of paragraph `p` shows, keeping the formatting of its first run (a link without
    formatted runs, e.g. an empty one, gets a run in the Hyperlink character style over the formatting of the text
    around it, as insert_hyperlink gives)."""
    runs = [a for a in atoms(p) if any(anc is link for anc in a.run.iterancestors())]
    if runs:
        replace_span(doc, p, runs[0].start, runs[-1].end, new_text)
        return
    rpr = next((r.find(qn("w:rPr")) for r in link.iter(qn("w:r")) if r.find(qn("w:rPr")) is not None), None)
    if rpr is not None:
        link.append(new_run(new_text, rpr))
        return
    before = set()  # the elements of `p` ahead of the link: the text they show is the text before it
    for el in p.iter():
        if el is link:
            break
        before.add(el)
    offset = max((a.end for a in atoms(p) if a.el in before), default=0)
    link.append(hyperlink_runs(doc, new_text, formatting_at(p, offset)))
