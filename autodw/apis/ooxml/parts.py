"""Package parts python-docx may hold as bytes (properties, stylesWithEffects, comment extensions): their XML
tree and how to write it back, and new package-level parts."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from docx.opc.packuri import PackURI
from docx.opc.part import Part
from lxml import etree

from autodw.core.document import WordDocument

_PARSER = etree.XMLParser(resolve_entities=False, remove_blank_text=False)


@dataclass
class PartXml:
    """The root element of a package-level XML part, and how to write it back."""

    part: Part
    root: etree._Element
    is_blob: bool

    def commit(self) -> None:
        """Write the tree back when python-docx holds the part as bytes."""
        if self.is_blob:
            self.part._blob = etree.tostring(self.root, xml_declaration=True, encoding="UTF-8", standalone=True)


def package_part(doc: WordDocument, reltype: str) -> Part | None:
    """The first part the package relates with `reltype` (core, custom or app properties), or None."""
    for rel in doc.package.rels.values():
        if rel.reltype == reltype and not rel.is_external:
            return rel.target_part
    return None


def part_xml(part: Part, fallback: Callable[[], etree._Element]) -> PartXml:
    """The part's XML; an unreadable part is replaced by ``fallback()``."""
    if hasattr(part, "_element"):
        return PartXml(part, part._element, False)
    try:
        root = etree.fromstring(part.blob, _PARSER)
    except etree.XMLSyntaxError:
        root = fallback()
    return PartXml(part, root, True)


def new_package_part(doc: WordDocument, name: str, content_type: str, reltype: str, root: etree._Element) -> PartXml:
    """Add a new blob part at ``/docProps/<name>`` (or a free variant of it) related from the package."""
    taken = {str(p.partname) for p in doc.package.iter_parts()}
    stem, ext = name.rsplit(".", 1)
    partname, n = f"/docProps/{name}", 1
    while partname in taken:
        n += 1
        partname = f"/docProps/{stem}{n}.{ext}"
    blob = etree.tostring(root, xml_declaration=True, encoding="UTF-8", standalone=True)
    part = Part(PackURI(partname), content_type, blob, doc.package)
    doc.package.relate_to(part, reltype)
    return PartXml(part, root, True)
