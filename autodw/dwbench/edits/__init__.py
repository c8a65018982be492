"""The edit templates: one request a Word user makes ("put a box around the note under Budget"),
phrased in English or Chinese, and the gold API calls that carry it out on the current document.

Each template is a function ``edit(c: Ctx) -> str`` registered with :func:`~autodw.dwbench.edits.template.template`,
which declares its theme, weight and the rest of what the generator needs to know. It looks at the document, raises
``Skip`` (before running anything) when it does not apply, runs its gold calls through ``c.run`` and returns the
clause a user would say. The generator joins one to four clauses into an instruction. Templates were written for
this benchmark; they share nothing with the intent classifier's data.
"""

from __future__ import annotations

from importlib import import_module

from autodw.dwbench.edits.template import THEMES, TEMPLATES, Template, template

MODULES = ("creation", "modification", "tables", "pictures", "charts", "formatting", "structure", "lifecycle",
           "free_text", "multi_step", "tuning", "tuning_second")
"""The modules of templates, by the kind of API they mostly call, imported (so registered) in this order: the
generator draws templates in registration order, so this order is part of what a seed writes. ``tuning`` and
``tuning_second`` (last) hold the tuning-only templates, which dev and test never draw (the first set drawn only by
dev-outside-third, the second only by dev-outside-fourth)."""

for _module in MODULES:
    import_module(f"{__name__}.{_module}")

__all__ = ["MODULES", "TEMPLATES", "THEMES", "Template", "template"]
