"""Document revisions and the states kept by revision: each state read once, and a kept state the same as a fresh
read would give."""

from __future__ import annotations

import copy

import pytest

from autodw.agent.assembly import profile_assembly
from autodw.analysis import state as state_module
from autodw.analysis.state import StateCache, extract_state
from autodw.apis import execute
from autodw.core.document import Snapshot, WordDocument
from autodw.core.errors import ArgumentError, StateExtractionError
from autodw.eval.systems import NoisyOracleSystem
from tests.conftest import EXAMPLES, corpus_file
from tests.harness_cases import MINI

BOLD = ("set_text_format", {"paragraphs": "p2", "bold": True})
CENTRE = ("set_paragraph_format", {"paragraphs": "p3", "alignment": "center"})


@pytest.fixture
def doc():
    return WordDocument.open(EXAMPLES / "report.docx")


def test_a_revision_names_the_content(doc):
    other = WordDocument.open(EXAMPLES / "report.docx")
    assert doc.revision != other.revision  # opened twice: nothing says they stay alike
    start = doc.snapshot()
    assert start.revision == doc.revision
    execute(doc, *BOLD)
    bold = doc.revision
    execute(other, *BOLD)
    assert other.revision != bold  # the same call from another revision
    doc.restore(start)
    assert doc.revision == start.revision
    execute(doc, *BOLD)
    assert doc.revision == bold  # the same call from the same revision: the same content
    doc.restore(start)
    execute(doc, *CENTRE)
    assert doc.revision not in (bold, start.revision)
    before = doc.revision
    doc.refresh_ids()  # an edit by hand: a new name
    assert doc.revision != before
    assert Snapshot(start.members).revision != start.revision  # a snapshot made by hand names its own


def test_a_failed_call_leaves_the_revision_it_started_from(doc):
    before = doc.revision
    with pytest.raises(ArgumentError):
        execute(doc, "set_text_format", {"paragraphs": "p999", "bold": True})
    assert doc.revision == before


@pytest.mark.parametrize("name", ["report.docx", "oxpt__WC002-Unmodified.docx", "docxrs__extended_comments.docx"])
def test_equal_revisions_have_equal_states(name):
    """What keeping states by revision rests on: a restored snapshot reads as the document did, and a call made
    again from the same revision leaves the same state."""
    doc = WordDocument.open(EXAMPLES / name if name == "report.docx" else corpus_file(name))
    start, first = doc.snapshot(), extract_state(doc)
    pid = next(i for i in doc.ids("p"))
    call = ("set_text_format", {"paragraphs": pid, "italic": True})
    execute(doc, *call)
    after, revision = extract_state(doc), doc.revision
    doc.restore(start)
    assert extract_state(doc) == first
    execute(doc, *call)
    assert doc.revision == revision and extract_state(doc) == after


def test_the_cache_reads_each_revision_once(doc):
    reads = []
    states = StateCache(size=2, extract=lambda d: reads.append(d.revision) or extract_state(d))
    start = doc.snapshot()
    first = states.of(doc)
    assert states.of(doc) is first and reads == [start.revision]
    execute(doc, *BOLD)
    bold = states.of(doc)
    doc.restore(start)  # a rollback: the state before the call is known
    assert states.of(doc) is first and len(reads) == 2
    execute(doc, *BOLD)
    assert states.of(doc) is bold and len(reads) == 2  # the same call again
    execute(doc, *CENTRE)
    states.of(doc)
    doc.restore(start)
    states.of(doc)  # kept the longest unasked of two: read again
    assert len(reads) == 4


def test_a_failed_read_is_not_kept(doc):
    calls = []

    def failing_once(d):
        calls.append(1)
        if len(calls) == 1:
            raise StateExtractionError("boom")
        return extract_state(d)

    states = StateCache(extract=failing_once)
    with pytest.raises(StateExtractionError):
        states.of(doc)
    assert states.of(doc) == extract_state(doc) and len(calls) == 2


def test_the_noisy_oracle_reads_each_state_once_and_changes_none(monkeypatch):
    """Per gold step the state after the gold call (the agent's call, the same edit, finds it), and once the state
    the instruction starts from; the states shared this way are never changed by those who read them."""
    given = []

    def recorded(d):
        state = extract_state(d)
        given.append((state, copy.deepcopy(state)))
        return state

    monkeypatch.setattr(state_module.cache, "extract_state", recorded)
    session = next(s for s in MINI if len(s.instructions[0].gold) > 1)
    system = NoisyOracleSystem(0.0, "oracle", None, profile_assembly("hosted"), seed=1)
    ins = session.instructions[0]
    result = system.run_turn(session.initial_document(1), ins, [])
    assert result.status == "done" and result.api_calls == len(ins.gold)
    assert len(given) == 1 + len(ins.gold)
    assert all(state == kept for state, kept in given)


def test_a_pictures_digest_is_that_of_its_bytes_whether_known_or_not():
    import hashlib
    from types import SimpleNamespace

    from autodw.analysis.state.drawings import image_hash

    blobs = [bytes([n]) * 1000 for n in range(3)]
    for _ in range(2):  # the second time known by identity
        assert [image_hash(SimpleNamespace(blob=b)) for b in blobs] == \
            [hashlib.sha256(b).hexdigest()[:12] for b in blobs]
    equal = bytes(blobs[0])  # equal bytes, another object
    assert image_hash(SimpleNamespace(blob=equal)) == image_hash(SimpleNamespace(blob=blobs[0]))


def test_the_token_estimate_counts_ascii_characters_by_four():
    from autodw.analysis.state.render import estimate_tokens

    assert estimate_tokens("") == 1 and estimate_tokens("abcdefgh") == 3
    assert estimate_tokens("héllo 中文") == 6 // 4 + 3 + 1  # 6 ASCII characters, 3 others


@pytest.mark.parametrize("p", [0.0, 1.0])
def test_the_noisy_oracle_makes_a_gold_call_of_its_own_only_for_a_step_with_a_fault(monkeypatch, p):
    """A step without a fault: the agent's first call is the gold call, whose state the oracle validator and the
    fault log compare with; a step with one: the gold call is made apart, from the same starting document."""
    from autodw.eval import systems

    made = []
    real = systems.execute
    monkeypatch.setattr(systems, "execute", lambda doc, api, args, reg: made.append(api) or real(doc, api, args, reg))
    session = next(s for s in MINI if len(s.instructions[0].gold) > 1)
    ins = session.instructions[0]
    system = NoisyOracleSystem(p, "oracle", None, profile_assembly("hosted"), seed=1)
    result = system.run_turn(session.initial_document(1), ins, [])
    faulty = [e for e in result.faults if e["fault"] not in (None, "skip")]
    assert len(made) == len(faulty) and (p == 0.0) == (not faulty)
    if p == 0.0:  # every first call the gold call: no effect of its own
        assert result.status == "done" and [e["effective"] for e in result.faults] == [False] * len(ins.gold)
