"""chart_operation APIs: each effect checked through the state (type, title, legend, data) and the package
(chart part, embedded workbook, relationships); one LibreOffice render test."""

from __future__ import annotations

import io
import re
import zipfile

import docx
import pytest
from lxml import etree

from autodw.apis import execute
from autodw.core.document import WordDocument
from autodw.core.errors import ArgumentError, UnsupportedOperationError
from autodw.analysis.state import extract_state
from autodw.core.xml import NS, qn
from tests.conftest import EXAMPLES, assert_word_opens, corpus_file

CHART_CT = "application/vnd.openxmlformats-officedocument.drawingml.chart+xml"
XLSX_CT = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
C = NS["c"]
SALES = {"categories": ["Q1", "Q2", "Q3"],
         "series": [{"name": "North", "values": [120, 135, 150]}, {"name": "South", "values": [98, 102, 110]}]}


@pytest.fixture
def doc() -> WordDocument:
    return WordDocument.open(EXAMPLES / "report.docx")


def _chart(doc, cid="chart1"):
    return next((i for i in extract_state(doc)["images"] if i["id"] == cid), None)


def _chart_part(doc, cid="chart1"):
    ref = doc.find(cid).find(f".//{qn('c:chart')}")
    return doc.part.rels[ref.get(qn("r:id"))].target_part


def _workbook_cells(part) -> dict[str, str]:
    """Cell reference -> text of the chart's embedded workbook (shared strings resolved)."""
    xlsx = next(r.target_part for r in part.rels.values() if r.reltype.endswith("/package"))
    z = zipfile.ZipFile(io.BytesIO(xlsx.blob))
    main = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
    strings = ["".join(t.text or "" for t in si.iter(f"{main}t"))
               for si in etree.fromstring(z.read("xl/sharedStrings.xml")).iter(f"{main}si")]
    cells = {}
    for c in etree.fromstring(z.read("xl/worksheets/sheet1.xml")).iter(f"{main}c"):
        value = c.findtext(f"{main}v")
        cells[c.get("r")] = strings[int(value)] if c.get("t") == "s" else value
    return cells


def test_insert_chart_parts_relationships_and_state():
    d = WordDocument.new()
    r = execute(d, "insert_chart", {"position": "end", "chart_type": "column", "title": "Sales", **SALES})
    pid, cid = r.created
    ch = _chart(d, cid)
    assert ch["paragraph"] == pid and ch["chart_type"] == "column" and ch["title"] == "Sales" and ch["legend"] == "b"
    assert ch["categories"] == SALES["categories"] and ch["series"] == SALES["series"]
    assert (ch["width_cm"], ch["height_cm"]) == (15.24, 8.89)
    part = _chart_part(d, cid)
    assert str(part.partname) == "/word/charts/chart1.xml" and part.content_type == CHART_CT
    (rel,) = part.rels.values()
    assert rel.reltype.endswith("/package") and str(rel.target_part.partname) == "/word/embeddings/Microsoft_Excel_Sheet1.xlsx"
    assert rel.target_part.content_type == XLSX_CT
    root = d.find(cid)
    assert root.find(f".//{qn('a:graphicData')}").get("uri") == "http://schemas.openxmlformats.org/drawingml/2006/chart"
    xml = part.blob.decode()
    children = re.findall(r"<c:(\w+)[ />]", xml.split("<c:chartSpace", 1)[1])
    top = [n for n in children if n in ("date1904", "roundedCorners", "chart", "txPr", "externalData")]
    assert top == ["date1904", "roundedCorners", "chart", "txPr", "externalData"]
    assert f'<c:externalData r:id="{rel.rId}"><c:autoUpdate val="0"/></c:externalData></c:chartSpace>' in xml
    assert _workbook_cells(part) == {"B1": "North", "C1": "South", "A2": "Q1", "A3": "Q2", "A4": "Q3",
                                     "B2": "120", "B3": "135", "B4": "150", "C2": "98", "C3": "102", "C4": "110"}
    reopened = docx.Document(io.BytesIO(d.to_bytes()))
    assert len(reopened.inline_shapes) == 1


def test_insert_chart_is_deterministic_and_docpr_unique(doc):
    members = []
    for _ in range(2):
        d = WordDocument.open(EXAMPLES / "report.docx")
        execute(d, "insert_chart", {"position": {"after": "p8"}, "chart_type": "pie", **SALES})
        members.append(d.members())
        ids = [int(p.get("id")) for p in d.body.iter(qn("wp:docPr"))]
        assert len(ids) == len(set(ids)) == 3
    assert members[0] == members[1]


def test_insert_chart_size_legend_alignment_and_scatter(doc):
    r = execute(doc, "insert_chart", {"position": {"after": "p8"}, "chart_type": "pie", "legend": "r", "width": "10cm",
                                      "alignment": "center", "categories": ["N", "S"], "series": [{"name": "Q1", "values": [3, 1]}]})
    pid, cid = r.created
    ch = _chart(doc, cid)
    assert ch["chart_type"] == "pie" and ch["legend"] == "r" and "title" not in ch
    assert ch["width_cm"] == 10.0 and ch["height_cm"] == pytest.approx(10 * 3200400 / 5486400, abs=0.01)
    assert next(p for p in extract_state(doc)["paragraphs"] if p["id"] == pid)["alignment"] == "center"
    assert '<c:autoTitleDeleted val="1"/>' in _chart_part(doc, cid).blob.decode()  # Word shows no automatic title
    (_, sid) = execute(doc, "insert_chart", {"position": "end", "chart_type": "scatter", "legend": "none",
                                             "categories": [1, 2.5, 4], "series": [{"name": "y", "values": [2, 3, 5]}]}).created
    ch = _chart(doc, sid)
    assert ch["chart_type"] == "scatter" and ch["categories"] == ["1", "2.5", "4"] and "legend" not in ch


def test_insert_chart_refusals(doc):
    with pytest.raises(ArgumentError, match="has 2 values but there are 3 categories"):
        execute(doc, "insert_chart", {"position": "end", "chart_type": "line", "categories": ["a", "b", "c"],
                                      "series": [{"name": "s", "values": [1, 2]}]})
    with pytest.raises(ArgumentError, match="numeric x values"):
        execute(doc, "insert_chart", {"position": "end", "chart_type": "scatter", **SALES})
    with pytest.raises(ArgumentError, match="chart_type.*must be one of"):
        execute(doc, "insert_chart", {"position": "end", "chart_type": "pyramid", **SALES})
    assert [i["id"] for i in extract_state(doc)["images"]] == ["img1", "chart1"]


def test_update_chart_data_rewrites_series_workbook_and_keeps_gaps(doc):
    execute(doc, "update_chart_data", {"chart": "chart1", "categories": ["Q1", "Q2", "Q3", "Q4"],
                                       "series": [{"name": "North", "values": [1, 2, 3, 4]},
                                                  {"name": "South", "values": [5, None, 7, 8]},
                                                  {"name": "東部", "values": [9, 10, 11, 12]}]})
    ch = _chart(doc)
    assert ch["chart_type"] == "column" and ch["title"] == "Sales by Region" and ch["legend"] == "b"
    assert ch["categories"] == ["Q1", "Q2", "Q3", "Q4"] and [s["name"] for s in ch["series"]] == ["North", "South", "東部"]
    part = _chart_part(doc)
    xml = part.blob.decode()
    assert "<c:f>Sheet1!$D$2:$D$5</c:f>" in xml and '<c:idx val="2"/>' in xml
    south = xml.split("<c:v>South</c:v>")[1].split("</c:ser>")[0]
    assert '<c:ptCount val="4"/>' in south and '<c:pt idx="1">' not in south.split("<c:val>")[1]
    cells = _workbook_cells(part)
    assert cells["D1"] == "東部" and cells["A5"] == "Q4" and cells["C4"] == "7" and cells.get("C3") is None
    assert len([r for r in part.rels.values()]) == 1  # the embedded workbook was replaced in place
    execute(doc, "update_chart_data", {"chart": "chart1", "categories": ["A"], "series": [{"name": "Only", "values": [1]}]})
    assert _chart(doc)["series"] == [{"name": "Only", "values": [1]}]


def test_change_chart_type_keeps_data_title_legend_and_all_series(doc):
    before = _chart(doc)
    for kind in ("line", "pie", "bar", "area", "doughnut", "radar", "column"):
        execute(doc, "change_chart_type", {"chart": "chart1", "chart_type": kind})
        ch = _chart(doc)
        assert ch["chart_type"] == kind
        assert {k: ch[k] for k in ("title", "legend", "categories", "series")} == \
               {k: before[k] for k in ("title", "legend", "categories", "series")}
    xml = _chart_part(doc).blob.decode()
    assert xml.count("<c:externalData") == 1 and '<c:roundedCorners val="0"/>' in xml
    assert execute(doc, "change_chart_type", {"chart": "chart1", "chart_type": "column"}).message.endswith("already a column chart")
    parts = doc.members(keep_ids=True)
    with pytest.raises(ArgumentError, match="numeric x values"):
        execute(doc, "change_chart_type", {"chart": "chart1", "chart_type": "scatter"})
    assert doc.members(keep_ids=True) == parts


def test_change_chart_type_to_and_from_scatter(doc):
    execute(doc, "update_chart_data", {"chart": "chart1", "categories": ["1", "2", "3"], "series": SALES["series"]})
    execute(doc, "change_chart_type", {"chart": "chart1", "chart_type": "scatter"})
    ch = _chart(doc)
    assert ch["chart_type"] == "scatter" and ch["series"] == SALES["series"] and ch["categories"] == ["1", "2", "3"]
    assert _workbook_cells(_chart_part(doc))["B1"] == "North"
    execute(doc, "change_chart_type", {"chart": "chart1", "chart_type": "line"})
    assert _chart(doc)["chart_type"] == "line" and _chart(doc)["series"] == SALES["series"]


def test_set_chart_title_and_remove_it(doc):
    execute(doc, "set_chart_title", {"chart": "chart1", "title": "季度销售"})
    assert _chart(doc)["title"] == "季度销售"
    execute(doc, "set_chart_title", {"chart": "chart1", "title": ""})
    assert "title" not in _chart(doc)
    assert '<c:autoTitleDeleted val="1"/>' in _chart_part(doc).blob.decode()


@pytest.mark.parametrize("position", ["r", "l", "t", "tr", "none"])
def test_set_chart_legend(doc, position):
    execute(doc, "set_chart_legend", {"chart": "chart1", "position": position})
    ch = _chart(doc)
    assert ch.get("legend") == (None if position == "none" else position)


def test_resize_chart(doc):
    execute(doc, "resize_chart", {"chart": "chart1", "width": "12cm"})
    ch = _chart(doc)
    assert ch["width_cm"] == 12.0 and ch["height_cm"] == pytest.approx(12 * 8.89 / 15.24, abs=0.01)
    execute(doc, "resize_chart", {"chart": "chart1", "width": "16cm", "height": "6cm"})
    assert (_chart(doc)["width_cm"], _chart(doc)["height_cm"]) == (16.0, 6.0)


def test_resize_chart_by_scale_keeps_the_proportions(doc):
    """scale: percent of the current size, as resize_image takes it ("make the chart twice as big")."""
    before = _chart(doc)
    execute(doc, "resize_chart", {"chart": "chart1", "scale": 200})
    after = _chart(doc)
    assert after["width_cm"] == pytest.approx(2 * before["width_cm"], abs=0.01)
    assert after["height_cm"] == pytest.approx(2 * before["height_cm"], abs=0.01)


def test_delete_chart_drops_relationship_and_parts(doc):
    r = execute(doc, "delete_chart", {"chart": "chart1"})
    assert r.removed == ["chart1"] and _chart(doc) is None
    assert not any(rel.reltype.endswith("/chart") for rel in doc.part.rels.values())
    names = zipfile.ZipFile(io.BytesIO(doc.to_bytes())).namelist()
    assert not any("charts/" in n or "embeddings/" in n for n in names)
    execute(doc, "delete_image", {"image": "img1", "remove_empty_paragraph": True})
    docx.Document(io.BytesIO(doc.to_bytes()))


def test_delete_chart_remove_empty_paragraph(doc):
    assert sorted(execute(doc, "delete_chart", {"chart": "chart1", "remove_empty_paragraph": True}).removed) == ["chart1", "p41"]


def test_chart_apis_refuse_pictures_and_unknown_ids(doc):
    with pytest.raises(ArgumentError, match="wrong form"):
        execute(doc, "set_chart_title", {"chart": "img1", "title": "x"})
    with pytest.raises(ArgumentError, match="no chart with id 'chart5'; valid chart ids: chart1"):
        execute(doc, "resize_chart", {"chart": "chart5", "width": "3cm"})


def test_word_made_3d_chart_data_update_and_retype():
    d = WordDocument.open(corpus_file("oxsdk__chart2.docx"))
    assert _chart(d)["chart_type"] == "column" and "bar3DChart" in _chart_part(d).blob.decode()
    execute(d, "update_chart_data", {"chart": "chart1", "categories": ["x", "y"], "series": [{"name": "s", "values": [1, 2]}]})
    assert _chart(d)["categories"] == ["x", "y"] and "bar3DChart" in _chart_part(d).blob.decode()
    execute(d, "change_chart_type", {"chart": "chart1", "chart_type": "line"})
    assert _chart(d)["chart_type"] == "line" and _chart(d)["series"] == [{"name": "s", "values": [1, 2]}]
    with pytest.raises(UnsupportedOperationError, match="bubble"):
        execute(d, "update_chart_data", {"chart": "chart7", **SALES})
    # a bar-of-pie chart is made a plain pie (it was answered "already a pie chart" and left as it was)
    assert _chart(d, "chart3")["chart_type"] == "bar_of_pie"
    assert "from bar_of_pie to pie" in str(execute(d, "change_chart_type", {"chart": "chart3", "chart_type": "pie"}))
    assert _chart(d, "chart3")["chart_type"] == "pie"


def test_change_chart_type_makes_and_restores_of_pie_charts():
    """change_chart_type could not make a pie-of-pie or bar-of-pie chart (c:ofPieChart), nor give a bar-of-pie back
    once made a pie: its types lacked them, and the state read a bar-of-pie as a pie_of_pie. Both are types now,
    written as Word writes them (ofPieType, varyColors, the series, gapWidth, secondPieSize, serLines) in schema
    order; the file audits clean and the data, title and legend stay."""
    data = corpus_file("oxsdk__chart2.docx").read_bytes()
    d = WordDocument.from_bytes(data, "charts.docx")
    kept = {k: _chart(d, "chart3")[k] for k in ("categories", "series", "legend")}
    execute(d, "change_chart_type", {"chart": "chart3", "chart_type": "pie"})
    for kind, of_type in (("pie_of_pie", "pie"), ("bar_of_pie", "bar")):
        assert f"from {_chart(d, 'chart3')['chart_type']} to {kind}" in str(
            execute(d, "change_chart_type", {"chart": "chart3", "chart_type": kind}))
        assert _chart(d, "chart3")["chart_type"] == kind and {k: _chart(d, "chart3")[k] for k in kept} == kept
        (plot,) = etree.fromstring(_chart_part(d, "chart3").blob).iter(qn("c:ofPieChart"))
        assert [etree.QName(c).localname for c in plot] == ["ofPieType", "varyColors", "ser", "gapWidth",
                                                            "secondPieSize", "serLines"]
        assert plot[0].get("val") == of_type
        assert "already" in str(execute(d, "change_chart_type", {"chart": "chart3", "chart_type": kind}))
    execute(d, "change_chart_type", {"chart": "chart2", "chart_type": "pie_of_pie"})  # a line chart of two series
    assert _chart(d, "chart2")["chart_type"] == "pie_of_pie"
    assert_word_opens(data, d)


@pytest.mark.slow
def test_column_and_pie_charts_render():
    from tests.rendering import render

    d = WordDocument.new()
    execute(d, "insert_chart", {"position": "end", "chart_type": "column", "title": "Regional Revenue", **SALES})
    execute(d, "insert_chart", {"position": "end", "chart_type": "pie", "title": "Market Share", "legend": "r",
                                "categories": ["Alpha", "Beta", "Gamma"], "series": [{"name": "Share", "values": [50, 30, 20]}]})
    execute(d, "change_chart_type", {"chart": "chart1", "chart_type": "line"})
    execute(d, "change_chart_type", {"chart": "chart1", "chart_type": "column"})
    pdf = render(d)
    words = pdf.text.split()
    for expected in ("Regional", "Revenue", "Q1", "Q2", "Q3", "North", "South", "Market", "Share", "Alpha", "Beta", "Gamma"):
        assert expected in words, expected


def test_every_chart_type_inserted_or_changed_to_adds_no_open_xml_error():
    """openxml-audit (the independent validator) on a chart of every type, inserted and changed to: python-pptx's
    doughnut and area writers give c:roundedCorners already, and a second one made Word repair the file."""
    from autodw.apis.ooxml.charts import CHART_TYPES
    from autodw.analysis.validation import added, validate_all

    outputs = []
    for kind in CHART_TYPES:
        doc = WordDocument.open(EXAMPLES / "report.docx")
        data = {**SALES, "categories": [1, 2, 3]} if kind == "scatter" else SALES  # scatter: numeric x values
        execute(doc, "insert_chart", {"chart_type": kind, **data, "position": "end"})
        part = etree.fromstring(_chart_part(doc).blob)
        assert len(part.findall(f"{{{C}}}roundedCorners")) == 1, kind
        execute(doc, "change_chart_type", {"chart": "chart1", "chart_type": "column" if kind != "column" else "area"})
        outputs.append(doc.to_bytes())
    original, *edited = validate_all([(EXAMPLES / "report.docx").read_bytes(), *outputs], workers=2)
    for kind, findings in zip(CHART_TYPES, edited):
        assert [str(f) for f in added(original, findings) if f.is_error] == [], kind


@pytest.mark.parametrize("api", ["insert_chart", "update_chart_data"])
def test_category_labels_mixing_numbers_and_text_are_written_as_text(api):
    """Found by the API fuzz campaign (issue 49): with a number first, python-pptx took every category for a number
    and wrote the text ones unescaped: "&" broke the chart part (XMLSyntaxError, an internal error) and "<w:p>" was
    written as markup."""
    d = WordDocument.open(EXAMPLES / "report.docx")
    categories = [66.0, "a&b", "<w:p>&amp;</w:p>", 2]
    series = [{"name": "S", "values": [1, 2, 3, 4]}]
    if api == "insert_chart":
        execute(d, "insert_chart", {"position": "end", "chart_type": "doughnut", "categories": categories, "series": series})
    else:
        execute(d, "insert_chart", {"position": "end", "chart_type": "column", "categories": ["x"], "series": [{"name": "S", "values": [1]}]})
        execute(d, "update_chart_data", {"chart": extract_state(d)["images"][-1]["id"], "categories": categories, "series": series})
    charts = [etree.fromstring(v) for k, v in d.members().items() if k.startswith("word/charts/chart")]
    labels = [[v.text for cat in chart.iter(qn("c:cat")) for v in cat.iter(qn("c:v"))][:4] for chart in charts]
    assert ["66", "a&b", "<w:p>&amp;</w:p>", "2"] in labels, labels
