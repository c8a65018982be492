"""Where autodw keeps generated files (trained models, converted backbones, GGUF files)."""

from __future__ import annotations

import os
import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator


def data_home() -> Path:
    """``$AUTODW_HOME`` or ``~/.cache/autodw``: generated, never committed, safe to delete."""
    root = os.environ.get("AUTODW_HOME")
    return Path(root).expanduser() if root else Path.home() / ".cache" / "autodw"


def repo_root() -> Path:
    """The source checkout (examples/, dwbench data) when installed in editable mode."""
    return Path(__file__).resolve().parent.parent


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
