"""The template data files: the loader reads them in generation order and names the file and template of a mistake."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from autodw.core.errors import TemplateDataError
from autodw.intents.labels import INTENTS
from autodw.intents.template_data import TEMPLATES_DIR, load_templates


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    folder = tmp_path / "templates"
    shutil.copytree(TEMPLATES_DIR, folder)
    return folder


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_packaged_templates_load_one_file_per_intent():
    data = load_templates()
    assert sorted(p.stem for p in TEMPLATES_DIR.glob("*.yaml")) == sorted([*INTENTS, "batches", "slots"])
    assert {f.intent for f in data.families} == set(INTENTS)
    assert [f.batch for f in data.families][0] == "first" and [f.batch for f in data.families][-1] == "third"
    assert len(data.families) == 118
    assert all(data.handwritten[i]["en"] and data.handwritten[i]["zh"] for i in INTENTS)


def test_undefined_slot_names_the_file_and_the_template(copy: Path):
    _edit(copy / "table_operation.yaml", "Insert a table with {r} rows", "Insert a table with {rowz} rows")
    with pytest.raises(TemplateDataError, match=r"table_operation\.yaml: family 'insert_table' \(en\): template "
                                                r"'Insert a table with \{rowz\} rows.*undefined slots \['rowz'\]"):
        load_templates(copy)


def test_malformed_slot_is_refused(copy: Path):
    _edit(copy / "table_operation.yaml", "Insert a table with {r} rows", "Insert a table with {R} rows")
    with pytest.raises(TemplateDataError, match=r"table_operation\.yaml.*'\{R\}', which is not a slot"):
        load_templates(copy)


def test_slot_value_must_be_a_string(copy: Path):
    _edit(copy / "slots.yaml", "- '2021'", "- 2021")
    with pytest.raises(TemplateDataError, match=r"slots\.yaml: slot 'year' \(en\) holds 2021; every value must be a non-empty string"):
        load_templates(copy)


def test_a_family_missing_from_the_batches_is_refused(copy: Path):
    _edit(copy / "batches.yaml", "- insert_table\n", "")
    with pytest.raises(TemplateDataError, match=r"batches\.yaml does not list the families \['insert_table'\]"):
        load_templates(copy)


def test_a_family_defined_twice_is_refused(copy: Path):
    _edit(copy / "chart_operation.yaml", "- name: insert_chart\n", "- name: insert_table\n")
    with pytest.raises(TemplateDataError, match=r"family 'insert_table' is defined twice"):
        load_templates(copy)
