"""Tables compared: the body's (or a story's) aligned by place and content; each pair by place, effective properties,
rows, columns, merged cells, column widths and cells (effective formatting, then their paragraphs)."""

from __future__ import annotations

from typing import Any, Hashable

from autodw.eval.judge.alignment import Alignment, align, ratio
from autodw.eval.judge.describe import cell_range, show, snippet, table_where
from autodw.eval.judge.paragraphs import ParagraphComparison
from autodw.analysis.state.blocks import side_order
from autodw.analysis.state.effective import Formatting, drawn

_CELL_MARGINS_CM = {"top": 0.0, "left": 0.19, "bottom": 0.0, "right": 0.19}  # Word's (108 twips left and right)
# a table's and a table style's effective properties
TABLE_KEYS = ("alignment", "width", "width_cm", "autofit", "indent_cm",
              *(f"cell_margin_{side}_cm" for side in _CELL_MARGINS_CM))
#: what of a cell (or its neighbour) its :func:`_cell_format` reads
_FRAME_KEYS = ("gap", "span", "borders", "width", "margins_cm", "shading", "vertical_alignment", "text_direction")
_OPPOSITE = {"left": "right", "right": "left", "top": "bottom", "bottom": "top"}
#: what of a cell is always compared (its width, margins and border sides where either cell sets them)
CELL_KEYS = ("shading", "vertical_alignment", "text_direction")


class TableComparison(ParagraphComparison):
    """Tables and their cells (whose paragraphs are compared as paragraphs are)."""

    def compare_tables(self) -> None:
        """The body's tables."""
        self.table_list(self.e["tables"], self.a["tables"])

    def table_list(self, te: list[dict[str, Any]], ta: list[dict[str, Any]], within: str = "") -> None:
        """Align two lists of tables (the body's, or a header's or footer's: `within` names it) and compare them."""
        at = f" in {within}" if within else ""
        ce = [tuple(tuple(c.strip() for c in r) for r in t["cells"]) for t in te]
        ca = [tuple(tuple(c.strip() for c in r) for r in t["cells"]) for t in ta]
        # keyed by place and content: tables with the same cells (common in forms) stay apart by where they are
        ke = [(self._table_anchor(t, False), c) for t, c in zip(te, ce)]
        ka = [(self._table_anchor(t, True), c) for t, c in zip(ta, ca)]
        flat_e = [" ".join(" ".join(r) for r in k) for k in ce]
        flat_a = [" ".join(" ".join(r) for r in k) for k in ca]
        al = align(ke, ka, lambda i, j: ratio(flat_e[i], flat_a[j]), moves=(ce, ca))
        for i, j in sorted(al.pairs + al.moved):
            self.table(table_where(i, te[i]) + at, te[i], ta[j])
        for i in al.missing:
            self.add(table_where(i, te[i]) + at, "missing: the table is absent from the actual document")
        for j in al.extra:
            t = ta[j]
            self.add(f"extra table {snippet(' | '.join(t['cells'][0]) if t['cells'] else '')}{at}",
                     f"unexpected: not in the expected document ({t['rows']} rows x {t['cols']} columns, after "
                     f"{self.describe_a(t.get('after_paragraph'))})")

    def _table_anchor(self, t: dict[str, Any], actual: bool) -> Hashable:
        if "nested_in" in t:
            return ("nested", t["nested_in"].get("row"), t["nested_in"].get("col"))
        return self.expected_id(t.get("after_paragraph")) if actual else t.get("after_paragraph")

    def table(self, where: str, te: dict[str, Any], ta: dict[str, Any]) -> None:
        """Compare two corresponding tables (`where`: the expected one described): place, properties, rows, cells."""
        if "nested_in" not in te and self.expected_id(ta.get("after_paragraph")) != te.get("after_paragraph"):
            self.add(where, f"position: expected after {self.describe_e(te.get('after_paragraph'))}, "
                            f"actual after {self.describe_a(ta.get('after_paragraph'))}")
        ne, na = table_props(te, self.fe), table_props(ta, self.fa)
        parts = self.fields(ne, na, ("style", *TABLE_KEYS, "header_rows", "exact_height_rows"))
        parts += self.border_fields(ne["borders"], na["borders"])
        if (te["rows"], te["cols"]) != (ta["rows"], ta["cols"]):
            parts.insert(0, f"size: expected {te['rows']} rows x {te['cols']} columns, actual {ta['rows']} rows x {ta['cols']} columns")
        if parts:
            self.add(where, "; ".join(parts))
        rows_e = [tuple(c.strip() for c in r) for r in te["cells"]]
        rows_a = [tuple(c.strip() for c in r) for r in ta["cells"]]
        if len(rows_e) == len(rows_a):  # as many rows: row by row (a content match could pair one of several empty rows)
            ral = Alignment([(i, i) for i in range(len(rows_e))], [], [], [])
        else:
            ral = align(rows_e, rows_a, lambda i, j: ratio(" ".join(rows_e[i]), " ".join(rows_a[j])))
        for i in ral.missing:
            self.add(f"{where} row {i + 1}", f"missing row: expected {snippet(' | '.join(rows_e[i]), 60)}, actual none")
        for j in ral.extra:
            self.add(f"{where}", f"extra row {snippet(' | '.join(rows_a[j]), 60)} (actual row {j + 1})")
        for i, j in ral.moved:
            self.add(f"{where} row {i + 1}", f"order: expected row {i + 1}, actual row {j + 1}")
        row_pairs = sorted(ral.pairs + ral.moved)
        col_pairs = self._columns(where, te, ta, row_pairs)
        cmap_r = {j: i for i, j in row_pairs}
        cmap_c = {j: i for i, j in col_pairs}
        de, da = te.get("cell_details", []), ta.get("cell_details", [])
        # cells in the same place of tables formatted alike have the same format (a large table's cells are not each
        # resolved twice)
        alike = ne == na and (te["rows"], te["cols"], te.get("column_widths_cm")) == \
            (ta["rows"], ta["cols"], ta.get("column_widths_cm")) and _frames(de) == _frames(da)
        for i, j in row_pairs:
            if te["row_heights_cm"][i:i + 1] and ta["row_heights_cm"][j:j + 1] and \
                    not self.same("height_cm", te["row_heights_cm"][i], ta["row_heights_cm"][j]):
                self.add(f"{where} row {i + 1}", f"height: expected {show(te['row_heights_cm'][i], '_cm')}, "
                                                 f"actual {show(ta['row_heights_cm'][j], '_cm')}")
            for ci, cj in col_pairs:
                ce = de[i][ci] if i < len(de) and ci < len(de[i]) else None
                ca = da[j][cj] if j < len(da) and cj < len(da[j]) else None
                formats = None if alike and (i, ci) == (j, cj) else \
                    (_cell_format(ce, te, ne, i, ci), _cell_format(ca, ta, na, j, cj))
                self.cell(f"{where} row {i + 1} cell {ci + 1}", ce, ca, formats)
        merged_e = {tuple(m) for m in te.get("merged", [])}
        merged_a = set()
        for r1, c1, r2, c2 in ta.get("merged", []):
            corners = (cmap_r.get(r1), cmap_c.get(c1), cmap_r.get(r2), cmap_c.get(c2))
            merged_a.add(corners if None not in corners else ("actual",) + (r1, c1, r2, c2))
        for m in sorted(merged_e - merged_a):
            self.add(f"{where} cells {cell_range(m)}", "merged: expected yes, actual no")
        for m in sorted(merged_a - merged_e, key=str):
            label = cell_range(m) if m[0] != "actual" else cell_range(m[1:]) + " (actual rows and columns)"
            self.add(f"{where} cells {label}", "merged: expected no, actual yes")
        widths_e, widths_a = te.get("column_widths_cm", []), ta.get("column_widths_cm", [])
        if len(widths_e) == len(widths_a) and not self.same("widths_cm", widths_e, widths_a):
            self.add(where, f"column widths: expected {widths_e} cm, actual {widths_a} cm")

    def _columns(self, where: str, te: dict[str, Any], ta: dict[str, Any],
                 row_pairs: list[tuple[int, int]]) -> list[tuple[int, int]]:
        if te["cols"] == ta["cols"]:
            return [(c, c) for c in range(te["cols"])]
        cols_e = [tuple(te["cells"][i][c].strip() for i, _ in row_pairs) for c in range(te["cols"])]
        cols_a = [tuple(ta["cells"][j][c].strip() for _, j in row_pairs) for c in range(ta["cols"])]
        cal = align(cols_e, cols_a, lambda i, j: ratio(" ".join(cols_e[i]), " ".join(cols_a[j])))
        for c in cal.missing:
            self.add(f"{where} column {c + 1}", f"missing column: expected {snippet(' | '.join(cols_e[c]), 60)}, actual none")
        for c in cal.extra:
            self.add(where, f"extra column {snippet(' | '.join(cols_a[c]), 60)} (actual column {c + 1})")
        return sorted(cal.pairs + cal.moved)

    def cell(self, where: str, ce: dict[str, Any] | None, ca: dict[str, Any] | None,
             formats: tuple[dict[str, Any], dict[str, Any]] | None) -> None:
        """Compare two corresponding cells (`formats`: their :func:`_cell_format`s, None when they are known to be the
        same): formatting, then paragraphs. The
        width, margins and border sides are compared where either cell sets them (else the table's differences say
        it): a cell's own value against what the other cell has there, its own or the table's; the width only when one
        side's is out of step with its grid columns (else the column widths say it)."""
        ce, ca = ce or {}, ca or {}
        if ce.get("gap") or ca.get("gap"):
            if bool(ce.get("gap")) != bool(ca.get("gap")):
                self.add(where, f"cell: expected {'none' if ce.get('gap') else 'a cell'}, actual {'none' if ca.get('gap') else 'a cell'}")
            return
        if "text" not in ce or "text" not in ca:  # merged continuations: the merge regions say it
            return
        where = f"{where} {snippet(ce['text'])}" if ce["text"].strip() else f"{where} (empty)"
        if formats is not None:
            self._cell_formats(where, ce, ca, *formats)
        self.paragraphs(where, ce["text"], ca["text"], ce.get("paragraphs", []), ca.get("paragraphs", []))

    def _cell_formats(self, where: str, ce: dict[str, Any], ca: dict[str, Any], fe: dict[str, Any],
                      fa: dict[str, Any]) -> None:
        parts = self.fields(fe, fa, CELL_KEYS)
        if ("width" in ce or "width" in ca) and \
                not all(self.same_without_instruction("width_cm", f.get("width_cm"), f["columns_cm"]) for f in (fe, fa)):
            parts += self.fields(fe, fa, ("width", "width_cm"))
        parts += self.fields(fe, fa, [f"margin_{side}_cm" for side in sorted({*ce.get("margins_cm", {}), *ca.get("margins_cm", {})},
                                                                          key=side_order)])
        sides = {*(ce.get("borders") or {}), *(ca.get("borders") or {})}
        parts += self.border_fields({s: line for s, line in fe["borders"].items() if s in sides},
                                    {s: line for s, line in fa["borders"].items() if s in sides})
        if parts:
            self.add(where, "; ".join(parts))


def table_props(t: dict[str, Any], fmt: Formatting) -> dict[str, Any]:
    """A table's effective properties: its style's (chain) under its own, side by side for borders and default cell
    margins (Word's when nothing sets them); alignment left and indent 0 when nothing sets them; a width in
    centimetres as a length."""
    out = {k: t.get(k) for k in ("style", "header_rows", "exact_height_rows")}
    props: dict[str, Any] = {"alignment": "left", "autofit": True, "indent_cm": 0.0}
    borders: dict[str, dict[str, Any]] = {}
    margins = dict(_CELL_MARGINS_CM)
    for layer in [s.get("table") or {} for s in fmt.chain(t.get("style"))] + [t]:
        props.update({k: layer[k] for k in ("alignment", "width", "autofit", "indent_cm") if k in layer})
        borders.update(layer.get("borders") or {})
        margins.update(layer.get("cell_margins_cm") or {})
    out.update(props, borders=drawn(borders), **{f"cell_margin_{side}_cm": cm for side, cm in margins.items()})
    out.update(_length(out.pop("width", None)))
    return out


def _length(width: str | None) -> dict[str, Any]:
    """A table's or a cell's width as written in the state ("3.5cm", "50%"): {"width_cm": 3.5} for a length (compared
    with its tolerance), {"width": "50%"} for anything else, {} for none."""
    if isinstance(width, str) and width.endswith("cm"):
        try:
            return {"width_cm": float(width[:-2])}
        except ValueError:
            pass
    return {"width": width} if width is not None else {}


def _frames(details: list[list[dict[str, Any] | None]]) -> list[list[tuple | None]]:
    """Each cell's :data:`_FRAME_KEYS` values: two tables with the same frames and properties format each cell alike."""
    return [[None if cell is None else tuple(cell.get(k) for k in _FRAME_KEYS) for cell in row] for row in details]


def _cell_format(cell: dict[str, Any] | None, t: dict[str, Any], props: dict[str, Any], r: int, c: int) -> dict[str, Any]:
    """The effective formatting of the cell at row `r`, column `c` of table `t` (`props`: its :func:`table_props`):
    shading, vertical alignment (top when unset), text direction (left to right, top to bottom when unset); each border
    side its own (a cleared side: no line), else the table's line there (an outer side at the table's edge, an inner one
    within), only sides with a line; each margin its own, else the table's; its width its own, else (an automatic or
    zero width) the sum of its grid columns (``columns_cm``), which Word keeps in step with it."""
    cell = cell or {}
    span = cell.get("span", 1)
    table_lines = props.get("borders") or {}
    place = {"top": "top" if r == 0 else "insideH", "left": "left" if c == 0 else "insideV",
             "bottom": "bottom" if r == t["rows"] - 1 else "insideH", "right": "right" if c + span >= t["cols"] else "insideV"}
    lines = {side: table_lines.get(at) for side, at in place.items()}
    lines.update(_shared_edges(t.get("cell_details") or [], r, c, span))
    lines.update(cell.get("borders") or {})
    grid = t.get("column_widths_cm", [])[c:c + span]
    columns = round(sum(grid), 2) if len(grid) == span and None not in grid else None
    width = _length(cell.get("width"))
    if not width or width.get("width_cm") == 0:
        width = {"width_cm": columns} if columns is not None else {}
    margins = {f"margin_{side}_cm": props.get(f"cell_margin_{side}_cm") for side in _CELL_MARGINS_CM}
    margins.update({f"margin_{side}_cm": cm for side, cm in (cell.get("margins_cm") or {}).items()})
    return {"shading": cell.get("shading"), "vertical_alignment": cell.get("vertical_alignment") or "top",
            "text_direction": cell.get("text_direction") or "lrTb", **width, "columns_cm": columns, **margins,
            "borders": drawn({side: line for side, line in lines.items() if line}) or {}}


def _shared_edges(details: list[list[dict[str, Any] | None]], r: int, c: int, span: int) -> dict[str, Any]:
    """The sides of the cell at row `r`, column `c` that a neighbouring cell draws: a line between two cells is
    written as either cell's side (the left cell's right or the right cell's left) and Word draws it either way."""
    def at(row: int, col: int, spanning: bool = False) -> dict[str, Any] | None:
        """The cell at `row`, `col` (`spanning`: or the cell spanning from its left into it); None for none."""
        if not (0 <= row < len(details) and 0 <= col < len(details[row])):
            return None
        found = next((details[row][k] for k in range(col, -1, -1) if details[row][k] is not None), None) \
            if spanning else details[row][col]
        return None if found is None or found.get("gap") else found

    neighbours = {"left": at(r, c - 1, spanning=True), "right": at(r, c + span),
                  "top": at(r - 1, c), "bottom": at(r + 1, c)}
    drawn_by = {side: (cell or {}).get("borders") or {} for side, cell in neighbours.items()}
    return {side: lines[_OPPOSITE[side]] for side, lines in drawn_by.items() if _OPPOSITE[side] in lines}
