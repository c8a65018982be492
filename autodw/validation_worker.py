"""``python -m autodw.validation_worker``: the process side of :mod:`autodw.validation`.

It builds openxml-audit's validator once, then reads file paths, one per line, and validates each in
a child it forks, so that every file starts from a validator that has validated nothing (openxml-audit
0.8.0 caches cross-part lookups by ``id(package)``: one process that validates many files reports
spurious missing ids) without paying ~1 s of interpreter start, import and set-up per file. Where the
OS does not fork (Windows) it is given one path and validates it itself. For each
path it writes one JSON line: ``{"findings": [...]}`` (the fields of a Finding) or ``{"error": "..."}``.
"""

from __future__ import annotations

import json
import os
import sys
from typing import IO, Iterable

from autodw.validation import Finding


def findings_of(validator: object, path: str) -> list[dict[str, str]]:
    """Every finding `validator` (an ``OpenXmlValidator``) reports for the file at `path`, as :class:`Finding` dicts."""
    return [Finding(source=e.source_class.value, severity=e.severity.value, kind=e.error_type.value, part=e.part_uri,
                    path=e.path, description=e.description, rule=e.id or "").to_dict()
            for e in validator.validate(path).errors]


def serve(validator: object, paths: Iterable[str], out: IO[str]) -> None:
    """Validate each path (in a forked child where the OS forks) and write its JSON line to `out`, in order."""
    for line in paths:
        path = line.rstrip("\n")
        answer = _answer_in_child(validator, path) if hasattr(os, "fork") else _answer(validator, path)
        out.write(json.dumps(answer) + "\n")
        out.flush()


def _answer(validator: object, path: str) -> dict:
    try:
        return {"findings": findings_of(validator, path)}
    except Exception as exc:  # the validator's failure on this file, said to the caller
        return {"error": f"{type(exc).__name__}: {exc}"}


def _answer_in_child(validator: object, path: str) -> dict:
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: validate, answer through the pipe, leave without cleanup
        os.close(read)
        with os.fdopen(write, "w", encoding="utf-8") as pipe:
            json.dump(_answer(validator, path), pipe)
        os._exit(0)
    os.close(write)
    with os.fdopen(read, encoding="utf-8") as pipe:
        text = pipe.read()
    _, status = os.waitpid(pid, 0)
    return json.loads(text) if text else {"error": f"the validating process ended with status {status}"}


def main() -> int:
    """Build the validator, then serve the paths on stdin (exit 2 without openxml-audit)."""
    try:
        from openxml_audit import OpenXmlValidator
    except ImportError:
        print('error: openxml-audit is not installed; pip install "autodw[validate]"', file=sys.stderr)
        return 2
    serve(OpenXmlValidator(max_errors=0), sys.stdin, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
