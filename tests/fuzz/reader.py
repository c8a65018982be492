"""The package reader under mutated corpus files.

One input: a mutated package (:mod:`.mutate`) is written into a sandbox folder and opened. The promise:
either a typed :class:`~autodw.core.errors.DocumentError`, or a document whose state extracts and renders, that
saves to the output path and reopens (with a state again); the input file never changes, nothing is written
in the sandbox but the output, no input takes longer than the time limit or raises the peak memory by more
than the limit.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from tests.fuzz import outcome
from tests.fuzz.draw import Draw
from tests.fuzz.mutate import mutated_package
from tests.fuzz.outcome import Crash, checked, stage
from tests.fuzz.seams import AutodwError, extract_state, open_document, render_state


class ReaderHarness:
    """Opens, reads, saves and reopens mutated packages in one sandbox folder (kept for many inputs)."""

    def __init__(self, sandbox: Path | None = None):
        self._tmp = None if sandbox else tempfile.TemporaryDirectory(prefix="autodw-fuzz-reader-")
        self.sandbox = Path(sandbox or self._tmp.name)
        for sub in ("in", "out", "abs-target"):
            (self.sandbox / sub).mkdir(parents=True, exist_ok=True)

    def close(self) -> None:
        if self._tmp is not None:
            self._tmp.cleanup()

    def case(self, draw: Draw) -> bytes:
        """A mutated package."""
        return mutated_package(draw, self.sandbox)[0]

    def one(self, draw: Draw) -> dict:
        """Try one mutated package; a dict saying what happened (``outcome``: refused/opened, ``error`` type,
        ``seconds``, ``peak_mb``). Raises :class:`Crash`."""
        return checked(self.check, self.case(draw))

    def check(self, data: bytes, name: str = "input.docx") -> dict:
        """The promise on the package `data` (see the module docstring)."""
        for old in (self.sandbox / "out").iterdir():
            old.unlink()
        source = self.sandbox / "in" / name
        source.write_bytes(data)
        before = outcome.files_under(self.sandbox)
        result: dict = {}
        try:
            with outcome.limits() as info:
                result = self._read(source)
        except Crash as crash:
            crash.detail += f" ({len(data)} bytes)"
            raise
        result.update(seconds=round(info["seconds"], 3), cpu_seconds=round(info["cpu_seconds"], 3),
                      peak_mb=round(info["peak_mb"], 1))
        if source.read_bytes() != data:
            raise Crash("input_changed", "open", "the input file changed")
        after = outcome.files_under(self.sandbox)
        outcome.check_no_write(before, after, {f"out/{p.name}" for p in (self.sandbox / "out").iterdir()}, "save")
        return result

    def _read(self, source: Path) -> dict:
        try:
            with stage("open", (AutodwError,)):
                doc = open_document(source)
        except AutodwError as exc:
            return {"outcome": "refused", "error": type(exc).__name__}
        before = doc.snapshot().members
        try:
            with stage("state", (AutodwError,)):
                render_state(extract_state(doc), budget_tokens=2000)
        except AutodwError as exc:  # typed: a failed step for the agent, not a crash
            return {"outcome": "state_refused", "error": type(exc).__name__}
        if doc.snapshot().members != before:
            raise Crash("state_wrote", "state", "reading the state changed the document")
        target = self.sandbox / "out" / f"output{doc.extension}"
        with stage("save"):
            doc.save(target)
        try:
            with stage("reopen", (AutodwError,)):
                extract_state(open_document(target))
        except AutodwError as exc:
            raise Crash("roundtrip", "reopen", f"the saved document does not reopen: {type(exc).__name__}: {exc}") from exc
        return {"outcome": "opened", "repairs": len(doc.repairs)}
