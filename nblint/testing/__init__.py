"""Test helpers for rule packs, built-in or third-party: rule case files and the rule contract.

* :func:`load_cases` reads a folder of case files (one YAML file per rule, its
  passing and failing examples: tables, configs, notebook cells, live
  pipelines); :func:`check_case` runs one case and asserts what it expects
  (:mod:`nblint.testing.cases` describes the format).
* :func:`check_rule` checks the contract every rule keeps (documentation,
  cases, and behaviour: it never raises on empty, one-row or all-missing tables,
  without a target or under any model, and gives the same findings twice and
  whatever the column order; every message a template over its evidence, :mod:`nblint.testing.templates`);
  :mod:`nblint.testing.contract` says what is tried.
* :func:`parametrize_with_checks` makes each (rule, check, input) a test of its own, with the
  rule's documented exemptions, as scikit-learn's function of that name
  (:mod:`nblint.testing.checks`).
* :func:`context` builds a table's analysis context the way a run does (the one factory), for
  tests that look inside the analyses (:mod:`nblint.testing.kit`).
* :mod:`nblint.testing.rule_table` writes a README's rule tables from the rules.

A pack's tests (docs/development.md shows them)::

    import pytest
    from nblint import testing

    CASES = testing.load_cases("tests/rule_cases")

    @pytest.mark.parametrize("case", CASES, ids=lambda case: case.id)
    def test_case(case, tmp_path):
        testing.check_case(case, tmp_path)

    @testing.parametrize_with_checks(testing.rules_of("my_pack"), CASES)
    def test_contract(check):
        check()

``import nblint.testing`` imports neither pytest nor scikit-learn.
"""

from nblint.testing.cases import Case, build_table, case_findings, check_case, load_cases, notebook_text
from nblint.testing.checks import CHECKS, RuleCheck, check_rule, parametrize_with_checks, rule_checks, stale_exemptions
from nblint.testing.contract import (
    CONTRACT_MODELS,
    check_case_coverage,
    check_messages_of_case,
    check_messages_on,
    check_rule_behaviour,
    check_rule_metadata,
    check_rule_templates,
    contract_inputs,
    contract_table,
    rules_of,
)
from nblint.testing.kit import context

__all__ = [
    "CHECKS",
    "CONTRACT_MODELS",
    "RuleCheck",
    "check_messages_on",
    "check_messages_of_case",
    "check_rule_templates",
    "context",
    "parametrize_with_checks",
    "rule_checks",
    "stale_exemptions",
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
