"""Generate the bilingual intent dataset from the templates: deterministic, split by template, test split frozen.

Every template (and every hand-written sentence) is one *unit*; units, not sentences, are assigned to
train/validation/test. Templates of one paraphrase group (several wordings of one operation) keep at
least one member in training, and a template that is the only wording of its operation always
trains, so a held-out sentence never shares its wording with a training sentence while its
operation has been seen in other words.

The **test split is frozen**: it was drawn once (``freeze_test``, seed ``FREEZE_SEED``, balanced per
intent and language) and its sentences are stored in ``data/test_frozen.jsonl``, whose SHA-256 is
``FROZEN_TEST_SHA256``. ``generate`` copies those rows unchanged; templates added or edited later can
only reach train or validation. Every other unit goes to validation or train by a stable hash of its
text (adding a template does not move the others), and each unit's sentences are rendered from a
random generator seeded by that unit's own text. Training and validation sentences that equal or
nearly copy (character-trigram Jaccard >= ``NEAR_DUPLICATE``) a test sentence are dropped, and so
are validation sentences that nearly copy a training sentence.
"""

from __future__ import annotations

import hashlib
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

from autodw.core.errors import ConfigError
from autodw.intents.labels import INTENTS
from autodw.intents.template_data import ALTERNATION as _ALT
from autodw.intents.template_data import SLOT as _SLOT
from autodw.intents.template_data import LANGS, load_templates, templates_of
from autodw.core.package import read_text_input

SPLITS: tuple[str, ...] = ("train", "validation", "test")
SHARES: dict[str, float] = {"train": 0.70, "validation": 0.15, "test": 0.15}
DEFAULT_SEED = 13
FREEZE_SEED = 20251122
"""Seed of the one-off draw of the frozen test split (``freeze_test``)."""
NEAR_DUPLICATE = 0.8
"""Character-trigram Jaccard similarity at or above which two sentences count as near-copies."""

PER_TEMPLATE_TRAIN: dict[str, int] = {"en": 6, "zh": 6}
"""Sentences drawn from each training template (fewer when the template cannot produce that many)."""
PER_TEMPLATE_HELD_OUT: dict[str, int] = {"en": 5, "zh": 5}
"""Sentences drawn from each validation template (and, at the freeze, from each test template)."""
VALIDATION_SHARE = SHARES["validation"] / (SHARES["train"] + SHARES["validation"])
"""Share of the free (not forced-to-train) non-test units that go to validation."""

DATA_FILE = Path(__file__).resolve().parent / "data" / "intents.jsonl"
FROZEN_TEST_FILE = Path(__file__).resolve().parent / "data" / "test_frozen.jsonl"
FROZEN_TEST_SHA256 = "fa1b5a97589a837c02c21466f2f5c905e619d60904064080ed47905802245d87"
# A second held-out set (see intents/README.md, "Second test set"): 320 sentences written by hand on
# 2026-11-23, 20 per intent and language, frozen before any model saw them; never trained on.
TEST_B_FILE = Path(__file__).resolve().parent / "data" / "test_b.jsonl"
TEST_B_SHA256 = "ace08eb5fd82524b1234a2652cabb7299ddcf4e8e60db8259e43cd2c14aec9cc"
"""SHA-256 of ``data/test_frozen.jsonl`` as written by ``freeze_test`` (a test checks the file still matches)."""

_END_PUNCT = frozenset(".!?。！？”\"'）)")


@dataclass(frozen=True)
class Example:
    """One labelled sub-instruction; ``source`` names its unit (``family/lang/hash`` or ``hand/intent/lang/hash``)."""

    text: str
    intent: str
    lang: str
    split: str
    source: str


@dataclass(frozen=True)
class Unit:
    """One split unit: a template or a hand-written sentence. ``key`` identifies it by content."""

    key: str
    source: str
    intent: str
    lang: str
    template: str
    group: str | None  # paraphrase group id; None for a single-wording operation (always trains)
    handwritten: bool


def unit_key(intent: str, lang: str, template: str) -> str:
    """The content key of a unit: intent, language and the template (or hand-written sentence) itself."""
    return f"{intent}|{lang}|{template}"


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


def _short_hash(text: str) -> str:
    return f"{zlib.crc32(text.encode('utf-8')):08x}"


def units() -> list[Unit]:
    """Every split unit: each template of each family (both languages) and each hand-written sentence."""
    data = load_templates()
    out: list[Unit] = []
    for fam in data.families:
        for lang in LANGS:
            for i, op in enumerate(getattr(fam, lang)):
                group = None if isinstance(op, str) else f"{fam.name}/{lang}/{i}"
                for tpl in templates_of(op):
                    key = unit_key(fam.intent, lang, tpl)
                    out.append(Unit(key, f"{fam.name}/{lang}/{_short_hash(key)}", fam.intent, lang, tpl, group, False))
    templates = {u.key for u in out}
    for intent, by_lang in data.handwritten.items():
        for lang, sentences in by_lang.items():
            for sentence in sentences:
                key = unit_key(intent, lang, sentence)
                if key in templates:  # a hand-written sentence that is also a slot-free template
                    continue
                source = f"hand/{intent}/{lang}/{_short_hash(key)}"
                out.append(Unit(key, source, intent, lang, sentence, source, True))
    unknown = {u.intent for u in out} - set(INTENTS)
    if unknown:
        raise ValueError(f"templates use unknown intents: {sorted(unknown)}")
    seen: dict[str, Unit] = {}
    for unit in out:
        if unit.key in seen:
            raise ValueError(f"template listed twice: {unit.key!r}")
        seen[unit.key] = unit
    return out


def assign_splits(all_units: list[Unit], rng: random.Random) -> dict[str, str]:
    """Unit key -> split, balanced within each (intent, language): the draw ``freeze_test`` used once.

    A single-wording operation trains; the first (shuffled) member of each paraphrase group trains;
    the other members and hand-written sentences go wherever the split shares are furthest behind.
    """
    groups: dict[tuple[str, str], list[Unit]] = defaultdict(list)
    for unit in all_units:
        groups[(unit.intent, unit.lang)].append(unit)
    assignment: dict[str, str] = {}
    for key in sorted(groups):
        members = groups[key]
        rng.shuffle(members)
        forced = [u for u in members if u.group is None]
        seen_group: set[str] = set()
        free: list[Unit] = []
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
            assignment[unit.key] = "train"
            counts["train"] += 1
        for unit in free:
            total = sum(counts.values()) + 1
            split = max(SPLITS, key=lambda s: (SHARES[s] * total - counts[s], -SPLITS.index(s)))
            counts[split] += 1
            assignment[unit.key] = split
    return assignment


def _fraction(seed: int, text: str) -> float:
    """A stable pseudo-random number in [0, 1) for a text."""
    return int(hashlib.sha256(f"{seed}|{text}".encode("utf-8")).hexdigest()[:13], 16) / 16**13


def split_units(all_units: Sequence[Unit], test_keys: set[str], seed: int = DEFAULT_SEED) -> dict[str, str]:
    """Unit key -> split. Frozen test units are test; of the rest, the member of each paraphrase group
    with the lowest hash and every single-wording operation train, and the others go to validation
    with probability ``VALIDATION_SHARE`` (by a stable hash of their text), else to train."""
    assignment: dict[str, str] = {}
    by_group: dict[str, list[Unit]] = defaultdict(list)
    for unit in all_units:
        if unit.key in test_keys:
            assignment[unit.key] = "test"
        elif unit.group is None:
            assignment[unit.key] = "train"
        else:
            by_group[unit.group].append(unit)
    for group, members in by_group.items():
        ranked = sorted(members, key=lambda u: _fraction(seed, u.key))
        start = 0
        if not members[0].handwritten:
            assignment[ranked[0].key] = "train"
            start = 1
        for unit in ranked[start:]:
            assignment[unit.key] = "validation" if _fraction(seed + 1, unit.key) < VALIDATION_SHARE else "train"
    return assignment


def render_unit(unit: Unit, want: int, seed: int) -> list[str]:
    """Up to ``want`` distinct sentences from one unit, from a generator seeded by the unit's own text."""
    if unit.handwritten:
        return [unit.template]
    rng = random.Random(f"{seed}|{unit.key}")
    if _capacity(unit.template, unit.lang) <= 1:
        want = min(want, 3)
    texts: list[str] = []
    seen: set[str] = set()
    for _ in range(want * 6):
        if len(texts) >= want:
            break
        text = render(unit.template, unit.lang, rng)
        key = normalize(text)
        if key not in seen:
            seen.add(key)
            texts.append(text)
    return texts


def render(template: str, lang: str, rng: random.Random, decorate: bool = True) -> str:
    """One sentence from a template: alternations chosen, slots filled, optional opener/closer and punctuation."""
    data = load_templates()
    text = _ALT.sub(lambda m: rng.choice(m.group(1).split("|")), template)
    chosen: dict[str, str] = {}

    def fill(match: re.Match[str]) -> str:
        key = match.group(0)
        if key not in chosen:
            values = data.slots[lang][match.group(1)]
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
        prefix = rng.choice(data.prefixes[lang])
        text = prefix + (text[:1].lower() + text[1:] if lang == "en" and not text[1:2].isupper() else text)
    if rng.random() < 0.15:
        suffix = rng.choice(data.suffixes[lang])
        if text[-1] in "。." and suffix[:1] in ("，", ",", " "):
            text = text[:-1]
        text += suffix
    if rng.random() < 0.5 and text[-1] not in _END_PUNCT:
        text += "." if lang == "en" else "。"
    if lang == "en":
        text = text.lower() if rng.random() < 0.08 else text[:1].upper() + text[1:]
    return text


def _capacity(template: str, lang: str) -> int:
    """How many distinct fillings a template has (capped), ignoring decoration."""
    slots = load_templates().slots
    n = 1
    for m in _ALT.finditer(template):
        n *= len(m.group(1).split("|"))
    for name in {m.group(0): m.group(1) for m in _SLOT.finditer(template)}.values():
        nested = any("{" in v for values in slots.values() for v in values[name])
        n *= sum(_capacity(v, lang) for v in slots[lang][name]) if nested else len(slots[lang][name])
    return min(n, 10_000)


def generate(seed: int = DEFAULT_SEED, frozen: Path | None = None) -> list[Example]:
    """The whole dataset, deterministic for ``seed``: the frozen test rows plus rendered train/validation rows."""
    test_rows = load_frozen_test(frozen)
    all_units = units()
    splits = split_units(all_units, {key for _, key in test_rows}, seed)
    raw: list[Example] = []
    for unit in all_units:
        split = splits[unit.key]
        if split == "test":
            continue
        want = (PER_TEMPLATE_TRAIN if split == "train" else PER_TEMPLATE_HELD_OUT)[unit.lang]
        raw += [Example(text, unit.intent, unit.lang, split, unit.source) for text in render_unit(unit, want, seed)]
    test = [ex for ex, _ in test_rows]
    return drop_near_copies(deduplicate(drop_copies_of(raw, test)) + test)


def drop_copies_of(examples: list[Example], reference: list[Example], threshold: float = NEAR_DUPLICATE) -> list[Example]:
    """Remove examples that equal or nearly copy (similarity >= ``threshold``) any reference sentence."""
    if not reference:
        return list(examples)
    ref_keys = {normalize(e.text) for e in reference}
    kept = [e for e in examples if normalize(e.text) not in ref_keys]
    sims = max_similarity([e.text for e in kept], [e.text for e in reference])
    return [e for e, (sim, _) in zip(kept, sims) if sim < threshold]


def freeze_test(seed: int = FREEZE_SEED, path: Path = FROZEN_TEST_FILE, force: bool = False) -> tuple[Path, str]:
    """Draw the test split once and store its sentences (with their templates); returns the path and SHA-256.

    Refuses to overwrite an existing frozen file unless ``force``: the test split is decided once,
    before any model is tuned on this data.
    """
    path = Path(path)
    if path.exists() and not force:
        raise FileExistsError(f"{path} exists: the test split is frozen (use force only to start a new protocol)")
    all_units = units()
    assignment = assign_splits(list(all_units), random.Random(seed))
    rows: list[tuple[Example, str]] = []
    for unit in all_units:
        if assignment[unit.key] != "test":
            continue
        for text in render_unit(unit, PER_TEMPLATE_HELD_OUT[unit.lang], seed):
            rows.append((Example(text, unit.intent, unit.lang, "test", unit.source), unit.template))
    by_text: dict[str, list[tuple[Example, str]]] = defaultdict(list)
    for row in rows:
        by_text[normalize(row[0].text)].append(row)
    kept = [group[0] for group in by_text.values() if len({r[0].intent for r in group}) == 1]
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as fh:
        for ex, template in kept:
            fh.write(json.dumps({**asdict(ex), "template": template}, ensure_ascii=False) + "\n")
    return path, file_sha256(path)


def file_sha256(path: Path) -> str:
    """SHA-256 of a file's bytes."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def load_frozen_test(path: Path | None = None) -> list[tuple[Example, str]]:
    """The frozen test rows with each row's unit key (empty if there is no frozen file yet)."""
    path = Path(path or FROZEN_TEST_FILE)
    if not path.exists():
        return []
    rows: list[tuple[Example, str]] = []
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                data = json.loads(line)
                template = data.pop("template")
                ex = Example(**data)
                rows.append((ex, unit_key(ex.intent, ex.lang, template)))
    return rows


def load_test_b(path: Path | None = None) -> list[Example]:
    """The second, hand-written held-out set (split ``test_b``); it is not part of the dataset file."""
    return load_dataset(path or TEST_B_FILE)


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
    """Remove validation sentences that are near-copies of a training sentence (test rows are frozen and kept;
    training sentences near a test sentence were removed before, by ``drop_copies_of``)."""
    train = [e.text for e in examples if e.split == "train"]
    held = [e for e in examples if e.split == "validation"]
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
    """Read the dataset file (default: the committed ``intents/data/intents.jsonl``); ConfigError naming the line
    that is not an example (JSON with text, intent, lang, split and source; an intent of the eight)."""
    path = Path(path or DATA_FILE)
    out = []
    for n, line in enumerate(read_text_input(path, "a JSON-lines dataset").splitlines(), 1):
        if not line.strip():
            continue
        try:
            example = Example(**json.loads(line))
        except (ValueError, TypeError) as exc:
            raise ConfigError(f"{path}, line {n}: not an example ({exc})") from None
        if example.intent not in INTENTS:
            raise ConfigError(f"{path}, line {n}: unknown intent {example.intent!r} (one of {', '.join(INTENTS)})")
        out.append(example)
    return out
