"""Rule checks of where a call places something against where the request puts it."""

from __future__ import annotations

import json
import re
from typing import Any

from autodw.agent import grounding
from autodw.agent.checks.reading import CJK, MIN_TEXT_CHARS
from autodw.agent.checks.registry import BUILT_ON, Certainty, CheckFinding, State, check

_DOCUMENT_END = re.compile(r"(?:at|to) the (?:very )?end of the document|at the very end|(?:at|to) the bottom of the "
                           r"document|文档最后|文档末尾|文档结尾|文末|全文最后|全文末尾|全文结尾", re.IGNORECASE)
#: (side, words) in English (before the landmark) and Chinese (after it)
_SIDE_WORDS = {"before": (r"before|above|ahead\s+of|preceding|in\s+front\s+of", r"之前|前面|以前|上方|上面|前"),
               "after": (r"after|below|following|under(?:neath)?|beneath", r"之后|后面|以后|下方|下面|后")}
_FILLER = r"(?:the\s+)?(?:(?:heading|section|paragraph|title|chapter|part)\s+)?[\"'“‘]?"
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


@check("not_at_end", certain=Certainty.FIXES, single_request=True, tuned_on=BUILT_ON)
def not_at_end(args: dict[str, Any], request: str, before: State) -> list[CheckFinding]:
    """The request says "at the end of the document" ("文档最后", "文末") and the call places something elsewhere than
    "end" or after the document's last block (or its trailing empty paragraphs); the fix is position "end"."""
    position = args.get("position")
    said = _DOCUMENT_END.search(request)
    if said is None or position is None or position == "end":
        return []
    anchor = position.get("after") if isinstance(position, dict) else None
    if anchor is not None and anchor in _last_blocks(before):
        return []
    return [CheckFinding("not_at_end", f'the request says "{said.group(0)}" but the call places it at {json.dumps(position)}; '
                                  'use position "end"', True, {"position": "end"})]


def _mentions(instruction: str, side: str, landmark: str) -> bool:
    """Whether `instruction` says `side` of the element whose text is `landmark` ("before the appendix")."""
    english, chinese = _SIDE_WORDS[side]
    if CJK.search(landmark):
        head = re.escape(re.split(r"[\s:：,，、.。;；(（]", landmark)[0][:4])
        return re.search(rf"{head}[^，。；,;]{{0,10}}?(?:{chinese})", instruction) is not None
    words = re.findall(r"\w+", landmark)
    if not words:
        return False
    name = r"\W+".join(map(re.escape, words[:1] if len(words[0]) >= MIN_TEXT_CHARS else words[:2]))
    return re.search(rf"\b(?:{english})\s+{_FILLER}{name}\b", instruction, re.IGNORECASE) is not None


@check("wrong_side", certain=Certainty.FIXES, single_request=True, tuned_on=BUILT_ON)
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


@check("row_not_on_top", certain=Certainty.FIXES, finding="unnamed_value", tuned_on=BUILT_ON)
def row_not_on_top(api: str, args: dict[str, Any], request: str) -> list[CheckFinding]:
    """A row the request puts at the top of a table ("放在最上方") inserted lower down; the fix is index 0."""
    index = args.get("index")
    if api != "insert_row" or type(index) is not int or index == 0:
        return []
    if not _TOP_ROW.search(request) or _BELOW.search(request):
        return []
    return [CheckFinding("unnamed_value", f"index={index}: the request puts the row at the top (index 0)", True, {"index": 0})]
