"""The intent filter: the candidate APIs for a step (the paper: the APIs of the classifier's top-3 intents)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Collection, Protocol

from autodw.agent.checks.reading import api_words
from autodw.agent.grounding import undictated
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


def apis_named(text: str) -> set[str]:
    """The APIs whose thing `text` names in the words of ``api_words.json`` (every pattern of the API matches: "Delete
    ... block p12" names delete_block)."""
    return {api for api, words in api_words().items() if all(w.search(text) for w in words)}


def names_itself(text: str, api: str) -> bool:
    """Whether `text` names `api` by the API's own name, its words in order ("Insert text into p3" and "insert_text"
    name insert_text)."""
    return re.search(r"\b" + r"[\s_]+".join(map(re.escape, api.split("_"))) + r"\b", text, re.IGNORECASE) is not None


#: the most APIs of a less likely intent a step's words may name for them to be offered: words that name more (every
#: table API is named by "table") name the intent's kind of thing, not an API, and the classifier found it unlikely
MAX_NAMED_APIS = 2


class ClassifierIntentFilter:
    """The top-3 intents of the classifier; a top-3 intent's APIs are offered if it is at least `min_probability`
    likely (the top-1 always); of a less likely one, the APIs the step names (`named`: the APIs a text names by their
    words, :func:`apis_named`; or by their own name, :func:`names_itself`), when it names at most
    :data:`MAX_NAMED_APIS` of them. The classifier reads "Delete a whole paragraph or table: block p12." as formatting
    at 96% and content modification at 3.5%, and "Insert text into an existing paragraph at a character offset: ..."
    (insert_text's own description) as content modification, content creation at 0.3-3%: dropping those intents
    left no API that deletes a paragraph or inserts text into one. When the floor drops an intent, the intents the
    step keeps read without the text it dictates (:func:`~autodw.agent.grounding.undictated`: what it writes is not
    what it does) are kept too: 'Replace the whole text of one paragraph: p30; text "Case 3: List Paragraph style".'
    reads as formatting at 98%, blanked as content modification at 99.8%. An API the step names by its own name is
    offered whatever the intents: 'Insert text into an existing paragraph ...; text "image".' reads as formatting,
    content modification and image operation, insert_text's intent (content creation) 4% and fourth."""

    def __init__(self, classifier: IntentClassifier, registry: Registry, min_probability: float,
                 named: Callable[[str], Collection[str]]):
        self.classifier, self.registry, self.min_probability, self.named = classifier, registry, min_probability, named

    def candidates(self, sub_instruction: str) -> Candidates:
        intents = [(i, round(float(p), 4)) for i, p in self.classifier.predict(sub_instruction, k=3)]
        kept = self._kept(intents)
        dropped = [i for i, _ in intents if i not in kept]
        blanked = undictated(sub_instruction)
        if dropped and blanked != sub_instruction:
            kept += [i for i in self._kept(self.classifier.predict(blanked, k=3)) if i not in kept]
            dropped = [i for i in dropped if i not in kept]
        apis = self.registry.names_for_intents(kept)
        said = set(self.named(sub_instruction)) if dropped else set()
        for intent in dropped:
            named = [a for a in self.registry.names_for_intents([intent])
                     if (a in said or names_itself(sub_instruction, a)) and a not in apis]
            apis += named if len(named) <= MAX_NAMED_APIS else []
        # an API the step names by its own name, whatever intent the classifier reads (outside its top-3 too)
        apis += [a for a in self.registry.names() if a not in apis and names_itself(sub_instruction, a)]
        return Candidates(intents, apis)

    def _kept(self, intents: list[tuple[str, float]]) -> list[str]:
        """The intents of a ranking that pass the floor (the top-1 always)."""
        return [i for n, (i, p) in enumerate(intents) if n == 0 or p >= self.min_probability]
