"""Column kinds inferred from the profile, on tables whose kinds are known."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

import nblint
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
            "c_red": 0,
            "c_green": 0,
            "c_blue": 0,  # one-hot group (filled below)
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
    # (is_member does not give the class away: a leak would be left out of the recommended model)
    path = write("t.csv", "is_member,income,y\n1,10.5,a\n0,20.25,b\n1,30.5,b\n0,5.0,a\n1,25.5,a\n0,15.25,b\n")
    result = CliRunner().invoke(main, ["columns", path, "--target", "y"])
    assert result.exit_code == 0
    assert result.stdout.splitlines()[0].split() == ["column", "kind", "model", "status", "why"]
    assert "Mixed kinds" in result.stdout


def test_columns_bad_input_is_one_error_line(tmp_path):
    result = CliRunner().invoke(main, ["columns", str(tmp_path / "missing.csv")])
    assert result.exit_code == 2
    assert result.stderr.strip() == f"{tmp_path / 'missing.csv'}: error: file not found"


# --------------------------------------------------------------------------- evidence, ambiguity, declared kinds


def _context(frame, target="y", **kwargs):
    from nblint import testing

    return testing.context(frame, target=target, **kwargs)


def _survey(n=800, seed=3):
    rng = np.random.default_rng(seed)
    frame = pd.DataFrame({f"pixel_{i}": rng.choice(17, n, p=np.r_[0.5, np.full(15, 0.02), 0.2]) for i in range(8)})
    frame["season"] = rng.integers(1, 5, n)  # four equally frequent codes of a design
    frame["children"] = rng.poisson(1.2, n)  # counts: fall away from 0
    frame["rating"] = rng.choice([1, 2, 3, 4, 5], n, p=[0.1, 0.15, 0.2, 0.4, 0.15])  # a handful of values
    frame["y"] = rng.integers(0, 2, n)
    return frame


def test_columns_on_one_shared_scale_are_counts_whatever_their_shape():
    kinds = _context(_survey()).kinds
    assert {kinds[f"pixel_{i}"].kind for i in range(8)} == {"count"}
    assert not any(kinds[f"pixel_{i}"].ambiguous for i in range(8))


def test_codes_of_a_design_and_counts_are_told_apart_by_their_frequencies():
    kinds = _context(_survey()).kinds
    assert (kinds["season"].kind, kinds["season"].alternative) == ("categorical", "count")
    assert (kinds["children"].kind, kinds["children"].ambiguous) == ("count", False)


def test_a_name_is_never_stronger_than_the_values():
    frame = _survey().rename(columns={"children": "city_code"})  # a code-like name on Poisson counts
    assert _context(frame).kinds["city_code"].kind == "count"  # on the pixels' 0..16 scale: the values decide
    alone = frame.drop(columns=[f"pixel_{i}" for i in range(8)])
    kind = _context(alone).kinds["city_code"]
    assert kind.ambiguous and {kind.kind, kind.alternative} == {"categorical", "count"}  # the name only breaks a tie


def test_an_ambiguous_kind_is_shown_with_both_readings_and_rules_on_it_are_info():
    frame = _survey()
    kind = _context(frame).kinds["rating"]
    assert kind.ambiguous and {kind.kind, kind.alternative} == {"categorical", "count"}
    assert "ambiguous" in kind.why
    findings = list(nblint.check(frame, target="y", model="gaussian", select=["NB305"]))
    # season (four equally frequent codes) is categorical by its values, but a magnitude is not ruled out.
    assert {str(f.severity) for f in findings if f.columns == ["season"]} == {"info"}
    assert all(str(f.severity) == "info" for f in findings)


def test_a_declared_model_makes_a_zero_cell_certain_whatever_the_kind():
    """Issue 22 item 5: an ambiguous kind lowers NB201's severity only when no model is declared."""
    frame = _survey()
    ones = np.flatnonzero(frame["rating"].to_numpy() == 1)
    seen = [i for i in ones if frame["y"].iat[i] == 0][:3]  # rating 1: three rows, all class 0 (chance, not NB202)
    frame.loc[np.setdiff1d(ones, seen), "rating"] = 2
    assert _context(frame).kinds["rating"].ambiguous

    def severity(**kwargs):
        report = nblint.check(frame, target="y", alpha=0, select=["NB201"], **kwargs)
        return [str(f.severity) for f in report if f.columns == ["rating"]]

    assert severity() == ["info"]  # one reading's cell: categorical codes have it, a count would not
    assert severity(model="categorical") == ["error"]  # CategoricalNB reads the level: it vetoes class 1


def test_declared_kinds_win_with_names_and_globs_in_the_api():
    frame = _survey()
    kinds = _context(frame, kinds={"rating": "categorical", "pixel_*": "categorical"}).kinds
    assert kinds["rating"].declared and kinds["rating"].kind == "categorical" and not kinds["rating"].ambiguous
    assert {kinds[f"pixel_{i}"].kind for i in range(8)} == {"categorical"}
    report = nblint.check(frame, target="y", model="gaussian", select=["NB305"], kinds={"rating": "categorical"})
    assert [str(f.severity) for f in report if f.columns == ["rating"]] == ["error"]


def test_declared_kinds_come_from_the_config_and_show_as_declared(tmp_path):
    frame = _survey(200)
    frame.to_csv(tmp_path / "t.csv", index=False)
    (tmp_path / "nblint.toml").write_text('target = "y"\n[columns]\nrating = "categorical"\n"pixel_*" = "continuous"\n')
    result = CliRunner().invoke(main, ["columns", str(tmp_path / "t.csv"), "--format", "json"])
    assert result.exit_code == 0, result.output
    rows = {row["column"]: row for row in json.loads(result.stdout)}
    assert (rows["rating"]["kind"], rows["rating"]["status"]) == ("categorical", "declared")
    assert (rows["pixel_3"]["kind"], rows["pixel_3"]["model"]) == ("continuous", "gaussian")
    assert rows["children"]["status"] == "inferred"


def test_an_unknown_declared_kind_is_a_config_error(tmp_path):
    (tmp_path / "nblint.toml").write_text('[columns]\nrating = "ordinal"\n')
    (tmp_path / "t.csv").write_text("rating,y\n1,a\n2,b\n")
    result = CliRunner().invoke(main, ["check", str(tmp_path / "t.csv")])
    assert result.exit_code == 2 and "columns.'rating' must be one of" in result.stderr


def test_kinds_are_members_of_one_enum_and_plain_strings_outside():
    """A column's kind is a Kind (a string enum): it compares as its value, and JSON sees a plain string."""
    from nblint.structure.kinds import MODEL_FOR_KIND, Kind

    frame = pd.DataFrame(
        {"b": [0, 1] * 20, "n": list(range(40)), "x": np.linspace(0.1, 9.7, 40), "c": ["p", "q", "r", "s"] * 10}
    )
    frame["y"] = ["u", "v"] * 20
    ctx = _context(frame)
    assert all(isinstance(k.kind, Kind) for k in ctx.kinds.values())
    assert set(MODEL_FOR_KIND) == set(Kind)
    assert ctx.kinds["b"].kind == "binary" and ctx.kinds["y"].kind is Kind.TARGET
    record = ctx.kinds["b"].to_dict()
    assert type(record["kind"]) is str and json.loads(json.dumps(record))["kind"] == "binary"
