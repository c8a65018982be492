"""Every API on random corpus documents, with arguments drawn from its schema and ids from the document's state.

One input: a corpus document (small ones more often), opened, then one to five calls, each to an API drawn
evenly from the registry (an API that needs a table, a picture or a chart on a document without one gets one
made first by insert_table, insert_image or insert_chart). The promise for each call: a typed
:class:`~autodw.core.errors.ApiError` that leaves the document exactly as it was, or a result after which the
state extracts and renders, the document saves and reopens with a state; never an internal error; no file
written outside the folder the APIs may use. A sample of the edits is checked with openxml-audit against
the document as opened: an SDK-class error the edit added is a crash.
"""

from __future__ import annotations

import shutil
import tempfile
import zlib
from pathlib import Path
from typing import Any

from tests.fuzz import outcome
from tests.fuzz.draw import Draw, coin, pick
from tests.fuzz.mutate import ROOT, choose_seed
from tests.fuzz.outcome import Crash, stage
from tests.fuzz.schema_draw import Context, value
from tests.fuzz.seams import (ApiError, AutodwError, InternalError, WordDocument, execute, extract_state, registry,
                              render_state)

#: the API that makes an element of each kind, for an API that needs one
MAKERS = {"t": "insert_table", "img": "insert_image", "chart": "insert_chart"}
#: what an API works on that few corpus documents have: made first, most of the time
PREREQUISITES = {"delete_comment": "insert_comment", "delete_footnote": "insert_footnote",
                 "remove_watermark": "add_watermark", "update_toc": "insert_toc", "edit_hyperlink": "insert_hyperlink",
                 "delete_bookmark": "add_bookmark", "remove_list": "insert_list", "remove_section_break":
                 "insert_section_break", "insert_cross_reference": "add_bookmark", "resolve_tracked_changes":
                 "set_track_changes", "move_section": "insert_heading", "change_heading_level": "insert_heading"}
#: optional arguments a maker is given (insert_table needs a size or data)
MAKER_ARGS = {"insert_table": {"rows": 3, "cols": 3}}
#: APIs that start LibreOffice (seconds each): drawn a tenth as often
SLOW = {"export_document", "update_toc", "update_fields"}


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
        self.paths = ["picture.png", str(self.assets / "picture.png"), "not-a-picture.png", "link-out.png",
                      "../outside/secret.png", str(self.outside / "secret.png"), "/etc/passwd", "missing.png",
                      "copy.docx", "export.txt", "export.pdf", "../outside/escape.docx", "sub/dir/copy.docx",
                      "C:\\Windows\\x.docx", "\\\\server\\share\\x.docx", "copy.docm", "a\x00b.docx", "."]
        self.apis = [s for s in registry()]
        self.edits: dict[str, int] = {s.name: 0 for s in self.apis}  # this process's edits per API (for balance)
        self.unopenable: set[Path] = set()
        self.validate_percent = validate_percent
        self.wrong_percent = wrong_percent
        self._validator = None
        self._original_findings: dict[str, list] = {}

    def close(self) -> None:
        if self._validator is not None:
            self._validator.close()
        if self._tmp is not None:
            self._tmp.cleanup()

    # --- one input ---------------------------------------------------------------------------

    def one(self, draw: Draw) -> dict:
        """Open a document and make one to five calls; a dict of counts (``counts``: api:NAME:edited/refused/
        unchanged, validated, added_errors). Raises :class:`Crash` (its ``case``: the document and the calls)."""
        source = self._document(draw)
        calls: list[dict[str, Any]] = []
        try:
            return self._run(source, draw, calls)
        except Crash as crash:
            crash.case = {"document": str(source), "calls": calls}
            raise

    def check(self, case: dict) -> dict:
        """The calls of a kept case again, in order, on its document."""
        return self._run(Path(case["document"]), None, list(case["calls"]), replay=True)

    def _document(self, draw: Draw) -> Path:
        """A corpus document that opens (one that did not is not drawn again in this process)."""
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

    def _run(self, source: Path, draw: Draw | None, calls: list[dict[str, Any]], replay: bool = False) -> dict:
        counts: dict[str, int] = {}
        data = source.read_bytes()
        try:
            doc = WordDocument.from_bytes(data, source.name)
        except AutodwError:
            return {"outcome": "document_refused", "counts": counts}
        doc.asset_roots = [self.assets]
        with stage("state"):
            state = extract_state(doc)
        todo = list(calls) if replay else []
        if replay:
            calls.clear()
        before_files = outcome.files_under(self.outside), outcome.files_under(self.sandbox / "assets")
        pending = None  # an API whose prerequisite was made by the call before
        for _ in range(len(todo) if replay else 1 + draw.int(0, 5)):
            if replay:
                call = todo[len(calls)]
            else:
                call = self._next_call(draw, state, pending)
                pending = None
                maker = self._missing_kind(call["api"], state)
                if maker is None and call["api"] in PREREQUISITES and coin(draw, 60):
                    maker = PREREQUISITES[call["api"]]
                if maker is not None:  # made first; the API itself is the next call
                    args = value(draw, registry().get(maker).parameters, self._context(state, wrong=0))
                    pending, call = call["api"], {"api": maker, "args": {**MAKER_ARGS.get(maker, {}), **args}}
            calls.append(call)
            with outcome.limits() as info:
                state = self._call(doc, call, state, counts, data)
            counts["cpu_seconds_x1000"] = counts.get("cpu_seconds_x1000", 0) + int(info["cpu_seconds"] * 1000)
        outside_now = outcome.files_under(self.outside)
        outcome.check_no_write(before_files[0], outside_now, set(), "api")
        assets_now = outcome.files_under(self.assets)
        for name in set(before_files[1]) - set(assets_now):
            raise Crash("write_outside", "api", f"a file in the asset folder was removed: {name}")
        self._clean_outputs(before_files[1])
        return {"outcome": "ran", "counts": counts}

    def _clean_outputs(self, keep: dict) -> None:
        for path in list(self.assets.rglob("*")):
            rel = str(path.relative_to(self.assets))
            if path.is_file() and not path.is_symlink() and rel not in keep:
                path.unlink()

    def _context(self, state: dict, wrong: int | None = None) -> Context:
        return Context.of(state, self.paths, self.wrong_percent if wrong is None else wrong)

    def _next_call(self, draw: Draw, state: dict, api: str | None = None) -> dict[str, Any]:
        if api:
            spec = registry().get(api)
        else:  # of three drawn, the API with the fewest edits so far: every API gets its share of real edits
            spec = min((pick(draw, self.apis) for _ in range(3)), key=lambda s: self.edits[s.name])
        if spec.name in SLOW and not api and not coin(draw, 10):
            spec = pick(draw, self.apis)
        return {"api": spec.name, "args": value(draw, spec.parameters, self._context(state))}

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
            _count(counts, f"api:{api}:unchanged")
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


def _count(counts: dict[str, int], key: str, n: int = 1) -> None:
    counts[key] = counts.get(key, 0) + n


def campaign_harness() -> ApiHarness:
    """The campaign's: a fifth of the edits checked with openxml-audit, few values wrong on purpose."""
    return ApiHarness(validate_percent=20, wrong_percent=1)  # wrong values are the arguments harness's
