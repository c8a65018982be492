"""table_operation APIs."""

from __future__ import annotations

INTENT = "table_operation"
