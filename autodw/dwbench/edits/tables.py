"""Templates that add, change, format, sort and split tables."""

from __future__ import annotations

from autodw.dwbench.context import Ctx, Skip, has_cjk
from autodw.dwbench.documents import content
from autodw.dwbench.edits.helpers import (absent_table, created_id, fitting, fmt_num, labelled_row, named, num,
                                          numeric_table, place, plain_table, q, table_words)
from autodw.dwbench.edits.template import template
from autodw.dwbench.validate import computed_column


@template("table", weight=1.5)
def add_table(c: Ctx) -> str:
    data = c.pick(fitting(c, "tables"))
    absent_table(c, data)
    where, pos = place(c)
    res = c.run("insert_table", position=pos, data=data, style="Table Grid", header_row=True)
    c.memory["table"] = created_id(res, "t")
    head, head_zh, rows = table_words(data)
    return c.say([f"insert a table {where} with the columns {head} (header row in bold) and these rows: {rows}",
                  f"{where}, add a {len(data)}-row table: bold header {' | '.join(data[0])}, then {rows}",
                  f"I need a small table {where}: bold headers {head}; rows {rows}"],
                 [f"{where}插入一个表格，表头为{head_zh}（加粗），内容依次为：{rows}",
                  f"{where}加一个{len(data)}行的表格，第一行是加粗的表头“{' | '.join(data[0])}”，下面几行：{rows}",
                  f"{where}做个小表格：表头{head_zh}加粗，数据为{rows}"])


@template("table", weight=0.6, undoing=True)
def delete_table(c: Ctx) -> str:
    t, ref = named(c, c.pick(c.tables()))
    c.run("delete_table", table=t["id"])
    c.memory.pop("table", None)
    return c.say([f"delete {ref}", f"remove {ref} entirely", f"we don't need {ref} any more, delete it"], [f"删除{ref}", f"把{ref}整个删掉", f"{ref}用不着了，整个删除"])


@template("table", weight=1.2)
def change_cell(c: Ctx) -> str:
    t = numeric_table(c)
    if computed_column(t) is not None:
        raise Skip("a cell of a table with a Total column: the total would no longer add up")
    r = c.rng.randrange(1, t["rows"])
    col = c.rng.randrange(1, t["cols"])
    old = t["cells"][r][col]
    delta = c.rng.choice([5, 10, -5, 15, 20])
    if num(old) + delta < 0 or (num(old) < 20 and abs(delta) > 5):
        delta = c.rng.choice([1, 2]) if num(old) < 20 else 5
    new = fmt_num(num(old) + delta)
    ref = c.ref_table(t)
    c.run("set_cell_text", table=t["id"], row=r, col=col, text=new)
    rl, cl = t["cells"][r][0].strip(), t["cells"][0][col].strip()
    return c.say([f"in {ref}, change the {cl} figure for {rl} from {old} to {new}", f"correct {ref}: {rl} / {cl} should be {new}, not {old}",
                  f"there's a typo in {ref}: the {cl} value for {rl} is {new}, not {old}"],
                 [f"{ref}中“{rl}”的“{cl}”一栏由{old}改为{new}", f"更正{ref}：{rl}的{cl}应为{new}，不是{old}",
                  f"{ref}里{rl}那一行的{cl}写错了，{old}改成{new}"])


@template("table", weight=0.8)
def fill_form(c: Ctx) -> str:
    cands = [t for t in c.tables() if t["cols"] == 2 and sum(1 for r in t["cells"][1:] if not r[1].strip()) >= 2]
    t = c.pick(cands)
    person = c.pick(content()["people"][c.dl])
    values = {"en": [person, "Operations", "555-0142", "staff@example.org"], "zh": [person, "运营部", "021-5550142", "staff@example.org"]}[c.dl]
    blank = [i for i, r in enumerate(t["cells"]) if i > 0 and not r[1].strip()]
    first = blank[0]
    rows = [i for i in range(first, t["rows"])]
    data = [[values[k % len(values)] if t["cells"][i][1].strip() == "" else None] for k, i in enumerate(rows)]
    ref = c.ref_table(t)
    c.run("fill_table", table=t["id"], data=data, start_row=first, start_col=1)
    pairs = [f"{t['cells'][i][0].strip()}: {d[0]}" if c.lang == "en" else f"{t['cells'][i][0].strip()}填“{d[0]}”" for i, d in zip(rows, data) if d[0] is not None]
    return c.say([f"fill in the answer column of {ref} — " + "; ".join(pairs), f"complete {ref} with these entries: " + "; ".join(pairs),
                  f"write the following into the blank cells of {ref}: " + "; ".join(pairs)],
                 [f"把{ref}的填写栏填上：" + "，".join(pairs), f"{ref}空着的格子请填好：" + "，".join(pairs), f"帮忙填写{ref}：" + "，".join(pairs)])


ROW_LABELS = {"Month": "July", "月份": "七月", "City": "Bath", "城市": "无锡", "Year group": "Year 8", "年级": "初二",
              "Year": None, "年份": None}


@template("table", weight=1.0)
def add_row(c: Ctx) -> str:
    t = numeric_table(c)
    first = t["cells"][0][0].strip()
    label = ROW_LABELS.get(first) or c.pick(["Other", "Training", "Travel"] if c.dl == "en" else ["其他", "培训", "差旅"])
    if any(r[0].strip() == label for r in t["cells"]):
        raise Skip("exists")
    vals = [str(c.rng.randrange(10, 99)) for _ in range(t["cols"] - 1)]
    ref = c.ref_table(t)
    c.run("insert_row", table=t["id"], index=t["rows"], data=[label] + vals)
    return c.say([f"add a row at the bottom of {ref} for {q(c, label)} with the values {', '.join(vals)}",
                  f"append a {q(c, label)} row to {ref}: {', '.join(vals)}", f"{ref} is missing {q(c, label)}; add it as the last row with {', '.join(vals)}"],
                 [f"在{ref}最后加一行“{label}”，数值依次为{'、'.join(vals)}", f"{ref}末尾追加“{label}”一行：{'、'.join(vals)}",
                  f"{ref}少了“{label}”，在最后补一行，数据是{'、'.join(vals)}"])


@template("table", weight=0.9, undoing=True)
def delete_row(c: Ctx) -> str:
    t = plain_table(c, 4)
    r, label = labelled_row(c, t)
    ref = c.ref_table(t)
    c.run("delete_row", table=t["id"], index=r)
    return c.say([f"remove the {q(c, label)} row from {ref}", f"delete the row for {q(c, label)} in {ref}", f"{q(c, label)} no longer applies; take its row out of {ref}"],
                 [f"删掉{ref}里“{label}”那一行", f"把{ref}中的“{label}”行删除", f"{ref}不再需要“{label}”这行，删掉"])


@template("table", weight=0.5)
def row_height(c: Ctx) -> str:
    t, ref = named(c, plain_table(c))
    h = c.rng.choice(["1cm", "0.8cm", "1.2cm"])
    c.run("set_row_height", table=t["id"], row=0, height=h, rule="at_least")
    return c.say([f"make the header row of {ref} at least {h.replace('cm', ' cm')} tall", f"give the first row of {ref} a minimum height of {h.replace('cm', ' cm')}",
                  f"the header of {ref} looks cramped: set its row height to at least {h.replace('cm', ' cm')}"],
                 [f"{ref}表头行的行高设为至少{h.replace('cm', '厘米')}", f"{ref}第一行行高最小值设成{h.replace('cm', '厘米')}",
                  f"{ref}的表头太挤了，行高调到至少{h.replace('cm', '厘米')}"])


@template("table", weight=0.5)
def all_rows_height(c: Ctx) -> str:
    t, ref = named(c, plain_table(c))
    h = c.rng.choice(["0.7cm", "0.9cm"])
    c.run("set_row_height", table=t["id"], row="all", height=h, rule="exact")
    return c.say([f"set every row of {ref} to exactly {h.replace('cm', ' cm')} high", f"give all rows in {ref} a fixed height of {h.replace('cm', ' cm')}",
                  f"make the rows of {ref} uniform: exactly {h.replace('cm', ' cm')} each"],
                 [f"{ref}所有行的行高固定为{h.replace('cm', '厘米')}", f"{ref}每一行的行高都设成固定值{h.replace('cm', '厘米')}",
                  f"把{ref}的行高统一固定为{h.replace('cm', '厘米')}"])


@template("table", weight=1.0)
def add_total_column(c: Ctx) -> str:
    t = numeric_table(c)
    if t["cols"] < 3 or t["cols"] > 6:
        raise Skip("cols")
    label = "Total" if c.dl == "en" else "合计"
    if label in t["cells"][0]:
        raise Skip("exists")
    totals = [fmt_num(sum(num(v) for v in r[1:])) for r in t["cells"][1:]]
    ref = c.ref_table(t)
    c.run("insert_column", table=t["id"], index=t["cols"], data=[label] + totals)
    return c.say([f"add a {q(c, label)} column on the right of {ref} with each row's sum", f"give {ref} a last column headed {q(c, label)} that adds up each row",
                  f"I'd like row totals in {ref}: a new rightmost column {q(c, label)}"],
                 [f"在{ref}最右边加一列“{label}”，填上每行的和", f"给{ref}末尾加一列“{label}”，数值为每一行相加的结果",
                  f"{ref}右侧新增“{label}”列，算出每行合计"])


@template("table", weight=0.7, undoing=True)
def delete_column(c: Ctx) -> str:
    t = plain_table(c)
    if t["cols"] < 3:
        raise Skip("cols")
    col = c.rng.randrange(1, t["cols"])
    head = t["cells"][0][col].strip()
    if t["cells"][0].count(t["cells"][0][col]) != 1:
        raise Skip("dup")
    ref = c.ref_table(t)
    c.run("delete_column", table=t["id"], index=col)
    return c.say([f"delete the {q(c, head)} column of {ref}", f"drop the {q(c, head)} column from {ref}", f"we don't report {q(c, head)} any more, so remove that column from {ref}"],
                 [f"删除{ref}的“{head}”列", f"把{ref}里“{head}”这一列去掉", f"{ref}不需要“{head}”这一栏了，整列删除"])


@template("table", weight=0.6)
def column_width(c: Ctx) -> str:
    t, ref = named(c, plain_table(c))
    w = c.rng.choice(["4cm", "5cm", "3.5cm"])
    c.run("set_column_width", table=t["id"], col=0, width=w)
    return c.say([f"make the first column of {ref} {w.replace('cm', ' cm')} wide", f"set the width of column one in {ref} to {w.replace('cm', ' cm')}",
                  f"the first column of {ref} should be exactly {w.replace('cm', ' cm')} wide"],
                 [f"{ref}第一列的列宽设为{w.replace('cm', '厘米')}", f"把{ref}首列宽度调成{w.replace('cm', '厘米')}", f"{ref}最左边一列列宽改为{w.replace('cm', '厘米')}"])


@template("table", weight=0.8, multi_call=True)
def title_row(c: Ctx) -> str:
    t = plain_table(c)
    if t["cols"] < 2:
        raise Skip("cols")
    title = c.pick(["Summary", "Figures for this year", "Key information"] if c.dl == "en" else ["汇总", "本年度数据", "主要信息"])
    ref = c.ref_table(t)
    c.run("insert_row", table=t["id"], index=0, data=[title] + [""] * (t["cols"] - 1))
    c.run("merge_cells", table=t["id"], first_row=0, first_col=0, last_row=0, last_col=t["cols"] - 1)
    c.memory["merged"] = t["id"]
    return c.say([f"add a title row {q(c, title)} at the top of {ref}, merged across all columns",
                  f"put a new first row in {ref} reading {q(c, title)}, with its cells merged into one",
                  f"{ref} needs a heading row on top: {q(c, title)} in a single merged cell spanning the table"],
                 [f"在{ref}最上面加一行标题“{title}”，并把这一行的单元格合并成一格", f"{ref}顶部插入一行“{title}”，整行合并单元格",
                  f"给{ref}加个标题行“{title}”，放在最上方，跨所有列合并"])


@template("table", weight=0.5, needs=("merged",), undoing=True)
def unmerge_title(c: Ctx) -> str:
    tid = c.memory.get("merged")
    t = next((x for x in c.st["tables"] if x["id"] == tid), None)
    if t is None:
        raise Skip("gone")
    ref = c.ref_table(t)
    c.run("split_cell", table=tid, row=0, col=0)
    c.memory.pop("merged")
    return c.say([f"undo the merge of the title row in {ref}: split it back into separate cells", f"split the merged title row of {ref} back into its cells",
                  f"the merged top row of {ref} should be separate cells again"],
                 [f"把{ref}标题行合并的单元格重新拆开", f"{ref}最上面合并过的那行拆回原来的单元格", f"取消{ref}标题行的单元格合并"])


@template("table", weight=0.5)
def split_cell_in_two(c: Ctx) -> str:
    t = plain_table(c, 3)
    if t["cols"] > 4:
        raise Skip("wide")
    r = t["rows"] - 1
    label = t["cells"][r][0].strip()
    ref = c.ref_table(t)
    c.run("split_cell", table=t["id"], row=r, col=t["cols"] - 1, cols=2)
    return c.say([f"split the last cell of the {q(c, label)} row in {ref} into two cells side by side",
                  f"in {ref}, divide the rightmost cell of the {label} row into two columns",
                  f"make the final cell of the {q(c, label)} row in {ref} two cells instead of one"],
                 [f"把{ref}中“{label}”行最后一个单元格拆分成左右两格", f"{ref}里“{label}”这行最右边的单元格拆成两列",
                  f"将{ref}“{label}”行的末尾单元格一分为二（左右）"])


@template("table", weight=1.3)
def style_header(c: Ctx) -> str:
    t, ref = named(c, plain_table(c))
    (fname, fill), (cname, col) = c.fill(), c.pick([("white", "white"), ("dark blue", "1F4E79")] if c.lang == "en" else [("白色", "white"), ("深蓝色", "1F4E79")])
    if fill in ("DDEBF7", "FFF2CC", "E2EFDA", "D9D9D9") and col == "white":
        col, cname = ("1F4E79", "dark blue") if c.lang == "en" else ("1F4E79", "深蓝色")
    c.run("set_header_row", table=t["id"], rows=1, bold=True, fill=fill, font_color=col)
    return c.say([f"make the header row of {ref} bold with a {fname} background and {cname} text, repeating on each page",
                  f"format the first row of {ref} as a header: bold, {cname} text on {fname}",
                  f"style the header of {ref}: {fname} fill, bold {cname} lettering, and repeat it when the table runs onto a new page"],
                 [f"{ref}的第一行设为标题行：加粗、{fname}底纹、{cname}字，跨页重复", f"把{ref}表头设置成{fname}底色、{cname}加粗文字",
                  f"{ref}表头改成{fname}背景、{cname}粗体，并设为跨页重复的标题行"])


@template("table", weight=0.9)
def shade_row(c: Ctx) -> str:
    t = plain_table(c, 3)
    r, label = labelled_row(c, t)
    fname, fill = c.fill()
    ref = c.ref_table(t)
    c.run("set_cell_shading", table=t["id"], cells={"row": r}, fill=fill)
    return c.say([f"shade the {q(c, label)} row of {ref} in {fname}", f"highlight the {q(c, label)} row in {ref} with a {fname} fill",
                  f"give the {q(c, label)} row of {ref} a {fname} background so it stands out"],
                 [f"{ref}中“{label}”这一行加{fname}底纹", f"把{ref}里“{label}”行的底色设为{fname}", f"{ref}的“{label}”行用{fname}填充，突出一下"])


@template("table", weight=0.8)
def align_numbers(c: Ctx) -> str:
    t, ref = named(c, numeric_table(c))
    h = c.rng.choice(["right", "center"])
    c.run("set_cell_alignment", table=t["id"], cells={"from": [1, 1], "to": [t["rows"] - 1, t["cols"] - 1]}, horizontal=h)
    return c.say([f"{'right-align' if h == 'right' else 'centre'} the numbers in {ref} (not the labels or the header)",
                  f"in {ref}, {'align the figures to the right' if h == 'right' else 'centre the figures'}, leaving the header row and first column alone",
                  f"the numeric cells of {ref} should be {'right-aligned' if h == 'right' else 'centred'} (header and labels unchanged)"],
                 [f"{ref}里的数字（不含表头和第一列）{'右对齐' if h == 'right' else '居中'}", f"{ref}的数据单元格{'右对齐' if h == 'right' else '居中对齐'}，表头和首列不动",
                  f"把{ref}中除表头、首列以外的数字都{'靠右' if h == 'right' else '居中'}"])


@template("table", weight=0.5)
def center_cells_vertically(c: Ctx) -> str:
    t, ref = named(c, plain_table(c))
    c.run("set_cell_alignment", table=t["id"], cells="all", horizontal="center", vertical="center")
    return c.say([f"centre all the text in {ref}, both horizontally and vertically", f"centre every cell of {ref} both ways",
                  f"in {ref}, put the text in the middle of each cell, across and top to bottom"],
                 [f"{ref}所有单元格文字水平、垂直都居中", f"{ref}的每个单元格都设成水平垂直居中", f"把{ref}里的文字在格子里上下左右都居中"])


@template("table", weight=0.9)
def table_borders(c: Ctx) -> str:
    t, ref = named(c, c.pick(c.tables()))
    style = c.rng.choice(["double", "thick", "single"])
    cname, col = c.colour()
    names = {"en": {"double": "a double", "thick": "a thick", "single": "a 1.5 pt"}, "zh": {"double": "双线", "thick": "粗线", "single": "1.5磅单线"}}
    args = dict(table=t["id"], style=style, color=col, scope="outside")
    if style == "single":
        args["size_pt"] = 1.5
    c.run("set_table_borders", **args)
    return c.say([f"give {ref} {names['en'][style]} {cname} outer border", f"put {names['en'][style]} {cname} border around the outside of {ref}",
                  f"frame {ref} with {names['en'][style]} {cname} line on the outside edges only"],
                 [f"给{ref}加{cname}{names['zh'][style]}外框", f"{ref}外边框设为{cname}{names['zh'][style]}", f"{ref}四周外框改成{cname}的{names['zh'][style]}"])


@template("table", weight=0.4)
def remove_inner_borders(c: Ctx) -> str:
    t, ref = named(c, c.pick(c.tables()))
    c.run("set_table_borders", table=t["id"], style="none", scope="inside_vertical")
    return c.say([f"remove the vertical lines inside {ref}", f"take out the inner vertical borders of {ref}",
                  f"{ref} looks busy: drop the vertical lines between its columns"],
                 [f"去掉{ref}内部的竖线", f"{ref}内部的竖边框不要了", f"把{ref}列与列之间的竖线删掉"])


@template("table", weight=0.8)
def center_table(c: Ctx) -> str:
    t, ref = named(c, c.pick(c.tables()))
    opt = c.rng.random()
    if opt < 0.5:
        c.run("set_table_properties", table=t["id"], alignment="center")
        return c.say([f"centre {ref} on the page", f"put {ref} in the middle of the page", f"{ref} sits on the left; centre it horizontally"],
                 [f"{ref}在页面上居中", f"把{ref}整体居中", f"{ref}现在靠左，改成水平居中"])
    w = c.rng.choice(["14cm", "12cm", "15cm"])
    c.run("set_table_properties", table=t["id"], width=w, autofit=False)
    return c.say([f"make {ref} {w.replace('cm', ' cm')} wide with fixed column widths", f"set {ref} to a fixed width of {w.replace('cm', ' cm')} (no autofit)",
                  f"{ref} should be exactly {w.replace('cm', ' cm')} wide, turn off autofit"],
                 [f"把{ref}的总宽度设为{w.replace('cm', '厘米')}，列宽固定", f"{ref}宽度固定为{w.replace('cm', '厘米')}，不要自动调整",
                  f"{ref}整体宽{w.replace('cm', '厘米')}，关闭自动调整列宽"])


@template("table", weight=0.5)
def table_style(c: Ctx) -> str:
    t, ref = named(c, c.pick(c.tables()))
    style = c.rng.choice(["Light Grid Accent 1", "Light List Accent 1", "Medium Shading 1 Accent 1"])
    if t.get("style") == style:
        raise Skip("same")
    c.run("set_table_properties", table=t["id"], style=style)
    return c.say([f"apply the {q(c, style)} table style to {ref}", f"give {ref} the built-in {style} style",
                  f"restyle {ref} with Word's {q(c, style)} table style"],
                 [f"给{ref}套用“{style}”表格样式", f"{ref}改用内置表格样式“{style}”", f"把{ref}的表格样式换成“{style}”"])


@template("table", weight=1.0)
def sort_rows(c: Ctx) -> str:
    t = numeric_table(c)
    col = c.rng.randrange(1, t["cols"])
    vals = [num(r[col]) for r in t["cells"][1:]]
    desc = c.rng.random() < 0.6
    if vals == sorted(vals, reverse=desc) or len(set(vals)) < len(vals):
        raise Skip("already sorted or ties")
    head = t["cells"][0][col].strip()
    ref = c.ref_table(t)
    c.run("sort_table", table=t["id"], column=col, ascending=not desc, header_rows=1)
    return c.say([f"sort {ref} by {head}, {'highest first' if desc else 'lowest first'} (keep the header at the top)",
                  f"order the rows of {ref} by the {head} column, {'largest to smallest' if desc else 'smallest to largest'}, header row staying put",
                  f"re-sort {ref} on {head} ({'descending' if desc else 'ascending'}), leaving the header where it is"],
                 [f"{ref}按“{head}”{'从高到低' if desc else '从低到高'}排序（表头不动）", f"把{ref}的数据行按“{head}”列{'降序' if desc else '升序'}排列，表头保留在第一行",
                  f"{ref}依“{head}”{'由大到小' if desc else '由小到大'}重新排一下，表头不参与排序"])


@template("table", weight=0.5)
def sort_by_name(c: Ctx) -> str:
    t = plain_table(c, 4)
    labels = [r[0] for r in t["cells"][1:]]
    if labels == sorted(labels) or len(set(labels)) < len(labels) or has_cjk("".join(labels)):
        raise Skip("sorted")
    ref = c.ref_table(t)
    c.run("sort_table", table=t["id"], column=0, ascending=True, header_rows=1, numeric=False)
    return c.say([f"put the rows of {ref} in alphabetical order of the first column", f"sort {ref} A to Z by its first column (header stays on top)",
                  f"alphabetise {ref} by the names in column one"],
                 [f"{ref}按第一列字母顺序排列", f"把{ref}按首列从A到Z排序（表头不动）", f"{ref}的各行按第一列的字母排序"])


@template("table", weight=0.5)
def split_tbl(c: Ctx) -> str:
    t = plain_table(c, 4)
    r, label = labelled_row(c, t, first=2)
    ref = c.ref_table(t)
    c.run("split_table", table=t["id"], row=r)
    return c.say([f"split {ref} into two tables, starting the second one at the {q(c, label)} row", f"break {ref} in two just above the {q(c, label)} row",
                  f"divide {ref} so the {q(c, label)} row begins a separate table"],
                 [f"把{ref}从“{label}”这一行开始拆成两个表格", f"{ref}在“{label}”行上方断开，分成两个表", f"将{ref}拆分为两个表格，第二个表从“{label}”行开始"])
