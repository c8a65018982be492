"""Files an API may read (images to insert) or write (exports): only inside the allowed folders.

An LLM chooses the paths, so a path outside the folders the user allowed is refused: otherwise a
document could be made to embed any file of the machine. Allowed by default: the folder of the
document being edited and the current directory; ``WordDocument.asset_roots`` holds the list.
"""

from __future__ import annotations

from pathlib import Path

from autodw.core.document import WordDocument
from autodw.core.errors import ArgumentError
from autodw.core.paths import resolve_inside


def allowed_roots(doc: WordDocument) -> list[Path]:
    """The folders files may be read from or written to for this document."""
    roots = [Path(r) for r in (getattr(doc, "asset_roots", None) or [])]
    if not roots:
        roots = [Path.cwd()]
        if doc.source is not None:
            roots.append(doc.source.parent)
    return list(dict.fromkeys(r.resolve() for r in roots))  # each once (the document's folder may be the current one)


def resolve_asset(doc: WordDocument, path: str, *, must_exist: bool = True, what: str = "file") -> Path:
    """`path` resolved and checked to lie in an allowed folder; a relative path is looked up in each allowed
    folder in turn (for outputs that need not exist, the first one)."""
    return resolve_inside(path, allowed_roots(doc), must_exist=must_exist, error=ArgumentError, what=what)
