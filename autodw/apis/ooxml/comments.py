"""Review comments: adding one (with the styles it uses), the comments part, a comment's replies and its
Word 2010+ extension entries, removal."""

from __future__ import annotations

from typing import Iterator

from docx.opc.constants import RELATIONSHIP_TYPE as RT
from docx.text.paragraph import Paragraph
from docx.text.run import Run
from lxml import etree

from autodw.apis.ooxml.builtin_styles import ensure_style
from autodw.apis.ooxml.parts import PartXml, part_xml
from autodw.apis.schema import shown_id, shown_number
from autodw.core.document import WordDocument
from autodw.core.errors import ArgumentError, clipped
from autodw.core.xml import qn


#: The longest initials a comment may carry: w:initials is a string of at most 9 characters (ECMA-376), and the
#: Open XML SDK reports a longer one as an error (Word offers to repair the file)
MAX_INITIALS = 9

def initials_of(name: str) -> str:
    """A name's initials as Word writes them for its user: each word's first letter, capitalised ("Jane Roe" -> "JR",
    "autodw" -> "A"), at most :data:`MAX_INITIALS` of them."""
    return "".join(word[:1].upper() for word in name.split())[:MAX_INITIALS]


#: Styles python-docx's comments use, by the id it writes -> (built-in name, kind).
_COMMENT_STYLES = {"CommentReference": ("annotation reference", "character"), "CommentText": ("annotation text", "paragraph")}


def add_comment(doc: WordDocument, paragraph: Paragraph, runs: list[etree._Element], text: str, author: str,
                initials: str) -> int:
    """Comment on `runs` (consecutive runs of `paragraph`); return the comment's id.

    python-docx writes the comment and its anchors; its runs and paragraph name the styles
    ``CommentReference`` and ``CommentText``, which are added here (or mapped to the document's own
    ids for them) so that no reference dangles."""
    if len(initials) > MAX_INITIALS:
        raise ArgumentError(f"initials {clipped(initials, 20)!r} has {len(initials)} characters; a comment's initials "
                            f"have at most {MAX_INITIALS}")
    comment = doc.docx.add_comment([Run(r, paragraph) for r in runs], text=text, author=author, initials=initials)
    cid = str(comment.comment_id)
    anchors = [ref.getparent() for ref in paragraph._p.iter(qn("w:commentReference")) if ref.get(qn("w:id")) == cid]
    for el in [comment._comment_elm, *anchors]:
        for ref in el.iter(qn("w:rStyle"), qn("w:pStyle")):
            if ref.get(qn("w:val")) in _COMMENT_STYLES:
                ref.set(qn("w:val"), ensure_style(doc, *_COMMENT_STYLES[ref.get(qn("w:val"))]))
    return comment.comment_id


def comments_root(doc: WordDocument) -> etree._Element | None:
    """The ``w:comments`` element of the main document's comments part, or None."""
    for rel in doc.part.rels.values():
        if rel.reltype == RT.COMMENTS and not rel.is_external and hasattr(rel.target_part, "element"):
            return rel.target_part.element
    return None


W14 = "http://schemas.microsoft.com/office/word/2010/wordml"
W15 = "http://schemas.microsoft.com/office/word/2012/wordml"


#: The argument naming a comment: its id as the state shows it ("#0"); a bare number (0 or "0") is the same id.
#: Any string passes the schema, so that a wrong one gets find_comment's error, which names the comments there are
COMMENT_ID = shown_id("the comment's id")


def comment_label(cid: str | int) -> str:
    """A comment id as the state shows it: ``#0``."""
    return f"#{cid}"


def find_comment(doc: WordDocument, ref: str | int) -> etree._Element:
    """The ``w:comment`` a :data:`COMMENT_ID` argument names ("#3", "3" or 3); an ArgumentError naming the
    document's comment ids when there is none."""
    number = shown_number(ref)
    root = comments_root(doc)
    comments = list(root.iterchildren(qn("w:comment"))) if root is not None else []
    for c in comments:
        if number is not None and c.get(qn("w:id")) == number:
            return c
    ids = ", ".join(comment_label(c.get(qn("w:id")) or "?") for c in comments)
    raise ArgumentError(f"there is no comment {ref!r}; "
                        + (f"the comments are {ids} (give one as the state shows it, e.g. \"{comment_label(comments[0].get(qn('w:id')))}\")"
                           if comments else "the document has no comments"))


def para_ids(comment: etree._Element) -> list[str]:
    """The ``w14:paraId`` of each paragraph of a comment."""
    return [p.get(f"{{{W14}}}paraId") for p in comment.iter(qn("w:p")) if p.get(f"{{{W14}}}paraId")]


def extension_parts(doc: WordDocument) -> Iterator:
    """The commentsExtended / commentsIds / commentsExtensible parts."""
    for rel in doc.part.rels.values():
        if not rel.is_external and rel.reltype.endswith(("/commentsExtended", "/commentsIds", "/commentsExtensible")):
            yield rel.target_part


def replies(doc: WordDocument, target: etree._Element, comments: list[etree._Element]) -> list[etree._Element]:
    """Comments whose w15:commentEx names `target`'s last paragraph as parent."""
    parent_ids = set(para_ids(target)[-1:])
    if not parent_ids:
        return []
    by_para = {pid: c for c in comments for pid in para_ids(c)}
    out = []
    for part in extension_parts(doc):
        root = _extension_xml(part).root
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
        xml = _extension_xml(part)
        doomed = [el for el in xml.root if any(v in para_ids for k, v in el.attrib.items() if k.endswith("}paraId"))]
        for el in doomed:
            xml.root.remove(el)
        if doomed:
            xml.commit()


def _extension_xml(part) -> PartXml:
    """An extension part's XML (an unreadable one reads as empty and is left as it is)."""
    return part_xml(part, lambda: etree.Element(f"{{{W15}}}commentsEx"))


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
