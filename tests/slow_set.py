"""Some parameters of a parametrised test in the slow set: ``python -m pytest -m "not slow"`` leaves them out.

A generated parametrisation (scikit-learn's ``parametrize_with_checks``, nblint's
``testing.parametrize_with_checks``) is one decorator for every check; :func:`slow_where` marks
``slow`` the parameters whose assertion another fast test already makes, or that assert nothing
in the fast subset, so the fast subset pays for each assertion once. ``python -m pytest`` (CI)
still runs every one of them::

    @slow_where(testing.parametrize_with_checks(RULES.values(), CASES), lambda param: ...)
    def test_rule_contract(check): ...
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest


def slow_where(parametrize: pytest.MarkDecorator, is_slow: Callable[[Any], bool]) -> pytest.MarkDecorator:
    """``parametrize`` (a ``pytest.mark.parametrize``) with the parameters ``is_slow`` picks marked ``slow``.

    Parameters
    ----------
    parametrize : pytest.MarkDecorator
        Its parameters are values (a tuple for several names) or ``pytest.param(...)`` objects.
    is_slow : callable
        Given each parameter as written there; true for those that go to the slow set.
    """
    argnames, params = parametrize.mark.args
    marked = [
        pytest.param(*_values(argnames, param), id=getattr(param, "id", None), marks=[*_marks(param), pytest.mark.slow])
        if is_slow(param)
        else param
        for param in params
    ]
    return pytest.mark.parametrize(argnames, marked, **parametrize.mark.kwargs)


def _values(argnames, param) -> tuple:
    """The parameter's values, one per name."""
    if hasattr(param, "marks"):  # (a pytest.param)
        return tuple(param.values)
    several = len(argnames.split(",") if isinstance(argnames, str) else argnames) > 1
    return tuple(param) if several else (param,)


def _marks(param) -> list:
    return list(getattr(param, "marks", ()))


def expected_to_fail(param) -> bool:
    """Whether a parameter is marked ``xfail`` (scikit-learn's expected failures are not strict: they assert nothing)."""
    return any(mark.name == "xfail" for mark in _marks(param))
