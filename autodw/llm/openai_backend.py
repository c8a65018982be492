"""OpenAI-compatible chat completions (OpenAI, DeepSeek, Qwen, Gemini's endpoint, vLLM, Ollama, llama.cpp server)."""

from __future__ import annotations

import re
import time
from typing import Any

from autodw.errors import ConfigError, ContextOverflowError, LLMConnectionError, LLMError
from autodw.llm.base import Completion, Message, Usage
from autodw.llm.tokens import estimate_usage

#: how servers without OpenAI's error code say a prompt is too long (vLLM, llama.cpp's and llama-cpp-python's servers)
_CONTEXT_EXCEEDED = re.compile(r"maximum context length|exceed(?:s|ed)? (?:the )?context|context (?:window|size|length) "
                               r"(?:of \d+ )?(?:is )?exceeded", re.IGNORECASE)


#: How a JSON answer is asked for (see :class:`OpenAIBackend`); ``$AUTODW_RESPONSE_FORMAT`` chooses for every command.
RESPONSE_FORMATS = ("json_object", "json_schema", "json_object_schema", "none")


def _response_format(kind: str, role: str, schema: dict[str, Any]) -> dict[str, Any]:
    """The ``response_format`` request field of `kind` for an answer of `schema`."""
    if kind == "json_schema":
        return {"type": "json_schema", "json_schema": {"name": role, "schema": schema, "strict": False}}
    if kind == "json_object_schema":
        return {"type": "json_object", "schema": schema}
    return {"type": "json_object"}


class OpenAIBackend:
    """Chat completions over HTTP via the ``openai`` package.

    Retries with exponential backoff on 429, 5xx and connection errors are the ``openai`` client's
    own (``max_retries``). When a schema is given, `response_format` says how it is asked for
    (:data:`RESPONSE_FORMATS`): ``json_object`` (JSON mode, the default: any JSON object), ``json_schema`` (OpenAI's
    structured outputs, which vLLM and llama.cpp's ``llama-server`` also accept: the answer is constrained to the
    schema), ``json_object_schema`` (llama-cpp-python's server: JSON mode with the schema as a grammar) or ``none``.
    A server that rejects the format is remembered and asked without it (said once on stderr). The answer is
    validated against the schema whatever the format. Its agent profile is ``hosted`` (a small model behind such an
    endpoint can run with ``--profile local``).
    """

    profile = "hosted"

    def __init__(self, model: str, base_url: str | None = None, api_key: str | None = None, *,
                 timeout: float = 120.0, max_retries: int = 4, temperature: float = 0.1,
                 response_format: str = "json_object"):
        try:
            import openai
        except ImportError as exc:  # a dependency of autodw; only a broken install lacks it
            raise ConfigError(f"the openai package is not installed: {exc}") from exc
        if response_format not in RESPONSE_FORMATS:
            raise ConfigError(f"unknown response format {response_format!r}; choose one of {', '.join(RESPONSE_FORMATS)}")
        if not model:
            raise ConfigError("no model name given for the OpenAI-compatible backend (use --llm openai:MODEL)")
        self._openai = openai
        self.client = openai.OpenAI(base_url=base_url, api_key=api_key or "not-needed", timeout=timeout,
                                    max_retries=max_retries)
        self.model = model
        self.name = f"openai:{model}" + (f"@{base_url}" if base_url else "")
        self.temperature = temperature
        self.response_format = response_format

    def complete(self, messages: list[Message], *, role: str, schema: dict[str, Any] | None = None,
                 temperature: float | None = None, max_tokens: int | None = None) -> Completion:
        """One chat completion; usage from the server, or estimated (and marked so) if it sends none."""
        kwargs: dict[str, Any] = {"model": self.model, "messages": messages,
                                  "temperature": self.temperature if temperature is None else temperature}
        if max_tokens:
            kwargs["max_tokens"] = max_tokens
        if schema is not None and self.response_format != "none":
            kwargs["response_format"] = _response_format(self.response_format, role, schema)
        start = time.perf_counter()
        try:
            response = self.client.chat.completions.create(**kwargs)
        except self._openai.BadRequestError as exc:
            if "response_format" in kwargs and "response_format" in str(exc).lower():
                import sys

                print(f"note: the server does not support the {self.response_format} response format; asking without it",
                      file=sys.stderr)
                self.response_format = "none"
                return self.complete(messages, role=role, schema=schema, temperature=temperature, max_tokens=max_tokens)
            if getattr(exc, "code", None) == "context_length_exceeded" or _CONTEXT_EXCEEDED.search(str(exc)):
                raise ContextOverflowError(f"the prompt does not fit the model's context: {exc}") from exc
            raise LLMError(f"the LLM endpoint refused the request: {exc}") from exc
        except (self._openai.APIConnectionError, self._openai.APITimeoutError) as exc:
            raise LLMConnectionError(f"cannot reach the LLM endpoint ({self.client.base_url}): {exc}") from exc
        except self._openai.AuthenticationError as exc:
            raise ConfigError(f"the LLM endpoint rejected the API key: {exc}") from exc
        except self._openai.APIStatusError as exc:
            raise LLMConnectionError(f"the LLM endpoint kept failing after retries: {exc}") from exc
        choice = response.choices[0] if response.choices else None
        text = (choice.message.content or "") if choice is not None else ""
        usage = response.usage
        if usage is not None and usage.prompt_tokens is not None:
            cached = getattr(getattr(usage, "prompt_tokens_details", None), "cached_tokens", 0) or 0
            u = Usage(usage.prompt_tokens, usage.completion_tokens or 0, 1, cached)
            estimated = False
        else:
            u, estimated = estimate_usage(messages, text), True
        return Completion(text=text, usage=u, model=getattr(response, "model", self.model) or self.model,
                          seconds=time.perf_counter() - start, raw={"usage_estimated": estimated},
                          truncated=getattr(choice, "finish_reason", None) == "length")
