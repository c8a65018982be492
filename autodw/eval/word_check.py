"""The Word check of a run's outputs: the Open XML validation errors an output added to the document it started
from (:mod:`autodw.analysis.validation`, openxml-audit)."""

from __future__ import annotations

import hashlib
import queue
from threading import Lock

from autodw.analysis.validation import Finding, ValidationWorker, ValidatorUnavailableError, added


class WordCheck:
    """Whether an output added Open XML validation errors to its input. Every document's findings are cached by
    content: many instructions start from the same document, and a session turn starts from the output its previous
    turn was checked on. Validation workers are kept for the whole run, one per lane in use; :meth:`close` ends
    them."""

    def __init__(self) -> None:
        import importlib.util

        if importlib.util.find_spec("openxml_audit") is None:
            raise ValidatorUnavailableError("the Word check of the outputs needs openxml-audit: pip install "
                                            "\"autodw[validate]\", or run with --no-word-check")
        self._cache: dict[str, list[Finding]] = {}
        self._idle: queue.SimpleQueue[ValidationWorker] = queue.SimpleQueue()
        self._lock = Lock()
        #: Documents validated so far (the others came from the cache).
        self.validations = 0

    def added(self, before: bytes, after: bytes) -> list[dict[str, str]]:
        """The findings `after` has that `before` has not, as dicts."""
        return [f.to_dict() for f in added(self._findings(before), self._findings(after))]

    def close(self) -> None:
        """End the validation workers (a later call starts new ones)."""
        while True:
            try:
                self._idle.get_nowait().close()
            except queue.Empty:
                return

    def _findings(self, document: bytes) -> list[Finding]:
        """The document's findings, from the cache or validated now."""
        key = hashlib.sha256(document).hexdigest()
        with self._lock:
            known = self._cache.get(key)
        if known is None:
            known = self._validate(document)
            with self._lock:
                self._cache[key] = known
                self.validations += 1
        return known

    def _validate(self, document: bytes) -> list[Finding]:
        try:
            worker = self._idle.get_nowait()
        except queue.Empty:
            worker = ValidationWorker()
        try:
            return worker.validate(document)
        finally:
            self._idle.put(worker)

