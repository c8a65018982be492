"""The system registry (``@register_system``) and the command line built from it."""

from __future__ import annotations

import pytest

from autodw.errors import ConfigError
from autodw.eval.system_registry import Option, SystemRegistry

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
