"""The intent classifier the agent uses: top-k intents with probabilities for a sub-instruction.

Inference runs the saved ONNX graph with ONNX Runtime, the tokenizer with ``tokenizers`` and the
word-embedding lookup with numpy: torch is needed only to train (or to convert an old model folder).
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from autodw.core.errors import ConfigError
from autodw.intents.model_files import (
    ONNX_FILE,
    Q4_EMBEDDINGS_FILE,
    TOKENIZER_FILE,
    ModelMeta,
    embeddings_file,
    model_format,
    read_meta,
)
from autodw.core.paths import data_home

Prediction = list[tuple[str, float]]

"""What training the default model takes on 2 CPU cores (measured; see intents/README.md, "Figures")."""


def default_model_dir() -> Path:
    """Where ``autodw train-intents`` saves the model and the agent looks for it."""
    return data_home() / "intents" / "model"


class WordEmbeddings:
    """The frozen word-embedding table, kept 4-bit packed (or fp32) and unpacked only for the rows looked up."""

    def __init__(self, path: Path) -> None:
        from safetensors.numpy import load_file

        tensors = load_file(str(path))
        self.packed = path.name == Q4_EMBEDDINGS_FILE
        if self.packed:
            self.scales, self.nibbles = tensors["scales"], tensors["nibbles"]
            self.rows = self.scales.shape[0]
        else:
            self.table = tensors["weight"]
            self.rows = self.table.shape[0]

    def lookup(self, ids: np.ndarray) -> np.ndarray:
        """fp32 embeddings of token ids of any shape (adds a trailing hidden axis)."""
        if not self.packed:
            return self.table[ids]
        from autodw.intents.compact import unpack_q4

        flat = ids.reshape(-1)
        return unpack_q4(self.scales[flat], self.nibbles[flat]).reshape(*ids.shape, -1)


class IntentClassifier:
    """A fine-tuned encoder over the eight intents; load with :meth:`load` or :func:`load_or_train`."""

    def __init__(self, session: Any, tokenizer: Any, embeddings: WordEmbeddings, meta: ModelMeta, path: Path | None = None) -> None:
        self.session = session
        self.tokenizer = tokenizer
        self.embeddings = embeddings
        self.meta = meta
        self.path = path

    @property
    def labels(self) -> list[str]:
        """Intent names in the order of the model's outputs."""
        return list(self.meta.labels)

    @classmethod
    def load(cls, path: Path | str | None = None, threads: int | None = None) -> IntentClassifier:
        """Load a trained model folder (default: :func:`default_model_dir`); ``ConfigError`` if there is none
        or if it has the old format (:func:`load_or_train` converts that)."""
        import onnxruntime as ort
        from tokenizers import Tokenizer

        folder = Path(path).expanduser() if path is not None else default_model_dir()
        fmt = model_format(folder)
        if fmt is None:
            raise ConfigError(f"no intent model at {folder}; run `autodw train-intents` first")
        if fmt == 1:
            raise ConfigError(f"{folder} holds an intent model of the old format 1; load it with load_or_train(), "
                              "which converts it once")
        meta = read_meta(folder)
        options = ort.SessionOptions()
        options.log_severity_level = 3
        if threads is not None:
            options.intra_op_num_threads = threads
        embeddings_path = embeddings_file(folder)
        assert embeddings_path is not None  # model_format checked it
        try:  # the libraries' own errors for a damaged file (InvalidProtobuf, SafetensorError, a JSON error)
            tokenizer = Tokenizer.from_file(str(folder / TOKENIZER_FILE))
            session = ort.InferenceSession(str(folder / ONNX_FILE), options, providers=["CPUExecutionProvider"])
            embeddings = WordEmbeddings(embeddings_path)
        except Exception as exc:  # noqa: BLE001 - which file and why, then a ConfigError
            raise ConfigError(f"{folder} is not a usable intent model ({type(exc).__name__}: {str(exc)[:200]}); "
                              f"train it again with `autodw train-intents --out {folder}`") from None
        tokenizer.no_padding()
        tokenizer.enable_truncation(meta.max_length)
        return cls(session, tokenizer, embeddings, meta, folder)

    def probabilities(self, texts: Sequence[str], batch_size: int = 64) -> np.ndarray:
        """Softmax probabilities, one row per text, columns in :attr:`labels` order."""
        if isinstance(texts, str):
            raise TypeError("probabilities() takes a sequence of texts; use predict() for one text")
        encodings = self.tokenizer.encode_batch([self.meta.text_prefix + (t or "").strip() for t in texts])
        order = sorted(range(len(texts)), key=lambda i: len(encodings[i].ids))  # similar lengths, less padding
        out = np.zeros((len(texts), len(self.labels)), dtype=np.float32)
        for start in range(0, len(order), batch_size):
            batch = order[start : start + batch_size]
            width = max(len(encodings[i].ids) for i in batch)
            ids = np.full((len(batch), width), self.meta.pad_token_id, dtype=np.int64)
            mask = np.zeros((len(batch), width), dtype=np.int64)
            for row, i in enumerate(batch):
                seq = encodings[i].ids
                ids[row, : len(seq)] = seq
                mask[row, : len(seq)] = 1
            logits = self.session.run(["logits"], {"inputs_embeds": self.embeddings.lookup(ids), "attention_mask": mask})[0]
            logits = logits - logits.max(axis=1, keepdims=True)
            exp = np.exp(logits)
            out[batch] = exp / exp.sum(axis=1, keepdims=True)
        return out

    def predict_batch(self, texts: Sequence[str], k: int = 3) -> list[Prediction]:
        """For each text, the ``k`` most likely intents with their probabilities, best first."""
        probs = self.probabilities(texts)
        k = max(1, min(k, len(self.labels)))
        order = np.argsort(-probs, axis=1, kind="stable")[:, :k]
        return [[(self.labels[j], float(row[j])) for j in idx] for row, idx in zip(probs, order)]

    def predict(self, text: str, k: int = 3) -> Prediction:
        """The ``k`` most likely intents of one sub-instruction with their probabilities, best first; ConfigError
        for an empty text (it has no intent to find)."""
        if not isinstance(text, str) or not text.strip():
            raise ConfigError(f"no text to classify (got {text!r})")
        return self.predict_batch([text], k)[0]


def load_or_train(path: Path | str | None = None, progress: bool = True, train_missing: bool = True) -> IntentClassifier:
    """Load the trained model; convert a folder of the old format first, or train the model if there is
    none and ``train_missing`` (both say so on stderr; training shows an estimate and a progress bar)."""
    folder = Path(path).expanduser() if path is not None else default_model_dir()
    fmt = model_format(folder)
    if fmt is None and not train_missing:
        raise ConfigError(f"no intent model at {folder}; run `autodw train-intents --out {folder}` first")
    if fmt == 1:
        print(f"intents: the intent classifier at {folder} has the old format; converting it once to ONNX "
              "(under a minute)", file=sys.stderr, flush=True)
        from autodw.intents.model import convert_v1

        started = time.perf_counter()
        convert_v1(folder)
        print(f"intents: converted in {time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True)
    elif fmt is None:
        from autodw.intents.train import TrainConfig, train

        print(
            f"intents: no trained intent classifier at {folder}; training one now, once "
            "(`autodw train-intents` does the same; the time it will take is measured next)",
            file=sys.stderr,
            flush=True,
        )
        train(TrainConfig(evaluate_test=False), folder, progress=progress)  # the test split: `autodw bench perf intents`
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
