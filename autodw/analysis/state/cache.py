"""The states of a document's revisions, each extracted once: the agent reads the state after every call, and the
state a step starts from is the one the last accepted call left (or, after a rollback, the one before it)."""

from __future__ import annotations

from collections import OrderedDict
from typing import Callable

from autodw.analysis.state.extract import extract_state
from autodw.analysis.state.types import State
from autodw.core.document import WordDocument


class StateCache:
    """The states of the last `size` revisions read (:attr:`WordDocument.revision`), by revision. A state given out is
    shared by whoever asks for that revision again: read it, never change it. `extract` reads a state (None:
    :func:`extract_state`; a failure propagates and nothing is kept)."""

    def __init__(self, size: int = 8, extract: Callable[[WordDocument], State] | None = None):
        self.size, self.extract = size, extract if extract is not None else extract_state
        self._states: OrderedDict[str, State] = OrderedDict()

    def of(self, doc: WordDocument) -> State:
        """The state of `doc` as it is now."""
        revision = doc.revision
        state = self._states.get(revision)
        if state is None:
            state = self._states[revision] = self.extract(doc)
            if len(self._states) > self.size:
                self._states.popitem(last=False)
        else:
            self._states.move_to_end(revision)
        return state
