"""The MCP server under fuzzed JSON-RPC over stdio and HTTP, and two clients editing one document at once."""

from __future__ import annotations

import pytest

from tests.fuzz.conftest import bounded_run
from tests.fuzz.draw import RandomDraw
from tests.fuzz.mcp import McpHarness, check_answer, messages, two_clients
from tests.fuzz.outcome import Crash


@pytest.fixture
def harness(tmp_path):
    h = McpHarness(tmp_path)
    yield h
    h.close()


def test_bounded_run_over_stdio_and_http(harness):
    results = bounded_run(harness.one, "mcp", cpu_seconds=2, most=6, least=4)
    http = [m for m in (messages(RandomDraw("mcp:http"), harness.outside),)]
    results.append(harness.check({"http": True, "messages": http[0]}))
    assert {r["outcome"] for r in results} >= {"stdio:answers", "http:answers"}


def test_an_answer_reporting_an_internal_error_is_a_crash():
    with pytest.raises(Crash, match="internal"):
        check_answer({"jsonrpc": "2.0", "id": 1, "result": {"content": [{"type": "text", "text": "internal error in "
                                                                                                "autodw: KeyError"}]}})


def test_two_clients_editing_one_document_lose_no_edit_and_undo_takes_back_the_last(tmp_path):
    seen = two_clients(tmp_path, edits=4)
    assert seen["edits"] == 8 and seen["last"]
