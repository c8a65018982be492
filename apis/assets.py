"""Files an API may read (images to insert) or write (exports): only inside the allowed folders.

An LLM chooses the paths, so a path outside the folders the user allowed is refused: otherwise a
document could be made to embed any file of the machine. Allowed by default: the folder of the
document being edited and the current directory; ``WordDocument.asset_roots`` holds the list.
"""

from __future__ import annotations

from pathlib import Path

from autodw.document import WordDocument
from autodw.errors import ArgumentError


def allowed_roots(doc: WordDocument) -> list[Path]:
    """The folders files may be read from or written to for this document."""
    roots = list(getattr(doc, "asset_roots", None) or [])
    if not roots:
        roots = [Path.cwd()]
        if doc.source is not None:
            roots.append(doc.source.parent)
    return [r.resolve() for r in roots]


def resolve_asset(doc: WordDocument, path: str, *, must_exist: bool = True, what: str = "file") -> Path:
    """`path` resolved (relative paths against the first allowed root), checked to lie in an allowed folder."""
    roots = allowed_roots(doc)
    candidate = Path(path).expanduser()
    if not candidate.is_absolute():
        candidate = roots[0] / candidate
    resolved = candidate.resolve()
    if not any(resolved == r or r in resolved.parents for r in roots):
        raise ArgumentError(f"{what} {path!r} is outside the allowed folders ({', '.join(map(str, roots))})")
    if must_exist and not resolved.is_file():
        raise ArgumentError(f"{what} {path!r} does not exist")
    return resolved
