"""Rule checks of the texts a call writes against the texts the user quoted or said."""

from __future__ import annotations

import os
import re
from difflib import SequenceMatcher
from typing import Any

from autodw.agent import grounding
from autodw.agent.checks.reading import CJK, MIN_TEXT_CHARS, keyed_strings, loose_text
from autodw.agent.checks.registry import BUILT_ON, Certainty, CheckFinding, State, check
from autodw.analysis.state import header_footer_stories
from autodw.core.ids import ID_IN_TEXT

QUOTE_SIMILARITY = 0.75  # a written text this similar to a quote (but not equal) is an altered quote
OWN_SENTENCE_RATIO = 3  # a sentence this many times as long as a quote it opens with is a text of its own
_SENTENCE_END = re.compile(r"[.!?。！？]\W*$")  # a text that ends a sentence (closing quotes and brackets aside)
#: arguments whose whole text the call writes (not texts it searches for, nor table cells and list items, which a
#: quoted caption or heading may begin with)
_WRITTEN = re.compile(r"^(?:text|title|replace|caption|bookmark|name)$")
#: arguments holding a text the call looks for (to replace, format or comment on), not one it writes
_SEARCHED = re.compile(r"^(?:find|match)$")
#: arguments naming the paragraphs a call changes
_NAMED = re.compile(r"^paragraphs?$")
#: a caption's label and number ("Table 1: ", "图 2 "), which the caption API writes itself
_CAPTION_LABEL = re.compile(rf"^(?:{grounding.caption_labels()})\s*\d+\s*[:：.\-–—]?\s*", re.IGNORECASE)
#: what joins quotes written as one text: line breaks, tabs, a bar or a bullet between spaces
_JOINER = re.compile(r"[\r\n\t\v\f\u2028\u2029]+|\s+[|·•]\s+")
#: a field of a header or footer template ("{PAGE}"), in a loose text
_FIELD = re.compile(r"\\\{[a-z]+\\\}")


#: an item number typed at a paragraph's start ("9. ", "9．", "(3) ", "2) ", "三、"), in a loose text
_ITEM_NUMBER = re.compile(r"^(?:[(（]\d+[)）]|\d+[.)、．）]|[一二三四五六七八九十]+、)\s*")


def _unnumbered(text: str, before: State) -> str:
    """`text` (loose) without the item number it starts with when the document's paragraphs start with numbers of
    that form too ("9. X" where the list has "8. Y"): the number a list written by hand has, not words added to a quote."""
    number = _ITEM_NUMBER.match(text)
    if number is None:
        return text
    form = re.compile(re.sub(r"\d+", r"\\d+", re.escape(number.group(0).strip())))
    if any(form.match(grounding.loose(p.get("text", ""))) for p, _ in grounding.paragraphs(before)):
        return text[number.end():]
    return text


@check("altered_quote", certain=Certainty.FIXES,
       tuned_on=BUILT_ON + ("dwbench-2.0/hand/dev", "dwbench-2.0/hand/dev-paraphrased", "dwbench-2.0/hand/dev-second",
                            "dwbench-2.0/hand/dev-fifth", "dwbench-2.0/hand/dev-sixth", "dwbench-2.0/hand/dev-seventh",
                            "dwbench-2.0/hand/dev-tenth", "dwbench-2.0/hand/dev-eleventh",
                            "dwbench-2.0/hand/dev-seventeenth", "dwbench-2.0/hand/dev-twenty-third",
                            "dwbench-2.0/hand/dev-twenty-second", "dwbench-2.0/hand/dev-twenty-fourth",
                            "dwbench-2.0/hand/dev-twenty-fifth", "dwbench-2.0/hand/dev-twenty-ninth",
                            "dwbench-2.0/hand/dev-twenty-seventh", "dwbench-2.0/hand/dev-twenty-eighth",
                            "dwbench-2.0/templated/dev"))
def altered_quotes(api: str, args: dict[str, Any], instruction: str, before: State, after: State) -> list[CheckFinding]:
    """A text the call has is close to, but not, a text the user quoted (a colon appended, a letter changed), or a
    text it writes is a quote with whole words added at an end ("sec7" -> "sec7 draft") or with its last words dropped
    ("Key figures" -> "Key") when the shorter text is nowhere else in the request, with case, spacing and punctuation
    width ignored.

    Not altered: a text the user typed unquoted ("change “2006年1月1日以后” to 2007年1月1日"); a text the call looks for
    that is part of a quote (the quote gives its context); a text written in place of a quote the call looks for (the
    quote is the old text: "a few entries say "docx  (one section)with"; fix the spacing"); a text the call looks for
    written again with only its spacing (a space doubled, dropped or added), case or punctuation width changed, which
    holds a quote among the document's words ("English  text" -> "English text" for "a double space before 'text'",
    "(one section)with" -> "(one section) with" for 'a space missing after "(one section)"'); a template whose fields are
    the numbers of a quote ("Page {PAGE} of {NUMPAGES}" for "like 'Page 3 of 31'"); a caption without the label and
    number of a quote ("Table 1: ..."), which the caption API writes; a quote with the item number the document's
    paragraphs start with ("9．X；" for "add “X” before item 9, numbered like the others"); quotes written as the
    lines of one text ("Name\\nAddress" for 'put "Name" ..., with "Address" on the line below'); a text of the document
    with one part of it replaced by a quote, the rest kept ("服务合同 - 远航机器人" -> "办公场所保洁服务合同 - 远航机器人" for
    "改成“办公场所保洁服务合同”，页眉里的合同名也跟着改": the name is part of the header) or with a quote put into it
    ("项目指导委员会会议纪要" for a header "指导委员会会议纪要" that "少了“项目”两个字"); a text the call looks for that holds
    a quote with the document's words around it ("9．其他相关证书" for "“其他相关证书”前面再加一条 ... 后面的序号顺延"); the
    quoted change written without the words both quotes share ("each of have" -> "each of which has" for "'each of
    have a relationship' ... should be 'each of which has a relationship'"). Table cells and list items are not
    checked for dropped words: on DWBench dev gold they often begin another quote ("Task" and the caption "Task
    status"). Not altered either: a part of a quote written where the document's words around it make the whole quote,
    which no text had before (:func:`_completed`: "there need to be" -> "there needs to be" for 'it should be "there
    needs to be formal management training"'); a text the call looks for where it writes a quote (the quote is the new
    text: "опубликования( обнародовании)" -> "опубликования (обнародования)"); a text the call looks for changed only
    inside a quote (:func:`_changed_within`: "membros da CNIG" -> "membros do CNIG" for "make it 'do CNIG'"); a part of
    a quote, or a paragraph holding it, the document loses a copy of, rewritten (:func:`_fixes_part`: the quote is
    the old text). The fix is the quoted text, for a top-level text argument."""
    quoted = [q.text for q in grounding.quotes(instruction) if not q.opening]
    keys = {loose_text(q) for q in quoted}
    searched = {loose_text(text) for arg, text in keyed_strings(args) if _SEARCHED.match(arg)}
    #: the texts the call looks for, spaces (added, dropped or doubled), case and punctuation width ignored (their end
    #: punctuation kept)
    respaced = {grounding.unspaced(text) for arg, text in keyed_strings(args) if _SEARCHED.match(arg)}
    written = {loose_text(text) for arg, text in keyed_strings(args) if _WRITTEN.match(arg)}
    unquoted = grounding.loose(instruction)
    for quote in quoted:
        unquoted = unquoted.replace(grounding.loose(quote), " ")
    out = []
    loose_instruction = grounding.loose(instruction)
    existing: list[str] | None = None  # the document's texts, read once, when a written text is not a quote
    for arg, text in keyed_strings(args):
        key = loose_text(text)
        if key in keys or (_WRITTEN.match(arg) and _unnumbered(key, before) in keys) or ID_IN_TEXT.fullmatch(text) or \
                (len(key) >= MIN_TEXT_CHARS and key in unquoted):
            continue
        if _joined_quotes(text, keys):
            continue  # the quotes written as lines of one text ("Name" with "Address" on the line below)
        if _WRITTEN.match(arg) and grounding.unspaced(text) in respaced:
            continue  # the document's words written again, their spacing, case or width fixed: no quote's
        if _WRITTEN.match(arg):
            existing = _texts(before) if existing is None else existing
            if any(_replaces_part(key, loose_text(q), existing) for q in quoted):
                continue
        if _SEARCHED.match(arg) and any(key in loose_text(q) for q in quoted):
            continue
        if _WRITTEN.match(arg) and _same_change(key, searched, keys):
            continue  # the quoted change without the words both quotes share ("X b" -> "Y b" written as X -> Y)
        if _SEARCHED.match(arg) and any(loose_text(q) in key for q in quoted):
            existing = _texts(before) if existing is None else existing
            if any(key in t for t in existing):
                continue  # the quote with the document's words around it ("9．X" for "X" in an item "9．X；")
        for quote in quoted:
            q = loose_text(quote)
            if api == "insert_caption":
                q = _CAPTION_LABEL.sub("", q)
            if key == q or (q in searched and not _SEARCHED.match(arg)) or (q in written and _SEARCHED.match(arg)) or \
                    _fills(key, q):
                continue  # the quote is the old text the call replaces, or the new text it writes in place of `key`
            if _WRITTEN.match(arg) and (_changed_within(key, q, searched) or _fixes_part(q, searched, before, after, args)):
                continue
            similar = len(key) >= MIN_TEXT_CHARS and len(q) >= MIN_TEXT_CHARS and \
                SequenceMatcher(None, key, q).ratio() >= QUOTE_SIMILARITY
            cut = _WRITTEN.match(arg) and q.startswith(key) and _extends(q, key) and \
                not _outside(key, q, loose_instruction)
            added = _WRITTEN.match(arg) and _extends(key, q) and not _own_sentence(text, quote)
            if (similar or cut or added) and not (key in q and _completed(q, before, after)):
                fix = {arg: quote} if args.get(arg) == text else None  # a top-level text argument
                out.append(CheckFinding("altered_quote", f'the call writes "{text}" where the user quoted "{quote}"', True, fix))
                break
    return out


def _joined_quotes(text: str, keys: set[str]) -> bool:
    """Whether `text` is two or more of the quotes (loose `keys`) joined by line breaks or separators, nothing else."""
    parts = [loose_text(part) for part in _JOINER.split(text) if part.strip()]
    return len(parts) >= 2 and all(part in keys for part in parts)


def _texts(state: State) -> list[str]:
    """The loose texts of the document's paragraphs, table cells' paragraphs, headers and footers, a text as often
    as the document has it."""
    texts = [loose_text(p.get("text", "")) for p, _ in grounding.paragraphs(state)]
    return texts + [loose_text(story.get("text", "")) for *_, story in header_footer_stories(state)]


def _completed(quote: str, before: State, after: State) -> bool:
    """Whether the document after the call holds `quote` (loose) in a text of its own and none held it before: the
    call wrote the part of the quote the document lacked."""
    return any(quote in t for t in _texts(after)) and not any(quote in t for t in _texts(before))


def _replaces_part(written: str, quote: str, texts: list[str]) -> bool:
    """Whether `written` is one of `texts` with one part of it (not all of it) replaced by `quote`, or with `quote`
    put into it ("项目" missing from a header "指导委员会会议纪要"), the rest of it kept around the quote: the call
    keeps what the document has beside the quoted text, it adds no words."""
    at = written.find(quote) if quote else -1
    if at < 0:
        return False
    head, tail = written[:at], written[at + len(quote):]
    if not (head + tail).strip():
        return False
    kept = " ".join((head + tail).split())  # the text without the quote put into it
    return any(t != written and (t == kept or (len(t) > len(head) + len(tail) and t.startswith(head) and
                                               t.endswith(tail))) for t in texts)


def _same_change(written: str, searched: set[str], quotes: set[str]) -> bool:
    """Whether a text the call looks for, part of one quote, written as `written` makes that quote another quote
    (all loose): the call makes the quoted change and leaves out the words both quotes share ("each of have" ->
    "each of which has" for "'each of have a relationship' ... should be 'each of which has a relationship'")."""
    return any(found and found != old and found in old and old.replace(found, written) == new
               for found in searched for old in quotes for new in quotes if new != old)


def _changed_within(written: str, quote: str, searched: set[str]) -> bool:
    """Whether `written` is a text the call looks for changed only inside `quote`, whose first and last characters
    are that text's own (all loose): the quote is a part of the new text ("membros da cnig" -> "membros do cnig" for
    "make it 'do CNIG'"), the words around it kept."""
    at = written.find(quote) if quote else -1
    for found in searched if at >= 0 else ():
        head = len(os.path.commonprefix([found, written]))
        tail = len(os.path.commonprefix([found[head:][::-1], written[head:][::-1]]))
        if found != written and at < head and len(written) - tail < at + len(quote):
            return True
    return False


def _fixes_part(quote: str, searched: set[str], before: State, after: State, args: dict[str, Any]) -> bool:
    """Whether a text the call looks for is a part of `quote` (loose), or a paragraph it names (`args`) holds the
    quote, and the call leaves the document with fewer copies of the quote than it had: the quote is the old text,
    a part of which the call rewrites ("на право заключение договора аренды" quoted, "заключение" fixed with the
    words around it; "ascii" for a heading that "says 'asci and hansi'", its whole text set)."""
    if not any(found and found in quote for found in searched):
        ids = {text for arg, text in keyed_strings(args) if _NAMED.match(arg)}
        if not ids or not any(quote in loose_text(p.get("text", "")) for p, _ in grounding.paragraphs(before)
                              if p.get("id") in ids):
            return False
    return sum(t.count(quote) for t in _texts(after)) < sum(t.count(quote) for t in _texts(before))


def _fills(template: str, quote: str) -> bool:
    """Whether `quote` is `template` with numbers in place of its fields ("page {page} of {numpages}")."""
    pattern = re.escape(template)
    return _FIELD.search(pattern) is not None and re.fullmatch(_FIELD.sub(r"\\d+", pattern), quote) is not None


def _extends(longer: str, shorter: str) -> bool:
    """Whether `longer` is `shorter` with whole words (or CJK characters after CJK) added at its end or start."""
    if not shorter or len(longer) <= len(shorter):
        return False
    if longer.startswith(shorter):
        return longer[len(shorter)] == " " or bool(CJK.match(longer[len(shorter)]) and CJK.match(shorter[-1]))
    if longer.endswith(shorter):
        return longer[-len(shorter) - 1] == " "
    return False


def _own_sentence(written: str, quote: str) -> bool:
    """Whether `written` is a sentence of its own that opens or ends with `quote`, not the quote with words added: it
    ends a sentence, the quote does not, and it is :data:`OWN_SENTENCE_RATIO` times as long or longer ("安装前请确认服务器
    满足…。" after the chapter title "安装" the request quotes, for "then a sentence on what to prepare before installing")."""
    return _SENTENCE_END.search(written) is not None and _SENTENCE_END.search(quote) is None and \
        len(loose_text(written)) >= OWN_SENTENCE_RATIO * len(loose_text(quote))


def _outside(part: str, quote: str, instruction: str) -> bool:
    """Whether `part` of `quote` occurs in `instruction` (all three loose) other than inside the quote."""
    return instruction.count(part) > instruction.count(quote) * quote.count(part)


@check("unasked_separator", absence=True, certain=Certainty.REJECTS, tuned_on=BUILT_ON)
def unasked_separator(api: str, args: dict[str, Any], instruction: str) -> list[CheckFinding]:
    """Merged paragraphs joined by a separator with words the request does not have."""
    separator = args.get("separator")
    if api != "merge_paragraphs" or not isinstance(separator, str):
        return []
    words = re.findall(r"\w+", separator)
    missing = [w for w in words if w.casefold() not in instruction.casefold()]
    if not missing:
        return []
    return [CheckFinding("unasked_separator", f"separator {separator!r}: the request does not say {' '.join(missing)!r}", True)]


#: markup a small model writes into a document's text for formatting it cannot express: HTML-like tags ("<sup>2</sup>",
#: '<span style="...">'), Markdown emphasis ("**Total**", "__x__"), caret or underscore exponents ("m^2", "x^{2}",
#: "H_2"); not a run of underscores left to write on ("签订日期：______年____月____日")
_MARKUP = re.compile(r"</?(?:sup|sub|b|i|u|s|em|strong|span|font|mark|small|big|del|ins|br|p)\b[^<>]*>|"
                     r"(?<![*\w])\*\*(?=[^\s*])[^*\n]+?(?<=[^\s*])\*\*(?![*\w])|"
                     r"(?<![_\w])__(?=[^\s_])[^_\n]+?(?<=[^\s_])__(?![_\w])|"
                     r"\w\^\{?[\w.+-]+\}?|\b[A-Za-z]{1,2}_\{?\d+\}?", re.IGNORECASE)
#: arguments that do not write document text (an address, an image file, a style's name)
_NOT_WRITTEN = re.compile(r"^(?:find|match|url|address|image|path|file|style|based_on|next_style)$")


def _marker(markup: str) -> str:
    """What marks `markup` as markup: a tag's opening ("<sup"), "**", "__", "^", or the subscript itself ("H_2")."""
    if markup.startswith("<"):
        return re.match(r"</?\w+", markup).group(0).replace("/", "")
    if markup[:2] in ("**", "__"):
        return markup[:2]
    return "^" if "^" in markup else markup


@check("literal_markup", certain=Certainty.REJECTS,
       tuned_on=("dwbench-2.0/hand/dev", "dwbench-2.0/hand/dev-fifteenth", "dwbench-2.0/templated/dev"))
def literal_markup(api: str, args: dict[str, Any], instruction: str, before: State) -> list[CheckFinding]:
    """A text the call writes holds markup that neither the request nor the document has: an HTML-like tag
    ("m<sup>2</sup>"), Markdown emphasis ("**Total**") or a caret or underscore exponent ("m^2" for "m2 with the 2
    superscript"); a document shows it as typed, and the formatting it stands for is set with the formatting APIs.
    A style's name is no text it writes (the name of a style API's style, "_ H_2/3_GA"; a style, based_on style)."""
    said = instruction.casefold()
    document: str | None = None  # read once, when a call has markup
    for arg, text in keyed_strings(args):
        if _NOT_WRITTEN.match(arg) or arg == "name" and api.endswith("_style"):
            continue
        for match in _MARKUP.finditer(text):
            if document is None:
                document = "\n".join(p.get("text", "") for p, _ in grounding.paragraphs(before)).casefold()
            if _marker(match.group(0)).casefold() not in said and match.group(0).casefold() not in document:
                return [CheckFinding("literal_markup", f'the call writes "{match.group(0)}" into the text, markup the '
                                                       "request does not have: the document shows it as typed; "
                                                       "superscript, bold and the like are formatting", True)]
    return []
