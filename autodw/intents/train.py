"""Fine-tune the intent classifier on intents/data/intents.jsonl (plain torch loop, seeded, one progress bar).

The embeddings and the lowest ``freeze_layers`` transformer layers are frozen, so their output for a
sentence never changes during training: it is computed once for every training and validation
sentence ("precompute"), and each training step runs only the upper layers and the head on those
stored states. That gives the same model as running the frozen layers at every step, for a
fraction of the time.
"""

from __future__ import annotations

import json
import math
import random
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np
import torch

from autodw.core.errors import ConfigError
from autodw.core.progress import progress as tqdm
from autodw.intents.backbone import DEFAULT_BACKBONE, load_backbone, resolve_backbone
from autodw.intents.datagen import DEFAULT_SEED, Example, load_dataset
from autodw.intents.labels import INTENTS
from autodw.intents.metrics import EvalReport, evaluate_probabilities
from autodw.intents.model import IntentNet, save_model
from autodw.intents.model_files import E5_PREFIX, ModelMeta


@dataclass
class TrainConfig:
    """Hyper-parameters and inputs of one training run (defaults: the shipped recipe)."""

    backbone: str | None = None
    epochs: int = 2
    batch_size: int = 32
    lr: float = 2e-4
    head_lr: float = 2e-3
    weight_decay: float = 0.01
    warmup: float = 0.06
    max_length: int = 64
    seed: int = DEFAULT_SEED
    freeze_layers: int = 8
    """The lowest layers (with the embeddings) are frozen and run once per sentence, not per step."""
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


def _sorted_batches(lengths: Sequence[int], batch_size: int) -> list[list[int]]:
    """Batches of indices in length order (for passes where order does not matter)."""
    order = sorted(range(len(lengths)), key=lambda i: lengths[i])
    return [order[i : i + batch_size] for i in range(0, len(order), batch_size)]


def _pad(states: Sequence[torch.Tensor]) -> tuple[torch.Tensor, torch.Tensor]:
    """Stack per-sentence [length, hidden] states into a zero-padded batch and its attention mask."""
    width = max(s.shape[0] for s in states)
    hidden = torch.zeros((len(states), width, states[0].shape[1]), dtype=states[0].dtype)
    mask = torch.zeros((len(states), width), dtype=torch.long)
    for row, s in enumerate(states):
        hidden[row, : s.shape[0]] = s
        mask[row, : s.shape[0]] = 1
    return hidden, mask


class _Stages:
    """The encoder cut in two: frozen bottom (embeddings + lowest layers), trained top (the rest + pooling + head)."""

    def __init__(self, net: IntentNet, frozen: int, pad_id: int) -> None:
        self.net = net
        self.frozen = frozen
        self.pad_id = pad_id
        self.layers = list(net.encoder.encoder.layer)

    def bottom(self, token_ids: Sequence[list[int]]) -> list[torch.Tensor]:
        """Hidden states after the frozen layers, one unpadded [length, hidden] tensor per sentence."""
        width = max(len(x) for x in token_ids)
        ids = torch.full((len(token_ids), width), self.pad_id, dtype=torch.long)
        mask = torch.zeros((len(token_ids), width), dtype=torch.long)
        for row, seq in enumerate(token_ids):
            ids[row, : len(seq)] = torch.tensor(seq, dtype=torch.long)
            mask[row, : len(seq)] = 1
        hidden = self.net.encoder.embeddings(input_ids=ids)
        hidden = self.net.run_layers(self.layers[: self.frozen], hidden, mask)
        return [hidden[row, : len(seq)].clone() for row, seq in enumerate(token_ids)]

    def top(self, hidden: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """Logits from stored bottom states (the upper layers, mean pooling, dropout, head)."""
        hidden = self.net.run_layers(self.layers[self.frozen :], hidden, mask)
        return self.net.pool_and_classify(hidden, mask)


def _precompute(stages: _Stages, token_ids: Sequence[list[int]], batch_size: int, tick: Callable[[int], None]) -> list[torch.Tensor]:
    out: list[torch.Tensor | None] = [None] * len(token_ids)
    with torch.inference_mode():
        for batch in _sorted_batches([len(x) for x in token_ids], batch_size):
            for i, state in zip(batch, stages.bottom([token_ids[i] for i in batch])):
                out[i] = state
            tick(len(batch))
    return out  # type: ignore[return-value]


def _probabilities(stages: _Stages, states: Sequence[torch.Tensor], batch_size: int = 128) -> np.ndarray:
    probs = np.zeros((len(states), len(INTENTS)), dtype=np.float32)
    stages.net.eval()
    with torch.inference_mode():
        for batch in _sorted_batches([s.shape[0] for s in states], batch_size):
            hidden, mask = _pad([states[i] for i in batch])
            probs[batch] = torch.softmax(stages.top(hidden, mask).float(), dim=-1).numpy()
    return probs


def _score(stages: _Stages, states: Sequence[torch.Tensor], rows: Sequence[Example]) -> tuple[EvalReport, float]:
    probs = _probabilities(stages, states)
    gold = [INTENTS.index(e.intent) for e in rows]
    loss = float(-np.log(np.clip(probs[np.arange(len(gold)), gold], 1e-12, 1.0)).mean()) if rows else 0.0
    return evaluate_probabilities(probs, gold, [e.lang for e in rows], INTENTS), loss


def work_units(n_train: int, n_eval: int, n_test: int, config: TrainConfig, layers: int) -> tuple[float, float]:
    """(forward-only, training) cost in 'sentence-layer passes', for the progress bar and the time estimate.

    A frozen layer is run once per training and validation sentence (forward only); a trained layer
    runs forward and backward (about 3 forward passes) per training sentence and epoch, and forward
    per validation sentence and epoch; a test sentence runs every layer once, at the end.
    """
    trained = layers - config.freeze_layers
    forward = (n_train + n_eval) * config.freeze_layers + config.epochs * n_eval * trained + n_test * layers
    return float(forward), float(config.epochs * n_train * trained * 3)


FIXED_SECONDS = 10.0
"""Exporting and saving the model, measured on 2 cores (loading is done before the estimate is printed)."""


def estimate_seconds(stages: _Stages, token_ids: Sequence[list[int]], forward_units: float, train_units: float, layers: int) -> float:
    """Training time predicted by timing, on 32 sentences of average length, a forward pass through every layer and
    a forward + backward pass through the trained layers, each after a warm-up with the same shape.

    Both are timed because their ratio depends on the load: with load average 7-10 a two-thread backward pass
    slowed down far more than a forward pass (an estimate that assumed equal costs per unit printed 892 s for a
    run of 1,047 s). The timing runs in eval mode (no dropout, so no random numbers are drawn) and its gradients
    are dropped: the trained model is the same as without it.
    """
    width = max(2, round(sum(len(x) for x in token_ids) / len(token_ids)))
    long_enough = [x[:width] for x in token_ids if len(x) >= width]
    sample = [long_enough[i] for i in random.Random(0).sample(range(len(long_enough)), min(32, len(long_enough)))]
    whole = _Stages(stages.net, layers, stages.pad_id)  # every layer in the "bottom" stage
    stages.net.eval()

    def forward() -> None:
        with torch.inference_mode():
            whole.bottom(sample)

    with torch.inference_mode():
        hidden, mask = _pad(stages.bottom(sample))
    hidden = hidden.clone()  # a normal tensor, usable with autograd

    def train_pass() -> None:
        stages.top(hidden, mask).logsumexp(dim=-1).mean().backward()
        stages.net.zero_grad(set_to_none=True)

    forward()  # warm-ups
    train_pass()
    per_forward = _timed(forward) / (len(sample) * layers)
    per_train = _timed(train_pass) / (len(sample) * (layers - stages.frozen) * 3)
    return FIXED_SECONDS + per_forward * forward_units + per_train * train_units


def _timed(step: Callable[[], Any], repeats: int = 2) -> float:
    started = time.perf_counter()
    for _ in range(repeats):
        step()
    return (time.perf_counter() - started) / repeats


def _minutes(seconds: float) -> str:
    return f"{seconds:.0f} s" if seconds < 90 else f"{seconds / 60:.1f} min"


def train(config: TrainConfig, out_dir: Path, progress: bool = True) -> TrainResult:
    """Fine-tune, keep the epoch with the best validation accuracy, score the test split and save."""
    problems = [f"{name} must be at least 1, not {value}" for name, value in
                (("epochs", config.epochs), ("batch_size", config.batch_size), ("max_length", config.max_length))
                if value < 1]
    problems += [f"{name} must be a positive number, not {value}" for name, value in
                 (("lr", config.lr), ("head_lr", config.head_lr)) if not (math.isfinite(value) and value > 0)]
    if not 0 <= config.seed < 2**32:
        problems.append(f"seed must be between 0 and 2**32 - 1, not {config.seed}")
    if problems:
        raise ConfigError("invalid training settings: " + "; ".join(problems))
    started = time.perf_counter()
    examples = load_dataset(config.data)
    train_rows = _split(examples, "train", config.max_train, config.seed)
    val_rows = _split(examples, "validation", config.max_eval, config.seed)
    test_rows = _split(examples, "test", config.max_eval, config.seed) if config.evaluate_test else []
    if not train_rows:
        raise ConfigError("the dataset has no training examples")

    seed_everything(config.seed)
    source = resolve_backbone(config.backbone)
    encoder, tokenizer = load_backbone(source)
    is_default = config.backbone in (None, DEFAULT_BACKBONE)
    meta = ModelMeta(
        labels=list(INTENTS),
        backbone=DEFAULT_BACKBONE if is_default else str(config.backbone),
        text_prefix=E5_PREFIX if is_default else "",
        max_length=config.max_length,
    )
    if tokenizer.pad_token_id is None:
        raise ConfigError(f"backbone {source} has a tokenizer without a padding token")
    net = IntentNet(encoder, len(INTENTS))
    layers = freeze(net, config.freeze_layers)

    def encode(rows: Sequence[Example]) -> list[list[int]]:
        if not rows:
            return []
        texts = [meta.text_prefix + e.text.strip() for e in rows]
        return tokenizer(texts, truncation=True, max_length=config.max_length)["input_ids"]

    train_ids, val_ids = encode(train_rows), encode(val_rows)
    labels = torch.tensor([INTENTS.index(e.intent) for e in train_rows], dtype=torch.long)
    stages = _Stages(net, config.freeze_layers, tokenizer.pad_token_id)
    pre_units, train_units = work_units(len(train_rows), len(val_rows), len(test_rows), config, layers)
    estimated_at = time.perf_counter()
    estimate = estimate_seconds(stages, train_ids, pre_units, train_units, layers)
    if progress:
        print(f"intents: training takes about {_minutes(estimate)} on this machine as busy as it is now "
              f"({torch.get_num_threads()} threads)", file=sys.stderr, flush=True)
    bar = tqdm(total=round(pre_units + train_units), desc="training intent classifier", unit="", unit_scale=True,
               disable=not progress, file=sys.stderr, bar_format="{l_bar}{bar}| {percentage:3.0f}% [{elapsed}<{remaining}{postfix}]")
    train_started = time.perf_counter()
    net.eval()
    bar.set_postfix_str("computing frozen layers")
    train_states = _precompute(stages, train_ids, 64, lambda n: bar.update(n * config.freeze_layers))
    val_states = _precompute(stages, val_ids, 64, lambda n: bar.update(n * config.freeze_layers))
    precompute_seconds = time.perf_counter() - train_started

    head_params = list(net.head.parameters())
    body = [(n, p) for n, p in net.encoder.named_parameters() if p.requires_grad]
    optimizer = torch.optim.AdamW(
        [
            {"params": [p for n, p in body if not _no_decay(n)], "lr": config.lr, "weight_decay": config.weight_decay},
            {"params": [p for n, p in body if _no_decay(n)], "lr": config.lr, "weight_decay": 0.0},
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
    trainable = [p for p in net.parameters() if p.requires_grad]
    per_train_row = 3 * (layers - config.freeze_layers)
    history: list[dict[str, float]] = []
    best: tuple[tuple[float, float], dict[str, torch.Tensor]] | None = None
    best_report: EvalReport | None = None
    lengths = [s.shape[0] for s in train_states]
    for epoch in range(1, config.epochs + 1):
        net.train()
        running, seen = 0.0, 0
        for batch in _batches(lengths, config.batch_size, gen):
            hidden, mask = _pad([train_states[i] for i in batch])
            loss = torch.nn.functional.cross_entropy(stages.top(hidden, mask), labels[batch], label_smoothing=config.label_smoothing)
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(trainable, 1.0)
            optimizer.step()
            scheduler.step()
            running += float(loss.detach()) * len(batch)
            seen += len(batch)
            bar.update(len(batch) * per_train_row)
            bar.set_postfix_str(f"epoch {epoch}/{config.epochs}, loss {running / seen:.4f}")
        entry = {"epoch": float(epoch), "train_loss": running / max(seen, 1)}
        if val_rows:
            report, val_loss = _score(stages, val_states, val_rows)
            entry.update(val_accuracy=report.accuracy, val_loss=val_loss)
            key = (report.accuracy, -val_loss)
            if best is None or key > best[0]:
                best = (key, {n: p.detach().clone() for n, p in net.named_parameters() if p.requires_grad})
                best_report = report
        bar.update(len(val_rows) * (layers - config.freeze_layers))
        history.append(entry)
        bar.write(
            f"epoch {epoch}: train loss {entry['train_loss']:.4f}"
            + (f", validation accuracy {entry['val_accuracy']:.4f}, loss {entry['val_loss']:.4f}" if val_rows else "")
        )
    train_seconds = time.perf_counter() - train_started
    if best is not None:
        net.load_state_dict(best[1], strict=False)
    net.eval()

    test_report = None
    if test_rows:
        bar.set_postfix_str("scoring the test split")
        test_states = _precompute(stages, encode(test_rows), 64, lambda n: bar.update(n * config.freeze_layers))
        test_report = _score(stages, test_states, test_rows)[0]
        bar.update(len(test_rows) * (layers - config.freeze_layers))
    bar.set_postfix_str("saving")
    bar.close()
    cfg = {k: (str(v) if isinstance(v, Path) else v) for k, v in asdict(config).items()}
    meta.training = {
        "config": cfg,
        "n_train": len(train_rows),
        "train_seconds": round(train_seconds, 1),
        "precompute_seconds": round(precompute_seconds, 1),
        "history": history,
        "best_epoch": int(max(history, key=lambda h: (h.get("val_accuracy", 0.0), -h.get("val_loss", 0.0)))["epoch"]) if val_rows else config.epochs,
        "frozen_layers": config.freeze_layers,
        "torch_threads": torch.get_num_threads(),
    }
    meta.metrics = {
        name: rep.summary() for name, rep in (("validation", best_report), ("test", test_report)) if rep is not None
    }
    meta.training["estimated_seconds"] = round(estimate, 1)
    meta.training["seconds_after_estimate"] = None  # filled in below, once the folder is written
    path = save_model(net, tokenizer, meta, Path(out_dir))
    _record_duration(path, time.perf_counter() - estimated_at)
    return TrainResult(path, train_seconds, time.perf_counter() - started, history, best_report, test_report)


def _record_duration(path: Path, seconds: float) -> None:
    """Write the measured time (from the printed estimate to the saved model) into the meta file."""
    from autodw.intents.model_files import META_FILE

    meta_file = path / META_FILE
    data = json.loads(meta_file.read_text(encoding="utf-8"))
    data["training"]["seconds_after_estimate"] = round(seconds, 1)
    tmp = meta_file.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, indent=1, ensure_ascii=False), encoding="utf-8")
    tmp.replace(meta_file)


def freeze(net: IntentNet, layers: int) -> int:
    """Freeze the embedding block and the lowest ``layers`` transformer layers; returns the encoder's layer count.

    Only BERT-style encoders (``encoder.embeddings`` and an ``encoder.encoder.layer`` list) are supported.
    """
    blocks = getattr(getattr(net.encoder, "encoder", None), "layer", None)
    if blocks is None or not hasattr(net.encoder, "embeddings"):
        raise ConfigError(f"the backbone {type(net.encoder).__name__} is not a BERT-style encoder (no encoder.layer list)")
    if not 0 <= layers < len(blocks):
        raise ConfigError(f"cannot freeze {layers} of the encoder's {len(blocks)} layers")
    for module in [net.encoder.embeddings, *blocks[:layers]]:
        module.requires_grad_(False)
    return len(blocks)


def _no_decay(name: str) -> bool:
    return name.endswith("bias") or "LayerNorm" in name or "layer_norm" in name
