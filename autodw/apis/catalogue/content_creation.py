"""content_creation: new paragraphs, headings, lists, text, breaks, hyperlinks, notes, comments, captions."""

from __future__ import annotations

import copy
import re
from typing import Any

from docx.opc.constants import RELATIONSHIP_TYPE as RT

from autodw.apis.ooxml import locate
from autodw.apis.ooxml.builtin_styles import ensure_style
from autodw.apis.ooxml.comments import add_comment, comment_label, initials_of
from autodw.apis.ooxml.copies import renewed_copy
from autodw.apis.ooxml.drawings import host_paragraph
from autodw.apis.ooxml.elements import get_or_add_ppr, insert_ordered, make, remove_children
from autodw.apis.ooxml.formatting import copy_paragraph_properties
from autodw.apis.ooxml.fields import bookmark_text, field_runs, seq_labels
from autodw.apis.ooxml.sequences import renumber_seq_fields
from autodw.apis.ooxml.notes import add_note, order_notes_by_reference
from autodw.apis.ooxml.list_styles import (adjacent_paragraph, document_direct_list, document_list_style,
                                           join_list_beside, levels_beside, list_beside)
from autodw.apis.ooxml.numbering import NUMBER_FORMATS, add_list_definition, copy_list_definition, restart_numbering
from autodw.apis.ooxml.paragraphs import hyperlink_runs, make_paragraph, place_inline
from autodw.apis.ooxml.styles_edit import paragraph_style_id
from autodw.apis.ooxml.text import insert_text as insert_text_at
from autodw.apis.ooxml.text import formatting_at, isolate, new_run, paragraph_text, resolve_span
from autodw.apis.registry import api
from autodw.apis.schema import ALIGNMENT, BLOCK_ID, PARAGRAPH_ID, POSITION, SPAN, boolean, enum, id_of, integer, text
from autodw.core.document import WordDocument
from autodw.core.errors import ArgumentError, clipped
from autodw.core.ids import element_id
from autodw.core.xml import qn

INTENT = "content_creation"


def _new_ids(doc: WordDocument, *elements) -> str:
    doc.refresh_ids()
    return ", ".join(element_id(e) or "?" for e in elements)


@api(intent=INTENT,
     description="Insert a new paragraph of text at a position, optionally with a paragraph style and alignment.",
     params={"text": text("the paragraph's text (\\n starts a new line inside it)"), "position": POSITION,
             "style": text("paragraph style name, e.g. \"Normal\", \"Quote\", \"List Paragraph\""),
             "alignment": ALIGNMENT},
     examples=[{"text": "Sales rose in all regions.", "position": {"after": "p2"}},
               {"text": "Prepared by the finance team.", "position": "end", "style": "Normal", "alignment": "right"}])
def insert_paragraph(doc: WordDocument, text: str, position: Any, style: str | None = None, alignment: str | None = None):
    p = make_paragraph(doc, text, style, alignment)
    locate.insert_block(doc, position, p)
    joined = join_list_beside(doc, p) if style else None
    return f"inserted paragraph {_new_ids(doc, p)}" + (f" continuing the list beside it (numId {joined})" if joined else "")


@api(intent=INTENT,
     description="Insert a heading (level 1-9, or 0 for the document title) at a position.",
     params={"text": text("the heading text", 1), "level": integer("heading level: 1 = top level; 0 = Title", 0, 9),
             "position": POSITION},
     examples=[{"text": "Outlook", "level": 1, "position": {"before": "p38"}},
               {"text": "Regional detail", "level": 2, "position": {"after": "p8"}}])
def insert_heading(doc: WordDocument, text: str, level: int, position: Any):
    p = make_paragraph(doc, text, "Title" if level == 0 else f"Heading {level}")
    locate.insert_block(doc, position, p)
    return f"inserted heading {_new_ids(doc, p)} (level {level})"


_LIST_ITEM = {"anyOf": [{"type": "string"},
                        {"type": "object", "properties": {"text": {"type": "string"}, "level": {"type": "integer", "minimum": 0, "maximum": 8}},
                         "required": ["text"], "additionalProperties": False}]}


@api(intent=INTENT,
     description="Insert a bulleted or numbered list with a real Word numbering definition; items may be "
                 "strings or {\"text\", \"level\"} for nested items (level 0-8). Items take the document's own "
                 "list style when it has one (e.g. \"List Bullet\"/\"List Number\", as the list beside them or most "
                 "of its lists of that kind use; nested levels \"List Bullet 2\" etc.), else the style of the item "
                 "they continue or, for bullets, of the document's other bullets, else \"List Paragraph\". "
                 "Items right after (or before) an item of a list of their kind continue that list (unless `start` "
                 "is given) at their own levels, their text in the formatting of that item's text (its end; its "
                 "start for an item after them): to add items to a sub-list, give them its level (level-0 items "
                 "after level-1 items are top-level items of that list); elsewhere a numbered list starts afresh at "
                 "`start` (default 1). Without `kind`, items right after (or before) a list item are of that item's "
                 "kind, so they continue its list; elsewhere they are bullets.",
     params={"items": {"type": "array", "items": _LIST_ITEM, "minItems": 1,
                       "description": 'list items: strings (top-level items), or {"text": "...", "level": n} where '
                                      'level 0 is the top level and 1 an item nested under the one before'},
             "position": POSITION,
             "kind": enum("list kind (omit: the kind of the list item right before, else after, the items, whose "
                          "list they continue; away from any list, bullet)", ("bullet", "numbered")),
             "start": integer("first number of a numbered list; given, the list starts afresh even beside a list "
                              "of its kind", 0, 32767),
             "number_format": enum("numbering style of a numbered list (omit: the document's list style's, else "
                                   "decimal); one its list style lacks gives the list \"List Paragraph\"",
                                   tuple(NUMBER_FORMATS))},
     examples=[{"items": ["Hire two analysts", "Open the Denver office"], "position": {"after": "p31"}, "kind": "bullet"},
               {"items": ["Plan", {"text": "Budget", "level": 1}, "Review"], "position": "end", "kind": "numbered",
                "start": 1, "number_format": "decimal"}])
def insert_list(doc: WordDocument, items: list, position: Any, kind: str | None = None, start: int | None = None,
                number_format: str | None = None):
    entries = [(item, 0) if isinstance(item, str) else (item["text"], item.get("level", 0)) for item in items]
    paras = [make_paragraph(doc, content) for content, _ in entries]
    levels = [level for _, level in entries]
    locate.insert_block(doc, position, *paras)
    ends = [adjacent_paragraph(paras[0], "previous"), adjacent_paragraph(paras[-1], "next")]
    if kind is None:  # the kind of the list item beside them (the one before, else after), whose list they continue
        kind = next((k for p in ends for k in ("bullet", "numbered") if list_beside(doc, k, [p]) is not None), "bullet")
    found = document_list_style(doc, kind, ends)
    if found is not None and not found.fits(levels, number_format):
        found = None  # a level or a number format the document's list style lacks
    beside = list_beside(doc, kind, ends) if start is None else None
    if beside is not None:  # the items of the style's own list (not of a nested style's, "List Number 2") join it
        joins = [found is None or found.at(level)[1] == found.at(0)[1] for level in levels]
        depths = [found.at(level)[2] if found is not None else level for level, j in zip(levels, joins) if j]
        joined = levels_beside(doc, beside, kind, depths, number_format) if depths else None
        beside = beside if joined is not None else None
    start = 1 if start is None else start
    direct = None  # the document's bullets numbered directly, whose style and numbering new bullets take
    if found is not None:
        plain = None
    elif beside is not None:  # the style of the item they continue, as Word's Enter at its end gives
        plain = paragraph_style_id(beside.paragraph)
    elif kind == "bullet" and number_format is None and (direct := document_direct_list(doc, kind, ends, levels)):
        plain = direct[0]
    else:
        plain = ensure_style(doc, "List Paragraph", "paragraph")
    if found is None and beside is None:
        num_id = restart_numbering(doc, direct[1], None) if direct else \
            add_list_definition(doc, "bullet" if kind == "bullet" else "number", start, number_format or "decimal")
        for p, level in zip(paras, levels):
            _list_item(p, plain, str(num_id), level)
        look = f", the bullets of the document's list numId {direct[1]}" if direct else ""
        return f"inserted {kind} list {_new_ids(doc, *paras)} (numId {num_id}{look})"
    if beside is not None:  # their text looks like the item's they continue, as text typed into it would
        item = copy.deepcopy(beside.paragraph)  # formatting_at splits runs: not the document's item
        text_look = formatting_at(item, len(paragraph_text(item)) if beside.paragraph is ends[0] else 0)
        for r in (r for p in paras for r in p.iter(qn("w:r"))) if text_look is not None else ():
            r.insert(0, copy.deepcopy(text_look))
        for p, level in zip(paras, levels):  # and their paragraphs like the item's, as Word's Enter at its end gives
            _item_look(p, beside.paragraph, indents=level == beside.level - beside.base)
    joined_levels = iter(joined if beside is not None else ())
    fresh: dict[str, str] = {}  # a numbered list's own copy of each numbering it uses, counted from its start
    for i, (p, level) in enumerate(zip(paras, levels)):
        if found is None:
            style, num_id, ilvl = plain, beside.num_id, next(joined_levels)
        else:
            style, num_id, ilvl = found.at(level)
            if beside is not None and num_id == found.at(0)[1]:
                num_id, ilvl = beside.num_id, next(joined_levels)
            elif kind == "numbered":
                new_run = num_id not in fresh or (level > levels[i - 1] and num_id != found.at(0)[1])  # a nested list of its own
                if new_run:
                    fresh[num_id] = str(copy_list_definition(doc, num_id, start if level == 0 else 1))
                num_id = fresh[num_id]
        _list_item(p, style, num_id if found is None or (num_id, ilvl) != found.own(style) else None, ilvl)
    look = f' in the document\'s list style "{found.name}"' if found is not None else ""
    if beside is not None:
        return f"inserted {kind} list {_new_ids(doc, *paras)}{look} continuing the list beside it (numId {beside.num_id})"
    return f"inserted {kind} list {_new_ids(doc, *paras)}{look} (numId {fresh.get(found.at(0)[1], found.at(0)[1])})"


def _item_look(p, item, indents: bool) -> None:
    """Give new item `p` the paragraph properties of list item `item` (spacing, alignment, its paragraph mark's run
    properties, its indents when `indents`: at its nesting depth) but its style, numbering, a page break before it
    and tracked-change marks."""
    copy_paragraph_properties(item.find(qn("w:pPr")), p)
    ppr = p.find(qn("w:pPr"))
    for tag in ("w:pStyle", "w:numPr", "w:pageBreakBefore", *(() if indents else ("w:ind",))) if ppr is not None else ():
        remove_children(ppr, tag)
    mark = ppr.find(qn("w:rPr")) if ppr is not None else None
    for tag in ("w:ins", "w:del", "w:moveFrom", "w:moveTo", "w:rPrChange") if mark is not None else ():
        remove_children(mark, tag)


def _list_item(p, style: str | None, num_id: str | None, level: int) -> None:
    """Give paragraph `p` list style `style` (None: the default style) and, unless the style numbers it itself
    (`num_id` None), a numPr."""
    ppr = get_or_add_ppr(p)
    if style is not None:
        insert_ordered(ppr, make("w:pStyle", w_val=style))
    if num_id is not None:
        num_pr = insert_ordered(ppr, make("w:numPr"))
        num_pr.append(make("w:ilvl", w_val=str(level)))
        num_pr.append(make("w:numId", w_val=num_id))


@api(intent=INTENT,
     description="Insert text into an existing paragraph at a character offset (default: at the end), in the "
                 "formatting of the text before it; at a hyperlink's end it goes after the link, not into it.",
     params={"paragraph": PARAGRAPH_ID, "text": text("the text to insert", 1),
             "offset": integer("character offset in the paragraph's text; omit to append", 0)},
     examples=[{"paragraph": "p2", "text": " Margins also improved."}, {"paragraph": "p31", "text": "Note: ", "offset": 0}])
def insert_text(doc: WordDocument, paragraph: str, text: str, offset: int | None = None):
    p = doc.find(paragraph, "p")
    length = len(paragraph_text(p))
    at_end = offset is None
    if at_end:
        offset = length
    if offset > length:
        raise ArgumentError(f"offset {offset} is past the end of {paragraph} ({length} characters)")
    insert_text_at(doc, p, offset, text, at_end=at_end)
    return f"inserted {len(text)} characters into {paragraph} at {offset}"


@api(intent=INTENT,
     description="Insert a page break as its own paragraph at a position, so what follows starts on a new page.",
     params={"position": POSITION},
     examples=[{"position": {"before": "p32"}}])
def insert_page_break(doc: WordDocument, position: Any):
    p = make("w:p")
    r = make("w:r")
    r.append(make("w:br", w_type="page"))
    p.append(r)
    locate.insert_block(doc, position, p)
    return f"inserted page break paragraph {_new_ids(doc, p)}"


@api(intent=INTENT,
     description="Insert a line break (a new line in the same paragraph) at a character offset of a paragraph.",
     params={"paragraph": PARAGRAPH_ID, "offset": integer("character offset; omit for the end", 0)},
     examples=[{"paragraph": "p2", "offset": 70}])
def insert_line_break(doc: WordDocument, paragraph: str, offset: int | None = None):
    p = doc.find(paragraph, "p")
    text = paragraph_text(p)
    offset = len(text) if offset is None else offset
    if offset > len(text):
        raise ArgumentError(f"offset {offset} is past the end of {paragraph} ({len(text)} characters)")
    insert_text_at(doc, p, offset, "\n")
    return f"inserted a line break in {paragraph} at {offset}"


@api(intent=INTENT,
     description="Insert a hyperlink with the given display text into a paragraph, pointing to a web address "
                 "(url) or to a bookmark in this document.",
     params={"paragraph": PARAGRAPH_ID, "text": text("the link's display text", 1),
             "url": text("web address, e.g. https://example.com (give url or bookmark)"),
             "bookmark": text("name of a bookmark in this document (give url or bookmark)"),
             "offset": integer("character offset in the paragraph; omit to append", 0)},
     examples=[{"paragraph": "p31", "text": " (brand guide)", "url": "https://example.com/brand"}])
def insert_hyperlink(doc: WordDocument, paragraph: str, text: str, url: str | None = None,
                     bookmark: str | None = None, offset: int | None = None):
    if (url is None) == (bookmark is None):
        raise ArgumentError("give exactly one of url or bookmark")
    p = doc.find(paragraph, "p")
    link = make("w:hyperlink")
    if url is not None:
        if not url.strip() or any(c.isspace() for c in url.strip()):
            raise ArgumentError(f"url {url!r} is not a web address")
        part = locate.part_of(doc, p)
        link.set(qn("r:id"), part.relate_to(url.strip(), RT.HYPERLINK, is_external=True))
    else:
        names = {b.get(qn("w:name")) for b in doc.body.iter(qn("w:bookmarkStart"))}
        if bookmark not in names:
            raise ArgumentError(f"there is no bookmark {clipped(bookmark, 80)!r}; bookmarks: {', '.join(sorted(n for n in names if n)) or 'none'}")
        link.set(qn("w:anchor"), bookmark)
    link.set(qn("w:history"), "1")
    end = len(paragraph_text(p))
    link.append(hyperlink_runs(doc, text, formatting_at(p, end if offset is None else min(offset, end))))
    place_inline(p, offset, link)
    return f"inserted hyperlink {text!r} in {paragraph} -> {url or '#' + str(bookmark)}"


@api(intent=INTENT,
     description="Add a footnote (or endnote) with the given text, its reference mark placed in a paragraph at a "
                 "character offset (default: end of the paragraph).",
     params={"paragraph": PARAGRAPH_ID, "text": text("the note's text", 1),
             "offset": integer("where the reference mark goes; omit for the end", 0),
             "kind": enum("note kind", ("footnote", "endnote"))},
     examples=[{"paragraph": "p4", "text": "Target set in the January plan."},
               {"paragraph": "p39", "text": "Source: internal ledger.", "kind": "endnote"}])
def insert_footnote(doc: WordDocument, paragraph: str, text: str, offset: int | None = None, kind: str = "footnote"):
    p = doc.find(paragraph, "p")
    if p.getroottree().getroot() is not doc.part._element:
        raise ArgumentError("notes can only be referenced from the document body, not a header or footer")
    note_id, ref = add_note(doc, kind, text)
    place_inline(p, offset, ref)
    order_notes_by_reference(doc, kind)
    return f"added {kind} {note_id} referenced in {paragraph}"


@api(intent=INTENT,
     description="Attach a review comment to a paragraph or to part of its text.",
     params={"paragraph": PARAGRAPH_ID, "text": text("the comment's text", 1), "span": SPAN,
             "author": text("comment author name"), "initials": text("author initials (default: the author's)")},
     examples=[{"paragraph": "p31", "text": "Is this the latest logo?", "author": "Reviewer"},
               {"paragraph": "p2", "text": "Source?", "span": {"match": "Revenue grew"}}])
def insert_comment(doc: WordDocument, paragraph: str, text: str, span: dict | None = None, author: str | None = None,
                   initials: str | None = None):
    """A comment by `author`, or by the document's author (:attr:`WordDocument.author`: the run's ``--author``),
    initialled with `initials` or the author's."""
    p = doc.find(paragraph, "p")
    if p.getroottree().getroot() is not doc.part._element:
        raise ArgumentError("comments can only be attached to text in the document body")
    start, end = resolve_span(p, span, paragraph)
    runs = isolate(p, start, end) if end > start else []
    if not runs:
        raise ArgumentError(f"{paragraph} has no text to attach a comment to; choose a paragraph with text")
    by = doc.author if author is None else author
    cid = add_comment(doc, locate.paragraph(doc, paragraph), runs, text, by, initials_of(by) if initials is None else initials)
    return f"added comment {comment_label(cid)} on {paragraph} chars {start}-{end}"


#: Word's caption labels, English and as Word's Chinese UI names them (表 table, 图 figure, 公式 equation, 图表 chart)
CAPTION_LABELS = ("Table", "Figure", "Chart", "Equation", "表", "图", "公式", "图表")
CHINESE_CAPTION_LABELS = frozenset({"表", "图", "公式", "图表"})
TABLE_CAPTION_LABELS = ("Table", "表")
#: how a text may write a label (caption label -> its other spellings): read in requests and documents, never written
CAPTION_LABEL_SPELLINGS = {"Figure": ("Fig.",), "Table": ("Tab.",), "表": ("表格",)}
_CJK = re.compile(r"[\u4e00-\u9fff]")
_LATIN = re.compile(r"[A-Za-z]")


def default_caption_label(doc: WordDocument, is_table: bool) -> str:
    """The label of a caption the caller did not label: the one the document's captions of that kind already use
    (Table or 表; Figure or 图), else by the body's language (Chinese when its CJK characters outnumber its letters)."""
    english, chinese = TABLE_CAPTION_LABELS if is_table else ("Figure", "图")
    used = [label for label in seq_labels(doc) if label in (english, chinese)]
    if used:
        return used[-1]
    body = "".join(t.text or "" for t in doc.body.iter(qn("w:t")))
    return chinese if len(_CJK.findall(body)) > len(_LATIN.findall(body)) else english


@api(intent=INTENT,
     description="Add a numbered caption (\"Table 1: ...\", \"Figure 2: ...\"; Chinese labels as Word writes them: "
                 "\"表 1 ...\", \"图 2 ...\") to a table, picture or chart, using a SEQ field named by the label so "
                 "numbering stays correct (each label counts on its own).",
     params={"target": id_of("t|img|chart", "table, picture or chart"), "text": text("caption text after the number"),
             "label": enum("caption label: English, or Chinese 表 (table), 图 (figure), 公式 (equation), 图表 (chart); "
                           "default: the label the document's captions of that kind use, else Table/表 for tables and "
                           "Figure/图 otherwise, by the document's language", CAPTION_LABELS),
             "where": enum("above or below the target (default: above tables, below figures)", ("above", "below"))},
     examples=[{"target": "t1", "text": "Sales by region (k$)"}, {"target": "img1", "text": "Company logo", "where": "below"},
               {"target": "t1", "text": "各地区销售额", "label": "表"}])
def insert_caption(doc: WordDocument, target: str, text: str, label: str | None = None, where: str | None = None):
    el = doc.find(target)
    is_table = el.tag == qn("w:tbl")
    label = label or default_caption_label(doc, is_table)
    where = where or ("above" if is_table else "below")
    anchor = el if is_table else host_paragraph(el)
    p = make_paragraph(doc, f"{label} ", "Caption")
    for run in field_runs(f"SEQ {label} \\* ARABIC"):
        p.append(run)
    if text:  # "Table 1: text"; Chinese captions put a space between number and text ("表 1 text", GB/T 7713.1)
        p.append(new_run(f" {text}" if label in CHINESE_CAPTION_LABELS else f": {text}"))
    if where == "above":
        anchor.addprevious(p)
    else:
        locate.insert_after(anchor, p)  # below a picture ending a section: the caption stays in that section
    later = [q for q in renumber_seq_fields(doc, label, since=p) if q is not p]  # numbered in document order
    new_id = _new_ids(doc, p)
    note = f"; renumbered the {label} captions after it: {', '.join(element_id(q) for q in later)}" if later else ""
    return f"inserted caption {new_id} for {target}{note}"


@api(intent=INTENT,
     description="Copy a paragraph or table (with its formatting) to a position; the copy gets new ids.",
     params={"block": BLOCK_ID, "position": POSITION},
     examples=[{"block": "t1", "position": "end"}, {"block": "p2", "position": {"after": "p39"}}])
def duplicate_block(doc: WordDocument, block: str, position: Any):
    el = locate.block(doc, block)
    clone = renewed_copy(doc, el)
    for sect in list(clone.iter(qn("w:sectPr"))):  # a copy must not duplicate a section break
        sect.getparent().remove(sect)
    locate.insert_block(doc, position, clone)
    return f"copied {block} as {_new_ids(doc, clone)}"


@api(intent=INTENT,
     description="Insert a cross-reference to a bookmark (its text or its page number) into a paragraph, as a REF "
                 "or PAGEREF field.",
     params={"paragraph": PARAGRAPH_ID, "bookmark": text("name of an existing bookmark", 1),
             "show": enum("what the reference shows", ("text", "page")),
             "offset": integer("character offset; omit to append", 0),
             "hyperlink": boolean("make the reference a clickable link (default true)")},
     examples=[{"paragraph": "p39", "bookmark": "methodology", "show": "text"}])
def insert_cross_reference(doc: WordDocument, paragraph: str, bookmark: str, show: str = "text",
                           offset: int | None = None, hyperlink: bool = True):
    p = doc.find(paragraph, "p")
    marks = {b.get(qn("w:name")): b for b in doc.body.iter(qn("w:bookmarkStart"))}
    if bookmark not in marks:
        raise ArgumentError(f"there is no bookmark {clipped(bookmark, 80)!r}; bookmarks: {', '.join(sorted(n for n in marks if n)) or 'none'}")
    placeholder = bookmark_text(marks[bookmark]) if show == "text" else "1"
    switch = " \\h" if hyperlink else ""
    instr = f"{'REF' if show == 'text' else 'PAGEREF'} {bookmark}{switch}"
    place_inline(p, offset, *field_runs(instr, placeholder or bookmark))
    return f"inserted a {show} reference to {bookmark!r} in {paragraph}"


