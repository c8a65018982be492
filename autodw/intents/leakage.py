"""Find benchmark instructions in JSON/JSONL files and check the training data does not contain them."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Iterator, Sequence

from autodw.intents.datagen import NEAR_DUPLICATE, max_similarity, normalize

INSTRUCTION_KEYS = ("instruction", "prompt", "query", "request", "utterance", "task")
"""A JSON value is read as instruction text when its key contains one of these words."""


@dataclass(frozen=True)
class Overlap:
    """A dataset sentence that is (nearly) a benchmark instruction."""

    dataset_text: str
    benchmark_text: str
    similarity: float


def instruction_files(roots: Iterable[Path]) -> list[Path]:
    """Every ``*.json`` / ``*.jsonl`` file under the given folders (missing folders are skipped)."""
    files: list[Path] = []
    for root in roots:
        if root.is_dir():
            files += sorted(p for p in root.rglob("*.json*") if p.is_file() and p.suffix in {".json", ".jsonl"})
    return files


def collect_instructions(files: Iterable[Path]) -> list[str]:
    """Instruction texts found under instruction-like keys in the files, deduplicated, in file order."""
    found: dict[str, None] = {}
    for path in files:
        for obj in _json_objects(path):
            for text in _instructions_in(obj, inside=False):
                if text.strip():
                    found.setdefault(text.strip(), None)
    return list(found)


def _json_objects(path: Path) -> Iterator[Any]:
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".jsonl":
        for line in text.splitlines():
            if line.strip():
                yield json.loads(line)
    else:
        yield json.loads(text)


def _instructions_in(obj: Any, inside: bool) -> Iterator[str]:
    if isinstance(obj, str):
        if inside:
            yield obj
    elif isinstance(obj, list):
        for item in obj:
            yield from _instructions_in(item, inside)
    elif isinstance(obj, dict):
        for key, value in obj.items():
            is_instruction = any(word in str(key).lower() for word in INSTRUCTION_KEYS)
            yield from _instructions_in(value, inside or is_instruction)


def find_overlaps(dataset: Sequence[str], benchmark: Sequence[str], threshold: float = NEAR_DUPLICATE) -> list[Overlap]:
    """Dataset sentences equal (after normalization) or near-copies of a benchmark instruction."""
    if not dataset or not benchmark:
        return []
    exact = {normalize(b): b for b in benchmark}
    overlaps = [Overlap(d, exact[normalize(d)], 1.0) for d in dataset if normalize(d) in exact]
    seen = {o.dataset_text for o in overlaps}
    for text, (sim, idx) in zip(dataset, max_similarity(list(dataset), list(benchmark))):
        if text not in seen and sim >= threshold:
            overlaps.append(Overlap(text, benchmark[idx], sim))
    return overlaps
