"""Rule checks of the texts a call writes against the texts the user quoted or said."""

from __future__ import annotations

import re
from difflib import SequenceMatcher
from typing import Any

from autodw.agent import grounding
from autodw.agent.checks.reading import CJK, MIN_TEXT_CHARS, keyed_strings, loose_text
from autodw.agent.checks.registry import BUILT_ON, Certainty, CheckFinding, check
from autodw.core.ids import ID_IN_TEXT

QUOTE_SIMILARITY = 0.75  # a written text this similar to a quote (but not equal) is an altered quote
#: arguments whose whole text the call writes (not texts it searches for, nor table cells and list items, which a
#: quoted caption or heading may begin with)
_WRITTEN = re.compile(r"^(?:text|title|replace|caption|bookmark|name)$")


@check("altered_quote", certain=Certainty.FIXES, tuned_on=BUILT_ON)
def altered_quotes(args: dict[str, Any], instruction: str) -> list[CheckFinding]:
    """A text the call has is close to, but not, a text the user quoted (a colon appended, a letter changed), or a
    text it writes is a quote with whole words added at an end ("sec7" -> "sec7 draft") or with its last words dropped
    ("Key figures" -> "Key") when the shorter text is nowhere else in the request, with case, spacing and punctuation
    width ignored.

    Table cells and list items are not checked for dropped words: on DWBench dev gold they often begin another quote
    ("Task" and the caption "Task status"). The fix is the quoted text, for a top-level text argument."""
    quoted = [q.text for q in grounding.quotes(instruction) if not q.opening]
    keys = {loose_text(q) for q in quoted}
    out = []
    loose_instruction = grounding.loose(instruction)
    for arg, text in keyed_strings(args):
        key = loose_text(text)
        if key in keys or ID_IN_TEXT.fullmatch(text):
            continue
        for quote in quoted:
            q = loose_text(quote)
            similar = len(key) >= MIN_TEXT_CHARS and len(q) >= MIN_TEXT_CHARS and \
                SequenceMatcher(None, key, q).ratio() >= QUOTE_SIMILARITY
            cut = _WRITTEN.match(arg) and q.startswith(key) and _extends(q, key) and \
                not _outside(key, q, loose_instruction)
            if similar or cut or (_WRITTEN.match(arg) and _extends(key, q)):
                fix = {arg: quote} if args.get(arg) == text else None  # a top-level text argument
                out.append(CheckFinding("altered_quote", f'the call writes "{text}" where the user quoted "{quote}"', True, fix))
                break
    return out


def _extends(longer: str, shorter: str) -> bool:
    """Whether `longer` is `shorter` with whole words (or CJK characters after CJK) added at its end or start."""
    if not shorter or len(longer) <= len(shorter):
        return False
    if longer.startswith(shorter):
        return longer[len(shorter)] == " " or bool(CJK.match(longer[len(shorter)]) and CJK.match(shorter[-1]))
    if longer.endswith(shorter):
        return longer[-len(shorter) - 1] == " "
    return False


def _outside(part: str, quote: str, instruction: str) -> bool:
    """Whether `part` of `quote` occurs in `instruction` (all three loose) other than inside the quote."""
    return instruction.count(part) > instruction.count(quote) * quote.count(part)


@check("unasked_separator", certain=Certainty.REJECTS, tuned_on=BUILT_ON)
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
