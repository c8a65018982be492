"""DWBench's shape: sessions, instructions, languages, intents, difficulty, API use and the three
distributions of the paper's Fig. 2 (instructions per session, calls per session, calls per instruction)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any, Sequence

from autodw.dwbench.records import Session
from autodw.plots import pyplot, save_png


def _summary(values: Sequence[int]) -> dict[str, float]:
    return {"min": min(values), "mean": round(sum(values) / len(values), 2), "max": max(values)}


def compute_stats(sessions: list[Session]) -> dict[str, Any]:
    """The statistics of a list of sessions (one split)."""
    from autodw.apis import registry

    reg = registry()
    instructions = [i for s in sessions for i in s.instructions]
    per_ins = [len(i.gold) for i in instructions]
    api_use = Counter(c.api for i in instructions for c in i.gold)
    n = len(instructions)
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
        "histograms": {
            "instructions_per_session": _hist(len(s.instructions) for s in sessions),
            "calls_per_session": _hist(s.n_calls for s in sessions),
            "calls_per_instruction": _hist(per_ins),
        },
    }


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
    lines.append("sources: " + ", ".join(f"{k} {v}" for k, v in stats["sources"].items()) + f" ({stats['corpus_files']} corpus files)")
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
