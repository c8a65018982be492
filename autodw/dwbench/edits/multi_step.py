"""Templates of one wish that takes several calls (a styled table with its caption, a section with text and a
list, a sign-off block), favoured when a hard instruction is being written."""

from __future__ import annotations

from autodw.dwbench.context import Ctx, Skip
from autodw.dwbench.documents import content
from autodw.dwbench.edits.helpers import (absent_table, created_id, fitting, has_merged_cells, numeric_table, place, q,
                                          replace_everywhere, replacements, section_and_table, table_caption,
                                          table_words)
from autodw.dwbench.edits.template import template


@template("table", weight=1.2, multi_call=True)
def styled_table(c: Ctx) -> str:
    data = c.pick(fitting(c, "tables"))
    absent_table(c, data)
    where, pos = place(c)
    fname, fill = c.fill()
    cap = table_caption(c, data)
    res = c.run("insert_table", position=pos, data=data, style="Table Grid")
    tid = created_id(res, "t")
    c.memory["table"] = tid
    c.run("set_header_row", table=tid, rows=1, bold=True, fill=fill)
    c.run("set_table_properties", table=tid, alignment="center")
    c.run("insert_caption", target=tid, text=cap, where="above")
    head, head_zh, rows = table_words(data, " / ")
    return c.say([f"{where}, add a centred table with the header {head} and the rows {rows}; make the header bold on {fname} and caption the table {q(c, cap)} above it",
                  f"insert a table {where}: columns {head}, rows {rows}; centre it, bold {fname} header, and a caption {q(c, cap)} on top",
                  f"I need a table {where} with {head} as headings and the rows {rows}, centred, its header row bold on a {fname} fill, and the caption {q(c, cap)} above it"],
                 [f"{where}插入一个居中的表格，表头{head_zh}，数据行：{rows}；表头加粗、{fname}底纹，表格上方加题注“{cap}”",
                  f"{where}加表格：表头{head_zh}，数据{rows}；表格居中，表头{fname}底纹加粗，上方题注“{cap}”",
                  f"{where}做一个表（表头{head_zh}，内容{rows}），整体居中，表头加粗并用{fname}填充，表上加题注“{cap}”"])


@template("text", weight=0.8, multi_call=True)
def section_with_table(c: Ctx) -> str:
    (title, para, _), data = section_and_table(c)
    absent_table(c, data)
    h = c.run("insert_heading", text=title, level=1, position="end").created[0]
    p = c.run("insert_paragraph", text=para, position={"after": h}).created[0]
    res = c.run("insert_table", position={"after": p}, data=data, style="Table Grid", header_row=True)
    tid = created_id(res, "t")
    c.memory.update(heading=h, para=p, table=tid)
    head, head_zh, rows = table_words(data)
    return c.say([f"at the end, add a section {q(c, title)} that opens with {q(c, para)} and then has a table (bold header {head}; rows {rows})",
                  f"add a closing section {q(c, title)}: the sentence {q(c, para)}, then a table with the bold header {head} and rows {rows}",
                  f"finish the document with a {q(c, title)} section containing {q(c, para)} and a table ({head} in a bold header row; {rows})"],
                 [f"在文末加一节“{title}”，先写一段“{para}”，再放一个表格（表头{head_zh}加粗；数据：{rows}）",
                  f"文档最后新增“{title}”一节：一段“{para}”，接一个表格，表头{head_zh}（加粗），数据{rows}",
                  f"结尾补一节“{title}”，正文“{para}”，下面附表（表头加粗：{head_zh}；内容：{rows}）"])


@template("text", weight=1.0, multi_call=True)
def report_section(c: Ctx) -> str:
    """A section with heading, text, a list and a captioned table: one wish, five or six calls."""
    (title, para, items), data = section_and_table(c)
    cap = table_caption(c, data)
    h = c.run("insert_heading", text=title, level=1, position="end").created[0]
    p = c.run("insert_paragraph", text=para, position={"after": h}).created[0]
    made = c.run("insert_list", items=items, position={"after": p}, kind="bullet").created
    tid = created_id(c.run("insert_table", position={"after": made[-1]}, data=data, style="Table Grid", header_row=True), "t")
    c.run("insert_caption", target=tid, text=cap, where="above")
    centred = c.rng.random() < 0.5
    if centred:
        c.run("set_table_properties", table=tid, alignment="center")
    c.memory.update(heading=h, para=p, table=tid, list=made)
    head, head_zh, rows = table_words(data)
    en_c, zh_c = (" centred on the page" if centred else ""), ("，表格居中" if centred else "")
    return c.say([f"finish the document with a new section {q(c, title)}: the sentence {q(c, para)}, bullet points "
                  + "; ".join(items) + f", then a table{en_c} with a bold header {head} and rows {rows}, captioned {q(c, cap)} above it",
                  f"add a {q(c, title)} section at the end with an intro line ({q(c, para)}), a bulleted list ("
                  + ", ".join(q(c, i) for i in items) + f") and below it a table{en_c}: bold headers {head}; {rows}; caption it {q(c, cap)} on top",
                  f"at the very end I need a {q(c, title)} section: one paragraph {q(c, para)}, then these bullets: " + "; ".join(items)
                  + f"; then a table{en_c} (header {head} in bold, rows {rows}) with the caption {q(c, cap)} above"],
                 [f"文末新增一节“{title}”：先写“{para}”，再用项目符号列出" + "、".join(f"“{i}”" for i in items)
                  + f"，最后放一个表格（表头{head_zh}加粗，数据{rows}），表格上方加题注“{cap}”{zh_c}",
                  f"在最后补一节“{title}”，正文一句“{para}”，下面是项目符号列表：" + "；".join(items)
                  + f"；再附一个表，表头加粗：{head_zh}，内容：{rows}，表上题注“{cap}”{zh_c}",
                  f"结尾加“{title}”部分：一段“{para}”、一个项目符号列表（" + "、".join(items)
                  + f"）和一个带题注“{cap}”的表格（表头{head_zh}加粗；{rows}）{zh_c}"])


@template("table", weight=1.0, multi_call=True)
def tidy_all_tables(c: Ctx) -> str:
    """Every table gets the same bold shaded header and is centred: two calls per table."""
    tables = [t for t in c.tables() if t["rows"] >= 2 and t["cells"] and all(h.strip() for h in t["cells"][0]) and not has_merged_cells(t)]
    if not 2 <= len(tables) <= 5 or len(tables) != len(c.tables()):
        raise Skip("tables")
    fname, fill = c.fill()
    for t in tables:
        c.run("set_header_row", table=t["id"], rows=1, bold=True, fill=fill)
        c.run("set_table_properties", table=t["id"], alignment="center")
    return c.say([f"make all the tables look the same: a bold header row on {fname}, and each table centred",
                  f"tidy up every table: bold {fname} header rows, tables centred on the page",
                  f"the tables are inconsistent; give each one a bold first row shaded {fname} and centre them all"],
                 [f"所有表格统一一下：表头加粗、{fname}底纹，表格都居中", f"把每个表格的表头都改成加粗并填{fname}，表格居中",
                  f"几个表格格式不统一，都改成表头加粗{fname}底纹、整表居中"])


@template("table", weight=0.9, multi_call=True)
def frame_table(c: Ctx) -> str:
    """One table fully styled: header, outer border, number alignment, width and centring (five calls)."""
    t = numeric_table(c)
    if t["id"] in c.fresh:
        raise Skip("a table this instruction made")
    ref = c.ref_table(t)
    fname, fill = c.fill()
    cname, col = c.colour()
    c.run("set_header_row", table=t["id"], rows=1, bold=True, fill=fill)
    c.run("set_table_borders", table=t["id"], style="double", color=col, scope="outside")
    c.run("set_cell_alignment", table=t["id"], cells={"from": [1, 1], "to": [t["rows"] - 1, t["cols"] - 1]}, horizontal="right")
    c.run("set_table_properties", table=t["id"], alignment="center")
    return c.say([f"smarten up {ref}: bold header on {fname}, a double {cname} outer border, numbers right-aligned (not the labels), and centre the table",
                  f"format {ref} properly - {fname} bold header row, {cname} double line around the outside, right-align the figures, table centred",
                  f"{ref} needs work: header bold and shaded {fname}, outside border double and {cname}, the numbers (not the first column or the header) right-aligned, whole table centred"],
                 [f"把{ref}好好排一下：表头加粗、{fname}底纹，外框{cname}双线，数字右对齐（首列和表头不动），表格居中",
                  f"{ref}格式整理：表头{fname}加粗，四周{cname}双线框，数据右对齐，整表居中",
                  f"{ref}调整一下：表头加粗并填{fname}，外边框用{cname}双线，数字靠右（不含首列和表头），表格放中间"])


@template("text", weight=0.8, multi_call=True)
def reorder_sections(c: Ctx) -> str:
    """The main sections put in a stated order: one move per section out of place."""
    heads = [h for h in c.headings(1) if c._unique_heading(h)]
    if not 3 <= len(heads) <= 6 or any(c.section_paragraphs(h["id"]) and len(c.section_paragraphs(h["id"])) > 8 for h in heads):
        raise Skip("sections")
    if any(t.get("after_paragraph") in {p["id"] for h in heads for p in c.section_paragraphs(h["id"])} | {h["id"] for h in heads}
           for t in c.st["tables"]):
        raise Skip("a table in a section")
    names = [h["text"].strip() for h in heads]
    order = names[:1] + list(reversed(names[1:])) if c.rng.random() < 0.5 else names[1:] + names[:1]
    current = list(names)
    by_name = {h["text"].strip(): h["id"] for h in heads}
    for k, name in enumerate(order):
        if current[k] == name:
            continue
        c.run("move_section", heading=by_name[name], position={"before": by_name[current[k]]})
        current.remove(name)
        current.insert(k, name)
    if len(c.calls) == 0:
        raise Skip("already in order")
    listed = ", ".join(q(c, n) for n in order)
    return c.say([f"reorder the main sections so they run {listed}", f"rearrange the document: the sections should go in this order: {listed}",
                  f"can the main sections be put in the order {listed}? move each with everything under it"],
                 [f"把几个一级章节的顺序调成：{'、'.join(order)}", "调整章节顺序，依次为" + "、".join(f"“{n}”" for n in order),
                  "一级标题下的各节按这个顺序排：" + "→".join(order) + "（整节连同内容一起移动）"])


@template("text", weight=0.8, multi_call=True)
def sign_off_block(c: Ctx) -> str:
    """A closing block at the end: three lines, the name bold and the role italic (five calls)."""
    person = c.pick(content()["people"][c.dl])
    role = c.pick(content()["variety"][c.dl]["roles"])
    closing = c.pick(["Kind regards,", "Yours sincerely,", "Best wishes,"]) if c.dl == "en" else c.pick(["此致", "特此说明。", "谢谢！"])
    if any(p["text"].strip() == person for p in c.paragraphs()):
        raise Skip("name already there")
    a = c.run("insert_paragraph", text=closing, position="end").created[0]
    b = c.run("insert_paragraph", text=person, position={"after": a}).created[0]
    d = c.run("insert_paragraph", text=role, position={"after": b}).created[0]
    c.run("set_text_format", paragraphs=[b], bold=True)
    c.run("set_text_format", paragraphs=[d], italic=True)
    return c.say([f"end the document with a sign-off: {q(c, closing)}, then {q(c, person)} in bold, then {q(c, role)} in italics, each on its own line",
                  f"add a closing block at the bottom - {q(c, closing)} / {q(c, person)} (bold) / {q(c, role)} (italic), three separate paragraphs",
                  f"put our sign-off at the very end: first {q(c, closing)}, below it the name {q(c, person)} in bold and under that {q(c, role)} in italic"],
                 [f"文末加落款：先写“{closing}”，下一行“{person}”（加粗），再下一行“{role}”（斜体），各占一段",
                  f"最后补上结尾三行：“{closing}”、“{person}”加粗、“{role}”斜体，分三段", f"在全文最后加署名块：“{closing}”/“{person}”（粗体）/“{role}”（斜体），每项单独一段"])


@template("layout", weight=0.8, multi_call=True)
def sections_on_new_pages(c: Ctx) -> str:
    heads = [h for h in c.headings(1)][1:]
    if not 2 <= len(heads) <= 6:
        raise Skip("count")
    ids = [p["id"] for p in c.paragraphs()]
    for h in heads:
        prev = c.paragraphs()[ids.index(h["id"]) - 1] if ids.index(h["id"]) > 0 else None
        if prev is not None and not prev["text"].strip():
            raise Skip("empty paragraph or page break before heading")
    for h in heads:
        c.run("insert_page_break", position={"before": h["id"]})
    return c.say(["start every main section except the first on a new page (page breaks before those level-1 headings)",
                  "put a page break before each level-1 heading after the first, so each main section begins a page",
                  "each main section from the second on should open on a new page; insert page breaks before those headings"],
                 ["除第一节外，每个一级标题前都插入分页符，让各节从新页开始", "从第二个一级标题起，每个前面加分页符，各节另起一页", "除了第一节，其他一级标题都从新的一页开始（插分页符）"])


@template("format", weight=0.8)
def colour_all_h1(c: Ctx) -> str:
    heads = c.headings(1)
    if len(heads) < 2:
        raise Skip("few")
    cname, col = c.colour()
    c.run("set_text_format", paragraphs=[h["id"] for h in heads], color=col)
    return c.say([f"colour all the main (level-1) headings {cname}, leaving the style itself alone", f"make every level-1 heading {cname} (format the headings directly, not the style)",
                  f"change the text colour of each Heading 1 paragraph to {cname}; don't touch the style definition"],
                 [f"把所有一级标题的文字设为{cname}（只改这些标题，不改样式）", f"每个一级标题的字体颜色都改成{cname}，样式定义不动", f"一级标题全部直接改成{cname}（不要改样式）"])


@template("text", weight=0.9, undoing=True, multi_call=True)
def delete_empty_paragraphs(c: Ctx) -> str:
    paras = c.paragraphs()
    ids = [p["id"] for p in paras]
    drawing_paras = {i.get("paragraph") for i in c.st["images"]}
    after_table = {paras[ids.index(t["after_paragraph"]) + 1]["id"] for t in c.st["tables"]
                   if t.get("after_paragraph") in ids and ids.index(t["after_paragraph"]) + 1 < len(paras)}
    empties = [p for p in paras[:-1] if not p["text"].strip() and p["id"] not in drawing_paras and not p.get("list")
               and p["id"] not in after_table and not any(t.get("after_paragraph") == p["id"] for t in c.st["tables"])
               and p.get("style") in ("Normal", None)]
    if not 2 <= len(empties) <= 8:
        raise Skip("count")
    for p in empties:
        c.run("delete_block", block=p["id"])
    return c.say(["delete all the empty paragraphs in the body", "get rid of the blank lines (empty paragraphs) in the document body", "clean up the stray empty paragraphs in the text"],
                 ["删除正文里所有的空段落", "把文档正文中的空行（空段落）都删掉", "正文里多余的空行清理掉"])


@template("text", weight=0.6, multi_call=True)
def address_block(c: Ctx) -> str:
    if c.kind not in ("letter", "contract", "form"):
        raise Skip("a sender address belongs in letters, contracts and forms")
    first = c.paragraphs()[0]
    lines = (["Northwind Logistics", "12 Harbour Road", "Bristol BS1 4QA"] if c.dl == "en" else ["华星物流有限公司", "上海市浦东新区港湾路12号", "邮编：200120"])
    if any(p["text"].strip() == lines[1] for p in c.paragraphs()):
        raise Skip("exists")
    prev = first["id"]
    for line in lines:
        prev = c.run("insert_paragraph", text=line, position={"after": prev}, alignment="right").created[0]
    return c.say([f"under the first line, add our address as three right-aligned lines: {q(c, lines[0])}, {q(c, lines[1])}, {q(c, lines[2])}",
                  f"below the opening line, put our address on three lines, aligned right: {q(c, lines[0])} / {q(c, lines[1])} / {q(c, lines[2])}",
                  f"insert the sender address after the first line, right-aligned, one line each: {q(c, lines[0])}, {q(c, lines[1])}, {q(c, lines[2])}"],
                 [f"在第一行下面加上我们的地址，分三行右对齐：“{lines[0]}”、“{lines[1]}”、“{lines[2]}”", f"第一行之后插入寄件地址，三行、右对齐：“{lines[0]}”/“{lines[1]}”/“{lines[2]}”",
                  f"开头第一行下面补上我方地址（每行一项，靠右）：“{lines[0]}”、“{lines[1]}”、“{lines[2]}”"])


@template("text", weight=0.7, multi_call=True)
def two_replacements(c: Ctx) -> str:
    cands = replacements(c)
    if len(cands) < 2:
        raise Skip("few")
    (o1, n1), (o2, n2) = c.rng.sample(cands, 2)
    if o1 in n2 or o2 in n1 or o1 in o2 or o2 in o1:
        raise Skip("overlap")
    for o, n in ((o1, n1), (o2, n2)):
        replace_everywhere(c, o, n)
    return c.say([f"throughout the document, replace {q(c, o1)} with {q(c, n1)} and {q(c, o2)} with {q(c, n2)}", f"change every {q(c, o1)} to {q(c, n1)}, and every {q(c, o2)} to {q(c, n2)}",
                  f"two wording changes everywhere: {q(c, o1)} becomes {q(c, n1)}, {q(c, o2)} becomes {q(c, n2)}"],
                 [f"全文把“{o1}”换成“{n1}”，“{o2}”换成“{n2}”", f"文中所有“{o1}”改为“{n1}”，所有“{o2}”改为“{n2}”", f"统一用词：“{o1}”→“{n1}”，“{o2}”→“{n2}”"])
