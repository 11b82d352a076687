"""What nblint.check accepts: every frame and matrix kind gives the findings of the same pandas table."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import nblint

ROOT = Path(__file__).resolve().parent.parent
CUSTOMERS = pd.read_csv(ROOT / "examples" / "customers.csv")


def findings(report, path="<dataframe>"):
    """The report's JSON findings, with the display path made equal."""
    return [dict(f, path=path) for f in json.loads(report.to_json())]


@pytest.fixture(scope="module")
def expected():
    return findings(nblint.check(CUSTOMERS, target="churned"))


def test_polars_and_arrow_frames_give_the_pandas_findings(expected):
    pl = pytest.importorskip("polars")
    import pyarrow as pa

    frames = [
        pl.from_pandas(CUSTOMERS),
        pl.from_pandas(CUSTOMERS).lazy(),
        pa.Table.from_pandas(CUSTOMERS),
        pa.RecordBatch.from_pandas(CUSTOMERS),
        {c: CUSTOMERS[c].to_numpy() for c in CUSTOMERS},
    ]
    for frame in frames:
        assert findings(nblint.check(frame, target="churned")) == expected, type(frame)


def test_x_and_y_scikit_learn_style(expected):
    pl = pytest.importorskip("polars")
    X, y = CUSTOMERS.drop(columns="churned"), CUSTOMERS["churned"]
    assert findings(nblint.check(X, y)) == expected  # the target is named after the Series
    assert findings(nblint.check(pl.from_pandas(X), pl.from_pandas(y))) == expected
    names = list(X.columns)
    array = nblint.check(X.to_numpy(), y.to_numpy(), feature_names=names, target="churned")
    assert {f.path for f in array} == {"<array>"}
    assert findings(array) == expected
    assert findings(nblint.check(X, list(y), target="churned")) == expected
    assert nblint.check(CUSTOMERS, "churned").codes() == [f["code"] for f in expected]  # a str is the target


def test_numpy_default_feature_names_and_y_name():
    X = np.eye(3, dtype=int)[[0, 1, 2, 0, 1, 2, 0, 1]]
    report = nblint.check(X, np.array([0, 1, 0, 1, 0, 1, 0, 1]), select=["NB101"])
    (finding,) = report.findings
    assert finding.columns == ["x0", "x1", "x2"]
    frame = nblint.check(X, pd.Series([0, 1] * 4, name="label"), select=["NB2"], model="bernoulli")
    assert all(f.code.startswith("NB2") for f in frame)  # a target was found: the NB2xx rules ran


@pytest.mark.parametrize(
    "bad, error, match",
    [
        ([[1, 0], [0, 1]], TypeError, "expected a pandas, polars"),
        (42, TypeError, r"builtins\.int"),
        (np.zeros(5), ValueError, "X must be 2-D"),
        ({"a": [1, 2], "b": [1, 2, 3]}, ValueError, r"different lengths \(a: 2, b: 3\)"),
    ],
)
def test_what_is_not_a_table_is_a_clear_error(bad, error, match):
    with pytest.raises(error, match=match):
        nblint.check(bad)


def test_y_and_names_that_do_not_fit_are_value_errors():
    X = np.zeros((4, 2))
    with pytest.raises(ValueError, match="y has 3 values for 4 rows"):
        nblint.check(X, [0, 1, 0])
    with pytest.raises(ValueError, match="feature_names has 3 names for 2 columns"):
        nblint.check(X, [0, 1, 0, 1], feature_names=["a", "b", "c"])
    with pytest.raises(ValueError, match="already has a column 'a'"):
        nblint.check(pd.DataFrame({"a": [1, 2]}), pd.Series([0, 1], name="b"), target="a")
    with pytest.raises(ValueError, match="feature_names is for numpy arrays"):
        nblint.check(CUSTOMERS, feature_names=list(CUSTOMERS.columns))


def test_unnamed_classes_take_a_name_no_feature_has():
    """check(X, y) names the classes ``y``; a vocabulary that holds the word 'y' (Spanish 'and', one-letter
    tokens) once made it a ValueError. They are ``y_1`` (or the next free ``y_k``) there."""
    from sklearn.feature_extraction.text import CountVectorizer

    docs = ["pan y vino", "sal y pimienta", "agua y sal", "vino y queso"] * 5
    vectorizer = CountVectorizer(token_pattern=r"(?u)\b\w+\b")
    X = vectorizer.fit_transform(docs)
    names = list(vectorizer.get_feature_names_out())
    assert "y" in names  # (the oracle: scikit-learn's vocabulary)
    labels = ["food", "drink"] * 10
    report = nblint.check(
        X, labels, feature_names=names, words=True, select=["NB206"], options={"NB206": {"min-class-rows": 11}}
    )
    assert [f.message.split(":")[0] for f in report.findings] == ["target 'y_1'"]
    taken = ["y_1", *names[1:]]  # ('y' and 'y_1' both words: the next)
    report = nblint.check(
        X, labels, feature_names=taken, words=True, select=["NB206"], options={"NB206": {"min-class-rows": 11}}
    )
    assert [f.message.split(":")[0] for f in report.findings] == ["target 'y_2'"]
    with pytest.raises(ValueError, match="already has a column 'y'"):
        nblint.check(X, labels, feature_names=names, target="y")


@pytest.mark.slow
def test_optional_libraries_are_imported_only_for_their_objects():
    """Reading the input recognises types by their module; it imports neither polars nor scipy.

    (pyarrow is left out of the check: pandas imports it.)
    """
    code = (
        "import sys, numpy as np, pandas as pd; from nblint.run.tables import open_table as table_source; "
        "table_source(np.eye(3), [0, 1, 1]); table_source(pd.DataFrame({'a': [1]})); "
        "table_source({'a': [1, 2]}, [0, 1]); "
        "print(sorted(m for m in ('polars', 'scipy', 'dask') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


# --------------------------------------------------------------------------- sparse matrices


def _table(draw_columns, rows, rng):
    columns = []
    for kind in draw_columns:
        if kind == "bits":
            columns.append(rng.integers(0, 2, rows) * (rng.random(rows) < 0.5))
        elif kind == "onehot":
            columns.extend(np.eye(3, dtype=np.int64)[rng.integers(0, 3, rows)].T)
        elif kind == "counts":
            columns.append(rng.poisson(0.7, rows))
        elif kind == "negative":
            columns.append(rng.integers(-2, 3, rows) * (rng.random(rows) < 0.4))
        elif kind == "floats":
            columns.append(np.round(rng.random(rows) * (rng.random(rows) < 0.3), 3))
        elif kind == "missing":
            values = rng.poisson(1.0, rows).astype(float)
            values[rng.random(rows) < 0.2] = np.nan
            columns.append(values)
        elif kind == "copy" and columns:
            columns.append(columns[0].copy())
    return np.column_stack(columns).astype(np.float64) if columns else np.zeros((rows, 0))


@pytest.mark.slow
# Derandomised, as the fuzzer is: CI draws the same 40 examples every run (a random draw found the
# pivot instability below, which is tracked by its own test rather than by chance).
@settings(max_examples=40, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(
    kinds=st.lists(
        st.sampled_from(["bits", "onehot", "counts", "negative", "floats", "missing", "copy"]), min_size=1, max_size=6
    ),
    rows=st.integers(6, 80),
    seed=st.integers(0, 2**16),
    classes=st.integers(2, 3),
    model=st.sampled_from([None, "bernoulli", "multinomial", "gaussian", "categorical"]),
    block_rows=st.integers(1, 40),
)
def test_a_sparse_matrix_gives_the_findings_of_the_same_dense_array(kinds, rows, seed, classes, model, block_rows):
    from scipy import sparse

    from nblint.api.report import _codes, _settings
    from nblint.report.formats import render_json
    from nblint.run.runner import lint_source
    from nblint.run.tables import open_table as table_source

    rng = np.random.default_rng(seed)
    X = _table(kinds, rows, rng)
    y = rng.integers(0, classes, rows)
    dense = json.loads(nblint.check(X, y, model=model).to_json())
    got = json.loads(nblint.check(sparse.csr_matrix(X), y, model=model).to_json())
    assert _comparable_all(got) == _comparable_all(dense)
    # Row blocks of any size (the profile merges them) give the same findings as one block.
    source, target = table_source(sparse.csr_matrix(X), y)
    source.block_rows = block_rows
    settings_ = _settings(model=model).replace(target=target)
    got = json.loads(render_json(lint_source(source, settings_, _codes(settings_))))
    assert _comparable_all(got) == _comparable_all(dense)


@pytest.mark.xfail(
    strict=True,
    reason="NB104's pivot depends on rounding: x3 = 0.551 x1 exactly, where x1 is a one-hot member; the dense "
    "co-moments make x3 the dependent column (reported), the sparse ones x1 (left to NB101, so nothing is reported)",
)
def test_a_sparse_matrix_reports_an_exact_dependency_on_a_group_member_as_the_dense_array_does():
    from scipy import sparse

    rng = np.random.default_rng(60)  # (the example hypothesis found)
    X = _table(["onehot", "floats", "onehot"], 6, rng)
    y = rng.integers(0, 2, 6)
    dense = json.loads(nblint.check(X, y).to_json())
    got = json.loads(nblint.check(sparse.csr_matrix(X), y).to_json())
    assert _comparable_all(got) == _comparable_all(dense)


def _comparable_all(findings: list[dict]) -> tuple:
    """The findings by :func:`_comparable`; NB104's exact dependencies as the columns they involve.

    A rank deficiency with several exact dependencies (a tiny table where a two-level
    pair, a one-hot group and a sum all hold) is split into dependencies by a pivoted
    Cholesky whose pivots the last bit of a sum decides; which columns are dependent
    does not change.
    """
    exact = [f for f in findings if f["code"] == "NB104" and f["evidence"].get("vif") == "inf"]
    others = [_comparable(f) for f in findings if f not in exact]
    return others, sorted({c for f in exact for c in f["columns"]})


def _comparable(finding: dict) -> dict:
    """A finding, less the numbers that move with the last bit of a sum.

    The two paths sum the same values in different orders. NB104's partners tie exactly
    where they are members of one group, and rounding picks which are named; NB401's
    k-fold fits take each fold's statistics away from the totals, which on a table of
    a few rows turns last-bit differences into different cross-validated scores (the
    same happens to a dense table chunked differently). Their other numbers must agree.
    """
    if finding["code"] == "NB104" and "partners" in finding["evidence"]:
        return {"column": finding["columns"][0], "vif": finding["evidence"]["vif"]}
    if finding["code"] == "NB401":
        evidence = finding["evidence"]
        return {"columns": finding["columns"], "flips": evidence["map_differs_share"], "rows": finding["rows"]}
    return finding


def test_sparse_input_is_never_changed_and_explicit_zeros_are_zeros():
    from scipy import sparse

    X = sparse.csr_matrix((np.array([1, 0, 1, 1.0]), np.array([0, 1, 1, 0]), np.array([0, 2, 3, 4])), shape=(3, 2))
    before = (X.data.copy(), X.indices.copy(), X.indptr.copy())
    report = nblint.check(X, [0, 1, 1], select=["NB101"])
    assert report.codes() == ["NB101"]  # rows (1, 0), (0, 1), (1, 0): a one-hot group, the stored 0 a zero
    assert all(np.array_equal(a, b) for a, b in zip(before, (X.data, X.indices, X.indptr)))
    assert report.findings[0].evidence["level_counts"] == {"x0": 2, "x1": 1}


@pytest.mark.slow
def test_a_sparse_matrix_too_wide_to_densify_is_linted():
    """200,000 columns: 12.8 GB dense at this height; its stored entries are 60,000."""
    from scipy import sparse

    rng = np.random.default_rng(1)
    rows, columns = 8_000, 200_000
    words = rng.integers(0, columns, 60_000)
    X = sparse.csr_matrix(
        (np.ones(60_000, dtype=np.int64), (rng.integers(0, rows, 60_000), words)), shape=(rows, columns)
    )
    level = rng.integers(0, 3, rows)  # a one-hot group in the first 3 columns
    X = sparse.hstack([sparse.csr_matrix(np.eye(3, dtype=np.int64)[level]), X]).tocsr()
    report = nblint.check(X, level % 2, select=["NB101", "NB106"])
    assert [f.columns for f in report if f.code == "NB101"] == [["x0", "x1", "x2"]]
    notes = [f.message for f in report if f.code == "NB106"]
    assert any("wide table" in note for note in notes)
