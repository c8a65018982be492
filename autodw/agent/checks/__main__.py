"""``python -m autodw.agent.checks > docs/reference/rule-checks.md``: the rule checks' catalogue, from the registry."""

import sys

from autodw.agent.checks import catalogue_page

sys.stdout.write(catalogue_page())
