"""Which DWBench gold calls the rule checks reject, and which word list each rejection read.

Every instruction of a split runs, from its gold initial state (teacher forcing, as instruction mode does), through
the noisy oracle with no faults and the rule checks alone as its validator: the system and the validation of
``autodw bench run --system noisy-oracle --p 0 --validator rules --mode instruction`` (hosted profile, full
rollback), without writing a run folder, judging outputs or checking them with Word. A gold call whose first verdict
rejects it is a false rejection (:func:`autodw.eval.metrics.fault_stats` counts them as that run's summary does);
the trace's verdict names the checks that rejected it. The checks that read a word list:

- ``unasked_api``: ``autodw/agent/api_words.json``;
- ``unnamed_value``, ``unasked_flag``, ``unasked_property``: ``autodw/agent/value_words.json`` (``unnamed_value``
  also covers a page-column count and a row put at the top, which read no list: the finding's text tells them apart).

The word lists are derived from dev's rejections alone (``scripts/derive_word_lists.py --split dev``); on test, only
the counts are for reading (``--counts-only``), so that nothing is changed after looking at test's failures.
"""

from __future__ import annotations

import json
import multiprocessing
import tempfile
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from autodw.dwbench.records import Session, load_split
from autodw.eval.metrics import fault_stats

#: rule check -> the word list it reads
WORD_LISTS = {"unasked_api": "api_words.json", "unnamed_value": "value_words.json",
              "unasked_flag": "value_words.json", "unasked_property": "value_words.json"}
#: how an unnamed_value finding that read value_words.json says it (a column count or a row not put on top read none)
_VALUE_WORDS_FINDING = ": the request does not ask for "


@dataclass(frozen=True)
class Rejection:
    """A gold call the rule checks rejected on its first attempt."""

    key: str  # SESSION#TURN
    step: int  # the gold call's number in the instruction (1-based)
    api: str
    args: dict[str, Any]
    checks: tuple[str, ...]
    explanation: str
    instruction: str

    @property
    def word_lists(self) -> tuple[str, ...]:
        """The word lists of the checks that rejected the call (none for a check that reads no list)."""
        lists = {WORD_LISTS[c] for c in self.checks if c in WORD_LISTS and c != "unnamed_value"}
        if "unnamed_value" in self.checks and _VALUE_WORDS_FINDING in self.explanation:
            lists.add(WORD_LISTS["unnamed_value"])
        return tuple(sorted(lists))

    def to_dict(self) -> dict[str, Any]:
        return {"key": self.key, "step": self.step, "api": self.api, "args": self.args, "checks": list(self.checks),
                "word_lists": list(self.word_lists), "explanation": self.explanation, "instruction": self.instruction}


@dataclass
class GoldRejections:
    """The rule checks on every gold call of one split of one track."""

    split: str
    track: str
    source: str  # where the sessions came from
    sessions: int = 0
    instructions: int = 0
    stats: dict[str, Any] = field(default_factory=dict)  # metrics.fault_stats over the split
    rejections: list[Rejection] = field(default_factory=list)

    @property
    def gold_calls(self) -> int:
        """Gold calls the validator judged (a gold call that failed to run is not judged)."""
        return self.stats.get("judged", 0)

    @property
    def false_rejections(self) -> int:
        return self.stats.get("false_rejections", 0)

    def by_word_list(self) -> dict[str, list[Rejection]]:
        """The rejections per word list read ("" for rejections by checks that read none)."""
        out: dict[str, list[Rejection]] = {}
        for r in self.rejections:
            for name in r.word_lists or ("",):
                out.setdefault(name, []).append(r)
        return out

    def to_dict(self, counts_only: bool = False) -> dict[str, Any]:
        out = {"split": self.split, "track": self.track, "source": self.source, "sessions": self.sessions,
               "instructions": self.instructions, "gold_calls_judged": self.gold_calls,
               "gold_steps": self.stats.get("gold_steps", 0), "false_rejections": self.false_rejections,
               "rejections_by_word_list": {k or "(no word list)": len(v) for k, v in sorted(self.by_word_list().items())}}
        if not counts_only:
            out["rejections"] = [r.to_dict() for r in self.rejections]
        return out


def _system() -> Any:
    """The noisy oracle at p 0 with the rule checks alone, as ``autodw bench run`` makes it (hosted profile)."""
    from autodw.agent.assembly import profile_assembly
    from autodw.eval.systems import NoisyOracleSystem

    return NoisyOracleSystem(0.0, "rules", None, profile_assembly("hosted", rollback="full"), seed=0)


def _first_verdicts(trace: Path) -> list[dict[str, Any]]:
    """The verdict events of first attempts, in order."""
    level, out = None, []
    for line in trace.read_text(encoding="utf-8").splitlines():
        event = json.loads(line)
        if event["event"] == "attempt":
            level = event.get("level")
        elif event["event"] == "verdict" and level == "first":
            out.append(event)
            level = None
    return out


_WORKER: dict[str, Any] = {}


def run_instruction(session: Session, turn: int) -> tuple[list[dict[str, Any]], list[Rejection]]:
    """One instruction's gold steps through the rule checks: the noisy oracle's step entries and the rejected ones."""
    if "system" not in _WORKER:
        _WORKER["system"] = _system()
    ins = session.instructions[turn - 1]
    doc = session.initial_document(turn)
    earlier = [(i.text, "done") for i in session.instructions[: turn - 1]]
    with tempfile.TemporaryDirectory(prefix="autodw-gold-checks-") as folder:
        trace = Path(folder) / "trace.jsonl"
        result = _WORKER["system"].run_turn(doc, ins, earlier, trace)
        verdicts = _first_verdicts(trace)
    judged = [s for s in result.faults if s.get("verdicts") and s["verdicts"][0]["level"] == "first"]
    if len(verdicts) != len(judged):
        raise RuntimeError(f"{ins.key}: {len(judged)} judged gold steps but {len(verdicts)} first verdicts in the trace")
    rejections = [Rejection(ins.key, s["step"], s["gold"]["api"], s["gold"]["args"], tuple(v.get("rule") or ()),
                            v.get("explanation", ""), ins.text)
                  for s, v in zip(judged, verdicts) if not s["verdicts"][0]["accepted"]]
    return result.faults, rejections


def _work(unit: tuple[Session, int]) -> tuple[list[dict[str, Any]], list[Rejection]]:
    return run_instruction(*unit)


def gold_rejections(split: str, track: str, workers: int = 1) -> GoldRejections:
    """Every gold call of `split` of `track` through the rule checks (module docstring); `workers` forked processes."""
    sessions, source = load_split(split, track), f"data/{track}/{split}-NN.jsonl"
    units = [(s, i.turn) for s in sessions for i in s.instructions]
    if workers > 1 and "fork" in multiprocessing.get_all_start_methods():
        with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork")) as pool:
            results = list(pool.map(_work, units, chunksize=4))
    else:
        results = [_work(u) for u in units]
    out = GoldRejections(split, track, source, len(sessions), len(units))
    out.stats = fault_stats([{"faults": steps} for steps, _ in results]) or {}
    out.rejections = [r for _, rejected in results for r in rejected]
    return out
