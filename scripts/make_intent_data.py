"""Regenerate intents/data/intents.jsonl from the templates (deterministic for a seed) and print its make-up."""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path

from intents.datagen import DATA_FILE, DEFAULT_SEED, generate, write_jsonl


def main() -> int:
    """Write the dataset and print counts by split, language and intent."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--out", type=Path, default=DATA_FILE)
    args = parser.parse_args()
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
