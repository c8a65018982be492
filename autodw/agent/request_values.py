"""Values in the user's words, in the form the APIs take them: what a small model drops on its way to a call.

People say "replace X with Y everywhere", "全部替换", paste a table as CSV or "Draft, Sam, Done; Review, Kim, Open",
ask for "half an inch", "小四", "1.5倍行距", "light grey", "深蓝底白字", "a new section", "the 2 in m2 superscript".
A 1.5B model then writes a count of one, a table of empty cells, "<sup>2</sup>" in the text, a heading a level off,
a length or colour of its own. Each parser here reads one kind of value from the request (English and Chinese) and
returns typed values; :func:`request_values` collects them (the document state checks a replacement's text and
gives the heading scheme), and :func:`value_lines` renders them as the API generator's prompt lines ("" when the
request has none, so other prompts do not change). Pure functions, no model: well under a millisecond for a request
(a few milliseconds against a document of thousands of paragraphs).

The word lists and patterns were written from the hand-written DWBench 2.0 dev track, then corrected where
templated dev showed them misreading (``tuned_on`` in ``autodw/core/provenance.json``); the measure words are also the rule checks' (:mod:`autodw.agent.checks.measures`),
the heading-level words theirs too (:mod:`autodw.agent.checks.headings`), the colour names are
:mod:`autodw.core.colours`'.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Union

from autodw.agent import grounding
from autodw.analysis.state import State, header_footer_stories
from autodw.analysis.state import render
from autodw.apis.catalogue.table_operation import SEPARATORS, delimited_rows
from autodw.core.colours import ColourSaid, colour_hex, colours_said
from autodw.core.errors import ArgumentError
from autodw.core.units import NAMED_COLORS

_VALUE_WORDS = Path(__file__).with_name("value_words.json")
CJK = re.compile(r"[\u3400-\u9fff]")
_NUMBER_WORDS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
                 "eight": 8, "nine": 9, "ten": 10, "一": 1, "两": 2, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6,
                 "七": 7, "八": 8, "九": 9, "十": 10}
_QUOTED = grounding.OPENING + r"(?P<{name}>[^" + grounding.CLOSING_MARKS + r"\n]{{1,200}})" + grounding.CLOSING


def _number(word: str) -> int | None:
    return int(word) if word.isdigit() else _NUMBER_WORDS.get(word.lower())


# --- replacements ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Replacement:
    """Text to replace: `find` -> `replace`; `everywhere`: the request says every occurrence ("everywhere", "全部",
    "都"); `headers`: headers and footers too (replace_text's scope "all"); `occurrences`: how often `find` is in
    the document (its body, and its headers and footers with `headers`; None: not looked up)."""

    find: str
    replace: str
    everywhere: bool = False
    headers: bool = False
    occurrences: int | None = None


_EVERYWHERE = re.compile(r"\beverywhere\b|\bthroughout\b|\ball\s+(?:the\s+)?(?:occurrences|instances|mentions|of\s+them)\b|"
                         r"\bevery\s+(?:occurrence|instance|mention|one|paragraph|time)\b|\bglobally\b|\bwhole\s+document\b|"
                         r"\b(?:replace|change)\s+(?:all|every|each)\b|"
                         r"全部|所有|全文|通篇|一律|统统|全都|每[个处]|都(?=\s*要?\s*(?:改|换|替))", re.IGNORECASE)
_HEADERS = re.compile(r"\bheaders?\b(?:\s+(?:and|or|&)\s+footers?)?\s+(?:included|too|as well)|including\s+(?:the\s+)?"
                      r"headers?|\bin\s+the\s+headers?\b|页眉页脚|页眉和页脚|页眉(?:也|里)", re.IGNORECASE)
_EN_WORD = r"[^\s,.;:!?\"“”]+"
_EN_THING = rf"{_EN_WORD}(?:\s+{_EN_WORD}){{0,5}}?"
_EN_END = r"(?=\s*(?:[,.;:!?](?:\s|$)|$|\s+(?:everywhere|throughout|in\s+(?:the|all|every|each)|across|please|instead|too)\b))"
_EN_LEAD = (r"(?:(?:all|every|each)\s+(?:(?:the\s+)?(?:occurrences?|instances?|mentions?)\s+of\s+)?|"
            r"(?:the\s+)?(?:words?|text|phrase|name)\s+)?")
#: "replace X with Y", "change "X" to "Y"", "swap X for Y": the English verbs, X and Y quoted or not
_EN_REPLACE = [
    re.compile(rf"\b(?:replace|substitute)\s+{_EN_LEAD}(?:{_QUOTED.format(name='qf')}|(?P<f>{_EN_THING}))\s+(?:with|by)\s+"
               rf"(?:{_QUOTED.format(name='qr')}|(?P<r>{_EN_THING}){_EN_END})", re.IGNORECASE),
    re.compile(rf"\b(?:change|correct|fix|rename|turn|swap)\s+{_EN_LEAD}(?:{_QUOTED.format(name='qf')}|(?P<f>{_EN_THING}))"
               rf"\s+(?:to|into|for|with)\s+(?:{_QUOTED.format(name='qr')}|(?P<r>{_EN_THING}){_EN_END})", re.IGNORECASE),
]
_ZH_VERB = grounding.ZH_CHANGE_TO
_ZH_THING = r"[^\s，。；：！？,;:!?“”\"「」]{1,40}?"
_ZH_HEAD = r"(?:把|将|全文|文中|里面|里|中|的|所有|全部|\s)"  # what an unquoted Chinese text to replace comes after
_ZH_TAIL = r"(?:\s*(?:都|也|全部|全都|一律|统统|要|请))*"
#: "把X都改成Y", "“X”改成“Y”", "X写错了，应该是Y", "写成X了，应该是Y"
_ZH_REPLACE = [
    re.compile(rf"(?:{_QUOTED.format(name='qf')}|(?:{_ZH_HEAD}|^)(?P<f>{_ZH_THING})){_ZH_TAIL}\s*{_ZH_VERB}\s*"
               rf"(?:{_QUOTED.format(name='qr')}|(?P<r>[^，。；！？,;!?\n]{{1,40}}?)(?=\s*(?:吧|了|啊|呢)?(?:[，。；！？,;!?\n]|$)))"),
    re.compile(rf"(?:{_QUOTED.format(name='qf')}|(?:写成|写错成)\s*(?P<f>{_ZH_THING}))\s*(?:了)?\s*"
               rf"(?P<wrong>写错了|错了|是错的|不对|有误)?[，,]?\s*(?:应该|应|其实|(?(wrong)|(?!)))是\s*"
               rf"(?:{_QUOTED.format(name='qr')}|(?P<r>[^，。；！？,;!?\n]{{1,40}}?)(?=\s*(?:吧|了|啊)?(?:[，。；！？,;!?\n]|$)))"),
]
_PRONOUNS = {"it", "them", "this", "that", "these", "those", "one", "ones", "its"}


def _same_shape_part(find: str, replace: str) -> str:
    """`find` cut to the part `replace` stands for when `replace` is shorter and of the same shape (digits for
    digits) as its start or end: "“2006年1月1日以后”也改成2007年1月1日" replaces "2006年1月1日"."""
    shape = lambda s: re.sub(r"\d", "0", s)  # noqa: E731
    if len(replace) < len(find) and re.search(r"\d", replace):
        if shape(find).startswith(shape(replace)):
            return find[:len(replace)]
        if shape(find).endswith(shape(replace)):
            return find[-len(replace):]
    return find


#: an unquoted new "text" that is a format ("改成句首大写", "change it to bold", "改成红色"), not text
_FORMAT_WORDS = re.compile(r"大写|小写|居中|对齐|斜体|加粗|粗体|下划线|字体|字号|样式|格式|颜色|[一二三四五六]级|标题\s*\d|正文|"
                           r"\b(?:upper|lower|title|sentence)[ -]?case\b|\bcapitals?\b|\bbold\b|\bitalics?\b|\bunderlined?\b|"
                           r"\bcent(?:re|er)d?\b|\bheading\s*\d|\bstyle\b", re.IGNORECASE)


def _plausible(find: str, replace: str, quoted_find: bool, quoted_replace: bool) -> bool:
    """Whether a pair reads as text for text: not a pronoun ("replace "X" with it": the name said before), not a
    format as the new text ("改成句首大写", "change "X" to bold"), and unquoted, not a description of the place for
    a value ("the deadline" -> "7 May")."""
    if not find or not replace or find == replace or find.lower() in _PRONOUNS or replace.lower() in _PRONOUNS:
        return False
    if not quoted_replace and (_FORMAT_WORDS.search(replace) or colours_said(replace) or measures(replace)):
        return False
    return quoted_find or quoted_replace or bool(re.search(r"\d", find)) == bool(re.search(r"\d", replace))


def replacements(text: str) -> list[Replacement]:
    """The texts the request replaces ("replace X with Y", "change "X" to "Y"", "把X都改成Y", "X写错了，应该是Y"),
    in order. An unquoted text to replace is taken in English only after "replace" or with a word saying every
    occurrence, in Chinese only with 把/将, such a word, or letters or digits in it ("下面的 TODO 改成 Done")."""
    everywhere, headers = bool(_EVERYWHERE.search(text)), bool(_HEADERS.search(text))
    out: list[Replacement] = []
    for pattern in [*_EN_REPLACE, *_ZH_REPLACE]:
        for m in pattern.finditer(text):
            find, replace = (m.group("qf") or m.group("f") or "").strip(), (m.group("qr") or m.group("r") or "").strip()
            quoted = m.group("qf") is not None
            if not quoted and pattern in _EN_REPLACE:
                if not (pattern is _EN_REPLACE[0] or everywhere):
                    continue
            elif not quoted and pattern is _ZH_REPLACE[0] and CJK.search(find) and not re.search(r"[A-Za-z0-9]", find):
                if not (re.search(r"把|将", text[max(0, m.start() - 20):m.end()]) or everywhere):
                    continue
            if not _plausible(find, replace, quoted, m.group("qr") is not None):
                continue
            find = _same_shape_part(find, replace)
            if all(r.find != find for r in out):
                out.append(Replacement(find, replace, everywhere, headers))
    return out


def occurrences(state: State, args: dict[str, Any]) -> int | None:
    """How many times replace_text's `find` occurs where a call with `args` searches (its paragraphs, the body and its
    tables, or with scope "all" also the headers and footers, each story once); None when the pattern is not a valid
    expression."""
    find = args.get("find")
    if not isinstance(find, str) or not find:
        return None
    pattern = find if args.get("regex") else re.escape(find)
    if args.get("whole_word"):
        pattern = rf"(?<!\w)(?:{pattern})(?!\w)"
    try:
        compiled = re.compile(pattern, 0 if args.get("match_case", True) else re.IGNORECASE)
    except re.error:
        return None
    only = args.get("paragraphs")
    texts = [p.get("text", "") for p, _ in grounding.paragraphs(state) if not only or p.get("id") in only]
    if args.get("scope") == "all" and not only:
        texts += [story.get("text", "") for _, _, story in header_footer_stories(state, once=True)]
    return sum(1 for t in texts for m in compiled.finditer(t) if m.end() > m.start())


# --- table data ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TableData:
    """A table's contents given in the request: `rows` of cell texts (the header first when there is one), then
    `blank_rows` empty rows to fill in; not `clean` when the request names a header that is not as wide as its rows
    (the rows alone, read as ambiguous)."""

    rows: tuple[tuple[str, ...], ...]
    blank_rows: int = 0
    clean: bool = True

    @property
    def size(self) -> tuple[int, int]:
        """(rows, columns) of the whole table."""
        return len(self.rows) + self.blank_rows, max(len(r) for r in self.rows)


_LIST_SPLIT = re.compile(r"\s*(?:[,，、;；]\s*(?:and\s+|or\s+|和|及)?|\s+and\s+|\s*(?:和|及|以及)\s*)\s*")
_CELL_SPLIT = re.compile(r"\s*[,，、]\s*")
_ROW_SPLIT = re.compile(r"\s*[;；]\s*")
_TABLE_WORD = re.compile(r"\btables?\b|表格|表", re.IGNORECASE)
_EN_HEADER = re.compile(r"\b(?:columns?|column\s+(?:headings?|headers?|names?|titles?)|headers?(?:\s+row)?|headings?)"
                        r"\s*(?:called|named|are|is|[:：])?\s*(?P<list>[^.;:!?\n(]+?)"
                        r"(?=,?\s+(?:with|then|plus|under|below|above|and\s+(?:the\s+)?(?:rows?|data|then|\d+|one|two|three|four|five))\b"
                        r"|\s*[.;:!?\n(]|$)", re.IGNORECASE)
_ZH_HEADER = re.compile(r"(?:表头|列名|列标题|栏目)(?:\s*加粗)?(?:是|为|有|用|写)?\s*[:：]?\s*(?P<list>[^。；;（(\n]+)|"
                        r"(?<!列)表格?\s*[:：]\s*(?P<list2>[^。；;（(\n]+)")
#: a clause after a Chinese header list that is no column name ("，下面留三行空的", "，数据…")
_ZH_AFTER_HEADER = re.compile(r"^(?:数据|内容|下面|下方|然后|接着|另外|再|最后|并|加粗|留|要|把|放|用|表头|其中)")
MAX_ZH_CELL_CHARS = 8  # an item of more Chinese characters is a clause, not a cell
_EN_ROWS = re.compile(r"\b(?:rows?|data|entries)\s*(?:are|of|[:：])?\s*(?P<rows>(?:[^.\n]|\.(?=\S))+?)"
                      r"(?=\.(?:\s|$)|\n|$|\)|,\s*(?:then|and then|finally)\b)", re.IGNORECASE)
_ZH_ROWS = re.compile(r"(?:数据|内容|各行|每行)(?:是|为|有)?\s*[:：]?\s*(?P<rows>[^。\n）)]+?)(?=[。\n）)]|[，,]\s*(?:然后|接着|另外|再|最后)|$)")
#: a row that goes on with the request rather than the table ("; after the Cleaning section, add ...", "；另外，...")
_NOT_A_ROW = re.compile(r"(?:after|before|add|put|make|cent(?:re|er)|caption|insert|set|move|delete|change|replace|also|"
                        r"please|then|next|finally)\b|另外|然后|接着|最后|并且", re.IGNORECASE)
_ROWS_FOR = re.compile(r"\brows\s+for\s+(?:a\s+|an\s+|the\s+)?(?P<list>[^.;:!?\n]+?)"
                       r"(?=[.;:!?\n]|$|,?\s+(?:and\s+)?(?:with|then|under|plus)\b)", re.IGNORECASE)
#: after an English header list: more rows separated by semicolons ("headers Name, Role; Priya, Analyst; …")
_ROWS_AFTER_HEADER = re.compile(r"\s*;(?!\s*(?:rows?|data)\b)((?:[^.\n)]|\.(?=\S))+)")
_BLANK_ROWS = re.compile(r"\b(?P<n>\d+|one|two|three|four|five|six|seven|eight|nine|ten)\s+(?:more\s+)?(?:blank|empty)\s+rows?\b|"
                         r"(?:留|空)\s*(?P<zh>\d+|[一两二三四五六七八九十])\s*行\s*(?:空|空白)|(?P<zh2>\d+|[一两二三四五六七八九十])\s*(?:个|行)?空行",
                         re.IGNORECASE)
_ARTICLE = re.compile(r"^(?:a|an|the)\s+", re.IGNORECASE)
MAX_CELL_WORDS = 4  # a header's or first column's item of more words is no cell name


_CELL_FORMAT = re.compile(r"\s*(?:[（(][^）)]*[）)]?|加粗|粗体|\(bold\))$")  # "邮箱（加粗）", "邮箱加粗": a bold header


def _items(listing: str) -> list[str]:
    """The names of a list ("Item, Quantity, From and To", "姓名、职责、邮箱（加粗）"), articles and a bracket or
    format word at the end left out; none when one is longer than a cell's name."""
    items = [_CELL_FORMAT.sub("", _ARTICLE.sub("", i.strip(" \"“”'‘’"))).strip() for i in _LIST_SPLIT.split(listing)]
    items = [i for i in items if i]
    return items if all(len(i.split()) <= MAX_CELL_WORDS for i in items) else []  # longer: words about the table


def _grid(listing: str) -> list[list[str]] | None:
    """Rows separated by semicolons, cells by commas ("Draft, Sam, Done; Review, Kim, Open"): the first two rows or
    more of the same number of short cells (two or more), up to one that is not (a clause after the data: "; after
    the Next Meeting section, add ..."), a longer one's cells after that number left out (", captioned "X" above
    it"), else None."""
    rows = [[c.strip(" \"“”'‘’") for c in _CELL_SPLIT.split(r.strip())] for r in _ROW_SPLIT.split(listing.strip(" ;；"))]
    rows = [r for r in rows if any(r)]
    width, grid = len(rows[0]) if rows else 0, []
    for row in rows:
        if len(row) < width or _NOT_A_ROW.match(row[0]) or not all(len(c.split()) <= MAX_CELL_WORDS and len(CJK.findall(c)) <= MAX_ZH_CELL_CHARS
                                       for c in row[:width]):
            break
        grid.append(row[:width])
        if len(row) > width:  # "…; Approval, Pat, In progress, captioned "X" above it"
            break
    return grid if len(grid) >= 2 and width >= 2 else None


def _end(text: str, rows: list[list[str]], start: int) -> int:
    """Where `rows`, read from `text` at `start`, end in it (after the last of their cells found in order)."""
    for cell in (c for row in rows for c in row if c):
        at = text.find(cell, start)
        start = at + len(cell) if at >= 0 else start
    return start


def _runs(lines: list[str], has: Any) -> list[list[str]]:
    """The runs of two or more consecutive `lines` for which `has(line)` holds."""
    runs: list[list[str]] = [[]]
    for line in lines:
        if has(line):
            runs[-1].append(line)
        elif runs[-1]:
            runs.append([])
    return [run for run in runs if len(run) >= 2]


def _pasted(text: str) -> list[list[str]] | None:
    """The longest table pasted into the request as lines: Markdown, or tab-, comma- or semicolon-separated (two
    lines or more with the same number of cells, two or more)."""
    lines = text.split("\n")
    found: list[list[list[str]]] = []
    kinds = [("markdown", lambda line: line.lstrip().startswith("|"))]
    kinds += [(name, lambda line, ch=ch: ch in line) for name, ch in SEPARATORS.items()]
    for separator, has in kinds:
        for run in _runs(lines, has):
            try:
                rows = delimited_rows(run, separator)
            except ArgumentError:  # lines it cannot split: not a table
                continue
            if len(rows) >= 2 and len({len(r) for r in rows}) == 1 and len(rows[0]) >= 2:
                found.append(rows)
    return max(found, key=len, default=None)


def tables(text: str) -> list[TableData]:
    """The contents of the tables the request gives, in order (none when it names no table): pasted lines
    (Markdown, CSV, tabs: the longest run), or inline: a header ("columns Item, Qty and Price", "表头姓名、职责、邮箱"),
    rows ("rows Draft, Sam, Done; Review, Kim, Open", "数据黄静, 设计师; 胡斌, 组长", "rows for a laptop, monitor and
    headset": the first column), and blank rows to fill in ("three blank rows", "下面留三行空的"); each table read
    after the one before."""
    if not _TABLE_WORD.search(text):
        return []
    pasted = _pasted(text)
    if pasted:
        return [TableData(tuple(tuple(r) for r in pasted))]
    out: list[TableData] = []
    start = 0
    while (read := _inline_table(text, start)) is not None:
        table, start = read
        out.append(table)
    return out


def table_data(text: str) -> TableData | None:
    """The first table the request gives (:func:`tables`), None if it gives none."""
    return next(iter(tables(text)), None)


def _inline_table(text: str, start: int) -> tuple[TableData, int] | None:
    """The first table given in words in `text` from `start`, and where its words end; None if there is none."""
    header: list[str] = []
    m, named = None, False  # named: a header of one name ("the header Name and the rows ...")
    for m in [*_ZH_HEADER.finditer(text, start), *_EN_HEADER.finditer(text, start)]:  # the first of two names or more
        listing = m.groupdict().get("list") or m.groupdict().get("list2") or ""
        if m.re is _ZH_HEADER:  # "姓名、职责、邮箱，下面…" or "姓名，职责，邮箱，数据…"
            clauses = re.split(r"\s*[，,]\s*", listing)
            names = []
            for clause in clauses if "、" not in clauses[0] else clauses[:1]:
                if _ZH_AFTER_HEADER.match(clause) or len(clause) > MAX_ZH_CELL_CHARS and "、" not in clause:
                    break
                names.append(clause)
            listing = "、".join(names)
        names = _items(listing)
        header = names if len(names) >= 2 else []
        named = named or len(names) == 1
        if header:
            break
    rows: list[list[str]] = []
    end = after = m.start() if header and m else start  # a header's rows come after it
    if header and m and m.re is _EN_HEADER and (more := _ROWS_AFTER_HEADER.match(text, m.end())):
        rows = _grid(more.group(1)) or []
    for pattern in (() if rows else (_ZH_ROWS, _EN_ROWS)):
        rows = next((g for r in pattern.finditer(text, after) if (g := _grid(r.group("rows")))), [])
        if rows:
            break
    if not rows and not header:  # "Add a table: Draft, Sam, Done; Review, Kim, Open"
        rows = next((g for clause in re.split(r"[:：]", text[start:])[1:]
                     if (g := _grid(re.split(r"[。\n]|\.(?:\s|$)", clause)[0]))), [])
    end = _end(text, ([header] if header else []) + rows, end)
    if header and not rows and (m := _ROWS_FOR.search(text, start)):
        firsts = _items(m.group("list"))
        if all(h[:1].isupper() for h in header if h[:1].isalpha()):
            firsts = [f[:1].upper() + f[1:] for f in firsts]
        rows, end = [[f] + [""] * (len(header) - 1) for f in firsts], m.end()
    clean = not rows or (len(header) == len(rows[0]) if header else not named)
    header = header if clean else []  # a header not as wide as the rows: the rows alone
    blank = 0
    if (b := _BLANK_ROWS.search(text, start)) is not None:
        blank = _number(b.group("n") or b.group("zh") or b.group("zh2")) or 0
    all_rows = ([header] if header else []) + rows
    if not all_rows or (len(all_rows) == 1 and not blank):
        return None
    return TableData(tuple(tuple(r) for r in all_rows), blank, clean), max(end, start + 1)


# --- lengths, sizes and spacing --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Measure:
    """A measure the request gives: `kind` "length" (`value` as the APIs write it: "0.5in", "8cm", "6pt"), "font
    size" (points), "line spacing" (a multiple of single) or "indent in characters"; `said`: the user's words."""

    kind: str
    value: str | float
    said: str


#: unit words of a request -> the unit the APIs write (also the rule checks')
UNITS = {"cm": "cm", "厘米": "cm", "公分": "cm", "mm": "mm", "毫米": "mm", "pt": "pt", "磅": "pt", "point": "pt",
         "points": "pt", "in": "in", "inch": "in", "inches": "in", "英寸": "in"}
#: a number with a unit word ("2.5 cm", "12pt", "8厘米")
MEASURED = re.compile(r"(\d+(?:\.\d+)?)\s*-?\s*(" + "|".join(sorted(UNITS, key=len, reverse=True)) + r")(?![a-z])", re.IGNORECASE)
_FRACTION_WORDS = re.compile(r"\b(?P<n>half\s+an?|a\s+half|a\s+quarter\s+of\s+an?|quarter\s+of\s+an?|an?|one|two|three)"
                             r"(?:\s+and\s+a\s+(?P<half>half))?\s+"
                             r"(?P<unit>inch(?:es)?|centimet(?:re|er)s?|millimet(?:re|er)s?)\b",
                             re.IGNORECASE)
_WORD_VALUES = {"half a": 0.5, "half an": 0.5, "a half": 0.5, "a quarter of a": 0.25, "a quarter of an": 0.25,
                "quarter of a": 0.25, "quarter of an": 0.25, "a": 1, "an": 1, "one": 1, "two": 2, "three": 3}
_UNIT_WORDS = {"inch": "in", "centimet": "cm", "millimet": "mm"}
#: Chinese font size names (字号) -> points, as Word's size box lists them
CHINESE_FONT_SIZES = {"初号": 42, "小初": 36, "一号": 26, "小一": 24, "二号": 22, "小二": 18, "三号": 16, "小三": 15,
                      "四号": 14, "小四": 12, "五号": 10.5, "小五": 9, "六号": 7.5, "小六": 6.5, "七号": 5.5, "八号": 5}
#: a Chinese font size: a name ("小四", "五号"; "小一号" after 改成/用/号/a comma only: else one size smaller) or a number
#: of points ("22号"), not a date, address or number ("4月30号", "88号楼", "第3号")
_CHINESE_SIZE = re.compile(r"(?<![第月日路街道巷弄楼室村])(?:(?P<name>小一(?!号)|(?<=[成为到用是：:，,\s号])小一号|^小一号|"
                           r"小[初二三四五六]号?|(?<![小大])[初一二三四五六七八]号)|(?<![\d.])(?P<n>[1-7]?\d(?:\.5)?)\s*号)(?![楼房室线院])")
_FONT_CONTEXT = re.compile(r"字|标题|正文|大小|调[大小]|[大小]一?点|font|size", re.IGNORECASE)  # a Chinese size is read only with these
_SPACING_CONTEXT = re.compile(r"spacing|line\s+height|between\s+(?:the\s+)?lines|行距|行间距", re.IGNORECASE)
_SPACING = re.compile(r"\b(?P<word>single|double)[- ]spac|(?P<n>\d+(?:\.\d+)?)\s*(?:-|\s)?(?:lines?|times)\b|"
                      r"(?P<zh>\d+(?:\.\d+)?|单|双|两)\s*倍(?:行距)?", re.IGNORECASE)
_CHAR_INDENT = re.compile(r"(?P<n>\d+|[一两二三四])\s*个?\s*(?:字符|字)(?=.{0,6}缩进)|缩进\s*(?P<n2>\d+|[一两二三四])\s*个?\s*(?:字符|字)"
                          r"|\b(?P<en>\d+|one|two|three|four)\s+characters?\b(?=.{0,20}indent)"
                          r"|indent\w*\s+(?:of\s+|by\s+)?(?P<en2>\d+|one|two|three|four)\s+characters?",
                          re.IGNORECASE)


def _fmt(n: float) -> str:
    return f"{n:g}"


def measures(text: str) -> list[Measure]:
    """The lengths ("2 cm", "half an inch", "6磅"), font sizes ("12 pt" is read as a length: the call decides;
    "小四", "五号", "22号"), line spacings ("1.5 lines", "double spacing", "1.5倍行距") and indents in characters
    ("首行缩进2个字符") the request gives, in order of appearance."""
    found: list[tuple[int, Measure]] = []
    for m in MEASURED.finditer(text):
        found.append((m.start(), Measure("length", f"{_fmt(float(m.group(1)))}{UNITS[m.group(2).lower()]}", m.group(0))))
    for m in _FRACTION_WORDS.finditer(text):
        n = " ".join(m.group("n").lower().split())
        value = _WORD_VALUES[n] + (0.5 if m.group("half") else 0)
        unit = next(u for w, u in _UNIT_WORDS.items() if m.group("unit").lower().startswith(w))
        found.append((m.start(), Measure("length", f"{_fmt(value)}{unit}", m.group(0))))
    for m in _CHINESE_SIZE.finditer(text) if _FONT_CONTEXT.search(text) else ():
        name = m.group("name")
        points = CHINESE_FONT_SIZES[name.rstrip("号") if name.startswith("小") else name] if name else float(m.group("n"))
        found.append((m.start(), Measure("font size", points, m.group(0))))
    if _SPACING_CONTEXT.search(text):
        for m in _SPACING.finditer(text):
            word = (m.group("word") or m.group("zh") or "").lower()
            value = {"single": 1.0, "单": 1.0, "double": 2.0, "双": 2.0, "两": 2.0}.get(word) or float(m.group("n") or m.group("zh"))
            found.append((m.start(), Measure("line spacing", value, m.group(0))))
    for m in _CHAR_INDENT.finditer(text):
        word = next(g for g in (m.group("n"), m.group("n2"), m.group("en"), m.group("en2")) if g)
        found.append((m.start(), Measure("indent in characters", float(_number(word) or 0), m.group(0))))
    out: list[Measure] = []
    for _, measure in sorted(found, key=lambda f: f[0]):
        if measure not in out:
            out.append(measure)
    return out


# --- colours ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Colour:
    """A colour the request names: `hex` RRGGBB (an API colour name's own, else the named colour's usual one),
    `said` the user's words, `role` "background" or "text" when the words say so (else None)."""

    hex: str
    said: str
    role: str | None = None


_BACKGROUND = re.compile(r"^\s*(?:colou?red\s+)?(?:background|shading|fill|highlight|cell|底|背景|底纹|底色|填充)", re.IGNORECASE)
_TEXT = re.compile(r"^\s*(?:colou?red\s+)?(?:text|font|letters|writing|字)", re.IGNORECASE)
_HEX = re.compile(r"(?<![0-9A-Za-z])#?([0-9A-Fa-f]{6})(?![0-9A-Za-z])")


#: before a colour that is not the one asked for: the one to replace or remove, or a description of the element
#: ("the two blue section titles", "那两行红字")
_NOT_THE_VALUE_BEFORE = re.compile(r"(?:rather\s+than|instead\s+of|\bnot|\bfrom|\bthan|\b(?:take|remove|drop|strip|get\s+rid\s+of)"
                                   r"\s+(?:the\s+)?|(?P<the>\bthe\s+(?:\w+\s+)?))\s*$|(?:去掉|取消|不要)\s*$"
                                   r"|[那这](?:[一二两三四五六七八九十几]?\s*(?:行|段|句|条|处|个|些))?\s*$", re.IGNORECASE)
#: after "the [word] COLOUR": a noun of the element ("the two blue section titles"), unless one of these
_NOT_A_NOUN = {"and", "or", "with", "please", "instead", "too", "then", "but", "for", "so", "to", "in", "on", "at", "as",
               "of", "rather", "again", "now", "like", "it", "them", "this", "that", "colour", "color", "one", "ones"}
#: after a colour the request judges, the colour the element has: "浅蓝不太显眼", "that blue is too much", "this red
#: looks a bit loud", "the grey isn't readable"
_JUDGED_AFTER = re.compile(r"^\s*的?(?:不太|不够|太|有点|看不清)|^\s+(?:is|looks|seems|feels)\s+(?:too|a\s+bit|a\s+little|rather|"
                           r"quite|way|not|hard)\b|^\s+(?:isn't|isn’t|doesn't|doesn’t)\b", re.IGNORECASE)


def _not_the_value(text: str, said: ColourSaid, role: str | None) -> bool:
    """Whether a colour named is not one to set: one to replace or remove ("dark green rather than blue", "take the
    blue background off"), one judged ("浅蓝不太显眼", "that blue is too much"), the colour of the element meant ("the
    two blue section titles"), or part of a name ("Arial Black", "Blue Door Café")."""
    before, after = text[max(0, said.at - 30):said.at], text[said.at + len(said.words):]
    if _JUDGED_AFTER.search(after):
        return True
    if (m := _NOT_THE_VALUE_BEFORE.search(before)) is not None:
        if not m.group("the"):
            return True
        noun = re.match(r"\s+([a-z]+)", after)  # "the two blue section titles", not "the heading blue"
        if role is None and noun is not None and noun.group(1) not in _NOT_A_NOUN:
            return True
    name_word = re.compile(r"[A-Z][\w'’]*")
    neighbours = [w for w in (re.findall(r"(\S+)\s+$", before)[-1:] + re.findall(r"^\s+(\S+)", after)[:1])]
    return said.words[:1].isupper() and said.at > 0 and not re.search(r"[.!?]\s*$", before) and \
        any(name_word.fullmatch(w) for w in neighbours)


def colours_to_set(text: str) -> list[tuple[ColourSaid, str | None]]:
    """The colours the request names in words to set, in order, each with its role when the next words say it
    ("light blue background", "深蓝底白字"); not a colour it names to replace or remove or to describe an element
    (:func:`_not_the_value`)."""
    out: list[tuple[ColourSaid, str | None]] = []
    for said in colours_said(text):
        after = text[said.at + len(said.words):said.at + len(said.words) + 14]
        role = "background" if _BACKGROUND.search(after) else "text" if _TEXT.search(after) else None
        if not _not_the_value(text, said, role):
            out.append((said, role))
    return out


def colours(text: str) -> list[Colour]:
    """The colours the request names to set (:func:`colours_to_set`), in words ("light grey", "浅灰色", "navy",
    "红字") or as hex ("#1F4E79"), in order, each with its role."""
    out: list[Colour] = []
    for said, role in colours_to_set(text):
        api_name = NAMED_COLORS.get(said.words.lower().replace(" ", ""))
        colour = Colour(api_name or colour_hex(said.name), said.words, role)
        if all(c.hex != colour.hex for c in out):
            out.append(colour)
    for m in _HEX.finditer(text):
        if re.search(r"[A-Fa-f]", m.group(1)) or m.group(0).startswith("#"):
            out.append(Colour(m.group(1).upper(), m.group(0)))
    return out


# --- character formats -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CharacterFormat:
    """A character format the request names (`flag`, an argument of the formatting APIs: bold, italic, superscript...)
    and whether it is to be on; `part`/`within`: the characters it is for when the request names them inside a
    longer text ("the 2 in m2": part "2", within "m2")."""

    flag: str
    on: bool
    part: str | None = None
    within: str | None = None


_CHARACTER_FLAGS = ("bold", "italic", "strike", "superscript", "subscript")
#: just before a format word: it is to be off ("not bold", "no longer italic", "不用加粗", "取消下划线")
_OFF_BEFORE = re.compile(r"(?:\bnot|\bno\s+longer|\bwithout|\bremove\s+(?:the\s+)?|\btake\s+(?:the\s+)?|\bturn\s+off|\bun-?)\s*$|"
                         r"(?:不用|不要|不需要|别|取消|去掉|去除|不)\s*(?:再|加|设为|设成|用)?\s*$", re.IGNORECASE)
_CLEAR = re.compile(r"\bplain\s+text\b|\b(?:clear|remove|strip)\s+(?:all\s+)?(?:the\s+)?(?:character\s+)?formatting|清除格式|去掉格式|纯文本",
                    re.IGNORECASE)
_UNDERLINE = r"underlin|下划线"
_FORMULA = r"[A-Za-z0-9+\-^/()]{2,30}"  # what a superscript or subscript is part of: "m2", "H2O", "x^2"
_PART_OF = re.compile(r"\bthe\s+[\"“'‘]?(?P<part>[^\s\"”'’]{1,12}?)[\"”'’]?\s+in\s+[\"“'‘]?(?P<within>" + _FORMULA + r")[\"”'’]?"
                      r"|[\"“'‘]?(?P<within2>" + _FORMULA + r")[\"”'’]?\s*(?:里面|里|中)的\s*"
                      r"[\"“'‘]?(?P<part2>[^\s\"”'’，。的]{1,12}?)[\"”'’]?"
                      r"(?=\s*(?:设为|设成|改成|改为|变成|做成|弄成|用|要|是)?\s*(?:上标|下标))", re.IGNORECASE)


@cache
def _value_words() -> dict[str, Any]:
    """The rule checks' value word list (``value_words.json``, the package's own: candidate lists tried with
    ``checks.reading.use_word_lists`` are the checks' alone): its format flags' words, removal and reversal words."""
    return json.loads(_VALUE_WORDS.read_text(encoding="utf-8"))


def character_formats(text: str) -> list[CharacterFormat]:
    """The character formats the request names (bold, italic, underline, strikethrough, superscript, subscript: the
    words of ``value_words.json``), on unless it says not to where it names one, just before ("not bold", "不用加粗")
    or after ("take the bold off", "加粗去掉": ``negation_after``), or undoes what was done ("Undo that"), with the characters they are for when it names them in a longer text ("make the 2 in m2
    superscript", "H2O里的2设为下标"). None when it clears formatting ("just make it plain text")."""
    words = _value_words()
    if _CLEAR.search(text):
        return []
    out: list[CharacterFormat] = []
    flags = [(k, words["flags"][k]) for k in _CHARACTER_FLAGS] + [("underline", _UNDERLINE)]
    for flag, pattern in flags:
        said = list(re.finditer(pattern, text, re.IGNORECASE))
        if not said:
            continue
        on = not (any(_OFF_BEFORE.search(text[max(0, m.start() - 16):m.start()])
                      or re.search(words["negation_after"], text[m.end():], re.IGNORECASE) for m in said)
                  or re.search(words["reversal"], text, re.IGNORECASE))
        part = within = None
        if flag in ("superscript", "subscript") and (p := _PART_OF.search(text)):
            part, within = p.group("part") or p.group("part2"), p.group("within") or p.group("within2")
            if part not in within:
                part = within = None
        out.append(CharacterFormat(flag, on, part, within))
    return out


# --- heading levels --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class HeadingLevel:
    """The heading level a new or changed heading takes (0: the Title style), and why (the document's scheme or the
    level the request names)."""

    level: int
    why: str


_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth")
#: a heading level named in a request ("Heading 2", "标题1", "level 2", "h2", "二级标题", "a third heading level",
#: "a second-level heading"; not "up to three levels", "the third heading")
LEVEL_WORDS = re.compile(r"(?:heading|标题)\s*(\d)|level[- ]?(\d)|\bh(\d)\b|(?<![降升])([1-6一二三四五六])\s*级|"
                         rf"\b({'|'.join(_ORDINALS)})[- ](?:heading[- ]level|level[- ]heading)", re.IGNORECASE)
_LEVEL_NAMES = {c: n for n, c in enumerate("一二三四五六", start=1)} | {w: n for n, w in enumerate(_ORDINALS, start=1)}
_NEW_TITLE = re.compile(r"\b(?:give|add|put|insert)\s+(?:it\s+|the\s+document\s+)?an?\s+(?:main\s+|document\s+)?title\b"
                        r"(?!\s+(?:row|column|cell|page|property|properties|field))", re.IGNORECASE)
#: just before a level the request names that is the level to take ("make it a Heading 1", "降为二级标题", "用标题1的
#: 样式"), not the headings it selects ("every level-1 heading", "所有一级标题", "the Heading 1 style")
_TO_LEVEL = re.compile(r"(?:\bto|\binto|\bas|\bbe|\bmake\s+(?:it|them)|成|为|用|是)\s*(?:an?\s+|the\s+)?$", re.IGNORECASE)
_SUBSECTION = re.compile(r"\bsub-?(?:section|heading|headline)s?\b|小节|子节|子标题|小标题", re.IGNORECASE)
_SECTION = re.compile(r"\b(?:new|another|extra|own|one\s+more)\s+(?:[a-z]+\s+)?(?:section|chapter|heading)\b(?!\s+breaks?)|"
                      r"\b(?:add|insert|put|create|start)\s+an?\s+(?:new\s+)?(?:[a-z]+\s+)?(?:section|chapter|heading)\b"
                      r"(?!\s+breaks?)|"
                      r"\b(?:section|heading)\s+(?:called|named|titled|headed|entitled)\b|"
                      r"(?:加|新增|添加|插入|补|增加|另起)\s*(?:一|个|一个)?\s*(?:节|章|部分|标题)|新的一节|一节[“\"「]", re.IGNORECASE)
_CONTENTS = re.compile(r"\btable\s+of\s+contents\b|\bTOC\b|目录", re.IGNORECASE)  # "目录到三级标题": its depth
_NOT_HEADING = re.compile(r"\bnormal\s+(?:paragraph|text)|\bbody\s+text\b|\bplain\s+paragraph|普通正文|正文样式|普通段落|改回正文",
                          re.IGNORECASE)


def levels_named(text: str, targets_only: bool = False) -> set[int]:
    """The heading levels `text` names ("Heading 2", "标题1", "level 2", "二级标题"); `targets_only`: only those it
    names as the level to take (:data:`_TO_LEVEL`)."""
    return {int(d) if d.isdigit() else _LEVEL_NAMES[d.lower()] for m in LEVEL_WORDS.finditer(text)
            if not targets_only or _TO_LEVEL.search(text[max(0, m.start() - 16):m.start()]) for d in m.groups() if d}


def _scheme(used: list[int]) -> str:
    if not used:
        return "the document has no headings yet"
    parts = [f"sections are Heading {used[0]}"] + ([f"subsections Heading {used[1]}"] if len(used) > 1 else [])
    return "the document's " + ", ".join(parts)


def heading_level(text: str, state: State) -> HeadingLevel | None:
    """The level of the heading the request adds or changes, when it says which: a level it names as the one to take
    ("make it a Heading 2", "降为二级标题"), the Title style for a new title ("give it a title"), else the document's
    own scheme for a new section (its shallowest heading level) or subsection (the next level it uses). None when it
    says none, or turns a heading into body text."""
    if _NOT_HEADING.search(text):
        return None
    named = set() if _CONTENTS.search(text) else levels_named(text, targets_only=True)
    if len(named) == 1:
        return HeadingLevel(next(iter(named)), "the level the request names")
    if named:
        return None
    if _NEW_TITLE.search(text):
        return HeadingLevel(0, "level 0 is the Title style, a document's title")
    sub = _SUBSECTION.search(text)
    if not (sub or _SECTION.search(text)):
        return None
    paragraphs = state.get("paragraphs", [])
    level_of = {style: render.heading_level(style) for style in {p.get("style") for p in paragraphs}}
    used = sorted({lv for p in paragraphs if (lv := level_of[p.get("style")]) is not None and lv >= 1})
    section = used[0] if used else 1
    if sub:
        deeper = [lv for lv in used if lv > section]
        return HeadingLevel(deeper[0] if deeper else section + 1, _scheme(used))
    return HeadingLevel(section, _scheme(used))


# --- together --------------------------------------------------------------------------------------------------

Value = Union[Replacement, TableData, Measure, Colour, CharacterFormat, HeadingLevel]


@dataclass(frozen=True)
class RequestValues:
    """Every value of one request (each list empty, or None, when it gives none)."""

    replacements: list[Replacement] = field(default_factory=list)
    table: TableData | None = None
    measures: list[Measure] = field(default_factory=list)
    colours: list[Colour] = field(default_factory=list)
    formats: list[CharacterFormat] = field(default_factory=list)
    heading: HeadingLevel | None = None

    def __bool__(self) -> bool:
        return bool(self.replacements or self.table or self.measures or self.colours or self.formats or self.heading)


def request_values(text: str, state: State | None = None) -> RequestValues:
    """The values of `text`. With the document's `state`, a replacement is kept only when its text is in the
    document (with its count), and the heading level is read against the document's headings."""
    found = replacements(text)
    if state is not None:
        counted = [Replacement(r.find, r.replace, r.everywhere, r.headers,
                               occurrences(state, {"find": r.find, "scope": "all" if r.headers else "body"}))
                   for r in found]
        found = [r for r in counted if r.occurrences]
    table = table_data(text)  # offered only when read unambiguously
    return RequestValues(found, table if table and table.clean else None, measures(text), colours(text),
                         character_formats(text), heading_level(text, state) if state is not None else None)


_MARKUP = "never markup such as <sup>, <b>, ** or _ in the text"


def _part_pattern(f: CharacterFormat) -> str:
    """A regular expression for `f.part` only where it is in `f.within` ("(?<=m)2" for the 2 in m2)."""
    assert f.part is not None and f.within is not None
    at = f.within.index(f.part)
    before, after = f.within[:at], f.within[at + len(f.part):]
    return (f"(?<={re.escape(before)})" if before else "") + re.escape(f.part) + (f"(?={re.escape(after)})" if after else "")


def _line(value: Value) -> str:
    """One value as a prompt line."""
    if isinstance(value, Replacement):
        count = f"{value.occurrences} in the document" if value.occurrences is not None else ""
        every = "every one: leave count out" if value.everywhere else ""
        scope = 'headers and footers too: scope "all"' if value.headers else ""
        notes = "; ".join(n for n in (count, every, scope) if n)
        return f'replace: "{value.find}" -> "{value.replace}"' + (f" ({notes})" if notes else "")
    if isinstance(value, TableData):
        n_rows, n_cols = value.size
        data = json.dumps([list(r) for r in value.rows], ensure_ascii=False)
        blank = f", rows {n_rows} (the last {value.blank_rows} empty)" if value.blank_rows else ""
        return f"table data ({n_rows} rows x {n_cols} columns): data {data}{blank}"
    if isinstance(value, Measure):
        points = value.kind != "length" or str(value.value).endswith("pt")
        number = _fmt(float(str(value.value).removesuffix("pt"))) if points else ""
        return {"length": f'length: "{value.value}" ({value.said})' if not number else
                          f'points: {number} ({value.said}): a font size is size_pt {number}, '
                          f'a spacing or indent "{value.value}"',
                "font size": f"font size: size_pt {number} ({value.said})",
                "line spacing": f"line spacing: line_spacing {number} ({value.said})",
                "indent in characters": f"first-line indent: first_line_chars {number} ({value.said})"}[value.kind]
    if isinstance(value, Colour):
        return f'colour: "{value.hex}" ({value.said}{", " + value.role if value.role else ""})'
    if isinstance(value, CharacterFormat):
        where = (f'on the "{value.part}" in "{value.within}" only (e.g. find "{_part_pattern(value)}" with regex true)'
                 if value.part else "as a formatting argument")
        return f"character format: {value.flag} {str(value.on).lower()} {where}; {_MARKUP}"
    return f"heading level: {value.level} ({value.why})"


def value_lines(values: RequestValues) -> str:
    """The values as prompt lines, with a blank line after them ("" when there are none)."""
    listed: list[Value] = [*values.replacements, *([values.table] if values.table else []), *values.measures,
                           *values.colours, *values.formats, *([values.heading] if values.heading else [])]
    if not listed:
        return ""
    return "Values from the user's request (in the form the APIs take):\n" + "".join(f"- {_line(v)}\n" for v in listed) + "\n"
