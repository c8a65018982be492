"""List numbering definitions: add an abstract definition and a numbering instance for a new list."""

from __future__ import annotations

import copy
import re
from typing import Callable

from docx.opc.constants import CONTENT_TYPE as CT
from docx.opc.constants import RELATIONSHIP_TYPE as RT
from docx.opc.packuri import PackURI
from docx.parts.numbering import NumberingPart
from lxml import etree

from autodw.apis.ooxml.builtin_styles import default_style_id
from autodw.apis.ooxml.elements import get_or_add_ppr, insert_ordered, make, remove_children
from autodw.apis.ooxml.styles_edit import paragraph_style_id, style_by_id
from autodw.core.document import WordDocument
from autodw.core.errors import ArgumentError
from autodw.core.ids import element_id
from autodw.analysis.state.context import StateContext
from autodw.analysis.state.numbering import Numbering, own_num_pr, style_chain_num_pr
from autodw.core.xml import W, parse, qn

BULLETS = ("\u2022", "o", "\u25aa")
NUMBER_FORMATS = {"decimal": ("decimal", "lowerLetter", "lowerRoman"), "upperRoman": ("upperRoman", "upperLetter", "decimal"),
                  "lowerLetter": ("lowerLetter", "lowerRoman", "decimal"), "upperLetter": ("upperLetter", "decimal", "lowerLetter"),
                  "lowerRoman": ("lowerRoman", "lowerLetter", "decimal"),
                  "chineseCounting": ("chineseCounting", "decimal", "lowerLetter")}


def numbering_root(doc: WordDocument) -> etree._Element:
    """The ``w:numbering`` element, creating the numbering part if the document has none."""
    try:
        return doc.part.numbering_part.element
    except (KeyError, NotImplementedError):
        xml = f'<w:numbering xmlns:w="{W}"/>'
        part = NumberingPart(PackURI("/word/numbering.xml"), CT.WML_NUMBERING, parse(xml), doc.package)
        doc.part.relate_to(part, RT.NUMBERING)
        return part.element


def _next_id(root: etree._Element, tag: str, attr: str, first: int) -> int:
    """One more than the largest id in use, or `first` when there is none."""
    ids = [int(e.get(qn(attr))) for e in root.iterchildren(qn(tag)) if (e.get(qn(attr)) or "").isdigit()]
    return max(ids) + 1 if ids else first


def add_list_definition(doc: WordDocument, kind: str, start: int = 1, number_format: str = "decimal",
                        top: int = 0) -> int:
    """Add a 9-level list definition (bullet or numbered) and an instance of it; return its numId. Level `top` (the
    level the list's items are at) counts from `start` in `number_format`, the levels below it in the formats that
    follow it."""
    root = numbering_root(doc)
    abstract_id = _next_id(root, "w:abstractNum", "w:abstractNumId", 0)
    levels = []
    for lvl in range(9):
        indent = 720 * (lvl + 1)
        if kind == "bullet":
            fmt, text, font = "bullet", BULLETS[lvl % 3], ""
        else:
            fmt = NUMBER_FORMATS[number_format][(lvl - top) % 3]
            text, font = f"%{lvl + 1}{'、' if fmt.startswith('chinese') else '.'}", ""
        levels.append(
            f'<w:lvl w:ilvl="{lvl}"><w:start w:val="{start if lvl == top else 1}"/><w:numFmt w:val="{fmt}"/>'
            f'<w:lvlText w:val="{text}"/><w:lvlJc w:val="left"/>'
            f'<w:pPr><w:ind w:left="{indent}" w:hanging="360"/></w:pPr>{font}</w:lvl>'
        )
    abstract = parse(f'<w:abstractNum xmlns:w="{W}" w:abstractNumId="{abstract_id}">'
                     f'<w:multiLevelType w:val="hybridMultilevel"/>{"".join(levels)}</w:abstractNum>')
    insert_ordered(root, abstract)
    num_id = _next_id(root, "w:num", "w:numId", 1)
    insert_ordered(root, parse(f'<w:num xmlns:w="{W}" w:numId="{num_id}"><w:abstractNumId w:val="{abstract_id}"/></w:num>'))
    return num_id


def keep_level_indents(doc: WordDocument, num_id: str, like: str) -> None:
    """Give each level of list instance `num_id` (a definition of its own) the indent that level has in list
    instance `like`, so items moved from one list to the other stay where they were."""
    numbering = StateContext(doc).numbering
    abstract = _definition_element(doc, num_id)
    for lvl in abstract.iterchildren(qn("w:lvl")) if abstract is not None else ():
        source, ppr = numbering.level(like, lvl.get(qn("w:ilvl"))), lvl.find(qn("w:pPr"))
        indent = source.ppr.find(qn("w:ind")) if source is not None and source.ppr is not None else None
        if indent is not None and ppr is not None:
            remove_children(ppr, "w:ind")
            insert_ordered(ppr, copy.deepcopy(indent))


def copy_list_definition(doc: WordDocument, num_id: str, start: int = 1) -> int:
    """A new list of the look of list instance `num_id`: a copy of its definition (levels, indents, bullets) counted
    on its own from `start`, so neither it nor the lists of the original definition continue the other; return its
    numId. The copy claims no style (its levels' ``w:pStyle`` and style links are left out)."""
    root = numbering_root(doc)
    abstract = _definition_element(doc, num_id)
    if abstract is None:
        raise KeyError(num_id)
    copied = copy.deepcopy(abstract)
    copied.set(qn("w:abstractNumId"), str(_next_id(root, "w:abstractNum", "w:abstractNumId", 0)))
    for el in [*copied.iterchildren(qn("w:nsid"), qn("w:tmpl"), qn("w:styleLink"), qn("w:numStyleLink")),
               *copied.iter(qn("w:pStyle"))]:
        el.getparent().remove(el)
    first = next((lvl for lvl in copied.iterchildren(qn("w:lvl")) if lvl.get(qn("w:ilvl")) == "0"), None)
    if first is not None:
        remove_children(first, "w:start")
        first.insert(0, make("w:start", w_val=str(start)))
    insert_ordered(root, copied)
    new_id = _next_id(root, "w:num", "w:numId", 1)
    insert_ordered(root, parse(f'<w:num xmlns:w="{W}" w:numId="{new_id}">'
                               f'<w:abstractNumId w:val="{copied.get(qn("w:abstractNumId"))}"/></w:num>'))
    return new_id


def restart_numbering(doc: WordDocument, num_id: str, start: int | None = 1) -> int:
    """A new instance of `num_id`'s definition that restarts at `start` (None: with no start overrides, a new list
    of its look); return the new numId."""
    root = numbering_root(doc)
    num = _num_element(root, num_id)
    if num is None:
        raise KeyError(num_id)
    abstract_id = num.find(qn("w:abstractNumId")).get(qn("w:val"))
    new_id = _next_id(root, "w:num", "w:numId", 1)
    overrides = "".join(f'<w:lvlOverride w:ilvl="{lvl}"><w:startOverride w:val="{start if lvl == 0 else 1}"/></w:lvlOverride>'
                        for lvl in range(9)) if start is not None else ""
    insert_ordered(root, parse(f'<w:num xmlns:w="{W}" w:numId="{new_id}"><w:abstractNumId w:val="{abstract_id}"/>{overrides}</w:num>'))
    return new_id


def numbering_of(doc: WordDocument, p: etree._Element) -> tuple[str | None, int, bool]:
    """(numId, level, direct) of a paragraph: its own numPr, else the one its style chain gives."""
    own = own_num_pr(p)
    if own is not None:
        return *own, True
    found = style_chain_num_pr(lambda sid: style_by_id(doc, sid), paragraph_style_id(p) or default_style_id(doc))
    return (*found, False) if found is not None else (None, 0, False)


def list_kinds(doc: WordDocument) -> Callable[[str | None, int], str | None]:
    """``kind(num_id, level)``: "bullet" or "numbered" for a list instance of `doc` as it is now, None if it is no
    list (numId 0 or undefined); a definition linked to a numbering style has the levels of the list that style uses.
    The numbering part is read once; lists defined after the call are not known to it."""
    numbering = StateContext(doc).numbering
    return lambda num_id, level: _list_kind(numbering, num_id, level)


def _list_kind(numbering: Numbering, num_id: str | None, level: int) -> str | None:
    if not num_id or not numbering.defines(num_id):
        return None
    lvl = numbering.level(num_id, str(level))
    return "bullet" if lvl is not None and lvl.fmt == "bullet" else "numbered"


def set_num_pr(p: etree._Element, num_id: str, level: int) -> None:
    ppr = get_or_add_ppr(p)
    num_pr = make("w:numPr")
    num_pr.append(make("w:ilvl", w_val=str(level)))
    num_pr.append(make("w:numId", w_val=str(num_id)))
    remove_children(ppr, "w:numPr")
    insert_ordered(ppr, num_pr)


def renumber_from(doc: WordDocument, targets: list[etree._Element], old: str, new: str) -> int:
    """Restart list `old` at the first of `targets`: move every target whose list instance shares `old`'s definition
    (Word counts those instances as one list), then every later paragraph of its story in one of those instances,
    to list `new`; return how many paragraphs moved."""
    numbering = StateContext(doc).numbering
    definition = numbering.definition(old)
    lists = {old} | {num for num, _, _ in (numbering_of(doc, p) for p in targets)
                     if num and numbering.definition(num) == definition}
    first = targets[0]
    story = first.getroottree().getroot()
    moved, seen_first = 0, False
    for p in story.iter(qn("w:p")):
        seen_first = seen_first or p is first
        if not seen_first:
            continue
        num, lvl, _ = numbering_of(doc, p)
        if num in lists:
            set_num_pr(p, new, lvl)
            moved += 1
    return moved


#: how a list label pattern may write a level's number: as 1, or as the first number of the level's format
FIRST_NUMBERS = {"lowerLetter": "a", "upperLetter": "A", "lowerRoman": "i", "upperRoman": "I"}
_WORD_PLACEHOLDER = re.compile(r"%[1-9]")
_NUMBER_IN_PATTERN = re.compile(r"(?<![A-Za-z0-9])[1aAiI](?![A-Za-z0-9])")


def level_text(pattern: str, ilvl: int, fmt: str) -> str:
    """The ``w:lvlText`` that shows `pattern` at list level `ilvl` (0-based) of number format `fmt`: the number, written
    as 1 (or as the level's first number, a/A/i/I) standing alone, becomes %N ("1." -> "%1." at level 0, "(a)" ->
    "(%2)" at level 1). A pattern in Word's own form (%1 ... %9, e.g. "%1.%2.") is kept as it is."""
    if _WORD_PLACEHOLDER.search(pattern):
        return pattern
    found = [m for m in _NUMBER_IN_PATTERN.finditer(pattern) if m.group() in ("1", FIRST_NUMBERS.get(fmt, "1"))]
    if len(found) != 1:
        raise ArgumentError(f"number_text {pattern!r} must write the number once, as 1 (e.g. \"1.\", \"(1)\", "
                            f"\"Step 1:\"); it " + ("writes none" if not found else f"has {len(found)} candidates"))
    at = found[0]
    return pattern[:at.start()] + f"%{ilvl + 1}" + pattern[at.end():]


def set_number_text(doc: WordDocument, targets: list[etree._Element], pattern: str) -> tuple[list[str], bool]:
    """Make each of `targets` (numbered list items) show `pattern` (:func:`level_text`) as its label: the lvlText of
    its list level. A definition whose changed levels also number paragraphs outside `targets` is copied first (a
    list of the targets' own, counted from its start, as a new number format gives). Return the lvlTexts written and
    whether a list of their own was made."""
    numbering = StateContext(doc).numbering
    where = {id(p): numbering_of(doc, p)[:2] for p in targets}
    for p in targets:
        num, lvl = where[id(p)]
        level = numbering.level(num, str(lvl)) if num and numbering.defines(num) else None
        if level is None or level.fmt in ("bullet", "none"):
            raise ArgumentError("number_text applies to numbered list items; "
                                f"{element_id(p) or 'a paragraph'} is {'a bullet' if level else 'not a list item'}")
    groups: dict[str, list[etree._Element]] = {}
    for p in targets:
        groups.setdefault(numbering.definition(where[id(p)][0]), []).append(p)
    mine = {id(p) for p in targets}
    others = [numbering_of(doc, q)[:2] for root in doc.id_roots() for q in root.iter(qn("w:p")) if id(q) not in mine]
    written, own = [], False
    for definition, items in groups.items():
        levels = {where[id(p)][1] for p in items}
        num = where[id(items[0])][0]
        if any(n and numbering.defines(n) and lvl in levels and numbering.definition(n) == definition for n, lvl in others):
            first = numbering.level(num, "0")
            num, own = str(copy_list_definition(doc, num, first.start if first is not None else 1)), True
            for p in items:
                set_num_pr(p, num, where[id(p)][1])
        for lvl in sorted(levels):
            el = _level_element(doc, num, lvl)
            text = level_text(pattern, lvl, numbering.level(where[id(items[0])][0], str(lvl)).fmt)
            remove_children(el, "w:lvlText")
            insert_ordered(el, make("w:lvlText", w_val=text))
            written.append(text)
    return list(dict.fromkeys(written)), own


def _level_element(doc: WordDocument, num_id: str, ilvl: int) -> etree._Element:
    """The ``w:lvl`` that defines level `ilvl` of list instance `num_id`: the instance's own override, else its
    definition's."""
    num, abstract = _num_element(numbering_root(doc), num_id), _definition_element(doc, num_id)
    if num is None or abstract is None:
        raise KeyError(num_id)
    for override in num.iterchildren(qn("w:lvlOverride")):
        lvl = override.find(qn("w:lvl"))
        if override.get(qn("w:ilvl")) == str(ilvl) and lvl is not None:
            return lvl
    found = next((x for x in abstract.iterchildren(qn("w:lvl")) if x.get(qn("w:ilvl")) == str(ilvl)), None)
    if found is None:
        raise ArgumentError(f"list {num_id} defines no level {ilvl}")
    return found


def _num_element(root: etree._Element, num_id: str) -> etree._Element | None:
    """The ``w:num`` of list instance `num_id` in the numbering part's `root`, or None."""
    return next((n for n in root.iterchildren(qn("w:num")) if n.get(qn("w:numId")) == num_id), None)


def _definition_element(doc: WordDocument, num_id: str) -> etree._Element | None:
    """The ``w:abstractNum`` list instance `num_id` takes its levels from, or None."""
    definition = StateContext(doc).numbering.definition(num_id)
    return next((a for a in numbering_root(doc).iterchildren(qn("w:abstractNum"))
                 if a.get(qn("w:abstractNumId")) == definition), None)
