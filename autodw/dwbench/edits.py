"""The edit templates: one request a Word user makes ("put a box around the note under Budget"),
phrased in English or Chinese, and the gold API calls that carry it out on the current document.

Each template is a function ``edit(c: Ctx) -> str``: it looks at the document, raises ``Skip``
(before running anything) when it does not apply, runs its gold calls through ``c.run`` and
returns the clause a user would say. The generator joins one to four clauses into an instruction.
Templates were written for this benchmark; they share nothing with the intent classifier's data.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable

from autodw.dwbench.context import Ctx, Skip, has_cjk, heading_level
from autodw.dwbench.documents import content
from autodw.dwbench.validate import computed_column


@dataclass(frozen=True)
class Edit:
    """A registered edit template."""

    name: str
    func: Callable[[Ctx], str]
    weight: float
    needs_memory: tuple[str, ...] = ()


EDITS: dict[str, Edit] = {}


def edit(weight: float = 1.0, needs: tuple[str, ...] = ()):
    def deco(func):
        EDITS[func.__name__] = Edit(func.__name__, func, weight, needs)
        return func
    return deco


def extra(c: Ctx, key: str):
    return content()["extra"][c.dl][key]


def q(c: Ctx, text: str) -> str:
    """Quote text the way the language does."""
    return f'"{text}"' if c.lang == "en" else f"“{text}”"


def fresh_sentence(c: Ctx) -> str:
    used = {p["text"] for p in c.paragraphs()}
    return c.pick([s for s in extra(c, "sentences") if s not in used])


def place(c: Ctx) -> tuple[str, object]:
    """Where new content goes: (phrase, position argument)."""
    heads = [h for h in c.headings() if c._unique_heading(h)]
    options = []
    if heads:
        h = c.rng.choice(heads)
        options.append((c.say([f'at the end of the "{h["text"].strip()}" section', f'after the {h["text"].strip()} section'],
                              [f"在“{h['text'].strip()}”一节的末尾", f"在“{h['text'].strip()}”部分最后"]),
                        {"after": c.last_block_of_section(h["id"])}))
        h2 = c.rng.choice(heads)
        options.append((c.say([f'just above the "{h2["text"].strip()}" heading', f'before the {h2["text"].strip()} heading'],
                              [f"在“{h2['text'].strip()}”标题前面", f"在“{h2['text'].strip()}”这个标题之前"]),
                        {"before": h2["id"]}))
    body = c.body()
    if body:
        p = c.rng.choice(body)
        try:
            ref = c.ref_para(p, register=False)
            options.append((c.say(f"right after {ref}", f"在{ref}后面"), {"after": p["id"]}))
        except Skip:
            pass
    options.append((c.say(["at the end of the document", "at the very end"], ["在文档末尾", "在全文最后"]), "end"))
    phrase, pos = c.rng.choice(options)
    if isinstance(pos, dict) and pos.get("after") in [q["id"] for q in body]:
        c.mention("para", pos["after"])
    return phrase, pos


def prefer(c: Ctx, cands: list[dict], key: str) -> dict:
    """One of `cands`, usually the one an earlier turn created or touched (memory `key`), so turns depend on each other."""
    mine = [x for x in cands if x["id"] == c.memory.get(key)]
    if mine and c.rng.random() < 0.7:
        return mine[0]
    return c.pick(cands)


def pick_body(c: Ctx, min_len: int = 12, cjk: bool | None = None) -> dict:
    """A body paragraph (not one this instruction just created: people do not add and then rework text in one breath)."""
    cands = [p for p in c.body() if len(p["text"]) >= min_len and (cjk is None or has_cjk(p["text"]) == cjk) and p["id"] not in c.fresh]
    return prefer(c, cands, "para")


def named(c: Ctx, el: dict) -> tuple[dict, str]:
    """An element and the phrase a user would name it by (paragraph, table, picture or chart)."""
    if "cells" in el:
        return el, c.ref_table(el)
    if el.get("type") == "picture":
        return el, c.ref_image(el)
    if el.get("type") == "chart":
        return el, c.ref_chart(el)
    return el, c.ref_para(el)


# Which inserted tables and sections suit which kind of document (indexes into content.json's extra tables /
# sections: tables Contacts, Monthly figures, Task status, Stores by city; sections Next Steps, Contacts,
# Background, Timeline, Appendix, Acknowledgements). A store table in a CV or acknowledgements in a letter are out.
TABLES_FOR_KIND = {"report": (0, 1, 2, 3), "letter": (0, 2), "contract": (0, 2), "cv": (0,), "minutes": (0, 1, 2),
                   "paper": (1,), "newsletter": (0, 1, 2, 3), "manual": (0, 2), "form": (0,), "corpus": (0, 2)}
SECTIONS_FOR_KIND = {"report": (0, 1, 2, 3, 4, 5), "letter": (0, 1, 3), "contract": (1, 3, 4), "cv": (4,),
                     "minutes": (0, 1, 3), "paper": (2, 4, 5), "newsletter": (0, 1, 2, 3, 5), "manual": (1, 4),
                     "form": (1,), "corpus": (0, 1, 4)}


def fitting(c: Ctx, key: str) -> list:
    """The extra tables or sections that suit the document being edited (all of them for an unknown kind), each
    drawn afresh (:func:`varied`): another session inserting "the same" table gets other rows."""
    pool = extra(c, key)
    fits = (TABLES_FOR_KIND if key == "tables" else SECTIONS_FOR_KIND).get(c.kind)
    chosen = pool if fits is None else [pool[i] for i in fits if i < len(pool)]
    return [varied(c, x, key) for x in chosen]


def varied(c: Ctx, base, key: str):
    """A fresh copy of a pool table (same header, rows drawn from ``content.json``'s ``variety``) or section (same title
    and text, three of its list items drawn from the larger pool), so that few sessions insert the same content."""
    v = content()["variety"][c.dl]
    if key == "sections":
        title, para, items = base
        pool = list(dict.fromkeys(items + v["section_items"].get(title, [])))
        return [title, para, c.rng.sample(pool, 3)]
    header, rng = base[0], c.rng
    kind = next(k for k, h in v["table_headers"].items() if h == header)
    n = rng.randint(3, 5)
    if kind == "contacts":
        people = rng.sample(v["names"], n - 1)
        rows = [[name, rng.choice(v["roles"]), v["email"].format(name=v["mail_names"][v["names"].index(name)])] for name in people]
    elif kind == "months":
        start = rng.randrange(0, 12 - (n - 1))
        rows = [[v["months"][start + k], str(rng.randrange(600, 2600, 10)), str(rng.randrange(120, 640))] for k in range(n - 1)]
    elif kind == "tasks":
        rows = [[task, rng.choice(v["first_names"]), rng.choice(v["statuses"])] for task in rng.sample(v["tasks"], n - 1)]
    else:
        rows = [[city, str(rng.randint(1, 9)), str(rng.randint(8, 90))] for city in rng.sample(v["cities"], n - 1)]
    return [list(header)] + rows


def section_and_table(c: Ctx):
    """A new section (title, text, list items) and a table that go together, both suiting the document and drawn
    afresh; the section's title is not a heading the document has."""
    used = {h["text"].strip().lower() for h in c.headings()}
    sections, tables = extra(c, "sections"), extra(c, "tables")
    fit_s, fit_t = SECTIONS_FOR_KIND.get(c.kind, range(6)), TABLES_FOR_KIND.get(c.kind, range(4))
    pairs = [(varied(c, sections[i], "sections"), varied(c, tables[k], "tables")) for i, k in SECTION_TABLES
             if sections[i][0].lower() not in used and i in fit_s and k in fit_t]
    return c.pick(pairs)


def table_caption(c: Ctx, data) -> str:
    """The caption that names a drawn pool table."""
    caps = ["Contact list", "Monthly figures", "Task status", "Stores by city"] if c.dl == "en" else ["联系人名单", "月度数据", "任务进度", "各城市门店"]
    return caps[table_kind(c, data)]


def table_kind(c: Ctx, data) -> int:
    """Which pool table (0 contacts, 1 monthly figures, 2 task status, 3 stores) a drawn table is, by its header."""
    return [t[0] for t in extra(c, "tables")].index(data[0])


_ZH_CLAUSE = re.compile(r"[^，。；：！？、（）()“”‘’《》\s]+")
_EN_CLAUSE = re.compile(r"(?:[^,;:.!?()\"]|(?<=\d)[,.](?=\d))+")


def phrase_span(text: str, lo: int, hi: int) -> str | None:
    """A whole clause of `text` (between punctuation) that a user would quote: lo-hi Chinese characters, or lo-hi
    English words starting and ending on word boundaries; unique in `text`. None if there is none."""
    if has_cjk(text):
        cands = [m.group(0) for m in _ZH_CLAUSE.finditer(text) if lo <= len(m.group(0)) <= hi and m.start() > 0]
    else:
        cands = []
        for m in _EN_CLAUSE.finditer(text):
            clause = m.group(0).strip()
            words = clause.split()
            if lo <= len(words) <= hi and all(re.fullmatch(r"[A-Za-z][A-Za-z'-]*|\d[\d,]*", w) for w in words) and m.start() > 0:
                cands.append(clause)
    cands = [x for x in cands if text.count(x) == 1]
    return cands[0] if cands else None


def first_sentence_end(text: str) -> int | None:
    """Offset just after the first sentence end followed by more text (None if one sentence)."""
    for m in re.finditer(r"[.!?](\s+)(?=\S)|[。！？](?=\S)", text):
        return m.end()
    return None


def num(cell: str) -> float | None:
    try:
        return float(cell.replace(",", ""))
    except ValueError:
        return None


def numeric_table(c: Ctx) -> dict:
    """A table whose body columns 1.. are all numbers (for charts, totals, sorting)."""
    cands = []
    for t in c.tables():
        cells = t["cells"]
        if t["rows"] >= 3 and t["cols"] >= 2 and all(len(r) == t["cols"] for r in cells) and \
                all(num(v) is not None for r in cells[1:] for v in r[1:]) and all(r[0].strip() for r in cells[1:]) \
                and all(h.strip() for h in cells[0]) and len(set(r[0] for r in cells)) == t["rows"] and t["rows"] <= 12:
            cands.append(t)
    return prefer(c, cands, "table")


def plain_table(c: Ctx, min_rows: int = 2) -> dict:
    """A rectangular table without merged cells whose first row has text (header)."""
    cands = [t for t in c.tables() if t["rows"] >= min_rows and all(len(r) == t["cols"] for r in t["cells"])
             and all(h.strip() for h in t["cells"][0]) and not _merged(t) and t["rows"] <= 15]
    return prefer(c, cands, "table")


def labelled_row(c: Ctx, t: dict, first: int = 1) -> tuple[int, str]:
    """A random body row from `first` on whose first cell names it uniquely: (index, label)."""
    r = c.rng.randrange(first, t["rows"])
    label = t["cells"][r][0].strip()
    if not label or sum(1 for row in t["cells"] if row[0].strip() == label) != 1:
        raise Skip("label")
    return r, label


def _merged(t: dict) -> bool:
    return any(d.get("span", 1) > 1 or d.get("vmerge") for row in t.get("cell_details", []) for d in row if isinstance(d, dict))


def fmt_num(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else f"{v:.1f}"


# ============================================================ content creation
@edit(2.0)
def add_paragraph(c: Ctx) -> str:
    where, pos = place(c)
    text = fresh_sentence(c)
    c.memory["para"] = c.run("insert_paragraph", text=text, position=pos).created[0]
    return c.say([f"add the sentence {q(c, text)} as a new paragraph {where}", f"insert a paragraph {where} that says {q(c, text)}",
                  f"{where}, put in a short paragraph: {q(c, text)}", f"I need one more paragraph {where}, reading {q(c, text)}"],
                 [f"{where}加一段：{q(c, text)}", f"{where}插入一个新段落，内容是{q(c, text)}", f"{where}另起一段，写上{q(c, text)}",
                  f"{where}补一段话：{q(c, text)}"])


@edit(2.0)
def add_section(c: Ctx) -> str:
    used = {h["text"].strip().lower() for h in c.headings()}
    title, para, items = c.pick([s for s in fitting(c, "sections") if s[0].lower() not in used])
    where, pos = place(c)
    if isinstance(pos, dict) and "after" in pos and pos["after"].startswith("p") and heading_level(c.para(pos["after"])):
        raise Skip("would put a section right under a heading")
    h = c.run("insert_heading", text=title, level=1, position=pos).created[0]
    p = c.run("insert_paragraph", text=para, position={"after": h}).created[0]
    c.memory.update(heading=h, para=p)
    with_list = c.rng.random() < 0.6
    if with_list:
        created = c.run("insert_list", items=items, position={"after": p}, kind=c.rng.choice(["bullet", "numbered"])).created
        c.memory["list"] = created
        kind = "bulleted" if c.calls[-1].args["kind"] == "bullet" else "numbered"
        kind_zh = "项目符号" if kind == "bulleted" else "编号"
        return c.say(
            [f"add a new section {q(c, title)} {where}, with the text {q(c, para)} followed by a {kind} list: " + "; ".join(items),
             f"{where}, create a heading {q(c, title)} with one paragraph ({q(c, para)}) and a {kind} list of these points: " + ", ".join(q(c, i) for i in items),
             f"{where}, we need a new section, {q(c, title)}: first the sentence {q(c, para)}, then a {kind} list with " + ", ".join(q(c, i) for i in items)],
            [f"{where}新增一节“{title}”，正文写“{para}”，下面再加一个{kind_zh}列表：" + "；".join(items),
             f"{where}加一个一级标题“{title}”，下面一段“{para}”，再列出以下几点（{kind_zh}列表）：" + "、".join(f"“{i}”" for i in items),
             f"{where}补一节“{title}”：先写“{para}”，后面用{kind_zh}列表列出" + "、".join(f"“{i}”" for i in items)])
    return c.say([f"add a section called {q(c, title)} {where} containing the paragraph {q(c, para)}",
                  f"{where}, add a new heading {q(c, title)} and under it the sentence {q(c, para)}",
                  f"we need a new section, {q(c, title)}, {where}, whose only text is {q(c, para)}"],
                 [f"{where}新增一节，标题为“{title}”，正文为“{para}”", f"{where}加标题“{title}”，标题下写一句“{para}”",
                  f"{where}补一个“{title}”小节，内容就一句：“{para}”"])


@edit(1.2)
def add_list(c: Ctx) -> str:
    p = pick_body(c)
    items = c.pick([s[2] for s in fitting(c, "sections")])
    if any(i in {x["text"] for x in c.paragraphs()} for i in items):
        raise Skip("list exists")
    kind = c.rng.choice(["bullet", "numbered"])
    ref = c.ref_para(p)
    c.memory["list"] = c.run("insert_list", items=items, position={"after": p["id"]}, kind=kind).created
    k_en = "bullet points" if kind == "bullet" else "a numbered list"
    k_zh = "项目符号列表" if kind == "bullet" else "编号列表"
    return c.say([f"under {ref}, add {k_en}: " + "; ".join(items), f"put these as {k_en} after {ref}: " + ", ".join(q(c, i) for i in items),
                  f"follow {ref} with {k_en} of three points: " + ", ".join(q(c, i) for i in items)],
                 [f"在{ref}后面加一个{k_zh}：" + "；".join(items), f"{ref}下面用{k_zh}列出：" + "、".join(q(c, i) for i in items),
                  f"紧接着{ref}，用{k_zh}写三点：" + "、".join(q(c, i) for i in items)])


@edit(1.2)
def append_text(c: Ctx) -> str:
    p, ref = named(c, pick_body(c))
    note = c.pick(extra(c, "notes"))
    text = (" " + note) if c.dl == "en" or not has_cjk(p["text"]) else note
    c.run("insert_text", paragraph=p["id"], text=text)
    return c.say([f"add {q(c, note)} to the end of {ref}", f"finish {ref} with the words {q(c, note)}",
                  f"tack {q(c, note)} onto the end of {ref}", f"{ref} needs one more sentence at the end: {q(c, note)}"],
                 [f"在{ref}末尾补上一句{q(c, note)}", f"给{ref}结尾加上{q(c, note)}", f"{ref}最后再接一句{q(c, note)}",
                  f"{ref}结尾处补充{q(c, note)}这句话"])


@edit(0.8)
def page_break_before(c: Ctx) -> str:
    h = c.pick([h for h in c.headings(1) if c._unique_heading(h) and h["index"] > 2])
    paras = c.paragraphs()
    k = [p["id"] for p in paras].index(h["id"])
    if k > 0 and not paras[k - 1]["text"].strip():
        raise Skip("blank paragraph or page break right before")
    c.run("insert_page_break", position={"before": h["id"]})
    return c.say([f"start {c.ref_section(h)} on a new page with a page break", f"put a page break before {c.ref_heading(h)}",
                  f"I want {c.ref_section(h)} to begin on a fresh page, so add a page break in front of it"],
                 [f"在{c.ref_heading(h)}前插入分页符", f"让{c.ref_section(h)}从新的一页开始（插一个分页符）",
                  f"{c.ref_heading(h)}之前加个分页符，让这一节另起一页"])


def _body_with_second_sentence(c: Ctx, why: str) -> tuple[dict, int]:
    """A body paragraph of at least 30 characters and where its first sentence ends (Skip(why) if it has one)."""
    p = pick_body(c, 30)
    cut = first_sentence_end(p["text"])
    if cut is None:
        raise Skip(why)
    return p, cut


@edit(0.6)
def line_break(c: Ctx) -> str:
    p, cut = _body_with_second_sentence(c, "one sentence")
    ref = c.ref_para(p)
    first = p["text"][:cut].strip()
    c.run("insert_line_break", paragraph=p["id"], offset=cut)
    return c.say([f"in {ref}, start a new line (line break, not a new paragraph) after {q(c, first)}",
                  f"after {q(c, first)} in {ref}, insert a manual line break (keep it one paragraph)",
                  f"break the line in {ref} right after {q(c, first)} with a line break, not a paragraph break"],
                 [f"{ref}里，在“{first}”之后换行（用换行符，不要分段）", f"在{ref}的“{first}”后面插一个手动换行符，仍保持一段",
                  f"{ref}中“{first}”之后另起一行，但不要拆成两段（用换行符）"])


@edit(0.8)
def add_link(c: Ctx) -> str:
    p, ref = named(c, pick_body(c))
    site = c.pick(["https://www.example.org/contact", "https://intranet.example.com/forms", "https://www.example.com/policy"])
    text = c.pick(["More information", "Contact us", "Full policy"]) if c.dl == "en" else c.pick(["更多信息", "联系我们", "完整政策"])
    c.run("insert_hyperlink", paragraph=p["id"], text=" " + text if c.dl == "en" else text, url=site)
    return c.say([f"at the end of {ref}, add a link with the text {q(c, text)} pointing to {site}",
                  f"append a hyperlink {q(c, text)} to {ref} that opens {site}",
                  f"finish {ref} with a clickable {q(c, text)} linking to {site}"],
                 [f"在{ref}末尾加一个超链接，显示文字“{text}”，链接到 {site}", f"{ref}最后加上超链接“{text}”，地址是 {site}",
                  f"给{ref}结尾添一个可点击的“{text}”，指向 {site}"])


@edit(1.0)
def add_footnote(c: Ctx) -> str:
    p, ref = named(c, pick_body(c))
    note = c.pick(extra(c, "notes"))
    c.run("insert_footnote", paragraph=p["id"], text=note)
    c.memory["footnote_para"] = p["id"]
    return c.say([f"add a footnote to {ref} saying {q(c, note)}", f"put a footnote at the end of {ref}: {q(c, note)}",
                  f"{ref} needs a footnote that reads {q(c, note)}"],
                 [f"给{ref}加一个脚注：{q(c, note)}", f"在{ref}末尾插入脚注，内容为{q(c, note)}", f"{ref}后面加个脚注，写{q(c, note)}"])


@edit(1.0)
def add_comment(c: Ctx) -> str:
    p = pick_body(c, 20)
    span = phrase_span(p["text"], 4, 14) if has_cjk(p["text"]) else phrase_span(p["text"], 2, 8)
    if span is None:
        raise Skip("no whole phrase to comment on")
    _, ref = named(c, p)
    text = c.pick(extra(c, "comments"))
    c.run("insert_comment", paragraph=p["id"], text=text, span={"match": span})
    return c.say([f"leave a comment {q(c, text)} on the words {q(c, span)} in {ref}", f"comment on {q(c, span)} ({ref}): {q(c, text)}",
                  f"attach the comment {q(c, text)} to {q(c, span)} in {ref}", f"in {ref}, flag {q(c, span)} with a comment: {q(c, text)}"],
                 [f"在{ref}中给“{span}”加批注：{q(c, text)}", f"对{ref}里的“{span}”添加批注“{text}”",
                  f"{ref}里“{span}”这句旁边加条批注，写{q(c, text)}", f"选中{ref}中的“{span}”，插入批注{q(c, text)}"])


@edit(0.9)
def caption_table(c: Ctx) -> str:
    t, ref = named(c, plain_table(c))
    if any((p.get("style") or "") == "Caption" for p in c.paragraphs()):
        raise Skip("captions already")
    text = c.pick(["Overview of the figures", "Summary of the details", "Key data"]) if c.dl == "en" else c.pick(["数据概览", "明细汇总", "主要数据"])
    c.run("insert_caption", target=t["id"], text=text)
    return c.say([f"give {ref} a numbered caption above it: {q(c, text)}", f"caption {ref} as {q(c, 'Table 1: ' + text)}",
                  f"put a numbered table caption {q(c, text)} above {ref}"],
                 [f"给{ref}上方加一个带编号的题注：{q(c, text)}", f"为{ref}添加题注“表 1：{text}”（用 Word 的题注编号）",
                  f"{ref}上面加一条自动编号的表题注“{text}”"])


@edit(0.6)
def caption_figure(c: Ctx) -> str:
    target = c.pick(c.images() + c.charts())
    ref = c.ref_image(target) if target["type"] == "picture" else c.ref_chart(target)
    text = c.pick(["Layout of the site", "Main results", "Overview"]) if c.dl == "en" else c.pick(["现场布局", "主要结果", "总体情况"])
    c.run("insert_caption", target=target["id"], text=text)
    return c.say([f"add the caption {q(c, text)} under {ref}", f"label {ref} with a figure caption: {q(c, text)}",
                  f"{ref} needs a numbered caption underneath: {q(c, text)}"],
                 [f"在{ref}下方加题注{q(c, text)}", f"给{ref}加一个图题注：{q(c, text)}", f"{ref}下面加一条带编号的图注“{text}”"])


@edit(0.6)
def copy_table_to_end(c: Ctx) -> str:
    t, ref = named(c, plain_table(c))
    res = c.run("duplicate_block", block=t["id"], position="end")
    c.memory["table"] = next(i for i in res.created if i.startswith("t"))
    return c.say([f"make a copy of {ref} at the end of the document", f"duplicate {ref} and put the copy at the very end",
                  f"I need {ref} twice: add an identical copy after everything else"],
                 [f"把{ref}复制一份放到文档末尾", f"在文末再复制一份{ref}", f"{ref}原样复制一份，贴到全文最后"])


@edit(0.5)
def duplicate_paragraph(c: Ctx) -> str:
    p, ref = named(c, pick_body(c))
    h = c.pick([h for h in c.headings(1) if c._unique_heading(h) and h["id"] != (c.heading_of(p["id"]) or {}).get("id")])
    res = c.run("duplicate_block", block=p["id"], position={"after": c.last_block_of_section(h["id"])})
    c.memory["para"] = res.created[0]
    return c.say([f"copy {ref} to the end of {c.ref_section(h)} as well (keep the original where it is)",
                  f"repeat {ref} at the bottom of {c.ref_section(h)}, leaving the original in place",
                  f"put a second copy of {ref} at the end of {c.ref_section(h)}"],
                 [f"把{ref}复制一份到{c.ref_section(h)}末尾（原段落保留）", f"{ref}在{c.ref_section(h)}最后再放一份，原来的不动",
                  f"将{ref}复制到{c.ref_section(h)}的结尾处，原文保留"])


@edit(0.7)
def bookmark_and_reference(c: Ctx) -> str:
    heads = [h for h in c.headings() if c._unique_heading(h)]
    h = c.pick(heads)
    existing = {b["name"] for b in c.st["interactive"]["bookmarks"]}
    name = re.sub(r"\W+", "_", h["text"].strip().lower()).strip("_")[:30] if not has_cjk(h["text"]) else f"sec{h['index']}"
    if not name or not name[0].isalpha() or name in existing:
        raise Skip("bad name")
    p = pick_body(c)
    if c.heading_of(p["id"]) == h:
        raise Skip("same section")
    ref = c.ref_para(p)
    c.run("add_bookmark", name=name, paragraph=h["id"])
    c.run("insert_cross_reference", paragraph=p["id"], bookmark=name, show="text")
    c.memory["bookmark"] = name
    return c.say([f"bookmark {c.ref_heading(h)} as {q(c, name)} and add a cross-reference to it (showing the heading text) at the end of {ref}",
                  f"put a bookmark named {q(c, name)} on {c.ref_heading(h)}, then at the end of {ref} insert a cross-reference to that bookmark that shows the heading text",
                  f"I want {ref} to refer to {c.ref_heading(h)}: bookmark the heading as {q(c, name)} and end the paragraph with a cross-reference to it (heading text)"],
                 [f"给{c.ref_heading(h)}加书签“{name}”，然后在{ref}末尾插入指向它的交叉引用（显示标题文字）",
                  f"在{c.ref_heading(h)}上建一个名为“{name}”的书签，再在{ref}最后加一个引用该书签的交叉引用，显示标题文字",
                  f"{ref}结尾要引用{c.ref_heading(h)}：先给标题加书签“{name}”，再插入显示标题文字的交叉引用"])


@edit(0.5)
def cross_reference_existing(c: Ctx) -> str:
    marks = [b for b in c.st["interactive"]["bookmarks"] if not b["name"].startswith("_")]
    b = c.pick(marks)
    p = pick_body(c)
    if p["id"] == b.get("paragraph"):
        raise Skip("same paragraph")
    ref = c.ref_para(p)
    show = c.rng.choice(["text", "page"])
    c.run("insert_cross_reference", paragraph=p["id"], bookmark=b["name"], show=show)
    what = "its text" if show == "text" else "its page number"
    return c.say([f"at the end of {ref}, insert a cross-reference to the bookmark {q(c, b['name'])} showing {what}",
                  f"end {ref} with a cross-reference to bookmark {q(c, b['name'])} ({what})",
                  f"add a cross-reference showing {what} of the {q(c, b['name'])} bookmark at the end of {ref}"],
                 [f"在{ref}末尾插入对书签“{b['name']}”的交叉引用，显示{'书签文字' if show == 'text' else '页码'}",
                  f"{ref}最后加一个交叉引用，指向书签“{b['name']}”，显示{'书签文字' if show == 'text' else '页码'}",
                  f"给{ref}结尾添上引用书签“{b['name']}”的交叉引用（显示{'书签文字' if show == 'text' else '页码'}）"])


# ============================================================ content modification
@edit(1.5)
def replace_word(c: Ctx) -> str:
    full = " ".join(p["text"] for p in c.paragraphs()) + " " + " ".join(" ".join(r) for t in c.st["tables"] for r in t["cells"])
    old, new = c.pick([(o, n) for o, n in extra(c, "replacements") if _replaceable(c, full, o, n)])
    args = {"find": old, "replace": new}
    if c.dl == "en":
        args["whole_word"] = True
        args["match_case"] = True
    c.run("replace_text", **args)
    return c.say([f"replace {q(c, old)} with {q(c, new)} everywhere", f"change every {q(c, old)} to {q(c, new)}",
                  f"use the word {q(c, new)} instead of {q(c, old)} throughout"],
                 [f"把全文的“{old}”都替换成“{new}”", f"文中所有“{old}”改为“{new}”", f"统一把“{old}”换成“{new}”"])


def _replaceable(c: Ctx, full: str, old: str, new: str) -> bool:
    """`old` occurs, only in lower case (so a case-sensitive replacement is what the user means), and `new` does not."""
    if new.lower() in full.lower():
        return False
    if c.dl != "en":
        return old in full
    exact = len(re.findall(rf"\b{re.escape(old)}\b", full))
    return exact >= 1 and exact == len(re.findall(rf"\b{re.escape(old)}\b", full, re.I))


@edit(1.0)
def rename_org(c: Ctx) -> str:
    orgs = [o for o in content()["orgs"][c.dl] if o in " ".join(p["text"] for p in c.paragraphs())]
    old = c.pick(orgs)
    new = c.pick([o for o in content()["orgs"][c.dl] if o != old and o not in " ".join(p["text"] for p in c.paragraphs())])
    c.run("replace_text", find=old, replace=new, scope="all")
    return c.say([f"the organisation is now called {q(c, new)}: replace {q(c, old)} with it everywhere, headers included",
                  f"we've been renamed to {q(c, new)}, so every {q(c, old)} in the document, headers and footers too, should change",
                  f"swap the name {q(c, old)} for {q(c, new)} throughout, including the header and footer"],
                 [f"单位名称改了：把所有“{old}”替换成“{new}”（页眉页脚也要改）", f"我们单位已更名为“{new}”，文中和页眉页脚里的“{old}”全部换掉",
                  f"全文（含页眉页脚）的“{old}”一律改成“{new}”"])


@edit(1.0)
def rewrite_paragraph(c: Ctx) -> str:
    p, ref = named(c, pick_body(c))
    text = fresh_sentence(c)
    c.run("set_paragraph_text", paragraph=p["id"], text=text)
    c.memory["para"] = p["id"]
    return c.say([f"replace the text of {ref} with {q(c, text)}", f"rewrite {ref} so it reads {q(c, text)}",
                  f"{ref} should just say {q(c, text)} instead"],
                 [f"把{ref}的内容改成{q(c, text)}", f"将{ref}整段替换为{q(c, text)}", f"{ref}改写为一句话：{q(c, text)}"])


@edit(1.0)
def delete_sentence(c: Ctx) -> str:
    p, cut = _body_with_second_sentence(c, "single sentence")
    ref = c.ref_para(p)
    second = p["text"][cut:]
    c.run("delete_text", paragraph=p["id"], span={"start": cut - (1 if c.dl == "en" and p["text"][cut - 1] == " " else 0), "end": len(p["text"])})
    return c.say([f"in {ref}, delete the sentence {q(c, second.strip())}", f"cut the second sentence ({q(c, second.strip())}) from {ref}",
                  f"{ref} runs too long: drop everything after its first sentence, i.e. {q(c, second.strip())}"],
                 [f"删掉{ref}中的“{second.strip()}”这句话", f"{ref}的第二句“{second.strip()}”不要了，删掉",
                  f"{ref}只保留第一句，后面的“{second.strip()}”删除"])


@edit(0.7)
def uppercase_heading(c: Ctx) -> str:
    h = c.pick([h for h in c.headings() if not has_cjk(h["text"]) and h["text"] != h["text"].upper() and re.search("[a-z]", h["text"])])
    ref = c.ref_heading(h)
    case = "upper"
    c.run("change_case", paragraph=h["id"], case=case)
    return c.say([f"retype {ref} in capital letters", f"change the letters of {ref} to UPPER CASE", f"{ref} should be all caps (change the text itself)"],
                 [f"把{ref}的字母改成大写（改文字本身）", f"{ref}里的英文全部改为大写字母", f"将{ref}的文字转换成全大写"])


@edit(0.6)
def sentence_case(c: Ctx) -> str:
    h = c.pick([h for h in c.headings() if not has_cjk(h["text"]) and len(h["text"].split()) >= 2
                and any(w[:1].isupper() for w in h["text"].split()[1:]) and h["text"] != h["text"].upper()])
    ref = c.ref_heading(h)
    c.run("change_case", paragraph=h["id"], case="sentence")
    return c.say([f"put {ref} in sentence case (only the first word capitalised)", f"change {ref} to sentence case",
                  f"{ref} has too many capitals: make it sentence case, capital on the first word only"],
                 [f"把{ref}改成句首大写（只有第一个单词首字母大写）", f"{ref}转换为句首字母大写的形式",
                  f"{ref}只保留第一个单词的首字母大写，其余小写"])


@edit(1.0)
def delete_paragraph(c: Ctx) -> str:
    p = pick_body(c)
    ref = c.ref_para(p, allow_memory=False)
    c.run("delete_block", block=p["id"])
    return c.say([f"delete {ref}", f"remove {ref} completely", f"get rid of {ref}"], [f"删除{ref}", f"把{ref}整段删掉", f"{ref}不要了，删掉"])


@edit(1.0)
def move_paragraph(c: Ctx) -> str:
    p, ref = named(c, pick_body(c))
    h = c.pick([h for h in c.headings() if c._unique_heading(h) and h["id"] != (c.heading_of(p["id"]) or {}).get("id")])
    last = c.last_block_of_section(h["id"])
    if last == p["id"]:
        raise Skip("already there")
    c.run("move_block", block=p["id"], position={"after": last})
    c.memory["para"] = p["id"]
    return c.say([f"move {ref} to the end of {c.ref_section(h)}", f"take {ref} and put it at the bottom of {c.ref_section(h)}",
                  f"{ref} belongs in {c.ref_section(h)}: move it to the end of that section"],
                 [f"把{ref}移到{c.ref_section(h)}的末尾", f"将{ref}挪到{c.ref_section(h)}最后", f"{ref}放错地方了，挪到{c.ref_section(h)}结尾"])


@edit(0.8)
def move_section_up(c: Ctx) -> str:
    heads = [h for h in c.headings(1) if c._unique_heading(h)]
    if len(heads) < 3:
        raise Skip("few sections")
    k = c.rng.randrange(1, len(heads))
    h, before = heads[k], heads[k - 1]
    blocks = [h["id"]] + [p["id"] for p in c.section_paragraphs(h["id"])]
    tables_after = {t["after_paragraph"]: t["id"] for t in c.st["tables"]}
    ordered = []
    for b in blocks:
        ordered.append(b)
        if b in tables_after:
            ordered.append(tables_after[b])
    if len(ordered) > 6 or any(t.get("after_paragraph") == before["id"] for t in c.st["tables"]):
        raise Skip("large section")
    c.run("move_section", heading=h["id"], position={"before": before["id"]})
    return c.say([f"move the whole {h['text'].strip()} section (heading and everything under it) above {c.ref_section(before)}",
                  f"swap the order so that {c.ref_section(h)} comes before {c.ref_section(before)}",
                  f"{c.ref_section(h)} should come first: move it, with its content, ahead of {c.ref_section(before)}"],
                 [f"把“{h['text'].strip()}”整节（标题和内容）移到{c.ref_section(before)}前面", f"调换顺序，让{c.ref_section(h)}排在{c.ref_section(before)}之前",
                  f"{c.ref_section(h)}连同内容一起挪到{c.ref_section(before)}上面"])


@edit(0.8)
def split_para(c: Ctx) -> str:
    p, cut = _body_with_second_sentence(c, "one sentence")
    ref = c.ref_para(p)
    first = p["text"][:cut].strip()
    c.run("split_paragraph", paragraph=p["id"], offset=cut)
    return c.say([f"split {ref} into two paragraphs after {q(c, first)}", f"break {ref} in two after its first sentence",
                  f"start a new paragraph in {ref} right after {q(c, first)}"],
                 [f"把{ref}从“{first}”之后拆成两段", f"{ref}在第一句后分成两段", f"{ref}在“{first}”后面另起一段"])


@edit(0.8)
def merge_paras(c: Ctx) -> str:
    paras = c.paragraphs()
    pairs = [(a, b) for a, b in zip(paras, paras[1:]) if a in c.body() and b in c.body() and c.heading_of(a["id"]) == c.heading_of(b["id"])
             and not any(t.get("after_paragraph") == a["id"] for t in c.st["tables"])
             and not any(i.get("paragraph") in (a["id"], b["id"]) for i in c.st["images"])]
    a, b = c.pick(pairs)
    ref = c.ref_para(a, allow_memory=False)
    sep = " " if c.dl == "en" or not has_cjk(a["text"]) else ""
    c.run("merge_paragraphs", first=a["id"], second=b["id"], **({"separator": sep} if sep else {"separator": ""}))
    return c.say([f"join {ref} and the paragraph after it into one paragraph", f"merge {ref} with the next paragraph",
                  f"{ref} and the one following it should be a single paragraph"],
                 [f"把{ref}和下一段合并成一段", f"{ref}与后面一段合为一段", f"{ref}跟紧接着的那段并成一段"])


# ============================================================ tables
@edit(1.5)
def add_table(c: Ctx) -> str:
    data = c.pick(fitting(c, "tables"))
    if any(t["cells"] and t["cells"][0] == data[0] for t in c.st["tables"]):
        raise Skip("exists")
    where, pos = place(c)
    res = c.run("insert_table", position=pos, data=data, style="Table Grid", header_row=True)
    c.memory["table"] = next(i for i in res.created if i.startswith("t"))
    rows = "; ".join(", ".join(r) for r in data[1:])
    return c.say([f"insert a table {where} with the columns {', '.join(data[0])} (header row in bold) and these rows: {rows}",
                  f"{where}, add a {len(data)}-row table: bold header {' | '.join(data[0])}, then {rows}",
                  f"I need a small table {where}: bold headers {', '.join(data[0])}; rows {rows}"],
                 [f"{where}插入一个表格，表头为{'、'.join(data[0])}（加粗），内容依次为：{rows}",
                  f"{where}加一个{len(data)}行的表格，第一行是加粗的表头“{' | '.join(data[0])}”，下面几行：{rows}",
                  f"{where}做个小表格：表头{'、'.join(data[0])}加粗，数据为{rows}"])


@edit(0.6)
def delete_table(c: Ctx) -> str:
    t, ref = named(c, c.pick(c.tables()))
    c.run("delete_table", table=t["id"])
    c.memory.pop("table", None)
    return c.say([f"delete {ref}", f"remove {ref} entirely", f"we don't need {ref} any more, delete it"], [f"删除{ref}", f"把{ref}整个删掉", f"{ref}用不着了，整个删除"])


@edit(1.2)
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


@edit(0.8)
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


@edit(1.0)
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


@edit(0.9)
def delete_row(c: Ctx) -> str:
    t = plain_table(c, 4)
    r, label = labelled_row(c, t)
    ref = c.ref_table(t)
    c.run("delete_row", table=t["id"], index=r)
    return c.say([f"remove the {q(c, label)} row from {ref}", f"delete the row for {q(c, label)} in {ref}", f"{q(c, label)} no longer applies; take its row out of {ref}"],
                 [f"删掉{ref}里“{label}”那一行", f"把{ref}中的“{label}”行删除", f"{ref}不再需要“{label}”这行，删掉"])


@edit(0.5)
def row_height(c: Ctx) -> str:
    t, ref = named(c, plain_table(c))
    h = c.rng.choice(["1cm", "0.8cm", "1.2cm"])
    c.run("set_row_height", table=t["id"], row=0, height=h, rule="at_least")
    return c.say([f"make the header row of {ref} at least {h.replace('cm', ' cm')} tall", f"give the first row of {ref} a minimum height of {h.replace('cm', ' cm')}",
                  f"the header of {ref} looks cramped: set its row height to at least {h.replace('cm', ' cm')}"],
                 [f"{ref}表头行的行高设为至少{h.replace('cm', '厘米')}", f"{ref}第一行行高最小值设成{h.replace('cm', '厘米')}",
                  f"{ref}的表头太挤了，行高调到至少{h.replace('cm', '厘米')}"])


@edit(0.5)
def all_rows_height(c: Ctx) -> str:
    t, ref = named(c, plain_table(c))
    h = c.rng.choice(["0.7cm", "0.9cm"])
    c.run("set_row_height", table=t["id"], row="all", height=h, rule="exact")
    return c.say([f"set every row of {ref} to exactly {h.replace('cm', ' cm')} high", f"give all rows in {ref} a fixed height of {h.replace('cm', ' cm')}",
                  f"make the rows of {ref} uniform: exactly {h.replace('cm', ' cm')} each"],
                 [f"{ref}所有行的行高固定为{h.replace('cm', '厘米')}", f"{ref}每一行的行高都设成固定值{h.replace('cm', '厘米')}",
                  f"把{ref}的行高统一固定为{h.replace('cm', '厘米')}"])


@edit(1.0)
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


@edit(0.7)
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


@edit(0.6)
def column_width(c: Ctx) -> str:
    t, ref = named(c, plain_table(c))
    w = c.rng.choice(["4cm", "5cm", "3.5cm"])
    c.run("set_column_width", table=t["id"], col=0, width=w)
    return c.say([f"make the first column of {ref} {w.replace('cm', ' cm')} wide", f"set the width of column one in {ref} to {w.replace('cm', ' cm')}",
                  f"the first column of {ref} should be exactly {w.replace('cm', ' cm')} wide"],
                 [f"{ref}第一列的列宽设为{w.replace('cm', '厘米')}", f"把{ref}首列宽度调成{w.replace('cm', '厘米')}", f"{ref}最左边一列列宽改为{w.replace('cm', '厘米')}"])


@edit(0.8)
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


@edit(0.5, needs=("merged",))
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


@edit(0.5)
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


@edit(1.3)
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


@edit(0.9)
def shade_row(c: Ctx) -> str:
    t = plain_table(c, 3)
    r, label = labelled_row(c, t)
    fname, fill = c.fill()
    ref = c.ref_table(t)
    c.run("set_cell_shading", table=t["id"], cells={"row": r}, fill=fill)
    return c.say([f"shade the {q(c, label)} row of {ref} in {fname}", f"highlight the {q(c, label)} row in {ref} with a {fname} fill",
                  f"give the {q(c, label)} row of {ref} a {fname} background so it stands out"],
                 [f"{ref}中“{label}”这一行加{fname}底纹", f"把{ref}里“{label}”行的底色设为{fname}", f"{ref}的“{label}”行用{fname}填充，突出一下"])


@edit(0.8)
def align_numbers(c: Ctx) -> str:
    t, ref = named(c, numeric_table(c))
    h = c.rng.choice(["right", "center"])
    c.run("set_cell_alignment", table=t["id"], cells={"from": [1, 1], "to": [t["rows"] - 1, t["cols"] - 1]}, horizontal=h)
    return c.say([f"{'right-align' if h == 'right' else 'centre'} the numbers in {ref} (not the labels or the header)",
                  f"in {ref}, {'align the figures to the right' if h == 'right' else 'centre the figures'}, leaving the header row and first column alone",
                  f"the numeric cells of {ref} should be {'right-aligned' if h == 'right' else 'centred'} (header and labels unchanged)"],
                 [f"{ref}里的数字（不含表头和第一列）{'右对齐' if h == 'right' else '居中'}", f"{ref}的数据单元格{'右对齐' if h == 'right' else '居中对齐'}，表头和首列不动",
                  f"把{ref}中除表头、首列以外的数字都{'靠右' if h == 'right' else '居中'}"])


@edit(0.5)
def center_cells_vertically(c: Ctx) -> str:
    t, ref = named(c, plain_table(c))
    c.run("set_cell_alignment", table=t["id"], cells="all", horizontal="center", vertical="center")
    return c.say([f"centre all the text in {ref}, both horizontally and vertically", f"centre every cell of {ref} both ways",
                  f"in {ref}, put the text in the middle of each cell, across and top to bottom"],
                 [f"{ref}所有单元格文字水平、垂直都居中", f"{ref}的每个单元格都设成水平垂直居中", f"把{ref}里的文字在格子里上下左右都居中"])


@edit(0.9)
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


@edit(0.4)
def remove_inner_borders(c: Ctx) -> str:
    t, ref = named(c, c.pick(c.tables()))
    c.run("set_table_borders", table=t["id"], style="none", scope="inside_vertical")
    return c.say([f"remove the vertical lines inside {ref}", f"take out the inner vertical borders of {ref}",
                  f"{ref} looks busy: drop the vertical lines between its columns"],
                 [f"去掉{ref}内部的竖线", f"{ref}内部的竖边框不要了", f"把{ref}列与列之间的竖线删掉"])


@edit(0.8)
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


@edit(0.5)
def table_style(c: Ctx) -> str:
    t, ref = named(c, c.pick(c.tables()))
    style = c.rng.choice(["Light Grid Accent 1", "Light List Accent 1", "Medium Shading 1 Accent 1"])
    if t.get("style") == style:
        raise Skip("same")
    c.run("set_table_properties", table=t["id"], style=style)
    return c.say([f"apply the {q(c, style)} table style to {ref}", f"give {ref} the built-in {style} style",
                  f"restyle {ref} with Word's {q(c, style)} table style"],
                 [f"给{ref}套用“{style}”表格样式", f"{ref}改用内置表格样式“{style}”", f"把{ref}的表格样式换成“{style}”"])


@edit(1.0)
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


@edit(0.5)
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


@edit(0.5)
def split_tbl(c: Ctx) -> str:
    t = plain_table(c, 4)
    r, label = labelled_row(c, t, first=2)
    ref = c.ref_table(t)
    c.run("split_table", table=t["id"], row=r)
    return c.say([f"split {ref} into two tables, starting the second one at the {q(c, label)} row", f"break {ref} in two just above the {q(c, label)} row",
                  f"divide {ref} so the {q(c, label)} row begins a separate table"],
                 [f"把{ref}从“{label}”这一行开始拆成两个表格", f"{ref}在“{label}”行上方断开，分成两个表", f"将{ref}拆分为两个表格，第二个表从“{label}”行开始"])


# ============================================================ images
@edit(1.2)
def add_picture(c: Ctx) -> str:
    where, pos = place(c)
    name = c.pick(["logo.png", "photo.png", "diagram.png", "map.png"])
    width = c.rng.choice(["5cm", "8cm", "6cm"])
    alt = {"logo.png": ("Company logo", "公司标志"), "photo.png": ("Photo of the team", "团队合影"), "diagram.png": ("Process diagram", "流程示意图"),
           "map.png": ("Map of the sites", "站点分布图")}[name]
    alt = alt[0] if c.dl == "en" else alt[1]
    with_alt = c.rng.random() < 0.5
    args = dict(path=name, position=pos, width=width, alignment="center")
    if with_alt:
        args["alt_text"] = alt
    res = c.run("insert_image", **args)
    c.memory["image"] = next(i for i in res.created if i.startswith("img"))
    tail_en = f" with the alt text {q(c, alt)}" if with_alt else ""
    tail_zh = f"，替代文字写“{alt}”" if with_alt else ""
    return c.say([f"insert the picture {name} {where}, {width.replace('cm', ' cm')} wide and centred{tail_en}",
                  f"{where}, add the image {name} at {width.replace('cm', ' cm')} width, centred{tail_en}",
                  f"put {name} {where}; make it {width.replace('cm', ' cm')} wide and centre it{tail_en}"],
                 [f"{where}插入图片 {name}，宽{width.replace('cm', '厘米')}，居中{tail_zh}", f"{where}放一张图 {name}，宽度{width.replace('cm', '厘米')}，居中显示{tail_zh}",
                  f"把 {name} 插到{where.removeprefix('在')}，宽{width.replace('cm', '厘米')}，居中{tail_zh}"])


@edit(0.8)
def resize_picture(c: Ctx) -> str:
    img, ref = named(c, prefer(c, c.images(), "image"))
    if img["id"] in c.fresh:  # inserted at one size by this instruction: resizing or cropping it now is an order trap
        raise Skip("picture made by this instruction")
    if c.rng.random() < 0.5:
        w = c.pick([x for x in ("4cm", "7cm", "10cm") if abs(float(x[:-2]) - img["width_cm"]) > 0.5])
        c.run("resize_image", image=img["id"], width=w)
        return c.say([f"resize {ref} to {w.replace('cm', ' cm')} wide, keeping its proportions", f"set the width of {ref} to {w.replace('cm', ' cm')} (keep the aspect ratio)",
                  f"{ref} should be {w.replace('cm', ' cm')} across, scaled proportionally"],
                 [f"把{ref}宽度改为{w.replace('cm', '厘米')}，保持比例", f"{ref}宽度设为{w.replace('cm', '厘米')}，锁定纵横比", f"{ref}等比例缩放到宽{w.replace('cm', '厘米')}"])
    s = c.rng.choice([50, 150])
    c.run("resize_image", image=img["id"], scale=s)
    return c.say([f"make {ref} {'half its size' if s == 50 else '50% bigger'}", f"scale {ref} to {s}%",
                  f"{ref} is {'too big: shrink it to half' if s == 50 else 'too small: enlarge it by half again'}"],
                 [f"把{ref}{'缩小一半' if s == 50 else '放大到原来的1.5倍'}", f"{ref}缩放到{s}%", f"{ref}{'太大了，缩成原来的一半' if s == 50 else '太小了，放大50%'}"])


@edit(0.5)
def replace_picture(c: Ctx) -> str:
    img, ref = named(c, prefer(c, c.images(), "image"))
    name = c.pick([n for n in ("logo.png", "photo.png", "diagram.png", "map.png") if n != img.get("file")])
    c.run("replace_image", image=img["id"], path=name)
    return c.say([f"swap {ref} for {name}, keeping the same size", f"replace {ref} with the file {name} at the same size",
                  f"use {name} instead of {ref}; the size should stay as it is"],
                 [f"把{ref}换成 {name}，大小不变", f"用 {name} 替换{ref}，尺寸保持不变", f"{ref}改用 {name} 这张图，大小照旧"])


@edit(0.5)
def delete_picture(c: Ctx) -> str:
    img, ref = named(c, prefer(c, c.images(), "image"))
    c.run("delete_image", image=img["id"])  # the paragraph stays, as in Word: the words do not ask to remove it
    c.memory.pop("image", None)
    return c.say([f"delete {ref}", f"take out {ref}", f"{ref} isn't needed, please remove it"], [f"删除{ref}", f"把{ref}去掉", f"{ref}用不上，删掉吧"])


@edit(0.6)
def align_picture(c: Ctx) -> str:
    img = c.pick([i for i in c.images() if i.get("placement") == "inline"])
    ref = c.ref_image(img)
    a = c.rng.choice(["left", "right"])
    c.run("set_image_alignment", image=img["id"], alignment=a)
    return c.say([f"align {ref} to the {a}", f"move {ref} over to the {a} margin", f"{ref} should sit on the {a} side of the page"],
                 [f"{ref}{'左' if a == 'left' else '右'}对齐", f"把{ref}靠{'左' if a == 'left' else '右'}放", f"{ref}改成{'左' if a == 'left' else '右'}对齐"])


@edit(0.6)
def wrap_picture(c: Ctx) -> str:
    img, ref = named(c, prefer(c, c.images(), "image"))
    wrap, side = c.rng.choice([("square", "right"), ("tight", "left"), ("top_bottom", "center")])
    c.run("set_image_wrap", image=img["id"], wrap=wrap, horizontal=side)
    en = {"square": "square text wrapping", "tight": "tight wrapping", "top_bottom": "top-and-bottom wrapping"}[wrap]
    zh = {"square": "四周型环绕", "tight": "紧密型环绕", "top_bottom": "上下型环绕"}[wrap]
    side_zh = {"right": "靠右", "left": "靠左", "center": "居中"}[side]
    return c.say([f"give {ref} {en} and place it on the {side}" if side != "center" else f"set {ref} to {en}, centred",
                  f"change the wrapping of {ref} to {en}, positioned {'centred' if side == 'center' else 'on the ' + side}",
                  f"let the text flow around {ref} with {en} ({'centred' if side == 'center' else side + ' side'})"],
                 [f"{ref}设为{zh}，{side_zh}", f"{ref}的文字环绕方式改为{zh}，位置{side_zh}", f"把{ref}设置成{zh}并{side_zh}摆放"])


@edit(0.6)
def alt_text(c: Ctx) -> str:
    img, ref = named(c, prefer(c, c.images(), "image"))
    text = c.pick(["Photo of the main office", "Diagram of the process", "Illustration for this section"] if c.dl == "en" else ["办公楼照片", "流程示意图", "本节配图"])
    c.run("set_image_alt_text", image=img["id"], alt_text=text)
    return c.say([f"set the alt text of {ref} to {q(c, text)}", f"give {ref} the alternative text {q(c, text)} for screen readers",
                  f"{ref} has no useful description; its alt text should be {q(c, text)}"],
                 [f"给{ref}设置替代文字“{text}”", f"{ref}的可选文字改成“{text}”", f"为方便读屏软件，给{ref}加替代文字“{text}”"])


@edit(0.5)
def crop_picture(c: Ctx) -> str:
    img, ref = named(c, prefer(c, c.images(), "image"))
    if img["id"] in c.fresh:  # inserted at one size by this instruction: resizing or cropping it now is an order trap
        raise Skip("picture made by this instruction")
    v = c.rng.choice([10, 15, 20])
    c.run("crop_image", image=img["id"], left=v, right=v)
    return c.say([f"crop {v}% off the left and right edges of {ref}", f"trim {ref} by {v}% on each side (left and right)",
                  f"cut {v}% from both the left and the right of {ref}"],
                 [f"把{ref}左右两边各裁掉{v}%", f"{ref}左右各裁剪{v}%", f"裁剪{ref}：左边和右边各去掉{v}%"])


# ============================================================ charts
@edit(1.2)
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
    c.memory["chart"] = next(i for i in res.created if i.startswith("chart"))
    names = {"column": ("column", "柱形图"), "bar": ("bar", "条形图"), "line": ("line", "折线图")}[ctype]
    return c.say([f"right below {ref}, add a {names[0]} chart of its data (one series per row, the column headers as categories) titled {q(c, title)}",
                  f"chart {ref} as a {names[0]} chart placed just under it: rows as series, column headers as categories, title {q(c, title)}",
                  f"I'd like to see {ref} as a {names[0]} chart underneath it, titled {q(c, title)} (each row a series, headers as the categories)"],
                 [f"在{ref}下方插入一个{names[1]}，用表中数据（每行一个系列，表头作分类），标题为“{title}”",
                  f"用{ref}的数据在它下面生成{names[1]}，每行是一个系列、表头是分类，图表标题“{title}”",
                  f"把{ref}做成{names[1]}放在表格下面，标题写“{title}”（行作系列，表头作分类）"])


@edit(0.8)
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
    c.memory["chart"] = next(i for i in res.created if i.startswith("chart"))
    pairs = ", ".join(f"{a} {b}%" for a, b in zip(cats, vals))
    return c.say([f"insert a {'pie' if ctype == 'pie' else 'doughnut'} chart {where} titled {q(c, title)} showing {pairs}, legend on the right",
                  f"{where}, add a {'pie' if ctype == 'pie' else 'doughnut'} chart {q(c, title)} with these shares: {pairs} (legend at the right)",
                  f"I need a {'pie' if ctype == 'pie' else 'doughnut'} chart {where}: title {q(c, title)}, data {pairs}, legend on the right-hand side"],
                 [f"{where}插入{'饼图' if ctype == 'pie' else '圆环图'}，标题“{title}”，数据为{pairs}，图例放右边",
                  f"{where}加一个{'饼图' if ctype == 'pie' else '圆环图'}“{title}”，各项占比：{pairs}，图例在右侧",
                  f"{where}做一个{'饼图' if ctype == 'pie' else '圆环图'}，标题写“{title}”，数据{pairs}，图例靠右"])


def _chart(c: Ctx) -> dict:
    return prefer(c, [ch for ch in c.charts() if ch.get("categories") and ch.get("series")], "chart")


@edit(0.7)
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


@edit(0.6)
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


@edit(0.8)
def chart_type(c: Ctx) -> str:
    ch, ref = named(c, _chart(c))
    new = c.pick([t for t in ("line", "column", "bar", "area") if t != ch.get("chart_type")])
    c.run("change_chart_type", chart=ch["id"], chart_type=new)
    zh = {"line": "折线图", "column": "柱形图", "bar": "条形图", "area": "面积图"}[new]
    return c.say([f"turn {ref} into a {new} chart", f"show {ref} as a {new} chart instead", f"a {new} chart would read better: change the type of {ref}"],
                 [f"把{ref}改成{zh}", f"{ref}换成{zh}", f"{ref}的图表类型改为{zh}"])


@edit(0.7)
def chart_title(c: Ctx) -> str:
    ch, ref = named(c, _chart(c))
    title = c.pick(["Results at a glance", "Trend over the year", "Key figures"] if c.dl == "en" else ["结果一览", "全年走势", "关键数据"])
    if ch.get("title") == title:
        raise Skip("same")
    c.run("set_chart_title", chart=ch["id"], title=title)
    return c.say([f"retitle {ref} {q(c, title)}", f"change the title of {ref} to {q(c, title)}", f"{ref} should be titled {q(c, title)}"],
                 [f"把{ref}的标题改成“{title}”", f"{ref}的图表标题换成“{title}”", f"{ref}标题改为“{title}”"])


@edit(0.6)
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


@edit(0.5)
def chart_size(c: Ctx) -> str:
    ch, ref = named(c, _chart(c))
    w = c.pick([x for x in ("10cm", "12cm", "14cm") if abs(float(x[:-2]) - ch["width_cm"]) > 0.5])
    c.run("resize_chart", chart=ch["id"], width=w)
    return c.say([f"make {ref} {w.replace('cm', ' cm')} wide (keep its proportions)", f"resize {ref} to a width of {w.replace('cm', ' cm')}, scaled proportionally",
                  f"{ref} should be {w.replace('cm', ' cm')} wide, same aspect ratio"],
                 [f"{ref}宽度调整为{w.replace('cm', '厘米')}，等比缩放", f"把{ref}缩放到宽{w.replace('cm', '厘米')}，保持比例", f"{ref}宽度改成{w.replace('cm', '厘米')}（高度按比例）"])


@edit(0.4)
def chart_delete(c: Ctx) -> str:
    ch, ref = named(c, c.pick(c.charts()))
    c.run("delete_chart", chart=ch["id"])  # the paragraph stays, as in Word: the words do not ask to remove it
    c.memory.pop("chart", None)
    return c.say([f"delete {ref}", f"remove {ref}, we don't need it", f"take {ref} out of the document"], [f"删除{ref}", f"{ref}不需要了，删掉", f"把{ref}从文档里去掉"])


# ============================================================ formatting
@edit(1.5)
def format_heading(c: Ctx) -> str:
    h = c.pick([h for h in c.headings() if c._unique_heading(h)])
    ref = c.ref_heading(h)
    cname, col = c.colour()
    size = c.rng.choice([14, 16, 18])
    if c.rng.random() < 0.5:
        c.run("set_text_format", paragraphs=h["id"], color=col)
        return c.say([f"colour {ref} {cname}", f"make {ref} {cname}", f"change the colour of {ref} to {cname}"],
                 [f"把{ref}改成{cname}", f"{ref}字体颜色设为{cname}", f"{ref}的文字颜色换成{cname}"])
    c.run("set_text_format", paragraphs=h["id"], color=col, size_pt=size)
    return c.say([f"make {ref} {cname} and {size} pt", f"set {ref} in {size}-point {cname}", f"{ref} should be {size} pt and {cname}"],
                 [f"{ref}设为{cname}、{size}磅", f"把{ref}的字号改为{size}磅，颜色{cname}", f"{ref}改用{size}磅{cname}字"])


_MONTHS = "January|February|March|April|May|June|July|August|September|October|November|December"
_EN_EMPHASIS = re.compile(rf"(?<![\w.,])(?:\d{{1,2}} (?:{_MONTHS})(?: \d{{4}})?|(?:{_MONTHS}) \d{{1,2}}(?:, \d{{4}})?|\d[\d,]*(?:\.\d+)?"
                          r"(?:%| per ?cent| million| dollars| days| weeks| months| years| students| minutes| hours| people)?)(?![\w%])"
                          r"|\b(?!which\b|there\b|their\b|about\b|through\b|because\b)[a-z]{7,}\b")
_ZH_EMPHASIS = re.compile(r"(?<![\d.])第?(?:\d{4}年\d{1,2}月\d{1,2}日|\d{1,2}月\d{1,2}日|\d{4}年\d{1,2}月|\d+(?:\.\d+)?"
                          r"(?:[%％]|万元|亿元|万|亿|元|个|人|名|家|天|年|月|日|小时|分钟|次|项|倍|台|份|所|位|平方米|公里|岁|季度|期|届|章|条|周|批)?)(?![\d.%％])")


def emphasis_span(text: str) -> str | None:
    """What a user would pick out in a paragraph: a whole number with its unit or a whole date ("4月30日", "12%",
    "1 October"), else a long English word or a short Chinese clause; never part of a word. None if nothing fits."""
    if has_cjk(text):
        m = next((m for m in _ZH_EMPHASIS.finditer(text) if m.start() >= 1), None)
        span = m.group(0) if m else phrase_span(text, 4, 10)
    else:
        m = next((m for m in _EN_EMPHASIS.finditer(text) if m.start() >= 5), None)
        span = m.group(0).rstrip(".,") if m else None
    return span if span and text.count(span) == 1 else None


@edit(1.3)
def emphasise_words(c: Ctx) -> str:
    p = pick_body(c, 20)
    span = emphasis_span(p["text"])
    if span is None:
        raise Skip("span")
    _, ref = named(c, p)
    choice = c.rng.randrange(3)
    if choice == 0:
        c.run("set_text_format", paragraphs=p["id"], span={"match": span}, bold=True)
        return c.say([f"bold {q(c, span)} in {ref}", f"in {ref}, put {q(c, span)} in bold", f"{q(c, span)} in {ref} should stand out: make it bold"],
                     [f"把{ref}中的“{span}”加粗", f"{ref}里“{span}”设为粗体", f"{ref}里的“{span}”要醒目一点，加粗"])
    if choice == 1:
        cname, col = c.colour()
        c.run("set_text_format", paragraphs=p["id"], span={"match": span}, bold=True, color=col)
        return c.say([f"make {q(c, span)} in {ref} bold and {cname}", f"in {ref}, set {q(c, span)} in bold {cname}",
                      f"pick out {q(c, span)} in {ref}: bold, {cname}"],
                     [f"{ref}中的“{span}”加粗并标成{cname}", f"把{ref}里的“{span}”设成{cname}粗体", f"{ref}中“{span}”用{cname}加粗标出来"])
    c.run("set_text_format", paragraphs=p["id"], span={"match": span}, highlight="yellow")
    return c.say([f"highlight {q(c, span)} in {ref} in yellow", f"put a yellow highlight on {q(c, span)} in {ref}",
                  f"mark {q(c, span)} in {ref} with the yellow highlighter"],
                 [f"用黄色突出显示{ref}里的“{span}”", f"{ref}中的“{span}”加黄色高亮", f"把{ref}里“{span}”用黄色荧光笔标出来"])


@edit(0.8)
def italic_paragraph(c: Ctx) -> str:
    p, ref = named(c, pick_body(c))
    cname, col = c.pick([("grey", "808080"), ("dark blue", "1F4E79")] if c.lang == "en" else [("灰色", "808080"), ("深蓝色", "1F4E79")])
    c.run("set_text_format", paragraphs=p["id"], italic=True, color=col)
    c.memory["formatted"] = p["id"]
    return c.say([f"set {ref} in {cname} italics", f"make {ref} italic and {cname}", f"{ref} should look like an aside: {cname}, in italics"],
                 [f"{ref}改为{cname}斜体", f"把{ref}设成斜体，颜色{cname}", f"{ref}用{cname}斜体显示"])


@edit(0.6)
def font_paragraphs(c: Ctx) -> str:
    body = c.body()
    if len(body) < 2:
        raise Skip("few")
    if c.dl == "zh":
        font, size = c.rng.choice([("宋体", 12), ("仿宋", 14), ("楷体", 12)])
        c.run("set_text_format", paragraphs=[p["id"] for p in body], font=font, east_asia_font=font, size_pt=size)  # all text, as Word's font box
    else:
        font, size = c.rng.choice([("Georgia", 11), ("Arial", 10), ("Times New Roman", 12)])
        c.run("set_text_format", paragraphs=[p["id"] for p in body], font=font, size_pt=size)
    return c.say([f"set all the ordinary body paragraphs (not headings or lists) in {font} {size} pt", f"change the body text (every normal paragraph, headings and lists excluded) to {font}, {size} pt",
                  f"the normal paragraphs should all be {font} at {size} pt; leave headings and lists as they are"],
                 [f"所有正文段落（不含标题和列表）改成{font}，{size}磅", f"正文的普通段落统一用{font}{size}磅，标题和列表不动",
                  f"把全部正文段落设为{font}、{size}磅（标题、列表除外）"])


@edit(0.6, needs=("formatted",))
def clear_format(c: Ctx) -> str:
    pid = c.memory.get("formatted")
    if pid not in c.doc.ids("p"):
        raise Skip("gone")
    p = c.para(pid)
    ref = c.ref_para(p)
    c.run("clear_text_format", paragraphs=pid)
    c.memory.pop("formatted")
    return c.say([f"clear the formatting of {ref} again so it looks like normal text", f"on second thought, remove the direct formatting from {ref}",
                  f"reset {ref} to plain text formatting"],
                 [f"{ref}的格式还是清除掉吧，恢复成普通正文的样子", f"清除{ref}的字符格式", f"{ref}的格式改回去，恢复成默认的正文格式"])


@edit(1.2)
def paragraph_layout(c: Ctx) -> str:
    p, ref = named(c, pick_body(c))
    opt = c.rng.randrange(4)
    if c.dl == "zh" and has_cjk(p["text"]) and opt == 0:
        c.run("set_paragraph_format", paragraphs=p["id"], first_line_chars=2)
        return c.say([f"indent the first line of {ref} by two characters", f"give {ref} a two-character first-line indent", f"{ref} should start with a first-line indent of 2 characters"],
                 [f"{ref}首行缩进2字符", f"给{ref}设置首行缩进两个字", f"{ref}开头空两格（首行缩进2字符）"])
    if opt <= 1:
        c.run("set_paragraph_format", paragraphs=p["id"], alignment="justify", line_spacing=1.5)
        return c.say([f"justify {ref} and give it 1.5 line spacing", f"set {ref} to justified alignment with 1.5 line spacing", f"{ref}: justify it, 1.5 lines"],
                 [f"{ref}两端对齐，1.5倍行距", f"把{ref}设为两端对齐、1.5倍行距", f"{ref}改成1.5倍行距并两端对齐"])
    if opt == 2:
        c.run("set_paragraph_format", paragraphs=p["id"], left_indent="1cm", right_indent="1cm")
        return c.say([f"indent {ref} by 1 cm on both sides", f"give {ref} 1 cm left and right indents", f"pull {ref} in by 1 cm from each margin"],
                 [f"{ref}左右各缩进1厘米", f"把{ref}的左缩进和右缩进都设为1厘米", f"{ref}两边各往里缩1厘米"])
    c.run("set_paragraph_format", paragraphs=p["id"], space_before="12pt", space_after="12pt")
    return c.say([f"add 12 pt of space above and below {ref}", f"give {ref} 12 pt spacing before and after", f"{ref} needs more room around it: 12 pt above and 12 pt below"],
                 [f"{ref}段前段后各12磅", f"把{ref}的段前、段后间距都设为12磅", f"{ref}上下各留12磅的间距"])


@edit(0.8)
def center_title(c: Ctx) -> str:
    t = c.pick([p for p in c.paragraphs() if p.get("style") == "Title" and p["text"].strip()])
    opt = c.rng.random() < 0.5
    if opt:
        c.run("set_paragraph_format", paragraphs=t["id"], alignment="center")
        return c.say(["centre the document title", "put the title in the middle of the line", "the main title should be centred"],
                 ["文档标题居中", "把大标题居中", "标题放到中间（居中对齐）"])
    c.run("set_paragraph_format", paragraphs=t["id"], alignment="center", space_after="18pt")
    c.run("set_text_format", paragraphs=t["id"], bold=True)
    return c.say(["centre the title, make it bold and leave 18 pt of space under it", "the title should be centred and bold, with 18 pt after it",
                  "format the title: centred, bold, 18 pt space below"],
                 ["标题居中加粗，标题下方留18磅间距", "大标题设为居中、加粗，段后18磅", "文档标题居中并加粗，下面空出18磅"])


@edit(0.7)
def shade_paragraph(c: Ctx) -> str:
    p, ref = named(c, pick_body(c))
    fname, fill = c.fill()
    c.run("set_paragraph_shading", paragraphs=p["id"], fill=fill)
    return c.say([f"give {ref} a {fname} background", f"shade {ref} in {fname}", f"put {ref} on a {fname} background so it stands out"],
                 [f"给{ref}加{fname}底纹", f"{ref}的底色设为{fname}", f"{ref}加上{fname}背景，醒目一点"])


@edit(0.7)
def box_paragraph(c: Ctx) -> str:
    p, ref = named(c, pick_body(c))
    cname, col = c.colour()
    c.run("set_paragraph_border", paragraphs=p["id"], sides=["box"], style="single", size_pt=1, color=col)
    return c.say([f"put a thin {cname} box around {ref}", f"draw a 1 pt {cname} border around {ref}", f"frame {ref} with a 1 pt {cname} line on all four sides"],
                 [f"给{ref}加一个{cname}细边框", f"{ref}四周加1磅{cname}边框", f"用1磅{cname}线把{ref}框起来"])


@edit(0.5)
def rule_under_title(c: Ctx) -> str:
    t = c.pick([p for p in c.paragraphs() if p.get("style") == "Title" and p["text"].strip()])
    c.run("set_paragraph_border", paragraphs=t["id"], sides=["bottom"], style="single", size_pt=1.5, color="1F4E79")
    return c.say(["draw a 1.5 pt dark blue line under the title (a bottom border)", "give the title a dark blue bottom border, 1.5 pt",
                  "underline the whole title line with a 1.5 pt dark blue paragraph border"],
                 ["在标题下方加一条1.5磅深蓝色下边框线", "给大标题加1.5磅深蓝色的下框线", "标题底部画一条深蓝色横线（1.5磅下边框）"])


@edit(0.6)
def signature_tabs(c: Ctx) -> str:
    cands = [p for p in c.paragraphs() if "____" in p["text"] and len(p["text"].strip()) <= 60 and "\t" not in p["text"]
             and sum(1 for x in c.paragraphs() if x["text"] == p["text"]) == 1]
    p = c.pick(cands)
    c.run("set_tab_stops", paragraphs=[p["id"]], stops=[{"position": "15cm", "alignment": "right", "leader": "dot"}])
    return c.say([f"give the signature line {q(c, p['text'].strip())} a right-aligned tab stop at 15 cm with a dotted leader",
                  f"on the signature line {q(c, p['text'].strip())}, set a right tab at 15 cm with dot leaders",
                  f"add a 15 cm right-aligned tab stop, dotted leader, to the signature line {q(c, p['text'].strip())}"],
                 [f"给签名行{q(c, p['text'].strip())}设置15厘米处的右对齐制表位，前导符用点", f"签名行{q(c, p['text'].strip())}在15厘米处加右对齐制表位，带点状前导符",
                  f"在签名行{q(c, p['text'].strip())}上设一个15厘米的右对齐制表位（前导符为点）"])


@edit(1.0)
def quote_style(c: Ctx) -> str:
    p, ref = named(c, pick_body(c))
    style = c.rng.choice(["Quote", "Intense Quote"])
    c.run("apply_style", paragraphs=p["id"], style=style)
    return c.say([f"apply the {style} style to {ref}", f"format {ref} as a quotation ({style} style)", f"{ref} is a quote; give it the {style} style"],
                 [f"{ref}应用“{style}”样式", f"把{ref}设成引用样式（{style}）", f"{ref}是引文，套用“{style}”样式"])


@edit(0.7)
def promote_to_heading(c: Ctx) -> str:
    cands = [p for p in c.paragraphs() if not heading_level(p) and 3 <= len(p["text"].strip()) <= 30 and not p.get("list") and p.get("style") == "Normal"
             and p.get("runs") and all(r.get("bold") for r in p["runs"] if r.get("text", "").strip()) and not p["text"].strip().startswith(("(", "（"))
             and not re.search(r"[.。,，:：!?！？]$|_|\t|\d{3}", p["text"].strip()) and not p["text"].strip().startswith(("Dear", "尊敬", "Kind", "此致"))]
    p = c.pick(cands)
    level = c.rng.choice([1, 2])
    if sum(1 for x in c.paragraphs() if x["text"].strip() == p["text"].strip()) != 1:
        raise Skip("dup")
    c.run("apply_style", paragraphs=p["id"], style=f"Heading {level}")
    return c.say([f"the bold line {q(c, p['text'].strip())} is really a heading: give it the Heading {level} style",
                  f"turn the bold line {q(c, p['text'].strip())} into a proper Heading {level}",
                  f"apply Heading {level} to the line {q(c, p['text'].strip())} (it is bold text acting as a heading)"],
                 [f"加粗的那行“{p['text'].strip()}”其实是标题，把它设为{level}级标题（标题 {level} 样式）", f"把加粗的“{p['text'].strip()}”一行改用“标题 {level}”样式",
                  f"“{p['text'].strip()}”这行只是加粗的文字，应设为{level}级标题"])


@edit(0.9)
def new_style(c: Ctx) -> str:
    existing = {s["name"] for s in c.st["styles"]["styles"]}
    name = c.pick([n for n in extra(c, "styles") if n not in existing])
    p, ref = named(c, pick_body(c))
    cname, col = c.colour()
    size = c.rng.choice([10, 10.5, 12])
    args = dict(name=name, kind="paragraph", based_on="Normal", italic=True, size_pt=size, color=col, apply_to=[p["id"]])
    c.run("create_style", **args)
    c.memory["style"] = name
    return c.say([f"create a paragraph style called {q(c, name)} (based on Normal, italic, {size} pt, {cname}) and apply it to {ref}",
                  f"set up a new paragraph style {q(c, name)}: based on Normal, italic, {size} pt, {cname}; then use it for {ref}",
                  f"define a style {q(c, name)} for paragraphs ({size} pt {cname} italics, based on Normal) and give {ref} that style"],
                 [f"新建一个段落样式“{name}”（基于正文，斜体，{size}磅，{cname}），并应用到{ref}", f"创建段落样式“{name}”：以正文为基准，斜体、{size}磅、{cname}，然后给{ref}用上",
                  f"定义一个新样式“{name}”（段落样式，基于正文，{cname}{size}磅斜体），应用于{ref}"])


@edit(0.5, needs=("style",))
def reuse_style(c: Ctx) -> str:
    name = c.memory["style"]
    p = pick_body(c)
    if p.get("style") == name:
        raise Skip("same")
    ref = c.ref_para(p)
    c.run("apply_style", paragraphs=p["id"], style=name)
    return c.say([f"use the {q(c, name)} style you created for {ref} too", f"apply {q(c, name)} to {ref} as well", f"give {ref} the same {q(c, name)} style"],
                 [f"{ref}也用刚才建的“{name}”样式", f"把“{name}”样式也应用到{ref}", f"{ref}同样套用“{name}”样式"])


@edit(1.0)
def restyle_headings(c: Ctx) -> str:
    if not c.headings(1):
        raise Skip("no headings")
    cname, col = c.colour()
    if c.dl == "zh":
        font, size = c.rng.choice([("黑体", 16), ("微软雅黑", 15)])
        c.run("modify_style", name="Heading 1", font=font, east_asia_font=font, size_pt=size, color=col)  # all text, as Word's font box
    else:
        font, size = c.rng.choice([("Arial", 16), ("Georgia", 15), ("Calibri Light", 16)])
        c.run("modify_style", name="Heading 1", font=font, size_pt=size, color=col)
    return c.say([f"change the Heading 1 style to {font} {size} pt in {cname}, so every main heading updates", f"update the Heading 1 style itself: {font}, {size} pt, {cname}",
                  f"redefine Heading 1 as {font}, {size} pt, {cname}, so all level-1 headings follow"],
                 [f"修改“标题 1”样式：{font}、{size}磅、{cname}，让所有一级标题一起变", f"所有一级标题统一改成{font}{size}磅{cname}（改样式定义）",
                  f"把“标题 1”样式改为{font}、{size}磅、{cname}"])


@edit(0.7)
def default_font(c: Ctx) -> str:
    if c.dl == "zh":
        font, size = c.rng.choice([("宋体", 10.5), ("仿宋", 12), ("微软雅黑", 10.5)])
        c.run("set_default_font", east_asia_font=font, size_pt=size)
        sz = "五号" if size == 10.5 else "小四"
        return c.say([f"set the document's default Chinese font to {font}, {size} pt", f"make {font} at {size} pt the default East Asian font of the document",
                  f"change the default font for Chinese text to {font}, {size} pt"],
                 [f"把整个文档的默认中文字体设为{font}，字号{sz}", f"文档默认中文字体改成{font}，{sz}字", f"默认中文字体用{font}，字号设为{sz}"])
    font, size = c.rng.choice([("Georgia", 11), ("Arial", 10), ("Cambria", 12)])
    c.run("set_default_font", font=font, size_pt=size)
    return c.say([f"set the document's default font to {font}, {size} pt", f"change the base font of the whole document to {font} {size} pt",
                  f"make {font}, {size} pt the default font for this document"],
                 [f"文档默认字体改成{font}，{size}磅", f"把默认西文字体设为{font}、{size}磅", f"整个文档的默认字体用{font}，{size}磅"])


@edit(0.9)
def to_numbered(c: Ctx) -> str:
    items = c.list_items()
    groups = _list_groups(c, items)
    g = c.pick([g for g in groups if len(g) >= 2 and g[0].get("list", {}).get("kind") == "bullet"])
    first = _item_opening(g[0]["text"])
    c.run("set_list_format", paragraphs=[p["id"] for p in g], kind="numbered")
    return c.say([f"turn the bulleted list that starts with {q(c, first)} into a numbered list", f"number the bullet list beginning {q(c, first)} instead",
                  f"the list starting {q(c, first)} should be numbered, not bulleted"],
                 [f"把以“{first}”开头的项目符号列表改成编号列表", f"以“{first}”开头的列表改用编号", f"“{first}”开头的那组项目符号换成1、2、3编号"])


@edit(0.7)
def paragraphs_to_list(c: Ctx) -> str:
    body = c.body()
    runs = []
    for h in c.headings():
        sec = c.section_paragraphs(h["id"])
        if len(sec) >= 2 and all(p in body for p in sec) and len(sec) <= 4 and c._unique_heading(h):
            runs.append((h, sec))
    h, sec = c.pick(runs)
    kind = c.rng.choice(["bullet", "numbered"])
    c.run("set_list_format", paragraphs=[p["id"] for p in sec], kind=kind)
    return c.say([f"make the paragraphs under {c.ref_heading(h)} into a {'bulleted' if kind == 'bullet' else 'numbered'} list",
                  f"turn the text under {c.ref_heading(h)} into {'bullet points' if kind == 'bullet' else 'a numbered list'}, one item per paragraph",
                  f"format the paragraphs of {c.ref_section(h)} as a {'bulleted' if kind == 'bullet' else 'numbered'} list"],
                 [f"把{c.ref_heading(h)}下面的几段改成{'项目符号' if kind == 'bullet' else '编号'}列表", f"{c.ref_heading(h)}下的段落每段作为一项，做成{'项目符号' if kind == 'bullet' else '编号'}列表",
                  f"{c.ref_section(h)}的几段内容改用{'项目符号' if kind == 'bullet' else '编号'}列出"])


@edit(0.7)
def unlist(c: Ctx) -> str:
    groups = _list_groups(c, c.list_items())
    g = c.pick([g for g in groups if len(g) >= 2])
    first = _item_opening(g[0]["text"])
    c.run("remove_list", paragraphs=[p["id"] for p in g])
    return c.say([f"remove the bullets/numbers from the list beginning {q(c, first)} so they are plain paragraphs", f"turn the list that starts with {q(c, first)} back into ordinary paragraphs",
                  f"the list beginning {q(c, first)} doesn't need to be a list: plain paragraphs please"],
                 [f"去掉以“{first}”开头的那个列表的项目符号/编号，改成普通段落", f"把“{first}”开头的列表恢复成普通段落", f"以“{first}”开头的列表取消项目符号或编号"])


@edit(0.4)
def indent_item(c: Ctx) -> str:
    groups = _list_groups(c, c.list_items())
    g = c.pick([g for g in groups if len(g) >= 3 and all((p.get("list") or {}).get("level", 0) == 0 for p in g)])
    item = g[-1]
    item = dict(item, text=_item_opening(item["text"]))  # quoted by its opening words, tabs as spaces
    c.run("set_list_format", paragraphs=[item["id"]], level=1)
    return c.say([f"indent the list item {q(c, item['text'].strip())} one level (make it a sub-item)", f"make {q(c, item['text'].strip())} a sub-point of the item above it",
                  f"demote the list item {q(c, item['text'].strip())} to the second level"],
                 [f"把列表项“{item['text'].strip()}”降一级，变成上一项的子项", f"列表里的“{item['text'].strip()}”缩进一级", f"“{item['text'].strip()}”这一项改为二级列表项"])


def _item_opening(text: str) -> str:
    """The first words of a list item (all of it when short)."""
    text = " ".join(text.split())
    if has_cjk(text):
        return text if len(text) <= 14 else text[:12] + "……"
    words = text.split(" ")
    return text if len(words) <= 7 else " ".join(words[:6]) + "..."


def _list_groups(c: Ctx, items: list[dict]) -> list[list[dict]]:
    ids = [p["id"] for p in c.paragraphs()]
    groups: list[list[dict]] = []
    for p in items:
        if groups and ids.index(p["id"]) == ids.index(groups[-1][-1]["id"]) + 1 and (p.get("list") or {}).get("num_id") == (groups[-1][-1].get("list") or {}).get("num_id"):
            groups[-1].append(p)
        else:
            groups.append([p])
    return groups


@edit(0.6, needs=("formatted",))
def paint_format(c: Ctx) -> str:
    src = c.memory.get("formatted")
    if src not in c.doc.ids("p"):
        raise Skip("gone")
    target = c.pick([p for p in c.body() if p["id"] != src])
    ref_t = c.ref_para(target)
    ref_s = c.ref_para(c.para(src), allow_memory=False)
    c.run("copy_format", source=src, targets=[target["id"]], what="text")
    return c.say([f"format {ref_t} the same way as {ref_s} (copy its text formatting)", f"copy the text formatting of {ref_s} onto {ref_t}",
                  f"use the format painter: {ref_s} to {ref_t}"],
                 [f"用格式刷把{ref_s}的文字格式复制到{ref_t}", f"{ref_t}的文字格式改得和{ref_s}一样", f"把{ref_s}的字体格式刷到{ref_t}上"])


# ============================================================ structure
@edit(0.8)
def landscape_section(c: Ctx) -> str:
    t, ref = named(c, c.pick(c.tables()))
    paras = c.paragraphs()
    ids = [p["id"] for p in paras]
    before = t.get("after_paragraph")
    if not before or before not in ids:
        raise Skip("no anchor")
    c.run("insert_section_break", after=before, start="new_page", orientation="landscape")
    # a section ends at a paragraph: an empty one right after the table ends the landscape page, so the paragraph that
    # followed the table (often a heading) stays with its text on the portrait pages, as Word does it
    end = c.run("insert_paragraph", text="", position={"after": t["id"]}).created[0]
    c.run("insert_section_break", after=end, start="new_page", orientation="portrait")
    return c.say([f"put {ref} on its own landscape page (section breaks before and after it), with the rest staying portrait",
                  f"{ref} is too wide: give it a landscape page of its own using section breaks, the rest of the document stays portrait",
                  f"make just the page with {ref} landscape (new section before and after)"],
                 [f"让{ref}单独占一个横向页面（前后各插一个分节符），其余页面保持纵向", f"{ref}太宽了，前后加分节符，让它所在的页面改为横向，其他页不变",
                  f"只把{ref}那一页设为横向（用分节符隔开），其余仍是纵向"])


@edit(0.9)
def page_setup(c: Ctx) -> str:
    size = c.rng.choice(["A4", "Letter"])
    m = c.rng.choice(["2cm", "2.5cm", "3cm"])
    c.run("set_page_setup", section="all", size=size, margins={"top": m, "bottom": m, "left": m, "right": m})
    return c.say([f"switch the page size to {size} with {m.replace('cm', ' cm')} margins all round", f"set the paper to {size} and all four margins to {m.replace('cm', ' cm')}",
                  f"we print on {size}: change the page size, and make every margin {m.replace('cm', ' cm')}"],
                 [f"纸张改为{size}，上下左右页边距都设为{m.replace('cm', '厘米')}", f"页面设置：{size}纸，四边页边距{m.replace('cm', '厘米')}",
                  f"纸张大小用{size}，页边距统一{m.replace('cm', '厘米')}"])


@edit(0.5)
def landscape_all(c: Ctx) -> str:
    if all(s.get("orientation") == "landscape" for s in c.sections()):
        raise Skip("already")
    c.run("set_page_setup", section="all", orientation="landscape")
    return c.say(["turn the whole document to landscape", "set every page to landscape orientation", "switch all sections to landscape"],
                 ["整个文档的页面方向改为横向", "所有页面都设为横向", "纸张方向全部改成横向"])


@edit(0.7)
def two_columns(c: Ctx) -> str:
    secs = c.sections()
    k = len(secs) - 1 if len(secs) > 1 and c.rng.random() < 0.5 else "all"
    sep = c.rng.random() < 0.5
    c.run("set_columns", section=k, count=2, spacing="1cm", **({"separator": True} if sep else {}))
    line_en = " with a line between them" if sep else ""
    line_zh = "，中间加分隔线" if sep else ""
    if k == "all":
        return c.say([f"lay the document out in two columns, 1 cm apart{line_en}", f"set the whole document in two columns with a 1 cm gap{line_en}",
                  f"switch every page to a two-column layout (1 cm spacing){line_en}"],
                 [f"全文分两栏，栏间距1厘米{line_zh}", f"整个文档排成两栏，间距1厘米{line_zh}", f"所有页面改为双栏，栏距1厘米{line_zh}"])
    return c.say([f"set the last section of the document in two columns (1 cm gap){line_en}", f"lay out only the final section in two columns, 1 cm apart{line_en}",
                  f"the last section should be two-column, spacing 1 cm{line_en}"],
                 [f"文档最后一节分成两栏，间距1厘米{line_zh}", f"只把最后一节设为两栏，栏间距1厘米{line_zh}", f"最后一节排成两栏（间距1厘米）{line_zh}"])


@edit(0.6)
def merge_sections(c: Ctx) -> str:
    secs = c.sections()
    if len(secs) < 2:
        raise Skip("one section")
    c.run("remove_section_break", section=len(secs) - 2)
    return c.say(["remove the last section break so the end of the document is one section with what comes before it",
                  "delete the final section break (merge the last two sections)", "the last section break isn't needed; take it out"],
                 ["删除最后一个分节符，让文档结尾和前面合成同一节", "把最后一个分节符去掉，最后两节合并", "最后那个分节符不需要，删掉"])


@edit(1.0)
def set_header(c: Ctx) -> str:
    org = next((o for o in content()["orgs"][c.dl] if o in " ".join(p["text"] for p in c.paragraphs())), None)
    text = c.pick(([f"{org} - Confidential"] if org else []) + ["Internal use only", "Draft - not for circulation"] if c.dl == "en"
                  else ([f"{org} 内部资料"] if org else []) + ["内部资料 注意保密", "征求意见稿"])
    align = c.rng.choice(["right", "center"])
    c.run("set_header_footer", section="all", where="header", text=text, alignment=align)
    return c.say([f"set the header on every page to {q(c, text)}, {'right-aligned' if align == 'right' else 'centred'}",
                  f"put {q(c, text)} in the page header ({'right' if align == 'right' else 'centre'}), all pages",
                  f"the header should read {q(c, text)}, {'aligned right' if align == 'right' else 'centred'}, throughout"],
                 [f"每页页眉改成“{text}”，{'右对齐' if align == 'right' else '居中'}", f"页眉统一写“{text}”，{'靠右' if align == 'right' else '居中'}",
                  f"所有页面的页眉设为“{text}”（{'右对齐' if align == 'right' else '居中'}）"])


@edit(0.6)
def set_footer(c: Ctx) -> str:
    text = c.pick(["Prepared by the project office", "Version 2.0"] if c.dl == "en" else ["项目办公室编制", "第2版"])
    c.run("set_header_footer", section="all", where="footer", text=text, alignment="left")
    return c.say([f"put {q(c, text)} in the footer, aligned left", f"set the footer to {q(c, text)} on the left", f"the footer of every page should say {q(c, text)}, left-aligned"],
                 [f"页脚写上“{text}”，左对齐", f"每页页脚左侧写“{text}”", f"页脚内容改成“{text}”，靠左"])


@edit(0.6)
def first_page_different(c: Ctx) -> str:
    if c.sections()[0].get("different_first_page"):
        raise Skip("already")
    c.run("set_header_footer_options", section=0, different_first_page=True)
    return c.say(["use a different header and footer on the first page (leave the first page's header empty)", "turn on 'different first page' so the cover has no header or footer",
                  "the first page shouldn't show the header and footer: set a different first page"],
                 ["首页不同：第一页不显示页眉页脚", "设置首页不同，封面页不要页眉页脚", "第一页单独设置，不显示页眉和页脚"])


@edit(0.5)
def odd_even(c: Ctx) -> str:
    if c.sections()[0].get("different_odd_even"):
        raise Skip("already")
    text = "Even page" if c.dl == "en" else "偶数页"
    c.run("set_header_footer", section="all", where="header", text=text, kind="even", alignment="left")  # turns on odd/even itself
    return c.say([f"turn on different odd and even pages and make the even-page header read {q(c, text)}, aligned left",
                  f"use separate odd/even headers; on even pages the header is {q(c, text)} on the left",
                  f"set up different odd and even pages with {q(c, text)} as the left-aligned header of even pages"],
                 [f"设置奇偶页不同，偶数页页眉写“{text}”，左对齐", f"奇偶页页眉分开设置，偶数页页眉为“{text}”，靠左", f"开启奇偶页不同，偶数页的页眉左对齐写“{text}”"])


@edit(1.0)
def page_numbers(c: Ctx) -> str:
    align = c.rng.choice(["center", "right"])
    tmpl = c.rng.choice(["Page {PAGE} of {NUMPAGES}", "{PAGE}"]) if c.dl == "en" else c.rng.choice(["第 {PAGE} 页，共 {NUMPAGES} 页", "{PAGE}"])
    c.run("insert_page_numbers", section="all", where="footer", alignment=align, template=tmpl)
    side_en, side_zh = ("centred", "居中") if align == "center" else ("on the right", "右侧")
    if tmpl == "{PAGE}":
        return c.say([f"add plain page numbers (just the number) in the footer, {side_en}", f"number the pages at the bottom, {side_en}, digits only",
                  f"put simple page numbers in the footer ({side_en})"],
                 [f"在页脚{side_zh}插入页码（只显示数字）", f"页脚{side_zh}加上页码，只要数字", f"每页底部{side_zh}显示页码数字"])
    shown = tmpl.replace("{PAGE}", "X").replace("{NUMPAGES}", "Y")
    return c.say([f"add page numbers in the footer, {side_en}, in the form {q(c, shown)} (X = current page, Y = total pages)",
                  f"number the pages in the footer ({side_en}) as {q(c, shown)}, where X is the page and Y the page count",
                  f"put {q(c, shown)} page numbers at the bottom, {side_en} (X this page, Y total)"],
                 [f"在页脚{side_zh}插入页码，格式为“{shown}”（X 为当前页，Y 为总页数）", f"页脚{side_zh}加页码“{shown}”（X 是当前页码，Y 是总页数）",
                  f"每页底部{side_zh}显示“{shown}”样式的页码（X 当前页，Y 总页数）"])


@edit(0.4)
def roman_numbers(c: Ctx) -> str:
    c.run("insert_page_numbers", section=0, where="footer", alignment="center", template="{PAGE}", start=1, format="lowerRoman")
    return c.say(["number the pages of the first section in lower-case Roman numerals (i, ii, iii) starting at i, centred in the footer",
                  "the first section gets its own page numbers: i, ii, iii..., centred at the bottom, starting from i",
                  "use small Roman numerals (starting at i) for the first section's page numbers, centred in the footer"],
                 ["第一节的页码用小写罗马数字（i、ii、iii），从 i 开始，放在页脚居中", "第一节单独编页码：小写罗马数字，从 i 起，页脚居中",
                  "把第一节页脚居中的页码设为 i、ii、iii 格式，从 i 开始"])


@edit(0.8)
def add_toc(c: Ctx) -> str:
    if c.st["page_layout"].get("table_of_contents"):
        raise Skip("has toc")
    if len(c.headings()) < 3:
        raise Skip("few headings")
    title = c.paragraphs()[0]
    levels = c.rng.choice(["1-2", "1-3"])
    label = "Contents" if c.dl == "en" else "目录"
    c.run("insert_toc", position={"after": title["id"]}, levels=levels, title=label)
    c.memory["toc"] = True
    return c.say([f"insert a table of contents (heading levels {levels}) titled {q(c, label)} right after the first line of the document",
                  f"after the opening line, add a {q(c, label)} table of contents covering heading levels {levels}",
                  f"the document needs a contents list: put one titled {q(c, label)} below the first line, levels {levels}"],
                 [f"在文档第一行后面插入目录（标题级别{levels}），目录标题为“{label}”", f"第一行下面加一个目录，包含{levels}级标题，目录标题写“{label}”",
                  f"在开头第一行之后生成目录（{levels}级），标题为“{label}”"])


@edit(0.6)
def refresh_toc(c: Ctx) -> str:
    if not c.st["page_layout"].get("table_of_contents"):
        raise Skip("no toc")
    before = c.doc.snapshot()
    c.run("update_toc")
    if c.doc.snapshot().members == before.members:
        raise RuntimeError("noop")  # generator rolls back
    return c.say(["update the table of contents so it matches the headings", "refresh the contents list, the headings have changed", "bring the TOC up to date with the current headings"],
                 ["更新一下目录，使之与标题一致", "标题有变动，刷新一下目录", "重新生成目录，跟现在的标题对上"])


@edit(0.7)
def watermark(c: Ctx) -> str:
    text = c.pick(["DRAFT", "CONFIDENTIAL", "SAMPLE"] if c.dl == "en" else ["草稿", "机密", "样本"])
    layout = c.rng.choice(["diagonal", "horizontal"])
    c.run("add_watermark", text=text, section="all", layout=layout)
    c.memory["watermark"] = text
    return c.say([f"add a {layout} {q(c, text)} watermark to every page", f"put {q(c, text)} across each page as a {layout} watermark", f"watermark the document with {q(c, text)} ({layout})"],
                 [f"给每一页加上{'斜式' if layout == 'diagonal' else '水平'}水印“{text}”", f"文档加{'斜式' if layout == 'diagonal' else '水平'}水印“{text}”，每页都有",
                  f"每页都打上“{text}”水印（{'斜式' if layout == 'diagonal' else '水平'}）"])


@edit(0.5, needs=("watermark",))
def drop_watermark(c: Ctx) -> str:
    if not any(s.get("watermark") for s in c.sections()):
        raise Skip("none")
    c.run("remove_watermark", section="all")
    c.memory.pop("watermark")
    return c.say(["take the watermark off again", "remove the watermark", "the watermark can go now"], ["把水印去掉", "水印不要了，删除", "取消水印"])


@edit(0.5)
def drop_bookmark(c: Ctx) -> str:
    marks = [b for b in c.st["interactive"]["bookmarks"] if not b["name"].startswith("_")]
    b = c.pick(marks)
    c.run("delete_bookmark", bookmark=b["name"])
    return c.say([f"delete the bookmark {q(c, b['name'])}", f"remove the {q(c, b['name'])} bookmark", f"the bookmark {q(c, b['name'])} isn't used; delete it"],
                 [f"删除书签“{b['name']}”", f"把书签“{b['name']}”去掉", f"“{b['name']}”这个书签没用了，删除"])


@edit(0.6)
def change_link(c: Ctx) -> str:
    links = [h for h in c.st["interactive"]["hyperlinks"] if h.get("url") and h.get("paragraph")]
    h = c.pick(links)
    new = "https://www.example.net/updated"
    if h.get("url") == new:
        raise Skip("same")
    text = (h.get("text") or "").strip()
    if c.rng.random() < 0.5:
        c.run("edit_hyperlink", paragraph=h["paragraph"], text=h["text"], url=new)
        return c.say([f"point the {q(c, text)} link to {new} instead", f"change the address of the {q(c, text)} hyperlink to {new}", f"the {q(c, text)} link is out of date; it should go to {new}"],
                 [f"把“{text}”这个链接的地址改成 {new}", f"“{text}”超链接改为指向 {new}", f"“{text}”的链接过期了，换成 {new}"])
    c.run("edit_hyperlink", paragraph=h["paragraph"], text=h["text"], remove=True)
    return c.say([f"remove the hyperlink from {q(c, text)} but keep the words", f"unlink {q(c, text)} (leave the text in place)", f"{q(c, text)} shouldn't be a link any more; keep it as plain text"],
                 [f"取消“{text}”的超链接，文字保留", f"把“{text}”的链接去掉，文字不删", f"“{text}”不用再做超链接了，保留文字"])


@edit(0.7)
def drop_comment(c: Ctx) -> str:
    cms = c.st["interactive"]["comments"]
    cm = c.pick(cms)
    if sum(1 for x in cms if x["text"] == cm["text"]) != 1:
        raise Skip("dup")
    c.run("delete_comment", comment=cm["id"])
    who = cm.get("author") or ""
    return c.say([f"delete {who}'s comment {q(c, cm['text'])}" if who else f"delete the comment {q(c, cm['text'])}", f"remove the comment that says {q(c, cm['text'])}",
                  f"the comment {q(c, cm['text'])} has been dealt with; delete it"],
                 [f"删除批注“{cm['text']}”", f"把{who}写的那条批注（“{cm['text']}”）删掉" if who else f"删掉“{cm['text']}”这条批注", f"“{cm['text']}”这条批注已经处理了，删除"])


@edit(0.6)
def drop_footnote(c: Ctx) -> str:
    notes = c.st["interactive"]["footnotes"]
    n = c.pick(notes)
    if sum(1 for x in notes if x["text"] == n["text"]) != 1:
        raise Skip("dup")
    c.run("delete_footnote", note=n["id"])
    return c.say([f"delete the footnote {q(c, n['text'].strip())}", f"remove the footnote that reads {q(c, n['text'].strip())}", f"we can drop the footnote {q(c, n['text'].strip())}"],
                 [f"删除脚注“{n['text'].strip()}”", f"把内容为“{n['text'].strip()}”的脚注去掉", f"“{n['text'].strip()}”这条脚注不要了"])


@edit(0.8)
def demote_heading(c: Ctx) -> str:
    heads = c.headings(1)
    if len(heads) < 3:
        raise Skip("few")
    k = c.rng.randrange(1, len(heads))
    h, parent = heads[k], heads[k - 1]
    c.run("change_heading_level", paragraphs=[h["id"]], level=2)
    return c.say([f"make {c.ref_heading(h)} a subheading (level 2) under {c.ref_section(parent)}", f"demote {c.ref_heading(h)} to level 2 so it sits under {c.ref_section(parent)}",
                  f"{c.ref_heading(h)} is part of {c.ref_section(parent)}: change it to a Heading 2"],
                 [f"把{c.ref_heading(h)}降为二级标题，归到{c.ref_section(parent)}下面", f"{c.ref_heading(h)}改成二级标题，作为{c.ref_section(parent)}的小节",
                  f"将{c.ref_heading(h)}降一级（标题 2），并入{c.ref_section(parent)}"])


# ============================================================ lifecycle
@edit(0.8)
def properties(c: Ctx) -> str:
    title = c.paragraphs()[0]["text"].strip()
    if not title or len(title) > 60:
        raise Skip("title")
    version = c.pick(extra(c, "titles"))
    author = c.pick(content()["people"][c.dl])
    new_title = f"{title} ({version})" if c.dl == "en" else f"{title}（{version}）"
    c.run("set_properties", title=new_title, author=author)
    return c.say([f"set the document properties: title {q(c, new_title)}, author {author}", f"in the file properties, put {q(c, new_title)} as the title and {author} as the author",
                  f"update the file info: title {q(c, new_title)}, author {author}"],
                 [f"文档属性里标题填“{new_title}”，作者填“{author}”", f"把文件属性的标题设为“{new_title}”，作者设为“{author}”", f"修改文档信息：标题“{new_title}”，作者“{author}”"])


@edit(0.6)
def keywords(c: Ctx) -> str:
    kw = "; ".join(c.rng.sample(["review", "2025", "internal", "plan", "summary"], 3)) if c.dl == "en" else "；".join(c.rng.sample(["审阅", "2025", "内部", "计划", "总结"], 3))
    c.run("set_properties", keywords=kw, subject="Annual review" if c.dl == "en" else "年度审阅")
    return c.say([f"fill in the file properties: subject {q(c, 'Annual review')}, keywords {q(c, kw)}", f"set the subject property to {q(c, 'Annual review')} and the keywords to {q(c, kw)}",
                  f"for searching later, give the file the subject {q(c, 'Annual review')} and keywords {q(c, kw)}"],
                 [f"文件属性的主题写“年度审阅”，关键词写“{kw}”", f"把文档属性里的主题设为“年度审阅”，关键词设为“{kw}”", f"方便以后检索：主题“年度审阅”，关键词“{kw}”"])


@edit(0.7)
def custom_property(c: Ctx) -> str:
    name, value = c.pick(extra(c, "properties"))
    if name in (c.st["document_info"].get("custom_properties") or {}):
        raise Skip("exists")
    c.run("set_custom_property", name=name, value=value)
    shown = ("yes" if value else "no") if isinstance(value, bool) else value
    shown_zh = ("是" if value else "否") if isinstance(value, bool) else value
    kind = "a yes/no" if isinstance(value, bool) else ("a number" if isinstance(value, int) else "a text")
    suffix = "（是/否类型）" if isinstance(value, bool) else "（数字）" if isinstance(value, int) else ""
    return c.say([f"add {kind} custom property {q(c, name)} set to {shown}", f"create a custom document property {q(c, name)} ({kind.split(' ', 1)[1]}) with the value {shown}",
                  f"record {q(c, name)} = {shown} as {kind} custom property of the file"],
                 [f"添加自定义属性“{name}”，值为{shown_zh}" + suffix, f"新建文档自定义属性“{name}”，取值{shown_zh}" + suffix, f"在文件的自定义属性里加“{name}”：{shown_zh}" + suffix])


@edit(0.5)
def scrub_personal(c: Ctx) -> str:
    c.run("remove_personal_info")
    return c.say(["strip personal information (authors, reviewer names) from the file before I send it", "remove the personal details (author and reviewer names) saved in the file",
                  "I'm sending this out, so clear the hidden personal information like author names"],
                 ["发出去之前把文档里的个人信息（作者、批注人姓名等）清除掉", "删除文件中保存的个人信息（作者、审阅者姓名）", "要外发了，把作者之类的个人信息清掉"])


@edit(0.7)
def track_on(c: Ctx) -> str:
    if c.st["document_info"].get("track_changes"):
        raise Skip("on")
    c.run("set_track_changes", on=True)
    return c.say(["turn on Track Changes", "switch on change tracking for later edits", "from now on, track every change I make"],
                 ["打开修订模式", "开启修订（跟踪更改）", "接下来的修改都要留痕，开启修订"])


@edit(1.8)
def resolve_changes(c: Ctx) -> str:
    if not c.st["interactive"]["tracked_changes"]:
        raise Skip("none")
    action = c.rng.choice(["accept", "reject"])
    c.run("resolve_tracked_changes", action=action)
    return c.say([f"{action} all the tracked changes", f"{action} every tracked change in the document", f"go through the revisions and {action} them all"],
                 [f"{'接受' if action == 'accept' else '拒绝'}所有修订", f"把文档里的修订全部{'接受' if action == 'accept' else '拒绝'}", f"修订痕迹一律{'接受' if action == 'accept' else '拒绝'}"])


@edit(0.6)
def protect(c: Ctx) -> str:
    if c.st["document_info"].get("protection"):
        raise Skip("protected")
    mode = c.rng.choice(["comments", "read_only", "tracked_changes"])
    c.run("set_protection", mode=mode)
    en = {"comments": "so that people can only add comments", "read_only": "as read-only", "tracked_changes": "so every edit is tracked"}[mode]
    zh = {"comments": "只允许批注", "read_only": "设为只读", "tracked_changes": "所有修改都必须留修订痕迹"}[mode]
    return c.say([f"restrict editing {en} (no password)", f"protect the document {en}; no password needed", f"lock the file {en}, without a password"],
                 [f"限制编辑：{zh}（不设密码）", f"设置文档保护，{zh}，不要密码", f"给文档加编辑限制（{zh}），无需密码"])


@edit(0.5)
def update_all_fields(c: Ctx) -> str:
    fields = c.st["interactive"].get("fields") or []
    if not (c.st["page_layout"].get("table_of_contents") or fields or any(p.get("style") == "Caption" for p in c.paragraphs())):
        raise Skip("no fields")
    before = c.doc.snapshot()
    c.run("update_fields", count_pages=False)
    if c.doc.snapshot().members == before.members:
        raise RuntimeError("noop")
    return c.say(["update all the fields in the document (captions, contents, cross-references)", "refresh every field so caption numbers, contents and cross-references are current",
                  "the numbering looks stale: update all fields"],
                 ["更新文档中的所有域（题注编号、目录、交叉引用）", "把全部域刷新一遍，题注编号、目录和交叉引用都要是最新的", "编号好像没更新，更新所有域"])


# ============================================================ free text (the wording is left to the agent)
@edit(0.35)
def free_summary(c: Ctx) -> str:
    p, ref = named(c, pick_body(c, 40))
    text = {"en": "In short: the main points above still apply and will be reviewed next quarter.",
            "zh": "简而言之：以上要点继续有效，下季度将再次复核。"}[c.dl]
    c.memory["para"] = c.run("insert_paragraph", text=text, position={"after": p["id"]}).created[0]
    c.free_text = True
    return c.say([f"add a one-sentence summary of your own after {ref}", f"write a short one-line summary (your words) right after {ref}",
                  f"after {ref}, sum it up in one sentence of your own"],
                 [f"在{ref}后面自己写一句总结", f"{ref}后面加一句你自己概括的小结", f"用一句话总结{ref}，放在它后面（措辞你定）"])


@edit(0.3)
def free_comment(c: Ctx) -> str:
    p, ref = named(c, pick_body(c, 30))
    text = {"en": "This claim needs a supporting source.", "zh": "此处需要补充数据来源。"}[c.dl]
    c.run("insert_comment", paragraph=p["id"], text=text)
    c.free_text = True
    return c.say([f"add a comment on {ref} asking for evidence (your wording)", f"leave a comment on {ref} asking the author to back it up, in your own words",
                  f"comment on {ref}: ask for a source (word it as you like)"],
                 [f"在{ref}上加一条批注，请作者补充依据（措辞你定）", f"给{ref}加批注，请作者提供依据，怎么写你决定", f"在{ref}旁批注一下，要求补充来源（自己措辞）"])


SECTION_TABLES = ((0, 2), (1, 0), (2, 1), (3, 2))
"""Which extra table fits which extra section (Next Steps/tasks, Contacts/names, Background/figures, Timeline/tasks)."""


# ============================================================ multi-step requests (several calls for one wish)
@edit(1.2)
def styled_table(c: Ctx) -> str:
    data = c.pick(fitting(c, "tables"))
    if any(t["cells"] and t["cells"][0] == data[0] for t in c.st["tables"]):
        raise Skip("exists")
    where, pos = place(c)
    fname, fill = c.fill()
    cap = table_caption(c, data)
    res = c.run("insert_table", position=pos, data=data, style="Table Grid")
    tid = next(i for i in res.created if i.startswith("t"))
    c.memory["table"] = tid
    c.run("set_header_row", table=tid, rows=1, bold=True, fill=fill)
    c.run("set_table_properties", table=tid, alignment="center")
    c.run("insert_caption", target=tid, text=cap, where="above")
    rows = " / ".join(", ".join(r) for r in data[1:])
    return c.say([f"{where}, add a centred table with the header {', '.join(data[0])} and the rows {rows}; make the header bold on {fname} and caption the table {q(c, cap)} above it",
                  f"insert a table {where}: columns {', '.join(data[0])}, rows {rows}; centre it, bold {fname} header, and a caption {q(c, cap)} on top",
                  f"I need a table {where} with {', '.join(data[0])} as headings and the rows {rows}, centred, its header row bold on a {fname} fill, and the caption {q(c, cap)} above it"],
                 [f"{where}插入一个居中的表格，表头{'、'.join(data[0])}，数据行：{rows}；表头加粗、{fname}底纹，表格上方加题注“{cap}”",
                  f"{where}加表格：表头{'、'.join(data[0])}，数据{rows}；表格居中，表头{fname}底纹加粗，上方题注“{cap}”",
                  f"{where}做一个表（表头{'、'.join(data[0])}，内容{rows}），整体居中，表头加粗并用{fname}填充，表上加题注“{cap}”"])


@edit(0.8)
def section_with_table(c: Ctx) -> str:
    (title, para, _), data = section_and_table(c)
    if any(t["cells"] and t["cells"][0] == data[0] for t in c.st["tables"]):
        raise Skip("exists")
    h = c.run("insert_heading", text=title, level=1, position="end").created[0]
    p = c.run("insert_paragraph", text=para, position={"after": h}).created[0]
    res = c.run("insert_table", position={"after": p}, data=data, style="Table Grid", header_row=True)
    tid = next(i for i in res.created if i.startswith("t"))
    c.memory.update(heading=h, para=p, table=tid)
    rows = "; ".join(", ".join(r) for r in data[1:])
    return c.say([f"at the end, add a section {q(c, title)} that opens with {q(c, para)} and then has a table (bold header {', '.join(data[0])}; rows {rows})",
                  f"add a closing section {q(c, title)}: the sentence {q(c, para)}, then a table with the bold header {', '.join(data[0])} and rows {rows}",
                  f"finish the document with a {q(c, title)} section containing {q(c, para)} and a table ({', '.join(data[0])} in a bold header row; {rows})"],
                 [f"在文末加一节“{title}”，先写一段“{para}”，再放一个表格（表头{'、'.join(data[0])}加粗；数据：{rows}）",
                  f"文档最后新增“{title}”一节：一段“{para}”，接一个表格，表头{'、'.join(data[0])}（加粗），数据{rows}",
                  f"结尾补一节“{title}”，正文“{para}”，下面附表（表头加粗：{'、'.join(data[0])}；内容：{rows}）"])


@edit(1.0)
def report_section(c: Ctx) -> str:
    """A section with heading, text, a list and a captioned table: one wish, five or six calls."""
    (title, para, items), data = section_and_table(c)
    cap = table_caption(c, data)
    h = c.run("insert_heading", text=title, level=1, position="end").created[0]
    p = c.run("insert_paragraph", text=para, position={"after": h}).created[0]
    made = c.run("insert_list", items=items, position={"after": p}, kind="bullet").created
    tid = next(i for i in c.run("insert_table", position={"after": made[-1]}, data=data, style="Table Grid", header_row=True).created
               if i.startswith("t"))
    c.run("insert_caption", target=tid, text=cap, where="above")
    centred = c.rng.random() < 0.5
    if centred:
        c.run("set_table_properties", table=tid, alignment="center")
    c.memory.update(heading=h, para=p, table=tid, list=made)
    rows = "; ".join(", ".join(r) for r in data[1:])
    en_c, zh_c = (" centred on the page" if centred else ""), ("，表格居中" if centred else "")
    return c.say([f"finish the document with a new section {q(c, title)}: the sentence {q(c, para)}, bullet points "
                  + "; ".join(items) + f", then a table{en_c} with a bold header {', '.join(data[0])} and rows {rows}, captioned {q(c, cap)} above it",
                  f"add a {q(c, title)} section at the end with an intro line ({q(c, para)}), a bulleted list ("
                  + ", ".join(q(c, i) for i in items) + f") and below it a table{en_c}: bold headers {', '.join(data[0])}; {rows}; caption it {q(c, cap)} on top",
                  f"at the very end I need a {q(c, title)} section: one paragraph {q(c, para)}, then these bullets: " + "; ".join(items)
                  + f"; then a table{en_c} (header {', '.join(data[0])} in bold, rows {rows}) with the caption {q(c, cap)} above"],
                 [f"文末新增一节“{title}”：先写“{para}”，再用项目符号列出" + "、".join(f"“{i}”" for i in items)
                  + f"，最后放一个表格（表头{'、'.join(data[0])}加粗，数据{rows}），表格上方加题注“{cap}”{zh_c}",
                  f"在最后补一节“{title}”，正文一句“{para}”，下面是项目符号列表：" + "；".join(items)
                  + f"；再附一个表，表头加粗：{'、'.join(data[0])}，内容：{rows}，表上题注“{cap}”{zh_c}",
                  f"结尾加“{title}”部分：一段“{para}”、一个项目符号列表（" + "、".join(items)
                  + f"）和一个带题注“{cap}”的表格（表头{'、'.join(data[0])}加粗；{rows}）{zh_c}"])


@edit(1.0)
def tidy_all_tables(c: Ctx) -> str:
    """Every table gets the same bold shaded header and is centred: two calls per table."""
    tables = [t for t in c.tables() if t["rows"] >= 2 and t["cells"] and all(h.strip() for h in t["cells"][0]) and not _merged(t)]
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


@edit(0.9)
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


@edit(0.8)
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


@edit(0.8)
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


@edit(0.8)
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


@edit(0.8)
def colour_all_h1(c: Ctx) -> str:
    heads = c.headings(1)
    if len(heads) < 2:
        raise Skip("few")
    cname, col = c.colour()
    c.run("set_text_format", paragraphs=[h["id"] for h in heads], color=col)
    return c.say([f"colour all the main (level-1) headings {cname}, leaving the style itself alone", f"make every level-1 heading {cname} (format the headings directly, not the style)",
                  f"change the text colour of each Heading 1 paragraph to {cname}; don't touch the style definition"],
                 [f"把所有一级标题的文字设为{cname}（只改这些标题，不改样式）", f"每个一级标题的字体颜色都改成{cname}，样式定义不动", f"一级标题全部直接改成{cname}（不要改样式）"])


@edit(0.9)
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


@edit(0.6)
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


@edit(0.7)
def two_replacements(c: Ctx) -> str:
    full = " ".join(p["text"] for p in c.paragraphs()) + " " + " ".join(" ".join(r) for t in c.st["tables"] for r in t["cells"])
    cands = [(o, n) for o, n in extra(c, "replacements") if _replaceable(c, full, o, n)]
    if len(cands) < 2:
        raise Skip("few")
    (o1, n1), (o2, n2) = c.rng.sample(cands, 2)
    if o1 in n2 or o2 in n1 or o1 in o2 or o2 in o1:
        raise Skip("overlap")
    for o, n in ((o1, n1), (o2, n2)):
        args = {"find": o, "replace": n}
        if c.dl == "en":
            args.update(whole_word=True, match_case=True)
        c.run("replace_text", **args)
    return c.say([f"throughout the document, replace {q(c, o1)} with {q(c, n1)} and {q(c, o2)} with {q(c, n2)}", f"change every {q(c, o1)} to {q(c, n1)}, and every {q(c, o2)} to {q(c, n2)}",
                  f"two wording changes everywhere: {q(c, o1)} becomes {q(c, n1)}, {q(c, o2)} becomes {q(c, n2)}"],
                 [f"全文把“{o1}”换成“{n1}”，“{o2}”换成“{n2}”", f"文中所有“{o1}”改为“{n1}”，所有“{o2}”改为“{n2}”", f"统一用词：“{o1}”→“{n1}”，“{o2}”→“{n2}”"])


THEMES: dict[str, tuple[str, ...]] = {
    "table": ("tidy_all_tables", "frame_table", "add_table", "delete_table", "change_cell", "fill_form", "add_row", "delete_row", "row_height", "all_rows_height",
              "add_total_column", "delete_column", "column_width", "title_row", "unmerge_title", "split_cell_in_two", "style_header",
              "shade_row", "align_numbers", "center_cells_vertically", "table_borders", "remove_inner_borders", "center_table",
              "table_style", "sort_rows", "sort_by_name", "split_tbl", "caption_table", "copy_table_to_end", "styled_table",
              "chart_from_table", "landscape_section"),
    "text": ("report_section", "reorder_sections", "sign_off_block", "add_paragraph", "add_section", "add_list", "append_text", "line_break", "rewrite_paragraph", "delete_sentence",
             "delete_paragraph", "move_paragraph", "move_section_up", "split_para", "merge_paras", "replace_word", "rename_org",
             "two_replacements", "duplicate_paragraph", "address_block", "section_with_table", "delete_empty_paragraphs",
             "uppercase_heading", "sentence_case", "free_summary", "free_comment"),
    "format": ("format_heading", "emphasise_words", "italic_paragraph", "font_paragraphs", "clear_format", "paragraph_layout",
               "center_title", "shade_paragraph", "box_paragraph", "rule_under_title", "signature_tabs", "quote_style",
               "promote_to_heading", "new_style", "reuse_style", "restyle_headings", "default_font", "to_numbered",
               "paragraphs_to_list", "unlist", "indent_item", "paint_format", "colour_all_h1", "demote_heading"),
    "visual": ("add_picture", "resize_picture", "replace_picture", "delete_picture", "align_picture", "wrap_picture", "alt_text",
               "crop_picture", "caption_figure", "new_chart", "chart_update_value", "chart_add_category", "chart_type",
               "chart_title", "chart_legend", "chart_size", "chart_delete"),
    "layout": ("page_break_before", "sections_on_new_pages", "page_setup", "landscape_all", "two_columns", "merge_sections",
               "set_header", "set_footer", "first_page_different", "odd_even", "page_numbers", "roman_numbers", "add_toc",
               "refresh_toc", "watermark", "drop_watermark"),
    "review": ("add_link", "add_footnote", "add_comment", "bookmark_and_reference", "cross_reference_existing", "drop_bookmark",
               "change_link", "drop_comment", "drop_footnote", "properties", "keywords", "custom_property", "scrub_personal",
               "track_on", "resolve_changes", "protect", "update_all_fields"),
}
"""Edits people tend to ask for together; the clauses of one instruction usually share a theme."""
THEME_OF = {name: theme for theme, names in THEMES.items() for name in names}
UNDOING = ("delete_table", "delete_paragraph", "chart_delete", "delete_picture", "drop_watermark", "unmerge_title", "clear_format",
           "unlist", "delete_row", "delete_column", "delete_sentence", "resolve_changes", "scrub_personal", "merge_sections",
           "drop_footnote", "drop_comment", "drop_bookmark", "change_link", "delete_empty_paragraphs", "replace_picture")
"""Edits that remove or reset things: only the first clause of an instruction may be one (otherwise they could undo
an earlier clause of the same instruction, leaving a gold call that is not needed)."""
MULTI_CALL = ("report_section", "tidy_all_tables", "frame_table", "reorder_sections", "sign_off_block", "styled_table", "section_with_table", "sections_on_new_pages", "delete_empty_paragraphs", "address_block",
              "two_replacements", "add_section", "title_row", "landscape_section", "bookmark_and_reference",
              "move_section_up", "center_title")
"""Edits that take several calls for one wish (favoured when a hard instruction is being written)."""
_missing = set(EDITS) - set(THEME_OF)
assert not _missing, f"edits without a theme: {_missing}"
