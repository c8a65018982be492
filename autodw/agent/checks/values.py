"""Rule checks of the values, switches and properties a call sets against those the request names in words."""

from __future__ import annotations

import functools
import re
from typing import Any

from autodw.agent import grounding, requests
from autodw.agent.request_values import occurrences
from autodw.agent.checks.reading import (ANCHOR_KEYS, CJK, catalogue_value, catalogue_words, changed_stretches, drawing,
                                         keyed_strings, list_kind_made, loose_text, named, one_value, runs_text,
                                         target_paragraphs, values_now, word_list)
from autodw.agent.checks.registry import BUILT_ON, Certainty, CheckFinding, State, check
from autodw.analysis.state import header_footer_stories
from autodw.analysis.state.effective import Formatting
from autodw.core.colours import colours_said
from autodw.core.errors import ArgumentError, InternalError
from autodw.core.units import EMU_PER, emu

#: kinds the request names in words -> how it says them; per API, the kinds of its ``kind`` argument and its default
_KIND_WORDS = {"footnote": r"foot-?notes?|脚注", "endnote": r"end-?notes?|尾注",
               "bullet": r"bullet(?:ed|s)?|项目符号|圆点", "numbered": r"numbered|numbering|编号|序号"}
_KIND_APIS = {"insert_footnote": (("footnote", "endnote"), "footnote"),
              "delete_footnote": (("footnote", "endnote"), "footnote"),
              "insert_list": (("bullet", "numbered"), "bullet")}  # not set_list_format: "number the bullet list"
_COUNT_WORDS = {w: n for n, ws in enumerate(("", "one|single|一", "two|两|二|double", "three|三", "four|四", "five|五", "six|六"))
                for w in ws.split("|") if w}
#: a number of page columns ("two columns", "3-column", "two colums": a slip of the keys, "分两栏")
_COLUMN_COUNT = re.compile(r"(\d+|" + "|".join(_COUNT_WORDS) + r")\s*-?\s*(?:col(?:umn|um|mn)s?\b|栏)", re.IGNORECASE)


#: its default kind read as the API's (list_kind_made, apifix30): merged on the round33 guards (hand and templated dev,
#: dev-outside-second) and checked in review on dev-twenty-fourth and dev-twenty-sixth ceilings
@check("other_kind", certain=Certainty.FIXES, single_request=True,
       tuned_on=BUILT_ON + ("dwbench-2.0/hand/dev", "dwbench-2.0/hand/dev-twenty-fourth", "dwbench-2.0/hand/dev-twenty-sixth",
                            "dwbench-2.0/templated/dev", "dwbench-2.0/templated/dev-outside-second"))
def other_kind(api: str, args: dict[str, Any], request: str, before: State) -> list[CheckFinding]:
    """The request names one kind (footnote or endnote; bulleted or numbered list) and the call that makes or deletes
    one has the other ``kind`` (or the API's default: for insert_list, the kind of the list it continues,
    :func:`~autodw.agent.checks.reading.list_kind_made`); the fix is the kind asked for."""
    kinds, default = _KIND_APIS.get(api, ((), None))
    if not kinds:
        return []
    asked = [k for k in kinds if re.search(_KIND_WORDS[k], request, re.IGNORECASE)]
    made = list_kind_made(args, before) if api == "insert_list" else args.get("kind", default)
    if len(asked) != 1 or made not in kinds or made == asked[0]:
        return []
    return [CheckFinding("other_kind", f"the request asks for {asked[0]}, the call's kind is {made!r}", True,
                    {"kind": asked[0]})]


@check("unnamed_value", certain=Certainty.FIXES, word_lists=("value_words.json",),
       tuned_on=BUILT_ON + ("dwbench-2.0/hand/dev-eighteenth", "dwbench-2.0/hand/dev-fourth",
                            "dwbench-2.0/hand/dev-nineteenth", "dwbench-2.0/hand/dev-second", "dwbench-2.0/hand/dev-third",
                            "dwbench-2.0/templated/dev-outside", "dwbench-2.0/hand/dev-twenty-first",
                            "dwbench-2.0/hand/dev-twenty-second", "dwbench-2.0/hand/dev", "dwbench-2.0/templated/dev",
                            "dwbench-2.0/hand/dev-twenty-fifth", "dwbench-2.0/hand/dev-twenty-sixth",
                            "dwbench-2.0/hand/dev-twenty-ninth", "dwbench-2.0/hand/dev-twenty-seventh",
                            "dwbench-2.0/hand/dev-twenty-eighth", "dwbench-2.0/templated/dev-outside-third",
                            "dwbench-2.0/hand/dev-thirty-third", "dwbench-2.0/hand/dev-thirty-fourth",
                            "dwbench-2.0/hand/dev-thirty-eighth"))
def unnamed_values(api: str, args: dict[str, Any], request: str, before: State,
                   message: str = "", previous: str = "") -> list[CheckFinding]:
    """An enumerated value (an alignment, a chart type, a paper size, a section start...) the request names in no
    word while it names another value of that argument, or a value a request always names that neither it nor
    another request of the message names ("even_page"; "We print on A4 here, not Letter. Switch the paper size"
    then "make the margins 2 cm all round" for a call doing both), per ``value_words.json``; the fix is the one other
    value named. A value every paragraph the call changes has now, or the chart, or the rows (read from the state), is
    not one it names to take: "the title is just bold centred text; make it a proper heading" says what the title is. A request
    taking back the `previous` instruction's change asks for the value it had before (:func:`_restored`)."""
    data = word_list("value_words.json")
    out = []
    for key, value in keyed_strings(args):
        words = data["values"].get(f"{api}.{key}") or data["values"].get(key)
        if not words or value not in words or named(words[value], request) or named(catalogue_value(value), request):
            continue
        now = _value_now(api, key, args, before)
        if _restored(value, now, words, request, previous):
            continue
        others = [v for v, pattern in words.items() if v != value and v != now and named(pattern, request)
                  and not _target_noun(api, key, value, v, args, pattern, request)]
        if others or value in data["named"].get(key, ()) and \
                not (named(words[value], message) or named(catalogue_value(value), message)):
            said = f"; it names {', '.join(others)}" if others else ""
            fix = {key: others[0]} if len(others) == 1 and args.get(key) == value else None
            out.append(CheckFinding("unnamed_value", f"{key}={value}: the request does not ask for {value}{said}", True, fix))
    return out


#: a caption's target kind (its id's prefix) -> the label its noun names ("under the chart") and the label the API
#: gives it unasked (Word's own labels: a chart is a Figure)
_CAPTION_TARGETS = {"chart": ("Chart", "Figure"), "img": ("Figure", "Figure"), "t": ("Table", "Table")}


def _target_noun(api: str, key: str, value: str, other: str, args: dict[str, Any], pattern: str, request: str) -> bool:
    """Whether the caption label `other` is said only as the noun pointing at the call's target ("put a caption under
    the chart" names chart1, no Chart label) while the call's `value` is the label the API gives that target unasked:
    not when the request writes `other` as a label, before a number ("as Chart 1")."""
    kind = re.match(r"[a-z]+", str(args.get("target") or ""))
    noun, default = _CAPTION_TARGETS.get(kind.group(0) if kind else "", (None, None))
    return f"{api}.{key}" == "insert_caption.label" and other == noun and value == default and \
        not named(rf"(?:{pattern})\s*\d", request)


def _restored(value: str, now: Any, words: dict[str, str], request: str, previous: str) -> bool:
    """Whether `value` is what a request taking back the previous instruction's change (``reversal``: "change it
    back", "put it back how it was") asks for: a value other than the one there `now` that the `previous` instruction
    names (what it changed: "show the area chart as a column chart instead"), or any other value when that
    instruction names only the one there now, the value it set ("could we see it as a line chart?": what was there
    before, named by no request the check sees)."""
    if value == now or not previous or not re.search(word_list("value_words.json")["reversal"], request, re.IGNORECASE):
        return False
    return named(words[value], previous) or isinstance(now, str) and now in words and named(words[now], previous)


#: an enumerated argument of a chart API -> the chart's field of the state that holds its value now
_CHART_FIELDS = {"set_chart_legend.position": "legend", "change_chart_type.chart_type": "chart_type"}


def _value_now(api: str, key: str, args: dict[str, Any], before: State) -> Any:
    """The value `key` has now in what the call changes: the chart's (:data:`_CHART_FIELDS`: "under it instead of on
    the right" names where the legend is), the letter case of the text change_case changes (:func:`_case_now`), the
    rows' height rule (:func:`_row_rule_now`), or every paragraph's (:func:`_paragraph_value_now`); else None."""
    if f"{api}.{key}" == "change_case.case":
        return _case_now(args, before)
    if f"{api}.{key}" == "set_row_height.rule":
        return _row_rule_now(args, before)
    field = _CHART_FIELDS.get(f"{api}.{key}")
    if field is None:
        return _paragraph_value_now(key, args, before)
    chart = drawing(args.get("chart"), before)
    return None if chart is None else chart.get(field)


def _case_now(args: dict[str, Any], before: State) -> str | None:
    """The letter case ("upper", "lower") of all the text change_case changes (its paragraph, or its span's match
    there), when it has one: "the subheading starts with a lowercase letter. Capitalise it" says what is there; else
    None."""
    found = changed_stretches("change_case", {**args, "paragraphs": args.get("paragraph")}, before)
    text = "".join(runs_text(p)[a:b] for p, a, b in found or ())
    return "upper" if text.isupper() else "lower" if text.islower() else None


def _row_rule_now(args: dict[str, Any], before: State) -> str | None:
    """The height rule ("exact", "at_least", "auto": no height) of every row set_row_height changes, when they share
    one: "the rows are fixed at an exact height. Let all the rows grow to fit their text" says what is there
    (dwh-480#5); else None."""
    table = next((t for t in before.get("tables", []) if t.get("id") == args.get("table")), None)
    if table is None:
        return None
    heights, exact = table.get("row_heights_cm") or [], set(table.get("exact_height_rows") or ())
    row = args.get("row")
    rows = range(len(heights)) if row == "all" else [row] if isinstance(row, int) and 0 <= row < len(heights) else []
    rules = ("exact" if n in exact else "auto" if heights[n] is None else "at_least" for n in rows)
    return next(iter(one_value(rules)), None)


def _paragraph_value_now(key: str, args: dict[str, Any], before: State) -> Any:
    """The paragraph property `key` as it looks now (styles resolved) in every paragraph the call changes, when they
    all have one value; else None."""
    paragraphs = target_paragraphs(args, before)
    if not paragraphs:
        return None
    looks = Formatting(before["styles"])
    return next(iter(one_value(str(looks.paragraph(p).get(key)) for p in paragraphs)), None)


def _negated(pattern: str, instruction: str) -> bool:
    """Whether the request says not to (or to remove) the property `pattern` names, before it ("no longer bold",
    "取消加粗"), after it ("take the bold off", "加粗去掉") or around it ("take those page breaks out again",
    dwh-516#8), or asks to undo what was done ("the bold lines shout louder than the headings. Undo that")."""
    words = word_list("value_words.json")
    if re.search(words["reversal"], instruction, re.IGNORECASE):
        return True
    around = [m.span() for m in re.finditer(words.get("negation_around", "(?!)"), instruction, re.IGNORECASE)]
    for match in re.finditer(pattern, instruction, re.IGNORECASE):
        window = instruction[max(0, match.start() - (6 if CJK.match(match.group(0)) else 24)):match.start()]
        if re.search(words["negation"], window, re.IGNORECASE) or \
                re.search(words["negation_after"], instruction[match.end():], re.IGNORECASE) or \
                any(start <= match.start() and match.end() <= end for start, end in around):
            return True
    return False


#: a request that repeats what the session's previous instruction did elsewhere ("do the same there", "同样处理",
#: "也照这样弄一下"), or that opens a clause with "same for" its new targets ("same for the letter to teachers at the
#: very end", dwh-504#4; "and the same with the footer"; not "keep the size the same for all headings")
_REPEATS = re.compile(r"\b(?:do|does|did|doing)\s+(?:the\s+)?same\b|\bsame\s+(?:thing|changes?|treatment|formatting)\b"
                      r"|(?:^|[,.;:!?\-–—]|\b(?:and|also|now))\s*(?:the\s+)?same\s+"
                      r"(?:for|with|goes\s+for|applies\s+to)\b"
                      r"|\blikewise\b|同样|照此|照样|照着?[这那](?:样|么)|一样(?:处理|改|弄)|也这样|也这么", re.IGNORECASE)


#: a request adding targets to the previous instruction's change, "too" or "as well" ending its clause ("eleven and
#: twelve too actually", dwh-391#5; not "too small")
_ALSO = re.compile(r"\b(?:too|as\s+well)\b(?=\s*(?:$|[,.;:!?)]|(?:actually|please|then|though|now)\b))", re.IGNORECASE)


def _repeated(instruction: str, previous: str) -> str:
    """The previous instruction when `instruction` repeats its change (:data:`_REPEATS`) or adds targets to it
    (:data:`_ALSO`); else ""."""
    return previous if _REPEATS.search(instruction) or _ALSO.search(instruction) else ""


#: a request asking its target to look like the other text of its kind ("Format both lines like the other cases",
#: "like the rest"; not "I'd like the other one bold")
_LIKE_OTHERS = re.compile(r"(?<!\bd\s)(?<!\bwould\s)\blike\s+(?:all\s+)?the\s+(?:others?|rest)\b", re.IGNORECASE)


def _as_others_have(key: str, value: Any, args: dict[str, Any], said: str, before: State | None) -> bool:
    """Whether `said` (the request, or the whole message it is split from: the call may serve another of its
    requests) asks for the look of other text (:data:`_LIKE_OTHERS`, or a comparison naming a model:
    :func:`~autodw.agent.grounding.uncompared`) and a paragraph the call does not name has `key` at `value` now (read
    from the state, styles resolved: 16 pt and bold for "... instead of 123456789. Format both lines like the other
    cases" where the other cases' lines are 16 pt and their labels bold, dwh-442#4)."""
    if not before or not (_LIKE_OTHERS.search(said) or grounding.uncompared(said) != said):
        return False
    named_ids = {p.get("id") for p in target_paragraphs(args, before) or []}
    looks, wanted = Formatting(before["styles"]), _comparable(value)
    return any(_comparable(looks.run(r, p.get("style")).get(key)) == wanted
               for p in before.get("paragraphs", []) if p.get("id") not in named_ids
               for r in p.get("runs", []) if r.get("text", "").strip())


#: a request asking its target to sit where another paragraph sits: "lined up with it", "aligned with the one
#: above", "和上一段对齐" (not "align it to the right", "居中对齐": an alignment, no model)
_LINED_UP = re.compile(r"\b(?:lined?|lines|lining)\s+up\s+with\b|\baligned\s+with\b|\balign(?:s|ing)?\s+(?:it|them|this)\s+"
                       r"with\b|(?:跟|和|与|同)[^，。；！？,.;!?]{1,12}?对齐", re.IGNORECASE)
#: an indent argument -> its length in the state's effective paragraph indent
_INDENT_CM = {"left_indent": "left_cm", "right_indent": "right_cm", "first_line_indent": "first_line_cm"}
INDENT_TOLERANCE_CM = 0.01  # a length said in another unit than the state's (0.5in is 1.27cm)


def _lined_up(key: str, value: Any, args: dict[str, Any], said: str, before: State | None) -> bool:
    """Whether `said` asks the call's paragraphs to line up with another (:data:`_LINED_UP`) and a paragraph the call
    does not name has the indent `key` at `value` now (read from the state, styles resolved: "add it as its own
    paragraph right after the one about the start date, lined up with it" names the 1.27cm that paragraph is
    indented by, dwh-537#5)."""
    if key not in _INDENT_CM or not before or not _LINED_UP.search(said):
        return False
    try:
        wanted = emu(value) / EMU_PER["cm"]
    except ArgumentError:
        return False
    named_ids = {p.get("id") for p in target_paragraphs(args, before) or []}
    looks = Formatting(before["styles"])
    return any(abs((looks.paragraph(p).get("indent") or {}).get(_INDENT_CM[key], 0.0) - wanted) < INDENT_TOLERANCE_CM
               for p in before.get("paragraphs", []) if p.get("id") not in named_ids)


def _comparable(value: Any) -> Any:
    """A property's value to compare with another: a number as a float, a text in lower case."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    return value.strip().lower() if isinstance(value, str) else value


@check("unasked_flag", absence=True, certain=Certainty.FIXES, word_lists=("value_words.json",),
       tuned_on=BUILT_ON + ("dwbench-2.0/hand/dev", "dwbench-2.0/hand/dev-paraphrased", "dwbench-2.0/hand/dev-second",
                            "dwbench-2.0/hand/dev-third", "dwbench-2.0/hand/dev-fourth",
                            "dwbench-2.0/hand/dev-eighteenth", "dwbench-2.0/hand/dev-twenty-first",
                            "dwbench-2.0/hand/dev-twenty-second", "dwbench-2.0/hand/dev-twenty-fifth",
                            "dwbench-2.0/hand/dev-twenty-fourth", "dwbench-2.0/hand/dev-twenty-sixth",
                            "dwbench-2.0/hand/dev-twenty-seventh", "dwbench-2.0/hand/dev-thirty-first",
                            "dwbench-2.0/hand/dev-thirtieth", "dwbench-2.0/hand/dev-thirty-fourth",
                            "dwbench-2.0/hand/dev-thirty-fifth", "dwbench-2.0/hand/dev-thirty-sixth",
                            "dwbench-2.0/hand/dev-thirty-seventh", "dwbench-2.0/templated/dev",
                            "dwbench-2.0/templated/dev-outside-third"))
def unasked_flags(api: str, args: dict[str, Any], instruction: str, previous: str = "",
                  message: str = "", before: State | None = None) -> list[CheckFinding]:
    """A property switched on that the request never names (bold, a header row, a separator line...), nor, for a
    request that repeats the previous instruction's change ("do the same there": :data:`_REPEATS`), that one, nor,
    for a call formatting text the request dictates (:func:`_formats_dictated`), another request of the `message`
    ("Add a reference: Culmann, K., Die graphische Statik, ... Title in italics like the others please"), nor, for a
    request asking for the look of other text, one that text has on (:func:`_as_others_have`); the fix
    is to switch it off. A table given only its column names, its other rows left to fill in, has them as its header
    row unasked."""
    out = []
    repeated = _repeated(instruction, previous)
    written = message if message != instruction and _formats_dictated(args, instruction) else ""
    for key, pattern in word_list("value_words.json")["flags"].items():
        if args.get(key) is True and not _asked(api, key, pattern, instruction) and \
                not (repeated and _asked(api, key, pattern, repeated)) and \
                not (written and _asked(api, key, pattern, written) and not _negated(pattern, written)) and \
                not (key == "header_row" and _names_only(args)) and \
                not _as_others_have(key, True, args, message or instruction, before):
            out.append(CheckFinding("unasked_flag", f"{key}=true: the request does not ask for it", True, {key: False}))
    return out


@check("asked_flag_off", certain=Certainty.FIXES, word_lists=("value_words.json",),
       tuned_on=BUILT_ON + ("dwbench-2.0/hand/dev", "dwbench-2.0/hand/dev-paraphrased", "dwbench-2.0/hand/dev-second",
                            "dwbench-2.0/hand/dev-third", "dwbench-2.0/hand/dev-fourth", "dwbench-2.0/hand/dev-tenth",
                            "dwbench-2.0/hand/dev-eighteenth", "dwbench-2.0/hand/dev-twenty-fifth",
                            "dwbench-2.0/hand/dev-twenty-sixth", "dwbench-2.0/hand/dev-thirty-seventh",
                            "dwbench-2.0/templated/dev-outside-third"))
def asked_flags_off(api: str, args: dict[str, Any], request: str, before: State) -> list[CheckFinding]:
    """A property switched off when the call's own request asks for it and never for its removal, unless what the
    call changes has it on now everywhere (read from the state: a request naming bold for text all bold, or for a
    style that is bold, can only take it off, "doesn't need to be bold", "lose the italic", "加粗太重了，还是改成斜体吧"
    for the bold matches of a search); the fix is to switch it on. (Until unasked_flag read absence alone, it was that check's second finding.)"""
    out = []
    for key, pattern in word_list("value_words.json")["flags"].items():
        if args.get(key) is False and named(pattern, request) and not _negated(pattern, request) and \
                not _all_on(key, api, args, before):
            out.append(CheckFinding("asked_flag_off", f"{key}=false: the request asks for it", True, {key: True}))
    return out


def _formats_dictated(args: dict[str, Any], request: str) -> bool:
    """Whether a call's texts (what it finds or writes, :data:`~autodw.agent.checks.reading.ANCHOR_KEYS`) all lie in
    the text `request` dictates (:func:`~autodw.agent.grounding.dictated`): it formats text the request writes, whose
    look the message's next request may say ("... Die graphische Statik, 1866. Title in italics", dwh-367#7)."""
    spans = [grounding.loose(request[a:b]) for a, b in grounding.dictated(request)]
    texts = [loose_text(t) for key, t in keyed_strings(args) if ANCHOR_KEYS.match(key) and loose_text(t)]
    return bool(texts and spans) and all(any(t in span for span in spans) for t in texts)


def _asked(api: str, key: str, pattern: str, instruction: str) -> bool:
    """Whether `instruction` names the property `key` of `api`: by the words of the list (`pattern`) or by the words
    the API catalogue names the argument by (:func:`catalogue_words`: "a fresh page" names page_break_before)."""
    return named(pattern, instruction) or named(catalogue_words(api).get(key, "(?!)"), instruction)


def _all_on(key: str, api: str, args: dict[str, Any], before: State) -> bool:
    """Whether the character property `key` is on now, as it looks (styles resolved), in every run with text of the
    text the call changes, or in the style ``modify_style`` changes (:func:`values_now`), or the section property
    `key` in every section the call changes (a first page footer of its own: "第一页底下没有页码，首页也要显示")."""
    now = values_now(key, api, args, before)
    if now is None and "section" in args:
        now = {before["page_layout"]["sections"][i].get(key) for i in _chosen_sections(args, before)}
    return bool(now) and all(v is True for v in now)


def _hue(colour: str) -> str:
    """A colour's hue word: Word's highlight "darkYellow" and the said "dark yellow" are yellow; grey is gray."""
    return re.sub(r"^(?:dark|light|pale)\s*", "", colour.lower()).replace("grey", "gray")


def _removes(key: str, value: Any) -> bool:
    """Whether a property's value removes it: none, or 0 for an indent ("0cm")."""
    return str(value).lower() == "none" or key.endswith("_indent") and \
        re.fullmatch(r"0+(?:\.0+)?\s*(?:cm|mm|in|pt|ch)?", str(value).strip().lower()) is not None


def _named_as_it_is(key: str, args: dict[str, Any], instruction: str, before: State) -> bool:
    """Whether the request names a colour property the call removes by the colour the call's paragraphs have now
    (read from the state, not a list: a highlight yellow there is named by "the yellow is a bit much")."""
    targets = args.get("paragraphs")
    targets = {targets} if isinstance(targets, str) else set(targets) if isinstance(targets, list) else set()
    now = {_hue(str(r[key])) for p in before.get("paragraphs", []) if p.get("id") in targets
           for r in p.get("runs", []) if r.get(key)}
    return any(_hue(said.name) in now for said in colours_said(instruction))


def _names_only(args: dict[str, Any]) -> bool:
    """Whether a new table's data is one row (its columns' names) with more rows to fill in ("设备名称、数量、借用日期，
    下面留三行空的给人填")."""
    data, rows = args.get("data"), args.get("rows")
    return isinstance(data, list) and len(data) == 1 and type(rows) is int and rows > 1


@check("unnamed_count", certain=Certainty.FIXES, finding="unnamed_value",
       tuned_on=BUILT_ON + ("dwbench-2.0/hand/dev", "dwbench-2.0/hand/dev-nineteenth", "dwbench-2.0/hand/dev-thirteenth",
                            "dwbench-2.0/templated/dev"))
def unnamed_count(api: str, args: dict[str, Any], request: str, before: State) -> list[CheckFinding]:
    """A number of page columns the request names none of ("分两栏" -> 3; "single" names one); the fix is the one number
    it names. The number the call's sections have now (read from the state) is what the request says they are, not
    one to set ("wrap onto two lines in three columns. go back to two")."""
    count = args.get("count")
    if api != "set_columns" or type(count) is not int:
        return []
    said = {int(w) if w.isdigit() else _COUNT_WORDS[w.lower()] for w in _COLUMN_COUNT.findall(request)}
    counts = said - _columns_now(args, before)
    if not counts or count in said:
        return []
    fix = {"count": next(iter(said))} if len(said) == 1 else None
    return [CheckFinding("unnamed_value", f"count={count}: the request asks for {', '.join(map(str, sorted(counts)))} "
                                     f"columns", True, fix)]


def _columns_now(args: dict[str, Any], before: State) -> set[int]:
    """The number of page columns every section the call changes has now, when they all have one; else none."""
    sections = before["page_layout"]["sections"]
    return one_value(sections[i].get("columns", {}).get("count", 1) for i in _chosen_sections(args, before, "all"))


def _chosen_sections(args: dict[str, Any], before: State, default: Any = None) -> list[int]:
    """The indexes of the sections a call's ``section`` argument (`default` when it gives none) names: all of them,
    or one the state has; else none."""
    count, section = len(before["page_layout"]["sections"]), args.get("section", default)
    return list(range(count)) if section == "all" else [section] if type(section) is int and 0 <= section < count else []


@check("unasked_property", absence=True, certain=Certainty.REJECTS, word_lists=("value_words.json",),
       tuned_on=BUILT_ON + ("dwbench-2.0/hand/dev-second", "dwbench-2.0/hand/dev-third", "dwbench-2.0/hand/dev-fourth",
                            "dwbench-2.0/hand/dev-nineteenth", "dwbench-2.0/hand/dev-twentieth", "dwbench-2.0/hand/dev-twenty-first",
                            "dwbench-2.0/hand/dev-twenty-third", "dwbench-2.0/hand/dev-twenty-second",
                            "dwbench-2.0/hand/dev", "dwbench-2.0/templated/dev",
                            "dwbench-2.0/hand/dev-twenty-fifth", "dwbench-2.0/hand/dev-twenty-sixth",
                            "dwbench-2.0/hand/dev-twenty-seventh", "dwbench-2.0/hand/dev-thirty-first",
                            "dwbench-2.0/hand/dev-thirtieth", "dwbench-2.0/hand/dev-thirty-sixth",
                            "dwbench-2.0/templated/dev-outside-third", "dwbench-2.0/hand/dev-thirty-ninth"))
def unasked_properties(api: str, args: dict[str, Any], instruction: str, before: State,
                       previous: str = "", message: str = "") -> list[CheckFinding]:
    """A formatting property (a font, a size, a spacing, an indent, a highlight, a colour, an underline) the request
    names neither in words (the list's, or a word of the argument's catalogue name: :func:`_asked`) nor by its value
    ("font": "Arial" when no font is asked for; a line spacing for a highlight), nor, for a request that repeats the
    previous instruction's change ("也照这样弄一下": :data:`_REPEATS`), that one, nor, for a call that also does what
    another request of a split `message` asks, that request naming it with its value ("字体换成Comic Sans MS吧，字号也调大
    到16" for one call setting both: :func:`_said_elsewhere`). A property removed is also named by
    what it is now: by the colour the call's paragraphs have now (the state's runs: "the yellow is a bit much" for a
    yellow highlight), or by the words of ``removed`` (a highlight by its colour; an indent set to 0 by where it puts
    the paragraph: "sits off to the left", dwh-347#1), or by a request undoing the `previous` instruction that names it
    (:func:`_taken_back`: "undo that" after "highlight ... in yellow", dwh-500#8); a colour property changed is named
    by the colour it has now too ("黄色打印出来看不太清，还是换成绿色吧" of a yellow highlight made green, dwh-543#5). A
    request asking for the look of other text names the values that text has (:func:`_as_others_have`), one asking
    its target to line up with another paragraph the indents it has (:func:`_lined_up`)."""
    out, loose_instruction = [], grounding.loose(instruction)
    removed, repeated = word_list("value_words.json")["removed"], _repeated(instruction, previous)
    for key, pattern in word_list("value_words.json")["properties"].items():
        value = args.get(key)
        if value is None or isinstance(value, bool) or _asked(api, key, pattern, instruction) or \
                (repeated and _asked(api, key, pattern, repeated)):
            continue
        if _removes(key, value) and (named(removed.get(key, "(?!)"), instruction) or
                                             _taken_back(api, key, pattern, instruction, previous)):
            continue
        if _named_as_it_is(key, args, instruction, before):  # removed or changed: "黄色...还是换成绿色吧" (dwh-543#5)
            continue
        if grounding.loose(str(value)) in loose_instruction or _said_elsewhere(api, key, pattern, value, message, instruction) \
                or _as_others_have(key, value, args, message or instruction, before) \
                or _lined_up(key, value, args, message or instruction, before):
            continue
        out.append(CheckFinding("unasked_property", f"{key}={value!r}: the request names no {key.replace('_', ' ')}",
                           True))
    return out


def _taken_back(api: str, key: str, pattern: str, instruction: str, previous: str) -> bool:
    """Whether `instruction` takes back the `previous` instruction's change (``reversal``: "no wait, undo that") and
    that instruction names the property `key` (:func:`_asked`): undoing "highlight the last sentence in yellow" asks
    to remove the highlight (dwh-500#8)."""
    reverses = re.search(word_list("value_words.json")["reversal"], instruction, re.IGNORECASE) is not None
    return bool(previous) and reverses and _asked(api, key, pattern, previous)


def _said_elsewhere(api: str, key: str, pattern: str, value: Any, message: str, request: str) -> bool:
    """Whether another request of the split `message` than `request` names the property `key` (:func:`_asked`) and
    says its `value` ("Bring it down to 14" of a size, when the call serves "make it bold" too)."""
    return message.strip() != request.strip() and any(
        part.strip() != request.strip() and _asked(api, key, pattern, part) and
        grounding.loose(str(value)) in grounding.loose(part) for part in requests.split(message))


@check("unasked_option", absence=True, certain=Certainty.FIXES, word_lists=("value_words.json",),
       tuned_on=BUILT_ON + ("dwbench-2.0/hand/dev", "dwbench-2.0/hand/dev-twenty-fifth", "dwbench-2.0/hand/dev-twenty-sixth",
                            "dwbench-2.0/templated/dev-outside-third", "dwbench-2.0/hand/dev-thirty-fourth",
                            "dwbench-2.0/hand/dev-thirty-fifth", "dwbench-2.0/hand/dev-thirty-sixth"))
def unasked_options(api: str, args: dict[str, Any], instruction: str, before: State,
                    previous: str = "") -> list[CheckFinding]:
    """An optional argument the request never names that changes what is there (``options`` of ``value_words.json``):
    a header's alignment other than the one it has (a right-aligned header reset to left), a note's mark anywhere
    but at the paragraph's end, where the API puts it, a resized picture's or chart's height beside its width that
    changes its aspect ratio ("放大点": 6x3.6 -> 12x18 cm); the fix is to leave it out. An option the `previous`
    instruction gave the text the call writes again is named (:func:`_carried_over`)."""
    out = []
    for key, value in args.items():
        words = word_list("value_words.json")["options"].get(f"{api}.{key}")
        if words is None or named(words.get(str(value), words["any"]), instruction):
            continue
        if _carried_over(api, args, previous) and named(words.get(str(value), words["any"]), previous):
            continue
        if key not in _LEFT_OUT:
            raise InternalError(f"value_words.json names the option {api}.{key}, which unasked_option cannot read")
        kept = _LEFT_OUT[key](args, before)
        if kept is not None and value != kept:
            out.append(CheckFinding("unasked_option", f"{key}={value!r} is not asked for (without it: {kept!r}); "
                                    f"leave {key} out", True, {key: None}))
    return out


MIN_CARRIED_CHARS = 4  # characters of a text the call writes again that ties it to the previous instruction
_TEXT_ARGUMENT = re.compile(r"(?:^|_)text$")  # how the API schemas name a free-text argument


def _carried_over(api: str, args: dict[str, Any], previous: str) -> bool:
    """Whether the call writes again a text (a free-text argument: :func:`_text_arguments`) that the `previous`
    instruction wrote: a follow-up moving what it made ("Put "X" in the header, right aligned", then "I'd rather have
    that in the footer. move it down there", dwh-492#7) takes it with the options that instruction gave it; an enum
    value or id the previous instruction says (where="footer") is no text written again."""
    said = grounding.loose(previous)
    texts = _text_arguments(api)
    return bool(said) and any(isinstance(v, str) and len(v.strip()) >= MIN_CARRIED_CHARS and grounding.loose(v) in said
                              for k, v in args.items() if k in texts)


@functools.cache
def _text_arguments(api: str) -> frozenset[str]:
    """The free-text arguments of `api`, as its schema names them: strings of no enum nor pattern named text or
    *_text ("text", "new_text", "alt_text"); none for an API the catalogue lacks."""
    from autodw.apis import registry

    if api not in registry():
        return frozenset()
    return frozenset(key for key, spec in registry().get(api).parameters["properties"].items()
                     if spec.get("type") == "string" and "enum" not in spec and "pattern" not in spec
                     and _TEXT_ARGUMENT.search(key))


def _paragraph_end(args: dict[str, Any], before: State) -> int | None:
    """Where a note's mark goes when the call gives no offset: the end of the paragraph's text."""
    text = next((p["text"] for p in before["paragraphs"] if p["id"] == args.get("paragraph")), None)
    return None if text is None else len(text)


def _story_alignment(args: dict[str, Any], before: State) -> str | None:
    """The alignment a rewritten header or footer keeps when the call gives none: its first aligned paragraph's (left
    when none is), the same in every story the call rewrites; None when they differ or the section is unknown."""
    chosen = _chosen_sections(args, before)
    shown = f"{args.get('where')}:{args.get('kind', 'default')}"
    stories = {i: story for i, name, story in header_footer_stories(before) if name == shown}
    kept = {next((a for a in stories.get(i, {}).get("alignments", ()) if a), "left") for i in chosen}
    return kept.pop() if len(kept) == 1 else None


#: an option's argument -> what the API gives it when the call leaves it out
ASPECT_TOLERANCE = 0.05  # a height this close to the one that keeps the aspect ratio keeps it


def _aspect_height(args: dict[str, Any], before: State) -> str | None:
    """The height a resized picture or chart gets when the call gives a width and no height: the one that keeps its
    aspect ratio (the call's own height when within :data:`ASPECT_TOLERANCE` of it); None without a width, or for an
    element or a length it cannot read."""
    found = drawing(args.get("image") or args.get("chart"), before)
    if found is None or not found.get("width_cm") or not found.get("height_cm") or args.get("width") is None:
        return None
    try:
        width, height = emu(str(args["width"])) / EMU_PER["cm"], emu(str(args["height"])) / EMU_PER["cm"]
    except ArgumentError:
        return None
    kept = found["height_cm"] * width / found["width_cm"]
    return args["height"] if abs(height - kept) <= ASPECT_TOLERANCE * kept else f"{kept:.2f}cm"


_LEFT_OUT = {"offset": _paragraph_end, "alignment": _story_alignment, "height": _aspect_height}


#: "everywhere" and its like as asking for every place: "everywhere else" alone says how the rest of the document is
#: ("the report calls it UDRP everywhere else", "like everywhere else", dwh-474#4); joined to the place it edits or
#: with "too", it asks for the rest ("here and everywhere else", "everywhere else too")
_EVERYWHERE_WORDS = (r"\b(?:everywhere|throughout|globally|wherever)\b(?!\s+else\b)|"
                     r"\b(?:and|or|also)\s+everywhere\s+else\b|\beverywhere\s+else\s+(?:too|as\s+well|also)\b")
#: a request to change every occurrence ("everywhere", "every "meeting"", "in all the headings", "全部换掉", "都改成",
#: "全文的")
_EVERY = re.compile(_EVERYWHERE_WORDS + r"|\b(?:every|each|all|both)\b|全部|所有|一律|统统|全文|通篇|都(?:要)?(?:改|换|替换)",
                    re.IGNORECASE)
#: a request to change them everywhere, not only in some paragraphs ("throughout the document", "全文的", "文中和...")
_EVERYWHERE = re.compile(_EVERYWHERE_WORDS + r"|\b(?:whole|entire)\s+(?:document|text|file)|"
                         r"全文|通篇|整篇|(?<!正)文中(?:所有|和)", re.IGNORECASE)
#: a request that limits the occurrences ("only the first", "just once", "第一处", "前两个", "两处" but not "两处都")
_SOME = re.compile(r"\bfirst\s+(?:[\"“'‘]|occurrence|instance|one|time|mention|match|\d)|"
                   r"\bonly\s+(?:the\s+)?(?:first|once|one)\b|\bonce\b|"
                   r"\b(?:\d+|two|three|four|five)\s+(?:times|occurrences|instances|places)\b|"
                   r"[第前][一二两三四五六七八九十\d]+[处个次]|[一二两三四五六七八九十\d]+处(?!都)", re.IGNORECASE)


@check("one_occurrence", certain=Certainty.FIXES, single_request=True,
       tuned_on=("dwbench-2.0/hand/dev", "dwbench-2.0/hand/dev-thirty-fourth", "dwbench-2.0/templated/dev"))
def one_occurrence(api: str, args: dict[str, Any], request: str, before: State) -> list[CheckFinding]:
    """replace_text that reaches fewer occurrences than the document has, for a request to change them all that limits
    them nowhere ("the first", "两处" but not "两处都"): limited by ``count`` when the request says every occurrence
    ("every "meeting"", "all", "全部换掉", "都改成"), or to some ``paragraphs`` when it says everywhere ("throughout
    the document", "全文"); the fix leaves those arguments out."""
    count, only = args.get("count"), args.get("paragraphs")
    limiting = (("count", type(count) is int, _EVERY), ("paragraphs", bool(only), _EVERYWHERE))
    limits = [k for k, limited, words in limiting if limited and words.search(request)]
    if api != "replace_text" or not limits or _SOME.search(request):
        return []
    total = occurrences(before, {k: v for k, v in args.items() if k not in limits})
    reached = occurrences(before, args)
    if total is not None and reached is not None and total <= min(reached, count if "count" in limits else reached):
        return []
    said = ", ".join(f"{k}={args[k]}" for k in limits)
    return [CheckFinding("one_occurrence", f"{said}: the request asks to replace every occurrence"
                                           f"{f' (the document has {total})' if total is not None else ''}", True,
                         dict.fromkeys(limits))]
