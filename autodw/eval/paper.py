"""The plan of ``autodw bench paper``: the `bench run` units that reproduce the paper's Table 2, Table 3 and Fig. 3,
and what they are expected to cost, as data (a pure function of the options, the split's size and measured figures).

Units: the baselines and the agent at instruction and session level (Table 2; Table 3's iACC by difficulty comes from
the same instruction-level runs) and the rollback ablations (Fig. 3; the full agent is Table 2's), each repeated.
Each repeat has its own LLM cache (``OUT/llm-cache-rN.jsonl``): repeats are independent draws, the units of one
repeat share the answers to the prompts they share (the agent and its ablations until their first rollback), and a
resumed run asks no answer twice.

The expected LLM calls and tokens are per-instruction figures measured from kept runs (:data:`FIGURES`, made by
:func:`measure_figures`; its ``command`` says how) times the instructions each unit runs; money only at prices
given on the command line.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from autodw.core.errors import ConfigError
from autodw.dwbench.records import Session
from autodw.eval.run_folder import (generated_turns, instruction_unit, refuse_other_code, resume_path, session_folder,
                                    turn_unit)

#: per-instruction figures measured from kept runs (see :func:`measure_figures`)
FIGURES = Path(__file__).with_name("paper_figures.json")

#: what the paper reports, and the systems of each (the full agent's units serve Table 2 and Fig. 3)
TABLE_2 = ("retrieval-only", "reasoning-only", "hybrid", "autodw")
FIG_3 = ("no-rollback", "arg-rollback", "two-round")
MODES = ("instruction", "session")

#: systems without a kept run, and whose figures stand in for theirs (and why)
STAND_INS = {
    "retrieval-only": ("reasoning-only", "one answer per instruction as reasoning-only's; ten APIs' documentation in "
                                         "its prompt instead of the whole library's"),
    "two-round": ("autodw", "the full agent's, a lower bound: a second round of rollback only adds calls"),
}
#: what measured figures of the embedded model say about another model's run
CAVEAT = ("The figures are a small local model's under the local profile. A hosted model runs under the hosted "
          "profile, whose prompts show up to 6000 tokens of document state and the full API documentation (local: "
          "1500/350/180 tokens, one line per API), so its prompts are several times longer, while a stronger model "
          "needs fewer retries and rollbacks: read the estimate as an order of magnitude, not a quote.")


@dataclass(frozen=True)
class PaperOptions:
    """What ``bench paper`` was given (the LLM endpoint's, the data's and the run's settings)."""

    llm: str
    out: str
    split: str = "test"
    track: str = "templated"
    repeats: int = 3
    workers: int = 1
    base_url: str | None = None
    api_key_env: str | None = None
    rpm: float | None = None
    tpm: float | None = None
    concurrency: int | None = None
    price_in: float | None = None
    price_out: float | None = None
    profile: str | None = None
    limit: int | None = None
    sessions: str | None = None
    no_word_check: bool = False

    def __post_init__(self) -> None:
        if (self.price_in is None) != (self.price_out is None):
            raise ConfigError("give both --price-in and --price-out (per million prompt and completion tokens), or neither")
        for name in ("price_in", "price_out"):
            value = getattr(self, name)
            if value is not None and not value >= 0:
                raise ConfigError(f"--{name.replace('_', '-')} must be a price of at least 0, not {value}")


@dataclass(frozen=True)
class Unit:
    """One `bench run`: a system in one mode, one repeat, into ``OUT/<folder>`` (both modes of a system and repeat
    share a folder, as a run continued with the other mode). `argv` is the `bench run` command line after ``run``."""

    system: str
    mode: str
    repeat: int
    folder: str
    argv: tuple[str, ...]
    reports: tuple[str, ...]
    #: the instructions (session turns in session mode) it has left to run: the expected figures are theirs
    instructions: int
    llm_calls: float
    prompt_tokens: float
    completion_tokens: float
    #: where the figures come from: the system's own measured run, or a stand-in's (said why)
    basis: str
    #: the instructions (turns) of the unit generated before (a resumed run): not asked again, not counted
    done: int = 0


@dataclass
class Plan:
    """The units of a paper run and their expected totals."""

    options: PaperOptions
    sessions: int
    instructions: int
    units: list[Unit]
    figures: dict[str, Any] = field(repr=False)

    @property
    def done(self) -> int:
        """The instructions (turns) of every unit generated before: not counted in the expected figures."""
        return sum(u.done for u in self.units)

    @property
    def llm_calls(self) -> float:
        return sum(u.llm_calls for u in self.units)

    @property
    def prompt_tokens(self) -> float:
        return sum(u.prompt_tokens for u in self.units)

    @property
    def completion_tokens(self) -> float:
        return sum(u.completion_tokens for u in self.units)

    @property
    def money(self) -> float | None:
        """The expected price at the given prices per million tokens (None without prices)."""
        o = self.options
        if o.price_in is None or o.price_out is None:
            return None
        return (self.prompt_tokens * o.price_in + self.completion_tokens * o.price_out) / 1e6

    @property
    def minimum_minutes(self) -> float | None:
        """The least wall time the --rpm and --tpm limits allow for the expected calls and tokens (None without)."""
        o = self.options
        bounds = [self.llm_calls / o.rpm if o.rpm else 0.0,
                  (self.prompt_tokens + self.completion_tokens) / o.tpm if o.tpm else 0.0]
        return max(bounds) if o.rpm or o.tpm else None


def load_figures(path: Path = FIGURES) -> dict[str, Any]:
    """The committed per-instruction figures."""
    return json.loads(path.read_text(encoding="utf-8"))


def plan_paper(options: PaperOptions, sessions: int, instructions: int, figures: dict[str, Any],
               done: Callable[[str, str], int] | None = None) -> Plan:
    """The units of a paper run on a split of `sessions` sessions and `instructions` instructions, and the cost of
    what they have left: `done(folder, mode)`, the instructions (turns) a unit generated before (:func:`generated`;
    None: a new run), is not counted."""
    if options.repeats < 1:
        raise ConfigError(f"--repeats must be at least 1, not {options.repeats}")
    units = []
    for repeat in range(1, options.repeats + 1):
        for mode in MODES:  # each repeat's instruction-level units first: Table 2's iACC comes soonest
            for system in (*TABLE_2, *FIG_3):
                reports = (("Table 2", "Fig. 3") if system == "autodw" else ("Fig. 3",) if system in FIG_3
                           else ("Table 2",))
                if mode == "instruction" and "Table 2" in reports:
                    reports = (*reports[:1], "Table 3", *reports[1:])
                per, basis = _figures_of(system, figures)
                folder = f"r{repeat}/{system}"
                before = min(done(folder, mode), instructions) if done else 0
                left = instructions - before
                units.append(Unit(system, mode, repeat, folder, _argv(options, system, mode, repeat, folder),
                                  reports, left, per["llm_calls_per_instruction"] * left,
                                  per["prompt_tokens_per_instruction"] * left,
                                  per["completion_tokens_per_instruction"] * left, basis, before))
    return Plan(options, sessions, instructions, units, figures)


def generated(folder: Path, mode: str, sessions: list[Session]) -> int:
    """How many instructions of a unit run folder `folder` generated before, which a resumed run does not ask for
    again (:mod:`autodw.eval.work`): in instruction mode those with a status; in session mode the turns each session
    continues after (those generated one after another from turn 1, none if the session runs again from turn 1: a
    later turn has files, or the document to continue from is gone). ConfigError if other code made the folder:
    the plan refuses it before it is printed, as the run would."""
    if (folder / "run.json").is_file():
        refuse_other_code(folder, json.loads((folder / "run.json").read_text(encoding="utf-8")))
    if mode == "instruction":
        return sum(instruction_unit(folder, s, i).status.is_file() for s in sessions for i in s.instructions)
    total = 0
    for s in sessions:
        turns = generated_turns(folder, s)
        later = any(turn_unit(folder, s, i).status.is_file() for i in s.instructions[turns:])
        lost = 0 < turns < len(s.instructions) and not resume_path(session_folder(folder, s), turns).is_file()
        total += 0 if later or lost else turns
    return total


def _figures_of(system: str, figures: dict[str, Any]) -> tuple[dict[str, float], str]:
    """The per-instruction figures a system's units are estimated from, and what they rest on."""
    measured = figures["systems"]
    if system in measured:
        return measured[system], f"measured ({measured[system]['run']})"
    other, why = STAND_INS.get(system, (None, ""))
    if other not in measured:
        raise ConfigError(f"{FIGURES.name} has no figures for {system} and none to stand in for them")
    return measured[other], f"no kept run: {other}'s figures ({why})"


def _argv(o: PaperOptions, system: str, mode: str, repeat: int, folder: str) -> tuple[str, ...]:
    """The `bench run` arguments of one unit."""
    argv = ["--system", system, "--split", o.split, "--track", o.track, "--mode", mode, "--llm", o.llm,
            "--out", str(Path(o.out) / folder), "--llm-cache", str(Path(o.out) / f"llm-cache-r{repeat}.jsonl"),
            "--workers", str(o.workers)]
    for flag, value in (("--base-url", o.base_url), ("--api-key-env", o.api_key_env), ("--rpm", o.rpm),
                        ("--tpm", o.tpm), ("--concurrency", o.concurrency), ("--profile", o.profile),
                        ("--limit", o.limit), ("--sessions", o.sessions)):
        if value is not None:
            argv += [flag, f"{value:g}" if isinstance(value, float) else str(value)]
    if o.no_word_check:
        argv.append("--no-word-check")
    return tuple(argv)


def plan_text(plan: Plan) -> str:
    """The plan as printed before a run (and alone with --dry-run)."""
    o, f = plan.options, plan.figures
    from autodw.llm.factory import PROVIDERS

    kind = o.llm.partition(":")[0]
    endpoint = o.base_url or (PROVIDERS[kind][0] if kind in PROVIDERS else None) or "its endpoint (OPENAI_BASE_URL)"
    lines = [f"autodw bench paper: {o.llm} at {endpoint}, {o.track} {o.split} ({plan.sessions} sessions, "
             f"{plan.instructions} instructions), {o.repeats} repeat(s), into {o.out}",
             f"{len(plan.units)} units (`autodw bench run ...`, each resumable): the {len(plan.units) // o.repeats} of "
             f"a repeat below, each repeat in OUT/rN with its own LLM cache OUT/llm-cache-rN.jsonl; expected per unit:"]
    for u in plan.units:
        if u.repeat == 1:
            lines.append(f"  {u.system:<15} {u.mode:<11} {', '.join(u.reports):<24} ~{count_text(u.llm_calls)} LLM calls, "
                         f"~{count_text(u.prompt_tokens)} prompt + ~{count_text(u.completion_tokens)} completion tokens"
                         + (f" ({u.done} of {u.done + u.instructions} done before)" if u.done else ""))
    if plan.done:
        lines.append(f"resumed: {plan.done:,} instructions (session turns) of the units were run before, into {o.out}; "
                     "they are not asked again and not counted below")
    lines.append(f"expected in all{' (what is left)' if plan.done else ''}: ~{count_text(plan.llm_calls)} LLM calls, "
                 f"~{count_text(plan.prompt_tokens)} prompt and ~{count_text(plan.completion_tokens)} completion tokens")
    if plan.money is None:
        lines.append("money: not estimated (no prices given: --price-in X --price-out Y, per million tokens)")
    else:
        lines.append(f"money: ~{plan.money:,.2f} at {o.price_in:g} per million prompt tokens and {o.price_out:g} per "
                     "million completion tokens (the prices given; discounts for cached prompts not counted)")
    if plan.minimum_minutes is not None:
        lines.append(f"time: at least {duration_text(plan.minimum_minutes)} at the --rpm/--tpm given (more: the model's "
                     "own time is not counted)")
    basis = sorted({(u.system, u.basis) for u in plan.units})
    lines += [f"The estimate rests on per-instruction figures measured with {f['llm']} (agent profile "
              f"{f['profile']}) on {f['track']} {f['split']}, from {FIGURES.name} (made by `{f['command']}`):",
              *(f"  {system}: {b}" for system, b in basis),
              "  session units: the instruction figures times the turns (each turn runs as an instruction does);",
              f"  {CAVEAT}",
              "  Units of one repeat share its LLM cache, so prompts they share are asked once: the calls made are "
              "fewer. A resumed run asks only what is missing, and the figures above count only that."]
    return "\n".join(lines)


def measure_figures(runs: list[Path], command: str) -> dict[str, Any]:
    """The per-instruction figures of kept instruction-level runs (one per system), as :data:`FIGURES` holds them;
    `command` is the command line that measured them, written with them."""
    systems: dict[str, Any] = {}
    first: dict[str, Any] | None = None
    for run in runs:
        summary = json.loads((run / "summary.json").read_text(encoding="utf-8"))
        spec = json.loads((run / "run.json").read_text(encoding="utf-8"))
        if not summary.get("instructions"):
            raise ConfigError(f"{run} has no instruction-level records to measure")
        if summary["system"] in systems:
            raise ConfigError(f"two runs of {summary['system']} given: {systems[summary['system']]['run']} and {run}")
        first = first or {"llm": summary["llm"], "split": summary["split"], "track": spec.get("track", "templated"),
                          "profile": spec["options"].get("config", {}).get("profile")}
        systems[summary["system"]] = {
            "run": str(run), "instructions": summary["instructions"],
            **{k: summary[k] for k in ("llm_calls_per_instruction", "prompt_tokens_per_instruction",
                                       "completion_tokens_per_instruction")}}
    if first is None:
        raise ConfigError("give the run folders to measure")
    return {**first, "command": command, "systems": systems}


def count_text(x: float) -> str:
    """A count as people read it: 917, 5.4k, 32.3M (the plan's and the report's)."""
    for size, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if x >= size:
            return f"{x / size:.1f}{suffix}"
    return f"{x:.0f}"


def duration_text(minutes: float) -> str:
    """Minutes as hours and minutes."""
    hours, rest = divmod(round(minutes), 60)
    return f"{hours} h {rest} min" if hours else f"{rest} min"
