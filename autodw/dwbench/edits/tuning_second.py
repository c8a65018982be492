"""A second set of tuning-only templates, by another hand: a footnote on quoted words, a heading bookmarked and referred
to, numbered captions and text wrapping for pictures and charts, one column's width, a row shaded by its label, rows
sorted by a column, a table split or copied, the font of a few paragraphs, of the document and the colour of the main
headings, page numbers in the footer, two newspaper columns and Track Changes. Registered with ``tuning_only=True``:
dev and test never draw them (nor does the held-out draw count them); only the templated tuning split
``dev-outside-fourth`` does (``generate.TUNING_ONLY_SPLITS``), and it draws none of ``tuning.py``'s. Written without
looking at the templates test holds out or at the first set's phrasings, in their own words.

Every phrasing list has four entries, so a dev-like split (which never says the last of a list, ``Ctx.say``) still
has three ways to ask for each thing."""

from __future__ import annotations

import re

from autodw.dwbench.context import ORDINALS, Ctx, Skip, has_cjk, heading_level
from autodw.dwbench.edits.helpers import labelled_row, named, num, phrase_span, pick_body, plain_table, prefer, q
from autodw.dwbench.edits.template import template


def _cm(v: float, lang: str) -> str:
    return f"{v:g} cm" if lang == "en" else f"{v:g}厘米"


def _cm_value(text: str | None) -> float | None:
    m = re.fullmatch(r"([0-9.]+)cm", text or "")
    return float(m.group(1)) if m else None


def _acted_on(c: Ctx) -> set[str]:
    """Paragraphs and tables the instruction's earlier calls acted on (another clause reworking them reads oddly)."""
    out: set[str] = set()
    for call in c.calls:
        for key in ("paragraph", "paragraphs", "block", "table", "target"):
            v = call.args.get(key)
            out.update([v] if isinstance(v, str) else list(v or []))
    return out


# --------------------------------------------------------------------------- text
NOTES = {
    "en": ["Figures as at the end of the last quarter.", "Source: the finance team's monthly records.",
           "Still subject to approval by the board.", "An estimate; the final number will follow.",
           "As agreed at the planning meeting.", "Details are in the appendix.", "Excluding tax and delivery costs.",
           "Based on the survey carried out in spring."],
    "zh": ["数据截至上季度末。", "来源：财务部月度统计。", "尚待董事会批准。", "此为估计值，最终数据另行通知。", "依据规划会议上的决定。",
           "详情见附录。", "不含税费及运费。", "依据春季开展的调查。"],
}
"""Footnote texts, in the document's language."""


@template("text", weight=1.2, tuning_only=True)
def footnote_on_quoted_words(c: Ctx) -> str:
    """A footnote whose mark goes right after a phrase the user quotes from a named paragraph."""
    cands = [p for p in c.body() if p["id"] not in c.fresh and p["id"] not in _acted_on(c) and len(p["text"]) >= 20]
    p = prefer(c, cands, "para")
    phrase = phrase_span(p["text"], 4, 10) if has_cjk(p["text"]) else phrase_span(p["text"], 2, 5)
    if not phrase:
        raise Skip("no phrase to quote")
    end = p["text"].index(phrase) + len(phrase)
    notes = c.st["interactive"].get("footnotes") or []
    if any(n.get("paragraph") == p["id"] for n in notes):
        raise Skip("the paragraph has a footnote already")
    used = {n.get("text", "").strip() for n in notes}
    note = c.pick([n for n in NOTES[c.dl] if n not in used])
    ref = c.ref_para(p)
    c.run("insert_footnote", paragraph=p["id"], text=note, offset=end)
    return c.say([f"in {ref}, add a footnote after the words {q(c, phrase)} saying {q(c, note)}",
                  f"put a footnote on {q(c, phrase)} in {ref}; the note should read {q(c, note)}",
                  f"I'd like a footnote right after {q(c, phrase)} ({ref}) with the text {q(c, note)}",
                  f"footnote the phrase {q(c, phrase)} in {ref}: {q(c, note)}"],
                 [f"在{ref}的“{phrase}”后面加一个脚注，内容为{q(c, note)}", f"{ref}中“{phrase}”这几个字后插入脚注：{q(c, note)}",
                  f"给{ref}里的“{phrase}”加脚注，脚注写{q(c, note)}", f"{ref}“{phrase}”处加个脚注，注明{q(c, note)}"])


def _bookmark_name(c: Ctx, h: dict) -> str:
    words = re.findall(r"[A-Za-z0-9]+", h["text"])
    if not has_cjk(h["text"]) and words and words[0][0].isalpha():
        name = "_".join(words[:3])[:30]
    else:
        name = f"sec_{[x['id'] for x in c.headings()].index(h['id']) + 1}"
    if any(b.get("name", "").lower() == name.lower() for b in c.st["interactive"].get("bookmarks") or []):
        raise Skip("bookmark name taken")
    return name


@template("text", weight=0.8, tuning_only=True)
def bookmark_heading_and_refer(c: Ctx) -> str:
    """A heading bookmarked under a given name, and a "see ..." in brackets closing a body paragraph of another section
    (before its full stop), whose heading text or page number is a cross-reference to the bookmark."""
    heads = [h for h in c.headings() if c._unique_heading(h) and h["id"] not in c.fresh]
    h = c.pick(heads)
    acted = _acted_on(c)
    others = [p for p in c.body() if (c.heading_of(p["id"]) or {}).get("id") not in (None, h["id"])
              and p["id"] not in c.fresh and p["id"] not in acted]
    p = prefer(c, others, "para")
    text = p["text"].rstrip()
    if not text or text.endswith(("(", "（", ")", "）")):
        raise Skip("odd ending")
    at = len(text) - 1 if text[-1] in ".。!！" else len(text)
    name = _bookmark_name(c, h)
    head, pref = c.ref_heading(h), c.ref_para(p)
    page = c.rng.random() < 0.4
    if c.dl == "en":
        opening, closing = (" (see page ", ")") if page else (" (see ", ")")
    else:
        opening, closing = ("（见第", "页）") if page else ("（详见", "）")
    c.run("add_bookmark", name=name, paragraph=h["id"])
    c.run("insert_text", paragraph=p["id"], text=opening + closing, offset=at)
    c.run("insert_cross_reference", paragraph=p["id"], bookmark=name, show="page" if page else "text", offset=at + len(opening))
    if page:
        shown = f"{opening.lstrip()}N{closing}"
        return c.say([f"bookmark {head} as {name}, then close {pref} with {q(c, shown)}, N being a page-number cross-reference to that bookmark",
                      f"add a bookmark {name} on {head} and, at the end of {pref}, refer to its page: {q(c, shown)} with the page as a cross-reference",
                      f"at the end of {pref} add {q(c, shown)} pointing at {head}; bookmark the heading as {name} and make N a cross-reference to its page",
                      f"I want {pref} to end with {q(c, shown)}: bookmark {head} as {name} and insert its page number there as a cross-reference"],
                     [f"给{head}加书签 {name}，然后在{pref}末尾加{q(c, shown)}，N 用指向该书签页码的交叉引用",
                      f"{head}设书签“{name}”，在{pref}结尾注明{q(c, shown)}，页码以交叉引用插入",
                      f"先把{head}做成书签 {name}，再在{pref}句末写{q(c, shown)}，N 是该书签所在页的交叉引用",
                      f"{pref}末尾要加{q(c, shown)}：给{head}建书签 {name}，页码用交叉引用"])
    shown = f"{opening.lstrip()}{h['text'].strip()}{closing}"
    return c.say([f"bookmark {head} as {name}, then end {pref} with {q(c, shown)}, where the heading's name is a cross-reference to the bookmark",
                  f"add a bookmark {name} to {head} and point to it from {pref}: append {q(c, shown)} with the heading text as a cross-reference",
                  f"at the end of {pref} add a see-also to {head} ({q(c, shown)}) as a cross-reference, after bookmarking that heading as {name}",
                  f"I want {pref} to finish with {q(c, shown)}: bookmark {head} as {name} and make the heading text there a cross-reference to it"],
                 [f"给{head}加书签 {name}，然后在{pref}末尾加上{q(c, shown)}，其中标题文字用交叉引用指向该书签",
                  f"{head}设书签“{name}”，在{pref}最后补上{q(c, shown)}，标题名用交叉引用插入",
                  f"先把{head}做成书签 {name}，再在{pref}句末写{q(c, shown)}，括号里的标题是对书签的交叉引用",
                  f"{pref}末尾要加{q(c, shown)}：给{head}建书签 {name}，标题文字用交叉引用"])


# --------------------------------------------------------------------------- pictures and charts
CAPTIONS = {
    "en": ["Overview of the site", "How the process works", "The team at the launch", "Layout of the main office",
           "Results at a glance", "Where the money went"],
    "zh": ["现场概况", "流程示意", "启动仪式合影", "办公区布局", "结果一览", "经费去向"],
}


def _has_caption(c: Ctx, pid: str | None) -> bool:
    paras = c.paragraphs()
    ids = [p["id"] for p in paras]
    if pid not in ids:
        return True
    k = ids.index(pid)
    return any((paras[j].get("style") or "") == "Caption" for j in (k - 1, k + 1) if 0 <= j < len(paras))


@template("visual", weight=3.0, tuning_only=True)
def numbered_caption_for_visual(c: Ctx) -> str:
    """A numbered caption under a picture or above a chart (Word's Insert Caption)."""
    cands = [x for x in c.images() + c.charts() if not _has_caption(c, x.get("paragraph"))]
    el = prefer(c, cands, "image" if c.rng.random() < 0.5 else "chart")
    _, ref = named(c, el)
    text = c.pick(CAPTIONS[c.dl])
    if el.get("type") == "picture":
        c.run("insert_caption", target=el["id"], text=text, where="below")
        return c.say([f"add a numbered caption under {ref}: {q(c, text)}", f"caption {ref} with {q(c, text)}, numbered, below it",
                      f"put a figure caption {q(c, text)} beneath {ref} (use Word's numbered captions)",
                      f"below {ref}, insert an auto-numbered caption reading {q(c, text)}"],
                     [f"在{ref}下方加一个带编号的题注：{q(c, text)}", f"给{ref}插入图题注“{text}”，放在图片下面，自动编号",
                      f"{ref}下面加题注{q(c, text)}（用 Word 的编号题注）", f"为{ref}添加编号题注，文字为{q(c, text)}，位于图片下方"])
    c.run("insert_caption", target=el["id"], text=text, where="above")
    return c.say([f"add a numbered caption above {ref}: {q(c, text)}", f"put the caption {q(c, text)} over {ref}, with automatic numbering",
                  f"above {ref}, insert a figure caption reading {q(c, text)}", f"caption {ref} as {q(c, text)}; the caption goes on top of it"],
                 [f"在{ref}上方加一个带编号的题注：{q(c, text)}", f"给{ref}加题注“{text}”，放在图表上面，自动编号",
                  f"{ref}上面插入题注{q(c, text)}", f"为{ref}添加编号题注{q(c, text)}，位置在图表上方"])


@template("visual", weight=3.0, tuning_only=True)
def picture_wrapping(c: Ctx) -> str:
    """An inline picture set to float: square (on the left or right), tight, or in front of the text."""
    cands = [i for i in c.images() if i.get("placement") == "inline"]
    img, ref = named(c, prefer(c, cands, "image"))
    how = c.rng.choice(["square", "square", "tight", "in_front"])
    if how == "square":
        side = c.rng.choice(["left", "right"])
        c.run("set_image_wrap", image=img["id"], wrap="square", horizontal=side)
        zh_side = "左" if side == "left" else "右"
        return c.say([f"let the text wrap around {ref} (square wrapping), with the picture on the {side}",
                      f"set {ref} to square text wrapping and move it to the {side} side",
                      f"float {ref} on the {side} with the text flowing around it in a square",
                      f"wrap the text square around {ref}, picture aligned {side}"],
                     [f"{ref}设置为四周型环绕，靠{zh_side}放", f"把{ref}的文字环绕改成四周型，图片放在{zh_side}边",
                      f"让文字四周环绕{ref}，图片靠{zh_side}", f"{ref}改为四周型环绕，位置靠{zh_side}"])
    if how == "tight":
        c.run("set_image_wrap", image=img["id"], wrap="tight")
        return c.say([f"set the text wrapping of {ref} to tight", f"make the text hug {ref} (tight wrapping)",
                      f"change {ref} from in line with text to tight wrapping", f"give {ref} tight text wrapping"],
                     [f"{ref}的文字环绕方式设为紧密型", f"把{ref}改成紧密型环绕", f"{ref}不要嵌入型了，改为紧密型环绕", f"让文字紧密环绕{ref}"])
    c.run("set_image_wrap", image=img["id"], wrap="in_front")
    return c.say([f"put {ref} in front of the text", f"set {ref} to float in front of text", f"change the wrapping of {ref} to 'In front of text'",
                  f"let {ref} sit over the text (in front of text wrapping)"],
                 [f"把{ref}设为浮于文字上方", f"{ref}的环绕方式改成浮于文字上方", f"{ref}改为“浮于文字上方”", f"让{ref}浮在文字上面"])


# --------------------------------------------------------------------------- tables
def _header_col(c: Ctx, t: dict, first: int = 0) -> tuple[int, str]:
    """A column from `first` on whose header names it uniquely: (index, header text)."""
    cols = [k for k in range(first, t["cols"]) if t["cells"][0][k].strip() and len(t["cells"][0][k].strip()) <= 20
            and sum(1 for h in t["cells"][0] if h.strip() == t["cells"][0][k].strip()) == 1]
    k = c.pick(cols)
    return k, t["cells"][0][k].strip()


@template("table", weight=1.0, tuning_only=True)
def one_column_width(c: Ctx) -> str:
    """One column of a table set to a width in cm: the first column, or one named by its header."""
    t = plain_table(c)
    if t["id"] in _acted_on(c):
        raise Skip("the table was just reworked")
    first = c.rng.random() < 0.5
    k, head = (0, t["cells"][0][0].strip()) if first else _header_col(c, t)
    widths = [_cm_value(row[k].get("width")) for row in t.get("cell_details", []) if k < len(row) and isinstance(row[k], dict)]
    now = widths[0] if widths else None
    w = c.pick([x for x in (2, 2.5, 3, 3.5, 4, 5, 6) if now is None or abs(x - now) >= 0.5])
    ref = c.ref_table(t)
    c.run("set_column_width", table=t["id"], col=k, width=f"{w:g}cm")
    L = c.lang
    if first:
        return c.say([f"make the first column of {ref} {_cm(w, L)} wide", f"set the width of {ref}'s first column to {_cm(w, L)}",
                      f"the left-hand column of {ref} should be {_cm(w, L)} wide", f"change the first column in {ref} to a width of {_cm(w, L)}"],
                     [f"把{ref}第一列的宽度设为{_cm(w, L)}", f"{ref}的首列列宽改成{_cm(w, L)}", f"{ref}最左边那一列调成{_cm(w, L)}宽",
                      f"{ref}第一列宽度调整为{_cm(w, L)}"])
    return c.say([f"make the {q(c, head)} column of {ref} {_cm(w, L)} wide", f"set the {head} column in {ref} to {_cm(w, L)}",
                  f"in {ref}, the column headed {q(c, head)} should be {_cm(w, L)} wide", f"change the width of the {q(c, head)} column ({ref}) to {_cm(w, L)}"],
                 [f"把{ref}中“{head}”这一列的宽度设为{_cm(w, L)}", f"{ref}的“{head}”列列宽改成{_cm(w, L)}", f"{ref}里表头为“{head}”的那列调成{_cm(w, L)}宽",
                  f"{ref}“{head}”列的宽度调整为{_cm(w, L)}"])


@template("table", weight=1.0, tuning_only=True)
def tint_named_row(c: Ctx) -> str:
    """One body row of a table, named by its first cell, filled with a light colour."""
    t = plain_table(c, 3)
    r, label = labelled_row(c, t)
    cname, fill = c.fill()
    ref = c.ref_table(t)
    c.run("set_cell_shading", table=t["id"], cells={"row": r}, fill=fill)
    return c.say([f"shade the {q(c, label)} row of {ref} {cname}", f"give the row starting with {q(c, label)} in {ref} a {cname} background",
                  f"in {ref}, fill the whole {q(c, label)} row with {cname}", f"highlight the {label} row of {ref} with {cname} shading"],
                 [f"把{ref}中“{label}”这一行填充为{cname}", f"{ref}里以“{label}”开头的那一行加{cname}底纹", f"给{ref}的“{label}”行整行设置{cname}背景",
                  f"{ref}“{label}”那行的底色改成{cname}"])


_TOTAL = re.compile(r"^(total|totals|sum|grand total|合计|总计|小计|共计)\b", re.I)


@template("table", weight=1.0, tuning_only=True)
def reorder_rows_by_column(c: Ctx) -> str:
    """A table's body rows sorted by a column named by its header, up or down (numbers by value, words A-Z)."""
    t = plain_table(c, 4)
    body = t["cells"][1:]
    if _TOTAL.match(body[-1][0].strip()):
        raise Skip("a total row")
    k, head = _header_col(c, t)
    vals = [row[k].strip() for row in body]
    if not all(vals) or len(set(vals)) < len(vals):
        raise Skip("empty or repeated values")
    numeric = all(num(v) is not None for v in vals)
    if not numeric and any(has_cjk(v) or v[0].isdigit() for v in vals):
        raise Skip("Chinese words, dates or mixed values have no order users agree on")
    key = [num(v) if numeric else v.lower() for v in vals]
    up = c.rng.random() < 0.5
    if key == sorted(key, reverse=not up):
        raise Skip("already in that order")
    ref = c.ref_table(t)
    c.run("sort_table", table=t["id"], column=k, ascending=up)
    if numeric:
        en = "smallest first" if up else "largest first"
        zh = "从小到大" if up else "从大到小"
        return c.say([f"sort {ref} by the {q(c, head)} column, {en}", f"order the rows of {ref} by {head}, {en}",
                      f"re-sort {ref} on its {q(c, head)} column ({en}), keeping the header row at the top",
                      f"rearrange {ref} so the {q(c, head)} values go {en}"],
                     [f"{ref}按“{head}”列{zh}排序", f"把{ref}的行按“{head}”{zh}排列", f"{ref}以“{head}”这一列为准{zh}排序，表头不动",
                      f"{ref}按“{head}”的数值{zh}重新排一下"])
    en = "A to Z" if up else "Z to A"
    order = "alphabetical order" if up else "reverse alphabetical order"
    zh = "升序" if up else "降序"
    return c.say([f"sort {ref} by the {q(c, head)} column, {en}", f"put the rows of {ref} in {order} of {head}",
                  f"order {ref} by {q(c, head)} ({en}), header row staying on top",
                  f"re-sort {ref} on the {q(c, head)} column from {en}"],
                 [f"{ref}按“{head}”列{zh}排序（字母{'A到Z' if up else 'Z到A'}）", f"把{ref}按“{head}”的字母顺序{zh}排列",
                  f"{ref}的行按“{head}”{zh}排，表头保留在第一行", f"{ref}以“{head}”列为关键字{zh}排序"])


@template("table", weight=1.0, tuning_only=True)
def cut_or_copy_table(c: Ctx) -> str:
    """A table split in two before a row named by its first cell, or a copy of a table put at the end of the document."""
    if c.rng.random() < 0.5:
        t = plain_table(c, 4)
        r, label = labelled_row(c, t, first=2)
        ref = c.ref_table(t)
        c.run("split_table", table=t["id"], row=r)
        return c.say([f"split {ref} in two so that the second table starts with the {q(c, label)} row",
                      f"break {ref} into two tables just before the row {q(c, label)}",
                      f"cut {ref} in two at {q(c, label)}: that row and everything below it become a separate table",
                      f"divide {ref} into two tables, the split falling right above the {label} row"],
                     [f"把{ref}从“{label}”这一行起拆成两个表格", f"在{ref}的“{label}”行之前把表格一分为二",
                      f"{ref}从“{label}”行开始拆分，下面的行成为另一个表格", f"拆分{ref}：“{label}”及以下的行单独成表"])
    t = prefer(c, [x for x in c.tables() if x["id"] not in c.fresh], "table")
    _, ref = named(c, t)
    c.run("duplicate_block", block=t["id"], position="end")
    return c.say([f"copy {ref} to the end of the document", f"put a duplicate of {ref} at the very end",
                  f"make a copy of {ref} and place it at the bottom of the document", f"add a second copy of {ref} after everything else, at the end"],
                 [f"把{ref}复制一份放到文档末尾", f"在全文最后粘贴一份{ref}的副本", f"复制{ref}，放在文档的最后面", f"{ref}再复制一个，放到文末"])


# --------------------------------------------------------------------------- format
FONTS = {"en": ["Arial", "Georgia", "Calibri", "Times New Roman", "Verdana", "Cambria"],
         "zh": ["黑体", "楷体", "宋体", "微软雅黑", "仿宋"]}
SIZES = {"en": [10, 11, 12, 13, 14], "zh": [10.5, 12, 14]}


def _size(v: float, lang: str) -> str:
    return f"{v:g} pt" if lang == "en" else f"{v:g}磅"


def _font_args(c: Ctx, font: str) -> dict:
    return {"east_asia_font": font} if c.dl == "zh" else {"font": font}


@template("format", weight=1.0, tuning_only=True)
def font_of_some_paragraphs(c: Ctx) -> str:
    """Two or three body paragraphs, each named, set in another font (and sometimes size)."""
    n = c.rng.choice([2, 3])
    chosen: list[dict] = []
    for _ in range(n):
        chosen.append(pick_body(c, exclude=_acted_on(c) | {p["id"] for p in chosen}))
    chosen.sort(key=lambda p: [x["id"] for x in c.paragraphs()].index(p["id"]))
    refs = [c.ref_para(p, register=False) for p in chosen]
    c.mention("para", chosen[-1]["id"])
    if len(set(refs)) < len(refs) or any(r.startswith(("that same", "这一段")) for r in refs):
        raise Skip("paragraphs not told apart")
    font = c.pick(FONTS[c.dl])
    with_size = c.rng.random() < 0.4
    args = dict(paragraphs=[p["id"] for p in chosen], **_font_args(c, font))
    size = c.pick(SIZES[c.dl]) if with_size else None
    if size:
        args["size_pt"] = size
    c.run("set_text_format", **args)
    L = c.lang
    if L == "en":
        listed = ", ".join(refs[:-1]) + " and " + refs[-1]
    else:
        listed = "、".join(refs)
    tail_en = f", {_size(size, L)}" if size else ""
    tail_zh = f"，字号{_size(size, L)}" if size else ""
    return c.say([f"set {listed} in {font}{tail_en}", f"change the font of {listed} to {font}{tail_en}",
                  f"use {font}{tail_en} for these paragraphs: {listed}", f"{listed} should all be in {font}{tail_en}"],
                 [f"把{listed}的字体改成{font}{tail_zh}", f"{listed}这几段都设为{font}{tail_zh}", f"将{listed}的字体换成{font}{tail_zh}",
                  f"{listed}统一用{font}{tail_zh}"])


@template("format", weight=1.0, tuning_only=True)
def recolour_level_one_headings(c: Ctx) -> str:
    """Every level-1 heading in a colour, through the Heading 1 style (no heading has a colour of its own)."""
    h1 = [p for p in c.paragraphs() if heading_level(p) == 1]
    if len(h1) < 2 or any(r.get("color") for p in h1 for r in p.get("runs", [])):
        raise Skip("few main headings, or some coloured directly")
    cname, col = c.colour()
    c.run("modify_style", name="Heading 1", color=col)
    return c.say([f"make every level-1 heading {cname}", f"colour all the Heading 1 headings {cname}",
                  f"change the colour of the main (level 1) headings to {cname}, all of them",
                  f"I want all first-level headings in {cname}"],
                 [f"把所有一级标题改成{cname}", f"一级标题统一设为{cname}", f"全文的“标题 1”都改为{cname}字", f"所有一级标题的颜色换成{cname}"])


@template("format", weight=0.8, tuning_only=True)
def whole_document_font(c: Ctx) -> str:
    """The document's default font (and sometimes size) changed."""
    font = c.pick(FONTS[c.dl])
    defaults = c.st["styles"].get("defaults") or {}
    if font in (defaults.get("font"), defaults.get("east_asia_font")):
        raise Skip("already the default")
    args = _font_args(c, font)
    size = c.pick(SIZES[c.dl]) if c.rng.random() < 0.5 else None
    if size:
        if size == defaults.get("size_pt"):
            raise Skip("already that size")
        args["size_pt"] = size
    c.run("set_default_font", **args)
    L = c.lang
    tail_en = f" at {_size(size, L)}" if size else ""
    tail_zh = f"，默认字号{_size(size, L)}" if size else ""
    return c.say([f"change the document's default font to {font}{tail_en}", f"make {font}{tail_en} the default font of this document",
                  f"set the default font for the whole document to {font}{tail_en}", f"switch the document's standard font to {font}{tail_en}"],
                 [f"把文档的默认字体改成{font}{tail_zh}", f"默认字体设为{font}{tail_zh}", f"整个文档的默认字体换成{font}{tail_zh}",
                  f"将本文档默认字体调整为{font}{tail_zh}"])


# --------------------------------------------------------------------------- layout
@template("layout", weight=1.2, tuning_only=True)
def footer_page_numbering(c: Ctx) -> str:
    """Page numbers in the footer of every page: centred or on the right, as a number, "Page X of Y" or in Roman
    numerals (the document has none yet)."""
    if any(s.get("page_numbers") for s in c.sections()):
        raise Skip("page numbers already")
    side = c.rng.choice(["center", "right"])
    how = c.rng.choice(["plain", "of", "roman"])
    args = dict(section="all", where="footer", alignment=side)
    if how == "of":
        args["template"] = "Page {PAGE} of {NUMPAGES}" if c.dl == "en" else "第 {PAGE} 页，共 {NUMPAGES} 页"
    elif how == "roman":
        args["format"] = c.rng.choice(["lowerRoman", "upperRoman"])
    c.run("insert_page_numbers", **args)
    en_side = "centred" if side == "center" else "on the right"
    zh_side = "居中" if side == "center" else "靠右"
    if how == "of":
        shown = "Page 1 of 5" if c.dl == "en" else "第 1 页，共 5 页"
        return c.say([f"add page numbers to the footer, {en_side}, in the form {q(c, shown)}",
                      f"put {q(c, 'Page X of Y')} numbering at the bottom of every page, {en_side}" if c.dl == "en" else
                      f"put page numbers like {q(c, shown)} at the bottom of every page, {en_side}",
                      f"number the pages in the footer ({en_side}) showing the page and the total, like {q(c, shown)}",
                      f"I need {en_side} page numbers in the footer that read {q(c, shown)}"],
                     [f"在页脚{zh_side}插入页码，格式如{q(c, shown)}", f"每页底部{zh_side}加页码，显示为{q(c, shown)}这种样子",
                      f"页脚加上{zh_side}的页码，带总页数，例如{q(c, shown)}", f"给文档加页码（页脚、{zh_side}），格式{q(c, shown)}"])
    if how == "roman":
        lower = args["format"] == "lowerRoman"
        sample = "i, ii, iii" if lower else "I, II, III"
        en_kind = "lower-case" if lower else "capital"
        zh_kind = "小写" if lower else "大写"
        return c.say([f"add page numbers in the footer, {en_side}, in {en_kind} Roman numerals ({sample})",
                      f"number the pages at the bottom {en_side} using Roman numerals: {sample}",
                      f"put {en_kind} Roman page numbers ({sample}) in the footer, {en_side}",
                      f"I'd like the footer to carry page numbers as {sample} and so on, {en_side}"],
                     [f"在页脚{zh_side}插入页码，用{zh_kind}罗马数字（{sample}）", f"页码放在页脚{zh_side}，格式为{zh_kind}罗马数字 {sample}",
                      f"给每页底部{zh_side}加{zh_kind}罗马数字页码（{sample}）", f"页脚{zh_side}加页码，编号用 {sample} 这种{zh_kind}罗马数字"])
    return c.say([f"add page numbers to the footer, {en_side}", f"number the pages at the bottom, {en_side}",
                  f"put a page number {en_side} in the footer of every page", f"I'd like page numbers in the footer, {en_side}"],
                 [f"在页脚{zh_side}插入页码", f"每页页脚{zh_side}加上页码", f"给文档加页码，放在页脚{zh_side}", f"页脚{zh_side}显示页码"])


@template("layout", weight=1.0, tuning_only=True)
def layout_in_two_columns(c: Ctx) -> str:
    """The whole document, or one section named by its place, in two newspaper columns (sometimes with a line
    between them)."""
    secs = c.sections()
    single = [s for s in secs if (s.get("columns") or {}).get("count", 1) == 1]
    if len(single) != len(secs):
        raise Skip("columns already")
    line = c.rng.random() < 0.35
    args: dict = {}
    if line:
        args["separator"] = True
    if len(secs) == 1 or c.rng.random() < 0.5:
        c.run("set_columns", section="all", count=2, **args)
        tail_en, tail_zh = (" with a line between them", "，中间加分隔线") if line else ("", "")
        return c.say([f"set the whole document in two columns{tail_en}", f"lay out all the pages in two columns{tail_en}",
                      f"switch the entire document to a two-column layout{tail_en}", f"make the document two columns wide throughout{tail_en}"],
                     [f"全文分成两栏{tail_zh}", f"把整个文档改成双栏排版{tail_zh}", f"所有页面都分两栏{tail_zh}", f"整篇文档设为两栏{tail_zh}"])
    k = c.rng.randrange(min(len(secs), 6))
    c.run("set_columns", section=k, count=2, **args)
    tail_en, tail_zh = (" with a line between the columns", "，栏间加分隔线") if line else ("", "")
    en_o, zh_o = ORDINALS["en"][k], ORDINALS["zh"][k]
    return c.say([f"put the {en_o} section in two columns{tail_en}", f"set only the {en_o} section of the document in two columns{tail_en}",
                  f"give the {en_o} section a two-column layout{tail_en}", f"lay out section {k + 1} in two columns, leaving the rest as it is{tail_en}"],
                 [f"把{zh_o}节分成两栏{tail_zh}", f"只把文档的{zh_o}节改成双栏{tail_zh}", f"{zh_o}节设为两栏排版{tail_zh}",
                  f"第{k + 1}节分两栏，其他部分不变{tail_zh}"])


# --------------------------------------------------------------------------- review
@template("review", weight=0.8, tuning_only=True)
def start_tracking_changes(c: Ctx) -> str:
    """Track Changes turned on."""
    if c.st["document_info"].get("track_changes"):
        raise Skip("already on")
    c.run("set_track_changes", on=True)
    return c.say(["turn on Track Changes", "switch on change tracking so later edits show as revisions",
                  "from now on record edits as tracked changes", "enable Track Changes for this document"],
                 ["打开修订模式", "开启修订（跟踪更改），之后的改动都要留痕", "把“修订”功能打开", "启用跟踪修订"])
