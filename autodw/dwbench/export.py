"""DWBench as Parquet files with declared ``datasets`` features, one per track and split (``DIR/{track}/{split}.parquet``),
and a README.md describing the columns (``autodw bench export``)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Sequence

from autodw.dwbench.records import SPLITS, TRACKS, iter_records, split_files
from autodw.core.errors import BenchmarkDataError

if TYPE_CHECKING:
    from datasets import Features

COLUMNS: dict[str, tuple[Any, Any, str]] = {
    # name: (feature type, value when a record lacks it, description)
    "session_id": ("string", None, "the session (dwb-NNN templated, dwh-NNN hand)"),
    "turn": ("int32", None, "the turn in the session, 1-based"),
    "instruction": ("string", None, "the instruction a system is given"),
    "language": ("string", None, "the instruction's language: en or zh"),
    "doc_language": ("string", None, "the document's language"),
    "doc_kind": ("string", None, "the kind of document (report, contract, ..., corpus)"),
    "initial_document": ("string", None, "what the turn starts from: a file of data/ (docs/NAME.docx), corpus:NAME.docx, or "
                                         "previous (the document after the earlier turns)"),
    "source_kind": ("string", None, "generated (a file of data/docs) or corpus (a file of the shared corpus)"),
    "source_file": ("string", None, "the session's source document"),
    "source_sha256": ("string", None, "its sha256"),
    "gold": ([{"api": "string", "args": "string"}], None, "the gold API calls in order; args as JSON text"),
    "n_calls": ("int32", None, "the number of gold calls"),
    "difficulty": ("string", None, "easy (<= 3 calls), medium (4-6) or hard (>= 7)"),
    "intents": (["string"], None, "the intents of the gold calls"),
    "free_text": ("bool", None, "the agent chooses words itself (judged leniently)"),
    "split": ("string", None, "dev, dev-mini, test or mini"),
    "templates": (["string"], None, "the edit templates the turn was made from (hand for the hand track)"),
    "track": ("string", "templated", "hand or templated"),
    "written_by": ("string", "template", "hand or template"),
    "writer": ("string", None, "who wrote a hand turn (null for templated)"),
    "requests": ("int32", 1, "how many requests the turn holds"),
    "tags": (["string"], [], "what the turn does that templated text rarely does (back-reference, pronoun, correction, ...)"),
    "ambiguous": ("string", None, "null, or why the words allow several outcomes"),
    "accept": ("string", None, "null, or JSON text {alternatives: [[calls]], tolerances: [...]}: other outcomes a user accepts"),
    "held_out": ("bool", False, "test turns with a template or phrasing dev never has (templated), or any hand test turn"),
    "clauses": (["string"], [], "the clauses a templated instruction was joined from (empty when not recorded)"),
    "phrasings": (["string"], [], "the phrasings used, as template/lang/index ids (empty when not recorded)"),
}
"""The exported columns: type, default for records written before DWBench 2.0, description."""


def _feature(spec: Any) -> Any:
    """The ``datasets`` feature of a column type: a dtype name, [item type] (a list) or {field: type}."""
    from datasets import Value

    if isinstance(spec, list):
        return [_feature(spec[0])]
    if isinstance(spec, dict):
        return {k: _feature(v) for k, v in spec.items()}
    return Value(spec)


def features() -> Features:
    """The declared ``datasets.Features`` of every exported file."""
    from datasets import Features

    return Features({name: _feature(spec) for name, (spec, _, _) in COLUMNS.items()})


def row(rec: dict[str, Any]) -> dict[str, Any]:
    """One record as a row of the exported columns (defaults for fields it lacks, other fields dropped)."""
    return {name: rec.get(name, default) for name, (_, default, _) in COLUMNS.items()}


def has_data(split: str, track: str) -> bool:
    """Whether a split of a track has data files (the hand track is being written)."""
    try:
        return bool(split_files(split, track))
    except BenchmarkDataError:
        return False


def export(out_dir: str | Path, tracks: Sequence[str] = TRACKS) -> list[Path]:
    """Write every split of `tracks` that has data as ``out_dir/{track}/{split}.parquet``, and a README.md; the paths."""
    import pyarrow.parquet as pq
    from datasets import Dataset

    out, written = Path(out_dir), []
    for track in tracks:
        for split in SPLITS:
            if not has_data(split, track):
                continue
            path = out / track / f"{split}.parquet"
            path.parent.mkdir(parents=True, exist_ok=True)
            table = Dataset.from_list([row(r) for r in iter_records(split, track)], features=features()).data.table
            pq.write_table(table, path)  # the features go along in the schema metadata (no progress bar)
            written.append(path)
    readme = out / "README.md"
    readme.parent.mkdir(parents=True, exist_ok=True)
    readme.write_text(_readme(written, out), encoding="utf-8")
    return written + [readme]


def _readme(files: list[Path], out: Path) -> str:
    """The README: the files, how to load them, the columns."""
    rows = "\n".join(f"| `{name}` | {_type(spec)} | {text} |" for name, (spec, _, text) in COLUMNS.items())
    listing = "\n".join(f"- `{p.relative_to(out)}`" for p in files)
    return f"""# DWBench

Word-editing instructions (English and Chinese) with gold API calls, one row per instruction (turn of a session).
Two tracks, `hand` (written by people; the headline numbers) and `templated` (written by the edit templates);
splits dev, dev-mini (a subset of dev), test and mini (a subset of test).

{listing}

```python
from datasets import load_dataset
ds = load_dataset("parquet", data_files={{"test": "templated/test.parquet"}})
```

| column | type | meaning |
|---|---|---|
{rows}
"""


def _type(spec: Any) -> str:
    if isinstance(spec, list):
        return f"list of {_type(spec[0])}"
    if isinstance(spec, dict):
        return "{" + ", ".join(f"{k}: {v}" for k, v in spec.items()) + "}"
    return spec
