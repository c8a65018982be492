"""Run every API's example on real corpus files where it applies, and report successes and refusals.

    python scripts/bench_apis_corpus.py [--files 20] [--corpus ../shared/corpus/docx] [--json out.json]

For each API, the first example's arguments are adapted to each document: ids are replaced by ids
of the same kind from that document's state (a paragraph with text, the first table, picture,
chart), text matches by a word of the chosen paragraph, table coordinates clamped to the table's
size. A file where the API has nothing to act on (a table API on a file without tables) is not
applicable. An API succeeds on a file when the call runs and the saved result re-opens; otherwise
the typed error is counted by class and first words.
"""

from __future__ import annotations

import argparse
import copy
import json
import re
import sys
import tempfile
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from apis import execute, registry  # noqa: E402
from autodw.document import WordDocument  # noqa: E402
from autodw.errors import ApiError, DocumentError  # noqa: E402
from autodw.state import extract_state  # noqa: E402

CORPUS = ROOT.parent / "shared" / "corpus" / "docx"
_ID_PATTERN = re.compile(r"^\^\(([a-z|]+)\)\[0-9\]\+\$$")


class NotApplicable(Exception):
    """The document has nothing this API could act on."""


def pick(state: dict[str, Any]) -> dict[str, Any]:
    """Elements of a document the adapted calls use."""
    paras = [p for p in state["paragraphs"] if len(p["text"].strip()) >= 12 and not p.get("content_control")]
    tables = [t for t in state["tables"] if "nested_in" not in t and t["rows"] >= 2 and t["cols"] >= 2]
    pictures = [i for i in state["images"] if i.get("type") == "picture" and i.get("id", "").startswith("img")]
    charts = [i for i in state["images"] if i.get("type") == "chart" and i.get("id")]
    inter = state["interactive"]
    return {"p": paras[0]["id"] if paras else None, "p_text": paras[0]["text"] if paras else "",
            "p2": paras[1]["id"] if len(paras) > 1 else None,
            "t": tables[0]["id"] if tables else None, "table": tables[0] if tables else None,
            "img": pictures[0]["id"] if pictures else None, "chart": charts[0]["id"] if charts else None,
            "bookmark": next((b["name"] for b in inter["bookmarks"] if not b.get("hidden")), None),
            "comment": inter["comments"][0]["id"] if inter["comments"] else None,
            "footnote": inter["footnotes"][0]["id"] if inter["footnotes"] else None,
            "hyperlink": inter["hyperlinks"][0] if inter["hyperlinks"] else None}


def adapt(spec, args: dict[str, Any], chosen: dict[str, Any]) -> dict[str, Any]:
    """The example's arguments rewritten for another document."""
    out = copy.deepcopy(args)
    props = spec.parameters["properties"]

    def id_for(prefixes: str) -> str:
        for prefix in prefixes.split("|"):
            value = chosen.get(prefix)
            if value:
                return value
        raise NotApplicable(f"no {prefixes}")

    for key, value in list(out.items()):
        schema = props.get(key, {})
        m = _ID_PATTERN.match(schema.get("pattern", ""))
        if m and isinstance(value, str):
            out[key] = id_for(m.group(1))
        elif schema.get("type") == "array" and isinstance(value, list) and value and isinstance(value[0], str) and \
                re.fullmatch(r"(p|t|img|chart)\d+", value[0]):
            out[key] = [id_for(re.match(r"[a-z]+", value[0]).group(0))]
        elif key == "position" and isinstance(value, dict):
            out[key] = {k: id_for("p") for k in value}
        elif key == "span" and isinstance(value, dict) and "match" in value:
            words = re.findall(r"\w{3,}", chosen["p_text"])
            if not words:
                raise NotApplicable("no word to match")
            out[key] = {"match": words[0]}
        elif key == "bookmark" and isinstance(value, str):
            if not chosen["bookmark"]:
                raise NotApplicable("no bookmark")
            out[key] = chosen["bookmark"]
    table = chosen.get("table")
    if table is not None:
        for key in ("row", "r1", "r2", "index", "start_row"):
            if isinstance(out.get(key), int) and "table" in out:
                out[key] = min(out[key], table["rows"] - 1)
        for key in ("col", "c1", "c2", "column", "start_col"):
            if isinstance(out.get(key), int) and "table" in out:
                out[key] = min(out[key], table["cols"] - 1)
    for key, kind in (("comment", "comment"), ("comment_id", "comment"), ("note", "footnote"), ("footnote", "footnote")):
        if key in out and isinstance(out[key], int):
            if chosen[kind] is None:
                raise NotApplicable(f"no {kind}")
            out[key] = chosen[kind]
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--files", type=int, default=20, help="applicable files per API")
    ap.add_argument("--corpus", type=Path, default=CORPUS)
    ap.add_argument("--json", type=Path, default=None)
    args = ap.parse_args()
    docs = []
    for path in sorted(args.corpus.glob("*.docx")):
        try:
            doc = WordDocument.open(path)
            docs.append((path, doc.to_bytes(keep_ids=False), pick(extract_state(doc))))
        except DocumentError:
            continue
    reg = registry()
    report: dict[str, Any] = {}
    totals = Counter()
    with tempfile.TemporaryDirectory() as tmp:
        for spec in reg:
            ok, errors, tried = 0, Counter(), 0
            for path, data, chosen in docs:
                if tried >= args.files:
                    break
                try:
                    call = adapt(spec, spec.examples[0].args, chosen)
                except NotApplicable:
                    continue
                tried += 1
                doc = WordDocument.from_bytes(data, path.name)
                doc.asset_roots = [ROOT / "examples", ROOT, Path(tmp)]
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
    by_intent = defaultdict(lambda: [0, 0])
    for name, r in report.items():
        by_intent[r["intent"]][0] += r["succeeded"]
        by_intent[r["intent"]][1] += r["applicable"]
    print("\nper intent: " + ", ".join(f"{k} {s}/{a}" for k, (s, a) in by_intent.items()))
    short = [n for n, r in report.items() if r["applicable"] < args.files]
    print(f"total: {totals['succeeded']}/{totals['applicable']} calls succeeded on {len(docs)} readable corpus files; "
          f"APIs applicable to fewer than {args.files} files: {', '.join(short) or 'none'}")
    if args.json:
        args.json.write_text(json.dumps(report, indent=1, ensure_ascii=False))


if __name__ == "__main__":
    main()
