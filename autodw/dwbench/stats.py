"""DWBench's shape: sessions, instructions, languages, intents, difficulty, API use and the three
distributions of the paper's Fig. 2 (instructions per session, calls per session, calls per instruction)."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Any, Callable, Sequence

from autodw.dwbench.leakage import QUOTED
from autodw.dwbench.records import Instruction, Session
from autodw.core.plots import pyplot, save_png


def _summary(values: Sequence[int]) -> dict[str, float]:
    return {"min": min(values), "mean": round(sum(values) / len(values), 2), "max": max(values)}


def compute_stats(sessions: list[Session]) -> dict[str, Any]:
    """The statistics of a list of sessions (one split); turn kinds as :data:`TURN_KINDS` counts them."""
    from autodw.apis import registry

    reg = registry()
    instructions = [i for s in sessions for i in s.instructions]
    per_ins = [len(i.gold) for i in instructions]
    api_use = Counter(c.api for i in instructions for c in i.gold)
    n = len(instructions)
    kinds = {name: sum(1 for i in instructions if test(i)) for name, test in TURN_KINDS.items()}
    return {
        "sessions": len(sessions),
        "instructions": n,
        "calls": sum(per_ins),
        "languages": dict(sorted(Counter(i.language for i in instructions).items())),
        "session_languages": dict(sorted(Counter(s.language for s in sessions).items())),
        "intents": dict(sorted(Counter(reg.get(c.api).intent for i in instructions for c in i.gold).items())),
        "instruction_intents": dict(sorted(Counter(t for i in instructions for t in i.intents).items())),
        "difficulty": {k: sum(1 for i in instructions if i.difficulty == k) for k in ("easy", "medium", "hard")},
        "calls_per_instruction": _summary(per_ins),
        "calls_per_session": _summary([s.n_calls for s in sessions]),
        "instructions_per_session": _summary([len(s.instructions) for s in sessions]),
        "share_8_or_more_calls": round(sum(1 for k in per_ins if k >= 8) / n, 3),
        "share_10_or_more_calls": round(sum(1 for k in per_ins if k >= 10) / n, 3),
        "free_text": sum(1 for i in instructions if i.free_text),
        "sources": dict(sorted(Counter(s.source.kind for s in sessions).items())),
        "corpus_files": len({s.source.file for s in sessions if s.source.kind == "corpus"}),
        "doc_kinds": dict(sorted(Counter(s.instructions[0].doc_kind for s in sessions).items())),
        "api_use": dict(sorted(api_use.items(), key=lambda kv: (-kv[1], kv[0]))),
        "written_by": dict(sorted(Counter(i.written_by for i in instructions).items())),
        "requests_per_turn": {"mean": round(sum(i.requests for i in instructions) / n, 2),
                              "histogram": _hist(i.requests for i in instructions)},
        **{name: {"turns": k, "share": round(k / n, 3)} for name, k in kinds.items()},
        "held_out": sum(1 for i in instructions if i.held_out),
        "share_sessions_from_corpus": round(sum(1 for s in sessions if s.source.kind == "corpus") / len(sessions), 3),
        "histograms": {
            "instructions_per_session": _hist(len(s.instructions) for s in sessions),
            "calls_per_session": _hist(s.n_calls for s in sessions),
            "calls_per_instruction": _hist(per_ins),
        },
    }


BACK_REFERENCE_WORDS = re.compile(r"\b(?:you just|you (?:added|inserted|created|made)|I asked for earlier|the same|that (?:same|new)|"
                                  r"the new)\b|刚才|刚加|刚插|新加的|新插的|前面让你")
"""How templated text refers back to an earlier turn or clause ("the paragraph you just added", "the same table", "that new
table", "刚才插入的表格", "前面让你加的表格")."""


def is_back_reference(i: Instruction) -> bool:
    """A turn that refers back: tagged back-reference or pronoun, or (written by a template, which has no tags) with
    one of the :data:`BACK_REFERENCE_WORDS`."""
    return bool({"back-reference", "pronoun"} & set(i.tags)) or (i.written_by == "template" and bool(BACK_REFERENCE_WORDS.search(i.text)))


TURN_KINDS: dict[str, Callable[[Instruction], bool]] = {
    "quoted_value": lambda i: bool(QUOTED.search(i.text)),
    "back_reference": is_back_reference,
    "correction": lambda i: bool({"correction", "undo"} & set(i.tags)),
    "ambiguous": lambda i: i.ambiguous is not None,
    "accept": lambda i: bool(i.alternatives or i.tolerances),
}
"""Kinds of turn counted by :func:`compute_stats` (turns and share of turns): with a quoted value, referring back, a
correction or undo, ambiguous, with ``accept`` alternatives or tolerances."""


def _hist(values) -> dict[str, int]:
    counts = Counter(values)
    return {str(k): counts[k] for k in sorted(counts)}


def render_text(stats: dict[str, Any]) -> str:
    """A short readable summary."""
    lines = [f"sessions {stats['sessions']}, instructions {stats['instructions']}, gold calls {stats['calls']}"]
    for key in ("instructions_per_session", "calls_per_session", "calls_per_instruction"):
        v = stats[key]
        lines.append(f"{key.replace('_', ' ')}: min {v['min']}, mean {v['mean']}, max {v['max']}")
    lines.append(f"instructions with >= 8 calls: {stats['share_8_or_more_calls']:.1%}; >= 10: {stats['share_10_or_more_calls']:.1%}")
    lines.append("difficulty: " + ", ".join(f"{k} {v} ({v / stats['instructions']:.0%})" for k, v in stats["difficulty"].items()))
    lines.append("languages (instructions): " + ", ".join(f"{k} {v}" for k, v in stats["languages"].items())
                 + "; sessions: " + ", ".join(f"{k} {v}" for k, v in stats["session_languages"].items()))
    lines.append("intents (calls): " + ", ".join(f"{k} {v}" for k, v in stats["intents"].items()))
    lines.append(f"free_text instructions: {stats['free_text']} ({stats['free_text'] / stats['instructions']:.1%})")
    lines.append("written by: " + ", ".join(f"{k} {v}" for k, v in stats["written_by"].items())
                 + f"; requests per turn: mean {stats['requests_per_turn']['mean']}; held out {stats['held_out']}")
    lines.append("turns " + ", ".join(f"{k.replace('_', ' ')} {stats[k]['share']:.1%}" for k in TURN_KINDS))
    lines.append("sources: " + ", ".join(f"{k} {v}" for k, v in stats["sources"].items()) + f" ({stats['corpus_files']} corpus files; "
                 f"{stats['share_sessions_from_corpus']:.1%} of sessions)")
    rare = [f"{k} {v}" for k, v in stats["api_use"].items() if v < 3]
    lines.append(f"APIs used: {len(stats['api_use'])}" + (f"; used fewer than 3 times: {', '.join(rare)}" if rare else ""))
    return "\n".join(lines)


def plot(stats: dict[str, Any], path: Path) -> Path:
    """Draw the three distributions side by side, like the paper's Fig. 2, to a PNG file."""
    fig, axes = pyplot().subplots(1, 3, figsize=(13, 3.6))
    for ax, key, label in zip(axes, ("instructions_per_session", "calls_per_session", "calls_per_instruction"),
                              ("instructions per session", "API calls per session", "API calls per instruction")):
        hist = stats["histograms"][key]
        xs = [int(k) for k in hist]
        ax.bar(xs, list(hist.values()), color="#4472C4", width=0.85)
        s = stats[key]
        ax.set_title(f"{label}\n(range {s['min']}-{s['max']}, mean {s['mean']})", fontsize=10)
        ax.set_xlabel(label)
        ax.set_ylabel("count")
    fig.suptitle(f"DWBench: {stats['sessions']} sessions, {stats['instructions']} instructions", fontsize=11)
    fig.tight_layout()
    return save_png(fig, path)
