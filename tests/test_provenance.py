"""Provenance of tuning (autodw/core/provenance.json): every tuned artefact says which DWBench splits it was tuned on."""

from __future__ import annotations

import copy
import json
from glob import glob
from pathlib import Path

import jsonschema
import pytest

from autodw.core import provenance
from autodw.core.errors import ConfigError
from autodw.core.paths import repo_root

WORD_LISTS = ("autodw/agent/api_words.json", "autodw/agent/value_words.json")


def _data() -> dict:
    return json.loads(provenance.PROVENANCE_FILE.read_text(encoding="utf-8"))


def _written(tmp_path: Path, data: dict) -> Path:
    path = tmp_path / "provenance.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


def test_the_file_validates_against_its_schema():
    data = _data()
    jsonschema.validate(data, provenance.SCHEMA)
    entries = provenance.load()
    assert entries == provenance.all_entries()
    assert {e.kind for e in entries} <= set(provenance.KINDS)
    assert len({e.artefact for e in entries}) == len(entries) == len(data["entries"])


def test_every_artefact_exists():
    root = repo_root()
    for entry in provenance.all_entries():
        files = [Path(p) for p in glob(str(root / entry.path))]
        assert files and all(f.is_file() for f in files), f"{entry.artefact}: no such file"
        _, _, name = entry.artefact.partition("#")
        if name:  # a setting or constant of that file: it is defined there
            assert any(f"{name} =" in f.read_text(encoding="utf-8") or f"{name}:" in f.read_text(encoding="utf-8")
                       for f in files), f"{entry.artefact}: {name} is not defined in {entry.path}"


def test_the_word_lists_name_only_dev_splits_and_of_2_0_both_tracks_dev():
    for artefact in WORD_LISTS:
        names = provenance.tuned_on(artefact)
        assert names, artefact
        splits = [provenance.SPLIT_NAME.match(n).groups() for n in names]
        # dev's parts: its sessions reworded and sessions written later on its documents
        assert all(split in ("dev", *provenance.DEV_PARTS) and split != "dev-mini" for _, _, split in splits), f"{artefact} names a split other than dev: {names}"
        assert {"dwbench-2.0/templated/dev", "dwbench-2.0/hand/dev"} <= {n for n in names if n.startswith("dwbench-2.0/")} <= \
            {"dwbench-2.0/templated/dev", "dwbench-2.0/hand/dev", "dwbench-2.0/hand/dev-paraphrased",
             "dwbench-2.0/hand/dev-reworded", "dwbench-2.0/hand/dev-second", "dwbench-2.0/hand/dev-third", "dwbench-2.0/hand/dev-fourth",
             "dwbench-2.0/hand/dev-thirteenth", "dwbench-2.0/hand/dev-nineteenth", "dwbench-2.0/hand/dev-twentieth",
             "dwbench-2.0/hand/dev-twenty-first", "dwbench-2.0/hand/dev-twenty-second", "dwbench-2.0/hand/dev-twenty-third",
             "dwbench-2.0/hand/dev-twenty-fourth", "dwbench-2.0/hand/dev-twenty-fifth", "dwbench-2.0/hand/dev-twenty-sixth",
             "dwbench-2.0/hand/dev-twenty-seventh", "dwbench-2.0/hand/dev-twenty-eighth", "dwbench-2.0/hand/dev-twenty-ninth",
             "dwbench-2.0/hand/dev-thirtieth",
             "dwbench-2.0/hand/dev-thirty-first", "dwbench-2.0/hand/dev-thirty-fourth", "dwbench-2.0/hand/dev-thirty-fifth",
             "dwbench-2.0/hand/dev-thirty-sixth", "dwbench-2.0/hand/dev-thirty-seventh", "dwbench-2.0/hand/dev-thirty-eighth",
             "dwbench-2.0/hand/dev-thirty-ninth", "dwbench-2.0/hand/dev-fortieth",
             "dwbench-2.0/templated/dev-outside",
             "dwbench-2.0/templated/dev-outside-third"}
        assert provenance.label("2.0", "templated", "test") == provenance.label("2.0", "hand", "test") == "held out"


def test_the_word_lists_say_where_they_come_from():
    for artefact in WORD_LISTS:
        comment = json.loads((repo_root() / artefact).read_text(encoding="utf-8"))["_comment"]
        assert "DWBench 2.0 dev" in comment and "provenance.json" in comment, artefact
        assert "test" not in comment.replace("held-out", ""), f"{artefact}'s comment still names test"


def test_label_says_tuned_on_for_a_tuned_split_and_held_out_otherwise():
    entries = [provenance.Entry("x.py", "threshold", ("dwbench-2.0/templated/dev", "dwbench-1.1/templated/mini"), "h", ())]
    assert provenance.tuned_splits("2.0", "templated", entries) == {"dev"}
    assert provenance.label("2.0", "templated", "dev", entries) == "tuned on"
    assert provenance.label("2.0", "templated", "dev-mini", entries) == "tuned on"  # a part of dev
    assert provenance.label("2.0", "templated", "test", entries) == "held out"
    assert provenance.label("2.0", "hand", "dev", entries) == "held out"  # another track
    assert provenance.label("1.1", "templated", "dev", entries) == "held out"  # another version
    assert provenance.label("1.1", "templated", "test", entries) == "tuned on"  # mini is a part of test
    assert provenance.label("1.0", "templated", "mini", entries) == "tuned on"  # 1.0 holds 1.1's sessions
    # the package's own file
    assert provenance.label("2.0", "templated", "dev") == "tuned on"
    assert provenance.label("2.0", "templated", "mini") == "held out"
    assert provenance.label("1.1", "templated", "test") == "tuned on"  # the rule checks were checked on 1.1 test's gold


def test_tuned_on_and_tuned_splits_read_the_file():
    assert provenance.tuned_on("autodw/agent/prompts/planner.md") == ("dwbench-2.0/hand/dev-thirty-sixth",)  # the pattern's entry
    assert "dwbench-1.1/templated/mini" in provenance.tuned_on("autodw/agent/heuristics.py")
    assert provenance.tuned_splits("2.0", "hand") == {"dev", "dev-paraphrased", "dev-reworded", "dev-second", "dev-third", "dev-fourth", "dev-fifth", "dev-sixth", "dev-seventh", "dev-eighth", "dev-ninth", "dev-tenth", "dev-eleventh", "dev-thirteenth", "dev-fourteenth", "dev-fifteenth", "dev-sixteenth", "dev-seventeenth", "dev-eighteenth", "dev-nineteenth", "dev-twentieth", "dev-twenty-first", "dev-twenty-second", "dev-twenty-third", "dev-twenty-fourth", "dev-twenty-fifth", "dev-twenty-sixth", "dev-twenty-seventh", "dev-twenty-eighth", "dev-twenty-ninth", "dev-thirtieth", "dev-thirty-first", "dev-thirty-second", "dev-thirty-third", "dev-thirty-fourth", "dev-thirty-fifth", "dev-thirty-sixth", "dev-thirty-seventh", "dev-thirty-eighth", "dev-thirty-ninth", "dev-fortieth"}
    with pytest.raises(ConfigError, match="no provenance entry"):
        provenance.tuned_on("autodw/agent/nothing.py")
    with pytest.raises(ConfigError, match="no DWBench split"):
        provenance.label("2.0", "typed", "dev")


@pytest.mark.parametrize("change, found", [
    (lambda e: e.update(tuned_on=["dwbench-2.0/templated/train"]), "tuned_on"),
    (lambda e: e.update(tuned_on="dwbench-2.0/templated/dev"), "tuned_on"),
    (lambda e: e.update(kind="model"), "kind"),
    (lambda e: e.pop("how"), "how"),
    (lambda e: e.update(evidence=["not a commit"]), "evidence"),
    (lambda e: e.update(extra=1), "extra"),
])
def test_a_malformed_entry_is_a_config_error(tmp_path, change, found):
    data = copy.deepcopy(_data())
    provenance.load(_written(tmp_path, data))  # unchanged, it loads
    change(data["entries"][0])
    with pytest.raises(ConfigError, match=found):
        provenance.load(_written(tmp_path, data))


def test_an_unreadable_or_repeated_file_is_a_config_error(tmp_path):
    path = tmp_path / "provenance.json"
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(ConfigError, match="cannot read"):
        provenance.load(path)
    data = _data()
    data["entries"].append(data["entries"][0])
    with pytest.raises(ConfigError, match="twice"):
        provenance.load(_written(tmp_path, data))


def test_a_tuned_on_list_is_checked_alone():
    assert provenance.check_tuned_on(["dwbench-2.0/hand/dev"]) == ("dwbench-2.0/hand/dev",)
    with pytest.raises(ConfigError, match="unasked_api"):
        provenance.check_tuned_on(["dwbench-2.0/hand/dev", "dwbench-2.0/hand/dev"], "unasked_api")
    assert provenance.split_name("2.0", "hand", "dev-mini") == "dwbench-2.0/hand/dev-mini"


def test_a_gold_rejection_names_the_word_list_its_check_read():
    from autodw.eval.gold_rejections import Rejection

    def rejected(checks, text):
        return Rejection("dwb-001#1", 1, "set_columns", {}, checks, "rule check: " + text, "").word_lists

    assert rejected(("unasked_api",), "insert_chart makes or changes something") == ("api_words.json",)
    assert rejected(("unnamed_value",), "alignment=left: the request does not ask for left") == ("value_words.json",)
    assert rejected(("unnamed_value",), "count=3: the request asks for 2 columns") == ()  # no word list read
    assert rejected(("altered_quote", "unasked_flag"), "x; bold=true: the request does not ask for it") == ("value_words.json",)
