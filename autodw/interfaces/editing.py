"""A document being edited interactively (the chat session and the MCP server): an undo/redo stack of
snapshots, the changes since the document was opened, unsaved-work tracking, and saving that never
writes over the original unless asked to.

Every edit is recorded with the snapshot taken before it, so undo restores the document exactly.
"""

from __future__ import annotations

import itertools
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, TypeVar

from autodw.analysis.changes import Change, analyze_change
from autodw.core.document import Snapshot, WordDocument
from autodw.core.errors import ConfigError, SessionError
from autodw.core.package import same_file, write_atomically
from autodw.analysis.state import State, extract_state

T = TypeVar("T")


@dataclass(frozen=True)
class Edit:
    """One undoable change: what it was (`label`), the document before it, and the versions it went between."""

    label: str
    before: Snapshot
    before_version: int
    after_version: int


class EditSession:
    """A :class:`WordDocument` with undo/redo. ``version`` names the current content; ``unsaved`` compares it
    with the version last saved (so undoing back to the saved state is not unsaved work)."""

    def __init__(self, doc: WordDocument):
        self.doc = doc
        self.opened = doc.snapshot()
        self._opened_state: State | None = None
        self._undo: list[Edit] = []
        self._redo: list[tuple[Edit, Snapshot]] = []
        self._versions = itertools.count(1)
        self.version = 0
        self.saved_version = 0
        self.saved_path: Path | None = None

    @property
    def unsaved(self) -> bool:
        """True when the document differs from what was last saved (or opened)."""
        return self.version != self.saved_version

    @property
    def last_edit(self) -> Edit | None:
        """The edit :meth:`undo` would take back."""
        return self._undo[-1] if self._undo else None

    def apply(self, label: str, edit: Callable[[WordDocument], T]) -> tuple[T, Edit | None]:
        """Run ``edit(doc)`` as one undoable step. If it raises (KeyboardInterrupt included) the document is
        restored to what it was and the exception re-raised."""
        before = self.doc.snapshot()
        try:
            out = edit(self.doc)
        except BaseException:
            self.doc.restore(before)
            raise
        return out, self.commit(label, before)

    def commit(self, label: str, before: Snapshot) -> Edit | None:
        """Record the change from `before` to now as one undoable edit (clearing redo); None if nothing changed."""
        if self.doc.snapshot().members == before.members:
            return None
        edit = Edit(label, before, self.version, next(self._versions))
        self._undo.append(edit)
        self._redo.clear()
        self.version = edit.after_version
        return edit

    def undo(self) -> Edit:
        """Take back the last edit; SessionError if there is none."""
        if not self._undo:
            raise SessionError("nothing to undo")
        edit = self._undo.pop()
        self._redo.append((edit, self.doc.snapshot()))
        self.doc.restore(edit.before)
        self.version = edit.before_version
        return edit

    def redo(self) -> Edit:
        """Do again the edit last undone; SessionError if there is none (a new edit clears what could be redone)."""
        if not self._redo:
            raise SessionError("nothing to redo")
        edit, after = self._redo.pop()
        self._undo.append(edit)
        self.doc.restore(after)
        self.version = edit.after_version
        return edit

    def changes_since_open(self) -> Change:
        """The change analysis from the document as opened to now (ids are stable within a session)."""
        if self._opened_state is None:
            self._opened_state = self.state_at(self.opened)
        return analyze_change(self._opened_state, extract_state(self.doc))

    def state_at(self, snapshot: Snapshot) -> State:
        """The seven-part state of the document as it was at `snapshot`; the document itself is left as it is."""
        return self._at(snapshot, extract_state)

    def bytes_at(self, snapshot: Snapshot) -> bytes:
        """The .docx bytes of the document as it was at `snapshot` (ids stripped); the document is left as it is."""
        return self._at(snapshot, lambda doc: doc.to_bytes())

    def _at(self, snapshot: Snapshot, read: Callable[[WordDocument], T]) -> T:
        current = self.doc.snapshot()
        self.doc.restore(snapshot)
        try:
            return read(self.doc)
        finally:
            self.doc.restore(current)

    def save(self, path: str | os.PathLike[str], overwrite_original: bool = False) -> Path:
        """Write the document atomically to `path`. The file it was opened from is refused unless
        `overwrite_original`."""
        target = Path(path).resolve()
        source = self.doc.source
        if source is not None and same_file(target, source):
            if not overwrite_original:
                raise ConfigError(f"refusing to overwrite the original {source.name}; choose another path "
                                  "(or ask explicitly to overwrite the original)")
            write_atomically(target, self.doc.to_bytes())
        else:
            self.doc.save(target)
        self.saved_version, self.saved_path = self.version, target
        return target


def default_output(source: Path) -> Path:
    """Where an edited copy goes when no path is given: ``NAME-edited.docx`` beside the original."""
    return source.with_name(f"{source.stem}-edited{source.suffix}")
