"""Argument schema fragments shared by the APIs (ids, positions, spans, lengths, colours)."""

from __future__ import annotations

from typing import Any

from autodw.core.ids import schema_pattern
from autodw.core.units import NAMED_COLORS, UNIT_NAMES

Schema = dict[str, Any]

LENGTH_PATTERN = r"^[0-9]+([.][0-9]+)?(cm|mm|in|pt|px)$"  # [.] not \. : llama.cpp grammars reject escapes
HEX_COLOR_PATTERN = r"^#?[0-9A-Fa-f]{6}$"
COLOR_NAMES = tuple(NAMED_COLORS)
HIGHLIGHTS = ("yellow", "green", "cyan", "magenta", "blue", "red", "darkBlue", "darkCyan", "darkGreen",
              "darkMagenta", "darkRed", "darkYellow", "darkGray", "lightGray", "black", "white", "none")


def id_of(prefixes: str, what: str) -> Schema:
    """An element id with one of the given prefixes (:data:`autodw.core.ids.KINDS`), e.g. ``id_of("p|t", "paragraph or table")``."""
    return {"type": "string", "pattern": schema_pattern(prefixes.split("|")),
            "description": f"{what} id from the document state"}


PARAGRAPH_ID = id_of("p", "paragraph (e.g. \"p12\")")
TABLE_ID = id_of("t", "table (e.g. \"t1\")")
BLOCK_ID = id_of("p|t", "paragraph or table")
IMAGE_ID = id_of("img", "picture (e.g. \"img1\")")
CHART_ID = id_of("chart", "chart (e.g. \"chart1\")")
DRAWING_ID = id_of("img|chart|shape", "picture, chart or shape")
PARAGRAPH_IDS = {"type": "array", "items": PARAGRAPH_ID, "minItems": 1,
                 "description": "list of paragraph ids from the document state"}

POSITION: Schema = {
    "description": 'where to insert: "start" or "end" of the document, or {"after": ID} / {"before": ID} '
                   "with the id of a paragraph or table",
    "oneOf": [
        {"type": "string", "enum": ["start", "end"]},
        {"type": "object", "properties": {"after": BLOCK_ID}, "required": ["after"], "additionalProperties": False},
        {"type": "object", "properties": {"before": BLOCK_ID}, "required": ["before"], "additionalProperties": False},
    ],
}

SPAN: Schema = {
    "description": 'part of the paragraph\'s text: {"match": TEXT} (first occurrence), {"match": TEXT, "occurrence": N} '
                   '(N-th, from 1) or {"start": I, "end": J} character offsets; omit for the whole paragraph',
    "oneOf": [
        {"type": "object", "properties": {"match": {"type": "string", "minLength": 1},
                                          "occurrence": {"type": "integer", "minimum": 1}},
         "required": ["match"], "additionalProperties": False},
        {"type": "object", "properties": {"start": {"type": "integer", "minimum": 0},
                                          "end": {"type": "integer", "minimum": 0}},
         "required": ["start", "end"], "additionalProperties": False},
    ],
}


#: the schema keyword of a length argument whose description states the unit of a bare number (12 = "12pt"):
#: validation (autodw.apis.calls.validate_arguments) writes such a number with its unit
BARE_UNIT = "x-bare-unit"


def length(what: str, bare_unit: str | None = None) -> Schema:
    """A length with unit; with `bare_unit` (the unit Word shows it in, e.g. "pt" for paragraph spacing) also a bare
    number in that unit (anyOf, not a list of types: llama.cpp's grammar keeps the pattern of a branch only). Without
    one a bare number is ambiguous (8 what?) and refused."""
    forms = 'a number with unit cm, mm, in, pt or px, e.g. "2.5cm", "1in", "12pt"'
    if bare_unit is None:
        return {"type": "string", "pattern": LENGTH_PATTERN, "description": f"{what}, {forms}"}
    return {"anyOf": [{"type": "string", "pattern": LENGTH_PATTERN}, {"type": "number", "minimum": 0}],
            BARE_UNIT: bare_unit, "description": f"{what}: a number of {UNIT_NAMES[bare_unit]} (e.g. 12) or {forms}"}


def color(what: str, none: str | None = None, auto: str | None = None) -> Schema:
    """A colour: hex RGB or a common name; with `none` / `auto` (what each does, e.g. "removes it") also "none" /
    "auto" (Word's Automatic colour)."""
    names = [*COLOR_NAMES, *(["none"] if none else []), *(["auto"] if auto else [])]
    said = (f'; "none" {none}' if none else "") + (f'; "auto" {auto}' if auto else "")
    return {"type": "string", "description": f'{what}: a name ({", ".join(COLOR_NAMES[:10])}, ...) or hex RGB like '
                                             f'"1F4E79"{said}', "anyOf": [{"pattern": HEX_COLOR_PATTERN}, {"enum": names}]}


def enum(what: str, values: tuple[str, ...] | list[str]) -> Schema:
    """A string from a fixed list."""
    return {"type": "string", "enum": list(values), "description": f"{what}; one of: {', '.join(values)}"}


def text(what: str, min_length: int = 0) -> Schema:
    """A string."""
    out: Schema = {"type": "string", "description": what}
    if min_length:
        out["minLength"] = min_length
    return out


def integer(what: str, minimum: int | None = None, maximum: int | None = None) -> Schema:
    """An integer with optional bounds."""
    out: Schema = {"type": "integer", "description": what}
    if minimum is not None:
        out["minimum"] = minimum
    if maximum is not None:
        out["maximum"] = maximum
    return out


def shown_id(what: str, example: str = "#0") -> Schema:
    """An element numbered as the state shows it ("#3"), its number also taken bare ("3", 3); read it with
    :func:`shown_number`."""
    return {"description": f'{what} as the state shows it, e.g. "{example}"',
            "anyOf": [{"type": "string", "minLength": 1}, {"type": "integer", "minimum": 0}]}


def shown_number(ref: str | int) -> str | None:
    """The number a :func:`shown_id` argument names ("#3", "3" or 3: "3"); None for anything else."""
    number = str(ref).strip().removeprefix("#")
    return str(int(number)) if number.isdigit() else None


def number(what: str, minimum: float | None = None, maximum: float | None = None) -> Schema:
    """A number with optional bounds."""
    out: Schema = {"type": "number", "description": what}
    if minimum is not None:
        out["minimum"] = minimum
    if maximum is not None:
        out["maximum"] = maximum
    return out


def boolean(what: str) -> Schema:
    """true/false."""
    return {"type": "boolean", "description": what}


ALIGNMENT = enum("horizontal alignment", ("left", "center", "right", "justify"))


SEARCH_PARAMS: dict[str, Schema] = {
    "regex": boolean("treat the text to find as a Python regular expression (default false)"),
    "match_case": boolean("match upper/lower case exactly (default true)"),
    "whole_word": boolean("only match whole words (default false)"),
    "scope": enum('where to search: "body" (main text and tables) or "all" (also headers, footers, footnotes and '
                  'endnotes)', ("body", "all")),
    "paragraphs": {**PARAGRAPH_IDS, "description": "only search these paragraphs (ids from the state); overrides scope"},
}
