"""The table model behind the table APIs: rows and cells by grid column, merged regions, cell text,
widths and clean copies, read straight from the XML.

Addressing is the one the state's ``cells`` matrix shows: 0-based rows (rows inside content controls
included) and 0-based *grid* columns, so a cell spanning two columns occupies two positions and a
row starting with ``w:gridBefore`` starts at a later column. python-docx's ``row.cells`` is not used:
it raises ``ValueError: no tc element at grid_offset`` on rows that do not cover the grid.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field
from typing import Any, Iterable, Iterator

from lxml import etree

from autodw.apis.ooxml.elements import (get_or_add, get_or_add_ppr, get_or_add_rpr, insert_ordered, make,
                                        remove_children, replace_child)
from autodw.apis.ooxml.text import atoms, iter_runs, new_run, paragraph_text, replace_span
from autodw.core.document import WordDocument
from autodw.core.errors import ArgumentError, UnsupportedOperationError
from autodw.core.ids import ID_ATTR
from autodw.analysis.state.blocks import row_cells, table_rows
from autodw.core.xml import on_off, qn, wval

TBL, TR, TC, P = qn("w:tbl"), qn("w:tr"), qn("w:tc"), qn("w:p")
TBLPR, TBLGRID, GRIDCOL, TRPR, TCPR, TBLPREX = (qn(t) for t in ("w:tblPr", "w:tblGrid", "w:gridCol", "w:trPr", "w:tcPr",
                                                               "w:tblPrEx"))
SDT, SDT_CONTENT, CUSTOM_XML = qn("w:sdt"), qn("w:sdtContent"), qn("w:customXml")
_TRACKING = {qn(t) for t in ("w:ins", "w:del", "w:moveFrom", "w:moveTo", "w:rPrChange", "w:pPrChange", "w:trPrChange",
                             "w:tcPrChange", "w:cellIns", "w:cellDel", "w:cellMerge")}
_CONTENT_MARKS = (qn("w:drawing"), qn("w:pict"), qn("w:object"), TBL)
DEFAULT_TEXT_WIDTH = 9026  # A4 with 2.54 cm margins, in twips


def _int(value: str | None, default: int = 0) -> int:
    try:
        return int(float(value)) if value is not None else default
    except ValueError:
        return default


@dataclass
class Cell:
    """One ``w:tc``: its row, first grid column, column span and vertical-merge mark."""

    tc: etree._Element
    row: int
    col: int
    span: int
    vmerge: str | None  # "restart", "continue" or None

    @property
    def last(self) -> int:
        """The last grid column the cell covers."""
        return self.col + self.span - 1


@dataclass
class Row:
    """One ``w:tr`` with its cells and the empty grid columns before and after them."""

    tr: etree._Element
    index: int
    before: int
    after: int
    cells: list[Cell] = field(default_factory=list)

    @property
    def end(self) -> int:
        """The grid column after the last cell."""
        return self.cells[-1].last + 1 if self.cells else self.before

    def covering(self, col: int) -> Cell | None:
        """The cell covering grid column `col`, or None (a gap before/after the cells)."""
        for c in self.cells:
            if c.col <= col <= c.last:
                return c
        return None


class Grid:
    """A table's rows and cells by grid column. Rebuild it after every structural change."""

    def __init__(self, tbl: etree._Element, tid: str = "the table"):
        self.tbl, self.tid = tbl, tid
        self.rows: list[Row] = []
        for r, tr in enumerate(table_rows(tbl)):
            trpr = tr.find(TRPR)
            before = _int(wval(trpr.find(qn("w:gridBefore")))) if trpr is not None else 0
            after = _int(wval(trpr.find(qn("w:gridAfter")))) if trpr is not None else 0
            row = Row(tr, r, before, after)
            col = before
            for tc in row_cells(tr):
                tcpr = tc.find(TCPR)
                span = max(1, _int(wval(tcpr.find(qn("w:gridSpan"))), 1)) if tcpr is not None else 1
                vm = tcpr.find(qn("w:vMerge")) if tcpr is not None else None
                vmerge = None if vm is None else ("restart" if wval(vm) == "restart" else "continue")
                row.cells.append(Cell(tc, r, col, span, vmerge))
                col += span
            self.rows.append(row)
        self.gridcols = grid_cols(tbl)
        self.n_rows = len(self.rows)
        self.n_cols = max([len(self.gridcols)] + [r.end for r in self.rows])

    # --- addressing ---------------------------------------------------------------------

    def size(self) -> str:
        """'table t1 has 5 rows and 4 columns (0-based)' for error messages."""
        return f"table {self.tid} has {self.n_rows} rows and {self.n_cols} columns (0-based indices)"

    def check_row(self, r: int, allow_end: bool = False, what: str = "row") -> int:
        """`r` if it is a valid row index (or the append position with `allow_end`), else ArgumentError."""
        top = self.n_rows if allow_end else self.n_rows - 1
        if not 0 <= r <= top:
            extra = f"; {self.n_rows} appends at the end" if allow_end else ""
            raise ArgumentError(f"{what} {r} does not exist: {self.size()}; use 0-{top}{extra}")
        return r

    def check_col(self, c: int, allow_end: bool = False, what: str = "column") -> int:
        """`c` if it is a valid column index (or the append position with `allow_end`), else ArgumentError."""
        top = self.n_cols if allow_end else self.n_cols - 1
        if not 0 <= c <= top:
            extra = f"; {self.n_cols} appends at the end" if allow_end else ""
            raise ArgumentError(f"{what} {c} does not exist: {self.size()}; use 0-{top}{extra}")
        return c

    def at(self, r: int, c: int) -> Cell | None:
        """The cell covering position (`r`, `c`), or None where the row has no cell there."""
        return self.rows[r].covering(c)

    def cell(self, r: int, c: int) -> Cell:
        """The cell at (`r`, `c`): ArgumentError outside the table, UnsupportedOperationError in a gap."""
        self.check_row(r)
        self.check_col(c)
        found = self.at(r, c)
        if found is None:
            raise UnsupportedOperationError(
                f"row {r} of table {self.tid} has no cell at column {c} (the row covers columns "
                f"{self.rows[r].before}-{self.rows[r].end - 1} only)")
        return found

    def above(self, cell: Cell) -> Cell | None:
        """The cell that `cell` continues vertically (same first column, one row up), if it is merged into it."""
        if cell.vmerge != "continue" or cell.row == 0:
            return None
        up = next((c for c in self.rows[cell.row - 1].cells if c.col == cell.col), None)
        return up if up is not None and up.vmerge is not None else None

    def below(self, cell: Cell) -> Cell | None:
        """The cell that continues `cell` vertically in the next row, if any."""
        if cell.vmerge is None or cell.row + 1 >= self.n_rows:
            return None
        down = next((c for c in self.rows[cell.row + 1].cells if c.col == cell.col), None)
        return down if down is not None and down.vmerge == "continue" else None

    def origin(self, cell: Cell) -> Cell:
        """The top cell of the vertical merge `cell` belongs to (the one holding the text)."""
        while (up := self.above(cell)) is not None:
            cell = up
        return cell

    def column_of_region(self, cell: Cell) -> list[Cell]:
        """Every cell of the merged region `cell` belongs to, top to bottom."""
        out = [self.origin(cell)]
        while (down := self.below(out[-1])) is not None:
            out.append(down)
        return out

    def region(self, cell: Cell) -> tuple[int, int, int, int]:
        """(first_row, first_col, last_row, last_col) of the merged region holding `cell`."""
        cells = self.column_of_region(cell)
        return cells[0].row, cells[0].col, cells[-1].row, cells[0].last

    def regions(self) -> list[tuple[int, int, int, int]]:
        """All merged regions larger than one cell, in reading order."""
        out = []
        for row in self.rows:
            for c in row.cells:
                if self.above(c) is None:
                    reg = self.region(c)
                    if reg[0] != reg[2] or reg[1] != reg[3]:
                        out.append(reg)
        return out

    def cells(self) -> Iterator[Cell]:
        """Every cell, row by row."""
        for row in self.rows:
            yield from row.cells

    # --- widths -------------------------------------------------------------------------

    def widths(self) -> list[int]:
        """Grid column widths in twips, padded to ``n_cols`` with the average width when the grid is short."""
        ws = [_int(g.get(qn("w:w"))) for g in self.gridcols]
        known = [w for w in ws if w > 0]
        fill = sum(known) // len(known) if known else DEFAULT_TEXT_WIDTH // max(1, self.n_cols)
        return [w if w > 0 else fill for w in ws] + [fill] * (self.n_cols - len(ws))

    def normalize_grid(self) -> None:
        """Give ``w:tblGrid`` exactly ``n_cols`` columns with positive widths."""
        widths = self.widths()
        set_grid(self.tbl, widths)
        self.gridcols = grid_cols(self.tbl)


def grid_cols(tbl: etree._Element) -> list[etree._Element]:
    """The ``w:gridCol`` elements of a table."""
    grid = tbl.find(TBLGRID)
    return [] if grid is None else grid.findall(GRIDCOL)


def set_grid(tbl: etree._Element, widths: list[int]) -> None:
    """Rewrite ``w:tblGrid`` with these column widths (twips)."""
    grid = tbl.find(TBLGRID)
    if grid is None:
        grid = make("w:tblGrid")
        tblpr = tbl.find(TBLPR)
        if tblpr is not None:
            tblpr.addnext(grid)
        else:
            tbl.insert(0, grid)
    for g in grid.findall(GRIDCOL):
        grid.remove(g)
    for w in widths:
        grid.append(make("w:gridCol", w_w=str(max(1, int(w)))))


def get_or_add_tblpr(tbl: etree._Element) -> etree._Element:
    """The table's ``w:tblPr`` (its first child)."""
    tblpr = tbl.find(TBLPR)
    if tblpr is None:
        tblpr = make("w:tblPr")
        tbl.insert(0, tblpr)
    return tblpr


def get_or_add_trpr(tr: etree._Element) -> etree._Element:
    """The row's ``w:trPr`` (after ``w:tblPrEx``, before the cells)."""
    trpr = tr.find(TRPR)
    if trpr is None:
        trpr = make("w:trPr")
        ex = tr.find(TBLPREX)
        if ex is not None:
            ex.addnext(trpr)
        else:
            tr.insert(0, trpr)
    return trpr


def get_or_add_tcpr(tc: etree._Element) -> etree._Element:
    """The cell's ``w:tcPr`` (its first child)."""
    tcpr = tc.find(TCPR)
    if tcpr is None:
        tcpr = make("w:tcPr")
        tc.insert(0, tcpr)
    return tcpr


def set_cell_width(tc: etree._Element, twips: int) -> None:
    """Write the cell's preferred width ``w:tcW`` in twips."""
    replace_child(get_or_add_tcpr(tc), "w:tcW", w_w=str(max(0, int(twips))), w_type="dxa")


def set_span(tc: etree._Element, span: int) -> None:
    """Set ``w:gridSpan`` (removed for a span of 1)."""
    tcpr = get_or_add_tcpr(tc)
    remove_children(tcpr, "w:gridSpan")
    if span > 1:
        insert_ordered(tcpr, make("w:gridSpan", w_val=str(span)))


def set_vmerge(tc: etree._Element, mode: str | None) -> None:
    """Set ``w:vMerge`` to "restart", "continue" or remove it (None)."""
    tcpr = get_or_add_tcpr(tc)
    remove_children(tcpr, "w:vMerge")
    if mode == "restart":
        insert_ordered(tcpr, make("w:vMerge", w_val="restart"))
    elif mode == "continue":
        insert_ordered(tcpr, make("w:vMerge"))


def set_row_gap(tr: etree._Element, tag: str, n: int) -> None:
    """Set ``w:gridBefore``/``w:gridAfter`` of a row (removed when 0)."""
    trpr = get_or_add_trpr(tr)
    remove_children(trpr, tag)
    if n > 0:
        insert_ordered(trpr, make(tag, w_val=str(n)))


def sync_cell_widths(grid: Grid, cells: Iterable[Cell] | None = None) -> None:
    """Write every (or the given) cell's ``w:tcW`` as the sum of the grid columns it spans, and a fixed
    ``w:tblW`` as the grid's total: widths are always written to the grid AND the cells."""
    widths = grid.widths()
    for cell in grid.cells() if cells is None else cells:
        set_cell_width(cell.tc, sum(widths[cell.col:cell.last + 1]))
    tblw = grid.tbl.find(f"{qn('w:tblPr')}/{qn('w:tblW')}")
    if tblw is not None and tblw.get(qn("w:type")) == "dxa":
        tblw.set(qn("w:w"), str(sum(widths)))


# --- cell content -----------------------------------------------------------------------


def cell_paragraphs(container: etree._Element) -> list[etree._Element]:
    """The cell's own paragraphs (also inside content controls), not those of nested tables or text boxes."""
    out: list[etree._Element] = []
    for child in container:
        if child.tag == P:
            out.append(child)
        elif child.tag == SDT:
            content = child.find(SDT_CONTENT)
            if content is not None:
                out.extend(cell_paragraphs(content))
        elif child.tag == CUSTOM_XML:
            out.extend(cell_paragraphs(child))
    return out


def cell_text(tc: etree._Element) -> str:
    """The cell's text as the state shows it (paragraphs joined by newlines)."""
    return "\n".join(paragraph_text(p) for p in cell_paragraphs(tc))


def has_content(tc: etree._Element) -> bool:
    """True if the cell shows text, a picture, an object or a nested table."""
    return bool(cell_text(tc).strip()) or any(True for _ in tc.iter(*_CONTENT_MARKS))


def strip_ids(el: etree._Element) -> etree._Element:
    """Remove autodw ids (so copies get fresh ones) and tracked-change marks on properties (a copied row or
    cell is not a tracked insertion) from `el` and below; tracked text stays."""
    for e in el.iter():
        e.attrib.pop(ID_ATTR, None)
    for e in list(el.iter(*_TRACKING)):
        parent = e.getparent()
        if parent is not None and parent.tag.endswith("Pr"):
            parent.remove(e)
    return el


def clean_copy(el: etree._Element | None) -> etree._Element | None:
    """A deep copy of a property element without ids or tracked-change marks."""
    return None if el is None else strip_ids(copy.deepcopy(el))


def first_run_rpr(tc: etree._Element) -> etree._Element | None:
    """A clean copy of the ``w:rPr`` of the cell's first run showing text (as Word types over the cell's text),
    else of its first paragraph mark (an empty cell types with its mark's formatting); runs showing nothing (a
    page break, a field's code) are skipped."""
    paras = cell_paragraphs(tc)
    for p in paras:
        for a in atoms(p):
            if a.text:
                return clean_copy(a.run.find(qn("w:rPr")))
    mark = paras[0].find(f"{qn('w:pPr')}/{qn('w:rPr')}") if paras else None
    return clean_copy(mark)


def template_paragraph(tc: etree._Element, text: str = "") -> etree._Element:
    """A new paragraph formatted like the cell's first paragraph (its ``w:pPr``) and first run."""
    paras = cell_paragraphs(tc)
    ppr = clean_copy(paras[0].find(qn("w:pPr"))) if paras else None
    rpr = first_run_rpr(tc)
    p = make("w:p")
    if ppr is not None:
        remove_children(ppr, "w:sectPr")
        p.append(ppr)
    if rpr is not None and len(rpr):
        mark = get_or_add_ppr(p)
        remove_children(mark, "w:rPr")
        insert_ordered(mark, copy.deepcopy(rpr))
    if text:
        p.append(new_run(text, rpr if rpr is not None and len(rpr) else None))
    return p


def blank_cell_like(tc: etree._Element, width: int | None = None, keep_span: bool = False) -> etree._Element:
    """A new empty ``w:tc`` with the properties of `tc` (borders, shading, alignment; no merge marks)."""
    new = make("w:tc")
    tcpr = clean_copy(tc.find(TCPR))
    if tcpr is not None:
        for tag in ("w:hMerge", "w:vMerge") + (() if keep_span else ("w:gridSpan",)):
            remove_children(tcpr, tag)
        new.append(tcpr)
    if width is not None:
        set_cell_width(new, width)
    new.append(template_paragraph(tc))
    return new


def set_cell_text(doc: WordDocument, tc: etree._Element, text: str) -> None:
    """Replace the cell's text; each line becomes a paragraph. The first paragraph is kept (its id, style,
    bookmarks and pictures) and its text takes the formatting of its first run; later paragraphs are
    removed and new lines are new paragraphs formatted like the first. Nested tables stay."""
    paras = cell_paragraphs(tc)
    lines = text.split("\n")
    if not paras:
        first = template_paragraph(tc)
        tc.append(first)
    else:
        first = paras[0]
        for p in paras[1:]:
            remove_block(p)
    rpr = first_run_rpr(tc)
    replace_span(doc, first, 0, len(paragraph_text(first)), lines[0])
    if not lines[0] and rpr is not None and len(rpr) and first.find(f"{qn('w:pPr')}/{qn('w:rPr')}") is None:
        insert_ordered(get_or_add_ppr(first), rpr)  # an emptied cell keeps its text formatting for later typing
    anchor = first
    for line in lines[1:]:
        p = template_paragraph(tc, line)
        anchor.addnext(p)
        anchor = p
    ensure_ends_with_paragraph(tc)


def clear_cell(tc: etree._Element) -> None:
    """Leave the cell with one empty paragraph formatted like its first one (nested content removed)."""
    p = template_paragraph(tc)
    for child in list(tc):
        if child.tag != TCPR:
            tc.remove(child)
    tc.append(p)


def move_content(src: etree._Element, dst: etree._Element) -> None:
    """Append the block content of cell `src` to cell `dst` (dropping `dst`'s lone empty paragraph)."""
    blocks = [c for c in src if c.tag != TCPR]
    if not blocks:
        return
    if not has_content(dst):
        for c in list(dst):
            if c.tag != TCPR:
                dst.remove(c)
    for b in blocks:
        dst.append(b)
    ensure_ends_with_paragraph(dst)


def ensure_ends_with_paragraph(tc: etree._Element) -> None:
    """A cell must end with a paragraph (after a nested table) and hold at least one."""
    blocks = [c for c in tc if c.tag != TCPR]
    if not blocks or blocks[-1].tag == TBL:
        tc.append(make("w:p"))


def remove_block(el: etree._Element) -> None:
    """Remove a paragraph or row; drop a content control left empty by it."""
    parent = el.getparent()
    parent.remove(el)
    while parent is not None and parent.tag in (SDT_CONTENT, CUSTOM_XML) and len(parent) == 0:
        holder = parent.getparent() if parent.tag == SDT_CONTENT else parent
        up = holder.getparent()
        up.remove(holder)
        parent = up



def set_run_flag(rpr: etree._Element, tag: str, on: bool) -> None:
    """Set a toggle property (``w:b``, ``w:i``) explicitly on or off."""
    remove_children(rpr, tag)
    insert_ordered(rpr, make(tag) if on else make(tag, w_val="0"))


def cell_runs(tc: etree._Element) -> Iterator[etree._Element]:
    """The runs of the cell's own paragraphs."""
    for p in cell_paragraphs(tc):
        yield from iter_runs(p)


def format_cell_text(tc: etree._Element, bold: bool | None = None, color: str | None = None) -> None:
    """Make every run of the cell (and its paragraph marks, so typed text matches) bold and/or coloured."""
    targets = [get_or_add_rpr(r) for r in cell_runs(tc)]
    for p in cell_paragraphs(tc):
        targets.append(get_or_add(get_or_add_ppr(p), "w:rPr"))
    for rpr in targets:
        if bold is not None:
            set_run_flag(rpr, "w:b", bold)
            set_run_flag(rpr, "w:bCs", bold)
        if color is not None:
            replace_child(rpr, "w:color", w_val=color)


# --- document geometry ------------------------------------------------------------------


def available_width(el: etree._Element, body: etree._Element) -> int:
    """Twips available to a table placed at `el`: the enclosing cell's width, else the text width of the
    section the element is in (page width minus left and right margins and gutter)."""
    parent = el.getparent()
    while parent is not None and parent.tag != TC:
        parent = parent.getparent()
    if parent is not None:
        tbl = parent.getparent()
        while tbl is not None and tbl.tag != TBL:
            tbl = tbl.getparent()
        if tbl is not None:
            grid = Grid(tbl)
            cell = next((c for c in grid.cells() if c.tc is parent), None)
            if cell is not None:
                return max(720, sum(grid.widths()[cell.col:cell.last + 1]) - 216)
        return DEFAULT_TEXT_WIDTH // 2
    top = el
    while top.getparent() is not None and top.getparent() is not body:
        top = top.getparent()
    sect = None
    if top.getparent() is body:
        for sib in top.itersiblings():
            sect = sib.find(f"{qn('w:pPr')}/{qn('w:sectPr')}") if sib.tag == P else None
            if sect is not None:
                break
    if sect is None:
        sect = body.find(qn("w:sectPr"))
    if sect is None:
        return DEFAULT_TEXT_WIDTH
    pg, mar = sect.find(qn("w:pgSz")), sect.find(qn("w:pgMar"))
    width = _int(wval(pg, "w:w"), 11906)
    if mar is not None:
        width -= _int(wval(mar, "w:left"), 1440) + _int(wval(mar, "w:right"), 1440) + _int(wval(mar, "w:gutter"))
    return width if width > 720 else DEFAULT_TEXT_WIDTH


BORDER_SYNONYMS = {"left": ("left", "start"), "right": ("right", "end")}


def cell_value_text(value: Any) -> str | None:
    """Cell text of a data value (None stays None)."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def region_text(reg: tuple[int, int, int, int]) -> str:
    """``(r1,c1)-(r2,c2)`` for messages."""
    return f"({reg[0]},{reg[1]})-({reg[2]},{reg[3]})"


def writable_cell(grid: Grid, r: int, c: int, value: str) -> Cell | None:
    """The cell that takes `value` at (r, c); None to skip an empty value at a covered position."""
    cell = grid.at(r, c)
    covered = cell is not None and (cell.col != c or grid.origin(cell) is not cell)
    if cell is None or covered:
        if not value:
            return None
        if cell is None:
            raise UnsupportedOperationError(f"row {r} of table {grid.tid} has no cell at column {c} (the row covers "
                                            f"columns {grid.rows[r].before}-{grid.rows[r].end - 1}); leave that value empty")
        reg = grid.region(cell)
        raise ArgumentError(f"position ({r},{c}) of table {grid.tid} lies inside the merged cell {region_text(reg)}: "
                            f"give its text at ({reg[0]},{reg[1]}) and leave ({r},{c}) empty or null")
    return cell


def write_row(doc: WordDocument, grid: Grid, r: int, c0: int, values: list[Any]) -> int:
    """Write `values` into row `r` from column `c0`; None values are skipped. Returns cells written."""
    if c0 + len(values) > grid.n_cols:
        raise ArgumentError(f"{len(values)} values from column {c0} do not fit: {grid.size()}; "
                            "add columns first with insert_column")
    written = 0
    for j, value in enumerate(values):
        s = cell_value_text(value)
        if s is None:
            continue
        cell = writable_cell(grid, r, c0 + j, s)
        if cell is not None:
            set_cell_text(doc, cell.tc, s)
            written += 1
    return written


def header_count(grid: Grid) -> int:
    """How many leading rows repeat as header rows (``w:tblHeader``)."""
    n = 0
    for row in grid.rows:
        trpr = row.tr.find(TRPR)
        if trpr is None or not on_off(trpr.find(qn("w:tblHeader"))):
            break
        n += 1
    return n


def set_first_row_look(tbl, on: bool) -> None:
    """Switch the table style's header-row formatting (``w:tblLook`` firstRow) on or off."""
    look = get_or_add(get_or_add_tblpr(tbl), "w:tblLook")
    look.set(qn("w:firstRow"), "1" if on else "0")
    if look.get(qn("w:val")):
        try:
            val = int(look.get(qn("w:val")), 16)
        except ValueError:
            val = 0x04A0
        look.set(qn("w:val"), f"{(val | 0x20) if on else (val & ~0x20):04X}")


def new_row(grid: Grid, index: int, template: int) -> etree._Element:
    """A new empty row shaped and formatted like row `template`, placed at `index`."""
    tpl = grid.rows[template]
    if not tpl.cells:
        raise UnsupportedOperationError(f"row {template} of table {grid.tid} has no cells to copy")
    tr = make("w:tr")
    ex = clean_copy(tpl.tr.find(TBLPREX))
    if ex is not None:
        tr.append(ex)
    trpr = clean_copy(tpl.tr.find(TRPR))
    if trpr is not None:
        remove_children(trpr, "w:cnfStyle")
        remove_children(trpr, "w:tblHeader")
        tr.append(trpr)
    if index < header_count(grid):
        insert_ordered(get_or_add_trpr(tr), make("w:tblHeader"))
    below = grid.rows[index].cells if 0 < index < grid.n_rows else []
    for cell in tpl.cells:
        tc = blank_cell_like(cell.tc, keep_span=True)
        remove_children(get_or_add_tcpr(tc), "w:cnfStyle")
        if any(b.col == cell.col and b.span == cell.span and b.vmerge == "continue" for b in below):
            set_vmerge(tc, "continue")  # inserted inside a vertical merge: the merged cell grows
        tr.append(tc)
    if index == grid.n_rows:
        grid.rows[-1].tr.addnext(tr)
    else:
        grid.rows[index].tr.addprevious(tr)
    return tr


def default_template_row(grid: Grid, index: int) -> int:
    """The row whose format a new row at `index` copies: the row above, unless that is a header row."""
    if index == 0:
        return 0
    above = grid.rows[index - 1].tr.find(TRPR)
    if index < grid.n_rows and above is not None and on_off(above.find(qn("w:tblHeader"))):
        return index
    return index - 1


def resolve_cells(grid: Grid, spec: Any) -> list[Cell]:
    """Cells named by a CELLS argument, each merged cell expanded to all its ``w:tc`` parts."""
    picked: list[Cell] = []
    if spec == "all":
        picked = list(grid.cells())
    elif isinstance(spec, list):
        picked = [grid.cell(r, c) for r, c in spec]
    elif "from" in spec:
        (r1, c1), (r2, c2) = spec["from"], spec["to"]
        for r, c in ((r1, c1), (r2, c2)):
            grid.check_row(r)
            grid.check_col(c)
        if r2 < r1 or c2 < c1:
            raise ArgumentError(f'"from" {spec["from"]} must be the top-left and "to" {spec["to"]} the bottom-right corner')
        picked = [cell for r in range(r1, r2 + 1) for cell in grid.rows[r].cells if cell.last >= c1 and cell.col <= c2]
    elif "row" in spec:
        picked = list(grid.rows[grid.check_row(spec["row"])].cells)
    else:
        col = grid.check_col(spec["col"])
        picked = [c for row in grid.rows if (c := row.covering(col)) is not None]
    out: dict[int, Cell] = {}
    for cell in picked:
        for part in grid.column_of_region(cell):
            out.setdefault(id(part.tc), part)
    return list(out.values())


def scale_widths(widths: list[int], total: int) -> list[int]:
    """Widths scaled to sum to `total` (rounding absorbed by the last column)."""
    old = sum(widths) or 1
    out = [max(1, round(w * total / old)) for w in widths]
    out[-1] = max(1, out[-1] + total - sum(out))
    return out


def tidy_vertical_merges(grid: Grid) -> None:
    """Drop ``w:vMerge restart`` marks that no longer start a merge."""
    for cell in grid.cells():
        if cell.vmerge == "restart" and grid.below(cell) is None:
            set_vmerge(cell.tc, None)


def apply_header(grid: Grid, rows: int, bold: bool | None, fill: str | None, font_color: str | None, repeat: bool) -> None:
    """Make the first `rows` rows the header: repeated on each page if `repeat`, with the given text look and fill."""
    for row in grid.rows:
        trpr = row.tr.find(TRPR)
        if trpr is not None:
            remove_children(trpr, "w:tblHeader")
        if row.index >= rows:
            continue
        if repeat:
            insert_ordered(get_or_add_trpr(row.tr), make("w:tblHeader"))
        for cell in row.cells:
            if bold is not None or font_color is not None:
                format_cell_text(cell.tc, bold, font_color)
            if fill is not None:
                shade_cell(cell.tc, fill)


def shade_cell(tc: etree._Element, fill: str) -> None:
    """Set (or with "none" remove) the fill of a cell."""
    tcpr = get_or_add_tcpr(tc)
    remove_children(tcpr, "w:shd")
    if fill != "none":
        insert_ordered(tcpr, make("w:shd", w_val="clear", w_color="auto", w_fill=fill))


def clear_cell_borders(grid: Grid, sides: set[str]) -> int:
    """Remove cell and row-exception borders on the lines the table borders now govern; return how many."""
    removed = 0
    for row in grid.rows:
        ex = row.tr.find(f"{qn('w:tblPrEx')}/{qn('w:tblBorders')}")
        if ex is not None:
            for side in sides:
                for synonym in BORDER_SYNONYMS.get(side, (side,)):
                    removed += remove_children(ex, f"w:{synonym}")
        for i, cell in enumerate(row.cells):
            tcb = cell.tc.find(f"{qn('w:tcPr')}/{qn('w:tcBorders')}")
            if tcb is None:
                continue
            edges = {"top": "top" if row.index == 0 else "insideH",
                     "bottom": "bottom" if row.index == grid.n_rows - 1 else "insideH",
                     "left": "left" if i == 0 else "insideV",
                     "right": "right" if i == len(row.cells) - 1 else "insideV",
                     "insideH": "insideH", "insideV": "insideV"}
            for edge, governing in edges.items():
                if governing in sides:
                    for synonym in BORDER_SYNONYMS.get(edge, (edge,)):
                        removed += remove_children(tcb, f"w:{synonym}")
            if len(tcb) == 0:
                tcb.getparent().remove(tcb)
    return removed


_CURRENCY = re.compile(r"[\s\u00a0$€£¥￥₩%元]")


def parse_number(s: str) -> float | None:
    """A number written in a cell ("1,234", "$12.5", "(30)", "45%", "−3"), or None."""
    t = _CURRENCY.sub("", s).replace("\u2212", "-")
    negative = t.startswith("(") and t.endswith(")")
    t = t.strip("()").replace(",", "")
    try:
        value = float(t)
    except ValueError:
        return None
    return -value if negative else value


def natural_key(s: str) -> list:
    """Sort key that orders "item 2" before "item 10"."""
    return [int(part) if i % 2 else part for i, part in enumerate(re.split(r"(\d+)", s.casefold()))]
