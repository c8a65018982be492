"""Documents outside DWBench: the shared corpus's files that no test session starts from and whose text overlaps no
test document's, to tune on without test (tuning-only splits written later, ``scripts/pointing_recall.py``).

    python -m autodw.dwbench.outside [--min-paragraphs N]    # prints the names of the files neither split lists

A file counts as overlapping a test document when its first :data:`HEAD_CHARS` characters of body text are the same or
its word set's Jaccard similarity to the test document's is above :data:`MAX_JACCARD`. Test documents are read for this
exclusion only; nothing of them is printed.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any, Iterator

from autodw.analysis.state import extract_state
from autodw.core.document import WordDocument
from autodw.core.errors import DocumentError, StateExtractionError
from autodw.dwbench.records import corpus_dir, document_splits, source_path

HEAD_CHARS = 1000  # body text compared with a test document's
MAX_JACCARD = 0.5  # word sets closer than this to a test document's are excluded


def body_text(state: dict[str, Any]) -> str:
    """The body paragraphs' text, one line each."""
    return "\n".join(p.get("text", "") for p in state.get("paragraphs", []))


def _words(text: str) -> set[str]:
    return set(re.findall(r"\w+", text.lower()))


def _test_keys() -> list[tuple[str, set[str]]]:
    test = document_splits()["test"]
    paths = [corpus_dir() / n for n in test["corpus"]] + [source_path(f"docs/{n}") for n in test["generated"]]
    texts = [body_text(extract_state(WordDocument.open(p))) for p in sorted(paths)]
    return [(t[:HEAD_CHARS], _words(t)) for t in texts]


def non_empty_paragraphs(state: dict[str, Any]) -> int:
    """How many body paragraphs hold text."""
    return sum(bool(p.get("text", "").strip()) for p in state.get("paragraphs", []))


def corpus_documents(min_paragraphs: int = 1, *, dev: bool = True,
                     only: str | None = None) -> Iterator[tuple[Path, dict[str, Any]]]:
    """(path, state) of the corpus files no test session starts from (dev's too unless `dev` is false; the file named
    `only`, if given) with at least `min_paragraphs` non-empty body paragraphs, less unreadable files (named on
    stderr) and those whose text overlaps a test document's."""
    splits = document_splits()
    refused = set(splits["test"]["corpus"]) | (set() if dev else set(splits["dev"]["corpus"]))
    keys = _test_keys()
    for path in sorted(corpus_dir().glob("*.docx")):
        if path.name in refused or (only is not None and path.name != only):
            continue
        try:
            state = extract_state(WordDocument.open(path))
        except (DocumentError, StateExtractionError) as exc:
            print(f"{path.name}: skipped, unreadable ({type(exc).__name__})", file=sys.stderr)
            continue
        if non_empty_paragraphs(state) < min_paragraphs:
            continue
        text = body_text(state)
        words = _words(text)
        if any(text[:HEAD_CHARS] == head or len(words & tw) / max(1, len(words | tw)) > MAX_JACCARD
               for head, tw in keys):
            continue
        yield path, state


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--min-paragraphs", type=int, default=6, help="non-empty body paragraphs at least (default 6)")
    args = parser.parse_args(argv)
    print(json.dumps([p.name for p, _ in corpus_documents(args.min_paragraphs, dev=False)], indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
