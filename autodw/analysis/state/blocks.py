"""Walk a story (body, header, footer) once: paragraphs, tables, and what sits inside them.

Walks the XML rather than python-docx's lists, which miss content controls, tracked insertions,
smart tags and floating images. Collected on the way: images, hyperlinks, bookmarks, breaks,
comment anchors, note references, tracked changes and fields.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from lxml import etree

from autodw.core.ids import element_id
from autodw.analysis.state.context import StateContext, twips_to_cm, twips_to_pt
from autodw.analysis.state.drawings import read_drawing, read_vml_picture
from autodw.analysis.state.numbering import ListCounter
from autodw.analysis.state.types import (Bookmark, Break, Field, Hyperlink, Image, ListInfo, Paragraph, Table,
                                         TrackedChange)
from autodw.core.xml import MC, first_child, first_children, on_off, qn, wval

# tags, resolved once
P, R, T, TBL, TR, TC = (qn(t) for t in ("w:p", "w:r", "w:t", "w:tbl", "w:tr", "w:tc"))
PPR, RPR, SDT, SDT_CONTENT, SDT_PR = (qn(t) for t in ("w:pPr", "w:rPr", "w:sdt", "w:sdtContent", "w:sdtPr"))
HYPERLINK, INS, DEL, MOVE_TO, MOVE_FROM = (qn(t) for t in ("w:hyperlink", "w:ins", "w:del", "w:moveTo", "w:moveFrom"))
SMART_TAG, CUSTOM_XML, FLD_SIMPLE, DIR, BDO = (qn(t) for t in ("w:smartTag", "w:customXml", "w:fldSimple", "w:dir", "w:bdo"))
BOOKMARK_START, COMMENT_START, COMMENT_END = qn("w:bookmarkStart"), qn("w:commentRangeStart"), qn("w:commentRangeEnd")
TAB, BR, CR, NBH, DRAWING, PICT = (qn(t) for t in ("w:tab", "w:br", "w:cr", "w:noBreakHyphen", "w:drawing", "w:pict"))
FLD_CHAR, INSTR_TEXT, DEL_TEXT, DEL_INSTR = (qn(t) for t in ("w:fldChar", "w:instrText", "w:delText", "w:delInstrText"))
FOOTNOTE_REF, ENDNOTE_REF, COMMENT_REF = qn("w:footnoteReference"), qn("w:endnoteReference"), qn("w:commentReference")
SECT_PR, ALT_CONTENT, ALT_CHOICE = qn("w:sectPr"), f"{{{MC}}}AlternateContent", f"{{{MC}}}Choice"
OBJECT, CONTROL, FRAME_PR = qn("w:object"), qn("w:control"), qn("w:framePr")
OMATH, OMATH_PARA = qn("m:oMath"), qn("m:oMathPara")
_PSTYLE, _NUM_PR, _RPR_CHANGE = qn("w:pStyle"), qn("w:numPr"), qn("w:rPrChange")
#: the tracked changes a paragraph's ``w:pPr`` may hold: the path to each, and its kind
_PARAGRAPH_CHANGES = (((qn("w:pPrChange"),), "paragraph_formatting"), ((RPR, INS), "paragraph_mark_insertion"),
                      ((RPR, DEL), "paragraph_mark_deletion"))
_INLINE_CONTAINERS = {SMART_TAG, CUSTOM_XML, DIR, BDO}
_BLOCK_CONTAINERS = {CUSTOM_XML}
_AUTHOR, _ID, _NAME = qn("w:author"), qn("w:id"), qn("w:name")

#: run property element -> state key, for the toggles
_TOGGLES = {"w:b": "bold", "w:i": "italic", "w:strike": "strike", "w:dstrike": "double_strike",
            "w:caps": "all_caps", "w:smallCaps": "small_caps", "w:vanish": "hidden", "w:outline": "outline",
            "w:shadow": "shadow", "w:emboss": "emboss", "w:imprint": "imprint"}
_TOGGLE_TAGS = {qn(k): v for k, v in _TOGGLES.items()}
_RFONTS, _SZ, _COLOR, _HIGHLIGHT, _U, _VERT, _RSTYLE, _SHD = (
    qn(t) for t in ("w:rFonts", "w:sz", "w:color", "w:highlight", "w:u", "w:vertAlign", "w:rStyle", "w:shd"))
#: run property element -> state key and reading of its w:val: character spacing (twips), raised or lowered
#: position (half-points), width scale (percent)
_MEASURES = {qn("w:spacing"): ("char_spacing_pt", lambda v: int(v) / 20), qn("w:position"): ("position_pt", lambda v: int(v) / 2),
             qn("w:w"): ("scale_pct", int)}


@dataclass
class Sink:
    """What a walk collects besides paragraphs and tables."""

    images: list[Image] = field(default_factory=list)
    hyperlinks: list[Hyperlink] = field(default_factory=list)
    bookmarks: list[Bookmark] = field(default_factory=list)
    line_breaks: list[Break] = field(default_factory=list)
    page_breaks: list[Break] = field(default_factory=list)
    column_breaks: list[Break] = field(default_factory=list)
    comment_anchors: dict[str, list[str]] = field(default_factory=dict)
    note_refs: dict[tuple[str, str], str] = field(default_factory=dict)
    note_offsets: dict[tuple[str, str], int] = field(default_factory=dict)  # characters before the reference
    commented: dict[str, list[str]] = field(default_factory=dict)  # comment id -> the text of its range, in pieces
    open_comments: list[str] = field(default_factory=list)  # ranges started and not yet ended
    tracked_changes: list[TrackedChange] = field(default_factory=list)
    fields: list[Field] = field(default_factory=list)
    content_controls: list[dict[str, Any]] = field(default_factory=list)


def run_format(rpr: etree._Element | None, ctx: StateContext) -> dict[str, Any]:
    """Direct run formatting (only what is set) from a ``w:rPr``."""
    if rpr is None:
        return {}
    fmt: dict[str, Any] = {}
    for child in rpr:
        tag = child.tag
        key = _TOGGLE_TAGS.get(tag)
        if key is not None:
            fmt[key] = on_off(child)
        elif tag == _U:
            val = wval(child)
            fmt["underline"] = False if val in ("none", "0", "false") else (val or "single")
        elif tag == _RFONTS:
            font = _font(child)
            if font:
                fmt["font"] = font
            ea = child.get(qn("w:eastAsia"))
            if ea:
                fmt["east_asia_font"] = ea
        elif tag == _SZ:
            try:
                fmt["size_pt"] = int(wval(child) or 0) / 2
            except ValueError:
                pass
        elif tag == _COLOR:
            val = wval(child)
            if val:  # "auto" kept: it takes away a colour the style gives
                fmt["color"] = "auto" if val == "auto" else val.upper()
        elif tag == _HIGHLIGHT:
            val = wval(child)
            if val and val != "none":
                fmt["highlight"] = val
        elif tag == _VERT:
            val = wval(child)
            if val in ("superscript", "subscript"):
                fmt[val] = True
            elif val == "baseline":  # takes away a style's raised or lowered text
                fmt["superscript"] = fmt["subscript"] = False
        elif tag == _RSTYLE:
            fmt["style"] = ctx.style_name(wval(child))
        elif tag in _MEASURES:
            key, read = _MEASURES[tag]
            try:
                fmt[key] = read(wval(child) or "")
            except ValueError:
                pass
        elif tag == _SHD:
            fill = child.get(qn("w:fill"))
            if fill and fill != "auto":
                fmt["shading"] = fill.upper()
    return fmt


def _font(fonts: etree._Element) -> str | None:
    """The Latin font of a ``w:rFonts``: a theme font ("theme:majorHAnsi", which Word puts before a font named
    alongside it) or a font name; the ASCII slot's first, else the high-ANSI slot's."""
    for theme, name in ((_ASCII_THEME, _ASCII), (_HANSI_THEME, _HANSI)):
        font = f"theme:{fonts.get(theme)}" if fonts.get(theme) else fonts.get(name)
        if font:
            return font
    return None


_ASCII_THEME, _ASCII, _HANSI_THEME, _HANSI = (qn(t) for t in ("w:asciiTheme", "w:ascii", "w:hAnsiTheme", "w:hAnsi"))
_JC, _SPACING, _IND, _PSHD, _PBDR, _BIDI, _TABS = (qn(t) for t in ("w:jc", "w:spacing", "w:ind", "w:shd", "w:pBdr", "w:bidi", "w:tabs"))
_PARA_FLAGS = {qn("w:keepNext"): "keep_with_next", qn("w:keepLines"): "keep_together",
               qn("w:pageBreakBefore"): "page_break_before", qn("w:contextualSpacing"): "contextual_spacing"}
_ALIGN_NAMES = {"both": "justify", "start": "left", "end": "right"}
_LINE_RULES = {"auto": "multiple", "exact": "exactly", "atLeast": "at_least"}

def _hundredths(v: str | None) -> float | None:
    """A count in hundredths (``w:firstLineChars="200"``: 2 characters, ``w:beforeLines="50"``: half a line)."""
    try:
        return int(v) / 100 if v is not None else None
    except ValueError:
        return None


def _flag(v: str | None) -> bool | None:
    """An on/off attribute (``w:beforeAutospacing="1"``)."""
    return None if v is None else v not in ("0", "false", "off")


#: w:ind attributes: state key and conversion (in characters, the form Chinese documents use, Word's over the lengths)
_INDENTS = tuple((qn(attr), key, convert) for attrs, key, convert in (
    (("w:left", "w:start"), "left_cm", twips_to_cm), (("w:right", "w:end"), "right_cm", twips_to_cm),
    (("w:firstLine",), "first_line_cm", twips_to_cm), (("w:hanging",), "hanging_cm", twips_to_cm),
    (("w:leftChars", "w:startChars"), "left_chars", _hundredths), (("w:rightChars", "w:endChars"), "right_chars", _hundredths),
    (("w:firstLineChars",), "first_line_chars", _hundredths), (("w:hangingChars",), "hanging_chars", _hundredths))
    for attr in attrs)
#: w:spacing attributes besides w:line: state key and conversion (lines and auto spacing are Word's over the points)
_SPACINGS = tuple((qn(attr), key, convert) for attr, key, convert in (
    ("w:before", "before_pt", twips_to_pt), ("w:after", "after_pt", twips_to_pt),
    ("w:beforeLines", "before_lines", _hundredths), ("w:afterLines", "after_lines", _hundredths),
    ("w:beforeAutospacing", "before_auto", _flag), ("w:afterAutospacing", "after_auto", _flag)))
_W_LINE, _W_RULE, _W_FILL = (qn(t) for t in ("w:line", "w:lineRule", "w:fill"))


def paragraph_format(ppr: etree._Element | None) -> dict[str, Any]:
    """Alignment, spacing, indentation, keep/page-break flags, shading, borders, direction and tab stops from a
    ``w:pPr`` (a paragraph's, a style's or the document defaults'): what it sets, an off flag and no fill included."""
    out: dict[str, Any] = {}
    if ppr is None:
        return out
    for child in ppr:
        tag = child.tag
        if tag == _JC:
            val = wval(child)
            out["alignment"] = _ALIGN_NAMES.get(val, val)
        elif tag == _SPACING:
            sp: dict[str, Any] = {key: convert(child.get(attr)) for attr, key, convert in _SPACINGS
                                  if child.get(attr) is not None}
            line, rule = child.get(_W_LINE), child.get(_W_RULE) or "auto"
            if line is not None:
                try:
                    sp["line"] = round(int(line) / 240, 2) if rule == "auto" else twips_to_pt(line)
                    sp["line_rule"] = _LINE_RULES.get(rule, rule)
                except ValueError:
                    pass
            if sp:
                out["spacing"] = sp
        elif tag == _IND:
            indent = {key: convert(child.get(attr)) for attr, key, convert in _INDENTS if child.get(attr) is not None}
            if indent:
                out["indent"] = indent
        elif tag in _PARA_FLAGS:  # off too: it takes away what a style gives
            out[_PARA_FLAGS[tag]] = on_off(child)
        elif tag == _PSHD:  # an automatic fill (none) takes away a style's shading
            fill = child.get(_W_FILL)
            out["shading"] = fill.upper() if fill not in (None, "auto") else None
        elif tag == _PBDR:
            if len(child):
                out["border"] = border_sides(child)
        elif tag == _BIDI:
            out["rtl"] = on_off(child)
        elif tag == _TABS:  # a stop of alignment "clear" takes away the style's stop at its position
            out["tabs"] = [{"position_cm": twips_to_cm(t.get(qn("w:pos"))), "alignment": t.get(qn("w:val")),
                            **({"leader": t.get(qn("w:leader"))} if t.get(qn("w:leader")) not in (None, "none") else {})}
                           for t in child.iterchildren(qn("w:tab"))]
    return out


class StoryWalker:
    """One pass over a story. ``paragraphs`` holds the story-level paragraphs in order."""

    def __init__(self, ctx: StateContext, part, sink: Sink, *, count_sections: bool = False):
        self.ctx = ctx
        self.part = part
        self.sink = sink
        self.paragraphs: list[Paragraph] = []
        self.tables: list[Table] = []
        self.section = 0
        self._count_sections = count_sections
        self._field_stack: list[dict[str, Any]] = []
        self._image_seq = 0
        self._list_counter = ListCounter(ctx.numbering)

    # --- block level -----------------------------------------------------------------

    def walk_blocks(self, container: etree._Element, *, cell: dict[str, Any] | None = None,
                    control: str | None = None) -> list[dict[str, Any]]:
        """Read the block content of `container`; return the paragraphs read directly in it."""
        out: list[dict[str, Any]] = []
        for child in container:
            tag = child.tag
            if tag == P:
                para = self.read_paragraph(child, in_cell=cell is not None)
                if control:
                    para["content_control"] = control
                out.append(para)
                if cell is None:
                    para["index"] = len(self.paragraphs)
                    para["section"] = self.section
                    self.paragraphs.append(para)
                    if self._count_sections and first_child(child, qn("w:pPr"), SECT_PR) is not None:
                        self.section += 1
            elif tag == TBL:
                self.read_table(child, parent=cell)
            elif tag == SDT:
                name = self._content_control(child)
                content = first_child(child, SDT_CONTENT)
                if content is not None:
                    out.extend(self.walk_blocks(content, cell=cell, control=name or control))
            elif tag in _BLOCK_CONTAINERS:
                out.extend(self.walk_blocks(child, cell=cell, control=control))
            elif tag == BOOKMARK_START:
                self._bookmark(child, None)
            elif tag == COMMENT_END:
                _end_comment(self.sink, child.get(_ID))
        return out

    def _content_control(self, sdt: etree._Element) -> str | None:
        pr = first_child(sdt, SDT_PR)
        if pr is None:
            return None
        alias, tag = wval(first_child(pr, qn("w:alias"))), wval(first_child(pr, qn("w:tag")))
        gallery = wval(first_child(pr, qn("w:docPartObj"), qn("w:docPartGallery")))
        name = alias or tag or gallery or "content control"
        self.sink.content_controls.append({"name": name, "tag": tag, "gallery": gallery})
        return name

    # --- paragraphs --------------------------------------------------------------------

    def read_paragraph(self, p: etree._Element, *, in_cell: bool = False) -> dict[str, Any]:
        """The state of one paragraph (id, text, style, format, runs, list, images)."""
        ppr = first_child(p, PPR)
        props = first_children(ppr) if ppr is not None else {}
        style_id = wval(props.get(_PSTYLE))
        para: dict[str, Any] = {"id": element_id(p), "index": None, "text": "",
                                "style": self.ctx.paragraph_style(style_id)}
        para.update(paragraph_format(ppr))
        reader = _ParagraphReader(self, para["id"])
        reader.walk(p)
        for cid in self.sink.open_comments:  # a comment range that goes on past this paragraph
            self.sink.commented[cid].append("\n")
        if ppr is not None:
            for path, kind in _PARAGRAPH_CHANGES:
                change = first_child(ppr, *path) if path[0] in props else None
                if change is not None:
                    self.sink.tracked_changes.append({"type": kind, "paragraph": para["id"], "author": change.get(_AUTHOR), "text": ""})
        para["text"] = "".join(reader.text)
        para["runs"] = reader.runs
        list_info = self._list_info(p, props.get(_NUM_PR))
        if list_info:
            para["list"] = list_info
        if reader.images:
            para["images"] = reader.images
        if reader.objects:
            para["objects"] = reader.objects
        if FRAME_PR in props:
            para["frame"] = True
        if SECT_PR in props:
            para["ends_section"] = True
        if in_cell:
            del para["index"]
        return para

    def _list_info(self, p: etree._Element, num_pr: etree._Element | None) -> ListInfo | None:
        """The list paragraph `p` is in (`num_pr`: its own ``w:numPr``; None: its style's, if any)."""
        found = self.ctx.list_num_pr(p)
        if found is None:
            return None
        num_id, ilvl = found[0], str(found[1])
        level = self.ctx.numbering.level(num_id, ilvl)
        info: dict[str, Any] = {"num_id": int(num_id) if num_id.isdigit() else num_id,
                                "level": int(ilvl) if ilvl.isdigit() else 0}
        if level is not None:
            info["format"], info["level_text"] = level.fmt, level.text
            info["kind"] = "bullet" if level.fmt == "bullet" else "numbered"
            indent = paragraph_format(level.ppr).get("indent") if level.ppr is not None else None
            if indent:  # the level's indent: over the paragraph style's, or under it when the style gives the list
                info["indent"] = indent
                if num_pr is None:
                    info["by_style"] = True
        label = self._list_counter.label(num_id, info["level"])
        if label is not None:
            info["label"] = label  # the number it shows, counted in document order ("3.", "2.1")
        return info

    def _bookmark(self, el: etree._Element, paragraph_id: str | None, offset: int | None = None) -> None:
        name = el.get(_NAME)
        if not name or name == "_GoBack":
            return
        entry: dict[str, Any] = {"name": name, "paragraph": paragraph_id}
        if name.startswith("_"):
            entry["hidden"] = True
        if offset is not None:
            entry["offset"] = offset
        self.sink.bookmarks.append(entry)

    # --- tables -------------------------------------------------------------------------

    def read_table(self, tbl: etree._Element, parent: dict[str, Any] | None = None) -> dict[str, Any]:
        """The state of a table: size, text matrix, cells, merges, widths, heights, style."""
        table: dict[str, Any] = {"id": element_id(tbl), "index": len(self.tables)}
        self.tables.append(table)
        if parent is not None:
            table["nested_in"] = parent["location"]
        else:
            table["after_paragraph"] = self.paragraphs[-1]["id"] if self.paragraphs else None
        tblpr = first_child(tbl, qn("w:tblPr"))
        table["style"] = self.ctx.style_name(wval(first_child(tblpr, qn("w:tblStyle")))) if tblpr is not None else None
        if tblpr is not None:
            table.update(table_properties(tblpr))
        grid = [twips_to_cm(g.get(qn("w:w"))) for g in tbl.iterfind(f"{qn('w:tblGrid')}/{qn('w:gridCol')}")]
        rows_state: list[list[dict[str, Any] | None]] = []
        heights: list[float | None] = []
        header_rows: list[int] = []
        exact_rows: list[int] = []
        for r, tr in enumerate(table_rows(tbl)):
            trpr = first_child(tr, qn("w:trPr"))
            h = first_child(trpr, qn("w:trHeight")) if trpr is not None else None
            # a height "auto" (the contents decide; its value is ignored) or 0 is no height
            height = twips_to_cm(h.get(qn("w:val"))) if h is not None and h.get(qn("w:hRule")) != "auto" else None
            heights.append(height or None)
            if h is not None and h.get(qn("w:hRule")) == "exact":
                exact_rows.append(r)
            if trpr is not None and on_off(first_child(trpr, qn("w:tblHeader"))):
                header_rows.append(r)
            row: list[dict[str, Any] | None] = []
            col = _grid_before(trpr)
            row.extend([{"gap": True}] * col)
            for tc in row_cells(tr):
                tcpr = first_child(tc, qn("w:tcPr"))
                span = _int(wval(first_child(tcpr, qn("w:gridSpan")))) if tcpr is not None else None
                span = span or 1
                vmerge = first_child(tcpr, qn("w:vMerge")) if tcpr is not None else None
                location = {"table": table["id"], "row": r, "col": col}
                cell: dict[str, Any] = {"location": location}
                paras = self.walk_blocks(tc, cell=cell)
                text = "\n".join(p["text"] for p in paras)
                state: dict[str, Any] = {"text": text, "paragraphs": paras}
                if tcpr is not None:
                    state.update(cell_properties(tcpr))
                if span > 1:
                    state["span"] = span
                if vmerge is not None and wval(vmerge) in (None, "continue"):
                    state["merged_into"] = "above"
                row.append(state)
                row.extend([{"merged_into": "left"}] * (span - 1))
                col += span
            rows_state.append(row)
        n_cols = max([len(grid)] + [len(r) for r in rows_state]) if rows_state else len(grid)
        table["rows"] = len(rows_state)
        table["cols"] = n_cols
        table["cells"] = [[(c or {}).get("text", "") if c and "merged_into" not in c else "" for c in row]
                          + [""] * (n_cols - len(row)) for row in rows_state]
        table["cell_details"] = [[c if c and ("text" in c or c.get("gap")) else None for c in row]
                                 + [{"gap": True}] * (n_cols - len(row)) for row in rows_state]
        table["column_widths_cm"] = grid
        table["row_heights_cm"] = heights
        if header_rows:
            table["header_rows"] = header_rows
        if exact_rows:
            table["exact_height_rows"] = exact_rows
        table["merged"] = _merge_regions(rows_state)
        return table


def table_properties(tblpr: etree._Element) -> dict[str, Any]:
    """Alignment, borders, width, fixed layout, indent and default cell margins set in a ``w:tblPr`` (a table's or a
    table style's)."""
    out: dict[str, Any] = {}
    jc = wval(first_child(tblpr, qn("w:jc")))
    if jc:
        out["alignment"] = {"start": "left", "end": "right"}.get(jc, jc)
    borders = first_child(tblpr, qn("w:tblBorders"))
    if borders is not None:
        out["borders"] = border_sides(borders)
    width = _width(first_child(tblpr, qn("w:tblW")))
    if width is not None:
        out["width"] = width
    layout = first_child(tblpr, qn("w:tblLayout"))
    if layout is not None and layout.get(qn("w:type")) == "fixed":
        out["autofit"] = False
    indent = _measure_cm(first_child(tblpr, qn("w:tblInd")))
    if indent is not None:
        out["indent_cm"] = indent
    margins = _margins(first_child(tblpr, qn("w:tblCellMar")))
    if margins:
        out["cell_margins_cm"] = margins
    return out


def cell_properties(tcpr: etree._Element) -> dict[str, Any]:
    """Shading, vertical alignment, borders, width, margins and text direction set in a ``w:tcPr``."""
    out: dict[str, Any] = {}
    props = first_children(tcpr)
    shd = props.get(qn("w:shd"))
    if shd is not None and shd.get(qn("w:fill")) not in (None, "auto"):
        out["shading"] = shd.get(qn("w:fill")).upper()
    va = wval(props.get(qn("w:vAlign")))
    if va:
        out["vertical_alignment"] = va
    borders = props.get(qn("w:tcBorders"))
    if borders is not None and len(borders):
        out["borders"] = border_sides(borders)
    width = _width(props.get(qn("w:tcW")))
    if width is not None:
        out["width"] = width
    margins = _margins(props.get(qn("w:tcMar")))
    if margins:
        out["margins_cm"] = margins
    direction = wval(props.get(qn("w:textDirection")))
    if direction:
        out["text_direction"] = direction
    return out


def _width(el: etree._Element | None) -> str | None:
    """A ``w:tblW`` or ``w:tcW`` as "3.5cm" or "50%" (None for an automatic width, or none)."""
    if el is None or el.get(qn("w:type")) not in ("pct", "dxa"):
        return None
    w = el.get(qn("w:w")) or "0"
    if el.get(qn("w:type")) == "dxa":
        return f"{twips_to_cm(w)}cm"
    return w if w.endswith("%") else f"{int(w) / 50:g}%"


def _measure_cm(el: etree._Element | None) -> float | None:
    """A ``w:tblInd`` or a cell margin side (``w:w`` with ``w:type``) in centimetres: twentieths of a point, "nil" as
    0; None for none, or another type (a percentage, auto)."""
    if el is None or el.get(qn("w:type")) not in (None, "dxa", "nil"):
        return None
    return twips_to_cm(el.get(qn("w:w")) if el.get(qn("w:type")) != "nil" else "0")


def _margins(el: etree._Element | None) -> dict[str, float]:
    """The sides of a ``w:tcMar`` or ``w:tblCellMar`` in centimetres ("start" and "end" as "left" and "right"); sides
    not in twentieths of a point left out."""
    out = {}
    for side in el if el is not None else ():
        cm = _measure_cm(side)
        if cm is not None:
            name = etree.QName(side).localname
            out[_SIDE_NAMES.get(name, name)] = cm
    return out


class _ParagraphReader:
    """Inline content of one paragraph: text, merged runs, and side records in the sink."""

    def __init__(self, walker: StoryWalker, paragraph_id: str | None):
        self.w = walker
        self.pid = paragraph_id
        self.text: list[str] = []
        self.length = 0
        self.runs: list[dict[str, Any]] = []
        self.images: list[str] = []
        self.objects: list[str] = []

    def _append(self, s: str) -> None:
        self.text.append(s)
        self.length += len(s)
        for cid in self.w.sink.open_comments:
            self.w.sink.commented[cid].append(s)

    def walk(self, parent: etree._Element, *, link: dict[str, Any] | None = None, inserted: bool = False) -> None:
        sink = self.w.sink
        for child in parent:
            tag = child.tag
            if tag == R:
                self._run(child, link, inserted)
            elif tag == HYPERLINK:
                url, _ = self.w.ctx.rel_target(self.w.part, child.get(qn("r:id")))
                anchor = child.get(qn("w:anchor"))
                entry = {"paragraph": self.pid, "text": "", "offset": self.length}
                if url:
                    entry["url"] = url
                if anchor:
                    entry["anchor"] = anchor
                start = self.length
                self.walk(child, link=entry, inserted=inserted)
                entry["text"] = "".join(self.text)[start:]
                sink.hyperlinks.append(entry)
            elif tag in (INS, MOVE_TO):
                start = self.length
                self.walk(child, link=link, inserted=True)
                sink.tracked_changes.append({"type": "insertion", "paragraph": self.pid, "author": child.get(_AUTHOR),
                                             "text": "".join(self.text)[start:]})
            elif tag in (DEL, MOVE_FROM):
                deleted = "".join(t.text or "" for t in child.iter(DEL_TEXT, T))
                sink.tracked_changes.append({"type": "deletion", "paragraph": self.pid, "author": child.get(_AUTHOR),
                                             "text": deleted})
            elif tag == SDT:
                self.w._content_control(child)
                content = first_child(child, SDT_CONTENT)
                if content is not None:
                    self.walk(content, link=link, inserted=inserted)
            elif tag in _INLINE_CONTAINERS:
                self.walk(child, link=link, inserted=inserted)
            elif tag == FLD_SIMPLE:
                self._field((child.get(qn("w:instr")) or "").strip())
                self.walk(child, link=link, inserted=inserted)
            elif tag == BOOKMARK_START:
                self.w._bookmark(child, self.pid, self.length)
            elif tag == COMMENT_START:
                cid = child.get(_ID)
                sink.comment_anchors.setdefault(cid, []).append(self.pid)
                if cid not in sink.open_comments:
                    sink.open_comments.append(cid)
                    sink.commented.setdefault(cid, [])
            elif tag == COMMENT_END:
                _end_comment(sink, child.get(_ID))
            elif tag == ALT_CONTENT:
                choice = first_child(child, ALT_CHOICE)
                if choice is not None:
                    self.walk(choice, link=link, inserted=inserted)
            elif tag in (OMATH, OMATH_PARA):
                self.runs.append({"text": "", "equation": True})

    def _run(self, r: etree._Element, link: dict[str, Any] | None, inserted: bool) -> None:
        rpr = first_child(r, RPR)
        fmt = run_format(rpr, self.w.ctx)
        change = first_child(rpr, _RPR_CHANGE) if rpr is not None else None
        if change is not None:
            self.w.sink.tracked_changes.append({"type": "formatting", "paragraph": self.pid, "author": change.get(_AUTHOR),
                                                "text": "".join(t.text or "" for t in r.iter(T))})
        if link is not None:
            fmt["hyperlink"] = link.get("url") or f"#{link.get('anchor')}"
        if inserted:
            fmt["tracked_insertion"] = True
        buf: list[str] = []
        sink = self.w.sink
        for child in r:
            tag = child.tag
            if tag == T:
                buf.append(child.text or "")
            elif tag == TAB:
                buf.append("\t")
            elif tag == BR:
                kind = child.get(qn("w:type"))
                if kind in ("page", "column"):
                    (sink.page_breaks if kind == "page" else sink.column_breaks).append(
                        {"paragraph": self.pid, "offset": self.length + len("".join(buf))})
                else:
                    buf.append("\n")
                    sink.line_breaks.append({"paragraph": self.pid, "offset": self.length + len("".join(buf)) - 1})
            elif tag == CR:
                buf.append("\n")
            elif tag == NBH:
                buf.append("-")
            elif tag in (DRAWING, PICT, ALT_CONTENT):
                self._flush(buf, fmt)
                buf = []
                self._drawing(child)
            elif tag in (OBJECT, CONTROL):
                self.objects.append(embedded_object(child))
            elif tag == FLD_CHAR:
                self._fld_char(child)
            elif tag == INSTR_TEXT:
                if self.w._field_stack:
                    self.w._field_stack[-1]["instr"] += child.text or ""
            elif tag in (FOOTNOTE_REF, ENDNOTE_REF):
                kind = "footnote" if tag == FOOTNOTE_REF else "endnote"
                sink.note_refs[(kind, child.get(_ID))] = self.pid
                sink.note_offsets[(kind, child.get(_ID))] = self.length + len("".join(buf))
            elif tag == COMMENT_REF:
                sink.comment_anchors.setdefault(child.get(_ID), [])
                if self.pid not in sink.comment_anchors[child.get(_ID)]:
                    sink.comment_anchors[child.get(_ID)].append(self.pid)
        self._flush(buf, fmt)

    def _flush(self, buf: list[str], fmt: dict[str, Any]) -> None:
        if not buf:
            return
        s = "".join(buf)
        self._append(s)
        last = self.runs[-1] if self.runs else None
        if last is not None and "image" not in last and "equation" not in last and len(last) == len(fmt) + 1 and \
                all(k in last and last[k] == v for k, v in fmt.items()):  # the same format (fmt has no "text")
            last["text"] += s
        else:
            self.runs.append({"text": s, **fmt})

    def _drawing(self, el: etree._Element) -> None:
        if el.tag == ALT_CONTENT:
            choice = first_child(el, ALT_CHOICE)
            for sub in (choice if choice is not None else ()):
                if sub.tag in (DRAWING, PICT):
                    self._drawing(sub)
            return
        if el.tag == DRAWING:
            items = [read_drawing(c, self.w.part) for c in el if c.tag in (qn("wp:inline"), qn("wp:anchor"))]
        else:
            pic = read_vml_picture(el, self.w.part)
            items = [pic] if pic else []
            shape = vml_shape(el) if pic is None else None
            if shape:
                self.objects.append(shape)
        for info in items:
            info["paragraph"] = self.pid
            info["run_index"] = len(self.runs)
            info["sequence"] = self.w._image_seq
            self.w._image_seq += 1
            self.w.sink.images.append(info)
            if info.get("id"):
                self.images.append(info["id"])
            self.runs.append({"text": "", "image": info.get("id")})

    def _fld_char(self, el: etree._Element) -> None:
        kind = el.get(qn("w:fldCharType"))
        stack = self.w._field_stack
        if kind == "begin":
            stack.append({"instr": "", "paragraph": self.pid, "done": False})
        elif kind == "separate" and stack and not stack[-1]["done"]:
            stack[-1]["done"] = True
            self._field(stack[-1]["instr"].strip(), stack[-1]["paragraph"])
        elif kind == "end" and stack:
            fld = stack.pop()
            if not fld["done"]:
                self._field(fld["instr"].strip(), fld["paragraph"])

    def _field(self, instr: str, paragraph: str | None = None) -> None:
        if not instr:
            return
        kind = instr.split(None, 1)[0].upper()
        self.w.sink.fields.append({"type": kind, "instruction": instr, "paragraph": paragraph or self.pid})


_OLE_OBJECT, _V_TEXTBOX, _V_TEXTPATH, _V_SHAPETYPE = (qn(t) for t in ("o:OLEObject", "v:textbox", "v:textpath", "v:shapetype"))


def embedded_object(el: etree._Element) -> str:
    """What a ``w:object`` (or a bare ``w:control``) holds, as the state names it: "control CheckBox1" (an ActiveX
    control), "embedded Excel.Sheet.12" (an OLE object, by its program), else "embedded object"."""
    control = el if el.tag == CONTROL else first_child(el, CONTROL)
    if control is not None:
        return f"control {control.get(_NAME) or '(unnamed)'}"
    ole = next(el.iter(_OLE_OBJECT), None)
    return f"embedded {ole.get('ProgID') or 'object'}" if ole is not None else "embedded object"


def vml_shape(pict: etree._Element) -> str | None:
    """What a VML ``w:pict`` that is no picture holds: "control Name" (an ActiveX control), "text box", "shape" (a
    line, a rectangle); None for WordArt (a watermark's, which the state shows apart) or shape types alone."""
    control = next(pict.iter(CONTROL), None)
    if control is not None:
        return embedded_object(control)
    if next(pict.iter(_V_TEXTPATH), None) is not None or all(c.tag == _V_SHAPETYPE for c in pict):
        return None
    return "text box" if next(pict.iter(_V_TEXTBOX), None) is not None else "shape"


_UNSEEN_SWITCHES = re.compile(r"\\\*\s*(MERGEFORMAT|CHARFORMAT|Arabic)\b", re.IGNORECASE)


def field_code(instruction: str) -> str:
    """A field's instruction as compared: white space collapsed, the field's name in capitals (Word reads it in any
    case), without the switches that only keep the result's formatting when Word updates it (``\\* MERGEFORMAT``,
    ``\\* CHARFORMAT``) or ask for the default number format (``\\* Arabic``)."""
    words = _UNSEEN_SWITCHES.sub("", instruction).split()
    return " ".join(words[:1]).upper() + "".join(" " + w for w in words[1:])


def _end_comment(sink: Sink, cid: str | None) -> None:
    if cid in sink.open_comments:
        sink.open_comments.remove(cid)


def _unwrapped(parent: etree._Element, tag: str):
    """Children of `parent` with `tag`, looking through content-control and custom-XML wrappers."""
    for child in parent:
        if child.tag == tag:
            yield child
        elif child.tag in (SDT, CUSTOM_XML):
            inner = first_child(child, SDT_CONTENT) if child.tag == SDT else child
            if inner is not None:
                yield from _unwrapped(inner, tag)


def table_rows(tbl: etree._Element):
    """The table's rows in order, including rows wrapped in content controls or custom XML."""
    return _unwrapped(tbl, TR)


def row_cells(tr: etree._Element):
    """The row's cells in order, including cells wrapped in content controls or custom XML."""
    return _unwrapped(tr, TC)


def border_sides(borders: etree._Element) -> dict[str, dict[str, Any]]:
    """The sides of a ``w:pBdr`` or ``w:tblBorders`` by name ("start" and "end" as "left" and "right"), each a line, in
    the order of :data:`BORDER_SIDES`; of a side given twice (invalid, but seen), the last, as LibreOffice reads it."""
    sides = {}
    for b in borders:
        name = etree.QName(b).localname
        sides[_SIDE_NAMES.get(name, name)] = _border_line(b)
    return dict(sorted(sides.items(), key=lambda item: side_order(item[0])))


#: the sides of paragraph and table borders, in the order the schema gives them
BORDER_SIDES = ("top", "left", "bottom", "right", "between", "bar", "insideH", "insideV")
_SIDE_NAMES = {"start": "left", "end": "right"}


def side_order(side: str) -> tuple[int, str]:
    """A border side's place in :data:`BORDER_SIDES` (a sort key; sides of other names last, by name)."""
    return (BORDER_SIDES.index(side) if side in BORDER_SIDES else len(BORDER_SIDES), side)


def _border_line(b: etree._Element) -> dict[str, Any]:
    """One side of a border as {"style", "width_pt", "color"} (colour left out when automatic); {"style": "none"} for
    no line ("nil", "none", or no ``w:val``, which the schema requires and gives no default), which takes away the line
    a style gives."""
    style = wval(b) or "none"
    if style in ("none", "nil"):
        return {"style": "none"}
    line: dict[str, Any] = {"style": style}
    size = b.get(qn("w:sz"))
    if size and size.isdigit():
        line["width_pt"] = int(size) / 8
    color = b.get(qn("w:color"))
    if color and color.lower() != "auto":
        line["color"] = color.upper()
    space = b.get(qn("w:space"))
    if space and space.isdigit() and int(space):  # the distance from the text (points)
        line["space_pt"] = float(space)
    if b.get(qn("w:shadow")) in ("1", "true", "on"):
        line["shadow"] = True
    return line


def _grid_before(trpr: etree._Element | None) -> int:
    if trpr is None:
        return 0
    return _int(wval(first_child(trpr, qn("w:gridBefore")))) or 0


def _int(v: str | None) -> int | None:
    try:
        return int(v) if v is not None else None
    except ValueError:
        return None


def _merge_regions(rows: list[list[dict[str, Any] | None]]) -> list[list[int]]:
    """Merged regions [first_row, first_col, last_row, last_col] from spans and vertical-merge marks."""
    regions = []
    n_rows = len(rows)
    for r in range(n_rows):
        for c, cell in enumerate(rows[r]):
            if not cell or "text" not in cell or cell.get("merged_into"):
                continue
            r_end = r
            while r_end + 1 < n_rows and c < len(rows[r_end + 1]) and (rows[r_end + 1][c] or {}).get("merged_into") == "above":
                r_end += 1
            span = cell.get("span", 1)
            if r_end > r or span > 1:
                regions.append([r, c, r_end, c + span - 1])
    return regions
