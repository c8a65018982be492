"""How text looks: the effective character formatting of a run (document defaults, paragraph and character style
chains, direct formatting, theme fonts resolved), to select text by its current formatting."""

from __future__ import annotations

from typing import Any

from docx.opc.constants import RELATIONSHIP_TYPE as RT
from lxml import etree

from autodw.document import WordDocument
from autodw.state.blocks import run_format
from autodw.state.context import StateContext
from autodw.state.effective import Formatting
from autodw.state.extract import all_styles
from autodw.units import hex_color
from autodw.xml import qn, wval

_A = "http://schemas.openxmlformats.org/drawingml/2006/main"
#: theme font slot of w:rFonts -> (a:majorFont or a:minorFont, script element)
_THEME_SLOTS = {"minorHAnsi": ("minorFont", "latin"), "minorAscii": ("minorFont", "latin"),
                "minorBidi": ("minorFont", "cs"), "minorEastAsia": ("minorFont", "ea"),
                "majorHAnsi": ("majorFont", "latin"), "majorAscii": ("majorFont", "latin"),
                "majorBidi": ("majorFont", "cs"), "majorEastAsia": ("majorFont", "ea")}


class Looks:
    """The effective formatting of the runs of one document (built once per API call: styles do not change)."""

    def __init__(self, doc: WordDocument):
        self.ctx = StateContext(doc)
        self.formatting = Formatting(all_styles(self.ctx))
        self.theme = _theme_fonts(doc)
        self.default_style = self.ctx.style_names.get(self.ctx.default_style_ids.get("paragraph", ""), None)

    def style(self, p: etree._Element) -> str | None:
        """The name of paragraph `p`'s style (the default paragraph style when it names none)."""
        style_id = wval(p.find(f"{qn('w:pPr')}/{qn('w:pStyle')}"))
        return self.ctx.style_names.get(style_id, style_id) if style_id else self.default_style

    def style_border(self, p: etree._Element) -> dict[str, dict[str, Any]]:
        """The sides of a border that paragraph `p`'s style chain draws (by side name, each a line)."""
        return self.formatting.paragraph({"style": self.style(p)})["border"] or {}

    def of(self, run: etree._Element, p: etree._Element) -> dict[str, Any]:
        """The effective format of `run` in paragraph `p` (keys of :data:`autodw.state.effective.RUN_DEFAULTS`)."""
        fmt = self.formatting.run(run_format(run.find(qn("w:rPr")), self.ctx), self.style(p))
        for key in ("font", "east_asia_font"):
            value = fmt.get(key)
            if isinstance(value, str) and value.startswith("theme:"):
                fmt[key] = self.theme.get(value[len("theme:"):], value)
        return fmt


def _theme_fonts(doc: WordDocument) -> dict[str, str]:
    """Theme font slot ("minorHAnsi") -> typeface ("Calibri"), from the document's theme part."""
    try:
        root = etree.fromstring(doc.part.part_related_by(RT.THEME).blob)
    except (KeyError, etree.XMLSyntaxError):
        return {}
    out = {}
    for slot, (which, script) in _THEME_SLOTS.items():
        el = root.find(f".//{{{_A}}}{which}/{{{_A}}}{script}")
        if el is not None and el.get("typeface"):
            out[slot] = el.get("typeface")
    return out


def matches(fmt: dict[str, Any], having: dict[str, Any]) -> bool:
    """Whether an effective format has every property of `having` (fonts without case; colours as hex)."""
    for key, want in having.items():
        have = fmt.get(key)
        if key in ("font", "east_asia_font"):
            if not isinstance(have, str) or have.casefold() != str(want).casefold():
                return False
        elif key == "color":
            if (have or "000000").upper() != hex_color(want):
                return False
        elif key == "underline":
            if bool(have) != (want not in (False, "none")) or (isinstance(want, str) and want != "none"
                                                               and isinstance(have, str) and have != want):
                return False
        elif isinstance(want, bool):
            if bool(have) != want:
                return False
        elif have != want:
            return False
    return True
