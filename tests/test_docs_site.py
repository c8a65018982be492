"""The documentation site: ``mkdocs build --strict`` passes (the [docs] extra; skipped with a message without it,
failed instead when ``CI`` is set: .ci/run installs it), and the built site works from file:// in headless Chromium:
every link of the home page opens a page that exists (its anchor too), with no script error and nothing asked of the
network, and search answers."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest

from tests.browser import browser  # noqa: F401 - a fixture, imported by name
from tests.conftest import ROOT, _session_tmp

MISSING = ("the site's tests need MkDocs, Material for MkDocs and mkdocstrings, which are not installed; to run them: "
           "pip install -e '.[docs]' (what .ci/run does)")


def _require_mkdocs() -> None:
    if all(importlib.util.find_spec(m) for m in ("mkdocs", "material", "mkdocstrings_handlers.python")):
        return
    if os.environ.get("CI"):
        pytest.fail(f"CI is set, so the site's tests may not be skipped: {MISSING}")
    pytest.skip(MISSING)


@pytest.fixture(scope="session")
def built(tmp_path_factory) -> dict:
    """``mkdocs build --strict`` once for every worker: its exit status, output and site folder."""
    from filelock import FileLock

    _require_mkdocs()
    shared = _session_tmp(tmp_path_factory) / "docs-site"
    result = shared / "build.json"
    with FileLock(str(shared) + ".lock"):
        if not result.is_file():
            done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(shared / "site")],
                                  cwd=ROOT, capture_output=True, text=True, timeout=900,
                                  env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
            result.write_text(json.dumps({"returncode": done.returncode, "output": done.stdout + done.stderr}))
    return {**json.loads(result.read_text()), "site": shared / "site"}


def test_the_site_builds_in_strict_mode(built):
    assert built["returncode"] == 0, built["output"][-3000:]
    assert "WARNING" not in built["output"], built["output"][-3000:]
    site = built["site"]
    for page in ("index.html", "reference/cli.html", "reference/apis.html", "reference/python.html"):
        assert (site / page).is_file(), page
    python = (site / "reference" / "python.html").read_text(encoding="utf-8")
    assert "autodw.core.document.WordDocument" in python and "Open and validate" in python  # mkdocstrings rendered


def _target(url: str) -> tuple[Path, str]:
    parsed = urlparse(url)
    return Path(unquote(parsed.path)), unquote(parsed.fragment)


@pytest.mark.slow
def test_every_link_of_the_home_page_opens_from_file(built, browser):
    assert built["returncode"] == 0, built["output"][-3000:]
    home = (built["site"] / "index.html").as_uri()
    context = browser.new_context()
    page = context.new_page()
    page.set_default_timeout(120_000)  # a loaded machine (the API page is long)
    problems: list[str] = []
    page.on("pageerror", lambda error: problems.append(f"{page.url}: {error}"))
    page.on("console", lambda m: problems.append(f"{page.url}: {m.text}") if m.type == "error" else None)
    page.on("request", lambda r: problems.append(f"{page.url} asked the network for {r.url}")
            if not r.url.startswith(("file:", "data:", "blob:", "about:")) else None)
    page.goto(home)
    links = sorted(set(page.eval_on_selector_all("a[href]", "links => links.map(a => a.href)")))
    local = [url for url in links if url.startswith("file://")]
    assert len(local) > 25, links  # the navigation, the sections and the home page's own links
    for url in local:
        path, anchor = _target(url)
        assert path.is_file(), f"the home page links to {url}: no such file"
        page.goto(url)
        assert page.title(), url
        if anchor:
            assert page.locator(f"[id='{anchor}']").count() == 1, f"{url}: no element with id {anchor!r}"
    page.goto(home)
    page.keyboard.press("/")  # Material's search, from file:// (the offline plugin's search index)
    page.keyboard.type("redline")
    page.wait_for_selector(".md-search-result__item", timeout=30_000)
    assert page.locator(".md-search-result__item").count() > 0
    context.close()
    assert not problems, problems
