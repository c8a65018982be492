"""Outcomes judged as a user would accept them: an output against an instruction's gold and its alternatives.

An instruction's expected document is its gold calls replayed; DWBench 2.0 instructions may also name
``alternatives`` (other call sequences a user would accept: each replayed from the turn's initial document) and
``tolerances`` (:func:`autodw.eval.judge.judge`). The output is judged against the gold's expected document, then
against each alternative's in turn; the first equivalent one wins and the verdict says which (``matched``: "gold" or
"alternative N", 1-based). When none is, the verdict is the gold's (its differences, not an alternative's).
"""

from __future__ import annotations

from autodw.apis import execute
from autodw.core.colours import colour_names_in
from autodw.core.document import WordDocument
from autodw.dwbench.records import GoldCall, Instruction, Session
from autodw.eval.canonical import Prepared, Source, prepare
from autodw.eval.judge import Verdict, judge


def needs_initial(ins: Instruction) -> bool:
    """Whether judging `ins` uses its initial document (to bound the free-text and named-colour tolerances)."""
    return ins.free_text or bool(colour_names_in(ins.text))


def alternative_document(session: Session, ins: Instruction, calls: tuple[GoldCall, ...]) -> WordDocument:
    """The document an alternative's `calls` make from the initial document of `ins`."""
    doc = session.initial_document(ins.turn)
    for call in calls:
        execute(doc, call.api, call.args)
    return doc


def judge_accepted(session: Session, ins: Instruction, output: Source, *, expected: Source | None = None,
                   initial: Prepared | None = None) -> Verdict:
    """`output` judged as the output of `ins` against its gold, else its alternatives (module docstring), with its
    tolerances; `expected` and `initial`: the gold's expected document and the prepared initial one when known
    (else made here; the initial one only when :func:`needs_initial`)."""
    if initial is None and needs_initial(ins):
        initial = prepare(session.initial_document(ins.turn))
    options = {"instruction": ins.text, "free_text": ins.free_text, "initial": initial, "tolerances": ins.tolerances}
    gold = judge(session.expected_document(ins.turn) if expected is None else expected, output, **options)
    if gold.equivalent:
        gold.matched = "gold"
        return gold
    actual = prepare(output) if ins.alternatives else output  # prepared once for the alternatives
    for n, calls in enumerate(ins.alternatives, 1):
        verdict = judge(alternative_document(session, ins, calls), actual, **options)
        if verdict.equivalent:
            verdict.matched = f"alternative {n}"
            return verdict
    return gold
