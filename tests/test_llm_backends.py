"""The OpenAI-compatible backend against a fake server on 127.0.0.1 (retries, JSON mode, usage),
JSON extraction from model output, and the backend factory."""

from __future__ import annotations

import pytest

from autodw.core.errors import ConfigError, ContextOverflowError, LLMConnectionError, LLMError, LLMOutputError
from autodw.llm.factory import make_llm
from autodw.llm.jsonout import parse_json_object, validate
from autodw.llm.openai_backend import OpenAIBackend
from autodw.llm.replay import MemoBackend
from tests.fake_openai import completion


MSGS = [{"role": "user", "content": "hi"}]


def test_retries_429_and_500_then_succeeds_with_usage(server):
    s = server([(429, {"error": {"message": "slow down"}}), (500, {"error": {"message": "oops"}}), (200, completion('{"a": 1}'))])
    backend = OpenAIBackend("fake-model", base_url=s.url, api_key="k", max_retries=3, timeout=10)
    out = backend.complete(MSGS, role="planner", schema={"type": "object"})
    assert out.text == '{"a": 1}' and out.usage.prompt_tokens == 11 and out.usage.completion_tokens == 7
    assert len(s.requests) == 3
    assert s.requests[-1]["response_format"] == {"type": "json_object"} and s.requests[-1]["temperature"] == 0.1


def test_an_answer_cut_at_the_token_limit_is_marked_and_kept_so_by_a_cache(server, tmp_path):
    s = server([(200, completion('{"ids": ["p1", "p2"', finish_reason="length")), (200, completion('{"a": 1}'))])
    backend = OpenAIBackend("fake-model", base_url=s.url, api_key="k", max_retries=0, timeout=10)
    memo = MemoBackend(backend, tmp_path / "cache.jsonl")
    assert memo.complete(MSGS, role="planner", max_tokens=8).truncated
    assert not memo.complete(MSGS, role="planner").truncated  # another request (no limit): a whole answer
    again = MemoBackend(backend, tmp_path / "cache.jsonl").complete(MSGS, role="planner", max_tokens=8)
    assert again.truncated and again.raw == {"cached": True} and len(s.requests) == 2


def test_gives_up_with_a_typed_error(server):
    s = server([(503, {"error": {"message": "down"}})] * 3)
    backend = OpenAIBackend("fake-model", base_url=s.url, api_key="k", max_retries=2, timeout=10)
    with pytest.raises(LLMConnectionError):
        backend.complete(MSGS, role="planner")


def test_unreachable_endpoint_is_a_connection_error():
    backend = OpenAIBackend("m", base_url="http://127.0.0.1:9/v1", api_key="k", max_retries=0, timeout=2)
    with pytest.raises(LLMConnectionError, match="cannot reach"):
        backend.complete(MSGS, role="planner")


def test_json_mode_refused_falls_back_once_and_says_so(server, capsys):
    s = server([(400, {"error": {"message": "response_format is not supported"}}), (200, completion("{}", usage=False))])
    backend = OpenAIBackend("fake-model", base_url=s.url, api_key="k", max_retries=0, timeout=10)
    out = backend.complete(MSGS, role="validator", schema={"type": "object"})
    assert "response_format" not in s.requests[1] and backend.response_format == "none"
    assert "does not support the json_object response format" in capsys.readouterr().err
    assert out.raw["usage_estimated"] and out.usage.prompt_tokens > 0  # no usage from the server: estimated


@pytest.mark.parametrize("error", [
    {"message": "This model's maximum context length is 8192 tokens", "code": "context_length_exceeded"},
    {"message": "Requested tokens (9100) exceed context window of 8192"},  # llama-cpp-python's server
])
def test_a_prompt_longer_than_the_context_is_its_own_error(server, error):
    s = server([(400, {"error": error})])
    backend = OpenAIBackend("fake-model", base_url=s.url, api_key="k", max_retries=0, timeout=10, response_format="none")
    with pytest.raises(ContextOverflowError, match="does not fit"):
        backend.complete(MSGS, role="planner")
    other = server([(400, {"error": {"message": "unknown parameter"}})])
    with pytest.raises(LLMError, match="refused") as refused:
        OpenAIBackend("m", base_url=other.url, api_key="k", max_retries=0, timeout=10, response_format="none").complete(
            MSGS, role="planner")
    assert not isinstance(refused.value, ContextOverflowError)


@pytest.mark.parametrize("kind, expected", [
    ("json_schema", {"type": "json_schema", "json_schema": {"name": "planner", "schema": {"type": "object"}, "strict": False}}),
    ("json_object_schema", {"type": "json_object", "schema": {"type": "object"}}),
])
def test_response_format_asks_for_the_schema(server, kind, expected):
    s = server([(200, completion('{"a": 1}'))])
    backend = OpenAIBackend("fake-model", base_url=s.url, api_key="k", max_retries=0, timeout=10, response_format=kind)
    backend.complete(MSGS, role="planner", schema={"type": "object"})
    assert s.requests[0]["response_format"] == expected


def test_response_format_from_the_environment_and_bad_names(monkeypatch):
    from autodw.llm.factory import make_llm

    monkeypatch.setenv("AUTODW_RESPONSE_FORMAT", "json_schema")
    assert make_llm("openai:m", base_url="http://127.0.0.1:9/v1").response_format == "json_schema"
    monkeypatch.setenv("AUTODW_RESPONSE_FORMAT", "xml")
    with pytest.raises(ConfigError, match="unknown response format"):
        make_llm("openai:m", base_url="http://127.0.0.1:9/v1")


def test_parse_json_object_variants():
    assert parse_json_object('```json\n{"a": [1, {"b": 2}]}\n```') == {"a": [1, {"b": 2}]}
    assert parse_json_object('Sure. {"done": true} Hope that helps {') == {"done": True}
    with pytest.raises(LLMOutputError, match="no JSON object"):
        parse_json_object("[1, 2, 3]")
    with pytest.raises(LLMOutputError, match="confidence"):
        validate({"confidence": 2}, {"type": "object", "properties": {"confidence": {"maximum": 1}}})
    with pytest.raises(LLMOutputError) as long_value:  # the retry prompt does not repeat a huge value
        validate({"reason": "x" * 100_000}, {"type": "object", "properties": {"reason": {"maxLength": 500}}})
    assert len(str(long_value.value)) < 1000 and "more characters" in str(long_value.value)
    with pytest.raises(LLMOutputError, match="nested too deeply"):  # a degenerate answer is the model's error
        parse_json_object('{"a": ' + "[" * 100_000 + "]" * 100_000 + "}")
    with pytest.raises(LLMOutputError, match="nests more than"):  # shallower, but deeper than any answer needs
        parse_json_object('{"a": ' + "[" * 500 + "]" * 500 + "}")
    for answer, reason in (('{"decision": "pass", "confidence": NaN}', "NaN is not a number"),
                           ('{"size_pt": Infinity}', "Infinity is not a number"),
                           ('{"size_pt": 1e400}', "1e400 is too large"),
                           ('{"decision": "fail", "decision": "pass"}', "the key 'decision' is given twice")):
        with pytest.raises(LLMOutputError, match=reason):
            parse_json_object(answer)


def test_factory(monkeypatch, tmp_path):
    for var in ("AUTODW_LLM", "OPENAI_API_KEY", "OPENAI_BASE_URL", "AUTODW_MODEL"):
        monkeypatch.delenv(var, raising=False)
    b = make_llm("openai:gpt-x", base_url="http://127.0.0.1:1/v1")
    assert b.name.startswith("openai:gpt-x")
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:1/v1")
    with pytest.raises(ConfigError, match="AUTODW_MODEL"):
        make_llm(None)
    monkeypatch.setenv("AUTODW_MODEL", "m1")
    assert make_llm(None).model == "m1"
    with pytest.raises(ConfigError, match="unknown LLM spec"):
        make_llm("magic:thing")
    with pytest.raises(ConfigError, match="does not exist"):
        make_llm(f"replay:{tmp_path / 'none.jsonl'}")
    monkeypatch.delenv("DEEPSEEK_API_KEY", raising=False)
    with pytest.raises(ConfigError, match="no API key for deepseek: set DEEPSEEK_API_KEY"):
        make_llm("deepseek:deepseek-chat")  # it went on to the provider's endpoint without a key
    assert make_llm("deepseek:m", base_url="http://127.0.0.1:1/v1").model == "m"  # a server of one's own, no key
    monkeypatch.setenv("AUTODW_LLM_TIMEOUT", "900")
    assert make_llm("openai:m", base_url="http://127.0.0.1:1/v1").client.timeout == 900
    monkeypatch.setenv("AUTODW_LLM_TIMEOUT", "14400")  # a CPU-served model under load takes hours for a long prompt
    assert make_llm("openai:m", base_url="http://127.0.0.1:1/v1").client.timeout == 14400
    for bad in ("soon", "0", "nan", "1e9", "86401"):
        monkeypatch.setenv("AUTODW_LLM_TIMEOUT", bad)
        with pytest.raises(ConfigError, match="AUTODW_LLM_TIMEOUT"):
            make_llm("openai:m", base_url="http://127.0.0.1:1/v1")


def test_factory_without_endpoint_uses_the_local_model_and_says_so(monkeypatch):
    import autodw.llm.local as local

    for var in ("AUTODW_LLM", "OPENAI_API_KEY", "OPENAI_BASE_URL", "AUTODW_MODEL"):
        monkeypatch.delenv(var, raising=False)

    class FakeLocal:
        name = "local:fake-model"

    monkeypatch.setattr(local, "LocalBackend", FakeLocal)
    said: list[str] = []
    backend = make_llm(None, announce=lambda text, **_: said.append(text))
    assert isinstance(backend, FakeLocal)
    assert said == ["using the embedded local model local:fake-model (no --llm and no API endpoint configured)"]
    monkeypatch.setenv("OPENAI_API_KEY", "k")
    monkeypatch.setenv("AUTODW_MODEL", "m2")
    assert make_llm(None, announce=lambda *a, **k: said.append("again")).model == "m2" and len(said) == 1


def test_the_local_models_context_from_the_environment(monkeypatch):
    import autodw.llm.local as local

    class FakeLocal:
        name = "local:fake-model"

        def __init__(self, model=None, **options):
            self.model, self.options = model, options

    monkeypatch.setattr(local, "LocalBackend", FakeLocal)
    monkeypatch.delenv("AUTODW_LOCAL_N_CTX", raising=False)
    assert make_llm("local").options == {} and make_llm("local:m").model == "m"
    monkeypatch.setenv("AUTODW_LOCAL_N_CTX", "16384")
    assert make_llm("local").options == {"n_ctx": 16384}
    for bad in ("16k", "100", "65536"):
        monkeypatch.setenv("AUTODW_LOCAL_N_CTX", bad)
        with pytest.raises(ConfigError, match="AUTODW_LOCAL_N_CTX"):
            make_llm("local")
