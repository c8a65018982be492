"""The table of causes of a ceiling run: for every instruction below the ceiling, the cause its diagnosis names (made
from the events of its trace: :func:`~autodw.eval.ceiling.diagnosis.diagnose`), counted; how often each obstacle
was met, recovered or not; and the ceiling of requests written in another script than their document's (Chinese on a
Russian contract), apart: the measure credits no translation (a search uses the user's own words)."""

from __future__ import annotations

import json
import re
import unicodedata
from collections import Counter
from pathlib import Path
from typing import Any

from autodw.apis import registry as load_registry
from autodw.core.ids import ID_IN_TEXT
from autodw.core.package import write_atomically
from autodw.core.xml import qn
from autodw.eval.ceiling.backend import GENERATOR_VIEW, INTENT_FILTER, LOOP, PLANNER_VIEW, SCHEMA, executed_gold
from autodw.eval.ceiling.diagnosis import OTHER, READ, RULE_CHECKS, STATE_EXTRACTION, diagnose
from autodw.eval.metrics import instruction_records
from autodw.eval.run_folder import recorded_run

UNEXPLAINED, UNDIAGNOSED = "unexplained", "no diagnosis"
#: every cause, in the table's order, with what it means
CAUSES = {
    INTENT_FILTER: "the gold API was not among the candidates, with our phrasing of the step",
    PLANNER_VIEW: "a target or value of the next gold step was not shown to the planner",
    GENERATOR_VIEW: "an element id or value of the gold call was not shown to the API generator",
    SCHEMA: "argument schema or grammar: the gold call was not expressible (or longer than the answer limit)",
    LOOP: "loop mechanics: a heuristic or limit stopped the request, undid a gold call or stopped short of a step",
    RULE_CHECKS: "a rule check rejected the gold call (or its fix changed it)",
    STATE_EXTRACTION: "the document state could not be read after a gold call",
    OTHER: "a gold call failed or another call replaced it, or an internal error",
    UNEXPLAINED: "every gold call was kept, in order, and the judge still failed the output",
    UNDIAGNOSED: "no ceiling trace (its events are what the diagnosis is made from)",
}
#: the scripts a text's letters are counted in (the first word of their Unicode names; Chinese and Japanese as one)
SCRIPTS = {"CJK": "CJK", "HIRAGANA": "CJK", "KATAKANA": "CJK", "HANGUL": "Hangul", "LATIN": "Latin",
           "CYRILLIC": "Cyrillic", "ARABIC": "Arabic", "HEBREW": "Hebrew", "GREEK": "Greek", "THAI": "Thai"}
EXAMPLES = 3  # instruction keys shown per kind of detail
KINDS = 6  # kinds of detail shown per cause


def diagnosis(out: Path, record: dict[str, Any], gold: list[tuple[str, Any]]) -> dict[str, Any] | None:
    """The diagnosis of an instruction record, made again from the events of its trace (a pure function of them, so
    a table made by a newer autodw reads an older run the newer way), or None without a ceiling trace."""
    trace = record.get("trace")
    path = out / "instructions" / trace if trace else None
    if path is None or not path.is_file():
        return None
    events = [(e.pop("event"), e) for e in map(json.loads, path.read_text(encoding="utf-8").splitlines())]
    if not any(name == "ceiling_turn" for name, _ in events):
        return None
    return diagnose(gold, [(name, data) for name, data in events if name in READ])


def kind(detail: str) -> str:
    """A detail with its particulars (ids, quoted values, numbers) blanked, so that details of one kind count
    together."""
    text = re.sub(r"'[^']*'|\"[^\"]*\"|“[^”]*”", "'…'", detail)
    text = ID_IN_TEXT.sub("ID", text)
    text = re.sub(r"\d+", "N", text)
    text = re.sub(r"ID(?:, ID)*", "IDs", text)
    text = re.sub(r"'…'(?:, '…')*", "'…'", text)
    return text[:160]


def cause_table(out: Path) -> dict[str, Any]:
    """The causes of a ceiling run folder `out` (module docstring), as data."""
    spec, sessions = recorded_run(out)
    records = instruction_records(out, sessions)
    registry = load_registry()
    gold = {i.key: executed_gold(registry, i) for s in sessions for i in s.instructions}
    below: Counter[str] = Counter()
    met: Counter[str] = Counter()
    kinds: dict[str, Counter[str]] = {c: Counter() for c in CAUSES}
    examples: dict[tuple[str, str], list[str]] = {}
    for record in records:
        found = diagnosis(out, record, gold[record["key"]])
        for cause in {o["cause"] for o in (found or {}).get("obstacles", [])}:
            met[cause] += 1
        if record["success"]:
            continue
        if found is None:
            cause, detail = UNDIAGNOSED, "no ceiling trace"
        elif found["cause"] is None:
            cause, detail = UNEXPLAINED, f"{record.get('n_differences')} difference(s) from the expected document"
        else:
            cause, detail = found["cause"], found["detail"] or ""
        below[cause] += 1
        k = kind(detail)
        kinds[cause][k] += 1
        examples.setdefault((cause, k), []).append(record["key"])
    n = len(records)
    scripts = {s.session_id: script(_document_text(s)) for s in sessions}
    asked = [(r, script(r["instruction"]), scripts.get(r["session_id"])) for r in records]
    other = [r for r, request, document in asked if request and document and request != document]
    by_script = {"other": [sum(r["success"] for r in other), len(other)],
                 "same": [sum(r["success"] for r in records) - sum(r["success"] for r in other), n - len(other)]}
    rows = [{"cause": c, "meaning": CAUSES[c], "instructions": below[c], "share": round(below[c] / n, 4) if n else None,
             "met": met[c], "kinds": [{"kind": k, "instructions": count, "examples": examples[(c, k)][:EXAMPLES]}
                                      for k, count in kinds[c].most_common(KINDS)]}
            for c in CAUSES if below[c] or met[c]]
    return {"profile": spec["options"].get("config", {}).get("profile"), "track": spec.get("track"),
            "split": spec["split"], "instructions": n, "instructions_in_split": sum(len(s.instructions) for s in sessions),
            "ceiling": round(sum(r["success"] for r in records) / n, 4) if n else None,
            "below": sum(below.values()), "causes": rows, "by_script": by_script}


def script(text: str) -> str | None:
    """The script most of `text`'s letters are written in (:data:`SCRIPTS`; "other" for the rest), None without
    letters."""
    counts = Counter(SCRIPTS.get(unicodedata.name(c, "?").split(" ")[0], "other") for c in text if c.isalpha())
    return counts.most_common(1)[0][0] if counts else None


def _document_text(session: Any) -> str:
    """The text of a session's document as its first instruction finds it."""
    return "".join(t.text or "" for t in session.initial_document().body.iter(qn("w:t")))


def table_text(table: dict[str, Any]) -> str:
    """The table of causes as Markdown."""
    ceiling = "-" if table["ceiling"] is None else f"{100 * table['ceiling']:.1f}%"
    lines = [f"# Ceiling of the {table['profile']} profile on {table['track']}/{table['split']}",
             "",
             f"iACC ceiling {ceiling} of {table['instructions']}/{table['instructions_in_split']} instructions; "
             f"{table['below']} below it, each by the first cause that stopped it. \"Met\": instructions where the "
             "obstacle occurred at least once, recovered (by a rollback) or not.",
             "",
             _script_line(table.get("by_script")),
             "",
             "| cause | instructions below the ceiling | share of all | met | what it means |",
             "|---|---:|---:|---:|---|"]
    for row in table["causes"]:
        share = "-" if row["share"] is None else f"{100 * row['share']:.1f}%"
        lines.append(f"| {row['cause']} | {row['instructions']} | {share} | {row['met']} | {row['meaning']} |")
    for row in table["causes"]:
        if row["kinds"]:
            lines += ["", f"## {row['cause']}", ""]
            lines += [f"- {k['instructions']} × {k['kind']} (e.g. {', '.join(k['examples'])})" for k in row["kinds"]]
    return "\n".join(lines) + "\n"


def _script_line(by_script: dict[str, list[int]] | None) -> str:
    """The ceiling of requests in their document's script and in another, apart."""
    if not by_script:
        return "Requests by script: not counted in this table (made by an older autodw)."
    def part(key: str) -> str:
        passed, n = by_script[key]
        return f"{passed}/{n} ({100 * passed / n:.1f}%)" if n else "none"
    return (f"Requests in their document's script: {part('same')}; in another script: {part('other')} (the measure "
            "credits no translation: a search is made with the user's own words).")


def write_causes(out: Path) -> dict[str, Any]:
    """Write ``causes.json`` and ``causes.md`` into the run folder `out`; the table."""
    table = cause_table(out)
    write_atomically(out / "causes.json", (json.dumps(table, ensure_ascii=False, indent=1) + "\n").encode("utf-8"))
    write_atomically(out / "causes.md", table_text(table).encode("utf-8"))
    return table
