"""Read drawings (inline and floating pictures, charts, shapes) and VML pictures."""

from __future__ import annotations

import hashlib
from typing import Any

from lxml import etree

from autodw.core.ids import element_id
from autodw.analysis.state.context import emu_to_cm
from autodw.core.xml import NS, qn

_A = NS["a"]
_C = NS["c"]
_WP = NS["wp"]
_V = NS["v"]
_R_EMBED = qn("r:embed")
_R_ID = qn("r:id")
_PIC_URI = "http://schemas.openxmlformats.org/drawingml/2006/picture"
_CHART_URI = "http://schemas.openxmlformats.org/drawingml/2006/chart"
_WRAPS = ("wrapSquare", "wrapTight", "wrapThrough", "wrapTopAndBottom", "wrapNone")

#: c:*Chart element local name -> chart type name used by the APIs.
CHART_KINDS = {
    "barChart": "bar",
    "bar3DChart": "bar",
    "lineChart": "line",
    "line3DChart": "line",
    "pieChart": "pie",
    "pie3DChart": "pie",
    "doughnutChart": "doughnut",
    "areaChart": "area",
    "area3DChart": "area",
    "scatterChart": "scatter",
    "radarChart": "radar",
    "bubbleChart": "bubble",
    "stockChart": "stock",
    "surfaceChart": "surface",
    "ofPieChart": "pie_of_pie",
}


def plot_kind(plot: etree._Element) -> str | None:
    """The chart type of a plot element (``c:barChart`` ...: :data:`CHART_KINDS`), None for another element: a bar
    chart whose bars stand (``c:barDir`` col) is a column chart, an of-pie chart whose second plot is a bar
    (``c:ofPieType`` bar) a bar_of_pie."""
    if not isinstance(plot.tag, str):
        return None
    kind = CHART_KINDS.get(etree.QName(plot).localname)
    if kind == "bar" and plot.find(f"{{{_C}}}barDir") is not None and plot.find(f"{{{_C}}}barDir").get("val") == "col":
        return "column"
    if kind == "pie_of_pie" and plot.find(f"{{{_C}}}ofPieType") is not None \
            and plot.find(f"{{{_C}}}ofPieType").get("val") == "bar":
        return "bar_of_pie"
    return kind


def read_drawing(container: etree._Element, part) -> dict[str, Any]:
    """Describe a ``wp:inline`` or ``wp:anchor`` element (picture, chart or shape)."""
    floating = container.tag == f"{{{_WP}}}anchor"
    extent = container.find(f"{{{_WP}}}extent")
    doc_pr = container.find(f"{{{_WP}}}docPr")
    gd = container.find(f"{{{_A}}}graphic/{{{_A}}}graphicData")
    uri = gd.get("uri") if gd is not None else None
    info: dict[str, Any] = {
        "id": element_id(container),
        "type": "picture" if uri == _PIC_URI else "chart" if uri == _CHART_URI else "shape",
        "placement": "floating" if floating else "inline",
        "width_cm": emu_to_cm(extent.get("cx")) if extent is not None else None,
        "height_cm": emu_to_cm(extent.get("cy")) if extent is not None else None,
        "name": doc_pr.get("name") if doc_pr is not None else None,
        "alt_text": (doc_pr.get("descr") or None) if doc_pr is not None else None,
    }
    if floating:
        info["wrap"] = _wrap_of(container)
        info["position"] = _anchor_position(container)
    if info["type"] == "picture":
        blip = gd.find(f".//{{{_A}}}blip")
        r_id = blip.get(_R_EMBED) if blip is not None else None
        target = part.rels.get(r_id) if r_id else None
        if target is not None and not target.is_external:
            info["file"] = str(target.target_part.partname).rsplit("/", 1)[-1]
            info["image_hash"] = image_hash(target.target_part)
        elif blip is not None and blip.get(qn("r:link")):
            info["file"] = "(linked)"
        crop = _crop(gd.find(f".//{{{_A}}}srcRect"))
        if crop:
            info["crop"] = crop
    elif info["type"] == "chart":
        chart = gd.find(f"{{{_C}}}chart")
        rel = part.rels.get(chart.get(_R_ID)) if chart is not None else None
        if rel is not None and not rel.is_external:
            info.update(read_chart(rel.target_part.blob))
    else:
        text = "".join(t.text or "" for t in container.iter(qn("w:t")))
        if text:
            info["text"] = text
    return {k: v for k, v in info.items() if v is not None}


def read_chart(blob: bytes) -> dict[str, Any]:
    """Chart type, title, legend and data (categories, series) from chart XML bytes."""
    try:
        root = etree.fromstring(blob, etree.XMLParser(resolve_entities=False, huge_tree=True))
    except etree.XMLSyntaxError:
        return {"chart_error": "chart part is not well-formed XML"}
    chart = root.find(f"{{{_C}}}chart")
    if chart is None:
        return {}
    plot = chart.find(f"{{{_C}}}plotArea")
    out: dict[str, Any] = {}
    kinds = []
    series = []
    categories: list[str] = []
    if plot is not None:
        for el in plot:
            kind = plot_kind(el)
            if kind is None:
                continue
            kinds.append(kind)
            for ser in el.iterchildren(f"{{{_C}}}ser"):
                name = "".join(v.text or "" for v in ser.iterfind(f"{{{_C}}}tx//{{{_C}}}v"))
                cats = _points(ser.find(f"{{{_C}}}cat")) or _points(ser.find(f"{{{_C}}}xVal"))
                vals_el = ser.find(f"{{{_C}}}val")
                if vals_el is None:
                    vals_el = ser.find(f"{{{_C}}}yVal")
                values = [_num(v) for v in _points(vals_el)]
                categories = categories or cats
                series.append({"name": name, "values": values})
    out["chart_type"] = kinds[0] if len(kinds) == 1 else (kinds or None)
    title = chart.find(f"{{{_C}}}title")
    if title is not None:
        out["title"] = "".join(t.text or "" for t in title.iter(f"{{{_A}}}t")) or None
    legend = chart.find(f"{{{_C}}}legend/{{{_C}}}legendPos")
    out["legend"] = legend.get("val") if legend is not None else (None if chart.find(f"{{{_C}}}legend") is None else "r")
    out["categories"] = categories
    out["series"] = series
    return out


def _points(data: etree._Element | None) -> list[str | None]:
    """Point values of a ``c:cat``/``c:val`` (string or number cache), by index: gaps stay None."""
    if data is None:
        return []
    cache = next(iter(data.iter(f"{{{_C}}}strCache", f"{{{_C}}}numCache", f"{{{_C}}}strLit", f"{{{_C}}}numLit")), None)
    if cache is None:
        return []
    count_el = cache.find(f"{{{_C}}}ptCount")
    points = {int(pt.get("idx", 0)): (pt.findtext(f"{{{_C}}}v")) for pt in cache.iterfind(f"{{{_C}}}pt")}
    count = int(count_el.get("val")) if count_el is not None and (count_el.get("val") or "").isdigit() else \
        (max(points) + 1 if points else 0)
    return [points.get(i) for i in range(count)]


#: the digests of the picture blobs seen last, by the blob's identity (a snapshot shares its binary parts' bytes, so
#: a document's pictures are the same objects from revision to revision); the blob is kept with its digest, so an id
#: is never taken for another object's
_DIGESTS: dict[int, tuple[bytes, str]] = {}
_DIGESTS_KEPT = 256


def image_hash(part) -> str | None:
    """A short digest of a picture part's bytes: two pictures are the same picture if their digests are equal."""
    try:
        blob = part.blob
        known = _DIGESTS.get(id(blob))
        if known is not None and known[0] is blob:
            return known[1]
        digest = hashlib.sha256(blob).hexdigest()[:12]
    except Exception:  # a part that cannot be read: no digest  # noqa: BLE001
        return None
    if len(_DIGESTS) >= _DIGESTS_KEPT:
        _DIGESTS.clear()
    _DIGESTS[id(blob)] = (blob, digest)
    return digest


def _crop(src_rect: etree._Element | None) -> dict[str, float]:
    """The picture's cropping (``a:srcRect``) as percentages of each side cut off; empty when uncropped."""
    if src_rect is None:
        return {}
    out = {}
    for attr, key in (("l", "left_pct"), ("t", "top_pct"), ("r", "right_pct"), ("b", "bottom_pct")):
        try:
            value = int(src_rect.get(attr) or 0) / 1000
        except ValueError:
            continue
        if value:
            out[key] = value
    return out


def read_vml_picture(pict: etree._Element, part=None) -> dict[str, Any] | None:
    """Describe a VML ``w:pict`` that shows a picture; None for other VML (text boxes, lines)."""
    imagedata = pict.find(f".//{{{_V}}}imagedata")
    if imagedata is None or pict.find(f".//{{{_V}}}textpath") is not None:
        return None
    shape = imagedata.getparent()
    style = dict(
        item.split(":", 1) for item in (shape.get("style") or "").split(";") if ":" in item
    )
    info = {
        "id": element_id(pict),
        "type": "picture",
        "placement": "vml",
        "width": style.get("width"),
        "height": style.get("height"),
        "alt_text": shape.get("alt") or None,
    }
    rel = part.rels.get(imagedata.get(_R_ID)) if part is not None and imagedata.get(_R_ID) else None
    if rel is not None and not rel.is_external:
        info["image_hash"] = image_hash(rel.target_part)
    return info


def _wrap_of(anchor: etree._Element) -> str:
    if anchor.get("behindDoc") in ("1", "true") and anchor.find(f"{{{_WP}}}wrapNone") is not None:
        return "behind"
    for name in _WRAPS:
        if anchor.find(f"{{{_WP}}}{name}") is not None:
            return {"wrapNone": "in_front", "wrapTopAndBottom": "top_bottom"}.get(name, name[4:].lower())
    return "none"


def _anchor_position(anchor: etree._Element) -> dict[str, Any]:
    pos: dict[str, Any] = {}
    for axis in ("positionH", "positionV"):
        el = anchor.find(f"{{{_WP}}}{axis}")
        if el is None:
            continue
        align = el.find(f"{{{_WP}}}align")
        offset = el.find(f"{{{_WP}}}posOffset")
        key = "horizontal" if axis == "positionH" else "vertical"
        pos[key] = {
            "relative_to": el.get("relativeFrom"),
            **({"align": align.text} if align is not None else {}),
            **({"offset_cm": emu_to_cm(offset.text)} if offset is not None else {}),
        }
    return pos


def _num(text: str | None) -> float | int | None:
    try:
        value = float(text) if text is not None else None
    except ValueError:
        return None
    if value is not None and value.is_integer():
        return int(value)
    return value
