"""A provider's limits against a fake endpoint: requests and tokens per minute, requests in flight, Retry-After in
both of its forms, timeouts, a server that dies, malformed answers; each failure that persists a typed error that says
how to continue."""

from __future__ import annotations

import email.utils
import threading
import time

import pytest

from autodw.core.errors import ConfigError, LLMConnectionError, MalformedResponseError
from autodw.llm.factory import make_llm
from autodw.llm.limits import Limiter, ProviderLimits, TokenBucket
from autodw.llm.openai_backend import OpenAIBackend
from tests.fake_openai import Reply, completion

MSGS = [{"role": "user", "content": "hi"}]
OK = Reply(200, completion('{"a": 1}'))


def backend(s, **options):
    return OpenAIBackend("fake-model", base_url=s.url, api_key="k", **{"max_retries": 2, "timeout": 10, **options})


class FakeClock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now

    def sleep(self, seconds):
        self.now += seconds


def test_the_request_bucket_lets_a_minutes_worth_through_then_spaces_them():
    clock = FakeClock()
    bucket = TokenBucket(60, clock, clock.sleep)
    assert [bucket.take(1) for _ in range(60)] == [0.0] * 60
    assert bucket.take(1) == pytest.approx(1.0)  # one a second from then on
    assert bucket.take(1) == pytest.approx(1.0) and clock.now == pytest.approx(2.0)


def test_the_token_bucket_charges_what_a_request_really_took():
    clock = FakeClock()
    limiter = Limiter(ProviderLimits(tpm=600), clock, clock.sleep)  # 10 tokens a second
    with limiter.request(100) as used:
        used(700)  # the answer was longer than estimated: 600 more tokens owed, more than the bucket held
    assert limiter.tokens.level == pytest.approx(-100)
    with limiter.request(100):
        pass
    assert clock.now == pytest.approx(20.0)  # waited for 200 tokens at 10 a second


def test_limits_are_checked_and_belong_to_an_endpoint(monkeypatch):
    for bad in ({"rpm": 0}, {"tpm": -5}, {"concurrency": 1.5}, {"rpm": float("nan")}):
        with pytest.raises(ConfigError):
            ProviderLimits(**bad)
    with pytest.raises(ConfigError, match="limit an LLM endpoint"):
        make_llm("local", limits=ProviderLimits(rpm=10))
    assert make_llm("openai:m", base_url="http://127.0.0.1:1/v1", limits=ProviderLimits(rpm=10)).limiter is not None
    assert make_llm("openai:m", base_url="http://127.0.0.1:1/v1", limits=ProviderLimits()).limiter is None


def test_no_more_requests_in_flight_than_the_concurrency_allows(server):
    s = server(then=lambda request: Reply(200, completion("{}"), delay=0.2))
    b = backend(s, limits=ProviderLimits(concurrency=2))
    threads = [threading.Thread(target=b.complete, args=(MSGS,), kwargs={"role": "planner"}) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(s.answered) == 6 and s.most_in_flight == 2


def test_requests_per_minute_are_kept_to(server):
    s = server(then=lambda request: OK)
    b = backend(s, limits=ProviderLimits(rpm=120))  # a minute's worth at once, then one every half second
    b.limiter.requests.level = 1
    start = time.monotonic()
    for _ in range(3):
        b.complete(MSGS, role="planner")
    assert time.monotonic() - start >= 0.9 and len(s.answered) == 3


@pytest.mark.parametrize("form", ["seconds", "http-date"])
def test_a_429_is_retried_after_the_time_retry_after_says(server, form):
    def retry_after():
        return "1" if form == "seconds" else email.utils.formatdate(time.time() + 2, usegmt=True)

    first = Reply(429, {"error": {"message": "slow down"}}, {"Retry-After": retry_after()})
    s = server([first, OK])
    start = time.monotonic()
    assert backend(s).complete(MSGS, role="planner").text == '{"a": 1}'
    assert time.monotonic() - start >= 0.9 and len(s.requests) == 2


def test_a_429_asking_for_longer_than_the_client_waits_stops_with_how_to_continue(server):
    s = server([Reply(429, {"error": {"message": "quota"}}, {"Retry-After": "3600"})])
    with pytest.raises(LLMConnectionError, match=r"rate limit \(HTTP 429\) and asks to wait '3600'.*lower --rpm.*"
                                                 r"run the same command again to continue"):
        backend(s).complete(MSGS, role="planner")
    assert len(s.requests) == 1  # not retried


def test_a_server_error_that_persists_stops_with_how_to_continue(server):
    s = server(then=lambda request: Reply(503, {"error": {"message": "down"}}))
    with pytest.raises(LLMConnectionError, match=r"kept failing \(HTTP 503\) after 1 retries.*run the same command"):
        backend(s, max_retries=1).complete(MSGS, role="planner")
    assert len(s.requests) == 2


def test_a_timeout_is_retried_then_stops_with_how_to_continue(server):
    s = server(then=lambda request: Reply(200, completion("{}"), delay=1.5))
    start = time.monotonic()
    with pytest.raises(LLMConnectionError, match=r"did not answer within 0.3 s, 2 times: raise AUTODW_LLM_TIMEOUT"):
        backend(s, timeout=0.3, max_retries=1).complete(MSGS, role="planner")
    assert time.monotonic() - start < 3 and len(s.requests) == 2


def test_a_server_that_dies_is_a_connection_error_until_it_is_back(server):
    s = server(then=lambda request: OK)
    b = backend(s, max_retries=0)
    assert b.complete(MSGS, role="planner").text == '{"a": 1}'
    s.close()
    with pytest.raises(LLMConnectionError, match="cannot reach the LLM endpoint.*when it is back, run the same command"):
        b.complete(MSGS, role="planner")
    s.restart()
    assert b.complete(MSGS, role="planner").text == '{"a": 1}'


@pytest.mark.parametrize("body", [b"<html>Bad gateway</html>", {"id": "x"}, {"choices": []},
                                  {"choices": [{"message": None}]}, {"choices": [{"message": {"content": 5}}]}])
def test_a_malformed_answer_is_the_endpoints_fault_not_ours(server, body):
    s = server([Reply(200, body)])
    with pytest.raises(MalformedResponseError, match="check --base-url, then run the same command again"):
        backend(s, max_retries=0).complete(MSGS, role="planner")
