"""How often grounding names the gold calls' targets, on DWBench 2.0 dev (no model but the e5 encoder of `described`).

    python scripts/grounding_recall.py [--track hand] [--track templated] [--split dev|dev-mini] [--missed]

Each instruction starts from its gold start state (as instruction mode starts it) and is grounded as the agent's
planner grounds a message (:func:`autodw.agent.grounding.ground`, with the session's previous instruction when this
tree's grounding takes it). Its targets are the element ids its gold calls name that the start state has (ids a gold
call creates cannot be grounded). Reported per track: instructions with targets, those whose every / some target is
in the grounding lines, targets found of all, instructions grounding anything, and grounding lines per instruction
(noise). `--missed` lists the instructions with a target not found. Test and mini are held out: refused.
"""

from __future__ import annotations

import argparse
import inspect
import json
import re
import sys
from dataclasses import dataclass, field

from autodw.agent import grounding
from autodw.analysis.state import extract_state
from autodw.core.ids import ID_IN_TEXT
from autodw.core.provenance import label
from autodw.dwbench.records import DATA_VERSION, load_split

TUNABLE_SPLITS = ("dev", "dev-mini")


@dataclass
class Tally:
    """The counts of one track."""

    instructions: int = 0
    with_targets: int = 0
    all_found: int = 0
    some_found: int = 0
    targets: int = 0
    found: int = 0
    grounded: int = 0
    lines: int = 0
    missed: list[str] = field(default_factory=list)


def _ids(state: dict) -> set[str]:
    """The ids of the state's paragraphs (cells' too), tables, pictures and charts."""
    ids = {p["id"] for p, _ in grounding.paragraphs(state)}
    return ids | {t["id"] for t in state.get("tables", [])} | {i["id"] for i in state.get("images", []) if i.get("id")}


def measure(split: str, track: str) -> Tally:
    """The tally of `track`'s `split`."""
    takes_previous = "previous" in inspect.signature(grounding.ground).parameters
    tally = Tally()
    for session in load_split(split, track):
        for turn, instruction in enumerate(session.instructions, 1):
            state = extract_state(session.initial_document(turn))
            previous = session.instructions[turn - 2].text if turn > 1 else ""
            matches = (grounding.ground(state, instruction.text, previous=previous) if takes_previous
                       else grounding.ground(state, instruction.text))
            lines = grounding.grounding_lines(matches)
            gold = json.dumps([c.args for c in instruction.gold])
            targets = sorted(set(ID_IN_TEXT.findall(gold)) & _ids(state))
            found = [i for i in targets if re.search(rf"(?<![\w-]){i}(?!\w)", lines)]
            tally.instructions += 1
            tally.grounded += bool(matches)
            tally.lines += len(matches)
            if not targets:
                continue
            tally.with_targets += 1
            tally.targets += len(targets)
            tally.found += len(found)
            tally.all_found += len(found) == len(targets)
            tally.some_found += bool(found)
            if len(found) < len(targets):
                tally.missed.append(f"{instruction.key} missed {sorted(set(targets) - set(found))}: {instruction.text}")
    return tally


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", default="dev", help="dev or dev-mini (test and mini are held out: refused)")
    parser.add_argument("--track", action="append", choices=("hand", "templated"), help="repeatable; default both")
    parser.add_argument("--missed", action="store_true", help="list the instructions with a target not found")
    args = parser.parse_args(argv)
    if args.split not in TUNABLE_SPLITS:
        parser.error(f"split {args.split!r} is held out or unknown: only {' or '.join(TUNABLE_SPLITS)} may be measured")
    for track in args.track or ["hand", "templated"]:
        t = measure(args.split, track)
        print(f"== {track} {args.split} [{label(DATA_VERSION, track, args.split)}]: {t.instructions} instructions, "
              f"{t.with_targets} with targets in the start state")
        print(f"  every target grounded: {t.all_found}/{t.with_targets}; some target: {t.some_found}/{t.with_targets}; "
              f"targets grounded: {t.found}/{t.targets}")
        print(f"  instructions grounding anything: {t.grounded}/{t.instructions}; grounding lines per instruction: "
              f"{t.lines / max(t.instructions, 1):.2f}")
        if args.missed:
            print("\n".join("  " + m for m in t.missed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
