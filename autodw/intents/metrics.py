"""Accuracy, per-language accuracy, top-k recall, per-intent precision/recall and the confusion matrix."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np
import pandas as pd


@dataclass
class EvalReport:
    """Scores of one split; ``per_intent`` and ``confusion`` are indexed by intent name."""

    n: int
    accuracy: float
    accuracy_by_lang: dict[str, float]
    top3_recall: float
    per_intent: pd.DataFrame
    confusion: pd.DataFrame

    def summary(self) -> dict[str, Any]:
        """The headline numbers as plain JSON-able values."""
        return {
            "n": self.n,
            "accuracy": round(self.accuracy, 4),
            "accuracy_by_lang": {k: round(v, 4) for k, v in self.accuracy_by_lang.items()},
            "top3_recall": round(self.top3_recall, 4),
        }

    def render(self) -> str:
        """A text report: headline numbers, the per-intent table and the confusion matrix."""
        langs = ", ".join(f"{k} {v:.4f}" for k, v in self.accuracy_by_lang.items())
        lines = [
            f"examples: {self.n}   accuracy: {self.accuracy:.4f} ({langs})   top-3 recall: {self.top3_recall:.4f}",
            "",
            "per intent:",
            self.per_intent.to_string(float_format=lambda x: f"{x:.3f}"),
            "",
            "confusion matrix (rows: true intent, columns: predicted):",
            self.confusion.to_string(),
        ]
        return "\n".join(lines)


def evaluate_probabilities(probs: np.ndarray, gold: Sequence[int], langs: Sequence[str], labels: Sequence[str]) -> EvalReport:
    """Score predicted probability rows against gold label indices."""
    probs = np.asarray(probs)
    gold_arr = np.asarray(gold, dtype=int)
    if probs.shape != (len(gold_arr), len(labels)):
        raise ValueError(f"probabilities have shape {probs.shape}, expected ({len(gold_arr)}, {len(labels)})")
    pred = probs.argmax(axis=1)
    correct = pred == gold_arr
    k = min(3, len(labels))
    topk = np.argsort(-probs, axis=1)[:, :k]
    in_topk = (topk == gold_arr[:, None]).any(axis=1)
    lang_arr = np.asarray(langs)
    by_lang = {lang: float(correct[lang_arr == lang].mean()) for lang in sorted(set(langs))}

    n_labels = len(labels)
    confusion = np.zeros((n_labels, n_labels), dtype=int)
    np.add.at(confusion, (gold_arr, pred), 1)
    tp = np.diag(confusion).astype(float)
    predicted = confusion.sum(axis=0).astype(float)
    support = confusion.sum(axis=1).astype(float)
    precision = np.divide(tp, predicted, out=np.zeros_like(tp), where=predicted > 0)
    recall = np.divide(tp, support, out=np.zeros_like(tp), where=support > 0)
    f1 = np.divide(2 * precision * recall, precision + recall, out=np.zeros_like(tp), where=(precision + recall) > 0)
    per_intent = pd.DataFrame(
        {"precision": precision, "recall": recall, "f1": f1, "support": support.astype(int)}, index=list(labels)
    )
    return EvalReport(
        n=len(gold_arr),
        accuracy=float(correct.mean()) if len(gold_arr) else 0.0,
        accuracy_by_lang=by_lang,
        top3_recall=float(in_topk.mean()) if len(gold_arr) else 0.0,
        per_intent=per_intent,
        confusion=pd.DataFrame(confusion, index=list(labels), columns=list(labels)),
    )
