"""Figures: matplotlib without a display, and a figure saved as a PNG file atomically."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from autodw.core.errors import ConfigError
from autodw.core.package import write_atomically


def pyplot() -> Any:
    """``matplotlib.pyplot`` on the Agg backend (no display needed)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def save_png(fig: Any, path: str | Path) -> Path:
    """Write `fig` to `path` (a .png file; ConfigError otherwise) atomically and close it."""
    path = Path(path)
    try:
        if path.suffix.lower() != ".png":
            raise ConfigError(f"{path}: plots are PNG pictures; give a file name ending in .png")
        data = io.BytesIO()
        fig.savefig(data, format="png", dpi=110)
    finally:
        pyplot().close(fig)
    write_atomically(path, data.getvalue())
    return path
