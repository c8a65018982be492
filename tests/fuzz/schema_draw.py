"""Values from an API's JSON Schema, by decisions from a Draw, with what the document holds at hand.

The API schemas use a small part of JSON Schema (object, array, string, integer, number, boolean; enum,
pattern, minimum/maximum, minItems/maxItems, minLength/maxLength, oneOf/anyOf). A value drawn here is valid
most of the time, and most of the valid ones name what the document has: element ids of the right kind from
its state, texts that occur in it (a ``find`` that finds), small row and column numbers, its style and
bookmark names, a picture in the sandbox. With `wrong` > 0 a value is sometimes wrong on purpose (another type,
out of range, a lone surrogate, a megabyte), as a model's slip would be.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from tests.fuzz.draw import Draw, coin, pick, small

ID_PATTERN = re.compile(r"^\^\(([a-z|]+)\)\[0-9\]\+\$$")
HEADING = re.compile(r"(?i)^(heading\s*[1-9]|title|标题\s*[1-9])$")
LENGTH_UNITS = ("cm", "mm", "in", "pt", "px")


@dataclass
class Context:
    """What the document holds: ids by kind, texts, names."""

    ids: dict[str, list[str]] = field(default_factory=dict)  # "p" -> ["p1", ...]
    text_of: dict[str, str] = field(default_factory=dict)  # paragraph id -> its text
    texts: list[str] = field(default_factory=list)
    styles: list[str] = field(default_factory=list)
    bookmarks: list[str] = field(default_factory=list)
    paths: list[str] = field(default_factory=list)  # files an API may read or write (some outside its roots)
    wrong: int = 0  # percent of values made wrong on purpose
    # what :mod:`.api_args` fits an API's arguments to (a merge inside the table, a heading to move, ...)
    order: list[str] = field(default_factory=list)  # the body's paragraph ids in order
    tables: dict[str, tuple[int, int]] = field(default_factory=dict)  # table id -> (rows, columns)
    headings: list[str] = field(default_factory=list)  # body paragraphs with a heading or title style
    listed: list[str] = field(default_factory=list)  # paragraphs that are list items
    linked: list[str] = field(default_factory=list)  # paragraphs holding a hyperlink
    comments: list[int] = field(default_factory=list)
    notes: dict[str, list[int]] = field(default_factory=dict)  # "footnote" / "endnote" -> ids
    sections: int = 1
    tracked: list[dict[str, Any]] = field(default_factory=list)  # tracked changes (paragraph, author)
    style_kinds: dict[str, str] = field(default_factory=dict)  # style name -> paragraph, character, table, numbering
    extension: str = ".docx"  # the document's (a copy keeps it)
    clean: bool = False  # texts only of the kind a document holds (no control characters, no lone surrogates)

    @classmethod
    def of(cls, state: dict[str, Any], paths: list[str], wrong: int = 0) -> "Context":
        ids: dict[str, list[str]] = {}

        def add(i: Any) -> None:
            if isinstance(i, str) and (m := re.match(r"^([a-z]+)\d+$", i)):
                ids.setdefault(m.group(1), []).append(i)

        texts, text_of = [], {}
        for p in state.get("paragraphs", []):
            add(p.get("id"))
            if p.get("text"):
                texts.append(p["text"])
                text_of[p["id"]] = p["text"]
        for t in state.get("tables", []):
            add(t.get("id"))
            for row in t.get("cell_details", []) or []:
                for cell in row:
                    for p in (cell or {}).get("paragraphs", []):  # None: a cell merged into another
                        add(p.get("id"))
                        if p.get("text"):
                            texts.append(p["text"])
        for d in state.get("images", []):  # pictures, charts and shapes
            add(d.get("id"))
        styles = [s.get("name") for s in state.get("styles", {}).get("styles", []) if s.get("name")]
        interactive = state.get("interactive", {})
        bookmarks = [b.get("name") for b in interactive.get("bookmarks", []) if b.get("name")]
        paragraphs = state.get("paragraphs", [])
        return cls(
            ids, text_of, texts, styles, bookmarks, paths, wrong,
            order=[p["id"] for p in paragraphs if p.get("id")],
            tables={t["id"]: (t.get("rows", 0), t.get("cols", 0)) for t in state.get("tables", []) if t.get("id")},
            headings=[p["id"] for p in paragraphs if HEADING.match(p.get("style") or "")],
            listed=[p["id"] for p in paragraphs if p.get("list")],
            linked=[h["paragraph"] for h in interactive.get("hyperlinks", []) if h.get("paragraph")],
            comments=[c["id"] for c in interactive.get("comments", []) if isinstance(c.get("id"), int)],
            notes={kind: [n["id"] for n in interactive.get(f"{kind}s", []) if isinstance(n.get("id"), int)]
                   for kind in ("footnote", "endnote")},
            sections=len(state.get("page_layout", {}).get("sections", [])) or 1,
            tracked=list(interactive.get("tracked_changes", [])),
            style_kinds={s["name"]: s.get("category", "") for s in state.get("styles", {}).get("styles", [])
                         if s.get("name")})


def value(draw: Draw, schema: dict[str, Any], ctx: Context, name: str = "") -> Any:
    """A value for `schema` (the argument is called `name`: row and column numbers are kept small)."""
    if ctx.wrong and draw.int(0, 99) < ctx.wrong:
        return wrong_value(draw, schema, ctx)
    for key in ("oneOf", "anyOf"):
        if key in schema:
            branch = pick(draw, schema[key])
            merged = {**{k: v for k, v in schema.items() if k not in ("oneOf", "anyOf")}, **branch}
            return value(draw, merged, ctx, name)
    if "enum" in schema:
        return pick(draw, schema["enum"])
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = pick(draw, kind)
    if kind == "object" or (kind is None and "properties" in schema):
        return obj(draw, schema, ctx)
    if kind == "array":
        low = schema.get("minItems", 0)
        high = min(schema.get("maxItems", low + 6), low + 6)
        item = schema.get("items", {})
        return [value(draw, item, ctx, name) for _ in range(draw.int(low, max(low, high)))]
    if kind == "integer":
        return integer(draw, schema, name)
    if kind == "number":
        lo, hi = schema.get("minimum", 0), schema.get("maximum", 100)
        return round(lo + (hi - lo) * draw.int(0, 1000) / 1000, draw.int(0, 2))
    if kind == "boolean":
        return coin(draw)
    if kind == "null":
        return None
    return string(draw, schema, ctx, name)


def obj(draw: Draw, schema: dict[str, Any], ctx: Context) -> dict[str, Any]:
    """The required properties and some of the optional ones; a span's match taken from its paragraph's text."""
    props = schema.get("properties", {})
    required = set(schema.get("required", []))
    out = {}
    for key, sub in props.items():
        if key in required or coin(draw, 35):
            out[key] = value(draw, sub, ctx, key)
    categories, series = out.get("categories"), out.get("series")
    if isinstance(categories, list) and isinstance(series, list) and coin(draw, 85):  # one value per category
        for one in series:
            if isinstance(one, dict) and isinstance(one.get("values"), list):
                one["values"] = [draw.int(0, 100) for _ in categories]
    own = ctx.text_of.get(out.get("paragraph")) if isinstance(out.get("paragraph"), str) else None
    span = out.get("span")
    if own and isinstance(span, dict) and isinstance(span.get("match"), str) and coin(draw, 80):
        start = draw.int(0, len(own) - 1)
        span["match"] = own[start:start + 1 + small(draw, 30)]
    return out


def integer(draw: Draw, schema: dict[str, Any], name: str) -> int:
    lo = schema.get("minimum", 0)
    hi = schema.get("maximum", lo + 1000)
    if coin(draw, 80):  # indexes, counts, levels: mostly the first few
        return min(hi, lo + small(draw, 6))
    return draw.int(lo, hi)


def string(draw: Draw, schema: dict[str, Any], ctx: Context, name: str) -> str:
    pattern = schema.get("pattern", "")
    if m := ID_PATTERN.match(pattern):
        kinds = [k for k in m.group(1).split("|") if ctx.ids.get(k)]
        if kinds and coin(draw, 95):
            return pick(draw, ctx.ids[pick(draw, kinds)])
        return f"{pick(draw, m.group(1).split('|'))}{draw.int(0, 99999)}"
    if "(cm|mm|in|pt|px)" in pattern:
        return f"{pick(draw, ('0', '0.5', '1', '2.5', '12', '30', '200', '999'))}{pick(draw, LENGTH_UNITS)}"
    if "[0-9A-Fa-f]{6}" in pattern:
        return "".join(pick(draw, "0123456789ABCDEFabcdef") for _ in range(6))
    if pattern == "^[0-9]{1,3}%$":
        return f"{draw.int(0, 999)}%"
    if pattern == "^[1-9]-[1-9]$":
        return f"{draw.int(1, 9)}-{draw.int(1, 9)}"
    if name in ("path",):  # the first two paths are usable ones: drawn most of the time
        return pick(draw, ctx.paths[:2] if coin(draw, 60) else ctx.paths) if ctx.paths else "missing.png"
    if name in ("style", "based_on", "next_style") and ctx.styles and coin(draw, 70):
        return pick(draw, ctx.styles)
    if name in ("bookmark", "name") and ctx.bookmarks and coin(draw, 50):
        return pick(draw, ctx.bookmarks)
    low = schema.get("minLength", 0)
    text = found_text(draw, ctx) if ctx.texts and coin(draw, 55) else new_text(draw, ctx.clean)
    if len(text) < low:
        text += "x" * (low - len(text))
    if "maxLength" in schema:
        text = text[: schema["maxLength"]]
    return text


def found_text(draw: Draw, ctx: Context) -> str:
    """A piece of a text the document holds (so a find finds and a match matches)."""
    text = pick(draw, ctx.texts)
    start = draw.int(0, max(0, len(text) - 1))
    return text[start:start + 1 + small(draw, 40)]


def new_text(draw: Draw, clean: bool = False) -> str:
    """A text of a few kinds (scripts, markup, tabs and breaks, empty); unless `clean`, now and then any code
    points at all."""
    return pick(draw, ("Quarterly results", "新的段落", "Total", "x", "A\tB\nC", "Résumé — naïve café",
                       "😀 emoji", "العربية", "", " spaced ", "https://example.com/a?b=c&d=e", "<w:p>&amp;</w:p>",
                       "1,234.50", "第二章 方法")) if clean or coin(draw, 90) else draw.text(60)


def wrong_value(draw: Draw, schema: dict[str, Any], ctx: Context) -> Any:
    """A value a validator must refuse or an API must survive: another type, out of range, odd text."""
    return pick(draw, (
        None, True, 0, -1, 2**63, -(2**63), 1e308, 0.5, float("nan"), float("inf"), "", "\x00", "\ud800",
        "\u0007bell", "a" * 1_000_000, [], {}, [[[[]]]], {"x": 1}, "p0", "p99999", "t-1", "img", "chart1a",
        "../../etc/passwd", "/etc/passwd", "C:\\Windows\\win.ini", "\\\\server\\share\\x.png", "１２", "12",
        "0x10", "1e3", "NaN", "-0", "🙂" * 10_000, "null", "true", {"after": "p1", "before": "p2"},
        ["p1", 2, None], "\u202eRTL", "\ufeffBOM",
    ))
