"""image_operation APIs: insert, resize, replace, crop and delete pictures; alignment, wrapping, alt text.

Pictures are addressed by the ids the state shows (img1, img2, ...): the id sits on the drawing's
``wp:inline``/``wp:anchor`` (or a legacy VML ``w:pict``), so it survives conversions between inline
and floating.
"""

from __future__ import annotations

from typing import Any

from docx.image.exceptions import UnrecognizedImageError
from docx.oxml.shape import CT_Inline
from lxml import etree

from autodw.apis.ooxml import drawings, locate
from autodw.apis.ooxml.assets import resolve_asset
from autodw.apis.registry import api
from autodw.apis.schema import IMAGE_ID, PARAGRAPH_ID, POSITION, boolean, enum, integer, length, number, text
from autodw.core.document import WordDocument
from autodw.core.errors import ArgumentError, UnsupportedOperationError
from autodw.core.ids import element_id
from autodw.core.units import emu
from autodw.core.xml import NS, qn

INTENT = "image_operation"
_R_EMBED, _R_LINK, _R_ID = qn("r:embed"), qn("r:link"), qn("r:id")
_ALIGN = enum("horizontal alignment", ("left", "center", "right"))
_WRAPS = ("inline", "square", "tight", "top_bottom", "behind", "in_front")
_IMAGE_TYPES = "PNG, JPEG, GIF, BMP or TIFF"
_PATH = "{} path: absolute, or relative to the first allowed folder (e.g. \"images/photo.png\"); it must lie in an allowed folder"


def _picture(doc: WordDocument, image: str, *, vml_ok: bool = False, what: str = "this") -> etree._Element:
    """The container of picture `image`; VML pictures are refused unless `vml_ok`."""
    container = doc.find(image, "img")
    if drawings.is_vml(container) and not vml_ok:
        raise UnsupportedOperationError(f"{image} is a legacy VML picture (from an old .doc); {what} works only on "
                                        "DrawingML pictures. Replace it with insert_image + delete_image first.")
    return container


def _load_image(doc: WordDocument, part, path: str):
    """(rId, docx Image) for the file at `path`, related from `part` (one image part per distinct file)."""
    resolved = resolve_asset(doc, path, what="image")
    try:
        return part.get_or_add_image(str(resolved))
    except UnrecognizedImageError:
        raise ArgumentError(f"image {path!r} is not a supported picture; use a {_IMAGE_TYPES} file") from None


@api(intent=INTENT,
     description="Insert a picture from an image file (PNG, JPEG, GIF, BMP, TIFF). Either give position to put it "
                 "in a new paragraph of its own, or paragraph (+ optional character offset) to put it inline in "
                 "existing text. Give width or height to size it (the other follows the proportions); with "
                 "neither, it keeps its natural size, shrunk to fit the text width.",
     params={"path": text(_PATH.format("image file"), 1),
             "position": POSITION, "paragraph": PARAGRAPH_ID,
             "offset": integer("with paragraph: character offset where the picture goes; omit for the end", 0),
             "width": length("picture width"), "height": length("picture height"),
             "alignment": _ALIGN, "alt_text": text("alternative text describing the picture for screen readers")},
     examples=[{"path": "images/photo.png", "position": {"after": "p31"}, "width": "6cm", "alignment": "center",
                "alt_text": "Team photo"},
               {"path": "images/diagram.png", "paragraph": "p39", "offset": 0, "height": "1cm"}])
def insert_image(doc: WordDocument, path: str, position: Any = None, paragraph: str | None = None,
                 offset: int | None = None, width: str | None = None, height: str | None = None,
                 alignment: str | None = None, alt_text: str | None = None):
    """Insert a picture in a new paragraph or inline in existing text."""
    host = doc.find(paragraph, "p") if paragraph is not None else None
    part = locate.part_of(doc, host) if host is not None else doc.part
    w = emu(width, "width") if width else None
    h = emu(height, "height") if height else None
    rid, image = _load_image(doc, part, path)
    cx, cy = image.scaled_dimensions(w, h)
    inline = CT_Inline.new_pic_inline(drawings.next_docpr_id(doc), rid, image.filename, cx, cy)
    if alt_text:
        inline.find(drawings.DOC_PR).set("descr", alt_text)
    p = drawings.place_drawing(doc, drawings.drawing_run(inline), position, paragraph, offset, alignment)
    if w is None and h is None:
        cx, cy = drawings.fit_width(doc, p, cx, cy)
        drawings.set_size(inline, cx, cy)
    doc.refresh_ids()
    return f"inserted picture {element_id(inline)} ({drawings.size_text(cx, cy)}) in paragraph {element_id(p)}"


@api(intent=INTENT,
     description="Resize a picture: give width and/or height, or scale (percent of the current size). With one of "
                 "width/height the other follows the proportions; with both, the picture gets exactly that size "
                 "unless keep_aspect is true (then it is fitted inside that box).",
     params={"image": IMAGE_ID, "width": length("new width"), "height": length("new height"),
             "keep_aspect": boolean("keep the proportions (default: true when one dimension is given, false when both are)"),
             "scale": number("percent of the current size, e.g. 50 halves it", 1, 1000)},
     examples=[{"image": "img1", "width": "8cm"}, {"image": "img1", "scale": 50}])
def resize_image(doc: WordDocument, image: str, width: str | None = None, height: str | None = None,
                 keep_aspect: bool | None = None, scale: float | None = None):
    """Change the displayed size of a picture."""
    return drawings.resize(_picture(doc, image, what="resizing"), image, width, height, keep_aspect, scale)


@api(intent=INTENT,
     description="Replace the image file shown by a picture, keeping its place, wrapping and alt text. keep_size "
                 "true (default) keeps the current width and height; false uses the new file's natural size "
                 "(shrunk to fit the text width). Any crop is reset.",
     params={"image": IMAGE_ID, "path": text(_PATH.format("new image file"), 1),
             "keep_size": boolean("keep the current width and height (default true)")},
     examples=[{"image": "img1", "path": "images/diagram.png"},
               {"image": "img1", "path": "images/photo.png", "keep_size": False}])
def replace_image(doc: WordDocument, image: str, path: str, keep_size: bool = True):
    """Point a picture at a new image file."""
    container = _picture(doc, image, vml_ok=True)
    part = locate.part_of(doc, container)
    rid, img = _load_image(doc, part, path)
    if drawings.is_vml(container):
        data = container.find(f".//{{{NS['v']}}}imagedata")
        old = data.get(_R_ID)
        data.set(_R_ID, rid)
    else:
        blip = container.find(f".//{qn('a:blip')}")
        if blip is None:
            raise UnsupportedOperationError(f"{image} has no image data to replace")
        old = blip.get(_R_EMBED) or blip.get(_R_LINK)
        blip.attrib.pop(_R_LINK, None)
        blip.set(_R_EMBED, rid)
        src = blip.getparent().find(qn("a:srcRect"))
        if src is not None:
            src.getparent().remove(src)
        c_nv_pr = container.find(f".//{qn('pic:cNvPr')}")
        if c_nv_pr is not None:
            c_nv_pr.set("name", img.filename)
        if not keep_size:
            cx, cy = img.scaled_dimensions(None, None)
            drawings.set_size(container, *drawings.fit_width(doc, drawings.host_paragraph(container), cx, cy))
    if old:
        drawings.drop_unreferenced(part, [old])
    return f"{image} now shows {img.filename}" + ("" if keep_size else " at its natural size")


@api(intent=INTENT,
     description="Delete a picture. Its image file is removed from the document when no other picture uses it. "
                 "The paragraph that held it stays (possibly empty) unless remove_empty_paragraph is true.",
     params={"image": IMAGE_ID,
             "remove_empty_paragraph": drawings.REMOVE_EMPTY_PARAGRAPH},
     examples=[{"image": "img1"}, {"image": "img1", "remove_empty_paragraph": True}])
def delete_image(doc: WordDocument, image: str, remove_empty_paragraph: bool = False):
    """Remove a picture and its now-unused image relationship."""
    container = _picture(doc, image, vml_ok=True)
    note = drawings.remove_drawing(doc, container, remove_empty_paragraph)
    return f"deleted picture {image}{note}"


@api(intent=INTENT,
     description="Align a picture horizontally. An inline picture is aligned by its paragraph's alignment (which "
                 "also moves any text in that paragraph); a floating picture is aligned within its column.",
     params={"image": IMAGE_ID, "alignment": _ALIGN},
     examples=[{"image": "img1", "alignment": "center"}])
def set_image_alignment(doc: WordDocument, image: str, alignment: str):
    """Center / left / right-align a picture."""
    container = _picture(doc, image, vml_ok=True)
    if container.tag == drawings.ANCHOR:
        drawings.set_horizontal_align(container, alignment)
        return f"aligned floating picture {image} {alignment} in its column"
    p = drawings.host_paragraph(container)
    drawings.set_paragraph_alignment(p, alignment)
    return f"aligned {image} {alignment} (paragraph {element_id(p) or '?'})"


@api(intent=INTENT,
     description="Set how text wraps around a picture: inline (in the line of text, like a character) or floating "
                 "with square, tight, top_bottom (text above and below only), behind (behind the text) or in_front "
                 "(over the text). A floating picture is placed by horizontal (left/center/right of the column) or x "
                 "(offset from the column's left edge), and y (offset below the top of its paragraph).",
     params={"image": IMAGE_ID, "wrap": enum("wrapping style", _WRAPS),
             "horizontal": enum("floating only: horizontal alignment in the column", ("left", "center", "right")),
             "x": length("floating only: horizontal offset from the column's left edge"),
             "y": length("floating only: vertical offset from the top of the paragraph")},
     examples=[{"image": "img1", "wrap": "square", "horizontal": "right"},
               {"image": "img1", "wrap": "behind", "x": "2cm", "y": "0.5cm"}])
def set_image_wrap(doc: WordDocument, image: str, wrap: str, horizontal: str | None = None, x: str | None = None,
                   y: str | None = None):
    """Convert a picture between inline and floating, and choose the text wrapping."""
    container = _picture(doc, image, what="text wrapping")
    if horizontal is not None and x is not None:
        raise ArgumentError("give horizontal (alignment) or x (offset), not both")
    if wrap == "inline":
        if horizontal is not None or x is not None or y is not None:
            raise ArgumentError("horizontal, x and y apply only to floating pictures; omit them with wrap \"inline\"",
                                omit=("horizontal", "x", "y"))
        if container.tag == drawings.INLINE:
            return f"{image} is already inline"
        drawings.to_inline(container)
        return f"{image} is now inline with the text"
    drawings.to_anchor(doc, container, wrap, horizontal, emu(x, "x") if x else None, emu(y, "y") if y else None)
    return f"{image} now floats with {wrap} wrapping"


@api(intent=INTENT,
     description="Set a picture's alternative text (read by screen readers) and optionally its title. An empty "
                 "alt_text removes it.",
     params={"image": IMAGE_ID, "alt_text": text("the description of the picture"),
             "title": text("optional short title")},
     examples=[{"image": "img1", "alt_text": "Acme Corporation logo"}])
def set_image_alt_text(doc: WordDocument, image: str, alt_text: str, title: str | None = None):
    """Write docPr descr/title (v:shape alt for VML pictures)."""
    container = _picture(doc, image, vml_ok=True)
    if drawings.is_vml(container):
        target, key = container.find(f".//{{{NS['v']}}}imagedata").getparent(), "alt"
    else:
        target, key = container.find(drawings.DOC_PR), "descr"
    if alt_text:
        target.set(key, alt_text)
    else:
        target.attrib.pop(key, None)
    if title is not None and not drawings.is_vml(container):
        if title:
            target.set("title", title)
        else:
            target.attrib.pop("title", None)
    return f"set alt text of {image}" if alt_text else f"removed alt text of {image}"


_CROP = "percent of the original picture to cut away from the {} edge (0-99)"


@api(intent=INTENT,
     description="Crop a picture: the four values are percentages of the ORIGINAL (uncropped) picture cut from each "
                 "edge; they replace any earlier crop (all 0 = uncropped). The displayed size changes with the crop "
                 "so the picture is not stretched.",
     params={"image": IMAGE_ID, "left": number(_CROP.format("left"), 0, 99), "top": number(_CROP.format("top"), 0, 99),
             "right": number(_CROP.format("right"), 0, 99), "bottom": number(_CROP.format("bottom"), 0, 99)},
     examples=[{"image": "img1", "left": 10, "right": 10}])
def crop_image(doc: WordDocument, image: str, left: float = 0, top: float = 0, right: float = 0, bottom: float = 0):
    """Write a:srcRect and scale the extent to the kept fraction of the original picture."""
    if left + right >= 100 or top + bottom >= 100:
        raise ArgumentError("left + right and top + bottom must each stay below 100 percent")
    container = _picture(doc, image, what="cropping")
    blip = container.find(f".//{qn('a:blip')}")
    if blip is None:
        raise UnsupportedOperationError(f"{image} has no image data to crop")
    fill = blip.getparent()
    src = fill.find(qn("a:srcRect"))
    cur = {k: int(src.get(k, "0")) / 100000 if src is not None else 0.0 for k in ("l", "t", "r", "b")}
    cx, cy = drawings.get_size(container)
    full_w = cx / max(1e-6, 1 - cur["l"] - cur["r"])
    full_h = cy / max(1e-6, 1 - cur["t"] - cur["b"])
    if src is not None:
        fill.remove(src)
    values = {"l": left, "t": top, "r": right, "b": bottom}
    if any(values.values()):
        src = etree.SubElement(fill, qn("a:srcRect"))
        for k, v in values.items():
            if v:
                src.set(k, str(round(v * 1000)))
        blip.addnext(src)  # CT_BlipFillProperties: blip, srcRect, tile|stretch
    new_cx = max(1, round(full_w * (1 - (left + right) / 100)))
    new_cy = max(1, round(full_h * (1 - (top + bottom) / 100)))
    drawings.set_size(container, new_cx, new_cy)
    return f"cropped {image} (l {left}%, t {top}%, r {right}%, b {bottom}%); now {drawings.size_text(new_cx, new_cy)}"
