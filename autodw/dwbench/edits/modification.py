"""Templates that change text: replace, rewrite, delete, recase, move, split and merge."""

from __future__ import annotations

import re

from autodw.dwbench.context import Ctx, Skip, has_cjk
from autodw.dwbench.documents import content
from autodw.dwbench.edits.helpers import (body_with_second_sentence, fresh_sentence, named, pick_body, q,
                                          replace_everywhere, replacements)
from autodw.dwbench.edits.template import template


@template("text", weight=1.5)
def replace_word(c: Ctx) -> str:
    old, new = c.pick(replacements(c))
    replace_everywhere(c, old, new)
    return c.say([f"replace {q(c, old)} with {q(c, new)} everywhere", f"change every {q(c, old)} to {q(c, new)}",
                  f"use the word {q(c, new)} instead of {q(c, old)} throughout"],
                 [f"把全文的“{old}”都替换成“{new}”", f"文中所有“{old}”改为“{new}”", f"统一把“{old}”换成“{new}”"])


@template("text", weight=1.0)
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


@template("text", weight=1.0)
def rewrite_paragraph(c: Ctx) -> str:
    p, ref = named(c, pick_body(c))
    text = fresh_sentence(c)
    c.run("set_paragraph_text", paragraph=p["id"], text=text)
    c.memory["para"] = p["id"]
    return c.say([f"replace the text of {ref} with {q(c, text)}", f"rewrite {ref} so it reads {q(c, text)}",
                  f"{ref} should just say {q(c, text)} instead"],
                 [f"把{ref}的内容改成{q(c, text)}", f"将{ref}整段替换为{q(c, text)}", f"{ref}改写为一句话：{q(c, text)}"])


@template("text", weight=1.0, undoing=True)
def delete_sentence(c: Ctx) -> str:
    p, cut = body_with_second_sentence(c, "single sentence")
    ref = c.ref_para(p)
    second = p["text"][cut:]
    c.run("delete_text", paragraph=p["id"], span={"start": cut - (1 if c.dl == "en" and p["text"][cut - 1] == " " else 0), "end": len(p["text"])})
    return c.say([f"in {ref}, delete the sentence {q(c, second.strip())}", f"cut the second sentence ({q(c, second.strip())}) from {ref}",
                  f"{ref} runs too long: drop everything after its first sentence, i.e. {q(c, second.strip())}"],
                 [f"删掉{ref}中的“{second.strip()}”这句话", f"{ref}的第二句“{second.strip()}”不要了，删掉",
                  f"{ref}只保留第一句，后面的“{second.strip()}”删除"])


@template("text", weight=0.7)
def uppercase_heading(c: Ctx) -> str:
    h = c.pick([h for h in c.headings() if not has_cjk(h["text"]) and h["text"] != h["text"].upper() and re.search("[a-z]", h["text"])])
    ref = c.ref_heading(h)
    case = "upper"
    c.run("change_case", paragraph=h["id"], case=case)
    return c.say([f"retype {ref} in capital letters", f"change the letters of {ref} to UPPER CASE", f"{ref} should be all caps (change the text itself)"],
                 [f"把{ref}的字母改成大写（改文字本身）", f"{ref}里的英文全部改为大写字母", f"将{ref}的文字转换成全大写"])


@template("text", weight=0.6)
def sentence_case(c: Ctx) -> str:
    h = c.pick([h for h in c.headings() if not has_cjk(h["text"]) and len(h["text"].split()) >= 2
                and any(w[:1].isupper() for w in h["text"].split()[1:]) and h["text"] != h["text"].upper()])
    ref = c.ref_heading(h)
    c.run("change_case", paragraph=h["id"], case="sentence")
    return c.say([f"put {ref} in sentence case (only the first word capitalised)", f"change {ref} to sentence case",
                  f"{ref} has too many capitals: make it sentence case, capital on the first word only"],
                 [f"把{ref}改成句首大写（只有第一个单词首字母大写）", f"{ref}转换为句首字母大写的形式",
                  f"{ref}只保留第一个单词的首字母大写，其余小写"])


@template("text", weight=1.0, undoing=True)
def delete_paragraph(c: Ctx) -> str:
    p = pick_body(c)
    ref = c.ref_para(p, allow_memory=False)
    c.run("delete_block", block=p["id"])
    return c.say([f"delete {ref}", f"remove {ref} completely", f"get rid of {ref}"], [f"删除{ref}", f"把{ref}整段删掉", f"{ref}不要了，删掉"])


@template("text", weight=1.0)
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


@template("text", weight=0.8, multi_call=True)
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


@template("text", weight=0.8)
def split_para(c: Ctx) -> str:
    p, cut = body_with_second_sentence(c, "one sentence")
    ref = c.ref_para(p)
    first = p["text"][:cut].strip()
    c.run("split_paragraph", paragraph=p["id"], offset=cut)
    return c.say([f"split {ref} into two paragraphs after {q(c, first)}", f"break {ref} in two after its first sentence",
                  f"start a new paragraph in {ref} right after {q(c, first)}"],
                 [f"把{ref}从“{first}”之后拆成两段", f"{ref}在第一句后分成两段", f"{ref}在“{first}”后面另起一段"])


@template("text", weight=0.8)
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
