"""The OOXML package as bytes: read and validate a file, load it into python-docx, write it back.

A package travels as a plain ``dict`` of zip member name to bytes ("members"). Opening a file,
taking a snapshot and saving all go through this one representation, so a snapshot restore is
the same code path as opening a file.
"""

from __future__ import annotations

import io
import os
import posixpath
import tempfile
import zipfile
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping

import docx  # noqa: F401  (registers python-docx's part classes)
from docx.opc.constants import CONTENT_TYPE as CT
from docx.opc.constants import RELATIONSHIP_TYPE as RT
from docx.opc.package import Unmarshaller
from docx.opc.packuri import PACKAGE_URI, PackURI
from docx.opc.part import PartFactory, XmlPart
from docx.opc.pkgreader import PackageReader, _ContentTypeMap
from docx.opc.pkgwriter import _ContentTypesItem
from docx.package import Package
from docx.parts.document import DocumentPart
from lxml import etree

from autodw.core.errors import (
    ConfigError,
    CorruptPackageError,
    DocumentNotFoundError,
    EncryptedDocumentError,
    LegacyWordFormatError,
    MissingPartError,
    NotAWordDocumentError,
    NotAZipError,
    OutputPathError,
    PackageTooLargeError,
    StrictOOXMLError,
    UnreadableFileError,
    clipped,
)

Members = dict[str, bytes]

OLE2_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
REL_NS = "http://schemas.openxmlformats.org/package/2006/relationships"
CT_NS = "http://schemas.openxmlformats.org/package/2006/content-types"
STRICT_OFFICE_DOCUMENT = "http://purl.oclc.org/ooxml/officeDocument/relationships/officeDocument"

#: Main-part content types we can edit: what a user calls them, and the extension Word requires of the file (it
#: refuses a .docx holding macros)
_WORD_KINDS = {
    CT.WML_DOCUMENT_MAIN: ("Word document", ".docx"),
    "application/vnd.openxmlformats-officedocument.wordprocessingml.template.main+xml": ("Word template", ".dotx"),
    "application/vnd.ms-word.document.macroEnabled.main+xml": ("macro-enabled Word document", ".docm"),
    "application/vnd.ms-word.template.macroEnabledTemplate.main+xml": ("macro-enabled Word template", ".dotm"),
}
WORD_MAIN_TYPES = {ct: f"{name} ({ext})" for ct, (name, ext) in _WORD_KINDS.items()}
MAIN_TYPE_EXTENSIONS = {ct: ext for ct, (_, ext) in _WORD_KINDS.items()}


def check_extension(path: str | os.PathLike[str], main_content_type: str) -> None:
    """ConfigError if `path` does not end in the Word extension `main_content_type` needs (a Word file named .pdf or
    .doc is not what its name says)."""
    wanted = MAIN_TYPE_EXTENSIONS.get(main_content_type, ".docx")
    suffix = Path(path).suffix.lower()
    if suffix not in MAIN_TYPE_EXTENSIONS.values():
        raise ConfigError(f"{Path(path).name}: autodw writes Word files ({wanted} for this document), not "
                          f"{suffix or 'files without an extension'}; give a path ending in {wanted}")
    if suffix != wanted:
        raise ConfigError(f"{Path(path).name}: this is a {WORD_MAIN_TYPES.get(main_content_type, 'Word document')} "
                          f"and Word opens it only as {wanted}; save it with that extension")


OTHER_MAIN_TYPES = {
    "presentationml": "a PowerPoint presentation",
    "spreadsheetml": "an Excel workbook",
    "themeManager": "an Office theme package",
}

MAX_UNCOMPRESSED_BYTES = 1 << 30  # 1 GiB: refuse zip bombs before expanding them
MAX_MEMBERS = 50_000
#: Markup limits, checked before any part is parsed: parsing, the id index and the state take memory and time in
#: proportion to the elements, and a few MiB of "<w:p/>" (a megabyte compresses to a kilobyte) are millions of
#: them. The largest part of the 289 real documents of the test corpus has 506,380 tags ("<" counted) in 12 MiB,
#: its package 611,963 tags in 15 MiB; the limits are twice to three times that, and about 1.5 GiB of memory.
MAX_PART_TAGS = 1_000_000
MAX_PACKAGE_TAGS = 2_000_000
MAX_XML_BYTES = 200 << 20  # the XML parts (.xml, .rels) together

for _ct in WORD_MAIN_TYPES:  # python-docx only maps the .docx main type to DocumentPart
    PartFactory.part_type_for.setdefault(_ct, DocumentPart)
# Notes are edited as XML; python-docx would load them as opaque blobs.
PartFactory.part_type_for.setdefault(CT.WML_FOOTNOTES, XmlPart)
PartFactory.part_type_for.setdefault(CT.WML_ENDNOTES, XmlPart)


@dataclass
class RawPackage:
    """A validated package: its members and the repairs made while reading it."""

    members: Members
    main_content_type: str
    repairs: list[str] = field(default_factory=list)


def read_package(path: str | os.PathLike[str]) -> RawPackage:
    """Read and validate the file at `path`; raise a :class:`DocumentError` subclass if unusable."""
    p = Path(path)
    return read_package_bytes(read_input(p), p.name)


def read_input(path: str | os.PathLike[str], kind: str = "a document") -> bytes:
    """The bytes of the input file at `path` (`kind` names it in messages); DocumentNotFoundError or
    UnreadableFileError saying why not."""
    p = Path(path)
    try:
        if not p.is_file():
            what = "a folder" if p.is_dir() else "not a regular file" if p.exists() else None
            raise DocumentNotFoundError(f"{p}: no such file" if what is None else f"{p} is {what}, not {kind}")
        return p.read_bytes()
    except OSError as exc:
        raise UnreadableFileError(f"cannot read {p}: {exc.strerror or exc}") from None


def read_text_input(path: str | os.PathLike[str], kind: str) -> str:
    """The UTF-8 text of the input file at `path` (`kind`: what it should be, as "a session file"); as
    :func:`read_input`, and UnreadableFileError for a file that is not UTF-8 text."""
    data = read_input(path, kind)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UnreadableFileError(f"{path} is not UTF-8 text ({exc.reason} at byte {exc.start}); it should be "
                                  f"{kind}") from None


def read_package_bytes(data: bytes, name: str = "document") -> RawPackage:
    """Validate `data` (the bytes of a .docx/.docm/.dotx/.dotm) and return its members."""
    if data.startswith(OLE2_MAGIC):
        raise _ole2_error(data, name)
    if not data:
        raise NotAZipError(f"{name} is an empty file, not a Word document")
    try:
        zf = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile:
        raise _not_a_zip_error(data, name) from None
    except UnicodeDecodeError:  # zipfile decodes the names of members flagged as UTF-8 while reading the directory
        raise CorruptPackageError(f"{name} is a damaged zip archive: a member name flagged as UTF-8 is not UTF-8") from None
    except NotImplementedError as exc:  # a member needing a zip version past zipfile's MAX_EXTRACT_VERSION (6.3)
        raise CorruptPackageError(f"{name}: a zip member needs a newer zip format than Office writes ({exc})") from None
    with zf:
        members = _read_members(zf, name)
    _refuse_doctypes(members, name)
    content_types = _parse_xml(members, "[Content_Types].xml", name)
    rels = _parse_xml(members, "_rels/.rels", name)
    main_rel = _find_main_relationship(rels, name)
    repairs: list[str] = []
    _repair_and_check_relationships(members, main_rel, repairs, name)
    main_ct = _content_type_of(content_types, main_rel, name)
    return RawPackage(members, main_ct, repairs)


def load_package(members: Mapping[str, bytes], name: str = "document") -> Package:
    """Build a python-docx :class:`Package` from validated members (no zip involved)."""
    reader = _MemoryPkgReader(members)
    content_types = _ContentTypeMap.from_xml(reader.content_types_xml)
    pkg_srels = PackageReader._srels_for(reader, PACKAGE_URI)
    sparts = PackageReader._load_serialized_parts(reader, pkg_srels, content_types)
    package = Package()
    try:
        Unmarshaller.unmarshal(PackageReader(content_types, pkg_srels, sparts), package, PartFactory)
    except etree.XMLSyntaxError as exc:
        raise _xml_error(name, _find_malformed_part(members) or "a part", exc) from None
    for part in package.iter_parts():
        if isinstance(part, XmlPart):
            _refuse_dtd(part._element, part.partname.membername, name)
    return package


def _xml_error(name: str, part: str, exc: etree.XMLSyntaxError) -> CorruptPackageError:
    """The error for a part the XML parser refuses: malformed, or beyond the parser's size limits."""
    detail = " ".join(str(exc).split())
    if "Resource limit exceeded" in detail or "XML_PARSE_HUGE" in detail:
        return CorruptPackageError(f"{name}: {part} is larger than the XML parser's limits allow ({detail})")
    return CorruptPackageError(f"{name}: {part} is not well-formed XML: {detail}")


def package_members(package: Package) -> Members:
    """Serialize every part and relationship of `package` to members (the inverse of load)."""
    parts = list(package.iter_parts())
    for part in parts:
        part.before_marshal()
    members: Members = {
        "[Content_Types].xml": _ContentTypesItem.from_parts(parts).blob,
        "_rels/.rels": package.rels.xml,
    }
    for part in parts:
        members[part.partname.membername] = part.blob
        if len(part.rels):
            members[part.partname.rels_uri.membername] = part.rels.xml
    return members


ZIP_TIMESTAMP = (1980, 1, 1, 0, 0, 0)  # the zip format's earliest date, as reproducible builds use


def zip_members(members: Mapping[str, bytes]) -> bytes:
    """Deflate `members` into the bytes of a zip archive, content types first. Every entry gets the same
    fixed timestamp, so equal members give equal bytes whenever they are written (zipfile would stamp the
    current time, and two saves a second apart would differ)."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for name in sorted(members, key=lambda n: (n != "[Content_Types].xml", n != "_rels/.rels", n)):
            info = zipfile.ZipInfo(name, date_time=ZIP_TIMESTAMP)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            zf.writestr(info, members[name])
    return buf.getvalue()


def check_output_path(path: str | os.PathLike[str], what: str = "output") -> None:
    """OutputPathError if a file cannot be written at `path`: it is a folder or a device, a file stands where a
    folder above it should be, or the nearest folder that exists takes no new file (read-only, no permission: tried
    with an empty file, removed at once). Checked before long work, so it fails at once."""
    target = Path(path)
    folder = _output_folder(target, what)
    try:
        fd, probe = tempfile.mkstemp(prefix=f".{target.name[:100]}.", suffix=".probe", dir=folder)
    except OSError as exc:
        raise OutputPathError(f"{what} {target}: no file can be written in {folder} ({exc.strerror or exc})") from None
    os.close(fd)
    os.unlink(probe)


def _output_folder(target: Path, what: str) -> Path:
    """The nearest folder of `target` that exists; OutputPathError if `target` is a folder or a device, or a file
    stands where a folder above it should be."""
    try:
        if target.exists() and not target.is_file():
            kind = "a folder" if target.is_dir() else "not a regular file (a device, a pipe or a socket)"
            raise OutputPathError(f"{what} {target} is {kind}; give the path of a file to write")
        if any(p.exists() and not p.is_dir() for p in target.parents):
            raise OutputPathError(f"{what} {target}: a file stands where a folder above it should be")
        return next(p for p in target.absolute().parents if p.exists())
    except OSError as exc:
        raise OutputPathError(f"{what} {target} is not a usable path: {exc.strerror or exc}") from None


def same_file(a: str | os.PathLike[str], b: str | os.PathLike[str]) -> bool:
    """True if `a` and `b` are one file: the same resolved path, or both exist and are the same file (a symlink, a
    hard link, another spelling of the path)."""
    try:
        return Path(a).resolve() == Path(b).resolve() or os.path.samefile(a, b)
    except (OSError, ValueError):  # one of them missing or not a usable path: not the same existing file
        return False


def write_atomically(path: str | os.PathLike[str], data: bytes) -> None:
    """Write `data` to a temporary file beside `path` (its folders made if missing), then rename it over `path`.
    OutputPathError if `path` is a folder or a device, or cannot be written."""
    target = Path(path)
    _output_folder(target, "output")  # its own temporary file below tries the folder (no probe file first)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name[:100]}.", suffix=".tmp", dir=target.parent)
    except OSError as exc:
        raise OutputPathError(f"cannot write {target}: {exc.strerror or exc}") from None
    try:
        os.fchmod(fd, _file_mode(target))  # mkstemp makes 0600; a saved document gets the usual permissions
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException as exc:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        if isinstance(exc, OSError):
            raise OutputPathError(f"cannot write {target}: {exc.strerror or exc}") from None
        raise


def _file_mode(target: Path) -> int:
    """The mode of the file being replaced, or 0666 minus the umask for a new one."""
    try:
        return target.stat().st_mode & 0o777
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


# --- reading and checking -------------------------------------------------------------


class _MemoryPkgReader:
    """python-docx's physical-package reader protocol over a dict of members."""

    def __init__(self, members: Mapping[str, bytes]):
        self._members = members

    def blob_for(self, pack_uri: PackURI) -> bytes:
        return self._members[pack_uri.membername]

    @property
    def content_types_xml(self) -> bytes:
        return self._members["[Content_Types].xml"]

    def rels_xml_for(self, source_uri: PackURI) -> bytes | None:
        return self._members.get(source_uri.rels_uri.membername)

    def close(self) -> None:
        pass


def _ole2_error(data: bytes, name: str) -> Exception:
    import olefile

    try:
        ole = olefile.OleFileIO(io.BytesIO(data))
    except OSError:
        return CorruptPackageError(f"{name} is a damaged OLE2 compound file, not a Word document")
    with ole:
        if ole.exists("EncryptedPackage"):
            return EncryptedDocumentError(
                f"{name} is a password-protected (encrypted) Office document; "
                "remove the password in Word and try again"
            )
        if ole.exists("WordDocument"):
            return LegacyWordFormatError(
                f"{name} is a legacy Word 97-2003 binary document (.doc), not OOXML; "
                "convert it to .docx first (e.g. soffice --headless --convert-to docx)"
            )
    return LegacyWordFormatError(f"{name} is an OLE2 compound file that is not a Word document")


def _not_a_zip_error(data: bytes, name: str) -> NotAZipError:
    head = data[:8]
    if data.startswith(b"PK"):
        kind = f"a truncated or damaged zip archive ({len(data)} bytes)"
    elif head.lstrip().startswith(b"{\\rtf"):
        kind = "an RTF file"
    elif head.startswith(b"%PDF"):
        kind = "a PDF file"
    elif head.lstrip().lower().startswith((b"<html", b"<!doc", b"<?xml")):
        kind = "an XML/HTML text file (perhaps Word 2003 XML), not a zip package"
    else:
        kind = f"not a zip archive ({len(data)} bytes starting {head!r})"
    return NotAZipError(f"{name} is {kind}; a .docx must be an OOXML zip package")


#: compression methods of a zip member that can be read (stored, deflated; Office writes no other)
READABLE_METHODS = {zipfile.ZIP_STORED: "stored", zipfile.ZIP_DEFLATED: "deflated"}
UNREADABLE_FLAGS = 0x20 | 0x40  # compressed patched data, strong encryption: zipfile raises NotImplementedError


def _read_members(zf: zipfile.ZipFile, name: str) -> Members:
    if any(not i.filename for i in zf.infolist()):
        raise CorruptPackageError(f"{name} is a damaged zip archive: a member has an empty name")
    infos = [i for i in zf.infolist() if not i.is_dir()]
    if len(infos) > MAX_MEMBERS:
        raise PackageTooLargeError(f"{name} has {len(infos)} zip members (limit {MAX_MEMBERS})")
    total = sum(i.file_size for i in infos)
    if total > MAX_UNCOMPRESSED_BYTES:
        raise PackageTooLargeError(
            f"{name} would expand to {total / 2**20:.0f} MiB (limit {MAX_UNCOMPRESSED_BYTES / 2**20:.0f} MiB)"
        )
    members: Members = {}
    for info in infos:
        if info.flag_bits & 0x1:
            raise EncryptedDocumentError(f"{name}: zip member {clipped(info.filename, 100)!r} is encrypted; Office "
                                         "documents are not (a password-protected one is an OLE2 file); refused")
        if info.flag_bits & UNREADABLE_FLAGS:
            raise CorruptPackageError(f"{name}: zip member {clipped(info.filename, 100)!r} is flagged as patched data "
                                      "or strongly encrypted, which Office does not use")
        if info.compress_type not in READABLE_METHODS:
            raise CorruptPackageError(f"{name}: zip member {clipped(info.filename, 100)!r} is compressed with method "
                                      f"{info.compress_type}, which Office does not use (only stored or deflated)")
        try:
            members[info.filename] = zf.read(info)
        except (zipfile.BadZipFile, zlib.error, EOFError, ValueError) as exc:  # ValueError: an offset before the start
            raise CorruptPackageError(f"{name} is a damaged zip archive: member {clipped(info.filename, 100)!r}: {exc}") from None
    _check_markup_size(members, name)
    return members


def _is_markup(membername: str) -> bool:
    """Whether a member is an XML part by its name, in any case (OPC names are case-insensitive: a WORD/X.XML is
    read as word/x.xml once its relationship's case is repaired)."""
    return membername.lower().endswith((".xml", ".rels"))


def _check_markup_size(members: Members, name: str) -> None:
    """PackageTooLargeError if the XML parts hold more markup than :data:`MAX_PART_TAGS` (one part),
    :data:`MAX_PACKAGE_TAGS` or :data:`MAX_XML_BYTES` (all of them) allow: refused before parsing, in one pass of
    byte counting."""
    total_tags = total_bytes = 0
    for membername, blob in members.items():
        if not _is_markup(membername):
            continue
        tags = blob.count(b"<")
        if tags > MAX_PART_TAGS:
            raise PackageTooLargeError(f"{name}: {clipped(membername, 100)} has {tags:,} tags (limit {MAX_PART_TAGS:,} "
                                       "a part); autodw edits documents of up to a few hundred thousand paragraphs")
        total_tags += tags
        total_bytes += len(blob)
    if total_tags > MAX_PACKAGE_TAGS or total_bytes > MAX_XML_BYTES:
        raise PackageTooLargeError(f"{name}: its XML parts hold {total_tags:,} tags in {total_bytes / 2**20:.0f} MiB "
                                   f"(limit {MAX_PACKAGE_TAGS:,} tags in {MAX_XML_BYTES / 2**20:.0f} MiB)")


def _refuse_doctypes(members: Members, name: str) -> None:
    """Office refuses XML parts with a DTD; they are also how XML external entity attacks arrive. This looks at
    the first bytes of each part (cheap, before parsing); :func:`_refuse_dtd` checks every part parsed (a DTD
    behind a long comment, or in UTF-16)."""
    for membername, blob in members.items():
        if _is_markup(membername) and b"<!DOCTYPE" in blob[:4096]:
            raise _dtd_error(membername, name)


def _refuse_dtd(root: etree._Element, membername: str, name: str) -> None:
    """CorruptPackageError if the parsed part `root` came with a DTD (an entity it declares would stay a dangling
    reference: python-docx's parser does not expand them, and saving drops the declaration)."""
    info = root.getroottree().docinfo
    if info.internalDTD is not None or info.doctype:
        raise _dtd_error(membername, name)


def _dtd_error(membername: str, name: str) -> CorruptPackageError:
    return CorruptPackageError(
        f"{name}: {membername} declares a DTD (<!DOCTYPE ...>), which Office documents may not contain "
        "(it is how XML external entity attacks are delivered); refused"
    )


def _member(members: Members, membername: str) -> str | None:
    """The actual member name matching `membername` (OPC names are case-insensitive)."""
    if membername in members:
        return membername
    lower = membername.lower()
    for actual in members:
        if actual.lower() == lower:
            return actual
    return None


def _parse_xml(members: Members, membername: str, name: str) -> etree._Element:
    actual = _member(members, membername)
    if actual is None:
        what = "content types" if membername.startswith("[") else "package relationships"
        raise MissingPartError(f"{name} is a zip archive but not an OOXML package: it has no {membername} ({what})")
    if actual != membername:
        members[membername] = members.pop(actual)
    return _parse_member(members, membername, name)


#: the root element of each kind of package part autodw reads itself
_PACKAGE_ROOTS = {".rels": f"{{{REL_NS}}}Relationships", "].xml": f"{{{CT_NS}}}Types"}


def _parse_member(members: Members, membername: str, name: str) -> etree._Element:
    """A relationships or content-types part, parsed and checked to have its root element (python-docx reads them
    by element names, and a part of another kind fails deep inside it)."""
    try:
        root = etree.fromstring(members[membername], etree.XMLParser(resolve_entities=False))
    except etree.XMLSyntaxError as exc:
        raise _xml_error(name, membername, exc) from None
    _refuse_dtd(root, membername, name)
    expected = next(tag for end, tag in _PACKAGE_ROOTS.items() if membername.endswith(end))
    if root.tag != expected:
        raise CorruptPackageError(f"{name}: {membername} is not a {'relationships' if membername.endswith('.rels') else 'content types'} "
                                  f"part (its root is <{clipped(str(root.tag), 80)}>, not <{etree.QName(expected).localname}> "
                                  f"in {etree.QName(expected).namespace})")
    return root


def _find_main_relationship(rels: etree._Element, name: str) -> etree._Element:
    mains = [rel for rel in rels.iter(f"{{{REL_NS}}}Relationship") if rel.get("Type") == RT.OFFICE_DOCUMENT]
    if len(mains) > 1:
        raise CorruptPackageError(f"{name} is damaged: _rels/.rels names {len(mains)} main document parts "
                                  f"({', '.join(clipped(str(r.get('Target')), 60) for r in mains[:3])}); a package has one")
    if mains:
        return mains[0]
    for rel in rels.iter(f"{{{REL_NS}}}Relationship"):
        if rel.get("Type") == STRICT_OFFICE_DOCUMENT:
            raise StrictOOXMLError(
                f"{name} is a Strict Open XML (ISO/IEC 29500 Strict) document, which cannot be edited here; "
                "save it from Word as 'Word Document (*.docx)' (Transitional) first"
            )
    raise NotAWordDocumentError(f"{name} is an OOXML package without a main document part")


def _repair_and_check_relationships(members: Members, main_rel: etree._Element, repairs: list[str], name: str) -> None:
    """Walk relationships from the package root; fix case mismatches and internal hyperlinks."""
    todo = ["/"]
    seen: set[str] = set()
    while todo:
        source = todo.pop()
        if source in seen:
            continue
        seen.add(source)
        rels_name = PackURI(source).rels_uri.membername if source != "/" else "_rels/.rels"
        actual = _member(members, rels_name)
        if actual is None:
            continue
        if actual != rels_name:
            members[rels_name] = members.pop(actual)
        rels = _parse_member(members, rels_name, name)
        changed = False
        base = posixpath.dirname(source) if source != "/" else "/"
        for rel in rels.iter(f"{{{REL_NS}}}Relationship"):
            if rel.get("TargetMode") == "External":
                continue
            target = rel.get("Target", "")
            if rel.get("Type") == RT.HYPERLINK:
                rel.set("TargetMode", "External")
                repairs.append(f"hyperlink relationship {rel.get('Id')} in {rels_name} marked external ({target})")
                changed = True
                continue
            partname = PackURI.from_rel_ref(base, target)
            wanted = partname.membername
            actual = _member(members, wanted)
            if actual is None:
                raise MissingPartError(
                    f"{name} is damaged: {rels_name} relationship {rel.get('Id')} names part /{wanted}, "
                    "which is not in the package"
                )
            if actual != wanted:
                members[wanted] = members.pop(actual)
                repairs.append(f"part /{actual} renamed to /{wanted} (OPC names are case-insensitive)")
            todo.append(str(partname))
        if changed:
            members[rels_name] = etree.tostring(rels, xml_declaration=True, encoding="UTF-8", standalone=True)


def _content_type_of(content_types: etree._Element, main_rel: etree._Element, name: str) -> str:
    partname = PackURI.from_rel_ref("/", main_rel.get("Target", ""))
    ct = None  # read as python-docx reads them, children of <Types> only (one nested elsewhere is not seen)
    for o in content_types.iterchildren(f"{{{CT_NS}}}Override"):
        if (o.get("PartName") or "").lower() == str(partname).lower():
            ct = o.get("ContentType")
    overridden = ct is not None
    if ct is None:
        for d in content_types.iterchildren(f"{{{CT_NS}}}Default"):
            if (d.get("Extension") or "").lower() == partname.ext.lower():
                ct = d.get("ContentType")
    if ct is None:
        raise MissingPartError(f"{name}: [Content_Types].xml gives no content type for the main part {partname}")
    if ct not in WORD_MAIN_TYPES and not any(k in ct for k in OTHER_MAIN_TYPES) and not overridden:
        raise MissingPartError(f"{name}: [Content_Types].xml has no entry for the main part {partname} (the default "
                               f"for .{partname.ext}, {ct}, is no document type)")
    if ct not in WORD_MAIN_TYPES:
        what = next((v for k, v in OTHER_MAIN_TYPES.items() if k in ct), f"a package of content type {ct}")
        raise NotAWordDocumentError(f"{name} is not a Word document: it is {what}")
    return ct


def _find_malformed_part(members: Mapping[str, bytes]) -> str | None:
    for membername, blob in members.items():
        if _is_markup(membername):
            try:
                etree.fromstring(blob, etree.XMLParser(resolve_entities=False))
            except etree.XMLSyntaxError:
                return membername
    return None
