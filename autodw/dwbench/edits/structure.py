"""Templates that change the page and the document's furniture: orientation, columns, sections, headers and
footers, page numbers, contents, watermarks, bookmarks, links, comments, footnotes and heading levels."""

from __future__ import annotations

from autodw.dwbench.context import Ctx, Skip
from autodw.dwbench.documents import content
from autodw.dwbench.edits.helpers import named, q
from autodw.dwbench.edits.template import template


@template("table", weight=0.8, multi_call=True)
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


@template("layout", weight=0.9)
def page_setup(c: Ctx) -> str:
    size = c.rng.choice(["A4", "Letter"])
    m = c.rng.choice(["2cm", "2.5cm", "3cm"])
    c.run("set_page_setup", section="all", size=size, margins={"top": m, "bottom": m, "left": m, "right": m})
    return c.say([f"switch the page size to {size} with {m.replace('cm', ' cm')} margins all round", f"set the paper to {size} and all four margins to {m.replace('cm', ' cm')}",
                  f"we print on {size}: change the page size, and make every margin {m.replace('cm', ' cm')}"],
                 [f"纸张改为{size}，上下左右页边距都设为{m.replace('cm', '厘米')}", f"页面设置：{size}纸，四边页边距{m.replace('cm', '厘米')}",
                  f"纸张大小用{size}，页边距统一{m.replace('cm', '厘米')}"])


@template("layout", weight=0.5)
def landscape_all(c: Ctx) -> str:
    if all(s.get("orientation") == "landscape" for s in c.sections()):
        raise Skip("already")
    c.run("set_page_setup", section="all", orientation="landscape")
    return c.say(["turn the whole document to landscape", "set every page to landscape orientation", "switch all sections to landscape"],
                 ["整个文档的页面方向改为横向", "所有页面都设为横向", "纸张方向全部改成横向"])


@template("layout", weight=0.7)
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


@template("layout", weight=0.6, undoing=True)
def merge_sections(c: Ctx) -> str:
    secs = c.sections()
    if len(secs) < 2:
        raise Skip("one section")
    c.run("remove_section_break", section=len(secs) - 2)
    return c.say(["remove the last section break so the end of the document is one section with what comes before it",
                  "delete the final section break (merge the last two sections)", "the last section break isn't needed; take it out"],
                 ["删除最后一个分节符，让文档结尾和前面合成同一节", "把最后一个分节符去掉，最后两节合并", "最后那个分节符不需要，删掉"])


@template("layout", weight=1.0)
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


@template("layout", weight=0.6)
def set_footer(c: Ctx) -> str:
    text = c.pick(["Prepared by the project office", "Version 2.0"] if c.dl == "en" else ["项目办公室编制", "第2版"])
    c.run("set_header_footer", section="all", where="footer", text=text, alignment="left")
    return c.say([f"put {q(c, text)} in the footer, aligned left", f"set the footer to {q(c, text)} on the left", f"the footer of every page should say {q(c, text)}, left-aligned"],
                 [f"页脚写上“{text}”，左对齐", f"每页页脚左侧写“{text}”", f"页脚内容改成“{text}”，靠左"])


@template("layout", weight=0.6)
def first_page_different(c: Ctx) -> str:
    if c.sections()[0].get("different_first_page"):
        raise Skip("already")
    c.run("set_header_footer_options", section=0, different_first_page=True)
    return c.say(["use a different header and footer on the first page (leave the first page's header empty)", "turn on 'different first page' so the cover has no header or footer",
                  "the first page shouldn't show the header and footer: set a different first page"],
                 ["首页不同：第一页不显示页眉页脚", "设置首页不同，封面页不要页眉页脚", "第一页单独设置，不显示页眉和页脚"])


@template("layout", weight=0.5)
def odd_even(c: Ctx) -> str:
    if c.sections()[0].get("different_odd_even"):
        raise Skip("already")
    text = "Even page" if c.dl == "en" else "偶数页"
    c.run("set_header_footer", section="all", where="header", text=text, kind="even", alignment="left")  # turns on odd/even itself
    return c.say([f"turn on different odd and even pages and make the even-page header read {q(c, text)}, aligned left",
                  f"use separate odd/even headers; on even pages the header is {q(c, text)} on the left",
                  f"set up different odd and even pages with {q(c, text)} as the left-aligned header of even pages"],
                 [f"设置奇偶页不同，偶数页页眉写“{text}”，左对齐", f"奇偶页页眉分开设置，偶数页页眉为“{text}”，靠左", f"开启奇偶页不同，偶数页的页眉左对齐写“{text}”"])


@template("layout", weight=1.0)
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


@template("layout", weight=0.4)
def roman_numbers(c: Ctx) -> str:
    c.run("insert_page_numbers", section=0, where="footer", alignment="center", template="{PAGE}", start=1, format="lowerRoman")
    return c.say(["number the pages of the first section in lower-case Roman numerals (i, ii, iii) starting at i, centred in the footer",
                  "the first section gets its own page numbers: i, ii, iii..., centred at the bottom, starting from i",
                  "use small Roman numerals (starting at i) for the first section's page numbers, centred in the footer"],
                 ["第一节的页码用小写罗马数字（i、ii、iii），从 i 开始，放在页脚居中", "第一节单独编页码：小写罗马数字，从 i 起，页脚居中",
                  "把第一节页脚居中的页码设为 i、ii、iii 格式，从 i 开始"])


@template("layout", weight=0.8)
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


@template("layout", weight=0.6)
def refresh_toc(c: Ctx) -> str:
    if not c.st["page_layout"].get("table_of_contents"):
        raise Skip("no toc")
    before = c.doc.snapshot()
    c.run("update_toc")
    if c.doc.snapshot().members == before.members:
        raise RuntimeError("noop")  # generator rolls back
    return c.say(["update the table of contents so it matches the headings", "refresh the contents list, the headings have changed", "bring the TOC up to date with the current headings"],
                 ["更新一下目录，使之与标题一致", "标题有变动，刷新一下目录", "重新生成目录，跟现在的标题对上"])


@template("layout", weight=0.7)
def watermark(c: Ctx) -> str:
    text = c.pick(["DRAFT", "CONFIDENTIAL", "SAMPLE"] if c.dl == "en" else ["草稿", "机密", "样本"])
    layout = c.rng.choice(["diagonal", "horizontal"])
    c.run("add_watermark", text=text, section="all", layout=layout)
    c.memory["watermark"] = text
    return c.say([f"add a {layout} {q(c, text)} watermark to every page", f"put {q(c, text)} across each page as a {layout} watermark", f"watermark the document with {q(c, text)} ({layout})"],
                 [f"给每一页加上{'斜式' if layout == 'diagonal' else '水平'}水印“{text}”", f"文档加{'斜式' if layout == 'diagonal' else '水平'}水印“{text}”，每页都有",
                  f"每页都打上“{text}”水印（{'斜式' if layout == 'diagonal' else '水平'}）"])


@template("layout", weight=0.5, needs=("watermark",), undoing=True)
def drop_watermark(c: Ctx) -> str:
    if not any(s.get("watermark") for s in c.sections()):
        raise Skip("none")
    c.run("remove_watermark", section="all")
    c.memory.pop("watermark")
    return c.say(["take the watermark off again", "remove the watermark", "the watermark can go now"], ["把水印去掉", "水印不要了，删除", "取消水印"])


@template("review", weight=0.5, undoing=True)
def drop_bookmark(c: Ctx) -> str:
    marks = [b for b in c.st["interactive"]["bookmarks"] if not b["name"].startswith("_")]
    b = c.pick(marks)
    c.run("delete_bookmark", bookmark=b["name"])
    return c.say([f"delete the bookmark {q(c, b['name'])}", f"remove the {q(c, b['name'])} bookmark", f"the bookmark {q(c, b['name'])} isn't used; delete it"],
                 [f"删除书签“{b['name']}”", f"把书签“{b['name']}”去掉", f"“{b['name']}”这个书签没用了，删除"])


@template("review", weight=0.6, undoing=True)
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


@template("review", weight=0.7, undoing=True)
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


@template("review", weight=0.6, undoing=True)
def drop_footnote(c: Ctx) -> str:
    notes = c.st["interactive"]["footnotes"]
    n = c.pick(notes)
    if sum(1 for x in notes if x["text"] == n["text"]) != 1:
        raise Skip("dup")
    c.run("delete_footnote", note=n["id"])
    return c.say([f"delete the footnote {q(c, n['text'].strip())}", f"remove the footnote that reads {q(c, n['text'].strip())}", f"we can drop the footnote {q(c, n['text'].strip())}"],
                 [f"删除脚注“{n['text'].strip()}”", f"把内容为“{n['text'].strip()}”的脚注去掉", f"“{n['text'].strip()}”这条脚注不要了"])


@template("format", weight=0.8)
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
