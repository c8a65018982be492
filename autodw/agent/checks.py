"""Rule checks beside the LLM validator: cheap deterministic checks of an executed call against what was asked.

Each check gives a :class:`Finding`. A certain finding rejects the call without asking the validator (the agent
says so in the verdict); the others are shown to the validator as hints. The checks:

- ``unchanged`` (certain): the call changed nothing in the document (the same list written as direct numbering over
  its paragraph style's counts as no change when the paragraph looks the same: :func:`looks_unchanged`);
- ``altered_quote`` (certain): a text the call has is close to, but not, a text the user quoted (a colon appended,
  a letter changed), or a text it writes is a quote with whole words added at an end ("sec7" -> "sec7 draft") or
  with its last words dropped ("Key figures" -> "Key") when the shorter text is nowhere else in the request, with
  case, spacing and punctuation width ignored. Table cells and list items are not checked for dropped words: on
  DWBench dev gold they often begin another quote ("Task" and the caption "Task status");
- ``other_target`` (certain): the sub-instruction names element ids, and the call names none of them;
- ``other_row`` (certain): the call's table row (a row to delete, split or fill) does not hold the one text the
  sub-instruction quotes while another row below the header is labelled with it (its first cell; the "West" row at index 4 taken
  for index 3);
- ``unnamed_measure`` (certain): a length or size the call sets ("1.5cm", 14 pt) is not among the instruction's
  numbers of that unit, when the instruction gives numbers of that unit ("indent 1 cm" -> "1.5cm");
- ``unnamed_number`` (hint): another measurement the call sets (a spacing, a width) is a number the instruction
  does not mention, when it mentions numbers;
- ``unnamed_colour`` (certain): a text or line colour the call sets is of none of the colours the request names in
  words or as hex ("dark red" -> 0000FF), when it names some (named colour ranges of :mod:`autodw.colours`); a fill
  or shading only when the call gives it by name ("lightgrey" for "pale yellow"): requests leave their hex tints
  unnamed;
- ``relative_target`` (certain): the sub-instruction is about the element after or before an id ("delete the
  paragraph after p24") and the call targets that id itself;
- ``other_kind`` (certain): a single request names one kind (footnote or endnote; bulleted or numbered list) and
  the call that makes or deletes one has the other ``kind`` (or the API's default);
- ``wrong_side`` (certain): the call places something after an element the request says to place it before ("before
  the appendix" -> after the "Appendix: Methodology" heading), or the other way round, in a single request; an
  element mentioned on both sides is not checked;
- ``size_as_spacing`` (certain): a font size is asked for and the call sets that number of points as a spacing,
  line height or indent instead;
- ``unasked_api`` (certain): the call's API makes or changes one kind of thing (a page break, a comment, a chart, a
  table, a border...) that the request names in none of the words of ``api_words.json``, or deletes one when the
  request says nothing of deleting (a move done as a deletion);
- ``unnamed_value`` (certain): an enumerated value (an alignment, a chart type, a paper size, a section start...)
  the request names in no word while it names another value of that argument, or a value a request always names
  that it does not ("even_page"), per ``value_words.json``; also a number of page columns the request does not name
  ("分两栏" -> 3) and a row the request puts at the top ("放在最上方") inserted lower down;
- ``unasked_flag`` (certain): a property switched on that the request never names (bold, a header row, a separator
  line...), or switched off when the call's own request asks for it and never for its removal;
- ``unasked_property`` (certain): a formatting property (a font, a size, a spacing, an indent, a highlight, a colour,
  an underline) the request names neither in words nor by its value ("font": "Arial" when no font is asked for; a
  line spacing for a highlight);
- ``unnamed_level`` (certain): a heading level a single request names none of, when it names levels ("二级标题" -> 3);
- ``dropped_item`` (certain): a list or table the request spells out, written without its last item or row (after
  the call's last one the request goes on with the same separator and another item: "A", "B", "C" -> "A", "B");
- ``heading_as_paragraph`` (certain): a body paragraph whose text is a quote the request calls a section or heading;
- ``unasked_separator`` (certain): merged paragraphs joined by words the request does not have;
- ``colour_as_font`` (certain): a colour given as a font's name ("font": "green");
- ``not_at_end`` (certain): a single request says "at the end of the document" ("文档最后", "文末") and the call
  places something elsewhere than "end" or after the document's last block (or its trailing empty paragraphs).

`instruction` is the user's request the step serves: the whole instruction, or one of its requests when it is split
(:mod:`autodw.agent.requests`). When it is still compound (the hosted profile does not split), the checks that object
to a value because the request names another (``unnamed_value``, ``unnamed_colour``, ``not_at_end``, ``other_kind``,
``wrong_side``, ``unnamed_level``) judge the call against its own request, the one holding the texts it writes or
looks for (:func:`own_request`); the checks that object to what a request does not name keep the whole instruction
(a call may rightly do what a later request of the same message asks).

Some certain findings know the argument values that answer them (``fix``: the kind asked for, the other side of the
element, position "end", the only length the instruction gives, the quoted text): :func:`repair` applies them when a
model regenerates the very call that was rejected (small models copy it even when told what is wrong).

``unchanged`` does not apply to APIs that may rightly change nothing (:data:`MAY_CHANGE_NOTHING`: fields already
up to date).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from difflib import SequenceMatcher
from functools import cache
from pathlib import Path
from typing import Any, Iterator

from autodw.agent import grounding, requests
from autodw.colours import colour_names_in, colour_ranges
from autodw.errors import ArgumentError
from autodw.ids import ID_IN_TEXT
from autodw.state.effective import Formatting
from autodw.units import hex_color

State = dict[str, Any]
QUOTE_SIMILARITY = 0.75  # a written text this similar to a quote (but not equal) is an altered quote
MIN_TEXT_CHARS = 4
_NUMBER = re.compile(r"\d+(?:\.\d+)?")
MAY_CHANGE_NOTHING = ("update_fields",)
_ORIGIN = {"by_style"}  # a list's origin (its paragraph style or direct numbering): not a change of content
_MISSING = object()
#: unit words of an instruction -> the unit the APIs write
_UNITS = {"cm": "cm", "厘米": "cm", "公分": "cm", "mm": "mm", "毫米": "mm", "pt": "pt", "磅": "pt", "point": "pt",
          "points": "pt", "in": "in", "inch": "in", "inches": "in", "英寸": "in"}
_MEASURED = re.compile(r"(\d+(?:\.\d+)?)\s*(" + "|".join(sorted(_UNITS, key=len, reverse=True)) + r")(?![a-z])",
                       re.IGNORECASE)
_ARG_UNIT = {"size_pt": "pt"}  # bare-number arguments with a unit (a font size; a border's is its line: "thin")
_DOCUMENT_END = re.compile(r"(?:at|to) the (?:very )?end of the document|at the very end|(?:at|to) the bottom of the "
                           r"document|文档最后|文档末尾|文档结尾|文末|全文最后|全文末尾|全文结尾", re.IGNORECASE)
_CJK = re.compile(r"[\u3040-\u9fff]")
_MEASURE = re.compile(r"size|width|height|spacing|indent|margin|space|_pt|_cm|points", re.IGNORECASE)


@dataclass(frozen=True)
class Finding:
    """What one check found; `certain` findings reject on their own."""

    check: str
    text: str
    certain: bool
    fix: dict[str, Any] | None = None  # argument values that answer the finding, when it knows them


def looks_unchanged(before: State, after: State) -> bool:
    """Whether a call left the document as it looked: the states are equal, or differ only in where a paragraph's
    list comes from (``by_style``: its paragraph style or direct numbering) while the paragraph's effective formatting
    (the indent the origin decides) stays the same. Only the parts that differ are walked: equal subtrees are
    compared at C speed."""
    looks: Formatting | None = None  # built once, for the first paragraph whose list changed origin

    def same(a: Any, b: Any) -> bool:
        nonlocal looks
        if a == b:
            return True
        if isinstance(a, dict) and isinstance(b, dict):
            keys = [*a, *(k for k in b if k not in a)]  # in order: the walk stops at the first real difference
            if not all(same(a.get(k, _MISSING), b.get(k, _MISSING)) for k in keys if k not in _ORIGIN):
                return False
            if "runs" not in a or a.get("list") == b.get("list"):
                return True
            looks = looks or Formatting(after["styles"])
            return looks.paragraph(a) == looks.paragraph(b)
        if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
            return all(same(x, y) for x, y in zip(a, b))
        return False

    return same(before, after)


def check_call(sub_instruction: str, instruction: str, api: str, args: dict[str, Any], before: State,
               after: State) -> list[Finding]:
    """The findings of every check on the call ``api(args)`` that took the document from `before` to `after`."""
    findings: list[Finding] = []
    if api not in MAY_CHANGE_NOTHING and looks_unchanged(before, after):
        findings.append(Finding("unchanged", "the call changed nothing in the document", True))
    findings += _altered_quotes(args, instruction)
    findings += _other_target(args, sub_instruction, before)
    findings += _other_row(api, args, sub_instruction, before)
    findings += _numbers(api, args, instruction)
    findings += _size_as_spacing(args, sub_instruction, instruction)
    findings += _relative_target(args, sub_instruction)
    # the checks that object to a value when the request names another are judged against the call's own request
    request = own_request(instruction, args)
    findings += _unnamed_colours(args, request)
    if len(requests.split(request)) == 1:  # in a compound instruction these words may be another request's
        findings += _not_at_end(args, request, before)
        findings += _other_kind(api, args, request)
        findings += _wrong_side(args, request, before)
        findings += _unnamed_level(api, args, request)
        findings += _part_for_whole(api, request)
    findings += _unasked_api(api, instruction)
    findings += _unnamed_values(api, args, request)
    findings += _unasked_flags(args, instruction, request)
    findings += _unnamed_count(api, args, request)
    findings += _row_not_on_top(api, args, request)
    findings += _dropped_item(args, request)
    findings += _nested_first_item(api, args)
    findings += _unasked_properties(args, instruction)
    findings += _heading_as_paragraph(api, args, instruction)
    findings += _unasked_separator(api, args, instruction)
    findings += _colour_as_font(args)
    return findings


#: arguments whose texts tie a call to one request of a compound instruction (texts it writes or looks for)
_ANCHOR_KEYS = re.compile(r"^(?:text|title|replace|find|match|caption|bookmark|name|items|data|categories|label|"
                          r"comment|alt_text|description)$")


def own_request(instruction: str, args: dict[str, Any]) -> str:
    """The request of a compound instruction (:func:`requests.split`) a call serves: the only one in which the texts
    it writes or looks for occur; else the whole instruction. A single request is its own."""
    parts = requests.split(instruction)
    if len(parts) < 2:
        return instruction
    texts = {_loose(t) for key, t in _keyed_strings(args)
             if _ANCHOR_KEYS.match(key) and not ID_IN_TEXT.fullmatch(t) and len(_loose(t)) >= 2}
    loose_parts = [grounding.loose(part) for part in parts]
    hits = [part for part, loose_part in zip(parts, loose_parts) if any(t in loose_part for t in texts)]
    return hits[0] if len(hits) == 1 else instruction


def _loose(text: str) -> str:
    """:func:`grounding.loose` without the punctuation at the ends ("Contacts:" is "Contacts")."""
    return grounding.loose(text).strip(" .,;:!?\"'")


def _altered_quotes(args: dict[str, Any], instruction: str) -> list[Finding]:
    quoted = [q.text for q in grounding.quotes(instruction) if not q.opening]
    keys = {_loose(q) for q in quoted}
    out = []
    loose_instruction = grounding.loose(instruction)
    for arg, text in _keyed_strings(args):
        key = _loose(text)
        if key in keys or ID_IN_TEXT.fullmatch(text):
            continue
        for quote in quoted:
            q = _loose(quote)
            similar = len(key) >= MIN_TEXT_CHARS and len(q) >= MIN_TEXT_CHARS and \
                SequenceMatcher(None, key, q).ratio() >= QUOTE_SIMILARITY
            cut = _WRITTEN.match(arg) and q.startswith(key) and _extends(q, key) and \
                not _outside(key, q, loose_instruction)
            if similar or cut or (_WRITTEN.match(arg) and _extends(key, q)):
                fix = {arg: quote} if args.get(arg) == text else None  # a top-level text argument
                out.append(Finding("altered_quote", f'the call writes "{text}" where the user quoted "{quote}"', True, fix))
                break
    return out


#: arguments whose whole text the call writes (not texts it searches for, nor table cells and list items, which a
#: quoted caption or heading may begin with)
_WRITTEN = re.compile(r"^(?:text|title|replace|caption|bookmark|name)$")


def _extends(longer: str, shorter: str) -> bool:
    """Whether `longer` is `shorter` with whole words (or CJK characters after CJK) added at its end or start."""
    if not shorter or len(longer) <= len(shorter):
        return False
    if longer.startswith(shorter):
        return longer[len(shorter)] == " " or bool(_CJK.match(longer[len(shorter)]) and _CJK.match(shorter[-1]))
    if longer.endswith(shorter):
        return longer[-len(shorter) - 1] == " "
    return False


def _outside(part: str, quote: str, instruction: str) -> bool:
    """Whether `part` of `quote` occurs in `instruction` (all three loose) other than inside the quote."""
    return instruction.count(part) > instruction.count(quote) * quote.count(part)


def _keyed_strings(value: Any, key: str = "") -> Iterator[tuple[str, str]]:
    """(argument name, text) of every string in the arguments; list items keep their list's name."""
    if isinstance(value, str):
        yield key, value
    elif isinstance(value, list):
        for v in value:
            yield from _keyed_strings(v, key)
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _keyed_strings(v, key if k == "text" and key == "items" else k)


def _other_target(args: dict[str, Any], sub_instruction: str, before: State) -> list[Finding]:
    existing = set(_ids(before))
    # without a position, "the paragraph after p24" names p24 as a landmark, not as the target
    landmarks = set() if "position" in args else set(_RELATIVE.findall(sub_instruction))
    named = [i for i in dict.fromkeys(ID_IN_TEXT.findall(sub_instruction)) if i in existing and i not in landmarks]
    used = set(ID_IN_TEXT.findall(json.dumps(args)))
    if not named or not used or used & set(named):
        return []
    kinds = {re.match(r"[a-z]+", i).group(0) for i in named}
    if not any(re.match(r"[a-z]+", i).group(0) in kinds for i in used):
        return []  # the call names other kinds of element (a table for a paragraph's caption): not comparable
    return [Finding("other_target", f"the sub-instruction names {', '.join(named)}, the call targets "
                                    f"{', '.join(sorted(used))}", True)]


def _other_row(api: str, args: dict[str, Any], text: str, before: State) -> list[Finding]:
    row = args.get("index") if api == "delete_row" else args.get("row")
    table = next((t for t in before.get("tables", []) if t["id"] == args.get("table")), None)
    if type(row) is not int or table is None or not 0 <= row < len(table.get("cells", [])):
        return []
    quotes = grounding.quotes(text)
    if len(quotes) != 1:  # several quoted texts may name other rows for other operations
        return []
    quoted = {_loose(quotes[0].text), _loose(quotes[0].text.split("|")[0])}  # a label, or a whole row "West | 87 | 95"
    if {_loose(c or "") for c in table["cells"][row]} & quoted:
        return []
    named = [n for n, cells in enumerate(table["cells"]) if n and cells and _loose(cells[0] or "") in quoted]
    if not named:
        return []
    return [Finding("other_row", f"row {row} of {table['id']} holds none of the quoted texts; row "
                                 f"{', '.join(map(str, named))} does", True)]


_RELATIVE = re.compile(r"\b(?:paragraph|table|block|one|text|list)\s+(?:right\s+|just\s+|directly\s+|immediately\s+)?"
                       r"(?:after|following|below|under|before|above|preceding)\s+(?:the\s+)?(?:paragraph\s+|heading\s+|"
                       r"table\s+|block\s+)?(p\d+|t\d+)\b", re.IGNORECASE)
_TARGET_KEYS = ("block", "paragraph", "paragraphs", "table", "heading")


def _relative_target(args: dict[str, Any], sub_instruction: str) -> list[Finding]:
    """"Delete the paragraph after p24" done on p24 itself."""
    anchors = set(_RELATIVE.findall(sub_instruction))
    targets = {i for key in _TARGET_KEYS if key in args for _, i in _keyed_strings(args[key])}
    hit = sorted(anchors & targets)
    if not hit:
        return []
    return [Finding("relative_target", f"the sub-instruction is about the element next to {', '.join(hit)}, but the "
                                       f"call targets {', '.join(hit)} itself", True)]


_COLOUR_KEYS = re.compile(r"^(?:font_)?colou?r$", re.IGNORECASE)  # text and line colours; fills are often unnamed tints
_FILL_KEYS = re.compile(r"^(?:fill|shading|highlight)$", re.IGNORECASE)  # checked when the call names a colour
_HEX_IN_TEXT = re.compile(r"(?<![0-9A-Za-z])#?([0-9A-Fa-f]{6})(?![0-9A-Za-z])")


def _unnamed_colours(args: dict[str, Any], instruction: str) -> list[Finding]:
    names = colour_names_in(instruction)
    hexes = {h.upper() for h in _HEX_IN_TEXT.findall(instruction)}
    if not names and not hexes:
        return []
    ranges = colour_ranges()
    out = []
    for key, value in _keyed_strings(args):  # nested colours included (a border's)
        named_fill = _FILL_KEYS.search(key) and not _HEX_IN_TEXT.fullmatch(value)
        if not (_COLOUR_KEYS.search(key) or named_fill) or value.lower() in ("auto", "none"):
            continue
        try:
            rgb = hex_color(value)
        except ArgumentError:
            continue
        if rgb not in hexes and not any(ranges[n].contains(rgb) for n in names):
            said = ", ".join([*names, *sorted(hexes)])
            out.append(Finding("unnamed_colour", f"{key}={value} is not {said} (the colours the request names)", True))
    return out


def _ids(state: State) -> Iterator[str]:
    for p, _ in grounding.paragraphs(state):
        yield p["id"]
    for key in ("tables", "images"):
        for e in state.get(key, []):
            yield e["id"]


def _measure(api: str, key: str, value: Any) -> tuple[float, str] | None:
    """An argument's length or size as (number, unit), if it is one."""
    if isinstance(value, str):
        match = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*(cm|mm|pt|in)\s*", value)
        return (float(match.group(1)), match.group(2)) if match else None
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        unit = None if "border" in api else _ARG_UNIT.get(key)
        return (float(value), unit) if unit else None
    return None


def _numbers(api: str, args: dict[str, Any], instruction: str) -> list[Finding]:
    given: dict[str, set[float]] = {}
    for number, unit in _MEASURED.findall(instruction):
        given.setdefault(_UNITS[unit.lower()], set()).add(float(number))
    mentioned = {float(n) for n in _NUMBER.findall(instruction)}
    out = []
    for key, value in args.items():
        measure = _measure(api, key, value)
        if measure is not None and measure[1] in given:
            if measure[0] not in given[measure[1]]:
                named = ", ".join(f"{n:g} {measure[1]}" for n in sorted(given[measure[1]]))
                only = next(iter(given[measure[1]])) if len(given[measure[1]]) == 1 else None
                fix = None if only is None else {key: f"{only:g}{measure[1]}" if isinstance(value, str) else only}
                out.append(Finding("unnamed_measure", f"{key}={value}: the instruction gives {named}", True, fix))
        elif mentioned and _MEASURE.search(key) and not isinstance(value, bool):
            numbers = [float(n) for n in _NUMBER.findall(str(value))]
            if numbers and not any(n in mentioned for n in numbers):
                out.append(Finding("unnamed_number", f"{key}={value} is not a number the instruction mentions", False))
    return out


_FONT_SIZE = re.compile(r"font[- ]size|text size|size of the (?:text|font)|字号|字体大小|文字大小", re.IGNORECASE)


def _size_as_spacing(args: dict[str, Any], sub_instruction: str, instruction: str) -> list[Finding]:
    """A font size asked for, set as a spacing, height or indent of that number ("set its font size to 20pt" ->
    line_height "20pt")."""
    if not (_FONT_SIZE.search(sub_instruction) or _FONT_SIZE.search(instruction)) or "size_pt" in args:
        return []
    asked = {float(n) for n, unit in _MEASURED.findall(sub_instruction + " " + instruction) if _UNITS[unit.lower()] == "pt"}
    used = [(k, v) for k, v in args.items() if _MEASURE.search(k) and isinstance(v, str)
            and _measure("", k, v) in {(n, "pt") for n in asked}]
    return [Finding("size_as_spacing", f"{k}={v} sets a {k.replace('_', ' ')}, but a font size is asked for (size_pt of "
                                       "set_text_format)", True) for k, v in used]


def _last_blocks(state: State) -> set[str]:
    """The ids a block can follow and still be at the end: the last non-empty paragraph, the empty ones after it, and
    the tables after any of them."""
    paras = state.get("paragraphs", [])
    ends: set[str] = set()
    for p in reversed(paras):
        ends.add(p["id"])
        if p.get("text", "").strip():
            break
    return ends | {t["id"] for t in state.get("tables", []) if t.get("after_paragraph") in ends}


def _not_at_end(args: dict[str, Any], instruction: str, before: State) -> list[Finding]:
    position = args.get("position")
    said = _DOCUMENT_END.search(instruction)
    if said is None or position is None or position == "end":
        return []
    anchor = position.get("after") if isinstance(position, dict) else None
    if anchor is not None and anchor in _last_blocks(before):
        return []
    return [Finding("not_at_end", f'the request says "{said.group(0)}" but the call places it at {json.dumps(position)}; '
                                  'use position "end"', True, {"position": "end"})]


#: kinds the request names in words -> how it says them; per API, the kinds of its ``kind`` argument and its default
_KIND_WORDS = {"footnote": r"foot-?notes?|脚注", "endnote": r"end-?notes?|尾注",
               "bullet": r"bullet(?:ed|s)?|项目符号|圆点", "numbered": r"numbered|numbering|编号|序号"}
_KIND_APIS = {"insert_footnote": (("footnote", "endnote"), "footnote"),
              "delete_footnote": (("footnote", "endnote"), "footnote"),
              "insert_list": (("bullet", "numbered"), "bullet")}  # not set_list_format: "number the bullet list"


def _other_kind(api: str, args: dict[str, Any], instruction: str) -> list[Finding]:
    kinds, default = _KIND_APIS.get(api, ((), None))
    if not kinds:
        return []
    asked = [k for k in kinds if re.search(_KIND_WORDS[k], instruction, re.IGNORECASE)]
    made = args.get("kind", default)
    if len(asked) != 1 or made not in kinds or made == asked[0]:
        return []
    return [Finding("other_kind", f"the request asks for {asked[0]}, the call's kind is {made!r}", True,
                    {"kind": asked[0]})]


#: (side, words) in English (before the landmark) and Chinese (after it)
_SIDE_WORDS = {"before": (r"before|above|ahead\s+of|preceding|in\s+front\s+of", r"之前|前面|以前|上方|上面|前"),
               "after": (r"after|below|following|under(?:neath)?|beneath", r"之后|后面|以后|下方|下面|后")}
_FILLER = r"(?:the\s+)?(?:(?:heading|section|paragraph|title|chapter|part)\s+)?[\"'“‘]?"


def _mentions(instruction: str, side: str, landmark: str) -> bool:
    """Whether `instruction` says `side` of the element whose text is `landmark` ("before the appendix")."""
    english, chinese = _SIDE_WORDS[side]
    if _CJK.search(landmark):
        head = re.escape(re.split(r"[\s:：,，、.。;；(（]", landmark)[0][:4])
        return re.search(rf"{head}[^，。；,;]{{0,10}}?(?:{chinese})", instruction) is not None
    words = re.findall(r"\w+", landmark)
    if not words:
        return False
    name = r"\W+".join(map(re.escape, words[:1] if len(words[0]) >= MIN_TEXT_CHARS else words[:2]))
    return re.search(rf"\b(?:{english})\s+{_FILLER}{name}\b", instruction, re.IGNORECASE) is not None


def _wrong_side(args: dict[str, Any], instruction: str, before: State) -> list[Finding]:
    position = args.get("position")
    if not isinstance(position, dict) or len(position) != 1:
        return []
    side, anchor = next(iter(position.items()))
    other = {"before": "after", "after": "before"}.get(side)
    text = next((p.get("text", "") for p, _ in grounding.paragraphs(before) if p["id"] == anchor), "").strip()
    if other is None or not text or not _mentions(instruction, other, text) or _mentions(instruction, side, text):
        return []
    return [Finding("wrong_side", f'the request says {other} "{text[:40]}", the call places it {side} {anchor}', True,
                    {"position": {other: anchor}})]


@cache
def _data(name: str) -> dict[str, Any]:
    """A word list of this package (``api_words.json``, ``value_words.json``), read once."""
    return json.loads((Path(__file__).with_name(name)).read_text(encoding="utf-8"))


@cache
def _api_words() -> dict[str, list[re.Pattern[str]]]:
    return {api: [re.compile(w, re.IGNORECASE) for w in ([words] if isinstance(words, str) else words)]
            for api, words in _data("api_words.json").items() if not api.startswith("_")}


def _unasked_api(api: str, instruction: str) -> list[Finding]:
    """A call of an API that makes or changes one kind of thing the request never names (a page break, a comment),
    or deletes one when the request says nothing of deleting."""
    words = _api_words().get(api)
    if words is None or all(w.search(instruction) for w in words):
        return []
    return [Finding("unasked_api", f"{api} makes or changes something the request does not mention", True)]


def _named(pattern: str, instruction: str) -> bool:
    return re.search(pattern, instruction, re.IGNORECASE) is not None


def _unnamed_values(api: str, args: dict[str, Any], instruction: str) -> list[Finding]:
    """An enumerated value the request names in no word, while it names another value of that argument, or while the
    value is one a request always names ("chart_type": "line" for a pie chart; "start": "even_page")."""
    data = _data("value_words.json")
    out = []
    for key, value in _keyed_strings(args):
        words = data["values"].get(f"{api}.{key}") or data["values"].get(key)
        if not words or value not in words or _named(words[value], instruction):
            continue
        others = [v for v, pattern in words.items() if v != value and _named(pattern, instruction)]
        if others or value in data["named"].get(key, ()):
            said = f"; it names {', '.join(others)}" if others else ""
            fix = {key: others[0]} if len(others) == 1 and args.get(key) == value else None
            out.append(Finding("unnamed_value", f"{key}={value}: the request does not ask for {value}{said}", True, fix))
    return out


def _negated(pattern: str, instruction: str) -> bool:
    """Whether the request says not to (or to remove) the property `pattern` names ("no longer bold", "取消加粗")."""
    negation = _data("value_words.json")["negation"]
    for match in re.finditer(pattern, instruction, re.IGNORECASE):
        window = instruction[max(0, match.start() - (6 if _CJK.match(match.group(0)) else 24)):match.start()]
        if re.search(negation, window, re.IGNORECASE):
            return True
    return False


def _unasked_properties(args: dict[str, Any], instruction: str) -> list[Finding]:
    """A formatting property set that the request names neither in words nor by its value ("font": "Arial" when no
    font is asked for; a line spacing for a highlight)."""
    out, loose_instruction = [], grounding.loose(instruction)
    for key, pattern in _data("value_words.json")["properties"].items():
        value = args.get(key)
        if value is None or isinstance(value, bool) or _named(pattern, instruction):
            continue
        if grounding.loose(str(value)) in loose_instruction:
            continue
        out.append(Finding("unasked_property", f"{key}={value!r}: the request names no {key.replace('_', ' ')}",
                           True))
    return out


def _unasked_flags(args: dict[str, Any], instruction: str, request: str) -> list[Finding]:
    """A property switched on that the instruction never names, or switched off when the call's own request asks for
    it."""
    out = []
    for key, pattern in _data("value_words.json")["flags"].items():
        value = args.get(key)
        if not isinstance(value, bool):
            continue
        if value and not _named(pattern, instruction):
            out.append(Finding("unasked_flag", f"{key}=true: the request does not ask for it", True, {key: False}))
        elif not value and _named(pattern, request) and not _negated(pattern, request):
            out.append(Finding("unasked_flag", f"{key}=false: the request asks for it", True, {key: True}))
    return out


_COUNT_WORDS = {w: n for n, ws in enumerate(("", "one|一", "two|两|二|double", "three|三", "four|四", "five|五", "six|六"))
                for w in ws.split("|") if w}
_COLUMN_COUNT = re.compile(r"(\d+|" + "|".join(_COUNT_WORDS) + r")\s*-?\s*(?:columns?\b|栏)", re.IGNORECASE)


def _unnamed_count(api: str, args: dict[str, Any], request: str) -> list[Finding]:
    """A number of page columns the request names none of ("分两栏" -> 3)."""
    count = args.get("count")
    if api != "set_columns" or type(count) is not int:
        return []
    named = {int(w) if w.isdigit() else _COUNT_WORDS[w.lower()] for w in _COLUMN_COUNT.findall(request)}
    if not named or count in named:
        return []
    fix = {"count": next(iter(named))} if len(named) == 1 else None
    return [Finding("unnamed_value", f"count={count}: the request asks for {', '.join(map(str, sorted(named)))} "
                                     f"columns", True, fix)]


_TOP_ROW = re.compile(r"at the top|top row|(?:as|a new) first row|最上方|最上面|最前面|顶部|顶端|首行|第一行",
                      re.IGNORECASE)
_BELOW = re.compile(r"\b(?:below|under|after|beneath)\b|下方|下面|之后|后面", re.IGNORECASE)


def _row_not_on_top(api: str, args: dict[str, Any], request: str) -> list[Finding]:
    """A row the request puts at the top of a table ("放在最上方") inserted lower down."""
    index = args.get("index")
    if api != "insert_row" or type(index) is not int or index == 0:
        return []
    if not _TOP_ROW.search(request) or _BELOW.search(request):
        return []
    return [Finding("unnamed_value", f"index={index}: the request puts the row at the top (index 0)", True, {"index": 0})]


_CONNECTIVE = re.compile(r"(?:next|then|also|finally|and then|after that|另外|然后|接着|最后|再|并且)\b", re.IGNORECASE)
_ROW_SEPARATOR = re.compile(r"\s*(?:/|;)\s*")
_LAST_GAP = re.compile(r'"?\s*,?\s*(?:and|和|及|以及)\s*"?', re.IGNORECASE)


def _located(texts: list[str], text: str, start: int = 0) -> list[tuple[int, int]] | None:
    """Where each of `texts` (loose) occurs in `text` (loose), in order, each after the one before; None if one does
    not."""
    spans = []
    for t in texts:
        i = text.find(t, start) if t else -1
        if i < 0:
            return None
        spans.append((i, i + len(t)))
        start = i + len(t)
    return spans


def _nested_first_item(api: str, args: dict[str, Any]) -> list[Finding]:
    """A new list whose items are all nested (level 1 or more; 0 is the top level): its first item hangs under nothing.
    Seen with the 1.5B model, which numbers levels from 1; the fix moves every item up by the lowest level."""
    items = args.get("items")
    if api != "insert_list" or not isinstance(items, list) or not items:
        return []
    levels = [item.get("level", 0) if isinstance(item, dict) else 0 for item in items]
    if not all(type(level) is int for level in levels) or (low := min(levels)) < 1:
        return []
    fixed = [{**item, "level": item["level"] - low} if isinstance(item, dict) else item for item in items]
    return [Finding("nested_first_item", f"every item is at level {low} or deeper, so the list's first item is nested "
                                         "under nothing; level 0 is the top level", True, {"items": fixed})]


def _dropped_item(args: dict[str, Any], request: str) -> list[Finding]:
    """A list or table the request spells out, written with its last item or row left out: after the call's last item
    the request goes on with the same separator and another item ("A", "B", "C" written as "A", "B")."""
    text = grounding.loose(request)
    out = []
    items = [_loose(t) for _, t in _keyed_strings(args.get("items") or [])]
    spans = _located(items, text) if len(items) >= 2 else None
    if spans:
        (_, prev_end), (start, end) = spans[-2], spans[-1]
        separator, rest = text[prev_end:start], text[end:]
        last_gap = _LAST_GAP.match(rest)  # "A, B and C"
        gap = separator if rest.startswith(separator) else \
            last_gap.group(0) if last_gap and ('"' in last_gap.group(0)) == ('"' in separator) else None
        if separator.strip() and gap is not None:
            after = rest[len(gap):]
            nxt = re.match(r"[^,;/、.!?()\"']{2,60}", after)
            if nxt and not _CONNECTIVE.match(after) and _loose(nxt.group(0)) not in items:
                out.append(Finding("dropped_item", f'the list ends before "{nxt.group(0).strip()}", which the request '
                                                   f"lists next", True))
    rows = args.get("data")
    if isinstance(rows, list) and rows and all(isinstance(r, list) and r for r in rows):
        last = [_loose(str(c)) for c in rows[-1]]
        before = [_loose(str(c)) for c in rows[-2]] if len(rows) >= 2 else []
        spans = _located(last, text) if len(last) >= 2 and all(last) else None
        previous = _located(before, text[:spans[0][0]]) if spans and before and all(before) else None
        if spans:
            cell_separator = text[spans[0][1]:spans[1][0]]
            rest = text[spans[-1][1]:]
            # the separator between the call's last two rows, or else "/" (a ";" may end the request instead)
            row_gap = text[previous[-1][1]:spans[0][0]] if previous else ""
            row_gap = row_gap if _ROW_SEPARATOR.fullmatch(row_gap) else " / "
            gap = _ROW_SEPARATOR.match(rest)
            if gap and gap.group(0).strip() == row_gap.strip() and cell_separator.strip() in (",", "，", "、") and \
                    not _CONNECTIVE.match(rest[gap.end():]):
                cells = rest[gap.end():].split(cell_separator)[:len(last)]
                if len(cells) == len(last) and all(0 < len(c.strip()) <= 40 for c in cells[:-1]) and \
                        re.match(r"\s*[^,;/.]{1,40}", cells[-1]):
                    out.append(Finding("dropped_item", f'the table ends before the row "{cells[0].strip()}, ...", '
                                                       f"which the request gives next", True))
    return out


_LEVEL_WORDS = re.compile(r"(?:heading|标题)\s*(\d)|level[- ]?(\d)|\bh(\d)\b|(?<![降升])([1-6一二三四五六])\s*级", re.IGNORECASE)
_CHINESE_DIGITS = {c: n for n, c in enumerate("一二三四五六", start=1)}


def _unnamed_level(api: str, args: dict[str, Any], instruction: str) -> list[Finding]:
    """A heading level the request names none of, when it names heading levels ("二级标题" -> level 3)."""
    level = args.get("level")
    if api not in ("insert_heading", "change_heading_level") or type(level) is not int:
        return []
    named = {int(d) if d.isdigit() else _CHINESE_DIGITS[d] for m in _LEVEL_WORDS.findall(instruction) for d in m if d}
    if not named or level in named:
        return []
    fix = {"level": next(iter(named))} if len(named) == 1 else None
    return [Finding("unnamed_level", f"level {level}: the request names level {', '.join(map(str, sorted(named)))}", True,
                    fix)]


_SECTION_BEFORE = r"(?:section|heading|title|chapter)\s+(?:called\s+|named\s+|titled\s+|headed\s+|entitled\s+)?[:：]?\s*|" \
                  r"(?:一节|小节|章节|标题|节)[：:]?\s*"
_SECTION_AFTER = r"\s*(?:section|heading)\b|\s*(?:小节|一节|章节|标题)"


def _heading_as_paragraph(api: str, args: dict[str, Any], instruction: str) -> list[Finding]:
    """A body paragraph whose text is a quote the request calls a section or heading ("a section called "Next Steps"")."""
    text = args.get("text")
    if api != "insert_paragraph" or not isinstance(text, str) or not text.strip():
        return []
    quoted = re.escape(text.strip())
    pattern = rf"(?:{_SECTION_BEFORE})[\"“'‘]{quoted}[\"”'’]|[\"“'‘]{quoted}[\"”'’](?:{_SECTION_AFTER})"
    if not _named(pattern, instruction):
        return []
    return [Finding("heading_as_paragraph", f'"{text}" is a section or heading the request names; the call inserts it as '
                                            "a body paragraph (insert_heading)", True)]


#: a request that gives a paragraph a whole new text ("replace the text of ... with", "... should just say ... instead")
_WHOLE_TEXT = re.compile(r"replace the (?:whole |entire )?text of|so (?:that )?it (?:now )?reads|should (?:just|only|now) "
                         r"(?:say|read)|的(?:内容|文字)改[成为]|整段(?:替换|改)|改写为", re.IGNORECASE)


def _part_for_whole(api: str, request: str) -> list[Finding]:
    """replace_text for a request that gives a paragraph a whole new text: it changes only the words it finds."""
    if api != "replace_text" or not _WHOLE_TEXT.search(request):
        return []
    return [Finding("part_for_whole", "the request gives the paragraph a whole new text; replace_text changes only the "
                                      "words it finds (set_paragraph_text replaces a paragraph's text)", True)]


def _colour_as_font(args: dict[str, Any]) -> list[Finding]:
    """A colour given as the font's name ("font": "green")."""
    return [Finding("colour_as_font", f"{key}={args[key]!r} is a colour, not a font (a colour is set with color)", True)
            for key in ("font", "east_asia_font") if isinstance(args.get(key), str) and _is_colour(args[key])]


def _is_colour(text: str) -> bool:
    try:
        hex_color(text)
    except ArgumentError:
        return False
    return True


def _unasked_separator(api: str, args: dict[str, Any], instruction: str) -> list[Finding]:
    """A separator of merged paragraphs with words the request does not have."""
    separator = args.get("separator")
    if api != "merge_paragraphs" or not isinstance(separator, str):
        return []
    words = re.findall(r"\w+", separator)
    missing = [w for w in words if w.casefold() not in instruction.casefold()]
    if not missing:
        return []
    return [Finding("unasked_separator", f"separator {separator!r}: the request does not say {' '.join(missing)!r}", True)]


#: findings that say the API itself cannot do what was asked: retrying its arguments is no use
WRONG_API_CHECKS = frozenset({"unasked_api", "heading_as_paragraph", "part_for_whole"})


def wrong_api(findings: list[Finding]) -> bool:
    """Whether a certain finding rejects the call's API, not its arguments."""
    return any(f.certain and f.check in WRONG_API_CHECKS for f in findings)


def repair(findings: list[Finding]) -> dict[str, Any] | None:
    """The argument values that answer every certain finding, or None when one of them has no fix."""
    certain = [f for f in findings if f.certain]
    if not certain or any(f.fix is None for f in certain):
        return None
    return {k: v for f in certain for k, v in (f.fix or {}).items()}


def findings_text(findings: list[Finding]) -> str:
    """The findings as prompt lines for the validator ("" when there are none)."""
    return "\n".join(f"- {f.text}" for f in findings)
