"""Column kinds inferred from the profile, on tables whose kinds are known."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from nblint.cli import main


@pytest.fixture(scope="module")
def kinds(tmp_path_factory):
    rng = np.random.default_rng(42)
    n = 600
    frame = pd.DataFrame(
        {
            "visits": rng.poisson(2.0, n),  # counts: Poisson, from 0, one mode
            "n_items": rng.poisson(7.0, n),  # counts by name
            "region_code": rng.choice(5, n),  # codes by name
            "x_codes": rng.choice([0, 1, 2, 3], n, p=[0.4, 0.1, 0.1, 0.4]),  # codes: two modes
            "gappy": rng.choice([10, 20, 40], n),  # codes: gaps in the support
            "yes_no": rng.choice(["yes", "no"], n),  # boolean as strings
            "true_false": rng.choice(["True", "False"], n),  # read as booleans
            "ones_floats": rng.choice([0.0, 1.0], n),  # 0/1 written as 1.0
            "one_two": rng.choice([1, 2], n),  # two integer values
            "city": [f"city{i % 120}" for i in range(n)],  # many text levels
            "color": rng.choice(["red", "green", "blue"], n),
            "user": [f"u{i:05d}" for i in range(n)],  # text identifier
            "row_id": np.arange(1000, 1000 + n),  # integer identifier
            "temperature": rng.normal(20, 5, n).round(2),  # continuous
            "country": ["FR"] * n,  # constant
            "c_red": 0, "c_green": 0, "c_blue": 0,  # one-hot group (filled below)
            "y": rng.choice(["a", "b"], n),
        }
    )
    color = rng.integers(0, 3, n)
    for k, name in enumerate(["c_red", "c_green", "c_blue"]):
        frame[name] = (color == k).astype(int)
    path = tmp_path_factory.mktemp("kinds") / "t.csv"
    frame.to_csv(path, index=False)
    text = path.read_text()
    assert "1.0" in text and "True" in text  # written the way the tests mean
    result = CliRunner().invoke(main, ["columns", str(path), "--target", "y", "--format", "json"])
    assert result.exit_code == 0, result.output
    return {row["column"]: row for row in json.loads(result.stdout)}


@pytest.mark.parametrize(
    "column, kind, model",
    [
        ("visits", "count", "multinomial"),
        ("n_items", "count", "multinomial"),
        ("region_code", "categorical", "categorical"),
        ("x_codes", "categorical", "categorical"),
        ("gappy", "categorical", "categorical"),
        ("yes_no", "binary", "bernoulli"),
        ("true_false", "binary", "bernoulli"),
        ("ones_floats", "binary", "bernoulli"),
        ("one_two", "binary", "bernoulli"),
        ("city", "categorical", "categorical"),
        ("color", "categorical", "categorical"),
        ("user", "identifier", None),
        ("row_id", "identifier", None),
        ("temperature", "continuous", "gaussian"),
        ("country", "constant", None),
        ("c_red", "group-member", "categorical"),
        ("y", "target", None),
    ],
)
def test_kind(kinds, column, kind, model):
    assert (kinds[column]["kind"], kinds[column]["model"]) == (kind, model), kinds[column]["why"]


def test_every_kind_says_why(kinds):
    assert all(row["why"] for row in kinds.values())
    assert "high-cardinality" in kinds["city"]["why"]
    assert kinds["c_red"]["group"] == "c"


def test_columns_text_output_flags_mixed_tables(write):
    path = write("t.csv", "is_member,income,y\n1,10.5,a\n0,20.25,b\n1,30.5,a\n")
    result = CliRunner().invoke(main, ["columns", path, "--target", "y"])
    assert result.exit_code == 0
    assert result.stdout.splitlines()[0].split() == ["column", "kind", "model", "why"]
    assert "Mixed kinds" in result.stdout


def test_columns_bad_input_is_one_error_line(tmp_path):
    result = CliRunner().invoke(main, ["columns", str(tmp_path / "missing.csv")])
    assert result.exit_code == 2
    assert result.stderr.strip() == f"{tmp_path / 'missing.csv'}: error: file not found"
