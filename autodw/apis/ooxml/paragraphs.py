"""New paragraphs and inline content placed into a paragraph at a character offset."""

from __future__ import annotations

from lxml import etree

from autodw.apis.ooxml.builtin_styles import ensure_style
from autodw.apis.ooxml.elements import get_or_add_ppr, insert_ordered, make
from autodw.apis.ooxml.text import atoms, new_run, paragraph_text, split_at
from autodw.document import WordDocument

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


def hyperlink_runs(doc: WordDocument, link_text: str) -> etree._Element:
    """A run showing `link_text` in the Hyperlink character style (for a ``w:hyperlink``)."""
    style = ensure_style(doc, "Hyperlink", "character")
    rpr = make("w:rPr")
    rpr.append(make("w:rStyle", w_val=style))
    return new_run(link_text, rpr)


def place_inline(p: etree._Element, offset: int | None, *elements: etree._Element) -> None:
    """Put inline elements (runs, hyperlinks, fields), in order, into paragraph `p` at character `offset` (None: end)."""
    text = paragraph_text(p)
    if offset is None or offset >= len(text):
        for el in elements:
            p.append(el)
        return
    split_at(p, offset)
    after = next(a for a in atoms(p) if a.start >= offset)
    anchor = _top_level(after.run, p)
    for el in elements:
        anchor.addprevious(el)


def _top_level(el, p):
    """The ancestor of `el` that is a direct child of `p` (runs may sit in hyperlinks or insertions)."""
    while el.getparent() is not p:
        el = el.getparent()
    return el
