"""Does phrasing matter? Pair hand-written turns of DWBench dev with templated turns that take the same number of gold
calls (same language), run a system on both sets, and compare the pairs.

    python scripts/phrasing_pairs.py pick [--n 30] [--seed 51]         # prints the two --instructions lists
    autodw bench run --system autodw --llm local --track hand --split dev --mode instruction --instructions HAND --out RH
    autodw bench run --system autodw --llm local --track templated --split dev --mode instruction --instructions TPL --out RT
    python scripts/phrasing_pairs.py compare RH RT [--n 30] [--seed 51]

`compare` pairs the records by the same draw and reports iACC and partial credit of each set, the pairs that differ
and McNemar's exact p (autodw.eval.compare.mcnemar_p).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

from autodw.dwbench.records import load_instructions
from autodw.eval.compare import mcnemar_p


def pick(n: int, seed: int) -> list[tuple[str, str]]:
    """`n` (hand key, templated key) pairs, half English and half Chinese, same number of gold calls where dev has one
    (else the nearest)."""
    rng = random.Random(seed)
    hand = load_instructions("dev", "hand")
    templated = load_instructions("dev", "templated")
    pairs, used = [], set()
    for lang in ("en", "zh"):
        for h in rng.sample([i for i in hand if i.language == lang], n // 2 if lang == "en" else n - n // 2):
            pool = [t for t in templated if t.language == lang and t.key not in used]
            best = min(abs(len(t.gold) - len(h.gold)) for t in pool)
            t = rng.choice([t for t in pool if abs(len(t.gold) - len(h.gold)) == best])
            used.add(t.key)
            pairs.append((h.key, t.key))
    return pairs


def _record(run: Path, key: str) -> dict | None:
    path = run / "instructions" / f"{key.replace('#', '--')}.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else None


def compare(run_hand: Path, run_templated: Path, pairs: list[tuple[str, str]]) -> dict:
    """iACC and partial credit of both sides over the pairs both runs finished."""
    done = [(h, t, _record(run_hand, h), _record(run_templated, t)) for h, t in pairs]
    done = [(h, t, a, b) for h, t, a, b in done if a is not None and b is not None]
    passed = [(bool(a.get("success")), bool(b.get("success"))) for _, _, a, b in done]
    credit = [(a.get("partial_credit") or 0.0, b.get("partial_credit") or 0.0) for _, _, a, b in done]
    only_hand = sum(1 for x, y in passed if x and not y)
    only_templated = sum(1 for x, y in passed if y and not x)
    n = len(done)
    return {"pairs": n, "iacc_hand": sum(x for x, _ in passed) / n if n else None,
            "iacc_templated": sum(y for _, y in passed) / n if n else None,
            "partial_hand": sum(x for x, _ in credit) / n if n else None,
            "partial_templated": sum(y for _, y in credit) / n if n else None,
            "only_hand": only_hand, "only_templated": only_templated, "mcnemar_p": mcnemar_p(only_hand, only_templated)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("action", choices=("pick", "compare"))
    parser.add_argument("runs", nargs="*", type=Path)
    parser.add_argument("--n", type=int, default=30)
    parser.add_argument("--seed", type=int, default=51)
    args = parser.parse_args()
    pairs = pick(args.n, args.seed)
    if args.action == "pick":
        print("HAND=" + ",".join(h for h, _ in pairs))
        print("TPL=" + ",".join(t for _, t in pairs))
        return 0
    if len(args.runs) != 2:
        parser.error("compare needs the hand run folder and the templated run folder")
    json.dump(compare(args.runs[0], args.runs[1], pairs), sys.stdout, indent=1)
    print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
