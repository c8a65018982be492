"""``python -m autodw.analysis.validation_worker``: the process side of :mod:`autodw.analysis.validation`.

It reads file paths, one per line, and validates each with a new openxml-audit validator: 0.8.0 caches
cross-part lookups by ``id(package)`` in each validator's rules, so one validator that validates many files
reports spurious missing ids. A new validator takes ~0.03 s to build once the first has loaded the SDK's data,
and the module-level schema lookups (keyed by element, not by package) stay warm from file to file, which a
fresh process or a forked child per file loses. For each path it writes one JSON line: ``{"findings": [...]}``
(the fields of a Finding) or ``{"error": "..."}``.
"""

from __future__ import annotations

import json
import sys
from typing import IO, Any, Callable, Iterable

from autodw.analysis.validation import Finding


def findings_of(validator: Any, path: str) -> list[dict[str, str]]:
    """Every finding `validator` (an ``OpenXmlValidator``) reports for the file at `path`, as :class:`Finding` dicts."""
    return [Finding(source=e.source_class.value, severity=e.severity.value, kind=e.error_type.value, part=e.part_uri,
                    path=e.path, description=e.description, rule=e.id or "").to_dict()
            for e in validator.validate(path).errors]


def serve(make_validator: Callable[[], Any], paths: Iterable[str], out: IO[str]) -> None:
    """Validate each path with a new validator from `make_validator` and write its JSON line to `out`, in order."""
    for line in paths:
        path = line.rstrip("\n")
        try:
            answer = {"findings": findings_of(make_validator(), path)}
        except Exception as exc:  # the validator's failure on this file, said to the caller
            answer = {"error": f"{type(exc).__name__}: {exc}"}
        out.write(json.dumps(answer) + "\n")
        out.flush()


def main() -> int:
    """Serve the paths on stdin (exit 2 without openxml-audit)."""
    try:
        from openxml_audit import OpenXmlValidator
    except ImportError:
        print('error: openxml-audit is not installed; pip install "autodw[validate]"', file=sys.stderr)
        return 2
    serve(lambda: OpenXmlValidator(max_errors=0), sys.stdin, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
