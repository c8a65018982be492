"""Copied content gets ids of its own: the one place that renews ids when an API copies XML.

A deep copy of a paragraph, row or table duplicates every id inside it. Word repairs a file in which
revision marks, drawings or VML shapes share ids, and bookmark names, comment anchors and content-control
ids must stay unique. :func:`renew_ids` makes a copy safe to insert:

- autodw element ids are dropped (the document gives fresh ones);
- revision marks (``w:ins``, ``w:del``, ``w:rPrChange``, ``w:tblGridChange``, ...) get new ``w:id``s, the
  two ends of a move range the same new id;
- drawings get new ``wp:docPr`` ids, VML shapes new ``id`` / ``o:spid`` (a shape type the document
  already defines is not copied again);
- bookmarks, comment anchors and permission ranges are dropped (they name one place), as are the
  optional ``w14:paraId``/``w14:textId`` and content-control ``w:id``;
- a copied footnote or endnote reference gets a copy of its note.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterator

from lxml import etree

from autodw.apis.ooxml.elements import REVISION_MARKS
from autodw.apis.ooxml.notes import notes_root
from autodw.core.document import WordDocument
from autodw.core.ids import ID_ATTR
from autodw.core.xml import NS, qn

_DROPPED = tuple(qn(f"w:{t}") for t in (
    "bookmarkStart", "bookmarkEnd", "commentRangeStart", "commentRangeEnd", "permStart", "permEnd"))
_W14 = "http://schemas.microsoft.com/office/word/2010/wordml"
_V, _O = NS["v"], "urn:schemas-microsoft-com:office:office"
_DOC_PR = qn("wp:docPr")
_W_ID = qn("w:id")


def renewed_copy(doc: WordDocument, el: etree._Element) -> etree._Element:
    """A deep copy of `el` with renewed ids (see :func:`renew_ids`), ready to insert into `doc`."""
    clone = copy.deepcopy(el)
    renew_ids(doc, clone)
    return clone


def renew_ids(doc: WordDocument, clone: etree._Element) -> etree._Element:
    """Give the copied content `clone` (not yet inserted, or inserted: its own ids do not count) ids that
    no other content of `doc` uses; return it."""
    roots = _part_roots(doc)
    for e in clone.iter():
        e.attrib.pop(ID_ATTR, None)
        e.attrib.pop(f"{{{_W14}}}paraId", None)
        e.attrib.pop(f"{{{_W14}}}textId", None)
    for e in list(clone.iter(*_DROPPED)):
        e.getparent().remove(e)
    for ref in list(clone.iter(qn("w:commentReference"))):
        run = ref.getparent()
        run.remove(ref)
        if run.tag == qn("w:r") and all(c.tag == qn("w:rPr") for c in run):
            run.getparent().remove(run)
    for sdt_id in list(clone.iter(f"{{{NS['w']}}}sdtPr")):
        for e in sdt_id.findall(_W_ID):
            sdt_id.remove(e)
    _renew_revision_ids(roots, clone)
    _renew_drawing_ids(roots, clone)
    _renew_vml_ids(roots, clone)
    _copy_notes(doc, clone)
    return clone


def _part_roots(doc: WordDocument) -> list[etree._Element]:
    """The root element of every XML part of the package (body, headers, notes, comments, ...)."""
    return [part._element for part in doc.package.iter_parts() if hasattr(part, "_element")]


def _ids_outside(roots: list[etree._Element], clone: etree._Element, tags, attr: str) -> Iterator[int]:
    """The integer `attr` values of `tags` elements of `roots` that are not part of `clone`."""
    for root in roots:
        for e in root.iter(*tags):
            if not _inside(e, clone):
                value = e.get(attr, "")
                if value.lstrip("-").isdigit():
                    yield int(value)


def _inside(e: etree._Element, ancestor: etree._Element) -> bool:
    return e is ancestor or any(a is ancestor for a in e.iterancestors())


def _renew_revision_ids(roots: list[etree._Element], clone: etree._Element) -> None:
    marks = [e for e in clone.iter(*REVISION_MARKS) if e.get(_W_ID) is not None]
    if not marks:
        return
    next_id = max([0, *_ids_outside(roots, clone, REVISION_MARKS, _W_ID)]) + 1
    renamed: dict[str, str] = {}
    for e in marks:
        old = e.get(_W_ID)
        if old not in renamed:
            renamed[old] = str(next_id)
            next_id += 1
        e.set(_W_ID, renamed[old])


def _renew_drawing_ids(roots: list[etree._Element], clone: etree._Element) -> None:
    drawings = list(clone.iter(_DOC_PR))
    if not drawings:
        return
    next_id = max([0, *_ids_outside(roots, clone, (_DOC_PR,), "id")]) + 1
    for e in drawings:
        e.set("id", str(next_id))
        next_id += 1


def _renew_vml_ids(roots: list[etree._Element], clone: etree._Element) -> None:
    """VML ``id``/``o:spid`` values the document uses elsewhere get the next free number of their pattern
    (``_x0000_s1030`` -> ``_x0000_s1031``, ``PowerPlusWaterMarkObject3`` -> ...4); shape types the document
    defines already are not copied."""
    vml = [e for e in clone.iter() if isinstance(e.tag, str) and e.tag.startswith(f"{{{_V}}}")]
    if not vml:
        return
    used: set[str] = set()
    for root in roots:
        for e in root.iter():
            if isinstance(e.tag, str) and e.tag.startswith(f"{{{_V}}}") and not _inside(e, clone):
                used.update(v for v in (e.get("id"), e.get(f"{{{_O}}}spid")) if v)
    for e in vml:
        if e.tag == f"{{{_V}}}shapetype":
            if e.get("id") in used:
                e.getparent().remove(e)  # the document defines this shape type already
            continue
        for attr in ("id", f"{{{_O}}}spid"):
            value = e.get(attr)
            if value is None:
                continue
            if value in used:
                stem, digits = re.match(r"^(.*?)(\d*)$", value).groups()
                n = int(digits) if digits else 0
                while value in used:
                    n += 1
                    value = f"{stem}{n}" if digits else f"{stem}_{n}"
                e.set(attr, value)
            used.add(value)


def _copy_notes(doc: WordDocument, clone: etree._Element) -> None:
    """Each footnote/endnote reference in the copy points at a new copy of its note."""
    for kind in ("footnote", "endnote"):
        refs = list(clone.iter(qn(f"w:{kind}Reference")))
        root = notes_root(doc, kind, create=False) if refs else None
        if root is None:
            continue
        notes = {n.get(_W_ID): n for n in root.iterchildren(qn(f"w:{kind}"))}
        next_id = max([0, *(int(i) for i in notes if i and i.lstrip("-").isdigit())]) + 1
        for ref in refs:
            note = notes.get(ref.get(_W_ID))
            if note is None:
                continue
            new = copy.deepcopy(note)
            new.set(_W_ID, str(next_id))
            root.append(new)
            ref.set(_W_ID, str(next_id))
            next_id += 1
