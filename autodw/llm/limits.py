"""A provider's limits, kept on our side: requests and tokens per minute (token buckets) and requests in flight.

Retries are not here: the ``openai`` client retries 408, 409, 429, 5xx, timeouts and lost connections itself, with
exponential backoff and jitter, and waits as long as a ``Retry-After`` (or ``retry-after-ms``) header says, in
seconds or as an HTTP date, up to two minutes (a longer wait it does not retry; :mod:`autodw.llm.openai_backend`
says so). What the client cannot know is the provider's per-minute quota before it is hit: :class:`Limiter` spaces
the requests so that they stay under it, and caps how many are in flight at once.
"""

from __future__ import annotations

import math
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Callable, Iterator

from autodw.core.errors import ConfigError


@dataclass(frozen=True)
class ProviderLimits:
    """What a provider allows: requests per minute (`rpm`), tokens per minute (`tpm`: prompt and completion tokens)
    and requests in flight at once (`concurrency`); None: no limit kept on our side."""

    rpm: float | None = None
    tpm: float | None = None
    concurrency: int | None = None

    def __post_init__(self) -> None:
        for name in ("rpm", "tpm", "concurrency"):
            value = getattr(self, name)
            if value is not None and not (isinstance(value, (int, float)) and math.isfinite(value) and value > 0):
                raise ConfigError(f"--{name} must be a positive number, not {value!r}")
        if self.concurrency is not None and self.concurrency != int(self.concurrency):
            raise ConfigError(f"--concurrency must be a whole number, not {self.concurrency!r}")

    @property
    def any(self) -> bool:
        """Whether any limit is set."""
        return any(v is not None for v in (self.rpm, self.tpm, self.concurrency))


class TokenBucket:
    """`per_minute` units a minute, refilled continuously, holding at most a minute's worth. `take` waits until the
    units are there (a request larger than the bucket waits for a full bucket); `charge` takes units after the fact
    (the bucket may go below zero: later takes wait for it)."""

    def __init__(self, per_minute: float, clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], None] = time.sleep):
        self.capacity = float(per_minute)
        self.rate = per_minute / 60.0  # per second
        self.level = self.capacity
        self._clock, self._sleep = clock, sleep
        self._last = clock()
        self._lock = threading.Lock()

    def _refill(self) -> None:
        now = self._clock()
        self.level = min(self.capacity, self.level + (now - self._last) * self.rate)
        self._last = now

    def take(self, amount: float) -> float:
        """Take `amount` units (at most the bucket's capacity), waiting as long as needed; the seconds waited."""
        amount = min(float(amount), self.capacity)
        waited = 0.0
        while True:
            with self._lock:
                self._refill()
                if self.level >= amount:
                    self.level -= amount
                    return waited
                wait = (amount - self.level) / self.rate
            self._sleep(wait)
            waited += wait

    def charge(self, amount: float) -> None:
        """Take `amount` more units now (negative: give them back), without waiting."""
        with self._lock:
            self._refill()
            self.level = min(self.capacity, self.level - amount)


class Limiter:
    """Keeps a backend's requests within :class:`ProviderLimits`; shared by every thread of a run."""

    def __init__(self, limits: ProviderLimits, clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], None] = time.sleep):
        self.limits = limits
        self.requests = TokenBucket(limits.rpm, clock, sleep) if limits.rpm else None
        self.tokens = TokenBucket(limits.tpm, clock, sleep) if limits.tpm else None
        self._in_flight = threading.BoundedSemaphore(int(limits.concurrency)) if limits.concurrency else None

    @contextmanager
    def request(self, estimated_tokens: int) -> Iterator[Callable[[int], None]]:
        """Hold one request's place: a slot in flight, one request and `estimated_tokens` tokens from the buckets.
        Yields `used(tokens)`, to be called with the tokens the request really took (the difference is charged)."""
        if self._in_flight is not None:
            self._in_flight.acquire()
        try:
            if self.requests is not None:
                self.requests.take(1)
            if self.tokens is not None:
                self.tokens.take(estimated_tokens)

            def used(tokens: int) -> None:
                if self.tokens is not None:
                    self.tokens.charge(tokens - min(estimated_tokens, self.tokens.capacity))

            yield used
        finally:
            if self._in_flight is not None:
                self._in_flight.release()
