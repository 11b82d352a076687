"""``nblint impact --test`` (issue 38 item 3): the models fitted on the training table, scored on its test table.

The oracle is scikit-learn: its naive_bayes classes fitted on the same training rows, and its
``log_loss`` / ``accuracy_score`` on the same test rows.
"""

from __future__ import annotations

import json
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import accuracy_score, log_loss
from sklearn.naive_bayes import CategoricalNB, GaussianNB
from sklearn.preprocessing import OrdinalEncoder

from nblint.cli import main
from nblint.estimators.mixednb import MixedNB
from nblint.estimators.recommend import recommended_features, recommended_kinds
from nblint.impact.heldout import measure_heldout, rows_touched
from nblint.readers.files import read_table
from nblint.run.overrides import Overrides
from nblint.run.runner import table_context


def tables(seed: int, n_train: int = 240, n_test: int = 120, unseen: int = 0):
    """A colour code, a one-hot group and a measurement, all related to the class; ``unseen`` test rows get a new colour."""
    rng = np.random.default_rng(seed)

    def part(n):
        y = rng.integers(0, 2, n)
        colour = np.where(rng.random(n) < 0.6, np.where(y == 1, "red", "blue"), rng.choice(["red", "blue", "green"], n))
        size = np.where(rng.random(n) < 0.5, y, rng.integers(0, 3, n))
        frame = pd.DataFrame({"colour": colour})
        for k in range(3):
            frame[f"size_{k}"] = (size == k).astype(int)
        frame["x"] = rng.normal(y * 1.2, 1.0, n).round(6)
        frame["y"] = np.where(y == 1, "yes", "no")
        return frame

    train, test = part(n_train), part(n_test)
    test.loc[: unseen - 1, "colour"] = "purple"
    return train, test


def run(tmp_path, train, test, *args):
    train_path, test_path = tmp_path / "train.csv", tmp_path / "test.csv"
    train.to_csv(train_path, index=False)
    test.to_csv(test_path, index=False)
    out = CliRunner().invoke(main, ["impact", str(train_path), "--target", "y", "--test", str(test_path), *args])
    return out, str(train_path), str(test_path)


def scored(train_path, test_path, model=None, alpha=1.0):
    """The measurement itself (the JSON rounds to 6 digits): ``{name: ModelScore}``."""
    ctx = table_context(train_path, Overrides(target="y", model=model))
    result = measure_heldout(ctx, read_table(test_path), alpha, declared=ctx.model)
    return {m.name: m.__dict__ for m in result.models}


def test_gaussian_declared_matches_scikit_learn(tmp_path):
    train, test = tables(1)
    out, train_path, test_path = run(tmp_path, train, test, "--model", "gaussian", "--format", "json")
    assert out.exit_code == 0, out.output
    shown = {m["name"]: m for m in json.loads(out.output)["test"]["models"]}
    models = scored(train_path, test_path, "gaussian")
    assert shown["declared"]["log_loss"] == pytest.approx(models["declared"]["log_loss"], abs=1e-6)
    features = ["colour", "size_0", "size_1", "size_2", "x"]
    numeric = [c for c in features if c != "colour"]
    oracle = GaussianNB().fit(train[numeric], train["y"])
    proba = oracle.predict_proba(test[numeric])
    assert models["declared"]["model"] == "GaussianNB"
    assert models["declared"]["rows"] == len(test)
    assert models["declared"]["log_loss"] == pytest.approx(log_loss(test["y"], proba, labels=oracle.classes_), rel=1e-9)
    assert models["declared"]["accuracy"] == pytest.approx(accuracy_score(test["y"], oracle.predict(test[numeric])))
    assert "colour left out" in models["declared"]["note"]


def test_recommended_model_is_the_collapsed_mixednb_scored_by_scikit_learn(tmp_path):
    train, test = tables(2)
    out, train_path, test_path = run(tmp_path, train, test, "--format", "json")
    assert out.exit_code == 0, out.output
    assert [m["name"] for m in json.loads(out.output)["test"]["models"]] == ["recommended"]  # none declared
    recommended = scored(train_path, test_path)["recommended"]
    ctx = table_context(train_path, Overrides(target="y"))
    features, _ = recommended_features(ctx, leaks_out=True)
    assert any(f.group for f in features)  # the size_ bits are one categorical feature
    columns = [c for f in features for c in f.columns]
    model = MixedNB(kinds=recommended_kinds(features), alpha=1.0).fit(train[columns], train["y"].astype(str))
    proba = model.predict_proba(test[columns])
    assert recommended["log_loss"] == pytest.approx(log_loss(test["y"], proba, labels=model.classes_), rel=1e-9)
    assert recommended["accuracy"] == pytest.approx(accuracy_score(test["y"], model.predict(test[columns])))


def test_declared_categorical_reserves_the_unseen_level_and_counts_its_rows(tmp_path):
    train, test = (t.drop(columns="x") for t in tables(3, unseen=7))  # (every measurement is a level unseen)
    out, train_path, test_path = run(tmp_path, train, test, "--model", "categorical", "--alpha", "0.5")
    assert out.exit_code == 0, out.output
    assert "7 test rows have a level training never had" in out.output
    declared = scored(train_path, test_path, "categorical", alpha=0.5)["declared"]
    assert declared["unseen_rows"] == 7
    text_train, text_test = train.drop(columns="y").astype(str), test.drop(columns="y").astype(str)
    encoder = OrdinalEncoder(handle_unknown="use_encoded_value", unknown_value=-1).fit(text_train)
    codes_train = encoder.transform(text_train).astype(int)
    codes_test = encoder.transform(text_test).astype(int)
    n_levels = np.array([len(c) for c in encoder.categories_])
    codes_test = np.where(codes_test < 0, n_levels, codes_test)
    oracle = CategoricalNB(alpha=0.5, min_categories=n_levels + 1).fit(codes_train, train["y"])
    proba = oracle.predict_proba(codes_test)
    assert declared["log_loss"] == pytest.approx(log_loss(test["y"], proba, labels=oracle.classes_), rel=1e-9)
    # what the note says: scikit-learn's default (no reserved category) cannot predict those rows
    with pytest.raises(IndexError):
        CategoricalNB(alpha=0.5).fit(codes_train, train["y"]).predict(codes_test[:7])


def test_a_serving_table_scores_nothing_and_says_why(tmp_path):
    train, test = tables(4)
    out, *_ = run(tmp_path, train, test.drop(columns="y"))
    assert out.exit_code == 0, out.output
    assert "no 'y' column (a serving table): no model is scored" in out.output
    assert "0 of 120 test rows scored" in out.output


def test_a_test_class_training_never_had_is_counted_apart(tmp_path):
    train, test = tables(5)
    test.loc[:4, "y"] = "maybe"
    out, *_ = run(tmp_path, train, test, "--format", "json")
    held = json.loads(out.output)["test"]
    assert (held["new_class_rows"], held["scored_rows"]) == (5, len(test) - 5)


def test_an_unreadable_test_table_is_one_line_and_exit_2(tmp_path):
    train, test = tables(6)
    train_path = tmp_path / "train.csv"
    train.to_csv(train_path, index=False)
    missing = tmp_path / "nowhere.csv"
    out = CliRunner().invoke(main, ["impact", str(train_path), "--target", "y", "--test", str(missing)])
    assert out.exit_code == 2
    assert out.output.strip().splitlines()[-1].startswith(f"{missing}: error: ")
    assert "Traceback" not in out.output


def finding(code, rows, columns=("c",)):
    return SimpleNamespace(code=code, columns=list(columns), evidence={"rows": rows})


@settings(max_examples=50, deadline=None)
@given(st.lists(st.integers(0, 500), max_size=6), st.integers(1, 1000))
def test_rows_touched_bounds_the_union_of_the_findings_rows(counts, n_rows):
    counts = [min(c, n_rows) for c in counts]
    findings = [finding(f"NB60{i % 7 + 1}", c, [f"c{i}"]) for i, c in enumerate(counts)]
    findings.append(finding("NB201", 999))  # another family's rows are not test rows
    findings.append(SimpleNamespace(code="NB604", columns=[], evidence={"rows": True}))  # not a count
    touched = rows_touched(findings, n_rows, codes=[f"NB60{k}" for k in range(1, 8)])
    assert [f["rows"] for f in touched["findings"]] == [
        c for _, c in sorted(((f"NB60{i % 7 + 1}", [f"c{i}"]), c) for i, c in enumerate(counts))
    ]
    assert touched["at_least"] == max(counts, default=0)
    assert touched["at_most"] == min(sum(counts), n_rows)
    assert touched["at_least"] <= touched["at_most"]


@pytest.mark.slow
@pytest.mark.parametrize("model", ["categorical", "bernoulli"])
def test_the_scores_do_not_depend_on_how_the_test_rows_are_chunked(tmp_path, model):
    from nblint.readers import DataFrameSource

    train, test = (t.drop(columns="x") for t in tables(7, unseen=5))
    train_path = tmp_path / "train.csv"
    train.to_csv(train_path, index=False)
    ctx = table_context(str(train_path), Overrides(target="y", model=model))
    results = [
        measure_heldout(ctx, DataFrameSource(test, chunk_rows=size), 1.0, declared=ctx.model) for size in (None, 7, 1)
    ]
    first = results[0]
    for other in results[1:]:
        assert other.scored_rows == first.scored_rows == len(test)
        for a, b in zip(first.models, other.models, strict=True):
            assert (a.rows, a.unseen_rows) == (b.rows, b.unseen_rows)
            assert b.log_loss == pytest.approx(a.log_loss, rel=1e-12)
            assert b.accuracy == a.accuracy


def test_a_text_table_with_a_test_table_is_refused_in_one_line_and_exit_2(tmp_path):
    docs = pd.DataFrame({"body": ["good day", "bad day", "good night", "bad night"] * 5, "y": ["p", "n"] * 10})
    train_path, test_path = tmp_path / "docs.csv", tmp_path / "docs_test.csv"
    docs.to_csv(train_path, index=False)
    docs.to_csv(test_path, index=False)
    args = ["impact", str(train_path), "--target", "y", "--text", "body", "--test", str(test_path)]
    out = CliRunner().invoke(main, args)
    assert out.exit_code == 2 and "Traceback" not in out.output
    (line,) = out.output.strip().splitlines()
    assert line.startswith(f"{test_path}: error: impact --test does not take --text")
