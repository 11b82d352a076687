"""NB104 on tables with more columns than rows: the rank is the rows', said once; short exact
combinations still found; one factorisation for every dependent column; no column-order effect."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from statsmodels.stats.outliers_influence import variance_inflation_factor
from statsmodels.tools import add_constant
from tables import onehot

import nblint
from nblint.structure.vif import variance_inflation


def comoment(frame: pd.DataFrame) -> np.ndarray:
    X = frame.to_numpy(dtype=float)
    X = X - X.mean(axis=0)
    return X.T @ X


def wide_onehot(n: int, groups: int, k: int, seed: int) -> pd.DataFrame:
    """bench_check's wide shape at small scale: ``groups`` one-hot groups of ``k`` levels and a target."""
    rng = np.random.default_rng(seed)
    parts = [onehot(rng.integers(0, k, n), k, [f"w{g}_{j}" for j in range(k)]) for g in range(groups)]
    return pd.concat([*parts, pd.DataFrame({"y": rng.integers(0, 2, n)})], axis=1)


def nb104(frame: pd.DataFrame) -> list[tuple]:
    report = nblint.check(frame, target="y", select=["NB104"])
    return [(f.code, str(f.severity), f.message, tuple(f.columns)) for f in report.findings]


def test_more_columns_than_rows_is_one_info_finding():
    frame = wide_onehot(n=60, groups=20, k=5, seed=0)  # 100 bits on 60 rows
    ((code, severity, message, _),) = nb104(frame)
    assert (code, severity) == ("NB104", "info")
    assert "by arithmetic alone" in message and "60 rows" in message


def test_a_short_combination_still_holds_on_a_wide_table():
    """``total = a + b`` is a fact about the data at any number of rows; the other columns past
    the rank are the table's shape. Both are said: the total as a warning, the rest once."""
    rng = np.random.default_rng(1)
    n = 40
    noise = pd.DataFrame(rng.normal(size=(n, 80)), columns=[f"m{i:02d}" for i in range(80)])
    # named to sort first, so that name-order pivoting keeps a and b among the independent columns
    frame = pd.concat([pd.DataFrame({"a": rng.normal(size=n), "b": rng.normal(size=n)}), noise], axis=1).assign(
        zz_total=lambda f: f["a"] + f["b"], y=rng.integers(0, 2, n)
    )
    findings = nb104(frame)
    infos = [f for f in findings if f[1] == "info"]
    exact = [f for f in findings if f[1] == "warning"]
    assert len(infos) == 1 and "1 short ones" in infos[0][2]
    assert [f[3] for f in exact] == [("a", "b", "zz_total")]
    assert "zz_total = a + b" in exact[0][2]
    # The oracle: on the three columns alone statsmodels sees the exact dependency.
    X = add_constant(frame[["a", "b", "zz_total"]].to_numpy())
    with pytest.warns(UserWarning, match="poorly conditioned"):
        assert variance_inflation_factor(X, 3) > 1e10


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), order=st.randoms(use_true_random=False))
def test_findings_do_not_depend_on_column_order(seed, order):
    rng = np.random.default_rng(seed)
    n = 30
    frame = pd.DataFrame(rng.integers(0, 2, size=(n, 50)), columns=[f"c{i:02d}" for i in range(50)])
    frame["s"] = frame["c03"] + frame["c07"]  # a short combination among the columns past the rank
    frame["y"] = rng.integers(0, 2, n)
    columns = list(frame.columns)
    order.shuffle(columns)
    assert nb104(frame[columns]) == nb104(frame)


@pytest.mark.parametrize("seed", range(3))
def test_dependent_columns_share_one_factor_and_match_statsmodels_where_vif_is_defined(seed):
    """n > p with exact combinations: VIFs of the independent columns agree with statsmodels on
    them; each dependent column's combination (from the shared factor) reproduces it exactly."""
    rng = np.random.default_rng(seed)
    n = 200
    base = pd.DataFrame(rng.normal(size=(n, 12)) @ rng.normal(size=(12, 12)), columns=[f"x{i:02d}" for i in range(12)])
    derived = pd.DataFrame(
        {f"z{i}": base.iloc[:, rng.choice(12, 3, replace=False)].to_numpy() @ rng.normal(size=3) for i in range(6)}
    )
    frame = pd.concat([base, derived], axis=1)
    result = variance_inflation(tuple(frame.columns), comoment(frame), [], n)
    assert len(result.dependencies) == 6  # which six is the pivoting's choice; the rank is the data's
    centred = frame - frame.mean()
    for column, combo in result.dependencies.items():
        fitted = sum(coef * centred[name] for name, coef in combo.items())
        assert np.allclose(fitted, centred[column], atol=1e-8 * centred[column].abs().max())
    exog = add_constant(frame[list(result.independent)].to_numpy(), has_constant="add")
    for i, column in enumerate(result.independent):
        assert result.vif[column] == pytest.approx(variance_inflation_factor(exog, i + 1), rel=1e-6)


def test_a_rescaled_copy_past_the_rank_is_found_whatever_the_pivoting():
    """``x`` and ``2x + 1`` named to sort after 80 noise columns on 40 rows: both lie past the
    rank, each a long combination of the independent columns, and their pair is still said."""
    rng = np.random.default_rng(2)
    n = 40
    frame = pd.DataFrame(rng.normal(size=(n, 80)), columns=[f"m{i:02d}" for i in range(80)])
    frame["zx"] = rng.normal(size=n)
    frame["zy"] = 2 * frame["zx"] + 1
    frame["y"] = rng.integers(0, 2, n)
    result = variance_inflation(tuple(frame.columns[:-1]), comoment(frame.iloc[:, :-1]), [], n)
    assert not {"zx", "zy"} & set(result.independent)  # both past the rank
    exact = [f for f in nb104(frame) if f[1] == "warning"]
    assert [f[3] for f in exact] == [("zx", "zy")]
    assert "zy = 2*zx + 1" in exact[0][2]


def test_on_a_handful_of_rows_even_a_pair_can_be_chance_and_is_said_with_the_rest():
    """Five rows of 0/1 columns: copies and complements occur by chance; all are the shape's."""
    rng = np.random.default_rng(4)
    n = 5
    frame = pd.DataFrame(rng.integers(0, 2, size=(n, 30)), columns=[f"c{i:02d}" for i in range(30)])
    frame["c_scaled"] = 3 * frame["c00"]
    frame["y"] = [0, 1, 0, 1, 1]
    ((code, severity, message, _),) = nb104(frame)
    assert severity == "info" and "not listed" in message and "short ones" not in message
