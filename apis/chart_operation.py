"""chart_operation APIs."""

from __future__ import annotations

INTENT = "chart_operation"
