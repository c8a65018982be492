"""OpenAI-compatible chat completions (OpenAI, DeepSeek, Qwen, Gemini's endpoint, vLLM, Ollama, llama.cpp server)."""

from __future__ import annotations

import re
import sys
import time
from typing import Any

from autodw.core.errors import ConfigError, ContextOverflowError, LLMConnectionError, LLMError, MalformedResponseError
from autodw.llm.base import Completion, Message, Usage
from autodw.llm.limits import Limiter, ProviderLimits
from autodw.llm.tokens import estimate_usage

#: how servers without OpenAI's error code say a prompt is too long (vLLM, llama.cpp's and llama-cpp-python's servers)
_CONTEXT_EXCEEDED = re.compile(r"maximum context length|exceed(?:s|ed)? (?:the )?context|context (?:window|size|length) "
                               r"(?:of \d+ )?(?:is )?exceeded", re.IGNORECASE)


#: How a JSON answer is asked for (see :class:`OpenAIBackend`); ``$AUTODW_RESPONSE_FORMAT`` chooses for every command.
RESPONSE_FORMATS = ("json_object", "json_schema", "json_object_schema", "none")


#: how a run stopped by an endpoint's failure goes on
CONTINUE = "run the same command again to continue (a bench run resumes where it stopped; what finished is kept)"


def _response_format(kind: str, role: str, schema: dict[str, Any]) -> dict[str, Any]:
    """The ``response_format`` request field of `kind` for an answer of `schema`."""
    if kind == "json_schema":
        return {"type": "json_schema", "json_schema": {"name": role, "schema": schema, "strict": False}}
    if kind == "json_object_schema":
        return {"type": "json_object", "schema": schema}
    return {"type": "json_object"}


class OpenAIBackend:
    """Chat completions over HTTP via the ``openai`` package.

    Retries with exponential backoff on 429, 5xx, timeouts and connection errors are the ``openai`` client's own
    (``max_retries``; it waits as a ``Retry-After`` header says, up to two minutes); `limits` keeps the requests within
    a provider's requests and tokens per minute and requests in flight (:mod:`autodw.llm.limits`). A failure that
    persists raises :class:`LLMConnectionError` saying what failed and how to continue. When a schema is given, `response_format` says how it is asked for
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
                 response_format: str = "json_object", limits: ProviderLimits | None = None):
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
        self.timeout, self.max_retries = timeout, max_retries
        self.limiter = Limiter(limits) if limits is not None and limits.any else None

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
        if self.limiter is None:
            response = self._create(kwargs)
        else:
            estimate = estimate_usage(messages, "").prompt_tokens + (max_tokens or 0)
            with self.limiter.request(estimate) as used:
                response = self._create(kwargs)
                used(getattr(response.usage, "total_tokens", None) or estimate)
        choice, text = _answer(response)
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

    def _create(self, kwargs: dict[str, Any]) -> Any:
        """The client's answer to `kwargs` (its retries done); a server that rejects the response format is asked
        again without it. Every failure as a typed error."""
        openai = self._openai
        try:
            return self.client.chat.completions.create(**kwargs)
        except openai.BadRequestError as exc:
            if "response_format" in kwargs and "response_format" in str(exc).lower():
                print(f"note: the server does not support the {self.response_format} response format; asking without it",
                      file=sys.stderr)
                self.response_format = "none"
                return self._create({k: v for k, v in kwargs.items() if k != "response_format"})
            if getattr(exc, "code", None) == "context_length_exceeded" or _CONTEXT_EXCEEDED.search(str(exc)):
                raise ContextOverflowError(f"the prompt does not fit the model's context: {exc}") from exc
            raise LLMError(f"the LLM endpoint refused the request: {exc}") from exc
        except openai.APITimeoutError as exc:
            raise LLMConnectionError(f"the LLM endpoint ({self.client.base_url}) did not answer within {self.timeout:g} s, "
                                     f"{self.max_retries + 1} times: raise AUTODW_LLM_TIMEOUT or lower --workers, "
                                     f"then {CONTINUE}") from exc
        except openai.APIConnectionError as exc:
            raise LLMConnectionError(f"cannot reach the LLM endpoint ({self.client.base_url}): {exc}; when it is back, "
                                     f"{CONTINUE}") from exc
        except openai.AuthenticationError as exc:
            raise ConfigError(f"the LLM endpoint rejected the API key: {exc}") from exc
        except openai.RateLimitError as exc:
            raise LLMConnectionError(f"the LLM endpoint kept refusing for its rate limit (HTTP 429){_asked_wait(exc)}: "
                                     f"{exc}; lower --rpm, --tpm or --workers, then {CONTINUE}") from exc
        except openai.APIStatusError as exc:
            raise LLMConnectionError(f"the LLM endpoint kept failing (HTTP {exc.status_code}) after "
                                     f"{self.max_retries} retries: {exc}; when it works again, {CONTINUE}") from exc
        except ValueError as exc:  # the body is not JSON (a proxy's error page answered with status 200)
            raise MalformedResponseError(f"the LLM endpoint answered with something that is not JSON: {exc}; "
                                         f"check --base-url, then {CONTINUE}") from exc


def _asked_wait(exc: Any) -> str:
    """What the endpoint's ``Retry-After`` header asked for, when it is longer than the client waits."""
    headers = getattr(getattr(exc, "response", None), "headers", None) or {}
    value = headers.get("retry-after")
    return f" and asks to wait {value!r} (Retry-After) before the next request" if value else ""


def _answer(response: Any) -> tuple[Any, str]:
    """The first choice of a chat completion and its text; MalformedResponseError if it has none."""
    choices = getattr(response, "choices", None)
    choice = choices[0] if isinstance(choices, list) and choices else None
    message = getattr(choice, "message", None)
    content = getattr(message, "content", None)
    if message is None or not isinstance(content, (str, type(None))):
        raise MalformedResponseError(f"the LLM endpoint answered without a chat completion ({str(response)[:200]}): "
                                     f"check --base-url, then {CONTINUE}")
    return choice, content or ""
