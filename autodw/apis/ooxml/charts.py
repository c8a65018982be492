"""Native Word charts: chart XML from python-pptx's writers, the embedded workbook, parts and relationships.

A chart is a ``w:drawing`` whose ``c:chart r:id`` points (RT.CHART) to a chart part
(/word/charts/chartN.xml), which points (RT.PACKAGE) to an embedded workbook
(/word/embeddings/Microsoft_Excel_SheetN.xlsx) through ``c:externalData``. python-docx loads chart
parts as plain parts: parse ``part.blob`` with python-pptx's parser (its element classes know the
chart schema) and write the bytes back to ``part._blob``.
"""

from __future__ import annotations

import copy
import datetime as dt
from contextlib import contextmanager
from typing import Any

from docx.opc.constants import CONTENT_TYPE as CT
from docx.opc.constants import RELATIONSHIP_TYPE as RT
from docx.opc.part import Part
from lxml import etree
from pptx.chart.chart import Chart
from pptx.chart.data import CategoryChartData, XyChartData
from pptx.chart.xlsx import CategoryWorkbookWriter, XyWorkbookWriter
from pptx.chart.xmlwriter import ChartXmlWriter, SeriesXmlRewriterFactory
from pptx.enum.chart import XL_CHART_TYPE as XL
from pptx.oxml import parse_xml as parse_chart_xml
from pptx.util import Pt, lazyproperty
from xlsxwriter import Workbook

from autodw.apis.ooxml import drawings
from autodw.apis.ooxml import locate
from autodw.core.document import WordDocument
from autodw.core.errors import ArgumentError, UnsupportedOperationError
from autodw.analysis.state.drawings import CHART_KINDS, plot_kind
from autodw.core.xml import NS, qn

C = NS["c"]
CHART_TYPES = {"column": XL.COLUMN_CLUSTERED, "bar": XL.BAR_CLUSTERED, "line": XL.LINE_MARKERS, "pie": XL.PIE,
               "doughnut": XL.DOUGHNUT, "area": XL.AREA, "scatter": XL.XY_SCATTER, "radar": XL.RADAR_MARKERS,
               "pie_of_pie": XL.PIE_OF_PIE, "bar_of_pie": XL.BAR_OF_PIE}
#: the of-pie types (written from python-pptx's pie: it has no of-pie writer) -> their ``c:ofPieType``
OF_PIE = {"pie_of_pie": "pie", "bar_of_pie": "bar"}
LEGEND_POSITIONS = ("r", "l", "t", "b", "tr", "none")
DEFAULT_SIZE = (5486400, 3200400)  # Word's default chart: 15.24 x 8.89 cm
_WORKBOOK_CREATED = dt.datetime(2000, 1, 1)  # fixed so the same call gives the same workbook bytes
PLOT_KINDS = CHART_KINDS  # plot element -> API chart type
_CHART_SPACE_ORDER = ("date1904", "lang", "roundedCorners", "AlternateContent", "style", "clrMapOvr", "pivotSource",
                      "protection", "chart", "spPr", "txPr", "externalData", "printSettings", "userShapes", "extLst")
_CHART_ORDER = ("title", "autoTitleDeleted", "pivotFmts", "view3D", "floor", "sideWall", "backWall", "plotArea",
                "legend", "plotVisOnly", "dispBlanksAs", "showDLblsOverMax", "extLst")


# --- chart data (python-pptx ChartData with a deterministic workbook) ----------------------------

class _FixedDateWorkbook:
    """Mixin for python-pptx's workbook writers: a fixed creation date instead of now()."""

    @contextmanager
    def _open_worksheet(self, xlsx_file):
        workbook = Workbook(xlsx_file, {"in_memory": True})
        workbook.set_properties({"created": _WORKBOOK_CREATED})
        worksheet = workbook.add_worksheet()
        yield workbook, worksheet
        workbook.close()


class _CategoryWriter(_FixedDateWorkbook, CategoryWorkbookWriter):
    pass


class _XyWriter(_FixedDateWorkbook, XyWorkbookWriter):
    pass


class _CategoryData(CategoryChartData):
    @lazyproperty
    def _workbook_writer(self):
        return _CategoryWriter(self)


class _XyData(XyChartData):
    @lazyproperty
    def _workbook_writer(self):
        return _XyWriter(self)


def chart_data(kind: str, categories: list, series: list[dict[str, Any]]):
    """python-pptx chart data for `kind`; checks every series has one value per category."""
    if not categories:
        raise ArgumentError("categories must not be empty")
    if not series:
        raise ArgumentError("give at least one series: [{\"name\": ..., \"values\": [...]}]")
    for s in series:
        if len(s["values"]) != len(categories):
            raise ArgumentError(f"series {s['name']!r} has {len(s['values'])} values but there are "
                                f"{len(categories)} categories; give one value per category")
    if kind == "scatter":
        xs = []
        for c in categories:
            try:
                xs.append(float(c))
            except (TypeError, ValueError):
                raise ArgumentError(f"a scatter chart needs numeric x values as categories; {c!r} is not a number") from None
        data = _XyData()
        for s in series:
            xy = data.add_series(s["name"])
            for x, y in zip(xs, s["values"]):
                xy.add_data_point(_int_if_whole(x), y)
        return data
    data = _CategoryData()
    if any(isinstance(c, str) for c in categories):  # text labels, all of them: python-pptx takes the categories as
        # numbers when the first is one, and writes a later text label unescaped ("&" broke the part, "<w:p>" was markup)
        data.categories = [c if isinstance(c, str) else str(_int_if_whole(c)) for c in categories]
    else:
        data.categories = [_int_if_whole(c) for c in categories]
    for s in series:
        data.add_series(s["name"], s["values"])
    return data


def _int_if_whole(x: float):
    return int(x) if float(x).is_integer() else x


# --- chart XML -----------------------------------------------------------------------------------

def new_chart_space(kind: str, data, title: str | None, legend: str):
    """A chart XML tree (python-pptx element classes) of `kind` with title, legend and Word-friendly text size."""
    xml = ChartXmlWriter(XL.PIE if kind in OF_PIE else CHART_TYPES[kind], data).xml
    cs = parse_chart_xml(xml.encode("utf-8"))
    if len(cs.chart.plotArea.sers) < len(data):  # the pie writer keeps only the first series: keep them all
        replace_data(cs, kind, data)
    _unsigned_axis_ids(cs)
    for ser in [s for radar in cs.iter(qn("c:radarChart")) for s in radar.findall(qn("c:ser"))]:
        for smooth in ser.findall(qn("c:smooth")):  # python-pptx's radar writer gives it; a radar series has none
            ser.remove(smooth)
    rounded = cs.find(qn("c:roundedCorners"))  # some of python-pptx's writers (doughnut, area) give it already
    if rounded is None:
        rounded = etree.Element(qn("c:roundedCorners"))
        insert_in_order(cs, rounded, _CHART_SPACE_ORDER)
    rounded.set("val", "0")
    Chart(cs, None).font.size = Pt(10)
    set_title(cs, title)
    set_legend(cs, legend)
    if kind in OF_PIE:
        _of_pie(cs, OF_PIE[kind])
    return cs


def _of_pie(cs, of_type: str) -> None:
    """Make the pie plot of `cs` an of-pie plot (``c:ofPieChart``, its second plot a pie or a bar) as Word writes
    one: ofPieType, the pie's varyColors, series and data labels, gapWidth 100, secondPieSize 75, serLines."""
    pie = cs.chart.plotArea.find(qn("c:pieChart"))
    of = etree.Element(qn("c:ofPieChart"))
    etree.SubElement(of, qn("c:ofPieType")).set("val", of_type)
    of.extend(c for c in list(pie) if c.tag in (qn("c:varyColors"), qn("c:ser"), qn("c:dLbls")))
    etree.SubElement(of, qn("c:gapWidth")).set("val", "100")
    etree.SubElement(of, qn("c:secondPieSize")).set("val", "75")
    etree.SubElement(of, qn("c:serLines"))
    pie.addprevious(of)
    pie.getparent().remove(pie)


def _unsigned_axis_ids(cs: etree._Element) -> None:
    """python-pptx writes negative axis ids (``c:axId``/``c:crossAx``); the schema wants an unsigned int."""
    for el in cs.iter(qn("c:axId"), qn("c:crossAx")):
        value = el.get("val", "")
        if value.startswith("-") and value[1:].isdigit():
            el.set("val", value[1:])


def insert_in_order(parent: etree._Element, child: etree._Element, order: tuple[str, ...]) -> etree._Element:
    """Insert `child` into `parent` before the first sibling that comes later in `order` (local names)."""
    rank = order.index(etree.QName(child).localname)
    for sibling in parent:
        name = etree.QName(sibling).localname
        if name in order and order.index(name) > rank:
            sibling.addprevious(child)
            return child
    parent.append(child)
    return child


def set_title(cs, title: str | None) -> None:
    """Give the chart a title (14 pt), or remove it (None or "") so Word shows none."""
    chart = Chart(cs, None)
    if not title:
        chart.has_title = False
        return
    chart.has_title = True
    chart_title = chart.chart_title
    chart_title.text_frame.text = title
    for run in chart_title.text_frame.paragraphs[0].runs:
        run.font.size = Pt(14)
    chart_title.text_frame.paragraphs[0].font.size = Pt(14)
    deleted = cs.chart.autoTitleDeleted
    if deleted is not None:
        deleted.val = False


def set_legend(cs, position: str) -> None:
    """Show the legend at r, l, t, b or tr (top right), outside the plot; "none" removes it."""
    chart = Chart(cs, None)
    if position == "none":
        chart.has_legend = False
        return
    chart.has_legend = True
    chart.legend.include_in_layout = False
    legend = cs.chart.legend
    pos = legend.find(qn("c:legendPos"))
    if pos is None:
        pos = etree.Element(qn("c:legendPos"))
        legend.insert(0, pos)
    pos.set("val", position)  # written explicitly: a missing val means "r" but readers differ


def chart_kind(cs) -> str:
    """The API chart type of the first plot (column, bar, line, pie, ...: :func:`plot_kind`)."""
    for el in cs.chart.plotArea:
        kind = plot_kind(el)
        if kind is not None:
            return kind
    raise UnsupportedOperationError("the chart has no plot this API understands")


def serialize(cs) -> bytes:
    """Chart XML bytes as Word writes them."""
    return etree.tostring(cs, xml_declaration=True, encoding="UTF-8", standalone=True)


# --- parts ---------------------------------------------------------------------------------------

def chart_parts(doc: WordDocument, chart: str):
    """(container, host part, chart part, parsed chartSpace) for chart id `chart`."""
    container = doc.find(chart, "chart")
    host = locate.part_of(doc, container)
    ref = container.find(f".//{qn('c:chart')}")
    rel = host.rels.get(ref.get(qn("r:id"))) if ref is not None else None
    if rel is None or rel.is_external:
        raise UnsupportedOperationError(f"{chart} has no chart part in this document (broken or linked chart)")
    part = rel.target_part
    try:
        cs = parse_chart_xml(part.blob)
    except etree.XMLSyntaxError:
        raise UnsupportedOperationError(f"the chart part of {chart} is not well-formed XML") from None
    if etree.QName(cs).localname != "chartSpace" or cs.find(qn("c:chart")) is None:
        raise UnsupportedOperationError(f"{chart} is not a standard chart (no c:chart in its part)")
    return container, host, part, cs


def save_chart(part: Part, cs) -> None:
    """Write the edited chart tree back into its part."""
    part._blob = serialize(cs)


def add_chart_part(doc: WordDocument, host, cs, data) -> str:
    """Create the chart part (+ embedded workbook) for `cs`, relate it from `host`; return the rId."""
    package = doc.package
    part = Part(package.next_partname("/word/charts/chart%d.xml"), CT.DML_CHART, b"", package)
    write_workbook(doc, part, cs, data)
    save_chart(part, cs)
    return host.relate_to(part, RT.CHART)


def write_workbook(doc: WordDocument, part: Part, cs, data) -> None:
    """Put `data`'s workbook into the chart's embedded package (created, or replaced when it is not an
    embedded .xlsx), with ``c:externalData r:id`` + ``c:autoUpdate val=0`` in schema position."""
    blob = data.xlsx_blob
    ext = cs.find(qn("c:externalData"))
    rel = part.rels.get(ext.get(qn("r:id"))) if ext is not None else None
    if rel is not None and not rel.is_external and rel.target_part.content_type == CT.SML_SHEET:
        rel.target_part._blob = blob
        return
    package = doc.package
    xlsx = Part(package.next_partname("/word/embeddings/Microsoft_Excel_Sheet%d.xlsx"), CT.SML_SHEET, blob, package)
    rid = part.relate_to(xlsx, RT.PACKAGE)
    if ext is not None:
        old = ext.get(qn("r:id"))
        ext.set(qn("r:id"), rid)
        if old:
            drawings.drop_unreferenced(_XmlView(part, cs), [old])
    else:
        ext = cs._add_externalData()
        ext.rId = rid


class _XmlView:
    """A chart part seen with its parsed tree, for :func:`drawings.drop_unreferenced`."""

    def __init__(self, part: Part, cs):
        self.rels, self._element = part.rels, cs


def replace_data(cs, kind: str, data) -> None:
    """Rewrite the series of `cs` in place from `data`, keeping series formatting (works for 3-D plots too).

    Extra series are removed from the end; new ones are cloned from the last series without its
    colour (so they get automatic colours).
    """
    if kind == "bubble":
        raise UnsupportedOperationError("bubble charts need x, y and size values; this API cannot rewrite them")
    sers = [ser for plot in cs.chart.plotArea if etree.QName(plot).localname in PLOT_KINDS
            for ser in plot.iterchildren(qn("c:ser"))]
    if not sers:
        raise UnsupportedOperationError("the chart has no data series to rewrite")
    while len(sers) > len(data):
        ser = sers.pop()
        ser.getparent().remove(ser)
    next_idx = max(int(s.find(qn("c:idx")).get("val", "0")) for s in sers) + 1
    while len(sers) < len(data):
        new = copy.deepcopy(sers[-1])
        for tag in ("c:idx", "c:order"):
            new.find(qn(tag)).set("val", str(next_idx))
        sp_pr = new.find(qn("c:spPr"))  # a clone of the last series' colour would repeat it
        if sp_pr is not None:
            new.remove(sp_pr)
        sers[-1].addnext(new)
        sers.append(new)
        next_idx += 1
    rewriter = SeriesXmlRewriterFactory(XL.XY_SCATTER if kind == "scatter" else XL.COLUMN_CLUSTERED, data)
    for ser, series_data in zip(sers, data):
        rewriter._rewrite_ser_data(ser, series_data, cs.date_1904)  # pinned python-pptx 1.0.x


def current_data(cs) -> tuple[list, list[dict[str, Any]]]:
    """(categories, series) of a chart tree, by point index (a missing point is a gap: None)."""
    categories: list = []
    series = []
    for plot in cs.chart.plotArea:
        if etree.QName(plot).localname not in PLOT_KINDS:
            continue
        for ser in plot.iterchildren(qn("c:ser")):
            name = "".join(v.text or "" for v in ser.iterfind(f"{qn('c:tx')}//{qn('c:v')}"))
            cats = _points(ser.find(qn("c:cat")) if ser.find(qn("c:cat")) is not None else ser.find(qn("c:xVal")))
            values = _points(ser.find(qn("c:val")) if ser.find(qn("c:val")) is not None else ser.find(qn("c:yVal")))
            categories = categories or ["" if c is None else c for c in cats]
            series.append({"name": name, "values": [_number(v) for v in values]})
    width = len(categories)
    for s in series:  # pad or cut to one value per category
        s["values"] = (s["values"] + [None] * width)[:width]
    return categories, series


def _points(holder: etree._Element | None) -> list:
    """Point texts of a c:cat/c:val-like element by idx (None where a point is missing)."""
    if holder is None:
        return []
    count = holder.find(f".//{qn('c:ptCount')}")
    pts = {int(pt.get("idx", "0")): pt.findtext(qn("c:v")) for pt in holder.iter(qn("c:pt"))}
    n = int(count.get("val", "0")) if count is not None else (max(pts) + 1 if pts else 0)
    return [pts.get(i) for i in range(n)]


def _number(text: str | None):
    try:
        return _int_if_whole(float(text)) if text is not None else None
    except ValueError:
        return None


def retype(old, kind: str, data):
    """A new chart tree of `kind` for `data` that keeps the old one's title, legend, text and frame
    formatting, style and embedded-workbook link (plot formatting is the new type's default)."""
    new = new_chart_space(kind, data, None, "none")
    for name in ("roundedCorners", "style", "clrMapOvr", "spPr", "txPr", "externalData", "userShapes", "lang"):
        _carry(old, new, name, _CHART_SPACE_ORDER)
    for name in ("title", "autoTitleDeleted", "legend", "plotVisOnly", "dispBlanksAs"):
        _carry(old.chart, new.chart, name, _CHART_ORDER)
    return parse_chart_xml(serialize(new))


def _carry(old: etree._Element, new: etree._Element, local: str, order: tuple[str, ...]) -> None:
    """Copy child `local` (c: namespace) from `old` to `new`, replacing new's own, in schema order."""
    src = old.find(qn(f"c:{local}"))
    dst = new.find(qn(f"c:{local}"))
    if dst is not None:
        new.remove(dst)
    if src is not None:
        insert_in_order(new, copy.deepcopy(src), order)


def chart_graphic_data(rid: str) -> str:
    """The ``a:graphicData`` of an inline chart pointing at relationship `rid`."""
    return (f'<a:graphicData uri="{drawings.CHART_URI}"><c:chart xmlns:c="{C}" xmlns:r="{NS["r"]}" r:id="{rid}"/>'
            f'</a:graphicData>')
