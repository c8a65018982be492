"""How text looks: the effective character formatting of a run (document defaults, paragraph and character style
chains, direct formatting, theme fonts resolved), to select text by its current formatting."""

from __future__ import annotations

from typing import Any

from lxml import etree

from autodw.core.document import WordDocument
from autodw.analysis.state.blocks import run_format
from autodw.analysis.state.context import StateContext
from autodw.analysis.state.effective import Formatting
from autodw.analysis.state.extract import all_styles
from autodw.core.units import hex_color
from autodw.core.xml import qn, wval


class Looks:
    """The effective formatting of the runs of one document (built once per API call: styles do not change)."""

    def __init__(self, doc: WordDocument):
        self.ctx = StateContext(doc)
        self.formatting = Formatting(all_styles(self.ctx))
        self.default_style = self.ctx.style_names.get(self.ctx.default_style_ids.get("paragraph", ""), None)

    def style(self, p: etree._Element) -> str | None:
        """The name of paragraph `p`'s style (the default paragraph style when it names none)."""
        style_id = wval(p.find(f"{qn('w:pPr')}/{qn('w:pStyle')}"))
        return self.ctx.style_names.get(style_id, style_id) if style_id else self.default_style

    def style_border(self, p: etree._Element) -> dict[str, dict[str, Any]]:
        """The sides of a border that paragraph `p`'s style chain draws (by side name, each a line)."""
        return self.formatting.paragraph({"style": self.style(p)})["border"] or {}

    def of(self, run: etree._Element, p: etree._Element) -> dict[str, Any]:
        """The effective format of `run` in paragraph `p` (keys of :data:`autodw.analysis.state.effective.RUN_DEFAULTS`)."""
        return self.formatting.run(run_format(run.find(qn("w:rPr")), self.ctx), self.style(p))


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
