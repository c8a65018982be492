"""The README's two set-up commands stay true: CI runs the test command, the CLI knows the main job's flags."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _setup_commands() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Set-up", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```sh\n(.+?)\n```", section, flags=re.S)


def test_readme_gives_exactly_two_setup_commands() -> None:
    commands = _setup_commands()
    assert len(commands) == 2, commands
    assert all("\n" not in c for c in commands)


def test_ci_runs_the_readme_test_command_verbatim() -> None:
    test_command = _setup_commands()[1]
    ci_lines = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert test_command in ci_lines
    assert "pytest" in test_command


def test_main_job_runs_the_agent_on_a_shipped_sample() -> None:
    main = _setup_commands()[0]
    match = re.search(r"autodw run (\S+)", main)
    assert match, main
    assert (ROOT / match.group(1)).is_file()
    assert "scripts/install_local.sh" in main and (ROOT / "scripts" / "install_local.sh").is_file()
    assert "--llm" not in main  # the embedded default backend
