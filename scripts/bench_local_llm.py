#!/usr/bin/env python
"""Measure the embedded local LLM backend: speed, prompt caching, constrained decoding, memory.

For each packaged model (each in its own subprocess, so peak RSS is per model) it runs an
agent-like call pattern: per instruction a planner call (its own ~350-token system prompt)
followed by an API-choice call (a ~1,250-token system prompt with 15 Word-editing APIs, then a
short document state and the instruction). The API-choice answer is checked by code against
the expected API and arguments (15 single-step instructions, English and Chinese).

Configurations:
  grammar+role     JSON-schema grammar, per-role KV snapshots (the backend's default)
  free+role        no grammar (only the prompt asks for JSON), per-role KV snapshots
  grammar+prefix   grammar, llama-cpp-python's own single-prefix reuse only
  grammar+off      grammar, KV cache cleared before every call
The last two run on the first --subset instructions only (they are slow by design).

Reported per configuration: seconds per API call and per instruction, prompt tokens evaluated
vs. taken from cache, prompt and generation tok/s (llama.cpp's own perf counters), answer
tokens, JSON parse rate, accuracy; per model: load time and peak RSS (ru_maxrss).

Usage:  python scripts/bench_local_llm.py [--models NAME ...] [--subset 4] [--out results.json]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from typing import Any, Callable

APIS: list[tuple[str, str, str]] = [
    ("set_text_format", '{"target": "<paragraph id>", "bold": bool?, "italic": bool?, '
     '"underline": bool?, "font": "<font name>"?, "size_pt": number?, "color": "<hex RRGGBB>"?}',
     "Change character formatting of a whole paragraph: bold, italic, underline, font family, "
     "font size in points, font colour as hex (red is FF0000, blue 0000FF). Use it for 'make "
     "X bold', 'change the font of', 'make the title red'. Only the listed keys may be given; "
     "omit the ones that do not change."),
    ("set_paragraph_format", '{"target": "<paragraph id>", "alignment": "left|center|right|'
     'justify"?, "line_spacing": number?, "space_before_pt": number?, "space_after_pt": '
     'number?, "first_line_indent_cm": number?}',
     "Change paragraph layout: alignment, line spacing as a multiple of single spacing (1.5 "
     "means one and a half lines), spacing before and after in points, first-line indent in "
     "centimetres. Use it for 'center the heading', 'double-space', 'indent'."),
    ("set_style", '{"target": "<paragraph id>", "style": "<style name>"}',
     "Apply a named paragraph style that exists in the document, e.g. 'Heading 1', 'Heading 2', "
     "'Normal', 'Quote', 'Title'. Use it to turn a paragraph into a heading or back into body "
     "text. Does not change direct formatting."),
    ("insert_paragraph", '{"after": "<paragraph id>", "text": "<text>", "style": "<style>"?}',
     "Insert a new paragraph with the given text right after an existing paragraph. To insert "
     "at the very beginning use after=\"start\". The new paragraph takes the given style or "
     "'Normal'. Use it for 'add a sentence/paragraph/line after ...'."),
    ("delete_paragraph", '{"target": "<paragraph id>"}',
     "Delete one paragraph and its content. Use it for 'remove/delete the paragraph about ...'. "
     "To delete only some words use replace_text with an empty replacement instead."),
    ("replace_text", '{"old": "<exact text>", "new": "<text>", "target": "<paragraph id>"|'
     '"all"}',
     "Replace every occurrence of an exact piece of text, in one paragraph or in the whole "
     "document (target \"all\"), keeping the formatting of the surrounding run. Use it for "
     "'replace A with B', 'change the word', 'fix the typo', 'remove the word'."),
    ("insert_page_break", '{"before": "<paragraph id>"}',
     "Insert a page break so that the given paragraph starts on a new page. Use it for 'start "
     "X on a new page', 'page break before'."),
    ("set_page_margins", '{"top_cm": number, "bottom_cm": number, "left_cm": number, '
     '"right_cm": number}',
     "Set the page margins of every section in centimetres. Use it for 'margins', 'make the "
     "page narrower'. All four values are required; repeat the value for 'all margins'."),
    ("set_page_orientation", '{"orientation": "portrait|landscape"}',
     "Switch every section between portrait and landscape, swapping page width and height."),
    ("insert_table", '{"after": "<paragraph id>", "rows": int, "cols": int, '
     '"header": ["<text>", ...]?}',
     "Insert an empty table with the given number of rows and columns after a paragraph, "
     "optionally filling the first row with header texts."),
    ("set_table_cell", '{"table": "<table id>", "row": int, "col": int, "text": "<text>"}',
     "Write text into one table cell. Rows and columns are counted from 1 (row 1 is the top "
     "row, col 1 the leftmost column). Existing text in the cell is replaced."),
    ("delete_table", '{"table": "<table id>"}',
     "Delete a whole table. Use it for 'remove the table'."),
    ("set_list", '{"targets": ["<paragraph id>", ...], "kind": "bullet|number|none"}',
     "Turn the given paragraphs into a bulleted or numbered list, or remove list formatting "
     "with kind \"none\". Use it for 'make these a bulleted list', 'number the steps'."),
    ("add_comment", '{"target": "<paragraph id>", "text": "<comment text>", '
     '"author": "<name>"?}',
     "Attach a review comment to a paragraph, shown in the margin. Use it for 'add a comment', "
     "'note that ...', 'flag this paragraph'. The document text is not changed."),
    ("set_header_text", '{"text": "<text>", "section": int?}',
     "Set the page header text of a section (all sections when section is omitted)."),
]

API_SYSTEM = (
    "You are the API generator of a Word document editing agent. You receive the current "
    "document state and ONE sub-instruction, and you answer with exactly one API call that "
    "carries it out, as a JSON object {\"api\": <name>, \"args\": {...}}. Rules:\n"
    "- Choose the single API whose description fits the sub-instruction best.\n"
    "- Refer to paragraphs by their id (p0, p1, ...) and to tables by their id (t0, ...) as "
    "shown in the state; never invent ids. Identify a paragraph by its text or style when the "
    "instruction describes it ('the title', 'the paragraph about costs').\n"
    "- Give only the arguments listed for the API; omit optional ones that do not change.\n"
    "- Colours are hex RRGGBB without '#'. Lengths are in the unit named by the argument.\n"
    "- Instructions may be in English or Chinese; ids and API names stay as written.\n"
    "- Answer with the JSON object only, no explanation, no code fence.\n\n"
    "Available APIs (name, arguments, description):\n"
    + "\n".join(f"## {name}\nargs: {args}\n{doc}\n" for name, args, doc in APIS)
    + "\nExample:\nInstruction: Make p3 italic.\n"
    "Answer: {\"api\": \"set_text_format\", \"args\": {\"target\": \"p3\", \"italic\": true}}\n"
)

PLANNER_SYSTEM = (
    "You are the planner of a Word document editing agent. You split the user's instruction "
    "into the smallest ordered list of sub-instructions, each of which one document API call "
    "can carry out (formatting a paragraph, inserting or deleting a paragraph, replacing text, "
    "page layout, tables, lists, comments, headers). Keep the user's wording and the document's "
    "own words; resolve references such as 'the title' or 'the paragraph about costs' to the "
    "paragraph ids shown in the state (p0, p1, ...). Do not add steps the user did not ask "
    "for, do not explain, and do not carry out anything yourself. A single-step instruction "
    "gives a list of one. Answer with JSON only: {\"steps\": [\"...\", ...]}.\n\n"
    "Example. State: p0 [Title] 'Plan'; p1 [Normal] 'Draft text.'\n"
    "Instruction: Make the title bold and delete the draft paragraph.\n"
    "Answer: {\"steps\": [\"Make p0 (the title 'Plan') bold.\", \"Delete p1 ('Draft text.').\"]}\n"
    "Instruction: 把标题设为居中。\n"
    "Answer: {\"steps\": [\"Center p0 (the title 'Plan').\"]}\n"
)

STATE = (
    "Document state (paragraphs in order):\n"
    "p0 [Title] \"Quarterly Report\"\n"
    "p1 [Normal] \"Sales grew 12% in the third quarter, driven by exports.\"\n"
    "p2 [Normal] \"Costs remained flat compared with last year.\"\n"
    "t0 [table 3x4 after p2] header: Region | Q1 | Q2 | Q3\n"
    "p3 [Heading 2] \"Outlook\"\n"
    "p4 [Normal] \"We expect moderate growth next year.\"\n"
)

API_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"api": {"type": "string", "enum": [name for name, _, _ in APIS]},
                   "args": {"type": "object"}},
    "required": ["api", "args"],
    "additionalProperties": False,
}
PLAN_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"steps": {"type": "array", "items": {"type": "string"}, "minItems": 1,
                             "maxItems": 4}},
    "required": ["steps"],
    "additionalProperties": False,
}


def _is(value: Any, *options: Any) -> bool:
    norm = str(value).strip().lstrip("#").lower()
    return any(norm == str(o).lower() for o in options)


@dataclass
class Case:
    instruction: str
    api: str
    check: Callable[[dict[str, Any]], bool]


CASES: list[Case] = [
    Case("Make the title bold.", "set_text_format",
         lambda a: a.get("target") == "p0" and a.get("bold") is True),
    Case("Set the font of paragraph p1 to Arial.", "set_text_format",
         lambda a: a.get("target") == "p1" and _is(a.get("font"), "arial")),
    Case("Delete the paragraph about costs.", "delete_paragraph",
         lambda a: a.get("target") == "p2"),
    Case("Replace 'exports' with 'overseas sales' everywhere.", "replace_text",
         lambda a: a.get("old") == "exports" and a.get("new") == "overseas sales"),
    Case("Center the heading 'Outlook'.", "set_paragraph_format",
         lambda a: a.get("target") == "p3" and _is(a.get("alignment"), "center")),
    Case("Start the Outlook section on a new page.", "insert_page_break",
         lambda a: a.get("before") == "p3"),
    Case("Add a paragraph 'Thank you.' after the last paragraph.", "insert_paragraph",
         lambda a: a.get("after") == "p4" and str(a.get("text", "")).strip() == "Thank you."),
    Case("把标题改成红色。", "set_text_format",
         lambda a: a.get("target") == "p0" and _is(a.get("color"), "ff0000", "red")),
    Case("删除关于成本的段落。", "delete_paragraph", lambda a: a.get("target") == "p2"),
    Case("将 p4 的行距设置为 1.5 倍。", "set_paragraph_format",
         lambda a: a.get("target") == "p4" and a.get("line_spacing") == 1.5),
    Case("Set all page margins to 2 cm.", "set_page_margins",
         lambda a: all(a.get(k) == 2 for k in ("top_cm", "bottom_cm", "left_cm", "right_cm"))),
    Case("Add a comment 'check this figure' to the paragraph about sales.", "add_comment",
         lambda a: a.get("target") == "p1" and "check this figure" in str(a.get("text", ""))),
    Case("Put 42 in row 2, column 3 of the table.", "set_table_cell",
         lambda a: a.get("table") == "t0" and a.get("row") == 2 and a.get("col") == 3
         and str(a.get("text")) == "42"),
    Case("把表格删除。", "delete_table", lambda a: a.get("table") == "t0"),
    Case("Turn p1 and p2 into a bulleted list.", "set_list",
         lambda a: a.get("targets") == ["p1", "p2"] and _is(a.get("kind"), "bullet")),
]

CONFIGS: list[tuple[str, bool, str]] = [  # (label, grammar, prompt_cache)
    ("grammar+role", True, "role"),
    ("free+role", False, "role"),
    ("grammar+prefix", True, "prefix"),
    ("grammar+off", True, "off"),
]
FULL_CONFIGS = {"grammar+role", "free+role"}


def _perf(backend: Any) -> tuple[float, int, float, int]:
    """llama.cpp's perf counters: (prompt ms, prompt tokens evaluated, gen ms, gen tokens)."""
    data = backend._llama_cpp.llama_perf_context(backend._llm.ctx)
    return float(data.t_p_eval_ms), int(data.n_p_eval), float(data.t_eval_ms), int(data.n_eval)


def _parse(text: str) -> dict[str, Any] | None:
    try:
        value = json.loads(text)
    except ValueError:
        start, end = text.find("{"), text.rfind("}")  # tolerate a code fence, as a caller could
        if start < 0 or end <= start:
            return None
        try:
            value = json.loads(text[start:end + 1])
        except ValueError:
            return None
    return value if isinstance(value, dict) else None


def run_config(backend: Any, label: str, cases: list[Case]) -> dict[str, Any]:
    """Run planner + API calls for `cases`; per-call records and a summary."""
    lc = backend._llama_cpp
    backend.clear_cache()
    calls: list[dict[str, Any]] = []
    instr_seconds: list[float] = []
    for case in cases:
        started = time.perf_counter()
        for role, system, user, schema in (
                ("planner", PLANNER_SYSTEM, f"{STATE}\nInstruction: {case.instruction}",
                 PLAN_SCHEMA),
                ("api_generator", API_SYSTEM, f"{STATE}\nSub-instruction: {case.instruction}",
                 API_SCHEMA)):
            lc.llama_perf_context_reset(backend._llm.ctx)
            cpu0 = time.process_time()
            out = backend.complete([{"role": "system", "content": system},
                                    {"role": "user", "content": user}], role=role,
                                   schema=schema, max_tokens=256)
            p_ms, p_n, g_ms, g_n = _perf(backend)
            record = {"role": role, "seconds": out.seconds, "prompt_tokens":
                      out.usage.prompt_tokens, "cached": out.usage.cached_prompt_tokens,
                      "completion_tokens": out.usage.completion_tokens, "prompt_ms": p_ms,
                      "prompt_evaluated": p_n, "gen_ms": g_ms, "gen_evaluated": g_n,
                      "finish": out.raw.get("finish_reason"), "loadavg": os.getloadavg()[0],
                      "cpu_s": time.process_time() - cpu0}
            if role == "api_generator":
                answer = _parse(out.text)
                record["parsed"] = answer is not None
                record["ok"] = bool(answer and answer.get("api") == case.api
                                    and isinstance(answer.get("args"), dict)
                                    and case.check(answer["args"]))
                record["text"] = out.text
                record["instruction"] = case.instruction
            calls.append(record)
            print(f"  [{label}] {role:13s} {out.seconds:6.1f}s prompt {out.usage.prompt_tokens}"
                  f" (cached {out.usage.cached_prompt_tokens}) out "
                  f"{out.usage.completion_tokens}" + (f" ok={record['ok']}"
                                                      if "ok" in record else ""),
                  file=sys.stderr, flush=True)
        instr_seconds.append(time.perf_counter() - started)
    return {"label": label, "calls": calls, "summary": summarize(calls, instr_seconds),
            "loadavg_1min_after": os.getloadavg()[0]}


def summarize(calls: list[dict[str, Any]], instr_seconds: list[float]) -> dict[str, Any]:
    """Averages over calls (API calls separately) and the throughput of llama.cpp itself."""
    api = [c for c in calls if c["role"] == "api_generator"]
    warm_api = api[1:] if len(api) > 1 else api  # the first call pays the cold system prompt
    p_ms = sum(c["prompt_ms"] for c in calls)
    p_n = sum(c["prompt_evaluated"] for c in calls)
    g_ms = sum(c["gen_ms"] for c in calls)
    g_n = sum(c["gen_evaluated"] for c in calls)
    return {
        "instructions": len(api),
        "correct": sum(c["ok"] for c in api),
        "parsed": sum(c["parsed"] for c in api),
        "s_per_instruction": statistics.mean(instr_seconds),
        "s_per_instruction_warm": statistics.mean(instr_seconds[1:] or instr_seconds),
        "s_per_api_call_first": api[0]["seconds"],
        "s_per_api_call_warm": statistics.mean(c["seconds"] for c in warm_api),
        "s_per_api_call_warm_median": statistics.median(c["seconds"] for c in warm_api),
        "s_per_planner_call_warm": statistics.mean(
            c["seconds"] for c in calls[2:] if c["role"] == "planner") if len(api) > 1 else None,
        "api_prompt_tokens": statistics.mean(c["prompt_tokens"] for c in api),
        "api_cached_tokens_warm": statistics.mean(c["cached"] for c in warm_api),
        "api_completion_tokens": statistics.mean(c["completion_tokens"] for c in api),
        "prompt_tok_per_s": p_n / p_ms * 1000 if p_ms else None,
        "gen_tok_per_s": g_n / g_ms * 1000 if g_ms else None,
    }


def worker(model: str, subset: int, configs: list[str], n_cases: int,
           n_threads: int | None) -> dict[str, Any]:
    """Load `model` in this process and run the configurations; JSON-able results."""
    from autodw.llm.local import LocalBackend, system_info

    started = time.perf_counter()
    backend = LocalBackend(model, n_ctx=4096, n_threads=n_threads)
    load_s = time.perf_counter() - started
    rss_loaded = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    results = []
    for label, grammar, cache in CONFIGS:
        if label not in configs:
            continue
        backend.grammar_enabled = grammar
        backend.prompt_cache = cache  # type: ignore[assignment]
        cases = CASES[:n_cases] if label in FULL_CONFIGS else CASES[:min(subset, n_cases)]
        print(f"{model} {label}: {len(cases)} instructions, load average "
              f"{os.getloadavg()[0]:.2f}", file=sys.stderr, flush=True)
        results.append(run_config(backend, label, cases))
    return {"model": model, "backend": backend.describe(), "load_s": load_s,
            "llama_cpp": system_info(backend._llama_cpp).strip(),
            "rss_after_load_mib": rss_loaded,
            "peak_rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
            "configs": results}


def warm_median(cfg: dict[str, Any]) -> float:
    """Median seconds of the API calls after the first (robust to a busy machine)."""
    api = [c["seconds"] for c in cfg["calls"] if c["role"] == "api_generator"]
    return statistics.median(api[1:] or api)


def table(results: list[dict[str, Any]]) -> str:
    """A Markdown table of the summaries."""
    head = ("| model | config | correct | parsed | s/instr (warm) | API call s first / warm "
            "(median) | "
            "API prompt tok (cached warm) | answer tok | prompt tok/s | gen tok/s |")
    lines = [head, "|" + "---|" * 10]
    for res in results:
        for cfg in res["configs"]:
            s = cfg["summary"]
            lines.append(
                f"| {res['model']} | {cfg['label']} | {s['correct']}/{s['instructions']} | "
                f"{s['parsed']}/{s['instructions']} | {s['s_per_instruction']:.1f} "
                f"({s['s_per_instruction_warm']:.1f}) | {s['s_per_api_call_first']:.1f} / "
                f"{s['s_per_api_call_warm']:.1f} ({warm_median(cfg):.1f}) | "
                f"{s['api_prompt_tokens']:.0f} "
                f"({s['api_cached_tokens_warm']:.0f}) | {s['api_completion_tokens']:.0f} | "
                f"{s['prompt_tok_per_s']:.1f} | {s['gen_tok_per_s']:.1f} |")
    lines.append("")
    lines.append("1-min load average after each configuration (2 cores; >2 means other work "
                 "competed): " + ", ".join(f"{r['model']} {c['label']} {c['loadavg_1min_after']:.1f}"
                                          for r in results for c in r["configs"]))
    for res in results:
        lines.append(f"- {res['model']}: load {res['load_s']:.1f} s, RSS after load "
                     f"{res['rss_after_load_mib']:.0f} MiB, peak RSS {res['peak_rss_mib']:.0f} MiB"
                     f" ({res['backend']})")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    from autodw.llm.local_model import MODELS

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--models", nargs="+", default=list(MODELS), choices=list(MODELS))
    parser.add_argument("--configs", nargs="+", default=[c[0] for c in CONFIGS],
                        choices=[c[0] for c in CONFIGS])
    parser.add_argument("--subset", type=int, default=4,
                        help="instructions for the slow configurations (prefix, off)")
    parser.add_argument("--cases", type=int, default=len(CASES),
                        help="run only the first N instructions (speed-only reruns)")
    parser.add_argument("--threads", type=int, help="llama.cpp threads (default: every core)")
    parser.add_argument("--out", help="write all records as JSON here")
    parser.add_argument("--table", metavar="JSON", help="only print the table of a saved --out")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.table:
        with open(args.table, encoding="utf-8") as f:
            print(table(json.load(f)))
        return 0
    if args.worker:
        json.dump(worker(args.worker, args.subset, args.configs, args.cases, args.threads),
                  sys.stdout)
        return 0
    print(f"API system prompt: {len(API_SYSTEM)} chars; planner: {len(PLANNER_SYSTEM)} chars",
          file=sys.stderr)
    results = []
    for model in args.models:  # one process per model: ru_maxrss is per process
        extra = ["--threads", str(args.threads)] if args.threads else []
        proc = subprocess.run([sys.executable, __file__, "--worker", model, "--subset",
                               str(args.subset), "--cases", str(args.cases), *extra,
                               "--configs", *args.configs],
                              stdout=subprocess.PIPE, text=True, check=True)
        results.append(json.loads(proc.stdout))
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            json.dump(results, f, ensure_ascii=False, indent=1)
    print(table(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
