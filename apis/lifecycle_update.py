"""lifecycle_update APIs."""

from __future__ import annotations

INTENT = "lifecycle_update"
