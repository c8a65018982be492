"""The hand-written track: sessions written by people looking at the document, one JSON file each under
``data/hand/sessions/``, and the records built from them (``data/hand/{split}-NN.jsonl``).

An authoring file (its schema is :data:`SESSION_SCHEMA`)::

    {"session_id": "dwh-001", "language": "en", "writer": "hand-a", "split": "dev",
     "source": "corpus:NAME.docx" | "docs/report-en-1.docx", "doc_kind": "report",
     "turns": [{"text": "make the title a bit bigger", "requests": 1, "tags": ["no-quote"],
                "gold": [{"api": "set_text_format", "args": {"paragraphs": ["p1"], "size_pt": 28}}],
                "accept": {"alternatives": [[...calls...]], "tolerances": [{"key": "size_pt", "within": 4}]},
                "ambiguous": "why the words allow several outcomes (optional)"}]}

``autodw bench author FILE`` replays a file turn by turn and says what is wrong (a call that fails, an id that does
not exist, a turn that changes nothing, a call that leaves the document state as it was, a call that is not needed,
an alternative that fails) and reviews each turn
(:func:`review`: its request, and each gold call's targets with their part and first words, or what a call that
names none acts on; a warning for a target
outside the body in a part the request does not name); ``--state N`` prints
the document after turn N with its element ids, the view a writer writes the next turn from.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, replace
from pathlib import Path, PurePosixPath
from typing import Any

from autodw.core import provenance
from autodw.core.errors import BenchmarkDataError

HAND_DIR = Path(__file__).resolve().parent / "data" / "hand"
SEEN_TEST_FILE = HAND_DIR / "seen_test.json"  # test sessions seen during development: none of their turns is held out
SESSIONS_DIR = HAND_DIR / "sessions"
WRITTEN_LATER = provenance.WRITTEN_LATER
PARAPHRASES = {"dev-paraphrased": HAND_DIR / "paraphrases.json", "dev-reworded": HAND_DIR / "rewordings.json"}
"""Hand dev turns reworded (``{"paraphrases": {"SID#T": [text, ...]}}``), a split each, for tuning: ``dev-paraphrased``
(tuned on) and ``dev-reworded`` (other sessions, written later by another hand, to see how far that tuning carries)."""

TAGS = ("back-reference", "pronoun", "description", "goal", "correction", "undo", "no-quote", "typo", "mixed-language",
        "vague-value", "copy", "free-text")
"""What a turn does that templated text rarely does (counted by ``bench stats``): refers back to an earlier turn
("that paragraph too"), names its target by a pronoun or a description instead of quoting it, states a goal ("make
the headings consistent"), corrects or undoes an earlier turn, gives no quoted value, has a typo, mixes English terms
into Chinese, leaves a value vague ("a bit bigger"), asks for a copy of something, leaves the words to the agent."""

TOLERANCE_SCHEMA = {
    "oneOf": [
        {"type": "object", "required": ["colour"], "additionalProperties": False,
         "properties": {"colour": {"type": "string", "minLength": 1}}},
        {"type": "object", "required": ["key", "within"], "additionalProperties": False,
         "properties": {"key": {"type": "string", "pattern": "^[a-z_]+$"}, "within": {"type": "number", "exclusiveMinimum": 0}}},
        {"type": "object", "required": ["heading_levels"], "additionalProperties": False,
         "properties": {"heading_levels": {"type": "array", "items": {"type": "integer", "minimum": 0, "maximum": 9},
                                           "minItems": 2, "uniqueItems": True}}},
    ]
}
"""A per-property tolerance: any colour of a named family (``{"colour": "dark blue"}``), a numeric property within a
margin (``{"key": "size_pt", "within": 2}``: a size "a bit bigger"), or a heading at any of several levels
(``{"heading_levels": [2, 3]}``; 0 is the Title, as insert_heading numbers it). Order-free insertions and other whole
outcomes are ``alternatives``."""

TOLERANCE_KEYS: dict[str, tuple[str, ...]] = {
    "size_pt": (), "char_spacing_pt": (), "position_pt": (), "scale_pct": (), "before_pt": ("space_before",),
    "after_pt": ("space_after",), "line": ("line_spacing", "line_height"), "left_cm": ("left_indent",),
    "right_cm": ("right_indent",), "first_line_cm": ("first_line_indent",), "hanging_cm": ("hanging_indent",),
    "width_cm": ("width",), "height_cm": ("height",), "indent_cm": (), "page_width_cm": ("width",),
    "page_height_cm": ("height",), "space_cm": ("spacing",), "space_pt": (), "width_pt": ("size_pt",),
    "offset_cm": ("x", "y"), "position_cm": (), "left_pct": ("left",), "right_pct": ("right",), "top_pct": ("top",),
    "bottom_pct": ("bottom",)}
"""The numeric keys of the document state a ``{"key", "within"}`` tolerance may name (a name the judge never compares
would silently tolerate nothing), each with the API arguments that set it. A writer may name such an argument
instead (``space_before``: the state's ``before_pt``) where it sets one key only; a state key's own name is that key.
Lists of lengths (a table's column widths) take no tolerance: use alternatives."""


def tolerance_key(name: str) -> str:
    """The state key a tolerance's ``key`` names: a key of :data:`TOLERANCE_KEYS`, or the one key the API argument
    `name` sets; BenchmarkDataError listing the valid keys (and those `name` may mean) otherwise."""
    if name in TOLERANCE_KEYS:
        return name
    meant = [key for key, arguments in TOLERANCE_KEYS.items() if name in arguments]
    if len(meant) == 1:
        return meant[0]
    hint = (f"the argument {name!r} sets {' or '.join(meant)}: name the one meant; " if meant else "")
    raise BenchmarkDataError(f"{name!r} is no numeric property the judge compares; {hint}"
                   f"a state key ({', '.join(sorted(TOLERANCE_KEYS))}) or an API argument that sets one "
                   f"({', '.join(sorted({a for args in TOLERANCE_KEYS.values() for a in args}))})")


_CALL = {"type": "object", "required": ["api", "args"], "additionalProperties": False,
         "properties": {"api": {"type": "string"}, "args": {"type": "object"}}}

SESSION_SCHEMA = {
    "type": "object",
    "required": ["session_id", "language", "writer", "split", "source", "turns"],
    "additionalProperties": False,
    "properties": {
        "session_id": {"type": "string", "pattern": "^dwh-[0-9]{3}$"},
        "language": {"enum": ["en", "zh"]},
        "writer": {"type": "string", "minLength": 1},
        "split": {"enum": ["dev", "test", *WRITTEN_LATER]},
        "source": {"type": "string", "pattern": "^(corpus:[^/]+\\.docx|docs/[a-z]+-(en|zh)-[0-9]\\.docx)$"},
        "doc_kind": {"type": "string"},
        "notes": {"type": "string"},
        "turns": {"type": "array", "minItems": 3, "maxItems": 12, "items": {
            "type": "object", "required": ["text", "requests", "gold"], "additionalProperties": False,
            "properties": {
                "text": {"type": "string", "minLength": 2},
                "requests": {"type": "integer", "minimum": 1, "maximum": 6},
                "tags": {"type": "array", "items": {"enum": list(TAGS)}, "uniqueItems": True},
                "ambiguous": {"type": "string", "minLength": 3},
                "gold": {"type": "array", "minItems": 1, "items": _CALL},
                "accept": {"type": "object", "additionalProperties": False, "properties": {
                    "alternatives": {"type": "array", "items": {"type": "array", "minItems": 1, "items": _CALL}},
                    "tolerances": {"type": "array", "items": TOLERANCE_SCHEMA}}},
            }}},
    },
}


@dataclass(frozen=True)
class Authored:
    """One authoring file, checked against the schema."""

    path: Path
    data: dict[str, Any]

    @property
    def session_id(self) -> str:
        return self.data["session_id"]


def read(path: str | Path, draft: bool = False) -> Authored:
    """Load and schema-check one authoring file (BenchmarkDataError naming the file and the field); a `draft` (a
    session being written, checked by ``bench author``) may have fewer turns than a session needs."""
    import jsonschema

    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise BenchmarkDataError(f"{path}: cannot read the session file: {exc}") from exc
    errors = sorted((e for e in jsonschema.Draft202012Validator(SESSION_SCHEMA).iter_errors(data)
                     if not (draft and list(e.absolute_path) == ["turns"] and e.validator == "minItems")),
                    key=lambda e: list(e.path))
    if errors:
        e = errors[0]
        where = "/".join(str(p) for p in e.absolute_path) or "(top)"
        raise BenchmarkDataError(f"{path}: {where}: {_schema_message(e)}")
    if data["session_id"] != path.stem:
        raise BenchmarkDataError(f"{path}: session_id {data['session_id']!r} differs from the file name")
    from autodw.core.colours import colour_family

    for n, turn in enumerate(data["turns"], 1):
        for t in (turn.get("accept") or {}).get("tolerances", ()):
            if "colour" in t and colour_family(t["colour"]) is None:
                raise BenchmarkDataError(f"{path}: turns/{n}: {t['colour']!r} names no colour family of "
                                         "autodw/colour_names.json")
            if "key" in t:
                try:
                    t["key"] = tolerance_key(t["key"])
                except BenchmarkDataError as exc:
                    raise BenchmarkDataError(f"{path}: turns/{n}: {exc}") from None
    return Authored(path, data)


def _schema_message(error: Any) -> str:
    """A schema error in words that do not repeat the whole value (a too-short list of turns printed in full)."""
    bounds = {"minItems": "at least", "maxItems": "at most"}
    if error.validator in bounds:
        return f"has {len(error.instance)} item(s); needs {bounds[error.validator]} {error.validator_value}"
    return error.message[:300]


def source_of(data: dict[str, Any]) -> dict[str, str]:
    """The record's source (kind, file, sha256) of an authoring file's ``source``."""
    from autodw.dwbench.records import document_splits, source_path

    src = data["source"]
    kind, name = ("corpus", src.split(":", 1)[1]) if src.startswith("corpus:") else ("generated", src)
    path = source_path(src)
    if not path.is_file():
        raise BenchmarkDataError(f"{data['session_id']}: source document {src} not found at {path}")
    side = "test" if data["split"] == "test" else "dev"
    allowed = set(document_splits()[side][kind])
    if data["split"] in WRITTEN_LATER:
        allowed |= set(document_splits()["tuning"].get(kind, []))
    if PurePosixPath(name).name not in allowed:
        sides = f"{side}'s or the tuning" if data["split"] in WRITTEN_LATER else f"{side}'s"
        raise BenchmarkDataError(f"{data['session_id']}: a {data['split']} session cannot start from {src}: it is not "
                                 f"one of {sides} documents (data/document_splits.json)")
    return {"kind": kind, "file": name, "sha256": hashlib.sha256(path.read_bytes()).hexdigest()}


def document_language(source: dict[str, str]) -> str:
    """en or zh: a generated document's from its name, a corpus file's from ``data/document_splits.json``."""
    from autodw.dwbench.records import document_splits

    if source["kind"] == "generated":
        return "zh" if "-zh-" in source["file"] else "en"
    return document_splits()["languages"].get(source["file"], "en")


def records_of(authored: Authored) -> list[dict[str, Any]]:
    """The JSONL records of one authored session (``written_by: "hand"``, track ``hand``)."""
    from autodw.apis import registry
    from autodw.dwbench.records import instruction_record

    reg = registry()
    d = authored.data
    source = source_of(d)
    doc_language = document_language(source)
    out = []
    for n, t in enumerate(d["turns"], 1):
        calls = [(c["api"], c["args"]) for c in t["gold"]]
        unknown = [a for a, _ in calls if a not in reg.names()]
        if unknown:
            raise BenchmarkDataError(f"{authored.path}: turn {n}: unknown API {unknown[0]!r}")
        rec = instruction_record(
            session_id=d["session_id"], turn=n, instruction=t["text"], language=d["language"], doc_language=doc_language,
            doc_kind=d.get("doc_kind") or ("corpus" if source["kind"] == "corpus" else source["file"].split("/")[-1].split("-")[0]),
            source=source, calls=calls, intents=[reg.get(a).intent for a, _ in calls],
            free_text="free-text" in t.get("tags", ()), split=d["split"], templates=["hand"])
        rec.update(track="hand", written_by="hand", writer=d["writer"], requests=t["requests"], tags=t.get("tags", []),
                   ambiguous=t.get("ambiguous"), accept=_accept_record(t.get("accept")))
        out.append(rec)
    return out


def _accept_record(accept: dict[str, Any] | None) -> str | None:
    """``accept`` as JSON text (so ``datasets`` reads the files without a mixed-type schema), calls' args included."""
    return json.dumps(accept, ensure_ascii=False, sort_keys=True) if accept else None


def authored_sessions() -> list[Authored]:
    """Every authoring file, in session order."""
    return [read(p) for p in sorted(SESSIONS_DIR.glob("dwh-*.json"))]


def session_of(authored: Authored):
    """The loader's :class:`~autodw.dwbench.records.Session` of an authored session (as ``build`` writes it)."""
    from autodw.dwbench.records import sessions_of

    return sessions_of(records_of(authored))[0]


def check(authored: Authored) -> list[str]:
    """Replay an authored session and return its problems (empty: it is good), as ``autodw bench validate`` checks a
    session (each turn's gold and each alternative from the turn's start, and the faults found in 1.1) and, as well,
    that each gold call changes the state (a state read after every call: too slow to repeat on every split)."""
    from autodw.dwbench.validate import validate_session

    try:
        session = session_of(authored)
    except BenchmarkDataError as exc:
        return [str(exc)]
    return [str(f) for f in validate_session(session, each_call_changes=True)]


def document_after(authored: Authored, turn: int):
    """The document after the gold calls of turns 1..`turn` (0: the source), with the ids later turns use."""
    from autodw.dwbench.records import replay

    return replay(session_of(authored), turn, use_cache=False)


PART_WORDS: dict[str, tuple[str, ...]] = {
    "header": ("header", "页眉"), "footer": ("footer", "page number", "页脚", "页码"),
    "footnote": ("footnote", "脚注"), "comment": ("comment", "批注", "评论")}
"""The words (lower case) by which a request names a part other than the body: :func:`review` warns of a gold call on
a part the request names none of these words of (footer paragraphs have ids too: p3 of the footer for p3 of the body
passes every check)."""
_NOTE_ARGUMENTS = {"note": ("footnote", "footnotes"), "comment": ("comment", "comments")}  # integer references


@dataclass(frozen=True)
class Target:
    """What a gold call names: an element id (or a footnote's or comment's number), its part and its first words."""

    id: str
    part: str
    words: str


@dataclass(frozen=True)
class CallReview:
    """One gold call, its targets and the parts among them its turn's request does not name; `acts_on`: what a call
    that names no element acts on (:func:`acts_on`; "" for one that names some)."""

    api: str
    targets: tuple[Target, ...]
    unnamed_parts: tuple[str, ...]
    acts_on: str = ""
    fails: str = ""  # the error of a call that fails on the document its turn reaches (the review ends there)

    def shown(self) -> str:
        """Its targets as the writer's review prints them."""
        if self.fails:
            return f"fails: {self.fails}"
        return ("; ".join(f"{t.id} {t.part} {t.words!r}" for t in self.targets)
                or f"acts on {self.acts_on} (names no element)")


def review(authored: Authored) -> list[tuple[str, list[CallReview]]]:
    """Per turn, its request and its gold calls' targets, each looked up in the document the call runs on (the
    earlier calls replayed); a call that fails ends the review there (:func:`check` says why)."""
    from autodw.apis import execute
    from autodw.core.errors import ApiError

    session = session_of(authored)
    doc = session.initial_document(1)
    out = []
    for ins in session.instructions:
        text = ins.text.lower()
        named = {part for part, words in PART_WORDS.items() if any(w in text for w in words)}
        calls = []
        for call in ins.gold:
            targets = tuple(_targets(doc, call.args))
            unnamed = tuple(dict.fromkeys(t.part for t in targets if t.part not in ("body", *named)))
            review = CallReview(call.api, targets, unnamed, "" if targets else acts_on(call.api, call.args))
            try:
                execute(doc, call.api, call.args)
            except ApiError as exc:
                return out + [(ins.text, [*calls, replace(review, fails=str(exc))])]
            calls.append(review)
        out.append((ins.text, calls))
    return out


def _targets(doc, args: Any) -> list[Target]:
    """The elements `args` name by id (any string that is one) and the footnotes and comments they name by number."""
    from autodw.analysis.state import extract_state
    from autodw.apis.ooxml.locate import story_of
    from autodw.apis.schema import shown_number
    from autodw.core.errors import ArgumentError
    from autodw.core.ids import parse_id
    from autodw.core.xml import qn

    out = []
    for key, value in _leaves(args):
        if isinstance(value, str) and parse_id(value):
            try:
                el = doc.find(value)
            except ArgumentError:
                out.append(Target(value, "no such element", ""))
                continue
            out.append(Target(value, story_of(doc, el), _first_words(" ".join("".join(t.text or "" for t in p.iter(qn("w:t")))
                                                                    for p in el.iter(qn("w:p"))))))
        elif key in _NOTE_ARGUMENTS and not isinstance(value, bool) and shown_number(value) is not None:  # 3 or "#3"
            part, kind = _NOTE_ARGUMENTS[key]
            number = shown_number(value)
            found = next((n for n in extract_state(doc)["interactive"][kind] if str(n.get("id")) == number), None)
            out.append(Target(f"{part} {value}", part, _first_words(found["text"]) if found else "(not found)"))
    return out


def acts_on(api: str, args: dict[str, Any]) -> str:
    """What a call that names no element acts on, as the review says it: the style it names, the sections, the text
    it finds, else the whole document."""
    if api.endswith("_style") and isinstance(args.get("name"), str):
        return f"style {args['name']!r}"
    if "section" in args:
        return "every section" if args["section"] == "all" else f"section {args['section']}"
    if isinstance(args.get("find"), str):
        return f"the text matching {args['find']!r}"
    return "the whole document"


def _leaves(value: Any, key: str = "") -> list[tuple[str, Any]]:
    """(argument name, value) of every string and number in nested arguments."""
    if isinstance(value, dict):
        return [leaf for k, v in value.items() for leaf in _leaves(v, k)]
    if isinstance(value, list):
        return [leaf for v in value for leaf in _leaves(v, key)]
    return [(key, value)]


def _first_words(text: str, words: int = 8) -> str:
    cut = text.split()
    return " ".join(cut[:words]) + (" ..." if len(cut) > words else "") if cut else "(no text)"


SUBSETS = {"mini": ("test", 3), "dev-mini": ("dev", 2)}
"""Fixed subsets (of which split, sessions per language): ``mini`` for reporting, ``dev-mini`` for quick checks."""


def subset(sessions: list[list[dict[str, Any]]], per_language: int, seed: int) -> list[list[dict[str, Any]]]:
    """A seeded subset with `per_language` sessions of each language, at least one from a corpus file and every
    intent of the split's gold where it can (the first draw of 2,000 that has the most intents)."""
    import random

    rng = random.Random(seed)
    by_lang = {lang: [s for s in sessions if s[0]["language"] == lang] for lang in ("en", "zh")}
    best, best_score = None, -1
    for _ in range(2000):
        pick = [s for lang in ("en", "zh") for s in rng.sample(by_lang[lang], min(per_language, len(by_lang[lang])))]
        score = len({i for s in pick for r in s for i in r["intents"]}) + 10 * any(s[0]["source_kind"] == "corpus" for s in pick)
        if score > best_score:
            best, best_score = pick, score
    return sorted(best or [], key=lambda s: s[0]["session_id"])


def build(out_dir: Path = HAND_DIR) -> dict[str, int]:
    """Write ``{split}-NN.jsonl`` of the hand-written track from the authoring files (dev, test and their subsets
    ``dev-mini`` and ``mini``), :data:`WRITTEN_LATER` (later dev sessions, tuning only) and the splits of :data:`PARAPHRASES`
    (:func:`paraphrased`); returns records per split. A test turn is held out unless one of its clauses is word for word
    a clause of dev or a split written later (test never starts from a dev document) or its session was seen during
    development (:data:`SEEN_TEST_FILE`)."""
    from autodw.dwbench.records import write_shards

    by_split: dict[str, list[list[dict[str, Any]]]] = {}
    for a in authored_sessions():
        by_split.setdefault(a.data["split"], []).append(records_of(a))
    from autodw.dwbench.leakage import verbatim_clauses

    dev_clauses = {c for split in ("dev", *WRITTEN_LATER) for s in by_split.get(split, []) for r in s
                   for c in verbatim_clauses(r)}
    seen = json.loads(SEEN_TEST_FILE.read_text(encoding="utf-8"))["sessions"]
    for s in by_split.get("test", []):
        for r in s:
            r["held_out"] = r["session_id"] not in seen and not dev_clauses.intersection(verbatim_clauses(r))
    for name, (split, per_language) in SUBSETS.items():
        by_split[name] = [[dict(r, split=name) for r in s] for s in subset(by_split.get(split, []), per_language, seed=len(name))]
    for name in PARAPHRASES:
        by_split[name] = paraphrased(by_split.get("dev", []), name)
    for old in out_dir.glob("*.jsonl"):
        old.unlink()
    for split, sessions in by_split.items():
        write_shards(out_dir, split, sessions)
    return {split: sum(len(s) for s in sessions) for split, sessions in by_split.items()}


def paraphrased(dev: list[list[dict[str, Any]]], split: str) -> list[list[dict[str, Any]]]:
    """The sessions of `split` (tuning only): for each session of its file in :data:`PARAPHRASES`, session ``SID-pK`` is
    dev session SID with every turn's text its K-th paraphrase; gold calls, alternatives and tolerances are the
    original's, ``paraphrase_of`` names it, ``written_by`` is "paraphrase" (no typo tag: the rewording has none).
    BenchmarkDataError if a session is not in `dev` or not every one of its turns has the same number of paraphrases."""
    path = PARAPHRASES[split]
    texts: dict[str, list[str]] = json.loads(path.read_text(encoding="utf-8"))["paraphrases"]
    by_id = {s[0]["session_id"]: s for s in dev}
    out = []
    for sid in sorted({key.partition("#")[0] for key in texts}):
        if sid not in by_id:
            raise BenchmarkDataError(f"{path.name}: {sid} is not a hand dev session")
        keys = [f"{sid}#{r['turn']}" for r in by_id[sid]]
        counts = {len(texts.get(k, ())) for k in keys}
        if len(counts) != 1 or 0 in counts or {k for k in texts if k.partition("#")[0] == sid} - set(keys):
            raise BenchmarkDataError(f"{path.name}: every turn of {sid} (and no other) needs the same number of "
                                     "paraphrases")
        for k in range(counts.pop()):
            out.append([dict(r, session_id=f"{sid}-p{k + 1}", instruction=texts[key][k], split=split,
                             written_by="paraphrase", writer="paraphrase", paraphrase_of=key,
                             tags=[t for t in r["tags"] if t != "typo"]) for r, key in zip(by_id[sid], keys)])
    return out
