"""Choose the LLM backend from a spec string, flags and the environment.

Specs: ``openai:MODEL`` (base URL from --base-url or OPENAI_BASE_URL, key from OPENAI_API_KEY),
provider shortcuts ``deepseek:MODEL``, ``qwen:MODEL``, ``gemini:MODEL``, ``ollama:MODEL`` (their
OpenAI-compatible endpoints and key variables), ``local[:MODEL]`` (the embedded GGUF model) and
``replay:CASSETTE``. With no spec: ``$AUTODW_LLM``; else an endpoint if OPENAI_BASE_URL or
OPENAI_API_KEY is set (model from ``$AUTODW_MODEL``); else the local model, said in one line.
``$AUTODW_LOCAL_N_CTX`` sets the local model's context in tokens (default 8192; the model takes up to 32768);
``$AUTODW_LLM_TIMEOUT`` an endpoint's time limit per request in seconds (default 120; 4 retries after it).
`limits` (:class:`~autodw.llm.limits.ProviderLimits`: ``--rpm``, ``--tpm``, ``--concurrency``) applies to an endpoint.
"""

from __future__ import annotations

import os
import sys

from autodw.core.errors import ConfigError
from autodw.llm.base import LLMBackend
from autodw.llm.limits import ProviderLimits

#: provider -> (base URL, environment variable holding its API key)
PROVIDERS = {
    "openai": (None, "OPENAI_API_KEY"),
    "deepseek": ("https://api.deepseek.com", "DEEPSEEK_API_KEY"),
    "qwen": ("https://dashscope.aliyuncs.com/compatible-mode/v1", "DASHSCOPE_API_KEY"),
    "gemini": ("https://generativelanguage.googleapis.com/v1beta/openai/", "GEMINI_API_KEY"),
    "ollama": ("http://localhost:11434/v1", None),
}


def make_llm(spec: str | None = None, *, base_url: str | None = None, api_key: str | None = None,
             temperature: float = 0.1, announce=print, limits: ProviderLimits | None = None) -> LLMBackend:
    """The backend a spec names (see the module docstring)."""
    spec = spec or os.environ.get("AUTODW_LLM")
    kind = spec.partition(":")[0] if spec else None
    if limits is not None and limits.any and (kind in ("local", "replay") or not kind and not _endpoint_configured(base_url)):
        raise ConfigError("--rpm, --tpm and --concurrency limit an LLM endpoint; the embedded model and a replay have none")
    if not spec:
        if _endpoint_configured(base_url):
            model = os.environ.get("AUTODW_MODEL")
            if not model:
                raise ConfigError("an OpenAI-compatible endpoint is configured but no model: set AUTODW_MODEL or use --llm openai:MODEL")
            spec = f"openai:{model}"
        else:
            from autodw.llm.local import LocalBackend

            backend = LocalBackend(**_local_options())
            announce(f"using the embedded local model {backend.name} (no --llm and no API endpoint configured)", file=sys.stderr)
            return backend
    kind, _, rest = spec.partition(":")
    if kind in PROVIDERS:
        default_url, key_var = PROVIDERS[kind]
        from autodw.llm.openai_backend import OpenAIBackend

        url = base_url or (os.environ.get("OPENAI_BASE_URL") if kind == "openai" else None) or default_url
        key = api_key or (os.environ.get(key_var) if key_var else None)
        # a key is needed for a provider's own endpoint; a server of one's own (--base-url) may have none
        if key_var and not key and not (base_url or kind == "openai" and url):
            raise ConfigError(f"no API key for {kind}: set {key_var} or pass --api-key-env")
        return OpenAIBackend(rest, base_url=url, api_key=key, temperature=temperature, timeout=_timeout(),
                             response_format=os.environ.get("AUTODW_RESPONSE_FORMAT") or "json_object", limits=limits)
    if kind == "local":
        from autodw.llm.local import LocalBackend

        return LocalBackend(model=rest or None, **_local_options())
    if kind == "replay":
        from autodw.llm.replay import ReplayBackend

        return ReplayBackend(rest)
    raise ConfigError(f"unknown LLM spec {spec!r}; use openai:MODEL, {', '.join(k + ':MODEL' for k in PROVIDERS if k != 'openai')}, "
                      "local[:MODEL] or replay:CASSETTE")


def _endpoint_configured(base_url: str | None) -> bool:
    """Whether an endpoint is configured without a spec (``--base-url``, ``OPENAI_BASE_URL`` or ``OPENAI_API_KEY``)."""
    return bool(os.environ.get("OPENAI_BASE_URL") or os.environ.get("OPENAI_API_KEY") or base_url)


#: the longest ``$AUTODW_LLM_TIMEOUT``: a model served by a busy CPU can take hours for one answer (llama-cpp-python's
#: server with 2 threads on 2 cores that other work kept busy decoded 0.2 tokens/s: 3072 answer tokens, a baseline's
#: limit, in over 4 hours), and a request that times out is sent again while the server, which does not cancel it,
#: still computes the first
MAX_TIMEOUT = 86400.0


def _timeout() -> float:
    """``$AUTODW_LLM_TIMEOUT``: seconds an endpoint may take per request (a slow CPU-served model needs more)."""
    value = os.environ.get("AUTODW_LLM_TIMEOUT") or "120"
    try:
        seconds = float(value)
    except ValueError:
        seconds = 0.0
    if not 1 <= seconds <= MAX_TIMEOUT:
        raise ConfigError(f"AUTODW_LLM_TIMEOUT must be a number of seconds from 1 to {MAX_TIMEOUT:g} (a day), not {value!r}")
    return seconds


def _local_options() -> dict[str, int]:
    """The local backend's options from the environment: ``AUTODW_LOCAL_N_CTX``."""
    value = os.environ.get("AUTODW_LOCAL_N_CTX")
    if not value:
        return {}
    if not value.isdigit() or not 512 <= int(value) <= 32768:
        raise ConfigError(f"AUTODW_LOCAL_N_CTX must be a number of tokens from 512 to 32768, not {value!r}")
    return {"n_ctx": int(value)}
