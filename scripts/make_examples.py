"""Build the sample documents in examples/ (deterministic: same script, same bytes of content).

    python scripts/make_examples.py [DIR]        (default: examples/ of this checkout; autodw must be importable)

Writes examples/report.docx (English: headings, lists, a table, an image, a chart, a comment, a
footnote, two sections, header and footer with page numbers) and examples/contract_zh.docx
(Chinese: headings, table, list), examples/review.docx (a draft under review) and examples/notes.docx
(pasted delimited lines, a Markdown table, [n] references), plus the PNG images under examples/images/.
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

import docx
from docx.enum.section import WD_ORIENT, WD_SECTION
from docx.enum.text import WD_ALIGN_PARAGRAPH
from docx.shared import Cm, Pt

from autodw.core.xml import W, parse, qn

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def png(width: int, height: int, colour: tuple[int, int, int], stripe: tuple[int, int, int]) -> bytes:
    """A small RGB PNG with a diagonal stripe, written without any imaging library."""
    rows = []
    for y in range(height):
        row = bytearray([0])
        for x in range(width):
            row.extend(stripe if abs(x * height - y * width) < width * 3 else colour)
        rows.append(bytes(row))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"".join(rows), 9)) + chunk(b"IEND", b"")


def add_page_number_footer(section) -> None:
    """Footer: 'Page N of M' with PAGE and NUMPAGES fields, centred."""
    p = section.footer.paragraphs[0]
    p.alignment = WD_ALIGN_PARAGRAPH.CENTER
    p.add_run("Page ")
    p._p.append(parse(f'<w:fldSimple xmlns:w="{W}" w:instr=" PAGE "><w:r><w:t>1</w:t></w:r></w:fldSimple>'))
    p.add_run(" of ")
    p._p.append(parse(f'<w:fldSimple xmlns:w="{W}" w:instr=" NUMPAGES "><w:r><w:t>1</w:t></w:r></w:fldSimple>'))


def make_report(path: Path) -> None:
    """The English sample report (its logo from images/ beside it)."""
    d = docx.Document()
    d.core_properties.title = "Quarterly Sales Report"
    d.core_properties.author = "Finance Team"
    sec = d.sections[0]
    sec.header.paragraphs[0].text = "Acme Corporation - Quarterly Report"
    add_page_number_footer(sec)
    d.add_heading("Quarterly Sales Report", level=0)
    intro = d.add_paragraph("This report summarises sales for the first three quarters of the year. ")
    r = intro.add_run("Revenue grew in every region.")
    r.bold = True
    d.add_heading("Highlights", level=1)
    for item in ("North region exceeded its target by 12%.", "A new distribution partner joined in Q2.",
                 "Customer satisfaction rose to 4.6 out of 5."):
        d.add_paragraph(item, style="List Bullet")
    d.add_heading("Sales by Region", level=1)
    d.add_paragraph("The table below lists sales in thousands of dollars.")
    rows = [("Region", "Q1", "Q2", "Q3"), ("North", "120", "135", "150"), ("South", "98", "102", "110"),
            ("East", "143", "150", "149"), ("West", "87", "95", "101")]
    table = d.add_table(rows=len(rows), cols=4)
    table.style = "Table Grid"
    for i, row in enumerate(rows):
        for j, value in enumerate(row):
            table.cell(i, j).text = value
    d.add_heading("Company Logo", level=1)
    d.add_picture(str(path.parent / "images" / "logo.png"), width=Cm(4))
    d.add_paragraph("The logo above is used on all customer-facing material.")
    d.add_heading("Next Steps", level=1)
    d.add_paragraph("The team will review pricing before the next quarter.")
    for item in ("Review pricing.", "Expand the West region sales team.", "Prepare the annual forecast."):
        d.add_paragraph(item, style="List Number")
    new = d.add_section(WD_SECTION.NEW_PAGE)
    new.orientation = WD_ORIENT.LANDSCAPE
    new.page_width, new.page_height = sec.page_height, sec.page_width
    d.add_heading("Appendix: Methodology", level=1)
    d.add_paragraph("Figures are unaudited and rounded to the nearest thousand dollars. Returns are "
                    "deducted in the quarter in which they occur.")
    style = d.styles["Normal"]
    style.font.name = "Calibri"
    style.font.size = Pt(11)
    d.save(path)
    _add_chart_and_footnote(path)


def _add_chart_and_footnote(path: Path) -> None:
    """Add a bookmark, a comment, a footnote and (at the end, so no earlier id shifts) a native chart with autodw's
    own APIs (which add the styles they use: the Open XML validator finds no error in the result)."""
    from autodw.apis import execute, registry
    from autodw.core.document import WordDocument

    doc = WordDocument.open(path)
    ids = {_text(el): pid for pid, el in doc.iter_elements() if el.tag == qn("w:p")}
    appendix = doc.find(ids["Appendix: Methodology"])
    start = parse(f'<w:bookmarkStart xmlns:w="{W}" w:id="100" w:name="methodology"/>')
    end = parse(f'<w:bookmarkEnd xmlns:w="{W}" w:id="100"/>')
    runs = appendix.findall(qn("w:r"))
    runs[0].addprevious(start)
    runs[-1].addnext(end)
    execute(doc, "insert_comment", {"paragraph": ids["The team will review pricing before the next quarter."],
                                    "text": "Confirm the review date with the pricing team.", "author": "Dana",
                                    "initials": "DR"})
    execute(doc, "insert_footnote", {"paragraph": ids["North region exceeded its target by 12%."],
                                     "text": "Target set in the January plan."})
    if "insert_chart" in registry():
        execute(doc, "insert_heading", {"text": "Sales Chart", "level": 1, "position": "end"})
        execute(doc, "insert_chart", {"position": "end", "chart_type": "column", "title": "Sales by Region",
                                      "categories": ["Q1", "Q2", "Q3"],
                                      "series": [{"name": "North", "values": [120, 135, 150]},
                                                 {"name": "South", "values": [98, 102, 110]}]})
    tmp = path.with_suffix(".tmp.docx")
    doc.save(tmp)
    tmp.replace(path)


def _text(el) -> str:
    return "".join(t.text or "" for t in el.iter(qn("w:t")))


def make_contract_zh(path: Path) -> None:
    d = docx.Document()
    d.core_properties.title = "服务合同"
    d.add_heading("技术服务合同", level=0)
    d.add_paragraph("甲方：上海某某科技有限公司")
    d.add_paragraph("乙方：北京某某信息技术有限公司")
    d.add_heading("第一条 服务内容", level=1)
    d.add_paragraph("乙方为甲方提供软件开发与维护服务，具体内容见附件一。")
    d.add_heading("第二条 服务费用", level=1)
    d.add_paragraph("服务费用按季度结算，明细如下表所示。")
    rows = [("季度", "金额（万元）", "付款日期"), ("第一季度", "20", "3月31日"), ("第二季度", "25", "6月30日"),
            ("第三季度", "25", "9月30日")]
    table = d.add_table(rows=len(rows), cols=3)
    table.style = "Table Grid"
    for i, row in enumerate(rows):
        for j, value in enumerate(row):
            table.cell(i, j).text = value
    d.add_heading("第三条 双方义务", level=1)
    for item in ("甲方应按时支付服务费用。", "乙方应保证服务质量。", "双方应对合同内容保密。"):
        d.add_paragraph(item, style="List Number")
    d.add_heading("第四条 其他", level=1)
    d.add_paragraph("本合同一式两份，双方各执一份，自签字之日起生效。")
    d.sections[0].header.paragraphs[0].text = "合同编号：2026-001"
    d.save(path)


def make_review(path: Path) -> None:
    """A draft under review: a table of contents, a DRAFT watermark, a hyperlink, tracked changes and a
    merged table cell, built with autodw's own APIs (tracked changes written as Word writes them)."""
    from autodw.apis import execute
    from autodw.core.document import WordDocument

    doc = WordDocument.new()
    doc.docx.core_properties.title = "Travel Policy"
    doc.docx.core_properties.author = "HR Team"

    def call(name: str, **args) -> list[str]:
        return execute(doc, name, args).created

    call("insert_heading", text="Travel Policy", level=0, position="end")
    call("insert_heading", text="Purpose", level=1, position="end")
    purpose = call("insert_paragraph", text="This policy explains how employees book and claim business travel.",
                   position="end")[0]
    call("insert_heading", text="Booking", level=1, position="end")
    booking = call("insert_paragraph", text="Book flights through the travel portal at least 14 days ahead.", position="end")[0]
    call("insert_hyperlink", paragraph=booking, text=" (travel portal)", url="https://travel.example.com")
    call("insert_heading", text="Allowances", level=1, position="end")
    call("insert_paragraph", text="Daily allowances depend on the destination.", position="end")
    call("insert_table", position="end", data=[["Region", "Hotel", "Meals"], ["Europe", "150", "60"],
                                               ["Asia", "120", "45"], ["Americas", "180", "70"]], header_row=True)
    call("merge_cells", table="t1", first_row=3, first_col=1, last_row=3, last_col=2)
    call("insert_heading", text="Claims", level=1, position="end")
    claims = call("insert_paragraph", text="Submit claims within 30 days with receipts.", position="end")[0]
    call("insert_toc", position={"after": "p1"}, levels="1-2", title="Contents")
    call("insert_heading", text="Exceptions", level=1, position="end")  # added after the TOC: the TOC is stale
    call("insert_paragraph", text="Exceptions need written approval from the finance director.", position="end")
    call("add_watermark", text="DRAFT")
    p = doc.find(claims)
    run = p.find(qn("w:r"))
    ins = parse(f'<w:ins xmlns:w="{W}" w:id="901" w:author="Alex" w:date="2026-01-05T10:00:00Z">'
                '<w:r><w:t xml:space="preserve"> Late claims need a manager\'s approval.</w:t></w:r></w:ins>')
    run.addnext(ins)
    q = doc.find(purpose)
    dele = parse(f'<w:del xmlns:w="{W}" w:id="902" w:author="Alex" w:date="2026-01-05T10:05:00Z">'
                 '<w:r><w:delText xml:space="preserve"> and claim</w:delText></w:r></w:del>')
    q.append(dele)
    doc.refresh_ids()
    doc.save(path)


def make_notes(path: Path) -> None:
    """Meeting notes pasted from an e-mail: tab- and comma-separated lines, a Markdown table and [n] references,
    as people have them before asking for tables and superscripts."""
    d = docx.Document()
    d.core_properties.title = "Planning Meeting Notes"
    d.add_heading("Planning Meeting Notes", level=1)
    d.add_paragraph("Attendance was higher than last year [1] and the budget grew again [2].")
    d.add_paragraph("Owners, pasted from the tracker:")
    for line in ("Task\tOwner\tDue", "Venue\tSam\tMay 3", "Catering\tAlex\tMay 10"):
        d.add_paragraph(line)
    d.add_paragraph("Costs so far:")
    for line in ("Item,Cost", "Venue,1200", "\"Printing, posters\",150"):
        d.add_paragraph(line)
    d.add_paragraph("Rooms, as sent by the venue:")
    for line in ("| Room | Seats |", "|---|---:|", "| Hall A | 120 |", "| Hall B | 60 |"):
        d.add_paragraph(line)
    d.add_paragraph("[1] Attendance records 2025. [2] Finance report, March.")
    d.save(path)


def write_examples(folder: Path) -> list[Path]:
    """Every sample document and picture, written into `folder`; the files written."""
    images = folder / "images"
    images.mkdir(parents=True, exist_ok=True)
    (images / "logo.png").write_bytes(png(120, 60, (30, 90, 160), (250, 200, 40)))
    (images / "photo.png").write_bytes(png(160, 120, (60, 140, 80), (240, 240, 240)))
    (images / "diagram.png").write_bytes(png(100, 100, (200, 60, 60), (255, 255, 255)))
    make_report(folder / "report.docx")
    make_contract_zh(folder / "contract_zh.docx")
    make_review(folder / "review.docx")
    make_notes(folder / "notes.docx")
    return sorted(folder.rglob("*.*"))


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description="Build the sample documents (default folder: examples/).")
    parser.add_argument("dir", nargs="?", type=Path, default=EXAMPLES, help="the folder to write them to")
    target = parser.parse_args().dir
    print("wrote", ", ".join(str(p.relative_to(target)) for p in write_examples(target)))
