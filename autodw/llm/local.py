"""The embedded local backend: a GGUF chat model run in-process by llama-cpp-python.

``llama_cpp`` is imported only when a LocalBackend is made, so ``import autodw`` never needs it.

Prompt caching. llama-cpp-python keeps one KV cache and, on each call, reuses the longest
common token prefix with the previous prompt. The agent alternates roles (planner, API
generator, validator) whose system prompts differ, so that alone re-evaluates each role's
static prefix on every call. In ``"role"`` mode (the default) the backend also keeps, per role,
a snapshot of the KV cache of that role's last call (``llama_state_seq_get_data``: only the used
KV cells, ~28 KB per token for the 1.5B model) and restores it before the next call of the role
when it shares a longer prefix than what is loaded; the system prompt + API docs are then
evaluated once per role. ``"prefix"`` keeps only llama-cpp-python's own reuse; ``"off"`` clears
the cache before every call (for measurements). LlamaRAMCache is not used: its states also copy
the ``n_batch x n_vocab`` float score matrix (~300 MB for Qwen's 152k vocabulary) on every save
and load.

Constrained decoding. With ``grammar=True`` a ``schema`` argument becomes a GBNF grammar
(``LlamaGrammar.from_json_schema``, compiled once per distinct schema), so the model can only
emit JSON of that shape. The caller still validates it (the converter ignores some keywords). The grammar is
checked on the sampled token first and on the whole vocabulary only when that token is refused
(:mod:`autodw.llm.grammar_sampler`; ``grammar_last=False`` keeps llama-cpp-python's slower order).
"""

from __future__ import annotations

import ctypes
import hashlib
import json
import os
import sys
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any, Literal

from autodw.core.errors import ConfigError, ContextOverflowError, LLMError
from autodw.llm.base import Completion, Message, Usage
from autodw.llm.grammar_sampler import GrammarLastSampler
from autodw.llm.local_model import resolve_model
from autodw.core.paths import data_home

PromptCache = Literal["role", "prefix", "off"]
PROMPT_CACHE_MODES: tuple[str, ...] = ("role", "prefix", "off")

#: Build options that make llama.cpp crash (Intel AMX: segfault on the first inference).
_BAD_BUILD_FEATURES = ("AMX_INT8 = 1", "AMX_BF16 = 1", "AMX = 1")

MAX_GRAMMARS = 64  # compiled grammars kept per backend

INSTALL_HINT = ('install the local runtime with `sh scripts/install_local.sh` in the autodw '
                'checkout (it builds llama-cpp-python 0.3.36 for this CPU, without AMX, and runs '
                '`pip install ".[local]"`; a C/C++ compiler and cmake are needed)')


MIN_ANSWER_TOKENS = 128  # an answer shorter than this cannot hold an API call


class LocalRuntimeError(ConfigError):
    """llama-cpp-python is missing, or was built in a way that cannot run here."""


def import_llama_cpp() -> ModuleType:
    """The ``llama_cpp`` module, or LocalRuntimeError saying how to install it.

    Before the first import it sets ``OMP_WAIT_POLICY=PASSIVE`` unless the user set it: the
    wheel uses OpenMP, whose threads spin at each of the hundreds of barriers per token. When
    another process takes a core, the spinning thread starves the working one; measured on 2
    cores with one other busy process, a 362-token call of the 0.5B model took 43-70 s with
    the default policy, 30 s with ACTIVE, 6.3-8 s with PASSIVE (6.3 s with one thread).
    """
    if "llama_cpp" not in sys.modules:  # libgomp reads the policy once, when it is loaded
        os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    try:
        import llama_cpp
    except ImportError as exc:
        raise LocalRuntimeError(f"the local LLM backend needs llama-cpp-python, which is not "
                                f"importable ({exc}); {INSTALL_HINT}") from exc
    return llama_cpp


def system_info(llama_cpp: ModuleType) -> str:
    """llama.cpp's one-line description of the features it was compiled with."""
    return llama_cpp.llama_print_system_info().decode("utf-8", "replace")


def check_build(llama_cpp: ModuleType) -> None:
    """Refuse a llama.cpp build with AMX enabled, which segfaults on the first inference."""
    info = system_info(llama_cpp)
    bad = [feature.split(" =")[0] for feature in _BAD_BUILD_FEATURES if feature in info]
    if bad:
        raise LocalRuntimeError(
            f"this llama-cpp-python was compiled with {', '.join(bad)} (the default native build "
            f"on Intel CPUs with AMX), which crashes on the first inference; rebuild it without "
            f"AMX: {INSTALL_HINT}")


def cpu_count() -> int:
    """Cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not Linux
        return max(1, os.cpu_count() or 1)


@dataclass
class _Snapshot:
    tokens: list[int]
    data: Any  # ctypes uint8 array holding llama_state_seq_get_data of sequence 0
    size: int

    def save(self, path: Path) -> None:
        """Write the snapshot atomically: a JSON line with the tokens, then the KV bytes."""
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        with open(tmp, "wb") as f:
            f.write(json.dumps({"tokens": self.tokens}).encode() + b"\n")
            f.write(memoryview(self.data)[: self.size])
        os.replace(tmp, path)

    @classmethod
    def load(cls, path: Path) -> "_Snapshot":
        """Read a snapshot written by :meth:`save` (OSError/ValueError if it is not one)."""
        raw = path.read_bytes()
        header, _, body = raw.partition(b"\n")
        tokens = json.loads(header)["tokens"]
        data = (ctypes.c_uint8 * len(body)).from_buffer_copy(body)
        return cls(tokens=tokens, data=data, size=len(body))


#: Disk space for saved prefixes; the least recently used are deleted beyond it. A saved prefix takes ~28 KB per
#: token with the 1.5B model (a system message with one API's documentation: 15-25 MB).
MAX_SAVED_PREFIX_BYTES = 1 << 30


def _common_prefix(a: Any, b: list[int]) -> int:
    n = 0
    for x, y in zip(a, b):
        if x != y:
            break
        n += 1
    return n


class LocalBackend:
    """An in-process GGUF chat model (llama-cpp-python) behind the LLMBackend interface (agent profile ``local``)."""

    profile = "local"

    def __init__(self, model: str | os.PathLike[str] | None = None, *, n_ctx: int = 8192,
                 n_threads: int | None = None, n_gpu_layers: int | None = None,
                 grammar: bool = True, prompt_cache: PromptCache = "role",
                 temperature: float = 0.1, max_tokens: int = 512, seed: int = 0,
                 persist_prefixes: bool = True, grammar_last: bool = True, verbose: bool = False) -> None:
        """Load `model` (a known name, a .gguf path, or None for the default; see
        :func:`autodw.llm.local_model.resolve_model`). `n_gpu_layers` None offloads every layer
        when the build supports a GPU and none otherwise; `n_threads` None uses every core.
        `persist_prefixes` keeps each role's evaluated system prompt on disk (``"role"`` cache only).
        `grammar_last` checks the grammar on the sampled token first (see :mod:`autodw.llm.grammar_sampler`);
        False keeps llama-cpp-python's order, which checks the whole vocabulary at every token."""
        if prompt_cache not in PROMPT_CACHE_MODES:
            raise ConfigError(f"prompt_cache must be one of {PROMPT_CACHE_MODES}, "
                              f"got {prompt_cache!r}")
        llama_cpp = import_llama_cpp()
        check_build(llama_cpp)
        from llama_cpp.llama_chat_format import Jinja2ChatFormatter

        self.model_name, self.model_path = resolve_model(model)
        self.name = f"local:{self.model_name}"
        self.grammar_enabled = grammar
        self.grammar_last = grammar_last
        self.prompt_cache: PromptCache = prompt_cache
        self.temperature = temperature
        self.max_tokens = max_tokens
        self.seed = seed
        self.gpu_offload = bool(llama_cpp.llama_supports_gpu_offload())
        if n_gpu_layers is None:
            n_gpu_layers = -1 if self.gpu_offload else 0
        self.n_threads = n_threads or cpu_count()
        self._llama_cpp = llama_cpp
        started = time.perf_counter()
        try:
            self._llm = llama_cpp.Llama(
                model_path=str(self.model_path), n_ctx=n_ctx, n_batch=512,
                n_threads=self.n_threads, n_threads_batch=self.n_threads,
                n_gpu_layers=n_gpu_layers, seed=seed, verbose=verbose)
        except (ValueError, RuntimeError) as exc:
            raise LLMError(f"llama.cpp could not load {self.model_path}: {exc}") from exc
        self.load_seconds = time.perf_counter() - started
        template = self._llm.metadata.get("tokenizer.chat_template")
        if not template:
            raise ConfigError(f"{self.model_path} has no chat template (tokenizer.chat_template): "
                              f"it is not a chat/instruct model and cannot act as an agent")
        eos_id = self._llm.token_eos()
        self._formatter = Jinja2ChatFormatter(
            template=template, eos_token=self._token_text(eos_id),
            bos_token=self._token_text(self._llm.token_bos()), stop_token_ids=[eos_id])
        self._grammars: OrderedDict[str, Any] = OrderedDict()  # least recently used first, at most MAX_GRAMMARS
        self._snapshots: dict[str, _Snapshot] = {}
        self.prefix_dir: Path | None = None
        if persist_prefixes and prompt_cache == "role":
            self.prefix_dir = data_home() / "kv"
            stat = Path(self.model_path).stat()
            # The build's CPU features are part of the key: AVX2 and AVX-512 kernels round
            # differently, so a prefix evaluated by another build would not give the same answers.
            self._prefix_key = (f"{Path(self.model_path).name}:{stat.st_size}:{llama_cpp.__version__}:"
                                f"{n_ctx}:{system_info(llama_cpp).strip()}")
        self._lock = threading.Lock()
        self.closed = False
        self.usage: dict[str, Usage] = {}

    def _token_text(self, token: int) -> str:
        if token == -1:
            return ""
        return self._llm.detokenize([token], special=True).decode("utf-8", "replace")

    # --- the LLMBackend interface --------------------------------------------------------

    def complete(self, messages: list[Message], *, role: str, schema: dict[str, Any] | None = None,
                 temperature: float | None = None, max_tokens: int | None = None) -> Completion:
        """Answer `messages`; with `schema` (and grammar on) the output is JSON of that shape."""
        if self.closed:
            raise LLMError(f"the local model {self.model_name} was closed; create a new LocalBackend")
        started = time.perf_counter()
        formatted = self._formatter(messages=messages)
        tokens = self._llm.tokenize(formatted.prompt.encode("utf-8"),
                                    add_bos=not formatted.added_special, special=True)
        n_ctx = self._llm.n_ctx()
        # the answer may use what the context leaves, up to the limit; too little left is an error
        limit = min(max_tokens if max_tokens is not None else self.max_tokens, n_ctx - len(tokens))
        if limit < MIN_ANSWER_TOKENS:
            raise ContextOverflowError(f"prompt of {len(tokens)} tokens leaves {max(limit, 0)} answer tokens in the "
                           f"local model's context of {n_ctx} tokens (at least {MIN_ANSWER_TOKENS} needed)")
        grammar = self.grammar_for(schema) if schema is not None and self.grammar_enabled else None
        temperature = self.temperature if temperature is None else temperature
        with self._lock:
            cached = self._prepare_cache(tokens, self._static_prefix(messages, tokens))
            sampler = None
            if grammar is not None and self.grammar_last:
                sampler = GrammarLastSampler(self._llama_cpp, self._llm, grammar, seed=self.seed, temp=temperature)
                self._llm._init_sampler = lambda **_: sampler  # llama-cpp-python builds its sampler here
            try:
                response = self._llm.create_completion(
                    prompt=tokens, max_tokens=limit, temperature=temperature,
                    stop=formatted.stop, stopping_criteria=formatted.stopping_criteria,
                    grammar=grammar, seed=self.seed)
            except (ValueError, RuntimeError) as exc:
                raise LLMError(f"local model {self.model_name} failed: {exc}") from exc
            finally:
                if sampler is not None:
                    del self._llm._init_sampler  # back to the class's method
                    self._llm._sampler = None
                    sampler.close()
            if self.prompt_cache == "role":
                self._snapshots[role] = self._snapshot()
        assert isinstance(response, dict)  # not streaming
        choice = response["choices"][0]
        usage = Usage(prompt_tokens=int(response["usage"]["prompt_tokens"]),
                      completion_tokens=int(response["usage"]["completion_tokens"]),
                      calls=1, cached_prompt_tokens=cached)
        self.usage.setdefault(role, Usage()).add(usage)
        seconds = time.perf_counter() - started
        raw = {"finish_reason": choice.get("finish_reason"), "grammar": grammar is not None,
               "grammar_resampled": sampler.resampled if sampler is not None else None,
               "prompt_cache": self.prompt_cache, "id": response.get("id")}
        return Completion(text=choice["text"], usage=usage, model=self.name, seconds=seconds,
                          raw=raw, truncated=choice.get("finish_reason") == "length")

    # --- grammars -------------------------------------------------------------------------

    def grammar_for(self, schema: dict[str, Any]) -> Any:
        """The compiled LlamaGrammar of a JSON schema (compiled once per distinct schema; schemas name the document's
        element ids, so only the most recently used `MAX_GRAMMARS` are kept)."""
        key = json.dumps(schema, sort_keys=True, ensure_ascii=False)
        grammar = self._grammars.get(key)
        if grammar is not None:
            self._grammars.move_to_end(key)
        else:
            try:
                grammar = self._llama_cpp.LlamaGrammar.from_json_schema(
                    json.dumps(grammar_schema(schema), ensure_ascii=False), verbose=False)
            except (ValueError, KeyError, TypeError, RecursionError) as exc:
                raise LLMError(f"JSON schema cannot be turned into a grammar: {exc}") from exc
            self._grammars[key] = grammar
            while len(self._grammars) > MAX_GRAMMARS:
                self._grammars.popitem(last=False)
        return grammar

    # --- prompt cache ---------------------------------------------------------------------

    def _loaded_tokens(self) -> Any:
        return self._llm.input_ids[: self._llm.n_tokens]

    def _static_prefix(self, messages: list[Message], tokens: list[int]) -> int:
        """How many leading tokens of the prompt are the system message (0 without one)."""
        if self.prefix_dir is None or not messages or messages[0].get("role") != "system":
            return 0
        head = self._formatter(messages=[messages[0], {"role": "user", "content": ""}])
        head_tokens = self._llm.tokenize(head.prompt.encode("utf-8"), add_bos=not head.added_special, special=True)
        return min(_common_prefix(head_tokens, tokens), len(tokens) - 1)

    def _prepare_cache(self, tokens: list[int], static: int = 0) -> int:
        """Set up the KV cache for `tokens`; the number of prompt tokens it will not evaluate.
        `static`: length of the prompt's system-message prefix, loaded from or saved to disk."""
        if self.prompt_cache == "off":
            self._llm.reset()
            return 0
        reuse = _common_prefix(self._loaded_tokens(), tokens)
        evaluated_here = 0
        if self.prompt_cache == "role":
            best, best_len = None, reuse
            for snap in self._snapshots.values():
                n = _common_prefix(snap.tokens, tokens)
                if n > best_len:
                    best, best_len = snap, n
            if best_len < static:
                snap, fresh = self._saved_prefix(tokens[:static])
                if fresh:  # evaluated into the live cache just now: nothing to restore
                    best, reuse, evaluated_here = None, static, static
                else:
                    best, best_len = snap, static
            if best is not None:
                self._restore(best, keep=min(best_len, len(tokens) - 1))
                reuse = best_len
        # llama-cpp-python re-evaluates at least the last prompt token to get fresh logits
        return max(0, min(reuse, len(tokens) - 1) - evaluated_here)

    def _saved_prefix(self, prefix: list[int]) -> tuple[_Snapshot, bool]:
        """The KV snapshot of exactly `prefix`, read from disk (False), or evaluated now and written there (True)."""
        assert self.prefix_dir is not None
        digest = hashlib.sha256(f"{self._prefix_key}:{prefix}".encode()).hexdigest()[:32]
        path = self.prefix_dir / f"{digest}.kv"
        try:
            snap = _Snapshot.load(path)
            if snap.tokens == prefix:
                os.utime(path)  # most recently used
                return snap, False
        except (OSError, ValueError, KeyError):
            pass  # absent or unreadable: evaluate it again
        self._llm.reset()
        self._llm.eval(prefix)
        snap = self._snapshot()
        try:
            snap.save(path)
            self._prune_saved_prefixes()
        except OSError:
            pass  # a read-only cache directory costs speed, never correctness
        return snap, True

    def _prune_saved_prefixes(self) -> None:
        assert self.prefix_dir is not None
        files = sorted(((f.stat(), f) for f in self.prefix_dir.glob("*.kv")), key=lambda sf: sf[0].st_mtime, reverse=True)
        total = 0
        for stat, path in files:
            total += stat.st_size
            if total > MAX_SAVED_PREFIX_BYTES:
                path.unlink(missing_ok=True)

    def _snapshot(self) -> _Snapshot:
        """Copy sequence 0's KV cells (not logits) and the tokens they hold."""
        lc, ctx = self._llama_cpp, self._llm.ctx
        size = int(lc.llama_state_seq_get_size(ctx, 0))
        data = (ctypes.c_uint8 * size)()
        written = int(lc.llama_state_seq_get_data(ctx, data, size, 0))
        if written == 0 or written > size:
            raise LLMError(f"llama.cpp could not save the KV cache ({written} of {size} bytes)")
        return _Snapshot(tokens=self._loaded_tokens().tolist(), data=data, size=written)

    def _restore(self, snap: _Snapshot, *, keep: int) -> None:
        """Load `snap` into sequence 0 and keep only its first `keep` tokens."""
        lc, ctx = self._llama_cpp, self._llm.ctx
        if int(lc.llama_state_seq_set_data(ctx, snap.data, snap.size, 0)) == 0:
            raise LLMError("llama.cpp could not restore a saved KV cache")
        lc.llama_memory_seq_rm(lc.llama_get_memory(ctx), 0, keep, -1)
        self._llm.input_ids[:keep] = snap.tokens[:keep]
        self._llm.n_tokens = keep

    def clear_cache(self) -> None:
        """Forget the KV cache and every role snapshot."""
        with self._lock:
            self._snapshots.clear()
            self._llm.reset()

    # --- lifetime -------------------------------------------------------------------------

    def close(self) -> None:
        """Free the model and its context; later calls raise LLMError (llama.cpp would crash on the freed model)."""
        self._snapshots.clear()
        self._grammars.clear()
        self._llm.close()
        self.closed = True

    def __enter__(self) -> "LocalBackend":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def describe(self) -> str:
        """One line: which model, where from, threads and GPU offload."""
        gpu = "GPU offload" if self.gpu_offload else "CPU"
        return (f"local model {self.model_name} ({Path(self.model_path).name}, {gpu}, "
                f"{self.n_threads} threads)")


_SAFE_ESCAPES = {"\\.": "[.]", "\\d": "[0-9]", "\\-": "[-]"}


def grammar_schema(schema: Any) -> Any:
    """A copy of `schema` whose regex patterns llama.cpp's grammar converter can parse.

    The converter rejects backslash escapes in patterns (and llama.cpp then crashes on the broken
    grammar), so common escapes become character classes and any other escaped pattern is dropped:
    the grammar is then looser and the answer is still validated against the full schema.
    """
    if isinstance(schema, dict):
        out = {}
        for key, value in schema.items():
            if key == "pattern" and isinstance(value, str):
                for escape, cls in _SAFE_ESCAPES.items():
                    value = value.replace(escape, cls)
                if "\\" in value:
                    continue
            out[key] = grammar_schema(value)
        return out
    if isinstance(schema, list):
        return [grammar_schema(v) for v in schema]
    return schema
