"""Worked-example retrieval (DocPilot retrieves few-shot examples for each query).

The library (``data/worked_examples.jsonl``, with the instructions' embeddings in ``worked_examples.npy``) holds
solved instructions: a user instruction and the calls that carry it out, from DWBench ``dev`` gold sequences
(never ``test`` or ``mini``); ``python -m autodw.dwbench.examples`` rebuilds it. The planner is shown the nearest
solved instruction (by multilingual-e5-small cosine, :mod:`autodw.intents.embedding`); the API generator, once the
API is chosen, one call of that API from the nearest solved instruction that makes one. Their element ids are
another document's, and the prompts say so. An example whose instruction is the request itself is never shown.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from autodw.errors import ConfigError
from autodw.intents.embedding import encoder

DATA_DIR = Path(__file__).with_name("data")
LIBRARY = DATA_DIR / "worked_examples.jsonl"
VECTORS = DATA_DIR / "worked_examples.npy"
MAX_VALUE_CHARS = 40  # an argument value of an example call is cut to this
MAX_EXAMPLE_CALLS = 8  # calls of one solved instruction shown to the planner


@dataclass(frozen=True)
class Example:
    """A solved instruction: its text, language and gold calls ((api, args) pairs)."""

    instruction: str
    language: str
    calls: tuple[tuple[str, dict[str, Any]], ...]


class ExampleLibrary:
    """Solved instructions and their unit embeddings (one row per example)."""

    def __init__(self, examples: list[Example], vectors: np.ndarray):
        if len(examples) != len(vectors):
            raise ConfigError(f"the worked-example library has {len(examples)} examples but {len(vectors)} vectors: "
                              "rebuild it with python -m autodw.dwbench.examples")
        self.examples, self.vectors = examples, vectors.astype(np.float32)

    @classmethod
    def load(cls, library: Path = LIBRARY, vectors: Path = VECTORS) -> "ExampleLibrary":
        """The library from its files (ConfigError naming the rebuild command if one is missing)."""
        if not library.is_file() or not vectors.is_file():
            raise ConfigError(f"the worked-example library is missing ({library}): python -m autodw.dwbench.examples")
        examples = []
        for line in library.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            examples.append(Example(row["instruction"], row["language"], tuple((c["api"], c["args"]) for c in row["calls"])))
        return cls(examples, np.load(vectors, allow_pickle=False))

    def _ranked(self, text: str, exclude: str) -> list[Example]:
        scores = self.vectors @ np.asarray(encoder().query([text]), dtype=np.float32).reshape(-1)
        return [self.examples[i] for i in np.argsort(-scores) if self.examples[i].instruction.strip() != exclude.strip()]

    def nearest(self, text: str, k: int, exclude: str = "") -> list[Example]:
        """The `k` solved instructions nearest to `text` (none whose instruction is `exclude`)."""
        return self._ranked(text, exclude)[:k] if k > 0 else []

    def call_of(self, api: str, text: str, exclude: str = "") -> dict[str, Any] | None:
        """The arguments of a call to `api` in the solved instruction nearest to `text` that makes one."""
        for example in self._ranked(text, exclude):
            for name, args in example.calls:
                if name == api:
                    return args
        return None


@lru_cache(maxsize=1)
def library() -> ExampleLibrary:
    """The packaged library (loaded once)."""
    return ExampleLibrary.load()


def short_call(api: str, args: dict[str, Any]) -> str:
    """``api({...})`` with long values cut (an example shows the shape of the arguments, not their text)."""
    def cut(value: Any) -> Any:
        if isinstance(value, str) and len(value) > MAX_VALUE_CHARS:
            return value[:MAX_VALUE_CHARS - 3] + "..."
        if isinstance(value, list):
            return [cut(v) for v in value[:4]] + (["..."] if len(value) > 4 else [])
        if isinstance(value, dict):
            return {k: cut(v) for k, v in value.items()}
        return value
    return f"{api}({json.dumps(cut(args), ensure_ascii=False)})"


@lru_cache(maxsize=32)
def for_planner(instruction: str, k: int) -> str:
    """The `k` solved instructions nearest to `instruction` (never itself) as planner prompt text ("" for k = 0);
    cached, as the planner asks at every step of an instruction."""
    return planner_text(library().nearest(instruction, k, exclude=instruction)) if k else ""


def planner_text(examples: list[Example]) -> str:
    """Solved instructions as planner prompt lines ("" for none)."""
    if not examples:
        return ""
    blocks = []
    for ex in examples:
        calls = "\n".join(f"  {n}. {short_call(api, args)}" for n, (api, args) in enumerate(ex.calls[:MAX_EXAMPLE_CALLS], 1))
        more = f"\n  ... {len(ex.calls) - MAX_EXAMPLE_CALLS} more" if len(ex.calls) > MAX_EXAMPLE_CALLS else ""
        blocks.append(f"Request: {ex.instruction}\nCalls, one per step:\n{calls}{more}")
    return ("A similar request solved on another document (its ids are that document's, not this one's):\n"
            + "\n\n".join(blocks) + "\n\n")


def generator_text(api: str, args: dict[str, Any] | None) -> str:
    """One example call as an API generator prompt line ("" for none)."""
    if args is None:
        return ""
    return f"An example call of {api} from another document (its ids are not this document's): {short_call(api, args)}\n"
