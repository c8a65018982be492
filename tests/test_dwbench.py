"""DWBench 2.0: both tracks keep the shape the issue sets (hand-written turns per language, real documents, calls per
instruction, test's held-out part and its leakage), the subsets replay cleanly, the files load with ``datasets``, the
datasheet is there, and the bench CLI works. Every bound below is a number of the 2.0 issue: a test fails if the data
drifts out of it. (The leakage check against the intent data is in test_intents_data.py.)"""

from __future__ import annotations

import json
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import pytest

from autodw.apis.registry import INTENTS
from autodw.interfaces.cli import main
from autodw.dwbench.records import (DATA_DIR, TRACKS, Session, corpus_dir, fingerprint, iter_records, load_split,
                                    replay, split_files)
from autodw.dwbench.stats import compute_stats
from autodw.core.errors import BenchmarkDataError
from tests.conftest import ROOT

needs_corpus = pytest.mark.skipif(not corpus_dir().is_dir(), reason="the shared corpus (../shared/corpus) is not available")


@pytest.fixture(scope="module")
def templated() -> dict[str, list[Session]]:
    return {split: load_split(split, "templated") for split in ("dev", "test")}


@pytest.fixture(scope="module")
def hand() -> dict[str, list[Session]]:
    return {split: load_split(split, "hand") for split in ("dev", "test")}


def _records(split: str, track: str) -> list[dict]:
    return list(iter_records(split, track))


# --------------------------------------------------------------------------- the hand-written track
def test_hand_track_size_authorship_and_split(hand):
    sessions = hand["dev"] + hand["test"]
    instructions = [i for s in sessions for i in s.instructions]
    assert len(sessions) >= 80
    turns = Counter(i.language for i in instructions)
    assert turns["en"] >= 250 and turns["zh"] >= 250, turns
    assert all(i.track == "hand" and i.written_by == "hand" and i.gold for i in instructions)
    assert len({s.session_id for s in sessions}) == len(sessions)
    assert not {s.source.file for s in hand["dev"]} & {s.source.file for s in hand["test"]}, "a document in both splits"
    assert len({i.text for i in instructions}) == len(instructions), "two turns are identical"


def test_hand_turns_read_like_people(hand):
    """Mostly one or two requests; many without quoted values; back-references, corrections and undo, goal-level
    requests, vague values and declared alternatives all occur."""
    instructions = [i for s in hand["dev"] + hand["test"] for i in s.instructions]
    n = len(instructions)
    tags = Counter(t for i in instructions for t in i.tags)
    assert sum(1 for i in instructions if i.requests <= 2) >= 0.85 * n
    assert tags["no-quote"] >= 0.3 * n
    assert tags["back-reference"] + tags["pronoun"] >= 0.15 * n
    assert tags["correction"] + tags["undo"] >= 0.03 * n and tags["typo"] >= 4
    assert tags["goal"] >= 0.05 * n and tags["vague-value"] >= 0.03 * n
    assert sum(1 for i in instructions if i.accept) >= 0.1 * n
    assert sum(1 for i in instructions if i.language == "zh" and "mixed-language" in i.tags) >= 10


def test_hand_records_are_built_from_the_authoring_files(hand):
    """data/hand/*.jsonl is what `hand.build()` writes from data/hand/sessions/ (rebuild after editing a session)."""
    from autodw.dwbench import hand as authoring

    built = {r["session_id"]: r for a in authoring.authored_sessions() for r in authoring.records_of(a)}
    on_disk = {(r["session_id"], r["turn"]): r for split in ("dev", "test", *authoring.WRITTEN_LATER) for r in _records(split, "hand")}
    assert len(on_disk) == sum(len(a.data["turns"]) for a in authoring.authored_sessions())
    for (sid, turn), rec in on_disk.items():
        fresh = authoring.records_of(authoring.read(authoring.SESSIONS_DIR / f"{sid}.json"))[turn - 1]
        assert {k: v for k, v in rec.items() if k != "held_out"} == {k: v for k, v in fresh.items() if k != "held_out"}, (sid, turn)
    assert built


# --------------------------------------------------------------------------- the templated track
def test_templated_calls_per_instruction(templated):
    """1-22 calls, mean about 5, at least 10% with ten or more, at most 10% with one, and no spike where a stopping
    rule would stop (no count more than 2.5 times the larger of its neighbours: 1.1 had 3.9 at 4 calls and 3.4 at 8)."""
    for split, sessions in templated.items():
        calls = [len(i.gold) for s in sessions for i in s.instructions]
        n = len(calls)
        assert min(calls) >= 1 and max(calls) <= 22, split
        assert 4.5 <= sum(calls) / n <= 6.2, (split, sum(calls) / n)
        assert sum(1 for k in calls if k >= 10) >= 0.10 * n, split
        assert sum(1 for k in calls if k == 1) <= 0.10 * n, split
        hist = Counter(calls)
        for k in range(1, 16):
            assert hist[k] <= 2.5 * max(hist[k - 1], hist[k + 1]) + 0.01 * n, (split, k, hist)


def test_templated_shape(templated):
    for split, sessions in templated.items():
        stats = compute_stats(sessions)
        ips, cps = stats["instructions_per_session"], stats["calls_per_session"]
        assert ips["min"] >= 4 and ips["max"] <= 8
        assert cps["min"] >= 15 and cps["max"] <= 75
        assert set(stats["intents"]) == set(INTENTS)
        assert stats["session_languages"].get("zh", 0) >= 0.35 * stats["sessions"]
        for level in ("easy", "medium", "hard"):
            assert stats["difficulty"][level] >= 0.15 * stats["instructions"], (split, level)
    assert len(templated["dev"]) == 32 and len(templated["test"]) == 128
    instructions = [i for s in templated["dev"] + templated["test"] for i in s.instructions]
    assert len({i.text for i in instructions}) == len(instructions), "two instructions are identical"


def test_real_documents_share_of_each_track(templated, hand):
    """At least 40% of each track's sessions start from real files of the shared corpus (templated: of each split)."""
    for track, splits in (("templated", templated), ("hand", hand)):
        groups = splits.items() if track == "templated" else [("dev+test", splits["dev"] + splits["test"])]
        for split, sessions in groups:
            corpus = sum(1 for s in sessions if s.source.kind == "corpus")
            assert corpus >= 0.40 * len(sessions), (track, split, corpus, len(sessions))


def test_inserted_content_is_varied(templated):
    """No inserted table or list in more than 2% of sessions; no session inserts the same table twice."""
    sessions = templated["dev"] + templated["test"]
    where: dict[str, set[str]] = {}
    for s in sessions:
        inserted = [json.dumps(c.args.get("data") or c.args.get("items"), ensure_ascii=False)
                    for i in s.instructions for c in i.gold if c.api in ("insert_table", "insert_list")
                    and (c.args.get("data") or len(c.args.get("items") or ()) >= 2)]
        assert len(inserted) == len(set(inserted)), s.session_id
        for content in inserted:
            where.setdefault(content, set()).add(s.session_id)
    assert max(len(v) for v in where.values()) <= 0.02 * len(sessions)


# --------------------------------------------------------------------------- held out
def test_test_is_held_out_from_dev():
    """Templated: test never starts from a dev document; at least 20% of templates never occur in dev; its held-out
    part has at least 300 instructions and shares no document and no verbatim clause with dev."""
    from autodw.dwbench.edits import TEMPLATES
    from autodw.dwbench.generate import HELD_OUT_FILE
    from autodw.dwbench.leakage import leakage

    dev, test = _records("dev", "templated"), _records("test", "templated")
    report = leakage(dev, test)
    assert report["documents"]["shared"] == 0
    held = report["held_out"]
    assert held["instructions"] >= 300 and held["documents"]["shared"] == 0 and held["verbatim_clauses"]["shared"] == 0, held
    banned = set(json.loads(HELD_OUT_FILE.read_text(encoding="utf-8"))["templates"])
    assert len(banned) >= 0.2 * sum(1 for t in TEMPLATES.values() if not t.tuning_only)
    assert not banned & {t for r in dev for t in r["templates"]}
    assert len(banned & {t for r in test for t in r["templates"]}) >= 0.9 * len(banned)
    # one phrasing of every template dev never contains: most templates of test show a phrasing dev lacks
    dev_p = {p for r in dev for p in r["phrasings"]}
    by_template: dict[str, set[str]] = {}
    for r in test:
        for p in r["phrasings"]:
            by_template.setdefault(p.split("/")[0], set()).add(p)
    shared = [t for t, ps in by_template.items() if t not in banned]
    assert sum(1 for t in shared if by_template[t] - dev_p) >= 0.8 * len(shared)


@pytest.mark.parametrize("split", ["dev-outside", "dev-outside-second", "dev-outside-third", "dev-outside-fourth"])
def test_dev_outside_is_tuning_only_and_leaks_little_into_test(split):
    """Templated dev-outside and its later seeds (tuning only): dev's templates only (dev-outside-third also the
    tuning-only ones of edits/tuning.py, dev-outside-fourth those of edits/tuning_second.py, which no other split
    draws), on the tuning corpus files and on generated documents of its own
    seed, none of dev or test; no clause of test word for word (a held-out instruction sharing one would leave test's
    held-out part if it counted as dev)."""
    from autodw.core import provenance
    from autodw.dwbench.edits import TEMPLATES
    from autodw.dwbench.generate import TUNING_ONLY_SPLITS, held_out_templates, make_tuning_plans, tuning_only_templates
    from autodw.dwbench.leakage import leakage
    from autodw.dwbench.records import document_splits

    assert split in provenance.TEMPLATED_LATER and split in provenance.DEV_PARTS and split not in provenance.WRITTEN_LATER
    outside, test = _records(split, "templated"), _records("test", "templated")
    assert len({r["session_id"] for r in outside}) >= 30 and all(r["session_id"].startswith("dwo-") for r in outside)
    used = {t for r in outside for t in r["templates"]}
    assert not set(held_out_templates()) & used
    tuning_only = {n for n, t in TEMPLATES.items() if t.tuning_only}
    assert bool(used & tuning_only) == (split in TUNING_ONLY_SPLITS)
    assert used & tuning_only <= tuning_only_templates(split)  # only its own set
    splits = document_splits()
    dwbench_docs = {n for side in ("dev", "test") for kind in ("corpus", "generated") for n in splits[side][kind]}
    for r in outside:
        assert r["source_file"] not in dwbench_docs and not r["held_out"]
        assert (r["source_file"] in splits["tuning"]["corpus"] if r["source_kind"] == "corpus"
                else r["source_file"].startswith("docs/tuning/")), r["source_file"]
    assert leakage(outside, test)["verbatim_clauses"]["shared"] == 0  # generate.test_clauses: none is written
    with pytest.raises(ValueError, match="not a templated tuning split"):
        make_tuning_plans("dev", 1, 4)


def test_edit_templates_are_registered_in_the_order_a_seed_was_written_with():
    """The generator draws templates in registration order with their weights, themes and flags: changing any of it
    changes what a seed writes (regenerate the templated track on purpose, then update the fingerprint)."""
    import hashlib
    from pathlib import Path

    from autodw.dwbench import edits

    rows = [[t.name, t.theme, t.weight, list(t.needs), t.undoing, t.multi_call] for t in edits.TEMPLATES.values()
            if not t.tuning_only]  # tuning-only templates are never drawn for dev or test
    assert hashlib.sha256(json.dumps(rows).encode()).hexdigest()[:16] == "c597728619baefd6"
    modules = {p.stem for p in Path(edits.__file__).parent.glob("*.py")} - {"__init__", "template", "helpers"}
    assert modules == set(edits.MODULES)
    assert {t.func.__module__.rsplit(".", 1)[1] for t in edits.TEMPLATES.values()} == modules


def test_tuning_only_templates_leave_dev_and_test_template_pools_unchanged(monkeypatch):
    """The tuning-only templates (registered last, from edits/tuning.py and then edits/tuning_second.py) change
    nothing dev or test draw: the names and weights `_choose_edit` offers without `tuning_only` are those of the
    registry filtered of them, and the held-out draw is the same (and is held_out.json). A split of TUNING_ONLY_SPLITS
    is offered its own set only, at TUNING_ONLY_SHARE of the weight; dev-outside-third is offered exactly what it was
    before the second set was written (the registry without edits/tuning_second.py)."""
    import random
    from types import SimpleNamespace

    from autodw.dwbench import edits, generate

    tuning = [n for n, t in edits.TEMPLATES.items() if t.tuning_only]
    assert list(edits.TEMPLATES)[-len(tuning):] == tuning and edits.MODULES[-2:] == ("tuning", "tuning_second")
    by_module = {m: [n for n in tuning if edits.TEMPLATES[n].func.__module__ == f"autodw.dwbench.edits.{m}"]
                 for m in ("tuning", "tuning_second")}
    assert len(by_module["tuning"]) >= 10 and 12 <= len(by_module["tuning_second"]) <= 14
    assert sorted(tuning) == sorted(by_module["tuning"] + by_module["tuning_second"])
    assert generate.TUNING_ONLY_SPLITS == {"dev-outside-third": ("tuning",), "dev-outside-fourth": ("tuning_second",)}
    assert generate.tuning_only_templates("dev-outside-third") == set(by_module["tuning"])
    assert generate.tuning_only_templates("dev-outside-fourth") == set(by_module["tuning_second"])
    assert all(not generate.tuning_only_templates(s) for s in ("dev", "test", "dev-outside", "dev-outside-second"))
    held = generate.held_out_templates()
    assert held == json.loads(generate.HELD_OUT_FILE.read_text(encoding="utf-8"))["templates"]
    assert not set(held) & set(tuning)

    class Recorder:
        """A random source that records what `choices` is offered (and picks the first)."""

        def __init__(self, seed):
            self.r, self.offers = random.Random(seed), []

        def random(self):
            return self.r.random()

        def choices(self, names, weights):
            self.offers.append((list(names), [round(w, 9) for w in weights]))
            return [names[0]]

    memories = [{}, {k: "x" for t in edits.TEMPLATES.values() for k in t.needs}]
    firsts = sorted({t.theme: n for n, t in edits.TEMPLATES.items() if not t.tuning_only}.values())

    def offers(**kw):
        out = []
        for seed, memory in enumerate(memories):
            rec = Recorder(seed)
            for taken in [[]] + [[n] for n in firsts]:
                for hard in (False, True):
                    generate._choose_edit(SimpleNamespace(memory=memory), rec, taken, 1, hard=hard,
                                          banned=frozenset(held), **kw)
            out.append(rec.offers)
        return out

    now = offers()
    assert not {n for run in now for names, _ in run for n in names} & set(tuning)
    with_tuning = {s: offers(tuning_only=generate.tuning_only_templates(s)) for s in generate.TUNING_ONLY_SPLITS}
    for split, runs in with_tuning.items():
        mine = generate.tuning_only_templates(split)
        offered = {n for run in runs for names, _ in run for n in names}
        assert offered & set(tuning) and offered & set(tuning) <= mine, split
        shares = [sum(w for n, w in zip(names, ws) if n in mine) / sum(ws) for run in runs for names, ws in run
                  if set(names) & mine and set(names) - mine]
        assert shares and all(abs(x - generate.TUNING_ONLY_SHARE) < 1e-6 for x in shares), split
    third = generate.tuning_only_templates("dev-outside-third")
    monkeypatch.setattr(generate, "TEMPLATES", {n: t for n, t in edits.TEMPLATES.items() if n not in by_module["tuning_second"]})
    assert offers(tuning_only=third) == with_tuning["dev-outside-third"]  # as before the second set was written
    monkeypatch.setattr(generate, "TEMPLATES", {n: t for n, t in edits.TEMPLATES.items() if not t.tuning_only})
    assert offers() == now and generate.held_out_templates() == held


def test_an_edit_template_declares_a_known_theme_and_a_new_name():
    from autodw.dwbench.edits import template

    with pytest.raises(ValueError, match="unknown theme 'tables'"):
        template("tables")
    def add_table(c):  # the name of a registered template
        return ""

    with pytest.raises(ValueError, match="two edit templates named add_table"):
        template("table")(add_table)


def test_hand_test_is_held_out_from_hand_dev():
    from autodw.dwbench.leakage import leakage

    report = leakage(_records("dev", "hand"), _records("test", "hand"))
    assert report["documents"]["shared"] == 0 and report["verbatim_clauses"]["shared"] <= 3, report["verbatim_clauses"]
    held = report["held_out"]
    assert held["instructions"] >= 250 and held["verbatim_clauses"]["shared"] == 0 and held["documents"]["shared"] == 0


def test_hand_test_sessions_seen_during_development_are_not_held_out():
    from autodw.dwbench.hand import SEEN_TEST_FILE

    seen = json.loads(SEEN_TEST_FILE.read_text(encoding="utf-8"))["sessions"]
    records = [r for r in _records("test", "hand") if r["session_id"] in seen]
    assert seen and {r["session_id"] for r in records} == set(seen)  # each a test session
    assert not [r["key"] if "key" in r else r["session_id"] for r in records if r["held_out"]]


def test_dev_phrasings_never_use_the_held_out_one():
    import random

    from autodw.core.document import WordDocument
    from autodw.dwbench.context import Ctx
    from autodw.dwbench.records import DOCS_DIR

    doc = WordDocument.from_bytes((DOCS_DIR / "report-en-1.docx").read_bytes())
    dev, test = Ctx(doc, "en", random.Random(1), dev=True), Ctx(doc, "en", random.Random(1))
    options = (["a", "b", "c"], ["甲", "乙", "丙"])
    assert {dev.say(*options) for _ in range(200)} == {"a", "b"}
    assert {test.say(*options) for _ in range(200)} == {"a", "b", "c"}
    assert any(p.endswith("/held-out") for p in test.phrasings) and not any(p.endswith("/held-out") for p in dev.phrasings)


# --------------------------------------------------------------------------- subsets, files, datasheet, CLI
def test_subsets_are_stratified_subsets():
    for track in TRACKS:
        for name, whole in (("mini", "test"), ("dev-mini", "dev")):
            part = load_split(name, track)
            by_id = {s.session_id: s for s in load_split(whole, track)}
            assert 4 <= len(part) <= 8, (track, name)
            for s in part:
                assert [(i.text, i.gold) for i in s.instructions] == [(i.text, i.gold) for i in by_id[s.session_id].instructions]
            assert {s.language for s in part} == {"en", "zh"}
            assert any(s.source.kind == "corpus" for s in part)



@pytest.mark.parametrize("split", ["dev-paraphrased", "dev-reworded"])
def test_dev_paraphrased_rewords_hand_dev_only(hand, split):
    """Tuning only: its files are what `hand.paraphrased` builds from dev and its file of `hand.PARAPHRASES`; each of
    its instructions rewords the hand dev instruction its ``paraphrase_of`` names, with the same gold calls,
    alternatives and tolerances, and keeps every text the original quotes; no other track has it, a figure on it is
    labelled tuned on, and the two reworded splits share no dev session (dev-reworded measured words not tuned on, once)."""
    from autodw.agent import grounding
    from autodw.core import provenance
    from autodw.dwbench import hand as authoring

    dev = {i.key: i for s in hand["dev"] for i in s.instructions}
    records = _records(split, "hand")
    dev_records = [[r for r in _records("dev", "hand") if r["session_id"] == s.session_id] for s in hand["dev"]]
    assert records == [r for s in authoring.paraphrased(dev_records, split) for r in s]
    assert 160 <= len(records) and len({r["instruction"] for r in records}) == len(records)
    for rec, ins in zip(records, [i for s in load_split(split, "hand") for i in s.instructions]):
        original = dev[rec["paraphrase_of"]]
        assert (ins.turn, ins.gold, ins.accept, ins.source) == (original.turn, original.gold, original.accept,
                                                               original.source), rec["paraphrase_of"]
        assert ins.split == split and ins.written_by == "paraphrase" and ins.text != original.text
        assert rec["session_id"].startswith(original.session_id + "-p")
        for quote in grounding.quotes(original.text):
            assert grounding.loose(quote.text) in grounding.loose(ins.text), (rec["paraphrase_of"], quote.text)
    assert {r["paraphrase_of"].split("#")[0] for r in records} <= {s.session_id for s in hand["dev"]}
    with pytest.raises(BenchmarkDataError):
        split_files(split, "templated")
    assert provenance.label("2.0", "hand", split) == "tuned on"
    sessions = {name: {r["paraphrase_of"].split("#")[0] for r in _records(name, "hand")} for name in authoring.PARAPHRASES}
    assert not set.intersection(*sessions.values())

def test_files_are_small_and_load_with_datasets():
    for path in DATA_DIR.rglob("*"):
        if path.is_file():
            assert path.stat().st_size <= 200_000, path
    datasets = pytest.importorskip("datasets")
    ds = datasets.load_dataset("json", data_files=[str(p) for p in split_files("mini", "hand")], split="train")
    assert {"session_id", "turn", "instruction", "language", "initial_document", "gold", "difficulty", "intents",
            "free_text", "written_by", "requests", "tags", "accept", "held_out"} <= set(ds.column_names)
    assert ds[0]["turn"] == 1 and ds[0]["initial_document"] != "previous"
    assert isinstance(json.loads(ds[0]["gold"][0]["args"]), dict)


def test_parquet_export_loads_offline_with_declared_features(tmp_path, monkeypatch):
    datasets = pytest.importorskip("datasets")
    from autodw.dwbench.export import export

    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    paths = export(tmp_path, TRACKS)
    dev_mini = tmp_path / "hand" / "dev-mini.parquet"
    assert dev_mini in paths and (tmp_path / "templated" / "test.parquet") in paths
    ds = datasets.load_dataset("parquet", data_files={"dev_mini": str(dev_mini)}, split="dev_mini",
                               cache_dir=str(tmp_path / "cache"))
    assert len(ds) == len(_records("dev-mini", "hand"))
    gold = ds.features["gold"]
    call = gold.feature if hasattr(gold, "feature") else gold[0]  # datasets' List (4.x) or a one-item list (older)
    assert call["api"].dtype == "string" and ds.features["turn"].dtype.startswith("int")


def test_datasheet_is_there_and_complete():
    text = (ROOT / "docs" / "benchmark" / "datasheet.md").read_text(encoding="utf-8")
    for heading in ("Motivation", "Composition", "Collection", "Splits", "Leakage", "Known issues", "Licences",
                    "Versioning", "Changelog"):
        assert f"## {heading}" in text, heading


@needs_corpus
@pytest.mark.parametrize("track", TRACKS)
@pytest.mark.parametrize("split", ("dev-mini", "mini"))
def test_subsets_validate(track, split, capsys):
    assert main(["bench", "validate", "--track", track, "--split", split]) == 0
    assert ": ok" in capsys.readouterr().out


@needs_corpus
def test_replay_chains_turns_and_uses_the_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("AUTODW_HOME", str(tmp_path))
    session = load_split("dev-mini", "hand")[0]
    first = session.expected_document(1)
    second_start = session.initial_document(2)
    assert fingerprint(first) == fingerprint(second_start)
    assert first.ids() == second_start.ids()  # the cached file keeps the ids the gold calls use
    assert list((tmp_path / "dwbench" / "cache").glob("*.docx"))
    fresh = replay(session, 1, use_cache=False)
    assert fingerprint(fresh) == fingerprint(first)
    assert fingerprint(session.initial_document(1)) != fingerprint(first)


@needs_corpus
def test_a_gold_call_that_no_longer_fits_the_apis_is_a_data_error_naming_the_turn(tmp_path, monkeypatch):
    import dataclasses

    from autodw.core.errors import BenchmarkDataError
    from autodw.dwbench.records import GoldCall

    monkeypatch.setenv("AUTODW_HOME", str(tmp_path))
    session = load_split("dev-mini", "hand")[0]
    first = session.instructions[0]
    broken = dataclasses.replace(first, gold=(*first.gold, GoldCall("delete_block", {"block": "p999"})))
    session = dataclasses.replace(session, instructions=(broken, *session.instructions[1:]))
    with pytest.raises(BenchmarkDataError, match=rf"{session.session_id}#{first.turn}: gold call {len(broken.gold)} "
                                                 r"\(delete_block\) fails at this commit: .*p999.*bench author"):
        replay(session, 1, use_cache=False)


@needs_corpus
def test_the_replay_cache_misses_when_the_api_code_changes(tmp_path, monkeypatch):
    from autodw.dwbench import records

    monkeypatch.setenv("AUTODW_HOME", str(tmp_path))
    session = load_split("dev-mini", "hand")[0]
    replay(session, 1)
    cached = set((tmp_path / "dwbench" / "cache").glob("*.docx"))
    replay(session, 1)
    assert set((tmp_path / "dwbench" / "cache").glob("*.docx")) == cached
    monkeypatch.setattr(records, "replay_code", lambda: "other code")
    replay(session, 1)
    assert len(set((tmp_path / "dwbench" / "cache").glob("*.docx")) - cached) == 2  # turns 0 and 1 replayed again


@needs_corpus
def test_threads_replaying_the_same_turns_at_once_share_the_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("AUTODW_HOME", str(tmp_path))  # each thread writes the same cached file at once
    session = load_split("dev-mini", "hand")[0]
    with ThreadPoolExecutor(8) as pool:
        documents = list(pool.map(lambda _: replay(session, 1), range(16)))
    assert len({fingerprint(d) for d in documents}) == 1
    assert {p.suffix for p in (tmp_path / "dwbench" / "cache").iterdir()} == {".docx"}  # no temporary file left


def test_missing_corpus_is_a_clear_error(monkeypatch, tmp_path):
    monkeypatch.setenv("AUTODW_CORPUS", str(tmp_path))
    corpus_session = next(s for s in load_split("dev", "hand") if s.source.kind == "corpus")
    with pytest.raises(BenchmarkDataError, match="not found.*shared corpus"):
        replay(corpus_session, 0, use_cache=False)


def test_cli_stats_and_show(capsys, tmp_path):
    assert main(["bench", "stats", "--track", "hand", "--split", "dev", "--format", "json"]) == 0
    stats = json.loads(capsys.readouterr().out)
    for key in ("sessions", "instructions", "languages", "intents", "difficulty", "calls_per_instruction", "written_by",
                "requests_per_turn", "quoted_value", "back_reference", "correction", "ambiguous", "held_out"):
        assert key in stats, key
    assert stats["written_by"] == {"hand": stats["instructions"]}
    pytest.importorskip("matplotlib")
    png = tmp_path / "fig2.png"
    assert main(["bench", "stats", "--split", "mini", "--plot", str(png)]) == 0
    assert png.read_bytes()[:4] == b"\x89PNG"
    sid = load_split("mini", "hand")[0].session_id
    assert main(["bench", "show", sid]) == 0
    out = capsys.readouterr().out
    assert sid in out and "[1]" in out and "- " in out
    assert main(["bench", "show", "no-such-session"]) == 2
    assert "error: there is no DWBench session 'no-such-session'" in capsys.readouterr().err
    assert main(["bench", "show", "x" * 5000]) == 2
    assert len(capsys.readouterr().err) < 200  # an id is not echoed whole


def test_chinese_corpus_files_get_chinese_instructions(templated):
    corpus = [s for s in templated["dev"] + templated["test"] if s.source.kind == "corpus"]
    assert all(i.language == "zh" for s in corpus for i in s.instructions if i.doc_language == "zh")


def test_inserted_tables_and_sections_suit_the_document(templated):
    for s in templated["dev"] + templated["test"]:
        for i in s.instructions:
            if i.doc_kind == "cv":
                assert not any(w in i.text for w in ("Stores", "门店", "Acknowledgements", "致谢", "Visitors", "访客数")), i.key


def test_emphasis_and_comment_spans_are_whole_words_or_number_tokens():
    from autodw.dwbench.edits.formatting import emphasis_span
    from autodw.dwbench.edits.helpers import phrase_span

    assert emphasis_span("截至4月30日，学生可以自主选书，并在图书馆登记。") == "4月30日"
    assert emphasis_span("本年度预算增加了12%，主要用于设备更新。") == "12%"
    assert emphasis_span("The changes take effect from 1 October and apply to everyone.") == "1 October"
    assert phrase_span("截至4月30日，学生可以自主选书，并在图书馆登记。", 4, 14) == "学生可以自主选书"
    assert phrase_span("We recorded 1,250 visitors in March, which is a record, for the office.", 2, 6) == "which is a record"


def test_one_instruction_never_sets_the_same_property_twice():
    from autodw.core.document import WordDocument
    from autodw.dwbench.context import Call, Ctx
    from autodw.dwbench.generate import touches
    from autodw.dwbench.records import DOCS_DIR

    import random

    ctx = Ctx(WordDocument.from_bytes((DOCS_DIR / "report-en-1.docx").read_bytes()), "en", random.Random(0), kind="report")
    h1 = ctx.headings(1)[0]["id"]
    direct = touches(ctx, [Call("set_text_format", {"paragraphs": [h1], "color": "teal"})])
    style = touches(ctx, [Call("modify_style", {"name": "Heading 1", "color": "navy", "size_pt": 16})])
    bold = touches(ctx, [Call("set_text_format", {"paragraphs": [h1], "bold": True})])
    assert direct & style and not bold & style
    roman = touches(ctx, [Call("insert_page_numbers", {"section": 0, "where": "footer", "template": "{PAGE}", "format": "lowerRoman"})])
    plain = touches(ctx, [Call("insert_page_numbers", {"section": "all", "where": "footer", "template": "{PAGE}"})])
    header = touches(ctx, [Call("set_header_footer", {"section": "all", "where": "header", "text": "Draft"})])
    assert roman & plain and not header & plain


def _colour_pairs_in_edits() -> list[tuple[str, str]]:
    """(name, value) pairs written inline in the edit templates: 2-tuples of strings, a colour name and a colour value."""
    import ast
    import re
    from pathlib import Path

    from autodw.core.colours import colour_names_in
    from autodw.dwbench import edits
    from autodw.core.units import NAMED_COLORS

    def is_value(v):
        return re.fullmatch(r"[0-9A-F]{6}", v) or v in NAMED_COLORS

    pairs = []
    nodes = [n for path in sorted(Path(edits.__file__).parent.glob("*.py")) for n in ast.walk(ast.parse(path.read_text(encoding="utf-8")))]
    for node in nodes:
        if isinstance(node, ast.Tuple) and len(node.elts) == 2 and \
                all(isinstance(e, ast.Constant) and isinstance(e.value, str) for e in node.elts):
            a, b = (e.value for e in node.elts)
            if is_value(b) and colour_names_in(a):
                pairs.append((a, b))
            elif is_value(a) and colour_names_in(b):
                pairs.append((b, a))
    return pairs


def test_every_colour_dwbench_names_is_of_that_name():
    """The judge's named-colour tolerance accepts a colour of the instruction's name only if the gold colour is one:
    every (name, value) the generator writes must fall in the range of the name its words map to."""
    from autodw.core.colours import colour_names_in, colour_ranges
    from autodw.dwbench.context import COLOURS, FILLS
    from autodw.core.units import hex_color

    inline = _colour_pairs_in_edits()
    assert len(inline) >= 8, inline  # style_header's and italic_paragraph's, in both languages
    pairs = [p for table in (COLOURS, FILLS) for lang in table.values() for p in lang] + inline
    wrong = []
    for name, value in pairs:
        names = colour_names_in(name)
        if len(names) != 1 or not colour_ranges()[names[0]].contains(hex_color(value)):
            wrong.append((name, value, names))
    assert wrong == []



def test_the_data_hash_covers_the_turn_and_every_earlier_one():
    from dataclasses import replace

    session = load_split("mini", "hand")[0]
    turns = range(1, len(session.instructions) + 1)
    hashes = [session.data_hash(t) for t in turns]
    assert len(set(hashes)) == len(hashes) and all(len(h) == 12 for h in hashes)
    first, second = session.instructions[:2]
    other_gold = replace(session, instructions=(replace(first, gold=first.gold[:-1]), *session.instructions[1:]))
    assert all(other_gold.data_hash(t) != session.data_hash(t) for t in turns)  # every later turn starts elsewhere
    reworded = replace(session, instructions=(first, replace(second, text=second.text + "!"), *session.instructions[2:]))
    assert [reworded.data_hash(t) == session.data_hash(t) for t in turns] == [True] + [False] * (len(hashes) - 1)


def _session(turns: list[tuple[str, list[tuple[str, dict]]]], tags: tuple[str, ...] = ()) -> Session:
    """A small session on report-en-1.docx (table t1 with a header row, picture img1) from (text, calls) turns."""
    import hashlib

    from autodw.dwbench.records import DOCS_DIR, GoldCall, Instruction, Source

    path = DOCS_DIR / "report-en-1.docx"
    source = Source("generated", "docs/report-en-1.docx", hashlib.sha256(path.read_bytes()).hexdigest())
    items = tuple(Instruction("dwt-001", n, text, "en", "en", "report", source, tuple(GoldCall(a, args) for a, args in calls),
                              "easy", (), False, "dev", (), tags=tags) for n, (text, calls) in enumerate(turns, 1))
    return Session("dwt-001", "en", source, items)


def test_validate_catches_each_kind_of_fault_found_in_1_1():
    """A back-reference with several candidates, an order trap, a duplicate insertion and a Total that is not its
    row's sum are each reported; the same sessions without the fault are not."""
    from autodw.dwbench.validate import validate_session

    def found(session):
        return " | ".join(f.message for f in validate_session(session))

    table = [["Name", "Score"], ["Ann", "3"]]
    two = ("add two small tables at the end", [("insert_table", {"position": "end", "data": table}),
                                                ("insert_table", {"position": "end", "data": [["City", "Stores"], ["York", "2"]]})])
    bold = ("make the table you just added bold", [("set_header_row", {"table": "t2", "rows": 1, "bold": True})])
    assert "back-reference with 2 candidates" in found(_session([two, bold]))
    one = ("add a small table at the end", [("insert_table", {"position": "end", "data": table})])
    assert "back-reference" not in found(_session([one, bold]))

    trap = ("make the picture 8 cm wide and crop its sides", [("resize_image", {"image": "img1", "width": "8cm"}),
                                                              ("crop_image", {"image": "img1", "left": 10, "right": 10})])
    assert "order trap" in found(_session([trap]))
    assert "order trap" not in found(_session([trap[:1] + ([trap[1][0]],)]))

    again = ("add the same table after the first paragraph", [("insert_table", {"position": {"after": "p3"}, "data": table})])
    assert "duplicate insertion" in found(_session([one, again]))
    assert "duplicate insertion" not in found(_session([one, again], tags=("copy",)))

    total = [["Total"], ["1"], ["2"], ["3"], ["4"]]
    wrong = ("add a Total column with each row's sum", [("insert_column", {"table": "t1", "index": 5, "data": [c[0] for c in total]})])
    assert "computed value disagrees with its rule" in found(_session([wrong]))
    right = ("add a Total column with each row's sum", [("insert_column", {"table": "t1", "index": 5,
                                                                           "data": ["Total", "1684", "748", "488", "200"]})])
    assert "computed value" not in found(_session([right]))


def test_a_session_file_with_too_few_turns_is_refused_by_its_count_not_a_dump_of_its_turns(tmp_path):
    from autodw.dwbench import hand as authoring

    data = json.loads((authoring.SESSIONS_DIR / "dwh-001.json").read_text(encoding="utf-8"))
    data["session_id"] = "dwh-999"
    data["turns"] = data["turns"][:1]
    path = tmp_path / "dwh-999.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(BenchmarkDataError, match=r"turns: has 1 item\(s\); needs at least 3$"):
        authoring.read(path)


def test_a_session_starts_only_from_a_document_of_its_side_of_the_split(tmp_path):
    """Writers of a later dev split picked generated documents of variants 2-4, which are test's: tuning on them would
    tune on test's documents. Dev and every later dev split start from dev's documents, test from test's."""
    from autodw.dwbench import hand as authoring

    data = json.loads((authoring.SESSIONS_DIR / "dwh-001.json").read_text(encoding="utf-8"))  # docs/report-en-1.docx
    data["session_id"] = "dwh-999"
    assert authoring.source_of(data)["file"] == "docs/report-en-1.docx"
    for split, source in (("dev-second", "docs/report-en-3.docx"), ("test", "docs/report-en-1.docx"),
                          ("dev", "corpus:oxsdk__comment.docx")):
        with pytest.raises(BenchmarkDataError, match=rf"dwh-999: a {split} session cannot start from {source}: it is "
                                                     "not one of (dev|test)'s (or the tuning )?documents"):
            authoring.source_of({**data, "split": split, "source": source})


def test_the_tuning_documents_are_neither_splits_and_open_only_to_splits_written_later():
    """The corpus files outside DWBench (data/document_splits.json "tuning") share no file with dev or test; a later
    dev split may start from them, dev and test may not."""
    from autodw.dwbench import hand as authoring
    from autodw.dwbench.records import document_splits

    splits = document_splits()
    tuning = set(splits["tuning"]["corpus"])
    assert tuning and not tuning & (set(splits["dev"]["corpus"]) | set(splits["test"]["corpus"]))
    data = json.loads((authoring.SESSIONS_DIR / "dwh-001.json").read_text(encoding="utf-8"))
    source = f"corpus:{sorted(tuning)[0]}"
    data = {**data, "session_id": "dwh-999", "source": source}
    assert authoring.source_of({**data, "split": authoring.WRITTEN_LATER[0]})["file"] == sorted(tuning)[0]
    for split in ("dev", "test"):
        with pytest.raises(BenchmarkDataError, match=rf"a {split} session cannot start from {source}"):
            authoring.source_of({**data, "split": split})


def test_a_tolerance_may_name_the_api_argument_that_sets_one_state_key(tmp_path):
    """Writers wrote {"key": "space_before"} (the argument) for the state's before_pt: taken where the argument sets one
    key, refused naming the keys it may mean where it sets several, and listing the valid keys for any other name."""
    from autodw.dwbench import hand as authoring

    data = json.loads((authoring.SESSIONS_DIR / "dwh-001.json").read_text(encoding="utf-8"))
    data["session_id"] = "dwh-999"
    path = tmp_path / "dwh-999.json"

    def with_key(key: str):
        data["turns"][0]["accept"] = {"tolerances": [{"key": key, "within": 3}]}
        path.write_text(json.dumps(data), encoding="utf-8")
        return authoring.read(path)

    assert with_key("space_before").data["turns"][0]["accept"]["tolerances"] == [{"key": "before_pt", "within": 3}]
    assert with_key("first_line_indent").data["turns"][0]["accept"]["tolerances"][0]["key"] == "first_line_cm"
    assert with_key("size_pt").data["turns"][0]["accept"]["tolerances"][0]["key"] == "size_pt"
    with pytest.raises(BenchmarkDataError, match=r"turns/1: 'width' .* sets width_cm or page_width_cm: name the one "
                                                 r"meant; a state key \(after_pt, before_pt, .*\) or an API argument"):
        with_key("width")
    with pytest.raises(BenchmarkDataError, match=r"'spacing_before' is no numeric property .*before_pt.*space_before"):
        with_key("spacing_before")


def test_bench_author_reviews_each_gold_target_and_warns_of_a_part_the_request_does_not_name(tmp_path):
    """Footer paragraphs have ids too: a gold call on p44 of the footer where the writer meant a body paragraph passes
    every check, so `bench author` shows each target's id, part and first words and warns when the part is not the
    body and the request names no such part (a warning: the verdict stays ok)."""
    from autodw.dwbench import hand as authoring
    from tests.conftest import run_cli

    data = json.loads((authoring.SESSIONS_DIR / "dwh-001.json").read_text(encoding="utf-8"))  # docs/report-en-1.docx
    data["session_id"] = "dwh-999"
    data["turns"] = [{"text": text, "requests": 1, "gold": [{"api": "set_text_format", "args": {"paragraphs": [pid], look: True}}]}
                     for text, pid, look in (("make the first paragraph bold", "p44", "bold"),
                                             ("and the page number in the footer italic", "p44", "italic"),
                                             ("bold the title", "p1", "bold"))]
    path = tmp_path / "dwh-999.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    turns = authoring.review(authoring.read(path))
    assert [text for text, _ in turns] == [t["text"] for t in data["turns"]]
    assert [[(c.api, c.targets, c.unnamed_parts) for c in calls] for _, calls in turns] == [
        [("set_text_format", (authoring.Target("p44", "footer", "Page 1"),), ("footer",))],
        [("set_text_format", (authoring.Target("p44", "footer", "Page 1"),), ())],
        [("set_text_format", (authoring.Target("p1", "body", "Apex Robotics Annual Operations Report"),), ())]]
    result = run_cli("bench", "author", str(path))
    assert result.returncode == 0 and result.stdout.startswith("dwh-999: 3 turns, ok\n"), result.stdout
    assert "  [1] make the first paragraph bold\n      set_text_format: p44 footer 'Page 1'\n" in result.stdout
    warnings = [line for line in result.stdout.splitlines() if line.startswith("  warning:")]
    assert warnings == ["  warning: dwh-999 turn 1: set_text_format acts on the footer, which the request does not name "
                        "(p44 footer 'Page 1')"]
    quiet = run_cli("bench", "author", "--quiet", str(path)).stdout
    assert quiet.splitlines() == ["dwh-999: 3 turns, ok", warnings[0]]


def test_bench_author_says_what_a_gold_call_that_names_no_element_acts_on(tmp_path):
    """A comment given as "#0" is the comment it names; a style, a search or the document as a whole is said as such,
    not as "no element named" (which read like an error)."""
    from autodw.dwbench import hand as authoring
    from tests.conftest import run_cli

    data = json.loads((authoring.SESSIONS_DIR / "dwh-001.json").read_text(encoding="utf-8"))  # docs/report-en-1.docx
    data["session_id"] = "dwh-999"
    data["turns"] = [
        {"text": "comment on the title: check the name", "requests": 1,
         "gold": [{"api": "insert_comment", "args": {"paragraph": "p1", "text": "Check the name"}}]},
        {"text": "drop that comment, and make the Title style dark blue", "requests": 1,
         "gold": [{"api": "delete_comment", "args": {"comment": "#0"}},
                  {"api": "modify_style", "args": {"name": "Title", "color": "1F4E79"}}]},
        {"text": "say Apex Corp for Apex Robotics everywhere", "requests": 1,
         "gold": [{"api": "replace_text", "args": {"find": "Apex Robotics", "replace": "Apex Corp"}}]},
        {"text": "set the document title to Annual report", "requests": 1,
         "gold": [{"api": "set_properties", "args": {"title": "Annual report"}}]}]
    path = tmp_path / "dwh-999.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    result = run_cli("bench", "author", str(path))
    assert result.returncode == 0 and "no element named" not in result.stdout, result.stdout
    assert ("      delete_comment: comment #0 comment 'Check the name'\n"
            "      modify_style: acts on style 'Title' (names no element)\n") in result.stdout
    assert "      replace_text: acts on the text matching 'Apex Robotics' (names no element)\n" in result.stdout
    assert "      set_properties: acts on the whole document (names no element)\n" in result.stdout
    assert "warning" not in result.stdout


def test_bench_author_says_a_gold_call_with_a_malformed_id_fails_not_that_it_acts_on_the_whole_document(tmp_path):
    """A writer's "P 3" is no element id: the review said the call "acts on the whole document"; it says it fails."""
    from autodw.dwbench import hand as authoring

    data = json.loads((authoring.SESSIONS_DIR / "dwh-001.json").read_text(encoding="utf-8"))  # docs/report-en-1.docx
    data["session_id"] = "dwh-999"
    data["turns"] = [{"text": "make the title bold", "requests": 1,
                      "gold": [{"api": "set_text_format", "args": {"paragraphs": ["p1"], "bold": True}}]},
                     {"text": "and the third paragraph too", "requests": 1,
                      "gold": [{"api": "set_text_format", "args": {"paragraphs": ["P 3"], "bold": True}}]}]
    path = tmp_path / "dwh-999.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    reviewed = authoring.review(authoring.read(path, draft=True))
    assert reviewed[0][1][0].shown().startswith("p1 body")
    last = reviewed[-1][1][-1]
    assert last.fails and "P 3" in last.fails and last.shown() == f"fails: {last.fails}"


def test_revisions_resolved_then_rewritten_are_needed_and_a_text_written_over_is_not():
    """docxrs__history.docx p1 holds tracked changes. Accepting them, then rewriting p1, ends as rewriting it alone,
    but in Word the revisions leave the history: not flagged. A text written and then written over is flagged."""
    from autodw.core.document import WordDocument
    from autodw.dwbench.records import GoldCall
    from autodw.dwbench.validate import check_turn
    from tests.conftest import corpus_file

    accept = GoldCall("resolve_tracked_changes", {"action": "accept", "paragraphs": ["p1"]})
    rewrite = GoldCall("set_paragraph_text", {"paragraph": "p1", "text": "Hello World"})
    draft = GoldCall("set_paragraph_text", {"paragraph": "p1", "text": "Hello"})

    def problems(calls):
        return check_turn(WordDocument.open(corpus_file("docxrs__history.docx")), calls)

    assert problems([accept, rewrite]) == []
    assert problems([draft, rewrite]) == \
        ["gold call 1 (set_paragraph_text) is not needed: the turn ends the same without it"]


def test_a_gold_call_leaving_the_state_as_it_was_is_a_problem_of_the_turn():
    """docx4j__LegacyForms.docx p1 has no style of its own: applying Normal writes a w:pStyle (the XML changes) but
    the state, what the judge compares, is as it was ("No change detected"), alone or before a call that changes
    something. Reported with each_call_changes (bench author); a read-only call (find_text) is not."""
    from autodw.core.document import WordDocument
    from autodw.dwbench.records import GoldCall
    from autodw.dwbench.validate import check_turn
    from tests.conftest import corpus_file

    normal = GoldCall("apply_style", {"paragraphs": ["p1"], "style": "Normal"})
    bold = GoldCall("set_text_format", {"paragraphs": ["p1"], "bold": True})
    find = GoldCall("find_text", {"query": "Check"})

    def problems(calls, each=True):
        return check_turn(WordDocument.open(corpus_file("docx4j__LegacyForms.docx")), calls, each_call_changes=each)

    unchanged = "gold call 1 (apply_style) leaves the document state as it was (No change detected)"
    assert [p[:len(unchanged)] for p in problems([normal])] == [unchanged]
    assert [p[:len(unchanged)] for p in problems([normal, bold])] == [unchanged]
    assert problems([normal], each=False) == []  # the generator's per-turn check, as before
    assert problems([bold]) == []
    assert not any("leaves the document state" in p for p in problems([find, bold]))


def test_bench_author_reports_a_gold_call_that_changes_nothing(tmp_path):
    """`bench author` on a draft whose one call applies Normal to a paragraph already in Normal: a problem, exit 1."""
    from autodw.dwbench import hand as authoring
    from tests.conftest import run_cli

    data = json.loads((authoring.SESSIONS_DIR / "dwh-001.json").read_text(encoding="utf-8"))  # docs/report-en-1.docx
    data["session_id"] = "dwh-998"
    data["turns"] = [{"text": "give the second paragraph the Normal style", "requests": 1,
                      "gold": [{"api": "apply_style", "args": {"paragraphs": ["p3"], "style": "Normal"}}]}]
    path = tmp_path / "dwh-998.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    result = run_cli("bench", "author", "--quiet", str(path))
    assert result.returncode == 1
    assert result.stdout.splitlines()[:2] == [
        "dwh-998: 1 turns, 1 problem(s)",
        "  dwh-998#1: gold call 1 (apply_style) leaves the document state as it was (No change detected): a gold call "
        "that changes nothing is a mistake of the turn"]


def test_bench_author_checks_a_draft_with_fewer_turns_than_a_session_needs(tmp_path):
    """A writer keeps a file passing turn by turn: `bench author` checks a one-turn draft and says it is one, while
    the build (strict :func:`read`) refuses it."""
    from autodw.dwbench import hand as authoring
    from tests.conftest import run_cli

    data = json.loads((authoring.SESSIONS_DIR / "dwh-001.json").read_text(encoding="utf-8"))  # docs/report-en-1.docx
    data["session_id"] = "dwh-999"
    data["turns"] = [{"text": "bold the title", "requests": 1,
                      "gold": [{"api": "set_text_format", "args": {"paragraphs": ["p1"], "bold": True}}]}]
    path = tmp_path / "dwh-999.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    result = run_cli("bench", "author", "--quiet", str(path))
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.splitlines() == ["dwh-999: 1 turns, ok so far (a draft: a session needs at least 3 turns)"]
    with pytest.raises(BenchmarkDataError, match=r"turns: has 1 item\(s\); needs at least 3"):
        authoring.read(path)
    data["turns"][0]["gold"][0]["args"]["paragraphs"] = ["p9999"]
    path.write_text(json.dumps(data), encoding="utf-8")
    assert run_cli("bench", "author", "--quiet", str(path)).returncode == 1  # a draft's problems are still problems


def test_bench_author_state_shows_a_draft_after_its_turns_so_far(tmp_path):
    """`bench author --state N` refused a file with fewer turns than a session needs: the writer could not see the
    document after turn 1 while writing turn 2."""
    from autodw.dwbench import hand as authoring
    from tests.conftest import run_cli

    data = json.loads((authoring.SESSIONS_DIR / "dwh-001.json").read_text(encoding="utf-8"))  # docs/report-en-1.docx
    data["session_id"] = "dwh-999"
    data["turns"] = [{"text": "add a closing line after the title", "requests": 1,
                      "gold": [{"api": "insert_paragraph", "args": {"text": "Closing line", "position": {"after": "p1"}}}]}]
    path = tmp_path / "dwh-999.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    result = run_cli("bench", "author", "--state", "1", str(path))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Closing line" in result.stdout


def test_a_heading_levels_tolerance_may_name_the_title_as_level_0():
    """The schema refused {"heading_levels": [0, 1]} though insert_heading makes level 0 the Title."""
    import jsonschema

    from autodw.dwbench.hand import TOLERANCE_SCHEMA
    jsonschema.validate({"heading_levels": [0, 1]}, TOLERANCE_SCHEMA)
