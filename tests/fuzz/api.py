"""Every API on random corpus documents, with arguments drawn from its schema and ids from the document's state.

One input: a corpus document (small ones more often), opened, then one to six calls, each to an API drawn
from the registry, the ones with the fewest real edits so far most often (an API that needs a table, a picture
or a chart on a document without one gets one made first; one that works on something few documents have,
a comment, a bookmark, gets it made first: :data:`.api_args.PREREQUISITES`; resolve_tracked_changes gets a
document that has tracked changes, which no API makes).
Most calls have their drawn arguments fitted to the document (:mod:`.api_args`). The promise for each call: a
typed :class:`~autodw.core.errors.ApiError` that leaves the document exactly as it was, or a result after which
the state extracts and renders, the document saves and reopens with a state; never an internal error; no file
written outside the folder the APIs may use. A sample of the edits is checked with openxml-audit against the
document as opened: an SDK-class error the edit added is a crash.
"""

from __future__ import annotations

import functools
import shutil
import tempfile
import zipfile
import zlib
from pathlib import Path
from typing import Any

from tests.fuzz import outcome
from tests.fuzz.api_args import PREREQUISITES, fit
from tests.fuzz.draw import Draw, coin, pick
from tests.fuzz.mutate import ROOT, choose_seed, seed_files
from tests.fuzz.outcome import Crash, stage
from tests.fuzz.schema_draw import Context, value
from tests.fuzz.seams import (ApiError, AutodwError, InternalError, WordDocument, execute, extract_state, registry,
                              render_state)

#: the API that makes an element of each kind, for an API that needs one
MAKERS = {"t": "insert_table", "img": "insert_image", "chart": "insert_chart"}
#: APIs that start LibreOffice (seconds each): drawn a tenth as often once they have EDIT_GOAL real edits
SLOW = {"export_document", "update_toc", "update_fields"}
EDIT_GOAL = 50  # real edits per API issue 49 asks for
FIT_PERCENT = 85  # calls whose drawn arguments are fitted to the document (the rest are tried as drawn)


class ApiHarness:
    """Calls APIs on documents in one sandbox (kept for many inputs)."""

    def __init__(self, sandbox: Path | None = None, validate_percent: int = 0, wrong_percent: int = 5):
        self._tmp = None if sandbox else tempfile.TemporaryDirectory(prefix="autodw-fuzz-api-")
        self.sandbox = Path(sandbox or self._tmp.name)
        self.assets = self.sandbox / "assets"
        self.outside = self.sandbox / "outside"
        for folder in (self.assets, self.outside):
            folder.mkdir(parents=True, exist_ok=True)
        picture = next((ROOT / "examples" / "images").glob("*.png"))
        shutil.copy(picture, self.assets / "picture.png")
        (self.assets / "not-a-picture.png").write_text("plain text, not a PNG")
        (self.outside / "secret.png").write_bytes(picture.read_bytes())
        link = self.assets / "link-out.png"
        if not link.exists():
            link.symlink_to(self.outside / "secret.png")
        other = next(p for p in sorted((ROOT / "examples" / "images").glob("*.png")) if p.name != picture.name)
        shutil.copy(other, self.assets / "other.png")
        self.paths = ["picture.png", str(self.assets / "picture.png"), "other.png", "not-a-picture.png", "link-out.png",
                      "../outside/secret.png", str(self.outside / "secret.png"), "/etc/passwd", "missing.png",
                      "copy.docx", "export.txt", "export.pdf", "../outside/escape.docx", "sub/dir/copy.docx",
                      "C:\\Windows\\x.docx", "\\\\server\\share\\x.docx", "copy.docm", "a\x00b.docx", "."]
        self.apis = [s for s in registry()]
        self.edits: dict[str, int] = {s.name: 0 for s in self.apis}  # real edits per API (for balance)
        self.unopenable: set[Path] = set()
        self.extension = ".docx"  # the open document's
        self.validate_percent = validate_percent
        self.wrong_percent = wrong_percent
        self._validator = None
        self._original_findings: dict[str, list] = {}

    def resume(self, results: dict[str, Any]) -> None:
        """Count the real edits of a campaign's earlier inputs (the balance goes on from them)."""
        for key, n in results.get("counts", {}).items():
            if key.startswith("api:") and key.endswith((":edited", ":done")):
                api = key.split(":")[1]
                if api in self.edits:
                    self.edits[api] += n

    def close(self) -> None:
        if self._validator is not None:
            self._validator.close()
        if self._tmp is not None:
            self._tmp.cleanup()

    # --- one input ---------------------------------------------------------------------------

    def one(self, draw: Draw) -> dict:
        """Open a document and call one to three APIs on it (each after what it needs made first); a dict of counts
        (``counts``: api:NAME:edited/refused/unchanged/done, validated, added_errors). Raises :class:`Crash` (its
        ``case``: the document and the calls)."""
        first = self._pick(draw)
        source = self._document(draw, tracked=first.name == "resolve_tracked_changes" and coin(draw, 80))
        calls: list[dict[str, Any]] = []
        try:
            return self._run(source, draw, calls, first=first.name)
        except Crash as crash:
            crash.case = {"document": str(source), "calls": calls}
            raise

    def check(self, case: dict) -> dict:
        """The calls of a kept case again, in order, on its document."""
        return self._run(Path(case["document"]), None, list(case["calls"]), replay=True)

    def _document(self, draw: Draw, tracked: bool = False) -> Path:
        """A corpus document that opens (one that did not is not drawn again in this process); `tracked`: one with
        tracked changes in its body (no API makes them)."""
        if tracked and tracked_documents():
            return pick(draw, tracked_documents())
        for _ in range(12):
            seed = choose_seed(draw)
            if seed.suffix.lower() in (".docx", ".docm", ".dotx", ".dotm") and seed.stat().st_size < 3_000_000 \
                    and seed not in self.unopenable:
                try:
                    WordDocument.from_bytes(seed.read_bytes(), seed.name)
                    return seed
                except AutodwError:
                    self.unopenable.add(seed)
        return ROOT / "examples" / "report.docx"

    def _run(self, source: Path, draw: Draw | None, calls: list[dict[str, Any]], replay: bool = False,
             first: str | None = None) -> dict:
        counts: dict[str, int] = {}
        data = source.read_bytes()
        try:
            doc = WordDocument.from_bytes(data, source.name)
        except AutodwError:
            return {"outcome": "document_refused", "counts": counts}
        doc.asset_roots = [self.assets]
        self.extension = doc.extension
        with stage("state"):
            state = extract_state(doc)
        before_files = outcome.files_under(self.outside), outcome.files_under(self.sandbox / "assets")
        if replay:
            todo = list(calls)
            calls.clear()
            for call in todo:
                calls.append(call)
                state = self._timed_call(doc, call, state, counts, data)
        else:
            for n in range(1 + draw.int(0, 2)):
                plan = self._plan(draw, state, first if n == 0 else None)
                for i, (api, fixed) in enumerate(plan):
                    call = self._call_of(draw, api, state, fixed, fitted=i < len(plan) - 1 or coin(draw, FIT_PERCENT))
                    calls.append(call)
                    state = self._timed_call(doc, call, state, counts, data)
        outside_now = outcome.files_under(self.outside)
        outcome.check_no_write(before_files[0], outside_now, set(), "api")
        assets_now = outcome.files_under(self.assets)
        for name in set(before_files[1]) - set(assets_now):
            raise Crash("write_outside", "api", f"a file in the asset folder was removed: {name}")
        self._clean_outputs(before_files[1])
        return {"outcome": "ran", "counts": counts, "cpu_seconds": counts.get("cpu_seconds_x1000", 0) / 1000}

    def _timed_call(self, doc: WordDocument, call: dict[str, Any], state: dict, counts: dict[str, int],
                    original: bytes) -> dict:
        with outcome.limits() as info:
            state = self._call(doc, call, state, counts, original)
        counts["cpu_seconds_x1000"] = counts.get("cpu_seconds_x1000", 0) + int(info["cpu_seconds"] * 1000)
        return state

    def _clean_outputs(self, keep: dict) -> None:
        for path in list(self.assets.rglob("*")):
            rel = str(path.relative_to(self.assets))
            if path.is_file() and not path.is_symlink() and rel not in keep:
                path.unlink()

    def _context(self, state: dict, wrong: int | None = None) -> Context:
        return Context.of(state, self.paths, self.wrong_percent if wrong is None else wrong)

    def _pick(self, draw: Draw) -> Any:
        """An API: of three drawn, the one with the fewest real edits so far (every API gets its share), drawn nine
        times in ten from the APIs still short of EDIT_GOAL (else, as the goal nears, most draws would go to APIs
        past it); one that starts LibreOffice a tenth as often once it has its share."""
        short = [s for s in self.apis if self.edits[s.name] < EDIT_GOAL]
        pool = short if short and coin(draw, 90) else self.apis
        spec = min((pick(draw, pool) for _ in range(3)), key=lambda s: self.edits[s.name])
        slowed = spec.name in SLOW and self.edits[spec.name] >= EDIT_GOAL and not coin(draw, 10)
        return pick(draw, self.apis) if slowed else spec

    def _plan(self, draw: Draw, state: dict, api: str | None = None) -> list[tuple[str, dict[str, Any]]]:
        """`api` (default: one picked) after what it needs made first (its prerequisites: always while it is short
        of EDIT_GOAL real edits, then most of the time)."""
        api = api or self._pick(draw).name
        if api == "resolve_tracked_changes" and not self._context(state, 0).tracked and coin(draw, 80):
            api = self._pick(draw).name  # no API makes tracked changes: only a document that has some is edited
        maker = self._missing_kind(api, state)
        wanted = self.edits[api] < EDIT_GOAL or coin(draw, 60)
        first = [(maker, {})] if maker else PREREQUISITES.get(api, []) if wanted else []
        return [*first, (api, {})]

    def draw_call(self, draw: Draw, state: dict) -> dict[str, Any]:
        """One call of an API drawn as the campaign draws them (without what it needs made first)."""
        return self._call_of(draw, self._pick(draw).name, state, {}, fitted=coin(draw, FIT_PERCENT))

    def _call_of(self, draw: Draw, api: str, state: dict, fixed: dict[str, Any], fitted: bool) -> dict[str, Any]:
        """A call of `api`: arguments drawn from its schema, fitted to the document when `fitted`."""
        ctx = self._context(state, wrong=0 if fitted else None)
        ctx.clean, ctx.extension = fitted, self.extension
        args = value(draw, registry().get(api).parameters, ctx)
        if fitted and isinstance(args, dict):  # a fixed value None: the argument left out
            args = {k: v for k, v in {**fit(draw, api, args, ctx), **fixed}.items() if v is not None}
        return {"api": api, "args": args}

    def _missing_kind(self, api: str, state: dict) -> str | None:
        """The maker of a kind of element `api` needs and the document lacks."""
        import json

        schema = json.dumps(registry().get(api).parameters)
        ctx = self._context(state, 0)
        for kind, maker in MAKERS.items():
            if f'"^({kind})[0-9]+$"' in schema and not ctx.ids.get(kind) and api != maker:
                return maker
        return None

    def _call(self, doc: WordDocument, call: dict[str, Any], state: dict, counts: dict[str, int],
              original: bytes) -> dict:
        api = call["api"]
        before = doc.snapshot().members
        try:
            with stage("execute", (ApiError, InternalError)):
                result = execute(doc, api, call["args"])
        except ApiError:
            if doc.snapshot().members != before:
                raise Crash("refusal_changed", api, "a refused call changed the document") from None
            _count(counts, f"api:{api}:refused")
            return state
        except InternalError as exc:
            raise Crash("internal", api, str(exc)[:300], exc.traceback) from exc
        if result.snapshot is None or doc.snapshot().members == before:
            spec = registry().get(api)  # an API that reads or writes a file of its own did its job
            _count(counts, f"api:{api}:{'done' if spec.read_only or spec.writes_files else 'unchanged'}")
            if spec.read_only or spec.writes_files:
                self.edits[api] = self.edits.get(api, 0) + 1
            return state
        _count(counts, f"api:{api}:edited")
        self.edits[api] = self.edits.get(api, 0) + 1
        with stage(f"state after {api}", (AutodwError,)):
            new_state = extract_state(doc)
            render_state(new_state, budget_tokens=1500)
        with stage(f"save after {api}"):
            data = doc.to_bytes()
        try:
            with stage(f"reopen after {api}", (AutodwError,)):
                extract_state(WordDocument.from_bytes(data, "saved.docx"))
        except AutodwError as exc:
            raise Crash("roundtrip", api, f"the saved document does not reopen: {type(exc).__name__}: {exc}") from exc
        if zlib.crc32(data) % 100 < self.validate_percent:  # a sample decided by the content: the same on replay
            self._validate(api, original, data, counts)
        return new_state

    def _validate(self, api: str, original: bytes, edited: bytes, counts: dict[str, int]) -> None:
        """openxml-audit on the edited document against the document as opened: an added SDK-class error is a crash."""
        from autodw.analysis.validation import ValidationWorker, ValidatorUnavailableError, added

        if self._validator is None:
            self._validator = ValidationWorker(timeout=900)
        key = str(hash(original))
        try:
            if key not in self._original_findings:
                self._original_findings[key] = self._validator.validate(original)
            findings = self._validator.validate(edited)
        except ValidatorUnavailableError as exc:
            _count(counts, "validator_failed")
            _count(counts, f"validator_failed:{str(exc)[:60]}")
            return
        errors = [f for f in added(self._original_findings[key], findings) if f.is_error]
        _count(counts, "validated")
        if errors:
            _count(counts, "added_errors", len(errors))
            raise Crash("validation", api, "; ".join(str(e)[:200] for e in errors[:3]))


@functools.lru_cache(maxsize=1)
def tracked_documents() -> tuple[Path, ...]:
    """The corpus documents with tracked insertions or deletions in their body, that open."""
    found = []
    for seed in seed_files():
        if seed.suffix.lower() not in (".docx", ".docm") or seed.stat().st_size > 3_000_000:
            continue
        try:
            with zipfile.ZipFile(seed) as zf:
                body = zf.read("word/document.xml")
            if b"<w:ins " in body or b"<w:del " in body:
                WordDocument.from_bytes(seed.read_bytes(), seed.name)
                found.append(seed)
        except (KeyError, zipfile.BadZipFile, AutodwError):
            continue
    return tuple(found)


def _count(counts: dict[str, int], key: str, n: int = 1) -> None:
    counts[key] = counts.get(key, 0) + n


def campaign_harness() -> ApiHarness:
    """The campaign's: a fifth of the edits checked with openxml-audit, few values wrong on purpose."""
    return ApiHarness(validate_percent=20, wrong_percent=1)  # wrong values are the arguments harness's
