"""Templates that format text and paragraphs: fonts, emphasis, layout, shading, borders, styles and lists."""

from __future__ import annotations

import re

from autodw.dwbench.context import Ctx, Skip, has_cjk, heading_level
from autodw.dwbench.edits.helpers import extra, named, phrase_span, pick_body, q
from autodw.dwbench.edits.template import template


@template("format", weight=1.5)
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


@template("format", weight=1.3)
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


@template("format", weight=0.8)
def italic_paragraph(c: Ctx) -> str:
    p, ref = named(c, pick_body(c))
    cname, col = c.pick([("grey", "808080"), ("dark blue", "1F4E79")] if c.lang == "en" else [("灰色", "808080"), ("深蓝色", "1F4E79")])
    c.run("set_text_format", paragraphs=p["id"], italic=True, color=col)
    c.memory["formatted"] = p["id"]
    return c.say([f"set {ref} in {cname} italics", f"make {ref} italic and {cname}", f"{ref} should look like an aside: {cname}, in italics"],
                 [f"{ref}改为{cname}斜体", f"把{ref}设成斜体，颜色{cname}", f"{ref}用{cname}斜体显示"])


@template("format", weight=0.6)
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


@template("format", weight=0.6, needs=("formatted",), undoing=True)
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


@template("format", weight=1.2)
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


@template("format", weight=0.8, multi_call=True)
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


@template("format", weight=0.7)
def shade_paragraph(c: Ctx) -> str:
    p, ref = named(c, pick_body(c))
    fname, fill = c.fill()
    c.run("set_paragraph_shading", paragraphs=p["id"], fill=fill)
    return c.say([f"give {ref} a {fname} background", f"shade {ref} in {fname}", f"put {ref} on a {fname} background so it stands out"],
                 [f"给{ref}加{fname}底纹", f"{ref}的底色设为{fname}", f"{ref}加上{fname}背景，醒目一点"])


@template("format", weight=0.7)
def box_paragraph(c: Ctx) -> str:
    p, ref = named(c, pick_body(c))
    cname, col = c.colour()
    c.run("set_paragraph_border", paragraphs=p["id"], sides=["box"], style="single", size_pt=1, color=col)
    return c.say([f"put a thin {cname} box around {ref}", f"draw a 1 pt {cname} border around {ref}", f"frame {ref} with a 1 pt {cname} line on all four sides"],
                 [f"给{ref}加一个{cname}细边框", f"{ref}四周加1磅{cname}边框", f"用1磅{cname}线把{ref}框起来"])


@template("format", weight=0.5)
def rule_under_title(c: Ctx) -> str:
    t = c.pick([p for p in c.paragraphs() if p.get("style") == "Title" and p["text"].strip()])
    c.run("set_paragraph_border", paragraphs=t["id"], sides=["bottom"], style="single", size_pt=1.5, color="1F4E79")
    return c.say(["draw a 1.5 pt dark blue line under the title (a bottom border)", "give the title a dark blue bottom border, 1.5 pt",
                  "underline the whole title line with a 1.5 pt dark blue paragraph border"],
                 ["在标题下方加一条1.5磅深蓝色下边框线", "给大标题加1.5磅深蓝色的下框线", "标题底部画一条深蓝色横线（1.5磅下边框）"])


@template("format", weight=0.6)
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


@template("format", weight=1.0)
def quote_style(c: Ctx) -> str:
    p, ref = named(c, pick_body(c))
    style = c.rng.choice(["Quote", "Intense Quote"])
    c.run("apply_style", paragraphs=p["id"], style=style)
    return c.say([f"apply the {style} style to {ref}", f"format {ref} as a quotation ({style} style)", f"{ref} is a quote; give it the {style} style"],
                 [f"{ref}应用“{style}”样式", f"把{ref}设成引用样式（{style}）", f"{ref}是引文，套用“{style}”样式"])


@template("format", weight=0.7)
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


@template("format", weight=0.9)
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


@template("format", weight=0.5, needs=("style",))
def reuse_style(c: Ctx) -> str:
    name = c.memory["style"]
    p = pick_body(c)
    if p.get("style") == name:
        raise Skip("same")
    ref = c.ref_para(p)
    c.run("apply_style", paragraphs=p["id"], style=name)
    return c.say([f"use the {q(c, name)} style you created for {ref} too", f"apply {q(c, name)} to {ref} as well", f"give {ref} the same {q(c, name)} style"],
                 [f"{ref}也用刚才建的“{name}”样式", f"把“{name}”样式也应用到{ref}", f"{ref}同样套用“{name}”样式"])


@template("format", weight=1.0)
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


@template("format", weight=0.7)
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


@template("format", weight=0.9)
def to_numbered(c: Ctx) -> str:
    items = c.list_items()
    groups = _list_groups(c, items)
    g = c.pick([g for g in groups if len(g) >= 2 and g[0].get("list", {}).get("kind") == "bullet"])
    first = _item_opening(g[0]["text"])
    c.run("set_list_format", paragraphs=[p["id"] for p in g], kind="numbered")
    return c.say([f"turn the bulleted list that starts with {q(c, first)} into a numbered list", f"number the bullet list beginning {q(c, first)} instead",
                  f"the list starting {q(c, first)} should be numbered, not bulleted"],
                 [f"把以“{first}”开头的项目符号列表改成编号列表", f"以“{first}”开头的列表改用编号", f"“{first}”开头的那组项目符号换成1、2、3编号"])


@template("format", weight=0.7)
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


@template("format", weight=0.7, undoing=True)
def unlist(c: Ctx) -> str:
    groups = _list_groups(c, c.list_items())
    g = c.pick([g for g in groups if len(g) >= 2])
    first = _item_opening(g[0]["text"])
    c.run("remove_list", paragraphs=[p["id"] for p in g])
    return c.say([f"remove the bullets/numbers from the list beginning {q(c, first)} so they are plain paragraphs", f"turn the list that starts with {q(c, first)} back into ordinary paragraphs",
                  f"the list beginning {q(c, first)} doesn't need to be a list: plain paragraphs please"],
                 [f"去掉以“{first}”开头的那个列表的项目符号/编号，改成普通段落", f"把“{first}”开头的列表恢复成普通段落", f"以“{first}”开头的列表取消项目符号或编号"])


@template("format", weight=0.4)
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


@template("format", weight=0.6, needs=("formatted",))
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
