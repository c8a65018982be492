"""Rendering tests skip with instructions where LibreOffice is missing, and fail instead when CI is set."""

from __future__ import annotations

import shutil

import pytest

from tests import rendering


def test_missing_renderer_skips_with_how_to_install(monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda name: None)
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="apt-get install libreoffice-writer-nogui poppler-utils"):
        rendering.require_renderer()


def test_missing_renderer_fails_under_ci(monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda name: None)
    monkeypatch.setenv("CI", "1")
    with pytest.raises(pytest.fail.Exception, match="CI is set, so a rendering test may not be skipped"):
        rendering.require_renderer()


def test_present_renderer_is_returned(monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda name: f"/usr/bin/{name}")
    assert rendering.require_renderer() == "/usr/bin/soffice"
