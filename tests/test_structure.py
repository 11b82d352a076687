"""Group detection from values alone, and VIF against statsmodels (the oracle)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import statsmodels.api as sm
from hypothesis import given, settings
from hypothesis import strategies as st
from statsmodels.stats.outliers_influence import variance_inflation_factor

import nblint
from nblint.analyses import TableContext
from nblint.engine import resolved_options
from nblint.profile import TableProfile
from nblint.readers import DataFrameSource
from tables import mixed_table, onehot


def context(frame, target=None):
    source = DataFrameSource(frame)
    return TableContext(source, TableProfile.from_source(source, target), None, resolved_options())


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 100_000))
def test_groups_found_from_values_with_meaningless_shuffled_names(seed):
    frame, truth = mixed_table(seed)
    structure = context(frame, "target").structure
    assert {frozenset(g.members) for g in structure.onehot} == {frozenset(s) for s in truth["onehot"]}
    assert {frozenset(g.members) for g in structure.dummy} == {frozenset(s) for s in truth["dummy"]}
    assert any(set(cols) == truth["identical"] for cols in structure.identical)


def test_group_members_are_exact_even_with_rare_levels_and_few_rows():
    # 12 rows, a level seen once: chance exclusivity is everywhere, the exact cover is unique.
    codes = np.array([0, 1, 2, 0, 1, 2, 0, 1, 3, 0, 1, 2])
    frame = onehot(codes, 4, ["a", "b", "c", "d"])
    frame["noise"] = [1, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 0]
    groups = context(frame).structure.onehot
    assert [g.members for g in groups] == [["a", "b", "c", "d"]]


def test_names_label_the_variable_but_never_decide():
    rng = np.random.default_rng(1)
    codes = rng.integers(0, 3, 200)
    frame = onehot(codes, 3, ["color_red", "color_green", "color_blue"])
    frame["color_extra"] = (rng.random(200) < 0.5).astype(int)  # same stem, not a member
    group, = context(frame).structure.onehot
    assert group.members == ["color_red", "color_green", "color_blue"]
    assert group.stem == "color"


def test_shuffling_columns_does_not_change_the_groups():
    frame, truth = mixed_table(7)
    for seed in range(3):
        shuffled = frame[np.random.default_rng(seed).permutation(frame.columns)]
        found = {frozenset(g.members) for g in context(shuffled, "target").structure.onehot}
        assert found == {frozenset(s) for s in truth["onehot"]}


def statsmodels_vif(frame: pd.DataFrame) -> dict[str, float]:
    exog = sm.add_constant(frame.to_numpy(dtype=float), has_constant="add")
    return {c: variance_inflation_factor(exog, i + 1) for i, c in enumerate(frame.columns)}


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 100_000), p=st.integers(2, 8))
def test_vif_matches_statsmodels_on_random_tables(seed, p):
    rng = np.random.default_rng(seed)
    n = 50 + 10 * p
    base = rng.normal(size=(n, p)) @ rng.normal(size=(p, p))  # correlated, full rank
    frame = pd.DataFrame(base * rng.uniform(0.1, 1000, p) + rng.normal(0, 100, p), columns=[f"x{i}" for i in range(p)])
    ours = context(frame).vif.vif
    oracle = statsmodels_vif(frame)
    for column, value in oracle.items():
        assert ours[column] == pytest.approx(value, rel=1e-6)


def test_vif_with_a_group_drops_one_level_and_matches_statsmodels_on_what_remains():
    rng = np.random.default_rng(3)
    n = 400
    codes = rng.integers(0, 4, n)
    group = onehot(codes, 4, ["g0", "g1", "g2", "g3"])
    x = rng.normal(size=n) + codes * 0.5  # related to the group, not determined by it
    frame = pd.concat([group, pd.DataFrame({"x": x, "w": rng.normal(size=n)})], axis=1)
    result = context(frame).vif
    assert result.vif["g3"] == float("inf") and result.dropped == {"g3": "g0+g1+g2+..."}
    oracle = statsmodels_vif(frame.drop(columns=["g3"]))
    for column in ("g0", "g1", "g2", "x", "w"):
        assert result.vif[column] == pytest.approx(oracle[column], rel=1e-6)


def test_statsmodels_gives_garbage_on_exact_groups_we_report_infinity():
    rng = np.random.default_rng(5)
    frame = onehot(rng.integers(0, 3, 100), 3, ["a", "b", "c"])
    result = context(frame).vif
    assert np.isinf(result.vif["c"])
    assert all(np.isfinite(result.vif[c]) for c in ("a", "b"))


def test_exact_linear_combination_is_found_with_its_coefficients():
    rng = np.random.default_rng(9)
    a, b = rng.normal(size=100), rng.normal(size=100)
    frame = pd.DataFrame({"a": a, "b": b, "total": 2 * a - 3 * b + 5, "other": rng.normal(size=100)})
    report = nblint.check(frame, select=["NB104"])
    finding, = report.findings
    assert finding.columns == ["a", "b", "total"]
    assert "total = 2*a - 3*b + 5" in finding.message
    assert finding.evidence["combination"] == {"a": pytest.approx(2.0), "b": pytest.approx(-3.0)}


def test_broken_group_reports_counts_and_example_rows():
    rng = np.random.default_rng(11)
    codes = rng.integers(0, 3, 500)
    frame = onehot(codes, 3, ["k1", "k2", "k3"])
    frame.loc[[9, 99], ["k1", "k2", "k3"]] = 0  # rows 10 and 100 (1-based) sum to 0
    frame.loc[249, ["k1", "k2"]] = 1  # row 250 sums to 2
    finding, = nblint.check(frame, select=["NB103"]).findings
    assert finding.columns == ["k1", "k2", "k3"]
    assert finding.rows == [10, 100, 250]
    assert finding.evidence["rows_summing_to_zero"] == 2
    assert finding.evidence["rows_summing_to_two_or_more"] == 1
