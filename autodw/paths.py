"""Where autodw keeps generated files (trained models, converted backbones, GGUF files)."""

from __future__ import annotations

import os
from pathlib import Path


def data_home() -> Path:
    """``$AUTODW_HOME`` or ``~/.cache/autodw``: generated, never committed, safe to delete."""
    root = os.environ.get("AUTODW_HOME")
    return Path(root).expanduser() if root else Path.home() / ".cache" / "autodw"


def repo_root() -> Path:
    """The source checkout (examples/, dwbench data) when installed in editable mode."""
    return Path(__file__).resolve().parent.parent
