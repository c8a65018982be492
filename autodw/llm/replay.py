"""Record every request/response of a run to a cassette file, and replay a cassette exactly.

A cassette is JSON Lines: one ``{"key", "role", "request", "response"}`` per call. The key is a
hash of what the model was asked (role, messages, schema, temperature, max_tokens), so a replayed
run must ask the very same things; identical requests are answered in recorded order. A request
that is not in the cassette raises ReplayMissError naming the closest recorded one.

An agent that records writes its configuration first, as a ``{"cassette": {"llm", "profile", "config"}}``
line (``config``: the agent's assembly, :mod:`autodw.agent.assembly`; in cassettes recorded before it, the flat
settings it is rebuilt from); the replay backend declares that profile and hands the agent that configuration, so a
replay runs with exactly the recorded parts, settings and prompts.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
from collections import defaultdict, deque
from difflib import SequenceMatcher
from pathlib import Path
from typing import Any

from autodw.core.errors import ConfigError, ReplayMissError
from autodw.core.package import read_text_input
from autodw.llm.base import Completion, LLMBackend, Message, Usage


def request_key(role: str, messages: list[Message], schema: dict[str, Any] | None, temperature: float | None,
                max_tokens: int | None) -> str:
    """A stable hash of one request."""
    payload = json.dumps({"role": role, "messages": messages, "schema": schema, "temperature": temperature,
                          "max_tokens": max_tokens}, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(payload.encode()).hexdigest()


class RecordingBackend:
    """Wraps a backend and appends each exchange to a cassette (flushed per call, so a crash keeps what ran)."""

    def __init__(self, inner: LLMBackend, path: str | os.PathLike[str]):
        self.inner = inner
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._fh = self.path.open("w", encoding="utf-8")
        self.name = f"record({inner.name})"
        self.profile = getattr(inner, "profile", None)
        self.config: dict[str, Any] | None = None

    def record_config(self, config: dict[str, Any]) -> None:
        """Write the agent configuration of the recorded run as the cassette's first line (once: a cassette records
        one configuration; ConfigError if asked to record another, or after the first exchange)."""
        if self.config is not None:
            if config != self.config:
                raise ConfigError(f"the cassette {self.path.name} already records another agent configuration")
            return
        if self._fh.tell():
            raise ConfigError(f"the cassette {self.path.name} already holds exchanges; its configuration comes first")
        self.config = config
        header = {"llm": self.inner.name, "profile": config.get("profile"), "config": config}
        self._fh.write(json.dumps({"cassette": header}, ensure_ascii=False) + "\n")
        self._fh.flush()

    def complete(self, messages: list[Message], *, role: str, schema: dict[str, Any] | None = None,
                 temperature: float | None = None, max_tokens: int | None = None) -> Completion:
        """The inner backend's answer, written to the cassette as it comes."""
        result = self.inner.complete(messages, role=role, schema=schema, temperature=temperature, max_tokens=max_tokens)
        entry = {"key": request_key(role, messages, schema, temperature, max_tokens), "role": role,
                 "request": {"messages": messages, "schema": schema, "temperature": temperature, "max_tokens": max_tokens},
                 "response": _stored(result)}
        self._fh.write(json.dumps(entry, ensure_ascii=False) + "\n")
        self._fh.flush()
        return result

    def close(self) -> None:
        """Close the cassette."""
        self._fh.close()


def _stored(result: Completion) -> dict[str, Any]:
    """A completion as a cassette keeps it."""
    response = {"text": result.text, "usage": result.usage.to_dict(), "model": result.model, "seconds": result.seconds}
    if result.truncated:
        response["truncated"] = True
    return response


def _recalled(response: dict[str, Any], **raw: bool) -> Completion:
    """A kept completion as an answer (it costs no time now; its recorded usage and seconds are reported)."""
    u = response.get("usage", {})
    usage = Usage(u.get("prompt_tokens", 0), u.get("completion_tokens", 0), 1, u.get("cached_prompt_tokens", 0),
                  float(response.get("seconds") or 0.0))
    return Completion(response["text"], usage, model=response.get("model", ""), seconds=0.0, raw=raw,
                      truncated=bool(response.get("truncated", False)))


class ReplayBackend:
    """Answers from a cassette; never contacts a model."""

    def __init__(self, path: str | os.PathLike[str]):
        self.path = Path(path)
        if not self.path.exists():
            raise ConfigError(f"replay cassette {self.path} does not exist")
        text = read_text_input(self.path, "a cassette (JSON lines)")
        self.name = f"replay:{self.path.name}"
        #: the profile and agent configuration of the recorded run (None if the cassette was recorded without an agent)
        self.profile: str | None = None
        self.recorded_config: dict[str, Any] | None = None
        self._answers: dict[str, deque] = defaultdict(deque)
        self._requests: list[tuple[str, dict[str, Any]]] = []
        for n, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                entry = json.loads(line)
                if "cassette" in entry:
                    self.profile, self.recorded_config = entry["cassette"]["profile"], entry["cassette"]["config"]
                    continue
                self._answers[entry["key"]].append(entry["response"])
                self._requests.append((entry["role"], entry["request"]))
            except (json.JSONDecodeError, KeyError, TypeError) as exc:
                raise ConfigError(f"{self.path}:{n} is not a cassette entry: {exc}") from None

    def complete(self, messages: list[Message], *, role: str, schema: dict[str, Any] | None = None,
                 temperature: float | None = None, max_tokens: int | None = None) -> Completion:
        """The recorded answer to this request (answers to the same request in recorded order); ReplayMissError for
        a request the cassette does not hold."""
        key = request_key(role, messages, schema, temperature, max_tokens)
        queue = self._answers.get(key)
        if not queue:
            raise ReplayMissError(self._miss_message(role, messages))
        return _recalled(queue.popleft(), replayed=True)

    def _miss_message(self, role: str, messages: list[Message]) -> str:
        asked = messages[-1]["content"] if messages else ""
        same_role = [r for r in self._requests if r[0] == role]
        if not same_role:
            return f"the cassette {self.path.name} has no {role} request at all"
        best = max(same_role, key=lambda r: SequenceMatcher(None, r[1]["messages"][-1]["content"][:2000], asked[:2000]).ratio())
        recorded = best[1]["messages"][-1]["content"]
        i = next((k for k, (a, b) in enumerate(zip(recorded, asked)) if a != b), min(len(recorded), len(asked)))
        return (f"the cassette {self.path.name} has no recorded answer for this {role} request; the closest recorded "
                f"one differs from character {i}: recorded {recorded[i:i + 80]!r}, asked {asked[i:i + 80]!r}")


class MemoBackend:
    """Wraps a backend with a cache in cassette format: a request asked before (same key) gets the first recorded
    answer, a new one is asked of the inner backend and appended. Runs that share the file (the threshold sweep) ask
    the model only what no run asked before. The recorded token usage is reported for a cached answer too, so the
    cost of a run does not depend on what the cache held; ``raw["cached"]`` says which answers came from it."""

    def __init__(self, inner: LLMBackend, path: str | os.PathLike[str]):
        self.inner, self.path = inner, Path(path)
        self.name, self.profile = inner.name, getattr(inner, "profile", None)
        self._known: dict[str, dict[str, Any]] = {}
        self._lock = threading.Lock()  # runs with --workers share one cache
        lines = read_text_input(self.path, "an LLM cache (JSON lines)").splitlines() if self.path.exists() else []
        for n, line in enumerate(lines, 1):
            try:
                entry = json.loads(line)
            except json.JSONDecodeError:
                if n == len(lines):  # a line cut by a kill: dropped (that request is asked again)
                    self.path.write_text("".join(f"{ln}\n" for ln in lines[:-1]), encoding="utf-8")
                    continue
                raise ConfigError(f"{self.path}:{n} is not a cache entry") from None
            if "key" in entry:
                self._known.setdefault(entry["key"], entry["response"])
        self.path.parent.mkdir(parents=True, exist_ok=True)

    def complete(self, messages: list[Message], *, role: str, schema: dict[str, Any] | None = None,
                 temperature: float | None = None, max_tokens: int | None = None) -> Completion:
        """The answer stored for this request, else the inner backend's (then stored); a recalled answer keeps the
        tokens and seconds it took when first asked."""
        key = request_key(role, messages, schema, temperature, max_tokens)
        known = self._known.get(key)
        if known is not None:
            return _recalled(known, cached=True)
        result = self.inner.complete(messages, role=role, schema=schema, temperature=temperature, max_tokens=max_tokens)
        response = _stored(result)
        with self._lock:
            self._known[key] = response
            with self.path.open("a", encoding="utf-8") as fh:
                fh.write(json.dumps({"key": key, "role": role, "response": response}, ensure_ascii=False) + "\n")
        return result
