"""Rule checks of where a call places something against where the request puts it."""

from __future__ import annotations

import json
import re
from typing import Any

from autodw.agent import grounding
from autodw.agent.checks.reading import ANCHOR_KEYS, CJK, MIN_TEXT_CHARS, keyed_strings, loose_text
from autodw.agent.checks.registry import BUILT_ON, Certainty, CheckFinding, State, check

#: an English end: "at the very end", "to the bottom of ...", with what follows "of" (what it is the end of)
_END = re.compile(r"\b(?:at|to)\s+the\s+(?:very\s+)?(?:end|bottom)\b(?:\s+of\s+(?P<of>[^,.;:!?()]*))?",
                  re.IGNORECASE)
#: what an end is of that is the document: the document, doc or file itself (not "the document's last section")
_DOCUMENT = re.compile(r"(?:(?:the|this|that|my|our|your|whole|entire)\s+)*(?:document|doc|file)\b(?!\s*['’]s\b)",
                       re.IGNORECASE)
#: the document's end in Chinese, and what follows it when it is the last of something ("文档最后一节", "文末的表格")
_DOCUMENT_END_ZH = re.compile(r"(?:文档|全文)(?:最后|末尾|结尾)|文末")
_ZH_LAST_OF = re.compile(r"\s*的?\s*[一二两三四五六七八九十几]?\s*[个张节章段项条行列句页部表]")
#: the parts of a document an end may be of, other than the document
_PART = (r"(?:list|bullets?|steps?|items?|points?|section|chapter|part|appendix|table|rows?|columns?|cells?|paragraph|"
         r"sentence|line|heading|header|footer|note|footnote|box|caption|clause|block|page)s?")
#: a request naming another part as where things go: "in the list for ...", "to this table", "under References"
_PLACE_ELSEWHERE = re.compile(rf"\b(?:in|into|within|inside|under|to)\s+(?:(?:the|this|that|these|those|its|their|each)"
                              rf"\s+(?:[\w'’-]+\s+){{0,3}}?{_PART}\b|(?:it|them)\b)|\bunder\s+[\"'“‘]?(?-i:[A-Z])",
                              re.IGNORECASE)


def _ends(request: str) -> tuple[list[tuple[int, str]], list[tuple[int, str]]]:
    """(start, words) of the ends `request` says of the document, and of those it says of something else. An English
    end is the document's when it is said of the document ("at the end of the document"), or when "at the very end" is
    said of nothing and the request names no other part as the place ("In the list ..., add a step at the very end"
    is the list's); the end of anything else ("of it", "of the section") is not. A Chinese end says the document
    (文档最后, 文末), unless it is the last of something (文档最后一节)."""
    document, other = [], []
    for m in _END.finditer(request):
        if m.group("of") is not None:
            named = _DOCUMENT.match(m.group("of"))
            if named:
                document.append((m.start(), request[m.start():m.start("of") + named.end()]))
            else:
                other.append((m.start(), m.group(0)))
        elif re.fullmatch(r"at\s+the\s+very\s+end", m.group(0), re.IGNORECASE) and not _PLACE_ELSEWHERE.search(request):
            document.append((m.start(), m.group(0)))
    for m in _DOCUMENT_END_ZH.finditer(request):
        (other if _ZH_LAST_OF.match(request, m.end()) else document).append((m.start(), m.group(0)))
    return sorted(document), other


def _document_end(request: str) -> str | None:
    """The words by which `request` puts something at the document's end (:func:`_ends`), or None when it does not or
    when it also says an English end of something else (the end it says may be another's)."""
    document, other = _ends(request)
    english_other = [words for _, words in other if not CJK.search(words)]
    return document[0][1] if document and not english_other else None


#: a place beside an element or at the end of another part than the document: "under Contacts", "after p8",
#: 标题底下, 这一段后面, 列表末尾, “Next Steps”部分最后 (a document's end, 文末, is read by :func:`_ends`)
_OTHER_PLACE = re.compile(r"\b(?:under|below|beneath|above|after|before|following)\b|底下|下方|下面|上方|上面|之前|之后|"
                          r"前面|后面|末尾|最后|结尾|底部", re.IGNORECASE)


def _placed_by_document_end(request: str, args: dict[str, Any]) -> bool:
    """Whether the place the request gives what the call writes is the document's end: the nearest place said before
    the first of its texts the request holds (else the first said after it) is an end of the document (:func:`_ends`),
    not one beside an element or at another part's end (文末加落款……；“Next Steps”标题底下列一个列表: the list goes
    under the heading). Places inside quotes or dictated text (:func:`grounding.undictated`) are text, not places. A
    call writing no text the request holds is placed by the document's end it says."""
    folded = grounding.fold(request).casefold()
    texts = [grounding.fold(t).casefold().strip() for key, t in keyed_strings(args) if ANCHOR_KEYS.match(key)]
    found = [folded.find(t) for t in texts if len(t) >= 2 and t in folded]
    if not found:
        return True
    at = min(found)
    bare = grounding.undictated(request)
    document, other = _ends(bare)
    said = document + other
    places = sorted([(start, True) for start, _ in document] + [(start, False) for start, _ in other]
                    + [(m.start(), False) for m in _OTHER_PLACE.finditer(bare)
                       if not any(s <= m.start() < s + len(w) for s, w in said)])
    before = [is_end for start, is_end in places if start < at]
    after = [is_end for start, is_end in places if start > at]
    return before[-1] if before else after[0] if after else True


#: (side, words) in English (before the landmark) and Chinese (after it)
_SIDE_WORDS = {"before": (r"before|above|ahead\s+of|preceding|in\s+front\s+of", r"之前|前面|以前|上方|上面|前"),
               "after": (r"after|below|following|under(?:neath)?|beneath", r"之后|后面|以后|下方|下面|后")}
_FILLER = r"(?:the\s+)?(?:(?:heading|section|paragraph|title|chapter|part)\s+)?"
_TOP_ROW = re.compile(r"at the top|top row|(?:as|a new) first row|最上方|最上面|最前面|顶部|顶端|首行|第一行",
                      re.IGNORECASE)
_BELOW = re.compile(r"\b(?:below|under|after|beneath)\b|下方|下面|之后|后面", re.IGNORECASE)


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


#: hand dev-ninth: what an end is of (dwh-182#3), with its guards (hosted ceiling, noisy oracle on dev); templated
#: dev-outside-third: the place of what the call writes (dwo-206#2, dwo-236#5, dwo-238#5)
@check("not_at_end", certain=Certainty.FIXES, single_request=True,
       tuned_on=BUILT_ON + ("dwbench-2.0/hand/dev", "dwbench-2.0/hand/dev-second", "dwbench-2.0/hand/dev-sixth",
                            "dwbench-2.0/hand/dev-ninth", "dwbench-2.0/hand/dev-twenty-sixth",
                            "dwbench-2.0/hand/dev-twenty-seventh", "dwbench-2.0/templated/dev",
                            "dwbench-2.0/templated/dev-outside-third"))
def not_at_end(args: dict[str, Any], request: str, before: State) -> list[CheckFinding]:
    """The request says "at the end of the document" ("文档最后", "文末") or "at the very end" of nothing else (not of
    "it", a list or a section, nor in a request naming another part as the place; :func:`_document_end`) as the place
    of what the call writes (:func:`_placed_by_document_end`: not a list it puts under a heading) and the call places
    it elsewhere than "end" or after the document's last block (or its trailing empty paragraphs); the fix is
    position "end"."""
    position = args.get("position")
    said = _document_end(request)
    if said is None or position is None or position == "end" or not _placed_by_document_end(request, args):
        return []
    anchor = position.get("after") if isinstance(position, dict) else None
    if anchor is not None and anchor in _last_blocks(before):
        return []
    return [CheckFinding("not_at_end", f'the request says "{said}" but the call places it at {json.dumps(position)}; '
                                  'use position "end"', True, {"position": "end"})]


def _mentions(instruction: str, side: str, landmark: str) -> bool:
    """Whether `instruction` says `side` of the element whose text is `landmark` ("before the appendix"). An element
    whose whole text the request quotes is named by the quote: the same word unquoted is only the word ("新开一章“安装”，
    先一句话说明安装前要准备什么": what to prepare before installing, not a place before the new chapter's title)."""
    english, chinese = _SIDE_WORDS[side]
    quoted = loose_text(landmark) in {loose_text(q.text) for q in grounding.quotes(instruction)}
    opening, closing = (grounding.OPENING, grounding.CLOSING) if quoted else ("", "")
    if CJK.search(landmark):
        head = re.escape(landmark.strip() if quoted else re.split(r"[\s:：,，、.。;；(（]", landmark)[0][:4])
        return re.search(rf"{opening}{head}{closing}[^，。；,;]{{0,10}}?(?:{chinese})", instruction) is not None
    words = re.findall(r"\w+", landmark)
    if not words:
        return False
    name = r"\W+".join(map(re.escape, words[:1] if len(words[0]) >= MIN_TEXT_CHARS else words[:2]))
    return re.search(rf"\b(?:{english})\s+{_FILLER}{opening or grounding.OPENING + '?'}{name}\b", instruction,
                     re.IGNORECASE) is not None


@check("wrong_side", certain=Certainty.FIXES, single_request=True,
       tuned_on=BUILT_ON + ("dwbench-2.0/hand/dev", "dwbench-2.0/hand/dev-seventeenth", "dwbench-2.0/templated/dev"))
def wrong_side(args: dict[str, Any], request: str, before: State) -> list[CheckFinding]:
    """The call places something after an element the request says to place it before ("before the appendix" ->
    after the "Appendix: Methodology" heading), or the other way round; an element mentioned on both sides is not
    checked. The fix is the other side."""
    position = args.get("position")
    if not isinstance(position, dict) or len(position) != 1:
        return []
    side, anchor = next(iter(position.items()))
    other = {"before": "after", "after": "before"}.get(side)
    text = next((p.get("text", "") for p, _ in grounding.paragraphs(before) if p["id"] == anchor), "").strip()
    if other is None or not text or not _mentions(request, other, text) or _mentions(request, side, text):
        return []
    return [CheckFinding("wrong_side", f'the request says {other} "{text[:40]}", the call places it {side} {anchor}', True,
                    {"position": {other: anchor}})]


@check("row_not_on_top", certain=Certainty.FIXES, finding="unnamed_value",
       tuned_on=BUILT_ON + ("dwbench-2.0/hand/dev-eleventh",))
def row_not_on_top(api: str, args: dict[str, Any], request: str) -> list[CheckFinding]:
    """A row the call's own request puts at the top of a table ("放在最上方") inserted lower down; the fix is index 0.
    The top row another request of the message names (". and make the top row bold") places nothing."""
    index = args.get("index")
    if api != "insert_row" or type(index) is not int or index == 0:
        return []
    if not _TOP_ROW.search(request) or _BELOW.search(request):
        return []
    return [CheckFinding("unnamed_value", f"index={index}: the request puts the row at the top (index 0)", True, {"index": 0})]
