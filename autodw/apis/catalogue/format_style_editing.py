"""format_style_editing: character and paragraph formatting, borders and shading, styles, lists, tab
stops, copying formats and the document's default font."""

from __future__ import annotations

from typing import Any

from lxml import etree

from autodw.apis.ooxml import locate
from autodw.apis.ooxml.builtin_styles import (default_style_id, ensure_style, find_style_id, new_style_id, styles_element,
                                             sync_styles_with_effects)
from autodw.apis.ooxml.elements import (get_or_add, get_or_add_ppr, get_or_add_rpr, insert_ordered, make,
                                        remove_children, replace_child)
from autodw.apis.ooxml.formatting import (clear_rpr, copy_paragraph_properties, copy_run_properties, in_hyperlink,
                                          source_rpr, PARAGRAPH_PARAMS, RUN_PARAMS, STYLE_PARAGRAPH_KEYS,
                                          STYLE_RUN_KEYS, apply_paragraph_props, apply_run_props, check_paragraph_props,
                                          apply_own_run_props, check_run_props, describe, given, set_east_asia_hint,
                                          turned_off)
from autodw.apis.ooxml.looks import Looks, matches
from autodw.apis.ooxml.list_styles import (ListStyle, adjacent_paragraph, document_direct_list, document_list_style,
                                           join_list_beside, list_beside, style_numbered)
from autodw.apis.ooxml.numbering import (NUMBER_FORMATS, add_list_definition, copy_list_definition, keep_level_indents,
                                         list_kinds, numbering_of, renumber_from, restart_numbering, set_num_pr,
                                         set_number_text)
from autodw.apis.ooxml.theme_fonts import set_theme_font, theme_font_kind
from autodw.analysis.state.extract import theme_fonts
from autodw.apis.ooxml.styles_edit import (inherits_from, paragraph_style_id, default_rpr, find_style, font_size_pt,
                                           name_taken, style_definitions, style_part)
from autodw.apis.ooxml.search import not_found, searched_where, selected_paragraphs
from autodw.apis.ooxml.text import find_matches, isolate, paragraph_text, resolve_span, text_runs
from autodw.apis.registry import Example, api
from autodw.apis.schema import (COLOR_NAMES, HEX_COLOR_PATTERN, PARAGRAPH_ID, PARAGRAPH_IDS, SEARCH_PARAMS, SPAN, boolean,
                                color, enum, id_of, integer, length, number, text)
from autodw.core.document import WordDocument
from autodw.core.errors import ArgumentError
from autodw.core.ids import element_id
from autodw.core.units import hex_color, twips
from autodw.core.xml import MC, qn

INTENT = "format_style_editing"

P, TBL, PPR, RPR = qn("w:p"), qn("w:tbl"), qn("w:pPr"), qn("w:rPr")
_FALLBACK = f"{{{MC}}}Fallback"

TARGETS = {"description": 'a paragraph id or a list of them (e.g. "p3" or ["p4", "p5"]); a table id ("t1") stands '
                          "for every paragraph in its cells",
           "anyOf": [id_of("p|t", "paragraph or table"),
                     {"type": "array", "items": id_of("p|t", "paragraph or table"), "minItems": 1}]}
PARAGRAPHS = {"description": 'a paragraph id or a list of them, e.g. "p3" or ["p4", "p5", "p6"]',
              "anyOf": [PARAGRAPH_ID, PARAGRAPH_IDS]}
SPAN_EACH = {**SPAN, "description": SPAN["description"] + "; with several paragraphs it is looked up in each"}


# --- addressing -------------------------------------------------------------------------------


def _paragraphs(doc: WordDocument, ids: str | list[str], tables: bool = False) -> list[tuple[str, etree._Element]]:
    """(id, w:p) for paragraph ids (and, if `tables`, every cell paragraph of a table id), without repeats."""
    out: dict[int, tuple[str, etree._Element]] = {}
    for i in dict.fromkeys([ids] if isinstance(ids, str) else ids):
        el = locate.block(doc, i) if tables else doc.find(i, "p")
        if el.tag == TBL:
            for p in el.iter(P):
                if not any(a.tag == _FALLBACK for a in p.iterancestors()):
                    out.setdefault(id(p), (i, p))
        else:
            out.setdefault(id(el), (i, el))
    return list(out.values())


def _span_runs(p: etree._Element, pid: str, span: dict | None) -> tuple[list[etree._Element], str]:
    """The runs covering `span` (split at its ends) or all text runs; and a label for messages."""
    if span is None:
        return text_runs(p), pid
    start, end = resolve_span(p, span, pid)
    if start == end:
        raise ArgumentError(f"the span {start}-{end} of {pid} is empty; give a span that covers some text")
    return isolate(p, start, end), f"{pid} chars {start}-{end}"


def _run_text(r: etree._Element) -> str:
    return "".join(t.text or "" for t in r.iter(qn("w:t")))


def _mark_rpr(p: etree._Element) -> etree._Element:
    """The paragraph mark's run properties (formatting of the pilcrow, the list number and new text)."""
    return get_or_add(get_or_add_ppr(p), "w:rPr")


def _none_given(api_name: str, keys) -> ArgumentError:
    return ArgumentError(f"{api_name}: give at least one property to change: {', '.join(keys)}")


# --- character formatting ---------------------------------------------------------------------


def _run_props(values: dict[str, Any], api_name: str) -> dict[str, Any]:
    """The character properties given among an API's arguments, checked (at least one)."""
    props = given(values, RUN_PARAMS)
    if not props:
        raise _none_given(api_name, RUN_PARAMS)
    check_run_props(props)
    return props


def _format_runs(runs: list[etree._Element], props: dict[str, Any], p: etree._Element, looks: Looks | None) -> None:
    """Apply `props` to each run of paragraph `p` (an East Asian font also sets the run's font hint); a property
    turned off is written off only where the run's styles turn it on (`looks`: the document's, given when one is)."""
    for r in runs:
        rpr = get_or_add_rpr(r)
        _apply_own(rpr, props, p, looks)
        if props.get("east_asia_font"):
            set_east_asia_hint(rpr, _run_text(r))
        if not len(rpr):
            r.remove(rpr)


def _apply_own(rpr: etree._Element, props: dict[str, Any], p: etree._Element, looks: Looks | None) -> None:
    off = turned_off(props)
    apply_own_run_props(rpr, props, looks.styled_on(rpr, p, off) if off else set())


@api(intent=INTENT,
     description="Set character formatting (bold, italic, underline, strikethrough, font, East Asian font, size, "
                 "colour, highlight, superscript/subscript, caps) on whole paragraphs or on part of a paragraph. "
                 "Only the properties you give change; false turns bold, italic, strike, caps or super/subscript off, "
                 "\"none\" removes an underline, highlight or colour. Without a span the paragraph "
                 "mark (and so a list number) gets the formatting too.",
     params={"paragraphs": TARGETS, "span": SPAN_EACH, **RUN_PARAMS},
     examples=[{"paragraphs": "p2", "span": {"match": "first three quarters"}, "bold": True, "color": "C00000"},
               {"paragraphs": ["p34", "p35", "p36"], "italic": True, "size_pt": 12, "font": "Georgia"},
               {"paragraphs": "t1", "highlight": "yellow", "underline": "double"},
               Example({"paragraphs": ["p2", "p3"], "east_asia_font": "黑体", "size_pt": 10.5},
                       document="examples/contract_zh.docx")])
def set_text_format(doc: WordDocument, paragraphs: Any, span: dict | None = None, bold: bool | None = None,
                    italic: bool | None = None, underline: str | None = None, strike: bool | None = None,
                    font: str | None = None, east_asia_font: str | None = None, size_pt: float | None = None,
                    color: str | None = None, highlight: str | None = None, superscript: bool | None = None,
                    subscript: bool | None = None, all_caps: bool | None = None, small_caps: bool | None = None):
    props = _run_props(locals(), "set_text_format")
    looks = Looks(doc) if turned_off(props) else None
    done = []
    for pid, p in _paragraphs(doc, paragraphs, tables=True):
        runs, label = _span_runs(p, pid, span)
        _format_runs(runs, props, p, looks)
        if span is None:
            mark = _mark_rpr(p)
            _apply_own(mark, props, p, looks)
            for el in (mark, mark.getparent()):  # nothing left to say: Word writes no empty properties
                if not len(el):
                    el.getparent().remove(el)
        done.append(label)
    return f"set {describe(props)} on {_listing(done)}"


HAVING_KEYS = ("bold", "italic", "underline", "strike", "font", "east_asia_font", "size_pt", "color", "highlight",
               "superscript", "subscript")
HAVING = {"type": "object", "properties": {**{k: RUN_PARAMS[k] for k in HAVING_KEYS}, "color": color("font colour")},
          "additionalProperties": False,
          "minProperties": 1,
          "description": 'only text that now looks like this (as shown: styles and theme fonts count), e.g. '
                         '{"font": "Comic Sans MS"} or {"color": "FF0000", "bold": true}'}


@api(intent=INTENT,
     description="Set character formatting on every occurrence of a text or a regular expression, or on all text that "
                 "now has some formatting, or both (in the body, everywhere, or in given paragraphs): \"superscript "
                 "every [n]\", \"make every 'Acme' bold\", \"all text in Comic Sans MS becomes Arial\". Only the "
                 "selected characters change; only the properties you give change. Fails if nothing is selected.",
     params={"find": text("the text (or regular expression) whose occurrences get the formatting", 1), "having": HAVING,
             **SEARCH_PARAMS, **RUN_PARAMS},
     examples=[Example({"find": r"\[[0-9]+\]", "regex": True, "superscript": True}, document="examples/notes.docx"),
               {"find": "region", "match_case": False, "whole_word": True, "bold": True, "color": "1F3864"},
               {"having": {"font": "Calibri", "bold": True}, "font": "Arial", "color": "C00000"},
               {"find": r"Q[1-4]", "regex": True, "highlight": "yellow", "scope": "all"},
               Example({"find": "甲方", "bold": True}, document="examples/contract_zh.docx")])
def format_matches(doc: WordDocument, find: str | None = None, having: dict | None = None, regex: bool = False,
                   match_case: bool = True, whole_word: bool = False, scope: str = "body",
                   paragraphs: list[str] | None = None, bold: bool | None = None,
                   italic: bool | None = None, underline: str | None = None, strike: bool | None = None,
                   font: str | None = None, east_asia_font: str | None = None, size_pt: float | None = None,
                   color: str | None = None, highlight: str | None = None, superscript: bool | None = None,
                   subscript: bool | None = None, all_caps: bool | None = None, small_caps: bool | None = None):
    props = _run_props(locals(), "format_matches")
    if find is None and not having:
        raise ArgumentError("format_matches: give find (a text or pattern), having (the current formatting), or both")
    looks = Looks(doc) if having else None
    chosen: list[tuple[etree._Element, list[etree._Element]]] = []
    occurrences = 0
    for p, _ in selected_paragraphs(doc, scope, paragraphs):
        if find is None:
            runs = text_runs(p)
        else:
            spans = find_matches(paragraph_text(p), find, regex=regex, match_case=match_case, whole_word=whole_word)
            runs = [r for start, end, _ in spans for r in isolate(p, start, end)]
            occurrences += len(spans)
        if looks is not None:
            runs = [r for r in runs if matches(looks.of(r, p), having)]
        if runs:
            chosen.append((p, runs))
    if not chosen:
        if find is not None and looks is None:
            raise ArgumentError(not_found(doc, find, scope, paragraphs, regex, match_case, whole_word))
        raise ArgumentError(_nothing_looks_like(doc, looks, having, find, scope, paragraphs))
    looks = looks or (Looks(doc) if turned_off(props) else None)
    for p, runs in chosen:
        _format_runs(runs, props, p, looks)
    what = " and ".join(x for x in (f"{find!r}" if find is not None else "",
                                    f"text with {describe(having)}" if having else "") if x)
    count = f"{occurrences} occurrence(s)" if looks is None else f"{sum(len(r) for _, r in chosen)} run(s)"
    return (f"set {describe(props)} on {count} of {what} in "
            f"{_listing([element_id(p) or '?' for p, _ in chosen])}")


def _nothing_looks_like(doc: WordDocument, looks: Looks, having: dict, find: str | None, scope: str, paragraphs) -> str:
    """Why no text has `having`, with the values the searched text does have (an LLM can pick one)."""
    seen: dict[str, set[str]] = {k: set() for k in having}
    for p, _ in selected_paragraphs(doc, scope, paragraphs):
        for r in text_runs(p):
            fmt = looks.of(r, p)
            for k in having:
                seen[k].add(str(fmt.get(k)))
    found = "; ".join(f"{k} values there: {', '.join(sorted(v)[:8])}" for k, v in seen.items())
    of = f" among the matches of {find!r}" if find is not None else ""
    return f"no text in {searched_where(scope, paragraphs)} has {describe(having)}{of}; {found}"


def _listing(labels: list[str]) -> str:
    unique = list(dict.fromkeys(labels))
    return ", ".join(unique[:15]) + (f", ... ({len(unique)} in all)" if len(unique) > 15 else "")


@api(intent=INTENT,
     description="Remove direct character formatting (bold, fonts, sizes, colours, character styles...) from whole "
                 "paragraphs or part of one, so the text shows its paragraph style's look again. Hyperlinks keep "
                 "their link style; paragraph formatting is not touched.",
     params={"paragraphs": TARGETS, "span": SPAN_EACH},
     examples=[{"paragraphs": "p2"}, {"paragraphs": "p2", "span": {"match": "Revenue grew"}}])
def clear_text_format(doc: WordDocument, paragraphs: Any, span: dict | None = None):
    done = []
    for pid, p in _paragraphs(doc, paragraphs, tables=True):
        runs, label = _span_runs(p, pid, span)
        for r in runs:
            clear_rpr(r.find(RPR), keep_style=in_hyperlink(r))
        if span is None:
            ppr = p.find(PPR)
            clear_rpr(ppr.find(RPR) if ppr is not None else None, keep_style=False)
        done.append(label)
    return f"cleared character formatting of {_listing(done)}"


# --- paragraph formatting ---------------------------------------------------------------------


@api(intent=INTENT,
     description="Set paragraph layout (not the look of the text: bold, colour, font and size are set_text_format): "
                 "alignment, space before/after, line spacing (a multiple, or an exact "
                 "line height), indents (left, right, first line, hanging, or first line in characters for Chinese "
                 "text), keep with next, keep lines together, page break before. Only the properties you give change.",
     params={"paragraphs": TARGETS, **PARAGRAPH_PARAMS},
     examples=[{"paragraphs": "p2", "alignment": "justify", "line_spacing": 1.5, "space_after": "12pt"},
               {"paragraphs": ["p39"], "first_line_indent": "1cm", "left_indent": "0.5cm", "keep_together": True},
               {"paragraphs": "p38", "page_break_before": True},
               Example({"paragraphs": ["p5", "p7", "p25"], "first_line_chars": 2, "line_height": "20pt"},
                       document="examples/contract_zh.docx")])
def set_paragraph_format(doc: WordDocument, paragraphs: Any, alignment: str | None = None, space_before: str | None = None,
                         space_after: str | None = None, line_spacing: float | None = None, line_height: str | None = None,
                         first_line_indent: str | None = None, first_line_chars: float | None = None,
                         hanging_indent: str | None = None, left_indent: str | None = None, right_indent: str | None = None,
                         keep_with_next: bool | None = None, keep_together: bool | None = None,
                         page_break_before: bool | None = None):
    props = given(locals(), PARAGRAPH_PARAMS)
    if not props:
        raise _none_given("set_paragraph_format", PARAGRAPH_PARAMS)
    check_paragraph_props(props)
    targets = _paragraphs(doc, paragraphs, tables=True)
    for _, p in targets:
        char_pt = font_size_pt(doc, paragraph_style_id(p)) if "first_line_chars" in props else 10.5
        apply_paragraph_props(get_or_add_ppr(p), props, char_pt)
    return f"set {describe(props)} on {_listing([pid for pid, _ in targets])}"


FILL = {"type": "string", "description": 'fill colour: hex RGB like "D9E2F3", a name (yellow, lightgray, lightblue, ...), '
                                         'or "none" to remove the shading',
        "anyOf": [{"pattern": HEX_COLOR_PATTERN}, {"enum": [*COLOR_NAMES, "none"]}]}


@api(intent=INTENT,
     description="Shade the background of whole paragraphs with a colour (or remove the shading with \"none\"). "
                 "For table cells use the table APIs.",
     params={"paragraphs": PARAGRAPHS, "fill": FILL},
     examples=[{"paragraphs": ["p39"], "fill": "D9E2F3"}, {"paragraphs": "p2", "fill": "lightgray"}])
def set_paragraph_shading(doc: WordDocument, paragraphs: Any, fill: str):
    targets = _paragraphs(doc, paragraphs)
    for _, p in targets:
        ppr = get_or_add_ppr(p)
        if fill == "none":
            remove_children(ppr, "w:shd")
        else:
            replace_child(ppr, "w:shd", w_val="clear", w_color="auto", w_fill=hex_color(fill, "fill"))
    action = "removed the shading of" if fill == "none" else f"shaded with {fill}"
    return f"{action} {_listing([pid for pid, _ in targets])}"


_SIDES = ("top", "bottom", "left", "right", "between", "box")
_BORDER_STYLES = {"single": "single", "double": "double", "thick": "thick", "dotted": "dotted", "dashed": "dashed",
                  "dot_dash": "dotDash", "triple": "triple", "wave": "wave", "none": "none"}


@api(intent=INTENT,
     description="Draw borders around or between paragraphs: choose sides (\"box\" = all four; \"between\" = lines "
                 "between consecutive bordered paragraphs), line style, width and colour; style \"none\" removes "
                 "those sides. What the call does not give, a side keeps from the border it has. Consecutive "
                 "paragraphs with the same borders share one box.",
     params={"paragraphs": PARAGRAPHS,
             "sides": {"description": 'sides to set: one or a list of top, bottom, left, right, between, or "box" for all '
                                      'four (default "box")',
                       "anyOf": [{"type": "string", "enum": list(_SIDES)},
                                 {"type": "array", "items": {"type": "string", "enum": list(_SIDES)}, "minItems": 1}]},
             "style": enum("line style (default: the side's own, or single)", tuple(_BORDER_STYLES)),
             "size_pt": number("line width in points, 0.25 to 6 (default: the side's own, or 0.5)", 0.25, 6),
             "color": color("line colour (default: the side's own, or automatic, usually black)"),
             "space_pt": integer("distance between text and border in points (default: the side's own, or 1 above/below, "
                                 "4 left/right)", 0, 31)},
     examples=[{"paragraphs": ["p39"], "sides": ["box"], "style": "single", "size_pt": 1, "color": "1F4E79"},
               {"paragraphs": "p1", "sides": "bottom", "style": "double"}])
def set_paragraph_border(doc: WordDocument, paragraphs: Any, sides: str | list[str] | None = None, style: str | None = None,
                         size_pt: float | None = None, color: str | None = None, space_pt: int | None = None):
    wanted: list[str] = []
    for side in [sides] if isinstance(sides, str) else sides or ["box"]:
        wanted += ["top", "left", "bottom", "right"] if side == "box" else [side]
    wanted = list(dict.fromkeys(wanted))
    given = {_W_VAL: _BORDER_STYLES[style] if style else None, _W_SZ: str(max(2, round(size_pt * 8))) if size_pt else None,
             _W_COLOR: hex_color(color, "color") if color else None, _W_SPACE: str(space_pt) if space_pt is not None else None}
    targets = _paragraphs(doc, paragraphs)
    looks = Looks(doc)
    for _, p in targets:
        ppr = get_or_add_ppr(p)
        pbdr = get_or_add(ppr, "w:pBdr")
        styled = looks.style_border(p)
        for side in wanted:
            if style == "none":  # a line the style draws is taken away ("nil", as Word does), a direct one deleted
                if side in styled:
                    replace_child(pbdr, f"w:{side}", w_val="nil")
                else:
                    remove_children(pbdr, f"w:{side}")
                continue
            attrs = _border_now(pbdr.find(qn(f"w:{side}")), styled.get(side), side)
            if given[_W_COLOR]:  # a colour given replaces the theme colour the side had
                attrs = {k: v for k, v in attrs.items() if k not in _THEME_COLOR}
            attrs.update({k: v for k, v in given.items() if v is not None})
            line = make(f"w:{side}")
            for k in _BORDER_ORDER + [k for k in attrs if k not in _BORDER_ORDER]:
                if k in attrs:
                    line.set(k, attrs[k])
            remove_children(pbdr, f"w:{side}")
            insert_ordered(pbdr, line)
        if len(pbdr) == 0:
            ppr.remove(pbdr)
    if style == "none":
        return f"removed {'/'.join(wanted)} borders on {_listing([pid for pid, _ in targets])}"
    said = [v for v in (style, f"{size_pt}pt" if size_pt else None, color, f"{space_pt}pt from the text" if space_pt is not None
                        else None) if v]
    return (f"set {'/'.join(wanted)} borders on {_listing([pid for pid, _ in targets])}"
            + (f" ({', '.join(said)}; the rest as each side had it)" if said else " (each side as it had it)"))


_W_VAL, _W_SZ, _W_SPACE, _W_COLOR = (qn(t) for t in ("w:val", "w:sz", "w:space", "w:color"))
_BORDER_ORDER = [_W_VAL, _W_SZ, _W_SPACE, _W_COLOR]
_THEME_COLOR = {qn(t) for t in ("w:themeColor", "w:themeTint", "w:themeShade")}


def _border_now(direct: etree._Element | None, styled: dict[str, Any] | None, side: str) -> dict[str, str]:
    """The attributes of the line a border side draws now: its own (``w:pBdr``), else its style's; a side without a
    line gets the defaults (single, 0.5 pt, automatic colour, 1 pt above and below the text, 4 pt beside it)."""
    if direct is not None and direct.get(_W_VAL) not in (None, "none", "nil"):
        return dict(direct.attrib)
    if direct is None and styled and styled.get("style") not in (None, "none", "nil"):
        out = {_W_VAL: styled["style"], _W_SZ: str(round(styled.get("width_pt", 0.5) * 8)),
               _W_SPACE: str(round(styled.get("space_pt", 0))), _W_COLOR: styled.get("color") or "auto"}
        return {**out, **({qn("w:shadow"): "1"} if styled.get("shadow") else {})}
    return {_W_VAL: "single", _W_SZ: "4", _W_SPACE: "4" if side in ("left", "right") else "1", _W_COLOR: "auto"}


# --- tab stops ------------------------------------------------------------------------------

_TAB_STOP = {"type": "object", "additionalProperties": False, "required": ["position"],
             "description": "one tab stop",
             "properties": {"position": length("distance from the left indent"),
                            "alignment": enum("how text aligns at the stop (default left)",
                                              ("left", "center", "right", "decimal", "bar")),
                            "leader": enum("characters that fill the gap before the stop (default none)",
                                           ("none", "dot", "hyphen", "underscore", "middleDot"))}}


@api(intent=INTENT,
     description="Set tab stops of paragraphs (e.g. a right-aligned stop with dot leader for \"Name ........ Page\"). "
                 "By default the paragraphs' own tab stops are replaced; an empty list with clear_existing removes them.",
     params={"paragraphs": PARAGRAPHS,
             "stops": {"type": "array", "items": _TAB_STOP, "description": 'tab stops, e.g. [{"position": "15cm", '
                       '"alignment": "right", "leader": "dot"}]'},
             "clear_existing": boolean("remove the paragraphs' existing tab stops first (default true)")},
     examples=[{"paragraphs": ["p39"], "stops": [{"position": "8cm", "alignment": "center"},
                                                 {"position": "15cm", "alignment": "right", "leader": "dot"}]}])
def set_tab_stops(doc: WordDocument, paragraphs: Any, stops: list[dict], clear_existing: bool = True):
    new = [(twips(s["position"], "position"), s.get("alignment", "left"), s.get("leader", "none")) for s in stops]
    if any(pos > 31680 for pos, _, _ in new):
        raise ArgumentError("a tab stop position must be at most 22in (55.88cm)")
    targets = _paragraphs(doc, paragraphs)
    for _, p in targets:
        ppr = get_or_add_ppr(p)
        tabs = get_or_add(ppr, "w:tabs")
        if clear_existing:
            for old in list(tabs):
                tabs.remove(old)
        for pos, align, leader in new:
            for old in tabs.findall(qn("w:tab")):
                if old.get(qn("w:pos")) == str(pos):
                    tabs.remove(old)
            tab = make("w:tab", w_val=align, w_pos=str(pos))
            if leader != "none":
                tab.set(qn("w:leader"), leader)
            tabs.append(tab)
        ordered = sorted(tabs, key=lambda t: int(t.get(qn("w:pos"), "0")))
        for t in ordered:
            tabs.append(t)
        if len(tabs) == 0:
            ppr.remove(tabs)
    what = ", ".join(f"{a}@{round(pos / 567, 2)}cm" for pos, a, _ in new) or "none"
    return f"set tab stops ({what}) on {_listing([pid for pid, _ in targets])}"


# --- styles -----------------------------------------------------------------------------------


@api(intent=INTENT,
     description="Apply a style by name: a paragraph style (\"Heading 2\", \"Quote\", \"Normal\", a custom one) to "
                 "whole paragraphs, or a character style (\"Strong\", \"Emphasis\"...) to part of a paragraph given "
                 "by span. Word's built-in headings, Title, Caption, List Paragraph etc. are added if missing.",
     params={"paragraphs": PARAGRAPHS, "style": text("style name as Word shows it, e.g. \"Heading 2\", \"Strong\"", 1),
             "span": {**SPAN_EACH, "description": "only with a character style: " + SPAN_EACH["description"]}},
     examples=[{"paragraphs": ["p8", "p31"], "style": "Quote"},
               {"paragraphs": "p39", "style": "Heading 2"},
               {"paragraphs": "p2", "style": "Strong", "span": {"match": "three quarters"}},
               Example({"paragraphs": "p2", "style": "Heading 2"}, document="examples/contract_zh.docx")])
def apply_style(doc: WordDocument, paragraphs: Any, style: str, span: dict | None = None):
    targets = _paragraphs(doc, paragraphs)
    el, kind = find_style(doc, style, ("character",) if span is not None else ("paragraph", "character"))
    sid = el.get(qn("w:styleId"))
    done = []
    for pid, p in targets:
        if kind == "paragraph":
            replace_child(get_or_add_ppr(p), "w:pStyle", w_val=sid)
            join_list_beside(doc, p)
            done.append(pid)
            continue
        runs, label = _span_runs(p, pid, span)
        for r in runs:
            replace_child(get_or_add_rpr(r), "w:rStyle", w_val=sid)
        done.append(label)
    return f"applied {kind} style {style!r} to {_listing(done)}"


_STYLE_PARAMS = {
    **{k: RUN_PARAMS[k] for k in STYLE_RUN_KEYS},
    **{k: PARAGRAPH_PARAMS[k] for k in STYLE_PARAGRAPH_KEYS},
}


def _style_props(values: dict[str, Any], kind: str) -> tuple[dict[str, Any], dict[str, Any]]:
    run = given(values, STYLE_RUN_KEYS)
    para = given(values, STYLE_PARAGRAPH_KEYS)
    if para and kind == "character":
        raise ArgumentError(f"a character style has no paragraph properties; remove {', '.join(para)} or use a paragraph style")
    check_paragraph_props(para)
    return run, para


def _write_style_props(doc: WordDocument, style: etree._Element, run: dict, para: dict) -> None:
    if run:
        apply_run_props(style_part(style, "w:rPr"), run)
    if para:
        char_pt = run.get("size_pt") or font_size_pt(doc, style.get(qn("w:styleId")))
        apply_paragraph_props(style_part(style, "w:pPr"), para, char_pt)


@api(intent=INTENT,
     description="Create a new named style (paragraph, character or table) based on another style, with font, East "
                 "Asian font, size, bold, italic, colour and (for paragraph styles) alignment, spacing and indents; "
                 "optionally apply it right away to paragraphs (or, for a table style, to tables).",
     params={"name": text("the new style's name, e.g. \"Key Point\" or \"正文缩进\"", 1),
             "kind": enum("style type (default paragraph)", ("paragraph", "character", "table")),
             "based_on": text("existing style it inherits from (default: Normal / Default Paragraph Font / Normal Table)", 1),
             "next_style": text("paragraph style for the paragraph typed after this one (default: the same style)", 1),
             **_STYLE_PARAMS,
             "apply_to": {"type": "array", "items": id_of("p|t", "paragraph or table"), "minItems": 1,
                          "description": "ids to apply the new style to: paragraphs (paragraph/character style) or tables (table style)"}},
     examples=[{"name": "Key Point", "based_on": "Normal", "bold": True, "color": "1F4E79", "size_pt": 12,
                "space_before": "6pt", "apply_to": ["p39"]},
               {"name": "Code", "kind": "character", "font": "Courier New", "size_pt": 10, "apply_to": ["p8"]},
               Example({"name": "正文缩进", "font": "Times New Roman", "east_asia_font": "宋体", "size_pt": 12,
                        "first_line_chars": 2, "line_spacing": 1.5, "apply_to": ["p5", "p7", "p25"]},
                       document="examples/contract_zh.docx")])
def create_style(doc: WordDocument, name: str, kind: str = "paragraph", based_on: str | None = None,
                 next_style: str | None = None, font: str | None = None, east_asia_font: str | None = None,
                 size_pt: float | None = None, bold: bool | None = None, italic: bool | None = None,
                 underline: str | None = None, color: str | None = None, alignment: str | None = None,
                 space_before: str | None = None, space_after: str | None = None, line_spacing: float | None = None,
                 first_line_indent: str | None = None, first_line_chars: float | None = None,
                 left_indent: str | None = None, keep_with_next: bool | None = None, apply_to: list[str] | None = None):
    existing = name_taken(doc, name)
    if existing:
        raise ArgumentError(f"a {existing} style called {name!r} already exists; change it with modify_style or choose another name")
    run, para = _style_props(locals(), kind)
    if next_style is not None and kind != "paragraph":
        raise ArgumentError("next_style only applies to paragraph styles")
    # without based_on: the document's default style of the kind, by w:default (its id differs between locales)
    base_id = find_style(doc, based_on, (kind,))[0].get(qn("w:styleId")) if based_on else default_style_id(doc, kind)
    targets = _apply_targets(doc, apply_to or [], kind)
    sid = new_style_id(doc, name)
    style = make("w:style", w_type=kind, w_styleId=sid, w_customStyle="1")
    insert_ordered(style, make("w:name", w_val=name))
    if base_id:
        insert_ordered(style, make("w:basedOn", w_val=base_id))
    if kind == "paragraph":
        nxt = find_style(doc, next_style, ("paragraph",))[0].get(qn("w:styleId")) if next_style else sid
        insert_ordered(style, make("w:next", w_val=nxt))
    if kind != "table":
        insert_ordered(style, make("w:qFormat"))
    styles_element(doc).append(style)
    _write_style_props(doc, style, run, para)
    sync_styles_with_effects(doc)
    for el in targets:
        _apply_style_to(el, kind, sid)
    applied = f"; applied to {', '.join(apply_to)}" if apply_to else ""
    return f"created {kind} style {name!r} (id {sid}){applied}"


def _apply_targets(doc: WordDocument, ids: list[str], kind: str) -> list[etree._Element]:
    want = "t" if kind == "table" else "p"
    return [doc.find(i, want) for i in dict.fromkeys(ids)]


def _apply_style_to(el: etree._Element, kind: str, sid: str) -> None:
    if kind == "paragraph":
        replace_child(get_or_add_ppr(el), "w:pStyle", w_val=sid)
    elif kind == "character":
        for r in text_runs(el):
            replace_child(get_or_add_rpr(r), "w:rStyle", w_val=sid)
    else:
        tblpr = el.find(qn("w:tblPr"))
        if tblpr is None:
            tblpr = make("w:tblPr")
            el.insert(0, tblpr)
        replace_child(tblpr, "w:tblStyle", w_val=sid)


@api(intent=INTENT,
     description="Change an existing style's definition (font, East Asian font, size, bold, italic, underline, colour, "
                 "alignment, spacing, indents, base style), so every paragraph or run using it changes at once. "
                 "Only the properties you give change.",
     params={"name": text("the style's name as Word shows it, e.g. \"Normal\", \"Heading 1\", \"Title\"", 1),
             "based_on": text("make the style inherit from this style", 1), **_STYLE_PARAMS},
     examples=[{"name": "Heading 1", "color": "C00000", "size_pt": 16, "font": "Arial"},
               {"name": "Title", "alignment": "center", "italic": True},
               Example({"name": "Heading 1", "east_asia_font": "黑体", "bold": False, "size_pt": 16},
                       document="examples/contract_zh.docx")])
def modify_style(doc: WordDocument, name: str, based_on: str | None = None, font: str | None = None,
                 east_asia_font: str | None = None, size_pt: float | None = None, bold: bool | None = None,
                 italic: bool | None = None, underline: str | None = None, color: str | None = None,
                 alignment: str | None = None, space_before: str | None = None, space_after: str | None = None,
                 line_spacing: float | None = None, first_line_indent: str | None = None,
                 first_line_chars: float | None = None, left_indent: str | None = None,
                 keep_with_next: bool | None = None):
    style, kind = find_style(doc, name)
    run, para = _style_props(locals(), kind)
    if not run and not para and based_on is None:
        raise _none_given("modify_style", ["based_on", *_STYLE_PARAMS])
    sid = style.get(qn("w:styleId"))
    base = find_style(doc, based_on, (kind,))[0] if based_on is not None else None
    if base is not None and (base is style or inherits_from(doc, base, sid)):
        raise ArgumentError(f"{name!r} cannot be based on {based_on!r}: that would make a loop of styles")
    for definition in style_definitions(doc, sid) if sid else [style]:  # a styles part may define the id twice
        if base is not None:
            replace_child(definition, "w:basedOn", w_val=base.get(qn("w:styleId")))
        _write_style_props(doc, definition, run, para)
    changes = describe({**({"based_on": based_on} if based_on else {}), **run, **para})
    return f"modified {kind} style {name!r}: {changes}"


@api(intent=INTENT,
     description="Set the document's default font (Latin and/or East Asian) and size: what Normal text and every "
                 "style without its own font uses. A conflicting font or size written in the Normal style is "
                 "removed so the new default shows. font \"theme\" (or Word's \"Cambria (Body)\") sets it back to "
                 "the theme's body font, \"theme:headings\" (or \"Calibri (Headings)\") to its heading font, "
                 "which follow the theme; a plain name is that font even when it is the theme's.",
     params={"font": text('default font for Latin text, e.g. "Calibri", "Times New Roman"; "theme" for the theme\'s '
                          'body font, "theme:headings" for its heading font', 1),
             "east_asia_font": text('default font for Chinese/Japanese/Korean text, e.g. "宋体", "SimSun", "Microsoft YaHei"', 1),
             "size_pt": number("default font size in points, e.g. 11 or 10.5", 1, 1638)},
     examples=[{"font": "Georgia", "size_pt": 12},
               Example({"font": "Times New Roman", "east_asia_font": "宋体", "size_pt": 12}, document="examples/contract_zh.docx")])
def set_default_font(doc: WordDocument, font: str | None = None, east_asia_font: str | None = None,
                     size_pt: float | None = None):
    props = given(locals(), ("font", "east_asia_font", "size_pt"))
    if not props:
        raise _none_given("set_default_font", ["font", "east_asia_font", "size_pt"])
    theme = theme_fonts(doc)
    kind = theme_font_kind(font, theme) if font is not None else None
    apply_run_props(default_rpr(doc), {k: v for k, v in props.items() if not (k == "font" and kind)})
    if kind:
        set_theme_font(default_rpr(doc), kind)
        props["font"] = f"{theme[kind]} (the theme's {'body' if kind == 'minor' else 'heading'} font)"
    normal_id = default_style_id(doc)
    cleared: list[str] = []
    for normal in style_definitions(doc, normal_id) if normal_id else []:  # a styles part may define the id twice
        cleared += _clear_default_overrides(normal, props)
    note = f"; removed the {' and '.join(dict.fromkeys(cleared))} the Normal style set" if cleared else ""
    sync_styles_with_effects(doc)
    return f"set the default {describe(props)}{note}"


def _clear_default_overrides(normal: etree._Element, props: dict[str, Any]) -> list[str]:
    """Take out of a Normal style definition the font and size `props` sets as the document default; what was
    taken ("font", "size")."""
    rpr = normal.find(RPR)
    if rpr is None:
        return []
    cleared = []
    fonts = rpr.find(qn("w:rFonts"))
    attrs = (["w:ascii", "w:hAnsi", "w:asciiTheme", "w:hAnsiTheme"] if "font" in props else []) + \
            (["w:eastAsia", "w:eastAsiaTheme"] if "east_asia_font" in props else [])
    if fonts is not None and any(fonts.get(qn(a)) is not None for a in attrs):
        for a in attrs:
            fonts.attrib.pop(qn(a), None)
        cleared.append("font")
        if not fonts.attrib:
            rpr.remove(fonts)
    if "size_pt" in props and (remove_children(rpr, "w:sz") + remove_children(rpr, "w:szCs")):
        cleared.append("size")
    return cleared


# --- lists ------------------------------------------------------------------------------------


@api(intent=INTENT,
     description="Make paragraphs bulleted or numbered list items (with a real Word numbering definition), change "
                 "their list level (0 = top, up to 8), or restart numbering at the first of them (optionally at a "
                 "given number). Without restart, new items continue a list of the same kind directly above them. "
                 "New items take the document's own list style when it has one (e.g. \"List Bullet\"/\"List "
                 "Number\", as the list beside them or most of its lists of that kind use), else the style of the "
                 "list they join or, for bullets, of the document's other bullets, else \"List Paragraph\". "
                 "number_text changes the text around the items' number (\"1)\" to \"1.\", as Word's Define New "
                 "Number Format), at their level; items whose list other paragraphs share at that level get a list "
                 "of their own.",
     params={"paragraphs": PARAGRAPHS,
             "kind": enum("list kind; omit to keep the current list and only change level or numbering", ("bullet", "numbered")),
             "level": integer("list level, 0 = top level, 1 = first sub-level, ... 8", 0, 8),
             "start": integer("number the (first) paragraph gets; implies a restart", 0, 32767),
             "restart": boolean("restart numbering at the first paragraph (later items of the same list follow on)"),
             "number_format": enum("numbering style for a new numbered list (one the document's list style lacks "
                                   "gives plain paragraphs \"List Paragraph\")", tuple(NUMBER_FORMATS)),
             "number_text": text("the numbered items' label with their number written as 1, e.g. \"1.\", \"1)\", "
                                 "\"(1)\", \"Step 1:\"; a lettered or roman level shows its own letters (\"1)\" "
                                 "gives a), b) there; number_format changes the style)", 1)},
     examples=[{"paragraphs": ["p4", "p5", "p6"], "kind": "numbered"},
               {"paragraphs": ["p39"], "kind": "bullet"},
               {"paragraphs": "p35", "level": 1},
               {"paragraphs": ["p35"], "restart": True, "start": 5},
               {"paragraphs": ["p34", "p35", "p36"], "number_text": "1)"},
               Example({"paragraphs": ["p21", "p22", "p23"], "kind": "numbered", "number_format": "chineseCounting"},
                       document="examples/contract_zh.docx")])
def set_list_format(doc: WordDocument, paragraphs: Any, kind: str | None = None, level: int | None = None,
                    start: int | None = None, restart: bool = False, number_format: str | None = None,
                    number_text: str | None = None):
    targets = _paragraphs(doc, paragraphs)
    restart = restart or start is not None
    if kind is None and level is None and not restart and number_text is None and number_format is None:
        raise ArgumentError("give kind (bullet/numbered), level, start, restart, number_format or number_text")
    for value, name in ((number_format, "number_format"), (number_text, "number_text")):
        if value is not None and kind not in (None, "numbered"):
            raise ArgumentError(f"{name} only applies to numbered lists")
    if kind is None and level is None and not restart and number_format is None:
        return _set_number_text(doc, targets, number_text)
    made = _set_list_format(doc, targets, kind, level, start, restart, number_format)
    return made + (_set_number_text(doc, targets, number_text, "; ") if number_text is not None else "")


def _set_number_text(doc: WordDocument, targets: list[tuple[str, etree._Element]], pattern: str,
                     lead: str = "") -> str:
    """Make the targets' labels read `pattern` (:func:`set_number_text`); what was done, for the message."""
    texts, own = set_number_text(doc, [p for _, p in targets], pattern)
    where = "; they got a list of their own, as others share theirs" if own else ""
    return (f"{lead}{'t' if lead else 'T'}he labels of {_listing([pid for pid, _ in targets])} now read as {pattern!r} "
            f"(w:lvlText {', '.join(texts)}){where}")


def _set_list_format(doc: WordDocument, targets: list[tuple[str, etree._Element]], kind: str | None,
                     level: int | None, start: int | None, restart: bool, number_format: str | None) -> str:
    """set_list_format without number_text."""
    kind = kind or ("numbered" if number_format else None)
    current = [numbering_of(doc, p) for _, p in targets]
    list_kind = list_kinds(doc)  # the lists as they are before this call
    if kind is None:
        outside = [pid for (pid, _), (num, lvl, _) in zip(targets, current) if not list_kind(num, lvl)]
        if outside:
            raise ArgumentError(f"{', '.join(outside)} is not a list item; give kind (bullet or numbered) to make it one")
    restyled = [kind is not None and _takes_list_style(doc, p, list_kind(num, lvl), kind)
                for (_, p), (num, lvl, _) in zip(targets, current)]
    model = _list_style_for(doc, kind, targets, current, restyled, level, number_format, list_kind)
    first_num, first_lvl, _ = current[0]
    new_def = False
    like = None  # (style,) plain targets take: the one of the item they continue or of the document's bullets
    if kind is None:
        num_id = None  # keep each paragraph's list
    elif number_format is not None and model is not None:
        num_id, new_def = str(copy_list_definition(doc, model.at(0)[1], start or 1)), True
    elif number_format is not None:  # the format at the items' level, their indents kept
        top = min(level if level is not None else lvl for _, lvl, _ in current)
        num_id, new_def = str(add_list_definition(doc, "number", start or 1, number_format, top)), True
        if list_kind(first_num, first_lvl):
            keep_level_indents(doc, num_id, first_num)
    elif list_kind(first_num, first_lvl) == kind:
        num_id = first_num
        leader = list_beside(doc, kind, [targets[0][1]])  # None for a heading
        like = (paragraph_style_id(leader.paragraph),) if leader is not None else None
    else:
        beside = None if restart else list_beside(doc, kind, [adjacent_paragraph(targets[0][1], "previous")])
        if beside is not None:
            num_id, like = beside.num_id, (paragraph_style_id(beside.paragraph),)
        elif model is not None:
            own = model.at(0)[1]
            num_id, new_def = (str(copy_list_definition(doc, own, start or 1)) if kind == "numbered" else own), True
        elif kind == "bullet" and (direct := document_direct_list(
                doc, kind, _ends_outside(targets), {level if level is not None else lvl for _, lvl, _ in current})):
            num_id, like, new_def = str(restart_numbering(doc, direct[1], None)), direct[:1], True  # Word's bullet
        else:
            num_id = str(add_list_definition(doc, "bullet" if kind == "bullet" else "number", start or 1))
            new_def = True
    list_style = None
    for (pid, p), (num, lvl, _), restyle in zip(targets, current, restyled):
        use, at = num_id or num, level if level is not None else lvl
        if restyle and model is not None:
            style, style_num, ilvl = model.at(at)
            if style_num != model.at(0)[1]:  # a nested level's own style and list ("List Bullet 2")
                use = style_num
            at = ilvl
            replace_child(get_or_add_ppr(p), "w:pStyle", w_val=style)
            if (use, at) == model.own(style):  # the style numbers it: no numbering of its own, as the document's items
                remove_children(get_or_add_ppr(p), "w:numPr")
                continue
        elif restyle and paragraph_style_id(p) in (None, default_style_id(doc)):
            if like is not None:  # the style of the item they continue (as Word's Enter there) or of the bullets
                style = like[0]
            else:
                style = list_style = list_style or ensure_style(doc, "List Paragraph", "paragraph")
            if style not in (None, default_style_id(doc)):
                replace_child(get_or_add_ppr(p), "w:pStyle", w_val=style)
        set_num_pr(p, use, at)
    note = ""
    if restart and not new_def:
        old = num_id or first_num
        if list_kind(old, first_lvl) == "bullet":
            raise ArgumentError("bullets have no numbering to restart; give kind \"numbered\" first")
        fresh = str(restart_numbering(doc, old, start if start is not None else 1))
        moved = renumber_from(doc, [p for _, p in targets], old, fresh)
        note = f"; numbering restarts at {start if start is not None else 1} (numId {fresh}, {moved} paragraph(s))"
    if model is not None and any(restyled):
        note += f"; in the document's list style \"{model.name}\""
    ids = _listing([pid for pid, _ in targets])
    what = f"{kind} list" if kind else "list"
    return f"made {ids} {what} items" + (f" at level {level}" if level is not None else "") + note


def _takes_list_style(doc: WordDocument, p: etree._Element, current: str | None, kind: str) -> bool:
    """Whether `p`, made a `kind` item, takes a list style: a plain paragraph (default style or "List Paragraph")
    that is no list item yet, or an item of the other kind whose style numbers it ("List Bullet" made numbered)."""
    sid = paragraph_style_id(p)
    if not current:
        return sid in (None, default_style_id(doc), find_style_id(doc, "List Paragraph", "paragraph"))
    return current != kind and style_numbered(doc, sid)


def _list_style_for(doc: WordDocument, kind: str | None, targets, current, restyled, level: int | None,
                    number_format: str | None, list_kind) -> ListStyle | None:
    """The document's list style the `restyled` targets take (None: "List Paragraph" as Word's toolbar gives)."""
    if not any(restyled):
        return None
    model = document_list_style(doc, kind, _ends_outside(targets))
    levels = [level if level is not None else lvl if list_kind(num, lvl) else 0
              for (num, lvl, _), restyle in zip(current, restyled) if restyle]
    return model if model is not None and model.fits(levels, number_format) else None


def _ends_outside(targets) -> list[etree._Element | None]:
    """The paragraphs right before and after `targets` (None at a table or the story's end) that are not targets."""
    chosen = {id(p) for _, p in targets}
    ends = [adjacent_paragraph(targets[0][1], "previous"), adjacent_paragraph(targets[-1][1], "next")]
    return [p for p in ends if p is None or id(p) not in chosen]


@api(intent=INTENT,
     description="Remove bullets or numbering from paragraphs, turning them into plain paragraphs (a \"List "
                 "Paragraph\" style is reset to Normal; a list style's numbering is switched off).",
     params={"paragraphs": PARAGRAPHS},
     examples=[{"paragraphs": ["p4", "p5", "p6"]}, {"paragraphs": "p35"},
               Example({"paragraphs": ["p21", "p22", "p23"]}, document="examples/contract_zh.docx")])
def remove_list(doc: WordDocument, paragraphs: Any):
    targets = _paragraphs(doc, paragraphs)
    list_style = find_style_id(doc, "List Paragraph", "paragraph")
    changed, skipped = [], []
    list_kind = list_kinds(doc)
    for pid, p in targets:
        num, lvl, direct = numbering_of(doc, p)
        if not list_kind(num, lvl):
            skipped.append(pid)
            continue
        ppr = get_or_add_ppr(p)
        remove_children(ppr, "w:numPr")
        if direct and list_style is not None and paragraph_style_id(p) == list_style:
            remove_children(ppr, "w:pStyle")
        style_num, style_lvl, _ = numbering_of(doc, p)
        if list_kind(style_num, style_lvl):  # the style numbers it: switch numbering off
            set_num_pr(p, "0", 0)
        changed.append(pid)
    if not changed:
        raise ArgumentError(f"{_listing(skipped)} {'is' if len(skipped) == 1 else 'are'} not list items; nothing to remove")
    extra = f" ({_listing(skipped)} were not list items)" if skipped else ""
    return f"removed list formatting from {_listing(changed)}{extra}"


# --- copying formats --------------------------------------------------------------------------


@api(intent=INTENT,
     description="Copy formatting from one paragraph to others, like Word's Format Painter: \"paragraph\" copies "
                 "style, alignment, spacing, indents, borders, shading and list membership; \"text\" copies the "
                 "character formatting of the source's first run (or of the text at source_span) onto all text of "
                 "the targets; \"both\" (default) does both.",
     params={"source": PARAGRAPH_ID, "targets": PARAGRAPHS,
             "what": enum("what to copy (default both)", ("paragraph", "text", "both")),
             "source_span": {**SPAN, "description": "take the character formatting from the start of this part of the "
                                                    "source (default: its first run): " + SPAN["description"].split(";")[0]}},
     examples=[{"source": "p2", "source_span": {"match": "Revenue grew"}, "targets": ["p31"], "what": "text"},
               {"source": "p34", "targets": ["p39"], "what": "both"},
               {"source": "p3", "targets": "p8", "what": "paragraph"}])
def copy_format(doc: WordDocument, source: str, targets: Any, what: str = "both", source_span: dict | None = None):
    src = doc.find(source, "p")
    dests = [(pid, p) for pid, p in _paragraphs(doc, targets) if p is not src]
    if not dests:
        raise ArgumentError("the targets are only the source paragraph itself; name other paragraphs")
    src_ppr = src.find(PPR)
    src_rpr = source_rpr(src, source, source_span)
    for _, p in dests:
        if what in ("paragraph", "both"):
            copy_paragraph_properties(src_ppr, p)
        if what in ("text", "both"):
            for r in text_runs(p):
                copy_run_properties(src_rpr, r)
    return f"copied {what} formatting of {source} to {_listing([pid for pid, _ in dests])}"


