"""Fine-tune the intent classifier on intents/data/intents.jsonl (plain torch loop, seeded, tqdm bar)."""

from __future__ import annotations

import math
import random
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Sequence

import numpy as np
import torch
from tqdm import tqdm

from autodw.errors import ConfigError
from autodw.intents.backbone import DEFAULT_BACKBONE, load_backbone, resolve_backbone
from autodw.intents.datagen import DEFAULT_SEED, Example, load_dataset
from autodw.intents.labels import INTENTS
from autodw.intents.metrics import EvalReport, evaluate_probabilities
from autodw.intents.model import IntentNet, ModelMeta, save_model

E5_PREFIX = "query: "
"""multilingual-e5 was trained with this prefix on short queries; the default backbone keeps it."""


@dataclass
class TrainConfig:
    """Hyper-parameters and inputs of one training run (defaults: the shipped recipe)."""

    backbone: str | None = None
    epochs: int = 4
    batch_size: int = 32
    lr: float = 1e-4
    head_lr: float = 2e-3
    weight_decay: float = 0.01
    warmup: float = 0.06
    max_length: int = 64
    seed: int = DEFAULT_SEED
    freeze_embeddings: bool = True
    freeze_layers: int = 4
    label_smoothing: float = 0.0
    data: Path | None = None
    max_train: int | None = None
    max_eval: int | None = None
    evaluate_test: bool = True
    """Score the test split after training. Tuning runs set this to False: the frozen test split is
    scored once, with the final model (see intents/README.md, "Evaluation protocol")."""


@dataclass
class TrainResult:
    """Where the model went, how long training took, and its validation and test scores."""

    path: Path
    train_seconds: float
    total_seconds: float
    history: list[dict[str, float]] = field(default_factory=list)
    validation: EvalReport | None = None
    test: EvalReport | None = None
    classifier: Any = None
    """The trained :class:`~intents.classifier.IntentClassifier`, in memory."""


def seed_everything(seed: int) -> None:
    """Seed Python, numpy and torch."""
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)


def _split(examples: Sequence[Example], name: str, limit: int | None, seed: int) -> list[Example]:
    rows = [e for e in examples if e.split == name]
    if limit is not None and len(rows) > limit:
        rows = random.Random(seed).sample(rows, limit)
    return rows


def _batches(lengths: Sequence[int], batch_size: int, gen: torch.Generator) -> list[list[int]]:
    """Shuffled batches of similar-length examples (less padding, same randomness for a seed)."""
    order = torch.randperm(len(lengths), generator=gen).tolist()
    pool = batch_size * 20
    batches: list[list[int]] = []
    for start in range(0, len(order), pool):
        chunk = sorted(order[start : start + pool], key=lambda i: lengths[i])
        batches += [chunk[i : i + batch_size] for i in range(0, len(chunk), batch_size)]
    perm = torch.randperm(len(batches), generator=gen).tolist()
    return [batches[i] for i in perm]


def _collate(ids: Sequence[list[int]], pad_id: int) -> tuple[torch.Tensor, torch.Tensor]:
    width = max(len(x) for x in ids)
    input_ids = torch.full((len(ids), width), pad_id, dtype=torch.long)
    mask = torch.zeros((len(ids), width), dtype=torch.long)
    for row, seq in enumerate(ids):
        input_ids[row, : len(seq)] = torch.tensor(seq, dtype=torch.long)
        mask[row, : len(seq)] = 1
    return input_ids, mask


def _evaluate(net: IntentNet, tokenizer: Any, meta: ModelMeta, rows: Sequence[Example]) -> tuple[EvalReport, float]:
    from autodw.intents.classifier import IntentClassifier

    clf = IntentClassifier(net, tokenizer, meta)
    probs = clf.probabilities([e.text for e in rows])
    gold = [INTENTS.index(e.intent) for e in rows]
    loss = float(-np.log(np.clip(probs[np.arange(len(gold)), gold], 1e-12, 1.0)).mean()) if rows else 0.0
    return evaluate_probabilities(probs, gold, [e.lang for e in rows], INTENTS), loss


def train(config: TrainConfig, out_dir: Path, progress: bool = True) -> TrainResult:
    """Fine-tune, keep the epoch with the best validation accuracy, score the test split and save."""
    if config.epochs < 1:
        raise ConfigError(f"--epochs must be at least 1, got {config.epochs}")
    started = time.perf_counter()
    examples = load_dataset(config.data)
    train_rows = _split(examples, "train", config.max_train, config.seed)
    val_rows = _split(examples, "validation", config.max_eval, config.seed)
    test_rows = _split(examples, "test", config.max_eval, config.seed) if config.evaluate_test else []
    if not train_rows:
        raise ConfigError("the dataset has no training examples")

    seed_everything(config.seed)
    source, local = resolve_backbone(config.backbone)
    encoder, tokenizer = load_backbone(source, local)
    is_default = config.backbone in (None, DEFAULT_BACKBONE)
    meta = ModelMeta(
        labels=list(INTENTS),
        backbone=DEFAULT_BACKBONE if is_default else str(config.backbone),
        text_prefix=E5_PREFIX if is_default else "",
        max_length=config.max_length,
    )
    net = IntentNet(encoder, len(INTENTS))
    frozen_layers = freeze(net, config.freeze_embeddings, config.freeze_layers)
    if tokenizer.pad_token_id is None:
        raise ConfigError(f"backbone {source} has a tokenizer without a padding token")

    token_ids = tokenizer([meta.text_prefix + e.text for e in train_rows], truncation=True, max_length=config.max_length)["input_ids"]
    labels = torch.tensor([INTENTS.index(e.intent) for e in train_rows], dtype=torch.long)
    lengths = [len(x) for x in token_ids]

    head_params = list(net.head.parameters())
    head_ids = {id(p) for p in head_params}
    body_decay = [p for n, p in net.encoder.named_parameters() if p.requires_grad and id(p) not in head_ids and not _no_decay(n)]
    body_plain = [p for n, p in net.encoder.named_parameters() if p.requires_grad and _no_decay(n)]
    optimizer = torch.optim.AdamW(
        [
            {"params": body_decay, "lr": config.lr, "weight_decay": config.weight_decay},
            {"params": body_plain, "lr": config.lr, "weight_decay": 0.0},
            {"params": head_params, "lr": config.head_lr, "weight_decay": 0.0},
        ]
    )
    steps_per_epoch = math.ceil(len(train_rows) / config.batch_size)
    total_steps = steps_per_epoch * config.epochs
    warmup = max(1, int(total_steps * config.warmup))

    def schedule(step: int) -> float:
        if step < warmup:
            return (step + 1) / warmup
        return max(0.0, (total_steps - step) / max(1, total_steps - warmup))

    scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, schedule)
    gen = torch.Generator().manual_seed(config.seed)
    history: list[dict[str, float]] = []
    best: tuple[tuple[float, float], dict[str, torch.Tensor]] | None = None
    best_report: EvalReport | None = None
    train_started = time.perf_counter()
    bar = tqdm(total=total_steps, desc="training intent classifier", unit="step", disable=not progress, file=sys.stderr)
    for epoch in range(1, config.epochs + 1):
        net.train()
        running, seen = 0.0, 0
        for batch in _batches(lengths, config.batch_size, gen):
            input_ids, mask = _collate([token_ids[i] for i in batch], tokenizer.pad_token_id)
            loss = torch.nn.functional.cross_entropy(net(input_ids, mask), labels[batch], label_smoothing=config.label_smoothing)
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            torch.nn.utils.clip_grad_norm_([p for p in net.parameters() if p.requires_grad], 1.0)
            optimizer.step()
            scheduler.step()
            running += float(loss.detach()) * len(batch)
            seen += len(batch)
            bar.update(1)
            bar.set_postfix(epoch=epoch, loss=f"{running / seen:.4f}")
        net.eval()
        entry = {"epoch": float(epoch), "train_loss": running / max(seen, 1)}
        if val_rows:
            report, val_loss = _evaluate(net, tokenizer, meta, val_rows)
            entry.update(val_accuracy=report.accuracy, val_loss=val_loss)
            key = (report.accuracy, -val_loss)
            if best is None or key > best[0]:
                best = (key, {n: p.detach().clone() for n, p in net.named_parameters() if p.requires_grad})
                best_report = report
        history.append(entry)
        bar.write(
            f"epoch {epoch}: train loss {entry['train_loss']:.4f}"
            + (f", validation accuracy {entry['val_accuracy']:.4f}, loss {entry['val_loss']:.4f}" if val_rows else "")
        )
    bar.close()
    train_seconds = time.perf_counter() - train_started
    if best is not None:
        net.load_state_dict(best[1], strict=False)
    net.eval()

    val_report = best_report  # the kept epoch's weights were scored on validation already
    test_report = _evaluate(net, tokenizer, meta, test_rows)[0] if test_rows else None
    cfg = {k: (str(v) if isinstance(v, Path) else v) for k, v in asdict(config).items()}
    meta.training = {
        "config": cfg,
        "n_train": len(train_rows),
        "train_seconds": round(train_seconds, 1),
        "history": history,
        "best_epoch": int(max(history, key=lambda h: (h.get("val_accuracy", 0.0), -h.get("val_loss", 0.0)))["epoch"]) if val_rows else config.epochs,
        "frozen_layers": frozen_layers,
        "torch_threads": torch.get_num_threads(),
    }
    meta.metrics = {
        name: rep.summary() for name, rep in (("validation", val_report), ("test", test_report)) if rep is not None
    }
    path = save_model(net, tokenizer, meta, Path(out_dir))
    from autodw.intents.classifier import IntentClassifier

    classifier = IntentClassifier(net, tokenizer, meta, path)
    return TrainResult(path, train_seconds, time.perf_counter() - started, history, val_report, test_report, classifier)


def freeze(net: IntentNet, embeddings: bool, layers: int) -> int:
    """Freeze the word embeddings and, for BERT-style encoders, the embedding block and the lowest ``layers`` layers.

    Frozen layers are not back-propagated through, which makes a training step much cheaper.
    Returns how many transformer layers were frozen (0 if the encoder has no ``encoder.layer`` list).
    """
    if embeddings:
        net.encoder.get_input_embeddings().weight.requires_grad_(False)
    blocks = getattr(getattr(net.encoder, "encoder", None), "layer", None)
    if layers <= 0 or blocks is None:
        return 0
    if layers >= len(blocks):
        raise ConfigError(f"cannot freeze {layers} of the encoder's {len(blocks)} layers")
    for module in [net.encoder.embeddings, *blocks[:layers]]:
        module.requires_grad_(False)
    return layers


def _no_decay(name: str) -> bool:
    return name.endswith("bias") or "LayerNorm" in name or "layer_norm" in name
