"""The registry of the systems the harness runs: each declared once, with its options, by ``@register_system``.

A system is declared on the function that assembles it: its name, a one-line help, what it uses (an LLM, the intent
classifier, the agent's settings) and its own options (:class:`Option`). The command line is built from the
declarations (``bench run --system`` and its options, ``bench sweep``); :func:`autodw.eval.registered_systems` loads
autodw's own, declared in :mod:`autodw.eval.system_catalogue`. The shape is lm-evaluation-harness' ``@register_model``
with lazy loading: declarations are light, an assembler imports its system's module when it runs.
"""

from __future__ import annotations

import argparse
import difflib
from dataclasses import dataclass
from typing import Any, Callable, Iterator, Mapping

from autodw.core.errors import ConfigError

#: makes one system (the runner calls it once per worker)
SystemMaker = Callable[[], Any]


def positive_int(text: str) -> int:
    """An option type: a whole number of at least 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


@dataclass(frozen=True)
class Option:
    """One option of a system: ``--NAME VALUE`` on the command line, ``options[NAME]`` in the run's record (a value of
    None is not recorded: an option without a default appears there only when given)."""

    name: str
    help: str
    type: Callable[[str], Any] = str  # reads the command line's text
    default: Any = None
    choices: tuple[Any, ...] | None = None
    metavar: str | None = None
    setting: str | None = None  # the agent setting this option also sets (after --set)

    @property
    def flag(self) -> str:
        return "--" + self.name.replace("_", "-")

    def check(self, value: Any, system: str) -> Any:
        """`value`, if it is one of the choices."""
        if self.choices is not None and value not in self.choices:
            raise ConfigError(f"{self.flag} of --system {system} is one of {', '.join(map(str, self.choices))}, "
                              f"not {value!r}")
        return value


@dataclass(frozen=True)
class SystemInputs:
    """What a system is assembled from: its options (every one declared, defaults filled in) and the LLM, agent
    settings (an ``AgentConfig``) and intent classifier it uses (None for what it does not use)."""

    options: Mapping[str, Any]
    llm: Any = None
    config: Any = None
    classifier: Any = None


@dataclass(frozen=True)
class SystemSpec:
    """A registered system."""

    name: str
    help: str  # one line
    assemble: Callable[[SystemInputs], SystemMaker]
    options: tuple[Option, ...] = ()
    #: whether it asks an LLM, given its options; False: it never does, and --llm is refused
    uses_llm: bool | Callable[[Mapping[str, Any]], bool] = True
    uses_classifier: bool = False
    uses_agent_settings: bool = True  # --profile, --threshold, --set; the settings are recorded as options["config"]

    def needs_llm(self, options: Mapping[str, Any]) -> bool:
        """Whether this system, with `options`, asks an LLM."""
        return self.uses_llm(options) if callable(self.uses_llm) else self.uses_llm

    def settings(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """The agent settings its options set."""
        return {o.setting: options[o.name] for o in self.options if o.setting}

    def recorded(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """Its options as a run records them: those with a value."""
        return {name: value for name, value in options.items() if value is not None}


class SystemRegistry:
    """Named systems in registration order. A name registered twice, or an option declared by two systems in two
    ways (the command line has one flag for both), is an error of the declaration."""

    def __init__(self, specs: Mapping[str, SystemSpec] | None = None) -> None:
        self._specs: dict[str, SystemSpec] = dict(specs or {})

    def copy(self) -> "SystemRegistry":
        """A registry holding the same systems (one that registers more leaves this one as it is)."""
        return SystemRegistry(self._specs)

    def add(self, spec: SystemSpec) -> None:
        """Register `spec`."""
        if spec.name in self._specs:
            raise ValueError(f"a system called {spec.name!r} is registered twice")
        names = [o.name for o in spec.options]
        if len(set(names)) < len(names):
            raise ValueError(f"system {spec.name!r} declares an option twice: {names}")
        for option in spec.options:
            for other, theirs in self.options().items():
                if other.name == option.name and other != option:
                    raise ValueError(f"system {spec.name!r} declares {option.flag} other than {', '.join(theirs)} does")
        self._specs[spec.name] = spec

    def register(self, name: str, *, help: str, options: tuple[Option, ...] = (),
                 uses_llm: bool | Callable[[Mapping[str, Any]], bool] = True, uses_classifier: bool = False,
                 uses_agent_settings: bool = True) -> Callable[[Callable[[SystemInputs], SystemMaker]],
                                                               Callable[[SystemInputs], SystemMaker]]:
        """Register the decorated assembler as the system `name` (the fields are :class:`SystemSpec`'s). The
        assembler runs once, in the main process, where it imports what the system needs (so that worker threads
        never import at once); it returns the function that makes one system per worker."""

        def decorate(assemble: Callable[[SystemInputs], SystemMaker]) -> Callable[[SystemInputs], SystemMaker]:
            self.add(SystemSpec(name, help, assemble, tuple(options), uses_llm, uses_classifier, uses_agent_settings))
            return assemble

        return decorate

    def get(self, name: str) -> SystemSpec:
        """The system called `name`; ConfigError names the closest ones otherwise."""
        try:
            return self._specs[name]
        except KeyError:
            close = difflib.get_close_matches(name, list(self._specs), n=3, cutoff=0.5)
            hint = f"did you mean {', '.join(close)}?" if close else f"the systems: {', '.join(self._specs)}"
            raise ConfigError(f"there is no system called {name!r}; {hint}") from None

    def __contains__(self, name: object) -> bool:
        return name in self._specs

    def __iter__(self) -> Iterator[SystemSpec]:
        return iter(self._specs.values())

    def names(self) -> list[str]:
        """The systems' names in registration order."""
        return list(self._specs)

    def options(self, names: list[str] | None = None) -> dict[Option, list[str]]:
        """Each option of the systems `names` (default: all), once, with the systems that take it."""
        out: dict[Option, list[str]] = {}
        for spec in self._specs.values():
            if names is None or spec.name in names:
                for option in spec.options:
                    out.setdefault(option, []).append(spec.name)
        return out

    def resolve(self, name: str, given: Mapping[str, Any]) -> dict[str, Any]:
        """The options of the system `name`: those `given` (checked), the defaults of the others. An option of
        another system (or of none) is a ConfigError."""
        spec = self.get(name)
        own = {o.name: o for o in spec.options}
        foreign = [n for n in given if n not in own]
        if foreign:
            raise ConfigError(self._not_options_of(name, foreign))
        return {o.name: o.check(given[o.name], name) if o.name in given else o.default for o in spec.options}

    def _not_options_of(self, name: str, foreign: list[str]) -> str:
        """Why options `foreign` are refused for the system `name`: whose options they are."""
        owners = {o.name: systems for o, systems in self.options().items()}
        by_owner: dict[str, list[str]] = {}
        for option in foreign:
            by_owner.setdefault(" and ".join(owners.get(option, [])), []).append(Option(option, "").flag)
        parts = []
        for systems, flags in by_owner.items():
            what = "are options" if len(flags) > 1 else "is an option"
            parts.append(f"{' and '.join(flags)} {what} of --system {systems}" if systems else
                         f"{' and '.join(flags)} {what} of no system")
        return f"{'; '.join(parts)}, not of --system {name}"


#: autodw's systems (loaded by :func:`autodw.eval.registered_systems`)
REGISTRY = SystemRegistry()


def register_system(name: str, *, help: str, options: tuple[Option, ...] = (),
                    uses_llm: bool | Callable[[Mapping[str, Any]], bool] = True, uses_classifier: bool = False,
                    uses_agent_settings: bool = True) -> Callable[[Callable[[SystemInputs], SystemMaker]],
                                                                  Callable[[SystemInputs], SystemMaker]]:
    """Register the decorated assembler as autodw's system `name` (see :meth:`SystemRegistry.register`)."""
    return REGISTRY.register(name, help=help, options=options, uses_llm=uses_llm, uses_classifier=uses_classifier,
                             uses_agent_settings=uses_agent_settings)
