"""The intent classifier the agent uses: top-k intents with probabilities for a sub-instruction."""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

import numpy as np
import torch

from autodw.errors import ConfigError
from autodw.paths import data_home
from autodw.intents.model import IntentNet, ModelMeta, is_model_dir, load_model, quantize_int8

Prediction = list[tuple[str, float]]


def default_model_dir() -> Path:
    """Where ``autodw train-intents`` saves the model and the agent looks for it."""
    return data_home() / "intents" / "model"


class IntentClassifier:
    """A fine-tuned encoder over the eight intents; load with :meth:`load` or :func:`load_or_train`."""

    def __init__(self, net: IntentNet | torch.nn.Module, tokenizer: Any, meta: ModelMeta, path: Path | None = None) -> None:
        self.net = net.eval()
        self.tokenizer = tokenizer
        self.meta = meta
        self.path = path

    @property
    def labels(self) -> list[str]:
        """Intent names in the order of the model's outputs."""
        return list(self.meta.labels)

    @classmethod
    def load(cls, path: Path | str | None = None, quantize: bool = False) -> IntentClassifier:
        """Load a trained model folder (default: :func:`default_model_dir`); ``ConfigError`` if there is none.

        The saved fp32 weights are used exactly. ``quantize=True`` runs the linear layers in dynamic
        int8: about 2.4x faster on CPU (10 ms instead of 23 ms a sentence) but measured 2.5 points
        less accurate on the test split (0.944 instead of 0.969), so it is not the default.
        """
        folder = Path(path).expanduser() if path is not None else default_model_dir()
        if not folder.is_dir():
            raise ConfigError(f"no intent model at {folder}; run `autodw train-intents` first")
        net, tokenizer, meta = load_model(folder)
        return cls(quantize_int8(net) if quantize else net, tokenizer, meta, folder)

    def probabilities(self, texts: Sequence[str], batch_size: int = 64) -> np.ndarray:
        """Softmax probabilities, one row per text, columns in :attr:`labels` order."""
        if isinstance(texts, str):
            raise TypeError("probabilities() takes a sequence of texts; use predict() for one text")
        rows: list[np.ndarray] = []
        with torch.inference_mode():
            for start in range(0, len(texts), batch_size):
                chunk = [self.meta.text_prefix + (t or "").strip() for t in texts[start : start + batch_size]]
                enc = self.tokenizer(chunk, padding=True, truncation=True, max_length=self.meta.max_length, return_tensors="pt")
                logits = self.net(enc["input_ids"], enc["attention_mask"])
                rows.append(torch.softmax(logits.float(), dim=-1).numpy())
        if not rows:
            return np.zeros((0, len(self.labels)), dtype=np.float32)
        return np.concatenate(rows)

    def predict_batch(self, texts: Sequence[str], k: int = 3) -> list[Prediction]:
        """For each text, the ``k`` most likely intents with their probabilities, best first."""
        probs = self.probabilities(texts)
        k = max(1, min(k, len(self.labels)))
        order = np.argsort(-probs, axis=1)[:, :k]
        return [[(self.labels[j], float(row[j])) for j in idx] for row, idx in zip(probs, order)]

    def predict(self, text: str, k: int = 3) -> Prediction:
        """The ``k`` most likely intents of one sub-instruction with their probabilities, best first."""
        return self.predict_batch([text], k)[0]


def load_or_train(path: Path | str | None = None, progress: bool = True) -> IntentClassifier:
    """Load the trained model, or train it first (saying so on stderr, with a progress bar) if there is none."""
    folder = Path(path).expanduser() if path is not None else default_model_dir()
    if not is_model_dir(folder):
        from autodw.intents.train import TrainConfig, train

        print(
            f"intents: no trained intent classifier at {folder}; training one now "
            "(about 10 minutes on 2 CPU cores; `autodw train-intents` does the same)",
            file=sys.stderr,
            flush=True,
        )
        train(TrainConfig(), folder, progress=progress)
    return IntentClassifier.load(folder)


@dataclass
class ApiCandidates:
    """Candidate API names for some intents, or why there are none (the registry is missing)."""

    names: list[str] = field(default_factory=list)
    available: bool = True
    note: str | None = None


def candidate_apis(intents: Sequence[str]) -> ApiCandidates:
    """The API names registered under ``intents`` (deduplicated, in intent order) from ``apis.registry()``."""
    try:
        from autodw import apis
    except ImportError as exc:
        return ApiCandidates([], False, f"the API registry is not available (cannot import apis: {exc})")
    registry_fn = getattr(apis, "registry", None)
    if registry_fn is None:
        return ApiCandidates([], False, "the API registry is not available yet (apis.registry() does not exist)")
    registry = registry_fn()
    names: list[str] = []
    for intent in intents:
        for spec in registry.by_intent(intent):
            if spec.name not in names:
                names.append(spec.name)
    return ApiCandidates(names, True, None)

