"""What the edit templates share: where new content goes, which element a request names, the extra
content that suits a document, phrase and number spans a user would quote."""

from __future__ import annotations

import re
from typing import Collection

from autodw.dwbench.context import Ctx, Skip, has_cjk
from autodw.dwbench.documents import content


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


def pick_body(c: Ctx, min_len: int = 12, cjk: bool | None = None, exclude: Collection[str] = ()) -> dict:
    """A body paragraph (not one this instruction just created: people do not add and then rework text in one breath;
    none of `exclude`)."""
    cands = [p for p in c.body() if len(p["text"]) >= min_len and (cjk is None or has_cjk(p["text"]) == cjk)
             and p["id"] not in c.fresh and p["id"] not in exclude]
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


def absent_table(c: Ctx, data: list[list[str]]) -> None:
    """Skip when the document already has a table with the header of `data` (a drawn pool table)."""
    if any(t["cells"] and t["cells"][0] == data[0] for t in c.st["tables"]):
        raise Skip("exists")


def created_id(result, prefix: str) -> str:
    """The id of the element a call created whose id starts with `prefix` ("t" a table, "img" a picture, "chart")."""
    return next(i for i in result.created if i.startswith(prefix))


def table_words(data: list[list[str]], between_rows: str = "; ") -> tuple[str, str, str]:
    """How an instruction spells out a drawn table: its header in English and in Chinese, and its rows."""
    return ", ".join(data[0]), "、".join(data[0]), between_rows.join(", ".join(r) for r in data[1:])


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
             and all(h.strip() for h in t["cells"][0]) and not has_merged_cells(t) and t["rows"] <= 15]
    return prefer(c, cands, "table")


def labelled_row(c: Ctx, t: dict, first: int = 1) -> tuple[int, str]:
    """A random body row from `first` on whose first cell names it uniquely: (index, label)."""
    r = c.rng.randrange(first, t["rows"])
    label = t["cells"][r][0].strip()
    if not label or sum(1 for row in t["cells"] if row[0].strip() == label) != 1:
        raise Skip("label")
    return r, label


def has_merged_cells(t: dict) -> bool:
    return any(d.get("span", 1) > 1 or d.get("vmerge") for row in t.get("cell_details", []) for d in row if isinstance(d, dict))


def fmt_num(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else f"{v:.1f}"


def body_with_second_sentence(c: Ctx, why: str) -> tuple[dict, int]:
    """A body paragraph of at least 30 characters and where its first sentence ends (Skip(why) if it has one)."""
    p = pick_body(c, 30)
    cut = first_sentence_end(p["text"])
    if cut is None:
        raise Skip(why)
    return p, cut


def replacements(c: Ctx) -> list[tuple[str, str]]:
    """The pool's (old, new) word pairs that suit the document now: `old` is in its text or tables (only in lower case,
    in English, so a case-sensitive replacement is what the user means) and `new` is not."""
    full = " ".join(p["text"] for p in c.paragraphs()) + " " + " ".join(" ".join(r) for t in c.st["tables"] for r in t["cells"])
    return [(o, n) for o, n in extra(c, "replacements") if _replaceable(c, full, o, n)]


def replace_everywhere(c: Ctx, old: str, new: str) -> None:
    """The gold call replacing `old` by `new` throughout (whole words and matching case, in English)."""
    args = {"find": old, "replace": new}
    if c.dl == "en":
        args.update(whole_word=True, match_case=True)
    c.run("replace_text", **args)


def _replaceable(c: Ctx, full: str, old: str, new: str) -> bool:
    """`old` occurs, only in lower case (so a case-sensitive replacement is what the user means), and `new` does not."""
    if new.lower() in full.lower():
        return False
    if c.dl != "en":
        return old in full
    exact = len(re.findall(rf"\b{re.escape(old)}\b", full))
    return exact >= 1 and exact == len(re.findall(rf"\b{re.escape(old)}\b", full, re.I))


SECTION_TABLES = ((0, 2), (1, 0), (2, 1), (3, 2))
"""Which extra table fits which extra section (Next Steps/tasks, Contacts/names, Background/figures, Timeline/tasks)."""
