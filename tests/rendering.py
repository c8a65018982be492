"""Render a document with LibreOffice headless and read the PDF back (text per page, page count).

Used by the tests marked ``slow``. They need LibreOffice (``soffice``) and poppler (``pdftotext``):
``.ci/run`` installs them. Where they are missing, a rendering test is skipped with a reason that
says how to install them -- except when the environment variable ``CI`` is set: there it fails, so
CI cannot silently stop rendering.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pytest

from autodw.core.document import WordDocument


@dataclass
class Rendered:
    """The PDF LibreOffice made: its text (pages split by form feed) and page count."""

    text: str
    pages: int
    pdf: bytes

    def page(self, n: int) -> str:
        """Text of page `n` (0-based)."""
        return self.text.split("\f")[n]


MISSING = ("rendering tests need LibreOffice (soffice) and poppler-utils (pdftotext), which are not installed; "
           "to run them: sudo apt-get install libreoffice-writer-nogui poppler-utils (what .ci/run does)")


def require_renderer() -> str:
    """The soffice executable; skips the calling test when LibreOffice or pdftotext is missing (fails if ``CI`` is set)."""
    soffice = shutil.which("soffice") or shutil.which("libreoffice")
    if soffice is None or shutil.which("pdftotext") is None:
        if os.environ.get("CI"):
            pytest.fail(f"CI is set, so a rendering test may not be skipped: {MISSING}")
        pytest.skip(MISSING)
    return soffice


def render(doc: WordDocument, timeout: float = 180) -> Rendered:
    """Save `doc`, convert it to PDF with LibreOffice, and extract the text with pdftotext."""
    soffice = require_renderer()
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "doc.docx"
        doc.save(src)
        profile = Path(tmp) / "profile"
        subprocess.run([soffice, f"-env:UserInstallation=file://{profile}", "--headless", "--convert-to", "pdf",
                        "--outdir", tmp, str(src)], check=True, capture_output=True, timeout=timeout)
        pdf = Path(tmp) / "doc.pdf"
        text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], check=True, capture_output=True, text=True).stdout
        data = pdf.read_bytes()
    pages = text.count("\f") if text.endswith("\f") else text.count("\f") + 1
    return Rendered(text=text, pages=pages, pdf=data)
