"""nblint.pandera.schema_for_new_rows (issue 38 item 6): a pandera schema from the training profile checks a new table.

The oracle is pandera's own validation (``lazy=True``): its failure cases name the column,
the value and the row; the bounds are recomputed with pandas (class means and ``ddof=0``
standard deviations, GaussianNB's).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pandera.pandas as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pandera.errors import SchemaErrors
from real_traintest import splits

from nblint.pandera import SUPPORT_SDS, load_schema, schema_for_new_rows


def training(seed: int = 0, n: int = 200) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    return pd.DataFrame(
        {
            "colour": rng.choice(["red", "green", "blue"], n),
            "flag": rng.integers(0, 2, n),
            "height": rng.normal(170 + 8 * y, 6, n).round(2),
            "y": np.where(y == 1, "tall", "short"),
        }
    )


def failures(schema, frame) -> pd.DataFrame:
    try:
        schema.validate(frame, lazy=True)
    except SchemaErrors as exc:
        return exc.failure_cases
    return pd.DataFrame(columns=["column", "check", "failure_case", "index"])


def bounds(train: pd.DataFrame, column: str, k: float = SUPPORT_SDS) -> tuple[float, float]:
    by_class = train.groupby("y")[column]
    mean, sd = by_class.mean(), by_class.std(ddof=0)
    return min(train[column].min(), (mean - k * sd).min()), max(train[column].max(), (mean + k * sd).max())


def test_an_unseen_level_is_a_failure_case_naming_column_value_and_row():
    train = training()
    test = training(1, 50)
    test.loc[[3, 17], "colour"] = "purple"
    test.loc[9, "flag"] = 2
    cases = failures(schema_for_new_rows(train, target="y"), test)
    got = sorted(zip(cases["column"], cases["failure_case"].astype(str), cases["index"]))
    assert got == [("colour", "purple", 3), ("colour", "purple", 17), ("flag", "2", 9)]
    assert set(cases["check"].astype(str)) == {f"isin({sorted(set(train['colour']))})", "isin([0, 1])"}


def test_out_of_support_is_a_failure_case_and_the_training_tails_are_not():
    train = training()
    low, high = bounds(train, "height")
    test = training(2, 6)
    test["height"] = [
        high + 0.01,
        low - 0.01,
        high - 1e-6,
        low + 1e-6,
        train["height"].max() + 1.0,
        train["height"].min() - 1.0,
    ]
    cases = failures(schema_for_new_rows(train, target="y"), test)
    assert sorted(cases["index"]) == [0, 1]  # beyond k sd of every class and the range; the rest pass
    assert set(cases["column"]) == {"height"}
    assert sorted(cases["failure_case"]) == pytest.approx(sorted([high + 0.01, low - 0.01]))


def test_a_serving_table_validates_without_the_target_and_a_new_class_fails():
    train = training()
    schema = schema_for_new_rows(train, target="y")
    assert failures(schema, training(3, 40).drop(columns="y")).empty
    test = training(4, 40)
    test.loc[5, "y"] = "medium"
    cases = failures(schema, test)
    assert list(zip(cases["column"], cases["failure_case"], cases["index"])) == [("y", "medium", 5)]


def test_a_missing_column_is_pandera_s_column_error():
    cases = failures(schema_for_new_rows(training(), target="y"), training(5, 10).drop(columns="flag"))
    assert list(cases["check"]) == ["column_in_dataframe"]
    assert list(cases["failure_case"]) == ["flag"]


def test_the_schema_round_trips_through_yaml_and_validates_the_same(tmp_path):
    train = training()
    schema = schema_for_new_rows(train, target="y")
    path = tmp_path / "new_rows.yaml"
    path.write_text(schema.to_yaml())
    again = load_schema(path)
    assert again == schema
    test = training(6, 30)
    test.loc[0, "colour"] = "purple"
    assert failures(again, test).equals(failures(schema, test))
    assert isinstance(again, pa.DataFrameSchema)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.floats(0, 1))
def test_every_value_within_the_training_range_passes(seed, where):
    train = training(seed, 60)
    lo, hi = train["height"].min(), train["height"].max()
    test = train.sample(10, random_state=seed).reset_index(drop=True)
    test["height"] = lo + where * (hi - lo)
    assert failures(schema_for_new_rows(train, target="y"), test).empty


def test_the_real_grants_split_fails_on_its_unseen_sponsor_codes_and_the_planted_level():
    """Kuhn & Johnson's 2008 test applications: 7 sponsor codes the training years never had (the blind labels)."""
    split = splits.load("grants/unseen")
    schema = schema_for_new_rows(split.train, target=split.target)
    cases = failures(schema, split.test)
    unseen = cases[cases["check"].astype(str).str.startswith("isin")]
    by_column = unseen.groupby("column")["failure_case"].apply(lambda v: sorted(set(v))).to_dict()
    assert by_column == {
        "contract_value_band": [splits.UNSEEN_LEVEL],
        "sponsor_code": ["261A", "262B", "308D", "314B", "319C", "334B", "357A"],
    }
    assert sorted(unseen.loc[unseen["column"] == "contract_value_band", "index"]) == split.planted["rows"]


def test_nblint_schema_new_rows_writes_the_same_schema_as_yaml(tmp_path):
    from click.testing import CliRunner

    from nblint.cli import main

    train = training()
    train_path, out = tmp_path / "train.csv", tmp_path / "new_rows.yaml"
    train.to_csv(train_path, index=False)
    result = CliRunner().invoke(main, ["schema", str(train_path), "--target", "y", "--new-rows", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert result.stderr == ""  # the training table passes its own new-rows schema
    written = load_schema(out)
    test = training(7, 30)
    test.loc[4, "colour"] = "purple"
    cases = failures(written, test)
    assert list(zip(cases["column"], cases["failure_case"], cases["index"])) == [("colour", "purple", 4)]
    assert set(written.columns) == set(schema_for_new_rows(str(train_path), target="y").columns)
