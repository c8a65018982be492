"""The intent dataset: size, languages, splits by template, the frozen test split, no near-copies, no benchmark leakage."""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from pathlib import Path

import pytest

from autodw.core.paths import repo_root
from autodw.intents.datagen import (
    DATA_FILE,
    DEFAULT_SEED,
    FROZEN_TEST_FILE,
    FROZEN_TEST_SHA256,
    NEAR_DUPLICATE,
    SPLITS,
    TEST_B_FILE,
    TEST_B_SHA256,
    deduplicate,
    file_sha256,
    freeze_test,
    generate,
    jaccard,
    load_dataset,
    load_frozen_test,
    load_test_b,
    max_similarity,
    normalize,
    render,
    render_unit,
    shingles,
    split_units,
    units,
    write_jsonl,
)
from autodw.intents.labels import DEFINITIONS, INTENTS
from autodw.intents.leakage import collect_instructions, find_overlaps, instruction_files
from autodw.intents.template_data import load_templates, templates_of


@pytest.fixture(scope="module")
def examples():
    return load_dataset()


def test_definitions_cover_every_intent_with_boundaries():
    assert tuple(DEFINITIONS) == INTENTS
    for intent, text in DEFINITIONS.items():
        assert "Boundaries" in text, intent
        assert len(text.split()) > 40, intent
    assert "table_operation" in DEFINITIONS["table_operation"] and "make the table header bold" in DEFINITIONS["table_operation"]


def test_size_languages_and_labels(examples):
    assert len(examples) >= 4000
    langs = Counter(e.lang for e in examples)
    assert set(langs) == {"en", "zh"}
    assert langs["zh"] >= len(examples) / 3
    assert {e.intent for e in examples} == set(INTENTS)
    assert {e.split for e in examples} == set(SPLITS)
    for split in SPLITS:
        counts = Counter((e.intent, e.lang) for e in examples if e.split == split)
        for intent in INTENTS:
            for lang in ("en", "zh"):
                assert counts[(intent, lang)] >= 10, (split, intent, lang)


def test_split_proportions(examples):
    """About 15% of the units (templates and hand-written sentences) are test, and at least 10% of the sentences."""
    unit_split = {e.source: e.split for e in examples}
    share = Counter(unit_split.values())
    assert 0.12 <= share["test"] / len(unit_split) <= 0.2
    assert 0.1 <= share["validation"] / len(unit_split) <= 0.2
    assert Counter(e.split for e in examples)["test"] >= 0.1 * len(examples)


def test_no_duplicates_and_no_text_in_two_splits(examples):
    keys = [normalize(e.text) for e in examples]
    assert len(keys) == len(set(keys))


def test_templates_are_split_units(examples):
    """A template (or hand-written sentence) contributes to exactly one split."""
    splits_of: dict[str, set[str]] = {}
    for e in examples:
        splits_of.setdefault(e.source, set()).add(e.split)
    assert all(len(s) == 1 for s in splits_of.values())
    train_families = {(e.source.rsplit("/", 2)[0], e.lang) for e in examples if e.split == "train"}
    for fam in load_templates().families:
        for lang in ("en", "zh"):
            assert (fam.name, lang) in train_families, (fam.name, lang)


def test_every_held_out_operation_has_a_training_wording():
    """A held-out template's paraphrase group (its operation) always has a member in training."""
    all_units = units()
    test_keys = {key for _, key in load_frozen_test()}
    assignment = split_units(all_units, test_keys)
    train_groups = {u.group for u in all_units if assignment[u.key] == "train"}
    held = [u for u in all_units if assignment[u.key] != "train" and not u.handwritten]
    assert held
    for unit in held:
        assert unit.group is not None and unit.group in train_groups, unit.key


def test_frozen_test_split_is_unchanged(examples):
    """The test split was drawn once and stored; the dataset carries exactly those rows."""
    assert file_sha256(FROZEN_TEST_FILE) == FROZEN_TEST_SHA256, "intents/data/test_frozen.jsonl changed after the freeze"
    frozen = [ex for ex, _ in load_frozen_test()]
    assert [e for e in examples if e.split == "test"] == frozen
    assert len(frozen) >= 1000


def test_frozen_test_templates_still_exist_and_never_train():
    """Every frozen test template is still in the templates (so no edited copy of it can train) and is test."""
    all_units = {u.key: u for u in units()}
    frozen_keys = {key for _, key in load_frozen_test()}
    missing = sorted(frozen_keys - set(all_units))
    assert not missing, missing[:5]
    assignment = split_units(list(all_units.values()), frozen_keys)
    assert {k for k, s in assignment.items() if s == "test"} == frozen_keys


def test_second_test_set_is_frozen_balanced_and_unseen(examples):
    """test_b is unchanged since its freeze, 20 sentences per intent and language, and no sentence of the
    dataset (train, validation or the first test split) equals or nearly copies one of it."""
    assert file_sha256(TEST_B_FILE) == TEST_B_SHA256, "intents/data/test_b.jsonl changed after the freeze"
    rows = load_test_b()
    assert {e.split for e in rows} == {"test_b"}
    assert Counter((e.intent, e.lang) for e in rows) == {(i, lang): 20 for i in INTENTS for lang in ("en", "zh")}
    dataset = {normalize(e.text) for e in examples}
    assert not [e.text for e in rows if normalize(e.text) in dataset]
    sims = max_similarity([e.text for e in rows], [e.text for e in examples])
    near = [(round(s, 2), rows[n].text, examples[i].text) for n, (s, i) in enumerate(sims) if s >= NEAR_DUPLICATE]
    assert not near, near[:3]


def test_freeze_refuses_to_overwrite(tmp_path):
    target = tmp_path / "frozen.jsonl"
    target.write_text("")
    with pytest.raises(FileExistsError):
        freeze_test(path=target)


def test_held_out_sentences_are_not_near_copies_of_training(examples):
    """Neither validation nor (frozen) test sentences nearly copy a training sentence."""
    train = [e.text for e in examples if e.split == "train"]
    held = [e.text for e in examples if e.split != "train"]
    sims = max_similarity(held, train)
    worst = max(range(len(held)), key=lambda i: sims[i][0])
    assert sims[worst][0] < NEAR_DUPLICATE, (held[worst], train[sims[worst][1]])


def test_file_is_what_the_generator_makes(tmp_path):
    """The committed dataset is byte for byte what the generator writes from the template files."""
    regenerated = write_jsonl(generate(DEFAULT_SEED), tmp_path / "intents.jsonl")
    assert regenerated.read_bytes() == DATA_FILE.read_bytes(), "intents/data/intents.jsonl is stale: run scripts/make_intent_data.py"


def test_rendering_is_seeded():
    """Each unit's sentences depend on the seed and on nothing else (the whole file is pinned above for seed 13)."""
    sample = [u for u in units() if not u.handwritten][::50]
    first = [render_unit(u, 6, 7) for u in sample]
    assert first == [render_unit(u, 6, 7) for u in sample]
    assert first != [render_unit(u, 6, 8) for u in sample]


def test_render_fills_every_slot_and_choice():
    rng = random.Random(0)
    data = load_templates()
    for fam in data.families:
        for lang in ("en", "zh"):
            for tpl in (t for op in getattr(fam, lang) for t in templates_of(op)):
                text = render(tpl, lang, rng)
                assert not re.search(r"\{[a-z]+\d?\}|\[[^\]]*\|", text), (fam.name, tpl, text)
    assert data.slots["en"].keys() == data.slots["zh"].keys()


def test_similarity_helpers():
    a, b = shingles("Insert a table after paragraph 3"), shingles("insert a table after paragraph 3!")
    assert jaccard(a, b) == 1.0
    assert jaccard(shingles("Delete the chart"), shingles("把表头加粗")) == 0.0
    sims = max_similarity(["Make the table header bold", "完全无关的句子"], ["make the table header bold.", "Save as PDF"])
    assert sims[0] == (1.0, 0)
    assert sims[1][0] < 0.2


def test_deduplicate_drops_conflicting_labels():
    from autodw.intents.datagen import Example

    rows = [
        Example("Center the image", "image_operation", "en", "train", "a"),
        Example("center the image.", "format_style_editing", "en", "train", "b"),
        Example("Save", "lifecycle_update", "en", "train", "c"),
        Example("save!", "lifecycle_update", "en", "test", "d"),
    ]
    assert [e.source for e in deduplicate(rows)] == ["c"]


def test_leakage_finder(tmp_path: Path):
    bench = tmp_path / "bench"
    bench.mkdir()
    (bench / "s1.json").write_text(
        json.dumps({"session": 1, "instructions": [{"instruction": "Make the table header bold"}, "Save the file"],
                    "doc": {"text": "Not an instruction"}}),
        encoding="utf-8",
    )
    (bench / "s2.jsonl").write_text(json.dumps({"sub_instruction": "把表头加粗"}) + "\n", encoding="utf-8")
    found = collect_instructions(instruction_files([bench, tmp_path / "missing"]))
    assert found == ["Make the table header bold", "Save the file", "把表头加粗"]
    dataset = ["make the table header bold.", "Insert a chart", "Make the table header bold now", "把表头加粗吧"]
    overlaps = find_overlaps(dataset, found)
    assert [(o.dataset_text, o.benchmark_text) for o in overlaps] == [
        ("make the table header bold.", "Make the table header bold"),
        ("Make the table header bold now", "Make the table header bold"),
    ]
    assert overlaps[0].similarity == 1.0 and NEAR_DUPLICATE <= overlaps[1].similarity < 1.0


def test_no_dataset_sentence_appears_in_the_benchmark(examples):
    """Scans every instruction in dwbench/**/*.json* (and examples/) against the whole dataset."""
    root = repo_root()
    files = instruction_files([root / "dwbench", root / "examples"])
    instructions = collect_instructions(files)
    if not instructions:
        pytest.skip(f"no benchmark instructions yet: {len(files)} JSON/JSONL files under dwbench/ and examples/ hold none")
    overlaps = find_overlaps([e.text for e in examples], instructions)
    assert not overlaps, overlaps[:5]


def test_no_dataset_sentence_copies_an_evaluation_instruction(examples):
    """The agent's evaluation instruction set (eval/instruction_set.py) is benchmark data too."""
    from autodw.eval.instruction_set import TASKS

    overlaps = find_overlaps([e.text for e in examples], [t.instruction for t in TASKS])
    assert len(TASKS) >= 20 and not overlaps, overlaps[:5]
