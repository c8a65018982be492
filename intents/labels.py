"""The eight intents of the AutoDW paper, spelled as the rest of autodw uses them."""

from __future__ import annotations

INTENTS: tuple[str, ...] = (
    "content_creation",
    "content_modification",
    "table_operation",
    "image_operation",
    "chart_operation",
    "format_style_editing",
    "structure_update",
    "lifecycle_update",
)
