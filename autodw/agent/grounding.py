"""Grounding: the texts an instruction quotes, resolved to the document elements they name.

People name elements by what they say: "the "Next Meeting" heading", "the paragraph that starts with
"Testing found twelve defects..."", "“联系方式”这一节". Small models then pick the wrong id. Before the planner and
the API generator run, every quoted text is looked up in the state (exact text, then opening, then containment,
with case, spacing and the width of punctuation ignored) and the matches are shown first, with their ids; a
heading's match also gives the paragraphs under it (its section, up to the next heading of its level or higher). A quote that matches nothing is new text, and is left alone.

The same quotes are the user's characters (:func:`keep_user_characters`): text the user quoted reaches the document
as typed, CJK punctuation included, even when the model rewrote "。" as "." on the way.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Iterator

State = dict[str, Any]

#: Opening -> closing quotation marks. Straight single quotes count only around words (not "project's").
_QUOTE = re.compile(r'"([^"\n]{1,300})"|“([^”\n]{1,300})”|「([^」\n]{1,300})」|『([^』\n]{1,300})』'
                    r"|‘([^’\n]{1,300})’|(?:(?<=^)|(?<=[\s(\[:：]))'([^'\n]{1,300})'(?=$|[\s).,;:!?，。；：])")
_ELLIPSIS = re.compile(r"(?:\.\.\.|…+|\.{2,})\s*$")
MAX_MATCHES = 3  # elements shown per quoted text
MIN_QUOTE_CHARS = 2

#: Full-width / CJK punctuation -> its ASCII twin, one character for one (so positions survive the mapping).
_WIDTH = str.maketrans({"。": ".", "，": ",", "；": ";", "：": ":", "！": "!", "？": "?", "（": "(", "）": ")",
                        "“": '"', "”": '"', "‘": "'", "’": "'", "、": ",", "　": " ", "【": "[", "】": "]"})


def fold(text: str) -> str:
    """`text` with the width of its punctuation folded to ASCII (same length as `text`; case kept)."""
    return text.translate(_WIDTH)


def loose(text: str) -> str:
    """For matching a quote to an element: punctuation width, case and runs of spaces ignored."""
    return " ".join(fold(text).casefold().split())


@dataclass(frozen=True)
class Quote:
    """A quoted text; `opening` when it ended with an ellipsis (it names an element by its first words)."""

    text: str
    opening: bool = False


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


def paragraphs(state: State) -> Iterator[tuple[dict[str, Any], str]]:
    """Body paragraphs, then table-cell paragraphs (with the table's id as kind)."""
    for p in state.get("paragraphs", []):
        yield p, "paragraph"
    for t in state.get("tables", []):
        for r, row in enumerate(t.get("cell_details", []), 1):
            for c, cell in enumerate(row, 1):
                for p in (cell or {}).get("paragraphs", []):  # None: a cell covered by a merge
                    yield p, f"cell of {t['id']} row {r} column {c}"


def _heading_level(style: str | None) -> int | None:
    match = re.search(r"(?:heading|标题)\s*(\d)", style or "", re.IGNORECASE)
    if match:
        return int(match.group(1))
    return 0 if (style or "").casefold() == "title" else None


def _section(state: State, pid: str) -> tuple[str, str] | None:
    """The first and last body paragraph under heading `pid`, up to the next heading of its level or higher."""
    paras = state.get("paragraphs", [])
    start = next((i for i, p in enumerate(paras) if p["id"] == pid), None)
    level = _heading_level(paras[start].get("style")) if start is not None else None
    if level is None:
        return None
    end = start
    for i in range(start + 1, len(paras)):
        other = _heading_level(paras[i].get("style"))
        if other is not None and other <= level:
            break
        end = i
    return (paras[start + 1]["id"], paras[end]["id"]) if end > start else None


def ground(state: State, text: str) -> list[Match]:
    """The elements of `state` that the texts quoted in `text` name (at most MAX_MATCHES per quote, best first)."""
    out: list[Match] = []
    for quote in quotes(text):
        key = loose(quote.text)
        ranked: list[tuple[tuple[int, bool], Match]] = []
        for p, kind in paragraphs(state):
            body = loose(p.get("text", ""))
            if not body:
                continue
            how = ("is" if body == key and not quote.opening else "starts" if body.startswith(key)
                   else "contains" if key in body else None)
            if how is None:
                continue
            rank = ({"is": 0, "starts": 1, "contains": 2}[how], kind != "paragraph")
            under = _section(state, p["id"]) if kind == "paragraph" else None
            ranked.append((rank, Match(quote.text, p["id"], kind, how, p.get("text", ""), under)))
        ranked.sort(key=lambda r: r[0])
        out += [m for _, m in ranked[:MAX_MATCHES]]
    return out


def grounding_lines(matches: list[Match]) -> str:
    """The matches as prompt lines ("" when there are none)."""
    if not matches:
        return ""
    lines = []
    for m in matches:
        where = f"{m.id} ({m.kind})"
        shown = m.text if len(m.text) <= 60 else m.text[:57] + "..."
        line = f'"{m.quote}" -> {where} {"is" if m.how == "is" else m.how + ":"} "{shown}"'
        if m.under:
            line += f"; under it: {m.under[0]}" + (f" to {m.under[1]}" if m.under[1] != m.under[0] else "")
        lines.append(line)
    return "Quoted texts found in the document:\n" + "\n".join(lines)


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
