"""Rewrite DWBench gold: a run of move_block calls that moves a whole section becomes one move_section call.

    python scripts/dwbench_move_section.py [--write]

For every instruction of every split, each run of two or more move_block calls whose first block is a heading is
tried as ``move_section(heading, position of the first call)`` on the document as it is before the run; the
rewrite is kept only if it gives exactly the same extracted state as the run. Prints the plan lengths (gold calls)
before and after per split; with --write, rewrites the data files (n_calls and difficulty follow the calls). A
session the rewrite would take under DWBench's 15 gold calls keeps its move_block calls (both are valid gold: the
judge compares states).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from autodw.apis.calls import execute  # noqa: E402
from autodw.dwbench.records import SPLITS, difficulty_of, load_split, split_files  # noqa: E402
from autodw.errors import ApiError  # noqa: E402
from autodw.state import extract_state  # noqa: E402

MIN_SESSION_CALLS = 15  # DWBench's bound on gold calls per session


def _same(doc, snapshot, run: list[tuple[str, dict]], heading: str, position) -> bool:
    """Whether move_section(heading, position) leaves `doc` as `run` does (doc is restored to `snapshot`)."""
    try:
        for api, args in run:
            execute(doc, api, args)
        expected = extract_state(doc)
        doc.restore(snapshot)
        execute(doc, "move_section", {"heading": heading, "position": position})
        return extract_state(doc) == expected
    except ApiError:
        return False
    finally:
        doc.restore(snapshot)


def rewrite(session) -> dict[int, list[tuple[str, dict]]]:
    """turn -> its new gold calls, for the turns of `session` that change."""
    out = {}
    for instruction in session.instructions:
        calls = [(c.api, c.args) for c in instruction.gold]
        doc = session.initial_document(instruction.turn)
        new, i = [], 0
        while i < len(calls):
            j = i
            while j < len(calls) and calls[j][0] == "move_block":
                j += 1
            if j - i >= 2:
                heading, position = calls[i][1]["block"], calls[i][1]["position"]
                if _same(doc, doc.snapshot(), calls[i:j], heading, position):
                    new.append(("move_section", {"heading": heading, "position": position}))
                    execute(doc, "move_section", {"heading": heading, "position": position})
                    i = j
                    continue
            j = max(j, i + 1)  # the move_block run as it is, or the one call that is not a move_block
            for api, args in calls[i:j]:
                new.append((api, args))
                execute(doc, api, args)
            i = j
        if new != calls:
            out[instruction.turn] = new
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--write", action="store_true", help="rewrite the data files")
    args = ap.parse_args()
    for split in SPLITS:
        sessions = load_split(split)
        changes = {}
        for session in sessions:
            found = rewrite(session)
            saved = sum(len(session.instructions[t - 1].gold) - len(calls) for t, calls in found.items())
            if session.n_calls - saved >= MIN_SESSION_CALLS:
                changes[session.session_id] = found
            else:
                print(f"  {session.session_id} keeps its move_block calls ({session.n_calls} -> {session.n_calls - saved} "
                      f"would be under {MIN_SESSION_CALLS})")
        before = sum(s.n_calls for s in sessions)
        n_changed = sum(len(v) for v in changes.values())
        after = before
        for path in split_files(split):
            lines = []
            for line in path.read_text(encoding="utf-8").splitlines():
                rec = json.loads(line)
                new = changes.get(rec["session_id"], {}).get(rec["turn"])
                if new is not None:
                    after -= len(rec["gold"]) - len(new)
                    rec["gold"] = [{"api": a, "args": json.dumps(g, ensure_ascii=False, sort_keys=True)} for a, g in new]
                    rec["n_calls"], rec["difficulty"] = len(new), difficulty_of(len(new))
                lines.append(json.dumps(rec, ensure_ascii=False))
            if args.write:
                path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        print(f"{split}: {n_changed} instructions rewritten; gold calls {before} -> {after}", flush=True)


if __name__ == "__main__":
    main()
