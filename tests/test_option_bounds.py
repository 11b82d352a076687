"""Every rule option at its bounds: a configured value the option accepts never breaks a check.

An option's ``minimum``/``maximum`` say which values a user may configure; the rule must then work at
them (NB201's ``max-cells = 0`` crashed the run, its message naming the first cell: its minimum is 1). Each
rule's failing table cases (tests/rule_cases; train/test cases with their test table) run with each of its numeric options at its minimum and at its maximum (or, with none,
at a thousand times its default): the check completes and every finding of the rule renders its message.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from nblint import testing
from nblint.engine import load_rules

CASES = [
    case
    for case in testing.load_cases(Path(__file__).parent / "rule_cases")
    if case.kind == "table" and case.spec["expect"] == "fail" and "options" not in case.spec
]


def _bounds(option) -> list:
    """The values at the edges of what the option accepts (a number's minimum and maximum, or a large one)."""
    kind = type(option.default)
    if kind is bool or kind not in (int, float):
        return []
    high = option.maximum if option.maximum is not None else option.default * 1000 if option.default else 10**6
    return [kind(v) for v in (option.minimum, high) if v is not None]


PARAMS = [
    pytest.param(code, option.name, value, id=f"{code}-{option.name}={value:g}")
    for code, rule in sorted(load_rules().items())
    if any(case.rule == code for case in CASES)
    for option in rule.options
    for value in _bounds(option)
]


@pytest.mark.parametrize(("code", "name", "value"), PARAMS)
def test_rule_runs_with_an_option_at_its_bound(code, name, value):
    cases = [case for case in CASES if case.rule == code][:3]
    for case in cases:
        # (the case runner's own check: its model, alpha and test table, the option set where the rule declares it)
        for finding in testing.case_findings(replace(case, spec={**case.spec, "options": {name: value}})):
            assert finding["code"] == code
            assert finding["message"].strip(), finding


def test_the_bounds_cover_every_rule_with_table_cases():
    """No rule with failing table cases and a numeric option is left out of the bounds test."""
    covered = {code for code, _, _ in (p.values for p in PARAMS)}
    with_numbers = {
        code
        for code, rule in load_rules().items()
        if any(case.rule == code for case in CASES) and any(_bounds(o) for o in rule.options)
    }
    assert covered == with_numbers and len(covered) >= 10
