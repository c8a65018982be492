"""Redlines: the edits between two documents as native Word tracked changes, and a check of what they carry.

The comparison itself is done by Docxodus (python-redlines' ``DocxodusEngine``, a self-contained .NET
binary shipped inside the ``python-redlines-docxodus`` wheel), chosen by measurement over
jubarte-redlines, docx-trackdiff and docx-redline (a one-off study, docs/measurements-history.md: "One-off
studies" and "Redlines: engine and timings"), with two repairs of what it gets wrong (:func:`with_new_styles`,
:func:`complete_row_properties`).
What no engine does is say which edits its redline leaves out, so :func:`check_redline`
accepts and rejects every change with autodw's own resolver and compares the resulting states with
the edited and the original document: whatever differs is reported instead of silently dropped.
"""

from __future__ import annotations

import copy
import hashlib
import os
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING

from lxml import etree

from autodw.analysis.align import align_ids
from autodw.apis.ooxml.lifecycle import change_roots, resolve_changes
from autodw.analysis.change_summary import summarize_change
from autodw.analysis.changes import analyze_change, has_changes
from autodw.core import DEFAULT_AUTHOR
from autodw.core.document import WordDocument
from autodw.core.errors import ConfigError, RedlineError
from autodw.core.package import check_extension, read_input, read_package_bytes, same_file, write_atomically, zip_members
from autodw.analysis.state import State, extract_state
from autodw.core.xml import NOT_IN_XML, qn

if TYPE_CHECKING:
    from autodw.interfaces.editing import EditSession

#: state keys that differ between a redline and a clean document by design, not by content
_IGNORED_INFO = ("track_changes",)


@dataclass(frozen=True)
class RedlineCheck:
    """What accepting / rejecting every change of a redline gives, against the edited / original state.

    Each list holds one line per state difference (empty: the redline carries every edit). `pending` counts the
    tracked changes the inputs already held, by author: the engine compares the documents with them accepted."""

    not_shown: list[str] = field(default_factory=list)
    not_restored: list[str] = field(default_factory=list)
    pending: dict[str, int] = field(default_factory=dict)

    @property
    def complete(self) -> bool:
        """Whether the redline carries every edit both ways: accepting gives the edited state, rejecting the original."""
        return not self.not_shown and not self.not_restored

    def notes(self) -> list[str]:
        """Console notes naming what the redline leaves out (empty when it carries everything)."""
        out = []
        if self.pending:
            who = ", ".join(f"{n} by {author}" for author, n in self.pending.items())
            out.append(f"the documents already held tracked changes ({who}); the redline shows them as accepted, "
                       "so rejecting every change gives the original with those changes accepted")
        if self.not_shown:
            out.append("the redline does not show these edits as tracked changes (they are in the edited file; "
                       "accepting every change does not give it): " + "; ".join(self.not_shown))
        if self.not_restored:
            out.append("rejecting every change of the redline does not give back the original here: "
                       + "; ".join(self.not_restored))
        return out


def redline_bytes(original: bytes, edited: bytes, author: str = DEFAULT_AUTHOR, date: datetime | None = None) -> bytes:
    """The original document with the edits of `edited` as tracked changes by `author`, dated `date` (now in UTC)."""
    if not author.strip():
        raise ConfigError("the redline author must not be empty")
    if bad := NOT_IN_XML.search(author):
        raise ConfigError(f"the redline author holds a character a document cannot contain (U+{ord(bad.group()):04X})")
    when = (date or datetime.now(timezone.utc)).astimezone(timezone.utc).replace(microsecond=0)
    try:
        from python_redlines import DocxodusEngine
        from python_redlines.engines import EngineExecutionError, EngineNotInstalledError
    except ImportError:  # a broken install, never silently another engine
        raise ConfigError("redlines need python-redlines[docxodus]: pip install 'python-redlines[docxodus]==2.0.0'") from None
    try:
        engine = DocxodusEngine()
    except (EngineNotInstalledError, OSError) as exc:
        raise ConfigError(f"the Docxodus comparison engine is not usable on this machine: {exc}") from None
    try:
        data, _out, _err = engine.run_redline(author, with_new_styles(original, edited), edited, detect_moves=True,
                                              date_time=when.strftime("%Y-%m-%dT%H:%M:%SZ"))
    except EngineExecutionError as exc:
        raise RedlineError(f"the comparison engine failed (exit {exc.returncode}): "
                           f"{(exc.stderr or exc.stdout or '').strip()[:300]}") from None
    if not data:
        raise RedlineError("the comparison engine wrote an empty redline")
    return complete_row_properties(data)


_STYLES = "word/styles.xml"


def with_new_styles(original: bytes, edited: bytes) -> bytes:
    """The original with the style definitions the edited document added (unused there, so it reads the same).

    Docxodus drops a paragraph's or run's new style from the redline when the original does not define that
    style (its redline then shows "Heading 2" or a style made by create_style as Normal, untracked). Given the
    definitions up front, it keeps the reference and tracks the change."""
    before, after = dict(read_package_bytes(original, "original").members), read_package_bytes(edited, "edited").members
    if _STYLES not in before or _STYLES not in after:
        return original
    parser = etree.XMLParser(resolve_entities=False, huge_tree=True)
    root, new_root = etree.fromstring(before[_STYLES], parser), etree.fromstring(after[_STYLES], parser)
    known = {style.get(qn("w:styleId")) for style in root.iter(qn("w:style"))}
    added = [style for style in new_root.iter(qn("w:style")) if style.get(qn("w:styleId")) not in known]
    if not added:
        return original
    root.extend(copy.deepcopy(style) for style in added)
    before[_STYLES] = etree.tostring(root, xml_declaration=True, encoding="UTF-8", standalone=True)
    return zip_members(before)


_ROW_CHANGES = {qn("w:ins"), qn("w:del"), qn("w:trPrChange")}


def complete_row_properties(data: bytes) -> bytes:
    """Give every row property element that holds only a tracked change a neutral property first.

    Docxodus, jubarte and docx-redline all mark an inserted or deleted table row as
    ``<w:trPr><w:ins .../></w:trPr>``, but the schema of ``w:trPr`` (as the Open XML SDK validates it) wants at
    least one row property before the change marks. ``<w:cantSplit w:val="off"/>`` states the default (the row
    may break across pages), so the document looks and behaves the same. Parts without such rows are left byte for byte."""
    members = dict(read_package_bytes(data, "redline").members)
    changed = False
    for name, blob in members.items():
        if not (name.startswith("word/") and name.endswith(".xml")) or b"trPr>" not in blob:
            continue
        root = etree.fromstring(blob, etree.XMLParser(resolve_entities=False, huge_tree=True))
        rows = [trpr for trpr in root.iter(qn("w:trPr"))
                if len(trpr) and all(not isinstance(c.tag, str) or c.tag in _ROW_CHANGES for c in trpr)]
        for trpr in rows:
            trpr.insert(0, etree.Element(qn("w:cantSplit"), {qn("w:val"): "off"}))
        if rows:
            members[name] = etree.tostring(root, xml_declaration=True, encoding="UTF-8", standalone=True)
            changed = True
    return zip_members(members) if changed else data


def resolve_all(data: bytes, accept: bool) -> WordDocument:
    """The document with every tracked change accepted (or rejected), by autodw's own resolver."""
    doc = WordDocument.from_bytes(data, "redline")
    resolve_changes(change_roots(doc), accept)
    return WordDocument.from_bytes(doc.to_bytes(), "resolved redline")


def comparable_state(doc: WordDocument) -> State:
    """The document state with what a redline changes by design left out: the tracked changes themselves and the
    Track Changes setting; pictures are named by a digest of their bytes, not by their part name."""
    state = extract_state(doc)
    state["interactive"]["tracked_changes"] = []
    for key in _IGNORED_INFO:
        state["document_info"].pop(key, None)
    blobs = {str(p.partname).rsplit("/", 1)[-1]: p.blob for p in doc.package.iter_parts()
             if str(p.partname).startswith("/word/media/")}
    for image in state["images"]:
        blob = blobs.get(image.get("file") or "")
        if blob is not None:
            image["file"] = hashlib.sha256(blob).hexdigest()[:16]
    return state


def state_differences(expected: State, actual: State, max_lines: int = 12) -> list[str]:
    """The differences between two comparable states as summary lines (empty when they are equal)."""
    change = analyze_change(expected, align_ids(expected, actual))
    return summarize_change(change, max_lines=max_lines).splitlines() if has_changes(change) else []


def check_redline(original: bytes, edited: bytes, redline: bytes) -> RedlineCheck:
    """Accept-all of `redline` against `edited` and reject-all against `original`, as state differences.

    Tracked changes the inputs already hold are taken as accepted on both sides (the engine does the same)."""
    pending: dict[str, int] = {}
    for data in (original, edited):  # per author, the larger count of the two inputs
        counts = Counter(c.get("author") or "?" for c in
                         extract_state(WordDocument.from_bytes(data))["interactive"]["tracked_changes"])
        pending.update({a: max(n, pending.get(a, 0)) for a, n in counts.items()})
    shown = comparable_state(resolve_all(redline, accept=True))
    restored = comparable_state(resolve_all(redline, accept=False))
    expected = comparable_state(resolve_all(edited, accept=True)) if pending else \
        comparable_state(WordDocument.from_bytes(edited, "edited"))
    before = comparable_state(resolve_all(original, accept=True)) if pending else \
        comparable_state(WordDocument.from_bytes(original, "original"))
    return RedlineCheck(not_shown=state_differences(expected, shown), not_restored=state_differences(before, restored),
                        pending=pending)


@dataclass(frozen=True)
class RedlineResult:
    """A written redline and its check."""

    path: Path
    check: RedlineCheck


def write_redline(original: str | os.PathLike[str], edited: str | os.PathLike[str], out: str | os.PathLike[str],
                  author: str = DEFAULT_AUTHOR, date: datetime | None = None, check: bool = True) -> RedlineResult:
    """Compare two .docx files and write the redline to `out` atomically (never over either input).

    Both inputs are opened and validated first, so a bad file gives its typed DocumentError.
    """
    target = Path(out).resolve()
    for given in (original, edited):
        if same_file(target, given):
            raise ConfigError(f"refusing to overwrite the input file {given}; choose another output path")
    opened = [WordDocument.open(given) for given in (original, edited)]  # a typed DocumentError for a bad file
    check_extension(target, opened[0].main_content_type)  # the redline is the original with tracked changes
    return write_redline_of_bytes(read_input(original), read_input(edited), target, author, date, check)


def write_session_redline(session: EditSession, out: str | os.PathLike[str], author: str | None = None) -> RedlineResult:
    """The redline of an editing session (the document as opened, with every edit since) written to `out`: a new
    .docx path, never the file the session was opened from; the changes by `author`, by default the document's
    (:attr:`WordDocument.author`, who its new comments are by)."""
    target = Path(out).resolve()
    source = session.doc.source
    if target.suffix.lower() != session.doc.extension or (source is not None and same_file(target, source)):
        raise ConfigError(f"write the redline to a new {session.doc.extension} path, not {Path(out).name!r}")
    return write_redline_of_bytes(session.bytes_at(session.opened), session.doc.to_bytes(), target,
                                  session.doc.author if author is None else author)


def write_redline_of_bytes(before: bytes, after: bytes, out: str | os.PathLike[str], author: str = DEFAULT_AUTHOR,
                           date: datetime | None = None, check: bool = True) -> RedlineResult:
    """The redline of two documents given as .docx bytes (an editing session's start and now), written to `out`
    atomically; the caller makes sure `out` is not a file it must keep and has the extension of `before`'s kind."""
    target = Path(out).resolve()
    data = redline_bytes(before, after, author=author, date=date)
    result = check_redline(before, after, data) if check else RedlineCheck()
    write_atomically(target, data)
    return RedlineResult(target, result)
