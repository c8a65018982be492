"""Fuzz harnesses (issue 49): what autodw must survive, one module per target, each with a one-input check.

Every harness is a function of one input (the bytes a fuzzer gives, decoded into decisions by :mod:`.draw`)
that raises :class:`~tests.fuzz.outcome.Crash` when autodw does something it promises not to (an untyped
exception, a hang, a write outside the output path, a saved file that does not reopen). The test suite
runs each for a few seconds (``tests/fuzz/test_fuzz_*.py``); ``python -m tests.fuzz.campaign`` runs
them for hours under atheris or a seeded random source, resumably, into a JSON results file.
"""
