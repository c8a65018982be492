"""content_modification APIs."""

from __future__ import annotations

INTENT = "content_modification"
