"""Test helpers for rule packs, built-in or third-party: rule case files and the rule contract.

* :func:`load_cases` reads a folder of case files (one YAML file per rule, its
  passing and failing examples: tables, configs, notebook cells, live
  pipelines); :func:`check_case` runs one case and asserts what it expects
  (:mod:`nblint.testing.cases` describes the format).
* :func:`check_rule` checks the contract every rule keeps (documentation,
  cases, and behaviour: it never raises on empty, one-row or all-missing tables,
  without a target or under any model, and gives the same findings twice and
  whatever the column order); :mod:`nblint.testing.contract` says what is tried.
* :mod:`nblint.testing.rule_table` writes a README's rule tables from the rules.

A pack's tests (the README's "Development" section shows them)::

    import pytest
    from nblint import testing

    CASES = testing.load_cases("tests/rule_cases")

    @pytest.mark.parametrize("case", CASES, ids=lambda case: case.id)
    def test_case(case, tmp_path):
        testing.check_case(case, tmp_path)

    @pytest.mark.parametrize("rule", testing.rules_of("my_pack"), ids=lambda rule: rule.code)
    def test_contract(rule):
        testing.check_rule(rule, CASES)

``import nblint.testing`` imports neither pytest nor scikit-learn.
"""

from nblint.testing.cases import Case, build_table, case_findings, check_case, load_cases, notebook_text
from nblint.testing.contract import (
    CONTRACT_MODELS,
    check_case_coverage,
    check_rule,
    check_rule_behaviour,
    check_rule_metadata,
    contract_inputs,
    contract_table,
    rules_of,
)

__all__ = [
    "CONTRACT_MODELS",
    "Case",
    "build_table",
    "case_findings",
    "check_case",
    "check_case_coverage",
    "check_rule",
    "check_rule_behaviour",
    "check_rule_metadata",
    "contract_inputs",
    "contract_table",
    "load_cases",
    "notebook_text",
    "rules_of",
]
