"""How the rule checks read a call and a request: loose texts, the call's strings, the word lists, the own request."""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any, Iterable, Iterator

from autodw.agent import grounding, requests
from autodw.analysis.state import State
from autodw.analysis.state.effective import Formatting
from autodw.apis.ooxml.text import find_matches
from autodw.core.errors import ArgumentError, ConfigError
from autodw.core.ids import ID_IN_TEXT

MIN_TEXT_CHARS = 4
CJK = re.compile(r"[\u3040-\u9fff]")
#: the folder of the word lists (api_words.json, value_words.json): autodw/agent
_WORD_LISTS = Path(__file__).resolve().parent.parent
_folder = _WORD_LISTS
WORD_LISTS = ("api_words.json", "value_words.json")


def loose_text(text: str) -> str:
    """:func:`grounding.loose` without the punctuation at the ends ("Contacts:" is "Contacts")."""
    return grounding.loose(text).strip(" .,;:!?\"'")


def target_paragraphs(args: dict[str, Any], state: State) -> list[dict[str, Any]] | None:
    """The paragraphs of `state` (body and table cells) a call's ``paragraphs`` argument names, in its order; None
    when it names none, or one the state lacks (a table id)."""
    targets = args.get("paragraphs")
    targets = [targets] if isinstance(targets, str) else targets if isinstance(targets, list) else []
    found = {p.get("id"): p for p, _ in grounding.paragraphs(state)}
    if not targets or any(t not in found for t in targets):
        return None
    return [found[t] for t in targets]


def drawing(element: Any, state: State) -> dict[str, Any] | None:
    """The picture or chart `element` (an id) of the state, or None."""
    return next((i for i in state.get("images", []) if i.get("id") == element), None)


def one_value(values: Iterable[Any] | None) -> set[Any]:
    """`values` (what each thing a call changes has now) as a set when they are all one value; else none. A request
    naming the value everything the call changes has now says what is there, not what to make it."""
    now = set(values or ())
    return now if len(now) == 1 else set()


def values_now(key: str, api: str, args: dict[str, Any], before: State) -> set[Any] | None:
    """The values the character property `key` has now, as it looks (styles resolved), in the runs with text of the
    text the call changes (:func:`changed_stretches`), or in the style ``modify_style`` changes; None for a paragraph or
    style not in the state or text it cannot read."""
    looks = Formatting(before["styles"])
    if api == "modify_style":
        name = args.get("name")
        return {looks.style(name).get(key)} if isinstance(name, str) and looks.chain(name) else None
    found = changed_stretches(api, args, before)
    if not found:
        return None
    now = set()
    for paragraph, start, end in found:
        runs, at = [], 0
        for run in paragraph.get("runs", []):
            runs.append((at, at + len(run.get("text", "")), run))
            at += len(run.get("text", ""))
        chosen = [r for a, b, r in runs if a < end and b > start and r.get("text", "").strip()]
        if not chosen:
            return None
        now |= {looks.run(r, paragraph.get("style")).get(key) for r in chosen}
    return now


def runs_text(paragraph: dict[str, Any]) -> str:
    """The text of a paragraph's runs."""
    return "".join(r.get("text", "") for r in paragraph.get("runs", []))


def changed_stretches(api: str, args: dict[str, Any], before: State) -> list[tuple[dict[str, Any], int, int]] | None:
    """(paragraph, start, end) of the text a call changes: every match of format_matches' ``find`` in the paragraphs
    it searches ("把加粗的 Donec 改成斜体"), else each of the call's paragraphs whole, or its ``span``'s match there;
    None when it cannot be read (a paragraph not in the state, a span given otherwise, text chosen by its
    formatting, or searched in the headers and footers too)."""
    if api == "format_matches":
        find = args.get("find")
        if not isinstance(find, str) or not find or args.get("having") or args.get("scope") == "all":
            return None
        paragraphs = target_paragraphs(args, before) if args.get("paragraphs") else \
            [p for p, _ in grounding.paragraphs(before)]
        try:
            return [(p, a, b) for p in paragraphs or [] for a, b, _ in
                    find_matches(runs_text(p), find, regex=bool(args.get("regex")),
                                 match_case=args.get("match_case") is not False, whole_word=bool(args.get("whole_word")))]
        except ArgumentError:
            return None
    paragraphs, span = target_paragraphs(args, before), args.get("span")
    if paragraphs is None or (span is not None and "match" not in span):
        return None
    out = []
    for paragraph in paragraphs:
        start, end = 0, len(runs_text(paragraph))
        if span is not None:
            start = runs_text(paragraph).find(str(span["match"]))
            if start < 0:
                return None
            end = start + len(str(span["match"]))
        out.append((paragraph, start, end))
    return out


def keyed_strings(value: Any, key: str = "") -> Iterator[tuple[str, str]]:
    """(argument name, text) of every string in the arguments; list items keep their list's name."""
    if isinstance(value, str):
        yield key, value
    elif isinstance(value, list):
        for v in value:
            yield from keyed_strings(v, key)
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from keyed_strings(v, key if k == "text" and key == "items" else k)


def without_tripled_letters(text: str) -> str:
    """`text` with a letter typed three times or more read as twice ("commment" is "comment"): a slip of the keys,
    not a word of its own (no English word has a letter three times in a row)."""
    return re.sub(r"([A-Za-z])\1{2,}", r"\1\1", text)


def named(pattern: str, instruction: str) -> bool:
    """Whether `instruction` says `pattern` (a regular expression, case ignored). Its word boundaries and classes
    are ASCII's: an English word written straight after a Chinese character is a word of its own ("换成line chart")."""
    return re.search(pattern, instruction, re.IGNORECASE | re.ASCII) is not None


@cache
def word_list(name: str) -> dict[str, Any]:
    """A word list of the checks (``api_words.json``, ``value_words.json``), read once."""
    return json.loads((_folder / name).read_text(encoding="utf-8"))


@cache
def api_words() -> dict[str, list[re.Pattern[str]]]:
    """``api_words.json`` compiled: an API -> the patterns a request must all match to name what it makes."""
    return {api: [re.compile(w, re.IGNORECASE) for w in ([words] if isinstance(words, str) else words)]
            for api, words in word_list("api_words.json").items() if not api.startswith("_")}


#: a word of an argument's or API's name: letters only, three or more ("pt", "id" say no property)
_NAME_WORD = re.compile(r"[a-z]{3,}")


def _name_pattern(words: list[str]) -> str:
    """A pattern saying any of `words` as a whole English word, plural or verb forms allowed ("pages", "breaks")."""
    return r"\b(?:" + "|".join(map(re.escape, words)) + r")(?:s|es|ed|ing)?\b"


@cache
def catalogue_words(api: str) -> dict[str, str]:
    """What the API catalogue itself names `api`'s arguments by, read from their names: an argument -> a pattern of
    the words of its name (``page_break_before``: page, break) that no other argument of `api` has (``space_before``
    and ``space_after`` share space) and that say what, not where or how (``catalogue_relations`` of
    ``value_words.json``: before, after, with...); {} for an API the catalogue lacks. A request saying one of them
    names the argument, alongside the word lists: "start on a fresh page" names page_break_before."""
    from autodw.apis import registry

    if api not in registry():
        return {}
    relations = set(word_list("value_words.json")["catalogue_relations"])
    names = {key: set(_NAME_WORD.findall(key)) - relations for key in registry().get(api).parameters["properties"]}
    out = {}
    for key, words in names.items():
        own = sorted(w for w in words if not any(w in other for k, other in names.items() if k != key))
        if own:
            out[key] = _name_pattern(own)
    return out


@cache
def catalogue_thing(api: str) -> str | None:
    """A pattern of what the catalogue names the thing `api` makes or changes by: the words of its name after the
    verb, said together in their order (``insert_page_break``: "page break", not "page ... section breaks";
    ``resize_image``: image); None for a one-word name."""
    words = [w for w in _NAME_WORD.findall(api)[1:]
             if w not in set(word_list("value_words.json")["catalogue_relations"])]
    return r"\b" + r"[\s_-]+".join(rf"{re.escape(w)}(?:s|es|ed|ing)?" for w in words) + r"\b" if words else None


def catalogue_value(value: str) -> str:
    """A pattern of an enumerated value said in its own words (``line``; ``new_page``: "new page")."""
    return r"\b" + r"[\s_-]*".join(map(re.escape, value.split("_"))) + r"\b"


def use_word_lists(folder: Path | None) -> None:
    """Read the word lists from `folder` from now on (candidate lists, tried before they are written; None: the
    package's own); ConfigError if it lacks one. Processes forked afterwards inherit it."""
    global _folder
    folder = _WORD_LISTS if folder is None else Path(folder)
    missing = [name for name in WORD_LISTS if not (folder / name).is_file()]
    if missing:
        raise ConfigError(f"{folder} has no {' or '.join(missing)}")
    _folder = folder
    for cached in (word_list, api_words, catalogue_words, catalogue_thing):
        cached.cache_clear()


#: arguments whose texts tie a call to one request of a compound instruction (texts it writes or looks for)
ANCHOR_KEYS = re.compile(r"^(?:text|title|replace|find|match|caption|bookmark|name|items|data|categories|label|"
                         r"comment|alt_text|description)$")


def own_request(instruction: str, args: dict[str, Any]) -> str:
    """The request of a compound instruction (:func:`requests.split`) a call serves: the only one in which the texts
    it writes or looks for occur; else the whole instruction. A single request is its own."""
    parts = requests.split(instruction)
    if len(parts) < 2:
        return instruction
    texts = {loose_text(t) for key, t in keyed_strings(args)
             if ANCHOR_KEYS.match(key) and not ID_IN_TEXT.fullmatch(t) and len(loose_text(t)) >= 2}
    loose_parts = [grounding.loose(part) for part in parts]
    hits = [part for part, loose_part in zip(parts, loose_parts) if any(t in loose_part for t in texts)]
    return hits[0] if len(hits) == 1 else instruction


def list_kind_made(args: dict[str, Any], before: State) -> Any:
    """The kind of list an ``insert_list`` call makes: its ``kind``, or without one the kind of the list item right
    before where its items go, else right after (whose list they continue, as the API does), else "bullet"."""
    if args.get("kind"):
        return args["kind"]
    return next((kind for item in items_beside(args, before) if (kind := item.get("kind")) in ("bullet", "numbered")),
                "bullet")


def items_beside(args: dict[str, Any], before: State) -> list[dict[str, Any]]:
    """The ``list`` entries of the paragraphs right before and right after where an ``insert_list`` call puts its
    items (``position`` after or before a paragraph), of those that are list items, the one before first."""
    return [item for item in items_around(args, before) if item]


def items_around(args: dict[str, Any], before: State) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    """The ``list`` entries of the paragraphs right before and right after where an ``insert_list`` call puts its
    items, each None where that paragraph is no list item (or there is none, or the position is not one)."""
    position, paras = args.get("position"), before.get("paragraphs", [])
    side, anchor = next(iter(position.items())) if isinstance(position, dict) and len(position) == 1 else (None, None)
    at = next((i for i, p in enumerate(paras) if p.get("id") == anchor), None)
    if side not in ("after", "before") or at is None:
        return None, None
    first = at + 1 if side == "after" else at  # the index the first item takes
    previous, following = (paras[j].get("list") or None if 0 <= j < len(paras) else None for j in (first - 1, first))
    return previous, following
