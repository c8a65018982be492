"""Shared fixtures: paths to the corpus and examples, and small documents built in memory."""

from __future__ import annotations

import contextlib
import io
import os
from dataclasses import dataclass
from pathlib import Path

import docx
import pytest

from autodw.document import WordDocument

ROOT = Path(__file__).resolve().parent.parent
CORPUS = Path(os.environ.get("AUTODW_CORPUS") or ROOT.parent / "shared" / "corpus").resolve()
"""The shared real-world corpus: ``$AUTODW_CORPUS``, or ``../shared/corpus`` beside the checkout."""
EXAMPLES = ROOT / "examples"


def corpus_file(name: str) -> Path:
    """A file of the shared corpus (tests using it are skipped when the corpus is absent)."""
    path = CORPUS / "docx" / name
    if not path.exists():
        pytest.skip(f"corpus file {name} not available")
    return path


@dataclass
class CliResult:
    """What a command printed and its exit status (the shape of subprocess.CompletedProcess)."""

    returncode: int
    stdout: str
    stderr: str


def run_cli(*args: str) -> CliResult:
    """Run ``autodw ARGS`` in this process (``autodw.cli.main``), capturing its output."""
    from autodw.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(list(args))
        except SystemExit as exc:  # argparse usage errors
            code = exc.code if isinstance(exc.code, int) else 2
    return CliResult(code, out.getvalue(), err.getvalue())


def docx_bytes(build) -> bytes:
    """Bytes of a python-docx document after `build(document)` ran on a blank one."""
    d = docx.Document()
    build(d)
    buf = io.BytesIO()
    d.save(buf)
    return buf.getvalue()


def make_doc(build) -> WordDocument:
    """A WordDocument built with python-docx by `build(document)`."""
    return WordDocument.from_bytes(docx_bytes(build), name="test.docx")


@pytest.fixture
def report() -> WordDocument:
    """The English sample document."""
    return WordDocument.open(EXAMPLES / "report.docx")
