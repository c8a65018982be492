"""image_operation APIs."""

from __future__ import annotations

INTENT = "image_operation"
