"""The on-disk format of a trained intent model folder (no torch needed to read it).

Format 2 (current) holds:

* ``model.onnx``: the fine-tuned encoder without its word-embedding table, mean pooling and the
  linear head; inputs ``inputs_embeds`` [batch, tokens, hidden] and ``attention_mask``, output
  ``logits`` [batch, intents]. Run with ONNX Runtime, so using the classifier never imports torch.
* the frozen word-embedding table: ``word_embeddings.q4.safetensors`` when it is exactly on a 4-bit
  Q4_0 grid, as the default backbone's is (51 MB instead of 384 MB; lossless), else
  ``word_embeddings.safetensors`` (fp32). Rows are looked up per sentence.
* ``tokenizer.json`` (and the tokenizer's other files) and ``intents_meta.json`` (labels, input
  settings, training history, validation/test scores).

Format 1 (before 2026-11-24) held the encoder as transformers safetensors plus ``head.safetensors``
and needed torch to run; :func:`model_format` tells the two apart so that an old folder is
converted once (``autodw.intents.model.convert_v1``) instead of failing.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from autodw.core.errors import ConfigError

META_FILE = "intents_meta.json"
ONNX_FILE = "model.onnx"
Q4_EMBEDDINGS_FILE = "word_embeddings.q4.safetensors"
F32_EMBEDDINGS_FILE = "word_embeddings.safetensors"
TOKENIZER_FILE = "tokenizer.json"
V1_HEAD_FILE = "head.safetensors"
FORMAT_VERSION = 2

E5_PREFIX = "query: "
"""multilingual-e5 was trained with this prefix on short queries; the default backbone keeps it."""


@dataclass
class ModelMeta:
    """What a saved model needs besides its weights, plus how it was trained and how it scored."""

    labels: list[str]
    backbone: str
    text_prefix: str = ""
    max_length: int = 64
    format_version: int = FORMAT_VERSION
    training: dict[str, Any] = field(default_factory=dict)
    metrics: dict[str, Any] = field(default_factory=dict)
    pad_token_id: int = 1


def model_format(path: Path) -> int | None:
    """2 for a current model folder, 1 for the old torch format, None if ``path`` holds no model."""
    path = Path(path)
    if not (path / META_FILE).is_file():
        return None
    if (path / ONNX_FILE).is_file() and (path / TOKENIZER_FILE).is_file() and embeddings_file(path) is not None:
        return FORMAT_VERSION
    if (path / V1_HEAD_FILE).is_file() and (path / "config.json").is_file():
        return 1
    return None


def is_model_dir(path: Path) -> bool:
    """True if ``path`` holds a saved intent model of the current format."""
    return model_format(path) == FORMAT_VERSION


def embeddings_file(path: Path) -> Path | None:
    """The word-embedding table file of a model folder, if there is one."""
    for name in (Q4_EMBEDDINGS_FILE, F32_EMBEDDINGS_FILE):
        if (Path(path) / name).is_file():
            return Path(path) / name
    return None


def read_meta(path: Path) -> ModelMeta:
    """The ``intents_meta.json`` of a model folder."""
    try:
        data = json.loads((Path(path) / META_FILE).read_text(encoding="utf-8"))
        return ModelMeta(**data)
    except (OSError, ValueError, TypeError) as exc:
        raise ConfigError(f"{path} has no readable {META_FILE}: {exc}") from exc
