"""Grounding: the texts an instruction quotes, resolved to the document elements they name.

People name elements by what they say: "the "Next Meeting" heading", "the paragraph that starts with
"Testing found twelve defects..."", "“联系方式”这一节". Small models then pick the wrong id. Before the planner and
the API generator run, every quoted text is looked up in the state (exact text, then opening, then containment,
with case, spacing and the width of punctuation ignored) and the matches are shown first, with their ids (not for a
quote that only begins or is part of more paragraphs than are shown: a text to search for, not a name); a
heading's match also gives the paragraphs under it (its section, up to the next heading of its level or higher). A
quote that matches nothing is new text, and is left alone; a Latin run in a Chinese request ("thru", "fo:page-sequence")
is looked up the same way. Elements named without quotes are found too (:func:`named`): headings and row labels by
their words, the n-th table, a table's header row ("表头", "the top row of the rates table"), the only chart or picture
("the company logo", with the paragraph holding it); and paragraphs described by what they say (:func:`described`:
"the paragraph about parking", "the picnic sentence", "野餐那句话"), by shared words and multilingual-e5 similarity.
A table of contents entry is never taken for the heading of its text. A request that grounds nothing and only refers
back ("make it bigger") is grounded by the session's previous instruction, shown apart. Text a request dictates
(:func:`dictated`: quoted, or after "It should say:", "change it to", "改成") is content: no label, heading or
description is read from it (a quoted text is looked up whole, as a name).

The same quotes are the user's characters (:func:`keep_user_characters`): text the user quoted reaches the document
as typed, CJK punctuation included, even when the model rewrote "。" as "." on the way.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from dataclasses import dataclass, replace
from difflib import get_close_matches
from itertools import islice
from typing import Any, Iterator

from autodw.agent.distinctive import FUNCTION_CHARACTERS
from autodw.analysis.state import State
from autodw.analysis.state.render import CONTENTS_STYLE, custom_headings, heading_level, shortened, shows_something
from autodw.apis.catalogue.content_creation import CAPTION_LABEL_SPELLINGS, CAPTION_LABELS, TABLE_CAPTION_LABELS


OPENING_MARKS, CLOSING_MARKS = "\"'“‘「『", "\"'”’」』"  # the marks a quote opens and closes with
OPENING, CLOSING = f"[{OPENING_MARKS}]", f"[{CLOSING_MARKS}]"  # the same as regex classes
#: Opening -> closing quotation marks. Straight single quotes count only around words (not "project's").
_QUOTE = re.compile(r'"([^"\n]{1,300})"|“([^”\n]{1,300})”|「([^」\n]{1,300})」|『([^』\n]{1,300})』'
                    r"|‘([^’\n]{1,300})’|(?:(?<=^)|(?<=[\s(\[:：]))'([^'\n]{1,300})'(?=$|[\s).,;:!?，。；：])")
_ELLIPSIS = re.compile(r"(?:\.\.\.|…+|\.{2,})\s*$")
MAX_MATCHES = 3  # elements shown per quoted text
MAX_SAME_ALT = 16  # pictures and charts shown whose alt text is a quoted text (they share it)
MIN_QUOTE_CHARS = 2
MIN_OPENING_CHARS = 12  # a quote this long that a few paragraphs start with names them, though more hold it
#: a request speaking of a copy of a document that repeats itself ("in that last copy"), and of the last one
_COPY = re.compile(r"\bcop(?:y|ies)\b|副本", re.IGNORECASE)
_LAST_COPY = re.compile(r"\b(?:last|final)\s+(?:[\w-]+\s+){0,2}copy\b|最后(?:一[个份])?(?:的)?副本", re.IGNORECASE)

#: Full-width / CJK punctuation -> its ASCII twin, one character for one (so positions survive the mapping).
_WIDTH = str.maketrans({"。": ".", "，": ",", "；": ";", "：": ":", "！": "!", "？": "?", "（": "(", "）": ")",
                        "“": '"', "”": '"', "‘": "'", "’": "'", "、": ",", "　": " ", "【": "[", "】": "]"})


def fold(text: str) -> str:
    """`text` with the width of its punctuation folded to ASCII (same length as `text`; case kept)."""
    return text.translate(_WIDTH)


def loose(text: str) -> str:
    """For matching a quote to an element: punctuation width, case and runs of spaces ignored."""
    return " ".join(fold(text).casefold().split())


def unspaced(text: str) -> str:
    """:func:`loose` with no spaces at all: for matching where a space added or dropped does not count."""
    return loose(text).replace(" ", "")


@dataclass(frozen=True)
class Quote:
    """A quoted text; `opening` when it ended with an ellipsis (it names an element by its first words)."""

    text: str
    opening: bool = False


#: the Chinese verbs that give a text its new text ("改成", "换为"; also :mod:`autodw.agent.request_values`' replacements)
ZH_CHANGE_TO = r"(?:改成|改为|换成|换为|替换成|替换为|更换为|修改为|更改为|变成)"
#: words after which a request gives the text to write, unquoted: "It should say: X", "the footer should read X", "edit
#: it to read X", "change it to X", "replace the logo text with X", "add another case after it: X", "改成X", "写成：X"
_DICTATES = re.compile(r"\bshould\s+(?:now\s+|just\s+|only\s+|also\s+)?(?:say|read)\b|\bso\s+(?:that\s+)?it\s+(?:now\s+)?(?:says|reads)\b"
                       r"|\bto\s+(?:say|read)\b|\b(?:change|rename|set)[ds]?\s+(?:it|this|that|them|these|those)\s+(?:back\s+)?to\b"
                       r"|\brenamed?\b[^.;:!?\n]*?\bto\b|\breplaced?\b[^.;:!?\n]*?\bwith\b"
                       r"|\b(?:add|insert|append|write|type)\b[^.;:!?\n\"“「]*:"
                       r"|" + ZH_CHANGE_TO + r"|写成|写为|写上|应该是|应为", re.IGNORECASE)
#: where an unquoted dictated text ends: after a colon, its sentence; else its clause
_SENTENCE_END = re.compile(r"[.!?;](?=\s|$)|[。！？；\n]")
_CLAUSE_END = re.compile(r"[.!?;,](?=\s|$)|[。！？；，\n]|\s+(?:and|then)\s")


def dictated(text: str) -> list[tuple[int, int]]:
    """The spans of `text` that give text to write rather than describe a target: each quoted text (the marks
    :func:`quotes` reads) and the unquoted text after words that dictate (:data:`_DICTATES`), to the end of its
    sentence after a colon ("It should say: ..."), else of its clause ("change it to Done, and ...")."""
    spans = [m.span() for m in _QUOTE.finditer(text)]
    for m in _DICTATES.finditer(text):
        colon = re.compile(r"\s*[:：]").match(text, m.end())
        start = colon.end() if colon else m.end()
        end = (_SENTENCE_END if colon or m.group(0).endswith(":") else _CLAUSE_END).search(text, start)
        spans.append((start, end.start() if end else len(text)))
    return sorted(s for s in spans if s[1] > s[0])


def undictated(text: str) -> str:
    """`text` with its :func:`dictated` spans blanked (positions kept): what it says of its targets."""
    for start, end in dictated(text):
        text = text[:start] + " " * (end - start) + text[end:]
    return text


def quotes(text: str) -> list[Quote]:
    """The texts quoted in `text`, in order, without repeats (an ending ellipsis cut off and noted)."""
    found: list[Quote] = []
    for match in _QUOTE.finditer(text):
        raw = next(g for g in match.groups() if g is not None).strip()
        stripped = _ELLIPSIS.sub("", raw).strip()
        quote = Quote(stripped, opening=stripped != raw)
        if len(quote.text) >= MIN_QUOTE_CHARS and quote not in found:
            found.append(quote)
    return found


@dataclass(frozen=True)
class Match:
    """An element a quote names: its id, what it is and how the quote matched ("is", "starts", "contains")."""

    quote: str
    id: str
    kind: str
    how: str
    text: str
    under: tuple[str, str] | None = None  # a heading's section: its first and last paragraph after the heading
    items: tuple[str, str] | None = None  # a list item's list: its first and last item
    earlier: bool = False  # named by the session's previous instruction (the request only refers back to it)


def paragraphs(state: State) -> Iterator[tuple[dict[str, Any], str]]:
    """Body paragraphs, then table-cell paragraphs (with the table's id as kind)."""
    for p in state.get("paragraphs", []):
        yield p, "paragraph"
    for t in state.get("tables", []):
        for r, row in enumerate(t.get("cell_details", [])):
            for c, cell in enumerate(row):
                for p in (cell or {}).get("paragraphs", []):  # None: a cell covered by a merge
                    yield p, f"cell of {t['id']} row r{r} (index {r}), column index {c}"  # 0-based, as the APIs count


def heading_section(state: State, pid: str) -> tuple[str, str] | None:
    """The first and last body paragraph under heading `pid`, up to the next heading of its level or higher (an empty
    paragraph in a heading style ends none: a title's blank second line)."""
    paras = state.get("paragraphs", [])
    start = next((i for i, p in enumerate(paras) if p["id"] == pid), None)
    custom = custom_headings(state)
    level = heading_level(paras[start].get("style"), custom) if start is not None else None
    if level is None:
        return None
    end = start
    for i in range(start + 1, len(paras)):
        other = heading_level(paras[i].get("style"), custom)
        if other is not None and other <= level and paras[i].get("text", "").strip():
            break
        end = i
    return (paras[start + 1]["id"], paras[end]["id"]) if end > start else None


def _list_run(state: State, pid: str) -> tuple[str, str] | None:
    """The first and last item of the list body paragraph `pid` is an item of (consecutive items of its list)."""
    paras = state.get("paragraphs", [])
    at = next((i for i, p in enumerate(paras) if p["id"] == pid), None)
    number = (paras[at].get("list") or {}).get("num_id") if at is not None else None
    if number is None:
        return None
    same = lambda p: (p.get("list") or {}).get("num_id") == number  # noqa: E731
    first = last = at
    while first > 0 and same(paras[first - 1]):
        first -= 1
    while last + 1 < len(paras) and same(paras[last + 1]):
        last += 1
    return (paras[first]["id"], paras[last]["id"]) if last > first else None


def ground(state: State, text: str, previous: str = "") -> list[Match]:
    """The elements of `state` that the texts quoted in `text` name (at most MAX_MATCHES per quote, best first), and
    those it names or describes otherwise. A request that grounds nothing and only refers back with a pronoun ("make
    it bigger", "把它删掉") grounds `previous` (the session's instruction before it), marked `earlier`."""
    out: list[Match] = []
    headings = _headed_entries(state)
    for quote in [*quotes(text), *_latin_runs(text), *_other_script_runs(text)]:
        key = loose(quote.text)
        out += _drawings_quoted(state, quote)  # "the screenshot that has 'untitled' as its alt text"
        ranked: list[tuple[tuple[int, bool], str, dict[str, Any], str]] = []
        for p, kind in paragraphs(state):
            body = loose(p.get("text", ""))
            if not body or p["id"] in headings:  # a contents entry is not the heading its text names
                continue
            numbered_as = SECTION_NUMBER.sub("", body, count=1).strip()  # "3.\tOPERATING EXPENSE LINE ITEMS" of its title
            how = ("is" if key in (body, numbered_as) and not quote.opening else "starts" if body.startswith(key)
                   else "contains" if key in body else None)
            if how is not None:
                ranked.append((({"is": 0, "starts": 1, "contains": 2}[how], kind != "paragraph"), how, p, kind))
        ranked.sort(key=lambda r: r[0])
        if len(ranked) > MAX_MATCHES and all(how != "is" for _, how, _, _ in ranked):
            starts = in_copy(text, [r for r in ranked if r[1] == "starts"])
            if len(key) < MIN_OPENING_CHARS or not starts or len(starts) > MAX_MATCHES:
                continue  # a word found in many paragraphs is a text to search for ("replace every 'sales'"), not a name
            ranked = starts  # an opening a few paragraphs start with names them, however many others quote it
        for _, how, p, kind in ranked[:MAX_MATCHES]:  # a section and a list are looked up for the shown ones only
            body_paragraph = kind == "paragraph"
            out.append(Match(quote.text, p["id"], kind, how, p.get("text", ""),
                             heading_section(state, p["id"]) if body_paragraph else None,
                             _list_run(state, p["id"]) if body_paragraph else None))
    for m in [*named(state, text), *described(state, text)]:
        if m.kind == HEADER_ROW or m.id not in {o.id for o in out if o.kind != HEADER_ROW}:  # a row label stays
            out.append(m)
    found = [*_first_under(state, text, out), *_next_after(state, text, out), *out]
    said = undictated(text)
    refers_back = previous and refers_back_in(said)
    if refers_back and not any(m.kind == HEADER_ROW for m in found):  # "这个表的表头" after "预算那个表…"
        found += _header_rows(state, said, tables_named(state, undictated(previous)))
    if not found and refers_back:
        return [replace(m, earlier=True) for m in ground(state, previous)]
    return found


def _drawings_quoted(state: State, quote: Quote) -> list[Match]:
    """The pictures and charts whose alt text `quote` is or starts (those it is, up to :data:`MAX_SAME_ALT`: an alt
    text many pictures share tells none of them apart, "the 1-pixel spacers whose alt text is just 'empty' or 'pixel'.
    Delete all of those", dwh-517#4; then those it starts, up to :data:`MAX_MATCHES` in all), with the paragraph
    holding each: a picture is named by its alt text ("has 'untitled' as its alt text", dwh-367#3), which no paragraph
    holds."""
    key, ranked = loose(quote.text), []
    for img in state.get("images", []):
        alt = loose(img.get("alt_text") or "")
        if img.get("id") and alt and alt.startswith(key):
            how = "is" if alt == key and not quote.opening else "starts"
            held = f", in {img['paragraph']}" if img.get("paragraph") else ""
            kind = f"{img.get('type') or 'picture'} by its alt text{held}"
            ranked.append(Match(quote.text, img["id"], kind, how, img["alt_text"]))
    whole = [m for m in ranked if m.how == "is"][:MAX_SAME_ALT]
    return whole + [m for m in ranked if m.how != "is"][:max(0, MAX_MATCHES - len(whole))]


MAX_REFERRED = 3  # the session's instructions a chain of back-references ("make it bigger", "change it back") reaches


def referred(state: State, session: list[str], request: str = "") -> str:
    """What a follow-up of the session's instructions `session` refers back to, one a line, the nearest first: the
    last one, and while one leans back itself (:func:`leans_back`) the one before it, up to :data:`MAX_REFERRED`
    ("" for none), or each of the last :data:`MAX_REFERRED` when `request` speaks of what they changed
    (:func:`recalls_changes`: "这两个改过的格子" after two instructions each fixing a cell, dwh-532#3); when
    `request` leans back, first the earlier instruction it shares the most words with (:func:`recalled`: "take the
    bold off the fee threshold again" several turns after "bold the 750 square feet threshold")."""
    chain: list[str] = []
    for text in reversed(session):
        chain.append(text)
        if len(chain) == MAX_REFERRED or not (leans_back(state, text) or recalls_changes(request)):
            break
    # its words beside a model it compares to name its target ("the same red as the labels in the announcement")
    again = (recalled(session, uncompared(request)) if request and (leans_back(state, request) or restores(request))
             else None)
    return "\n".join(([again] if again is not None else []) + [text for text in chain if text != again])


MIN_RECALLED_WORDS = 2  # words a request shares with an earlier instruction that it names its target by
#: words of any request, which name no target
_REQUEST_WORDS = frozenset("make take change keep just please also again want there their these those this that with "
                           "into from have does doesn don't text line lines paragraph paragraphs sentence".split())


def recalled(session: list[str], request: str) -> str | None:
    """The instruction of `session` that shares the most words with `request` (their first four letters; for Chinese,
    pairs of characters), at least :data:`MIN_RECALLED_WORDS` and the latest of equals; None when none does."""
    said = " ".join(w for w in re.findall(r"[\w']+", undictated(request)) if w.casefold() not in _REQUEST_WORDS)
    best, most = None, MIN_RECALLED_WORDS
    for text in session:
        if (shared := _shared_words(said, undictated(text))) >= most:
            best, most = text, shared
    return best


def recalls_changes(text: str) -> bool:
    """Whether `text` speaks of what earlier instructions changed (:data:`_CHANGED_BEFORE`: "the two cells I changed",
    "这两个改过的格子"): its targets are theirs, whichever of them it was."""
    return _CHANGED_BEFORE.search(undictated(text)) is not None


#: a target named by an earlier change to it: "the cells I (just) changed", "what you've fixed", "the edited rows",
#: "改过的格子", "刚才修改的那两处", "改动过的"
_CHANGED_BEFORE = re.compile(r"\b(?:I|we|you)(?:\s+(?:just|have|'ve|had|already))*\s+(?:changed|edited|fixed|corrected|"
                             r"updated|modified|amended)\b|\b(?:the|those|these|both)\s+(?:\w+\s+)?(?:changed|edited|"
                             r"corrected)\s+(?!by\b|to\b|in\b)[^\W\d_]"
                             r"|(?:改|修改|改动|更改|修正|更正|订正)过|刚才?(?:改|修改|改动|更改|修正|更正)(?:了|的)", re.IGNORECASE)


def leans_back(state: State, text: str) -> bool:
    """Whether `text` takes its target from an earlier instruction: it refers back (:func:`refers_back`) and its own
    words ground nothing in `state` ("Fix that line", "这条注的字有点小") but a model it compares to (:data:`_COMPARED`:
    "give it the same dark red as the labels like Who May Be Considered", dwh-343#8). A request that names its target keeps it,
    whatever pronoun or demonstrative it also holds ("get rid of the intro text between the first heading and the
    Business Plan heading. It's only instructions", "region body margin 那张示意图太占地方了")."""
    if not refers_back(text):
        return False
    own = uncompared(text)  # "give it the same dark red as the labels like Who May Be Considered"
    return not ground(state, text) or own != text and refers_back(own) and not ground(state, own)


#: a comparison naming a model, not the target: "the same dark red as the labels like Who May Be Considered",
#: "to match the Summary heading", "跟第一章标题一样"; up to the clause's end
_COMPARED = re.compile(r"\b(?:the\s+)?same\b[^,.;!?]*?\bas\b[^,.;!?]*|\b(?:to\s+)?match(?:ing)?\b[^,.;!?]*|"
                       r"(?:跟|和|与|同|像)[^，。；！？,.;!?]*?(?:一样|一致|相同)", re.IGNORECASE)


def uncompared(text: str) -> str:
    """`text` without the comparisons naming a model it asks its target to look like (:data:`_COMPARED`)."""
    return _COMPARED.sub(" ", text)


def restores(text: str) -> bool:
    """Whether `text` asks to put back what an earlier instruction changed ("don't change the cover date after all,
    put October 1, 2012 back", dwh-454#7): the text it names is the old value, no longer where that one wrote."""
    return _RESTORES.search(text) is not None


#: a request undoing an earlier change: "put ... back", "change it back", "revert", "undo", "after all", "改回"
_RESTORES = re.compile(r"\b(?:put|change|set|turn|switch)\b[^,.;!?]*?\bback\b|\brevert|\bundo\b|\bafter\s+all\b|"
                       r"\brestore|改回|恢复|还原|撤销", re.IGNORECASE)


def refers_back(text: str) -> bool:
    """Whether `text` (what it says, not what it dictates) refers back to what an earlier instruction named."""
    return refers_back_in(undictated(text))


def refers_back_in(said: str) -> bool:
    """Whether undictated text `said` holds a word that refers back (:data:`_REFERS_BACK`)."""
    return _REFERS_BACK.search(said) is not None


#: a pronoun that refers back to what an earlier instruction named ("make it bigger", "给它加个题注"), the others of
#: a number of things it named ("do the same for the other two", dwh-489#5), or a change back ("改回单倍行距",
#: "change back to single spacing")
_REFERS_BACK = re.compile(r"\b(?:it|its|them|they|their|that|those|these|back|again|revert|undo)\b|它们?|[这那](?:个|些|条|张|段|句|行|项|处)|改回|恢复|还原|撤销"
                          r"|\bthe\s+(?:other|remaining)\s+(?:ones?|two|three|four|five|six|seven|eight|nine|ten|\d{1,2})\b",
                          re.IGNORECASE)
#: a run of Latin text inside a Chinese request (a code token, an English word or name), looked up like a quote
_LATIN_RUN = re.compile(r"[A-Za-z][\w:./'-]*(?:[ ]+[A-Za-z0-9][\w:./'-]*)*")
MIN_LATIN_LETTERS = 3  # a shorter run ("pt", "cm", "A") is a unit or a letter, not a text
_URL = re.compile(r"^(?:https?|www\.|mailto:)", re.IGNORECASE)


def _latin_runs(text: str) -> list[Quote]:
    """The Latin runs of a Chinese `text` ("fo:page-sequence", "thru", "return LayoutMasterSet"), not those it
    dictates (:func:`dictated`: quoted, or new text: "标题改成References"); none for a text without Chinese characters."""
    text = undictated(text)
    if not re.search(r"[\u4e00-\u9fff]", text):
        return []
    out: list[Quote] = []
    for match in _LATIN_RUN.finditer(text):
        run = match.group(0).strip(" .:/'-")
        if (len(re.findall(r"[A-Za-z]", run)) >= MIN_LATIN_LETTERS and not _URL.match(run)
                and Quote(run) not in out):
            out.append(Quote(run))
    return out


#: a letter of a script other than Latin (Arabic, Persian, Cyrillic, Greek, Hebrew, CJK...), or a mark or joiner in a word
_OTHER_LETTER = r"[^\W\d_A-Za-z\u00aa-\u024f\u1e00-\u1eff]"
_OTHER_RUN = re.compile(rf"{_OTHER_LETTER}[{_OTHER_LETTER[1:-1]}\u0610-\u061a\u064b-\u065f\u0670\u200c\u200d]*"
                        rf"(?:[ ]+{_OTHER_LETTER}[{_OTHER_LETTER[1:-1]}\u0610-\u061a\u064b-\u065f\u0670\u200c\u200d]*)*")
#: a letter of an alphabetic script other than Latin (Arabic, Cyrillic, Greek, Hebrew...): not Chinese, Japanese, Korean
_ALPHABET_LETTER = r"[^\W\d_A-Za-z\u00aa-\u024f\u1e00-\u1eff\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]"
_ALPHABET_RUN = re.compile(_OTHER_RUN.pattern.replace(_OTHER_LETTER[1:-1], _ALPHABET_LETTER[1:-1]))


def _other_script_runs(text: str) -> list[Quote]:
    """The runs of another script's words in a `text` written mostly in Latin letters ("glued را and به together as
    رابه": "رابه"), or of an alphabet's words in a Chinese one ("第二部分（الباب الثاني 那个大标题）", dwh-314#6), of
    :data:`MIN_LATIN_LETTERS` letters or more, not those it dictates: a Persian word an English request names its target
    by, unquoted."""
    text = undictated(text)
    chinese = re.search(r"[\u4e00-\u9fff]", text) is not None
    runs = [m.group(0) for m in (_ALPHABET_RUN if chinese else _OTHER_RUN).finditer(text)]
    if not chinese and len(re.findall(r"[A-Za-z]", text)) <= sum(len(run) for run in runs):
        return []
    out: list[Quote] = []
    for run in runs:
        if len(re.findall(_OTHER_LETTER, run)) >= MIN_LATIN_LETTERS and Quote(run) not in out:
            out.append(Quote(run))
    return out


_PAGE_NUMBER = re.compile(r"(?:\t[^\t]*|[\s.·…]+\d+)$")  # "Education\t3", "Education ........ 3"
SECTION_NUMBER = re.compile(r"^\s*\d+(?:\.\d+)*\.?\s+")  # a label's leading section number ("6.2\tFuture Research Areas")


def contents_entries(state: State) -> dict[str, str | None]:
    """The table of contents' entry paragraphs (style "TOC n"), each with the heading of the same text (None when
    there is none), its section number aside when the heading has none typed ("1.2\tThe Flagpole Project\t10" of
    an auto-numbered heading, dwh-310#3)."""
    custom = custom_headings(state)
    heads = {loose(p.get("text", "")): p["id"] for p in state.get("paragraphs", [])
             if heading_level(p.get("style"), custom) is not None and p.get("text", "").strip()}

    def heading(entry: str) -> str | None:
        title = loose(_PAGE_NUMBER.sub("", entry))
        return heads.get(title) or heads.get(SECTION_NUMBER.sub("", title))
    return {p["id"]: heading(p.get("text", "")) for p in state.get("paragraphs", [])
            if CONTENTS_STYLE.match(p.get("style") or "")}


def _headed_entries(state: State) -> set[str]:
    """The contents entries whose heading is in the document (grounding names the heading, never the entry)."""
    return {entry for entry, heading in contents_entries(state).items() if heading is not None}


#: "the first paragraph under "X"", "the opening paragraph of the X section", "the paragraph below X",
#: "“X”这一节的第一段", "“X”下面那段": with {name} the heading's text, quoted or not
_FIRST_UNDER = (r"(?:\b(?:first|opening|1st)\s+paragraph\s+(?:under|below|beneath|of|in|after)|\bthe\s+paragraph\s+"
                r"(?:under|below|beneath))\s+(?:the\s+)?(?:(?:heading|section)\s+)?[\"“'‘]?{name}[\"”'’]?",
                r"[\"“'‘]?{name}[\"”'’]?\s*(?:这一节|一节|这一部分|部分|标题)?(?:下面)?的第一段|[\"“'‘]?{name}[\"”'’]?\s*"
                r"(?:这一节|一节|部分|标题)?下面(?:的第一段|那段话?|那一段)")


def _first_under(state: State, text: str, found: list[Match]) -> list[Match]:
    """The first paragraph with text of a found heading's section, when `text` names it so ("the first paragraph
    under X")."""
    out: list[Match] = []
    paras = state.get("paragraphs", [])
    at = {p["id"]: n for n, p in enumerate(paras)}
    for m in found:
        if not m.under or m.kind not in ("paragraph", "heading"):
            continue
        name = re.escape(m.text.strip())
        said = next((hit for pattern in _FIRST_UNDER
                     if (hit := re.search(pattern.format(name=name), text, re.IGNORECASE))), None)
        first = next((p for p in paras[at[m.under[0]]:at[m.under[1]] + 1] if p.get("text", "").strip()), None)
        if said is not None and first is not None and all(o.id != first["id"] for o in out):
            out.append(Match(said.group(0), first["id"], "paragraph", "is", first["text"]))
    return out


#: "以“X”开头的那段与后面一段合为一段", "“X”的下一段", "merge 'X' with the next paragraph", "the paragraph after 'X'":
#: with {name} a quote naming a body paragraph (not a heading: :data:`_FIRST_UNDER`)
_NEXT_AFTER = (r"[\"“'‘]?{name}[\"”'’]?[^，。；,;.!?]{{0,12}}?(?:下一段|后一段|(?:后面|下面|之后)的?[那一]段)",
               r"[\"“'‘]?{name}[\"”'’]?[^.;:!?]{{0,40}}?\b(?:with|and|into|to)\s+the\s+(?:next|following)\s+"
               r"(?:paragraph|one)\b|\bthe\s+(?:paragraph|one)\s+(?:right\s+|just\s+)?(?:after|following|below)\s+"
               r"(?:the\s+(?:paragraph|one)\s+)?(?:(?:starting|beginning)\s+(?:with\s+)?)?[\"“'‘]?{name}")


def _next_after(state: State, text: str, found: list[Match]) -> list[Match]:
    """The body paragraph with text right after a found paragraph, when `text` names it so ("与后面一段合为一段")."""
    out: list[Match] = []
    paras = state.get("paragraphs", [])
    at = {p["id"]: n for n, p in enumerate(paras)}
    for m in found:
        if m.kind != "paragraph" or m.under or m.id not in at:
            continue
        name = re.escape(m.quote.strip())
        said = next((hit for pattern in _NEXT_AFTER
                     if (hit := re.search(pattern.format(name=name), text, re.IGNORECASE))), None)
        after = next((p for p in paras[at[m.id] + 1:] if p.get("text", "").strip()), None)
        if said is not None and after is not None and all(o.id != after["id"] for o in out):
            out.append(Match(said.group(0), after["id"], "paragraph", "is", after["text"]))
    return out


# --- elements named without quotes ------------------------------------------------------------

_ORDINAL_WORDS = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4,
                  "fifth": 5, "5th": 5, "sixth": 6, "6th": 6, "seventh": 7, "7th": 7, "eighth": 8, "8th": 8,
                  "ninth": 9, "9th": 9, "tenth": 10, "10th": 10, "last": -1, "final": -1, "一": 1, "二": 2, "三": 3, "四": 4,
                  "五": 5, "六": 6, "七": 7, "八": 8, "九": 9, "十": 10, "最后一": -1}
_NTH_TABLE = re.compile(r"\b(first|1st|second|2nd|third|3rd|fourth|4th|fifth|5th|sixth|6th|seventh|7th|eighth|8th|ninth|"
                        r"9th|tenth|10th|last|final)\s+table\b|\btable\s+([1-9])\b"
                        r"|第\s*([一二三四五六七八九十1-9])\s*个?(?:表格|表)|(最后一)个?(?:表格|表)", re.IGNORECASE)
#: the empty paragraphs of the body, named together ("delete the blank lines", "空段落都删掉")
_EMPTY_PARAGRAPHS = re.compile(r"\b(?:empty|blank)\s+(?:paragraphs?|lines?)\b|空行|空段落?|空白(?:段落?|行)", re.IGNORECASE)
MAX_EMPTY_SHOWN = 20  # empty paragraphs listed when a request names them (runs of them, when there are more)
#: a text named by its brackets ("the note in brackets", "the bracketed remark", "括号里的说明")
_IN_BRACKETS = re.compile(r"\b(?:in|inside|within)\s+(?:the\s+)?(?:round\s+)?(?:brackets|parenthes[ie]s)\b|"
                          r"\b(?:bracketed|parenthetical)\s+(?:note|text|line|sentence|paragraph|remark|comment)s?\b|"
                          r"括号(?:里|中|内)", re.IGNORECASE)
_BRACKETED = re.compile(r"\s*[(（\[【][^\n]*[)）\]】][.。]?\s*")  # a paragraph wholly in brackets
MAX_BRACKETED = 3  # more paragraphs in brackets than this: the brackets name none of them
_ONE_OF = (("chart", re.compile(r"\bthe\s+(?:(?:bar|column|line|pie)\s+)?(?:chart|graph)\b|图表|柱状图|条形图|折线图|饼图",
                                re.IGNORECASE)),
           ("picture", re.compile(r"\bthe\s+(?:[a-z-]+\s+){0,2}?(?:picture|image|photo|logo|screenshot)\b|图片|照片|截图|示意图",
                                  re.IGNORECASE)))
MIN_NAME_CHARS = 3  # a heading or row label this short is too common a word to count as named


def names_in(text: str, name: str) -> bool:
    """Whether `text` names `name`: a whole-word match, case-insensitive for names of several words, as written
    for one word (so the heading "Notes" is not named by "take notes") or, for one in capitals, capitalised ("under
    References" names "REFERENCES"); CJK names by containment."""
    name = " ".join(name.split()).strip(" .:：")
    if len(name) < MIN_NAME_CHARS and not re.search(r"[\u3040-\u9fff]", name):
        return False
    if re.search(r"[\u3040-\u9fff]", name):
        return len(name) >= 2 and loose(name) in loose(text)
    flags = re.IGNORECASE if " " in name else 0
    said = " ".join(fold(text).split())
    if re.search(rf"(?<!\w){re.escape(name)}(?!\w)", said, flags):
        return True
    # a label in capitals said capitalised ("under References" for "REFERENCES"), not in lower case ("take notes")
    return name.isupper() and len(name) > 1 and \
        re.search(rf"(?<!\w){re.escape(name.capitalize())}(?!\w)", said) is not None


#: the words a request leaves out of a heading it names ("the scale preference section" for "Scale of Preference")
#: words a heading's name may leave out: articles, prepositions, and determiners ("the support options section" for
#: "Other Support Options")
_HEADING_FILLER = frozenset("a an the of and or for to in on at by with from via into as vs other some more all any each such"
                            .split())
#: the kinds of part a heading may start with ("Appendix 1 – Font Mapping"), said after its title ("the font mapping
#: appendix")
_PART_KINDS = frozenset("appendix annex annexe chapter part section schedule exhibit attachment".split())
MIN_HEADING_WORD = 5  # letters of a one-word heading said in lower case beside "section" ("the section on colophon")
_SECTION_WORDS = (r"\b(?:section|heading|chapter|part)\s+(?:on|about|called|titled|named|for)\s+(?:the\s+)?{w}\b"
                  r"|\b{w}\s+(?:section|heading|chapter|description|entry)\b|\bunder\s+(?:the\s+)?{w}\b"
                  r"|\b(?:paragraph|sentence|line)s?\s+(?:of|in)\s+the\s+{w}\b|\b(?:to|into)\s+the\s+{w}\b")


def _heading_said(text: str, heading: str) -> bool:
    """Whether `text` names `heading` by its words in its order and any case, leaving out its filler words, numbers
    and punctuation ("the scale preference section" for "4.2 Scale of Preference", "under pgmar page margins" for
    "pgMar (Page Margins)"); a one-word heading, the one word before a heading's "and" ("the conclusion" for
    "Conclusion and Outlook"), or the term before a heading's gloss in brackets, only said beside "section",
    "heading", "description", "under", after "paragraph of the" or as where something goes ("add ... to the bibliography",
    dwh-310#10) ("the section on colophon", "the titlePg description" for "titlePg
    (Different First Page Headers and Footers)")."""
    if re.search(r"[\u3040-\u9fff]", heading):
        return False
    term = re.fullmatch(r"\s*([^\W\d_]+)\s*\(.*\)\s*", fold(heading).casefold())
    if term is not None and len(term.group(1)) >= MIN_HEADING_WORD and re.search(
            _SECTION_WORDS.format(w=re.escape(term.group(1))), fold(text), re.IGNORECASE) is not None:
        return True
    words = re.findall(r"[^\W\d_]+", fold(heading).casefold())
    while words and words[0] in _HEADING_FILLER:
        words.pop(0)
    if not words:
        return False
    if len(words) == 1:
        return _one_word_said(text, words[0])
    if len(words) > 2 and words[1] == "and" and _one_word_said(text, words[0]):
        return True  # "the last paragraph of the conclusion" for "Conclusion and Outlook"
    if words[0] in _PART_KINDS and len(words) > 1 and _words_said(text, words[1:] + words[:1]):
        return True  # "the font mapping appendix" for "Appendix 1 – Font Mapping"
    return _words_said(text, words)


def _one_word_said(text: str, word: str) -> bool:
    """Whether `text` names a heading by its one word `word` (of :data:`MIN_HEADING_WORD` letters or more) beside
    "section", "heading", "under", a part of it or "to the" ("the section on colophon", "the last paragraph of the
    conclusion", "add ... to the bibliography")."""
    return len(word) >= MIN_HEADING_WORD and re.search(
        _SECTION_WORDS.format(w=re.escape(word)), fold(text), re.IGNORECASE) is not None


def _words_said(text: str, words: list[str]) -> bool:
    """Whether `text` says `words` in this order, each filler word of them left out or not, no other word put in."""
    pattern = re.escape(words[0])
    for word in words[1:]:
        pattern += rf"(?:\W+{re.escape(word)})?" if word in _HEADING_FILLER else rf"\W+{re.escape(word)}"
    return re.search(rf"(?<!\w){pattern}(?!\w)", fold(text), re.IGNORECASE) is not None


MAX_LABEL_CHARS = 30  # a body paragraph this short that a request says whole is a label it names ("附件3", "表2")
#: a numbered series named by its ends: "附件1到附件4", "附件1至4", "Appendix 2 to 5", "Tables 1-3"
_RANGE = r"{prefix}s?\s*(\d+)\s*(?:到|至|~|～|-|–|—|\bto\b|\bthrough\b|\bthru\b)\s*(?:{prefix}s?)?\s*(\d+)(?!\d)"


def _labels_said(state: State, text: str) -> set[str]:
    """The ids of the short body paragraphs without a heading style whose whole text `text` says: labels
    that stand for headings in documents without heading styles ("附件3清单", "表2和续表2", "under DEFINITIONS",
    "rather than N/A"), each number of a numbered series named by its ends ("附件1到附件4") included. Spaces set for
    width are ignored ("审 定 意 见"); a CJK label said only inside a longer one said ("表2" in "续表2") or followed or
    preceded by a digit ("附件1" in "附件12") is not; a text more than :data:`MAX_MATCHES` paragraphs hold names none."""
    entries, custom = contents_entries(state), custom_headings(state)
    candidates = [p for p in state.get("paragraphs", []) if heading_level(p.get("style"), custom) is None
                  and p["id"] not in entries and 0 < len(_compact(p.get("text", ""))) <= MAX_LABEL_CHARS]
    held: dict[str, list[dict[str, Any]]] = {}
    for p in candidates:
        held.setdefault(_compact(p["text"]), []).append(p)
    said = _cjk_labels_said(text, [name for name in held if re.search(r"[\u3040-\u9fff]", name)])
    out: set[str] = set()
    for name, paras in held.items():
        if len(paras) > MAX_MATCHES or len(name) < 2 or _filler_only(name):
            continue  # a paragraph of filler words ("and" left of a title page's tab stops) is no label
        cjk = re.search(r"[\u3040-\u9fff]", name) is not None
        if (name in said if cjk else names_in(text, paras[0]["text"])) or _in_range(text, name):
            out.update(p["id"] for p in paras)
    return out


def _filler_only(name: str) -> bool:
    """Whether a label's text is words, each a filler word (:data:`_HEADING_FILLER`: "and", "of the")."""
    words = set(re.findall(r"\w+", name))
    return bool(words) and words <= _HEADING_FILLER


def _compact(label: str) -> str:
    """A label's text as a request would say it: loose, without the spaces set between CJK characters for width and
    without a closing colon."""
    folded = loose(label).strip(" .:")
    return re.sub(r"(?<=[\u3040-\u9fff]) +|(?<=\d) +(?=[\u3040-\u9fff])", "", folded)


def _cjk_labels_said(text: str, names: list[str]) -> set[str]:
    """Those of the CJK `names` that `text` says, not only inside a longer one of them said, nor next to a digit."""
    said = loose(text)
    spans: dict[str, list[tuple[int, int]]] = {}
    for name in names:
        spans[name] = [(m.start(), m.end()) for m in re.finditer(re.escape(name), said)
                       if not (name[-1].isdigit() and said[m.end():m.end() + 1].isdigit())
                       and not (name[0].isdigit() and said[m.start() - 1:m.start()].isdigit())]
    longer = [span for name in names for span in spans[name]]
    return {name for name in names
            if any(not any(a <= s and e <= b and (b - a) > (e - s) for a, b in longer) for s, e in spans[name])}


def _in_range(text: str, name: str) -> bool:
    """Whether `text` names the numbered label `name` ("附件3") by the ends of its series ("附件1到附件4")."""
    numbered = re.fullmatch(r"(\D*?)\s*(\d+)", name)
    if numbered is None or not numbered.group(1).strip():
        return False
    prefix = re.escape(numbered.group(1).strip())
    number = int(numbered.group(2))
    return any(int(m.group(1)) <= number <= int(m.group(2))
               for m in re.finditer(_RANGE.format(prefix=prefix), loose(text)))


def look(p: dict[str, Any], alignment: bool = True) -> tuple[Any, ...]:
    """How a paragraph looks: its style, alignment (unless `alignment` is false), list level (a bold label "PROCEDURE"
    at level 0 is not like its bold subsection lines at level 1) and the bold, size and font of its runs with text."""
    runs = frozenset((r.get("bold"), r.get("size_pt"), r.get("font")) for r in p.get("runs", []) if r.get("text", "").strip())
    aligned = (p.get("alignment"),) if alignment else ()
    return (p.get("style"), *aligned, (p.get("list") or {}).get("level"), runs)


def in_copy(text: str, holders: list[Any]) -> list[Any]:
    """`holders` (of a text, in document order), or of more than :data:`MAX_MATCHES` when `text` speaks of a copy of a
    document that repeats itself (:data:`_COPY`), the first ones, or the last ones, last first, when it says the last
    copy ("the 'In rare instances' paragraph ... in that last copy" of a handbook pasted four times, dwh-342#9)."""
    if len(holders) <= MAX_MATCHES or not _COPY.search(undictated(text)):
        return holders
    return holders[::-1][:MAX_MATCHES] if _LAST_COPY.search(undictated(text)) else holders[:MAX_MATCHES]


def label_section(state: State, pid: str) -> tuple[str, str] | None:
    """The first and last body paragraph after label `pid`, up to the next paragraph that looks the same (a label of
    its kind: "附件3" up to "附件4"), or before the next number of its depth (:func:`numbered_end`), or the end."""
    paras = state.get("paragraphs", [])
    start = next(i for i, p in enumerate(paras) if p["id"] == pid)
    first = look(paras[start])
    end = start
    for i in range(start + 1, len(paras)):
        if paras[i].get("text", "").strip() and look(paras[i]) == first:
            break
        end = i
    return (paras[start + 1]["id"], numbered_end(state, pid, paras[end]["id"])) if end > start else None


def numbered_end(state: State, pid: str, last: str) -> str:
    """`last`, or for a label with a section number ("6.2 Future Research Areas", typed or its list's "6.1") the
    paragraph before the next one numbered at its depth or above, with a higher number ("7 REFERENCES", "6.3 ...";
    a typed "6.2\tFuture Research Areas" after a list's "6.1 General") or looking like it but for its alignment
    ("APPENDIX 1" after a justified "7 REFERENCES"), when that comes first."""
    paras = state.get("paragraphs", [])
    start = next(i for i, p in enumerate(paras) if p["id"] == pid)
    number = section_numbers(paras[start])
    if number is None:
        return last
    first = look(paras[start], alignment=False)
    title = set(title_continued(state, pid))  # its title's own lines, broken with Enter, look like it
    for i in range(start + 1, len(paras)):
        if paras[i - 1]["id"] == last:
            return last
        other = section_numbers(paras[i])
        if other is not None and len(other) <= len(number) and other > number \
                or paras[i].get("text", "").strip() and look(paras[i], alignment=False) == first \
                and paras[i]["id"] not in title:
            return paras[i - 1]["id"]
    return last


def title_continued(state: State, pid: str) -> list[str]:
    """The paragraphs right after title `pid` that go on with its text (a title broken into lines with Enter, "4.
    Состав ... выполнения" then "административных процедур ..."): each looking like it (:func:`look`) and starting
    with a lower-case letter."""
    paras = state.get("paragraphs", [])
    start = next(i for i, p in enumerate(paras) if p["id"] == pid)
    out = []
    for p in paras[start + 1:]:
        text = p.get("text", "").strip()
        if not text[:1].islower() or look(p) != look(paras[start]):
            break
        out.append(p["id"])
    return out


#: a list label that is a section number ("6.1", "6.1.", "7")
_LABEL_NUMBER = re.compile(r"\d+(?:\.\d+)*\.?")


def section_numbers(p: dict[str, Any]) -> tuple[int, ...] | None:
    """The section number paragraph `p` is typed with (:data:`SECTION_NUMBER`, "18.33.030 Standards ..."), else its
    list's label when that is one ("6.1" of an auto-numbered "General"), as its numbers ((18, 33, 30)); None for none.
    A lower number after a label is an item of its section ("1.   The accessory ..." under "18.33.030 ..."), not the
    next."""
    typed = SECTION_NUMBER.match(loose(p.get("text", "")))
    label = (p.get("list") or {}).get("label") or ""
    text = typed.group(0) if typed else label if _LABEL_NUMBER.fullmatch(label.strip()) else None
    return None if text is None else tuple(int(n) for n in text.strip().strip(".").split("."))


def _nth(tables: list[Any], n: int) -> Any:
    """The `n`-th of `tables` (-1: the last), or None."""
    return tables[n - 1 if n > 0 else -1] if tables and n != 0 and -1 <= n <= len(tables) else None


def named(state: State, text: str) -> list[Match]:
    """Elements `text` names without quotes: headings and table-row labels by their words ("the Introduction
    section", "the West row"), a table by its caption ("Table 2", "表2"), the n-th or last table ("the second table", "第六个表格"; also the n-th of the tables
    of 2 rows and 2 columns or more when it is another: a one-row or one-column table reads as a box), the empty
    paragraphs of the body ("the blank lines", "空段落"), the body paragraphs wholly in brackets when the request names
    a text in brackets and there are at most :data:`MAX_BRACKETED` ("the note in brackets", "括号里的说明"), and the chart or picture when the document has just one;
    none in what `text` dictates (:func:`dictated`)."""
    text = undictated(text)  # a quoted name is looked up whole (:func:`ground`); a text to write names nothing
    out: list[Match] = []
    labels, custom = _labels_said(state, text), custom_headings(state)
    for p in state.get("paragraphs", []):
        label = p.get("text", "").strip()
        if heading_level(p.get("style"), custom) is not None and (names_in(text, label) or _heading_said(text, label)):
            out.append(Match(label, p["id"], "heading", "named", label, heading_section(state, p["id"])))
        elif p["id"] in labels:
            out.append(Match(label, p["id"], "paragraph", "named", label, label_section(state, p["id"])))
    for t in state.get("tables", []):
        for r, row in enumerate(t.get("cells", [])[1:], 1):
            label = str(row[0] if row else "").strip()
            if label and names_in(text, label):
                out.append(Match(label, t["id"], f"row r{r} (index {r}) of {t['id']}", "named", " | ".join(map(str, row))))
    tables = [t for t in state.get("tables", []) if "nested_in" not in t]
    grids = [t for t in tables if t.get("rows", 0) >= 2 and t.get("cols", 0) >= 2]
    by_caption = _caption_named(state, text)
    out += [Match(m.group(0), t["id"], "table, by its caption", "named", " | ".join(map(str, (t.get("cells") or [[]])[0])))
            for m, t in by_caption]
    for m in _NTH_TABLE.finditer(text):
        if any(c.start() < m.end() and m.start() < c.end() for c, _ in by_caption):
            continue  # "table 2" is the table captioned "Table 2", not the second table
        word = next(g for g in m.groups() if g is not None)
        n = int(word) if word.isdigit() else _ORDINAL_WORDS[word.lower()]
        first, of_grids = _nth(tables, n), _nth(grids, n)
        for t, kind in ((first, "table"), (of_grids, "table, counting only tables of 2 rows and 2 columns or more")):
            if t is not None and (kind == "table" or t is not first):
                out.append(Match(m.group(0), t["id"], kind, "named", " | ".join(map(str, (t.get("cells") or [[]])[0]))))
    said = _IN_BRACKETS.search(text)
    if said is not None:  # "the note in brackets under the formula": a form few paragraphs have
        bracketed = [p for p in state.get("paragraphs", []) if _BRACKETED.fullmatch(p.get("text", ""))]
        if len(bracketed) <= MAX_BRACKETED:
            out += [Match(said.group(0), p["id"], "paragraph in brackets", "named", p["text"]) for p in bracketed]
    said = _EMPTY_PARAGRAPHS.search(text)
    if said is not None:  # in a long document they lie outside the view: the request names them all at once
        empty = [p for p in state.get("paragraphs", []) if not shows_something(p)]
        at = {p["id"]: n for n, p in enumerate(state.get("paragraphs", []))}
        parts = [(at[m.under[0]], at[m.under[1]]) for m in out if m.under]  # "附件3清单最后面那几个空行": those in 附件3
        inside = [p for p in empty if any(a <= at[p["id"]] <= b for a, b in parts)]
        empty = inside or empty
        if len(empty) <= MAX_EMPTY_SHOWN:
            out += [Match(said.group(0), p["id"], "empty paragraph", "named", "") for p in empty]
        else:  # too many to list one by one: by runs ("a whole pile of empty lines after the notes")
            out += _empty_runs(state, said.group(0), [p["id"] for p in empty])
    out += _capitals_opening(state, text)  # "the long AGREEMENT FOR LEASE one" of a title typed in capitals
    inside_descriptions = [m.span() for pattern in (_DESCRIBED, _DESCRIBED_BEFORE)  # "the logo sentence": no picture
                           for m in pattern.finditer(text)]
    for kind, pattern in _ONE_OF:
        found = [i for i in state.get("images", []) if i.get("type") == kind and i.get("id")]
        said = next((m for m in pattern.finditer(text) if not any(a <= m.start() < b for a, b in inside_descriptions)), None)
        if len(found) == 1 and said is not None:
            held = f", in {found[0]['paragraph']}" if found[0].get("paragraph") else ""  # where a move or caption goes
            out.append(Match(said.group(0), found[0]["id"], kind + held, "named", found[0].get("title") or ""))
    return _header_rows(state, text) + out  # before "the first table": a table's line is its header row's


_CAPITAL_WORD = r"[A-ZÀ-ÖØ-ÞΑ-ΩА-ЯЁ]{2,}"  # a word written in capitals (Latin, Greek, Cyrillic)
_CAPITAL_RUN = re.compile(rf"(?<!\w){_CAPITAL_WORD}(?:[ ]+{_CAPITAL_WORD})+(?!\w)")


def _capitals_opening(state: State, text: str) -> list[Match]:
    """The body paragraphs whose text opens with a run of two words or more that `text` (undictated) writes in capitals,
    as they write it, of :data:`MIN_OPENING_CHARS` characters or more, when at most :data:`MAX_MATCHES` do: "the long
    AGREEMENT FOR LEASE one" names the title "AGREEMENT FOR LEASE (WITH DEVELOPMENT/ WORKS OBLIGATIONS) OR ..."
    (dwh-390#6); none for a request itself written in capitals."""
    runs = [m.group(0) for m in _CAPITAL_RUN.finditer(text) if len(m.group(0)) >= MIN_OPENING_CHARS]
    if not runs or 2 * sum(len(r) for r in runs) > len(re.findall(r"[^\W\d_]", text)):
        return []
    out: list[Match] = []
    for run in dict.fromkeys(" ".join(r.split()) for r in runs):
        held = [p for p in state.get("paragraphs", [])
                if re.match(rf"{re.escape(run)}(?!\w)", " ".join(fold(p.get("text", "")).split()))]
        if len(held) <= MAX_MATCHES:
            out += [Match(run, p["id"], "paragraph", "starts", p["text"], heading_section(state, p["id"])) for p in held]
    return out


#: a table's header row ("the top row", "the header row of the rates table", "表头", "标题行"); "top row", "first row"
#: and "第一行" only with a table named too (a paragraph's first line, a page's top)
_HEADER_ROW = re.compile(r"\b(?:top|header|heading|first|title)\s+row\b|\btable(?:'s)?\s+header(?:\s+row)?\b|表头|标题行|第一行",
                         re.IGNORECASE)
_ONLY_A_HEADER_ROW = re.compile(r"\b(?:header|heading)\s+row\b|\btable(?:'s)?\s+header\b|表头|标题行", re.IGNORECASE)
#: a table named by what it holds: "the budget table", "that price table", "预算那个表", "事项一览表" (the words before
#: "table" / 表 are compared with the table's text and the paragraphs before it), or by a name in brackets after
#: "table" ("the staffing table (物业管理人员配置)")
_TABLE_DESCRIBED = re.compile(r"\b(?:the|that|this|your|our|my)\s+((?:[\w-]+\s+){1,3}?)tables?\b"
                              r"|([\u4e00-\u9fffA-Za-z0-9]{2,8}?)(?:那个|这个|那张|这张|的)?(?:表格|表)(?!头)"
                              r"|\btables?\s*[(（]\s*([^()（）\n]{2,40}?)\s*[)）]", re.IGNORECASE)
_TABLE_WORD = re.compile(r"\btables?\b|表", re.IGNORECASE)
#: a table named by its caption's label and number ("Table 2", "表2", "表 2"), and such a caption's opening
_CAPTION_NUMBER = re.compile(r"\btable\s+(\d+)(?!\d)|(?<![图列附])表\s*(\d+)(?!\d)", re.IGNORECASE)


def caption_labels(tables_only: bool = False) -> str:
    """A regex alternation (match it ignoring case) of Word's caption labels, the API library's list, and their other
    spellings ("Fig.", "表格"), longest first; `tables_only`: the labels of tables."""
    labels = TABLE_CAPTION_LABELS if tables_only else CAPTION_LABELS
    names = [name for label in labels for name in (label, *CAPTION_LABEL_SPELLINGS.get(label, ()))]
    return "|".join(re.escape(name) for name in sorted(names, key=len, reverse=True))


_TABLE_CAPTION = re.compile(rf"^(?:{caption_labels(tables_only=True)})\s*(\d+)(?!\d)", re.IGNORECASE)
#: how documents in other languages label a table caption they type as body text ("الجدول 6: ...", "Tableau 2")
OTHER_TABLE_LABELS = ("الجدول", "جدول", "Tableau", "Tabla", "Cuadro", "Tabelle", "Tabella", "Tabela", "Таблица")
#: a table's caption typed as a body paragraph: its label and number alone or before a colon, dot or dash ("Table 2
#: shows" is a sentence, not a caption)
_TYPED_CAPTION = re.compile(rf"^(?:{caption_labels(tables_only=True)}|{'|'.join(map(re.escape, OTHER_TABLE_LABELS))})"
                            r"\s*(\d+)\s*(?:[:：.\-–—]|$)", re.IGNORECASE)
TYPED_CAPTION_PARAGRAPHS = 2  # non-empty paragraphs right before a table where a caption typed as body text is
_NOT_DESCRIPTIONS = {"first", "second", "third", "last", "next", "same", "whole", "entire", "other", "new", "above",
                     "below", "following", "previous", "original", "earlier", "former", "only", "one", "two", "three", "each", "every", "all", "both"}
TABLE_CONTEXT_PARAGRAPHS = 3  # non-empty body paragraphs before a table (back to its heading) read as its title


def table_surroundings(state: State, table: dict[str, Any]) -> tuple[Iterator[dict[str, Any]], dict[str, Any] | None]:
    """The body paragraphs around `table`, where its title or caption is: those before it, nearest first, back to
    its section's heading (included; read lazily), and the one right after it (None at the end); none when its
    place is unknown."""
    paras = state.get("paragraphs", [])
    at = next((i for i, p in enumerate(paras) if p["id"] == table.get("after_paragraph")), None)
    if at is None:
        return iter(()), None

    def before() -> Iterator[dict[str, Any]]:
        custom = custom_headings(state)
        for p in reversed(paras[:at + 1]):
            yield p
            if heading_level(p.get("style"), custom) is not None:
                return
    return before(), paras[at + 1] if at + 1 < len(paras) else None


def _table_context(state: State, table: dict[str, Any]) -> str:
    """What names a table: its first row and first column, the paragraphs before it in its section (at most
    :data:`TABLE_CONTEXT_PARAGRAPHS` with text) and a caption after it."""
    cells = table.get("cells") or [[]]
    text = [*map(str, cells[0]), *(str(row[0]) for row in cells[1:] if row)]
    before, after = table_surroundings(state, table)
    text += islice((p["text"] for p in before if p.get("text", "").strip()), TABLE_CONTEXT_PARAGRAPHS)
    if after is not None and "caption" in (after.get("style") or "").casefold():
        text.append(after.get("text", ""))
    return "\n".join(text)


_WORD4 = r"[^\W\d_\u3400-\u9fff]{4,}"  # a word of 4 letters or more of an alphabetic script (Latin, Cyrillic...)


def _shared_words(description: str, context: str) -> int:
    """How many words (their first 4 letters, in any alphabetic script: "the Цвет table") or, for Chinese, pairs of characters `description` shares with
    `context`."""
    if re.search(r"[\u4e00-\u9fff]", description):
        pairs = {description[i:i + 2] for i in range(len(description) - 1)}
        return sum(pair in context for pair in pairs
                   if re.fullmatch(r"[\u4e00-\u9fff]{2}", pair) and not FUNCTION_CHARACTERS.search(pair))
    words = {w[:4] for w in re.findall(_WORD4, description.casefold()) if w not in _NOT_DESCRIPTIONS}
    return len(words & {w[:4] for w in re.findall(_WORD4, context.casefold())})


def captioned_tables(state: State) -> dict[int, dict[str, Any]]:
    """Caption number -> the table a Caption-styled "Table n" / "表 n" paragraph names: the one right before a table
    (where Word puts table captions), else the one right after it."""
    out: dict[int, dict[str, Any]] = {}
    around = []  # each table with the paragraph right before it and the one right after it
    for t in state.get("tables", []):
        if "nested_in" not in t:
            before, after = table_surroundings(state, t)
            around.append((t, next(before, None), after))
    for t, p in [*((t, before) for t, before, _ in around), *((t, after) for t, _, after in around)]:  # before first
        m = _TABLE_CAPTION.match(loose(p.get("text", ""))) if p and "caption" in (p.get("style") or "").casefold() else None
        if m:
            out.setdefault(int(m.group(1)), t)
    for t, _, _ in around:
        for p in _typed_captions(state, t):
            out.setdefault(int(_TYPED_CAPTION.match(loose(p.get("text", ""))).group(1)), t)
    return out


def table_caption(state: State, table: dict[str, Any]) -> list[str]:
    """The ids of the paragraphs captioning `table`: Caption-styled ones right before or after it, else a caption typed
    as body text before it (:func:`_typed_captions`) with the title lines between it and the table ("الجدول 2", then
    its title): where a request asking for "the table's own title" finds it (dwh-262#8)."""
    before, after = table_surroundings(state, table)
    styled = [p["id"] for p in (next(before, None), after) if p and "caption" in (p.get("style") or "").casefold()]
    typed = _typed_captions(state, table)
    if styled or not typed:
        return styled
    paras = state.get("paragraphs", [])
    at = {p["id"]: n for n, p in enumerate(paras)}
    return [p["id"] for p in paras[at[typed[-1]["id"]]:at[table["after_paragraph"]] + 1] if p.get("text", "").strip()]


def _typed_captions(state: State, table: dict[str, Any]) -> list[dict[str, Any]]:
    """The paragraphs among the :data:`TYPED_CAPTION_PARAGRAPHS` non-empty ones right before `table` (not past the
    table before it) that are its caption typed in body text ("الجدول 6: عدد حالات..." or "Table 2" then its title),
    nearest first (dwh-262)."""
    others = {t.get("after_paragraph") for t in state.get("tables", []) if t is not table and "nested_in" not in t}
    before, _ = table_surroundings(state, table)
    near = []
    for n, p in enumerate(before):
        if n and p["id"] in others:  # the paragraph another table follows: what is before it is that table's
            break
        if p.get("text", "").strip():
            near.append(p)
        if len(near) == TYPED_CAPTION_PARAGRAPHS:
            break
    return [p for p in near if _TYPED_CAPTION.match(loose(p.get("text", "")))]


def _caption_named(state: State, text: str) -> list[tuple[re.Match, dict[str, Any]]]:
    """The tables `text` names by a caption the document has ("Table 2", "表2"), with the words that name each."""
    if not _CAPTION_NUMBER.search(text):
        return []
    captioned = captioned_tables(state)
    return [(m, captioned[n]) for m in _CAPTION_NUMBER.finditer(text)
            if (n := int(m.group(1) or m.group(2))) in captioned]


def tables_named(state: State, text: str) -> list[dict[str, Any]]:
    """The tables `text` names: by a caption the document has ("Table 2", "表2"), else the n-th ("the second table",
    "第二个表"), those whose text or title shares most words
    with the words before "table" ("the rates table", "价格表"), else the only table of the document when `text`
    says table / 表."""
    tables = [t for t in state.get("tables", []) if "nested_in" not in t]
    out: list[dict[str, Any]] = []
    for _, t in _caption_named(state, text):  # "Table 2" / "表2" of a captioned document: its caption's table
        if t not in out:
            out.append(t)
    if out:
        return out
    for m in _NTH_TABLE.finditer(text):
        word = next(g for g in m.groups() if g is not None)
        t = _nth(tables, int(word) if word.isdigit() else _ORDINAL_WORDS[word.lower()])
        if t is not None and t not in out:
            out.append(t)
    if out:
        return out
    for m in _TABLE_DESCRIBED.finditer(text):  # the tables that share the most words with the description
        description = next((g for g in m.groups() if g is not None), "")
        shared = {t["id"]: _shared_words(description, _table_context(state, t)) for t in tables}
        best = max(shared.values(), default=0)
        out += [t for t in tables if t not in out and best and shared[t["id"]] == best]
    if not out and len(tables) == 1 and _TABLE_WORD.search(text):
        out = tables
    return out


HEADER_ROW = "its header row, row r0 (index 0)"  # a header row match's kind


def _empty_runs(state: State, quote: str, empty: list[str]) -> list[Match]:
    """The runs of consecutive paragraphs among `empty` (ids, in document order) as matches, the longest
    :data:`MAX_EMPTY_SHOWN` in document order: a run of two or more is one match whose kind gives its ids as a range
    and the paragraph before it ("14 empty paragraphs in a row, p962-p975, after p961 ...")."""
    paras = state.get("paragraphs", [])
    at = {p["id"]: n for n, p in enumerate(paras)}
    runs: list[list[str]] = []
    for pid in empty:
        if runs and at[runs[-1][-1]] + 1 == at[pid]:
            runs[-1].append(pid)
        else:
            runs.append([pid])
    kept = sorted(sorted(runs, key=len, reverse=True)[:MAX_EMPTY_SHOWN], key=lambda r: at[r[0]])
    out = []
    for run in kept:
        kind = "empty paragraph"
        if len(run) > 1:
            before = paras[at[run[0]] - 1] if at[run[0]] > 0 else None
            said = " ".join((before or {}).get("text", "").split())
            said = said if len(said) <= 40 else said[:37] + "..."
            after = f', after {before["id"]} "{said}"' if before else ""
            kind = f"{len(run)} empty paragraphs in a row, {run[0]}-{run[-1]}{after}"
        out.append(Match(quote, run[0], kind, "named", ""))
    return out


def _header_rows(state: State, text: str, tables: list[dict[str, Any]] | None = None) -> list[Match]:
    """The header row (row 0) of each table `text` names (or of `tables`), when it names a table's header row ("the
    top row of the budget table", "那个价格表，表头加粗")."""
    said = _HEADER_ROW.search(text)
    if said is None:
        return []
    tables = tables_named(state, text) if tables is None else tables
    alone = [t for t in state.get("tables", []) if "nested_in" not in t]
    if not tables and len(alone) == 1 and _ONLY_A_HEADER_ROW.search(text):  # "make the header row bold"
        tables = alone
    return [Match(said.group(0), t["id"], HEADER_ROW, "named",
                  " | ".join(map(str, (t.get("cells") or [[]])[0]))) for t in tables]


def grounding_lines(matches: list[Match]) -> str:
    """The matches as prompt lines ("" when there are none)."""
    if not matches:
        return ""
    now = _lines([m for m in matches if not m.earlier])
    earlier = _lines([m for m in matches if m.earlier])
    return "\n\n".join(([f"Elements the request names, found in the document:\n{now}"] if now else [])
                       + ([f"Elements the previous instruction named (what the request refers back to):\n{earlier}"]
                          if earlier else []))


MIN_HELD_CHARS = 4  # a quoted text this long that many paragraphs hold is shown where it first occurs ("Ba3.ru")
HELD_CONTEXT = 30  # characters shown either side of it
HELD_QUOTE_CHARS = 60  # characters of it shown
MAX_HELD_LINES = 3  # such texts shown


def held_lines(state: State, text: str, matches: list[Match]) -> str:
    """Each text of :data:`MIN_HELD_CHARS` or more quoted in `text` that names no element of `matches` (those
    :func:`ground` found, as the caller cut them: it names none that more than :data:`MAX_MATCHES` paragraphs hold)
    but the document holds as written, with how many paragraphs hold it and the text either side of it where it first
    occurs, the first :data:`MAX_HELD_LINES`: a fix the document already spells right elsewhere ("the
    [Premises][Property][and/or Building]", dwh-338#3) is copied from the document, not made up; then where the
    document writes the words quoted misspelt the way it spells them elsewhere (:func:`respelt`) ("" for none)."""
    named = {m.quote for m in matches}
    lines = []
    for quote in quotes(text):
        if quote.text in named or len(quote.text) < MIN_HELD_CHARS:
            continue
        if (line := _written(state, quote.text)) is not None:
            lines.append(line)
        if len(lines) == MAX_HELD_LINES:
            break
    held = "Texts the request quotes that the document holds as written:\n" + "\n".join(lines) if lines else ""
    spelt = [f'"{word}" is spelt otherwise: {line}' for word, right in respelt(state, text)
             if (line := _written(state, right)) is not None][:MAX_HELD_LINES]
    spelt_lines = "Words the request quotes that the document spells otherwise elsewhere:\n" + "\n".join(spelt) if spelt else ""
    return "\n\n".join(t for t in (held, spelt_lines) if t)


def _written(state: State, written: str) -> str | None:
    """How many paragraphs hold `written` as written and the text either side of it where it first occurs, as a line
    (None when none does)."""
    held = [(p, at) for p, _ in paragraphs(state) if (at := p.get("text", "").find(written)) >= 0]
    if not held:
        return None
    p, at = held[0]
    body, end = p["text"], at + len(written)
    before = ("…" if at > HELD_CONTEXT else "") + body[max(0, at - HELD_CONTEXT):at]
    after = body[end:end + HELD_CONTEXT] + ("…" if end + HELD_CONTEXT < len(body) else "")
    return (f'"{shortened(written, HELD_QUOTE_CHARS)}" is written so in {len(held)} paragraph(s), first in '
            f'{p["id"]}, between "{before}" and "{after}"')


MIN_RESPELT_LETTERS = 5  # a shorter quoted word has too many near spellings to tell a typo by
RESPELT_SIMILARITY = 0.85  # how alike a word and its other spelling are (difflib ratio, accents dropped)


def respelt(state: State, text: str) -> list[tuple[str, str]]:
    """Each word of :data:`MIN_RESPELT_LETTERS` letters or more quoted in `text` (a typo the user points at:
    "'estandadres' in the paragraph about the location subsidy", dwh-355#3) and the nearest other spelling of it the
    document writes (:data:`RESPELT_SIMILARITY`, accents dropped: "estándares"), in at least as many paragraphs as the
    word itself (the right spelling is no rarer than the typo), the most frequent of the nearest. A quoted word no
    paragraph writes is no typo the user sees ("'untitled' as its alt text" is not a misspelt "united"). The document
    is read only when such a word is quoted, and paragraphs are counted only for the words compared (it runs at
    every step)."""
    said = list(dict.fromkeys(w for quote in quotes(text) for w in re.findall(r"[^\W\d_]+", quote.text)
                              if len(w) >= MIN_RESPELT_LETTERS))
    if not said:
        return []
    texts = tuple(p.get("text", "") for p, _ in paragraphs(state))
    folded, plain = _vocabulary(texts)

    @functools.lru_cache(maxsize=None)
    def count(word: str) -> int:
        """The paragraphs writing `word` (as a whole word, case as given)."""
        whole = re.compile(rf"(?<![^\W\d_]){re.escape(word)}(?![^\W\d_])")
        return sum(1 for t in texts if word in t and whole.search(t))

    out: list[tuple[str, str]] = []
    for word in said:
        if word.casefold() not in folded:
            continue
        near = [w for k in get_close_matches(unaccented(word.casefold()), list(plain), n=3, cutoff=RESPELT_SIMILARITY)
                for w in plain[k] if w.casefold() != word.casefold()]
        near = [w for w in near if count(w) >= count(word)]
        if near:
            out.append((word, max(near, key=count)))
    return out


@functools.lru_cache(maxsize=4)
def _vocabulary(texts: tuple[str, ...]) -> tuple[frozenset[str], dict[str, list[str]]]:
    """The words `texts` write, in lower case, and by their lower-case unaccented spelling (read once a state)."""
    written = {w for token in set("\n".join(texts).split()) for w in re.findall(r"[^\W\d_]+", token)}
    plain: dict[str, list[str]] = {}
    for word in sorted(written):
        plain.setdefault(unaccented(word.casefold()), []).append(word)
    return frozenset(w.casefold() for w in written), plain


def unaccented(text: str) -> str:
    """`text` without its combining accents ("estándares": "estandares")."""
    return "".join(c for c in unicodedata.normalize("NFD", text) if not unicodedata.combining(c))


def _lines(matches: list[Match]) -> str:
    lines = []
    for m in matches:
        where = f"{m.id} ({m.kind})"
        shown = m.text if len(m.text) <= 60 else m.text[:57] + "..."
        how = {"is": "is", "named": "is", "about": "may be:"}.get(m.how, m.how + ":")
        line = f'"{m.quote}" -> {where} {how} "{shown}"' if shown else f'"{m.quote}" -> {where}'
        if m.under:
            line += f"; under it: {m.under[0]}" + (f" to {m.under[1]}" if m.under[1] != m.under[0] else "")
            line += f" (the section ends after {m.under[1]})"
        if m.items:
            line += f"; a list item: its list runs from {m.items[0]} to {m.items[1]}"
        lines.append(line)
    return "\n".join(lines)


def keep_user_characters(value: Any, user_quotes: list[str]) -> Any:
    """`value` (an API argument, nested lists/dicts included) with each user quote written back exactly where the
    model wrote it with other punctuation widths or quote marks (the mapping keeps positions, so only those
    characters change)."""
    if isinstance(value, str):
        return _restore(value, user_quotes)
    if isinstance(value, list):
        return [keep_user_characters(v, user_quotes) for v in value]
    if isinstance(value, dict):
        return {k: keep_user_characters(v, user_quotes) for k, v in value.items()}
    return value


def _restore(text: str, user_quotes: list[str]) -> str:
    for quote in sorted(user_quotes, key=len, reverse=True):
        if quote in text or len(quote) < MIN_QUOTE_CHARS:
            continue
        target, start = fold(quote), 0
        folded = fold(text)
        while (at := folded.find(target, start)) >= 0:
            text = text[:at] + quote + text[at + len(quote):]
            start = at + len(quote)
    return text


# --- elements described by what they say ----------------------------------------------------------

_DESCRIBED = re.compile(r"\b(?:paragraph|sentence|text|part|one|line|passage)\s+(?:that\s+(?:is|talks|speaks)\s+)?"
                        r"(?:about|on|regarding|discussing|mentioning|that\s+(?:mentions|discusses|covers|says))\s+"
                        r"(?:the\s+)?(.{3,80}?)(?=[,.;:!?]|\s+(?:and|then|to|into|with|as|in\s+(?:bold|italics?))\b|$)"
                        r"|关于(.{2,30}?)的(?:段落|那段|那一段|那句话|内容)|(?:讲|谈|提到|说)(.{2,30}?)的(?:段落|那段|那一段|那句话)",
                        re.IGNORECASE)
#: a paragraph named by words before "sentence" / "line" / "paragraph" ("the base year hours sentence", "the I agree
#: line", "野餐那句话", "Fax那行"); ordinals and the like are not descriptions ("the first paragraph", "the new line")
_DESCRIBED_BEFORE = re.compile(r"\b(?:the|that|this|those|these)\s+((?:(?!(?:the|that|this|those|these|an?|of|in|on|at|to|"
                               r"for|from|by|with|into|after|before|under|above|below|it|its|and|or|containing|called|"
                               r"sentences?|lines?|paragraphs?)\b)[\w'’-]+\s+){1,5}?)(?:sentences?|lines?|paragraphs?)\b"
                               r"|([^\s，。；！？、“”\"（）()：:]{2,16}?)\s*(?:那|这)(?:一)?(?:句话?|段话?|行)", re.IGNORECASE)
_NOT_DESCRIBING = _NOT_DESCRIPTIONS | {"last", "opening", "closing", "final", "top", "bottom", "empty", "blank", "this",
                                       "that", "two", "four", "five", "several", "few", "a", "an", "of", "in", "and",
                                       "bold", "italic", "underlined", "highlighted", "red", "blue", "green", "grey",
                                       "gray", "black", "big", "small", "long", "short"}  # how it looks, not what it says
_CHINESE_LEAD = re.compile(r"^.*(?:把|给|将|在|对|和|跟|帮我|请|说)")  # "帮我把野餐" -> "野餐", "刘洋说上线" -> "上线"
_PLACE_WORDS = re.compile(r"(?:下面|上面|后面|前面|下方|上方|里|中)$")  # "X下面那段": the paragraph under X, not about it
_HEADER_WORDS = re.compile(r"表头|标题行|第一行|最后一行")


def _descriptions(text: str) -> Iterator[tuple[str, bool]]:
    """What `text` describes paragraphs by: "the paragraph about X" / "关于X的那段", and "the X sentence" / "X那句"; each
    with whether it names body text only (a sentence or paragraph so named is no heading; a line may be)."""
    for m in _DESCRIBED.finditer(text):
        yield _LOOK_WORDS.sub("", next(g for g in m.groups() if g is not None)).strip(), False
    for m in _DESCRIBED_BEFORE.finditer(text):
        english, chinese = m.groups()
        body_only = not re.search(r"(?:\blines?|行)$", m.group(0), re.IGNORECASE)
        if english is not None:
            words = [w for w in english.split() if w.casefold() not in _NOT_DESCRIBING and not w.isdigit()]
            if words:
                yield " ".join(words), body_only
        elif not _HEADER_WORDS.search(chinese) and not _PLACE_WORDS.search(chinese):
            described = _CHINESE_LEAD.sub("", chinese).strip() or chinese
            if len(described) >= 2 and re.search(r"[\u4e00-\u9fff]", described):  # a Latin run is looked up as one
                yield described, body_only


_LOOK_WORDS = re.compile(r"(?:\s+(?:italic|italics|bold|underlined|red|blue|green|black|grey|gray|orange|purple|"
                         r"yellow|larger|smaller|centred|centered))+$", re.IGNORECASE)  # "the paragraph about X italic"
MAX_DESCRIBED = 2  # paragraphs shown per description
MAX_EMBEDDED = 80  # paragraphs embedded per description at most (the encoder takes ~10-30 ms per paragraph)


def _overlaps(description: str, text: str) -> bool:
    """Whether `text` shares a content word (5-letter stems) or, for Chinese, two characters with `description`."""
    if re.search(r"[\u4e00-\u9fff]", description):
        return any(description[i:i + 2] in text for i in range(len(description) - 1))
    stems = {w[:5] for w in re.findall(r"[a-z]{4,}", description.casefold())} - {"about", "which", "there", "their"}
    return any(w[:5] in stems for w in re.findall(r"[a-z]{4,}", text.casefold()))


def described(state: State, text: str) -> list[Match]:
    """Paragraphs `text` describes by what they say ("the paragraph about the logo", "关于停车的那段", "the picnic
    sentence", "野餐那句话"): those sharing a word with the description (no heading for a sentence or paragraph named
    by the words before it), ranked by multilingual-e5 similarity (the intent classifier's encoder); none described in
    what `text` dictates (:func:`dictated`)."""
    text = undictated(text)
    out: list[Match] = []
    body = [p for p in state.get("paragraphs", []) if len(p.get("text", "").strip()) >= 12]
    custom = custom_headings(state)
    for description, body_only in _descriptions(text):
        candidates = [p for p in body if _overlaps(description, p["text"])
                      and not (body_only and heading_level(p.get("style"), custom) is not None)][:MAX_EMBEDDED]
        if not candidates:
            continue
        from autodw.intents.embedding import encoder, passages  # loaded only when a request describes an element

        scores = (passages([p["text"] for p in candidates]) @ encoder().query([description]).T).ravel()
        for i in sorted(range(len(candidates)), key=lambda i: -scores[i])[:MAX_DESCRIBED]:
            p = candidates[i]
            out.append(Match(description, p["id"], "paragraph", "about", p["text"], items=_list_run(state, p["id"])))
    return out
