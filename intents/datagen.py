"""Generate the bilingual intent dataset from templates.py: deterministic for a seed, split by template.

Every template (and every hand-written sentence) is one *unit*; units, not sentences, are assigned
to train/validation/test, balanced within each (intent, language). Templates of one paraphrase
group (several wordings of one operation) keep at least one member in training, and a template
that is the only wording of its operation always trains. A test sentence therefore never shares
its wording with a training sentence, but its operation has been seen in other words. After
generation, exact duplicates are removed (and sentences that appear under two intents dropped),
and validation/test sentences whose character-trigram Jaccard similarity to any training sentence
reaches ``NEAR_DUPLICATE`` are dropped as near-copies.
"""

from __future__ import annotations

import json
import random
import re
import unicodedata
import zlib
from collections import defaultdict
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Iterable, Sequence

import numpy as np

from intents.labels import INTENTS
from intents.templates import FAMILIES, HANDWRITTEN, PREFIXES, SLOTS, SUFFIXES

SPLITS: tuple[str, ...] = ("train", "validation", "test")
SHARES: dict[str, float] = {"train": 0.70, "validation": 0.15, "test": 0.15}
DEFAULT_SEED = 13
NEAR_DUPLICATE = 0.8
"""Character-trigram Jaccard similarity at or above which two sentences count as near-copies."""

PER_TEMPLATE: dict[str, int] = {"en": 8, "zh": 7}
"""Sentences drawn from each template (fewer when the template cannot produce that many)."""

DATA_FILE = Path(__file__).resolve().parent / "data" / "intents.jsonl"

_ALT = re.compile(r"\[([^\[\]]*\|[^\[\]]*)\]")
_SLOT = re.compile(r"\{([a-z]+)(\d?)\}")
_NESTED = frozenset(name for values in SLOTS.values() for name, vals in values.items() if any("{" in v for v in vals))
_END_PUNCT = frozenset(".!?。！？”\"'）)")


@dataclass(frozen=True)
class Example:
    """One labelled sub-instruction; ``source`` names its template unit (``family/lang/index`` or ``hand/...``)."""

    text: str
    intent: str
    lang: str
    split: str
    source: str


@dataclass(frozen=True)
class _Unit:
    source: str
    intent: str
    lang: str
    template: str
    group: str | None  # paraphrase group id; None for a template that must train
    handwritten: bool


def normalize(text: str) -> str:
    """Case-folded NFKC text without punctuation and with single spaces (the key for deduplication)."""
    text = unicodedata.normalize("NFKC", text).casefold()
    text = "".join(" " if unicodedata.category(ch).startswith(("P", "S")) else ch for ch in text)
    return " ".join(text.split())


def shingles(text: str, n: int = 3) -> set[str]:
    """Character n-grams of the normalized text (the whole text if shorter)."""
    norm = normalize(text)
    if len(norm) <= n:
        return {norm}
    return {norm[i : i + n] for i in range(len(norm) - n + 1)}


def jaccard(a: set[str], b: set[str]) -> float:
    """Jaccard similarity of two shingle sets."""
    return len(a & b) / len(a | b) if a or b else 1.0


def max_similarity(queries: Sequence[str], corpus: Sequence[str], dims: int = 4096, candidates: int = 8) -> list[tuple[float, int]]:
    """For each query, the highest trigram Jaccard similarity to any corpus text and that text's index.

    Candidates are found with hashed binary trigram vectors (a matrix product), then scored exactly.
    """
    if not corpus:
        return [(0.0, -1) for _ in queries]
    corpus_sets = [shingles(t) for t in corpus]
    c_mat = _hashed(corpus_sets, dims)
    c_sizes = c_mat.sum(axis=1)
    results: list[tuple[float, int]] = []
    for start in range(0, len(queries), 512):
        q_sets = [shingles(t) for t in queries[start : start + 512]]
        q_mat = _hashed(q_sets, dims)
        inter = q_mat @ c_mat.T
        approx = inter / np.maximum(q_mat.sum(axis=1)[:, None] + c_sizes[None, :] - inter, 1.0)
        k = min(candidates, len(corpus))
        top = np.argpartition(-approx, k - 1, axis=1)[:, :k]
        for row, q_set in enumerate(q_sets):
            best = max(((jaccard(q_set, corpus_sets[j]), int(j)) for j in top[row]), key=lambda x: (x[0], -x[1]))
            results.append(best)
    return results


def _hashed(sets: list[set[str]], dims: int) -> np.ndarray:
    mat = np.zeros((len(sets), dims), dtype=np.float32)
    for i, s in enumerate(sets):
        mat[i, [zlib.crc32(g.encode("utf-8")) % dims for g in s]] = 1.0
    return mat


def _units() -> list[_Unit]:
    units: list[_Unit] = []
    for fam in FAMILIES:
        for lang in ("en", "zh"):
            for i, op in enumerate(getattr(fam, lang)):
                if isinstance(op, str):
                    units.append(_Unit(f"{fam.name}/{lang}/{i}", fam.intent, lang, op, None, False))
                    continue
                group = f"{fam.name}/{lang}/{i}"
                units += [_Unit(f"{group}.{j}", fam.intent, lang, tpl, group, False) for j, tpl in enumerate(op)]
    for intent, by_lang in HANDWRITTEN.items():
        for lang, sentences in by_lang.items():
            units += [_Unit(f"hand/{intent}/{lang}/{i}", intent, lang, s, f"hand/{intent}/{lang}/{i}", True)
                      for i, s in enumerate(sentences)]
    unknown = {u.intent for u in units} - set(INTENTS)
    if unknown:
        raise ValueError(f"templates use unknown intents: {sorted(unknown)}")
    return units


def assign_splits(units: list[_Unit], rng: random.Random) -> dict[str, str]:
    """Unit source -> split, balanced within each (intent, language).

    A single-wording operation trains; the first (shuffled) member of each paraphrase group trains;
    the other members and hand-written sentences go wherever the split shares are furthest behind.
    """
    groups: dict[tuple[str, str], list[_Unit]] = defaultdict(list)
    for unit in units:
        groups[(unit.intent, unit.lang)].append(unit)
    assignment: dict[str, str] = {}
    for key in sorted(groups):
        members = groups[key]
        rng.shuffle(members)
        forced = [u for u in members if u.group is None]
        seen_group: set[str] = set()
        free: list[_Unit] = []
        for unit in members:
            if unit.group is None:
                continue
            if not unit.handwritten and unit.group not in seen_group:
                forced.append(unit)
            else:
                free.append(unit)
            seen_group.add(unit.group)
        counts = dict.fromkeys(SPLITS, 0)
        for unit in forced:
            assignment[unit.source] = "train"
            counts["train"] += 1
        for unit in free:
            total = sum(counts.values()) + 1
            split = max(SPLITS, key=lambda s: (SHARES[s] * total - counts[s], -SPLITS.index(s)))
            counts[split] += 1
            assignment[unit.source] = split
    return assignment


def render(template: str, lang: str, rng: random.Random, decorate: bool = True) -> str:
    """One sentence from a template: alternations chosen, slots filled, optional opener/closer and punctuation."""
    text = _ALT.sub(lambda m: rng.choice(m.group(1).split("|")), template)
    chosen: dict[str, str] = {}

    def fill(match: re.Match[str]) -> str:
        key = match.group(0)
        if key not in chosen:
            values = SLOTS[lang][match.group(1)]
            taken = {v for k, v in chosen.items() if _SLOT.fullmatch(k).group(1) == match.group(1)}  # type: ignore[union-attr]
            pool = [v for v in values if v not in taken] or list(values)
            chosen[key] = rng.choice(pool)
        return chosen[key]

    for _ in range(3):  # slot values may contain slots
        if not _SLOT.search(text):
            break
        text = _SLOT.sub(fill, text)
    text = " ".join(text.split())
    if not decorate:
        return text
    if rng.random() < 0.3:
        prefix = rng.choice(PREFIXES[lang])
        text = prefix + (text[:1].lower() + text[1:] if lang == "en" and not text[1:2].isupper() else text)
    if rng.random() < 0.15:
        text += rng.choice(SUFFIXES[lang])
    if rng.random() < 0.5 and text[-1] not in _END_PUNCT:
        text += "." if lang == "en" else "。"
    if lang == "en":
        text = text.lower() if rng.random() < 0.08 else text[:1].upper() + text[1:]
    return text


def _capacity(template: str, lang: str) -> int:
    """How many distinct fillings a template has (capped), ignoring decoration."""
    n = 1
    for m in _ALT.finditer(template):
        n *= len(m.group(1).split("|"))
    for name in {m.group(0): m.group(1) for m in _SLOT.finditer(template)}.values():
        n *= sum(_capacity(v, lang) for v in SLOTS[lang][name]) if name in _NESTED else len(SLOTS[lang][name])
    return min(n, 10_000)


def generate(seed: int = DEFAULT_SEED) -> list[Example]:
    """The whole dataset, deterministic for ``seed``."""
    rng = random.Random(seed)
    units = _units()
    splits = assign_splits(list(units), rng)
    raw: list[Example] = []
    for unit in units:
        split = splits[unit.source]
        if unit.handwritten:
            raw.append(Example(unit.template, unit.intent, unit.lang, split, unit.source))
            continue
        cap = _capacity(unit.template, unit.lang)
        want = PER_TEMPLATE[unit.lang] if cap > 1 else 3
        seen: set[str] = set()
        for _ in range(want * 6):
            if len(seen) >= want:
                break
            text = render(unit.template, unit.lang, rng)
            key = normalize(text)
            if key not in seen:
                seen.add(key)
                raw.append(Example(text, unit.intent, unit.lang, split, unit.source))
    return drop_near_copies(deduplicate(raw))


def deduplicate(examples: Iterable[Example]) -> list[Example]:
    """Keep the first of each normalized text; drop texts that occur with two different intents."""
    by_key: dict[str, list[Example]] = defaultdict(list)
    for ex in examples:
        by_key[normalize(ex.text)].append(ex)
    conflicting = {k for k, group in by_key.items() if len({e.intent for e in group}) > 1}
    kept: list[Example] = []
    for key, group in by_key.items():
        if key not in conflicting:
            kept.append(group[0])
    return kept


def drop_near_copies(examples: list[Example], threshold: float = NEAR_DUPLICATE) -> list[Example]:
    """Remove validation/test sentences that are near-copies of a training sentence."""
    train = [e.text for e in examples if e.split == "train"]
    held = [e for e in examples if e.split != "train"]
    sims = max_similarity([e.text for e in held], train)
    dropped = {id(e) for e, (sim, _) in zip(held, sims) if sim >= threshold}
    return [e for e in examples if id(e) not in dropped]


def write_jsonl(examples: Iterable[Example], path: Path = DATA_FILE) -> Path:
    """Write one JSON object per line, ordered by split (train, validation, test)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    ordered = sorted(examples, key=lambda e: SPLITS.index(e.split))
    with path.open("w", encoding="utf-8") as fh:
        for ex in ordered:
            fh.write(json.dumps(asdict(ex), ensure_ascii=False) + "\n")
    return path


def load_dataset(path: Path | None = None) -> list[Example]:
    """Read the dataset file (default: the committed ``intents/data/intents.jsonl``)."""
    with Path(path or DATA_FILE).open(encoding="utf-8") as fh:
        return [Example(**json.loads(line)) for line in fh if line.strip()]
