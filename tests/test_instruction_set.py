"""The local-model evaluation set: every check fails on the untouched document and passes after its gold calls."""

from __future__ import annotations

import pytest

from autodw.apis import execute
from autodw.core.document import WordDocument
from autodw.analysis.state import extract_state
from autodw.eval.instruction_set import TASKS
from tests.conftest import ROOT


def test_size_and_coverage():
    assert len(TASKS) >= 20 and len({t.id for t in TASKS}) == len(TASKS)
    assert sum(t.lang == "zh" for t in TASKS) >= 5
    assert len({t.intent for t in TASKS}) == 8
    assert any(t.calls >= 2 for t in TASKS)


@pytest.mark.parametrize("task", TASKS, ids=[t.id for t in TASKS])
def test_check_fails_before_and_passes_after_gold(task):
    doc = WordDocument.open(ROOT / task.document)
    before = extract_state(doc)
    assert not task.check(before, before), "the instruction is already satisfied by the untouched document"
    assert task.gold, "every task has a gold call sequence"
    for api, args in task.gold:
        execute(doc, api, args)
    assert task.check(before, extract_state(doc))


def test_prompt_examples_do_not_give_away_evaluation_tasks():
    """In-context examples must not copy an evaluation instruction or its quoted values (a small model
    copies the example instead of reading the document)."""
    import re

    from autodw.agent.prompts import PROMPT_DIR
    from autodw.intents.leakage import find_overlaps

    prompt_text = "\n".join(p.read_text(encoding="utf-8") for p in sorted(PROMPT_DIR.glob("*.md")))
    quoted = {q for t in TASKS for q in re.findall(r"'([^']{4,})'|“([^”]{2,})”", t.instruction) for q in q if q}
    assert quoted and not [q for q in quoted if q in prompt_text]
    lines = [line for line in prompt_text.splitlines() if len(line) > 20]
    assert not find_overlaps(lines, [t.instruction for t in TASKS])
