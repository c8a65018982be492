"""content_modification: find and replace, rewrite, delete, move, split and merge existing content."""

from __future__ import annotations

import re
from typing import Any

from lxml import etree

from autodw.apis.ooxml import locate
from autodw.apis.ooxml import toc as toc_lib
from autodw.apis.ooxml.blocks import (BLOCKS, BODY, P, TBL, cell_location, check_container_keeps_paragraph,
                                      check_fields_whole, drop_dangling_marks, hand_over_field_ends, field_depth_before, hand_over_section_break, section_number,
                                      split_up_to)
from autodw.apis.ooxml.copies import renewed_copy
from autodw.apis.ooxml.elements import get_or_add_ppr, insert_ordered, make
from autodw.apis.ooxml.search import not_found, selected_paragraphs
from autodw.apis.ooxml.text import (atoms, find_matches, insert_text, paragraph_text, needs_space, recase, replace_span,
                                    resolve_span, retype, split_at)
from autodw.apis.registry import Example, api
from autodw.apis.schema import BLOCK_ID, PARAGRAPH_ID, POSITION, SEARCH_PARAMS, SPAN, enum, integer, text
from autodw.core.document import WordDocument
from autodw.core.errors import ArgumentError, UnsupportedOperationError
from autodw.core.ids import element_id
from autodw.core.xml import qn

INTENT = "content_modification"

PPR = qn("w:pPr")

# --- find and replace ---------------------------------------------------------------------


@api(intent=INTENT, read_only=True,
     description="Find text (or a regular expression) and list every match with its paragraph id, character "
                 "offsets in that paragraph's text, the matched text and some context; table cells report their "
                 "table, row and column. Changes nothing. Use it to get exact offsets before editing part of a paragraph.",
     params={"query": text("the text (or regular expression) to look for", 1), **SEARCH_PARAMS,
             "max_results": integer("at most this many matches are listed (default 50)", 1, 500)},
     examples=[{"query": "region"}, {"query": "Q[1-3]", "regex": True, "scope": "all"},
               Example({"query": "甲方"}, document="examples/contract_zh.docx")])
def find_text(doc: WordDocument, query: str, regex: bool = False, match_case: bool = True, whole_word: bool = False,
              scope: str = "body", paragraphs: list[str] | None = None, max_results: int = 50):
    matches: list[dict[str, Any]] = []
    total = 0
    for p, story in selected_paragraphs(doc, scope, paragraphs):
        s = paragraph_text(p)
        for start, end, found in find_matches(s, query, regex=regex, match_case=match_case, whole_word=whole_word):
            total += 1
            if len(matches) >= max_results:
                continue
            entry: dict[str, Any] = {"paragraph": element_id(p), "start": start, "end": end, "text": found,
                                     "context": s[max(0, start - 30):end + 30]}
            cell = cell_location(p)
            if cell:
                entry["cell"] = cell
            if story not in ("body", "paragraph"):
                entry["story"] = story
            matches.append(entry)
    if not total:
        message = not_found(doc, query, scope, paragraphs, regex, match_case, whole_word)
    else:
        message = f"{total} match(es) for {query!r}" + (f"; the first {len(matches)} are listed" if total > len(matches) else "")
    return {"message": message, "count": total, "matches": matches}


@api(intent=INTENT,
     description="Replace text everywhere it occurs (or only the first `count` times), also inside table cells and, "
                 "with scope \"all\", in headers, footers and notes. Matches may cross formatting runs; the new "
                 "text takes the formatting of the place where each match starts. A match covering all the text a "
                 "field shows (e.g. a MERGEFIELD «name») replaces the field, its code too, with the new text (a "
                 "hyperlink keeps its link unless the new text is empty). With regex, the replacement "
                 "may use \\1 or \\g<name> groups. Fails if nothing matches.",
     params={"find": text("the text (or regular expression) to replace", 1),
             "replace": text("the new text (may be empty to delete the matches; \\n makes a line break)"),
             **SEARCH_PARAMS,
             "count": integer("replace at most this many matches, in document order (default: all)", 1)},
     examples=[{"find": "region", "replace": "territory"},
               {"find": "Quarterly", "replace": "Annual", "scope": "all", "count": 5},
               {"find": r"Q(\d)", "replace": r"Quarter \1", "regex": True, "paragraphs": ["p10", "p11", "p12"]},
               Example({"find": "甲方", "replace": "委托方"}, document="examples/contract_zh.docx")])
def replace_text(doc: WordDocument, find: str, replace: str, regex: bool = False, match_case: bool = True,
                 whole_word: bool = False, scope: str = "body", paragraphs: list[str] | None = None,
                 count: int | None = None):
    try:
        rx = re.compile(find, 0 if match_case else re.IGNORECASE) if regex else None
    except re.error as exc:
        raise ArgumentError(f"invalid regular expression {find!r}: {exc}") from None
    plan: list[tuple[etree._Element, list[tuple[int, int, str]]]] = []
    left = count
    for p, _ in selected_paragraphs(doc, scope, paragraphs):
        if left == 0:
            break
        s = paragraph_text(p)
        found = find_matches(s, find, regex=regex, match_case=match_case, whole_word=whole_word)[:left]
        if not found:
            continue
        edits = []
        for start, end, _ in found:
            new = replace
            if rx is not None:
                m = rx.fullmatch(s, start, end) or rx.match(s, start)
                try:
                    new = m.expand(replace) if m is not None else replace
                except (re.error, IndexError) as exc:
                    raise ArgumentError(f"replacement {replace!r} refers to a group the pattern lacks: {exc}") from None
            edits.append((start, end, new))
        plan.append((p, edits))
        left = None if left is None else left - len(edits)
    if not plan:
        raise ArgumentError(not_found(doc, find, scope, paragraphs, regex, match_case, whole_word))
    for p, edits in plan:
        for start, end, new in reversed(edits):
            replace_span(doc, p, start, end, new, whole_fields=True)
    n = sum(len(e) for _, e in plan)
    where = ", ".join(element_id(p) or "?" for p, _ in plan[:20]) + (", ..." if len(plan) > 20 else "")
    return f"replaced {n} occurrence(s) of {find!r} with {replace!r} in {len(plan)} paragraph(s): {where}"


# --- rewriting text -----------------------------------------------------------------------


@api(intent=INTENT,
     description="Replace the whole text of one paragraph, keeping its paragraph style and the formatting of its "
                 "first run. Pictures, footnote marks and other non-text content stay where they are; a field (e.g. a "
                 "MERGEFIELD or PAGE) stays wherever the new text keeps the text it shows, also moved, else it becomes "
                 "that plain text and is replaced. Fields keep their order: one whose text comes only before that of "
                 "a field kept before it becomes plain text; a field whose text is kept twice stays at one copy (the one "
                 "where its text was, else the first) and the other is plain text. Over tracked changes it works like retyping with tracking off: the new text is plain (not part of anyone's "
                 "insertion) and the paragraph's deleted text is removed.",
     params={"paragraph": PARAGRAPH_ID, "text": text("the new text (\\n makes a line break, \\t a tab)")},
     examples=[{"paragraph": "p8", "text": "Sales per region, in thousands of dollars:"},
               Example({"paragraph": "p2", "text": "甲方：深圳某某科技有限公司"}, document="examples/contract_zh.docx")])
def set_paragraph_text(doc: WordDocument, paragraph: str, text: str):
    p = doc.find(paragraph, "p")
    old = paragraph_text(p)
    retype(doc, p, text)
    return f"set the text of {paragraph} ({len(old)} -> {len(text)} characters)"


@api(intent=INTENT,
     description="Delete part of a paragraph's text (the paragraph itself stays; use delete_block to remove it). "
                 "A hyperlink keeps its link on the text of it that remains; deleting all its text removes the link. "
                 "Likewise a field (e.g. a MERGEFIELD «name» or PAGE) all of whose shown text is deleted is removed, "
                 "its code too; deleting part of its text keeps the field.",
     params={"paragraph": PARAGRAPH_ID, "span": {**SPAN, "description": "the text to delete: " + SPAN["description"].split(";")[0]}},
     examples=[{"paragraph": "p2", "span": {"match": " Revenue grew in every region."}},
               {"paragraph": "p39", "span": {"start": 0, "end": 8}}])
def delete_text(doc: WordDocument, paragraph: str, span: dict):
    p = doc.find(paragraph, "p")
    start, end = resolve_span(p, span, paragraph)
    if start == end:
        raise ArgumentError(f"the span {start}-{end} of {paragraph} is empty; nothing to delete")
    removed = paragraph_text(p)[start:end]
    replace_span(doc, p, start, end, "", whole_fields=True)  # as in Word: a field or link whose whole text goes goes
    return f"deleted {removed!r} from {paragraph} (chars {start}-{end})"


_CASES = ("upper", "lower", "title", "sentence", "toggle")


@api(intent=INTENT,
     description="Change the letter case of a paragraph's text or part of it: case upper (UPPER), lower, title "
                 "(Title Case: each word capitalised), sentence (Sentence case) or toggle (tOGGLE). This rewrites the "
                 "letters; to only display capitals use set_text_format all_caps.",
     params={"paragraph": PARAGRAPH_ID, "span": SPAN, "case": enum("the new case", _CASES)},
     examples=[{"paragraph": "p3", "case": "upper"}, {"paragraph": "p39", "span": {"match": "Figures are unaudited"}, "case": "title"}])
def change_case(doc: WordDocument, paragraph: str, case: str, span: dict | None = None):
    p = doc.find(paragraph, "p")
    start, end = resolve_span(p, span, paragraph)
    full = paragraph_text(p)
    before = full[:start].rstrip()
    changed = 0
    at_start = not before or before[-1] in ".!?。！？"
    new = recase(full[start:end], case, at_start)
    for a in atoms(p):
        if a.el.tag != qn("w:t") or a.end <= start or a.start >= end:
            continue
        lo, hi = max(a.start, start), min(a.end, end)
        piece = new[lo - start:hi - start]
        old = a.text
        updated = old[:lo - a.start] + piece + old[hi - a.start:]
        if updated != old:
            a.el.text = updated
            changed += sum(1 for x, y in zip(old, updated) if x != y)
    if not changed:
        return f"the text of {paragraph} chars {start}-{end} is already in {case} case (nothing changed)"
    return f"changed {changed} letter(s) of {paragraph} chars {start}-{end} to {case} case"


# --- blocks: delete, move -----------------------------------------------------------------


@api(intent=INTENT,
     description="Delete a whole paragraph or table. A paragraph that ends a section hands its section break to "
                 "the paragraph before it. Footnotes and comments anchored in the deleted block are deleted too. "
                 "A table of contents' first paragraph (where the state puts it) deletes the whole table of "
                 "contents, with its content control and title. Refused for the last paragraph of a table cell or "
                 "of the document.",
     params={"block": BLOCK_ID},
     examples=[{"block": "p31"}, {"block": "t1"}, {"block": "p37"}])
def delete_block(doc: WordDocument, block: str):
    el = locate.block(doc, block)
    toc = toc_lib.toc_starting_at(doc, el) if el.tag == P else None
    if toc is not None:
        return _delete_toc(doc, block, toc)
    check_container_keeps_paragraph(el, block)
    note = hand_over_field_ends(doc, el, block) + hand_over_section_break(doc, el, block)
    el.getparent().remove(el)
    dropped = drop_dangling_marks(doc, el)
    extra = f"; also deleted {', '.join(dropped)}" if dropped else ""
    return f"deleted {'table' if el.tag == TBL else 'paragraph'} {block}{note}{extra}"


def _delete_toc(doc: WordDocument, block: str, toc: toc_lib.TocField) -> str:
    """Delete a whole table of contents (its field, its title, and its content control when it has one)."""
    blocks = toc_lib.toc_blocks(doc, toc)
    paragraphs = [p for b in blocks for p in ([b] if b.tag == P else b.iter(P))]
    ids = [element_id(p) for p in paragraphs]
    notes, dropped = [], []
    for b in blocks:
        if b.tag != P and b.find(f".//{qn('w:sectPr')}") is not None:
            raise UnsupportedOperationError(f"the table of contents ({ids[0]}-{ids[-1]}) holds a section break; "
                                            "remove the section break first")
        bid = element_id(b) or block
        check_container_keeps_paragraph(b, bid)
        notes.append(hand_over_section_break(doc, b, bid))
        b.getparent().remove(b)
        dropped += drop_dangling_marks(doc, b)
    extra = f"; also deleted {', '.join(dropped)}" if dropped else ""
    return (f"deleted the table of contents, {len(ids)} paragraph(s) {ids[0]}-{ids[-1]} ({block} holds the "
            f"start of its field, so it goes whole){''.join(notes)}{extra}")


@api(intent=INTENT,
     description="Move a paragraph or table to another position (its id stays the same). A paragraph that ends a "
                 "section leaves its section break in place, on the paragraph before it; when that is a table (or "
                 "there is none, or it ends a section too), on a new empty paragraph put where the moved one was, "
                 "so the page layout of every section stays the same.",
     params={"block": BLOCK_ID, "position": POSITION},
     examples=[{"block": "p6", "position": {"before": "p4"}}, {"block": "p31", "position": {"after": "p8"}}])
def move_block(doc: WordDocument, block: str, position: Any):
    el = locate.block(doc, block)
    note = _lift(doc, [(el, block)], position)
    return f"moved {block} to {_where(position)}{note}{_place(doc, position, [el])}"


def _lift(doc: WordDocument, blocks: list, position: Any) -> str:
    """Take the (element, id) `blocks` out of the tree, in order, for a move to `position`: each leaves its
    section break in place (:func:`hand_over_section_break`). Returns the notes for the message."""
    anchor = locate.block(doc, next(iter(position.values()))) if isinstance(position, dict) else doc.body
    notes = []
    for el, bid in blocks:
        if anchor is el or el in anchor.iterancestors():
            raise ArgumentError(f"cannot move {bid} relative to itself or to a block inside it; choose a position outside {bid}")
        if anchor.getroottree().getroot() is not el.getroottree().getroot():
            raise UnsupportedOperationError(f"{bid} and the target position are in different parts (body, header, footer); "
                                            "blocks can only move within their part. Copy the text instead")
        check_fields_whole(el, bid)
        check_container_keeps_paragraph(el, bid)
        notes.append(hand_over_section_break(doc, el, bid, moving=True))
        el.getparent().remove(el)
    return "".join(notes)


def _place(doc: WordDocument, position: Any, els: list) -> str:
    """Insert the lifted blocks `els` together at `position` (after a section's last paragraph the section break
    goes to the last of them when it is a paragraph, :func:`locate.insert_after`); return a note for the message."""
    locate.insert_block(doc, position, *els)
    last = els[-1]
    if last.tag == TBL and last.getparent().tag == BODY and not any(s.tag == P for s in last.itersiblings()):
        last.addnext(make("w:p"))  # a document must end with a paragraph
        return "; added an empty paragraph after it (a document cannot end with a table)"
    return ""


def _where(position: Any) -> str:
    return position if isinstance(position, str) else " ".join(f"{k} {v}" for k, v in position.items())


@api(intent=INTENT,
     description="Move a whole section: a heading and every paragraph and table under it, up to the next heading of "
                 "the same or a higher level, in their order (their ids stay the same). Section breaks (page "
                 "layout) stay where they are: a moved paragraph that ends a section leaves its break on the "
                 "paragraph before the section, or on a new empty paragraph there when a table comes before it. "
                 "For one paragraph use move_block.",
     params={"heading": PARAGRAPH_ID, "position": POSITION},
     examples=[{"heading": "p29", "position": {"before": "p7"}}, {"heading": "p3", "position": "end"}])
def move_section(doc: WordDocument, heading: str, position: Any):
    """Take `heading` and its blocks out (each leaving its section break in place, see hand_over_section_break)
    and insert them together: the content moves, the page layout of each section does not."""
    p = doc.find(heading, "p")
    level_of = toc_lib.heading_reader(doc)
    level = level_of(p)
    if level is None:
        raise ArgumentError(f"{heading} is not a heading; move_section moves a heading with its section "
                            "(use move_block to move one paragraph)")
    if p.getparent() is not doc.body:
        raise ArgumentError(f"{heading} is not a heading of the document body (it is in a table or text box)")
    els = [p]
    for sibling in p.itersiblings():
        if sibling.tag not in (P, TBL):
            break
        if sibling.tag == P:
            other = level_of(sibling)
            if other is not None and other <= level:
                break
        els.append(sibling)
    blocks = [element_id(el) for el in els]
    if isinstance(position, dict) and next(iter(position.values())) in blocks:
        raise ArgumentError(f"the position {position} is inside the section of {heading} ({blocks[0]}-{blocks[-1]}); "
                            "choose a position outside it")
    note = _lift(doc, list(zip(els, blocks)), position) + _place(doc, position, els)
    return f"moved the section of {heading} ({len(blocks)} block(s): {', '.join(blocks)}) to {_where(position)}{note}"


# --- split and merge -----------------------------------------------------------------------


@api(intent=INTENT,
     description="Split a paragraph in two at a character offset (like pressing Enter there). The new second "
                 "paragraph keeps the paragraph's style, list and formatting, and gets a new id (returned).",
     params={"paragraph": PARAGRAPH_ID, "offset": integer("character offset in the paragraph's text where the new paragraph starts", 0)},
     examples=[{"paragraph": "p2", "offset": 71}, {"paragraph": "p39", "offset": 67}])
def split_paragraph(doc: WordDocument, paragraph: str, offset: int):
    p = doc.find(paragraph, "p")
    s = paragraph_text(p)
    if offset > len(s):
        raise ArgumentError(f"offset {offset} is past the end of {paragraph} ({len(s)} characters): {s[:80]!r}")
    split_at(p, offset)
    after = [a for a in atoms(p) if a.start >= offset and a.text]
    new = make("w:p")
    ppr = p.find(PPR)
    if ppr is not None:
        new_ppr = renewed_copy(doc, ppr)
        for sect in new_ppr.findall(qn("w:sectPr")):
            new_ppr.remove(sect)
        new.append(new_ppr)
        sect = ppr.find(qn("w:sectPr"))
        if sect is not None:  # the second half is now the last paragraph of the section
            insert_ordered(new_ppr, sect)
    if after:
        start = after[0].run
        if field_depth_before(p, start):
            raise UnsupportedOperationError(f"offset {offset} of {paragraph} falls inside a field (page number, "
                                            "reference...); choose an offset before or after it")
        first = split_up_to(p, start)
        for child in [first, *first.itersiblings()]:
            new.append(child)
    p.addnext(new)
    doc.refresh_ids()
    return f"split {paragraph} at {offset}; the second part is {element_id(new)}"


@api(intent=INTENT,
     description="Merge a paragraph into the paragraph just before it (like deleting the paragraph mark): the "
                 "text of `second` is appended to `first`, which keeps its style; `second` disappears. The two "
                 "must be adjacent in the same story or cell.",
     params={"first": PARAGRAPH_ID, "second": PARAGRAPH_ID,
             "separator": text('text put between the two parts; default: a space for Latin text, nothing for '
                               'Chinese/Japanese or when there already is white space')},
     examples=[{"first": "p4", "second": "p5"},
               Example({"first": "p2", "second": "p3", "separator": "；"}, document="examples/contract_zh.docx")])
def merge_paragraphs(doc: WordDocument, first: str, second: str, separator: str | None = None):
    a, b = doc.find(first, "p"), doc.find(second, "p")
    nxt = a.getnext()
    between = []
    while nxt is not None and nxt.tag not in BLOCKS:
        between.append(nxt)
        nxt = nxt.getnext()
    if nxt is not b:
        after = element_id(nxt) if nxt is not None else None
        raise ArgumentError(f"{second} does not directly follow {first}; the paragraph after {first} is "
                            f"{after or 'none (end of its story or cell)'}")
    if a.find(f"{qn('w:pPr')}/{qn('w:sectPr')}") is not None:
        raise UnsupportedOperationError(f"{first} ends section {section_number(doc, a)}; merging would remove the "
                                        "section break. Remove the section break first")
    left, right = paragraph_text(a), paragraph_text(b)
    sep = (" " if needs_space(left, right) else "") if separator is None else separator
    if sep:
        insert_text(doc, a, len(left), sep)
    for el in between:
        a.append(el)
    for child in list(b):
        if child.tag == PPR:
            sect = child.find(qn("w:sectPr"))
            if sect is not None:
                insert_ordered(get_or_add_ppr(a), sect)
            continue
        a.append(child)
    b.getparent().remove(b)
    return f"merged {second} into {first} ({len(left)} + {len(sep)} + {len(right)} characters)"
