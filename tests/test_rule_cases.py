"""Every rule's case file (tests/rule_cases/CODE.yaml) run by one parametrised test.

A case gives a table (CSV text, optionally with its data rows repeated ``repeat``
times and ``append`` rows added), the target/model/options, and whether the rule
must fire (``fail``) or stay silent (``pass``); a failing case may also name the
finding's exact ``columns``, example ``rows``, ``severity`` and a ``message_contains``
string.  ``alpha`` is the model's known smoothing (as in the config).
"""

from __future__ import annotations

import io
from pathlib import Path

import pandas as pd
import pytest
import yaml

import nblint

CASE_DIR = Path(__file__).parent / "rule_cases"


def load_cases():
    for path in sorted(CASE_DIR.glob("NB*.yaml")):
        spec = yaml.safe_load(path.read_text())
        for case in spec["cases"]:
            yield pytest.param(spec["rule"], case, id=f"{spec['rule']}-{case['name']}")


def build_table(case) -> pd.DataFrame:
    header, *rows = case["table"].strip("\n").splitlines()
    rows = rows * int(case.get("repeat", 1)) + case.get("append", "").strip("\n").splitlines()
    return pd.read_csv(io.StringIO("\n".join([header, *rows]) + "\n"))


@pytest.mark.parametrize("code, case", list(load_cases()))
def test_rule_case(code, case):
    frame = build_table(case)
    options = {code: case["options"]} if "options" in case else None
    report = nblint.check(frame, target=case.get("target", "y"), model=case.get("model"), alpha=case.get("alpha"),
                          select=[code], options=options)
    findings = [f for f in report if f.code == code]
    if case["expect"] == "pass":
        assert findings == [], [f.message for f in findings]
        return
    assert case["expect"] == "fail"
    assert findings, f"{code} did not fire"
    if "columns" in case:
        assert any(f.columns == case["columns"] for f in findings), [f.columns for f in findings]
    if "rows" in case:
        assert any(f.rows == case["rows"] for f in findings), [f.rows for f in findings]
    if "severity" in case:
        assert {str(f.severity) for f in findings} == {case["severity"]}
    if "message_contains" in case:
        assert any(case["message_contains"] in f.message for f in findings), [f.message for f in findings]
