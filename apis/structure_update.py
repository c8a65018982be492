"""structure_update APIs."""

from __future__ import annotations

INTENT = "structure_update"
