"""Templates that change the file rather than its text: properties, personal information, tracked changes,
protection and fields."""

from __future__ import annotations

from autodw.dwbench.context import Ctx, Skip
from autodw.dwbench.documents import content
from autodw.dwbench.edits.helpers import extra, q
from autodw.dwbench.edits.template import template


@template("review", weight=0.8)
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


@template("review", weight=0.6)
def keywords(c: Ctx) -> str:
    kw = "; ".join(c.rng.sample(["review", "2025", "internal", "plan", "summary"], 3)) if c.dl == "en" else "；".join(c.rng.sample(["审阅", "2025", "内部", "计划", "总结"], 3))
    c.run("set_properties", keywords=kw, subject="Annual review" if c.dl == "en" else "年度审阅")
    return c.say([f"fill in the file properties: subject {q(c, 'Annual review')}, keywords {q(c, kw)}", f"set the subject property to {q(c, 'Annual review')} and the keywords to {q(c, kw)}",
                  f"for searching later, give the file the subject {q(c, 'Annual review')} and keywords {q(c, kw)}"],
                 [f"文件属性的主题写“年度审阅”，关键词写“{kw}”", f"把文档属性里的主题设为“年度审阅”，关键词设为“{kw}”", f"方便以后检索：主题“年度审阅”，关键词“{kw}”"])


@template("review", weight=0.7)
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


@template("review", weight=0.5, undoing=True)
def scrub_personal(c: Ctx) -> str:
    c.run("remove_personal_info")
    return c.say(["strip personal information (authors, reviewer names) from the file before I send it", "remove the personal details (author and reviewer names) saved in the file",
                  "I'm sending this out, so clear the hidden personal information like author names"],
                 ["发出去之前把文档里的个人信息（作者、批注人姓名等）清除掉", "删除文件中保存的个人信息（作者、审阅者姓名）", "要外发了，把作者之类的个人信息清掉"])


@template("review", weight=0.7)
def track_on(c: Ctx) -> str:
    if c.st["document_info"].get("track_changes"):
        raise Skip("on")
    c.run("set_track_changes", on=True)
    return c.say(["turn on Track Changes", "switch on change tracking for later edits", "from now on, track every change I make"],
                 ["打开修订模式", "开启修订（跟踪更改）", "接下来的修改都要留痕，开启修订"])


@template("review", weight=1.8, undoing=True)
def resolve_changes(c: Ctx) -> str:
    if not c.st["interactive"]["tracked_changes"]:
        raise Skip("none")
    action = c.rng.choice(["accept", "reject"])
    c.run("resolve_tracked_changes", action=action)
    return c.say([f"{action} all the tracked changes", f"{action} every tracked change in the document", f"go through the revisions and {action} them all"],
                 [f"{'接受' if action == 'accept' else '拒绝'}所有修订", f"把文档里的修订全部{'接受' if action == 'accept' else '拒绝'}", f"修订痕迹一律{'接受' if action == 'accept' else '拒绝'}"])


@template("review", weight=0.6)
def protect(c: Ctx) -> str:
    if c.st["document_info"].get("protection"):
        raise Skip("protected")
    mode = c.rng.choice(["comments", "read_only", "tracked_changes"])
    c.run("set_protection", mode=mode)
    en = {"comments": "so that people can only add comments", "read_only": "as read-only", "tracked_changes": "so every edit is tracked"}[mode]
    zh = {"comments": "只允许批注", "read_only": "设为只读", "tracked_changes": "所有修改都必须留修订痕迹"}[mode]
    return c.say([f"restrict editing {en} (no password)", f"protect the document {en}; no password needed", f"lock the file {en}, without a password"],
                 [f"限制编辑：{zh}（不设密码）", f"设置文档保护，{zh}，不要密码", f"给文档加编辑限制（{zh}），无需密码"])


@template("review", weight=0.5)
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
