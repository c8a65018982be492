"""table_operation: create, fill, restructure (rows, columns, merges), format and sort tables.

Cells are addressed as in the state's ``cells`` matrix: 0-based row and grid-column indices, so a
cell spanning two columns covers two indices and the text of a merged cell sits at its top-left
position. The grid model lives in :mod:`apis.tables`.
"""

from __future__ import annotations

import csv
import re
from typing import Any

from autodw.apis.ooxml import locate
from autodw.apis.ooxml.blocks import drop_dangling_marks
from autodw.apis.ooxml.builtin_styles import ensure_style
from autodw.apis.ooxml.copies import renew_ids
from autodw.apis.ooxml.elements import get_or_add, get_or_add_ppr, insert_ordered, make, remove_children, replace_child
from autodw.apis.ooxml.paragraphs import JC
from autodw.apis.ooxml.text import paragraph_text
from autodw.apis.ooxml.tables import (BORDER_SYNONYMS, TBL, TC, apply_header, available_width, blank_cell_like,
                                      cell_paragraphs, cell_text, cell_value_text, clean_copy, clear_cell_borders,
                                      default_template_row, ensure_ends_with_paragraph, get_or_add_tblpr,
                                      get_or_add_tcpr, get_or_add_trpr, Grid, has_content, header_count, move_content,
                                      natural_key, new_row, parse_number, region_text, remove_block, resolve_cells,
                                      scale_widths, set_cell_width, set_first_row_look, set_grid, set_row_gap, set_span,
                                      set_vmerge, shade_cell, sync_cell_widths, tidy_vertical_merges, write_row)
from autodw.apis.ooxml.tables import set_cell_text as write_cell
from autodw.apis.registry import Example, api
from autodw.apis.schema import (COLOR_NAMES, HEX_COLOR_PATTERN, LENGTH_PATTERN, POSITION, TABLE_ID, boolean, color,
                                enum, id_of, integer, length, number, text)
from autodw.core.document import WordDocument
from autodw.core.errors import ArgumentError, UnsupportedOperationError
from autodw.core.ids import element_id
from autodw.core.units import hex_color, twips
from autodw.core.xml import qn

INTENT = "table_operation"

# --- argument schemas -----------------------------------------------------------------------

ROW = integer("0-based row index: N of the row labelled rN in the document state (r0 is the first row, the header "
              "if there is one); the row index of the table's \"cells\" matrix", 0)
COL = integer("0-based column index: the first column is 0; as in the table's \"cells\" matrix (a cell spanning 2 "
              "columns covers 2 indices)", 0)
_VALUE = {"type": ["string", "number", "null"]}
ROW_VALUES = {"type": "array", "items": _VALUE, "maxItems": 63,
              "description": "cell texts of one row, left to right by column index (\\n starts a new paragraph); "
                             "null or \"\" leaves a cell empty"}
TABLE_DATA = {"type": "array", "items": {"type": "array", "items": _VALUE, "maxItems": 63}, "minItems": 1,
              "description": "rows of cell texts, e.g. [[\"Name\", \"Qty\"], [\"Pens\", \"12\"]]; rows may be shorter "
                             "than the table; null leaves a cell unchanged (empty in a new table)"}
_PAIR = {"type": "array", "items": {"type": "integer", "minimum": 0}, "minItems": 2, "maxItems": 2}
CELLS = {
    "description": 'which cells: "all"; a list of [row, col] pairs, e.g. [[0, 0], [0, 1]]; a rectangle '
                   '{"from": [row, col], "to": [row, col]}; a whole row {"row": N}; or a whole column {"col": N}. '
                   "A position inside a merged cell means the whole merged cell",
    "oneOf": [
        {"type": "string", "enum": ["all"]},
        {"type": "array", "items": _PAIR, "minItems": 1},
        {"type": "object", "properties": {"from": _PAIR, "to": _PAIR}, "required": ["from", "to"], "additionalProperties": False},
        {"type": "object", "properties": {"row": {"type": "integer", "minimum": 0}}, "required": ["row"], "additionalProperties": False},
        {"type": "object", "properties": {"col": {"type": "integer", "minimum": 0}}, "required": ["col"], "additionalProperties": False},
    ],
}
FILL = {"type": "string", "description": 'fill colour: hex RGB like "D9E2F3" or a name (lightgray, lightblue, yellow, ...); "none" removes the fill',
        "anyOf": [{"pattern": HEX_COLOR_PATTERN}, {"enum": [*COLOR_NAMES, "none"]}]}
TABLE_WIDTH = {"type": "string",
               "description": 'table width: a length like "15cm", a percentage of the text width like "100%", or "auto"',
               "anyOf": [{"pattern": LENGTH_PATTERN}, {"pattern": "^[0-9]{1,3}%$"}, {"enum": ["auto"]}]}
_BORDER_SIDES = {"all": ("top", "left", "bottom", "right", "insideH", "insideV"), "outside": ("top", "left", "bottom", "right"),
                 "inside": ("insideH", "insideV"), "top": ("top",), "bottom": ("bottom",), "left": ("left",),
                 "right": ("right",), "inside_horizontal": ("insideH",), "inside_vertical": ("insideV",)}


# --- helpers --------------------------------------------------------------------------------


def _grid(doc: WordDocument, table: str) -> Grid:
    return Grid(doc.find(table, "t"), table)


def _short(s: str, n: int = 40) -> str:
    return repr(s if len(s) <= n else s[:n - 3] + "...")


# --- creating and deleting tables -------------------------------------------------------------


@api(intent=INTENT,
     description="Insert a new table at a position, optionally filled with data. Give rows and cols, or just data "
                 "(the size is taken from it). Columns share the available text width equally unless column_widths "
                 "is given. header_row makes the first row bold and repeats it on every page.",
     params={"position": POSITION,
             "rows": integer("number of rows (omit to use the number of data rows)", 1, 1000),
             "cols": integer("number of columns (omit to use the longest data row)", 1, 63),
             "data": TABLE_DATA,
             "style": text('table style name (default "Table Grid", a plain grid); "none" for no style'),
             "header_row": boolean("make the first row a bold header row that repeats on each page"),
             "column_widths": {"type": "array", "items": length("column width"), "minItems": 1, "maxItems": 63,
                               "description": 'width of each column, e.g. ["3cm", "8cm"] (one per column)'}},
     examples=[{"position": {"after": "p31"}, "data": [["Product", "Units"], ["Widget", "120"], ["Gadget", "75"]],
                "header_row": True},
               {"position": "end", "rows": 3, "cols": 3, "column_widths": ["3cm", "6cm", "4cm"]},
               Example({"position": {"after": "p1"}, "data": [["甲方", "乙方"], ["北京公司", "上海公司"]]},
                       document="examples/contract_zh.docx")])
def insert_table(doc: WordDocument, position: Any, rows: int | None = None, cols: int | None = None,
                 data: list | None = None, style: str = "Table Grid", header_row: bool = False,
                 column_widths: list | None = None):
    """Build a new table (grid, cells, widths from the available text width) and place it."""
    data = data or []
    n_rows = rows if rows is not None else len(data)
    n_cols = cols if cols is not None else max((len(r) for r in data), default=0)
    if not n_rows or not n_cols:
        raise ArgumentError("give rows and cols, or data (a list of rows of cell texts) to take the size from")
    if len(data) > n_rows:
        raise ArgumentError(f"data has {len(data)} rows but rows is {n_rows}; omit rows or make it at least {len(data)}",
                            omit=("rows",))
    too_long = next((i for i, r in enumerate(data) if len(r) > n_cols), None)
    if too_long is not None:
        raise ArgumentError(f"data row {too_long} has {len(data[too_long])} values but cols is {n_cols}; omit cols or "
                            f"make it at least {len(data[too_long])}", omit=("cols",))
    if column_widths is not None and len(column_widths) != n_cols:
        raise ArgumentError(f"column_widths has {len(column_widths)} widths but the table has {n_cols} columns")
    tbl = make("w:tbl")
    tblpr = make("w:tblPr")
    tbl.append(tblpr)
    if style.strip().lower() != "none":
        insert_ordered(tblpr, make("w:tblStyle", w_val=ensure_style(doc, style, "table")))
    insert_ordered(tblpr, make("w:tblW", w_w="0", w_type="auto"))
    insert_ordered(tblpr, make("w:tblLook", w_val="04A0", w_firstRow="1", w_lastRow="0", w_firstColumn="1",
                               w_lastColumn="0", w_noHBand="0", w_noVBand="1"))
    tbl.append(make("w:tblGrid"))
    for r in range(n_rows):
        tr = make("w:tr")
        values = data[r] if r < len(data) else []
        for c in range(n_cols):
            tc = make("w:tc")
            tc.append(make("w:tcPr"))
            tc.append(make("w:p"))
            value = cell_value_text(values[c]) if c < len(values) else None
            if value:
                write_cell(doc, tc, value)
            tr.append(tc)
        tbl.append(tr)
    locate.insert_block(doc, position, tbl)
    for neighbour, place in ((tbl.getprevious(), tbl.addprevious), (tbl.getnext(), tbl.addnext)):
        if neighbour is not None and neighbour.tag == TBL:
            place(make("w:p"))  # adjacent tables would join into one
    if column_widths is not None:
        widths = [twips(w, "column width") for w in column_widths]
    else:
        each = available_width(tbl, doc.body) // n_cols
        widths = [each] * n_cols
    set_grid(tbl, widths)
    grid = Grid(tbl)
    sync_cell_widths(grid)
    set_first_row_look(tbl, header_row)
    if header_row:
        apply_header(grid, 1, bold=True, fill=None, font_color=None, repeat=True)
    doc.refresh_ids()
    return f"inserted table {element_id(tbl)} with {n_rows} rows and {n_cols} columns"


SEPARATORS = {"tab": "\t", "comma": ",", "semicolon": ";"}
_MARKDOWN_RULE = re.compile(r"^\s*:?-+:?\s*$")


def _split_markdown(line: str) -> list[str]:
    """The cells of a Markdown table line ``| a | b |`` (``\\|`` is a literal bar)."""
    body = line.strip()
    body = body[1:] if body.startswith("|") else body
    body = body[:-1] if body.endswith("|") and not body.endswith("\\|") else body
    return [c.replace("\\|", "|").strip() for c in re.split(r"(?<!\\)\|", body)]


def common_separator(lines: list[str]) -> str | None:
    """The first of :data:`SEPARATORS` that every line has, if any."""
    return next((name for name, ch in SEPARATORS.items() if all(ch in ln for ln in lines)), None)


def delimited_rows(lines: list[str], separator: str) -> list[list[str]]:
    """Rows of cell texts from text lines: "markdown" (rule lines dropped), "tab", "comma" or "semicolon" (quoted
    fields as in CSV), or "auto" (Markdown if every line starts with "|", else tab, comma, semicolon: the first
    separator every line has). Blank lines are skipped."""
    lines = [ln for ln in lines if ln.strip()]
    if separator == "auto":
        if all(ln.lstrip().startswith("|") for ln in lines):
            separator = "markdown"
        else:
            separator = common_separator(lines)
            if separator is None:
                raise ArgumentError("no separator is common to every line (tab, comma, semicolon, or a Markdown table "
                                    "with | at the start of each line); give separator")
    if separator == "markdown":
        rows = [_split_markdown(ln) for ln in lines]
        return [r for r in rows if not all(_MARKDOWN_RULE.match(c) for c in r)]
    return [[c.strip() for c in row] for row in csv.reader(lines, delimiter=SEPARATORS[separator])]


@api(intent=INTENT,
     description="Turn paragraphs of delimited text (tab- or comma-separated lines, or a Markdown table) into a table "
                 "in their place: one row per line, one cell per field. The paragraphs must follow each other. The "
                 "cells get the text only (not its character formatting).",
     params={"paragraphs": {"type": "array", "items": id_of("p", "paragraph"), "minItems": 1,
                            "description": "the paragraphs holding the lines, in order (e.g. [\"p12\", \"p13\", \"p14\"])"},
             "separator": enum('what separates the cells: "auto" (default: detected), "tab", "comma", "semicolon" or '
                               '"markdown"', ("auto", *SEPARATORS, "markdown")),
             "header_row": boolean("make the first row a bold header row that repeats on each page"),
             "style": text('table style name (default "Table Grid"); "none" for no style')},
     examples=[Example({"paragraphs": ["p4", "p5", "p6"], "header_row": True}, document="examples/notes.docx"),
               Example({"paragraphs": ["p8", "p9", "p10"], "separator": "comma"}, document="examples/notes.docx"),
               Example({"paragraphs": ["p12", "p13", "p14", "p15"]}, document="examples/notes.docx")])
def text_to_table(doc: WordDocument, paragraphs: list[str], separator: str = "auto", header_row: bool = False,
                  style: str = "Table Grid"):
    """Parse the lines, insert the table before the first paragraph, then remove the paragraphs."""
    els = [doc.find(pid, "p") for pid in dict.fromkeys(paragraphs)]
    for a, b in zip(els, els[1:]):
        if a.getnext() is not b:
            raise ArgumentError(f"{element_id(b)} does not directly follow {element_id(a)}; give paragraphs that "
                                "follow each other (one table is made from one run of lines)")
    for p in els:
        if p.find(f"{qn('w:pPr')}/{qn('w:sectPr')}") is not None:
            raise UnsupportedOperationError(f"{element_id(p)} holds a section break; a table cannot take it. Insert "
                                            f"an empty paragraph after {element_id(p)} and convert the lines only")
    lines = [line for p in els for line in paragraph_text(p).split("\n")]
    rows = delimited_rows(lines, separator)
    if not rows:
        raise ArgumentError(f"{', '.join(paragraphs)} hold no text to put in a table")
    if len(rows) > 1 and max(map(len, rows)) == 1:
        raise ArgumentError(f"no line of {', '.join(paragraphs)} has a {separator if separator != 'auto' else 'separator'} "
                            "splitting it into cells; give separator")
    insert_table(doc, {"before": element_id(els[0])}, data=rows, style=style, header_row=header_row)
    tbl = els[0].getprevious()
    for p in els:
        remove_block(p)
        drop_dangling_marks(doc, p)
    nxt = tbl.getnext()
    if nxt is None or nxt.tag in (TBL, qn("w:sectPr")):
        tbl.addnext(make("w:p"))  # a table is followed by a paragraph before another table or the document's end
    doc.refresh_ids()
    return (f"turned {len(els)} paragraph(s) into table {element_id(tbl)} with {len(rows)} rows and "
            f"{max(map(len, rows))} columns")


@api(intent=INTENT,
     description="Delete a whole table (all its rows and content).",
     params={"table": TABLE_ID},
     examples=[{"table": "t1"}])
def delete_table(doc: WordDocument, table: str):
    """Remove a table; a cell that held it keeps a closing paragraph."""
    tbl = doc.find(table, "t")
    grid = Grid(tbl, table)
    parent = tbl.getparent()
    parent.remove(tbl)
    if parent.tag == TC:
        ensure_ends_with_paragraph(parent)
    return f"deleted table {table} ({grid.n_rows} rows, {grid.n_cols} columns)"


# --- cell text --------------------------------------------------------------------------------


@api(intent=INTENT,
     description="Replace the text of one table cell, keeping the formatting of the cell's first run and paragraph. "
                 "\\n in the text starts a new paragraph in the cell. A position inside a merged cell writes the "
                 "merged cell.",
     params={"table": TABLE_ID, "row": ROW, "col": COL, "text": text("the new cell text (empty string clears the cell)")},
     examples=[{"table": "t1", "row": 1, "col": 1, "text": "125"},
               Example({"table": "t1", "row": 1, "col": 1, "text": "二十二"}, document="examples/contract_zh.docx")])
def set_cell_text(doc: WordDocument, table: str, row: int, col: int, text: str):
    """Replace one cell's text (the merged cell's, for a covered position)."""
    grid = _grid(doc, table)
    cell = grid.cell(row, col)
    origin = grid.origin(cell)
    write_cell(doc, origin.tc, text)
    where = f"({row},{col})"
    if (origin.row, origin.col) != (row, col):
        where += f" (the merged cell starting at ({origin.row},{origin.col}))"
    return f"set cell {where} of {table} to {_short(text)}"


@api(intent=INTENT,
     description="Write a block of values into an existing table, starting at (start_row, start_col): data[i][j] "
                 "goes to cell (start_row+i, start_col+j); null leaves a cell unchanged. Data that does not fit is "
                 "refused with the table size, unless add_rows is true (rows are then appended in the format of the "
                 "last row). Columns are never added: use insert_column.",
     params={"table": TABLE_ID, "data": TABLE_DATA,
             "start_row": integer("row of the first value (default 0)", 0),
             "start_col": integer("column of the first value (default 0)", 0),
             "add_rows": boolean("append rows when the data has more rows than the table (default false)")},
     examples=[{"table": "t1", "data": [["121", "136"], ["99", "103"]], "start_row": 1, "start_col": 1},
               {"table": "t1", "data": [["Central", "64", "70", "75"], ["Online", "210", "230", "260"]], "start_row": 5,
                "add_rows": True}])
def fill_table(doc: WordDocument, table: str, data: list, start_row: int = 0, start_col: int = 0, add_rows: bool = False):
    """Write a block of values into existing cells, appending rows only when asked."""
    tbl = doc.find(table, "t")
    grid = Grid(tbl, table)
    grid.check_row(start_row, allow_end=add_rows, what="start_row")
    grid.check_col(start_col, what="start_col")
    widest = max(len(r) for r in data)
    if start_col + widest > grid.n_cols:
        raise ArgumentError(f"data rows of up to {widest} values from column {start_col} do not fit: {grid.size()}; "
                            "add columns first with insert_column")
    missing = start_row + len(data) - grid.n_rows
    if missing > 0:
        if not add_rows:
            raise ArgumentError(f"data needs rows {start_row}-{start_row + len(data) - 1} but {grid.size()}; pass "
                                f"add_rows: true to append {missing} row(s), or insert rows first")
        for _ in range(missing):
            new_row(grid, grid.n_rows, grid.n_rows - 1)
            grid = Grid(tbl, table)
    written = sum(write_row(doc, grid, start_row + i, start_col, values) for i, values in enumerate(data))
    added = f"; appended {missing} row(s)" if missing > 0 else ""
    return f"wrote {written} cell(s) of {table} from ({start_row},{start_col}){added}"


# --- rows -------------------------------------------------------------------------------------


@api(intent=INTENT,
     description="Insert one row at a row index (0 = top; the number of rows appends at the bottom), formatted like "
                 "copy_format_from (default: the row above, or the row below when the row above is a repeated header "
                 "row). Row and cell properties are copied, text is not. Inside a vertically merged cell the merged "
                 "cell grows.",
     params={"table": TABLE_ID, "index": integer("where the new row goes: 0-based index it will have", 0),
             "data": ROW_VALUES,
             "copy_format_from": integer("row index whose format the new row copies", 0)},
     examples=[{"table": "t1", "index": 5, "data": ["Central", "110", "115", "120"]},
               {"table": "t1", "index": 1, "data": ["Total", "448", "482", "510"], "copy_format_from": 4},
               Example({"table": "t1", "index": 4, "data": ["第四季度", "30", "12月31日"]}, document="examples/contract_zh.docx")])
def insert_row(doc: WordDocument, table: str, index: int, data: list | None = None, copy_format_from: int | None = None):
    """Insert an empty row copied from a template row's properties, then write its data."""
    tbl = doc.find(table, "t")
    grid = Grid(tbl, table)
    grid.check_row(index, allow_end=True, what="index")
    if copy_format_from is not None:
        template = grid.check_row(copy_format_from, what="copy_format_from row")
    else:
        template = default_template_row(grid, index)
    if data and len(data) > grid.n_cols:
        raise ArgumentError(f"data has {len(data)} values but {grid.size()}")
    new_row(grid, index, template)
    grid = Grid(tbl, table)
    if data:
        write_row(doc, grid, index, 0, data)
    return f"inserted row {index} into {table} (format of row {template if template < index else template + 1}); it now has {grid.n_rows} rows"


@api(intent=INTENT,
     description="Delete one or more consecutive rows. The text of a vertically merged cell that starts in a deleted "
                 "row moves to the part of the merged cell that remains.",
     params={"table": TABLE_ID, "index": ROW, "count": integer("how many rows from index (default 1)", 1)},
     examples=[{"table": "t1", "index": 4}, {"table": "t1", "index": 1, "count": 2}])
def delete_row(doc: WordDocument, table: str, index: int, count: int = 1):
    """Remove rows, moving the text of merged cells whose top row goes to what remains."""
    tbl = doc.find(table, "t")
    grid = Grid(tbl, table)
    grid.check_row(index, what="index")
    last = index + count - 1
    if last >= grid.n_rows:
        raise ArgumentError(f"rows {index}-{last} do not all exist: {grid.size()}")
    if count >= grid.n_rows:
        raise UnsupportedOperationError(f"that would delete every row of {table}; use delete_table instead")
    if last + 1 < grid.n_rows:
        for cell in grid.rows[last + 1].cells:
            origin = grid.origin(cell)
            if origin is not cell and origin.row >= index:  # the merged cell's top row goes away
                move_content(origin.tc, cell.tc)
                set_vmerge(cell.tc, "restart")
    for r in range(index, last + 1):
        remove_block(grid.rows[r].tr)
    tidy_vertical_merges(Grid(tbl, table))
    return f"deleted row(s) {index}-{last} of {table}; it now has {grid.n_rows - count} rows"


@api(intent=INTENT,
     description="Set the height of a row (or of all rows): rule at_least lets the row grow with its content, exact "
                 "fixes it, auto removes the height setting.",
     params={"table": TABLE_ID,
             "row": {"description": 'row index, or "all"', "oneOf": [{"type": "integer", "minimum": 0}, {"type": "string", "enum": ["all"]}]},
             "height": length("row height (required unless rule is auto)"),
             "rule": enum("height rule (default at_least)", ("at_least", "exact", "auto"))},
     examples=[{"table": "t1", "row": 0, "height": "1cm"}, {"table": "t1", "row": "all", "height": "0.8cm", "rule": "exact"}])
def set_row_height(doc: WordDocument, table: str, row: Any, height: str | None = None, rule: str = "at_least"):
    """Write or remove ``w:trHeight`` on one row or all rows."""
    grid = _grid(doc, table)
    rows = grid.rows if row == "all" else [grid.rows[grid.check_row(row)]]
    if rule != "auto" and height is None:
        raise ArgumentError('give height (e.g. "1cm"), or rule "auto" to remove the height setting')
    value = twips(height, "height") if height is not None else 0
    for r in rows:
        trpr = get_or_add_trpr(r.tr)
        remove_children(trpr, "w:trHeight")
        if rule != "auto":
            insert_ordered(trpr, make("w:trHeight", w_val=str(value), w_hRule="exact" if rule == "exact" else "atLeast"))
    which = "every row" if row == "all" else f"row {row}"
    return f"set the height of {which} of {table} to " + ("automatic" if rule == "auto" else f"{height} ({rule})")


# --- columns ----------------------------------------------------------------------------------


@api(intent=INTENT,
     description="Insert one column at a column index (0 = left; the number of columns appends at the right). The new "
                 "cells copy the properties of their left (else right) neighbour; a merged cell spanning the position "
                 "grows instead. Without width the table keeps its total width (all columns shrink to make room); with "
                 "width the new column gets that width and the table grows.",
     params={"table": TABLE_ID, "index": integer("where the new column goes: 0-based index it will have", 0),
             "data": {**ROW_VALUES, "maxItems": 1000,
                      "description": "cell texts of the new column, top to bottom by row index; null or \"\" leaves a cell empty"},
             "width": length("width of the new column")},
     examples=[{"table": "t1", "index": 4, "data": ["Q4", "160", "115", "152", "99"]},
               {"table": "t1", "index": 1, "data": ["Manager", "Ann", "Bo", "Cy", "Di"], "width": "2.5cm"}])
def insert_column(doc: WordDocument, table: str, index: int, data: list | None = None, width: str | None = None):
    """Add a grid column and a cell (or a wider span) in every row."""
    tbl = doc.find(table, "t")
    grid = Grid(tbl, table)
    grid.check_col(index, allow_end=True, what="index")
    if data and len(data) > grid.n_rows:
        raise ArgumentError(f"data has {len(data)} values but {grid.size()}")
    widths = grid.widths()
    new_cells: dict[int, Any] = {}
    touched = set()
    for row in grid.rows:
        if index < row.before:
            set_row_gap(row.tr, "w:gridBefore", row.before + 1)
        elif index <= row.end:
            inside = next((c for c in row.cells if c.col < index <= c.last), None)
            if inside is not None:
                set_span(inside.tc, inside.span + 1)
                touched.add(id(inside.tc))
                continue
            right = next((c for c in row.cells if c.col == index), None)
            left = next((c for c in row.cells if c.last == index - 1), None)
            tpl = left or right
            if tpl is None:
                continue
            tc = blank_cell_like(tpl.tc)
            remove_children(get_or_add_tcpr(tc), "w:cnfStyle")
            if right is not None:
                right.tc.addprevious(tc)
            else:
                left.tc.addnext(tc)
            new_cells[row.index] = tc
            touched.add(id(tc))
        elif row.after:
            set_row_gap(row.tr, "w:gridAfter", row.after + 1)
    if width is not None:
        new_w = twips(width, "width")
        widths.insert(index, new_w)
    else:
        total = sum(widths)
        new_w = max(1, round(total / (len(widths) + 1)))
        widths = scale_widths(widths, total - new_w)
        widths.insert(index, new_w)
    set_grid(tbl, widths)
    grid = Grid(tbl, table)
    sync_cell_widths(grid, None if width is None else [c for c in grid.cells() if id(c.tc) in touched])
    for r, value in enumerate(data or []):
        s = cell_value_text(value)
        if not s:
            continue
        if r not in new_cells:
            row = grid.rows[r]
            why = (f"the merged cell {region_text(grid.region(row.covering(index)))} spans that position"
                   if row.covering(index) is not None else f"the row covers only columns {row.before}-{row.end - 1}")
            raise ArgumentError(f"row {r} gets no new cell at column {index} ({why}); leave its value empty or null")
        write_cell(doc, new_cells[r], s)
    return f"inserted column {index} into {table}; it now has {grid.n_cols} columns"


@api(intent=INTENT,
     description="Delete one column. Merged cells that span it become one column narrower (their text stays).",
     params={"table": TABLE_ID, "index": COL},
     examples=[{"table": "t1", "index": 3}, Example({"table": "t1", "index": 2}, document="examples/contract_zh.docx")])
def delete_column(doc: WordDocument, table: str, index: int):
    """Remove a grid column and its cells; spanning cells shrink."""
    tbl = doc.find(table, "t")
    grid = Grid(tbl, table)
    grid.check_col(index, what="index")
    if grid.n_cols == 1:
        raise UnsupportedOperationError(f"{table} has only one column; use delete_table instead")
    shrunk = set()
    for row in grid.rows:
        if index < row.before:
            set_row_gap(row.tr, "w:gridBefore", row.before - 1)
        elif index < row.end:
            cell = row.covering(index)
            if cell.span > 1:
                set_span(cell.tc, cell.span - 1)
                shrunk.add(id(cell.tc))
            elif len(row.cells) == 1:
                raise UnsupportedOperationError(f"row {row.index} of {table} has no other cell than the one in column "
                                                f"{index}; delete that row first (delete_row) or merge it differently")
            else:
                remove_block(cell.tc)
        elif index < row.end + row.after:
            set_row_gap(row.tr, "w:gridAfter", row.after - 1)
    widths = grid.widths()
    total = sum(widths)
    del widths[index]
    relative = _relative_width(tbl)
    if relative:  # a table as wide as a share of the page stays so: the other columns take the deleted one's room
        widths = _scaled(widths, total)
    set_grid(tbl, widths)
    grid = Grid(tbl, table)
    sync_cell_widths(grid, [c for c in grid.cells() if relative or id(c.tc) in shrunk])
    return f"deleted column {index} of {table}; it now has {grid.n_cols} columns"


def _relative_width(tbl) -> bool:
    """Whether the table's preferred width is a share of the text width (``w:tblW`` of type pct: "100%")."""
    tblw = tbl.find(f"{qn('w:tblPr')}/{qn('w:tblW')}")
    return tblw is not None and tblw.get(qn("w:type")) == "pct"


def _scaled(widths: list[int], total: int) -> list[int]:
    """`widths` in proportion, summing to `total` (the rounding's remainder on the last)."""
    out = [w * total // sum(widths) for w in widths]
    out[-1] += total - sum(out)
    return out


@api(intent=INTENT,
     description='Set the width of one column (or of every column with col "all"). Written to the table grid and to '
                 "every cell in the column, so Word and LibreOffice agree; other columns keep their widths. The width "
                 'needs its unit ("4cm", "1.5in", "40mm"): a bare number is refused, as Word shows column widths in '
                 "centimetres or inches by its settings.",
     params={"table": TABLE_ID,
             "col": {"description": 'column index, or "all"', "oneOf": [{"type": "integer", "minimum": 0}, {"type": "string", "enum": ["all"]}]},
             "width": length("column width")},
     examples=[{"table": "t1", "col": 0, "width": "4cm"}, {"table": "t1", "col": "all", "width": "3cm"}])
def set_column_width(doc: WordDocument, table: str, col: Any, width: str):
    """Set ``w:gridCol`` and the ``w:tcW`` of every cell spanning the column."""
    tbl = doc.find(table, "t")
    grid = Grid(tbl, table)
    w = twips(width, "width")
    widths = grid.widths()
    if col == "all":
        widths = [w] * len(widths)
    else:
        widths[grid.check_col(col)] = w
    set_grid(tbl, widths)
    grid = Grid(tbl, table)
    cells = list(grid.cells()) if col == "all" else [c for c in grid.cells() if c.col <= col <= c.last]
    sync_cell_widths(grid, cells)
    return f"set the width of {'every column' if col == 'all' else f'column {col}'} of {table} to {width}"


# --- merging ----------------------------------------------------------------------------------


@api(intent=INTENT,
     description="Merge a rectangle of cells, from (first_row, first_col) to (last_row, last_col) inclusive, into one "
                 "cell. The texts of the merged cells are kept, one after another, in the top-left cell. A merged cell "
                 "that lies only partly inside the rectangle is refused.",
     params={"table": TABLE_ID, "first_row": ROW, "first_col": COL,
             "last_row": integer("0-based last row of the rectangle (inclusive)", 0),
             "last_col": integer("0-based last column of the rectangle (inclusive)", 0)},
     examples=[{"table": "t1", "first_row": 0, "first_col": 1, "last_row": 0, "last_col": 3},
               {"table": "t1", "first_row": 1, "first_col": 0, "last_row": 2, "last_col": 0}])
def merge_cells(doc: WordDocument, table: str, first_row: int, first_col: int, last_row: int, last_col: int):
    """Merge a rectangle with ``w:gridSpan`` and ``w:vMerge``, gathering its text top-left."""
    tbl = doc.find(table, "t")
    grid = Grid(tbl, table)
    for r, what in ((first_row, "first_row"), (last_row, "last_row")):
        grid.check_row(r, what=what)
    for c, what in ((first_col, "first_col"), (last_col, "last_col")):
        grid.check_col(c, what=what)
    r1, c1, r2, c2 = first_row, first_col, last_row, last_col
    if r2 < r1 or c2 < c1:
        raise ArgumentError("last_row/last_col must not be smaller than first_row/first_col")
    if (r1, c1) == (r2, c2):
        raise ArgumentError("a merge needs at least two cells: make last_row or last_col larger")
    for r in range(r1, r2 + 1):
        for c in range(c1, c2 + 1):
            grid.cell(r, c)  # refuses gaps
    for reg in grid.regions():
        overlaps = not (reg[2] < r1 or reg[0] > r2 or reg[3] < c1 or reg[1] > c2)
        inside = r1 <= reg[0] and reg[2] <= r2 and c1 <= reg[1] and reg[3] <= c2
        if reg == (r1, c1, r2, c2):
            raise ArgumentError(f"cells {region_text(reg)} of {table} are already one merged cell")
        if overlaps and not inside:
            raise UnsupportedOperationError(
                f"the rectangle ({r1},{c1})-({r2},{c2}) cuts through the merged cell {region_text(reg)}; merge a "
                f"rectangle that contains all of it, or split it first with split_cell")
    total = sum(grid.widths()[c1:c2 + 1])
    top = grid.at(r1, c1).tc
    for r in range(r1, r2 + 1):
        cells = [c for c in grid.rows[r].cells if c1 <= c.col <= c2]
        for cell in cells:
            if cell.tc is not top and has_content(cell.tc):
                move_content(cell.tc, top)
        keep = cells[0].tc
        for cell in cells[1:]:
            remove_block(cell.tc)
        ensure_ends_with_paragraph(keep)
        set_span(keep, c2 - c1 + 1)
        set_cell_width(keep, total)
        set_vmerge(keep, None if r1 == r2 else ("restart" if r == r1 else "continue"))
    return f"merged cells ({r1},{c1})-({r2},{c2}) of {table} into one cell; its text is at ({r1},{c1})"


@api(intent=INTENT,
     description="Split a cell. A merged cell goes back to its individual cells (the text stays in the top-left one); "
                 "omit cols for that. An unmerged cell is divided into `cols` side-by-side cells (like Word's Split "
                 "Cells): its column is divided, and the cells above and below span the new columns.",
     params={"table": TABLE_ID, "row": ROW, "col": COL,
             "cols": integer("for an unmerged cell: into how many cells to divide it", 2, 20)},
     examples=[{"table": "t1", "row": 0, "col": 0, "cols": 2},
               Example({"table": "t1", "row": 3, "col": 1}, document="examples/review.docx")])
def split_cell(doc: WordDocument, table: str, row: int, col: int, cols: int | None = None):
    """Unmerge a merged cell, or divide an unmerged one into side-by-side cells."""
    tbl = doc.find(table, "t")
    grid = Grid(tbl, table)
    cell = grid.cell(row, col)
    reg = grid.region(cell)
    widths = grid.widths()
    if reg[0] != reg[2] or reg[1] != reg[3]:
        if cols is not None and cols != reg[3] - reg[1] + 1:
            raise ArgumentError(f"({row},{col}) is in the merged cell {region_text(reg)}, which splits back into its "
                                f"own cells; omit cols", omit=("cols",))
        for part in grid.column_of_region(cell):
            set_vmerge(part.tc, None)
            set_span(part.tc, 1)
            set_cell_width(part.tc, widths[part.col])
            anchor = part.tc
            for k in range(1, part.span):
                new = blank_cell_like(part.tc, widths[part.col + k])
                anchor.addnext(new)
                anchor = new
        return f"split the merged cell {region_text(reg)} of {table} into its individual cells"
    if cols is None:
        merged = ", ".join(region_text(r) for r in grid.regions()) or "none"
        raise ArgumentError(f"cell ({row},{col}) of {table} is not merged (merged cells: {merged}); give cols to divide it")
    c = cell.col
    for other in grid.rows:
        if other.index == row:
            continue
        if c < other.before:
            set_row_gap(other.tr, "w:gridBefore", other.before + cols - 1)
        elif c < other.end:
            covering = other.covering(c)
            set_span(covering.tc, covering.span + cols - 1)
        elif c < other.end + other.after:
            set_row_gap(other.tr, "w:gridAfter", other.after + cols - 1)
    parts = [widths[c] // cols] * cols
    parts[-1] += widths[c] - sum(parts)
    anchor = cell.tc
    for _ in range(cols - 1):
        new = blank_cell_like(cell.tc)
        anchor.addnext(new)
        anchor = new
    set_grid(tbl, widths[:c] + parts + widths[c + 1:])
    sync_cell_widths(Grid(tbl, table))
    return f"divided cell ({row},{col}) of {table} into {cols} cells; the table now has {grid.n_cols + cols - 1} columns"


# --- formatting -------------------------------------------------------------------------------


@api(intent=INTENT,
     description="Make the first `rows` rows the table's header: bold text (bold false makes it not bold), optional "
                 "fill and font colour, and (repeat, default true) repeated at the top of every page the table spans. "
                 "rows 0 removes the header repetition.",
     params={"table": TABLE_ID, "rows": integer("how many rows from the top form the header (default 1)", 0),
             "bold": boolean("make the header text bold (default true)"),
             "fill": FILL, "font_color": color("header text colour"),
             "repeat": boolean("repeat the header rows on each page (default true)")},
     examples=[{"table": "t1", "fill": "D9E2F3"},
               {"table": "t1", "rows": 1, "bold": True, "fill": "1F4E79", "font_color": "white", "repeat": True},
               Example({"table": "t1"}, document="examples/contract_zh.docx")])
def set_header_row(doc: WordDocument, table: str, rows: int = 1, bold: bool = True, fill: str | None = None,
                   font_color: str | None = None, repeat: bool = True):
    """Mark the leading rows as header: ``w:tblHeader``, bold, fill and text colour."""
    tbl = doc.find(table, "t")
    grid = Grid(tbl, table)
    if rows > grid.n_rows:
        raise ArgumentError(f"rows {rows} is more than the table has: {grid.size()}")
    fill_hex = None if fill is None else ("none" if fill == "none" else hex_color(fill, "fill"))
    color_hex = None if font_color is None else hex_color(font_color, "font_color")
    apply_header(grid, rows, bold if rows else None, fill_hex, color_hex, repeat)
    set_first_row_look(tbl, rows > 0)
    if rows == 0:
        return f"{table} has no header rows any more"
    what = ["bold" if bold else "not bold"] + ([f"fill {fill_hex}"] if fill_hex else []) + \
           ([f"text colour {color_hex}"] if color_hex else []) + (["repeated on each page"] if repeat else [])
    return f"made row(s) 0-{rows - 1} of {table} the header ({', '.join(what)})"


@api(intent=INTENT,
     description="Fill (shade) table cells with a background colour, or remove the fill with \"none\".",
     params={"table": TABLE_ID, "cells": CELLS, "fill": FILL},
     examples=[{"table": "t1", "cells": {"row": 0}, "fill": "lightgray"},
               {"table": "t1", "cells": [[1, 1], [3, 3]], "fill": "FFF2CC"},
               {"table": "t1", "cells": {"from": [1, 1], "to": [4, 3]}, "fill": "#E2EFDA"}])
def set_cell_shading(doc: WordDocument, table: str, cells: Any, fill: str):
    """Write or remove ``w:shd`` on the chosen cells."""
    grid = _grid(doc, table)
    value = "none" if fill == "none" else hex_color(fill, "fill")
    targets = resolve_cells(grid, cells)
    for cell in targets:
        shade_cell(cell.tc, value)
    return f"{'removed the fill of' if value == 'none' else f'filled with {value}'} {len(targets)} cell(s) of {table}"


@api(intent=INTENT,
     description="Align the text of table cells horizontally (the cells' paragraphs) and/or vertically (within the cell).",
     params={"table": TABLE_ID, "cells": CELLS,
             "horizontal": enum("horizontal alignment", ("left", "center", "right", "justify")),
             "vertical": enum("vertical alignment in the cell", ("top", "center", "bottom"))},
     examples=[{"table": "t1", "cells": {"from": [1, 1], "to": [4, 3]}, "horizontal": "right"},
               {"table": "t1", "cells": "all", "vertical": "center"},
               {"table": "t1", "cells": {"row": 0}, "horizontal": "center", "vertical": "bottom"}])
def set_cell_alignment(doc: WordDocument, table: str, cells: Any, horizontal: str | None = None, vertical: str | None = None):
    """Set paragraph ``w:jc`` and/or cell ``w:vAlign`` on the chosen cells."""
    if horizontal is None and vertical is None:
        raise ArgumentError("give horizontal (left, center, right, justify) and/or vertical (top, center, bottom)")
    grid = _grid(doc, table)
    targets = resolve_cells(grid, cells)
    for cell in targets:
        if vertical is not None:
            replace_child(get_or_add_tcpr(cell.tc), "w:vAlign", w_val=vertical)
        if horizontal is not None:
            for p in cell_paragraphs(cell.tc):
                replace_child(get_or_add_ppr(p), "w:jc", w_val=JC[horizontal])
    how = " and ".join(x for x in (horizontal and f"horizontally {horizontal}", vertical and f"vertically {vertical}") if x)
    return f"aligned {len(targets)} cell(s) of {table} {how}"


@api(intent=INTENT,
     description="Set the borders of a table: line style, thickness and colour, for all lines, the outside frame, "
                 "the inside lines or one side. style none removes those lines. Cell-level borders that would hide "
                 "the change are cleared for the same lines.",
     params={"table": TABLE_ID,
             "style": enum("line style (default single)", ("single", "double", "dashed", "dotted", "thick", "none")),
             "size_pt": number("line thickness in points (default 0.5)", 0.25, 6),
             "color": color("line colour (default automatic, i.e. black)"),
             "scope": enum("which lines (default all)", tuple(_BORDER_SIDES))},
     examples=[{"table": "t1", "style": "double", "size_pt": 1.5, "color": "1F4E79", "scope": "outside"},
               {"table": "t1", "style": "none", "scope": "inside_vertical"},
               {"table": "t1", "style": "dashed", "scope": "all", "color": "gray"}])
def set_table_borders(doc: WordDocument, table: str, style: str = "single", size_pt: float = 0.5,
                      color: str | None = None, scope: str = "all"):
    """Write ``w:tblBorders`` lines and clear cell borders that would override them."""
    tbl = doc.find(table, "t")
    grid = Grid(tbl, table)
    sides = _BORDER_SIDES[scope]
    borders = get_or_add(get_or_add_tblpr(tbl), "w:tblBorders")
    color_hex = "auto" if color is None else hex_color(color, "color")
    size = str(max(2, min(96, round(size_pt * 8))))
    for side in sides:
        for synonym in BORDER_SYNONYMS.get(side, (side,)):
            remove_children(borders, f"w:{synonym}")
        insert_ordered(borders, make(f"w:{side}", w_val=style, w_sz="0" if style == "none" else size, w_space="0",
                                     w_color=color_hex))
    cleared = clear_cell_borders(grid, set(sides))
    note = f"; cleared {cleared} cell-level border setting(s) that overrode them" if cleared else ""
    return f"set {scope} borders of {table} to {style}" + ("" if style == "none" else f" {size_pt}pt {color_hex}") + note


@api(intent=INTENT,
     description="Set table-wide properties: table style, alignment of the table on the page, autofit (true: columns "
                 "adapt to content; false: fixed column widths) and total width (columns are scaled to it).",
     params={"table": TABLE_ID, "style": text('table style name, e.g. "Table Grid"; "none" removes the style'),
             "alignment": enum("table alignment between the margins", ("left", "center", "right")),
             "autofit": boolean("true: column widths adapt to the content; false: fixed widths"),
             "width": TABLE_WIDTH},
     examples=[{"table": "t1", "alignment": "center"}, {"table": "t1", "width": "80%", "autofit": False},
               {"table": "t1", "style": "none", "width": "12cm"}])
def set_table_properties(doc: WordDocument, table: str, style: str | None = None, alignment: str | None = None,
                         autofit: bool | None = None, width: str | None = None):
    """Set table style, ``w:jc``, ``w:tblLayout`` and ``w:tblW`` (scaling the columns)."""
    if style is None and alignment is None and autofit is None and width is None:
        raise ArgumentError("give at least one of style, alignment, autofit, width")
    tbl = doc.find(table, "t")
    tblpr = get_or_add_tblpr(tbl)
    done = []
    if style is not None:
        if style.strip().lower() == "none":
            remove_children(tblpr, "w:tblStyle")
        else:
            replace_child(tblpr, "w:tblStyle", w_val=ensure_style(doc, style, "table"))
        done.append(f"style {style}")
    if alignment is not None:
        replace_child(tblpr, "w:jc", w_val=alignment)
        done.append(f"alignment {alignment}")
    if autofit is not None:
        remove_children(tblpr, "w:tblLayout")
        if not autofit:
            insert_ordered(tblpr, make("w:tblLayout", w_type="fixed"))
        done.append("autofit" if autofit else "fixed column widths")
    if width is not None:
        if width == "auto":
            replace_child(tblpr, "w:tblW", w_w="0", w_type="auto")
        else:
            if width.endswith("%"):
                pct = int(width[:-1])
                if not 1 <= pct <= 100:
                    raise ArgumentError(f"width {width} must be between 1% and 100%")
                total = available_width(tbl, doc.body) * pct // 100
                replace_child(tblpr, "w:tblW", w_w=str(pct * 50), w_type="pct")
            else:
                total = twips(width, "width")
                replace_child(tblpr, "w:tblW", w_w=str(total), w_type="dxa")
            grid = Grid(tbl, table)
            set_grid(tbl, scale_widths(grid.widths(), total))
            sync_cell_widths(Grid(tbl, table))
        done.append(f"width {width}")
    return f"set {', '.join(done)} on {table}"


# --- sorting and splitting --------------------------------------------------------------------


@api(intent=INTENT,
     description="Sort the rows of a table by the text of one column, keeping header rows at the top and footer "
                 "(total) rows at the bottom. Whole rows move with their formatting. numeric is detected when "
                 "omitted (all non-empty values are numbers such as 1,234 or $5.50); empty cells sort last. Tables "
                 "with vertically merged cells in the sorted rows are refused.",
     params={"table": TABLE_ID, "column": COL, "ascending": boolean("ascending order (default true)"),
             "header_rows": integer("rows at the top that stay in place (default: the repeated header rows, or 1)", 0),
             "footer_rows": integer("rows at the bottom that stay in place, e.g. a total row (default 0)", 0),
             "numeric": boolean("compare as numbers (default: detected from the values)")},
     examples=[{"table": "t1", "column": 1, "ascending": False}, {"table": "t1", "column": 0},
               Example({"table": "t1", "column": 1, "ascending": False, "header_rows": 1}, document="examples/contract_zh.docx")])
def sort_table(doc: WordDocument, table: str, column: int, ascending: bool = True, header_rows: int | None = None,
               footer_rows: int = 0, numeric: bool | None = None):
    """Reorder whole ``w:tr`` elements of the body rows by one column's text."""
    tbl = doc.find(table, "t")
    grid = Grid(tbl, table)
    grid.check_col(column)
    if header_rows is None:
        header_rows = header_count(grid) or 1
    first, last = header_rows, grid.n_rows - footer_rows - 1
    if last - first < 1:
        raise ArgumentError(f"nothing to sort: {grid.size()}, and with header_rows {header_rows} and footer_rows "
                            f"{footer_rows} fewer than two rows remain")
    rows = grid.rows[first:last + 1]
    for row in rows:
        if row.tr.getparent() is not tbl:
            raise UnsupportedOperationError(f"row {row.index} of {table} sits inside a content control; it cannot be moved")
        for cell in row.cells:
            reg = grid.region(cell)
            if cell.vmerge == "continue" or reg[0] != reg[2]:  # a lone continuation would join the row moved above it
                what = (f"a vertically merged cell ({region_text(reg)})" if reg[0] != reg[2]
                        else f"a vertical-merge mark on cell ({cell.row},{cell.col})")
                raise UnsupportedOperationError(
                    f"row {row.index} of {table} has {what}; sorting would tear it apart or join it to another "
                    "row. Split it first (split_cell) or leave those rows out with header_rows/footer_rows")
    if last + 1 < grid.n_rows and any(c.vmerge == "continue" for c in grid.rows[last + 1].cells):
        raise UnsupportedOperationError(f"row {last + 1} of {table} continues a vertically merged cell from the rows "
                                        "to be sorted; split it first (split_cell) or change footer_rows")
    keys = []
    for row in rows:
        cell = row.covering(column)
        keys.append((cell_text(grid.origin(cell).tc).strip() if cell is not None else "", row.tr))
    values = [k for k, _ in keys if k]
    if numeric is None:
        numeric = bool(values) and all(parse_number(v) is not None for v in values)
    numbers = [(k, tr) for k, tr in keys if k and numeric and parse_number(k) is not None]
    texts = [(k, tr) for k, tr in keys if k and not (numeric and parse_number(k) is not None)]
    empties = [tr for k, tr in keys if not k]
    ordered = [tr for _, tr in sorted(numbers, key=lambda x: parse_number(x[0]), reverse=not ascending)]
    ordered += [tr for _, tr in sorted(texts, key=lambda x: natural_key(x[0]), reverse=not ascending)]
    ordered += empties
    slots = sorted(tbl.index(tr) for _, tr in keys)
    for _, tr in keys:
        tbl.remove(tr)
    for pos, tr in zip(slots, ordered):
        tbl.insert(pos, tr)
    after = Grid(tbl, table)
    shown = [after.rows[r].covering(column) for r in range(first, min(last + 1, first + 8))]
    order = ", ".join(_short(cell_text(c.tc) if c is not None else "", 15) for c in shown)
    kind = "numbers" if numeric else "text"
    return (f"sorted rows {first}-{last} of {table} by column {column} ({kind}, "
            f"{'ascending' if ascending else 'descending'}); column {column} now reads {order}{' ...' if last - first >= 8 else ''}")


@api(intent=INTENT,
     description="Split a table in two before a row: that row and the rows below become a new table after an empty "
                 "paragraph. Repeated header rows are copied to the new table.",
     params={"table": TABLE_ID, "row": integer("0-based index of the first row of the new table (at least 1)", 1)},
     examples=[{"table": "t1", "row": 3}])
def split_table(doc: WordDocument, table: str, row: int):
    """Move the rows from `row` on into a new table after an empty paragraph."""
    tbl = doc.find(table, "t")
    grid = Grid(tbl, table)
    grid.check_row(row)
    for cell in grid.rows[row].cells:
        if grid.origin(cell) is not cell:
            raise UnsupportedOperationError(f"the vertically merged cell {region_text(grid.region(cell))} crosses row "
                                            f"{row}; split it first (split_cell) or split the table elsewhere")
    if any(r.tr.getparent() is not tbl for r in grid.rows[row:]):
        raise UnsupportedOperationError(f"rows of {table} from {row} on sit inside a content control; they cannot be moved")
    new = make("w:tbl")
    for child in tbl:
        if child.tag in (qn("w:tblPr"), qn("w:tblGrid")):
            new.append(renew_ids(doc, clean_copy(child)))
    headers = header_count(grid)
    for r in grid.rows[:headers if headers < row else 0]:
        new.append(renew_ids(doc, clean_copy(r.tr)))
    for r in grid.rows[row:]:
        new.append(r.tr)
    gap = make("w:p")
    tbl.addnext(gap)
    gap.addnext(new)
    doc.refresh_ids()
    return f"split {table} before row {row}: rows {row}-{grid.n_rows - 1} are now table {element_id(new)}"
