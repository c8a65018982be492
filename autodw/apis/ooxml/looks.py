"""How text looks: the effective character formatting of a run (document defaults, paragraph and character style
chains, direct formatting, theme fonts resolved), to select text by its current formatting."""

from __future__ import annotations

from typing import Any

from lxml import etree

from autodw.apis.ooxml.formatting import OFF_TAGS
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

    def styled_on(self, rpr: etree._Element | None, p: etree._Element, keys) -> set[str]:
        """The run properties among `keys` that the styles of text with run properties `rpr` (its character style)
        in paragraph `p` turn on, its own setting of them left out. A table style that sets one counts as turning
        it on (its conditional formatting, a bold header row, is not resolved here)."""
        own = {k: v for k, v in run_format(rpr, self.ctx).items() if k not in keys}
        fmt = self.formatting.run(own, self.style(p))
        return {k for k in keys if fmt.get(k) or self._table_style_sets(p, k)}

    def _table_style_sets(self, p: etree._Element, key: str) -> bool:
        table = next(p.iterancestors(qn("w:tbl")), None)
        style_id = wval(table.find(f"{qn('w:tblPr')}/{qn('w:tblStyle')}")) if table is not None else None
        seen: set[str] = set()
        while style_id and style_id not in seen and (style := self.ctx.style_elements.get(style_id)) is not None:
            seen.add(style_id)
            if any(el.find(qn(tag)) is not None for el in style.iter(qn("w:rPr")) for tag in OFF_TAGS[key]):
                return True
            style_id = wval(style.find(qn("w:basedOn")))
        return False

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
