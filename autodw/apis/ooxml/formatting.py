"""Run and paragraph formatting: the argument schemas and the writers shared by text, paragraph,
style and default-font APIs (one place decides how "bold", "12pt" or "justify" becomes OOXML).

Every writer changes only the properties it is given; ``None`` means "leave as it is". A toggle
set to ``False`` is written as ``w:val="0"`` so that it also overrides a style (un-bold a heading); in a run's own
formatting (:func:`apply_own_run_props`) only where a style would turn it on, as Word writes it.
"""

from __future__ import annotations

import copy
from typing import Any

from lxml import etree

from autodw.apis.ooxml.elements import get_or_add, get_or_add_rpr, insert_ordered, make, remove_children, replace_child
from autodw.apis.ooxml.paragraphs import JC
from autodw.apis.ooxml.text import RPR, atoms, has_cjk, resolve_span, text_runs
from autodw.apis.schema import ALIGNMENT, HIGHLIGHTS, boolean, color, enum, length, number, text
from autodw.core.errors import ArgumentError, clipped
from autodw.core.units import hex_color, twips
from autodw.core.xml import qn

UNDERLINES = ("single", "double", "thick", "dotted", "dash", "wave", "words", "none")

#: run-formatting arguments (set_text_format; a subset is used by the style APIs)
RUN_PARAMS: dict[str, dict[str, Any]] = {
    "bold": boolean("bold on (true) or off (false)"),
    "italic": boolean("italic on (true) or off (false)"),
    "underline": enum("underline style; \"none\" (not false) removes it", UNDERLINES),
    "strike": boolean("strikethrough on (true) or off (false)"),
    "font": text('font for Latin text, e.g. "Arial", "Times New Roman"', 1),
    "east_asia_font": text('font for Chinese/Japanese/Korean text, e.g. "SimSun", "宋体", "黑体", "Microsoft YaHei"', 1),
    "size_pt": number("font size in points, e.g. 12 or 10.5 (五号)", 1, 1638),
    "color": color("font colour", none="removes the text's own colour (its style's shows)",
                   auto="is Word's Automatic colour (black on a light page), over any colour its style gives"),
    "highlight": enum("highlighter colour (none removes it)", HIGHLIGHTS),
    "superscript": boolean("raise as superscript (true) or back to normal (false)"),
    "subscript": boolean("lower as subscript (true) or back to normal (false)"),
    "all_caps": boolean("show as capitals without changing the text"),
    "small_caps": boolean("show lower-case letters as small capitals"),
}
STYLE_RUN_KEYS = ("font", "east_asia_font", "size_pt", "bold", "italic", "underline", "color")

#: paragraph-formatting arguments (set_paragraph_format; a subset is used by the style APIs)
PARAGRAPH_PARAMS: dict[str, dict[str, Any]] = {
    "alignment": ALIGNMENT,
    "space_before": length("space above the paragraph", "pt"),
    "space_after": length("space below the paragraph", "pt"),
    "line_spacing": number("line spacing as a multiple of single spacing: 1, 1.15, 1.5, 2", 0.5, 10),
    "line_height": length("exact line height instead of a multiple (Word's 'Exactly')", "pt"),
    "first_line_indent": length("first-line indent"),
    "first_line_chars": number("first-line indent in characters (Chinese 首行缩进, usually 2)", 0, 20),
    "hanging_indent": length("hanging indent: the first line starts this much left of the others, which stay at the "
                             "left indent (give left_indent too to place them: left_indent 1cm with hanging_indent "
                             "1cm starts the first line at the margin)"),
    "left_indent": length("indent of the whole paragraph from the left margin"),
    "right_indent": length("indent from the right margin"),
    "keep_with_next": boolean("keep on the same page as the next paragraph"),
    "keep_together": boolean("keep all lines of the paragraph on one page"),
    "page_break_before": boolean("start the paragraph on a new page"),
}
STYLE_PARAGRAPH_KEYS = ("alignment", "space_before", "space_after", "line_spacing", "first_line_indent",
                        "first_line_chars", "left_indent", "keep_with_next")

_TOGGLES = {"bold": ("w:b", "w:bCs"), "italic": ("w:i", "w:iCs"), "strike": ("w:strike",),
            "all_caps": ("w:caps",), "small_caps": ("w:smallCaps",)}
_PARA_TOGGLES = {"keep_with_next": "w:keepNext", "keep_together": "w:keepLines", "page_break_before": "w:pageBreakBefore"}


#: run properties a run's own formatting can turn off ("bold": false, "underline": "none"), with their elements
OFF_TAGS = {**_TOGGLES, "underline": ("w:u",)}


def turned_off(props: dict[str, Any]) -> tuple[str, ...]:
    """The properties of `props` that turn something off (a toggle false, underline "none")."""
    return tuple(k for k in OFF_TAGS if props.get(k, True) in (False, "none"))


def given(values: dict[str, Any], keys) -> dict[str, Any]:
    """The items of `values` among `keys` that are not None."""
    return {k: values[k] for k in keys if values.get(k) is not None}


def describe(props: dict[str, Any]) -> str:
    """``bold=True, size_pt=12`` for messages."""
    return ", ".join(f"{k}={v}" for k, v in props.items())


def set_toggle(parent: etree._Element, tag: str, on: bool) -> None:
    """``<tag/>`` when `on`, ``<tag w:val="0"/>`` otherwise (so a style's value is overridden)."""
    if on:
        replace_child(parent, tag)
    else:
        replace_child(parent, tag, w_val="0")


def check_run_props(props: dict[str, Any]) -> None:
    """Refuse contradictory run properties."""
    if props.get("superscript") and props.get("subscript"):
        raise ArgumentError("superscript and subscript cannot both be true; give one of them")


#: The longest font name w:rFonts holds (its attributes are strings of at most 31 characters, ECMA-376; Word's own
#: font names are shorter): a longer one makes the Open XML SDK report the part and Word offer to repair it
MAX_FONT_NAME = 31


def apply_run_props(rpr: etree._Element, props: dict[str, Any]) -> None:
    """Write the given run properties into ``w:rPr`` (or a style's/docDefaults' rPr)."""
    for key in ("font", "east_asia_font"):
        if len(props.get(key) or "") > MAX_FONT_NAME:
            raise ArgumentError(f"{key} {clipped(props[key], 40)!r} has {len(props[key])} characters; a font name "
                                f"has at most {MAX_FONT_NAME}")
    for key, tags in _TOGGLES.items():
        if key in props:
            for tag in tags:
                set_toggle(rpr, tag, props[key])
    if props.get("strike"):
        remove_children(rpr, "w:dstrike")
    if "font" in props or "east_asia_font" in props:
        fonts = get_or_add(rpr, "w:rFonts")
        if "font" in props:
            for attr in ("w:ascii", "w:hAnsi"):
                fonts.set(qn(attr), props["font"])
            for attr in ("w:asciiTheme", "w:hAnsiTheme"):  # a theme font would win over the named one
                fonts.attrib.pop(qn(attr), None)
        if "east_asia_font" in props:
            fonts.set(qn("w:eastAsia"), props["east_asia_font"])
            fonts.attrib.pop(qn("w:eastAsiaTheme"), None)
    if "size_pt" in props:
        half_points = str(max(2, round(props["size_pt"] * 2)))
        replace_child(rpr, "w:sz", w_val=half_points)
        replace_child(rpr, "w:szCs", w_val=half_points)
    if props.get("color") == "none":
        remove_children(rpr, "w:color")
    elif props.get("color") == "auto":
        replace_child(rpr, "w:color", w_val="auto")
    elif "color" in props:
        replace_child(rpr, "w:color", w_val=hex_color(props["color"], "color"))
    if "highlight" in props:
        if props["highlight"] == "none":
            remove_children(rpr, "w:highlight")
        else:
            replace_child(rpr, "w:highlight", w_val=props["highlight"])
    if "underline" in props:
        replace_child(rpr, "w:u", w_val=props["underline"])
    for key in ("superscript", "subscript"):
        if key in props:
            current = rpr.find(qn("w:vertAlign"))
            if props[key]:
                replace_child(rpr, "w:vertAlign", w_val=key)
            elif current is not None and current.get(qn("w:val")) == key:
                rpr.remove(current)


def apply_own_run_props(rpr: etree._Element, props: dict[str, Any], styled_on: set[str]) -> None:
    """:func:`apply_run_props` for a run's or a paragraph mark's own ``w:rPr``: a property turned off drops the
    run's own setting and is written off (``w:b w:val="0"``, ``w:u w:val="none"``) only when it is in `styled_on`, the
    properties the run's styles would otherwise turn on."""
    off = [k for k in turned_off(props) if k not in styled_on]
    for key in off:
        for tag in OFF_TAGS[key]:
            remove_children(rpr, tag)
    apply_run_props(rpr, {k: v for k, v in props.items() if k not in off})


def set_east_asia_hint(rpr: etree._Element, run_text: str) -> None:
    """Mark a run holding CJK text with ``w:hint="eastAsia"`` so ambiguous characters (quotes,
    punctuation) also use the East Asian font."""
    if has_cjk(run_text):
        get_or_add(rpr, "w:rFonts").set(qn("w:hint"), "eastAsia")


def check_paragraph_props(props: dict[str, Any]) -> None:
    """Refuse contradictory paragraph properties."""
    if "line_spacing" in props and "line_height" in props:
        raise ArgumentError("give line_spacing (a multiple) or line_height (an exact height), not both")
    firsts = [k for k in ("first_line_indent", "first_line_chars", "hanging_indent") if k in props]
    if len(firsts) > 1:
        raise ArgumentError(f"{' and '.join(firsts)} exclude each other: a paragraph has either a first-line or a hanging indent")


def apply_paragraph_props(ppr: etree._Element, props: dict[str, Any], char_pt: float = 10.5) -> None:
    """Write the given paragraph properties into ``w:pPr`` (of a paragraph or a style).

    `char_pt` is the font size one character of ``first_line_chars`` stands for.
    """
    if "alignment" in props:
        replace_child(ppr, "w:jc", w_val=JC[props["alignment"]])
    for key, tag in _PARA_TOGGLES.items():
        if key in props:
            set_toggle(ppr, tag, props[key])
    spacing_keys = ("space_before", "space_after", "line_spacing", "line_height")
    if any(k in props for k in spacing_keys):
        sp = get_or_add(ppr, "w:spacing")
        for key, attr in (("space_before", "before"), ("space_after", "after")):
            if key in props:
                sp.set(qn(f"w:{attr}"), str(twips(props[key], key)))
                for extra in (f"w:{attr}Lines", f"w:{attr}Autospacing"):  # these would win over the length
                    sp.attrib.pop(qn(extra), None)
        if "line_spacing" in props:
            sp.set(qn("w:line"), str(round(props["line_spacing"] * 240)))
            sp.set(qn("w:lineRule"), "auto")
        if "line_height" in props:
            sp.set(qn("w:line"), str(twips(props["line_height"], "line_height")))
            sp.set(qn("w:lineRule"), "exact")
    indent_keys = ("first_line_indent", "first_line_chars", "hanging_indent", "left_indent", "right_indent")
    if any(k in props for k in indent_keys):
        ind = get_or_add(ppr, "w:ind")
        drop: list[str] = []
        if "left_indent" in props:
            ind.set(qn("w:left"), str(twips(props["left_indent"], "left_indent")))
            drop += ["w:start", "w:leftChars", "w:startChars"]
        if "right_indent" in props:
            ind.set(qn("w:right"), str(twips(props["right_indent"], "right_indent")))
            drop += ["w:end", "w:rightChars", "w:endChars"]
        if "first_line_indent" in props:
            ind.set(qn("w:firstLine"), str(twips(props["first_line_indent"], "first_line_indent")))
            drop += ["w:hanging", "w:hangingChars", "w:firstLineChars"]
        if "first_line_chars" in props:
            chars = props["first_line_chars"]
            ind.set(qn("w:firstLineChars"), str(round(chars * 100)))
            ind.set(qn("w:firstLine"), str(round(chars * char_pt * 20)))  # for readers that ignore *Chars
            drop += ["w:hanging", "w:hangingChars"]
        if "hanging_indent" in props:
            ind.set(qn("w:hanging"), str(twips(props["hanging_indent"], "hanging_indent")))
            drop += ["w:firstLine", "w:firstLineChars", "w:hangingChars"]
        for attr in drop:
            ind.attrib.pop(qn(attr), None)


PPR, HYPERLINK = qn("w:pPr"), qn("w:hyperlink")
_KEEP_ON_CLEAR = {qn(t) for t in ("w:lang", "w:rtl", "w:cs", "w:ins", "w:del", "w:moveFrom", "w:moveTo", "w:rPrChange")}


def clear_rpr(rpr: etree._Element | None, keep_style: bool) -> None:
    if rpr is None:
        return
    for child in list(rpr):
        if child.tag not in _KEEP_ON_CLEAR and not (keep_style and child.tag == qn("w:rStyle")):
            rpr.remove(child)
    if len(rpr) == 0 and rpr.getparent() is not None:
        rpr.getparent().remove(rpr)


def in_hyperlink(r: etree._Element) -> bool:
    return any(a.tag == HYPERLINK for a in r.iterancestors())


def source_rpr(src: etree._Element, pid: str, span: dict | None) -> etree._Element | None:
    """The run properties Format Painter would pick up: at the span's start, else the first text run, else the mark."""
    if span is not None:
        start, _ = resolve_span(src, span, pid)
        hit = next((a for a in atoms(src) if a.text and a.start <= start < a.end), None)
        return hit.run.find(RPR) if hit is not None else None
    runs = text_runs(src)
    if runs:
        return runs[0].find(RPR)
    ppr = src.find(PPR)
    return ppr.find(RPR) if ppr is not None else None


def copy_run_properties(src_rpr: etree._Element | None, r: etree._Element) -> None:
    """Give run `r` a copy of `src_rpr` (a link keeps its link style)."""
    old = r.find(RPR)
    keep = old.find(qn("w:rStyle")) if old is not None and in_hyperlink(r) else None
    if old is not None:
        r.remove(old)
    if src_rpr is not None:
        new = copy.deepcopy(src_rpr)
        for tag in ("w:rPrChange", "w:ins", "w:del", "w:moveFrom", "w:moveTo"):
            remove_children(new, tag)
        r.insert(0, new)
    if keep is not None:
        replace_child(get_or_add_rpr(r), "w:rStyle", w_val=keep.get(qn("w:val")))


def copy_paragraph_properties(src_ppr: etree._Element | None, p: etree._Element) -> None:
    """Replace `p`'s paragraph properties by a copy of `src_ppr`, keeping `p`'s own section break."""
    old = p.find(PPR)
    sect = old.find(qn("w:sectPr")) if old is not None else None
    if old is not None:
        p.remove(old)
    new = copy.deepcopy(src_ppr) if src_ppr is not None else make("w:pPr")
    for tag in ("w:sectPr", "w:pPrChange"):
        remove_children(new, tag)
    if sect is not None:
        insert_ordered(new, sect)
    if len(new):
        p.insert(0, new)
