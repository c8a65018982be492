"""SEQ fields (caption numbers): the numbers Word gives them in document order, written as their results."""

from __future__ import annotations

import re

from lxml import etree

from autodw.apis.ooxml.lifecycle import iter_fields, set_field_result
from autodw.apis.ooxml.toc import StyleLevels, paragraph_level
from autodw.core.document import WordDocument
from autodw.core.units import format_number
from autodw.core.xml import qn

SEQ = re.compile(r"^SEQ\s+(\S+)(.*)$", re.IGNORECASE)
_FORMATS = {"roman": "lowerRoman", "ROMAN": "upperRoman", "alphabetic": "lowerLetter", "ALPHABETIC": "upperLetter"}


def seq_text(n: int, switches: str) -> str:
    """Number `n` in the field's ``\\*`` format (arabic by default)."""
    m = re.search(r"\\\*\s*(\w+)", switches)
    return format_number(n, _FORMATS.get(m.group(1), "decimal") if m else "decimal")


def renumber_seq_fields(doc: WordDocument, label: str | None = None,
                        since: etree._Element | None = None) -> list[etree._Element]:
    """Set the results of the body's SEQ fields (of sequence `label`, or all) to the numbers Word gives them in
    document order: one more than the previous field of the sequence, ``\\r n`` resets to n, ``\\c`` repeats,
    ``\\s n`` starts again at 1 after each heading of level n or higher. With `since` (the element holding a new
    field), only that field's and later ones' results are written. Returns the paragraphs of the results changed."""
    body_paragraphs = {p: i for i, p in enumerate(doc.body.iter(qn("w:p")))}
    headings: list[tuple[int, int]] | None = None  # (paragraph position, level), read when a \s field needs them
    counters: dict[str, int] = {}
    chapters: dict[str, int] = {}  # sequence -> how many headings of its \s level came before its last field
    writing = since is None
    changed: list[etree._Element] = []
    for field in iter_fields(doc.body):
        m = SEQ.match(field.instruction)
        if not m or (label is not None and m.group(1) != label):
            continue
        name, switches = m.group(1), m.group(2)
        first = field.simple if field.simple is not None else (field.code_runs or field.result_runs)[0]
        p = first if first.tag == qn("w:p") else next(first.iterancestors(qn("w:p")))
        chapter = re.search(r"\\s\s*(\d)", switches)
        if chapter:
            if headings is None:
                levels = StyleLevels(doc)
                headings = [(i, lvl) for q, i in body_paragraphs.items()
                            if (lvl := paragraph_level(q, levels)) is not None]
            seen = sum(1 for i, lvl in headings if i <= body_paragraphs[p] and lvl <= int(chapter.group(1)))
            if chapters.get(name) != seen:
                counters[name], chapters[name] = 0, seen
        reset = re.search(r"\\r\s*(\d+)", switches)
        if reset:
            counters[name] = int(reset.group(1))
        elif not re.search(r"\\c\b", switches):
            counters[name] = counters.get(name, 0) + 1
        writing = writing or p is since or any(a is since for a in first.iterancestors())
        if writing and set_field_result(field, seq_text(counters.get(name, 1), switches)):
            changed.append(p)
    return changed
