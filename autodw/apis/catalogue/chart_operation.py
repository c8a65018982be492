"""chart_operation APIs: native Word charts (chart part + embedded workbook) — insert, update data, change
type, title, legend, resize, delete.

Charts are addressed by the ids the state shows (chart1, chart2, ...). The state lists each chart's
type, title, legend position, categories and series values.
"""

from __future__ import annotations

from typing import Any

from autodw.apis.ooxml import charts, drawings
from autodw.apis.registry import api
from autodw.apis.schema import CHART_ID, POSITION, boolean, enum, length, number, text
from autodw.core.document import WordDocument
from autodw.core.errors import ArgumentError
from autodw.core.ids import element_id
from autodw.core.units import emu

INTENT = "chart_operation"
_TYPES = tuple(charts.CHART_TYPES)
CHART_TYPE = enum("chart type (scatter: categories are the numeric x values; pie_of_pie, bar_of_pie: a pie with "
                  "some slices split out into a second pie or a bar)", _TYPES)
CATEGORIES = {"type": "array", "minItems": 1, "maxItems": 1000, "items": {"type": ["string", "number"]},
              "description": "category labels along the axis (pie: slice names), e.g. [\"Q1\", \"Q2\", \"Q3\"]"}
SERIES = {"type": "array", "minItems": 1, "maxItems": 50,
          "items": {"type": "object", "additionalProperties": False, "required": ["name", "values"],
                    "properties": {"name": {"type": "string"},
                                   "values": {"type": "array", "items": {"type": ["number", "null"]}}}},
          "description": "data series: [{\"name\": \"North\", \"values\": [120, 135, 150]}], one value per category "
                         "(null for a gap); pie charts show the first series"}
LEGEND = enum("legend position: r (right), l (left), t (top), b (bottom), tr (top right) or none to hide it",
              charts.LEGEND_POSITIONS)


@api(intent=INTENT,
     description="Insert a native Word chart (editable in Word, data in an embedded workbook) in a new paragraph at "
                 "a position. Give the chart type, category labels and one or more series of values.",
     params={"position": POSITION, "chart_type": CHART_TYPE, "categories": CATEGORIES, "series": SERIES,
             "title": text("chart title shown above the plot; omit for none"),
             "legend": {**LEGEND, "description": "(default b) " + LEGEND["description"]}, "width": length("chart width (default 15.24cm)"),
             "height": length("chart height (default 8.89cm)"),
             "alignment": enum("alignment of the chart's paragraph", ("left", "center", "right"))},
     examples=[{"position": "end", "chart_type": "column", "title": "Sales by Region",
                "categories": ["Q1", "Q2", "Q3"],
                "series": [{"name": "North", "values": [120, 135, 150]}, {"name": "South", "values": [98, 102, 110]}]},
               {"position": {"after": "p8"}, "chart_type": "pie", "title": "Q1 share", "legend": "r",
                "categories": ["North", "South", "East", "West"], "series": [{"name": "Q1", "values": [120, 98, 143, 87]}],
                "width": "10cm", "alignment": "center"}])
def insert_chart(doc: WordDocument, position: Any, chart_type: str, categories: list, series: list,
                 title: str | None = None, legend: str = "b", width: str | None = None, height: str | None = None,
                 alignment: str | None = None):
    """Create the chart part, its workbook and an inline drawing in a new paragraph."""
    data = charts.chart_data(chart_type, categories, series)
    cs = charts.new_chart_space(chart_type, data, title, legend)
    rid = charts.add_chart_part(doc, doc.part, cs, data)
    w = emu(width, "width") if width else None
    h = emu(height, "height") if height else None
    cx, cy = drawings.target_size(charts.DEFAULT_SIZE, w, h, None) if (w or h) else charts.DEFAULT_SIZE
    docpr_id = drawings.next_docpr_id(doc)
    inline = drawings.inline_xml(cx, cy, docpr_id, f"Chart {docpr_id}", charts.chart_graphic_data(rid), lock_aspect=False)
    p = drawings.place_drawing(doc, drawings.drawing_run(inline), position, None, None, alignment)
    if w is None and h is None:
        drawings.set_size(inline, *drawings.fit_width(doc, p, cx, cy))
    doc.refresh_ids()
    return (f"inserted {chart_type} chart {element_id(inline)} with {len(series)} series x {len(categories)} "
            f"categories in paragraph {element_id(p)}")


@api(intent=INTENT,
     description="Replace a chart's data: its categories and series (names and values). The chart type and "
                 "formatting stay; the embedded workbook is rewritten to match. Series beyond the old count get "
                 "automatic colours.",
     params={"chart": CHART_ID, "categories": CATEGORIES, "series": SERIES},
     examples=[{"chart": "chart1", "categories": ["Q1", "Q2", "Q3", "Q4"],
                "series": [{"name": "North", "values": [120, 135, 150, 160]},
                           {"name": "South", "values": [98, 102, 110, 118]},
                           {"name": "East", "values": [143, 150, 149, 155]}]}])
def update_chart_data(doc: WordDocument, chart: str, categories: list, series: list):
    """Rewrite c:cat/c:val (or c:xVal/c:yVal) of every series and the embedded workbook."""
    _, _, part, cs = charts.chart_parts(doc, chart)
    kind = charts.chart_kind(cs)
    data = charts.chart_data(kind, categories, series)
    charts.replace_data(cs, kind, data)
    charts.write_workbook(doc, part, cs, data)
    charts.save_chart(part, cs)
    return f"{chart} now has {len(series)} series x {len(categories)} categories"


@api(intent=INTENT,
     description="Change a chart's type (e.g. column to line or pie), keeping its data, title and legend. Plot "
                 "formatting (colours of bars, markers) returns to the new type's defaults.",
     params={"chart": CHART_ID, "chart_type": CHART_TYPE},
     examples=[{"chart": "chart1", "chart_type": "line"}, {"chart": "chart1", "chart_type": "bar"}])
def change_chart_type(doc: WordDocument, chart: str, chart_type: str):
    """Rebuild the chart XML for the new type from the current data."""
    _, _, part, cs = charts.chart_parts(doc, chart)
    old_kind = charts.chart_kind(cs)
    if old_kind == chart_type:
        return f"{chart} is already a {chart_type} chart"
    categories, series = charts.current_data(cs)
    if not series or not categories:
        raise ArgumentError(f"{chart} has no data to show as a {chart_type} chart; use update_chart_data first")
    data = charts.chart_data(chart_type, categories, series)
    new = charts.retype(cs, chart_type, data)
    charts.write_workbook(doc, part, new, data)
    charts.save_chart(part, new)
    return f"{chart} changed from {old_kind} to {chart_type}"


@api(intent=INTENT,
     description="Set a chart's title text, or remove the title with an empty string.",
     params={"chart": CHART_ID, "title": text("the new title; \"\" removes it")},
     examples=[{"chart": "chart1", "title": "Quarterly Sales (k$)"}, {"chart": "chart1", "title": ""}])
def set_chart_title(doc: WordDocument, chart: str, title: str):
    """Write c:title (or delete it and set c:autoTitleDeleted)."""
    _, _, part, cs = charts.chart_parts(doc, chart)
    charts.set_title(cs, title)
    charts.save_chart(part, cs)
    return f"set the title of {chart} to {title!r}" if title else f"removed the title of {chart}"


@api(intent=INTENT,
     description="Show a chart's legend at a position (r right, l left, t top, b bottom, tr top right) or hide it "
                 "(none).",
     params={"chart": CHART_ID, "position": LEGEND},
     examples=[{"chart": "chart1", "position": "r"}, {"chart": "chart1", "position": "none"}])
def set_chart_legend(doc: WordDocument, chart: str, position: str):
    """Write c:legend/c:legendPos or remove c:legend."""
    _, _, part, cs = charts.chart_parts(doc, chart)
    charts.set_legend(cs, position)
    charts.save_chart(part, cs)
    return f"hid the legend of {chart}" if position == "none" else f"legend of {chart} at {position}"


@api(intent=INTENT,
     description="Resize a chart: give width and/or height, or scale (percent of the current size). With only "
                 "width or only height the other follows the current proportions (unless keep_aspect is false); "
                 "with both, the chart gets exactly that size.",
     params={"chart": CHART_ID, "width": length("new width"), "height": length("new height"),
             "keep_aspect": boolean("keep the proportions (default: true when one dimension is given)"),
             "scale": number("percent of the current size, e.g. 200 doubles it", 1, 1000)},
     examples=[{"chart": "chart1", "width": "12cm"}, {"chart": "chart1", "width": "16cm", "height": "6cm"},
               {"chart": "chart1", "scale": 200}])
def resize_chart(doc: WordDocument, chart: str, width: str | None = None, height: str | None = None,
                 keep_aspect: bool | None = None, scale: float | None = None):
    """Change the chart drawing's extent."""
    return drawings.resize(doc.find(chart, "chart"), chart, width, height, keep_aspect, scale)


@api(intent=INTENT,
     description="Delete a chart together with its chart part and embedded workbook. The paragraph that held it "
                 "stays (possibly empty) unless remove_empty_paragraph is true.",
     params={"chart": CHART_ID,
             "remove_empty_paragraph": drawings.REMOVE_EMPTY_PARAGRAPH},
     examples=[{"chart": "chart1"}, {"chart": "chart1", "remove_empty_paragraph": True}])
def delete_chart(doc: WordDocument, chart: str, remove_empty_paragraph: bool = False):
    """Remove the drawing; the chart relationship goes when nothing else refers to it (its parts are then not saved)."""
    container = doc.find(chart, "chart")
    note = drawings.remove_drawing(doc, container, remove_empty_paragraph)
    return f"deleted chart {chart}{note}"
