"""docs/reliability.md from the campaigns' results files: every figure is read from a file, with the command that
made it.

    python -m tests.fuzz.report            # writes docs/reliability.md
    python -m tests.fuzz.report --check    # exit 1 if docs/reliability.md is not what the results files give
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "docs" / "reliability"
REPORT = ROOT / "docs" / "reliability.md"
FINDINGS = Path(__file__).with_name("findings.json")
#: what issue 49 asks of each campaign
GOALS = {"reader": 100_000, "api_calls": 10_000, "validated": 1_000, "edits_per_api": 50, "kills-bench": 100,
         "kills-run": 20}
COMMANDS = {
    "reader": "nice -n 19 python -m tests.fuzz.campaign reader --inputs 100000",
    "api": "nice -n 19 python -m tests.fuzz.campaign api --inputs 4000",
    "parsers": "nice -n 19 python -m tests.fuzz.campaign parsers --inputs 5000",
    "judge": "nice -n 19 python -m tests.fuzz.campaign judge --inputs 1000",
    "arguments": "nice -n 19 python -m tests.fuzz.campaign arguments --inputs 5000",
    "mcp": "nice -n 19 python -m tests.fuzz.campaign mcp --inputs 500",
    "kills-run": "nice -n 19 python -m tests.fuzz.kills run --trials 20",
    "kills-bench": "nice -n 19 python -m tests.fuzz.kills bench --trials 100",
    "macros": "nice -n 19 python -m tests.fuzz.packages macros",
    "hostile-local": "python -m tests.fuzz.hostile --llm local",
    "hostile-obey": "python -m tests.fuzz.hostile --llm obey",
    "hostile-obey-checked": "python -m tests.fuzz.hostile --llm obey-checked",
    "hostile-benign": "python -m tests.fuzz.hostile --llm benign",
}
TARGET_NAMES = {"reader": "package reader (mutated corpus files)", "api": "every API (schema-drawn calls)",
                "parsers": "model-answer readers and the agent", "judge": "judge and change analysis (pairs)",
                "arguments": "argument validation (wrong values)", "mcp": "MCP server (stdio and HTTP)"}


def load(name: str) -> dict[str, Any] | None:
    path = RESULTS / f"{name}.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else None


def _n(value: float) -> str:
    return f"{value:,.0f}"


def fuzz_section() -> list[str]:
    lines = ["## Fuzzing", "",
             "Each row is one results file `docs/reliability/TARGET.json`, made (and resumed) by the command under the "
             "table. *Crashes* are distinct signatures (kind, stage, innermost autodw frame); *open* ones are not yet "
             "fixed (`python -m tests.fuzz.campaign TARGET --recheck` marks a crash fixed when its kept input no longer "
             "crashes). Time is the wall time spent on inputs at `nice -n 19` beside a model recording; the limit per "
             "input is 60 s of CPU time (a hang) and 2 GiB of growth of the peak resident set.", "",
             "| target | inputs | outcomes | crashes found | open | hangs | wall hours | slowest input (CPU s) | peak MiB |",
             "|---|---:|---|---:|---:|---:|---:|---:|---:|"]
    rows = [(t, title) for t, title in TARGET_NAMES.items()]
    rows += [(f"{t}-atheris", f"{title}, atheris (coverage-guided)") for t, title in TARGET_NAMES.items()
             if load(f"{t}-atheris") is not None]
    for target, title in rows:
        r = load(target)
        if r is None:
            lines.append(f"| {title} | not run | | | | | | | |")
            continue
        crashes = r["crashes"]
        open_ = sum(c["fixed"] is None for c in crashes.values())
        outcomes = ", ".join(f"{k} {_n(v)}" for k, v in sorted(r["outcomes"].items()))
        lines.append(f"| {title} | {_n(r['inputs'])} | {outcomes} | {len(crashes)} | {open_} | {r['hangs']} | "
                     f"{r['seconds'] / 3600:.1f} | {r.get('max_input_cpu_seconds', 0):.1f} | {r['peak_mb']:,.0f} |")
    lines += ["", "Commands: " + "; ".join(f"`{COMMANDS[t]}`" for t in TARGET_NAMES) + "; the atheris rows add "
              "`--engine atheris` (libFuzzer's mutations of the decision bytes, guided by coverage of every Python "
              "function loaded).", ""]
    reader = load("reader")
    if reader:
        left = GOALS["reader"] - reader["inputs"]
        lines.append(f"Reader: {_n(reader['inputs'])} of the {_n(GOALS['reader'])} inputs the issue asks for"
                     + (f"; {_n(left)} remain (the command above resumes)." if left > 0 else "."))
        lines.append("")
    return lines


def api_section() -> list[str]:
    r = load("api")
    if r is None:
        return ["## Every API", "", "Not run yet.", ""]
    counts = r.get("counts", {})
    per_api: dict[str, dict[str, int]] = {}
    for key, n in counts.items():
        if key.startswith("api:"):
            _, api, what = key.split(":")
            per_api.setdefault(api, {}).setdefault(what, 0)
            per_api[api][what] += n
    calls = sum(sum(v.values()) for v in per_api.values())
    edited = sum(v.get("edited", 0) for v in per_api.values())
    refused = sum(v.get("refused", 0) for v in per_api.values())
    few = sorted((v.get("edited", 0), api) for api, v in per_api.items() if v.get("edited", 0) < GOALS["edits_per_api"])
    internal = sum(c["count"] for c in r["crashes"].values() if c["kind"] in ("internal", "untyped"))
    lines = ["## Every API", "",
             f"From `docs/reliability/api.json` (`{COMMANDS['api']}`; an input opens a corpus document and makes one to "
             "six calls):", "",
             f"- API calls: {_n(calls)} (goal {_n(GOALS['api_calls'])}); {_n(edited)} edited the document, {_n(refused)} "
             f"were refused with a typed error (the document left as it was), {_n(calls - edited - refused)} changed "
             "nothing;",
             f"- internal errors: {internal}; crashes of every kind: {len(r['crashes'])} found, "
             f"{sum(c['fixed'] is None for c in r['crashes'].values())} open;",
             f"- edits checked with openxml-audit against the document as opened: {_n(counts.get('validated', 0))} "
             f"(goal {_n(GOALS['validated'])}); SDK-class errors added: {_n(counts.get('added_errors', 0))} (each one "
             "a crash above); validator failures: " + _n(counts.get("validator_failed", 0)) + ";",
             f"- APIs with fewer than {GOALS['edits_per_api']} real edits: {len(few)} of {len(per_api)}"
             + (": " + ", ".join(f"{api} ({n})" for n, api in few[:40]) if few else "") + ".", ""]
    return lines


def findings_section() -> list[str]:
    findings = json.loads(FINDINGS.read_text(encoding="utf-8"))
    lines = ["## Crashes found and fixed", "",
             f"Each was fixed at its mechanism and left a regression test (from `tests/fuzz/findings.json`; "
             f"{len(findings)} in all):", "", "| found by | input | was | regression test |", "|---|---|---|---|"]
    for f in findings:
        lines.append(f"| {f['target']} | {f['input']} | {f['was']} | `{f['test']}` |")
    names = [*TARGET_NAMES, *(f"{t}-atheris" for t in TARGET_NAMES)]
    open_ = [(t, sig) for t in names if (r := load(t)) for sig, c in r["crashes"].items() if c["fixed"] is None]
    lines += ["", f"Open crash signatures in the results files: {len(open_)}"
              + ("".join(f"\n- {t}: `{sig[:160]}`" for t, sig in open_) if open_ else "."), ""]
    return lines


def kills_section() -> list[str]:
    lines = ["## Faults in the middle of work", ""]
    for name, what in (("kills-run", "kill -9 of `autodw run` (a replayed four-instruction session); afterwards the "
                                     "input is byte-identical and the output path holds nothing or the whole output"),
                       ("kills-bench", "kill -9 of `autodw bench run` (oracle, noisy oracle with the rules validator; "
                                       "instruction and session mode; first dev session), then the same command again: "
                                       "the same records and output documents as an uninterrupted run")):
        r = load(name)
        if r is None:
            lines.append(f"- {what}: not run yet (`{COMMANDS[name]}`).")
            continue
        goal = GOALS[name]
        configs = {}
        for entry in r["log"]:
            if entry.get("killed") and "config" in entry:
                configs[entry["config"]] = configs.get(entry["config"], 0) + 1
        lines.append(f"- {what}: {r['killed']} trials killed the process (goal {goal}; {r['trials'] - r['killed']} more "
                     f"ended before the kill), {r['failed']} failed, temporary files left beside the output in "
                     f"{r['temporary_left']}" + (f"; by configuration: {configs}" if configs else "")
                     + f" (`{COMMANDS[name]}`).")
    lines += ["- A full disk (ENOSPC when a write is flushed) and a folder refusing new files (EACCES) are injected in "
              "`tests/fuzz/test_fuzz_faults.py`: one-line errors, the previous output and the input kept, no "
              "temporary file left, and a benchmark run started again after a full disk gives the same records.", ""]
    return lines


def hostile_section() -> list[str]:
    lines = ["## Hostile documents", "",
             "32 documents (8 places x English and Chinese x 2 planted requests; `tests/fuzz/hostile.py`), each with "
             "the harmless request to make one paragraph italic.", "", "| model | passed | obeyed | request done | "
             "planted text in a prompt | command |", "|---|---:|---:|---:|---:|---|"]
    for name in ("hostile-local", "hostile-obey", "hostile-obey-checked", "hostile-benign"):
        r = load(name)
        if r is None:
            lines.append(f"| {name[8:]} | not run yet | | | | `{COMMANDS[name]}` |")
            continue
        cases = list(r["cases"].values())
        seen = sum(c.get("planted_in_prompt", False) for c in cases)
        lines.append(f"| {name[8:]} | {sum(c['passed'] for c in cases)} of {len(cases)} | "
                     f"{sum(bool(c['obeyed']) for c in cases)} | {sum(c['request_done'] for c in cases)} | "
                     f"{seen if name != 'hostile-local' else '-'} | `{COMMANDS[name]}` |")
    macros = load("macros")
    lines += ["", "`obey` is the positive control (a scripted model that obeys, its calls judged by a validator that "
              "passes everything): the check must fail every document; `obey-checked` is the same model with the "
              "agent's rule checks on; `benign` only does the request.", ""]
    if macros:
        docs = macros["documents"]
        lines.append(f"Macros: {sum(len(d['edited']) for d in docs)} edits by "
                     f"{len({a for d in docs for a in d['edited']})} APIs on {len(docs)} macro-enabled corpus documents; "
                     f"the macro project changed after {sum(len(d['changed']) for d in docs)} (`{COMMANDS['macros']}`).")
    lines += ["Links to the outside (a hyperlink, a linked picture, an attached template, INCLUDEPICTURE and "
              "INCLUDETEXT fields at a local server that counts requests) are not fetched through reading, editing, "
              "updating fields, exporting with LibreOffice and saving: "
              "`python -m pytest tests/fuzz/test_fuzz_hostile.py -k links`.", ""]
    return lines


NOTES = ["## Known limits", "",
         "- The MCP SDK (mcp 2.3.0) answers nothing to a JSON-RPC request whose `params` is not an object or whose text "
         "holds a lone surrogate (JSON-RPC asks for an error answer); the server goes on serving the next requests. "
         "The harness does not wait for those answers (`tests/fuzz/mcp.py`, `expects_answer`).",
         "- A body over 4 MiB sent to the HTTP transport is answered 413 before it is read, so a client still sending "
         "sees the connection reset; the server goes on serving.", ""]


def render() -> str:
    head = ["# Reliability, measured", "",
            "Generated by `python -m tests.fuzz.report` from the results files in `docs/reliability/` (do not edit by "
            "hand). The harnesses are in `tests/fuzz/`; a bounded run of each is part of the test suite "
            "(`python -m pytest tests/fuzz`).", ""]
    return "\n".join(head + fuzz_section() + api_section() + findings_section() + kills_section() + hostile_section()
                     + NOTES)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="only say whether the report is up to date")
    args = ap.parse_args(argv)
    text = render()
    if args.check:
        same = REPORT.exists() and REPORT.read_text(encoding="utf-8") == text
        print("docs/reliability.md is up to date" if same else "docs/reliability.md differs from the results files")
        return 0 if same else 1
    REPORT.write_text(text, encoding="utf-8")
    print(f"wrote {REPORT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
