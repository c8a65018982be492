"""The ceiling our prompts put on any model: the real agent run with a backend that answers every role as a perfect
model would, using only what its prompt shows (:mod:`~autodw.eval.ceiling.backend`), each instruction below the
ceiling attributed to a cause (:mod:`~autodw.eval.ceiling.diagnosis`, :mod:`~autodw.eval.ceiling.causes`);
``autodw bench ceiling`` runs it (:mod:`~autodw.eval.ceiling.commands`)."""
