"""Per-extraction caches: style names, list definitions, relationship targets."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property, lru_cache

from docx.opc.constants import RELATIONSHIP_TYPE as RT
from lxml import etree

from autodw.core.document import WordDocument
from autodw.analysis.state.numbering import Numbering, style_chain_num_pr
from autodw.core.xml import first_child, qn, wval

EMU_PER_CM = 360000
TWIPS_PER_CM = 566.929


def emu_to_cm(v: str | int | None) -> float | None:
    """EMU (as text or int) to centimetres, 2 decimals."""
    try:
        return round(int(v) / EMU_PER_CM, 2) if v is not None else None
    except ValueError:
        return None


def twips_to_cm(v: str | None) -> float | None:
    """Twentieths of a point (as text) to centimetres, 2 decimals."""
    try:
        return round(float(v) / TWIPS_PER_CM, 2) if v is not None else None
    except ValueError:
        return None


def twips_to_pt(v: str | None) -> float | None:
    """Twentieths of a point (as text) to points."""
    try:
        return round(float(v) / 20, 2) if v is not None else None
    except ValueError:
        return None


def _ui_name(name: str) -> str:
    """Word's displayed name for built-ins python-docx's BabelFish does not map ("toc 1" -> "TOC 1")."""
    if re.fullmatch(r"toc \d", name):
        return "TOC " + name[4:]
    return {"normal": "Normal", "table of figures": "Table of Figures", "footnote text": "Footnote Text",
            "footnote reference": "Footnote Reference", "endnote text": "Endnote Text",
            "endnote reference": "Endnote Reference", "toc heading": "TOC Heading"}.get(name, name)


def styles_by_id(root: etree._Element) -> dict[str, etree._Element]:
    """Style id -> its ``w:style`` in a ``w:styles`` root. An id defined twice means its first definition, the one
    Word and python-docx read (a later one is ignored)."""
    out: dict[str, etree._Element] = {}
    for style in root.iterchildren(qn("w:style")):
        if style.get(qn("w:styleId")):
            out.setdefault(style.get(qn("w:styleId")), style)
    return out


@lru_cache(maxsize=4096)
def _shown_name(stored: str) -> str:
    """The name Word shows for a style's stored name (a document's hundreds of styles, read at every state)."""
    from docx.styles import BabelFish

    return _ui_name(BabelFish.internal2ui(stored))


@dataclass
class StateContext:
    """Look-ups shared by the state readers for one document."""

    doc: WordDocument
    used_styles: set[str] = field(default_factory=set)

    @cached_property
    def styles_root(self) -> etree._Element | None:
        try:  # the related part, never python-docx's _styles_part: reading must not add a styles part it lacks
            return self.doc.part.part_related_by(RT.STYLES).element
        except (KeyError, AttributeError, ValueError):
            return None

    @cached_property
    def style_elements(self) -> dict[str, etree._Element]:
        """Style id -> ``w:style`` element (the first one of an id defined twice)."""
        return styles_by_id(self.styles_root) if self.styles_root is not None else {}

    @cached_property
    def style_names(self) -> dict[str, str]:
        """Style id -> the name Word shows ("Heading 1", not the stored "heading 1")."""
        return {sid: _shown_name(wval(first_child(s, qn("w:name"))) or sid) for sid, s in self.style_elements.items()}

    @cached_property
    def default_style_ids(self) -> dict[str, str]:
        """Style type (paragraph, character, table, numbering) -> id of its default style."""
        out: dict[str, str] = {}
        for sid, s in self.style_elements.items():
            if s.get(qn("w:default")) in ("1", "true", "on"):
                out.setdefault(s.get(qn("w:type")) or "paragraph", sid)
        return out

    def style_name(self, style_id: str | None) -> str | None:
        """Display name for `style_id` (and remember it as used)."""
        if style_id is None:
            return None
        self.used_styles.add(style_id)
        return self.style_names.get(style_id, style_id)

    def paragraph_style(self, style_id: str | None) -> str:
        """The paragraph's style name; an absent pStyle means the default paragraph style."""
        return self.style_name(style_id or self.default_style_ids.get("paragraph")) or "Normal"

    @cached_property
    def numbering(self) -> Numbering:
        """The numbering part's list definitions (none when the document has no numbering part)."""
        try:
            root = self.doc.part.part_related_by(RT.NUMBERING).element
        except (KeyError, AttributeError):
            root = None
        return Numbering(root, self.style_elements)

    @cached_property
    def _style_num_prs(self) -> dict[str | None, tuple[str | None, int] | None]:
        return {}

    def style_num_pr(self, style_id: str | None) -> tuple[str | None, int] | None:
        """(numId, level) a paragraph style (or its bases) gives, if any (read once per style: asked per paragraph)."""
        try:
            return self._style_num_prs[style_id]
        except KeyError:
            found = self._style_num_prs[style_id] = style_chain_num_pr(self.style_elements.get, style_id)
            return found

    def list_num_pr(self, p: etree._Element) -> tuple[str, int] | None:
        """(numId, level) of the list paragraph `p` is in: its own ``w:numPr``, else its style's; None outside a
        list (no numId, or numId 0)."""
        num_pr = first_child(p, qn("w:pPr"), qn("w:numPr"))
        if num_pr is not None:
            num_id = wval(first_child(num_pr, qn("w:numId")))
            ilvl = wval(first_child(num_pr, qn("w:ilvl"))) or "0"
            found = (num_id, int(ilvl) if ilvl.isdigit() else 0)
        else:
            style_id = wval(first_child(p, qn("w:pPr"), qn("w:pStyle")))
            found = self.style_num_pr(style_id or self.default_style_ids.get("paragraph"))
        if found is None or not found[0] or found[0] == "0":
            return None
        return found[0], found[1]

    def rel_target(self, part, r_id: str | None) -> tuple[str | None, object | None]:
        """(external target ref, internal target part) of relationship `r_id` in `part`."""
        if not r_id:
            return None, None
        rel = part.rels.get(r_id)
        if rel is None:
            return None, None
        if rel.is_external:
            return rel.target_ref, None
        return None, rel.target_part

    @cached_property
    def settings_root(self) -> etree._Element | None:
        for rel in self.doc.part.rels.values():
            if rel.reltype == RT.SETTINGS and not rel.is_external:
                return getattr(rel.target_part, "element", None)
        return None
