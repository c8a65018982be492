"""Intent classification of sub-instructions (issue 4): eight intents, bilingual data, a fine-tuned encoder.

Importing this package is cheap: torch and transformers load only when a classifier is used.
``IntentClassifier``, ``load_or_train`` and ``default_model_dir`` are resolved lazily from
:mod:`intents.classifier`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from autodw.intents.labels import DEFINITIONS, INTENTS

if TYPE_CHECKING:  # pragma: no cover
    from autodw.intents.classifier import IntentClassifier, default_model_dir, load_or_train

__all__ = ["INTENTS", "DEFINITIONS", "IntentClassifier", "load_or_train", "default_model_dir"]

_LAZY = {"IntentClassifier", "load_or_train", "default_model_dir"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        from autodw.intents import classifier

        return getattr(classifier, name)
    raise AttributeError(f"module 'intents' has no attribute {name!r}")
