"""Will Word open this file without a repair prompt? Open XML validation with openxml-audit.

Microsoft's Open XML SDK validator is the reference for what Word accepts; it needs .NET. openxml-audit
(pinned: the ``validate`` extra) is a pure-Python port of its schema and semantic checks and adds its own
"Word app-compat" heuristics. Findings whose source class is ``sdk_proxy`` mirror the SDK and count as
errors; the heuristics are reported, never counted.

Files are validated in worker processes (:class:`ValidationWorker`, one per parallel lane), each file by a new
validator, several at a time.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import zipfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import IO, Iterable, NoReturn, Sequence, Union

from lxml import etree

from autodw.core.errors import AutodwError
from autodw.core.package import CT_NS
from autodw.core.xml import NS

SDK_SOURCE = "sdk_proxy"
#: the source of autodw's own check that each part's root element is the one its content type names (the SDK
#: refuses such a part; openxml-audit does not look: a chart part replaced by ``<x/>`` passed)
PART_ROOT_SOURCE = "part_root"
_W, _MAIN = NS["w"], "application/vnd.openxmlformats-officedocument"
#: content type -> the root element a part of it has
PART_ROOTS = {
    f"{_MAIN}.wordprocessingml.document.main+xml": f"{{{_W}}}document",
    f"{_MAIN}.wordprocessingml.template.main+xml": f"{{{_W}}}document",
    "application/vnd.ms-word.document.macroEnabled.main+xml": f"{{{_W}}}document",
    "application/vnd.ms-word.template.macroEnabledTemplate.main+xml": f"{{{_W}}}document",
    f"{_MAIN}.wordprocessingml.styles+xml": f"{{{_W}}}styles",
    f"{_MAIN}.wordprocessingml.numbering+xml": f"{{{_W}}}numbering",
    f"{_MAIN}.wordprocessingml.settings+xml": f"{{{_W}}}settings",
    f"{_MAIN}.wordprocessingml.header+xml": f"{{{_W}}}hdr",
    f"{_MAIN}.wordprocessingml.footer+xml": f"{{{_W}}}ftr",
    f"{_MAIN}.wordprocessingml.footnotes+xml": f"{{{_W}}}footnotes",
    f"{_MAIN}.wordprocessingml.endnotes+xml": f"{{{_W}}}endnotes",
    f"{_MAIN}.wordprocessingml.comments+xml": f"{{{_W}}}comments",
    f"{_MAIN}.wordprocessingml.fontTable+xml": f"{{{_W}}}fonts",
    f"{_MAIN}.drawingml.chart+xml": f"{{{NS['c']}}}chartSpace",
    f"{_MAIN}.theme+xml": f"{{{NS['a']}}}theme",
}
#: Findings of the validator that are not errors in WordprocessingML (reported, never counted):
#: ``w:numId w:val="0"`` means "no numbering" (ECMA-376 17.9.18), not a missing definition.
FALSE_POSITIVES = (
    ("Sem_ReferencedElementMissing", re.compile(r"^Numbering definition '0' referenced but not found")),
)

Document = Union[str, os.PathLike, bytes]


class ValidatorUnavailableError(AutodwError):
    """openxml-audit is not installed (``pip install "autodw[validate]"``) or its process failed."""


@dataclass(frozen=True)
class Finding:
    """One validator finding: where (part, XPath), what, and which class of check produced it."""

    source: str  # "sdk_proxy" (mirrors the Open XML SDK), "word_app_compat", "package_integrity", ...
    severity: str  # "error", "warning" or "info"
    kind: str  # "schema", "semantic", "package", "relationship", "markup_compatibility", "binary"
    part: str
    path: str
    description: str
    rule: str = ""  # the validator's error id, when it gives one

    @property
    def false_positive(self) -> bool:
        """A finding listed in :data:`FALSE_POSITIVES` (valid WordprocessingML the validator reports)."""
        return any(self.rule == rule and pattern.search(self.description) for rule, pattern in FALSE_POSITIVES)

    @property
    def is_error(self) -> bool:
        """An SDK-class error (what makes Word offer to repair the file)."""
        return self.source in (SDK_SOURCE, PART_ROOT_SOURCE) and self.severity == "error" and not self.false_positive

    def signature(self) -> tuple[str, ...]:
        """Identity without positions: element indices and numbers shift when content is inserted."""
        return (self.source, self.severity, self.kind, self.part, self.rule, re.sub(r"\d+", "#", self.description))

    def to_dict(self) -> dict[str, str]:
        """JSON-ready form."""
        return asdict(self)

    def __str__(self) -> str:
        where = f"{self.part}:{self.path}" if self.path else self.part
        return f"[{self.source} {self.severity}] {where}: {self.description}"


def validate(document: Document, timeout: float = 600) -> list[Finding]:
    """Every finding for one .docx (a path or its bytes), validated in a worker process."""
    return validate_all([document], timeout=timeout)[0]


def validate_all(documents: Sequence[Document], workers: int | None = None, timeout: float = 600) -> list[list[Finding]]:
    """The findings of each document, in order; `workers` (default: CPU count) worker processes at a time."""
    lanes = max(1, min(workers or os.cpu_count() or 1, len(documents)))

    def lane(first: int) -> list[list[Finding]]:
        with ValidationWorker(timeout) as worker:
            return [worker.validate(document) for document in documents[first::lanes]]

    with ThreadPoolExecutor(max_workers=lanes) as pool:
        done = list(pool.map(lane, range(lanes)))
    return [done[i % lanes][i // lanes] for i in range(len(documents))]


def added(before: Iterable[Finding], after: Iterable[Finding]) -> list[Finding]:
    """The findings of `after` whose kind `before` does not have (compared by :meth:`Finding.signature`).

    A finding the input already has, repeated (a copied table that already broke a rule breaks it
    twice), is not added: the edit repeated the input's problem, it did not make a new one."""
    had = {f.signature() for f in before}
    return [f for f in after if f.signature() not in had]


def added_errors(original: Document, edited: Document) -> list[Finding]:
    """The SDK-class errors `edited` has that `original` did not: what an edit broke (empty: safe to open)."""
    before, after = validate_all([original, edited], workers=2)
    return [f for f in added(before, after) if f.is_error]


class ValidationWorker:
    """One :mod:`autodw.analysis.validation_worker` process kept for many documents, validated one at a time, each by a
    new validator. Not thread-safe: one per lane. Started at the first document; ended by :meth:`close` (or
    the ``with`` block), after a timeout or a crash, and when this process exits (the worker's input ends). A
    file the validator fails on raises ValidatorUnavailableError and keeps the worker."""

    def __init__(self, timeout: float = 600):
        self.timeout = timeout
        self._tmp = tempfile.TemporaryDirectory(prefix="autodw-validate-")
        self._process: subprocess.Popen | None = None
        self._errors: IO[bytes] | None = None

    def __enter__(self) -> "ValidationWorker":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def validate(self, document: Document) -> list[Finding]:
        """Every finding for one .docx (a path or its bytes); ValidatorUnavailableError on a timeout, a crash or
        a file the validator fails on."""
        if isinstance(document, bytes):
            path = Path(self._tmp.name) / "document.docx"
            path.write_bytes(document)
        else:
            path = Path(document)
        process = self._process or self._start()
        timed_out = threading.Event()
        timer = threading.Timer(self.timeout, lambda: (timed_out.set(), _kill(process)))
        timer.start()
        try:
            process.stdin.write(f"{path}\n")
            process.stdin.flush()
            line = process.stdout.readline()
        except BrokenPipeError:  # the worker ended: its message is in `errors`
            line = ""
        finally:
            timer.cancel()
        if timed_out.is_set():
            self._fail(f"validating {path.name} took longer than {self.timeout:.0f} s")
        if not line:
            self._errors.seek(0)
            last = (self._errors.read().decode("utf-8", "replace").strip().splitlines() or ["no message"])[-1]
            self._fail(f"the validator failed on {path.name}: {last}")
        answer = json.loads(line)
        if "error" in answer:  # the validator's failure on this file: the worker is sound and is kept
            raise ValidatorUnavailableError(f"the validator failed on {path.name}: {answer['error']}")
        return [Finding(**item) for item in answer["findings"]] + part_root_findings(path)

    def close(self) -> None:
        """End the worker and remove its temporary files."""
        self._stop()
        self._tmp.cleanup()

    def _fail(self, message: str) -> NoReturn:
        """End the worker (the next document gets a new one) and raise ValidatorUnavailableError(`message`)."""
        self._stop()
        raise ValidatorUnavailableError(message)

    def _start(self) -> subprocess.Popen:
        # a session of its own: a Ctrl-C at the terminal reaches autodw alone, which ends the worker (close, or its
        # input ending) instead of leaving a KeyboardInterrupt traceback in the worker's errors
        self._errors = tempfile.TemporaryFile(dir=self._tmp.name)
        self._process = subprocess.Popen([sys.executable, "-m", "autodw.analysis.validation_worker"], stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE, stderr=self._errors, text=True, encoding="utf-8",
                                         start_new_session=True)
        return self._process

    def _stop(self) -> None:
        if self._process is not None:
            _kill(self._process)
            self._process.wait()
            for stream in (self._process.stdin, self._process.stdout, self._errors):
                with contextlib.suppress(OSError):
                    stream.close()
            self._process = self._errors = None


def part_root_findings(path: str | os.PathLike) -> list[Finding]:
    """An error for each part of :data:`PART_ROOTS`'s content types whose root element is another (a part that is not
    XML, or a package that is not a zip, is the validator's to report)."""
    out = []
    try:
        with zipfile.ZipFile(path) as package:
            types = etree.fromstring(package.read("[Content_Types].xml"), _SAFE)
            names = set(package.namelist())
            for override in types.iter(f"{{{CT_NS}}}Override"):
                name, content_type = override.get("PartName", "").lstrip("/"), override.get("ContentType") or ""
                expected = PART_ROOTS.get(content_type)
                if expected is None or name not in names:
                    continue
                with package.open(name) as part:
                    root = etree.QName(next(etree.iterparse(part, events=("start",), resolve_entities=False,
                                                            no_network=True))[1])
                if f"{{{_STRICT.get(root.namespace or '', root.namespace)}}}{root.localname}" != expected:
                    out.append(Finding(PART_ROOT_SOURCE, "error", "package", f"/{name}", "/",
                                       f"the part's root element is {root.localname} "
                                       f"({root.namespace or 'no namespace'}), not {etree.QName(expected).localname}, "
                                       f"which its content type {content_type} needs", "PartRootElement"))
    except (zipfile.BadZipFile, KeyError, OSError, etree.XMLSyntaxError, StopIteration):
        pass
    return out


_SAFE = etree.XMLParser(resolve_entities=False, no_network=True)
#: Strict OOXML's namespaces and their transitional names (a Strict file's parts are the same elements)
_STRICT = {"http://purl.oclc.org/ooxml/wordprocessingml/main": _W,
           "http://purl.oclc.org/ooxml/drawingml/chart": NS["c"],
           "http://purl.oclc.org/ooxml/drawingml/main": NS["a"]}


def _kill(worker: subprocess.Popen) -> None:
    """End a worker (nothing happens when it has ended)."""
    with contextlib.suppress(ProcessLookupError):
        worker.kill()
