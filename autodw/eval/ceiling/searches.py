"""The search a perfect planner makes before a step whose targets its view does not show.

The agent's planner may plan a search (``find_text``, an API that only reads): the next planner view is centred on
what it found (:func:`autodw.agent.views.found_last`). A perfect model searches with the user's own words, which it
can type without having seen the target: a run of one to three words of the request or the session's earlier
instructions (of Chinese or Japanese, two to four characters), in any case, as whole words where it begins and ends
with a letter or digit; or a number they say, in digits (a Chinese numeral too), or all of those numbers in one
search. Of those, :func:`best_search` takes the one whose matches come before the most targets (a target within
:data:`NEAR` blocks after a match, in document order as the instruction begins), then the nearest, then the one with
the fewest matches; whether the next view then shows the targets is the ceiling's usual check
(:func:`autodw.eval.ceiling.needs.seen`), so a search that lands elsewhere credits nothing. It chooses knowing where
the targets are: the ceiling is an upper bound, the search of a model that knows which of the user's words to type.
"""

from __future__ import annotations

import re
from typing import Any

from autodw.agent.pointing import CHINESE_NUMERAL, CHINESE_UNITS, chinese_value
from autodw.apis.ooxml.text import find_matches

MAX_SEARCHES = 2  # searches a perfect planner makes before one gold step
NEAR = 12  # blocks after a match within which a target counts as within reach of the view centred on the match
MAX_MATCHES = 50  # find_text's default max_results: a query matching more lists only the first ones
MAX_WORDS = 3  # words of a query
MIN_CHARS = 3  # characters of a query in a script with spaces

_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")  # a word of the user's ("Langwieler's" is one)
_POSSESSIVE = re.compile(r"['’]s$")
_CJK_RUN = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]+")
_CJK_CHARS = (2, 4)  # characters of a query in a script without spaces
_NUMBER = re.compile(rf"\d+|[{CHINESE_NUMERAL}]+")  # a number as the user writes it
_NOT_FIRST = set(CHINESE_UNITS) - {"十"}  # the units no Chinese numeral begins with (十二 does; 万一 is "in case")


def queries(words: str) -> list[str]:
    """The queries a model could type from `words` (the user's): runs of one to :data:`MAX_WORDS` words (a possessive
    "'s" left off), of Chinese or Japanese two to four characters, each once."""
    out: list[str] = []
    for line in words.splitlines():
        tokens = [_POSSESSIVE.sub("", t) for t in _WORD.findall(_CJK_RUN.sub(" ", line))]
        for n in range(1, MAX_WORDS + 1):
            out += [" ".join(tokens[i:i + n]) for i in range(len(tokens) - n + 1)]
        for run in _CJK_RUN.findall(line):
            out += [run[i:i + n] for n in range(_CJK_CHARS[0], _CJK_CHARS[1] + 1) for i in range(len(run) - n + 1)]
    return [q for q in dict.fromkeys(out) if len(q) >= MIN_CHARS or _CJK_RUN.fullmatch(q)]


def numbers(words: str) -> list[str]:
    """The numbers `words` say, in digits: as digits, or in Chinese numerals of two characters or more ("一千" is
    1000, "二〇二五" 2025; not the 三 of "那三行", nor 万一, "in case": no numeral begins with 万, 千 or 百)."""
    said = [n for n in _NUMBER.findall(words) if n.isdigit() or len(n) > 1 and n[0] not in _NOT_FIRST]
    return list(dict.fromkeys(_digits(n) for n in said))


def _digits(numeral: str) -> str:
    """A number in digits; a Chinese numeral without units digit by digit ("二〇二五": 2025)."""
    if not numeral.isdigit() and not any(c in CHINESE_UNITS for c in numeral):
        return "".join(str(chinese_value(c)) for c in numeral)
    return str(chinese_value(numeral))


def searches(words: str) -> list[dict[str, Any]]:
    """find_text's arguments for each search a model could write from `words` (the user's): each of
    :func:`queries`, each number they say in digits (:func:`numbers`), and all those numbers in one search."""
    said = numbers(words)
    together = ([{"query": "|".join(said), "regex": True, "match_case": False, "whole_word": True}]
                if len(said) > 1 else [])
    return [*(search_args(q) for q in queries(words)), *(search_args(n) for n in said), *together]


def search_args(query: str) -> dict[str, Any]:
    """find_text's arguments for `query`: any case, whole words where it begins and ends with a letter or digit."""
    whole = not _CJK_RUN.search(query[0] + query[-1])
    return {"query": query, "match_case": False, "whole_word": whole}


def matched(elements: dict[str, str], args: dict[str, Any]) -> list[str]:
    """The elements (id -> text, in document order) a search with `args` matches, as find_text matches them."""
    return [eid for eid, text in elements.items()
            if find_matches(text, args["query"], regex=args.get("regex", False), match_case=args["match_case"],
                            whole_word=args["whole_word"])]


def best_search(elements: dict[str, str], targets: list[str], words: str, tried: set[str]) -> dict[str, Any] | None:
    """find_text's arguments for the search of `words` (:func:`searches`; its query not in `tried`) whose matches in
    `elements` (id -> text, in document order) have the most `targets` within :data:`NEAR` blocks after one, then the
    nearest, then the fewest matches; None when no search of them has a target within reach."""
    at = {eid: k for k, eid in enumerate(elements)}
    wanted = [at[t] for t in targets if t in at]
    best: tuple[tuple[int, int, int], dict[str, Any]] | None = None
    for args in searches(words):
        if args["query"] in tried:
            continue
        hits = [at[h] for h in matched(elements, args)]
        if not hits or len(hits) > MAX_MATCHES:
            continue
        gaps = [min((t - h for h in hits if 0 <= t - h <= NEAR), default=None) for t in wanted]
        reached = [g for g in gaps if g is not None]
        if not reached:
            continue
        key = (len(reached), -max(reached), -len(hits))
        if best is None or key > best[0]:
            best = (key, args)
    return best[1] if best else None
