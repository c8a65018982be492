"""`autodw bench perf ...`: each measurement runs on the smallest input it accepts and prints its figures. The
embedded model is never loaded: the local-agent measurement runs with a scripted backend."""

from __future__ import annotations

import json

import pytest

from autodw.interfaces.cli import main
from autodw.core.errors import LLMError


def _perf(capsys, *args: str) -> str:
    assert main(["bench", "perf", *args]) == 0
    return capsys.readouterr().out


def test_core_times_each_operation_on_a_generated_document(capsys, tmp_path):
    out = _perf(capsys, "core", "--repeat", "1", "--handbook", str(tmp_path / "none.docx"), "--no-page-count")
    assert "200 paragraphs, 10 tables, 5 images, LibreOffice pages: n/a" in out
    table = {line.rsplit(None, 1)[0]: float(line.rsplit(None, 1)[1]) for line in out.splitlines()[2:]}
    assert set(table) == {"open", "snapshot", "extract_state", "analyze_change", "restore", "save", "step (snapshot+state+diff)"}
    assert table["step (snapshot+state+diff)"] == pytest.approx(table["snapshot"] + table["extract_state"] + table["analyze_change"], abs=0.2)


def test_judge_times_equivalent_and_different_pairs(capsys, tmp_path):
    out = _perf(capsys, "judge", "--corpus", str(tmp_path), "--limit", "0", "--repeat", "1")
    assert out.startswith("10 pairs (4 equivalent), 1 runs each")  # 4 sample documents re-saved, 6 edits of the report
    assert "edited sample report (different pairs): median" in out and "slowest: " in out


def test_validation_times_the_word_check_of_the_samples(capsys, tmp_path):
    out = _perf(capsys, "validation", "--corpus", str(tmp_path), "--limit", "0", "--repeat", "1", "--workers", "1")
    assert out.startswith("4 documents, 1 lanes, 1 passes: median ")


@pytest.mark.slow
def test_render_times_cold_and_warm(capsys):
    from tests.rendering import require_renderer

    require_renderer()
    out = _perf(capsys, "render", "--repeat", "1", "--dpi", "20")
    assert out.startswith("report.docx, all pages at 20 dpi, 1 runs each")
    assert [line.split()[:2] for line in out.splitlines()[1:]] == [["cold", "render"], ["warm", "render"],
                                                                   ["cold", "LibreOffice"], ["warm", "LibreOffice"]]


@pytest.mark.slow
def test_word_check_costs_the_oracle_on_one_session(capsys):
    out = _perf(capsys, "word-check", "--split", "dev-mini", "--limit", "1", "--repeat", "1")
    assert out.startswith("oracle on dev-mini (instruction mode), 1 passes each: median ")
    checked = int(out.split(" outputs checked")[0].rsplit(None, 1)[1])
    assert checked > 0


@pytest.mark.slow
def test_apis_runs_every_api_on_the_sample_documents(capsys, tmp_path):
    from autodw.apis import registry
    from tests.conftest import EXAMPLES

    report = tmp_path / "apis.json"
    out = _perf(capsys, "apis", "--files", "1", "--corpus", str(EXAMPLES), "--json", str(report))
    rows = json.loads(report.read_text())
    assert set(rows) == set(registry().names()) and "on 4 readable corpus files" in out
    assert not [name for name, r in rows.items() if any(k.startswith("BUG") for k in r["refusals"])], out


def test_intents_scores_a_model_on_a_split(capsys, tiny_intent_model):
    out = _perf(capsys, "intents", "--model", str(tiny_intent_model.path), "--split", "validation", "--latency-n", "3",
                "--json")
    figures = json.loads(out)
    assert figures["split"] == "validation" and figures["latency_ms_batch1"]["n"] == 3
    assert figures["model"] == str(tiny_intent_model.path) and figures["model_size_mb"] > 0


def test_cold_start_runs_fresh_processes(capsys, tiny_intent_model):
    figures = json.loads(_perf(capsys, "cold-start", "--model", str(tiny_intent_model.path), "-n", "1", "--json"))
    assert figures["calls"] == 1 and figures["same_output_every_call"]
    assert list(figures["predictions"]) == ["Make the table header bold"]


def test_every_local_agent_configuration_is_a_setting_of_the_local_profile():
    from autodw.agent.assembly import RENAMED, SWITCHES, profile_assembly
    from autodw.interfaces.perf.local_agent import CONFIGS

    for name, (_options, settings) in CONFIGS.items():
        assembly = profile_assembly("local", **settings)
        for key, value in settings.items():
            if key in SWITCHES:
                part, *choice = SWITCHES[key]
                held = assembly.has(part, choice[0]) if len(choice) == 1 else getattr(assembly, part) == choice[0]
                assert held == value, (name, key)
            else:
                assert getattr(assembly, RENAMED.get(key, key), None) == value or getattr(assembly.numbers, key) == value, (name, key)


def test_local_agent_measures_each_task_under_each_configuration(capsys):
    """With a backend that has no answer, every task fails with the LLM's error and the summary counts it."""
    from autodw.eval.instruction_set import TASKS
    from autodw.llm.scripted import ScriptedBackend
    from autodw.interfaces.perf.local_agent import measure

    class Unanswering(ScriptedBackend):
        load_seconds = 0.0
        closed = 0

        def close(self) -> None:
            Unanswering.closed += 1

    class Classifier:
        def predict(self, text: str, k: int = 3) -> list[tuple[str, float]]:
            return [("format_style_editing", 1.0)][:k]

    opened = []

    def open_backend(options):
        opened.append(options)
        return Unanswering({}, profile="local")

    tasks = TASKS[:2]
    results = measure(["default", "nocache"], tasks, Classifier(), open_backend)
    assert opened == [{"grammar": True, "prompt_cache": "role"}, {"grammar": True, "prompt_cache": "off"}]
    assert Unanswering.closed == 2
    for name in ("default", "nocache"):
        rows = results[name]["tasks"]
        assert [r["task"] for r in rows] == [t.id for t in tasks] and not any(r["ok"] for r in rows)
        assert all(LLMError.__name__ in (r["error"] or "") or r["status"] != "done" for r in rows), rows
        assert results[name]["summary"]["passed"] == 0 and results[name]["summary"]["tasks"] == 2
    assert "default: 0/2 passed" in capsys.readouterr().out


def test_local_agent_refuses_an_unknown_configuration(capsys):
    assert main(["bench", "perf", "local-agent", "--configs", "default,fast"]) == 2
    assert "error: unknown configuration fast" in capsys.readouterr().err
