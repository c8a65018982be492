"""Document-level helpers for the lifecycle APIs: property parts (core, custom, app), tracked-change
resolution, Word's protection password hash, and LibreOffice conversion."""

from __future__ import annotations

import base64
import dataclasses
import datetime as dt
import hashlib
import re
import shutil
import subprocess
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

from docx.opc.constants import CONTENT_TYPE as CT
from docx.opc.constants import RELATIONSHIP_TYPE as RT
from lxml import etree

from autodw.apis.ooxml.elements import get_or_add_ppr, insert_ordered
from autodw.apis.ooxml.parts import PartXml, new_package_part, package_part, part_xml
from autodw.apis.ooxml.text import atom_text, new_run
from autodw.core.document import WordDocument
from autodw.core.errors import ArgumentError, UnsupportedOperationError
from autodw.core.xml import NS, qn

_PARSER = etree.XMLParser(resolve_entities=False, remove_blank_text=False)
CUSTOM_NS = "http://schemas.openxmlformats.org/officeDocument/2006/custom-properties"
VT_NS = "http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes"
APP_NS = "http://schemas.openxmlformats.org/officeDocument/2006/extended-properties"
FMTID = "{D5CDD505-2E9C-101B-9397-08002B2CF9AE}"


# --- core properties ------------------------------------------------------------------------

#: API name -> (namespace prefix, local name) in docProps/core.xml
CORE_FIELDS = {"title": ("dc", "title"), "author": ("dc", "creator"), "subject": ("dc", "subject"),
               "keywords": ("cp", "keywords"), "category": ("cp", "category"), "comments": ("dc", "description"),
               "last_modified_by": ("cp", "lastModifiedBy")}


def _empty_core() -> etree._Element:
    return etree.Element(f"{{{NS['cp']}}}coreProperties",
                         nsmap={"cp": NS["cp"], "dc": NS["dc"], "dcterms": NS["dcterms"],
                                "dcmitype": "http://purl.org/dc/dcmitype/", "xsi": "http://www.w3.org/2001/XMLSchema-instance"})


def set_core(root: etree._Element, key: str, value: str | None) -> None:
    """Set (or with None/"" clear) one core property."""
    prefix, local = CORE_FIELDS[key]
    tag = f"{{{NS[prefix]}}}{local}"
    found = root.findall(tag)
    for el in found[1:]:
        root.remove(el)
    el = found[0] if found else None
    if not value:
        if el is not None:
            root.remove(el)
        return
    if el is None:
        el = etree.SubElement(root, tag)
    for child in list(el):
        el.remove(child)
    el.text = value


# --- custom properties ----------------------------------------------------------------------


def _empty_custom() -> etree._Element:
    return etree.Element(f"{{{CUSTOM_NS}}}Properties", nsmap={None: CUSTOM_NS, "vt": VT_NS})


_PROPERTY_PARTS = {"core": (RT.CORE_PROPERTIES, CT.OPC_CORE_PROPERTIES, "core.xml", _empty_core),
                   "custom": (RT.CUSTOM_PROPERTIES, CT.OFC_CUSTOM_PROPERTIES, "custom.xml", _empty_custom)}


def properties_xml(doc: WordDocument, kind: str, create: bool = True) -> PartXml | None:
    """docProps/core.xml or custom.xml (the first one when a broken package relates several); created when
    missing and `create`, rebuilt empty when unreadable."""
    reltype, content_type, name, empty = _PROPERTY_PARTS[kind]
    part = package_part(doc, reltype)
    if part is not None:
        return part_xml(part, empty)
    if not create:
        return None
    return new_package_part(doc, name, content_type, reltype, empty())


def custom_properties(root: etree._Element) -> dict[str, str]:
    """name -> value text of every custom property."""
    out = {}
    for prop in root.iterchildren(f"{{{CUSTOM_NS}}}property"):
        value = next(iter(prop), None)
        out[prop.get("name") or ""] = (value.text or "") if value is not None else ""
    return out


def set_custom(root: etree._Element, name: str, vt_type: str | None, text: str | None) -> bool:
    """Set custom property `name` to a ``vt:<vt_type>`` value, or remove it when `vt_type` is None.
    Returns whether the property existed before."""
    props = [p for p in root.iterchildren(f"{{{CUSTOM_NS}}}property") if (p.get("name") or "").lower() == name.lower()]
    existed = bool(props)
    if vt_type is None:
        for p in props:
            root.remove(p)
        return existed
    if props:
        prop = props[0]
        for extra in props[1:]:
            root.remove(extra)
        for child in list(prop):
            prop.remove(child)
    else:
        pids = [int(p.get("pid")) for p in root.iterchildren(f"{{{CUSTOM_NS}}}property") if (p.get("pid") or "").isdigit()]
        prop = etree.SubElement(root, f"{{{CUSTOM_NS}}}property", fmtid=FMTID, pid=str(max([1, *pids]) + 1), name=name)
    etree.SubElement(prop, f"{{{VT_NS}}}{vt_type}").text = text
    return existed


# --- tracked changes ------------------------------------------------------------------------

_CONTENT_INS = (qn("w:ins"), qn("w:moveTo"))
_CONTENT_DEL = (qn("w:del"), qn("w:moveFrom"))
_MARKERS = _CONTENT_INS + _CONTENT_DEL
_PROP_CHANGES = tuple(qn(f"w:{t}") for t in ("rPrChange", "pPrChange", "sectPrChange", "tblPrChange", "trPrChange",
                                             "tcPrChange", "tblPrExChange", "tblGridChange", "numberingChange"))
#: a change that only records the old list number's text (w:original); the numPr around it is the list itself
_NUMBERING_CHANGE = qn("w:numberingChange")
_RANGE_MARKS = tuple(qn(f"w:{t}") for t in ("moveFromRangeStart", "moveFromRangeEnd", "moveToRangeStart", "moveToRangeEnd"))
_CELL_MARKS = tuple(qn(f"w:{t}") for t in ("cellIns", "cellDel", "cellMerge"))
#: children a property element keeps when a formatting change is rejected
_KEEP_ON_REJECT = {qn("w:pPr"): (qn("w:rPr"), qn("w:sectPr")),
                   qn("w:rPr"): _MARKERS,
                   qn("w:trPr"): (qn("w:ins"), qn("w:del")),
                   qn("w:tcPr"): _CELL_MARKS,
                   qn("w:sectPr"): (qn("w:headerReference"), qn("w:footerReference"))}


def change_roots(doc: WordDocument) -> list[etree._Element]:
    """Parts that can hold tracked changes: body, headers, footers, footnotes, endnotes, comments, and the style
    and numbering definitions (Word tracks formatting changes to a style as w:rPrChange/w:pPrChange there)."""
    roots = list(doc.id_roots())
    kinds = (RT.FOOTNOTES, RT.ENDNOTES, RT.COMMENTS, RT.STYLES, RT.NUMBERING)
    for rel in doc.part.rels.values():
        if not rel.is_external and rel.reltype in kinds and hasattr(rel.target_part, "_element"):
            roots.append(rel.target_part._element)
    return roots


def tracked_authors(roots: Iterable[etree._Element]) -> Counter:
    """How many tracked changes each author made."""
    tags = _MARKERS + _PROP_CHANGES + _CELL_MARKS
    return Counter(el.get(qn("w:author")) or "?" for root in roots for el in root.iter(*tags))


def _attached(el: etree._Element, root: etree._Element) -> bool:
    return el.getroottree().getroot() is root


def _paragraph(el: etree._Element) -> etree._Element | None:
    if el.tag == qn("w:p"):
        return el
    return next(el.iterancestors(qn("w:p")), None)


def _unwrap(el: etree._Element) -> None:
    for child in list(el):
        el.addprevious(child)
    el.getparent().remove(el)


def _undelete(el: etree._Element) -> None:
    for t in el.iter(qn("w:delText")):
        t.tag = qn("w:t")
    for t in el.iter(qn("w:delInstrText")):
        t.tag = qn("w:instrText")


def _put(parent: etree._Element, child: etree._Element) -> None:
    try:
        insert_ordered(parent, child)
    except ValueError:  # no schema order known: before a trailing change element, else at the end
        last = parent[-1] if len(parent) else None
        if last is not None and last.tag in _PROP_CHANGES:
            last.addprevious(child)
        else:
            parent.append(child)


def _reject_property_change(change: etree._Element) -> None:
    """Restore the properties a formatting change recorded (its child holds the old ones)."""
    parent = change.getparent()
    old = next((c for c in change if isinstance(c.tag, str)), None)
    keep = _KEEP_ON_REJECT.get(parent.tag, ())
    for child in list(parent):
        if child is not change and child.tag not in keep:
            parent.remove(child)
    parent.remove(change)
    if old is not None:
        for child in list(old):
            _put(parent, child)
        for attr, value in old.attrib.items():  # e.g. the old page size of a sectPr sits on children, but be safe
            if parent.tag == old.tag:
                parent.set(attr, value)


def _merge_with_next(p: etree._Element) -> bool:
    """Join paragraph `p` with the next one (whose paragraph properties win); False if there is none.

    A last paragraph (no paragraph follows in its story or cell) that is left empty is removed, as Word does,
    unless it is the only paragraph there or ends a section."""
    nxt = p.getnext()
    while nxt is not None and not isinstance(nxt.tag, str):
        nxt = nxt.getnext()
    if nxt is None or nxt.tag != qn("w:p"):
        ppr = p.find(qn("w:pPr"))
        empty = all(c.tag == qn("w:pPr") for c in p if isinstance(c.tag, str))
        ends_section = ppr is not None and ppr.find(qn("w:sectPr")) is not None
        if empty and not ends_section and len(p.getparent().findall(qn("w:p"))) > 1:
            p.getparent().remove(p)
        return False
    ppr = p.find(qn("w:pPr"))
    sect = ppr.find(qn("w:sectPr")) if ppr is not None else None
    nxt_ppr = nxt.find(qn("w:pPr"))
    anchor_index = 1 if nxt_ppr is not None else 0
    for child in reversed([c for c in p if c.tag != qn("w:pPr")]):
        nxt.insert(anchor_index, child)
    if sect is not None and (nxt_ppr is None or nxt_ppr.find(qn("w:sectPr")) is None):
        insert_ordered(get_or_add_ppr(nxt), sect)
    p.getparent().remove(p)
    return True


def resolve_changes(roots: list[etree._Element], accept: bool, author: str | None = None,
                    paragraphs: set[etree._Element] | None = None) -> Counter:
    """Accept or reject tracked changes; returns counts by kind (insertion, deletion, formatting, ...).

    `author` limits to one author's changes; `paragraphs` limits to changes inside those paragraphs
    (row-level changes are then left alone).
    """
    done: Counter = Counter()

    def wanted(el: etree._Element, root: etree._Element) -> bool:
        if not _attached(el, root):
            return False
        if author is not None and (el.get(qn("w:author")) or "") != author:
            return False
        if paragraphs is not None:
            p = _paragraph(el)
            return p is not None and p in paragraphs
        return True

    for root in roots:
        marks: list[etree._Element] = []
        for el in list(root.iter(*_MARKERS)):
            parent = el.getparent()
            if parent.tag == qn("w:rPr"):
                marks.append(el)  # a paragraph mark inserted/deleted: after the content
                continue
            if parent.tag == qn("w:trPr"):
                if paragraphs is None and wanted(el, root):
                    row = parent.getparent()
                    drop = (el.tag in _CONTENT_DEL) == accept
                    if drop:
                        table = row.getparent()
                        table.remove(row)
                        if table.find(qn("w:tr")) is None:
                            table.getparent().remove(table)
                    else:
                        parent.remove(el)
                    done["row " + ("insertion" if el.tag in _CONTENT_INS else "deletion")] += 1
                continue
            if not wanted(el, root):
                continue
            inserted = el.tag in _CONTENT_INS
            if inserted == accept:
                if not inserted:
                    _undelete(el)
                _unwrap(el)
            else:
                el.getparent().remove(el)
            done["insertion" if inserted else "deletion"] += 1
        for el in list(root.iter(*_PROP_CHANGES)):
            if not wanted(el, root):
                continue
            if accept or el.tag == _NUMBERING_CHANGE:
                el.getparent().remove(el)
            else:
                _reject_property_change(el)
            done["formatting change"] += 1
        for el in list(root.iter(*_CELL_MARKS)):
            if wanted(el, root) and paragraphs is None:
                el.getparent().remove(el)
                done["cell change"] += 1
        for el in reversed(marks):  # last first, so chains of joined paragraphs merge correctly
            if not wanted(el, root):
                continue
            p = _paragraph(el)
            inserted = el.tag in _CONTENT_INS
            el.getparent().remove(el)
            if inserted != accept and p is not None:
                _merge_with_next(p)
            done["paragraph mark"] += 1
        if paragraphs is None:
            for el in list(root.iter(*_RANGE_MARKS)):
                el.getparent().remove(el)
    return done


# --- document protection --------------------------------------------------------------------

_INITIAL_CODE = (0xE1F0, 0x1D0F, 0xCC9C, 0x84C0, 0x110C, 0x0E10, 0xF1CE, 0x313E, 0x1872, 0xE139, 0xD40F, 0x84F9,
                 0x280C, 0xA96A, 0x4EC3)
_MATRIX = (
    (0xAEFC, 0x4DD9, 0x9BB2, 0x2745, 0x4E8A, 0x9D14, 0x2A09), (0x7B61, 0xF6C2, 0xFDA5, 0xEB6B, 0xC6F7, 0x9DCF, 0x2BBF),
    (0x4563, 0x8AC6, 0x05AD, 0x0B5A, 0x16B4, 0x2D68, 0x5AD0), (0x0375, 0x06EA, 0x0DD4, 0x1BA8, 0x3750, 0x6EA0, 0xDD40),
    (0xD849, 0xA0B3, 0x5147, 0xA28E, 0x553D, 0xAA7A, 0x44D5), (0x6F45, 0xDE8A, 0xAD35, 0x4A4B, 0x9496, 0x390D, 0x721A),
    (0xEB23, 0xC667, 0x9CEF, 0x29FF, 0x53FE, 0xA7FC, 0x5FD9), (0x47D3, 0x8FA6, 0x0F6D, 0x1EDA, 0x3DB4, 0x7B68, 0xF6D0),
    (0xB861, 0x60E3, 0xC1C6, 0x93AD, 0x377B, 0x6EF6, 0xDDEC), (0x45A0, 0x8B40, 0x06A1, 0x0D42, 0x1A84, 0x3508, 0x6A10),
    (0xAA51, 0x4483, 0x8906, 0x022D, 0x045A, 0x08B4, 0x1168), (0x76B4, 0xED68, 0xCAF1, 0x85C3, 0x1BA7, 0x374E, 0x6E9C),
    (0x3730, 0x6E60, 0xDCC0, 0xA9A1, 0x4363, 0x86C6, 0x1DAD), (0x3331, 0x6662, 0xCCC4, 0x89A9, 0x0373, 0x06E6, 0x0DCC),
    (0x1021, 0x2042, 0x4084, 0x8108, 0x1231, 0x2462, 0x48C4),
)
HASH_ALGORITHMS = {4: "sha1", 12: "sha256", 13: "sha384", 14: "sha512"}
SPIN_COUNT = 100_000


def legacy_password_key(password: str) -> int:
    """Word's legacy 32-bit password key (ECMA-376 part 4, 2.15.1.28): high word from the matrix, low word
    from the rotate-xor hash; at most 15 characters count, each by its low byte (high byte if that is 0)."""
    chars = []
    for ch in password[:15]:
        code = ord(ch)
        chars.append(code & 0xFF or (code >> 8) & 0xFF)
    if not chars:
        return 0
    high = _INITIAL_CODE[len(chars) - 1]
    for i, c in enumerate(chars):
        row = _MATRIX[15 - len(chars) + i]
        for bit in range(7):
            if c & (1 << bit):
                high ^= row[bit]
    low = 0
    for c in reversed(chars):
        low = (((low >> 14) & 1) | ((low << 1) & 0x7FFF)) ^ c
    low = (((low >> 14) & 1) | ((low << 1) & 0x7FFF)) ^ len(chars) ^ 0xCE4B
    return (high << 16) | low


def protection_hash(password: str, salt: bytes, algorithm_sid: int = 14, spin_count: int = SPIN_COUNT) -> bytes:
    """The ``w:hash`` Word stores for a protection password: the legacy key, as byte-reversed upper-case hex in
    UTF-16LE, hashed with the salt first and then `spin_count` times with the iteration number appended."""
    key = legacy_password_key(password).to_bytes(4, "little").hex().upper()
    name = HASH_ALGORITHMS[algorithm_sid]
    digest = hashlib.new(name, salt + key.encode("utf-16-le")).digest()
    for i in range(spin_count):
        digest = hashlib.new(name, digest + i.to_bytes(4, "little")).digest()
    return digest


def protection_attributes(password: str) -> dict[str, str]:
    """The ``w:documentProtection`` password attributes (SHA-512, 100,000 spins).

    The salt is derived from the password so the same call gives the same file; editing
    restrictions are not encryption (anyone can remove them from the XML), so this costs nothing real.
    """
    salt = hashlib.sha256(b"autodw-document-protection:" + password.encode("utf-8")).digest()[:16]
    digest = protection_hash(password, salt)
    return {"w:cryptProviderType": "rsaAES", "w:cryptAlgorithmClass": "hash", "w:cryptAlgorithmType": "typeAny",
            "w:cryptAlgorithmSid": "14", "w:cryptSpinCount": str(SPIN_COUNT),
            "w:hash": base64.b64encode(digest).decode(), "w:salt": base64.b64encode(salt).decode()}


def check_protection_password(protection: etree._Element, password: str) -> bool | None:
    """True/False if `password` matches the element's stored hash; None if it stores none we can check."""
    try:
        sid = int(protection.get(qn("w:cryptAlgorithmSid")) or "0")
        spins = int(protection.get(qn("w:cryptSpinCount")) or "0")
        stored = base64.b64decode(protection.get(qn("w:hash")) or "")
        salt = base64.b64decode(protection.get(qn("w:salt")) or "")
    except ValueError:
        return None
    if sid not in HASH_ALGORITHMS or not stored or not salt:
        return None
    return protection_hash(password, salt, sid, spins) == stored


# --- LibreOffice -------------------------------------------------------------------------------

FILTERS = {"pdf": "pdf:writer_pdf_Export", "odt": "odt", "html": "html:XHTML Writer File:UTF8",
           "txt": "txt:Text (encoded):UTF8"}


def soffice() -> str:
    """The LibreOffice executable; UnsupportedOperationError if it is not installed."""
    found = shutil.which("soffice") or shutil.which("libreoffice")
    if found is None:
        raise UnsupportedOperationError("LibreOffice is not installed (no soffice on PATH), so the document cannot be "
                                        "converted; install libreoffice-writer (e.g. apt-get install libreoffice-writer-nogui)")
    return found


def convert(doc: WordDocument, fmt: str, stem: str, workdir: Path, timeout: float = 180) -> list[Path]:
    """Convert the document with LibreOffice headless (fresh profile) into `workdir`; return the files made,
    the main output first."""
    exe = soffice()
    src = workdir / f"{stem}.docx"
    src.write_bytes(doc.to_bytes())
    out = workdir / "out"
    out.mkdir()
    profile = workdir / "profile"
    try:
        proc = subprocess.run([exe, f"-env:UserInstallation={profile.as_uri()}", "--headless", "--norestore",
                               "--convert-to", FILTERS[fmt], "--outdir", str(out), str(src)],
                              capture_output=True, timeout=timeout, text=True)
    except subprocess.TimeoutExpired:
        raise UnsupportedOperationError(f"LibreOffice did not finish converting to {fmt} within {timeout:.0f} s") from None
    main = out / f"{stem}.{fmt}"
    if proc.returncode != 0 or not main.is_file():
        detail = (proc.stderr or proc.stdout or "").strip().splitlines()[-1:] or ["no output"]
        raise UnsupportedOperationError(f"LibreOffice could not convert the document to {fmt}: {detail[0]}")
    return [main] + sorted(p for p in out.iterdir() if p != main)


def pdf_pages(pdf: Path) -> int:
    """Number of pages of a PDF (pdfinfo when installed, else counted from the page objects)."""
    if shutil.which("pdfinfo"):
        info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, timeout=60).stdout
        m = re.search(r"^Pages:\s+(\d+)", info, re.MULTILINE)
        if m:
            return int(m.group(1))
    return len(re.findall(rb"/Type\s*/Page(?![a-z])", pdf.read_bytes()))


def layout_page_count(doc: WordDocument, timeout: float = 180) -> int:
    """How many pages LibreOffice lays the document out on."""
    with tempfile.TemporaryDirectory(prefix="autodw-pages-") as tmp:
        files = convert(doc, "pdf", "document", Path(tmp), timeout)
        return pdf_pages(files[0])


# --- field results ------------------------------------------------------------------------------


@dataclass
class Field:
    """One field: its instruction and the runs holding its result (for ``w:fldSimple``: the element itself); for a
    complex field, the runs of its codes (begin, instruction, separate, end) too."""

    instruction: str
    result_runs: list[etree._Element]
    simple: etree._Element | None = None
    separator: etree._Element | None = None
    code_runs: list[etree._Element] = dataclasses.field(default_factory=list)


def iter_fields(root: etree._Element) -> list[Field]:
    """Fields of a story whose result lies in one paragraph (complex fields and ``w:fldSimple``), in order."""
    out: list[Field] = []
    for p in root.iter(qn("w:p")):
        stack: list[dict] = []
        for el in p.iter(qn("w:fldChar"), qn("w:instrText"), qn("w:fldSimple"), qn("w:r")):
            if el.tag == qn("w:fldSimple"):
                out.append(Field((el.get(qn("w:instr")) or "").strip(), list(el.iter(qn("w:r"))), el))
            elif el.tag == qn("w:fldChar"):
                kind = el.get(qn("w:fldCharType"))
                if kind == "begin":
                    stack.append({"instr": [], "result": None, "sep": None, "codes": [el.getparent()]})
                elif kind == "separate" and stack:
                    stack[-1]["result"], stack[-1]["sep"] = [], el.getparent()
                    stack[-1]["codes"].append(el.getparent())
                elif kind == "end" and stack:
                    f = stack.pop()
                    if f["result"] is not None:
                        out.append(Field("".join(f["instr"]).strip(), f["result"], separator=f["sep"],
                                         code_runs=list(dict.fromkeys([*f["codes"], el.getparent()]))))
            elif el.tag == qn("w:instrText") and stack and stack[-1]["result"] is None:
                stack[-1]["instr"].append(el.text or "")
                stack[-1]["codes"].append(el.getparent())
            elif el.tag == qn("w:r") and stack and stack[-1]["result"] is not None and el.find(qn("w:fldChar")) is None \
                    and not any(a.tag == qn("w:fldSimple") for a in el.iterancestors()):
                stack[-1]["result"].append(el)
    return out


def set_field_result(field: Field, text: str) -> bool:
    """Show `text` as the field's result (formatted like its first result run); False if unchanged."""
    current = "".join(s for r in field.result_runs for s in (atom_text(c) for c in r) if s is not None)
    if current == text:
        return False
    if field.result_runs:
        first = field.result_runs[0]
        rpr = first.find(qn("w:rPr"))
        first.addprevious(new_run(text, rpr))
        for r in field.result_runs:
            r.getparent().remove(r)
    elif field.simple is not None:
        field.simple.append(new_run(text))
    elif field.separator is not None and field.separator.getparent() is not None:
        field.separator.addnext(new_run(text))
    else:
        return False
    return True


def custom_value(value: Any, kind: str | None) -> tuple[str, str]:
    """(vt element name, text) for a custom property value."""
    kind = kind or ("boolean" if isinstance(value, bool) else "number" if isinstance(value, (int, float)) else "text")
    if kind == "boolean":
        if isinstance(value, bool) or str(value).lower() in ("true", "false", "yes", "no"):
            return "bool", "true" if value is True or str(value).lower() in ("true", "yes") else "false"
        raise ArgumentError(f"value {value!r} is not true/false")
    if kind == "number":
        try:
            number = float(value)
        except (TypeError, ValueError):
            raise ArgumentError(f"value {value!r} is not a number") from None
        if number.is_integer() and abs(number) < 2**31:
            return "i4", str(int(number))
        return "r8", repr(number)
    if kind == "date":
        try:
            day = dt.datetime.fromisoformat(str(value).replace("Z", "+00:00"))
        except ValueError:
            raise ArgumentError(f"value {value!r} is not an ISO date like \"2025-03-31\" or \"2025-03-31T12:00:00\"") from None
        if day.tzinfo is not None:
            day = day.astimezone(dt.timezone.utc).replace(tzinfo=None)
        return "filetime", day.strftime("%Y-%m-%dT%H:%M:%SZ")
    return "lpwstr", str(value)


_REF = re.compile(r"^REF\s+(\S+)", re.IGNORECASE)


def _bookmark_texts(doc: WordDocument) -> dict[str, str]:
    """name -> text between bookmarkStart and bookmarkEnd (across paragraphs), for REF fields."""
    out: dict[str, str] = {}
    body = doc.body
    open_marks: dict[str, tuple[str, list[str]]] = {}
    for el in body.iter(qn("w:bookmarkStart"), qn("w:bookmarkEnd"), qn("w:t"), qn("w:tab"), qn("w:p")):
        if el.tag == qn("w:bookmarkStart"):
            open_marks[el.get(qn("w:id"))] = (el.get(qn("w:name")) or "", [])
        elif el.tag == qn("w:bookmarkEnd"):
            found = open_marks.pop(el.get(qn("w:id")), None)
            if found:
                out[found[0]] = "".join(found[1]).strip()
        elif el.tag == qn("w:p"):
            for _, parts in open_marks.values():
                if parts:
                    parts.append("\n")
        else:
            s = atom_text(el)
            if s:
                for _, parts in open_marks.values():
                    parts.append(s)
    return out


def refresh_ref_fields(doc: WordDocument) -> int:
    """Refresh the body's REF fields from their bookmarks' text; return how many results changed."""
    marks = _bookmark_texts(doc)
    ref = 0
    for field in iter_fields(doc.body):
        m = _REF.match(field.instruction)
        if m and m.group(1) in marks and marks[m.group(1)]:
            ref += set_field_result(field, marks[m.group(1)])
    return ref
