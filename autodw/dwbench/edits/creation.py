"""Templates that add content: paragraphs, sections, lists, breaks, links, notes, comments, captions, copies,
bookmarks and cross-references."""

from __future__ import annotations

import re

from autodw.dwbench.context import Ctx, Skip, has_cjk, heading_level
from autodw.dwbench.edits.helpers import (body_with_second_sentence, created_id, extra, fitting, fresh_sentence, named,
                                          phrase_span, pick_body, place, plain_table, q)
from autodw.dwbench.edits.template import template


@template("text", weight=2.0)
def add_paragraph(c: Ctx) -> str:
    where, pos = place(c)
    text = fresh_sentence(c)
    c.memory["para"] = c.run("insert_paragraph", text=text, position=pos).created[0]
    return c.say([f"add the sentence {q(c, text)} as a new paragraph {where}", f"insert a paragraph {where} that says {q(c, text)}",
                  f"{where}, put in a short paragraph: {q(c, text)}", f"I need one more paragraph {where}, reading {q(c, text)}"],
                 [f"{where}加一段：{q(c, text)}", f"{where}插入一个新段落，内容是{q(c, text)}", f"{where}另起一段，写上{q(c, text)}",
                  f"{where}补一段话：{q(c, text)}"])


@template("text", weight=2.0, multi_call=True)
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


@template("text", weight=1.2)
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


@template("text", weight=1.2)
def append_text(c: Ctx) -> str:
    p, ref = named(c, pick_body(c))
    note = c.pick(extra(c, "notes"))
    text = (" " + note) if c.dl == "en" or not has_cjk(p["text"]) else note
    c.run("insert_text", paragraph=p["id"], text=text)
    return c.say([f"add {q(c, note)} to the end of {ref}", f"finish {ref} with the words {q(c, note)}",
                  f"tack {q(c, note)} onto the end of {ref}", f"{ref} needs one more sentence at the end: {q(c, note)}"],
                 [f"在{ref}末尾补上一句{q(c, note)}", f"给{ref}结尾加上{q(c, note)}", f"{ref}最后再接一句{q(c, note)}",
                  f"{ref}结尾处补充{q(c, note)}这句话"])


@template("layout", weight=0.8)
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


@template("text", weight=0.6)
def line_break(c: Ctx) -> str:
    p, cut = body_with_second_sentence(c, "one sentence")
    ref = c.ref_para(p)
    first = p["text"][:cut].strip()
    c.run("insert_line_break", paragraph=p["id"], offset=cut)
    return c.say([f"in {ref}, start a new line (line break, not a new paragraph) after {q(c, first)}",
                  f"after {q(c, first)} in {ref}, insert a manual line break (keep it one paragraph)",
                  f"break the line in {ref} right after {q(c, first)} with a line break, not a paragraph break"],
                 [f"{ref}里，在“{first}”之后换行（用换行符，不要分段）", f"在{ref}的“{first}”后面插一个手动换行符，仍保持一段",
                  f"{ref}中“{first}”之后另起一行，但不要拆成两段（用换行符）"])


@template("review", weight=0.8)
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


@template("review", weight=1.0)
def add_footnote(c: Ctx) -> str:
    p, ref = named(c, pick_body(c))
    note = c.pick(extra(c, "notes"))
    c.run("insert_footnote", paragraph=p["id"], text=note)
    c.memory["footnote_para"] = p["id"]
    return c.say([f"add a footnote to {ref} saying {q(c, note)}", f"put a footnote at the end of {ref}: {q(c, note)}",
                  f"{ref} needs a footnote that reads {q(c, note)}"],
                 [f"给{ref}加一个脚注：{q(c, note)}", f"在{ref}末尾插入脚注，内容为{q(c, note)}", f"{ref}后面加个脚注，写{q(c, note)}"])


@template("review", weight=1.0)
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


@template("table", weight=0.9)
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


@template("visual", weight=0.6)
def caption_figure(c: Ctx) -> str:
    target = c.pick(c.images() + c.charts())
    ref = c.ref_image(target) if target["type"] == "picture" else c.ref_chart(target)
    text = c.pick(["Layout of the site", "Main results", "Overview"]) if c.dl == "en" else c.pick(["现场布局", "主要结果", "总体情况"])
    c.run("insert_caption", target=target["id"], text=text)
    return c.say([f"add the caption {q(c, text)} under {ref}", f"label {ref} with a figure caption: {q(c, text)}",
                  f"{ref} needs a numbered caption underneath: {q(c, text)}"],
                 [f"在{ref}下方加题注{q(c, text)}", f"给{ref}加一个图题注：{q(c, text)}", f"{ref}下面加一条带编号的图注“{text}”"])


@template("table", weight=0.6)
def copy_table_to_end(c: Ctx) -> str:
    t, ref = named(c, plain_table(c))
    res = c.run("duplicate_block", block=t["id"], position="end")
    c.memory["table"] = created_id(res, "t")
    return c.say([f"make a copy of {ref} at the end of the document", f"duplicate {ref} and put the copy at the very end",
                  f"I need {ref} twice: add an identical copy after everything else"],
                 [f"把{ref}复制一份放到文档末尾", f"在文末再复制一份{ref}", f"{ref}原样复制一份，贴到全文最后"])


@template("text", weight=0.5)
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


@template("review", weight=0.7, multi_call=True)
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


@template("review", weight=0.5)
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
