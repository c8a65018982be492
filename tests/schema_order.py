"""Child order of WordprocessingML property elements as python-docx declares it (an oracle that is not ours).

python-docx's oxml classes declare each child with ``ZeroOrOne(tag, successors=_tag_seq[i + 1:])``; the
generated ``_insert_<child>`` method keeps that descriptor in its closure, so the declared successors of
every child can be read back. Child A must precede B when B is among A's successors.
"""

from __future__ import annotations

from functools import lru_cache

import docx.oxml  # noqa: F401 (registers the element classes)
from docx.oxml.ns import nsmap, qn
from docx.oxml.parser import element_class_lookup
from docx.oxml.xmlchemy import _BaseChildElement
from lxml import etree



@lru_cache(maxsize=None)
def declared_sequence(tag: str) -> tuple[str, ...]:
    """The child sequence python-docx declares for element `tag` (``"w:pPr"``), as far as it declares it;
    () when python-docx has no class for it or declares no ordered children."""
    prefix, local = tag.split(":")
    registry = dict(element_class_lookup.get_namespace(nsmap[prefix]).items())
    cls = registry.get(local.encode())
    if cls is None:
        return ()
    successors: dict[str, tuple[str, ...]] = {}
    for name, method in vars(cls).items():
        if name.startswith("_insert_") and getattr(method, "__closure__", None):
            for cell in method.__closure__:
                if isinstance(cell.cell_contents, _BaseChildElement):
                    child = cell.cell_contents
                    successors[child._nsptagname] = tuple(getattr(child, "_successors", ()))
    if not successors:
        return ()
    first = max(successors, key=lambda t: len(successors[t]))
    return (first, *successors[first])


def out_of_order(el: etree._Element, tag: str) -> list[str]:
    """Adjacent known children of `el` (a `tag` element) that python-docx's order puts the other way round."""
    rank = {qn(t): i for i, t in enumerate(declared_sequence(tag))}
    known = [c.tag for c in el if c.tag in rank]
    return [f"{a.split('}')[1]} before {b.split('}')[1]}" for a, b in zip(known, known[1:]) if rank[a] > rank[b]]


#: Property elements whose order python-docx declares (tblBorders, tcBorders and pBdr it does not: the
#: Open XML validation test, tests/test_validation.py, checks those).
CHECKED = ("w:pPr", "w:rPr", "w:tblPr", "w:trPr", "w:tcPr", "w:sectPr", "w:style", "w:numbering", "w:settings")


def assert_schema_order(roots) -> None:
    """Every checked property element under `roots` has its children in python-docx's declared order."""
    tags = {qn(t): t for t in CHECKED}
    for root in roots:
        for el in root.iter(*tags):
            wrong = out_of_order(el, tags[el.tag])
            assert not wrong, f"{tags[el.tag]} children out of order: {wrong}"
