"""Files an API may read (images to insert) or write (exports): only inside the allowed folders.

An LLM chooses the paths, so a path outside the folders the user allowed is refused: otherwise a
document could be made to embed any file of the machine. Allowed by default: the folder of the
document being edited and the current directory; ``WordDocument.asset_roots`` holds the list.
"""

from __future__ import annotations

from pathlib import Path

from autodw.document import WordDocument
from autodw.errors import ArgumentError, clipped


def allowed_roots(doc: WordDocument) -> list[Path]:
    """The folders files may be read from or written to for this document."""
    roots = [Path(r) for r in (getattr(doc, "asset_roots", None) or [])]
    if not roots:
        roots = [Path.cwd()]
        if doc.source is not None:
            roots.append(doc.source.parent)
    return [r.resolve() for r in roots]


def resolve_asset(doc: WordDocument, path: str, *, must_exist: bool = True, what: str = "file") -> Path:
    """`path` resolved and checked to lie in an allowed folder; a relative path is looked up in each allowed
    folder in turn (for outputs that need not exist, the first one)."""
    roots = allowed_roots(doc)
    shown = clipped(path, 120)
    try:
        given = Path(path).expanduser()
        candidates = [given] if given.is_absolute() else [root / given for root in roots]
        inside = [c.resolve() for c in candidates if any(c.resolve() == r or r in c.resolve().parents for r in roots)]
        if not inside:
            raise ArgumentError(f"{what} {shown!r} is outside the allowed folders ({', '.join(map(str, roots))})")
        if not must_exist:
            return inside[0]
        found = next((c for c in inside if c.is_file()), None)
    except (ValueError, OSError, RuntimeError) as exc:  # a NUL byte, a name too long, an unknown ~user
        raise ArgumentError(f"{what} {shown!r} is not a usable path: {getattr(exc, 'strerror', None) or exc}") from None
    if found is None:
        raise ArgumentError(f"{what} {shown!r} does not exist in the allowed folders ({', '.join(map(str, roots))})")
    return found
