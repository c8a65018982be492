"""Build the agent's worked-example library from DWBench ``dev`` (never ``test``: ``mini`` is part of it).

    python -m autodw.dwbench.examples

Writes :data:`autodw.agent.examples.LIBRARY` (one solved instruction per line: text, language, gold calls) and
:data:`autodw.agent.examples.VECTORS` (their multilingual-e5-small passage embeddings, float16).
"""

from __future__ import annotations

import io
import json
import sys

import numpy as np

from autodw.agent.examples import LIBRARY, VECTORS
from autodw.dwbench.records import load_split
from autodw.intents.embedding import encoder
from autodw.package import write_atomically

SOURCE_SPLIT = "dev"


def build() -> int:
    """Write the library; the number of examples."""
    rows = [{"instruction": i.text, "language": i.language, "calls": [{"api": c.api, "args": c.args} for c in i.gold]}
            for session in load_split(SOURCE_SPLIT) for i in session.instructions]
    vectors = np.asarray(encoder().passage([r["instruction"] for r in rows]), dtype=np.float16)
    LIBRARY.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(LIBRARY, "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows).encode("utf-8"))
    buffer = io.BytesIO()
    np.save(buffer, vectors, allow_pickle=False)
    write_atomically(VECTORS, buffer.getvalue())
    return len(rows)


if __name__ == "__main__":
    print(f"{build()} solved instructions from {SOURCE_SPLIT} -> {LIBRARY}", file=sys.stderr)
