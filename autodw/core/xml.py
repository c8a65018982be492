"""XML namespaces and small lxml helpers shared by the document model, state reader and APIs."""

from __future__ import annotations

import re
from typing import Mapping

from lxml import etree

NS: dict[str, str] = {
    "w": "http://schemas.openxmlformats.org/wordprocessingml/2006/main",
    "r": "http://schemas.openxmlformats.org/officeDocument/2006/relationships",
    "wp": "http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing",
    "a": "http://schemas.openxmlformats.org/drawingml/2006/main",
    "pic": "http://schemas.openxmlformats.org/drawingml/2006/picture",
    "c": "http://schemas.openxmlformats.org/drawingml/2006/chart",
    "wps": "http://schemas.microsoft.com/office/word/2010/wordprocessingShape",
    "v": "urn:schemas-microsoft-com:vml",
    "o": "urn:schemas-microsoft-com:office:office",
    "w10": "urn:schemas-microsoft-com:office:word",
    "w14": "http://schemas.microsoft.com/office/word/2010/wordml",
    "mc": "http://schemas.openxmlformats.org/markup-compatibility/2006",
    "m": "http://schemas.openxmlformats.org/officeDocument/2006/math",
    "cp": "http://schemas.openxmlformats.org/package/2006/metadata/core-properties",
    "dc": "http://purl.org/dc/elements/1.1/",
    "dcterms": "http://purl.org/dc/terms/",
    "xml": "http://www.w3.org/XML/1998/namespace",
}
W = NS["w"]
#: characters XML 1.0 (so a .docx) cannot hold: C0 controls but tab, line feed and carriage return; surrogates
#: (a lone one comes from undecodable bytes); U+FFFE and U+FFFF
NOT_IN_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
MC = NS["mc"]

_qn_cache: dict[str, str] = {}


def qn(tag: str) -> str:
    """Clark name for a prefixed tag: ``qn("w:p")`` -> ``{http://...main}p``."""
    try:
        return _qn_cache[tag]
    except KeyError:
        prefix, local = tag.split(":")
        _qn_cache[tag] = value = f"{{{NS[prefix]}}}{local}"
        return value


def first_child(el: etree._Element, *tags: str) -> etree._Element | None:
    """The first element down the path of child tags (Clark names) from `el`, as ``el.find("a/b")`` finds it, or
    None; several times faster than ``find``, whose ElementPath parsing the state reader paid per paragraph and run."""
    if len(tags) == 1:
        return next(el.iterchildren(tags[0]), None)
    for sub in el.iterchildren(tags[0]):
        found = first_child(sub, *tags[1:])
        if found is not None:
            return found
    return None


def first_children(el: etree._Element) -> dict:
    """Each tag among the children of `el` -> its first child of that tag (what :func:`first_child` finds, for every
    tag in one pass)."""
    out: dict = {}
    for sub in el:
        out.setdefault(sub.tag, sub)
    return out


def wval(el: etree._Element | None, attr: str = "w:val") -> str | None:
    """The value of attribute `attr` (default ``w:val``) of `el`, or None when `el` is None."""
    if el is None:
        return None
    return el.get(qn(attr))


def on_off(el: etree._Element | None) -> bool | None:
    """Read a WordprocessingML toggle property (``<w:b/>``, ``<w:b w:val="0"/>``)."""
    if el is None:
        return None
    return wval(el) not in ("0", "false", "off", "none")


def parse(xml: str | bytes) -> etree._Element:
    """Parse trusted-structure XML text with python-docx's parser (custom element classes)."""
    from docx.oxml.parser import parse_xml

    return parse_xml(xml)


_ROOT_TAG = re.compile(rb"<[^\s/>]+")
_UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")
_DECLARED_ENCODING = re.compile(rb"""^(<\?xml[^>]*?encoding\s*=\s*)(["'])[^"']*\2""")


def utf8_xml(xml: bytes) -> bytes:
    """`xml` in UTF-8: a part written in UTF-16 (with the byte-order mark the XML spec asks of it) transcoded, its
    declaration saying UTF-8; any other `xml` as it is (one that does not decode is left to the parser to refuse)."""
    if not xml.startswith(_UTF16_BOMS):
        return xml
    try:
        text = xml.decode("utf-16")
    except UnicodeDecodeError:
        return xml
    return _DECLARED_ENCODING.sub(rb"\1\2UTF-8\2", text.encode("utf-8"), count=1)


def declare_namespaces_in_xml(xml: bytes, namespaces: Mapping[str, str]) -> bytes:
    """Add declarations of `namespaces` (prefix -> URI) to the root start tag of serialized UTF-8 XML: each one
    whose prefix and URI the tag does not declare already.

    Done on bytes before parsing: re-rooting a parsed tree is slow in lxml for large bodies (every moved node is
    re-namespaced), and lxml names a namespace declared nowhere in scope ``ns0``, ``ns1``, ... itself, which a
    document written by ElementTree already uses for its own prefixes: an ``r:id`` set on such a document's element
    came out as ``ns0:id`` under a local ``xmlns:ns0`` that moved the element itself into the relationships
    namespace. A UTF-16 part is transcoded to UTF-8 first (:func:`utf8_xml`; declaring on its parsed tree instead
    took minutes for a large body). Returns `xml` (transcoded) without declarations if it has no root start tag.
    """
    xml = utf8_xml(xml)
    i = 0
    while True:
        j = xml.find(b"<", i)
        if j < 0:
            return xml
        close = b"?>" if xml.startswith(b"<?", j) else b"-->" if xml.startswith(b"<!--", j) else \
            b">" if xml.startswith(b"<!", j) else None
        if close is None:
            break
        end = xml.find(close, j + 2)
        if end < 0:  # a declaration, instruction or comment never closed: the parser will refuse the part
            return xml
        i = end + len(close)
    m = _ROOT_TAG.match(xml, j)
    if m is None:
        return xml
    tag = xml[j:xml.find(b">", j)]
    added = b"".join(f' xmlns:{prefix}="{uri}"'.encode() for prefix, uri in namespaces.items()
                     if f'"{uri}"'.encode() not in tag and f"xmlns:{prefix}=".encode() not in tag)
    return xml[: m.end()] + added + xml[m.end():] if added else xml
