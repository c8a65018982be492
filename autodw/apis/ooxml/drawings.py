"""Shared helpers for drawings (pictures and charts): docPr ids, inline/floating containers, sizes,
removal with relationship clean-up, and the text width a new drawing may take.

A drawing is addressed by its container (``wp:inline``, ``wp:anchor`` or a VML ``w:pict``), which
carries the stable id (img1, chart1). Look containers up on every call with ``doc.find``.
"""

from __future__ import annotations

from collections import Counter
from typing import Iterable

from lxml import etree

from autodw.apis.ooxml import locate
from autodw.apis.ooxml.blocks import hand_over_section_break
from autodw.apis.ooxml.elements import get_or_add_ppr, insert_ordered, make, remove_children
from autodw.apis.ooxml.paragraphs import JC, make_paragraph, place_inline
from autodw.apis.ooxml.text import paragraph_text
from autodw.core.document import WordDocument
from autodw.core.errors import ArgumentError, UnsupportedOperationError
from autodw.core.ids import ID_ATTR
from autodw.core.units import emu
from autodw.core.xml import MC, NS, parse, qn

PIC_URI = "http://schemas.openxmlformats.org/drawingml/2006/picture"
CHART_URI = "http://schemas.openxmlformats.org/drawingml/2006/chart"
INLINE, ANCHOR, PICT = qn("wp:inline"), qn("wp:anchor"), qn("w:pict")
EXTENT, DOC_PR = qn("wp:extent"), qn("wp:docPr")
_ALT = f"{{{MC}}}AlternateContent"
_R_NS = NS["r"]
REMOVE_EMPTY_PARAGRAPH = {"type": "boolean",
                          "description": "also delete the host paragraph if it is left empty (default false)"}
WRAP_TAGS = tuple(qn(f"wp:{t}") for t in ("wrapNone", "wrapSquare", "wrapTight", "wrapThrough", "wrapTopAndBottom"))
_DEFAULT_TEXT_WIDTH = 5943600  # 6.5in: Letter with 1in margins, when no section says otherwise


# --- ids and lookup ------------------------------------------------------------------------------

def next_docpr_id(doc: WordDocument) -> int:
    """One more than the largest ``wp:docPr/@id`` in any XML part (docPr ids are unique per document)."""
    best = 0
    for part in doc.package.iter_parts():
        root = getattr(part, "_element", None)
        if root is None:
            continue
        for pr in root.iter(DOC_PR):
            value = pr.get("id", "")
            if value.isdigit():
                best = max(best, int(value))
    return best + 1


def host_paragraph(el: etree._Element) -> etree._Element:
    """The ``w:p`` that holds drawing container `el`."""
    parent = el.getparent()
    while parent is not None and parent.tag != qn("w:p"):
        parent = parent.getparent()
    if parent is None:
        raise ArgumentError("the drawing is not inside a paragraph")
    return parent


def graphic_data(container: etree._Element) -> etree._Element | None:
    """The ``a:graphicData`` of a DrawingML container (None for VML)."""
    return container.find(f"{qn('a:graphic')}/{qn('a:graphicData')}")


def is_vml(container: etree._Element) -> bool:
    """True for a VML ``w:pict`` picture (old .doc conversions)."""
    return container.tag == PICT


# --- sizes ---------------------------------------------------------------------------------------

def get_size(container: etree._Element) -> tuple[int, int]:
    """(cx, cy) in EMU of a DrawingML container."""
    extent = container.find(EXTENT)
    if extent is None:
        raise ArgumentError("the drawing has no size (wp:extent missing)")
    return int(extent.get("cx", "0")), int(extent.get("cy", "0"))


def set_size(container: etree._Element, cx: int, cy: int) -> None:
    """Set the displayed size in EMU: ``wp:extent`` and, for pictures, the shape's ``a:xfrm/a:ext``."""
    extent = container.find(EXTENT)
    extent.set("cx", str(int(cx)))
    extent.set("cy", str(int(cy)))
    gd = graphic_data(container)
    if gd is not None:
        ext = gd.find(f"{qn('pic:pic')}/{qn('pic:spPr')}/{qn('a:xfrm')}/{qn('a:ext')}")
        if ext is not None:
            ext.set("cx", str(int(cx)))
            ext.set("cy", str(int(cy)))


def target_size(current: tuple[int, int], width: int | None, height: int | None, keep_aspect: bool | None,
                scale: float | None = None) -> tuple[int, int]:
    """The new (cx, cy) for a resize request, from the current size.

    One of width/height: the other follows the proportions (unless keep_aspect is false). Both: used
    as given, or fitted inside that box when keep_aspect is true. scale: percent of the current size.
    """
    cx, cy = current
    if scale is not None:
        if width is not None or height is not None:
            raise ArgumentError("give either scale or width/height, not both")
        return max(1, round(cx * scale / 100)), max(1, round(cy * scale / 100))
    if width is None and height is None:
        raise ArgumentError("give width, height or scale")
    if cx <= 0 or cy <= 0:
        return width or cx or (height or 1), height or cy or (width or 1)
    if width is not None and height is not None:
        if keep_aspect:
            factor = min(width / cx, height / cy)
            return max(1, round(cx * factor)), max(1, round(cy * factor))
        return width, height
    if keep_aspect is False:
        return width or cx, height or cy
    if width is not None:
        return width, max(1, round(cy * width / cx))
    return max(1, round(cx * height / cy)), height


def resize(container: etree._Element, did: str, width: str | None, height: str | None, keep_aspect: bool | None,
           scale: float | None = None) -> str:
    """Resize drawing `did` (lengths with units or a percent scale); return what was done."""
    old = get_size(container)
    cx, cy = target_size(old, emu(width, "width") if width else None, emu(height, "height") if height else None,
                         keep_aspect, scale)
    set_size(container, cx, cy)
    return f"resized {did} from {size_text(*old)} to {size_text(cx, cy)}"


def size_text(cx: int, cy: int) -> str:
    """"4.0x2.0 cm" for an EMU size."""
    return f"{cx / 360000:.1f}x{cy / 360000:.1f} cm"


def available_width(doc: WordDocument, p: etree._Element) -> int:
    """Text width in EMU of the section (and column) holding paragraph `p`."""
    sect = _section_of(doc, p)
    if sect is None:
        return _DEFAULT_TEXT_WIDTH
    pg_sz, pg_mar, cols = (sect.find(qn(t)) for t in ("w:pgSz", "w:pgMar", "w:cols"))
    try:
        width = int(pg_sz.get(qn("w:w"))) - int(pg_mar.get(qn("w:left"), "0")) - int(pg_mar.get(qn("w:right"), "0"))
    except (AttributeError, TypeError, ValueError):
        return _DEFAULT_TEXT_WIDTH
    if cols is not None and (cols.get(qn("w:num")) or "1").isdigit() and int(cols.get(qn("w:num")) or "1") > 1:
        num = int(cols.get(qn("w:num")))
        space = int(cols.get(qn("w:space")) or "720") if (cols.get(qn("w:space")) or "720").isdigit() else 720
        width = (width - (num - 1) * space) // num
    return max(width, 1440) * 635


def _section_of(doc: WordDocument, p: etree._Element) -> etree._Element | None:
    """The ``w:sectPr`` governing body paragraph `p` (the last section for headers, footers and cells)."""
    body = doc.body
    top = p
    while top.getparent() is not None and top.getparent() is not body:
        top = top.getparent()
    if top.getparent() is body:
        node = top
        while node is not None:
            if node.tag == qn("w:p"):
                sect = node.find(f"{qn('w:pPr')}/{qn('w:sectPr')}")
                if sect is not None:
                    return sect
            node = node.getnext()
    return body.find(qn("w:sectPr"))


def fit_width(doc: WordDocument, p: etree._Element, cx: int, cy: int) -> tuple[int, int]:
    """(cx, cy) scaled down, keeping proportions, so the drawing is no wider than the text column."""
    limit = available_width(doc, p)
    if cx <= limit:
        return cx, cy
    return limit, max(1, round(cy * limit / cx))


# --- new drawings --------------------------------------------------------------------------------

def inline_xml(cx: int, cy: int, docpr_id: int, name: str, graphic_data_xml: str, lock_aspect: bool) -> etree._Element:
    """A ``wp:inline`` holding `graphic_data_xml` (an ``a:graphicData`` element as text)."""
    locks = '<a:graphicFrameLocks noChangeAspect="1"/>' if lock_aspect else ""
    return parse(
        f'<wp:inline xmlns:wp="{NS["wp"]}" xmlns:a="{NS["a"]}" xmlns:r="{NS["r"]}" distT="0" distB="0" distL="0" distR="0">'
        f'<wp:extent cx="{cx}" cy="{cy}"/><wp:effectExtent l="0" t="0" r="0" b="0"/>'
        f'<wp:docPr id="{docpr_id}" name="{name}"/><wp:cNvGraphicFramePr>{locks}</wp:cNvGraphicFramePr>'
        f'<a:graphic>{graphic_data_xml}</a:graphic></wp:inline>'
    )


def drawing_run(container: etree._Element) -> etree._Element:
    """A ``w:r`` holding ``w:drawing`` > `container`."""
    run = make("w:r")
    drawing = make("w:drawing")
    drawing.append(container)
    run.append(drawing)
    return run


def place_drawing(doc: WordDocument, run: etree._Element, position, paragraph: str | None, offset: int | None,
                  alignment: str | None) -> etree._Element:
    """Put a drawing run in a new paragraph at `position`, or into existing `paragraph` at `offset`.

    Returns the host paragraph. Exactly one of position and paragraph must be given.
    """
    if (position is None) == (paragraph is None):
        raise ArgumentError('give exactly one of position (a new paragraph) or paragraph (+ offset) to put it in existing text')
    if paragraph is None:
        if offset is not None:
            raise ArgumentError("offset is only used with paragraph")
        p = make_paragraph(doc, "", None, alignment)
        p.append(run)
        locate.insert_block(doc, position, p)
        return p
    p = doc.find(paragraph, "p")
    length = len(paragraph_text(p))
    if offset is not None and offset > length:
        raise ArgumentError(f"offset {offset} is past the end of {paragraph} ({length} characters)")
    place_inline(p, offset, run)
    if alignment:
        set_paragraph_alignment(p, alignment)
    return p


def set_paragraph_alignment(p: etree._Element, alignment: str) -> None:
    """Write ``w:jc`` of paragraph `p`."""
    ppr = get_or_add_ppr(p)
    remove_children(ppr, "w:jc")
    insert_ordered(ppr, make("w:jc", w_val=JC[alignment]))


# --- removal -------------------------------------------------------------------------------------

def removable_unit(container: etree._Element) -> etree._Element:
    """What to cut out to delete the drawing: its ``w:drawing`` (or ``w:pict``), or the whole
    ``mc:AlternateContent`` when it is one of several alternatives."""
    unit = container if container.tag == PICT else container.getparent()
    node = unit.getparent()
    while node is not None and node.tag != qn("w:p"):
        if node.tag == _ALT:
            return node
        node = node.getparent()
    return unit


def relationship_ids(root: etree._Element) -> Counter:
    """How often each relationship id is referenced in `root` (any r:* attribute: r:embed, r:id, r:link...)."""
    counts: Counter = Counter()
    for el in root.iter():
        for key, value in el.attrib.items():
            if key.startswith(f"{{{_R_NS}}}"):
                counts[value] += 1
    return counts


def drop_unreferenced(part, rids: Iterable[str]) -> list[str]:
    """Remove the relationships of `part` among `rids` that nothing in the part refers to any more."""
    counts = relationship_ids(part._element)
    dropped = []
    for rid in dict.fromkeys(rids):
        if counts[rid] == 0 and rid in part.rels:
            del part.rels[rid]
            part.rels._target_parts_by_rId.pop(rid, None)
            dropped.append(rid)
    return dropped


def remove_drawing(doc: WordDocument, container: etree._Element, remove_empty_paragraph: bool = False) -> str:
    """Cut a drawing out of its paragraph, drop relationships nothing refers to any more, and tidy up.

    Returns a short note on what happened to the host paragraph.
    """
    part = locate.part_of(doc, container)
    p = host_paragraph(container)
    unit = removable_unit(container)
    rids = list(relationship_ids(unit))
    parent = unit.getparent()
    parent.remove(unit)
    if parent.tag == qn("w:r") and all(c.tag == qn("w:rPr") for c in parent):
        parent.getparent().remove(parent)
    drop_unreferenced(part, rids)
    empty = not paragraph_text(p) and p.find(f".//{qn('w:drawing')}") is None and p.find(f".//{qn('w:pict')}") is None
    pid = p.get(ID_ATTR) or "its paragraph"
    if empty and remove_empty_paragraph and p.getparent() is not None and _removable_paragraph(p):
        try:  # a paragraph ending a section hands its break to the paragraph before it, as a deletion does
            moved = hand_over_section_break(doc, p, pid)
        except UnsupportedOperationError:
            return f"; paragraph {pid} is now empty (it holds a section break)"
        p.getparent().remove(p)
        return f"; the now-empty paragraph {pid} was removed{moved}"
    return f"; paragraph {pid} is now empty" if empty else ""


def _removable_paragraph(p: etree._Element) -> bool:
    """A paragraph that can go without breaking the structure (not a cell's last one)."""
    parent = p.getparent()
    return not (parent.tag == qn("w:tc") and len(parent.findall(qn("w:p"))) == 1)


# --- inline <-> floating -------------------------------------------------------------------------

def to_anchor(doc: WordDocument, container: etree._Element, wrap: str, horizontal: str | None,
              x: int | None, y: int | None) -> etree._Element:
    """Make `container` a floating ``wp:anchor`` with `wrap` (square, tight, top_bottom, behind, in_front)
    positioned by `horizontal` alignment or `x` offset (from the column) and `y` (from the paragraph)."""
    if container.tag == INLINE:
        anchor = make("wp:anchor", distT="0", distB="0", distL="114300", distR="114300", simplePos="0",
                      relativeHeight=str(_next_relative_height(doc)), behindDoc="0", locked="0", layoutInCell="1",
                      allowOverlap="1")
        if container.get(ID_ATTR):
            anchor.set(ID_ATTR, container.get(ID_ATTR))
        for child in list(container):
            anchor.append(child)
        anchor.insert(0, _wp("simplePos", x="0", y="0"))
        anchor.insert(1, _position("positionH", "column", horizontal or ("left" if x is None else None), x))
        anchor.insert(2, _position("positionV", "paragraph", None, y or 0))
        container.getparent().replace(container, anchor)
        container = anchor
    else:
        if horizontal is not None or x is not None:
            container.replace(container.find(qn("wp:positionH")), _position("positionH", "column", horizontal, x))
        if y is not None:
            container.replace(container.find(qn("wp:positionV")), _position("positionV", "paragraph", None, y))
    for old in [c for c in container if c.tag in WRAP_TAGS]:
        container.remove(old)
    container.set("behindDoc", "1" if wrap == "behind" else "0")
    container.find(DOC_PR).addprevious(_wrap_element(wrap))
    return container


def to_inline(container: etree._Element) -> etree._Element:
    """Make a floating ``wp:anchor`` an inline ``wp:inline`` (position and wrapping dropped)."""
    inline = make("wp:inline", distT="0", distB="0", distL="0", distR="0")
    if container.get(ID_ATTR):
        inline.set(ID_ATTR, container.get(ID_ATTR))
    keep = {EXTENT, qn("wp:effectExtent"), DOC_PR, qn("wp:cNvGraphicFramePr"), qn("a:graphic")}
    for child in list(container):
        if child.tag in keep:
            inline.append(child)
    container.getparent().replace(container, inline)
    return inline


def set_horizontal_align(container: etree._Element, align: str) -> None:
    """Align a floating drawing left/center/right within its column."""
    old = container.find(qn("wp:positionH"))
    new = _position("positionH", "column", align, None)
    if old is not None:
        container.replace(old, new)
    else:
        container.find(EXTENT).addprevious(new)


def _wp(tag: str, **attrs: str) -> etree._Element:
    return make(f"wp:{tag}", **attrs)


def _position(axis: str, relative: str, align: str | None, offset: int | None) -> etree._Element:
    el = _wp(axis, relativeFrom=relative)
    if align is not None:
        etree.SubElement(el, qn("wp:align")).text = align
    else:
        etree.SubElement(el, qn("wp:posOffset")).text = str(int(offset or 0))
    return el


def _wrap_element(wrap: str) -> etree._Element:
    if wrap in ("behind", "in_front"):
        return _wp("wrapNone")
    if wrap == "top_bottom":
        return _wp("wrapTopAndBottom")
    el = _wp("wrapSquare" if wrap == "square" else "wrapTight", wrapText="bothSides")
    if wrap == "tight":  # wrapTight requires a polygon; the picture's rectangle (21600 = full side)
        poly = etree.SubElement(el, qn("wp:wrapPolygon"), edited="0")
        points = [(0, 0), (0, 21600), (21600, 21600), (21600, 0), (0, 0)]
        etree.SubElement(poly, qn("wp:start"), x="0", y="0")
        for px, py in points[1:]:
            etree.SubElement(poly, qn("wp:lineTo"), x=str(px), y=str(py))
    return el


def _next_relative_height(doc: WordDocument) -> int:
    """Z-order for a new floating drawing: above every existing one (deterministic)."""
    heights = [int(a.get("relativeHeight")) for root in doc.id_roots() for a in root.iter(ANCHOR)
               if (a.get("relativeHeight") or "").isdigit()]
    return max(heights, default=251658240) + 1
