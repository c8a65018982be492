"""The document's own list paragraph styles: which style (List Bullet, List Number, a custom one) new list items of a
kind take, so they look like the document's other lists.

A list style is a paragraph style whose own numbering (``w:numPr`` in its chain, not a heading's outline numbering)
gives list items of a kind, as Word's "List Bullet" and "List Number" and python-docx's documents make them. Styles
are matched by their ``w:name``, never by id (a localized document has other ids). The rule, for a kind:

1. a list item of that kind right before (else right after) the new items: its list style, or none (today's
   "List Paragraph" with its own numbering) when its numbering is direct on another style;
2. else the scheme most of the document's items of that kind use (a list style, or direct numbering);
3. else, when the document has no item of that kind but its other lists mostly use "List Bullet (n)" or
   "List Number (n)": that family's counterpart ("List Number" for "List Bullet"), if defined with numbering of the kind.

When those items (rule 1 or 2) are numbered directly, with no list style, new items of a new list look like them
(:func:`document_direct_list`, used for bullets): their paragraph style and a new instance of their numbering
definition (a document whose bullets are "Normal" paragraphs with "-" gets more of those, not "List Paragraph" "•").

Nested levels take the list style's own numbering at that level when it defines one, else the family's next style
("List Bullet 2" under "List Bullet"), as Word does; new items at a level neither gives all take "List Paragraph".

New items right beside an item of a list of their kind join that list (its ``w:numId``), as Word continues a list
a paragraph is added to (:func:`list_beside`, :func:`join_list_beside`): a list a writer made numbers its items
with a numbering of its own, which a list style's own numbering would not continue.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from lxml import etree

from autodw.apis.ooxml.builtin_styles import default_style_id, styles_element
from autodw.apis.ooxml.numbering import set_num_pr
from autodw.analysis.state.numbering import own_num_pr, style_chain_num_pr
from autodw.apis.ooxml.styles_edit import paragraph_style_id
from autodw.analysis.state.context import StateContext, styles_by_id
from autodw.analysis.state.numbering import Numbering
from autodw.core.document import WordDocument
from autodw.core.xml import qn, wval

_FAMILY = re.compile(r"(list bullet|list number)(?: ([2-5]))?")
_COUNTERPART = {"list bullet": "list number", "list number": "list bullet"}


@dataclass(frozen=True)
class ListStyle:
    """The list style new items of a kind take: for each list level from 0, (style id, numId, ilvl) as the style
    gives them; levels past the last are not available."""

    name: str
    format: str  # level 0's number format ("bullet", "decimal", ...)
    levels: tuple[tuple[str, str, int], ...]

    def at(self, level: int) -> tuple[str, str, int]:
        return self.levels[level]

    def own(self, style: str) -> tuple[str, int]:
        """(numId, ilvl) list style `style` numbers its paragraphs with by itself."""
        return next((num, ilvl) for sid, num, ilvl in self.levels if sid == style)

    def fits(self, levels, number_format: str | None) -> bool:
        """Whether items at `levels` can take this style with `number_format` (None: the style's own)."""
        return all(0 <= lvl < len(self.levels) for lvl in levels) and number_format in (None, self.format)


class _Styles:
    """The paragraph styles of a document, read once: names and the numbering each one's chain gives."""

    def __init__(self, doc: WordDocument):
        self.by_id = {sid: s for sid, s in styles_by_id(styles_element(doc)).items()
                      if (s.get(qn("w:type")) or "paragraph") == "paragraph"}
        self.by_name: dict[str, str] = {}
        self._numbering: dict[str | None, tuple[str, int] | None] = {}
        for sid, s in self.by_id.items():
            self.by_name.setdefault(self.name(sid), sid)

    def name(self, sid: str) -> str:
        style = self.by_id.get(sid)
        return (wval(style.find(qn("w:name"))) or "").lower() if style is not None else ""

    def heading(self, sid: str | None) -> bool:
        """Whether `sid` is a heading or an outline level's style (its numbering is an outline, not a list)."""
        seen: set[str] = set()
        while sid and sid not in seen and sid in self.by_id:
            seen.add(sid)
            ppr = self.by_id[sid].find(qn("w:pPr"))
            outline = wval(ppr.find(qn("w:outlineLvl"))) if ppr is not None else None
            if self.name(sid).startswith("heading") or (outline is not None and outline != "9"):
                return True
            sid = wval(self.by_id[sid].find(qn("w:basedOn")))
        return False

    def numbering(self, sid: str | None) -> tuple[str, int] | None:
        """(numId, ilvl) the style's chain numbers its paragraphs with; None for no numbering or a heading's."""
        if sid not in self._numbering:
            self._numbering[sid] = None if self.heading(sid) else style_chain_num_pr(self.by_id.get, sid)
        return self._numbering[sid]


def document_list_style(doc: WordDocument, kind: str, neighbours: list[etree._Element | None]) -> ListStyle | None:
    """The list style new `kind` ("bullet"/"numbered") items next to `neighbours` (paragraphs or None, nearest
    first) take by the rule above, or None when the document has none for them."""
    styles, numbering, found, _ = _model_scheme(doc, kind, neighbours)
    if found is not None:
        return _list_style(styles, numbering, found, kind) if found else None
    default = default_style_id(doc)
    other = Counter(s for p in doc.body.iter(qn("w:p"))
                    if (s := _scheme(styles, numbering, default, p, "numbered" if kind == "bullet" else "bullet")) is not None)
    family = _FAMILY.fullmatch(styles.name(other.most_common(1)[0][0])) if other else None
    counterpart = styles.by_name.get(_COUNTERPART[family.group(1)]) if family else None
    return _list_style(styles, numbering, counterpart, kind) if counterpart else None


def document_direct_list(doc: WordDocument, kind: str, neighbours: list[etree._Element | None],
                         levels: Iterable[int]) -> tuple[str | None, str] | None:
    """When the items rules 1-2 pick for new `kind` items next to `neighbours` are numbered directly (no list style):
    (their paragraph style id, None for the default; a numId of their numbering definition) for the style and
    definition most of them use, of one whose level 0 and `levels` are of `kind`; else None."""
    _, numbering, found, items = _model_scheme(doc, kind, neighbours)
    looks: Counter[tuple[str | None, str | None]] = Counter()
    first: dict[tuple[str | None, str | None], str] = {}
    for p in items if found == "" else ():
        num = own_num_pr(p)[0]
        if num and all(_kind(numbering, num, lvl) == kind for lvl in {0, *levels}):
            look = (paragraph_style_id(p), numbering.definition(num))
            looks[look] += 1
            first.setdefault(look, num)
    if not looks:
        return None
    look = looks.most_common(1)[0][0]
    return look[0], first[look]


def _model_scheme(doc: WordDocument, kind: str, neighbours: list[etree._Element | None]
                  ) -> tuple[_Styles, Numbering, str | None, list[etree._Element]]:
    """The scheme new `kind` items take their look from by rules 1 and 2 (a list style's id, "" for direct numbering,
    None when the document has no `kind` item) and the items of it the rule looked at."""
    styles, numbering, default = _Styles(doc), StateContext(doc).numbering, default_style_id(doc)
    for p in neighbours:
        found = _scheme(styles, numbering, default, p, kind) if p is not None else None
        if found is not None:
            return styles, numbering, found, [p]
    used: dict[str, list[etree._Element]] = {}
    for p in doc.body.iter(qn("w:p")):
        if (s := _scheme(styles, numbering, default, p, kind)) is not None:
            used.setdefault(s, []).append(p)
    if not used:
        return styles, numbering, None, []
    found = Counter({s: len(ps) for s, ps in used.items()}).most_common(1)[0][0]
    return styles, numbering, found, used[found]


def _scheme(styles: _Styles, numbering: Numbering, default: str | None, p: etree._Element, wanted: str) -> str | None:
    """The list style a `wanted` item `p` takes its look from, "" for direct numbering, None for no such item (a
    numbered heading is none)."""
    sid = paragraph_style_id(p) or default
    own = styles.numbering(sid)
    if styles.heading(sid) or _kind(numbering, *(own_num_pr(p) or own or (None, 0))) != wanted:
        return None
    return sid if own is not None and _kind(numbering, *own) == wanted else ""


def _kind(numbering: Numbering, num_id: str | None, level: int) -> str | None:
    """"bullet" or "numbered" for a defined level of list instance `num_id`, else None."""
    lvl = numbering.level(num_id, str(level)) if num_id and numbering.defines(num_id) else None
    return None if lvl is None else "bullet" if lvl.fmt == "bullet" else "numbered"


def _list_style(styles: _Styles, numbering: Numbering, sid: str, kind: str) -> ListStyle | None:
    """`sid`'s levels; None unless its own numbering gives `kind` items from level 0."""
    own = styles.numbering(sid)
    if own is None or own[1] != 0 or _kind(numbering, *own) != kind:
        return None
    num, family = own[0], _FAMILY.fullmatch(styles.name(sid))
    first = int(family.group(2) or 1) if family else 0  # "List Bullet 2" is its family's second
    levels = [(sid, num, 0)]
    for lvl in range(1, 9):
        nested = styles.by_name.get(f"{family.group(1)} {first + lvl}") if family else None
        nested_own = styles.numbering(nested)
        if _kind(numbering, num, lvl) == kind:
            levels.append((sid, num, lvl))
        elif nested_own is not None and _kind(numbering, *nested_own) == kind:
            levels.append((nested, *nested_own))
        else:
            break
    return ListStyle(wval(styles.by_id[sid].find(qn("w:name"))) or sid, numbering.level(num, "0").fmt, tuple(levels))


@dataclass(frozen=True)
class ListBeside:
    """The list item next to new items: its list (``w:numId``), its level, the level of that list an item of
    list nesting `depth` 0 takes (its top level for an item at the top), and the item itself."""

    num_id: str
    level: int
    base: int
    paragraph: etree._Element | None = field(default=None, compare=False)


def list_beside(doc: WordDocument, kind: str, neighbours: list[etree._Element | None]) -> ListBeside | None:
    """The first of `neighbours` (paragraphs or None, nearest first) that is an item of a `kind` ("bullet"/
    "numbered") list, a heading's outline numbering being none; None when none is."""
    styles, numbering, default = _Styles(doc), StateContext(doc).numbering, default_style_id(doc)
    for p in neighbours:
        if p is None:
            continue
        sid = paragraph_style_id(p) or default
        num_pr = own_num_pr(p) or styles.numbering(sid)
        if styles.heading(sid) or num_pr is None or _kind(numbering, *num_pr) != kind:
            continue
        depth = _depth(styles, sid) if styles.numbering(sid) is not None else num_pr[1]
        return ListBeside(num_pr[0], num_pr[1], num_pr[1] - depth, p)
    return None


def _depth(styles: _Styles, sid: str) -> int:
    """How deep list style `sid` nests its items: "List Number 3" 2, else the level its own numbering gives."""
    family = _FAMILY.fullmatch(styles.name(sid))
    return int(family.group(2) or 1) - 1 if family else styles.numbering(sid)[1]


def levels_beside(doc: WordDocument, beside: ListBeside, kind: str, depths: list[int],
                  number_format: str | None = None) -> list[int] | None:
    """The levels of `beside`'s list that new items nested `depths` deep take there (0: its top), or None when that
    list has no `kind` item at one of them, or the first's number format is not `number_format` (None: any)."""
    numbering = StateContext(doc).numbering
    levels = [beside.base + depth for depth in depths]
    if not all(0 <= level <= 8 and _kind(numbering, beside.num_id, level) == kind for level in levels):
        return None
    return levels if number_format in (None, numbering.level(beside.num_id, str(levels[0])).fmt) else None


def join_list_beside(doc: WordDocument, p: etree._Element) -> str | None:
    """Paragraph `p` (in the document, without numbering of its own) whose style numbers it as a list item: make it
    an item of the list of its kind right before it (else right after) at the level its style's nesting takes
    there, when that numbering differs from its style's own; return the numId it joined, None when it joined none."""
    styles, numbering = _Styles(doc), StateContext(doc).numbering
    sid = paragraph_style_id(p) or default_style_id(doc)
    own = styles.numbering(sid)
    if own_num_pr(p) is not None or own is None or (kind := _kind(numbering, *own)) is None:
        return None
    beside = list_beside(doc, kind, [adjacent_paragraph(p, "previous"), adjacent_paragraph(p, "next")])
    levels = levels_beside(doc, beside, kind, [_depth(styles, sid)]) if beside is not None else None
    if levels is None or (beside.num_id, levels[0]) == own:
        return None
    set_num_pr(p, beside.num_id, levels[0])
    return beside.num_id


def adjacent_paragraph(p: etree._Element, step: str) -> etree._Element | None:
    """The paragraph right before (`step` "previous") or after ("next") `p` among its block siblings; None when
    that block is a table or there is none."""
    sibling = getattr(p, f"get{step}")()
    while sibling is not None and sibling.tag not in (qn("w:p"), qn("w:tbl")):
        sibling = getattr(sibling, f"get{step}")()
    return sibling if sibling is not None and sibling.tag == qn("w:p") else None


def style_numbered(doc: WordDocument, style_id: str | None) -> bool:
    """Whether paragraph style `style_id` numbers its paragraphs itself (a list style, not a heading's outline)."""
    return _Styles(doc).numbering(style_id) is not None
