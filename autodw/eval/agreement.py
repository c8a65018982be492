"""``autodw bench agree``: the LLM judge on a run's outputs, compared with the deterministic judge's verdicts.

Every output of the run (instruction and session records) is judged again by the LLM judge
(:mod:`autodw.eval.llm_judge`) against its expected document; the answers go to ``RUN/agreement.jsonl`` one per
output as they come (a rerun continues), then agreement, Cohen's kappa and the disagreements are reported.

A saved answer is reused only for the same question: the same output (its content hash), expected document and
instruction (the data hash, :meth:`Session.data_hash`) and LLM; the deterministic judge's version does not change
it. The deterministic verdict is always the record's current one, so a run judged again (``bench rescore
--rejudge``) or run again is compared as it now stands.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from autodw.core.document import WordDocument
from autodw.dwbench.records import Session
from autodw.core.errors import ConfigError, LLMOutputError
from autodw.eval.llm_judge import llm_judge
from autodw.eval.metrics import instruction_records, session_turns
from autodw.eval.run_folder import recorded_run
from autodw.llm.base import LLMBackend
from autodw.core.progress import progress


def _outputs(run: Path, sessions: list[Session]) -> list[tuple[str, dict[str, Any], Path]]:
    """(key, record, output file) of every judged output of the run."""
    out = [(f"i:{r['key']}", r, run / "instructions" / r["output"]) for r in instruction_records(run, sessions)]
    for turns in (session_turns(run, s) for s in sessions):
        out += [(f"s:{t['key']}", t, run / "sessions" / t["session_id"] / t["output"]) for t in turns]
    return out


def kappa(pairs: list[tuple[bool, bool]]) -> float | None:
    """Cohen's kappa of two binary raters (None when undefined: fewer than 2 items or chance agreement of 1)."""
    n = len(pairs)
    if n < 2:
        return None
    observed = sum(a == b for a, b in pairs) / n
    pa, pb = sum(a for a, _ in pairs) / n, sum(b for _, b in pairs) / n
    chance = pa * pb + (1 - pa) * (1 - pb)
    if chance == 1:
        return None
    value = round((observed - chance) / (1 - chance), 4)
    return value if value else 0.0  # not -0.0


def _question(key: str, session: Session, record: dict[str, Any], path: Path, llm: LLMBackend) -> dict[str, Any]:
    """What the LLM judge's answer on an output depends on: the output's content, the data it is judged against (the
    expected document, the instruction) and the LLM. ConfigError if the output is missing."""
    if not path.is_file():
        raise ConfigError(f"{path} is missing: the LLM judge judges a run's saved outputs ({key})")
    return {"key": key, "output_sha256": hashlib.sha256(path.read_bytes()).hexdigest(),
            "data_hash": session.data_hash(record["turn"]), "judge_llm": llm.name}


def agreement(run: Path, llm: LLMBackend, limit: int | None = None) -> dict[str, Any]:
    """Judge the run's outputs with `llm` (continuing ``agreement.jsonl``: an answer is reused only for the same
    output, data and LLM) and compare with the records' current deterministic verdicts."""
    _, sessions = recorded_run(run)
    by_id = {s.session_id: s for s in sessions}
    store = run / "agreement.jsonl"
    saved: dict[str, dict[str, Any]] = {}  # the last answer saved per output key
    if store.is_file():
        for line in store.read_text(encoding="utf-8").splitlines():
            if line.strip():
                entry = json.loads(line)
                saved[entry["key"]] = entry
    outputs = _outputs(run, sessions)[:limit] if limit else _outputs(run, sessions)
    entries = []
    with store.open("a", encoding="utf-8") as fh:
        for key, record, path in progress(outputs, "LLM judge", unit="output"):
            session = by_id[record["session_id"]]
            question = _question(key, session, record, path, llm)
            entry = saved.get(key, {})
            if any(entry.get(k) != v for k, v in question.items()):  # not asked, or about another output or data
                try:
                    verdict = llm_judge(session.expected_document(record["turn"]), WordDocument.open(path), llm=llm,
                                        instruction=record["instruction"], free_text=record["free_text"])
                    entry = {**question, "llm": verdict.equivalent,
                             "differences": [d.to_dict() for d in verdict.differences][:5], "usage": verdict.usage}
                except LLMOutputError as exc:
                    entry = {**question, "llm": None, "error": str(exc)}
                saved[key] = entry
                fh.write(json.dumps(entry, ensure_ascii=False) + "\n")
                fh.flush()
            entries.append({**entry, "deterministic": record["success"]})  # the record's verdict as it now stands
    pairs = [(e["deterministic"], e["llm"]) for e in entries if e["llm"] is not None]
    agree = sum(a == b for a, b in pairs)
    result = {
        "run": str(run), "llm": llm.name, "outputs": len(entries), "judged": len(pairs),
        "no_answer": len(entries) - len(pairs),
        "agreement": round(agree / len(pairs), 4) if pairs else None, "kappa": kappa(pairs),
        "both_equivalent": sum(a and b for a, b in pairs), "both_different": sum(not a and not b for a, b in pairs),
        "only_deterministic_equivalent": sum(a and not b for a, b in pairs),
        "only_llm_equivalent": sum(b and not a for a, b in pairs),
        "disagreements": [e for e in entries if e["llm"] is not None and e["llm"] != e["deterministic"]][:50],
    }
    pct = "-" if result["agreement"] is None else f"{100 * result['agreement']:.1f}%"
    result["text"] = (f"{result['judged']} of {result['outputs']} outputs judged by {llm.name}: agreement {pct}, "
                      f"kappa {result['kappa']}; both equivalent {result['both_equivalent']}, both not "
                      f"{result['both_different']}, only the deterministic judge equivalent "
                      f"{result['only_deterministic_equivalent']}, only the LLM judge equivalent {result['only_llm_equivalent']}")
    return result
