"""Will Word open this file without a repair prompt? Open XML validation with openxml-audit.

Microsoft's Open XML SDK validator is the reference for what Word accepts; it needs .NET. openxml-audit
(pinned: the ``validate`` extra) is a pure-Python port of its schema and semantic checks and adds its own
"Word app-compat" heuristics. Findings whose source class is ``sdk_proxy`` mirror the SDK and count as
errors; the heuristics are reported, never counted.

Each file is validated in its own process: openxml-audit 0.8.0 caches cross-part lookups by
``id(package)``, so one process that validates many files reports spurious missing ids. Several files
are validated in parallel processes.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Iterable, Sequence, Union

from autodw.errors import AutodwError

SDK_SOURCE = "sdk_proxy"
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
        return self.source == SDK_SOURCE and self.severity == "error" and not self.false_positive

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
    """Every finding for one .docx (a path or its bytes), validated in a fresh process."""
    return validate_all([document], timeout=timeout)[0]


def validate_all(documents: Sequence[Document], workers: int | None = None, timeout: float = 600) -> list[list[Finding]]:
    """The findings of each document, in order; each in its own process, `workers` (default: CPU count) at a time."""
    with tempfile.TemporaryDirectory(prefix="autodw-validate-") as tmp:
        paths = []
        for i, document in enumerate(documents):
            if isinstance(document, bytes):
                path = Path(tmp) / f"{i}.docx"
                path.write_bytes(document)
                paths.append(path)
            else:
                paths.append(Path(document))
        with ThreadPoolExecutor(max_workers=workers or os.cpu_count() or 1) as pool:
            return list(pool.map(lambda p: _validate_in_process(p, timeout), paths))


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


def _validate_in_process(path: Path, timeout: float) -> list[Finding]:
    try:
        done = subprocess.run([sys.executable, "-m", "autodw.validation", str(path)], capture_output=True,
                              text=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        raise ValidatorUnavailableError(f"validating {path.name} took longer than {timeout:.0f} s") from None
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no message"])[-1]
        raise ValidatorUnavailableError(f"the validator failed on {path.name}: {last}")
    return [Finding(**item) for item in json.loads(done.stdout)]


def _findings_of(path: str) -> list[dict[str, str]]:
    """Run openxml-audit on one file in this process (the worker side of :func:`validate`)."""
    try:
        from openxml_audit import OpenXmlValidator
    except ImportError:
        raise ValidatorUnavailableError('openxml-audit is not installed; pip install "autodw[validate]"') from None
    result = OpenXmlValidator(max_errors=0).validate(path)
    return [Finding(source=e.source_class.value, severity=e.severity.value, kind=e.error_type.value, part=e.part_uri,
                    path=e.path, description=e.description, rule=e.id or "").to_dict() for e in result.errors]


if __name__ == "__main__":  # the per-file worker: python -m autodw.validation FILE -> JSON findings on stdout
    try:
        json.dump(_findings_of(sys.argv[1]), sys.stdout)
    except ValidatorUnavailableError as exc:
        print(f"error: {exc}", file=sys.stderr)
        sys.exit(2)
