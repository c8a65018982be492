"""The generator's view of a document while a session is written: the live document, its state,
and how a user would name its parts ("the paragraph beginning ...", "the second table").

Every gold call is executed as soon as it is chosen, so the next call of the same instruction is
computed against the document as it is then (ids of new elements come from the call's result).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from typing import Any

from autodw.apis import execute
from autodw.core.document import WordDocument
from autodw.analysis.state import State, extract_state

ORDINALS = {"en": ["first", "second", "third", "fourth", "fifth", "sixth"], "zh": ["第一", "第二", "第三", "第四", "第五", "第六"]}
COLOURS = {  # name in the instruction -> argument value
    "en": [("dark blue", "1F4E79"), ("dark red", "C00000"), ("green", "green"), ("grey", "808080"), ("navy", "navy"),
           ("orange", "orange"), ("purple", "purple"), ("teal", "teal")],
    "zh": [("深蓝色", "1F4E79"), ("深红色", "C00000"), ("绿色", "green"), ("灰色", "808080"), ("藏青色", "navy"),
           ("橙色", "orange"), ("紫色", "purple"), ("蓝绿色", "teal")],
}
FILLS = {
    "en": [("light grey", "D9D9D9"), ("light blue", "DDEBF7"), ("pale yellow", "FFF2CC"), ("light green", "E2EFDA")],
    "zh": [("浅灰色", "D9D9D9"), ("浅蓝色", "DDEBF7"), ("淡黄色", "FFF2CC"), ("浅绿色", "E2EFDA")],
}


HELD_OUT_FROM = 3
"""Lists of at least this many phrasings hold their last one out of dev."""


class Skip(Exception):
    """The edit does not apply to this document now (nothing was executed)."""


@dataclass
class Call:
    """One gold API call."""

    api: str
    args: dict[str, Any]


@dataclass
class Ctx:
    """A session being written: document, language, random source, memory of earlier turns."""

    doc: WordDocument
    lang: str
    rng: random.Random
    memory: dict[str, Any] = field(default_factory=dict)
    calls: list[Call] = field(default_factory=list)
    free_text: bool = False
    named: dict[str, str] = field(default_factory=dict)
    fresh: set[str] = field(default_factory=set)  # ids created by the instruction being written
    doc_lang: str = ""
    kind: str = ""  # the document's kind (report, cv, ...; "corpus" for a real file), to keep inserted content topical
    dev: bool = False  # writing a dev session: the held-out phrasing of every template is never used
    template: str = ""  # the edit template being run (its phrasings are recorded as "template/lang/index")
    phrasings: list[str] = field(default_factory=list)
    initial_ids: frozenset[str] = frozenset()  # the ids the session's document started with
    _state: State | None = None

    def __post_init__(self) -> None:
        if not self.initial_ids:
            self.initial_ids = frozenset(self.doc.ids())

    @property
    def dl(self) -> str:
        """The language of the document's content (what inserted text is written in)."""
        return self.doc_lang or self.lang

    # --- running calls ---------------------------------------------------------------
    def run(self, api: str, **args: Any):
        """Execute one gold call now and record it."""
        result = execute(self.doc, api, args)
        self.calls.append(Call(api, dict(args)))
        self.fresh.update(result.created)
        self._state = None
        return result

    @property
    def st(self) -> State:
        """The current document state (recomputed after each call)."""
        if self._state is None:
            self._state = extract_state(self.doc)
        return self._state

    def pick(self, options):
        """A random element of `options` (Skip if empty)."""
        options = list(options)
        if not options:
            raise Skip("nothing to choose from")
        return self.rng.choice(options)

    def say(self, en, zh) -> str:
        """One of the phrasings for the session's language (a string or a list to choose from). Of a list of three or
        more, the last is held out: a dev session never uses it; the one used is recorded in :attr:`phrasings`."""
        text = en if self.lang == "en" else zh
        if not isinstance(text, (list, tuple)):
            return text
        if len(text) < HELD_OUT_FROM:
            return self.rng.choice(text)
        k = self.rng.randrange(len(text) - 1 if self.dev else len(text))
        self.phrasings.append(f"{self.template}/{self.lang}/{k}" + ("/held-out" if k == len(text) - 1 else ""))
        return text[k]

    def added(self, kind: str) -> list[str]:
        """Ids of the tables, pictures, charts or body paragraphs the session has added so far (still there)."""
        items = {"table": self.tables(), "image": self.images(), "chart": self.charts(), "para": self.body()}[kind]
        return [x["id"] for x in items if x["id"] not in self.initial_ids]

    def recent(self, kind: str, element_id: str) -> bool:
        """Whether "the table you just added" names `element_id` without doubt: the session added exactly one
        element of that kind, and it is this one."""
        return self.memory.get(kind) == element_id and self.added(kind) == [element_id]

    # --- what the document holds -----------------------------------------------------
    def paragraphs(self) -> list[dict]:
        return self.st["paragraphs"]

    def headings(self, level: int | None = None) -> list[dict]:
        out = [p for p in self.paragraphs() if heading_level(p) and p["text"].strip()]
        return [p for p in out if level is None or heading_level(p) == level]

    def body(self) -> list[dict]:
        """Ordinary text paragraphs (not headings, titles, lists, TOC or captions) with some text."""
        return [p for p in self.paragraphs() if _is_body(p)]

    def list_items(self) -> list[dict]:
        return [p for p in self.paragraphs() if p.get("list") and p["text"].strip()]

    def tables(self) -> list[dict]:
        return [t for t in self.st["tables"] if t["rows"] >= 2 and t["cols"] >= 2 and not t.get("nested")]

    def images(self) -> list[dict]:
        return [i for i in self.st["images"] if i.get("type") == "picture"]

    def charts(self) -> list[dict]:
        return [i for i in self.st["images"] if i.get("type") == "chart"]

    def sections(self) -> list[dict]:
        return self.st["page_layout"]["sections"]

    def para(self, pid: str) -> dict:
        return next(p for p in self.paragraphs() if p["id"] == pid)

    def heading_of(self, pid: str) -> dict | None:
        """The heading whose section holds paragraph `pid`."""
        current = None
        for p in self.paragraphs():
            if p["id"] == pid:
                return current
            if heading_level(p):
                current = p
        return None

    def section_paragraphs(self, heading_id: str) -> list[dict]:
        """Top-level paragraphs after a heading up to the next heading of the same or a higher level."""
        paras = self.paragraphs()
        idx = [p["id"] for p in paras].index(heading_id)
        level = heading_level(paras[idx])
        out = []
        for p in paras[idx + 1:]:
            lv = heading_level(p)
            if lv and lv <= level:
                break
            out.append(p)
        return out

    def last_block_of_section(self, heading_id: str) -> str:
        """Id of the last block (paragraph or table) of a heading's section."""
        paras = self.section_paragraphs(heading_id)
        last = paras[-1]["id"] if paras else heading_id
        for t in self.st["tables"]:
            if t.get("after_paragraph") == last:
                return t["id"]
        return last

    # --- how a user names things -------------------------------------------------------
    def _again(self, kind: str, element_id: str) -> str | None:
        """"the same table" when an earlier clause of this instruction named the same element."""
        made = any(i.startswith("t" if kind == "table" else "p") for i in self.fresh)
        if self.named.get(kind) == element_id and not made and self.rng.random() < 0.8:  # after a new one, "the same" is unclear
            return self.say({"table": "the same table", "para": "that same paragraph"}[kind], {"table": "这个表格", "para": "这一段"}[kind])
        return None

    def ref_para(self, p: dict, allow_memory: bool = True, register: bool = True) -> str:
        """A phrase naming body paragraph `p` by its content, its place under a heading, or memory.
        `register` False: the phrase may not be used (the caller registers it with :meth:`mention` if it is)."""
        again = self._again("para", p["id"])
        if again:
            return again
        phrase = self._ref_para(p, allow_memory)
        if register:
            self.mention("para", p["id"])
        return phrase

    def mention(self, kind: str, element_id: str) -> None:
        """Record that the instruction being written has named this element."""
        self.named[kind] = element_id

    def _ref_para(self, p: dict, allow_memory: bool) -> str:
        options = []
        if allow_memory and self.recent("para", p["id"]):
            options += [self.say(["the paragraph you just added", "that new paragraph"], ["刚才加的那段", "刚加上的那一段"])] * 3
        opening = self.opening(p)
        if opening:
            options += [self.say([f'the paragraph beginning "{opening}"', f'the paragraph that starts with "{opening}"',
                                  f'the "{opening}..." paragraph'],
                                 [f"以“{opening}”开头的那段", f"“{opening}……”这一段", f"开头是“{opening}”的段落"])] * 3
        head = self.heading_of(p["id"])
        if head is not None:
            under = [q for q in self.section_paragraphs(head["id"]) if _is_body(q)]
            if under and under[0]["id"] == p["id"] and self._unique_heading(head):
                h = head["text"].strip()
                if len(under) == 1:
                    options += [self.say([f'the paragraph under "{h}"', f'the text in the {h} section'],
                                         [f"“{h}”下面那段话", f"“{h}”部分的正文"])] * 2
                else:
                    options += [self.say([f'the first paragraph under "{h}"', f'the opening paragraph of the {h} section'],
                                         [f"“{h}”下面的第一段", f"“{h}”一节的第一段"])] * 2
        if not options:
            raise Skip("paragraph cannot be named unambiguously")
        return self.rng.choice(options)

    def opening(self, p: dict) -> str | None:
        """The shortest opening words (4+ words / 6+ characters) of `p` that no other paragraph starts with."""
        text = " ".join(p["text"].split())
        others = [" ".join(q["text"].split()) for q in self.paragraphs() if q["id"] != p["id"]]
        if not has_cjk(text):
            words = text.split(" ")
            for n in range(4, min(len(words), 9) + 1):
                cand = " ".join(words[:n]).rstrip(",;:")
                if not any(o.startswith(cand) for o in others) and len(cand) < len(text):
                    return cand
        else:
            inside = {k for m in _ZH_NUMBER.finditer(text) for k in range(m.start() + 1, m.end())}
            for n in range(6, min(len(text), 18) + 1):
                if n in inside:  # never cut "4月30日" or "12%" in two
                    continue
                cand = text[:n].rstrip("，、；：")
                if not any(o.startswith(cand) for o in others) and len(cand) < len(text):
                    return cand
        return None

    def _unique_heading(self, h: dict) -> bool:
        """A heading users can name by its text: unique, one line, not too long."""
        t = h["text"].strip()
        return (sum(1 for q in self.headings() if q["text"].strip() == t) == 1 and "\t" not in t and "\n" not in t
                and len(t) <= 60)

    def ref_heading(self, h: dict) -> str:
        """A phrase naming a heading by its text (or memory)."""
        if not self._unique_heading(h):
            raise Skip("heading text is not unique")
        t = h["text"].strip()
        if self.memory.get("heading") == h["id"] and self.rng.random() < 0.6:
            return self.say(["the heading you added", "the new heading"], ["刚才加的标题", "新加的那个标题"])
        return self.say([f'the "{t}" heading', f'the heading "{t}"', f"the {t} heading"], [f"“{t}”这个标题", f"标题“{t}”", f"“{t}”标题"])

    def ref_section(self, h: dict) -> str:
        if not self._unique_heading(h):
            raise Skip("heading text is not unique")
        t = h["text"].strip()
        return self.say([f'the "{t}" section', f"the {t} section"], [f"“{t}”这一节", f"“{t}”部分"])

    def ref_table(self, t: dict) -> str:
        """A phrase naming a table: the only one, by memory, by position, or by what it holds."""
        tables = self.tables()
        again = self._again("table", t["id"])
        if again:
            return again
        self.mention("table", t["id"])
        options = []
        if self.recent("table", t["id"]):
            options += [self.say(["the table you just added", "that new table", "the table I asked for earlier"],
                                 ["刚才插入的表格", "新加的那个表格", "前面让你加的表格"])] * 3
        if len(tables) == 1:
            options += [self.say("the table", ["表格", "文档里的表格"])] * 2
        else:
            k = [x["id"] for x in tables].index(t["id"])
            if k < 6:
                options.append(self.say(f"the {ORDINALS['en'][k]} table", f"{ORDINALS['zh'][k]}个表格"))
            first = t["cells"][0][0].strip() if t["cells"] and t["cells"][0] else ""
            if first and sum(1 for x in tables if x["cells"] and x["cells"][0] and x["cells"][0][0].strip() == first) == 1 and len(first) < 25:
                options.append(self.say(f'the table whose first column is headed "{first}"', f"首列表头为“{first}”的表格"))
        if not options:
            raise Skip("table cannot be named")
        return self.rng.choice(options)

    def ref_image(self, img: dict) -> str:
        imgs = self.images()
        if self.recent("image", img["id"]):
            return self.say(["the picture you inserted", "that new picture"], ["刚插入的图片", "新加的那张图"])
        if len(imgs) == 1:
            return self.say(["the picture", "the image"], ["图片", "那张图片"])
        k = [x["id"] for x in imgs].index(img["id"])
        if k >= 6:
            raise Skip("image cannot be named")
        return self.say(f"the {ORDINALS['en'][k]} picture", f"{ORDINALS['zh'][k]}张图片")

    def ref_chart(self, ch: dict) -> str:
        charts = self.charts()
        if self.recent("chart", ch["id"]):
            return self.say(["the chart you just made", "the new chart"], ["刚才做的图表", "新加的图表"])
        title = (ch.get("title") or "").strip()
        if title and sum(1 for c in charts if (c.get("title") or "").strip() == title) == 1 and self.rng.random() < 0.6:
            return self.say(f'the "{title}" chart', f"“{title}”图表")
        if len(charts) == 1:
            return self.say("the chart", "图表")
        k = [x["id"] for x in charts].index(ch["id"])
        if k >= 6:
            raise Skip("chart cannot be named")
        return self.say(f"the {ORDINALS['en'][k]} chart", f"{ORDINALS['zh'][k]}个图表")

    def colour(self):
        return self.pick(COLOURS[self.lang])

    def fill(self):
        return self.pick(FILLS[self.lang])


_ZH_NUMBER = re.compile(r"第?\d[\d.,]*(?:年\d{1,2}月\d{1,2}日|月\d{1,2}日|年\d{1,2}月|[%％]|万元|亿元|[万亿元个人名家天年月日次项倍台份所位岁周期届章条批]|小时|分钟|季度|平方米|公里)?")


def heading_level(p: dict) -> int:
    """The heading level of a state paragraph (0 if not a heading; only "Heading N", as the data were made with)."""
    m = re.match(r"^Heading (\d)$", p.get("style") or "")
    return int(m.group(1)) if m else 0


def _is_body(p: dict) -> bool:
    style = p.get("style") or "Normal"
    text = p["text"].strip()
    return (not heading_level(p) and not p.get("list") and len(text) >= 12 and style in ("Normal", "Body Text", "Quote")
            and "\t" not in p["text"] and "\n" not in p["text"] and "__" not in p["text"])


def has_cjk(text: str) -> bool:
    """Whether `text` holds Chinese characters."""
    return any("\u4e00" <= ch <= "\u9fff" for ch in text)


