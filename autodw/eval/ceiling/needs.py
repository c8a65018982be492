"""What a gold call needs a prompt to show, whether a prompt shows it, and the step a perfect planner writes for it.

A call needs its element ids shown (in the document view, or in the step history that names what earlier steps
made), the rows of a table it acts on shown under the table's line (a row the user numbers excepted; a new row needs
a row beside its place shown, unless it goes first or last), and its literal values shown: a text the user typed (in
the user's words) or one the document holds (where the document view shows it). Values a person or model interprets
rather than copies are not checked: an argument's choice (an enum, or a value its documentation quotes: 'default
"Table Grid"'), a length, a colour, a number, a boolean, and a text that is in neither the user's words nor the
document (a hex colour for "light blue", a sum of a table's column, an asset's file name); each check says which
values it left to interpretation.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Iterator

from autodw.agent.grounding import loose, unspaced
from autodw.agent.pointing import CHINESE_NUMERAL, chinese_value
from autodw.apis.registry import ApiSpec
from autodw.core.ids import ID_RE, prefixes_of_pattern
from autodw.eval.ceiling.reading import document_text, holds_words, shown_ids, shown_rows

MIN_VALUE_CHARS = 2  # a shorter text is not checked (it would be found anywhere)
MIN_RESPELT_CHARS = 5  # a shorter text one letter from a word of the user's is not read as a misspelling's fix
PHRASE_VALUE_CHARS = 80  # a text value quoted in a step's phrasing is cut to this many characters
PHRASE_ITEMS = 6  # items of a list argument quoted in a step's phrasing
_NUMBER = re.compile(r"^[-+]?[\d.,\s]+%?$")


#: the arguments that name a row of the call's table (a cell's [row, col], a rectangle's "from", a whole row's "row"
#: count by their first number); "index" names one in the APIs given, a new row's place for insert_row
ROW_ARGUMENTS = ("row", "first_row", "start_row", "copy_format_from", "cells")
ROW_INDEX_APIS = {"delete_row": "row", "insert_row": "place"}
#: the last row, which the table's line numbers (its number of rows)
LAST_SAID = re.compile(r"\b(?:last|final|bottom)\s+row\b|最后一行|末行|倒数第一行", re.IGNORECASE)
#: a row the user numbers: "row 11", "the 11th row", "第11行", "第三行"
ROW_SAID = re.compile(rf"\brow\s+(\d+)\b|\b(\d+)(?:st|nd|rd|th)\s+row\b|第\s*(\d+|[{CHINESE_NUMERAL}]+)\s*行",
                      re.IGNORECASE)


@dataclass(frozen=True)
class Needs:
    """What a call needs shown: the element ids it names, the texts it copies and the rows of its table it acts on
    ((table, row) pairs; a new row's place as (table, -1 - index))."""

    ids: tuple[str, ...]
    texts: tuple[str, ...]
    rows: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True)
class Seen:
    """What one check of a prompt found: the ids and texts it does not show (`missing_ids`; `hidden`: texts the
    document holds but the view does not show) and the texts left to interpretation (in neither the user's words
    nor the document)."""

    missing_ids: tuple[str, ...] = ()
    hidden: tuple[str, ...] = ()
    interpreted: tuple[str, ...] = ()
    missing_rows: tuple[tuple[str, int], ...] = ()

    @property
    def shown(self) -> bool:
        return not self.missing_ids and not self.hidden and not self.missing_rows

    def detail(self) -> str:
        """What is missing, in words."""
        parts = []
        if self.missing_ids:
            parts.append(f"element(s) {', '.join(self.missing_ids)} not shown")
        if self.missing_rows:
            parts.append("row(s) " + ", ".join(f"{t} r{r}" if r >= 0 else f"{t} beside r{-1 - r}"
                                               for t, r in self.missing_rows) + " not shown")
        if self.hidden:
            parts.append("value(s) " + ", ".join(repr(_cut(t, 60)) for t in self.hidden)
                         + " in the document but not in the view")
        return "; ".join(parts)


_QUOTED_IN_DOC = re.compile(r'"([^"]{2,40})"')


def _free_values(schema: Any) -> tuple[set[Any], list[str]]:
    """The enum choices, the values its descriptions quote (a default, an example: 'default "Table Grid"') and the
    non-id patterns anywhere in an argument's schema: the API's documentation gives them."""
    choices: set[Any] = set()
    patterns: list[str] = []
    stack = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, list):
            stack += node
        elif isinstance(node, dict):
            choices.update(v for v in node.get("enum", ()) if isinstance(v, (str, int, float, bool)))
            if isinstance(node.get("description"), str):
                choices.update(_QUOTED_IN_DOC.findall(node["description"]))
            pattern = node.get("pattern")
            if isinstance(pattern, str) and not prefixes_of_pattern(pattern):
                patterns.append(pattern)
            stack += [v for k, v in node.items() if k not in ("enum", "pattern", "description")]
    return choices, patterns


def _leaves(value: Any) -> Iterator[str]:
    """The strings of an argument's value (nested lists and objects included; object keys are names, not values)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for item in value:
            yield from _leaves(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _leaves(item)


def needs(spec: ApiSpec, args: dict[str, Any]) -> Needs:
    """The ids and copied texts of the call `spec.name(args)` (see the module docstring)."""
    ids: list[str] = []
    texts: list[str] = []
    for name, value in args.items():
        choices, patterns = _free_values(spec.parameters["properties"].get(name, {}))
        for leaf in _leaves(value):
            text = leaf.strip()
            if ID_RE.match(text):
                ids.append(text)
            elif (len(text) < MIN_VALUE_CHARS or text in choices or _NUMBER.match(text)
                  or any(re.fullmatch(p.strip("^$"), text) for p in patterns)):
                continue
            else:
                texts.append(text)
    return Needs(tuple(dict.fromkeys(ids)), tuple(dict.fromkeys(texts)), tuple(dict.fromkeys(_rows(spec.name, args))))


def _rows(api: str, args: dict[str, Any]) -> Iterator[tuple[str, int]]:
    """The (table, row) pairs call `api(args)` acts on (:data:`ROW_ARGUMENTS`, :data:`ROW_INDEX_APIS`); a new row's
    place as (table, -1 - index)."""
    table = args.get("table")
    if not isinstance(table, str):
        return
    for name in ROW_ARGUMENTS:
        value = args.get(name)
        if name == "start_row" and value == 0:
            continue  # fill_table's default: the table's start, which its line shows
        if _row_number(value):
            yield table, value
        elif isinstance(value, list):
            yield from ((table, pair[0]) for pair in value
                        if isinstance(pair, list) and pair and _row_number(pair[0]))
        elif isinstance(value, dict):
            start = value.get("from")
            first = value["row"] if "row" in value else start[0] if isinstance(start, list) and start else None
            if _row_number(first):
                yield table, first
    index = args.get("index")
    if api in ROW_INDEX_APIS and _row_number(index):
        yield table, index if ROW_INDEX_APIS[api] == "row" else -1 - index


def seen(need: Needs, *, state: str, history: str, words: str, document: str) -> Seen:
    """Whether a prompt shows what `need` lists: an id in its document view (`state`: :func:`shown_ids`) or its step
    history; a text in the user's `words` (as whole words), or, when the `document` holds it as whole words (else the
    text is read from the request: interpreted), as whole words in what the view or the step history's reports
    (:func:`reported`: what an earlier step read or removed) show of the document, the renderer's own syntax left out
    (:func:`document_text`: "title=" is no title) (`document`: the document rendered whole, read by
    :func:`document_text` and :func:`~autodw.agent.grounding.loose`)."""
    ids = shown_ids(state, history)
    in_words, in_view, in_document = loose(words), loose(document_text("\n".join([state, *reported(history)]))), document
    hidden, interpreted = [], []
    for text in need.texts:
        key = loose(text)
        if holds_words(in_words, key) or holds_words(in_view, key):
            continue
        told = not holds_words(in_document, key) or respelt(key, in_words, in_document) or edited(key, in_view, in_words)
        (interpreted if told else hidden).append(text)
    return Seen(tuple(i for i in need.ids if i not in ids), tuple(hidden), tuple(interpreted),
                unshown_rows(need.rows, state=state, history=history, words=words))


def rows_said(words: str) -> set[int]:
    """The row numbers `words` say next to a row word (:data:`ROW_SAID`; counted from 1 or 0 alike by the caller)."""
    out = set()
    for match in ROW_SAID.finditer(words):
        said = next(g for g in match.groups() if g)
        out.add(int(said) if said.isdigit() else chinese_value(said))
    return out


def _row_number(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def unshown_rows(rows: tuple[tuple[str, int], ...], *, state: str, history: str,
                 words: str) -> tuple[tuple[str, int], ...]:
    """Of `rows` ((table, row); a new row's place as (table, -1 - index)), those whose line the view or the step history
    does not show under their table's line (a table not shown at all is a missing id already): not a row the user's
    `words` number (:func:`rows_said`: "row 11", "第三行"; counted from 1 or 0) or call the last row
    (:data:`LAST_SAID`: the table's line gives its number of rows), nor a new row's place at the table's start or end,
    or beside a shown row."""
    tables, said = shown_rows(state, history), rows_said(words)
    out = []
    for table, row in rows:
        if table not in tables:
            continue
        count, shown = tables[table]
        if row < 0:
            place = -1 - row
            if place == 0 or place >= count or {place - 1, place} & shown:
                continue
        elif (row in shown or row >= count or {row, row + 1} & said
              or row == count - 1 and LAST_SAID.search(words)):
            continue
        out.append((table, row))
    return tuple(out)


def respelt(key: str, words: str, document: str) -> bool:
    """Whether `key` (of :data:`MIN_RESPELT_CHARS` characters or more) is a word of `words` that `document` holds, or
    as many words one after the other, respelt by one letter added, dropped, changed or two swapped: the fix of a
    misspelling the user quotes from the document ("fix 'condideration'"), which a model writes from the user's words,
    wherever else the document holds it (the document's own spelling of a word the user spells right is still read
    from the view)."""
    if len(key) < MIN_RESPELT_CHARS:
        return False
    return any(_one_edit(key, gram) and gram in document for gram in _grams(words, len(key.split())))


def edited(key: str, view: str, words: str) -> bool:
    """Whether `key` (of :data:`MIN_RESPELT_CHARS` characters or more) is as many words one after the other of the
    `view` with one letter added, dropped, changed or two swapped, in punctuation or in a word of the user's `words`:
    the edit a request asks of a text the view shows, which a model writes from the two wherever else the document
    holds the result ("it says استو, should be است" of a shown "استو و سلام"; a shown "objectivos." given a semicolon).
    """
    if len(key) < MIN_RESPELT_CHARS:
        return False
    said = {token.strip(_TRIM) for token in words.split()}
    for gram in _grams(view, len(key.split())):
        if _one_edit(key, gram):
            changed = [(a, b) for a, b in zip(key.split(), gram.split()) if a != b]
            if len(changed) == 1 and (changed[0][0].strip(_TRIM) == changed[0][1].strip(_TRIM)
                                      or changed[0][0].strip(_TRIM) in said):
                return True
    return False


_TRIM = "'\"‘’“”.,;:!?()"


def _grams(text: str, n: int) -> Iterator[str]:
    """The runs of `n` words of `text`, their ends' quotes and punctuation trimmed."""
    tokens = text.split()
    return (" ".join(tokens[i:i + n]).strip(_TRIM) for i in range(len(tokens) - n + 1))


def _one_edit(a: str, b: str) -> bool:
    """Whether `a` and `b` differ by one letter added, dropped or changed, or two neighbours swapped."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    start = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    if len(a) == len(b):
        return a[start + 1:] == b[start + 1:] or (a[start + 2:] == b[start + 2:] and a[start:start + 2] == b[start:start + 2][::-1])
    return a[start + 1:] == b[start:] if len(a) > len(b) else a[start:] == b[start + 1:]


def reported(history: str) -> list[str]:
    """What a step history reports of the document: an accepted step's outcome (after ``-> ok:``) and the lines that
    are not steps (the elements as they are now); not the steps' sub-instructions and calls (the planner's words, which
    a value must not be taken from), nor a failure's error."""
    out = []
    for line in history.splitlines():
        if not _STEP_LINE.match(line):
            out.append(line)
        elif " -> ok: " in line:
            out.append(line.rsplit(" -> ok: ", 1)[1])
    return out


_STEP_LINE = re.compile(r"^\d+\. .* -> (?:ok|FAILED): ")


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _value_words(value: Any, texts: set[str]) -> str:
    """An argument's value as a step's phrasing gives it: the copied `texts` quoted, other values (ids, choices,
    lengths, numbers) as they are, lists joined."""
    if isinstance(value, str):
        text = value.strip()
        if text not in texts:
            return text
        mark = ("“", "”") if '"' in text else ('"', '"')
        return f"{mark[0]}{_cut(text, PHRASE_VALUE_CHARS)}{mark[1]}"
    if isinstance(value, list):
        shown = ", ".join(_value_words(v, texts) for v in value[:PHRASE_ITEMS])
        return shown + (f" and {len(value) - PHRASE_ITEMS} more" if len(value) > PHRASE_ITEMS else "")
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} {_value_words(v, texts)}" for k, v in value.items()) + "}"
    return json.dumps(value)


def phrase(spec: ApiSpec, args: dict[str, Any]) -> str:
    """The step a perfect planner writes for the call: what the API does (the main clause of the first sentence of its
    description: without its asides in brackets, up to its first comma, colon or semicolon), then the call's elements
    and exact values, as the planner's prompt asks ("what to change, where (by element id), and the exact values"),
    the texts it copies quoted."""
    purpose = re.sub(r"\s*\([^()]*\)", "", spec.purpose).replace("`", "").strip().rstrip(".")
    purpose = re.split(r",\s|:\s|;\s", purpose, maxsplit=1)[0]
    texts = set(needs(spec, args).texts)
    values = "; ".join(f"{name.replace('_', ' ')} {_value_words(value, texts)}" for name, value in args.items())
    return f"{purpose}: {values}." if values else f"{purpose}."


def evidence(spec: ApiSpec, args: dict[str, Any], text: str,
             elements: dict[str, str] | None = None) -> tuple[int, int, int]:
    """How strongly `text` names the call ``spec.name(args)``, to tell which request of a compound message a call
    serves: how many of its copied texts it names, with the elements it acts on that `text` quotes (`elements`: each
    id's text in the document), then how often it says the words that name the call's kind of change (the rule
    checks' word lists: the API's thing, the flags it sets; once each property it gives a value), then how many of
    its other values (choices, lengths; not its ids)."""
    from autodw.agent.checks.reading import api_words, word_list
    from autodw.agent.grounding import quotes

    squeezed = unspaced(text)
    texts = {unspaced(t) for t in needs(spec, args).texts}
    values = {unspaced(leaf) for value in args.values() for leaf in _leaves(value)
              if len(leaf.strip()) >= MIN_VALUE_CHARS and not ID_RE.match(leaf.strip())} - texts
    targets = [loose((elements or {}).get(i, "")) for i in needs(spec, args).ids]
    quoted = [loose(q.text) for q in quotes(text)]
    named = sum(1 for target in targets if target and any(q in target for q in quoted))
    words = word_list("value_words.json")
    flags, properties = words["flags"], words["properties"]
    kind = [len(w.findall(text)) for w in api_words().get(spec.name, [])]
    kind += [len(re.findall(flags[k], text, re.IGNORECASE)) for k, v in args.items() if v is True and k in flags]
    kind += [1 for k, v in args.items() if k in properties and v is not None and not isinstance(v, bool)
             and re.search(properties[k], text, re.IGNORECASE)]  # once: a colour's words recur ("黄色底色")
    return sum(1 for t in texts if t in squeezed) + named, sum(kind), sum(1 for v in values if v in squeezed)
