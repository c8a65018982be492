"""Text watermarks: Word's VML text-path shape ("PowerPlusWaterMarkObject") in a header run."""

from __future__ import annotations

import math
import re
from xml.sax.saxutils import quoteattr

from lxml import etree

from autodw.core.xml import NS, W, parse, qn

_V, _O = NS["v"], NS["o"]
_SPID = re.compile(r"_x0000_s(\d+)$")
_SHAPETYPE = (
    '<v:shapetype id="_x0000_t136" coordsize="21600,21600" o:spt="136" adj="10800" '
    'path="m@7,l@8,m@5,21600l@6,21600e"><v:formulas>'
    + "".join(f'<v:f eqn="{e}"/>' for e in (
        "sum #0 0 10800", "prod #0 2 1", "sum 21600 0 @1", "sum 0 0 @2", "sum 21600 0 @3", "if @0 @3 0",
        "if @0 21600 @1", "if @0 0 @2", "if @0 @4 21600", "mid @5 @6", "mid @8 @5", "mid @7 @8", "mid @6 @7",
        "sum @6 0 @5"))
    + '</v:formulas><v:path textpathok="t" o:connecttype="custom" o:connectlocs="@9,0;@10,10800;@11,21600;@12,10800" '
    'o:connectangles="270,180,90,0"/><v:textpath on="t" fitshape="t"/><v:handles>'
    '<v:h position="#0,bottomRight" xrange="6629,14971"/></v:handles><o:lock v:ext="edit" text="t" shapetype="t"/>'
    '</v:shapetype>'
)


def is_watermark_run(run: etree._Element) -> bool:
    """True if the run holds a watermark shape (VML text path or a WaterMark picture)."""
    if run.find(f".//{{{_V}}}textpath[@string]") is not None:
        return True
    return any("WaterMark" in (s.get("id") or "") for s in run.iter(f"{{{_V}}}shape"))


def renumber_shapes(new: list[etree._Element], existing: list[etree._Element]) -> None:
    """Give VML shapes and DrawingML drawings in `new` (copied content) ids unused in `existing` parts."""
    number, spid = next_shape_numbers(existing)
    doc_pr = [int(d.get("id")) for root in existing for d in root.iter(qn("wp:docPr")) if (d.get("id") or "").isdigit()]
    next_doc_pr = max([0, *doc_pr]) + 1
    for el in new:
        for shape in el.iter(f"{{{_V}}}shape"):
            if re.search(r"WaterMarkObject\d+$", shape.get("id") or ""):
                shape.set("id", re.sub(r"\d+$", str(number), shape.get("id")))
                number += 1
            if _SPID.match(shape.get(f"{{{_O}}}spid") or ""):
                shape.set(f"{{{_O}}}spid", f"_x0000_s{spid}")
                spid += 1
        for d in el.iter(qn("wp:docPr")):
            d.set("id", str(next_doc_pr))
            next_doc_pr += 1


def text_em_width(text: str) -> float:
    """Rough width of `text` in ems (wide for CJK, narrow for Latin)."""
    return sum(1.0 if ord(c) >= 0x2E80 else (0.35 if c == " " else 0.62) for c in text) or 1.0


def shape_size(text: str, layout: str, area_w_pt: float, area_h_pt: float) -> tuple[float, float]:
    """(width, height) in points of a text box that fits `text` into the page area."""
    aspect = text_em_width(text)  # width / height of one line of text
    if layout == "diagonal":
        limit = 0.9 * math.hypot(area_w_pt, area_h_pt) * min(area_w_pt, area_h_pt) / max(area_w_pt, area_h_pt)
        limit = max(limit, 0.8 * min(area_w_pt, area_h_pt))
    else:
        limit = area_w_pt
    width = min(limit, 110.0 * aspect)  # at most about 110pt letters
    return round(width, 1), round(width / aspect, 1)


def watermark_run(text: str, *, color: str, font: str, layout: str, size: tuple[float, float],
                  shape_number: int, spid: int, with_shapetype: bool) -> etree._Element:
    """A ``w:r`` holding a ``w:pict`` with the watermark shape, centred on the page margins, behind text."""
    width, height = size
    rotation = "rotation:315;" if layout == "diagonal" else ""
    style = (f"position:absolute;margin-left:0;margin-top:0;width:{width}pt;height:{height}pt;{rotation}"
             "z-index:-251654144;mso-wrap-edited:f;mso-position-horizontal:center;"
             "mso-position-horizontal-relative:margin;mso-position-vertical:center;mso-position-vertical-relative:margin")
    font_css = f'font-family:&quot;{_escape_css(font)}&quot;;font-size:1pt'
    xml = (f'<w:r xmlns:w="{W}" xmlns:v="{_V}" xmlns:o="{_O}" xmlns:w10="{NS["w10"]}">'
           '<w:rPr><w:noProof/></w:rPr><w:pict>'
           + (_SHAPETYPE if with_shapetype else "")
           + f'<v:shape id="PowerPlusWaterMarkObject{shape_number}" o:spid="_x0000_s{spid}" type="#_x0000_t136" '
             f'style="{style}" o:allowincell="f" fillcolor="#{color}" stroked="f">'
             '<v:fill opacity=".5"/>'
             f'<v:textpath style="{font_css}" string={quoteattr(text)}/>'
             '<w10:wrap anchorx="margin" anchory="margin"/></v:shape></w:pict></w:r>')
    return parse(xml)


def _escape_css(font: str) -> str:
    return re.sub(r'[";<>&]', "", font)


def next_shape_numbers(roots: list[etree._Element]) -> tuple[int, int]:
    """(next PowerPlusWaterMarkObject number, next o:spid number) not used in any of `roots`."""
    numbers, spids = [0], [2048]
    for root in roots:
        for shape in root.iter(f"{{{_V}}}shape", f"{{{_V}}}rect", f"{{{_V}}}oval", f"{{{_V}}}line", f"{{{_V}}}roundrect"):
            m = re.search(r"WaterMarkObject(\d+)$", shape.get("id") or "")
            if m:
                numbers.append(int(m.group(1)))
            m = _SPID.match(shape.get(f"{{{_O}}}spid") or "")
            if m:
                spids.append(int(m.group(1)))
    return max(numbers) + 1, max(spids) + 1


def has_shapetype(root: etree._Element) -> bool:
    """True if the part already defines the text-path shape type."""
    return any(t.get("id") == "_x0000_t136" for t in root.iter(f"{{{_V}}}shapetype"))


def remove_watermarks(root: etree._Element) -> int:
    """Remove every run holding a watermark shape from a part; return how many."""
    count = 0
    for run in list(root.iter(qn("w:r"))):
        if run.getparent() is None or not is_watermark_run(run):
            continue
        parent = run.getparent()
        parent.remove(run)
        count += 1
    return count


def watermark_text(root: etree._Element) -> str | None:
    """The text of the first watermark in a part, if any."""
    for tp in root.iter(f"{{{_V}}}textpath"):
        if tp.get("string"):
            return tp.get("string")
    return None
