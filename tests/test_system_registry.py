"""The system registry (``@register_system``) and the command line built from it."""

from __future__ import annotations

import json

import pytest

from autodw.core.errors import ConfigError
from autodw.eval import AGENT_ROLLBACK, BASELINES, registered_systems, system_registry
from autodw.eval.system_registry import Option, SystemInputs, SystemRegistry, register_system
from tests.conftest import run_cli

SIZE = Option("size", "how big", type=int, default=3, choices=(1, 2, 3))
COLOUR = Option("colour", "which colour", setting="rollback")


def _registry() -> SystemRegistry:
    registry = SystemRegistry()
    registry.register("plain", help="no options")(lambda given: object)
    registry.register("sized", help="one option", options=(SIZE, COLOUR), uses_llm=False)(lambda given: object)
    return registry


def test_an_unknown_system_is_a_config_error_naming_the_close_ones():
    with pytest.raises(ConfigError, match="did you mean sized"):
        _registry().get("size")
    with pytest.raises(ConfigError, match="the systems: plain, sized"):
        _registry().get("xyz")


def test_a_name_registered_twice_or_an_option_declared_two_ways_is_refused():
    registry = _registry()
    with pytest.raises(ValueError, match="'plain' is registered twice"):
        registry.register("plain", help="again")(lambda given: object)
    with pytest.raises(ValueError, match="--size other than sized"):
        registry.register("other", help="x", options=(Option("size", "how big", type=int),))(lambda given: object)
    with pytest.raises(ValueError, match="declares an option twice"):
        registry.register("twice", help="x", options=(SIZE, SIZE))(lambda given: object)
    registry.register("shares", help="the same option", options=(SIZE,))(lambda given: object)  # one flag for both
    assert registry.options()[SIZE] == ["sized", "shares"]
    assert registry.names() == ["plain", "sized", "shares"]


def test_options_are_resolved_checked_and_refused_for_another_system():
    registry = _registry()
    assert registry.resolve("sized", {}) == {"size": 3, "colour": None}
    assert registry.resolve("sized", {"colour": "red"}) == {"size": 3, "colour": "red"}
    with pytest.raises(ConfigError, match=r"--size of --system sized is one of 1, 2, 3, not 5"):
        registry.resolve("sized", {"size": 5})
    with pytest.raises(ConfigError, match="--size and --colour are options of --system sized, not of --system plain"):
        registry.resolve("plain", {"size": 1, "colour": "red"})
    with pytest.raises(ConfigError, match="--shade is an option of no system, not of --system plain"):
        registry.resolve("plain", {"shade": 1})
    spec = registry.get("sized")
    options = registry.resolve("sized", {"colour": "red"})
    assert spec.recorded(registry.resolve("sized", {})) == {"size": 3}  # an option without a value is not recorded
    assert spec.settings(options) == {"rollback": "red"}
    assert not spec.needs_llm(options) and registry.get("plain").needs_llm({})


def test_every_system_of_autodw_is_registered_in_the_order_the_command_line_listed_them():
    registry = registered_systems()
    assert registry.names() == [*AGENT_ROLLBACK, "oracle", "noop", "noisy-oracle", *BASELINES, "ceiling"]
    assert all(spec.help and "\n" not in spec.help for spec in registry)
    noisy = registry.get("noisy-oracle")
    assert not noisy.needs_llm(registry.resolve("noisy-oracle", {"validator": "rules"}))
    assert noisy.needs_llm(registry.resolve("noisy-oracle", {"validator": "llm"}))
    assert [s.name for s in registry if s.uses_llm is False] == ["oracle", "noop", "ceiling"]
    assert [s.name for s in registry if s.uses_classifier] == [*AGENT_ROLLBACK, *BASELINES, "ceiling"]


def test_help_lists_every_registered_system_with_its_line():
    result = run_cli("bench", "run", "--help")
    assert result.returncode == 0
    listing = result.stdout.split("systems:\n", 1)[1]
    for spec in registered_systems():
        assert f"  {spec.name} " in listing and spec.help in " ".join(listing.split()), spec.name
    assert "noisy-oracle: probability that a gold call is perturbed (default 0.2)" in " ".join(result.stdout.split())


class _Idle:
    """A system that does nothing (the noop's behaviour) and keeps what it was made from."""

    name, llm_name = "idle", "none"

    def __init__(self, given: SystemInputs):
        self.given = given

    def run_turn(self, doc, instruction, earlier, trace=None):
        from autodw.eval.systems import TurnResult

        return TurnResult("done")


@pytest.fixture
def idle_registered(monkeypatch):
    """autodw's systems and ``idle`` (option --speed), registered for one test only."""
    monkeypatch.setattr(system_registry, "REGISTRY", registered_systems().copy())

    @register_system("idle", help="does nothing, registered by a test", uses_llm=False, uses_agent_settings=False,
                     options=(Option("speed", "how fast it idles", type=float, metavar="X"),))
    def idle(given: SystemInputs):
        return lambda: _Idle(given)

    return idle


def test_a_system_registered_in_a_test_is_a_choice_of_bench_run_with_its_options(idle_registered, tmp_path):
    from autodw.interfaces.cli import build_parser
    from autodw.eval.run_commands import system_factory

    args = build_parser().parse_args(["bench", "run", "--system", "idle", "--speed", "2", "--split", "mini",
                                      "--out", str(tmp_path / "r")])
    make, llm_name, options = system_factory(args)
    assert (llm_name, options) == ("none", {"speed": 2.0}) and make().given.options == {"speed": 2.0}
    out = tmp_path / "run"
    result = run_cli("bench", "run", "--system", "idle", "--speed", "0.5", "--split", "mini", "--limit", "1", "--mode",
                     "instruction", "--no-word-check", "--out", str(out), "--format", "json")
    assert result.returncode == 0, result.stderr
    run = json.loads((out / "run.json").read_text())
    assert (run["system"], run["options"]) == ("idle", {"speed": 0.5})
    assert json.loads(result.stdout)["iacc"] == 0.0  # it does nothing
    refused = run_cli("bench", "run", "--system", "oracle", "--speed", "1", "--split", "mini", "--out", str(tmp_path / "o"))
    assert refused.returncode == 2 and "--speed is an option of --system idle, not of --system oracle" in refused.stderr
    assert "does nothing, registered by a test" in run_cli("bench", "run", "--help").stdout


def test_the_system_registered_in_a_test_is_gone_after_it():
    assert "idle" not in registered_systems()
    assert run_cli("bench", "run", "--system", "idle", "--split", "mini", "--out", "x").returncode == 2


def test_a_system_option_sets_its_agent_setting_and_is_recorded_as_before(tmp_path):
    from autodw.interfaces.cli import build_parser
    from autodw.eval.run_commands import system_factory

    args = build_parser().parse_args(["bench", "run", "--system", "noisy-oracle", "--validator", "rules", "--rollback",
                                      "none", "--set", "rollback=\"full\"", "--split", "mini", "--out", str(tmp_path)])
    make, llm_name, options = system_factory(args)
    assert llm_name == "none" and list(options) == ["config", "p", "validator", "seed", "rollback"]
    assert options["config"]["numbers"]["rollback"] == "none"  # the system's option, applied after --set
    assert {k: v for k, v in options.items() if k != "config"} == {"p": 0.2, "validator": "rules", "seed": 0,
                                                                   "rollback": "none"}
    assert make().name == "noisy-oracle"


@pytest.mark.parametrize("extra, named", [(["--profile", "hosted"], "--profile"), (["--threshold", "0.5"], "--threshold"),
                                          (["--set", "rollback=\"full\""], "--set"),
                                          (["--intents-model", "x", "--profile", "local"], "--profile, --intents-model")])
def test_a_setting_the_system_does_not_use_is_refused_not_ignored(extra, named, tmp_path):
    """The oracle uses no agent settings and no intent classifier: a flag setting them would be silently ignored."""
    from autodw.interfaces.cli import build_parser
    from autodw.eval.run_commands import system_factory

    args = build_parser().parse_args(["bench", "run", "--system", "oracle", *extra, "--split", "mini",
                                      "--out", str(tmp_path)])
    with pytest.raises(ConfigError, match=f"--system oracle does not use {named}: leave"):
        system_factory(args)
    args = build_parser().parse_args(["bench", "run", "--system", "noisy-oracle", "--threshold", "0.5", "--split",
                                      "mini", "--out", str(tmp_path)])
    assert system_factory(args)[2]["config"]["numbers"]["threshold"] == 0.5  # a system that uses it takes it
