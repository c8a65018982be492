"""Character-level text editing inside a paragraph, across runs, keeping formatting.

Offsets are those of the paragraph ``text`` in the document state (tabs count as ``\\t``, line
breaks as ``\\n``; deleted tracked text, field codes and text boxes do not count), so a span an
LLM reads off the state is the span edited here.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Any, Iterator

from lxml import etree

from autodw.apis.ooxml.elements import REVISION_MARKS, make
from autodw.core.document import WordDocument
from autodw.core.errors import ArgumentError, UnsupportedOperationError, clipped
from autodw.core.xml import MC, qn

R, T, TAB, BR, CR, NBH = (qn(t) for t in ("w:r", "w:t", "w:tab", "w:br", "w:cr", "w:noBreakHyphen"))
RPR = qn("w:rPr")
_CONTAINERS = {qn(t) for t in ("w:hyperlink", "w:ins", "w:moveTo", "w:smartTag", "w:customXml", "w:fldSimple",
                               "w:dir", "w:bdo")}
_SDT, _SDT_CONTENT = qn("w:sdt"), qn("w:sdtContent")
_FLD_SIMPLE, _HYPERLINK = qn("w:fldSimple"), qn("w:hyperlink")
#: tracked insertions (text in them shows as another author's) and tracked deletions (text in them does not show)
_TRACKED_INS, _DEL = (qn("w:ins"), qn("w:moveTo")), qn("w:del")
#: wrappers a run may sit in inside a tracked insertion, which lifting a run out of it splits
_WRAPPERS = {qn(t) for t in ("w:smartTag", "w:customXml", "w:dir", "w:bdo")}
_WRAPPER_PROPS = {qn("w:smartTagPr"), qn("w:customXmlPr")}
#: run children of deleted text (a run of only these, in a w:del, is deleted text and nothing else)
_DELETED_TEXT = {qn(t) for t in ("w:rPr", "w:delText", "w:tab", "w:br", "w:cr", "w:noBreakHyphen", "w:softHyphen",
                                 "w:sym", "w:lastRenderedPageBreak")}
_RUN_REVISIONS = {qn(t) for t in ("w:ins", "w:del", "w:moveFrom", "w:moveTo", "w:rPrChange")}
_ALT, _CHOICE = f"{{{MC}}}AlternateContent", f"{{{MC}}}Choice"
_XML_SPACE = "{http://www.w3.org/XML/1998/namespace}space"


@dataclass
class Atom:
    """One text-bearing child of a run and the text it shows."""

    run: etree._Element
    el: etree._Element
    text: str
    start: int

    @property
    def end(self) -> int:
        return self.start + len(self.text)


def iter_runs(parent: etree._Element) -> Iterator[etree._Element]:
    """Visible runs of a paragraph in reading order (the same walk as the state reader)."""
    return (el for kind, el in _walk(parent) if kind == "run")


def _walk(parent: etree._Element, links: bool = False) -> Iterator[tuple[str, etree._Element]]:
    """The walk of :func:`iter_runs`: ("run", r) for each visible run, with ("begin", f) and ("end", f) around the
    content of each ``w:fldSimple`` (also when it holds no run), and of each ``w:hyperlink`` when `links`."""
    for child in parent:
        tag = child.tag
        if tag == R:
            yield "run", child
        elif tag in _CONTAINERS:
            edged = tag == _FLD_SIMPLE or (links and tag == _HYPERLINK)
            if edged:
                yield "begin", child
            yield from _walk(child, links)
            if edged:
                yield "end", child
        elif tag == _SDT:
            content = child.find(_SDT_CONTENT)
            if content is not None:
                yield from _walk(content, links)
        elif tag == _ALT:
            choice = child.find(_CHOICE)
            if choice is not None:
                yield from _walk(choice, links)


def atom_text(el: etree._Element) -> str | None:
    """The text a run child shows, or None if it shows none."""
    tag = el.tag
    if tag == T:
        return el.text or ""
    if tag == TAB:
        return "\t"
    if tag == BR:
        return None if el.get(qn("w:type")) in ("page", "column") else "\n"
    if tag == CR:
        return "\n"
    if tag == NBH:
        return "-"
    return None


def atoms(p: etree._Element) -> list[Atom]:
    """Every text atom of paragraph `p` with its offset."""
    out: list[Atom] = []
    pos = 0
    for r in iter_runs(p):
        for el in r:
            s = atom_text(el)
            if s is not None:
                out.append(Atom(r, el, s, pos))
                pos += len(s)
    return out


def paragraph_text(p: etree._Element) -> str:
    """The paragraph's visible text (equal to the state's ``text``)."""
    return "".join(a.text for a in atoms(p))


def resolve_span(p: etree._Element, span: dict[str, Any] | None, pid: str = "paragraph") -> tuple[int, int]:
    """(start, end) of a span argument; None means the whole paragraph."""
    text = paragraph_text(p)
    if span is None:
        return 0, len(text)
    if "match" in span:
        needle = span["match"]
        occurrence = span.get("occurrence", 1)
        starts = [m.start() for m in re.finditer(re.escape(needle), text)]
        if len(starts) < occurrence:
            found = f"it occurs {len(starts)} time(s)" if starts else "it does not occur"
            raise ArgumentError(f"{needle!r} occurrence {occurrence} not found in {pid}: {found}; the text is "
                                f"{_preview(text)}; copy the match from that text, or leave span out for the whole "
                                "paragraph")
        start = starts[occurrence - 1]
        return start, start + len(needle)
    start, end = span["start"], span["end"]
    if not 0 <= start <= end <= len(text):
        raise ArgumentError(f"span {start}-{end} is outside {pid}, whose text has {len(text)} characters: {_preview(text)}")
    return start, end


def _preview(text: str) -> str:
    return repr(clipped(text, 120))


def set_text(el: etree._Element, s: str) -> None:
    """Set a ``w:t``'s text, preserving spaces when they matter."""
    el.text = s
    if s != s.strip() or "  " in s:
        el.set(_XML_SPACE, "preserve")
    elif _XML_SPACE in el.attrib:
        del el.attrib[_XML_SPACE]


def text_elements(s: str) -> list[etree._Element]:
    """``w:t``/``w:tab``/``w:br`` elements showing `s` (tabs and newlines become tabs and breaks)."""
    out: list[etree._Element] = []
    for i, line in enumerate(s.split("\n")):
        if i:
            out.append(make("w:br"))
        for j, piece in enumerate(line.split("\t")):
            if j:
                out.append(make("w:tab"))
            if piece:
                t = make("w:t")
                set_text(t, piece)
                out.append(t)
    return out


def new_run(s: str, rpr: etree._Element | None = None) -> etree._Element:
    """A run showing `s`, with a copy of `rpr` as its formatting."""
    r = make("w:r")
    if rpr is not None:
        r.append(copy.deepcopy(rpr))
    for el in text_elements(s):
        r.append(el)
    return r


def split_at(p: etree._Element, offset: int) -> None:
    """Make sure a run boundary falls at character `offset` of paragraph `p`."""
    runs: dict[int, list[Atom]] = {}
    order: list[etree._Element] = []
    for a in atoms(p):
        if id(a.run) not in runs:
            order.append(a.run)
        runs.setdefault(id(a.run), []).append(a)
    for run in order:
        run_atoms = runs[id(run)]
        if run_atoms[0].start < offset < run_atoms[-1].end:
            _split_run(run, offset - run_atoms[0].start)
            return


def _split_run(r: etree._Element, k: int) -> etree._Element:
    """Split run `r` after its first `k` characters; return the new right-hand run."""
    right = make("w:r")
    for attr, value in r.attrib.items():
        right.set(attr, value)
    rpr = r.find(RPR)
    if rpr is not None:
        right.append(copy.deepcopy(rpr))
    pos = 0
    for child in list(r):
        if child.tag == RPR:
            continue
        s = atom_text(child)
        n = len(s) if s is not None else 0
        if pos >= k:
            right.append(child)
        elif s is not None and pos + n > k:
            cut = k - pos
            tail = make("w:t")
            set_text(tail, s[cut:])
            set_text(child, s[:cut])
            right.append(tail)
        pos += n
    r.addnext(right)
    return right


def isolate(p: etree._Element, start: int, end: int) -> list[etree._Element]:
    """Split runs so that [start, end) is covered by whole runs; return those runs in order."""
    if start >= end:
        return []
    split_at(p, end)
    split_at(p, start)
    out: list[etree._Element] = []
    for a in atoms(p):
        if a.start >= start and a.end <= end and a.text and (not out or out[-1] is not a.run):
            out.append(a.run)
    return out


def remove_text(run: etree._Element) -> None:
    """Remove a run's text atoms; remove the run (and empty containers) if nothing else is left."""
    for child in list(run):
        if atom_text(child) is not None:
            run.remove(child)
    if all(c.tag == RPR for c in run):
        _remove_with_empty_containers(run)


def _remove_with_empty_containers(el: etree._Element) -> None:
    parent = el.getparent()
    parent.remove(el)
    while parent is not None and parent.tag in _CONTAINERS and not any(c.tag != qn("w:rPr") for c in parent):
        grand = parent.getparent()
        grand.remove(parent)
        parent = grand


def replace_span(doc: WordDocument, p: etree._Element, start: int, end: int, new: str,
                 formatting: etree._Element | None = None, *, whole_fields: bool = False) -> None:
    """Replace characters [start, end) with `new`, in the formatting of the first replaced run (an empty span:
    `formatting`, a ``w:rPr``, if given, else that of :func:`insert_text`).

    `whole_fields`: as in Word, a field whose whole shown text the span covers goes with it (its codes too, see
    :func:`covered_fields`); without it, or for a field the span covers part of, the codes stay.

    Tracked changes go as when one types over the span in Word with tracking off: the new text is never part of
    another author's tracked insertion (a ``w:ins``/``w:moveTo`` around the first replaced run is split and the
    new text put between its parts), and the deleted text of tracked deletions inside the span (or at the
    paragraph's edge that the span reaches) is removed with the replaced text. Deleted pictures, fields, note and
    comment marks are not text: they stay tracked deletions (removing half a field would break it)."""
    deleted = _deletions_in(p, start, end)
    covered = covered_fields(p, start, end, keep_links=bool(new)) if whole_fields else []
    if start == end:
        insert_text(doc, p, start, new, formatting=formatting)
    else:
        runs = isolate(p, start, end)
        first = runs[0]
        if _tracked_insertion(first, p) is not None:
            if new:
                lifted = new_run(new, _plain_rpr(first.find(RPR)))
                first.addprevious(lifted)
            for r in runs:
                remove_text(r)
            if new:
                _lift(doc, lifted, p)
        else:
            _replace_in_run(first, new)
            for r in runs[1:]:
                remove_text(r)
    for d in deleted:
        _drop_deleted_text(d)
    for parts in covered:
        _unfield(parts)


def covered_fields(p: etree._Element, start: int, end: int, *,
                   keep_links: bool = False) -> list[list[etree._Element]]:
    """The parts (:func:`field_spans`) of the fields of `p`, in no other field, whose whole shown text (not empty)
    lies in characters [start, end); `keep_links`: not the links (HYPERLINK fields), whose text replaced with other
    text keeps its link, as when one types over a link's text in Word."""
    spans = field_spans(p)  # first: it may split runs, and `links` names the begin runs it leaves
    links = _link_begins(p) if keep_links else set()
    return [parts for fs, fe, parts in spans if start <= fs < fe <= end and id(parts[0]) not in links]


def _replace_in_run(first: etree._Element, new: str) -> None:
    """Put `new` where the text of run `first` is (its other children stay around it)."""
    keep_after = next((c for c in first if atom_text(c) is not None), None)
    anchor = keep_after.getprevious() if keep_after is not None else None
    for child in list(first):
        if atom_text(child) is not None:
            first.remove(child)
    pieces = text_elements(new)
    for el in reversed(pieces):
        if anchor is not None:
            anchor.addnext(el)
        else:
            first.insert(1 if first.find(RPR) is not None else 0, el)
    if not pieces and all(c.tag == RPR for c in first):
        _remove_with_empty_containers(first)


def insert_text(doc: WordDocument, p: etree._Element, offset: int, new: str, *, at_end: bool = False,
                formatting: etree._Element | None = None) -> etree._Element | None:
    """Insert `new` at `offset`, formatted like the text just before it (or after it at offset 0); never inside
    another author's tracked insertion. `at_end`: `offset` is the paragraph's end and the text goes after all of it,
    fields included, even when the paragraph has no text (a cell holding only a check box: "add 'yes' at the end").

    At a field's edge the text goes outside the field, on the side the offset names: at the start of a field's
    result before the field, at its end after it (an empty result: before it, unless no text follows, e.g. at
    the end of ``abc`` + field; an empty paragraph's offset 0 is before its fields). Text goes inside a field's
    result only at an offset strictly within that result's text. Hyperlinks (``w:hyperlink`` and HYPERLINK
    fields) count as fields: text at a link's end goes after the link, in the formatting of the text around the
    link (before it, else after it), not the link's look, as typing after a link in Word. `formatting` (a
    ``w:rPr``), if given, is the new text's formatting instead."""
    if not new:
        return None
    anchor, side, rpr = insertion_point(p, offset, at_end=at_end)
    run = new_run(new, rpr if formatting is None else formatting if len(formatting) else None)
    if anchor is None:
        p.append(run)
    elif side == "after":
        anchor.addnext(run)
    else:
        anchor.addprevious(run)
    _lift(doc, run, p)
    return run


def formatting_at(p: etree._Element, offset: int) -> etree._Element | None:
    """A copy of the run properties text inserted at `offset` of `p` takes (see :func:`insert_text`)."""
    return insertion_point(p, offset)[2]


def insertion_point(p: etree._Element, offset: int, *,
                    at_end: bool = False) -> tuple[etree._Element | None, str, etree._Element | None]:
    """Where content inserted at `offset` of `p` goes, as :func:`insert_text` places text (`at_end` as there):
    (anchor, "before"/"after", a copy of the run properties new text takes); anchor None: append to `p`. Splits runs
    so that a boundary falls there."""
    split_at(p, offset)
    _separate_field_chars(p)
    anchor, side, ref, outside_link = _insertion_point(p, offset, at_end)
    if ref is None:
        return anchor, side, _paragraph_mark_rpr(p)
    rpr = _plain_rpr(ref.find(RPR))
    return anchor, side, without_link_look(rpr) if outside_link and rpr is not None else rpr


def without_link_look(rpr: etree._Element) -> etree._Element:
    """`rpr` without what makes text look like a link: its character style, colour and underline."""
    for old in [*rpr.findall(qn("w:rStyle")), *rpr.findall(qn("w:color")), *rpr.findall(qn("w:u"))]:
        rpr.remove(old)
    return rpr


_FLD_CHAR = qn("w:fldChar")


def _field_edge(el: etree._Element) -> str | None:
    """The kind of `el` if it is a complex field's begin or end ``w:fldChar`` ("begin", "end"), else None."""
    kind = el.get(qn("w:fldCharType")) if el.tag == _FLD_CHAR else None
    return kind if kind in ("begin", "end") else None


def _field_tokens(p: etree._Element) -> list[tuple[str, Any]]:
    """The paragraph in reading order (:func:`_walk`) as tokens: ("text", run) for a run showing text, ("begin", el) /
    ("end", el) for a field's or link's start and end: the run of a complex field's begin/end ``w:fldChar`` (a run
    holding no text: see :func:`_separate_field_chars`), or a ``w:fldSimple`` or ``w:hyperlink`` (its runs between
    its begin and end)."""
    out: list[tuple[str, Any]] = []
    for kind, el in _walk(p, links=True):
        if kind != "run":
            out.append((kind, el))
            continue
        out.extend((edge, el) for edge in map(_field_edge, el) if edge)
        if any(atom_text(c) for c in el):
            out.append(("text", el))
    return out


def _separate_field_chars(p: etree._Element) -> None:
    """Give each begin/end ``w:fldChar`` of `p` that shares its run with text a run of its own (split off with
    the run's formatting), so that text can go on either side of it."""
    for r in list(iter_runs(p)):
        kids = [c for c in r if c.tag != RPR]
        if not any(_field_edge(c) for c in kids) or not any(atom_text(c) for c in kids):
            continue
        groups: list[list[etree._Element]] = []
        for c in kids:
            if not groups or _field_edge(c) or _field_edge(groups[-1][-1]):
                groups.append([c])
            else:
                groups[-1].append(c)
        rpr = r.find(RPR)
        for group in reversed(groups[1:]):
            piece = make("w:r")
            for attr, value in r.attrib.items():
                piece.set(attr, value)
            if rpr is not None:
                piece.append(copy.deepcopy(rpr))
            piece.extend(group)
            r.addnext(piece)


def field_spans(p: etree._Element) -> list[tuple[int, int, list[etree._Element]]]:
    """The fields of `p` in no other field, in reading order: (start, end) of the text they show, and what makes them
    up (a ``w:fldSimple`` and its runs; a complex field's runs from its begin to its end, whose begin/end runs hold
    no text after this: see :func:`_separate_field_chars`)."""
    _separate_field_chars(p)
    out: list[tuple[int, int, list[etree._Element]]] = []
    depth = pos = start = 0
    parts: list[etree._Element] = []
    for kind, el in _walk(p):
        edges = [kind] if kind != "run" else [e for e in map(_field_edge, el) if e]
        if depth == 0 and edges[:1] == ["begin"]:
            start, parts = pos, []
        if depth or edges[:1] == ["begin"]:
            parts.append(el)
        for edge in edges:
            depth = depth + 1 if edge == "begin" else max(depth - 1, 0)
            if depth == 0 and parts:
                out.append((start, pos, list(dict.fromkeys(parts))))
                parts = []
        if kind == "run":
            pos += sum(len(s) for s in map(atom_text, el) if s)
    return out


def retype(doc: WordDocument, p: etree._Element, new: str) -> None:
    """Replace the whole text of `p` with `new`, as :func:`replace_span` does, except that a field (in no other field,
    showing text) whose text `new` keeps stays a field (:func:`_field_place`). The text around it is replaced; the
    other fields become plain text first. Text added where there was none (after a kept field) takes the formatting
    of the first run outside the kept fields, as the rest of the new text does, not that of a field's result beside it."""
    old = paragraph_text(p)
    blocks = SequenceMatcher(None, old, new, autojunk=False).get_matching_blocks()
    kept: list[tuple[int, int, int]] = []
    for start, end, parts in field_spans(p):
        after = kept[-1][2] + kept[-1][1] - kept[-1][0] if kept else 0
        at = _field_place(old, start, end, new, blocks, after) if start < end else None
        if at is not None:
            kept.append((start, end, at))
        elif start < end:
            _unfield(parts)
    gaps, old_at, new_at = [], 0, 0
    for start, end, at in kept:
        gaps.append((old_at, start, new[new_at:at]))
        old_at, new_at = end, at + end - start
    gaps.append((old_at, len(old), new[new_at:]))
    first = next((a.run for a in atoms(p) if a.text and not any(fs <= a.start < fe for fs, fe, _ in kept)), None)
    formatting = _plain_rpr(first.find(RPR)) if first is not None and kept else None
    if first is not None and kept and formatting is None:
        formatting = make("w:rPr")  # a run of no formatting of its own: plain text
    for start, end, text in reversed(gaps):
        replace_span(doc, p, start, end, text, formatting)


def _field_place(old: str, start: int, end: int, new: str, blocks: list, after: int) -> int | None:
    """Where in `new`, at or after offset `after` (the end of the field kept before it), the field showing
    old[start:end] stays: where a diff of the two texts (`blocks`, matching blocks) puts its text, else the first
    place the text occurs (it moved); never with a letter or digit newly glued to it (:func:`_glued`). None: the new
    text does not keep it there (it is gone, or only before the field kept before it)."""
    at = next((b + start - a for a, b, size in blocks if a <= start and end <= a + size), None)
    if at is not None and at >= after and not _glued(old, start, end, new, at):
        return at
    shown, at = old[start:end], new.find(old[start:end], after)
    while at >= 0 and _glued(old, start, end, new, at):
        at = new.find(shown, at + 1)
    return at if at >= 0 else None


def _glued(old: str, start: int, end: int, new: str, at: int) -> bool:
    """Whether in `new` a letter or digit touches the text old[start:end] (found at `at`) that did not touch it."""
    stop = at + end - start
    before, after = new[at - 1:at], new[stop:stop + 1]
    return (before.isalnum() and before != old[start - 1:start]) or (after.isalnum() and after != old[end:end + 1])


def _unfield(parts: list[etree._Element]) -> None:
    """Turn a field (:func:`field_spans`' parts) into the plain text it shows: its codes go, its result stays."""
    codes = {_FLD_CHAR, qn("w:instrText"), qn("w:fldData")}
    for el in parts:
        if el.tag == _FLD_SIMPLE and el.getparent() is not None:
            for child in list(el):
                if child.tag not in codes:
                    el.addprevious(child)
            el.getparent().remove(el)
        elif el.tag == R:
            for child in [c for c in el if c.tag in codes]:
                el.remove(child)
            if el.getparent() is not None and all(c.tag == RPR for c in el):
                _remove_with_empty_containers(el)


def _link_begins(p: etree._Element) -> set[int]:
    """The ids of the begin tokens (:func:`_field_tokens`) of `p`'s links: its ``w:hyperlink`` elements, its HYPERLINK
    ``w:fldSimple`` elements and the begin runs of its HYPERLINK complex fields."""
    out: set[int] = set()
    codes: list[tuple[etree._Element, list[str]] | None] = []  # open complex fields; None once past their code
    for kind, el in _walk(p, links=True):
        if kind == "begin" and (el.tag == _HYPERLINK or _is_link(el.get(qn("w:instr")))):
            out.add(id(el))
        if kind != "run":
            continue
        for c in el:
            edge = c.get(qn("w:fldCharType")) if c.tag == _FLD_CHAR else None
            if edge == "begin":
                codes.append((el, []))
            elif edge in ("separate", "end") and codes:
                top = codes.pop()
                if top is not None and _is_link("".join(top[1])):
                    out.add(id(top[0]))
                if edge == "separate":
                    codes.append(None)
            elif c.tag == qn("w:instrText") and codes and codes[-1] is not None:
                codes[-1][1].append(c.text or "")
    return out


def _is_link(instruction: str | None) -> bool:
    return (instruction or "").strip().upper().startswith("HYPERLINK")


def _insertion_point(p: etree._Element, offset: int,
                     at_end: bool = False) -> tuple[etree._Element | None, str, etree._Element | None, bool]:
    """(anchor, "before"/"after", run whose formatting new text takes, whether that run is in a link the new text is
    outside of) for text inserted at `offset` of `p` (a run boundary already falls there); anchor None: append to
    `p`. Of the places between the text before the offset and the text after it, the one inside the fewest fields
    and links (see :func:`insert_text`; the last such place when no text follows and some precedes, or `at_end`). Outside a link, the text takes the formatting of the nearest text outside
    it (before the place, else after it); of the link's own text only when there is none."""
    tokens = _field_tokens(p)
    ends = {id(a.run): a.end for a in atoms(p) if a.text}
    first = last = None  # tokens[first + 1:last] lie between the text before `offset` and the text after it
    for i, (kind, el) in enumerate(tokens):
        if kind == "text" and ends[id(el)] <= offset:
            first = i
        elif kind == "text" and last is None:
            last = i
    lo = 0 if first is None else first + 1
    hi = len(tokens) if last is None else last
    # slot k (lo <= k <= hi) lies just before tokens[k]; its depth counts the fields open there
    depth = sum(1 if kind == "begin" else -1 if kind == "end" else 0 for kind, _ in tokens[:lo])
    depths = []
    for k in range(lo, hi + 1):
        depths.append(depth)
        if k < hi:
            depth += 1 if tokens[k][0] == "begin" else -1 if tokens[k][0] == "end" else 0
    least = min(depths)
    slots = [lo + j for j, d in enumerate(depths) if d == least]
    slot = slots[-1] if (first is not None or at_end) and last is None else slots[0]
    ref = tokens[first][1] if first is not None else tokens[last][1] if last is not None else None
    ref, outside_link = _formatting_run(p, tokens, slot, ref)
    if slot > lo or first is not None:  # just after the token before the slot (text before it, or a field's end)
        return tokens[slot - 1][1], "after", ref, outside_link
    if slot < len(tokens):  # just before the token after it (the text after the offset, or a field's start)
        return tokens[slot][1], "before", ref, outside_link
    return None, "after", ref, outside_link


def _formatting_run(p: etree._Element, tokens: list[tuple[str, Any]], slot: int,
                    ref: etree._Element | None) -> tuple[etree._Element | None, bool]:
    """(run, in a link `slot` is outside of): `ref`, the text next to the slot, unless it lies in a link the slot
    is outside of; then the nearest text before the slot, else after it, in no such link."""
    links = _link_begins(p)
    stack: list[etree._Element] = []
    open_links: list[frozenset[int]] = []  # open_links[k]: the links open just before tokens[k]
    for kind, el in tokens:
        open_links.append(frozenset(id(b) for b in stack if id(b) in links))
        if kind == "begin":
            stack.append(el)
        elif kind == "end" and stack:
            stack.pop()
    here = frozenset(id(b) for b in stack if id(b) in links) if slot == len(tokens) else open_links[slot]
    texts = [k for k, (kind, _) in enumerate(tokens) if kind == "text"]
    by_ref = [k for k in texts if tokens[k][1] is ref]
    if not by_ref or open_links[by_ref[0]] <= here:
        return ref, False
    for k in [*reversed([k for k in texts if k < slot]), *(k for k in texts if k >= slot)]:
        if open_links[k] <= here:
            return tokens[k][1], False
    return ref, True


def _plain_rpr(rpr: etree._Element | None) -> etree._Element | None:
    """A copy of run properties without their tracked-change records."""
    if rpr is None:
        return None
    out = copy.deepcopy(rpr)
    for child in list(out):
        if child.tag in _RUN_REVISIONS:
            out.remove(child)
    return out


def _tracked_insertion(run: etree._Element, p: etree._Element) -> etree._Element | None:
    """The tracked insertion (``w:ins``/``w:moveTo``) of paragraph `p` that `run` lies in, if any."""
    for anc in run.iterancestors():
        if anc is p:
            return None
        if anc.tag in _TRACKED_INS:
            return anc
    return None


def _lift(doc: WordDocument, run: etree._Element, p: etree._Element) -> None:
    """Take `run` out of the tracked insertion it lies in (if any): the insertion is split into the part before
    the run and the part after it (which gets a revision id of its own), the run stays between them."""
    ins = _tracked_insertion(run, p)
    if ins is None:
        return
    node = run
    while True:
        parent = node.getparent()
        if parent is not ins and parent.tag not in _WRAPPERS:
            raise UnsupportedOperationError(
                "the text lies in a content control or field inside another author's tracked insertion; accept or "
                "reject that change first (resolve_tracked_changes)")
        after = list(node.itersiblings())
        if after:
            tail = _shallow_copy(parent)
            parent.addnext(tail)
            tail.extend(after)
            if parent is ins:
                tail.set(qn("w:id"), _unused_revision_id(doc))
        if any(s.tag not in _WRAPPER_PROPS for s in node.itersiblings(preceding=True)):
            middle = _shallow_copy(parent)
            parent.addnext(middle)
            middle.append(node)
            parent = middle
        node = parent
        if parent.tag in _TRACKED_INS:
            break
    node.addprevious(run)
    node.getparent().remove(node)


def _shallow_copy(el: etree._Element) -> etree._Element:
    out = etree.Element(el.tag, nsmap=el.nsmap)
    for attr, value in el.attrib.items():
        out.set(attr, value)
    return out


def _unused_revision_id(doc: WordDocument) -> str:
    """A revision id (``w:id`` of a tracked change) that no part of `doc` uses."""
    used = [int(v) for part in doc.package.iter_parts() if hasattr(part, "_element")
            for e in part._element.iter(*REVISION_MARKS) if (v := e.get(qn("w:id"), "")).isdigit()]
    return str(max([0, *used]) + 1)


def _deletions_in(p: etree._Element, start: int, end: int) -> list[etree._Element]:
    """The tracked deletions (``w:del``) of paragraph `p` inside [start, end): those between its characters, and
    those at the paragraph's start or end when the span reaches it (the whole paragraph: all of them)."""
    length = len(paragraph_text(p))
    if start == end and length:
        return []
    found: list[tuple[etree._Element, int]] = []
    _walk_deletions(p, 0, found)
    return [d for d, pos in found
            if start < pos < end or (pos == start == 0) or (pos == end == length)]


def _walk_deletions(parent: etree._Element, pos: int, found: list[tuple[etree._Element, int]]) -> int:
    """Collect the w:del children met in reading order with the text offset where each sits; return the offset
    after `parent` (the walk of :func:`iter_runs`)."""
    for child in parent:
        tag = child.tag
        if tag == R:
            pos += sum(len(s) for s in (atom_text(c) for c in child) if s is not None)
        elif tag == _DEL:
            found.append((child, pos))
        elif tag in _CONTAINERS:
            pos = _walk_deletions(child, pos, found)
        elif tag == _SDT:
            content = child.find(_SDT_CONTENT)
            if content is not None:
                pos = _walk_deletions(content, pos, found)
        elif tag == _ALT:
            choice = child.find(_CHOICE)
            if choice is not None:
                pos = _walk_deletions(choice, pos, found)
    return pos


def _drop_deleted_text(deletion: etree._Element) -> None:
    """Remove the runs of a tracked deletion that hold only deleted text; the deletion too if nothing is left."""
    for r in list(deletion.iter(R)):
        if all(c.tag in _DELETED_TEXT for c in r if isinstance(c.tag, str)):
            r.getparent().remove(r)
    if not any(isinstance(c.tag, str) for c in deletion.iter() if c is not deletion):
        deletion.getparent().remove(deletion)


def _paragraph_mark_rpr(p: etree._Element) -> etree._Element | None:
    """Run properties of the paragraph mark, as a ``w:rPr`` (new text in an empty paragraph looks like it)."""
    mark = p.find(f"{qn('w:pPr')}/{qn('w:rPr')}")
    if mark is None:
        return None
    rpr = make("w:rPr")
    for child in mark:
        if child.tag not in (qn("w:ins"), qn("w:del"), qn("w:moveFrom"), qn("w:moveTo"), qn("w:rPrChange")):
            rpr.append(copy.deepcopy(child))
    return rpr


def find_matches(text: str, query: str, *, regex: bool = False, match_case: bool = True,
                 whole_word: bool = False) -> list[tuple[int, int, str]]:
    """(start, end, matched text) of every non-overlapping match of `query` in `text`."""
    pattern = query if regex else re.escape(query)
    if whole_word:
        pattern = rf"(?<!\w)(?:{pattern})(?!\w)"
    try:
        compiled = re.compile(pattern, 0 if match_case else re.IGNORECASE)
    except re.error as exc:
        raise ArgumentError(f"invalid regular expression {query!r}: {exc}") from None
    return [(m.start(), m.end(), m.group(0)) for m in compiled.finditer(text) if m.end() > m.start()]


def text_runs(p: etree._Element) -> list[etree._Element]:
    """Runs of `p` that show text, in order."""
    runs: list[etree._Element] = []
    for a in atoms(p):
        if a.text and (not runs or runs[-1] is not a.run):
            runs.append(a.run)
    return runs


def recase(s: str, case: str, at_sentence_start: bool) -> str:
    """`s` in `case`, character for character (letters whose case form has another length stay)."""
    out = []
    new_word = True
    new_sentence = at_sentence_start
    for ch in s:
        if case == "upper":
            c = ch.upper()
        elif case == "lower":
            c = ch.lower()
        elif case == "toggle":
            c = ch.lower() if ch.isupper() else ch.upper()
        elif case == "title":
            c = ch.upper() if new_word else ch.lower()
        else:
            c = ch.upper() if new_sentence and ch.isalpha() else ch.lower()
        out.append(c if len(c) == 1 else ch)
        if ch.isalnum():
            new_word = False
            new_sentence = False
        else:
            new_word = ch not in "'’"
            if ch in ".!?。！？":
                new_sentence = True
    return "".join(out)


def needs_space(left: str, right: str) -> bool:
    """Whether joining `left` and `right` needs a space between them (none around CJK text or existing space)."""
    if not left or not right or left[-1].isspace() or right[0].isspace():
        return False
    return not (has_cjk(left[-1]) or has_cjk(right[0]))


_CJK = re.compile("[\u1100-\u11ff\u2e80-\u9fff\u3000-\u303f\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]")


def has_cjk(s: str) -> bool:
    """True if `s` holds Chinese, Japanese or Korean characters (or full-width punctuation)."""
    return bool(_CJK.search(s))
