"""Hostile and odd inputs, round 3 (issue 41, items 4-6): wrappers seen through, outputs paired, the rest.

Each case is generated here, at test time. The oracle for a wrapper is the pipeline it
wraps: ``check_pipeline`` on the wrapper says what it says on that pipeline (fitted or
not, tables or raw documents), so a wrapper can never turn into false NB301 findings on
the raw ``X`` or a TypeError.
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

import nblint

pytest.importorskip("sklearn")
from sklearn.calibration import CalibratedClassifierCV  # noqa: E402
from sklearn.experimental import enable_halving_search_cv  # noqa: E402, F401
from sklearn.feature_extraction.text import CountVectorizer  # noqa: E402
from sklearn.model_selection import GridSearchCV, HalvingGridSearchCV, RandomizedSearchCV  # noqa: E402
from sklearn.multiclass import OneVsRestClassifier  # noqa: E402
from sklearn.naive_bayes import BernoulliNB, MultinomialNB  # noqa: E402
from sklearn.pipeline import make_pipeline  # noqa: E402
from sklearn.preprocessing import OneHotEncoder  # noqa: E402

RNG = np.random.default_rng(41)
TABLE = pd.DataFrame({"color": RNG.choice(list("rgb"), 60), "size": RNG.choice(list("SML"), 60)})
DOCS = [" ".join(RNG.choice(["apple", "pear", "kiwi", "plum", "fig"], 5)) for _ in range(60)]
Y = RNG.integers(0, 2, 60)

WRAPPERS = {
    "GridSearchCV": lambda pipe, model: GridSearchCV(pipe, {f"{model}__alpha": [0.5, 1.0]}, cv=2),
    "RandomizedSearchCV": lambda pipe, model: RandomizedSearchCV(
        pipe, {f"{model}__alpha": [0.5, 1.0]}, n_iter=2, cv=2, random_state=0
    ),
    "HalvingGridSearchCV": lambda pipe, model: HalvingGridSearchCV(
        pipe, {f"{model}__alpha": [0.5, 1.0]}, cv=2, min_resources=20
    ),
    "refit=False": lambda pipe, model: GridSearchCV(pipe, {f"{model}__alpha": [0.5, 1.0]}, cv=2, refit=False),
    "CalibratedClassifierCV": lambda pipe, model: CalibratedClassifierCV(pipe, cv=2),
    "OneVsRestClassifier": lambda pipe, model: OneVsRestClassifier(pipe),
}
INPUTS = {
    "table": (lambda: make_pipeline(OneHotEncoder(handle_unknown="ignore"), BernoulliNB()), "bernoullinb", TABLE),
    "documents": (lambda: make_pipeline(CountVectorizer(), MultinomialNB()), "multinomialnb", DOCS),
}


def lint(estimator, X) -> list[tuple[str, list[str], str]]:
    return [(f.code, f.columns, f.message) for f in nblint.check_pipeline(estimator, X, Y)]


def fit(estimator, X):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (tiny folds: scikit-learn's own warnings are not the point)
        return estimator.fit(X, Y)


def inner_fitted(wrapper):
    """The fitted pipeline a wrapper holds, by scikit-learn's documented attributes (None: refit=False)."""
    if isinstance(wrapper, CalibratedClassifierCV):
        return wrapper.calibrated_classifiers_[0].estimator
    if isinstance(wrapper, OneVsRestClassifier):
        return wrapper.estimators_[0]
    return getattr(wrapper, "best_estimator_", None)


@pytest.mark.parametrize("wrapper", sorted(WRAPPERS))
@pytest.mark.parametrize("kind", sorted(INPUTS))
def test_an_unfitted_wrapper_is_linted_as_the_pipeline_it_wraps(kind, wrapper):
    make, model, X = INPUTS[kind]
    found = lint(WRAPPERS[wrapper](make(), model), X)
    assert found == lint(make(), X)
    assert "NB301" not in {code for code, _, _ in found}


@pytest.mark.parametrize("wrapper", sorted(WRAPPERS))
@pytest.mark.parametrize("kind", sorted(INPUTS))
def test_a_fitted_wrapper_is_linted_as_the_fitted_pipeline_it_holds(kind, wrapper):
    make, model, X = INPUTS[kind]
    search = fit(WRAPPERS[wrapper](make(), model), X)
    inner = inner_fitted(search)
    found = lint(search, X)
    pipeline_rules = [f for f in found if f[0].startswith("NB5") and f[0] != "NB511"]
    if inner is None:  # refit=False keeps no fitted pipeline: read as the one it was given
        assert found == lint(make(), X)
    else:
        assert [f for f in found if not f[0].startswith("NB5")] == [
            f for f in lint(inner, X) if not f[0].startswith("NB5")
        ]
    assert pipeline_rules == [f for f in lint(make(), X) if f[0].startswith("NB5") and f[0] != "NB511"]
    assert "NB301" not in {code for code, _, _ in found}
    if kind == "table" and inner is not None:  # the encoder's group is what BernoulliNB reads
        assert {"NB101", "NB307"} <= {code for code, _, _ in found}


def test_a_wrapper_of_a_wrapper_and_a_model_alone():
    nb = BernoulliNB()
    nested = CalibratedClassifierCV(GridSearchCV(make_pipeline(OneHotEncoder(), nb), {"bernoullinb__alpha": [1.0]}))
    assert lint(nested, TABLE) == lint(make_pipeline(OneHotEncoder(), BernoulliNB()), TABLE)
    codes = pd.get_dummies(TABLE, dtype=int)
    assert lint(GridSearchCV(BernoulliNB(), {"alpha": [0.5, 1.0]}), codes) == lint(BernoulliNB(), codes)
