"""Provenance of tuning: which DWBench splits each tuned artefact was tuned on (DWBench 2.0, item 4).

Everything tuned on benchmark data (a rule check's word list, a prompt, a heuristic, a threshold, a classifier's
data) says in ``provenance.json`` which splits it was tuned on, as ``dwbench-VERSION/TRACK/SPLIT`` names
("dwbench-2.0/templated/dev"); ``[]`` when it was tuned on no DWBench data. One entry per artefact::

    {"artefact": "autodw/agent/api_words.json", "kind": "word list",
     "tuned_on": ["dwbench-2.0/hand/dev", "dwbench-2.0/templated/dev"],
     "how": "one sentence", "evidence": ["7c9457f"]}

`artefact` is a path from the repository root (a pattern for a family of files: "autodw/agent/prompts/*.md"),
optionally with ``#name`` for one setting or constant of that file ("autodw/agent/config.py#threshold"); `evidence` the commits whose messages say what it was tuned or measured on.
A figure on a split that anything was tuned on is reported as "tuned on" (:func:`label`), never as held out. A split
and its subset overlap either way (``dev-mini`` is part of ``dev``, ``mini`` part of ``test``), and DWBench 1.0 and
1.1 hold the same sessions (1.1 fixed item wordings), so tuning on one is tuning on the other.

The ``tuned_on`` list has one schema (:data:`TUNED_ON_SCHEMA`, :func:`check_tuned_on`), so that anything else that
declares its tuning (a rule check registered with its own ``tuned_on``) carries the same list.

Core layer: the standard library, jsonschema, :mod:`autodw.core.checked_json` and :mod:`autodw.core.errors` only.
"""

from __future__ import annotations

import re
from fnmatch import fnmatchcase
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Iterable

import jsonschema

from autodw.core.checked_json import read_checked
from autodw.core.errors import ConfigError

PROVENANCE_FILE = Path(__file__).with_name("provenance.json")
KINDS = ("word list", "prompt", "heuristic", "threshold", "classifier data")
TRACKS = ("hand", "templated")
WRITTEN_LATER = ("dev-second", "dev-third", "dev-fourth", "dev-fifth", "dev-sixth", "dev-seventh", "dev-eighth",
                 "dev-ninth", "dev-tenth", "dev-eleventh", "dev-twelfth", "dev-thirteenth", "dev-fourteenth",
                 "dev-fifteenth", "dev-sixteenth", "dev-seventeenth",
                 "dev-eighteenth", "dev-nineteenth", "dev-twentieth", "dev-twenty-first",
                 "dev-twenty-second", "dev-twenty-third",
                 "dev-twenty-fourth", "dev-twenty-fifth",
                 "dev-twenty-sixth", "dev-twenty-seventh",
                 "dev-twenty-eighth", "dev-twenty-ninth",
                 "dev-thirtieth", "dev-thirty-first",
                 "dev-thirty-second", "dev-thirty-third",
                 "dev-thirty-fourth", "dev-thirty-fifth",
                 "dev-thirty-sixth", "dev-thirty-seventh", "dev-thirty-eighth",
                 "dev-thirty-ninth", "dev-fortieth")
"""Hand dev sessions written after the track (on dev's documents or, from dev-thirteenth, the tuning documents outside
DWBench; by other writers), for tuning: each read once untuned to see how far tuning on the splits before it carries to
requests and targets it has not seen. A new set is one more name here (the loader, the authoring check and the CLI read it)."""
TEMPLATED_LATER = ("dev-outside", "dev-outside-second", "dev-outside-third", "dev-outside-fourth")
"""Templated dev sessions made later, for tuning only: ``dev-outside`` is written by the generator with its own seed
and dev's templates only (none held out for test) on the tuning corpus files and on generated documents of that seed
(neither dev's nor test's), to see rule checks and views on documents of test's kind without reading test
(``python -m autodw.dwbench.generate --tuning-split dev-outside``); ``dev-outside-second`` is another, of another seed,
read once untuned after dev-outside was tuned on; ``dev-outside-third``, of a third seed, also draws tuning-only templates
(written blind to test's held-out ones; never drawn for dev or test); ``dev-outside-fourth``, of a fourth seed, draws a
second set of them, by another hand."""
DEV_PARTS = ("dev-mini", "dev-paraphrased", "dev-reworded", *WRITTEN_LATER, *TEMPLATED_LATER)
"""Splits that are part of dev: its mini subset, its sessions reworded, and sessions written later on its documents."""
SPLITS = ("dev", "dev-mini", "test", "mini", "dev-paraphrased", "dev-reworded", *WRITTEN_LATER, *TEMPLATED_LATER)
TUNED = "tuned on"
HELD_OUT = "held out"
#: a split -> the splits that are part of it (a figure on either overlaps tuning on the other)
_PARTS = {"dev": DEV_PARTS, "test": ("mini",)}
#: data versions that hold the same sessions as another (1.1 is 1.0 with item fixes): read as that version
_SAME_SESSIONS = {"1.0": "1.1"}
_NAME = r"dwbench-(\d+\.\d+)/(" + "|".join(TRACKS) + r")/(" + "|".join(SPLITS) + r")"
SPLIT_NAME = re.compile(rf"^{_NAME}$")

#: the schema of a ``tuned_on`` list: DWBench split names, each once
TUNED_ON_SCHEMA: dict[str, Any] = {"type": "array", "uniqueItems": True, "items": {"type": "string", "pattern": f"^{_NAME}$"}}
SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["entries"],
    "properties": {
        "_comment": {"type": "string"},
        "entries": {"type": "array", "minItems": 1, "items": {
            "type": "object",
            "required": ["artefact", "kind", "tuned_on", "how", "evidence"],
            "additionalProperties": False,
            "properties": {
                "artefact": {"type": "string", "pattern": r"^[A-Za-z0-9_./*-]+(?:#[A-Za-z0-9_.]+)?$"},
                "kind": {"enum": list(KINDS)},
                "tuned_on": TUNED_ON_SCHEMA,
                "how": {"type": "string", "minLength": 1},
                "evidence": {"type": "array", "items": {"type": "string", "pattern": "^[0-9a-f]{7,40}$"}},
            },
        }},
    },
    "additionalProperties": False,
}


@dataclass(frozen=True)
class Entry:
    """One tuned artefact and the DWBench splits it was tuned on."""

    artefact: str
    kind: str
    tuned_on: tuple[str, ...]
    how: str
    evidence: tuple[str, ...]

    @property
    def path(self) -> str:
        """The artefact's file (its name without a ``#setting``)."""
        return self.artefact.partition("#")[0]


def split_name(version: str, track: str, split: str) -> str:
    """The name of a split in a ``tuned_on`` list: ``dwbench-VERSION/TRACK/SPLIT``."""
    name = f"dwbench-{version}/{track}/{split}"
    if not SPLIT_NAME.match(name):
        raise ConfigError(f"no DWBench split {name!r}: a version like 2.0, a track of {', '.join(TRACKS)} and a split "
                          f"of {', '.join(SPLITS)}")
    return name


def check_tuned_on(names: Iterable[str], what: str = "tuned_on") -> tuple[str, ...]:
    """`names` as a ``tuned_on`` tuple, checked against :data:`TUNED_ON_SCHEMA` (ConfigError naming `what`)."""
    names = list(names)
    try:
        jsonschema.validate(names, TUNED_ON_SCHEMA)
    except jsonschema.ValidationError as exc:
        raise ConfigError(f"{what}: {exc.message}") from None
    return tuple(names)


def load(path: str | Path = PROVENANCE_FILE) -> tuple[Entry, ...]:
    """The entries of a provenance file, validated against :data:`SCHEMA`; ConfigError if it is unreadable,
    malformed, or names an artefact twice."""
    path = Path(path)
    data = read_checked(path, SCHEMA, "the provenance file")
    entries = tuple(Entry(e["artefact"], e["kind"], tuple(e["tuned_on"]), e["how"], tuple(e["evidence"]))
                    for e in data["entries"])
    seen: set[str] = set()
    for entry in entries:
        if entry.artefact in seen:
            raise ConfigError(f"{path} names {entry.artefact!r} twice")
        seen.add(entry.artefact)
    return entries


@cache
def all_entries() -> tuple[Entry, ...]:
    """Every entry of the package's ``provenance.json``, read once."""
    return load()


def tuned_on(artefact: str) -> tuple[str, ...]:
    """The DWBench splits `artefact` (a path from the repository root, or ``path#setting``) was tuned on: its entry's,
    or that of the entry whose pattern it matches ("autodw/agent/prompts/*.md"); ConfigError if it has none."""
    for entry in all_entries():
        if entry.artefact == artefact:
            return entry.tuned_on
    for entry in all_entries():
        if "*" in entry.artefact and fnmatchcase(artefact, entry.artefact):
            return entry.tuned_on
    raise ConfigError(f"no provenance entry for {artefact!r}; known: {', '.join(e.artefact for e in all_entries())}")


def _parts(version: str, track: str) -> tuple[str, str]:
    version = _SAME_SESSIONS.get(version, version)
    split_name(version, track, "dev")  # checks the version and track
    return version, track


def tuned_splits(version: str, track: str, entries: Iterable[Entry] | None = None) -> set[str]:
    """The splits (``dev``, ``test``...) of DWBench `version`'s `track` that any artefact was tuned on."""
    version, track = _parts(version, track)
    out = set()
    for entry in all_entries() if entries is None else entries:
        for name in entry.tuned_on:
            v, t, s = SPLIT_NAME.match(name).groups()  # type: ignore[union-attr]  # validated when loaded
            if _SAME_SESSIONS.get(v, v) == version and t == track:
                out.add(s)
    return out


def label(version: str, track: str, split: str, entries: Iterable[Entry] | None = None) -> str:
    """How a report labels a figure on `split` of DWBench `version`'s `track`: "tuned on" when anything was tuned on
    that split, on a part of it or on a split it is part of; else "held out"."""
    split_name(version, track, split)
    tuned = tuned_splits(version, track, entries)
    overlapping = {split, *_PARTS.get(split, ()), *(whole for whole, parts in _PARTS.items() if split in parts)}
    return TUNED if tuned & overlapping else HELD_OUT
