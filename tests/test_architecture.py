"""The package's shape: one import name when installed, layers that run one way, no import cycles."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

from importlinter.cli import lint_imports

from tests.conftest import EXAMPLES, ROOT

OWNER_FOLDERS = ("apis", "intents", "dwbench", "eval")


def test_import_contracts_hold():
    """The import-linter contracts of pyproject.toml: layers one way, no cycles between siblings."""
    assert lint_imports(config_filename=str(ROOT / "pyproject.toml"), no_cache=True) == 0


def test_the_package_is_its_layers():
    """autodw/ holds its __init__.py and subpackages alone, and each subpackage is a layer of the first contract: a new
    module finds its layer, a new package is placed among the others."""
    import tomllib

    layers = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"][0]["layers"]
    named = {name.strip() for layer in layers for name in layer.replace("|", ":").split(":")}
    packages = {f"autodw.{p.parent.name}" for p in (ROOT / "autodw").glob("*/__init__.py")}
    assert sorted(p.name for p in (ROOT / "autodw").glob("*.py")) == ["__init__.py"]
    assert packages == named


def test_owner_folders_are_links_into_the_package():
    for name in OWNER_FOLDERS:
        link = ROOT / name
        assert link.is_symlink() and link.resolve() == (ROOT / "autodw" / name).resolve(), name


def _imported_names(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


def test_code_never_imports_the_root_links():
    """`apis`, `eval`, ... exist only as folders at the repository root: code imports `autodw.apis`."""
    offenders = []
    for folder in ("autodw", "scripts", "tests"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            bad = {n for n in _imported_names(path) if n.split(".")[0] in OWNER_FOLDERS}
            if bad:
                offenders.append(f"{path.relative_to(ROOT)}: {sorted(bad)}")
    assert not offenders, offenders


def test_wheel_installs_one_import_name_and_runs_from_anywhere(tmp_path):
    """`pip wheel .` then install into a fresh venv: site-packages gains only `autodw`, and the
    commands work from another directory (dependencies come from this environment by a .pth line)."""
    wheels = tmp_path / "wheels"
    had_build = (ROOT / "build").exists()
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "-w", str(wheels),
                    str(ROOT)], check=True, capture_output=True, text=True, timeout=300)
    if not had_build:  # setuptools builds in the source tree; leave it as it was
        shutil.rmtree(ROOT / "build", ignore_errors=True)
    (wheel,) = wheels.glob("autodw-*.whl")
    top = {name.split("/")[0] for name in zipfile.ZipFile(wheel).namelist()}
    assert {t for t in top if not t.endswith(".dist-info")} == {"autodw"}, top

    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    site = Path(subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               check=True, capture_output=True, text=True).stdout.strip())
    before = set(p.name for p in site.iterdir())
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-deps", str(wheel)],
                   check=True, capture_output=True, text=True, timeout=300)
    added = {p.name for p in site.iterdir()} - before
    assert {a for a in added if not a.endswith(".dist-info")} == {"autodw"}, added
    # the dependencies (not autodw: the editable install's .pth is not processed from a plain path line)
    (site / "deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    autodw = venv / "bin" / "autodw"
    where = subprocess.run([str(python), "-c", "import autodw.apis; print(autodw.apis.__file__)"], cwd=elsewhere,
                           check=True, capture_output=True, text=True).stdout
    assert where.startswith(str(site)), where
    apis = subprocess.run([str(autodw), "apis"], cwd=elsewhere, capture_output=True, text=True, timeout=120)
    assert apis.returncode == 0 and "insert_paragraph" in apis.stdout, apis.stderr
    state = subprocess.run([str(autodw), "state", str(EXAMPLES / "report.docx")], cwd=elsewhere, capture_output=True,
                           text=True, timeout=120)
    assert state.returncode == 0 and state.stdout.startswith("DOCUMENT:"), state.stderr


def test_the_catalogue_holds_one_module_per_intent():
    from autodw.apis.registry import INTENTS

    names = {p.stem for p in (ROOT / "autodw" / "apis" / "catalogue").glob("*.py")} - {"__init__"}
    assert names == set(INTENTS)


def test_no_undefined_or_unused_names():
    """pyflakes over the package, scripts and tests: an undefined name is a NameError waiting on a rare path (one
    was in `train-intents`' error message); a `# noqa` line (a fixture imported by name, an import for its side
    effect) is allowed, with the redefinitions its fixture causes."""
    from pyflakes import api, messages

    class Collect:
        def __init__(self) -> None:
            self.found: list[str] = []

        def unexpectedError(self, filename: str, msg: str) -> None:  # noqa: N802 (pyflakes' reporter protocol)
            self.found.append(f"{filename}: {msg}")

        def syntaxError(self, filename: str, msg: str, lineno: int, offset: int, text: str) -> None:  # noqa: N802
            self.found.append(f"{filename}:{lineno}: {msg}")

        def flake(self, message: messages.Message) -> None:
            lines = Path(message.filename).read_text(encoding="utf-8").splitlines()
            line = message.lineno
            if isinstance(message, messages.RedefinedWhileUnused):
                line = message.message_args[1]
            if "# noqa" not in lines[line - 1]:
                self.found.append(str(message))

    reporter = Collect()
    for folder in ("autodw", "scripts", "tests"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            api.check(path.read_text(encoding="utf-8"), str(path), reporter)
    assert reporter.found == []
