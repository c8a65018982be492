"""Footnotes and endnotes: the notes part (created with its separator notes when missing) and references."""

from __future__ import annotations

from docx.opc.constants import CONTENT_TYPE as CT
from docx.opc.constants import RELATIONSHIP_TYPE as RT
from docx.opc.packuri import PackURI
from docx.opc.part import XmlPart
from lxml import etree

from autodw.apis.ooxml.builtin_styles import ensure_style
from autodw.apis.ooxml.text import text_elements
from autodw.core.document import WordDocument
from autodw.core.xml import W, parse, qn

KINDS = {
    "footnote": (RT.FOOTNOTES, CT.WML_FOOTNOTES, "/word/footnotes.xml", "footnotes", "footnote text", "footnote reference"),
    "endnote": (RT.ENDNOTES, CT.WML_ENDNOTES, "/word/endnotes.xml", "endnotes", "endnote text", "endnote reference"),
}


def notes_root(doc: WordDocument, kind: str, create: bool = True) -> etree._Element | None:
    """The ``w:footnotes``/``w:endnotes`` element; created with separator notes if missing and `create`."""
    reltype, ct, partname, root_tag, _, _ = KINDS[kind]
    for rel in doc.part.rels.values():
        if rel.reltype == reltype and not rel.is_external:
            return rel.target_part.element
    if not create:
        return None
    xml = (f'<w:{root_tag} xmlns:w="{W}">'
           f'<w:{kind} w:type="separator" w:id="-1"><w:p><w:pPr><w:spacing w:after="0" w:line="240" w:lineRule="auto"/></w:pPr>'
           f'<w:r><w:separator/></w:r></w:p></w:{kind}>'
           f'<w:{kind} w:type="continuationSeparator" w:id="0"><w:p><w:pPr><w:spacing w:after="0" w:line="240" w:lineRule="auto"/></w:pPr>'
           f'<w:r><w:continuationSeparator/></w:r></w:p></w:{kind}></w:{root_tag}>')
    part = XmlPart(PackURI(partname), ct, parse(xml), doc.package)
    doc.part.relate_to(part, reltype)
    return part.element


def add_note(doc: WordDocument, kind: str, text: str) -> tuple[int, etree._Element]:
    """Add a note with `text`; return its id and the reference run to place in the body."""
    root = notes_root(doc, kind)
    _, _, _, _, text_style, ref_style = KINDS[kind]
    text_sid = ensure_style(doc, text_style, "paragraph")
    ref_sid = ensure_style(doc, ref_style, "character")
    ids = [int(n.get(qn("w:id"))) for n in root.iterchildren(qn(f"w:{kind}")) if n.get(qn("w:id"), "").lstrip("-").isdigit()]
    note_id = max([0, *ids]) + 1
    note = parse(f'<w:{kind} xmlns:w="{W}" w:id="{note_id}"><w:p><w:pPr><w:pStyle w:val="{text_sid}"/></w:pPr>'
                 f'<w:r><w:rPr><w:rStyle w:val="{ref_sid}"/></w:rPr><w:{kind}Ref/></w:r></w:p></w:{kind}>')
    run = etree.SubElement(note[0], qn("w:r"))
    for el in text_elements(" " + text):
        run.append(el)
    root.append(note)
    ref = parse(f'<w:r xmlns:w="{W}"><w:rPr><w:rStyle w:val="{ref_sid}"/></w:rPr><w:{kind}Reference w:id="{note_id}"/></w:r>')
    return note_id, ref


def remove_note(doc: WordDocument, kind: str, note_id: int) -> bool:
    """Delete a note and its references from the body; False if there is no such note."""
    root = notes_root(doc, kind, create=False)
    if root is None:
        return False
    note = next((n for n in root.iterchildren(qn(f"w:{kind}")) if n.get(qn("w:id")) == str(note_id)), None)
    if note is None:
        return False
    root.remove(note)
    for ref in list(doc.body.iter(qn(f"w:{kind}Reference"))):
        if ref.get(qn("w:id")) == str(note_id):
            run = ref.getparent()
            run.getparent().remove(run)
    return True


def order_notes_by_reference(doc: WordDocument, kind: str) -> None:
    """Renumber the notes in the order of their references in the body, and order the part likewise.

    Word matches notes by id; LibreOffice's importer effectively numbers them by position, so keeping
    ids, part order and reference order equal makes a document render the same in both. Numbers start
    after the separator notes' ids: Word uses -1 and 0 for them, older Word 0 and 1.
    """
    root = notes_root(doc, kind, create=False)
    if root is None:
        return
    special = [int(n.get(qn("w:id"))) for n in root.iterchildren(qn(f"w:{kind}"))
               if n.get(qn("w:type")) not in (None, "normal") and n.get(qn("w:id"), "").lstrip("-").isdigit()]
    first = max([0, *special]) + 1
    refs = list(doc.body.iter(qn(f"w:{kind}Reference")))
    new_ids: dict[str, str] = {}
    for ref in refs:
        new_ids.setdefault(ref.get(qn("w:id")), str(first + len(new_ids)))
    notes = [n for n in root.iterchildren(qn(f"w:{kind}")) if n.get(qn("w:type")) in (None, "normal")]
    unreferenced = [n for n in notes if n.get(qn("w:id")) not in new_ids]
    for n in unreferenced:
        new_ids[n.get(qn("w:id"))] = str(first + len(new_ids))
    for ref in refs:
        ref.set(qn("w:id"), new_ids[ref.get(qn("w:id"))])
    for n in notes:
        n.set(qn("w:id"), new_ids[n.get(qn("w:id"))])
        root.remove(n)
    root.extend(sorted(notes, key=lambda n: int(n.get(qn("w:id")))))
