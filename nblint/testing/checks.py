"""The rule contract as one test per (rule, check, input), as scikit-learn's ``parametrize_with_checks``.

:func:`rule_checks` lists the checks of :mod:`nblint.testing.contract` for one rule,
each bound to its input and callable on its own; :func:`parametrize_with_checks` makes
them pytest parameters whose ids say what broke (``NB201-behaviour-a_one_row_table_no_model``,
``NB201-messages-case3``), so ``pytest -k`` picks any of them::

    from nblint import testing

    CASES = testing.load_cases("tests/rule_cases")

    @testing.parametrize_with_checks(testing.rules_of("my_pack"), CASES)
    def test_rule_contract(check):
        check()

The checks are ``metadata``, ``templates`` (the rule's message templates, see
:mod:`nblint.testing.templates`), ``case_coverage`` (with cases), ``behaviour`` on each
contract input the rule reads, and ``messages`` (each message its template over its
evidence) on each contract input and each failing case (``caseN``: the N-th case of the
rule's case file, from 1).

A rule may be known to fail a check: its ``contract_exemptions`` (check name -> why)
document it in the rule itself, and ``expected_failed_checks`` (a function of the rule
returning the same kind of mapping) adds exemptions from the test module, as
scikit-learn's argument of that name does. An exempt check is marked as an expected
failure on every input (``xfail``, not strict: a rule fails a check on some inputs and
passes it on those where it says nothing); :func:`stale_exemptions` tells which
exemptions no input needs any more.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from nblint.engine import Rule

#: The contract's checks, in the order they run.
CHECKS = ("metadata", "templates", "case_coverage", "behaviour", "messages")


@dataclass(frozen=True)
class RuleCheck:
    """One check of the contract on one rule and one input: call it to run it (AssertionError when it breaks)."""

    rule: type[Rule]
    check: str  # one of CHECKS
    input: str = ""  # a contract input's name, ``caseN``, or "" for a check of the rule alone
    run: Callable[[], None] = field(repr=False, compare=False, default=lambda: None)

    @property
    def id(self) -> str:
        """``CODE-check[-input]``, the input as a word (``NB207-behaviour-a_typical_table_no_model``)."""
        slug = re.sub(r"[^A-Za-z0-9=.]+", "_", self.input).strip("_")
        return "-".join(part for part in (self.rule.code, self.check, slug) if part)

    def __call__(self) -> None:
        self.run()


def check_rule(rule: type[Rule], cases=None) -> None:
    """Check the whole contract on one rule class (but the checks it is exempt from: ``Rule.contract_exemptions``).

    Parameters
    ----------
    rule : subclass of nblint.engine.Rule
        Registered through a pack's entry point or not.
    cases : list of nblint.testing.Case, optional
        The pack's cases (:func:`nblint.testing.load_cases`): when given, the
        rule's cases must cover it (:func:`check_case_coverage`).

    Raises
    ------
    AssertionError
        Naming the rule, the input and what broke.
    """
    from nblint.core.blas import one_blas_thread

    exempt = rule.contract_exemptions
    with one_blas_thread():  # (set once for the whole rule: see check_rule_behaviour)
        for check in rule_checks(rule, cases):
            if check.check not in exempt:
                check()


def rule_checks(rule: type[Rule], cases: Iterable[Any] | None = None) -> Iterator[RuleCheck]:
    """Every check of the contract on ``rule``, one per input (see the module docstring).

    Parameters
    ----------
    rule : subclass of nblint.engine.Rule
    cases : list of nblint.testing.Case, optional
        The pack's cases: with them, ``case_coverage`` and ``messages`` on the rule's failing cases.
    """
    from nblint.testing import contract

    yield RuleCheck(rule, "metadata", run=lambda: contract.check_rule_metadata(rule))
    yield RuleCheck(rule, "templates", run=lambda: contract.check_rule_templates(rule))
    own = [case for case in cases or () if case.rule == rule.code]
    if cases is not None:
        every = list(cases)
        yield RuleCheck(rule, "case_coverage", run=lambda: contract.check_case_coverage(rule, every))
    items = contract.inputs_for(rule)
    for item in items:
        yield RuleCheck(rule, "behaviour", item.name, partial(contract.check_rule_behaviour_on, rule, item.name))
    for item in items:
        yield RuleCheck(rule, "messages", item.name, partial(contract.check_messages_on, rule, item.name))
    for number, case in enumerate(own, 1):
        if case.spec.get("expect") == "fail":
            yield RuleCheck(rule, "messages", f"case{number}", partial(contract.check_messages_of_case, rule, case))


def parametrize_with_checks(
    rules: Iterable[type[Rule]],
    cases: Iterable[Any] | None = None,
    expected_failed_checks: Callable[[type[Rule]], dict[str, str]] | None = None,
):
    """A ``pytest.mark.parametrize`` over every (rule, check, input) of the contract, parameter ``check``.

    Parameters
    ----------
    rules : iterable of Rule subclasses
        Typically ``nblint.testing.rules_of("my_pack")``.
    cases : list of nblint.testing.Case, optional
        The pack's cases (:func:`nblint.testing.load_cases`).
    expected_failed_checks : callable, optional
        ``rule -> {check name: reason}``: checks known to fail, beside the rule's own
        ``contract_exemptions``; both are marked ``xfail``.

    Returns
    -------
    pytest.MarkDecorator
    """
    import pytest  # (here: importing nblint.testing imports no pytest)

    cases = list(cases) if cases is not None else None
    params = []
    for rule in rules:
        exempt = dict(rule.contract_exemptions) | dict(expected_failed_checks(rule) if expected_failed_checks else {})
        unknown = set(exempt) - set(CHECKS)
        if unknown:
            raise ValueError(f"{rule.code} is exempt from checks that do not exist: {sorted(unknown)} (see {CHECKS})")
        for check in rule_checks(rule, cases):
            marks = [pytest.mark.xfail(reason=exempt[check.check], strict=False)] if check.check in exempt else []
            params.append(pytest.param(check, id=check.id, marks=marks))
    return pytest.mark.parametrize("check", params)


def stale_exemptions(rule: type[Rule], cases: Iterable[Any] | None = None) -> list[str]:
    """The checks in ``rule.contract_exemptions`` that the rule now passes on every input (remove them)."""
    stale = []
    for name in rule.contract_exemptions:
        failed = False
        for check in rule_checks(rule, cases):
            if check.check != name:
                continue
            try:
                check()
            except AssertionError:
                failed = True
                break
        if not failed:
            stale.append(name)
    return stale
