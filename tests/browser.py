"""Headless Chromium for the browser tests (the explorer's site, the documentation site): Debian's Chromium driven by
Playwright through ``executable_path`` (Playwright's own browser download is not used). Missing, a test is skipped
with a message; failed instead when ``CI`` is set (.ci/run installs both)."""

from __future__ import annotations

import os
import shutil
from typing import Iterator

import pytest

MISSING = ("the browser tests need Chromium and Playwright, which are not installed; to run them: "
           "apt-get install chromium and pip install -e '.[test]' (what .ci/run does)")


def chromium() -> str:
    """The Chromium executable (skips the test, or fails it under CI, when it or Playwright is missing)."""
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        path = None
    if path is None:
        if os.environ.get("CI"):
            pytest.fail(f"CI is set, so a browser test may not be skipped: {MISSING}")
        pytest.skip(MISSING)
    return path


@pytest.fixture(scope="module")
def browser() -> Iterator:
    """One headless Chromium per test module. Not per session: Playwright's sync API keeps an asyncio loop running
    in the main thread while it is open, and a later test that starts its own loop (the MCP server's, through anyio)
    would fail with "cannot be called from a running event loop" when the whole suite runs in one process."""
    executable = chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=executable)
        yield launched
        launched.close()
