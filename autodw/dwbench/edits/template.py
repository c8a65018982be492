"""An edit template and what the generator knows about it, declared on the template itself:

    @template("table", weight=0.9, undoing=True)
    def delete_row(c: Ctx) -> str: ...

registers ``delete_row`` in :data:`TEMPLATES`. The generator draws templates in registration order (the order of
:data:`autodw.dwbench.edits.MODULES`, then of definition in each module), so moving a template changes the data
written for a seed; add a new one at the end of the last module.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from autodw.dwbench.context import Ctx

THEMES = ("table", "text", "format", "visual", "layout", "review")
"""Kinds of edits people tend to ask for together; the clauses of one instruction usually share a theme."""


@dataclass(frozen=True)
class Template:
    """A registered edit template.

    ``weight``: how often it is drawn, relative to the others. ``needs``: keys of the session's memory it acts on
    (an earlier turn's style, watermark, merged cell...): drawn only when they are there, and then more often.
    ``undoing``: it removes or resets things, so only the first clause of an instruction may be it (a later one could
    undo an earlier clause of the same instruction, leaving a gold call that is not needed). ``multi_call``: one
    wish that takes several calls, favoured when a hard instruction is being written. ``tuning_only``: never drawn for
    dev or test, nor counted among the templates test holds out; only a templated tuning split that names its module
    (``generate.TUNING_ONLY_SPLITS``) draws it.
    """

    name: str
    func: Callable[[Ctx], str]
    theme: str
    weight: float = 1.0
    needs: tuple[str, ...] = ()
    undoing: bool = False
    multi_call: bool = False
    tuning_only: bool = False


TEMPLATES: dict[str, Template] = {}


def template(theme: str, weight: float = 1.0, needs: tuple[str, ...] = (), undoing: bool = False, multi_call: bool = False,
             tuning_only: bool = False):
    """Register the decorated ``edit(c: Ctx) -> str`` as a template of `theme` (one of :data:`THEMES`)."""
    if theme not in THEMES:
        raise ValueError(f"unknown theme {theme!r}: one of {', '.join(THEMES)}")

    def register(func: Callable[[Ctx], str]) -> Callable[[Ctx], str]:
        if func.__name__ in TEMPLATES:
            raise ValueError(f"two edit templates named {func.__name__}")
        TEMPLATES[func.__name__] = Template(func.__name__, func, theme, weight, needs, undoing, multi_call, tuning_only)
        return func
    return register
