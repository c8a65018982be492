"""Every API's example on real corpus files where it applies: successes and refusals.

For each API, the first example's arguments are adapted to each document (autodw.apis.adapt). A file where the API
has nothing to act on (a table API on a file without tables, update_toc without a table of contents) is not
applicable. An API succeeds on a file when the call runs and the saved result re-opens; otherwise the typed error
is counted by class and first words (any other exception is a bug, counted as one).
"""

from __future__ import annotations

import argparse
import json
import tempfile
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from autodw.apis import execute, registry
from autodw.apis.adapt import Adapter, NotApplicable
from autodw.core.document import WordDocument
from autodw.dwbench.records import corpus_dir
from autodw.core.errors import ApiError, DocumentError
from autodw.core.paths import repo_root
from autodw.analysis.state import extract_state


def run(args: argparse.Namespace) -> int:
    """Try each API on up to `--files` applicable corpus files and print a line per API and the totals."""
    root = repo_root()
    docs = []
    for path in sorted((Path(args.corpus) if args.corpus else corpus_dir()).glob("*.docx")):
        try:
            doc = WordDocument.open(path)
            docs.append((path, doc.to_bytes(keep_ids=False), Adapter(extract_state(doc))))
        except DocumentError:
            continue
    report: dict[str, Any] = {}
    totals: Counter[str] = Counter()
    with tempfile.TemporaryDirectory() as tmp:
        for spec in registry():
            ok, errors, tried = 0, Counter(), 0
            for path, data, adapter in docs:
                if tried >= args.files:
                    break
                try:
                    call = adapter.adapt(spec, spec.examples[0].args)
                except NotApplicable:
                    continue
                tried += 1
                doc = WordDocument.from_bytes(data, path.name)
                doc.asset_roots = [Path(tmp), root / "examples", root]  # written files (exports, copies) go to the temporary folder
                try:
                    execute(doc, spec.name, call)
                    out = Path(tmp) / "out.docx"
                    doc.save(out)
                    WordDocument.open(out)
                    ok += 1
                except ApiError as exc:
                    errors[f"{type(exc).__name__}: {' '.join(str(exc).split()[:9])}"] += 1
                except Exception as exc:  # noqa: BLE001 - a bug to report, not to hide
                    errors[f"BUG {type(exc).__name__}: {exc}"] += 1
            report[spec.name] = {"intent": spec.intent, "applicable": tried, "succeeded": ok, "refusals": dict(errors)}
            totals["applicable"] += tried
            totals["succeeded"] += ok
            print(f"{spec.name:32} {ok:3}/{tried:<3} " + "; ".join(f"{n}x {e}" for e, n in errors.most_common(3)), flush=True)
    by_intent: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for r in report.values():
        by_intent[r["intent"]][0] += r["succeeded"]
        by_intent[r["intent"]][1] += r["applicable"]
    print("\nper intent: " + ", ".join(f"{k} {s}/{a}" for k, (s, a) in by_intent.items()))
    short = [n for n, r in report.items() if r["applicable"] < args.files]
    print(f"total: {totals['succeeded']}/{totals['applicable']} calls succeeded on {len(docs)} readable corpus files; "
          f"APIs applicable to fewer than {args.files} files: {', '.join(short) or 'none'}")
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1, ensure_ascii=False))
    return 0
