"""Every file of the shared corpus is either read (state extracted in the shape of the state types, snapshot restored,
saved and re-opened) or refused with a typed DocumentError. No other exception is allowed."""

from __future__ import annotations

import io

import docx
import pytest

from autodw.core.document import WordDocument
from autodw.core.errors import DocumentError
from autodw.analysis.state import extract_state
from tests.conftest import CORPUS
from tests.state_shape import shape_errors

DOCX_MAIN = "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"

FILES = sorted(p for sub in ("docx", "other") for p in (CORPUS / sub).glob("*") if p.is_file()) if CORPUS.exists() else []


@pytest.mark.skipif(not FILES, reason="shared corpus not available")
def test_every_corpus_file_is_read_or_refused_cleanly():
    read, refused, failures = [], {}, []
    for path in FILES:
        try:
            doc = WordDocument.open(path)
            failures += [f"{path.name}: {error}" for error in shape_errors(extract_state(doc))]
            doc.restore(doc.snapshot())
            data = doc.to_bytes()
            again = WordDocument.from_bytes(data, path.name)  # our output opens again, same ids
            assert again.ids() == doc.ids(), path.name
            if doc.main_content_type == DOCX_MAIN:  # python-docx itself only opens plain .docx
                docx.Document(io.BytesIO(data))
            read.append(path.name)
        except DocumentError as exc:
            refused.setdefault(type(exc).__name__, []).append(path.name)
            assert str(exc), path.name
        except Exception as exc:  # noqa: BLE001 - this is what the test looks for
            failures.append(f"{path.name}: {type(exc).__name__}: {exc}")
    assert not failures, "\n".join(failures)
    assert len(read) + sum(map(len, refused.values())) == len(FILES)
    # The corpus README: 245 files open with python-docx; we also open the 13 macro/template
    # packages and repaired ones, and refuse strict, encrypted, truncated, corrupt and damaged ones.
    assert len(read) >= 255, (len(read), refused)
    assert len(refused.get("StrictOOXMLError", [])) == 9
    assert len(refused.get("EncryptedDocumentError", [])) == 4
