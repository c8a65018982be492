"""Run every API's example on real corpus files where it applies, and report successes and refusals.

    python scripts/bench_apis_corpus.py [--files 20] [--corpus ../shared/corpus/docx] [--json out.json]

For each API, the first example's arguments are adapted to each document: ids are mapped, in order,
to ids of the same kind from that document's state (paragraphs with text, tables, pictures, charts;
so adjacent example paragraphs stay adjacent), text matches and offsets fit the mapped paragraph,
table coordinates and data are clamped to the table's size, section numbers to the sections. A
file where the API has nothing to act on (a table API on a file without tables, update_toc without
a table of contents) is not applicable. An API succeeds on a file when the call runs and the saved result re-opens; otherwise
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

from autodw.apis import execute, registry  # noqa: E402
from autodw.document import WordDocument  # noqa: E402
from autodw.errors import ApiError, DocumentError  # noqa: E402
from autodw.ids import PREFIXES, parse_id  # noqa: E402
from autodw.state import extract_state  # noqa: E402

CORPUS = ROOT.parent / "shared" / "corpus" / "docx"
class NotApplicable(Exception):
    """The document has nothing this API could act on."""


#: APIs that only apply to documents having something: state predicate and what is missing otherwise.
NEEDS = {
    "update_toc": (lambda st: st["page_layout"]["table_of_contents"], "a table of contents"),
    "remove_watermark": (lambda st: any(s.get("watermark") for s in st["page_layout"]["sections"]), "a watermark"),
    "edit_hyperlink": (lambda st: st["interactive"]["hyperlinks"], "a hyperlink"),
    "resolve_tracked_changes": (lambda st: st["interactive"]["tracked_changes"], "tracked changes"),
    "remove_list": (lambda st: any(p.get("list") for p in st["paragraphs"]), "list items"),
    "delete_comment": (lambda st: st["interactive"]["comments"], "a comment"),
    "delete_footnote": (lambda st: st["interactive"]["footnotes"], "a footnote"),
    "remove_section_break": (lambda st: len(st["page_layout"]["sections"]) > 1, "two sections"),
    "delete_bookmark": (lambda st: [b for b in st["interactive"]["bookmarks"] if not b.get("hidden")], "a bookmark"),
    "insert_cross_reference": (lambda st: [b for b in st["interactive"]["bookmarks"] if not b.get("hidden")], "a bookmark"),
}


class Adapter:
    """Rewrites an example call made for a sample document so that it fits another document."""

    def __init__(self, state: dict[str, Any]):
        self.state = state
        paras = [p for p in state["paragraphs"] if len(p["text"].strip()) >= 12 and not p.get("content_control")]
        self.paras = paras
        self.text = {p["id"]: p["text"] for p in state["paragraphs"]}
        self.tables = [t for t in state["tables"] if "nested_in" not in t and t["rows"] >= 2 and t["cols"] >= 2]
        self.by_kind = {"p": [p["id"] for p in paras], "t": [t["id"] for t in self.tables],
                        "img": [i["id"] for i in state["images"] if i.get("type") == "picture" and i.get("id", "").startswith("img")],
                        "chart": [i["id"] for i in state["images"] if i.get("type") == "chart" and i.get("id")]}
        self.mapping: dict[str, str] = {}

    def adapt(self, spec, args: dict[str, Any]) -> dict[str, Any]:
        need = NEEDS.get(spec.name)
        if need and not need[0](self.state):
            raise NotApplicable(need[1])
        ids = sorted((v for v in set(_walk_strings(args)) if parse_id(v)), key=parse_id)
        self.mapping = {}
        for kind in PREFIXES:
            wanted = [i for i in ids if parse_id(i)[0] == kind]
            pool = self._pool(spec.name, kind)
            if len(pool) < len(wanted):
                raise NotApplicable(f"not enough {kind} elements")
            self.mapping.update(zip(wanted, pool))
        out = _rewrite(copy.deepcopy(args), self.mapping)
        return self._values(spec, out)

    def _pool(self, api: str, kind: str) -> list[str]:
        if kind == "p" and api == "edit_hyperlink":
            return [h["paragraph"] for h in self.state["interactive"]["hyperlinks"]]
        if kind == "p" and api in ("remove_list", "set_list_format"):
            return [p["id"] for p in self.state["paragraphs"] if p.get("list")] or self.by_kind["p"]
        return self.by_kind.get(kind, [])

    def _values(self, spec, out: dict[str, Any]) -> dict[str, Any]:
        para = next((self.mapping[v] for v in _walk_strings(spec.examples[0].args) if v in self.mapping and v.startswith("p")), None)
        text = self.text.get(para, self.paras[0]["text"] if self.paras else "")
        words = re.findall(r"\w{4,}", text) or re.findall(r"\w+", text)
        if "offset" in out and isinstance(out["offset"], int):
            out["offset"] = min(out["offset"], len(text))
        for key in ("span", "source_span"):
            if isinstance(out.get(key), dict) and "match" in out[key]:
                if not words:
                    raise NotApplicable("no word to match")
                out[key] = {"match": words[0]}
        if spec.name in ("replace_text", "find_text"):
            if not words:
                raise NotApplicable("no text")
            out["find" if "find" in out else "query"] = words[0]
        table = next((t for t in self.tables if t["id"] in self.mapping.values()), None)
        if table is not None:
            rows, cols = table["rows"], table["cols"]
            for key in ("row", "first_row", "last_row", "start_row"):
                if isinstance(out.get(key), int):
                    out[key] = min(out[key], rows - 1)
            if isinstance(out.get("index"), int):
                out["index"] = min(out["index"], rows if spec.name == "insert_row" else (cols if "column" in spec.name else rows) - 1)
            for key in ("col", "first_col", "last_col", "start_col", "column"):
                if isinstance(out.get(key), int):
                    out[key] = min(out[key], cols - 1)
            if isinstance(out.get("data"), list):
                width = cols if spec.name != "insert_column" else rows
                if out["data"] and isinstance(out["data"][0], list):
                    out["data"] = [row[:cols] for row in out["data"][: max(1, rows - out.get("start_row", 0))]]
                else:
                    out["data"] = (out["data"] + [""] * width)[:width]
            if isinstance(out.get("cells"), list):
                out["cells"] = [[min(r, rows - 1), min(c, cols - 1)] for r, c in out["cells"]]
        sections = len(self.state["page_layout"]["sections"])
        if isinstance(out.get("section"), int):
            out["section"] = min(out["section"], sections - 1)
        bookmarks = [b["name"] for b in self.state["interactive"]["bookmarks"] if not b.get("hidden")]
        if isinstance(out.get("bookmark"), str) and bookmarks:
            out["bookmark"] = bookmarks[0]
        for key, kind in (("comment", "comments"), ("note", "footnotes")):
            if isinstance(out.get(key), int) and self.state["interactive"][kind]:
                out[key] = self.state["interactive"][kind][0]["id"]
        return out


def _walk_strings(value: Any):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _walk_strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _walk_strings(v)


def _rewrite(value: Any, mapping: dict[str, str]) -> Any:
    if isinstance(value, str):
        return mapping.get(value, value)
    if isinstance(value, dict):
        return {k: _rewrite(v, mapping) for k, v in value.items()}
    if isinstance(value, list):
        return [_rewrite(v, mapping) for v in value]
    return value


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
            docs.append((path, doc.to_bytes(keep_ids=False), Adapter(extract_state(doc))))
        except DocumentError:
            continue
    reg = registry()
    report: dict[str, Any] = {}
    totals = Counter()
    with tempfile.TemporaryDirectory() as tmp:
        for spec in reg:
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
