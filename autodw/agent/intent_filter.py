"""The intent filter: the candidate APIs for a step (the paper: the APIs of the classifier's top-3 intents)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from autodw.apis.registry import Registry


class IntentClassifier(Protocol):
    """Anything that ranks the eight intents for a sub-instruction."""

    def predict(self, text: str, k: int = 3) -> list[tuple[str, float]]: ...


@dataclass(frozen=True)
class Candidates:
    """The intents found for a step (with their probabilities) and the APIs offered for it."""

    intents: list[tuple[str, float]]
    apis: list[str]


class IntentFilter(Protocol):
    """Narrows the API library to a step's candidates."""

    def candidates(self, sub_instruction: str) -> Candidates: ...


class ClassifierIntentFilter:
    """The top-3 intents of the classifier; a top-3 intent's APIs are offered if it is at least `min_probability`
    likely (the top-1 always)."""

    def __init__(self, classifier: IntentClassifier, registry: Registry, min_probability: float):
        self.classifier, self.registry, self.min_probability = classifier, registry, min_probability

    def candidates(self, sub_instruction: str) -> Candidates:
        intents = [(i, round(float(p), 4)) for i, p in self.classifier.predict(sub_instruction, k=3)]
        kept = [i for n, (i, p) in enumerate(intents) if n == 0 or p >= self.min_probability]
        return Candidates(intents, self.registry.names_for_intents(kept))
