"""The README stays a front page and stays true: at most 250 lines and 20 KB; its two set-up commands (CI runs the
test command, the CLI knows the main job's flags); every command and option it names exists; every file it links
to is there."""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _setup_commands() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Set-up", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```sh\n(.+?)\n```", section, flags=re.S)


README_LINES, README_BYTES = 250, 20_000


def test_readme_is_a_front_page() -> None:
    data = (ROOT / "README.md").read_bytes()
    assert len(data.splitlines()) <= README_LINES and len(data) <= README_BYTES, \
        f"README.md has {len(data.splitlines())} lines and {len(data)} bytes: at most {README_LINES} and {README_BYTES}; " \
        "details go to the site (docs/), results to the results page"


def _named_commands() -> tuple[list[list[str]], list[list[str]]]:
    """The ``autodw ...`` commands the README gives: whole lines of its ``sh`` blocks (each part of a ``&&`` chain),
    and inline code spans (a mention may leave arguments out); each as its words, environment settings dropped."""
    import shlex

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```sh\n(.+?)\n```", text, flags=re.S)
    lines = [part.strip() for block in blocks for line in block.splitlines() for part in line.split("&&")]
    spans = re.findall(r"(?<!`)`([^`\n]+)`(?!`)", re.sub(r"```.+?```", "", text, flags=re.S))

    def words(command: str) -> list[str]:
        if not re.match(r"(?:[A-Z_]+=\S*\s+)*autodw\s", command):
            return []
        found = shlex.split(command)
        while found and re.fullmatch(r"[A-Z_]+=\S*", found[0]):
            found.pop(0)
        return found if found[:1] == ["autodw"] else []

    return [w for w in map(words, lines) if w], [w for w in map(words, spans) if w and "..." not in w]


def test_every_command_the_readme_gives_runs_as_written() -> None:
    from autodw.interfaces.cli import build_parser

    whole, _ = _named_commands()
    assert len(whole) >= 8, whole
    for command in whole:
        try:
            build_parser().parse_args(command[1:])
        except SystemExit:
            raise AssertionError(f"the README gives a command the CLI refuses: {' '.join(command)}") from None


def test_every_command_and_option_the_readme_names_exists() -> None:
    from autodw.interfaces.cli import build_parser
    from autodw.interfaces.reference_pages import arguments, commands

    known = {words: sub for words, _, sub in commands(build_parser())}
    whole, spans = _named_commands()
    assert len(spans) >= 5, spans
    for command in whole + spans:
        path = next(tuple(command[:n]) for n in range(len(command), 0, -1) if tuple(command[:n]) in known)
        options = {o for a in arguments(known[path]) for o in a.option_strings}
        unknown = [w.split("=")[0] for w in command[len(path):] if w.startswith("-") and w.split("=")[0] not in options]
        group = any(isinstance(a, argparse._SubParsersAction) for a in known[path]._actions)  # needs a subcommand
        assert len(path) > 1 and not group and not unknown, \
            f"the README names {' '.join(command)}: {unknown or 'no such command'}"


def test_every_file_the_readme_links_to_is_there() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    targets = [t.split("#")[0] for t in re.findall(r"\]\(([^)]+)\)", text) if not t.startswith(("http", "#"))]
    assert len(targets) > 20 and not [t for t in targets if not (ROOT / t).exists()], targets


def test_the_site_home_gives_the_readme_install_command() -> None:
    assert _setup_commands()[0] in (ROOT / "docs" / "index.md").read_text(encoding="utf-8")


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


FAKE_PYTHON = """#!/bin/sh
# Stands in for the venv's python in scripts/install_local.sh: records each call; builds an empty wheel instead of
# compiling llama-cpp-python; runs `-m autodw.interfaces.cli ...` with the real interpreter; swallows everything else.
echo "$*" >> "$AUTODW_TEST_LOG"
if [ "$1 $2" = "-m autodw.interfaces.cli" ]; then exec "$AUTODW_TEST_REAL_PYTHON" "$@"; fi
if [ "$1 $2 $3" = "-m pip wheel" ]; then
  while [ "$#" -gt 0 ]; do [ "$1" = "-w" ] && touch "$2/llama_cpp_python-0.3.36-cp3-none-any.whl"; shift; done
fi
[ "$1" = "-" ] && cat > /dev/null
exit 0
"""


def test_first_command_runs_its_steps_minus_the_llama_build(tmp_path, tiny_intent_model, monkeypatch, capsys):
    """The README's first command step by step: the torch pin is the project's; scripts/install_local.sh runs with
    the llama-cpp-python build and the package installs faked (a stand-in python), its last step (the intent
    classifier) for real; then the exact `autodw run` arguments, with the LLM replayed from a scripted session
    instead of the local model."""
    import os
    import shlex
    import shutil
    import stat
    import subprocess
    import sys
    import tomllib

    from autodw.agent.build import make_agent
    from autodw.interfaces.cli import main
    from autodw.core.document import WordDocument
    from autodw.intents.classifier import IntentClassifier
    from autodw.llm.replay import RecordingBackend
    from autodw.llm.scripted import ScriptedBackend
    from autodw.analysis.state import extract_state
    from tests.test_agent import DONE, PASS, plan

    steps = [s.strip() for s in _setup_commands()[0].split("&&")]
    assert steps[:2] == ["python3 -m venv .venv", ". .venv/bin/activate"] and steps[3] == "sh scripts/install_local.sh", steps
    torch_pin = steps[2].removeprefix("pip install ")
    assert torch_pin in tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]

    home, bin_dir, log = tmp_path / "home", tmp_path / "bin", tmp_path / "calls.log"
    shutil.copytree(tiny_intent_model.path, home / "intents" / "model")
    bin_dir.mkdir()
    for tool, text in (("python", FAKE_PYTHON), ("cc", "#!/bin/sh\n"), ("c++", "#!/bin/sh\n"), ("cmake", "#!/bin/sh\n")):
        (bin_dir / tool).write_text(text)
        (bin_dir / tool).chmod(stat.S_IRWXU)
    env = {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}", "AUTODW_HOME": str(home), "AUTODW_WHEELHOUSE": str(tmp_path / "wheels"),
           "AUTODW_TEST_LOG": str(log), "AUTODW_TEST_REAL_PYTHON": sys.executable}
    env.pop("PYTHON", None)
    done = subprocess.run(steps[3].split(), cwd=ROOT, env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    calls = log.read_text().splitlines()
    assert [c.split()[:3] for c in calls] == [["-m", "pip", "wheel"], ["-m", "pip", "install"], ["-m", "pip", "install"], ["-"],
                                              ["-m", "autodw.interfaces.cli", "train-intents"]], calls
    assert calls[-1].endswith("--if-missing") and "intent classifier already trained" in done.stdout

    argv = shlex.split(steps[4])
    assert argv[:2] == ["autodw", "run"] and (ROOT / argv[2]).is_file()
    out = tmp_path / "report-edited.docx"
    argv[argv.index("-o") + 1] = str(out)
    monkeypatch.setenv("AUTODW_HOME", str(home))
    monkeypatch.chdir(ROOT)
    instruction = argv[argv.index("-i") + 1]
    script = {"planner": [plan(instruction), DONE],
              "api_generator": [{"api": "set_text_format", "args": {"paragraphs": ["p1"], "color": "0000FF"}}],
              "validator": [PASS]}
    cassette = tmp_path / "readme.cassette.jsonl"
    recorder = RecordingBackend(ScriptedBackend(script), cassette)
    make_agent(recorder, classifier=IntentClassifier.load(home / "intents" / "model")).run(WordDocument.open(argv[2]), [instruction])
    recorder.close()
    assert main(argv[1:] + ["--llm", f"replay:{cassette}"]) == 0, capsys.readouterr()
    title = extract_state(WordDocument.open(out))["paragraphs"][0]
    assert title["id"] == "p1" and "0000FF" in json.dumps(title).upper(), title
