"""The editable document: open, address elements by stable id, snapshot/restore, save atomically."""

from __future__ import annotations

import hashlib
import itertools
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

from docx.document import Document as DocxDocument
from docx.opc.constants import RELATIONSHIP_TYPE as RT
from docx.opc.part import XmlPart
from docx.package import Package
from lxml import etree

from autodw.core import DEFAULT_AUTHOR, ids
from autodw.core.errors import ArgumentError, ConfigError, CorruptPackageError
from autodw.core.package import (
    MAIN_TYPE_EXTENSIONS,
    Members,
    RawPackage,
    check_extension,
    load_package,
    package_members,
    read_package,
    read_package_bytes,
    same_file,
    write_atomically,
    zip_members,
)
from autodw.core.xml import NS, declare_namespaces_in_xml, qn

_ID_PART_RELTYPES = (RT.HEADER, RT.FOOTER)
_OPENED = itertools.count(1)  # numbers the revisions not derived from another (a document opened, an edit by hand)


def _new_revision() -> str:
    return f"new-{next(_OPENED)}"


@dataclass(frozen=True)
class Snapshot:
    """The whole package (every XML part, relationship and binary part) at one moment, and the document's
    :attr:`~WordDocument.revision` then (a snapshot made by hand gets a revision of its own)."""

    members: Members
    revision: str = field(default_factory=_new_revision)

    @property
    def nbytes(self) -> int:
        """Total size of the snapshot's members; binary parts are shared, not copied."""
        return sum(len(b) for b in self.members.values())


class WordDocument:
    """A Word document being edited.

    Elements are addressed by stable ids (see :mod:`autodw.core.ids`). Never keep python-docx objects
    or lxml elements across :meth:`restore`: the whole package is rebuilt. Look them up again.

    :attr:`revision` names the document's content, so that what is derived from it (its state) can be kept: a new name
    whenever it may have changed (opened, :meth:`refresh_ids` after an edit), the snapshot's own on :meth:`restore`, and
    after an API call one derived from the revision before and the call (:meth:`name_edit`). It holds only if every
    edit is followed by :meth:`refresh_ids`, as an API call's is.
    """

    def __init__(self, raw: RawPackage, source: Path | None = None, name: str = "document"):
        self.source = source
        self.name = name
        self.main_content_type = raw.main_content_type
        self.repairs = list(raw.repairs)
        self.asset_roots: list[Path] = []  # folders APIs may read/write files in (see apis.assets)
        self.author = DEFAULT_AUTHOR  # who the comments calls add are by when a call names no author
        self._package: Package
        self._index: dict[str, etree._Element] = {}
        self._revision = ""  # named by _load
        self._load(raw.members)

    # --- opening -------------------------------------------------------------------

    @classmethod
    def open(cls, path: str | os.PathLike[str]) -> "WordDocument":
        """Open and validate the file at `path` (raises a DocumentError subclass if unusable)."""
        p = Path(path)
        return cls(read_package(p), source=p.resolve(), name=p.name)

    @classmethod
    def from_bytes(cls, data: bytes, name: str = "document") -> "WordDocument":
        """Open a document from the bytes of a .docx/.docm/.dotx/.dotm file."""
        return cls(read_package_bytes(data, name), name=name)

    @classmethod
    def new(cls) -> "WordDocument":
        """A new blank document from python-docx's default template."""
        import docx

        blank = docx.Document()
        return cls.from_bytes(_docx_bytes(blank), name="new document")

    def _load(self, members: Members) -> None:
        for name in _id_part_names(members):
            members[name] = declare_namespaces_in_xml(members[name], {ids.ID_PREFIX: ids.ID_NS, "r": NS["r"]})
        try:
            self._package = load_package(members, self.name)
        except KeyError as exc:  # python-docx's own lookups on a package that passed our checks
            raise CorruptPackageError(f"{self.name} is damaged: {exc}") from None
        for part in self.header_footer_parts():  # a header or footer whose content type is no XML part's is opaque
            if not isinstance(part, XmlPart):
                raise CorruptPackageError(f"{self.name}: {part.partname} is related as a header or footer, but its "
                                          f"content type is {part.content_type!r}, not a header's or footer's")
        root = self._package.main_document_part._element
        if root.tag != qn("w:document"):
            raise CorruptPackageError(f"{self.name}: its main part is not a WordprocessingML document (its root is "
                                      f"<{etree.QName(root).localname}>, not <w:document>)")
        if root.find(qn("w:body")) is None:
            raise CorruptPackageError(f"{self.name}: its main part has no document body (w:body)")
        self.refresh_ids()

    # --- python-docx access --------------------------------------------------------

    @property
    def package(self) -> Package:
        """The python-docx package (rebuilt by :meth:`restore`)."""
        return self._package

    @property
    def part(self):
        """The main document part."""
        return self._package.main_document_part

    @property
    def docx(self) -> DocxDocument:
        """A python-docx :class:`~docx.document.Document` proxy for the current package."""
        return self.part.document

    @property
    def body(self) -> etree._Element:
        """The ``w:body`` element."""
        return self.part._element.body

    def header_footer_parts(self) -> list[XmlPart]:
        """Header and footer parts, in partname order."""
        parts = {rel.target_part for rel in self.part.rels.values() if rel.reltype in _ID_PART_RELTYPES and not rel.is_external}
        return sorted(parts, key=lambda p: str(p.partname))

    def _id_parts(self) -> list[XmlPart]:
        return [self.part, *self.header_footer_parts()]

    def id_roots(self) -> list[etree._Element]:
        """Root elements whose paragraphs, tables and drawings carry ids (body first)."""
        return [p._element for p in self._id_parts()]

    # --- ids -----------------------------------------------------------------------

    def refresh_ids(self) -> None:
        """Give fresh ids to new or copied elements; rebuild the id index; a new :attr:`revision`. Call after every
        edit."""
        for part in self._id_parts():
            if part._element.nsmap.get(ids.ID_PREFIX) != ids.ID_NS:
                part._element = ids.declare_namespace(part._element)
        self._index = ids.assign_ids(self.id_roots(), self.part._element)
        self._revision = _new_revision()

    # --- revisions -------------------------------------------------------------------

    @property
    def revision(self) -> str:
        """The name of the document's content (see the class docstring): two equal revisions, equal content."""
        return self._revision

    def name_edit(self, before: str, edit: str) -> None:
        """Name the revision that the deterministic `edit` (an API call, as text) made from revision `before`: the
        same edit from the same revision gives the same content, so the same name."""
        self._revision = "edit-" + hashlib.blake2b(f"{before}\n{edit}".encode(), digest_size=16).hexdigest()

    def find(self, element_id: str, kind: str | None = None) -> etree._Element:
        """The element with id `element_id` (optionally checked to be of `kind`: p, t, img, chart, shape).

        Raises ArgumentError naming a few valid ids when there is no such element.
        """
        el = self._index.get(element_id)
        if el is None or (kind is not None and ids.prefix_for(el) != kind):
            raise ArgumentError(self._unknown_id_message(element_id, kind))
        return el

    def ids(self, kind: str | None = None) -> list[str]:
        """All current ids, optionally only those of one prefix kind, in document order."""
        return [i for i, el in self._index.items() if kind is None or ids.prefix_for(el) == kind]

    def _unknown_id_message(self, element_id: str, kind: str | None) -> str:
        what = {"p": "paragraph", "t": "table", "img": "image", "chart": "chart", "shape": "shape"}.get(kind or "", "element")
        valid = self.ids(kind)
        shown = ", ".join(valid[:12]) + (f", ... ({len(valid)} in all)" if len(valid) > 12 else "")
        return f"there is no {what} with id {element_id!r}; valid {what} ids: {shown or 'none'}"

    def saved_ids(self) -> dict[str, str]:
        """Each current id -> the id its element gets when the saved document is read afresh: a file carries no
        ids, so reading numbers its elements in document order from 1, each prefix on its own (:func:`ids.assign_ids`)
        where this document's new elements took the next free numbers. In document order."""
        counters: dict[str, int] = {}
        out: dict[str, str] = {}
        for root in self.id_roots():
            for el in ids.iter_id_elements(root):
                prefix = ids.prefix_for(el)
                counters[prefix] = counters.get(prefix, 0) + 1
                out[ids.element_id(el)] = f"{prefix}{counters[prefix]}"
        return out

    def iter_elements(self) -> Iterator[tuple[str, etree._Element]]:
        """(id, element) pairs in document order."""
        return iter(self._index.items())

    # --- snapshots -----------------------------------------------------------------

    def snapshot(self) -> Snapshot:
        """Capture the whole package; cheap (XML serialised, binary parts shared)."""
        return Snapshot(package_members(self._package), self._revision)

    def restore(self, snapshot: Snapshot) -> None:
        """Make the document exactly what it was when `snapshot` was taken (its revision too)."""
        self._load(dict(snapshot.members))
        self._revision = snapshot.revision

    # --- saving --------------------------------------------------------------------

    def to_bytes(self, keep_ids: bool = False) -> bytes:
        """The document as .docx bytes; ids are stripped unless `keep_ids`."""
        return zip_members(self.members(keep_ids=keep_ids))

    def members(self, keep_ids: bool = False) -> Members:
        """Every part serialized, ids stripped unless `keep_ids`."""
        if keep_ids:
            return package_members(self._package)
        removed = ids.strip_ids(self.id_roots())
        try:
            members = package_members(self._package)
        finally:
            ids.restore_ids(removed)
        for part in self._id_parts():
            name = part.partname.membername
            members[name] = ids.remove_namespace_declaration(members[name])
        return members

    def save(self, path: str | os.PathLike[str]) -> Path:
        """Write the document to `path` atomically. Refuses to overwrite the file it was opened from."""
        target = Path(path).resolve()
        if self.source is not None and same_file(target, self.source):
            raise ConfigError(f"refusing to overwrite the input file {self.source}; choose another output path")
        check_extension(target, self.main_content_type)
        write_atomically(target, self.to_bytes())
        return target

    @property
    def extension(self) -> str:
        """The extension Word needs for this document's kind (.docx, .dotx, .docm or .dotm)."""
        return MAIN_TYPE_EXTENSIONS.get(self.main_content_type, ".docx")


def _id_part_names(members: Members) -> list[str]:
    """Member names of the main part and the header/footer parts it relates (from the rels files)."""
    from docx.opc.packuri import PackURI
    from autodw.core.package import REL_NS

    def targets(rels_name: str, base: str, reltypes: tuple[str, ...]) -> list[str]:
        blob = members.get(rels_name)
        if blob is None:
            return []
        root = etree.fromstring(blob, etree.XMLParser(resolve_entities=False))
        return [PackURI.from_rel_ref(base, r.get("Target")).membername
                for r in root.iter(f"{{{REL_NS}}}Relationship")
                if r.get("Type") in reltypes and r.get("TargetMode") != "External"]

    mains = targets("_rels/.rels", "/", (RT.OFFICE_DOCUMENT,))
    if not mains:
        return []
    main = PackURI("/" + mains[0])
    names = [main.membername, *targets(main.rels_uri.membername, main.baseURI, _ID_PART_RELTYPES)]
    return [n for n in dict.fromkeys(names) if n in members]


def _docx_bytes(document: DocxDocument) -> bytes:
    import io

    buf = io.BytesIO()
    document.save(buf)
    return buf.getvalue()
