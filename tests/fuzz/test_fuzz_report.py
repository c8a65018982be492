"""The reliability report renders from the results files, and every crash it lists names a regression test that
exists."""

from __future__ import annotations

import json

from tests.fuzz import report


def test_the_report_renders_every_section():
    text = report.render()
    for heading in ("## Fuzzing", "## Every API", "## Crashes found and fixed", "## Faults in the middle of work",
                    "## Hostile documents", "## Known limits"):
        assert heading in text


def test_every_crash_found_names_a_regression_test_that_exists():
    findings = json.loads(report.FINDINGS.read_text(encoding="utf-8"))
    assert findings
    for f in findings:
        path, name = f["test"].split("::")
        source = (report.ROOT / path).read_text(encoding="utf-8")
        assert f"def {name}(" in source, f["test"]
