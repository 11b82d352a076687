"""MixedNB and CollapseGroups: scikit-learn's contract, its Naive Bayes classes as oracles, NB401's maths."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import sparse
from sklearn.naive_bayes import BernoulliNB, CategoricalNB, GaussianNB, MultinomialNB
from sklearn.pipeline import make_pipeline
from sklearn.utils.estimator_checks import parametrize_with_checks
from slow_set import expected_to_fail, slow_where

from nblint import CollapseGroups, MixedNB, nbmath, testing
from nblint.impact import design as impact_design
from nblint.impact import scoring
from nblint.impact.statistics import profile_counts
from nblint.readers import DataFrameSource

SETTINGS = settings(max_examples=25, deadline=None)
ALPHAS = st.sampled_from([1.0, 0.5, 1e-3, 2.0])


def _row_decisions(estimator) -> dict[str, str]:
    """The checks a MixedNB is expected to fail: weight 2 is not a row written twice where rows decide the plan.

    With ``kinds="auto"`` the kinds are inferred from the rows, with ``binned`` the bin
    edges are their quantiles, with WANBIA the folds are drawn over them: a repeated row
    moves each of these, a weight does not (MixedNB.fit's docstring). Declared kinds with
    no such decision (``kinds="categorical"``), and a sparse matrix without WANBIA or bins,
    pass the check.
    """
    if not isinstance(estimator, MixedNB):
        return {}
    reason = "the plan (kinds, bins, WANBIA folds) is decided from the rows given, not from their weights"
    # (a sparse matrix is one multinomial block whatever its rows: only bins and WANBIA read them there)
    rows_decide_sparse = estimator.weights is not None or estimator.kinds == "binned"
    rows_decide_dense = rows_decide_sparse or estimator.kinds != "categorical"
    return {
        **({"check_sample_weight_equivalence_on_dense_data": reason} if rows_decide_dense else {}),
        **({"check_sample_weight_equivalence_on_sparse_data": reason} if rows_decide_sparse else {}),
    }


# scikit-learn's checks fit each configuration about 70 times. The fast subset runs them on one
# configuration per code path of MixedNB (estimators/mixednb.py, mixedweights.py, featureplan.py):
#   MixedNB()                               the inferred plan, each measurement's chosen reading
#                                           (readings.held_out_scores), WANBIA's cross-fitted weights
#                                           and their weighted sum of the features' log-likelihoods;
#   MixedNB(weights=None, alpha=0.0)        the same inferred plan and readings through the unweighted
#                                           model's sum, with alpha = 0's vetoes (zero counts of the
#                                           categorical, binned and multinomial parts) in the posterior,
#                                           and the sparse block's sample weights (it passes that check);
#   MixedNB(weights=None, kinds="categorical")  a declared plan, and dense sample weights (it passes that check);
#   MixedNB(weights=None, kinds="binned")   the bin edges of a declared binned reading;
#   CollapseGroups()                        the transformer.
# The slow set (`python -m pytest`, as CI runs it) adds the two configurations whose paths those cover,
# WANBIA's weights over alpha = 0's vetoes (MixedNB(alpha=0.0), a third of the fast checks' CPU by itself)
# and the unweighted model at alpha = 1 (MixedNB(weights=None)), and the checks expected to fail
# (_row_decisions): not strict, they assert nothing, and were 3.3 s of the fast subset's CPU.
CONTRACT_FAST = [
    MixedNB(),
    MixedNB(weights=None, alpha=0.0),
    MixedNB(weights=None, kinds="categorical"),
    MixedNB(weights=None, kinds="binned"),
    CollapseGroups(),
]
CONTRACT_COVERED = [MixedNB(alpha=0.0), MixedNB(weights=None)]


@slow_where(parametrize_with_checks(CONTRACT_FAST, expected_failed_checks=_row_decisions), expected_to_fail)
def test_scikit_learn_contract(estimator, check):
    check(estimator)


@pytest.mark.slow
@parametrize_with_checks(CONTRACT_COVERED, expected_failed_checks=_row_decisions)
def test_scikit_learn_contract_of_configurations_the_fast_ones_cover(estimator, check):
    check(estimator)


@pytest.mark.slow
def test_import_nblint_does_not_import_sklearn():
    code = "import sys, nblint; assert 'sklearn' not in sys.modules; nblint.MixedNB; assert 'sklearn' in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True)


# --------------------------------------------------------------------------- one kind: scikit-learn's classes


def rows_and_classes(draw, n_classes_max=4):
    n_classes = draw(st.integers(2, n_classes_max))
    n = draw(st.integers(n_classes, 60))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    y = np.concatenate([np.arange(n_classes), rng.integers(0, n_classes, n - n_classes)])  # every class seen
    return rng, y


@st.composite
def tables(draw, kind):
    rng, y = rows_and_classes(draw)
    n, D = len(y), draw(st.integers(1, 5))
    if kind == "categorical":
        # Every code 0..K-1 present in each column: the levels CategoricalNB assumes.
        levels = [min(draw(st.integers(1, 5)), n) for _ in range(D)]
        X = np.column_stack(
            [rng.permutation(np.concatenate([np.arange(K), rng.integers(0, K, n - K)])) for K in levels]
        )
    elif kind == "bernoulli":
        X = (rng.random((n, D)) < rng.random(D)).astype(float)
    elif kind == "multinomial":
        X = rng.poisson(rng.random(D) * 4, (n, D)).astype(float)
    else:
        X = rng.normal(size=(n, D)) * rng.uniform(0.1, 10, D) + y[:, None]
    prior = draw(st.sampled_from(["fit", "uniform", "given"]))
    return X, y, prior


def prior_params(prior, y):
    C = len(np.unique(y))
    if prior == "uniform":
        return {"fit_prior": False}
    if prior == "given":
        p = np.arange(1, C + 1, dtype=float)
        return {"class_prior": p / p.sum()}
    return {}


def assert_same_posteriors(ours, theirs, X):
    np.testing.assert_allclose(ours.predict_joint_log_proba(X), theirs.predict_joint_log_proba(X), rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(ours.predict_proba(X), theirs.predict_proba(X), rtol=0, atol=1e-9)
    np.testing.assert_allclose(ours.predict_log_proba(X), theirs.predict_log_proba(X), rtol=1e-9, atol=1e-9)


@SETTINGS
@given(table=tables("categorical"), alpha=ALPHAS)
def test_categorical_table_equals_categorical_nb(table, alpha):
    X, y, prior = table
    sk = CategoricalNB(alpha=alpha, force_alpha=True, **prior_params(prior, y)).fit(X, y)
    ours = MixedNB(weights=None, kinds="categorical", alpha=alpha, **prior_params(prior, y)).fit(X, y)
    assert_same_posteriors(ours, sk, X)


@SETTINGS
@given(table=tables("bernoulli"), alpha=ALPHAS, as_sparse=st.booleans())
def test_bernoulli_table_equals_bernoulli_nb(table, alpha, as_sparse):
    X, y, prior = table
    X = sparse.csr_matrix(X) if as_sparse else X
    sk = BernoulliNB(alpha=alpha, force_alpha=True, **prior_params(prior, y)).fit(X, y)
    ours = MixedNB(weights=None, kinds="bernoulli", alpha=alpha, **prior_params(prior, y)).fit(X, y)
    assert_same_posteriors(ours, sk, X)


@SETTINGS
@given(table=tables("multinomial"), alpha=ALPHAS, as_sparse=st.booleans())
def test_count_table_equals_multinomial_nb(table, alpha, as_sparse):
    X, y, prior = table
    X = sparse.csr_matrix(X) if as_sparse else X
    sk = MultinomialNB(alpha=alpha, force_alpha=True, **prior_params(prior, y)).fit(X, y)
    ours = MixedNB(weights=None, kinds="multinomial", alpha=alpha, **prior_params(prior, y)).fit(X, y)
    assert_same_posteriors(ours, sk, X)
    if as_sparse:  # a sparse matrix is read as counts without being told
        assert_same_posteriors(MixedNB(weights=None, alpha=alpha, **prior_params(prior, y)).fit(X, y), sk, X)


@SETTINGS
@given(table=tables("gaussian"), var_smoothing=st.sampled_from([1e-9, 1e-3, 0.5]))
def test_continuous_table_equals_gaussian_nb(table, var_smoothing):
    X, y, prior = table
    params = {"priors": prior_params(prior, y)["class_prior"]} if prior == "given" else {}
    sk = GaussianNB(var_smoothing=var_smoothing, **params).fit(X, y)
    ours = MixedNB(
        weights=None,
        kinds="gaussian",
        var_smoothing=var_smoothing,
        fit_prior=prior != "uniform",
        class_prior=params.get("priors"),
    ).fit(X, y)
    if prior == "uniform":  # GaussianNB has no uniform prior: compare the likelihoods
        np.testing.assert_allclose(
            ours.predict_joint_log_proba(X) - ours.class_log_prior_,
            sk.predict_joint_log_proba(X) - np.log(sk.class_prior_),
            rtol=1e-9,
            atol=1e-9,
        )
        return
    np.testing.assert_allclose(ours.theta_, sk.theta_, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(ours.var_, sk.var_, rtol=1e-9)
    X_new = X + np.random.default_rng(0).normal(size=X.shape) * X.std(axis=0)
    for rows in (X, X_new):
        assert_same_posteriors(ours, sk, rows)


# --------------------------------------------------------------------------- a mixed table


def mixed_table(seed: int, n: int = 300):
    """A one-hot group, a dummy group, a flag, text codes, a count and a measurement."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n)
    a = np.where(rng.random(n) < 0.5, y % 4, rng.integers(0, 4, n))
    b = rng.integers(0, 4, n)
    frame = pd.DataFrame({f"a{k}": (a == k).astype(int) for k in range(4)})
    for k in range(3):
        frame[f"b{k}"] = (b == k).astype(int)
    frame["flag"] = (rng.random(n) < 0.3 + 0.2 * (y == 1)).astype(int)
    frame["city"] = rng.choice(["Oslo", "Lima", "Pune", "Kyiv"], n)
    frame["n_visits"] = rng.poisson(1 + y, n)
    frame["x"] = rng.normal(y * 0.7, 1.0, n)
    return frame, y


MIXED_KINDS = {
    ("a0", "a1", "a2", "a3"): "one-hot",
    ("b0", "b1", "b2"): "dummy",
    "flag": "bernoulli",
    "city": "categorical",
    "n_visits": "multinomial",
    "x": "gaussian",
}


def test_auto_finds_groups_and_kinds_as_nblint_does():
    frame, y = mixed_table(0)
    model = MixedNB(weights=None).fit(frame, y)
    assert [(f.model, f.columns, f.group) for f in model.features_] == [
        ("categorical", ("a0", "a1", "a2", "a3"), "one-hot"),
        ("categorical", ("b0", "b1", "b2"), "dummy"),
        ("bernoulli", ("flag",), None),
        ("categorical", ("city",), None),
        ("categorical", ("n_visits",), None),
        ("gaussian", ("x",), None),
    ]
    declared = MixedNB(weights=None, kinds={**MIXED_KINDS, "n_visits": "categorical"}).fit(frame, y)
    np.testing.assert_array_equal(model.predict_proba(frame), declared.predict_proba(frame))
    # Declared kinds win over the inference; the others are still inferred.
    partly = MixedNB(weights=None, kinds={"n_visits": "multinomial", "x": "drop"}).fit(frame, y)
    models = {f.columns: f.model for f in partly.features_}
    assert (
        models[("n_visits",)] == "multinomial" and ("x",) not in models and partly.left_out_ == {"x": "declared drop"}
    )
    assert models[("a0", "a1", "a2", "a3")] == "categorical"


def test_a_declared_measurement_and_group_are_the_inferred_ones():
    """kinds 'continuous' chooses the reading as kinds='auto' does; a declared group is named as a found one."""
    rng = np.random.default_rng(4)
    n = 300
    y = rng.integers(0, 2, n)
    level = np.where(rng.random(n) < 0.6, y, rng.integers(0, 3, n))
    frame = pd.DataFrame(
        {
            "spend": np.exp(rng.normal(1 + y, 0.8)).round(2),  # log-normal per class
            **{f"plan_{name}": (level == k).astype(int) for k, name in enumerate(["basic", "pro", "team"])},
        }
    )
    auto = MixedNB().fit(frame, y)
    declared = MixedNB(kinds={"spend": "continuous", ("plan_basic", "plan_pro", "plan_team"): "one-hot"}).fit(frame, y)
    assert [(f.label, f.model) for f in declared.features_] == [(f.label, f.model) for f in auto.features_]
    assert {f.label for f in auto.features_} == {"spend", "plan"}
    assert declared.reading_scores_ == auto.reading_scores_ and declared.reading_scores_["spend"]
    np.testing.assert_allclose(declared.weights_, auto.weights_, atol=1e-9)
    pinned = MixedNB(kinds={"spend": "gaussian"}).fit(frame, y)  # a reading declared is kept, not chosen
    assert {f.label: f.model for f in pinned.features_}["spend"] == "gaussian" and "spend" not in pinned.reading_scores_


def test_mixed_model_is_the_product_of_scikit_learn_models():
    """Each part equals its scikit-learn class: the joint log likelihoods add, with the prior once."""
    frame, y = mixed_table(1)
    ours = MixedNB(weights=None, kinds=MIXED_KINDS, alpha=0.5).fit(frame, y)
    a = frame[["a0", "a1", "a2", "a3"]].to_numpy().argmax(axis=1)
    bits_b = frame[["b0", "b1", "b2"]].to_numpy()
    b = np.where(bits_b.any(axis=1), bits_b.argmax(axis=1), 3)
    city = np.unique(frame["city"], return_inverse=True)[1]
    parts = [
        (CategoricalNB(alpha=0.5, force_alpha=True), np.column_stack([a, b, city])),
        (BernoulliNB(alpha=0.5, force_alpha=True), frame[["flag"]].to_numpy()),
        (MultinomialNB(alpha=0.5, force_alpha=True), frame[["n_visits"]].to_numpy()),
        (GaussianNB(), frame[["x"]].to_numpy()),
    ]
    joint = sum(model.fit(X, y).predict_joint_log_proba(X) for model, X in parts) - 3 * parts[0][0].class_log_prior_
    np.testing.assert_allclose(ours.predict_joint_log_proba(frame), joint, rtol=1e-9)


@given(seed=st.integers(0, 1000), cuts=st.lists(st.integers(1, 299), max_size=4), alpha=st.sampled_from([1.0, 0.0]))
@SETTINGS
def test_partial_fit_in_batches_is_one_fit(seed, cuts, alpha):
    frame, y = mixed_table(seed)
    whole = MixedNB(weights=None, kinds=MIXED_KINDS, alpha=alpha).fit(frame, y)
    batched = MixedNB(weights=None, kinds=MIXED_KINDS, alpha=alpha)
    for part in np.split(np.arange(len(y)), sorted(set(cuts))):
        batched.partial_fit(frame.iloc[part], y[part], classes=[0, 1, 2])
    np.testing.assert_allclose(batched.predict_proba(frame), whole.predict_proba(frame), rtol=0, atol=1e-12)


def test_unseen_categories_give_no_evidence_and_veto_no_class():
    """A level never seen, or a group row that is no level, is left out of that row's product."""
    frame, y = mixed_table(2)
    kinds = {**MIXED_KINDS, "x": "drop", "n_visits": "drop"}
    no_city = {**kinds, "city": "drop"}
    no_city_no_a = {k: v for k, v in no_city.items() if k != ("a0", "a1", "a2", "a3")} | dict.fromkeys(
        ["a0", "a1", "a2", "a3"], "drop"
    )
    new = frame.head(20).assign(city="Quito")  # a level never seen
    new.loc[new.index[:3], ["a0", "a1"]] = 1  # rows that are no level of the one-hot group either
    for alpha in (1.0, 0.0):
        proba = MixedNB(weights=None, kinds=kinds, alpha=alpha).fit(frame, y).predict_proba(new)
        assert np.all(proba > 0) and np.allclose(proba.sum(axis=1), 1)
        expected = MixedNB(weights=None, kinds=no_city, alpha=alpha).fit(frame, y).predict_proba(new)
        np.testing.assert_allclose(proba[3:], expected[3:], rtol=0, atol=1e-12)
        expected = MixedNB(weights=None, kinds=no_city_no_a, alpha=alpha).fit(frame, y).predict_proba(new)
        np.testing.assert_allclose(proba[:3], expected[:3], rtol=0, atol=1e-12)
    with pytest.raises(ValueError, match="twice"):
        MixedNB(weights=None, kinds={("a0", "a1"): "one-hot", "a1": "bernoulli"}).fit(frame, y)


def test_missing_categorical_values_give_no_evidence():
    frame, y = mixed_table(6)
    frame = frame.drop(columns=["n_visits"])
    alpha = 1.0
    with_gaps = frame.copy()
    with_gaps.loc[:9, "city"] = None
    kinds = {"city": "categorical", "x": "drop"}
    model = MixedNB(weights=None, kinds=kinds, alpha=alpha).fit(with_gaps, y)
    no_city = MixedNB(weights=None, kinds={**kinds, "city": "drop"}, alpha=alpha).fit(frame, y)
    np.testing.assert_allclose(
        model.predict_proba(with_gaps.head(10)), no_city.predict_proba(frame.head(10)), atol=1e-12
    )
    with pytest.raises(ValueError, match="NaN"):
        MixedNB(weights=None, kinds={"x": "gaussian"}).fit(frame.assign(x=np.nan), y)


@pytest.mark.parametrize("alpha", [-1.0, float("nan"), float("inf")])
def test_a_bad_alpha_is_refused_in_the_run_keys_words(alpha):
    """Issue 39 item 5: MixedNB checks ``alpha >= 0`` where every face does (the ``alpha`` run key), as nbmath does."""
    from nblint.core.runkeys import RUN_KEYS

    with pytest.raises(ValueError) as expected:
        RUN_KEYS["alpha"].parse(alpha, "alpha")
    frame, y = mixed_table(6)
    with pytest.raises(ValueError) as refused:
        MixedNB(alpha=alpha).fit(frame, y)
    with pytest.raises(ValueError) as by_nbmath:
        nbmath.categorical_log_theta(np.ones((2, 2)), alpha)
    assert str(refused.value) == str(expected.value) == str(by_nbmath.value)
    assert str(refused.value).startswith("alpha must be a finite number >= 0, got ")


def test_a_bernoulli_value_never_seen_gives_no_evidence():
    """Like BernoulliNB's binarising would not: a 2 in a 0/1 column is unknown, not 'on'."""
    frame, y = mixed_table(7)
    kinds = {**MIXED_KINDS, "x": "drop", "n_visits": "drop"}
    new = frame.head(10).assign(flag=2)
    proba = MixedNB(weights=None, kinds=kinds).fit(frame, y).predict_proba(new)
    expected = MixedNB(weights=None, kinds={**kinds, "flag": "drop"}).fit(frame, y).predict_proba(new)
    np.testing.assert_allclose(proba, expected, rtol=0, atol=1e-12)


def test_counts_on_their_own_are_categorical_or_gaussian():
    """A dense count column is not lumped into one multinomial with unrelated counts."""
    frame, y = mixed_table(8)
    frame["weight_lb"] = np.random.default_rng(0).integers(90, 250, len(frame))  # whole numbers, many values
    models = {f.columns[0]: f.model for f in MixedNB().fit(frame, y).features_}
    assert models["n_visits"] == "categorical" and models["weight_lb"] == "gaussian"


def test_alpha_zero_is_the_limit_of_small_alpha():
    frame, y = mixed_table(3, n=60)
    kinds = {**MIXED_KINDS, "x": "drop"}
    limit = MixedNB(weights=None, kinds=kinds, alpha=0.0).fit(frame, y).predict_proba(frame)
    near = MixedNB(weights=None, kinds=kinds, alpha=1e-9).fit(frame, y).predict_proba(frame)
    assert not np.isnan(limit).any()
    np.testing.assert_allclose(limit, near, atol=1e-6)


def test_sparse_count_blocks_stay_sparse(monkeypatch):
    seen = []
    original = nbmath.MultinomialComponent.log_likelihood

    def spy(self, X):
        seen.append(sparse.issparse(X))
        return original(self, X)

    monkeypatch.setattr(nbmath.MultinomialComponent, "log_likelihood", spy)
    rng = np.random.default_rng(0)
    X = sparse.random(200, 5000, density=0.002, format="csr", random_state=1) * 5
    X.data = np.ceil(X.data)
    y = rng.integers(0, 2, 200)
    model = MixedNB(weights=None).fit(X, y)
    proba = model.predict_proba(X)
    assert seen == [True] and model.features_[0].model == "multinomial"
    np.testing.assert_allclose(proba, MultinomialNB().fit(X, y).predict_proba(X), atol=1e-9)


# --------------------------------------------------------------------------- NB401's model CAT


def test_posteriors_equal_nb401_cat_model():
    """MixedNB (kinds inferred) and NB401's CAT give the same posterior on every row."""
    rng = np.random.default_rng(4)
    n = 400
    y = rng.integers(0, 3, n)
    a = np.where(rng.random(n) < 0.5, y % 4, rng.integers(0, 4, n))
    b = rng.integers(0, 4, n)
    frame = pd.DataFrame({f"a{k}": (a == k).astype(int) for k in range(4)})
    for k in range(3):
        frame[f"b{k}"] = (b == k).astype(int)
    frame["code"] = rng.integers(0, 3, n) + (y == 2)
    frame["city"] = rng.choice(["Oslo", "Lima", "Pune"], n)
    frame["x"] = rng.normal(y * 0.7, 1.0, n)
    frame["y"] = y
    ctx = testing.context(DataFrameSource(frame, chunk_rows=128), target="y")
    for alpha in (1.0, 0.3):
        design = impact_design.make_design(ctx)
        totals = profile_counts(ctx, design)
        models = scoring.fit(totals, design, alpha, 1e-9, nbmath.pooled_variance(totals.moments))
        rows = impact_design.RowInputs.concatenate(
            [impact_design.encode_chunk(chunk, design, "y") for chunk in ctx.scan(design.columns + ["y"])]
        )
        cat = scoring.log_posteriors(models, rows)[0][:, scoring.CAT, :].T
        X = frame.drop(columns="y")
        ours = MixedNB(alpha=alpha, continuous="gaussian", weights=None).fit(
            X, y
        )  # CAT reads a measurement as Gaussian
        assert {f.columns for f in ours.features_ if f.model == "categorical"} == {
            ("a0", "a1", "a2", "a3"),
            ("b0", "b1", "b2"),
            ("code",),
            ("city",),
        }
        np.testing.assert_allclose(ours.predict_log_proba(X), cat, rtol=0, atol=1e-12)


# --------------------------------------------------------------------------- CollapseGroups


def test_collapse_groups_feeds_categorical_nb_and_inverts():
    frame, y = mixed_table(5)
    bits = frame[["a0", "a1", "a2", "a3", "b0", "b1", "b2", "flag"]]
    collapse = CollapseGroups().fit(bits)
    assert collapse.groups_ == [((0, 1, 2, 3), "one-hot"), ((4, 5, 6), "dummy")]
    codes = collapse.transform(bits)
    assert list(collapse.get_feature_names_out()) == ["a0+a1+a2+a3", "b0+b1+b2", "flag"]
    np.testing.assert_array_equal(collapse.inverse_transform(codes), bits.to_numpy())
    pipeline = make_pipeline(CollapseGroups(), CategoricalNB()).fit(bits, y)
    ours = MixedNB(
        weights=None, kinds={("a0", "a1", "a2", "a3"): "one-hot", ("b0", "b1", "b2"): "dummy", "flag": "categorical"}
    )
    np.testing.assert_allclose(pipeline.predict_proba(bits), ours.fit(bits, y).predict_proba(bits), atol=1e-12)
    broken = bits.copy()
    broken.loc[4, ["a0", "a1"]] = 1  # row 5 has two bits of the one-hot group set
    with pytest.raises(ValueError, match=r"rows \[5\]"):
        collapse.transform(broken)


@pytest.mark.parametrize("model", ["bernoulli", "multinomial", "gaussian", "categorical"])
def test_every_fix_that_asks_for_a_categorical_reading_points_at_mixednb(model):
    """Issue 16: an event-model or impact finding whose fix says to read something as categorical
    names the estimator that does it (MixedNB, or CollapseGroups / nblint fix for a group)."""
    from nblint import check

    examples = Path(__file__).parent.parent / "examples"
    report = check(examples / "customers.csv", model=model)
    fixes = [f for f in report.findings if f.code[:3] in ("NB3", "NB4") and "ategorical" in (f.fix or "")]
    assert fixes or model == "categorical"
    for finding in fixes:
        assert "MixedNB" in finding.fix or "CollapseGroups" in finding.fix, (finding.code, finding.fix)


# --------------------------------------------------------------------------- readings of a measurement


def measurement_table(seed: int, n: int = 800):
    """A skewed price (log-normal within each class), a score bimodal in one class, and a plain normal one."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    frame = pd.DataFrame(
        {
            "price": np.exp(rng.normal(1.0 + 0.8 * y, 1.0)),
            # class 0 around 0, class 1 at -2 or 2: one mean, two shapes a normal density cannot tell apart well
            "score": np.where(y == 1, np.where(rng.random(n) < 0.5, -2.0, 2.0), 0.0) + rng.normal(0, 0.5, n),
            "x": rng.normal(0.6 * y, 1.0),
        }
    )
    return frame, y


def test_each_measurement_gets_the_reading_that_fits_it():
    frame, y = measurement_table(0)
    model = MixedNB().fit(frame, y)
    readings_chosen = {f.label: f.model for f in model.features_}
    assert readings_chosen == {"price": "lognormal", "score": "binned", "x": "gaussian"}
    for column, scores in model.reading_scores_.items():
        assert max(scores, key=scores.get) == readings_chosen[column]
    # Deterministic, and not dependent on column order.
    again = MixedNB().fit(frame[["x", "score", "price"]], y)
    assert {f.label: f.model for f in again.features_} == readings_chosen
    # Declared kinds win; continuous= sets the reading of every inferred measurement.
    declared = MixedNB(weights=None, kinds={"price": "gaussian"}).fit(frame, y)
    assert {f.label: f.model for f in declared.features_}[
        "price"
    ] == "gaussian" and "price" not in declared.reading_scores_
    assert {f.model for f in MixedNB(continuous="gaussian").fit(frame, y).features_} == {"gaussian"}


def test_lognormal_reading_is_gaussian_nb_on_the_logs():
    frame, y = measurement_table(1)
    X = frame[["price"]]
    ours = MixedNB(weights=None, kinds="lognormal").fit(X, y)
    theirs = GaussianNB().fit(np.log(X.to_numpy()), y)
    np.testing.assert_allclose(ours.log_theta_, theirs.theta_, rtol=1e-9)
    np.testing.assert_allclose(ours.log_var_, theirs.var_, rtol=1e-9)
    # The density of x is that of log x times the Jacobian 1/x, which cancels in the posterior.
    jacobian = -np.log(X.to_numpy())
    np.testing.assert_allclose(
        ours.predict_joint_log_proba(X), theirs.predict_joint_log_proba(np.log(X.to_numpy())) + jacobian, rtol=1e-9
    )
    np.testing.assert_allclose(ours.predict_proba(X), theirs.predict_proba(np.log(X.to_numpy())), atol=1e-12)
    # A value that is not positive gives no evidence: the prior alone.
    proba = ours.predict_proba(pd.DataFrame({"price": [-1.0, 0.0]}))
    np.testing.assert_allclose(proba, np.exp(np.tile(ours.class_log_prior_, (2, 1))), atol=1e-12)
    with pytest.raises(ValueError, match="positive"):
        MixedNB(weights=None, kinds="lognormal").fit(frame[["score"]], y)


def test_binned_reading_is_categorical_nb_on_quantile_bins():
    frame, y = measurement_table(2)
    X = frame[["score", "x"]]
    ours = MixedNB(weights=None, kinds="binned", alpha=0.5).fit(X, y)
    k = int(np.sqrt(len(y)))
    assert all(len(edges) == k - 1 for edges in ours.bin_edges_.values())  # about sqrt(n) bins
    codes = np.column_stack([np.searchsorted(ours.bin_edges_[c], X[c].to_numpy(), side="right") for c in X.columns])
    theirs = CategoricalNB(alpha=0.5, force_alpha=True, min_categories=k).fit(codes, y)
    assert_same_posteriors_between(ours, X, theirs, codes)
    counts = np.bincount(codes[:, 0], minlength=k)
    assert counts.min() >= 0.8 * len(y) / k and counts.max() <= 1.2 * len(y) / k  # equal-frequency bins


def assert_same_posteriors_between(ours, X, theirs, X_theirs):
    np.testing.assert_allclose(ours.predict_joint_log_proba(X), theirs.predict_joint_log_proba(X_theirs), rtol=1e-9)
    np.testing.assert_allclose(ours.predict_proba(X), theirs.predict_proba(X_theirs), atol=1e-12)


def test_partial_fit_keeps_the_first_batchs_readings_and_leaves_weights_to_fit():
    frame, y = measurement_table(3)
    whole = MixedNB(weights=None, kinds={"price": "lognormal", "score": "binned", "x": "gaussian"}).fit(frame, y)
    batched = MixedNB(weights=None, kinds={"price": "lognormal", "score": "binned", "x": "gaussian"})
    batched.partial_fit(frame.iloc[:400], y[:400], classes=[0, 1])
    batched.partial_fit(frame.iloc[400:], y[400:])
    edges_first = MixedNB(weights=None, kinds="binned").fit(frame[["score"]].iloc[:400], y[:400]).bin_edges_["score"]
    np.testing.assert_array_equal(batched.bin_edges_["score"], edges_first)  # bins from the first batch
    np.testing.assert_allclose(batched.log_theta_, whole.log_theta_, rtol=1e-12)
    with pytest.warns(UserWarning, match="unweighted"):
        unweighted = MixedNB(weights="wanbia").partial_fit(frame, y, classes=[0, 1])
    np.testing.assert_array_equal(unweighted.weights_, np.ones(len(unweighted.features_)))
    plain = MixedNB(weights=None).fit(frame, y)
    np.testing.assert_allclose(unweighted.predict_proba(frame), plain.predict_proba(frame), atol=1e-12)


# --------------------------------------------------------------------------- WANBIA weights


def copies_table(seed: int, n: int = 1500):
    """A measurement, two near-copies of it, and a column of pure noise."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    x = rng.normal(0.8 * y, 1.0)
    frame = pd.DataFrame(
        {
            "x_min": x - 0.01 * rng.random(n),
            "x": x,
            "x_max": x + 0.01 * rng.random(n),
            "noise": rng.normal(size=n),
        }
    )
    return frame, y


def test_wanbia_discounts_copies_and_beats_plain_nb_on_held_out_rows():
    from sklearn.metrics import log_loss

    frame, y = copies_table(0)
    kinds = "gaussian"
    plain = MixedNB(weights=None, kinds=kinds).fit(frame.iloc[:1000], y[:1000])
    weighted = MixedNB(kinds=kinds, weights="wanbia").fit(frame.iloc[:1000], y[:1000])
    w = weighted.weights_
    assert w.shape == (4,) and np.all(w >= 0)
    assert 0.6 < w[:3].sum() < 1.6  # three copies of one measurement count about once, not three times
    assert w[3] < 0.7  # noise is discounted (the penalty pulls towards 1: plain Naive Bayes)
    test, y_test = frame.iloc[1000:], y[1000:]
    assert log_loss(y_test, weighted.predict_proba(test)) < 0.95 * log_loss(y_test, plain.predict_proba(test))
    # Weights of one are plain Naive Bayes; the weighted score is the weighted sum of the features' scores.
    weighted.weights_ = np.ones(4)
    np.testing.assert_allclose(weighted.predict_proba(test), plain.predict_proba(test), atol=1e-12)


def test_wanbia_weights_minimise_the_penalised_conditional_log_likelihood():
    """The optimiser's answer against scipy's numerical gradient and a perturbation check."""
    from scipy.optimize import check_grad

    from nblint.estimators import wanbia

    rng = np.random.default_rng(1)
    L = rng.normal(size=(200, 3, 3))
    y = rng.integers(0, 3, 200)
    prior = np.log(np.full(3, 1 / 3))

    def f(w):
        return wanbia._objective(w, L, y, prior, 1.0)[0]

    def g(w):
        return wanbia._objective(w, L, y, prior, 1.0)[1]

    assert check_grad(f, g, np.array([0.5, 1.0, 2.0])) < 1e-4
    w = wanbia.fit_weights(L, y, prior)
    for step in np.eye(3) * 1e-3:
        for sign in (1, -1):
            moved = np.maximum(w + sign * step, 0)
            assert f(moved) >= f(w) - 1e-8


def test_wanbia_gives_a_multinomial_block_one_weight():
    """Counts of one kind share one weight (a weight per word would hold n x words log-likelihoods)."""
    rng = np.random.default_rng(2)
    y = rng.integers(0, 2, 400)
    counts = rng.poisson(1 + y[:, None] * np.array([1.0, 0.0, 0.5]), (400, 3)).astype(float)
    X = np.column_stack([counts, rng.normal(y, 1.0)])
    model = MixedNB(kinds={0: "multinomial", 1: "multinomial", 2: "multinomial", 3: "gaussian"}).fit(X, y)
    assert len(model.weights_) == 4 and len(set(model.weights_[:3])) == 1
    one_block = MixedNB(kinds="multinomial", weights=None).fit(counts, y)
    gaussian = MixedNB(kinds="gaussian", weights=None).fit(X[:, [3]], y)
    w = model.weights_
    expected = (
        model.class_log_prior_
        + w[0] * (one_block.predict_joint_log_proba(counts) - one_block.class_log_prior_)
        + w[3] * (gaussian.predict_joint_log_proba(X[:, [3]]) - gaussian.class_log_prior_)
    )
    np.testing.assert_allclose(model.predict_joint_log_proba(X), expected, rtol=1e-9)


def test_a_feature_of_a_mixed_model_has_every_event_model_but_complement():
    """One vocabulary (nblint.core.models): ComplementNB weighs every feature at once, so no single one has it."""
    from nblint.core.models import MODELS
    from nblint.estimators.recommend import FEATURE_MODELS

    assert set(FEATURE_MODELS) == set(MODELS) - {"complement"}
