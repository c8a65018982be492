"""Print random DWBench instructions of one language with their gold calls, for reading the data as a user would.

Usage: python scripts/dwbench_sample.py en|zh [N=40] [SEED=2024] [TRACK=templated]
"""

from __future__ import annotations

import json
import random
import sys

from autodw.dwbench.records import load_split


def main() -> None:
    lang = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 40
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 2024
    track = sys.argv[4] if len(sys.argv) > 4 else "templated"
    pool = [i for split in ("dev", "test") for s in load_split(split, track) for i in s.instructions if i.language == lang]
    for ins in random.Random(seed).sample(pool, n):
        print(f"{ins.key}  {ins.source.file}  {ins.difficulty}, {len(ins.gold)} call(s)")
        print(f"   {ins.text}")
        for call in ins.gold:
            print(f"     - {call.api} {json.dumps(call.args, ensure_ascii=False)}")
        print()


if __name__ == "__main__":
    main()
