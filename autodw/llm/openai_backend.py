"""OpenAI-compatible chat completions (OpenAI, DeepSeek, Qwen, Gemini's endpoint, vLLM, Ollama, llama.cpp server)."""

from __future__ import annotations

import time
from typing import Any

from autodw.errors import ConfigError, LLMConnectionError, LLMError
from autodw.llm.base import Completion, Message, Usage
from autodw.llm.tokens import estimate_usage


class OpenAIBackend:
    """Chat completions over HTTP via the ``openai`` package.

    Retries with exponential backoff on 429, 5xx and connection errors are the ``openai`` client's
    own (``max_retries``). JSON mode (``response_format=json_object``) is used when a schema is given;
    a server that rejects it is remembered and asked without it (said once on stderr). Its agent profile is
    ``hosted`` (a small model behind such an endpoint can run with ``--profile local``).
    """

    profile = "hosted"

    def __init__(self, model: str, base_url: str | None = None, api_key: str | None = None, *,
                 timeout: float = 120.0, max_retries: int = 4, temperature: float = 0.1, json_mode: bool = True):
        try:
            import openai
        except ImportError as exc:  # a dependency of autodw; only a broken install lacks it
            raise ConfigError(f"the openai package is not installed: {exc}") from exc
        if not model:
            raise ConfigError("no model name given for the OpenAI-compatible backend (use --llm openai:MODEL)")
        self._openai = openai
        self.client = openai.OpenAI(base_url=base_url, api_key=api_key or "not-needed", timeout=timeout,
                                    max_retries=max_retries)
        self.model = model
        self.name = f"openai:{model}" + (f"@{base_url}" if base_url else "")
        self.temperature = temperature
        self.json_mode = json_mode

    def complete(self, messages: list[Message], *, role: str, schema: dict[str, Any] | None = None,
                 temperature: float | None = None, max_tokens: int | None = None) -> Completion:
        """One chat completion; usage from the server, or estimated (and marked so) if it sends none."""
        kwargs: dict[str, Any] = {"model": self.model, "messages": messages,
                                  "temperature": self.temperature if temperature is None else temperature}
        if max_tokens:
            kwargs["max_tokens"] = max_tokens
        if schema is not None and self.json_mode:
            kwargs["response_format"] = {"type": "json_object"}
        start = time.perf_counter()
        try:
            response = self.client.chat.completions.create(**kwargs)
        except self._openai.BadRequestError as exc:
            if "response_format" in kwargs and "response_format" in str(exc).lower():
                import sys

                print("note: the server does not support JSON mode; asking without it", file=sys.stderr)
                self.json_mode = False
                return self.complete(messages, role=role, schema=schema, temperature=temperature, max_tokens=max_tokens)
            raise LLMError(f"the LLM endpoint refused the request: {exc}") from exc
        except (self._openai.APIConnectionError, self._openai.APITimeoutError) as exc:
            raise LLMConnectionError(f"cannot reach the LLM endpoint ({self.client.base_url}): {exc}") from exc
        except self._openai.AuthenticationError as exc:
            raise ConfigError(f"the LLM endpoint rejected the API key: {exc}") from exc
        except self._openai.APIStatusError as exc:
            raise LLMConnectionError(f"the LLM endpoint kept failing after retries: {exc}") from exc
        text = (response.choices[0].message.content or "") if response.choices else ""
        usage = response.usage
        if usage is not None and usage.prompt_tokens is not None:
            cached = getattr(getattr(usage, "prompt_tokens_details", None), "cached_tokens", 0) or 0
            u = Usage(usage.prompt_tokens, usage.completion_tokens or 0, 1, cached)
            estimated = False
        else:
            u, estimated = estimate_usage(messages, text), True
        return Completion(text=text, usage=u, model=getattr(response, "model", self.model) or self.model,
                          seconds=time.perf_counter() - start, raw={"usage_estimated": estimated})
