"""format_style_editing APIs."""

from __future__ import annotations

INTENT = "format_style_editing"
