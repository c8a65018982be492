"""Helpers shared by the harness's tests (tests/test_harness*.py): the mini sessions they run and a run of them, and
a run folder's JSON file edited as another version would have written it, an oracle that leaves turn 2 undone."""

from __future__ import annotations

import json
from pathlib import Path

from autodw.dwbench.records import corpus_dir, load_split
from autodw.eval.runner import Runner, RunSpec
from autodw.eval.systems import OracleSystem

ROOT = Path(__file__).resolve().parent.parent
#: the mini sessions these tests run: all of them, or without the shared corpus only those on generated documents
MINI = [s for s in load_split("mini") if s.source.kind == "generated" or corpus_dir().is_dir()]
IDS = [s.session_id for s in MINI]
#: The shortest generated session of mini (5 instructions, no corpus document): for tests that run it many times.
SHORT = min((s for s in MINI if s.source.kind == "generated"), key=lambda s: len(s.instructions)).session_id


def run_mini(out: Path, make, system: str = "oracle", modes=("instruction", "session"), limit: int | None = 2,
             word_check: bool = False, options: dict | None = None, llm: str = "none") -> dict:
    spec = RunSpec(system, llm, "mini", list(modes), options or {}, limit, IDS)
    return Runner(spec, out, make, word_check=word_check, progress=False).run()


def edit_json(path: Path, **fields) -> None:
    """Set `fields` in a run folder's JSON file (as a run of another version would have them)."""
    path.write_text(json.dumps({**json.loads(path.read_text()), **fields}))


class FailsTurnTwo(OracleSystem):
    """Leaves turn 2 of every session undone (and counts the turns it is given)."""

    turns_run = 0

    def run_turn(self, doc, instruction, earlier, trace=None):
        type(self).turns_run += 1
        if instruction.turn == 2:
            return super().run_turn(doc, instruction.__class__(**{**vars(instruction), "gold": []}), earlier)
        return super().run_turn(doc, instruction, earlier, trace)
