"""DWBench: our bilingual multi-turn benchmark of Word editing instructions with replayable gold API calls.

Typed loader: :mod:`autodw.dwbench.records` (``load_split``, ``Session.initial_document`` /
``expected_document``); checks: :mod:`autodw.dwbench.validate`; shape: :mod:`autodw.dwbench.stats`;
how the data is written: :mod:`autodw.dwbench.generate` (see README.md in this folder).
"""
