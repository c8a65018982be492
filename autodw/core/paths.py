"""Paths: where autodw keeps generated files (trained models, converted backbones, GGUF files), and a path a
user or a model gives resolved inside the folders it may touch."""

from __future__ import annotations

import os
import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, Sequence

from autodw.core.errors import AutodwError, clipped


def data_home() -> Path:
    """``$AUTODW_HOME`` or ``~/.cache/autodw``: generated, never committed, safe to delete."""
    root = os.environ.get("AUTODW_HOME")
    return Path(root).expanduser() if root else Path.home() / ".cache" / "autodw"


def repo_root() -> Path:
    """The source checkout (examples/, dwbench data) when installed in editable mode."""
    return Path(__file__).resolve().parents[2]


def resolve_inside(given: str, roots: Sequence[Path], *, must_exist: bool, error: type[AutodwError],
                   what: str = "file") -> Path:
    """`given` resolved (symlinks followed) and checked to lie in one of the resolved folders `roots`; a relative
    path is looked up in each root in turn (a path that need not exist: in the first). `error`, the caller's type,
    if it lies outside them, is missing or a folder where a file must exist, or is no usable path."""
    shown, where = clipped(given, 120), ", ".join(map(str, roots))
    folders = f"the allowed folder{'s' if len(roots) > 1 else ''} ({where})"
    try:
        path = Path(given).expanduser()
        candidates = [path.resolve()] if path.is_absolute() else [(root / path).resolve() for root in roots]
        inside = [c for c in candidates if any(c == r or r in c.parents for r in roots)]
        if not inside:
            raise error(f"{what} {shown!r} is outside {folders}")
        if not must_exist:
            return inside[0]
        found = next((c for c in inside if c.is_file()), None)
        if found is None:
            state = "is a folder" if any(c.is_dir() for c in inside) else "does not exist"
            raise error(f"{what} {shown!r} {state} in {folders}")
        return found
    except (ValueError, OSError, RuntimeError) as exc:  # a NUL byte, a name too long, an unknown ~user
        raise error(f"{what} {shown!r} is not a usable path: {getattr(exc, 'strerror', None) or exc}") from None


@contextmanager
def replacing_folder(out: Path) -> Iterator[Path]:
    """A new empty folder beside `out` to write into; when the block ends without an error it replaces `out`
    (moved aside first, and removed only once the new one is in place), otherwise it is deleted and `out` is left
    as it was. The folder gets the usual permissions (mkdtemp makes it private)."""
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}-", dir=out.parent))
    umask = os.umask(0)
    os.umask(umask)
    tmp.chmod(0o777 & ~umask)
    try:
        yield tmp
        old = out.with_name(f"{tmp.name}-old")
        if out.exists():
            out.rename(old)
        tmp.rename(out)
        if old.exists():
            shutil.rmtree(old)
    finally:
        if tmp.exists():
            shutil.rmtree(tmp)
