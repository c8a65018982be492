"""Review comments: the comments part, a comment's replies and its Word 2010+ extension entries, removal."""

from __future__ import annotations

from typing import Iterator

from docx.opc.constants import RELATIONSHIP_TYPE as RT
from lxml import etree

from autodw.document import WordDocument
from autodw.xml import qn


def comments_root(doc: WordDocument) -> etree._Element | None:
    """The ``w:comments`` element of the main document's comments part, or None."""
    for rel in doc.part.rels.values():
        if rel.reltype == RT.COMMENTS and not rel.is_external and hasattr(rel.target_part, "element"):
            return rel.target_part.element
    return None


W14 = "http://schemas.microsoft.com/office/word/2010/wordml"
W15 = "http://schemas.microsoft.com/office/word/2012/wordml"


def para_ids(comment: etree._Element) -> list[str]:
    """The ``w14:paraId`` of each paragraph of a comment."""
    return [p.get(f"{{{W14}}}paraId") for p in comment.iter(qn("w:p")) if p.get(f"{{{W14}}}paraId")]


def extension_parts(doc: WordDocument) -> Iterator:
    """The commentsExtended / commentsIds / commentsExtensible parts."""
    for rel in doc.part.rels.values():
        if not rel.is_external and rel.reltype.endswith(("/commentsExtended", "/commentsIds", "/commentsExtensible")):
            yield rel.target_part


def extension_root(part) -> tuple[etree._Element, bool]:
    """The root element of an extension part, and whether it was parsed from the part's blob."""
    if hasattr(part, "element"):
        return part.element, False
    return etree.fromstring(part.blob, etree.XMLParser(resolve_entities=False)), True


def replies(doc: WordDocument, target: etree._Element, comments: list[etree._Element]) -> list[etree._Element]:
    """Comments whose w15:commentEx names `target`'s last paragraph as parent."""
    parent_ids = set(para_ids(target)[-1:])
    if not parent_ids:
        return []
    by_para = {pid: c for c in comments for pid in para_ids(c)}
    out = []
    for part in extension_parts(doc):
        root, _ = extension_root(part)
        for ex in root.iter(f"{{{W15}}}commentEx"):
            if ex.get(f"{{{W15}}}paraIdParent") in parent_ids:
                reply = by_para.get(ex.get(f"{{{W15}}}paraId"))
                if reply is not None and reply is not target and reply not in out:
                    out.append(reply)
    return out


def drop_comment_extensions(doc: WordDocument, para_ids: set[str]) -> None:
    """Remove the w15/w16 extension entries (done state, durable ids) of deleted comments."""
    if not para_ids:
        return
    for part in extension_parts(doc):
        root, is_blob = extension_root(part)
        changed = False
        for el in list(root):
            if any(v in para_ids for k, v in el.attrib.items() if k.endswith("}paraId")):
                root.remove(el)
                changed = True
        if changed and is_blob:
            part._blob = etree.tostring(root, xml_declaration=True, encoding="UTF-8", standalone=True)


def remove_comment(doc: WordDocument, target: etree._Element) -> list[etree._Element]:
    """Remove comment `target` and its replies with their range marks, reference runs and extension entries;
    return the removed comments (target first)."""
    root = target.getparent()
    doomed = [target] + replies(doc, target, list(root.iterchildren(qn("w:comment"))))
    for c in doomed:
        cid = c.get(qn("w:id"))
        for story in doc.id_roots():
            for el in list(story.iter(qn("w:commentRangeStart"), qn("w:commentRangeEnd"), qn("w:commentReference"))):
                if el.get(qn("w:id")) != cid:
                    continue
                parent = el.getparent()
                parent.remove(el)
                if parent.tag == qn("w:r") and all(ch.tag == qn("w:rPr") for ch in parent):
                    parent.getparent().remove(parent)
        root.remove(c)
    drop_comment_extensions(doc, {pid for c in doomed for pid in para_ids(c)})
    return doomed
