"""Arguments fitted to the document: what a JSON Schema cannot say about an API's arguments.

A value drawn from an API's schema (:mod:`.schema_draw`) is valid, but most APIs also refuse what does not fit
the document or their own rules: a cell past the table's last row, paragraphs that do not follow each other,
a heading that is not one, "give exactly one of url or bookmark", a style of the wrong kind. Refusals are
worth trying, but an API that is refused nine times in ten is barely fuzzed. :data:`FIT` maps an API to a
function that changes a drawn call so it fits (the harness applies it to most calls and to every call that
makes what another API needs); :data:`PREREQUISITES` says what to make first for an API that works on
something few documents have.
"""

from __future__ import annotations

from typing import Any, Callable

from tests.fuzz.draw import Draw, coin, pick, small
from tests.fuzz.schema_draw import Context, found_text

Args = dict[str, Any]

#: texts a document can hold (the schema draw's own sometimes carry control characters, refused by every API)
TEXTS = ("Quarterly results", "新的段落", "Total", "x", "Résumé — naïve café", "العربية", "1,234.50", "第二章 方法",
         "Name", "A longer sentence of the kind a report holds, with a comma and a full stop.")
LENGTHS = ("0.5cm", "1cm", "2.5cm", "3cm", "1in", "12pt", "20mm")

#: API -> what to make before it, in order: (maker API, arguments over its fitted draw; None: left out)
PREREQUISITES: dict[str, list[tuple[str, Args]]] = {
    "delete_comment": [("insert_paragraph", {"text": "Total"}), ("insert_comment", {})],
    "delete_footnote": [("insert_paragraph", {"text": "Total"}), ("insert_footnote", {})],
    "remove_watermark": [("add_watermark", {})], "update_toc": [("insert_toc", {})],
    "edit_hyperlink": [("insert_hyperlink", {})], "delete_bookmark": [("add_bookmark", {})],
    "insert_cross_reference": [("add_bookmark", {})], "remove_list": [("insert_list", {})],
    "set_list_format": [("insert_list", {})], "remove_section_break": [("insert_paragraph", {"position": "end"}), ("insert_section_break", {})],
    "move_section": [("insert_heading", {}), ("insert_paragraph", {"position": "end"})], "change_heading_level": [("insert_heading", {})],
    "text_to_table": [("insert_paragraph", {"text": "Name,Role,Email"})],
    "insert_section_break": [("insert_paragraph", {"position": "end"})],
    "insert_caption": [("insert_table", {})], "sort_table": [("insert_table", {
        "data": [["Name", "Total"], ["Örn", "12"], ["Anna", "3"], ["王", "7"]], "rows": 4, "cols": 2,
        "column_widths": None, "header_row": True})],
    "merge_paragraphs": [("insert_paragraph", {}), ("insert_paragraph", {})],
    "copy_format": [("insert_paragraph", {})],
}


def _text(draw: Draw) -> str:
    return pick(draw, TEXTS)


def _table(draw: Draw, ctx: Context, min_rows: int = 1) -> tuple[str, int, int] | None:
    """A table of the document with its rows and columns (at least one of each); one of at least `min_rows` rows
    when there is one."""
    if not ctx.tables:
        return None
    tall = sorted(t for t, (rows, _) in ctx.tables.items() if rows >= min_rows) or sorted(ctx.tables)
    newest = max(tall, key=lambda t: int(t[1:]) if t[1:].isdigit() else 0)
    tid = newest if coin(draw, 40) else pick(draw, tall)  # one made first, often
    rows, cols = ctx.tables[tid]
    return tid, max(1, rows), max(1, cols)


def _paragraph(draw: Draw, ctx: Context, pool: list[str] | None = None) -> str | None:
    pool = ctx.order if pool is None else pool
    return pick(draw, pool) if pool else None


def _some(draw: Draw, args: Args, options: dict[str, Callable[[Draw], Any]]) -> Args:
    """At least one of `options` given (an API that says "give at least one of ...")."""
    if not any(k in args for k in options):
        key = pick(draw, sorted(options))
        args[key] = options[key](draw)
    return args


def _one_of(draw: Draw, args: Args, options: dict[str, Callable[[Draw], Any]]) -> Args:
    """Exactly one of `options` given (an API that says "give exactly one of ...")."""
    key = pick(draw, [k for k in sorted(options) if k in args] or sorted(options))
    for other in options:
        args.pop(other, None)
    args[key] = options[key](draw)
    return args


def _span_of(draw: Draw, ctx: Context, args: Args, paragraph: Any) -> None:
    """A span's match taken from its paragraph's text (as drawn when the paragraph has none)."""
    own = ctx.text_of.get(paragraph) if isinstance(paragraph, str) else None
    if "span" in args and own:
        start = draw.int(0, len(own) - 1)
        args["span"] = {"match": own[start:start + 1 + small(draw, 20)]}


def _section(draw: Draw, ctx: Context, allow_all: bool = True) -> Any:
    return "all" if allow_all and coin(draw, 20) else draw.int(0, ctx.sections - 1)


def _styles(ctx: Context, *kinds: str) -> list[str]:
    return [name for name, kind in ctx.style_kinds.items() if kind in kinds]


# --- tables -------------------------------------------------------------------------------------------------


def _cells(draw: Draw, rows: int, cols: int) -> Any:
    return pick(draw, ("all", [[draw.int(0, rows - 1), draw.int(0, cols - 1)]], {"row": draw.int(0, rows - 1)},
                       {"col": draw.int(0, cols - 1)}))


def _grid(draw: Draw, rows: int, cols: int) -> list[list[str]]:
    return [[_text(draw) for _ in range(cols)] for _ in range(rows)]


def fit_table_call(draw: Draw, args: Args, ctx: Context, api: str) -> Args:
    """Rows, columns and cells inside the table named (or a table of the document)."""
    found = _table(draw, ctx, min_rows=3 if api == "sort_table" else 1)  # sorting needs two rows below a header
    if found is None:
        return args
    tid, rows, cols = found
    args["table"] = tid
    if api in ("set_cell_text",):
        args.update(row=draw.int(0, rows - 1), col=draw.int(0, cols - 1))
    elif api == "split_cell":
        args.update(row=draw.int(0, rows - 1), col=draw.int(0, cols - 1), cols=draw.int(2, 3))
    elif api == "merge_cells":
        down = rows > 1 and (cols == 1 or coin(draw))  # at least two cells: a step down or across
        r1 = draw.int(0, rows - 2) if down else draw.int(0, rows - 1)
        c1 = draw.int(0, cols - 1) if down else draw.int(0, max(0, cols - 2))
        r2 = draw.int(r1 + 1, rows - 1) if down else draw.int(r1, rows - 1)
        c2 = draw.int(c1, cols - 1) if down else draw.int(min(c1 + 1, cols - 1), cols - 1)
        args.update(first_row=r1, first_col=c1, last_row=r2, last_col=c2)
    elif api == "sort_table":
        args.update(column=draw.int(0, cols - 1), header_rows=draw.int(0, 1) if rows >= 3 else 0, footer_rows=0)
    elif api == "fill_table":
        r0, c0 = draw.int(0, rows - 1), draw.int(0, cols - 1)
        args.update(start_row=r0, start_col=c0, data=_grid(draw, draw.int(1, rows - r0), draw.int(1, cols - c0)))
        args.pop("add_rows", None)
    elif api == "set_row_height":
        args["row"] = "all" if coin(draw, 20) else draw.int(0, rows - 1)
        if args.get("rule") != "auto":
            args["height"] = pick(draw, LENGTHS)
    elif api in ("insert_row", "insert_column"):
        args["index"] = draw.int(0, rows if api == "insert_row" else cols)
        if "data" in args:
            args["data"] = [_text(draw) for _ in range(cols if api == "insert_row" else rows)]
        args.pop("copy_format_from", None)
    elif api == "delete_row":
        args["index"] = draw.int(0, rows - 1)
        args["count"] = draw.int(1, max(1, rows - args["index"] - 1))
    elif api == "delete_column":
        args["index"] = draw.int(0, cols - 1)
    elif api == "split_table":
        args["row"] = draw.int(1, max(1, rows - 1))
    elif api == "set_column_width":
        args["col"] = "all" if coin(draw, 20) else draw.int(0, cols - 1)
        args["width"] = pick(draw, LENGTHS)
    elif api in ("set_cell_shading", "set_cell_alignment"):
        args["cells"] = _cells(draw, rows, cols)
        if api == "set_cell_alignment":
            _some(draw, args, {"horizontal": lambda d: pick(d, ("left", "center", "right", "justify")),
                               "vertical": lambda d: pick(d, ("top", "center", "bottom"))})
    elif api == "set_header_row":
        args["rows"] = draw.int(1, rows)
    elif api == "set_table_properties":
        _table_style(draw, args, ctx)
        _some(draw, args, {"alignment": lambda d: pick(d, ("left", "center", "right")),
                           "autofit": lambda d: coin(d), "width": lambda d: pick(d, ("50%", "10cm", "100%"))})
    return args


def _table_style(draw: Draw, args: Args, ctx: Context) -> None:
    if "style" in args:  # the document's, or Table Grid (a built-in the APIs add)
        args["style"] = pick(draw, _styles(ctx, "table")) if _styles(ctx, "table") and coin(draw) else "Table Grid"


def fit_insert_table(draw: Draw, args: Args, ctx: Context) -> Args:
    if coin(draw):
        args["data"] = _grid(draw, draw.int(1, 4), draw.int(1, 4))
        args.pop("rows", None), args.pop("cols", None)
        cols = len(args["data"][0])
    else:
        args.pop("data", None)
        args.update(rows=draw.int(1, 5), cols=draw.int(1, 5))
        cols = args["cols"]
    if "column_widths" in args:
        args["column_widths"] = [pick(draw, LENGTHS) for _ in range(cols)]
    _table_style(draw, args, ctx)
    return fit_block(draw, args, ctx, "insert_table")


# --- paragraphs and text ------------------------------------------------------------------------------------


def fit_merge_paragraphs(draw: Draw, args: Args, ctx: Context) -> Args:
    if len(ctx.order) >= 2:
        i = draw.int(0, len(ctx.order) - 2)
        args.update(first=ctx.order[i], second=ctx.order[i + 1])
    return args


def fit_text_to_table(draw: Draw, args: Args, ctx: Context) -> Args:
    lines = [pid for pid in ctx.order if any(s in ctx.text_of.get(pid, "") for s in (",", "\t", ";"))]
    if lines:
        args["paragraphs"] = [pick(draw, lines)]
        args["separator"] = "auto"
    _table_style(draw, args, ctx)
    return args


def fit_heading(draw: Draw, args: Args, ctx: Context, api: str) -> Args:
    if not ctx.headings:
        return args
    if api == "move_section":  # to the start when it is not there already, else to the end
        args["heading"] = pick(draw, ctx.headings)
        args["position"] = "start" if ctx.order and args["heading"] != ctx.order[0] else "end"
    else:
        args["paragraphs"] = [pick(draw, ctx.headings)]
        _one_of(draw, args, {"level": lambda d: d.int(1, 9), "delta": lambda d: pick(d, (-1, 1, 2))})
    return args


def fit_span_call(draw: Draw, args: Args, ctx: Context, needs_text: bool = False) -> Args:
    """A paragraph of the document (one with text when a span or an offset is given) and a span matching its
    text (APIs on ``paragraph`` or ``paragraphs``)."""
    key = "paragraph" if "paragraph" in args else "paragraphs" if "paragraphs" in args else None
    if key is None:
        return args
    target = args[key]
    if isinstance(target, list):
        known = [p for p in target if p in ctx.ids.get("p", [])]
        target = known[0] if len(known) == 1 or (known and "span" in args) else known or None  # a span: one paragraph
    with_text = needs_text or "span" in args or "offset" in args
    if (not isinstance(target, (str, list)) or (isinstance(target, str) and (
            target not in ctx.ids.get("p", []) or (with_text and not ctx.text_of.get(target))))) and ctx.ids.get("p"):
        pool = sorted(ctx.text_of) if with_text and ctx.text_of else ctx.ids["p"]
        target = pick(draw, pool)
    args[key] = target if key == "paragraph" or not isinstance(target, str) or coin(draw) else [target]
    _span_of(draw, ctx, args, target)
    offset_of = ctx.text_of.get(target, "") if isinstance(target, str) else ""
    if "offset" in args:
        args["offset"] = draw.int(0, len(offset_of))
    return args


def fit_find(draw: Draw, args: Args, ctx: Context, api: str) -> Args:
    key = {"find_text": "query", "replace_text": "find", "format_matches": "find"}[api]
    if ctx.texts:
        args[key] = found_text(draw, ctx) or "e"
    args.pop("paragraphs", None)  # the text found may be in others
    args.pop("regex", None)
    if api == "format_matches":
        args.pop("having", None)
        _some(draw, args, {"bold": coin, "italic": coin, "color": lambda d: pick(d, ("red", "1F4E79"))})
    if api == "replace_text":
        args["replace"] = _text(draw)
    return args


# --- notes, comments, links, bookmarks ------------------------------------------------------------------


def fit_note(draw: Draw, args: Args, ctx: Context) -> Args:
    kinds = [k for k, ids in ctx.notes.items() if ids]
    if kinds:
        kind = pick(draw, kinds)
        args.update(kind=kind, note=pick(draw, ctx.notes[kind]))
    return args


def fit_comment(draw: Draw, args: Args, ctx: Context, api: str) -> Args:
    if api == "delete_comment":
        if ctx.comments:
            args["comment"] = pick(draw, ctx.comments)
        return args
    args["text"] = _text(draw)
    if "initials" in args:
        args["initials"] = pick(draw, ("AB", "王", "X"))
    if "author" in args:
        args["author"] = pick(draw, ("Dana", "审阅人"))
    return fit_span_call(draw, args, ctx, needs_text=True)


def _bookmark_name(draw: Draw) -> str:
    return f"{pick(draw, ('Ref', 'Section', 'Fuzz'))}_{draw.int(0, 999)}"


def fit_bookmark(draw: Draw, args: Args, ctx: Context, api: str) -> Args:
    if api == "add_bookmark":
        args["name"] = _bookmark_name(draw)
        return fit_span_call(draw, args, ctx)
    if ctx.bookmarks:
        args["bookmark"] = pick(draw, ctx.bookmarks)
    return fit_span_call(draw, args, ctx) if api == "insert_cross_reference" else args


def fit_hyperlink(draw: Draw, args: Args, ctx: Context, api: str) -> Args:
    target = {"url": lambda d: pick(d, ("https://example.com/page", "mailto:someone@example.com"))}
    if ctx.bookmarks:
        target["bookmark"] = lambda d: pick(d, ctx.bookmarks)
    args.pop("url", None), args.pop("bookmark", None)
    if api == "insert_hyperlink":
        args["text"] = _text(draw)
        _one_of(draw, args, target)
        return fit_span_call(draw, args, ctx)
    if ctx.linked:
        args["paragraph"] = pick(draw, ctx.linked)
    args.update(index=0)
    args.pop("new_text", None), args.pop("remove", None)
    args.pop("text", None)
    _one_of(draw, args, {**target, "new_text": _text, "remove": lambda d: True})
    return args


# --- styles and lists -------------------------------------------------------------------------------------


PARAGRAPH_ONLY = ("alignment", "space_before", "space_after", "line_spacing", "first_line_indent",
                  "first_line_chars", "left_indent", "keep_with_next", "next_style")


def fit_style(draw: Draw, args: Args, ctx: Context, api: str) -> Args:
    if "first_line_indent" in args and "first_line_chars" in args:
        args.pop(pick(draw, ("first_line_indent", "first_line_chars")))
    if api == "create_style":
        args["name"] = f"Fuzz {pick(draw, ('Body', 'Note', '标题'))} {draw.int(0, 99)}"
        kind = args.setdefault("kind", pick(draw, ("paragraph", "character")))
        if kind != "paragraph":
            for key in PARAGRAPH_ONLY:
                args.pop(key, None)
        args.pop("apply_to", None) if coin(draw, 70) else args.update(apply_to=[_paragraph(draw, ctx) or "p1"])
    else:  # modify_style
        names = _styles(ctx, "paragraph", "character") or ctx.styles
        if names:
            args["name"] = pick(draw, names)
            kind = ctx.style_kinds.get(args["name"], "paragraph")
        else:
            kind = "paragraph"
        if kind != "paragraph":
            for key in PARAGRAPH_ONLY:
                args.pop(key, None)
    if "based_on" in args:
        same = _styles(ctx, args.get("kind", kind))
        args.pop("based_on") if not same or coin(draw, 30) else args.update(based_on=pick(draw, same))
    if "next_style" in args:
        same = _styles(ctx, "paragraph")
        args.pop("next_style") if not same else args.update(next_style=pick(draw, same))
    for key in ("font", "east_asia_font"):
        if key in args:
            args[key] = pick(draw, ("Arial", "SimSun", "Times New Roman", "微软雅黑"))
    return args


def fit_apply_style(draw: Draw, args: Args, ctx: Context) -> Args:
    if not _styles(ctx, "character"):
        args.pop("span", None)
    fit_span_call(draw, args, ctx)
    names = _styles(ctx, "character" if "span" in args else "paragraph")
    if names:
        args["style"] = pick(draw, names)
    return args


def fit_list(draw: Draw, args: Args, ctx: Context, api: str) -> Args:
    if api == "insert_list":
        args["items"] = [{"text": _text(draw)} for _ in range(draw.int(1, 4))]
        return fit_block(draw, args, ctx, api)
    if ctx.listed:
        args["paragraphs"] = [pick(draw, ctx.listed)]
    if api == "set_list_format":
        _some(draw, args, {"kind": lambda d: pick(d, ("bullet", "numbered")), "level": lambda d: d.int(0, 3),
                           "start": lambda d: d.int(1, 9), "restart": lambda d: True})
        if args.get("kind") == "bullet":
            args.pop("number_format", None)
    return args


# --- sections, pictures, charts, files -----------------------------------------------------------------


def fit_section_call(draw: Draw, args: Args, ctx: Context, api: str) -> Args:
    if api == "remove_section_break":
        args["section"] = draw.int(0, max(0, ctx.sections - 2))
        return args
    if api == "insert_section_break":
        if len(ctx.order) >= 2:
            args["after"] = ctx.order[draw.int(0, len(ctx.order) - 2)]
        return args
    if "template" in args:
        args["template"] = pick(draw, ("Page {PAGE} of {NUMPAGES}", "{PAGE}", "第 {PAGE} 页"))
    if "section" in args or api in ("set_page_setup", "set_columns", "set_header_footer_options"):
        args["section"] = _section(draw, ctx, allow_all=api != "set_header_footer_options")
    if api == "set_page_setup":
        for key in ("width", "height"):
            if key in args:
                args[key] = pick(draw, ("21cm", "29.7cm", "8.5in", "11in"))
        if "margins" in args:
            args["margins"] = {side: pick(draw, ("1cm", "2cm", "2.5cm")) for side in ("top", "left")}
        _some(draw, args, {"orientation": lambda d: pick(d, ("portrait", "landscape")),
                           "size": lambda d: pick(d, ("A4", "Letter", "A5"))})
    elif api == "set_header_footer_options":
        if args["section"] == 0:
            args.pop("link_to_previous", None)
        _some(draw, args, {"different_first_page": coin, "different_odd_even": coin})
    return args


def fit_image(draw: Draw, args: Args, ctx: Context, api: str) -> Args:
    if "path" in args and coin(draw, 85):  # the harness's first paths are pictures; the third another picture
        args["path"] = ("other.png" if api == "replace_image" and coin(draw, 70) else
                        pick(draw, ctx.paths[:2]) if ctx.paths else "picture.png")
    if api == "resize_image":
        if "scale" in args:
            args.pop("width", None), args.pop("height", None)
        _some(draw, args, {"width": lambda d: pick(d, LENGTHS), "scale": lambda d: pick(d, (0.5, 1.5, 2))})
    elif api == "set_image_wrap":
        if "horizontal" in args and "x" in args:
            args.pop(pick(draw, ("horizontal", "x")))
    elif api == "crop_image":
        _some(draw, args, {side: (lambda d: pick(d, (0.05, 0.1, 0.25))) for side in ("left", "top", "right", "bottom")})
    elif api == "resize_chart":
        _some(draw, args, {"width": lambda d: pick(d, LENGTHS), "height": lambda d: pick(d, LENGTHS)})
    if api == "insert_image":
        text = ctx.text_of
        if "paragraph" in args and "position" in args:
            args.pop(pick(draw, ("paragraph", "position")))
        if "paragraph" not in args and "position" not in args:
            args["position"] = "end"
        if "paragraph" in args:
            pid = args["paragraph"] = pick(draw, sorted(text)) if text else args["paragraph"]
            if "offset" in args:
                args["offset"] = draw.int(0, len(text.get(pid, "")))
        else:
            args.pop("offset", None)
    return args


def fit_paragraph_format(draw: Draw, args: Args, ctx: Context) -> Args:
    """One first-line setting (indent, characters or hanging), one line setting (multiple or height)."""
    for group in (("first_line_indent", "first_line_chars", "hanging_indent"), ("line_spacing", "line_height")):
        given = [k for k in group if k in args]
        for key in given[1:]:
            args.pop(key)
    return args


def fit_tab_stops(draw: Draw, args: Args, ctx: Context) -> Args:
    for stop in args.get("stops", []):
        if isinstance(stop, dict) and "position" in stop:
            stop["position"] = pick(draw, LENGTHS)
    return args


def fit_caption(draw: Draw, args: Args, ctx: Context) -> Args:
    targets = [i for kind in ("t", "img", "chart") for i in ctx.ids.get(kind, [])]
    if targets:
        args["target"] = pick(draw, targets)
    return args


def fit_chart(draw: Draw, args: Args, ctx: Context) -> Args:
    n = draw.int(1, 6)
    if args.get("chart_type") == "scatter":
        args["categories"] = [draw.int(0, 50) for _ in range(n)]
    else:
        args["categories"] = [pick(draw, ("Q1", "Q2", "北区", "2024", 7, "a&b", "<w:p>")) for _ in range(n)]
    args["series"] = [{"name": _text(draw), "values": [draw.int(0, 100) for _ in range(n)]}
                      for _ in range(draw.int(1, 3))]
    return fit_block(draw, args, ctx, "insert_chart")


def fit_custom_property(draw: Draw, args: Args, ctx: Context) -> Args:
    args["name"] = pick(draw, ("Client", "项目", "Version", "Reviewed"))
    if args.get("remove"):
        return args
    kind = pick(draw, ("text", "number", "boolean", "date"))
    args.update(type=kind, value={"text": _text(draw), "number": draw.int(-5, 500), "boolean": coin(draw),
                                  "date": "2025-03-31"}[kind])
    return args


def fit_files(draw: Draw, args: Args, ctx: Context, api: str) -> Args:
    if api == "save_copy":
        args["path"] = pick(draw, ("copy", "sub/copy")) + ctx.extension
    else:
        fmt = args.setdefault("format", pick(draw, ("pdf", "odt", "html", "txt")))
        args["path"] = f"export.{fmt}"
    return args


def fit_tracked(draw: Draw, args: Args, ctx: Context) -> Args:
    if "author" in args:
        authors = [t["author"] for t in ctx.tracked if t.get("author")]
        args.pop("author") if not authors else args.update(author=pick(draw, authors))
    if "paragraphs" in args:
        paragraphs = [t["paragraph"] for t in ctx.tracked if t.get("paragraph")]
        args.pop("paragraphs") if not paragraphs else args.update(paragraphs=[pick(draw, paragraphs)])
    return args


def _cased(text: str) -> list[int]:
    """Where `text` has a letter with an upper and a lower case."""
    return [i for i, c in enumerate(text) if c.lower() != c.upper()]


def fit_change_case(draw: Draw, args: Args, ctx: Context) -> Args:
    """A paragraph with cased letters, a span starting at one, and a case that changes them (an edit, not a
    "nothing changed")."""
    cased = sorted(pid for pid, text in ctx.text_of.items() if _cased(text))
    if not cased:
        return fit_span_call(draw, args, ctx)
    pid = args["paragraph"] = pick(draw, cased)
    part = own = ctx.text_of[pid]
    if "span" in args:
        start = pick(draw, _cased(own))
        part = own[start:start + 1 + small(draw, 20)]
        args["span"] = {"match": part}
    args["case"] = pick(draw, [case for case, new in (("upper", part.upper()), ("lower", part.lower()))
                               if new != part] + ["toggle"])
    return args


def fit_copy_format(draw: Draw, args: Args, ctx: Context) -> Args:
    """A source and another paragraph (of the body, or of a table's cells when the body has only one)."""
    pool = ctx.order if len(ctx.order) >= 2 else ctx.ids.get("p", [])
    if len(set(pool)) >= 2:
        source, target = pick(draw, pool), pick(draw, pool)
        while target == source:
            target = pick(draw, pool)
        args.update(source=source, targets=target)
        own = ctx.text_of.get(source)
        if "source_span" in args and own:
            start = draw.int(0, len(own) - 1)
            args["source_span"] = {"match": own[start:start + 1 + small(draw, 20)]}
        else:
            args.pop("source_span", None)
    return args


def fit_block(draw: Draw, args: Args, ctx: Context, api: str) -> Args:
    """A position at the start, the end, or beside a body paragraph; a paragraph style for a new paragraph."""
    if "position" in args:
        others = [p for p in ctx.order if p != args.get("block")]
        args["position"] = (pick(draw, ("start", "end")) if not others or coin(draw, 40) else
                            {pick(draw, ("after", "before")): pick(draw, others)})
    if api == "move_block" or api == "duplicate_block":
        if ctx.order:
            args["block"] = pick(draw, ctx.order)
    if "style" in args and api != "insert_table":  # a table's style is a table style (fit_insert_table's)
        names = _styles(ctx, "paragraph")
        args.pop("style") if not names else args.update(style=pick(draw, names))
    if api == "insert_heading":
        args["level"] = draw.int(1, 3)
    if api == "insert_toc" and "levels" in args:
        args["levels"] = pick(draw, ("1-3", "1-1", "2-4"))
    return args


TABLE_APIS = ("set_cell_text", "split_cell", "merge_cells", "sort_table", "fill_table", "set_row_height", "insert_row",
              "insert_column", "delete_row", "delete_column", "split_table", "set_column_width", "set_cell_shading",
              "set_cell_alignment", "set_header_row", "set_table_properties")
SPAN_APIS = ("delete_text", "clear_text_format", "set_text_format", "insert_text", "insert_line_break",
             "insert_footnote", "split_paragraph")

#: API -> fit(draw, args, ctx) -> args
FIT: dict[str, Callable[[Draw, Args, Context], Args]] = {
    **{api: (lambda d, a, c, api=api: fit_table_call(d, a, c, api)) for api in TABLE_APIS},
    **{api: (lambda d, a, c, api=api: fit_span_call(d, a, c, api == "delete_text")) for api in SPAN_APIS},
    **{api: (lambda d, a, c, api=api: fit_find(d, a, c, api)) for api in ("find_text", "replace_text", "format_matches")},
    **{api: (lambda d, a, c, api=api: fit_heading(d, a, c, api)) for api in ("move_section", "change_heading_level")},
    **{api: (lambda d, a, c, api=api: fit_comment(d, a, c, api)) for api in ("insert_comment", "delete_comment")},
    **{api: (lambda d, a, c, api=api: fit_bookmark(d, a, c, api))
       for api in ("add_bookmark", "delete_bookmark", "insert_cross_reference")},
    **{api: (lambda d, a, c, api=api: fit_hyperlink(d, a, c, api)) for api in ("insert_hyperlink", "edit_hyperlink")},
    **{api: (lambda d, a, c, api=api: fit_style(d, a, c, api)) for api in ("create_style", "modify_style")},
    **{api: (lambda d, a, c, api=api: fit_list(d, a, c, api)) for api in ("insert_list", "remove_list", "set_list_format")},
    **{api: (lambda d, a, c, api=api: fit_section_call(d, a, c, api))
       for api in ("remove_section_break", "insert_section_break", "set_page_setup", "set_columns",
                   "set_header_footer_options", "set_header_footer", "insert_page_numbers", "add_watermark",
                   "remove_watermark")},
    **{api: (lambda d, a, c, api=api: fit_image(d, a, c, api))
       for api in ("insert_image", "replace_image", "resize_image", "set_image_wrap", "crop_image", "resize_chart")},
    "set_paragraph_format": lambda d, a, c: fit_paragraph_format(d, fit_span_call(d, a, c), c),
    "set_tab_stops": lambda d, a, c: fit_tab_stops(d, fit_span_call(d, a, c), c),
    "insert_caption": lambda d, a, c: fit_caption(d, a, c),
    "apply_style": fit_apply_style,
    **{api: (lambda d, a, c, api=api: fit_files(d, a, c, api)) for api in ("save_copy", "export_document")},
    **{api: (lambda d, a, c, api=api: fit_block(d, a, c, api))
       for api in ("insert_paragraph", "insert_heading", "insert_page_break", "insert_toc", "move_block",
                   "duplicate_block")},
    "insert_table": fit_insert_table, "merge_paragraphs": fit_merge_paragraphs, "text_to_table": fit_text_to_table,
    "delete_footnote": fit_note, "insert_chart": fit_chart,
    "update_chart_data": fit_chart, "set_custom_property": fit_custom_property,
    "resolve_tracked_changes": fit_tracked, "copy_format": fit_copy_format, "change_case": fit_change_case,
}


def fit(draw: Draw, api: str, args: Args, ctx: Context) -> Args:
    """`args` changed to fit the document (an API without a fit: as drawn)."""
    fitter = FIT.get(api)
    return fitter(draw, dict(args), ctx) if fitter else args
