"""Render a document with LibreOffice headless and read the PDF back (text per page, page count).

Used by the tests marked ``slow``. LibreOffice (``soffice``) and poppler (``pdftotext``) are
installed by ``.ci/run``; when they are missing the rendering tests fail, they do not skip.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from autodw.document import WordDocument


@dataclass
class Rendered:
    """The PDF LibreOffice made: its text (pages split by form feed) and page count."""

    text: str
    pages: int
    pdf: bytes

    def page(self, n: int) -> str:
        """Text of page `n` (0-based)."""
        return self.text.split("\f")[n]


def render(doc: WordDocument, timeout: float = 180) -> Rendered:
    """Save `doc`, convert it to PDF with LibreOffice, and extract the text with pdftotext."""
    soffice = shutil.which("soffice") or shutil.which("libreoffice")
    if soffice is None or shutil.which("pdftotext") is None:
        raise RuntimeError("LibreOffice and poppler-utils are required for rendering tests (see .ci/run)")
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
