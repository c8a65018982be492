"""The intent model: training (on a tiny random BERT, once per session), the ONNX model folder, the classifier
API without torch, converting an old torch folder, and the CLI."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from autodw.interfaces.cli import main
from autodw.core.errors import ConfigError
from autodw.intents.labels import INTENTS
from tests.conftest import TINY_TRAINING

PROBES = ["Make the table header bold", "把文档导出为PDF", "Insert a page break after paragraph 2", "删除第三张图片"]


def _torch_net(backbone: Path, seed: int = 0):
    """The tiny backbone with a random head, and its tokenizer."""
    import torch

    from autodw.intents.backbone import load_backbone
    from autodw.intents.model import IntentNet

    encoder, tokenizer = load_backbone(str(backbone))
    torch.manual_seed(seed)
    return IntentNet(encoder, len(INTENTS)).eval(), tokenizer


def _torch_probabilities(net, tokenizer, texts, prefix=""):
    import torch

    batch = tokenizer([prefix + t for t in texts], padding=True, truncation=True, max_length=64, return_tensors="pt")
    with torch.inference_mode():
        return torch.softmax(net(batch["input_ids"], batch["attention_mask"]), dim=-1).numpy()


def test_training_through_the_cli(tiny_intent_model):
    meta = json.loads((tiny_intent_model.path / "intents_meta.json").read_text())
    assert meta["labels"] == list(INTENTS) and meta["format_version"] == 2
    training = meta["training"]
    assert training["n_train"] == TINY_TRAINING["max_train"] and training["frozen_layers"] == 1
    assert len(training["history"]) == 1 and np.isfinite(training["history"][0]["train_loss"])
    assert meta["metrics"]["test"]["n"] == TINY_TRAINING["max_eval"]
    for needle in ("== validation ==", "== test ==", "precision", "recall", "confusion matrix", "top-3 recall", "model saved to"):
        assert needle in tiny_intent_model.printed
    assert not (tiny_intent_model.path / "head.safetensors").exists()  # no torch weights: inference is ONNX


def test_saved_model_predicts_what_the_torch_network_does(tiny_backbone, tmp_path):
    from autodw.intents.classifier import IntentClassifier
    from autodw.intents.model import save_model
    from autodw.intents.model_files import Q4_EMBEDDINGS_FILE, ModelMeta

    net, tokenizer = _torch_net(tiny_backbone)
    path = save_model(net, tokenizer, ModelMeta(labels=list(INTENTS), backbone="tiny", text_prefix="query: "), tmp_path / "m")
    assert (path / Q4_EMBEDDINGS_FILE).is_file()  # the table is on the 4-bit grid: stored packed, lossless
    clf = IntentClassifier.load(path)
    table = net.encoder.get_input_embeddings().weight.detach().numpy()
    ids = np.array([[0, 5, 250036], [17, 1, 2]])
    assert np.array_equal(clf.embeddings.lookup(ids), table[ids])
    expected = _torch_probabilities(net, tokenizer, PROBES, "query: ")
    np.testing.assert_allclose(clf.probabilities(PROBES), expected, rtol=0, atol=1e-5)
    assert clf.predict_batch(PROBES) == [[(INTENTS[j], pytest.approx(float(row[j]), abs=1e-5)) for j in np.argsort(-row, kind="stable")[:3]]
                                         for row in expected]


def test_a_table_off_the_4bit_grid_is_saved_as_it_is(tiny_backbone, tmp_path):
    import torch

    from autodw.intents.classifier import IntentClassifier
    from autodw.intents.model import save_model
    from autodw.intents.model_files import F32_EMBEDDINGS_FILE, Q4_EMBEDDINGS_FILE, ModelMeta

    net, tokenizer = _torch_net(tiny_backbone)
    with torch.no_grad():
        net.encoder.get_input_embeddings().weight[5, 3] += 1e-3
    path = save_model(net, tokenizer, ModelMeta(labels=list(INTENTS), backbone="tiny"), tmp_path / "plain")
    assert (path / F32_EMBEDDINGS_FILE).is_file() and not (path / Q4_EMBEDDINGS_FILE).exists()
    np.testing.assert_allclose(IntentClassifier.load(path).probabilities(PROBES), _torch_probabilities(net, tokenizer, PROBES),
                               rtol=0, atol=1e-5)


def test_an_old_format_folder_is_converted_once_with_a_message(tiny_backbone, tmp_path, capsys):
    """Format 1 (transformers safetensors + head.safetensors, torch only) becomes the ONNX folder, same predictions."""
    from dataclasses import asdict

    from safetensors.torch import save_file

    from autodw.intents.classifier import load_or_train
    from autodw.intents.model_files import ModelMeta, model_format

    net, tokenizer = _torch_net(tiny_backbone, seed=3)
    old = tmp_path / "old"
    net.encoder.save_pretrained(old)
    tokenizer.save_pretrained(old)
    save_file({k: v.contiguous() for k, v in net.head.state_dict().items()}, str(old / "head.safetensors"))
    meta = asdict(ModelMeta(labels=list(INTENTS), backbone="tiny", text_prefix="query: ", format_version=1))
    (old / "intents_meta.json").write_text(json.dumps(meta))
    assert model_format(old) == 1
    clf = load_or_train(old)
    assert "old format; converting it once" in capsys.readouterr().err
    assert model_format(old) == 2 and not (old / "head.safetensors").exists()
    np.testing.assert_allclose(clf.probabilities(PROBES), _torch_probabilities(net, tokenizer, PROBES, "query: "), rtol=0, atol=1e-5)


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


def test_predict_shape(tiny_intent_model):
    from autodw.intents.classifier import IntentClassifier

    clf = IntentClassifier.load(tiny_intent_model.path)
    top = clf.predict("Set the page margins to 2 cm", k=3)
    assert len(top) == 3 and all(name in INTENTS for name, _ in top)
    probs = [p for _, p in top]
    assert probs == sorted(probs, reverse=True) and 0 < sum(probs) <= 1.0 + 1e-6
    assert len(clf.predict("x", k=20)) == len(INTENTS)
    batch = clf.predict_batch(PROBES, k=2)
    assert [len(b) for b in batch] == [2] * len(PROBES)
    assert clf.predict_batch([], k=3) == []
    np.testing.assert_allclose(clf.probabilities(PROBES).sum(axis=1), 1.0, atol=1e-5)


def test_classifying_never_imports_torch(tiny_intent_model):
    code = ("import sys; from autodw.intents.classifier import IntentClassifier; "
            f"c = IntentClassifier.load({str(tiny_intent_model.path)!r}); c.predict('Save the file'); "
            "print(sorted(m for m in ('torch', 'transformers') if m in sys.modules))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"


@pytest.mark.slow
def test_training_is_reproducible(tiny_backbone, tiny_intent_model, tmp_path):
    from autodw.intents.classifier import IntentClassifier
    from autodw.intents.train import TrainConfig, train

    again = train(TrainConfig(backbone=str(tiny_backbone), epochs=1, seed=13, **TINY_TRAINING), tmp_path / "again", progress=False)
    np.testing.assert_allclose(IntentClassifier.load(again.path).probabilities(PROBES),
                               IntentClassifier.load(tiny_intent_model.path).probabilities(PROBES), atol=1e-6)


def test_load_errors(tmp_path):
    from autodw.intents.classifier import IntentClassifier, load_or_train
    from autodw.intents.model import save_model
    from autodw.intents.model_files import ModelMeta

    with pytest.raises(ConfigError):
        IntentClassifier.load(tmp_path / "nothing-here")
    with pytest.raises(ConfigError):
        IntentClassifier.load(tmp_path)  # a folder, but not a model
    with pytest.raises(ConfigError, match="run `autodw train-intents"):
        load_or_train(tmp_path / "missing", train_missing=False)
    (tmp_path / "keep.txt").write_text("user file")
    with pytest.raises(ConfigError):
        save_model(None, None, ModelMeta(labels=list(INTENTS), backbone="x"), tmp_path)  # type: ignore[arg-type]
    assert (tmp_path / "keep.txt").exists()


def test_cli_intents_json(tiny_intent_model, capsys):
    assert main(["intents", "把表头加粗", "--format", "json", "--model", str(tiny_intent_model.path)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) <= {"intents", "apis", "apis_note"}
    assert len(out["intents"]) == 3
    assert all(set(item) == {"intent", "probability"} and item["intent"] in INTENTS for item in out["intents"])
    probs = [item["probability"] for item in out["intents"]]
    assert probs == sorted(probs, reverse=True)
    from autodw import apis

    registry = apis.registry()
    expected = [s.name for item in out["intents"] for s in registry.by_intent(item["intent"])]
    assert out["apis"] == list(dict.fromkeys(expected))


def test_cli_intents_text_and_errors(tiny_intent_model, capsys, tmp_path):
    assert main(["intents", "Save the document as report.pdf", "--model", str(tiny_intent_model.path)]) == 0
    text = capsys.readouterr().out
    assert text.count("%") == 3 and "candidate APIs" in text
    assert main(["intents", "Save it", "--model", str(tmp_path / "missing")]) == 2
    assert capsys.readouterr().err.startswith("error: ")
    assert main(["intents", "   ", "--model", str(tiny_intent_model.path)]) == 2


def test_cli_train_intents_rejects_a_missing_backbone(tmp_path, capsys):
    assert main(["train-intents", "--out", str(tmp_path / "x"), "--backbone", str(tmp_path / "nope" / "m")]) == 2
    assert capsys.readouterr().err.startswith("error: ")


def test_importing_intents_stays_cheap():
    code = "import sys, autodw.intents; print(sorted(m for m in ('torch', 'transformers', 'yaml') if m in sys.modules))"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"


@pytest.mark.parametrize("damaged", ["model.onnx", "tokenizer.json", "word_embeddings.q4.safetensors"])
def test_a_damaged_model_file_is_a_config_error_naming_the_folder(tiny_intent_model, tmp_path, damaged):
    import shutil

    from autodw.intents.classifier import IntentClassifier

    copy = tmp_path / "model"
    shutil.copytree(tiny_intent_model.path, copy)
    if not (copy / damaged).exists():
        pytest.skip(f"this model has no {damaged}")
    (copy / damaged).write_bytes(b"junk")
    with pytest.raises(ConfigError, match=f"{copy} is not a usable intent model"):
        IntentClassifier.load(copy)


def test_training_settings_and_dataset_lines_are_checked_before_anything_loads(tmp_path):
    from autodw.intents.datagen import load_dataset
    from autodw.intents.train import TrainConfig, train

    with pytest.raises(ConfigError, match="batch_size must be at least 1.*lr must be a positive number"):
        train(TrainConfig(batch_size=0, lr=float("nan")), tmp_path / "m")
    data = tmp_path / "data.jsonl"
    data.write_text('{"text": "Make it bold", "intent": "bolding", "lang": "en", "split": "train", "source": "s"}\n')
    with pytest.raises(ConfigError, match="line 1: unknown intent 'bolding'"):
        load_dataset(data)
    data.write_text('{"text": "Make it bold"}\n')
    with pytest.raises(ConfigError, match="line 1: not an example"):
        load_dataset(data)
    assert not (tmp_path / "m").exists()


def test_predict_refuses_an_empty_text(tiny_intent_model):
    from autodw.intents.classifier import IntentClassifier

    clf = IntentClassifier.load(tiny_intent_model.path)
    for text in ("", "   ", None):
        with pytest.raises(ConfigError, match="no text to classify"):
            clf.predict(text)  # type: ignore[arg-type]


def test_a_backbone_without_a_padding_token_is_a_config_error_naming_it(tiny_backbone, tmp_path):
    """Batches are padded: a tokenizer with no padding token is refused before training, naming the backbone (the
    message once named an undefined variable, a NameError)."""
    import shutil

    from autodw.intents.train import TrainConfig, train

    folder = tmp_path / "no-pad"
    shutil.copytree(tiny_backbone, folder)
    config = json.loads((folder / "tokenizer_config.json").read_text(encoding="utf-8"))
    del config["pad_token"]
    (folder / "tokenizer_config.json").write_text(json.dumps(config), encoding="utf-8")
    with pytest.raises(ConfigError, match=f"backbone {folder} has a tokenizer without a padding token"):
        train(TrainConfig(backbone=str(folder), epochs=1, **TINY_TRAINING), tmp_path / "out", progress=False)
