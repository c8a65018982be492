"""Tuning-only templates: edits that say where new or moved content goes (a list's end, above or below a named
paragraph or heading, a new page), how big a picture or chart should be, a heading's level, and quoted text to put
in. Registered with ``tuning_only=True``: dev and test never draw them (nor does the held-out draw count them); only
the templated tuning split ``dev-outside-third`` does (``generate.TUNING_ONLY_SPLITS``). They were written without
looking at the templates test holds out, in their own words.

Every phrasing list has three or more entries, so a dev-like split never uses the last one (``Ctx.say``): it is kept
as a spare in case these templates ever move into a split that uses all of them."""

from __future__ import annotations

import re

from autodw.dwbench.context import Ctx, Skip, heading_level
from autodw.dwbench.edits.helpers import (absent_table, created_id, extra, fitting, named, pick_body, prefer, q,
                                          replace_everywhere, replacements, table_words)
from autodw.dwbench.edits.template import template

ITEMS = {
    "en": ["Confirm the final budget with Finance", "Send the draft to every team lead", "Book a room for the follow-up meeting",
           "Update the shared contact sheet", "Archive last year's files", "Check the figures against the ledger",
           "Collect feedback from the pilot users", "Agree on a date for the next review", "Prepare a one-page summary for the board",
           "Renew the supplier contracts", "Walk new staff through the updated process", "Publish the revised schedule on the intranet",
           "Order replacement equipment", "Review who can open the shared folders", "Schedule the quarterly safety check",
           "Ask IT to set up the new accounts", "Print copies for the visitors", "Double-check the delivery addresses"],
    "zh": ["与财务部确认最终预算", "把草稿发给各组负责人", "预订后续会议的会议室", "更新共享通讯录", "归档去年的文件", "核对数据与台账是否一致",
           "收集试点用户的反馈", "确定下次评审的日期", "为管理层准备一页纸摘要", "续签供应商合同", "带新同事熟悉新流程", "在内网发布修订后的日程",
           "采购替换设备", "检查共享文件夹的访问权限", "安排季度安全检查", "请信息部开通新账号", "为来访人员打印资料", "复核收货地址"],
}
"""List items to add: everyday office tasks, beside the items of the sections that suit the document."""

SENTENCES = {
    "en": ["All figures will be checked again before the final version goes out.", "Please send any comments to the project office by Friday.",
           "We will come back to this point at the next meeting.", "More detail is available from the team on request.",
           "The dates above may still move slightly.", "A short update will follow once the review is finished.",
           "Nothing here changes the arrangements already agreed.", "Questions about this part can go to the coordinator.",
           "This will be reviewed again in six months.", "The numbers are provisional until the audit is complete.",
           "Any changes must be approved in writing.", "Copies of the signed forms are kept by the office.",
           "The timetable depends on the supplier confirming the dates.", "Costs are shown before tax.",
           "Staff who cannot attend should tell their manager in advance.", "The final decision rests with the steering group.",
           "Earlier drafts should be discarded.", "This replaces the note sent out last month."],
    "zh": ["所有数据将在定稿前再次核对。", "如有意见，请于本周五前反馈至项目办公室。", "此事将在下次会议上再作讨论。", "如需了解详情，可向项目组索取。",
           "以上日期仍可能略有调整。", "评审结束后将另行通报进展。", "本部分内容不改变此前已商定的安排。", "对此部分如有疑问，请联系协调人。",
           "半年后将对此再次进行评估。", "审计完成前，上述数字均为暂定。", "任何变更均须书面确认。", "签字后的表格由办公室统一留存。",
           "具体时间以供应商最终确认为准。", "以上费用均为税前金额。", "无法参加的同事请提前告知主管。", "最终决定由项目领导小组作出。",
           "此前的草稿请作废。", "本说明取代上月发出的通知。"],
}
"""Sentences to insert or to put in place of a paragraph's text, beside the pool's (``extra`` sentences)."""


def _sentence(c: Ctx, avoid: str = "") -> str:
    """A sentence in the document's language that it does not hold yet."""
    used = {p["text"].strip() for p in c.paragraphs()}
    text = " ".join(p["text"] for p in c.paragraphs())
    return c.pick([s for s in SENTENCES[c.dl] + list(extra(c, "sentences")) if s not in used and s not in text and s != avoid])


def _items(c: Ctx, n: int) -> list[str]:
    """`n` list items in the document's language, none of them already in it, from one source: the office tasks or
    the items of one section that suits the document (so that a list does not mix tasks with, say, names)."""
    text = " ".join(p["text"] for p in c.paragraphs())
    groups = [ITEMS[c.dl]] + [s[2] for s in fitting(c, "sections")]
    groups = [g for g in ([i for i in g if i not in text] for g in groups) if len(g) >= n]
    return c.rng.sample(c.pick(groups), n)


def _touched(c: Ctx) -> set[str]:
    """Paragraphs the instruction's earlier calls acted on (another edit of the same one could undo or hide theirs)."""
    out: set[str] = set()
    for call in c.calls:
        for key in ("paragraph", "paragraphs", "block"):
            v = call.args.get(key)
            out.update([v] if isinstance(v, str) else list(v or []))
        pos = call.args.get("position")
        if isinstance(pos, dict):
            out.update(pos.values())
    return out


def _body(c: Ctx, min_len: int = 12) -> dict:
    """A body paragraph (``helpers.pick_body``) that no earlier call of this instruction acted on."""
    return pick_body(c, min_len, exclude=_touched(c))


def _index(c: Ctx, pid: str) -> int:
    return [p["id"] for p in c.paragraphs()].index(pid)


def _next(c: Ctx, pid: str) -> dict | None:
    paras = c.paragraphs()
    k = _index(c, pid)
    return paras[k + 1] if k + 1 < len(paras) else None


def _table_after(c: Ctx, pid: str) -> bool:
    return any(t.get("after_paragraph") == pid for t in c.st["tables"])


def _lists(c: Ctx) -> list[list[dict]]:
    """The document's lists: runs of top-level list items with text sharing one numbering, with no table inside."""
    out: list[list[dict]] = []
    cur: list[dict] = []
    for p in c.paragraphs():
        lst = p.get("list")
        if lst and p["text"].strip() and cur and cur[-1]["list"].get("num_id") == lst.get("num_id") and not _table_after(c, cur[-1]["id"]):
            cur.append(p)
            continue
        if cur:
            out.append(cur)
        cur = [p] if lst and p["text"].strip() else []
    if cur:
        out.append(cur)
    return out


def _kind_words(kind: str) -> tuple[str, str]:
    return ("bulleted", "项目符号") if kind == "bullet" else ("numbered", "编号")


def _name_list(c: Ctx, items: list[dict], lists: list[list[dict]]) -> str:
    """How a user names a list: by the heading it sits under (the only list there) or by its first item."""
    kind_en, kind_zh = _kind_words(items[0]["list"]["kind"])
    options = []
    h = c.heading_of(items[0]["id"])
    if h is not None and c._unique_heading(h):
        same = [lst for lst in lists if (c.heading_of(lst[0]["id"]) or {}).get("id") == h["id"]]
        if len(same) == 1:
            t = h["text"].strip()
            options.append(c.say([f'the {kind_en} list under "{t}"', f"the list in the {t} section"],
                                 [f"“{t}”下面的{kind_zh}列表", f"“{t}”部分的列表"]))
    first = " ".join(items[0]["text"].split())
    if sum(1 for p in c.paragraphs() if " ".join(p["text"].split()) == first) == 1:
        if len(first) <= (50 if c.dl == "en" else 24):
            options.append(c.say([f'the {kind_en} list that starts with "{first}"', f'the list whose first item is "{first}"'],
                                 [f"第一项是“{first}”的那个列表", f"以“{first}”开头的{kind_zh}列表"]))
        else:
            opening = c.opening(items[0])
            if opening:
                options.append(c.say(f'the list whose first item begins "{opening}"', f"第一项以“{opening}”开头的列表"))
    if not options:
        raise Skip("list cannot be named")
    return c.rng.choice(options)


def _anchor(c: Ctx, headings: bool = True) -> tuple[dict, str, bool]:
    """A paragraph or heading new content is placed by: (paragraph, how the user names it, is a heading)."""
    heads = [h for h in c.headings() if c._unique_heading(h) and h["id"] not in c.fresh] if headings else []
    heads = [h for h in heads if (_next(c, h["id"]) or {}).get("text", "").strip() and not heading_level(_next(c, h["id"]))]
    if heads and c.rng.random() < 0.4:
        h = c.pick(heads)
        return h, c.ref_heading(h), True
    p, ref = named(c, _body(c))
    return p, ref, False


def _join(c: Ctx, items: list[str]) -> tuple[str, str]:
    """Items spelled out: English (quoted, "and" before the last) and Chinese (、)."""
    qs = [q(c, i) for i in items]
    en = qs[0] if len(qs) == 1 else ", ".join(qs[:-1]) + " and " + qs[-1]
    return en, "、".join(f"“{i}”" for i in items)


# --------------------------------------------------------------------------- lists
@template("text", weight=1.2, tuning_only=True)
def more_list_items(c: Ctx) -> str:
    """One or two items added at the end of a list the document has."""
    lists = [lst for lst in _lists(c) if len(lst) >= 2 and all(p["list"].get("level", 0) == 0 for p in lst)
             and all(p["list"].get("kind") == lst[0]["list"].get("kind") for p in lst) and lst[0]["list"].get("kind") in ("bullet", "numbered")]
    items = c.pick(lists)
    last = items[-1]
    if items[0]["id"] in c.fresh or last["id"] in c.fresh:
        raise Skip("a list this instruction made")
    after = _next(c, last["id"])
    if after is not None and after.get("list"):
        raise Skip("another list follows")
    ref = _name_list(c, items, lists)
    new = _items(c, c.rng.choice([1, 2, 2]))
    kind = items[0]["list"]["kind"]
    c.memory["list"] = c.run("insert_list", items=new, position={"after": last["id"]}, kind=kind).created
    en, zh = _join(c, new)
    if len(new) == 1:
        return c.say([f"add {en} as a new last item of {ref}", f"{ref} needs one more item at the bottom: {en}",
                      f"put {en} at the end of {ref}", f"extend {ref} with {en} as its final point"],
                     [f"在{ref}最后再加一条：{zh}", f"{ref}末尾补一项{zh}", f"给{ref}加一条{zh}，放在最后", f"{ref}后面接着添一项：{zh}"])
    return c.say([f"add {en} to the end of {ref}", f"{ref} is missing two points; append {en} after its last item",
                  f"at the bottom of {ref}, add two more items: {en}", f"extend {ref} with {en}, in that order, after what is there"],
                 [f"在{ref}最后再加两条：{zh}", f"{ref}末尾依次补上{zh}两项", f"给{ref}接着添两项：{zh}", f"{ref}后面再列两点：{zh}"])


@template("text", weight=1.2, tuning_only=True)
def list_below_paragraph(c: Ctx) -> str:
    """A new bulleted or numbered list, items spelled out, right after a named paragraph or right under a heading."""
    anchor, ref, is_heading = _anchor(c)
    after = _next(c, anchor["id"])
    if (after is not None and after.get("list")) or anchor.get("list") or _table_after(c, anchor["id"]):
        raise Skip("a list or table is already there")
    kind = c.rng.choice(["bullet", "numbered"])
    new = _items(c, c.rng.choice([2, 3, 3, 4]))
    c.memory["list"] = c.run("insert_list", items=new, position={"after": anchor["id"]}, kind=kind).created
    kind_en, kind_zh = _kind_words(kind)
    en, zh = _join(c, new)
    if is_heading:
        return c.say([f"directly under {ref}, before its text, add a {kind_en} list: {en}",
                      f"start the section under {ref} with a {kind_en} list of {en}",
                      f"right below {ref} put a {kind_en} list with these items: {en}",
                      f"insert a {kind_en} list just beneath {ref} ({en})"],
                     [f"在{ref}下面紧接着加一个{kind_zh}列表：{zh}", f"{ref}正下方（正文之前）插入{kind_zh}列表，内容为{zh}",
                      f"{ref}底下先列一个{kind_zh}列表：{zh}", f"紧挨着{ref}下方，用{kind_zh}列表列出{zh}"])
    return c.say([f"after {ref}, add a {kind_en} list: {en}", f"below {ref}, list these points as a {kind_en} list: {en}",
                  f"follow {ref} with a {kind_en} list of {en}", f"under {ref} I'd like a {kind_en} list with {en}"],
                 [f"在{ref}后面加一个{kind_zh}列表：{zh}", f"{ref}下面用{kind_zh}列表列出{zh}", f"{ref}之后插入{kind_zh}列表，各项为{zh}",
                  f"紧接着{ref}，加一个{kind_zh}列表：{zh}"])


# --------------------------------------------------------------------------- paragraphs
@template("text", weight=1.5, tuning_only=True)
def paragraph_beside(c: Ctx) -> str:
    """A new paragraph above or below a named paragraph or heading."""
    anchor, ref, is_heading = _anchor(c)
    text = _sentence(c)
    above = c.rng.random() < 0.5
    if above:
        c.memory["para"] = c.run("insert_paragraph", text=text, position={"before": anchor["id"]}).created[0]
        return c.say([f"add a new paragraph above {ref}: {q(c, text)}", f"insert {q(c, text)} as its own paragraph just before {ref}",
                      f"put a paragraph reading {q(c, text)} in front of {ref}", f"above {ref}, I'd like a short paragraph that says {q(c, text)}"],
                     [f"在{ref}上面加一段：“{text}”", f"{ref}前面插入一段话“{text}”", f"在{ref}之前另起一段，内容为“{text}”",
                      f"{ref}的上方补一段文字：“{text}”"])
    if is_heading and _table_after(c, anchor["id"]):
        raise Skip("a table sits under the heading")
    c.memory["para"] = c.run("insert_paragraph", text=text, position={"after": anchor["id"]}).created[0]
    if is_heading:
        return c.say([f"right under {ref}, add the paragraph {q(c, text)} before the existing text",
                      f"insert a paragraph saying {q(c, text)} directly below {ref}",
                      f"the section under {ref} should open with a new paragraph: {q(c, text)}",
                      f"just beneath {ref}, put in {q(c, text)} as a paragraph of its own"],
                     [f"在{ref}正下方加一段“{text}”，放在原有正文前面", f"{ref}下面紧接着插入一段：“{text}”",
                      f"{ref}这一节开头新增一段“{text}”", f"紧挨着{ref}下方另起一段，写“{text}”"])
    return c.say([f"add a new paragraph after {ref}: {q(c, text)}", f"below {ref}, insert a paragraph that reads {q(c, text)}",
                  f"follow {ref} with a separate paragraph: {q(c, text)}", f"right after {ref}, start a new paragraph with {q(c, text)}"],
                 [f"在{ref}后面加一段：“{text}”", f"{ref}下面另起一段，写上“{text}”", f"{ref}之后插入新段落“{text}”",
                  f"紧接着{ref}再加一段话：“{text}”"])


@template("text", weight=1.2, tuning_only=True)
def reorder_paragraph(c: Ctx) -> str:
    """A body paragraph moved above or below another one, both named by their words."""
    last = c.paragraphs()[-1]["id"]
    if _table_after(c, last):
        raise Skip("the document ends with a table")  # the model moves no paragraph then
    touched = _touched(c)
    body = [p for p in c.body() if p["id"] not in c.fresh and p["id"] not in touched and not _table_after(c, p["id"])]
    pos = {p["id"]: _index(c, p["id"]) for p in body}
    pairs = [(a, b) for i, a in enumerate(body) for b in body[max(0, i - 4):i + 5]
             if a["id"] != b["id"] and abs(pos[a["id"]] - pos[b["id"]]) <= 6]
    heads = {p["id"]: (c.heading_of(p["id"]) or {}).get("id") for p in body}
    same = [(a, b) for a, b in pairs if heads[a["id"]] == heads[b["id"]]]
    p, other = c.pick(same or pairs)
    if p["id"] == last:
        raise Skip("the document's last paragraph")
    above = c.rng.random() < 0.5
    if above and pos[p["id"]] + 1 == pos[other["id"]] or not above and pos[other["id"]] + 1 == pos[p["id"]]:
        above = not above  # already there: the other way round moves it
    if above and pos[p["id"]] + 1 == pos[other["id"]] or not above and pos[other["id"]] + 1 == pos[p["id"]]:
        raise Skip("no move")
    ref_p = c.ref_para(p)
    ref_o = c.ref_para(other, allow_memory=False)
    if ref_o == ref_p:
        raise Skip("same name")
    c.run("move_block", block=p["id"], position={"before" if above else "after": other["id"]})
    c.memory["para"] = p["id"]
    if above:
        return c.say([f"move {ref_p} up so that it comes right before {ref_o}", f"put {ref_p} above {ref_o}",
                      f"{ref_p} should come before {ref_o}; move it there", f"swap things round: {ref_p} goes directly above {ref_o}"],
                     [f"把{ref_p}移到{ref_o}前面", f"{ref_p}挪到{ref_o}上方", f"将{ref_p}调到{ref_o}之前", f"{ref_p}应该放在{ref_o}上面，挪一下"])
    return c.say([f"move {ref_p} so that it follows {ref_o}", f"put {ref_p} after {ref_o}",
                  f"{ref_p} belongs below {ref_o}; move it down there", f"shift {ref_p} to just after {ref_o}"],
                 [f"把{ref_p}移到{ref_o}后面", f"{ref_p}挪到{ref_o}下方", f"将{ref_p}调到{ref_o}之后", f"{ref_p}应该在{ref_o}下面，移过去"])


@template("text", weight=1.0, tuning_only=True)
def retype_paragraph(c: Ctx) -> str:
    """A paragraph's whole text replaced by a quoted new text."""
    p, ref = named(c, _body(c, 20))
    if p.get("images"):
        raise Skip("a picture in the paragraph")
    new = _sentence(c)
    if c.rng.random() < 0.4:
        new = new + (" " if c.dl == "en" else "") + _sentence(c, avoid=new)
    c.run("set_paragraph_text", paragraph=p["id"], text=new)
    c.memory["para"] = p["id"]
    return c.say([f"rewrite {ref} so that it reads: {q(c, new)}", f"replace the whole text of {ref} with {q(c, new)}",
                  f"change {ref} to say {q(c, new)} instead", f"throw away the wording of {ref} and use {q(c, new)}"],
                 [f"把{ref}改写为：“{new}”", f"{ref}整段换成“{new}”", f"{ref}的内容全部替换为“{new}”", f"{ref}重写一下，改成“{new}”"])


@template("text", weight=1.0, tuning_only=True)
def sentence_at_paragraph_end(c: Ctx) -> str:
    """One sentence added at the end of a named paragraph (the same paragraph, not a new one)."""
    p, ref = named(c, _body(c, 20))
    if not re.search(r"[.!?。！？]$", p["text"].rstrip()) or p["text"] != p["text"].rstrip():
        raise Skip("does not end a sentence")
    s = _sentence(c)
    c.run("insert_text", paragraph=p["id"], text=(" " + s) if c.dl == "en" else s)
    c.memory["para"] = p["id"]
    return c.say([f"at the end of {ref}, add the sentence {q(c, s)}", f"append {q(c, s)} to {ref}",
                  f"finish {ref} with one more sentence: {q(c, s)}", f"tack {q(c, s)} onto the end of {ref}, in the same paragraph"],
                 [f"在{ref}末尾加一句：“{s}”", f"{ref}最后补上一句“{s}”", f"{ref}结尾再接一句“{s}”，不要另起一段", f"给{ref}后面追加一句话：“{s}”"])


_NUMBER = re.compile(r"(?<![\d.,])\d+(?:\.\d+)?%?(?![\d%])")


def _numbers(text: str) -> list[str]:
    """Numbers a user would quote and change: once in `text`, two digits or more (or a percentage), not a day or month
    nor a clause number opening the paragraph."""
    out = []
    for m in _NUMBER.finditer(text):
        tok = m.group(0)
        after, before = text[m.end():m.end() + 1], text[max(0, m.start() - 1):m.start()]
        if m.start() < 2 or text.count(tok) != 1 or (len(tok) < 2 and not tok.endswith("%")) or re.match(r"[,.]\d", text[m.end():m.end() + 2]):
            continue
        if (after and (after in "月日号时:：-/" or after.isascii() and after.isalpha())) or \
                (before and (before in "月:：-/" or before.isascii() and before.isalpha())):
            continue
        out.append(tok)
    return out


def _changed(c: Ctx, tok: str) -> str:
    pct = tok.endswith("%")
    core = tok.rstrip("%")
    if "." in core:
        whole, frac = core.split(".")
        new = f"{whole}.{(int(frac) + c.rng.randint(1, 8)) % (10 ** len(frac)):0{len(frac)}d}"
    else:
        v = int(core)
        if 1990 <= v <= 2040 and not pct:
            new = str(v + 1)
        else:
            new = str(max(1, v + c.rng.choice([-3, -2, -1, 1, 2, 5]) * max(1, v // 20)))
    if new == core:
        raise Skip("same number")
    return new + ("%" if pct else "")


@template("text", weight=1.0, tuning_only=True)
def swap_two_phrases(c: Ctx) -> str:
    """Two quoted replacements in one request: two words throughout, or two figures in one paragraph."""
    if c.rng.random() < 0.5:
        pairs = replacements(c)
        if len(pairs) < 2:
            raise Skip("fewer than two replacements")
        (o1, n1), (o2, n2) = c.rng.sample(pairs, 2)
        if o1 in o2 or o2 in o1 or o2 in n1 or o1 in n2 or n1 == n2:
            raise Skip("overlapping")
        replace_everywhere(c, o1, n1)
        replace_everywhere(c, o2, n2)
        return c.say([f"change {q(c, o1)} to {q(c, n1)} and {q(c, o2)} to {q(c, n2)} throughout",
                      f"replace {q(c, o1)} with {q(c, n1)}, and {q(c, o2)} with {q(c, n2)}, across the whole document",
                      f"two wording changes everywhere: {q(c, o1)} becomes {q(c, n1)} and {q(c, o2)} becomes {q(c, n2)}",
                      f"swap every {q(c, o1)} for {q(c, n1)} and every {q(c, o2)} for {q(c, n2)}"],
                     [f"全文的“{o1}”改成“{n1}”，“{o2}”改成“{n2}”", f"把“{o1}”都换成“{n1}”，“{o2}”都换成“{n2}”",
                      f"文中“{o1}”统一替换为“{n1}”，“{o2}”统一替换为“{n2}”", f"两处用词要改：“{o1}”→“{n1}”，“{o2}”→“{n2}”，全文都改"])
    cands = [p for p in c.body() if p["id"] not in c.fresh and p["id"] not in _touched(c) and len(_numbers(p["text"])) >= 2]
    p, ref = named(c, prefer(c, cands, "para"))
    a, b = sorted(c.rng.sample(_numbers(p["text"]), 2), key=p["text"].index)
    na, nb = _changed(c, a), _changed(c, b)
    if na in p["text"] or nb in p["text"] or na in b or nb in a or a in nb or b in na:
        raise Skip("ambiguous numbers")
    c.run("replace_text", find=a, replace=na, paragraphs=[p["id"]])
    c.run("replace_text", find=b, replace=nb, paragraphs=[p["id"]])
    c.memory["para"] = p["id"]
    return c.say([f"in {ref}, change {q(c, a)} to {q(c, na)} and {q(c, b)} to {q(c, nb)}",
                  f"two figures in {ref} are out of date: {q(c, a)} should be {q(c, na)} and {q(c, b)} should be {q(c, nb)}",
                  f"correct {ref}: replace {q(c, a)} with {q(c, na)}, and {q(c, b)} with {q(c, nb)}",
                  f"update the numbers in {ref} ({q(c, a)} to {q(c, na)}, {q(c, b)} to {q(c, nb)})"],
                 [f"{ref}里的“{a}”改成“{na}”，“{b}”改成“{nb}”", f"{ref}中有两个数字要更新：“{a}”改为“{na}”，“{b}”改为“{nb}”",
                  f"把{ref}中的“{a}”换成“{na}”、“{b}”换成“{nb}”", f"修改{ref}的数字：“{a}”→“{na}”，“{b}”→“{nb}”"])


# --------------------------------------------------------------------------- tables
@template("table", weight=1.2, tuning_only=True)
def table_below_paragraph(c: Ctx) -> str:
    """A table, rows spelled out, right after a named paragraph."""
    if c.named.get("table"):  # a table named earlier in the instruction ("the table you just added") stays the only new one
        raise Skip("a table was named")
    data = c.pick(fitting(c, "tables"))
    absent_table(c, data)
    p, ref = named(c, _body(c))
    if _table_after(c, p["id"]):
        raise Skip("a table is already there")
    header = c.rng.random() < 0.5
    args = dict(position={"after": p["id"]}, data=data)
    if header:
        args["header_row"] = True
    c.memory["table"] = created_id(c.run("insert_table", **args), "t")
    h_en, h_zh, rows = table_words(data)
    rows_zh = "；".join(("，" if c.dl == "zh" else ", ").join(r) for r in data[1:])
    tail_en = " (make the first row a header row)" if header else ""
    tail_zh = "，第一行设为标题行" if header else ""
    return c.say([f"right after {ref}, insert a table with the columns {h_en} and these rows: {rows}{tail_en}",
                  f"add a table below {ref}: header {h_en}; rows {rows}{tail_en}",
                  f"under {ref} put a {len(data)}-row table, first row {h_en}, then {rows}{tail_en}",
                  f"follow {ref} with a table ({h_en}) holding {rows}{tail_en}"],
                 [f"在{ref}后面插入一个表格，表头为{h_zh}，各行依次是：{rows_zh}{tail_zh}",
                  f"{ref}下面加一个表格：表头{h_zh}；内容{rows_zh}{tail_zh}",
                  f"紧接着{ref}插一张{len(data)}行的表，第一行是{h_zh}，下面几行是{rows_zh}{tail_zh}",
                  f"{ref}之后放一个表格（{h_zh}），数据为{rows_zh}{tail_zh}"])


# --------------------------------------------------------------------------- layout
@template("layout", weight=1.2, tuning_only=True)
def heading_on_new_page(c: Ctx) -> str:
    """A heading starts a new page: a page break inserted before it, or the heading set to break the page before it."""
    paras = c.paragraphs()
    cands = []
    for h in c.headings():
        k = _index(c, h["id"])
        prev = paras[k - 1] if k else None
        if (c._unique_heading(h) and prev is not None and not h.get("page_break_before") and not prev.get("ends_section")
                and (prev["text"].strip() or prev.get("images")) and h["id"] not in c.fresh):
            cands.append(h)
    h = c.pick(cands)
    ref = c.ref_heading(h)
    if c.rng.random() < 0.5:
        c.run("insert_page_break", position={"before": h["id"]})
        return c.say([f"insert a page break before {ref}", f"put a page break just above {ref}",
                      f"add a manual page break right before {ref} so it moves to the next page",
                      f"break the page in front of {ref}"],
                     [f"在{ref}前面插入分页符", f"{ref}之前加一个分页符", f"在{ref}上方插一个分页符，让它跳到下一页", f"{ref}前面分一下页"])
    c.run("set_paragraph_format", paragraphs=h["id"], page_break_before=True)
    return c.say([f"make {ref} start on a new page", f"{ref} should always begin at the top of a page (page break before)",
                  f"set {ref} to start a fresh page", f"have {ref} open a new page"],
                 [f"让{ref}从新的一页开始", f"{ref}设置为段前分页", f"把{ref}设成另起一页", f"{ref}要在新的一页开头"])


@template("format", weight=1.0, tuning_only=True)
def shift_heading_level(c: Ctx) -> str:
    """A heading promoted or demoted one level, or set to a given level (headings without sub-headings)."""
    cands = [h for h in c.headings() if c._unique_heading(h) and h["id"] not in c.fresh and heading_level(h) <= 4
             and not any(heading_level(p) for p in c.section_paragraphs(h["id"]))]
    h = c.pick(cands)
    ref = c.ref_heading(h)
    lv = heading_level(h)
    opts = ["down"] + (["up"] if lv >= 2 else []) + ["set"]
    how = c.rng.choice(opts)
    if how == "down":
        c.run("change_heading_level", paragraphs=[h["id"]], delta=1)
        return c.say([f"demote {ref} by one level", f"{ref} should be one level lower, a Heading {lv + 1}",
                      f"move {ref} down a level (to level {lv + 1})", f"make {ref} a sub-heading one level below where it is"],
                     [f"把{ref}降一级", f"{ref}降为{lv + 1}级标题", f"{ref}的级别往下调一级", f"{ref}改成低一级的标题"])
    if how == "up":
        c.run("change_heading_level", paragraphs=[h["id"]], delta=-1)
        return c.say([f"promote {ref} one level", f"move {ref} up a level, to Heading {lv - 1}",
                      f"{ref} should be one level higher (level {lv - 1})", f"raise {ref} by one heading level"],
                     [f"把{ref}升一级", f"{ref}提升为{lv - 1}级标题", f"{ref}的级别往上提一级", f"{ref}改成高一级的标题"])
    target = c.pick([n for n in (1, 2, 3) if n != lv])
    c.run("change_heading_level", paragraphs=[h["id"]], level=target)
    return c.say([f"make {ref} a level-{target} heading", f"{ref} should be a Heading {target}",
                  f"change {ref} to heading level {target}", f"turn {ref} into a level {target} heading"],
                 [f"把{ref}改成{target}级标题", f"{ref}设为标题 {target}", f"{ref}调整为{target}级标题", f"{ref}应该是{target}级标题，改一下"])


# --------------------------------------------------------------------------- pictures and charts
def _cm(v: float, lang: str) -> str:
    s = f"{v:g}"
    return f"{s} cm" if lang == "en" else f"{s}厘米"


@template("visual", weight=3.0, tuning_only=True)
def picture_dimensions(c: Ctx) -> str:
    """A picture made bigger or smaller: to a width or height in cm, or by a relative amount."""
    img, ref = named(c, prefer(c, c.images(), "image"))
    if img["id"] in c.fresh:
        raise Skip("picture made by this instruction")
    w, h = float(img.get("width_cm") or 0), float(img.get("height_cm") or 0)
    if not w or not h:
        raise Skip("size unknown")
    how = c.rng.choice(["width", "width", "height", "scale"])
    L = c.lang
    if how == "width":
        t = c.pick([x for x in (4, 5, 6, 7.5, 8, 10, 12, 14) if abs(x - w) >= 1 and x * h / w <= 22])
        c.run("resize_image", image=img["id"], width=f"{t:g}cm")
        if t > w:
            return c.say([f"make {ref} bigger, {_cm(t, L)} wide, keeping its proportions", f"enlarge {ref} to a width of {_cm(t, L)}",
                          f"{ref} is too small: widen it to {_cm(t, L)} (height in proportion)", f"scale {ref} up to {_cm(t, L)} across"],
                         [f"把{ref}放大到宽{_cm(t, L)}，保持比例", f"{ref}调大一些，宽度{_cm(t, L)}", f"{ref}太小了，宽度改成{_cm(t, L)}，等比例放大",
                          f"{ref}的宽度放大到{_cm(t, L)}"])
        return c.say([f"make {ref} smaller, {_cm(t, L)} wide, keeping its proportions", f"shrink {ref} to a width of {_cm(t, L)}",
                      f"{ref} is too big: reduce it to {_cm(t, L)} wide (height in proportion)", f"scale {ref} down to {_cm(t, L)} across"],
                     [f"把{ref}缩小到宽{_cm(t, L)}，保持比例", f"{ref}调小一点，宽度{_cm(t, L)}", f"{ref}太大了，宽度改成{_cm(t, L)}，等比例缩小",
                      f"{ref}的宽度缩到{_cm(t, L)}"])
    if how == "height":
        t = c.pick([x for x in (3, 4, 5, 6, 8, 10) if abs(x - h) >= 1 and x * w / h <= 16])
        c.run("resize_image", image=img["id"], height=f"{t:g}cm")
        word_en, word_zh = ("taller", "放大") if t > h else ("shorter", "缩小")
        return c.say([f"make {ref} {word_en}: {_cm(t, L)} high, width in proportion", f"set the height of {ref} to {_cm(t, L)}, keeping its shape",
                      f"resize {ref} so it is {_cm(t, L)} tall (don't stretch it)", f"{ref} should be {_cm(t, L)} in height, proportions kept"],
                     [f"把{ref}{word_zh}到高{_cm(t, L)}，宽度按比例", f"{ref}的高度设为{_cm(t, L)}，保持纵横比", f"{ref}改成{_cm(t, L)}高，不要变形",
                      f"{ref}高度调整为{_cm(t, L)}，等比例缩放"])
    s = c.pick([x for x in (50, 75, 150, 200) if 1.5 <= w * x / 100 <= 16])
    c.run("resize_image", image=img["id"], scale=s)
    en = {50: ["shrink {r} to half its size", "make {r} half as big", "cut {r} down to 50% of its current size", "halve the size of {r}"],
          75: ["make {r} a quarter smaller (75% of its size)", "shrink {r} to 75% of its current size", "scale {r} down to three quarters of its size",
               "reduce {r} to 75%"],
          150: ["make {r} 50% bigger", "enlarge {r} to 150% of its current size", "scale {r} up by half again", "blow {r} up to 150%"],
          200: ["make {r} twice as big", "double the size of {r}", "enlarge {r} to 200%", "scale {r} up to double its size"]}[s]
    zh = {50: ["把{r}缩小一半", "{r}缩到原来的50%", "{r}改成现在的一半大", "{r}尺寸减半"],
          75: ["把{r}缩小到原来的75%", "{r}缩小四分之一", "{r}按75%等比例缩小", "{r}缩到现在的四分之三"],
          150: ["把{r}放大到原来的150%", "{r}放大一半", "{r}按150%等比例放大", "{r}放大到1.5倍"],
          200: ["把{r}放大一倍", "{r}放大到原来的两倍", "{r}按200%放大", "{r}尺寸加倍"]}[s]
    return c.say([x.format(r=ref) for x in en], [x.format(r=ref) for x in zh])


@template("visual", weight=3.0, tuning_only=True)
def chart_dimensions(c: Ctx) -> str:
    """A chart resized: to a width in cm, to a width and height, or by a relative amount (gold: its new width)."""
    ch = prefer(c, c.charts(), "chart")
    if ch["id"] in c.fresh:
        raise Skip("chart made by this instruction")
    ref = c.ref_chart(ch)
    w, h = float(ch.get("width_cm") or 0), float(ch.get("height_cm") or 0)
    if not w or not h:
        raise Skip("size unknown")
    how = c.rng.choice(["width", "box", "relative"])
    L = c.lang
    if how == "width":
        t = c.pick([x for x in (8, 10, 12, 14, 16) if abs(x - w) >= 1])
        c.run("resize_chart", chart=ch["id"], width=f"{t}cm")
        big_en, big_zh = ("wider", "放大") if t > w else ("narrower", "缩小")
        return c.say([f"make {ref} {big_en}: {_cm(t, L)} wide, height in proportion", f"resize {ref} to {_cm(t, L)} wide, keeping its proportions",
                      f"set the width of {ref} to {_cm(t, L)} (let the height follow)", f"{ref} should be {_cm(t, L)} across, same shape"],
                     [f"把{ref}{big_zh}到宽{_cm(t, L)}，高度按比例", f"{ref}宽度改成{_cm(t, L)}，保持比例", f"{ref}调整为{_cm(t, L)}宽，高度随之变化",
                      f"{ref}的宽度设为{_cm(t, L)}，等比例缩放"])
    if how == "box":
        tw, th = c.pick([(x, y) for x, y in ((12, 7), (14, 8), (15, 9), (16, 10), (10, 6)) if abs(x - w) >= 1 or abs(y - h) >= 1])
        c.run("resize_chart", chart=ch["id"], width=f"{tw}cm", height=f"{th}cm")
        return c.say([f"resize {ref} to {_cm(tw, L)} wide and {_cm(th, L)} high", f"make {ref} exactly {tw} × {th} cm (width × height)",
                      f"set {ref} to {_cm(tw, L)} by {_cm(th, L)}", f"{ref} should measure {_cm(tw, L)} across and {_cm(th, L)} tall"],
                     [f"把{ref}的大小改成宽{_cm(tw, L)}、高{_cm(th, L)}", f"{ref}调整为{tw}×{th}厘米（宽×高）", f"{ref}设为宽{_cm(tw, L)}，高{_cm(th, L)}",
                      f"{ref}尺寸改为{_cm(tw, L)}宽、{_cm(th, L)}高"])
    f = c.pick([x for x in (0.5, 0.75, 1.25) if 5 <= w * x <= 16.5])
    t = round(w * f, 1)
    c.run("resize_chart", chart=ch["id"], width=f"{t:g}cm")
    en = {0.5: ["shrink {r} to half its size", "make {r} half as big (half the width, same shape)", "halve the size of {r}",
                "cut {r} down to 50% of its current size"],
          0.75: ["make {r} a quarter smaller", "shrink {r} to 75% of its size, keeping the shape", "scale {r} down to three quarters of its size",
                 "reduce {r} to 75% of its current size"],
          1.25: ["make {r} 25% bigger", "enlarge {r} by a quarter, keeping its shape", "scale {r} up to 125% of its size",
                 "blow {r} up by 25%"]}[f]
    zh = {0.5: ["把{r}缩小一半", "{r}缩到原来的一半大小，比例不变", "{r}尺寸减半", "{r}缩小到50%"],
          0.75: ["把{r}缩小到原来的75%", "{r}缩小四分之一，比例不变", "{r}等比例缩到原来的四分之三", "{r}缩到75%大小"],
          1.25: ["把{r}放大25%", "{r}等比例放大四分之一", "{r}放大到原来的125%", "{r}调大25%，比例不变"]}[f]
    return c.say([x.format(r=ref) for x in en], [x.format(r=ref) for x in zh])
