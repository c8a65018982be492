"""Handlers of ``autodw train-intents`` and ``autodw intents TEXT`` (registered in autodw/interfaces/cli.py)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from autodw.core.errors import ConfigError


def train_command(args: argparse.Namespace) -> int:
    """Train, save, and print the validation/test scores, per-intent precision/recall and confusion matrix."""
    from autodw.intents.classifier import default_model_dir, load_or_train
    from autodw.intents.datagen import DEFAULT_SEED
    from autodw.intents.model_files import FORMAT_VERSION, model_format

    out = Path(args.out).expanduser() if args.out else default_model_dir()
    _check_output(out, model_format)  # before half an hour of training, not after
    if not 0 <= args.seed < 2**32:
        raise ConfigError(f"--seed must be between 0 and 2**32 - 1, not {args.seed}")
    if args.if_missing:
        if args.backbone or args.epochs is not None or args.seed != DEFAULT_SEED:
            raise ConfigError("--if-missing trains the default recipe; leave out --backbone, --epochs and --seed")
        was = model_format(out)
        load_or_train(out, progress=True)  # trains the default recipe if there is no model, converts an old-format one
        print(f"intent classifier {'already trained' if was == FORMAT_VERSION else 'ready'}: {out}")
        return 0
    from autodw.intents.train import TrainConfig, train

    config = TrainConfig(backbone=args.backbone, seed=args.seed)
    if args.epochs is not None:
        if args.epochs < 1:
            raise ConfigError(f"--epochs must be at least 1, got {args.epochs}")
        config.epochs = args.epochs
    print(f"training the intent classifier (backbone: {args.backbone or 'bundled multilingual-e5-small'}, "
          f"{config.epochs} epochs, seed {config.seed})", flush=True)
    result = train(config, out, progress=True)
    for name, report in (("validation", result.validation), ("test", result.test)):
        if report is not None:
            print(f"\n== {name} ==")
            print(report.render())
    print(f"\ntraining time: {result.train_seconds:.0f} s (total with loading, evaluation and saving: {result.total_seconds:.0f} s)")
    print(f"model saved to {result.path} ({_folder_mb(result.path):.0f} MB)")
    return 0


def intents_command(args: argparse.Namespace) -> int:
    """Print the top-3 intents of TEXT with probabilities and the candidate APIs of those intents."""
    from autodw.intents.classifier import candidate_apis, load_or_train

    if not args.text.strip():
        raise ConfigError("TEXT is empty")
    if any("\ud800" <= c <= "\udfff" for c in args.text):  # bytes the shell's locale could not decode
        raise ConfigError("TEXT is not valid UTF-8 text")
    clf = load_or_train(args.model, progress=True, train_missing=args.model is None)
    top = clf.predict(args.text, k=3)
    apis = candidate_apis([name for name, _ in top])
    if args.format == "json":
        out: dict[str, Any] = {
            "intents": [{"intent": name, "probability": round(p, 6)} for name, p in top],
            "apis": apis.names,
        }
        if not apis.available:
            out["apis_note"] = apis.note
        json.dump(out, sys.stdout, ensure_ascii=False, indent=1)
        sys.stdout.write("\n")
        return 0
    for name, p in top:
        print(f"{p:7.2%}  {name}")
    if apis.available:
        print("candidate APIs: " + (", ".join(apis.names) if apis.names else "(none registered for these intents)"))
    else:
        print(f"candidate APIs: none listed; {apis.note}")
    return 0


def _check_output(out: Path, model_format: Any) -> None:
    """ConfigError if the model cannot be saved to `out`: a file, or a folder holding something else."""
    if out.exists() and not out.is_dir():
        raise ConfigError(f"--out {out} is a file; give a folder for the model")
    if out.is_dir() and any(out.iterdir()) and model_format(out) is None:
        raise ConfigError(f"--out {out} holds files that are no intent model; refusing to overwrite it")
    if any(p.exists() and not p.is_dir() for p in out.parents):
        raise ConfigError(f"--out {out}: a file stands where a folder above it should be")


def _folder_mb(path: Path) -> float:
    return sum(f.stat().st_size for f in Path(path).iterdir() if f.is_file()) / 2**20
