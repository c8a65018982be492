"""Regenerate intents/data/intents.jsonl from the templates (deterministic for a seed) and print its make-up.

The test split is frozen in intents/data/test_frozen.jsonl and copied unchanged. ``--freeze-test``
draws it (once, before any tuning); it refuses to overwrite an existing frozen file.
"""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path

from autodw.intents.datagen import DATA_FILE, DEFAULT_SEED, FREEZE_SEED, freeze_test, generate, write_jsonl


def main() -> int:
    """Write the dataset and print counts by split, language and intent."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--out", type=Path, default=DATA_FILE)
    parser.add_argument("--freeze-test", action="store_true",
                        help=f"draw and store the frozen test split first (seed {FREEZE_SEED}); refused if it exists")
    args = parser.parse_args()
    if args.freeze_test:
        path, digest = freeze_test()
        print(f"froze the test split in {path} (sha256 {digest}); record it as FROZEN_TEST_SHA256 in datagen.py")
    examples = generate(args.seed)
    path = write_jsonl(examples, args.out)
    print(f"wrote {len(examples)} examples to {path}")
    print("by split:", dict(Counter(e.split for e in examples)))
    print("by language:", dict(Counter(e.lang for e in examples)))
    for intent, n in sorted(Counter(e.intent for e in examples).items()):
        print(f"  {intent:22s} {n}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
