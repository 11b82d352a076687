"""Every rule's case file (tests/rule_cases/CODE.yaml) run by one parametrised test.

The case format and its runner are :mod:`nblint.testing.cases`, which third-party
rule packs use the same way.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from nblint import testing

CASES = testing.load_cases(Path(__file__).parent / "rule_cases")


def test_every_case_file_is_named_after_its_rule():
    for path in sorted((Path(__file__).parent / "rule_cases").glob("*.yaml")):
        assert {case.rule for case in CASES if case.source == str(path)} == {path.stem}


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.id)
def test_rule_case(case, tmp_path):
    testing.check_case(case, tmp_path)
