"""check_pipeline lints what the final model receives: X through the fitted steps, under the model's event model."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

import nblint

pytest.importorskip("sklearn")
from sklearn.compose import ColumnTransformer  # noqa: E402
from sklearn.feature_extraction.text import CountVectorizer  # noqa: E402
from sklearn.model_selection import GridSearchCV  # noqa: E402
from sklearn.naive_bayes import BernoulliNB, MultinomialNB  # noqa: E402
from sklearn.pipeline import make_pipeline  # noqa: E402
from sklearn.preprocessing import OneHotEncoder  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
CUSTOMERS = pd.read_csv(ROOT / "examples" / "customers.csv")
X, Y = CUSTOMERS[["channel", "is_member"]], CUSTOMERS["churned"]


def by_code(report, code):
    return [f for f in report if f.code == code]


def test_a_fitted_encoder_pipeline_is_linted_after_its_encoder():
    pipe = make_pipeline(OneHotEncoder(), BernoulliNB()).fit(X, Y)
    report = nblint.check_pipeline(pipe, X, Y)
    encoder = pipe[0]
    channel = [name for name in encoder.get_feature_names_out() if name.startswith("channel_")]
    assert not any("channel" in f.columns for f in by_code(report, "NB301"))  # the raw codes never reach the model
    assert channel in [f.columns for f in by_code(report, "NB101")]  # the group the encoder wrote
    assert channel in [f.columns for f in by_code(report, "NB307")]  # ... read by BernoulliNB as bits
    assert by_code(report, "NB501")  # and the pipeline's own finding
    # The raw table under the same model would have reported the codes: the bug this fixes.
    raw = nblint.check(X, Y, model="bernoulli", select=["NB301"])
    assert [f.columns for f in raw] == [["channel"]]


def test_sparse_dense_and_pandas_outputs_give_the_same_table_findings():
    reports = [
        nblint.check_pipeline(make_pipeline(encoder, BernoulliNB()).fit(X, Y), X, Y)
        for encoder in (
            OneHotEncoder(),
            OneHotEncoder(sparse_output=False),
            OneHotEncoder(sparse_output=False).set_output(transform="pandas"),
        )
    ]
    messages = [[(f.code, f.message) for f in report] for report in reports]
    assert messages[0] == messages[1] == messages[2]


def test_column_transformer_names_and_a_fitted_search():
    prep = ColumnTransformer([("onehot", OneHotEncoder(), ["channel"])], remainder="passthrough")
    search = GridSearchCV(make_pipeline(prep, BernoulliNB()), {"bernoullinb__alpha": [0.5, 1.0]}, cv=2).fit(X, Y)
    report = nblint.check_pipeline(search, X, Y, select=["NB101"])
    (group,) = report.findings
    assert group.columns == ["onehot__channel_0", "onehot__channel_1", "onehot__channel_2"]


def test_a_vectorizer_feeds_multinomial_counts_from_a_sparse_matrix():
    docs = pd.Series(["cheap pills now", "meeting at noon", "cheap cheap offer", "lunch at noon"] * 10)
    labels = ["spam", "ham", "spam", "ham"] * 10
    pipe = make_pipeline(CountVectorizer(), MultinomialNB()).fit(docs, labels)
    report = nblint.check_pipeline(pipe, docs, labels, select=["NB2", "NB3"])
    assert {f.path for f in report} == {"<array>"}
    # (the words' zero cells are one NB201 finding for the block, every word in its columns)
    cells = {c for f in by_code(report, "NB201") for c in f.columns}
    # words that decide the class: NB208's (one finding for the block), not cells
    leaks = {c for f in by_code(report, "NB208") for c in f.columns}
    assert len(by_code(report, "NB208")) == 1
    words, nb = pipe[0].get_feature_names_out(), pipe[-1]
    assert cells | leaks == {
        w for w, zero in zip(words, (nb.feature_count_ == 0).any(axis=0)) if zero
    }  # scikit-learn's
    assert not by_code(report, "NB301") and len(cells | leaks) == 8 and not cells & leaks


def test_an_unfitted_pipeline_says_what_the_table_rules_could_not_see():
    report = nblint.check_pipeline(make_pipeline(OneHotEncoder(), BernoulliNB()), X, Y)
    assert report.codes() == ["NB501", "NB511"]
    (note,) = by_code(report, "NB511")
    assert note.severity == nblint.engine.findings.Severity.INFO and note.evidence["steps"] == ["OneHotEncoder"]
    assert nblint.check_pipeline(make_pipeline(OneHotEncoder(), BernoulliNB())).codes() == ["NB501"]  # no X: no note
