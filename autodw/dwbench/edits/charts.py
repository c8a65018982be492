"""Templates that make charts and change their data, type, title, legend and size."""

from __future__ import annotations

from autodw.dwbench.context import Ctx, Skip
from autodw.dwbench.edits.helpers import created_id, fmt_num, named, num, numeric_table, place, prefer, q
from autodw.dwbench.edits.template import template


@template("table", weight=1.2)
def chart_from_table(c: Ctx) -> str:
    t = numeric_table(c)
    if t["cols"] > 6 or t["rows"] > 8:
        raise Skip("size")
    ctype = c.rng.choice(["column", "bar", "line"])
    cats = [h.strip() for h in t["cells"][0][1:]]
    series = [{"name": r[0].strip(), "values": [num(v) if not float(num(v)).is_integer() else int(num(v)) for v in r[1:]]} for r in t["cells"][1:]]
    title = c.pick(["Overview", "Figures by period", "Comparison"] if c.dl == "en" else ["数据概览", "分期数据", "对比"])
    ref = c.ref_table(t)
    res = c.run("insert_chart", position={"after": t["id"]}, chart_type=ctype, categories=cats, series=series, title=title)
    c.memory["chart"] = created_id(res, "chart")
    names = {"column": ("column", "柱形图"), "bar": ("bar", "条形图"), "line": ("line", "折线图")}[ctype]
    return c.say([f"right below {ref}, add a {names[0]} chart of its data (one series per row, the column headers as categories) titled {q(c, title)}",
                  f"chart {ref} as a {names[0]} chart placed just under it: rows as series, column headers as categories, title {q(c, title)}",
                  f"I'd like to see {ref} as a {names[0]} chart underneath it, titled {q(c, title)} (each row a series, headers as the categories)"],
                 [f"在{ref}下方插入一个{names[1]}，用表中数据（每行一个系列，表头作分类），标题为“{title}”",
                  f"用{ref}的数据在它下面生成{names[1]}，每行是一个系列、表头是分类，图表标题“{title}”",
                  f"把{ref}做成{names[1]}放在表格下面，标题写“{title}”（行作系列，表头作分类）"])


@template("visual", weight=0.8)
def new_chart(c: Ctx) -> str:
    if c.kind in ("cv", "letter", "form", "contract"):
        raise Skip("a regional share chart does not belong in this kind of document")
    where, pos = place(c)
    if c.dl == "en":
        cats, name, vals, title = ["North", "South", "East", "West"], "Share (%)", [35, 25, 22, 18], "Share by region"
    else:
        cats, name, vals, title = ["华北", "华南", "华东", "西部"], "占比（%）", [35, 25, 22, 18], "各区域占比"
    if any(ch.get("title") == title for ch in c.charts()):
        raise Skip("exists")
    ctype = c.rng.choice(["pie", "doughnut"])
    res = c.run("insert_chart", position=pos, chart_type=ctype, categories=cats, series=[{"name": name, "values": vals}], title=title, legend="r")
    c.memory["chart"] = created_id(res, "chart")
    pairs = ", ".join(f"{a} {b}%" for a, b in zip(cats, vals))
    return c.say([f"insert a {'pie' if ctype == 'pie' else 'doughnut'} chart {where} titled {q(c, title)} showing {pairs}, legend on the right",
                  f"{where}, add a {'pie' if ctype == 'pie' else 'doughnut'} chart {q(c, title)} with these shares: {pairs} (legend at the right)",
                  f"I need a {'pie' if ctype == 'pie' else 'doughnut'} chart {where}: title {q(c, title)}, data {pairs}, legend on the right-hand side"],
                 [f"{where}插入{'饼图' if ctype == 'pie' else '圆环图'}，标题“{title}”，数据为{pairs}，图例放右边",
                  f"{where}加一个{'饼图' if ctype == 'pie' else '圆环图'}“{title}”，各项占比：{pairs}，图例在右侧",
                  f"{where}做一个{'饼图' if ctype == 'pie' else '圆环图'}，标题写“{title}”，数据{pairs}，图例靠右"])


def _chart(c: Ctx) -> dict:
    return prefer(c, [ch for ch in c.charts() if ch.get("categories") and ch.get("series")], "chart")


@template("visual", weight=0.7)
def chart_update_value(c: Ctx) -> str:
    ch, ref = named(c, _chart(c))
    s = ch["series"][0]
    k = c.rng.randrange(len(ch["categories"]))
    if s["values"][k] is None:
        raise Skip("gap")
    new = s["values"][k] + c.rng.choice([3, 5, -4, 10])
    series = [dict(x) for x in ch["series"]]
    series[0] = {"name": s["name"], "values": [new if i == k else v for i, v in enumerate(s["values"])]}
    c.run("update_chart_data", chart=ch["id"], categories=ch["categories"], series=series)
    return c.say([f"in {ref}, change the {ch['categories'][k]} value of {q(c, s['name'])} to {fmt_num(new)}",
                  f"update {ref}: {s['name']} for {ch['categories'][k]} is now {fmt_num(new)}",
                  f"the {ch['categories'][k]} figure of {q(c, s['name'])} in {ref} should read {fmt_num(new)}"],
                 [f"{ref}里“{s['name']}”在{ch['categories'][k]}的数值改为{fmt_num(new)}", f"更新{ref}：{ch['categories'][k]}的“{s['name']}”改成{fmt_num(new)}",
                  f"{ref}中{ch['categories'][k]}这一项的“{s['name']}”应为{fmt_num(new)}"])


@template("visual", weight=0.6)
def chart_add_category(c: Ctx) -> str:
    ch = _chart(c)
    if len(ch["series"]) > 2 or ch.get("chart_type") in ("pie", "doughnut", "scatter"):
        raise Skip("shape")
    ref = c.ref_chart(ch)
    cat = "Next" if c.dl == "en" else "下期"
    if cat in ch["categories"]:
        raise Skip("exists")
    vals = [c.rng.randrange(5, 100) for _ in ch["series"]]
    series = [{"name": s["name"], "values": list(s["values"]) + [v]} for s, v in zip(ch["series"], vals)]
    c.run("update_chart_data", chart=ch["id"], categories=list(ch["categories"]) + [cat], series=series)
    vs = ", ".join(f"{s['name']} {v}" for s, v in zip(ch["series"], vals))
    return c.say([f"add a category {q(c, cat)} at the end of {ref} with {vs}", f"extend {ref} with one more category, {q(c, cat)}: {vs}",
                  f"{ref} needs a final category {q(c, cat)} ({vs})"],
                 [f"给{ref}末尾增加分类“{cat}”，数值：{vs}", f"{ref}最后再加一个分类“{cat}”，数据为{vs}", f"在{ref}里追加“{cat}”这一类：{vs}"])


@template("visual", weight=0.8)
def chart_type(c: Ctx) -> str:
    ch, ref = named(c, _chart(c))
    new = c.pick([t for t in ("line", "column", "bar", "area") if t != ch.get("chart_type")])
    c.run("change_chart_type", chart=ch["id"], chart_type=new)
    zh = {"line": "折线图", "column": "柱形图", "bar": "条形图", "area": "面积图"}[new]
    return c.say([f"turn {ref} into a {new} chart", f"show {ref} as a {new} chart instead", f"a {new} chart would read better: change the type of {ref}"],
                 [f"把{ref}改成{zh}", f"{ref}换成{zh}", f"{ref}的图表类型改为{zh}"])


@template("visual", weight=0.7)
def chart_title(c: Ctx) -> str:
    ch, ref = named(c, _chart(c))
    title = c.pick(["Results at a glance", "Trend over the year", "Key figures"] if c.dl == "en" else ["结果一览", "全年走势", "关键数据"])
    if ch.get("title") == title:
        raise Skip("same")
    c.run("set_chart_title", chart=ch["id"], title=title)
    return c.say([f"retitle {ref} {q(c, title)}", f"change the title of {ref} to {q(c, title)}", f"{ref} should be titled {q(c, title)}"],
                 [f"把{ref}的标题改成“{title}”", f"{ref}的图表标题换成“{title}”", f"{ref}标题改为“{title}”"])


@template("visual", weight=0.6)
def chart_legend(c: Ctx) -> str:
    ch, ref = named(c, _chart(c))
    pos = c.pick([p for p in ("r", "t", "none") if p != ch.get("legend")])
    c.run("set_chart_legend", chart=ch["id"], position=pos)
    en = {"r": "move the legend of {} to the right", "t": "put the legend of {} at the top", "none": "hide the legend of {}"}[pos]
    en2 = {"r": "the legend of {} belongs on the right-hand side", "t": "show the legend of {} above the plot", "none": "{} doesn't need a legend; turn it off"}[pos]
    en3 = {"r": "place the legend of {} at the right", "t": "move the legend of {} to the top", "none": "remove the legend from {}"}[pos]
    zh = {"r": "{}的图例放到右侧", "t": "{}的图例移到上方", "none": "隐藏{}的图例"}[pos]
    zh2 = {"r": "把{}的图例挪到右边", "t": "{}的图例改为显示在顶部", "none": "{}不需要图例，关掉"}[pos]
    zh3 = {"r": "{}图例位置改成靠右", "t": "把{}的图例放在图表上方", "none": "去掉{}的图例"}[pos]
    return c.say([en.format(ref), en2.format(ref), en3.format(ref)], [zh.format(ref), zh2.format(ref), zh3.format(ref)])


@template("visual", weight=0.5)
def chart_size(c: Ctx) -> str:
    ch, ref = named(c, _chart(c))
    w = c.pick([x for x in ("10cm", "12cm", "14cm") if abs(float(x[:-2]) - ch["width_cm"]) > 0.5])
    c.run("resize_chart", chart=ch["id"], width=w)
    return c.say([f"make {ref} {w.replace('cm', ' cm')} wide (keep its proportions)", f"resize {ref} to a width of {w.replace('cm', ' cm')}, scaled proportionally",
                  f"{ref} should be {w.replace('cm', ' cm')} wide, same aspect ratio"],
                 [f"{ref}宽度调整为{w.replace('cm', '厘米')}，等比缩放", f"把{ref}缩放到宽{w.replace('cm', '厘米')}，保持比例", f"{ref}宽度改成{w.replace('cm', '厘米')}（高度按比例）"])


@template("visual", weight=0.4, undoing=True)
def chart_delete(c: Ctx) -> str:
    ch, ref = named(c, c.pick(c.charts()))
    c.run("delete_chart", chart=ch["id"])  # the paragraph stays, as in Word: the words do not ask to remove it
    c.memory.pop("chart", None)
    return c.say([f"delete {ref}", f"remove {ref}, we don't need it", f"take {ref} out of the document"], [f"删除{ref}", f"{ref}不需要了，删掉", f"把{ref}从文档里去掉"])
