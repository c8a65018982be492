"""User and model paths resolved inside the allowed folders (paths.resolve_inside; the MCP server and the file APIs)."""

from __future__ import annotations

import pytest

from autodw.core.errors import ArgumentError, ConfigError
from autodw.core.paths import resolve_inside


def test_a_relative_path_is_looked_up_in_each_folder_in_turn(tmp_path):
    first, second = tmp_path / "a", tmp_path / "b"
    first.mkdir()
    second.mkdir()
    (second / "logo.png").write_bytes(b"x")
    roots = [first.resolve(), second.resolve()]
    assert resolve_inside("logo.png", roots, must_exist=True, error=ArgumentError) == roots[1] / "logo.png"
    assert resolve_inside("new.pdf", roots, must_exist=False, error=ArgumentError) == roots[0] / "new.pdf"


@pytest.mark.parametrize("given, message", [
    ("../x.docx", "path '../x.docx' is outside the allowed folder ("),
    ("missing.docx", "path 'missing.docx' does not exist in the allowed folder ("),
    ("sub", "path 'sub' is a folder in the allowed folder ("),
    ("link.docx", "path 'link.docx' is outside the allowed folder ("),  # a symlink out of the folder
    ("bad\0name", "path 'bad\\x00name' is not a usable path"),
    ("x" * 5000, "more characters)' is not a usable path: File name too long"),
])
def test_refusals_are_the_callers_error_type_and_say_why(tmp_path, given, message):
    root = tmp_path / "root"
    (root / "sub").mkdir(parents=True)
    (tmp_path / "outside.docx").write_bytes(b"x")
    (root / "link.docx").symlink_to(tmp_path / "outside.docx")
    with pytest.raises(ConfigError) as caught:
        resolve_inside(given, [root.resolve()], must_exist=True, error=ConfigError, what="path")
    assert message in str(caught.value)
