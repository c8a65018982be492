"""Style definitions: look a style up by the name users write, make a new style id, reach a style's
``w:pPr``/``w:rPr`` and the document defaults, and resolve the font size a paragraph inherits."""

from __future__ import annotations

from lxml import etree

from autodw.apis.ooxml.builtin_styles import (available_styles, default_style_id, ensure_style, find_style_id,
                                              styles_element)
from autodw.apis.ooxml.elements import insert_ordered, make
from autodw.core.document import WordDocument
from autodw.core.errors import ArgumentError, clipped
from autodw.core.xml import qn, wval

KINDS = ("paragraph", "character", "table")


def style_by_id(doc: WordDocument, style_id: str) -> etree._Element | None:
    """The ``w:style`` with id `style_id` (the first of an id defined twice, the one Word reads), or None."""
    return next(iter(style_definitions(doc, style_id)), None)


def style_definitions(doc: WordDocument, style_id: str) -> list[etree._Element]:
    """Every ``w:style`` with id `style_id`: an edit of a style changes them all, so that the document means the same
    whichever definition a reader takes."""
    return [s for s in styles_element(doc).iterchildren(qn("w:style")) if s.get(qn("w:styleId")) == style_id]


def find_style(doc: WordDocument, name: str, kinds: tuple[str, ...] = KINDS) -> tuple[etree._Element, str]:
    """(``w:style``, kind) of the style called `name` (UI name, stored name or id, any case), trying
    `kinds` in order and adding a known Word built-in if the document lacks it."""
    for kind in kinds:
        sid = find_style_id(doc, name, kind)
        if sid is not None:
            return style_by_id(doc, sid), kind
    for kind in kinds:
        try:
            sid = ensure_style(doc, name, kind)
        except ArgumentError:
            continue
        return style_by_id(doc, sid), kind
    if kinds == ("character",):  # Word applies a paragraph style to part of a paragraph as its linked character style
        linked = _linked_style(doc, name)
        if linked is not None:
            return linked, "character"
    taken = name_taken(doc, name)
    if taken is not None:
        hint = ("; text within a paragraph (span) takes a character style: leave out span to style whole paragraphs"
                if kinds == ("character",) else "")
        raise ArgumentError(f"{name!r} is a {taken} style, not a {' or '.join(kinds)} style{hint}")
    names = [f"{n} ({k})" for k in kinds for n in sorted(available_styles(doc, k))]
    raise ArgumentError(f"there is no style {clipped(name, 80)!r}; styles: {', '.join(names[:60])}"
                        + (f", ... ({len(names)} in all)" if len(names) > 60 else ""))


def _linked_style(doc: WordDocument, name: str) -> etree._Element | None:
    """The character style linked to the paragraph style called `name` (``w:link``), or None."""
    sid = find_style_id(doc, name, "paragraph")
    style = style_by_id(doc, sid) if sid is not None else None
    link = wval(style.find(qn("w:link"))) if style is not None else None
    linked = style_by_id(doc, link) if link else None
    return linked if linked is not None and linked.get(qn("w:type")) == "character" else None


def name_taken(doc: WordDocument, name: str) -> str | None:
    """The kind of an existing style called `name` (any kind), or None."""
    return next((k for k in (*KINDS, "numbering") if find_style_id(doc, name, k) is not None), None)


def style_part(style: etree._Element, tag: str) -> etree._Element:
    """The style's ``w:pPr`` or ``w:rPr`` (created in schema order)."""
    found = style.find(qn(tag))
    return found if found is not None else insert_ordered(style, make(tag))


def default_rpr(doc: WordDocument) -> etree._Element:
    """``w:docDefaults/w:rPrDefault/w:rPr``, created when missing."""
    root = styles_element(doc)
    defaults = root.find(qn("w:docDefaults"))
    if defaults is None:
        defaults = make("w:docDefaults")
        root.insert(0, defaults)
    rpr_default = defaults.find(qn("w:rPrDefault"))
    if rpr_default is None:
        rpr_default = make("w:rPrDefault")
        defaults.insert(0, rpr_default)
    rpr = rpr_default.find(qn("w:rPr"))
    if rpr is None:
        rpr = make("w:rPr")
        rpr_default.append(rpr)
    return rpr


def font_size_pt(doc: WordDocument, style_id: str | None) -> float:
    """The font size a paragraph of style `style_id` inherits (its style chain, then the defaults; 10pt in Word's absence)."""
    seen: set[str] = set()
    sid = style_id or default_style_id(doc)
    while sid and sid not in seen:
        seen.add(sid)
        style = style_by_id(doc, sid)
        if style is None:
            break
        size = wval(style.find(f"{qn('w:rPr')}/{qn('w:sz')}"))
        if size and size.isdigit():
            return int(size) / 2
        sid = wval(style.find(qn("w:basedOn")))
    size = wval(default_rpr_if_any(doc, "w:sz"))
    return int(size) / 2 if size and size.isdigit() else 10.0


def default_rpr_if_any(doc: WordDocument, tag: str) -> etree._Element | None:
    """A child of the docDefaults run properties, without creating anything."""
    return styles_element(doc).find(f"{qn('w:docDefaults')}/{qn('w:rPrDefault')}/{qn('w:rPr')}/{qn(tag)}")


def paragraph_style_id(p: etree._Element) -> str | None:
    return wval(p.find(f"{qn('w:pPr')}/{qn('w:pStyle')}"))


def inherits_from(doc: WordDocument, style: etree._Element, sid: str) -> bool:
    seen = set()
    while style is not None and style.get(qn("w:styleId")) not in seen:
        seen.add(style.get(qn("w:styleId")))
        base = wval(style.find(qn("w:basedOn")))
        if base == sid:
            return True
        style = style_by_id(doc, base) if base else None
    return False

