"""Outcomes judged as a user would accept them (an instruction's gold, its alternatives, its tolerances), and the
harness's tracks: a run's track, held-out iACC, and compare refusing runs of another track or major data version."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

import autodw.eval.run_folder as run_folder
from autodw.apis import execute
from autodw.interfaces.cli import build_parser, main
from autodw.dwbench.records import DATA_DIR, DATA_VERSION, GoldCall, Instruction, Session, Source
from autodw.core.errors import ConfigError
from autodw.eval.accept import judge_accepted
from autodw.eval.compare import compare
from autodw.eval.grade import judge_output
from autodw.eval.runner import Runner, RunSpec
from autodw.eval.systems import OracleSystem

DOC = "docs/report-en-1.docx"  # p3: the first body paragraph, p4 the second
SOURCE = Source("generated", DOC, hashlib.sha256((DATA_DIR / DOC).read_bytes()).hexdigest())


def _instruction(turn: int, calls: list[tuple[str, dict]], accept: dict | None = None,
                 held_out: bool = False) -> Instruction:
    return Instruction(
        session_id="tst-001", turn=turn, text=f"instruction {turn}", language="en", doc_language="en",
        doc_kind="report", source=SOURCE, gold=tuple(GoldCall(a, args) for a, args in calls), difficulty="easy",
        intents=("format",), free_text=False, split="dev-mini", templates=(), track="hand", written_by="tester",
        accept=accept, held_out=held_out)


def _alternative(*calls: tuple[str, dict]) -> list[dict]:
    return [{"api": api, "args": args} for api, args in calls]


def _format(**props) -> tuple[str, dict]:
    return ("set_text_format", {"paragraphs": "p3", **props})


#: turn 1 "emphasise the first paragraph": bold, or else italic or underlined; turn 2 a size, within 2 pt
EMPHASIS = _instruction(1, [_format(bold=True)], held_out=True,
                        accept={"alternatives": [_alternative(_format(italic=True)), _alternative(_format(underline="single"))]})
BIGGER = _instruction(2, [("set_text_format", {"paragraphs": "p4", "size_pt": 14})],
                      accept={"tolerances": [{"key": "size_pt", "within": 2}]})
SESSION = Session("tst-001", "en", SOURCE, (EMPHASIS, BIGGER))


def _output(ins: Instruction, *calls: tuple[str, dict]):
    doc = SESSION.initial_document(ins.turn)
    for api, args in calls:
        execute(doc, api, args)
    return doc


def test_an_output_made_by_an_alternative_is_accepted_and_names_it():
    gold = judge_accepted(SESSION, EMPHASIS, _output(EMPHASIS, _format(bold=True)))
    assert gold.equivalent and gold.matched == "gold" and gold.to_dict()["matched"] == "gold"
    first = judge_accepted(SESSION, EMPHASIS, _output(EMPHASIS, _format(italic=True)))
    assert first.equivalent and first.matched == "alternative 1" and first.differences == []
    second = judge_accepted(SESSION, EMPHASIS, _output(EMPHASIS, _format(underline="single")))
    assert second.equivalent and second.matched == "alternative 2"
    record = judge_output(SESSION, EMPHASIS, _output(EMPHASIS, _format(italic=True)))
    assert record["success"] and record["matched"] == "alternative 1" and "tolerances_used" not in record


def test_an_output_made_by_neither_is_refused_with_the_golds_differences():
    neither = _output(EMPHASIS, _format(strike=True))
    verdict = judge_accepted(SESSION, EMPHASIS, neither)
    assert not verdict.equivalent and verdict.matched is None
    whats = " ".join(d.what for d in verdict.differences)
    assert "bold: expected yes, actual no" in whats and "italic" not in whats and "underline" not in whats
    record = judge_output(SESSION, EMPHASIS, _output(EMPHASIS, _format(strike=True)),
                          lambda: SESSION.initial_document(1))
    assert not record["success"] and record["matched"] is None
    assert any("bold: expected yes, actual no" in d["what"] for d in record["differences"])
    assert 0 <= record["partial_credit"] < 1


def test_an_instructions_tolerances_reach_the_judge_and_the_record():
    smaller = ("set_text_format", {"paragraphs": "p4", "size_pt": 13})
    record = judge_output(SESSION, BIGGER, _output(BIGGER, smaller))
    assert record["success"] and record["matched"] == "gold" and record["tolerances_used"] == ["size_pt within 2"]
    strict = _instruction(2, [("set_text_format", {"paragraphs": "p4", "size_pt": 14})])
    record = judge_output(Session("tst-001", "en", SOURCE, (EMPHASIS, strict)), strict, _output(strict, smaller))
    assert not record["success"] and "tolerances_used" not in record


class _PlaysAlternative(OracleSystem):
    """Makes turn 1's first alternative instead of its gold."""

    def run_turn(self, doc, instruction, earlier, trace=None):
        if instruction.alternatives:
            instruction = instruction.__class__(**{**vars(instruction), "gold": instruction.alternatives[0]})
        return super().run_turn(doc, instruction, earlier, trace)


@pytest.fixture
def loaded(monkeypatch) -> list[tuple[str, str]]:
    """The runs' DWBench data: the test session, whatever the split and track; the (split, track) pairs asked for."""
    asked: list[tuple[str, str]] = []

    def load_split(split: str = "test", track: str = "templated") -> list[Session]:
        asked.append((split, track))
        return [SESSION]

    monkeypatch.setattr(run_folder, "load_split", load_split)
    return asked


def _run(out: Path, track: str = "hand", system=_PlaysAlternative) -> dict:
    spec = RunSpec("oracle", "none", "dev-mini", ["instruction"], {}, track=track)
    return Runner(spec, out, system, word_check=False, progress=False).run()


def test_a_run_knows_its_track_and_its_held_out_iacc(tmp_path, loaded):
    summary = _run(tmp_path / "run")
    assert loaded and set(loaded) == {("dev-mini", "hand")}
    assert json.loads((tmp_path / "run" / "run.json").read_text())["track"] == "hand"
    assert summary["track"] == "hand" and summary["iacc"] == 1.0
    assert summary["iacc_held_out"] == 1.0 and summary["held_out_instructions"] == 1
    first, second = (json.loads((tmp_path / "run" / "instructions" / f"tst-001--{t}.json").read_text()) for t in (1, 2))
    assert (first["track"], first["held_out"], first["matched"]) == ("hand", True, "alternative 1")
    assert (second["held_out"], second["matched"]) == (False, "gold")
    with pytest.raises(ConfigError, match="holds another run.*track"):
        _run(tmp_path / "run", track="templated")
    with pytest.raises(ConfigError, match="unknown track"):
        _run(tmp_path / "other", track="typed")

    class FailsHeldOut(OracleSystem):
        def run_turn(self, doc, instruction, earlier, trace=None):
            return super().run_turn(doc, instruction.__class__(**{**vars(instruction), "gold": ()}), earlier, trace) \
                if instruction.held_out else super().run_turn(doc, instruction, earlier, trace)

    failed = _run(tmp_path / "failed", system=FailsHeldOut)
    assert failed["iacc"] == 0.5 and failed["iacc_held_out"] == 0.0


def test_a_run_without_held_out_instructions_has_no_held_out_iacc(tmp_path, monkeypatch):
    monkeypatch.setattr(run_folder, "load_split", lambda split, track: [Session("tst-001", "en", SOURCE, (
        _instruction(1, [_format(bold=True)]),))])
    summary = _run(tmp_path / "run", system=OracleSystem)
    assert summary["iacc"] == 1.0 and "iacc_held_out" not in summary and "held_out_instructions" not in summary


def test_the_cli_runs_a_track(tmp_path, loaded, capsys):
    out = tmp_path / "run"
    assert main(["bench", "run", "--system", "oracle", "--split", "dev-mini", "--track", "hand", "--mode",
                 "instruction", "--no-word-check", "--out", str(out)]) == 0
    assert set(loaded) == {("dev-mini", "hand")} and json.loads((out / "run.json").read_text())["track"] == "hand"
    assert "on hand/dev-mini" in capsys.readouterr().out
    parser = build_parser()
    assert parser.parse_args(["bench", "run", "--system", "oracle", "--split", "test", "--out", "x"]).track == "templated"
    assert parser.parse_args(["bench", "sweep", "--split", "mini", "--track", "hand", "--out", "x"]).track == "hand"
    with pytest.raises(SystemExit):
        parser.parse_args(["bench", "run", "--system", "oracle", "--split", "test", "--track", "typed", "--out", "x"])


def _edit(path: Path, **fields) -> None:
    path.write_text(json.dumps({**json.loads(path.read_text()), **fields}))


def test_compare_refuses_runs_of_another_major_data_version_or_track(tmp_path, loaded):
    a, b = tmp_path / "a", tmp_path / "b"
    _run(a, system=OracleSystem)
    _run(b)
    paired = compare(a, b)
    assert paired["track"] == "hand" and paired["instructions"] == 2 and paired["only_a_succeeded"] == 0
    _edit(a / "run.json", data_version="1.1")
    with pytest.raises(ConfigError, match=rf"made on DWBench 1.1 data, .* on {DATA_VERSION}: runs of different major data versions"):
        compare(a, b)
    _edit(a / "run.json", data_version=DATA_VERSION, track="templated")
    with pytest.raises(ConfigError, match="ran on the templated track, .* on the hand track: compare runs of one track"):
        compare(a, b)
