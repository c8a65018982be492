"""The network (encoder + mean pooling + linear head) in torch, and how a trained one is written to disk.

Training uses torch; the saved folder (format: :mod:`autodw.intents.model_files`) is an ONNX graph of
the fine-tuned network without its word-embedding table, plus that table and the tokenizer, so
that the classifier runs with ONNX Runtime. :func:`convert_v1` turns a folder of the old torch-only
format into the current one.
"""

from __future__ import annotations

import json
import warnings
from dataclasses import asdict
from pathlib import Path
from typing import Any

import torch
from torch import nn

from autodw.core.errors import ConfigError
from autodw.core.paths import replacing_folder
from autodw.intents.model_files import (
    F32_EMBEDDINGS_FILE,
    FORMAT_VERSION,
    META_FILE,
    ONNX_FILE,
    Q4_EMBEDDINGS_FILE,
    V1_HEAD_FILE,
    ModelMeta,
    model_format,
    read_meta,
)

ONNX_OPSET = 17


class IntentNet(nn.Module):
    """Encoder, attention-masked mean pooling, dropout and a linear layer over the intents.

    The encoder must be BERT-style (``embeddings`` and an ``encoder.layer`` list): training runs its
    layers in two stages (see :mod:`autodw.intents.train`).
    """

    def __init__(self, encoder: nn.Module, num_labels: int, dropout: float = 0.1) -> None:
        super().__init__()
        self.encoder = encoder
        self.dropout = nn.Dropout(dropout)
        self.head = nn.Linear(int(encoder.config.hidden_size), num_labels)

    def run_layers(self, layers: Any, hidden: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        """Run transformer layers on hidden states with an additive attention mask built from ``attention_mask``."""
        extended = (1.0 - attention_mask[:, None, None, :].to(hidden.dtype)) * torch.finfo(hidden.dtype).min
        for layer in layers:
            out = layer(hidden, attention_mask=extended)
            hidden = out[0] if isinstance(out, tuple) else out
        return hidden

    def pool_and_classify(self, hidden: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        """Mean of the unmasked token states, dropout, linear head: logits [batch, labels]."""
        mask = attention_mask.unsqueeze(-1).to(hidden.dtype)
        pooled = (hidden * mask).sum(dim=1) / mask.sum(dim=1).clamp(min=1.0)
        return self.head(self.dropout(pooled))

    def forward_embedded(self, inputs_embeds: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        """Logits from word embeddings looked up outside the network (what the ONNX graph computes)."""
        hidden = self.encoder.embeddings(inputs_embeds=inputs_embeds)
        hidden = self.run_layers(self.encoder.encoder.layer, hidden, attention_mask)
        return self.pool_and_classify(hidden, attention_mask)

    def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        """Logits of shape [batch, num_labels]."""
        return self.forward_embedded(self.encoder.get_input_embeddings()(input_ids), attention_mask)


class _Embedded(nn.Module):
    """``IntentNet.forward_embedded`` as a module's forward, for the ONNX export."""

    def __init__(self, net: IntentNet) -> None:
        super().__init__()
        self.net = net

    def forward(self, inputs_embeds: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        return self.net.forward_embedded(inputs_embeds, attention_mask)


def save_model(net: IntentNet, tokenizer: Any, meta: ModelMeta, out_dir: Path) -> Path:
    """Write the model folder atomically (a finished folder replaces an older model, never anything else)."""
    from transformers.utils import logging as hf_logging

    hf_logging.disable_progress_bar()
    out_dir = Path(out_dir)
    if out_dir.exists() and any(out_dir.iterdir()) and model_format(out_dir) is None:
        raise ConfigError(f"{out_dir} exists and is not an intent model folder; refusing to overwrite it")
    meta.format_version = FORMAT_VERSION
    meta.pad_token_id = int(tokenizer.pad_token_id)
    with replacing_folder(out_dir) as tmp:
        net.eval()
        export_onnx(net, tmp / ONNX_FILE)
        _save_word_embeddings(net.encoder, tmp)
        tokenizer.save_pretrained(tmp)
        (tmp / META_FILE).write_text(json.dumps(asdict(meta), indent=1, ensure_ascii=False), encoding="utf-8")
    return out_dir


def export_onnx(net: IntentNet, path: Path) -> None:
    """Export ``net.forward_embedded`` to one ONNX file (batch and token axes dynamic)."""
    hidden = int(net.encoder.config.hidden_size)
    example = (torch.zeros((2, 5, hidden)), torch.ones((2, 5), dtype=torch.long))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the TorchScript exporter is deprecated in favour of one that needs onnxscript
        torch.onnx.export(
            _Embedded(net).eval(), example, str(path), dynamo=False, opset_version=ONNX_OPSET,
            input_names=["inputs_embeds", "attention_mask"], output_names=["logits"],
            dynamic_axes={"inputs_embeds": {0: "batch", 1: "tokens"}, "attention_mask": {0: "batch", 1: "tokens"},
                          "logits": {0: "batch"}},
        )


def _save_word_embeddings(encoder: nn.Module, folder: Path) -> None:
    """The word-embedding table: packed 4-bit if it is exactly on a Q4_0 grid, else fp32."""
    from safetensors.numpy import save_file

    from autodw.intents.compact import pack_q4

    table = encoder.get_input_embeddings().weight.detach().cpu().float().numpy()
    packed = pack_q4(table)
    if packed is None:
        save_file({"weight": table}, str(folder / F32_EMBEDDINGS_FILE))
        return
    scales, nibbles = packed
    save_file({"scales": scales, "nibbles": nibbles}, str(folder / Q4_EMBEDDINGS_FILE), metadata={"format": "q4_0-lossless"})


def convert_v1(path: Path) -> Path:
    """Rewrite a format-1 folder (transformers safetensors + head, torch only) in the current format, in place."""
    from safetensors.torch import load_file

    from autodw.intents.backbone import load_backbone
    from autodw.intents.compact import unpack_q4

    path = Path(path)
    if model_format(path) != 1:
        raise ConfigError(f"{path} is not an intent model of the old format 1")
    meta = read_meta(path)
    encoder, tokenizer = load_backbone(str(path))
    packed = path / Q4_EMBEDDINGS_FILE
    if packed.is_file():  # format 1 left the packed table out of model.safetensors
        tensors = load_file(str(packed))
        table = torch.from_numpy(unpack_q4(tensors["scales"].numpy(), tensors["nibbles"].numpy()))
        with torch.no_grad():
            encoder.get_input_embeddings().weight.copy_(table)
    net = IntentNet(encoder, len(meta.labels))
    net.head.load_state_dict(load_file(str(path / V1_HEAD_FILE)))
    meta.training = {**meta.training, "converted_from_format": 1}
    return save_model(net.eval(), tokenizer, meta, path)
