"""DWBench records and the typed loader: sessions, instructions, gold calls, and each turn's
initial and expected documents rebuilt by replaying the gold calls (cached on disk by content hash).

One JSON line per instruction in ``data/{track}/{split}-NN.jsonl``: two tracks, ``hand`` (written by people looking
at the document; the headline numbers) and ``templated`` (written by the edit templates; larger), each with the splits
``dev``, ``dev-mini`` (a small subset of dev for quick checks while developing), ``test`` and ``mini`` (a small
stratified subset of test, for reporting only); the hand track also has ``dev-paraphrased`` (tuning only: sessions of
hand dev with every instruction reworded, the same gold calls; each record's ``paraphrase_of`` names its original) and
``dev-reworded`` (the same for other dev sessions, reworded by another hand: how far tuning on dev-paraphrased carries), and ``dev-second`` (tuning only: further sessions on dev's documents, written later by other hands, to
see how far tuning on dev carries to requests and targets it has not seen) ``dev-third`` and ``dev-fourth`` (the same, each
written after the one before was tuned on); the templated track also has ``dev-outside`` (tuning only: sessions the
generator wrote later with a seed of its own and dev's templates, on the tuning documents outside DWBench). Gold call arguments are stored as JSON text (``args``) so that
``datasets.load_dataset("json", data_files=...)`` reads the files without a mixed-type schema;
:class:`GoldCall` gives them back as dicts.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable, Iterator

from autodw.core import provenance
from autodw.core.document import WordDocument
from autodw.core.errors import ArgumentError, BenchmarkDataError, clipped
from autodw.core.package import write_atomically
from autodw.core.paths import data_home, repo_root

PACKAGE_DIR = Path(__file__).resolve().parent
DATA_DIR = PACKAGE_DIR / "data"
DOCS_DIR = DATA_DIR / "docs"
ASSETS_DIR = DATA_DIR / "assets"
MINI_FILE = DATA_DIR / "mini_sessions.txt"
DATA_VERSION = "2.0"
"""The data version, recorded by the runs (runs of different major versions are never paired): 1.0 as generated and
reviewed; 1.1 (2026-11-25) with the item fixes of `generate.fix_record`; 2.0 (2026-12-01) the hand-written track, a
templated track regenerated with a held-out test split, ``accept`` alternatives and tolerances (docs/benchmark/datasheet.md)."""
TRACKS = ("hand", "templated")
SPLITS = provenance.SPLITS
SHARD_SESSIONS = 10
DIFFICULTY = (("easy", 3), ("medium", 6), ("hard", 10**9))
"""Difficulty by gold calls per instruction: easy <= 3, medium 4-6, hard >= 7 (the paper's levels)."""


def difficulty_of(n_calls: int) -> str:
    """easy, medium or hard for an instruction with `n_calls` gold calls."""
    return next(name for name, top in DIFFICULTY if n_calls <= top)


DOCUMENT_SPLITS = DATA_DIR / "document_splits.json"


@lru_cache(maxsize=None)
def document_splits() -> dict[str, Any]:
    """Which source documents each split may start from (``data/document_splits.json``): test never starts from a
    document dev uses, in either track."""
    return json.loads(DOCUMENT_SPLITS.read_text(encoding="utf-8"))


def corpus_dir() -> Path:
    """The shared corpus's docx folder: ``$AUTODW_CORPUS/docx`` or ``../shared/corpus/docx`` beside the checkout."""
    root = os.environ.get("AUTODW_CORPUS")
    base = Path(root).expanduser() if root else repo_root().parent / "shared" / "corpus"
    return base / "docx"


def source_path(src: str) -> Path:
    """The file a session's ``source`` names (it may be missing): ``corpus:NAME.docx`` in the shared corpus
    (:func:`corpus_dir`), else a file of ``data/`` such as ``docs/report-en-1.docx``."""
    if not src.startswith("corpus:"):
        return DATA_DIR / src
    name = src.split(":", 1)[1]
    if not name or Path(name).name != name or name in (".", ".."):
        raise ArgumentError(f"{src!r}: corpus:NAME takes the name of a file of the corpus's docx folder, e.g. "
                            "corpus:oxpt__Hebrew-01.docx")
    return corpus_dir() / name


_ID_ATTRS = re.compile(rb' adw:(?:id|next)="[^"]*"| xmlns:adw="urn:autodw:element-ids"')


def fingerprint_members(members: dict[str, bytes]) -> str:
    """A hash of a package's parts with the element ids removed (ids are bookkeeping, not content)."""
    h = hashlib.sha256()
    for name in sorted(members):
        h.update(name.encode() + b"\0")
        h.update(_ID_ATTRS.sub(b"", members[name]) + b"\0")
    return h.hexdigest()


def fingerprint(doc: WordDocument) -> str:
    """The content hash of a document as it is now."""
    return fingerprint_members(doc.snapshot().members)


def instruction_record(*, session_id: str, turn: int, instruction: str, language: str, doc_language: str, doc_kind: str,
                       source: dict[str, str], calls: list[tuple[str, dict]], intents: list[str], free_text: bool,
                       split: str, templates: list[str]) -> dict[str, Any]:
    """The JSON object of one instruction."""
    initial = (source["file"] if source["kind"] == "generated" else f"corpus:{source['file']}") if turn == 1 else "previous"
    return {
        "session_id": session_id, "turn": turn, "instruction": instruction, "language": language,
        "doc_language": doc_language, "doc_kind": doc_kind, "initial_document": initial,
        "source_kind": source["kind"], "source_file": source["file"], "source_sha256": source["sha256"],
        "gold": [{"api": api, "args": json.dumps(args, ensure_ascii=False, sort_keys=True)} for api, args in calls],
        "n_calls": len(calls), "difficulty": difficulty_of(len(calls)),
        "intents": list(dict.fromkeys(intents)), "free_text": free_text, "split": split, "templates": templates,
    }


# ----------------------------------------------------------------------------- typed records
@dataclass(frozen=True)
class GoldCall:
    """One gold API call: name and full arguments."""

    api: str
    args: dict[str, Any]


@dataclass(frozen=True)
class Source:
    """Where a session starts: a generated file of ``data/`` or a corpus file (name + sha256)."""

    kind: str  # "generated" or "corpus"
    file: str
    sha256: str

    def path(self) -> Path:
        """The file on disk; BenchmarkDataError if it is missing or its checksum differs."""
        path = DATA_DIR / self.file if self.kind == "generated" else corpus_dir() / self.file
        if not path.is_file():
            hint = (" (the shared corpus is expected at ../shared/corpus beside the checkout, or set AUTODW_CORPUS)"
                    if self.kind == "corpus" else "")
            raise BenchmarkDataError(f"DWBench source document {self.file} not found at {path}{hint}")
        if _sha256(path) != self.sha256:
            raise BenchmarkDataError(f"DWBench source document {path} has changed (sha256 differs from the benchmark's)")
        return path


@lru_cache(maxsize=None)
def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@dataclass(frozen=True)
class Instruction:
    """One benchmark instruction (a turn of a session) with its gold calls."""

    session_id: str
    turn: int
    text: str
    language: str
    doc_language: str
    doc_kind: str
    source: Source
    gold: tuple[GoldCall, ...]
    difficulty: str
    intents: tuple[str, ...]
    free_text: bool
    split: str
    templates: tuple[str, ...]
    track: str = "templated"
    written_by: str = "template"
    requests: int = 1
    tags: tuple[str, ...] = ()
    ambiguous: str | None = None
    accept: dict[str, Any] | None = None  # {"alternatives": [[GoldCall...]...], "tolerances": [...]}
    held_out: bool = False  # test: uses a template or phrasing dev never contains (templated), or any hand turn of test

    @property
    def alternatives(self) -> tuple[tuple[GoldCall, ...], ...]:
        """Other gold sequences a user would accept as well (``accept.alternatives``)."""
        return tuple(tuple(GoldCall(c["api"], c["args"]) for c in alt) for alt in (self.accept or {}).get("alternatives", ()))

    @property
    def tolerances(self) -> tuple[dict[str, Any], ...]:
        """Per-property tolerances a user would accept (``accept.tolerances``)."""
        return tuple((self.accept or {}).get("tolerances", ()))

    @property
    def key(self) -> str:
        """``SESSION_ID#TURN``."""
        return f"{self.session_id}#{self.turn}"


@dataclass(frozen=True)
class Session:
    """A session: its source document and its instructions in turn order."""

    session_id: str
    language: str
    source: Source
    instructions: tuple[Instruction, ...]

    @property
    def n_calls(self) -> int:
        """The gold calls of all its instructions."""
        return sum(len(i.gold) for i in self.instructions)

    def initial_document(self, turn: int = 1) -> WordDocument:
        """The document the instruction of `turn` (1-based) starts from, with the ids the gold calls use."""
        return replay(self, turn - 1)

    def expected_document(self, turn: int) -> WordDocument:
        """The expected document after `turn`: the gold calls of turns 1..turn replayed."""
        return replay(self, turn)

    def data_hash(self, turn: int) -> str:
        """What instruction `turn` is run and judged against, as 12 hex digits: a hash of the source document and of
        the instructions (text, free-text flag, gold calls, and what else they accept) of turns 1..turn, which give its initial and expected
        documents and the earlier instructions a system is shown."""
        data = [self.source.sha256,
                [[i.text, i.free_text, [[c.api, c.args] for c in i.gold]] + ([i.accept] if i.accept else [])
                 for i in self.instructions[:turn]]]
        return hashlib.sha256(json.dumps(data, ensure_ascii=False, sort_keys=True).encode()).hexdigest()[:12]


def instruction_from_record(rec: dict[str, Any]) -> Instruction:
    """The typed instruction of one JSON record."""
    return Instruction(
        session_id=rec["session_id"], turn=rec["turn"], text=rec["instruction"], language=rec["language"],
        doc_language=rec["doc_language"], doc_kind=rec["doc_kind"],
        source=Source(rec["source_kind"], rec["source_file"], rec["source_sha256"]),
        gold=tuple(GoldCall(g["api"], json.loads(g["args"])) for g in rec["gold"]),
        difficulty=rec["difficulty"], intents=tuple(rec["intents"]), free_text=rec["free_text"], split=rec["split"],
        templates=tuple(rec.get("templates", ())), track=rec.get("track", "templated"),
        written_by=rec.get("written_by", "template"), requests=rec.get("requests", 1), tags=tuple(rec.get("tags") or ()),
        ambiguous=rec.get("ambiguous"), accept=json.loads(rec["accept"]) if rec.get("accept") else None,
        held_out=bool(rec.get("held_out", False)))


def split_files(split: str, track: str = "templated") -> list[Path]:
    """The JSONL shards of a split of a track."""
    if split not in SPLITS:
        raise BenchmarkDataError(f"unknown split {split!r}; choose one of {', '.join(SPLITS)}")
    if track not in TRACKS:
        raise BenchmarkDataError(f"unknown track {track!r}; choose one of {', '.join(TRACKS)}")
    files = sorted((DATA_DIR / track).glob(f"{split}-[0-9]*.jsonl"))
    if not files:
        raise BenchmarkDataError(f"no data for split {split!r} of track {track!r} in {DATA_DIR / track}")
    return files


def iter_records(split: str, track: str = "templated") -> Iterator[dict[str, Any]]:
    """The raw JSON records of a split of a track, in file order."""
    for path in split_files(split, track):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                yield json.loads(line)


def load_split(split: str = "test", track: str = "templated") -> list[Session]:
    """The sessions of a split (``dev``, ``dev-mini``, ``test``, ``mini``, ``dev-paraphrased`` or ``dev-reworded``)
    of a track, in order."""
    return sessions_of(iter_records(split, track))


def sessions_of(records: Iterable[dict[str, Any]]) -> list[Session]:
    """Instruction records grouped into their sessions, in the order sessions first appear."""
    sessions: dict[str, list[Instruction]] = {}
    for rec in records:
        sessions.setdefault(rec["session_id"], []).append(instruction_from_record(rec))
    out = []
    for sid, items in sessions.items():
        items.sort(key=lambda i: i.turn)
        if [i.turn for i in items] != list(range(1, len(items) + 1)):
            raise BenchmarkDataError(f"session {sid}: turns are not 1..{len(items)}")
        out.append(Session(sid, items[0].language, items[0].source, tuple(items)))
    return out


def write_shards(folder: Path, split: str, sessions: list[list[dict[str, Any]]]) -> None:
    """Write the records of `sessions` (each a list of records) as ``folder/{split}-NN.jsonl``, SHARD_SESSIONS a
    file."""
    for k in range(0, len(sessions), SHARD_SESSIONS):
        lines = [json.dumps(r, ensure_ascii=False) for s in sessions[k:k + SHARD_SESSIONS] for r in s]
        (folder / f"{split}-{k // SHARD_SESSIONS:02d}.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")


def load_instructions(split: str = "test", track: str = "templated") -> list[Instruction]:
    """Every instruction of a split of a track, session by session, in turn order."""
    return [i for s in load_split(split, track) for i in s.instructions]


def find_session(session_id: str) -> Session:
    """The session with this id, from whichever track and split holds it (dev or test)."""
    for track in TRACKS:
        for split in ("dev", "test"):
            for s in load_split(split, track):
                if s.session_id == session_id:
                    return s
    raise BenchmarkDataError(f"there is no DWBench session {clipped(repr(session_id), 80)}")


# ----------------------------------------------------------------------------- replay
def open_source(source: Source) -> WordDocument:
    """The session's first document, opened (asset folder set for the image APIs)."""
    doc = WordDocument.open(source.path())
    doc.asset_roots = [ASSETS_DIR]
    return doc


def cache_dir() -> Path:
    """Where replayed documents are cached (safe to delete)."""
    return data_home() / "dwbench" / "cache"


@lru_cache(maxsize=1)
def replay_code() -> str:
    """A fingerprint of the code a replay runs (the sources and data of ``autodw/apis`` and ``autodw/core``), part of
    the replay cache's key: an API that changes what it writes makes the cache miss instead of returning stale
    expected documents (a version bumped by hand was forgotten twice)."""
    root = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256()
    for path in sorted(p for part in ("apis", "core") for p in (root / part).rglob("*") if p.suffix in (".py", ".json")):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def replay(session: Session, turns: int, use_cache: bool = True) -> WordDocument:
    """The document after the gold calls of the first `turns` turns (0: the source document).

    Cached under :func:`cache_dir` by a hash of :func:`replay_code`, the source checksum and the calls replayed; the
    cached file keeps the element ids, so ids in later gold calls still match.
    """
    from autodw.apis import execute

    if not 0 <= turns <= len(session.instructions):
        raise BenchmarkDataError(f"session {session.session_id} has {len(session.instructions)} turns, not {turns}")
    calls = [(c.api, c.args) for i in session.instructions[:turns] for c in i.gold]
    key = hashlib.sha256(json.dumps([replay_code(), session.source.sha256, calls], sort_keys=True).encode()).hexdigest()[:32]
    cached = cache_dir() / f"{key}.docx"
    if use_cache and cached.is_file():
        doc = WordDocument.from_bytes(cached.read_bytes(), name=session.source.file)
        doc.asset_roots = [ASSETS_DIR]
        return doc
    if turns == 0:
        doc = open_source(session.source)
    else:
        doc = replay(session, turns - 1, use_cache)
        ins = session.instructions[turns - 1]
        for k, call in enumerate(ins.gold, 1):
            try:
                execute(doc, call.api, call.args)
            except ArgumentError as exc:  # the data no longer fits the APIs: a benchmark bug, not the system's
                raise BenchmarkDataError(f"{session.session_id}#{ins.turn}: gold call {k} ({call.api}) fails at this "
                                         f"commit: {exc}; check the session's data (for a hand session: "
                                         f"`autodw bench author FILE`)") from exc
    if use_cache:  # a temporary file of its own: threads of one run replay the same turns at once
        write_atomically(cached, doc.to_bytes(keep_ids=True))
    return doc
