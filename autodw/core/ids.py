"""Stable element ids: a private-namespace attribute on paragraphs, tables and drawings.

Ids are assigned in document order when a document is opened (so the same file always gets
the same ids), survive edits elsewhere and snapshot/restore (they live in the XML), are given
fresh to new or copied elements, and are stripped when the document is saved.

Kinds and prefixes (:data:`KINDS`): paragraphs ``p``, tables ``t``, pictures ``img``, charts ``chart``,
other drawings (shapes, text boxes, SmartArt, VML) ``shape``; an id is a prefix and a number from 1
(``p12``, ``t3``, ``img2``). Each prefix has its own counter. This module is the one place the id
grammar is written: the API argument schemas, the agent and the scripts derive their patterns from it.
"""

from __future__ import annotations

import re
from typing import Any, Iterable, Iterator

from docx.oxml.parser import oxml_parser
from lxml import etree

from autodw.core.xml import MC, NS, qn

ID_NS = "urn:autodw:element-ids"
ID_PREFIX = "adw"
ID_ATTR = f"{{{ID_NS}}}id"
NEXT_ATTR = f"{{{ID_NS}}}next"

P, TBL = qn("w:p"), qn("w:tbl")
INLINE, ANCHOR, PICT = qn("wp:inline"), qn("wp:anchor"), qn("w:pict")
ID_TAGS = (P, TBL, INLINE, ANCHOR, PICT)
_FALLBACK = f"{{{MC}}}Fallback"

#: id prefix -> what it names, in the order ids are listed.
KINDS: dict[str, str] = {"p": "paragraph", "t": "table", "img": "picture", "chart": "chart", "shape": "shape"}
PREFIXES: tuple[str, ...] = tuple(KINDS)


def id_pattern(prefixes: Iterable[str] = PREFIXES) -> str:
    """The regular expression (no anchors) of an id with one of `prefixes`: ``(p|t)[0-9]+``.

    Written with ``[0-9]``, not ``\\d``: it also goes into JSON Schemas that llama.cpp turns into
    grammars, which reject escapes. Group 1 is the prefix."""
    prefixes = tuple(prefixes)
    unknown = [p for p in prefixes if p not in KINDS]
    if unknown or not prefixes:
        raise ValueError(f"unknown id prefix(es) {unknown}; known: {', '.join(PREFIXES)}")
    return f"({'|'.join(prefixes)})[0-9]+"


def schema_pattern(prefixes: Iterable[str] = PREFIXES) -> str:
    """The JSON Schema ``pattern`` of an id with one of `prefixes`: ``^(p|t)[0-9]+$``."""
    return f"^{id_pattern(prefixes)}$"


#: The prefixes of a pattern written by :func:`schema_pattern` (group 1), for readers of a schema.
_SCHEMA_PATTERN = re.compile(rf"^\^\(((?:{'|'.join(PREFIXES)})(?:\|(?:{'|'.join(PREFIXES)}))*)\)\[0-9\]\+\$$")
#: An id, whole (group 1 prefix, group 2 number).
ID_RE = re.compile(rf"^({'|'.join(PREFIXES)})([0-9]+)$")
#: Ids inside free text ("moved p3 after t1").
ID_IN_TEXT = re.compile(rf"\b(?:{'|'.join(PREFIXES)})[0-9]+\b")


#: A quoted text as Python's repr writes it in a message ('...' or "..." not inside a word), or a web address
#: (scheme://..., mailto:..., www....) as a message may give one unquoted: ids inside are text.
_QUOTED = re.compile(r"""((?<!\w)(?:'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*")"""
                     r"""|(?<![\w.+-])(?:[A-Za-z][\w+.-]*://|mailto:|www\.)[^\s'"<>]*)""")


_TEXT_KEYS = ("text", "context")  # a read-only result's keys whose values are document text


def ids_listed(data: Any) -> list[str]:
    """The element ids a read-only call's result lists (the values that are ids, in order, each once: a search's
    matched paragraphs and their tables; not its matched text or context, even when that is an id-like word)."""
    out: list[str] = []
    stack = [data]
    while stack:
        item = stack.pop(0)
        if isinstance(item, dict):
            stack[:0] = [v for k, v in item.items() if k not in _TEXT_KEYS]
        elif isinstance(item, (list, tuple)):
            stack[:0] = list(item)
        elif isinstance(item, str) and ID_RE.match(item) and item not in out:
            out.append(item)
    return out


#: An id a message names: a whole token, not part of a file name or address ("report-t12.docx", "a/p3", "#t1")
_ID_TOKEN = re.compile(rf"(?<![/\\.@#?&%~]){ID_IN_TEXT.pattern}(?![/\\@#?&%~]|\.\w)")


def ids_in_text(text: str) -> list[str]:
    """The ids a message names outside quoted text and web addresses, each once, in order."""
    parts = _QUOTED.split(text)  # odd items are the quoted texts
    return list(dict.fromkeys(i for part in parts[::2] for i in _ID_TOKEN.findall(part)))


def rename_ids_in_text(text: str, names: dict[str, str]) -> str:
    """`text` with each id of `names` outside quoted text and web addresses replaced by its new name (other ids
    kept)."""
    parts = _QUOTED.split(text)
    return "".join(part if i % 2 else _ID_TOKEN.sub(lambda m: names.get(m.group(0), m.group(0)), part)
                   for i, part in enumerate(parts))


def prefixes_of_pattern(pattern: str) -> tuple[str, ...] | None:
    """The prefixes of a schema pattern written by :func:`schema_pattern`, or None for any other pattern."""
    m = _SCHEMA_PATTERN.match(pattern)
    return tuple(m.group(1).split("|")) if m else None


def parse_id(text: str) -> tuple[str, int] | None:
    """``"p12"`` -> ``("p", 12)``; None if `text` is not an element id."""
    m = ID_RE.match(text)
    return (m.group(1), int(m.group(2))) if m else None

_CHART_URI = "http://schemas.openxmlformats.org/drawingml/2006/chart"
_PIC_URI = "http://schemas.openxmlformats.org/drawingml/2006/picture"


def declare_namespace(root: etree._Element) -> etree._Element:
    """Return `root`, or a copy of it that declares the id namespace (children moved, not copied).

    Slow for large trees; used only for parts created after loading (a new header)."""
    if root.nsmap.get(ID_PREFIX) == ID_NS:
        return root
    nsmap = dict(root.nsmap)
    nsmap[ID_PREFIX] = ID_NS
    new_root = oxml_parser.makeelement(root.tag, attrib=dict(root.attrib), nsmap=nsmap)
    new_root.text, new_root.tail = root.text, root.tail
    for child in list(root):
        new_root.append(child)
    return new_root


def drawing_prefix(el: etree._Element) -> str:
    """The id prefix for a drawing container: ``img``, ``chart`` or ``shape``."""
    if el.tag == PICT:
        return "img" if el.find(f".//{{{NS['v']}}}imagedata") is not None and el.find(f".//{{{NS['v']}}}textpath") is None else "shape"
    gd = el.find(f"{{{NS['a']}}}graphic/{{{NS['a']}}}graphicData")
    uri = gd.get("uri") if gd is not None else None
    if uri == _PIC_URI:
        return "img"
    if uri == _CHART_URI:
        return "chart"
    return "shape"


def prefix_for(el: etree._Element) -> str:
    """The id prefix for any id-bearing element."""
    if el.tag == P:
        return "p"
    if el.tag == TBL:
        return "t"
    return drawing_prefix(el)


def iter_id_elements(root: etree._Element) -> Iterator[etree._Element]:
    """Every element of `root` that carries an id, in document order (mc:Fallback copies skipped)."""
    for el in root.iter(*ID_TAGS):
        if el.tag in (P, TBL) or not _in_fallback(el):
            yield el


def _in_fallback(el: etree._Element) -> bool:
    parent = el.getparent()
    while parent is not None:
        if parent.tag == _FALLBACK:
            return True
        parent = parent.getparent()
    return False


def _read_counters(holder: etree._Element) -> dict[str, int]:
    raw = holder.get(NEXT_ATTR, "")
    counters: dict[str, int] = {}
    for item in raw.split(";"):
        if "=" in item:
            k, v = item.split("=", 1)
            counters[k] = int(v)
    return counters


def assign_ids(roots: Iterable[etree._Element], holder: etree._Element) -> dict[str, etree._Element]:
    """Give an id to every id-bearing element that lacks one or shares one; return the id index.

    `holder` (the document root) keeps the per-prefix counters, so new ids never reuse an old one.
    """
    counters = _read_counters(holder)
    index: dict[str, etree._Element] = {}
    fresh: list[etree._Element] = []
    for root in roots:
        for el in iter_id_elements(root):
            current = el.get(ID_ATTR)
            if current is None or current in index:
                fresh.append(el)
                continue
            index[current] = el
            parsed = parse_id(current)
            if parsed and counters.get(parsed[0], 1) <= parsed[1]:
                counters[parsed[0]] = parsed[1] + 1
    for el in fresh:
        prefix = prefix_for(el)
        n = counters.get(prefix, 1)
        counters[prefix] = n + 1
        new_id = f"{prefix}{n}"
        el.set(ID_ATTR, new_id)
        index[new_id] = el
    if fresh or not holder.get(NEXT_ATTR):
        holder.set(NEXT_ATTR, ";".join(f"{k}={v}" for k, v in sorted(counters.items())))
    return index


def strip_ids(roots: Iterable[etree._Element]) -> list[tuple[etree._Element, str, str]]:
    """Remove every id-namespace attribute; return what was removed so it can be put back."""
    removed: list[tuple[etree._Element, str, str]] = []
    for root in roots:
        if root.get(NEXT_ATTR) is not None:
            removed.append((root, NEXT_ATTR, root.attrib.pop(NEXT_ATTR)))
        for el in root.iter(*ID_TAGS):
            value = el.attrib.pop(ID_ATTR, None)
            if value is not None:
                removed.append((el, ID_ATTR, value))
    return removed


def restore_ids(removed: list[tuple[etree._Element, str, str]]) -> None:
    """Put back attributes returned by :func:`strip_ids`."""
    for el, attr, value in removed:
        el.set(attr, value)


def remove_namespace_declaration(xml: bytes) -> bytes:
    """Drop the id namespace declaration from serialized XML (ids already stripped)."""
    return xml.replace(f' xmlns:{ID_PREFIX}="{ID_NS}"'.encode(), b"", 1)


def element_id(el: etree._Element) -> str | None:
    """The id of `el`, or None."""
    return el.get(ID_ATTR)
