"""A small evaluation set of realistic single instructions on the sample documents, each with its
expected outcome checked by code (used to choose and measure the embedded local model).

English and Chinese, all eight intents, some needing 2-4 API calls. A task passes when its check
holds on the final state. Checks look at outcomes, not at which APIs were used.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from autodw.analysis.state import State
from autodw.eval import checks as c


@dataclass(frozen=True)
class Task:
    """One instruction on one sample document and the check of its outcome."""

    id: str
    document: str
    instruction: str
    lang: str
    intent: str
    calls: int  # API calls a careful person would need
    check: Callable[[State, State], bool]
    gold: tuple[tuple[str, dict[str, Any]], ...] = ()  # one correct call sequence (proves the check is satisfiable)


def _title_bold_blue(before: State, after: State) -> bool:
    p = c.paragraph(after, "p1")
    return c.every_run(p, bold=True) and all(c.is_blue(r.get("color")) for r in c.all_runs(p))


def _risks(before: State, after: State) -> bool:
    heading = c.find_paragraph(after, "Risks", exact=True)
    items = [c.find_paragraph(after, t) for t in ("Supply delays", "Currency swings")]
    return (heading is not None and heading["style"] == "Heading 1" and all(items)
            and all((i.get("list") or {}).get("kind") == "bullet" for i in items)
            and c.order(after, "Risks", "Supply delays", "Currency swings", "Appendix: Methodology")
            and c.find_paragraph(after, "Next Steps")["index"] < heading["index"])


def _header_row(before: State, after: State) -> bool:
    t = c.table_with(after, ["Region", "Q1"])
    if t is None:
        return False
    cells = t["cell_details"][0]
    return all(cell and cell.get("shading") and all(c.every_run(p, bold=True) for p in cell["paragraphs"] if c.all_runs(p))
               for cell in cells)


def _no_lower_sales(before: State, after: State) -> bool:
    texts = [p["text"] for p in c.paragraphs(after, cells=True)]
    return not any("sales" in t for t in texts) and any("revenue" in t for t in texts) and \
        any("Sales" in t for t in texts)  # capitalised words left alone


def _next_quarter(before: State, after: State) -> bool:
    heading = c.find_paragraph(after, "Next Quarter", exact=True)
    table = c.table_with(after, ["Region", "Target"])
    return (heading is not None and heading["style"] == "Heading 1" and table is not None
            and c.has_row(table, ["North", "160"]) and c.order(after, "Next Quarter", "Targets will be set in October.")
            and heading["index"] > c.find_paragraph(after, "Figures are unaudited")["index"])


def _subtitle(before: State, after: State) -> bool:
    title, sub = c.paragraph(after, "p1"), c.find_paragraph(after, "Prepared by Finance", exact=True)
    return (title.get("alignment") == "center" and c.every_run(title, size_pt=20.0)
            and sub is not None and sub["index"] == 1 and c.every_run(sub, italic=True))


def _section_margins(before: State, after: State) -> bool:
    m = after["page_layout"]["sections"][0]["margins_cm"]
    return all(c.close(m.get(k), 2.0, 0.05) for k in ("top", "bottom", "left", "right"))


TASKS: list[Task] = [
    Task("title-bold-blue", "examples/report.docx", "Make the document title bold and blue.", "en",
         "format_style_editing", 1, _title_bold_blue,
         gold=(("set_text_format", {"paragraphs": ["p1"], "bold": True, "color": "blue"}),)),
    Task("note-after-table", "examples/report.docx",
         "Add a new paragraph right after the sales table that says 'All figures are in thousands of dollars.'", "en",
         "content_creation", 1,
         lambda b, a: c.order(a, "The table below", "All figures are in thousands of dollars.", "Company Logo")
         and c.find_paragraph(a, "All figures are in thousands of dollars.")["index"] ==
         c.find_paragraph(a, "Company Logo")["index"] - 1,
         gold=(("insert_paragraph", {"text": "All figures are in thousands of dollars.", "position": {"after": "t1"}}),)),
    Task("rewrite-sentence", "examples/report.docx",
         "Change the sentence 'Revenue grew in every region.' to 'Revenue grew in most regions.'", "en",
         "content_modification", 1,
         lambda b, a: "Revenue grew in most regions." in c.paragraph(a, "p2")["text"]
         and "every region" not in c.paragraph(a, "p2")["text"],
         gold=(("replace_text", {"find": "Revenue grew in every region.", "replace": "Revenue grew in most regions."}),)),
    Task("add-central-row", "examples/report.docx",
         "Add a row for the Central region to the sales table with Q1 110, Q2 115 and Q3 120.", "en",
         "table_operation", 1, lambda b, a: c.has_row(c.table_with(a, ["Region"]), ["Central", "110", "115", "120"]),
         gold=(("insert_row", {"table": "t1", "index": 5, "data": ["Central", "110", "115", "120"]}),)),
    Task("delete-west-row", "examples/report.docx", "Delete the West row from the sales table.", "en",
         "table_operation", 1,
         lambda b, a: not any(r[0] == "West" for r in c.table_with(a, ["Region"])["cells"])
         and c.table_with(a, ["Region"])["rows"] == 4,
         gold=(("delete_row", {"table": "t1", "index": 4}),)),
    Task("risks-section", "examples/report.docx",
         "Before the appendix, add a level-1 heading 'Risks' followed by two bullet points: 'Supply delays' and "
         "'Currency swings'.", "en", "content_creation", 2, _risks,
         gold=(("insert_heading", {"text": "Risks", "level": 1, "position": {"before": "p38"}}), ("insert_list", {"items": ["Supply delays", "Currency swings"], "position": {"before": "p38"}, "kind": "bullet"}))),
    Task("chart-title", "examples/report.docx", "Change the chart's title to 'Quarterly Sales'.", "en",
         "chart_operation", 1,
         lambda b, a: any(i.get("type") == "chart" and i.get("title") == "Quarterly Sales" for i in a["images"]),
         gold=(("set_chart_title", {"chart": "chart1", "title": "Quarterly Sales"}),)),
    Task("logo-width", "examples/report.docx", "Make the company logo 6 cm wide, keeping its proportions.", "en",
         "image_operation", 1,
         lambda b, a: any(i.get("id") == "img1" and c.close(i.get("width_cm"), 6.0, 0.05) and c.close(i.get("height_cm"), 3.0, 0.1)
                          for i in a["images"]),
         gold=(("resize_image", {"image": "img1", "width": "6cm", "keep_aspect": True}),)),
    Task("header-text", "examples/report.docx", "Change the page header text to 'Acme Corp - Internal'.", "en",
         "structure_update", 1,
         lambda b, a: all(s["headers"]["default"]["text"] == "Acme Corp - Internal" for s in a["page_layout"]["sections"]),
         gold=(("set_header_footer", {"section": "all", "where": "header", "text": "Acme Corp - Internal"}),)),
    Task("margins-2cm", "examples/report.docx", "Set all four page margins of the first section to 2 cm.", "en",
         "structure_update", 1, _section_margins,
         gold=(("set_page_setup", {"section": 0, "margins": {"top": "2cm", "bottom": "2cm", "left": "2cm", "right": "2cm"}}),)),
    Task("comment-logo", "examples/report.docx",
         "Add a comment 'Please verify' to the paragraph about the logo being used on customer material.", "en",
         "content_creation", 1,
         lambda b, a: any(x["text"] == "Please verify" and "p31" in x["paragraphs"] for x in a["interactive"]["comments"]),
         gold=(("insert_comment", {"paragraph": "p31", "text": "Please verify"}),)),
    Task("properties", "examples/report.docx", "Set the document's title property to 'Q3 Sales Report' and its author to 'Finance'.",
         "en", "lifecycle_update", 1,
         lambda b, a: a["document_info"]["core_properties"].get("title") == "Q3 Sales Report"
         and a["document_info"]["core_properties"].get("author") == "Finance",
         gold=(("set_properties", {"title": "Q3 Sales Report", "author": "Finance"}),)),
    Task("header-row-bold-gray", "examples/report.docx",
         "Make the header row of the sales table bold with a light gray background.", "en", "table_operation", 2, _header_row,
         gold=(("set_header_row", {"table": "t1", "rows": 1, "bold": True, "fill": "lightgray"}),)),
    Task("replace-sales", "examples/report.docx", "Replace every lowercase word 'sales' with 'revenue' throughout the document.",
         "en", "content_modification", 1, _no_lower_sales,
         gold=(("replace_text", {"find": "sales", "replace": "revenue", "match_case": True}),)),
    Task("footnote-method", "examples/report.docx",
         "Add a footnote 'Audit pending.' at the end of the methodology paragraph.", "en", "content_creation", 1,
         lambda b, a: any(n["text"] == "Audit pending." and n["paragraph"] == "p39" for n in a["interactive"]["footnotes"]),
         gold=(("insert_footnote", {"paragraph": "p39", "text": "Audit pending."}),)),
    Task("next-quarter", "examples/report.docx",
         "At the end of the document add a level-1 heading 'Next Quarter', then the paragraph 'Targets will be set in "
         "October.', then a table with header Region, Target and one row North, 160.", "en", "content_creation", 3,
         _next_quarter,
         gold=(("insert_heading", {"text": "Next Quarter", "level": 1, "position": "end"}),
               ("insert_paragraph", {"text": "Targets will be set in October.", "position": "end"}),
               ("insert_table", {"position": "end", "data": [["Region", "Target"], ["North", "160"]]}))),
    Task("title-subtitle", "examples/report.docx",
         "Center the title and set it to 20 pt, then add 'Prepared by Finance' in italics as a new paragraph right "
         "below it.", "en", "format_style_editing", 4, _subtitle,
         gold=(("set_paragraph_format", {"paragraphs": ["p1"], "alignment": "center"}),
               ("set_text_format", {"paragraphs": ["p1"], "size_pt": 20}),
               ("insert_paragraph", {"text": "Prepared by Finance", "position": {"after": "p1"}}),
               ("set_text_format", {"paragraphs": ["p44"], "italic": True}))),
    Task("zh-new-clause", "examples/contract_zh.docx",
         "在文档末尾新增一个一级标题“第五条 争议解决”，并在其下添加段落“争议由双方协商解决。”", "zh", "content_creation", 2,
         lambda b, a: (c.find_paragraph(a, "第五条 争议解决", exact=True) or {}).get("style") == "Heading 1"
         and a["paragraphs"][-1]["text"] == "争议由双方协商解决。",
         gold=(("insert_heading", {"text": "第五条 争议解决", "level": 1, "position": "end"}),
               ("insert_paragraph", {"text": "争议由双方协商解决。", "position": "end"}))),
    Task("zh-title-red", "examples/contract_zh.docx", "把文档标题改为红色。", "zh", "format_style_editing", 1,
         lambda b, a: all(c.is_red(r.get("color")) for r in c.all_runs(c.paragraph(a, "p1"))) and bool(c.all_runs(c.paragraph(a, "p1"))),
         gold=(("set_text_format", {"paragraphs": ["p1"], "color": "red"}),)),
    Task("zh-add-row", "examples/contract_zh.docx", "在服务费用表格末尾添加一行：第四季度，30，12月31日。", "zh",
         "table_operation", 1, lambda b, a: c.has_row(c.table_with(a, ["季度"]), ["第四季度", "30", "12月31日"]),
         gold=(("insert_row", {"table": "t1", "index": 4, "data": ["第四季度", "30", "12月31日"]}),)),
    Task("zh-rewrite", "examples/contract_zh.docx", "将“乙方应保证服务质量。”改为“乙方应保证服务质量并按时交付。”", "zh",
         "content_modification", 1,
         lambda b, a: c.find_paragraph(a, "乙方应保证服务质量并按时交付。", exact=True) is not None,
         gold=(("replace_text", {"find": "乙方应保证服务质量。", "replace": "乙方应保证服务质量并按时交付。"}),)),
    Task("zh-append", "examples/contract_zh.docx", "在文档末尾添加一个段落：“本合同未尽事宜，双方协商解决。”", "zh",
         "content_creation", 1, lambda b, a: a["paragraphs"][-1]["text"] == "本合同未尽事宜，双方协商解决。",
         gold=(("insert_paragraph", {"text": "本合同未尽事宜，双方协商解决。", "position": "end"}),)),
    Task("zh-justify", "examples/contract_zh.docx", "将“第一条 服务内容”下面的段落设置为两端对齐。", "zh",
         "format_style_editing", 1,
         lambda b, a: c.find_paragraph(a, "乙方为甲方提供软件开发与维护服务").get("alignment") == "justify",
         gold=(("set_paragraph_format", {"paragraphs": ["p5"], "alignment": "justify"}),)),
    Task("zh-delete", "examples/contract_zh.docx", "删除“第四条 其他”下面的那个段落。", "zh", "content_modification", 1,
         lambda b, a: c.find_paragraph(a, "本合同一式两份") is None and c.find_paragraph(a, "第四条 其他") is not None,
         gold=(("delete_block", {"block": "p25"}),)),
    Task("accept-changes", "examples/review.docx", "Accept the reviewers' tracked edits so the text is final.", "en", "lifecycle_update", 1,
         lambda b, a: bool(b["interactive"]["tracked_changes"]) and not a["interactive"]["tracked_changes"]
         and "manager's approval" in c.find_paragraph(a, "Submit claims")["text"],
         gold=(("resolve_tracked_changes", {"action": "accept"}),)),
    Task("remove-watermark", "examples/review.docx", "Remove the DRAFT watermark.", "en", "structure_update", 1,
         lambda b, a: not any(s.get("watermark") for s in a["page_layout"]["sections"]),
         gold=(("remove_watermark", {}),)),
    Task("update-toc", "examples/review.docx", "Update the table of contents so it lists every heading.", "en",
         "structure_update", 1,
         lambda b, a: "Exceptions" in (a["page_layout"]["table_of_contents"] or {}).get("entries", []),
         gold=(("update_toc", {}),)),
]
