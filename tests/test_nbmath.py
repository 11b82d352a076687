"""Tests for nblint.nbmath, with scikit-learn's naive_bayes as the oracle.

Where scikit-learn has no counterpart (the paper's Q^{-j}, bounds, eq. 13,
the alpha -> 0+ limit) the expected values come from brute force or from
reasoning written out in the test.
"""

from __future__ import annotations

import importlib.util
import warnings
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from scipy.special import logsumexp
from sklearn.naive_bayes import BernoulliNB, CategoricalNB, GaussianNB

from nblint import nbmath as nbm

SETTINGS = settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
ALPHAS = st.one_of(st.sampled_from([1.0, 0.5, 1e-3]), st.floats(1e-3, 5.0))
TOL = 1e-9


# ---------------------------------------------------------------------------
# strategies and small builders
# ---------------------------------------------------------------------------


@st.composite
def labelled_rows(draw, max_classes=4, max_rows=40):
    """Class codes where every class occurs at least once."""
    n_classes = draw(st.integers(2, max_classes))
    extra = draw(
        hnp.arrays(np.int64, draw(st.integers(0, max_rows - n_classes)), elements=st.integers(0, n_classes - 1))
    )
    y = np.concatenate([np.arange(n_classes), extra])
    return n_classes, y


@st.composite
def categorical_tables(draw):
    n_classes, y = draw(labelled_rows())
    n_levels = draw(st.integers(2, 5))
    n_features = draw(st.integers(1, 3))
    X = draw(hnp.arrays(np.int64, (y.shape[0], n_features), elements=st.integers(0, n_levels - 1)))
    return n_classes, n_levels, X, y


@st.composite
def bit_tables(draw):
    n_classes, y = draw(labelled_rows())
    n_bits = draw(st.integers(1, 6))
    B = draw(hnp.arrays(np.int64, (y.shape[0], n_bits), elements=st.integers(0, 1)))
    return n_classes, B, y


def all_level_rows(n_levels, n_features, rng):
    """Rows covering every level of every feature (so unseen levels are scored too)."""
    grid = np.tile(np.arange(n_levels)[:, None], (1, n_features))
    return np.vstack([grid, rng.integers(0, n_levels, (10, n_features))])


def categorical_model(X, y, n_classes, n_levels, alpha, **prior_kw):
    prior = nbm.log_class_prior(nbm.class_counts(y, n_classes), **prior_kw)
    comps = [
        nbm.CategoricalComponent.from_counts(nbm.categorical_counts(X[:, i], y, n_classes, n_levels), alpha)
        for i in range(X.shape[1])
    ]
    return nbm.NaiveBayes(prior, comps)


def columns(X):
    return [X[:, i] for i in range(X.shape[1])]


def sk_categorical(alpha, n_levels):
    return CategoricalNB(alpha=alpha, force_alpha=True, min_categories=n_levels)


def gaussian_table(seed, n_classes, n_rows, n_features):
    rng = np.random.default_rng(seed)
    y = np.concatenate([np.repeat(np.arange(n_classes), 2), rng.integers(0, n_classes, n_rows)])
    scale = 10.0 ** rng.uniform(-2, 2, n_features)
    shift = rng.normal(size=(n_classes, n_features)) * scale
    X = rng.normal(size=(y.shape[0], n_features)) * scale + shift[y]
    return X, y


# ---------------------------------------------------------------------------
# parameters and posteriors against scikit-learn
# ---------------------------------------------------------------------------


@SETTINGS
@given(table=categorical_tables(), alpha=ALPHAS, seed=st.integers(0, 2**32 - 1))
def test_categorical_matches_sklearn(table, alpha, seed):
    n_classes, n_levels, X, y = table
    sk = sk_categorical(alpha, n_levels).fit(X, y)
    model = categorical_model(X, y, n_classes, n_levels, alpha)

    for i in range(X.shape[1]):
        counts = nbm.categorical_counts(X[:, i], y, n_classes, n_levels)
        np.testing.assert_allclose(
            nbm.categorical_log_theta(counts, alpha), sk.feature_log_prob_[i], rtol=1e-12, atol=1e-14
        )
    np.testing.assert_allclose(model.log_prior, sk.class_log_prior_, rtol=1e-12)

    X_new = all_level_rows(n_levels, X.shape[1], np.random.default_rng(seed))
    for rows in (X, X_new):
        np.testing.assert_allclose(model.predict_proba(columns(rows)), sk.predict_proba(rows), atol=TOL, rtol=0)
        np.testing.assert_allclose(
            model.joint_log_likelihood(columns(rows)), sk.predict_joint_log_proba(rows), rtol=1e-12
        )


@SETTINGS
@given(table=bit_tables(), alpha=ALPHAS, fit_prior=st.booleans())
def test_bernoulli_matches_sklearn(table, alpha, fit_prior):
    n_classes, B, y = table
    sk = BernoulliNB(alpha=alpha, force_alpha=True, binarize=None, fit_prior=fit_prior).fit(B, y)
    class_count = nbm.class_counts(y, n_classes)
    ones = nbm.bernoulli_counts(B, y, n_classes)
    bits = nbm.BernoulliComponent.from_counts(ones, class_count, alpha)
    log_p, log_1mp = bits.log_p, bits.log_1mp
    np.testing.assert_allclose(log_p, sk.feature_log_prob_, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(np.exp(log_p) + np.exp(log_1mp), 1.0, rtol=1e-12)

    model = nbm.NaiveBayes(
        nbm.log_class_prior(class_count, fit_prior=fit_prior),
        [nbm.BernoulliComponent.from_counts(ones, class_count, alpha)],
    )
    every_pattern = np.array(np.meshgrid(*[[0, 1]] * B.shape[1])).reshape(B.shape[1], -1).T
    for rows in (B, every_pattern):
        np.testing.assert_allclose(model.predict_proba([rows]), sk.predict_proba(rows), atol=TOL, rtol=0)


@SETTINGS
@given(
    seed=st.integers(0, 2**32 - 1),
    n_classes=st.integers(2, 4),
    n_rows=st.integers(0, 40),
    n_features=st.integers(1, 4),
    var_smoothing=st.sampled_from([1e-9, 1e-5, 1e-3, 0.1, 1.0]),
)
def test_gaussian_matches_sklearn(seed, n_classes, n_rows, n_features, var_smoothing):
    X, y = gaussian_table(seed, n_classes, n_rows, n_features)
    sk = GaussianNB(var_smoothing=var_smoothing).fit(X, y)
    moments = nbm.gaussian_moments(X, y, n_classes)
    comp = nbm.GaussianComponent.from_moments(moments, var_smoothing=var_smoothing, overall_var=X.var(axis=0))
    np.testing.assert_allclose(comp.var, sk.var_, rtol=1e-10)
    np.testing.assert_allclose(comp.mean, sk.theta_, rtol=1e-10, atol=1e-12)
    model = nbm.NaiveBayes(nbm.log_class_prior(nbm.class_counts(y, n_classes)), [comp])
    X_new = X + np.random.default_rng(seed + 1).normal(size=X.shape) * X.std(axis=0)
    for rows in (X, X_new):
        np.testing.assert_allclose(model.predict_proba([rows]), sk.predict_proba(rows), atol=TOL, rtol=0)


@SETTINGS
@given(
    table=categorical_tables(),
    alpha=ALPHAS,
    seed=st.integers(0, 2**32 - 1),
    var_smoothing=st.sampled_from([1e-9, 1e-3, 0.5]),
)
def test_mixed_model_is_sum_of_sklearn_models(table, alpha, seed, var_smoothing):
    """Components combine: one model == three sklearn models with the prior once."""
    n_classes, n_levels, X_cat, y = table
    rng = np.random.default_rng(seed)
    n = y.shape[0]
    B = rng.integers(0, 2, (n, 3))
    X_real = rng.normal(size=(n, 2)) + y[:, None]
    X_real[:n_classes] += rng.normal(size=(n_classes, 2))  # no single-row class is degenerate

    sk_c = sk_categorical(alpha, n_levels).fit(X_cat, y)
    sk_b = BernoulliNB(alpha=alpha, force_alpha=True, binarize=None).fit(B, y)
    sk_g = GaussianNB(var_smoothing=var_smoothing).fit(X_real, y)
    sk_joint = (
        sk_c.predict_joint_log_proba(X_cat)
        + sk_b.predict_joint_log_proba(B)
        + sk_g.predict_joint_log_proba(X_real)
        - 2 * sk_c.class_log_prior_
    )
    sk_post = np.exp(sk_joint - logsumexp(sk_joint, axis=1, keepdims=True))

    class_count = nbm.class_counts(y, n_classes)
    model = categorical_model(X_cat, y, n_classes, n_levels, alpha)
    model = nbm.NaiveBayes(
        model.log_prior,
        [
            *model.components,
            nbm.BernoulliComponent.from_counts(nbm.bernoulli_counts(B, y, n_classes), class_count, alpha),
            nbm.GaussianComponent.from_moments(
                nbm.gaussian_moments(X_real, y, n_classes), var_smoothing=var_smoothing, overall_var=X_real.var(axis=0)
            ),
        ],
    )
    inputs = [*columns(X_cat), B, X_real]
    np.testing.assert_allclose(model.joint_log_likelihood(inputs), sk_joint, rtol=1e-10, atol=1e-9)
    np.testing.assert_allclose(model.predict_proba(inputs), sk_post, atol=TOL, rtol=0)


@SETTINGS
@given(
    table=categorical_tables(),
    alpha=st.sampled_from([0.0, 1e-3, 1.0]),
    seed=st.integers(0, 2**32 - 1),
    cut=st.floats(0, 1),
)
def test_merged_counts_fit_like_the_whole_table(table, alpha, seed, cut):
    n_classes, n_levels, X_cat, y = table
    rng = np.random.default_rng(seed)
    n = y.shape[0]
    B = rng.integers(0, 2, (n, 4))
    X_real = rng.normal(size=(n, 3)) * [1.0, 10.0, 0.1] + y[:, None]
    order = rng.permutation(n)
    halves = np.split(order, [int(cut * n)])

    def stats(idx):
        return (
            nbm.class_counts(y[idx], n_classes),
            [nbm.categorical_counts(X_cat[idx, i], y[idx], n_classes, n_levels) for i in range(X_cat.shape[1])],
            nbm.bernoulli_counts(B[idx], y[idx], n_classes),
            nbm.gaussian_moments(X_real[idx], y[idx], n_classes),
        )

    def build(count, cat_counts, ones, moments):
        return nbm.NaiveBayes(
            nbm.log_class_prior(count),
            [
                *[nbm.CategoricalComponent.from_counts(c, alpha) for c in cat_counts],
                nbm.BernoulliComponent.from_counts(ones, count, alpha),
                nbm.GaussianComponent.from_moments(moments, var_smoothing=1e-3),
            ],
        )

    a, b = stats(halves[0]), stats(halves[1])
    merged = build(
        a[0] + b[0], [p + q for p, q in zip(a[1], b[1], strict=True)], a[2] + b[2], nbm.merge_moments(a[3], b[3])
    )
    whole = build(*stats(order))
    inputs = [*columns(X_cat), B, X_real]
    np.testing.assert_allclose(merged.predict_proba(inputs), whole.predict_proba(inputs), atol=1e-12, rtol=0)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n_classes=st.integers(1, 4), cut=st.floats(0, 1))
def test_gaussian_moments_merge_and_pool(seed, n_classes, cut):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(30, 3)) * [1.0, 100.0, 1e-3] + 5.0
    y = rng.integers(0, n_classes, 30)
    k = int(cut * 30)
    first, rest = nbm.gaussian_moments(X[:k], y[:k], n_classes), nbm.gaussian_moments(X[k:], y[k:], n_classes)
    merged = nbm.merge_moments(first, rest)
    direct = nbm.gaussian_moments(X, y, n_classes)
    for got, want in zip(merged, direct, strict=True):
        np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(nbm.pooled_variance(direct), X.var(axis=0), rtol=1e-10)
    # Read backwards (the part's count and M2 negated), the update takes rows out.
    taken = nbm.merge_moments(direct, nbm.Moments(-first.n, first.mean, -first.m2))
    seen = rest.n > 0
    np.testing.assert_array_equal(taken.n, rest.n)
    np.testing.assert_allclose(taken.mean[seen], rest.mean[seen], rtol=1e-9)
    np.testing.assert_allclose(taken.m2[seen], rest.m2[seen], rtol=1e-7, atol=1e-9)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), cut=st.integers(0, 30), columns=st.sampled_from([slice(None), [0, 2], [1]]))
def test_co_moment_merge_is_the_moment_of_all_rows(seed, cut, columns):
    """The matrix form (the profile's Gram block): co-moments between every column and some."""
    X = np.random.default_rng(seed).normal(size=(30, 3)) * [1.0, 100.0, 1e-3] + 5.0

    def co_moments(rows):
        centred = rows - rows.mean(axis=0) if len(rows) else rows
        return nbm.Moments(
            len(rows), rows.mean(axis=0) if len(rows) else np.zeros(3), (centred.T @ centred)[:, columns]
        )

    merged = nbm.merge_moments(co_moments(X[:cut]), co_moments(X[cut:]), columns)
    direct = co_moments(X)
    assert merged.n == 30
    np.testing.assert_allclose(merged.mean, direct.mean, rtol=1e-12)
    np.testing.assert_allclose(merged.m2, direct.m2, rtol=1e-9, atol=1e-9)


def test_log_class_prior_semantics():
    count = np.array([3.0, 1.0, 0.0])
    with np.errstate(divide="ignore"):
        expected = np.log([0.75, 0.25, 0.0])
    np.testing.assert_allclose(nbm.log_class_prior(count), expected)
    np.testing.assert_allclose(nbm.log_class_prior(count, fit_prior=False), np.log([1 / 3] * 3))
    given_prior = np.array([0.2, 0.3, 0.5])
    np.testing.assert_allclose(nbm.log_class_prior(count, class_prior=given_prior), np.log(given_prior))
    with pytest.raises(ValueError, match="sum to 1"):
        nbm.log_class_prior(count, class_prior=[0.2, 0.3, 0.4])
    with pytest.raises(ValueError):
        nbm.log_class_prior(count, class_prior=[0.5, 0.5])
    with pytest.raises(ValueError):
        nbm.log_class_prior([0.0, 0.0])


def test_given_prior_matches_sklearn():
    rng = np.random.default_rng(3)
    X = rng.integers(0, 3, (25, 2))
    y = np.r_[0, 1, 2, rng.integers(0, 3, 22)]
    prior = np.array([0.6, 0.3, 0.1])
    sk = CategoricalNB(alpha=0.7, class_prior=prior, min_categories=3).fit(X, y)
    model = categorical_model(X, y, 3, 3, 0.7, class_prior=prior)
    np.testing.assert_allclose(model.predict_proba(columns(X)), sk.predict_proba(X), atol=TOL)


def test_bad_inputs_are_rejected():
    comp = nbm.CategoricalComponent.from_counts([[1, 2], [3, 0]], 1.0)
    with pytest.raises(ValueError, match="pad"):
        comp.log_likelihood([0, 2])
    with pytest.raises(ValueError):
        nbm.categorical_log_theta([[1, 2]], -1.0)
    with pytest.raises(ValueError):
        nbm.BernoulliComponent.from_counts([[3.0]], [2.0], 1.0)
    with pytest.raises(ValueError):
        nbm.BernoulliComponent.from_counts([[1.0]], [2.0], 1.0).log_likelihood([[2]])
    with pytest.raises(ValueError):
        nbm.NaiveBayes(np.log([0.5, 0.5]), [nbm.CategoricalComponent.from_counts(np.ones((3, 2)), 1.0)])


def test_model_swaps_one_component():
    """CAT and PoB differ only in the swapped component."""
    rng = np.random.default_rng(7)
    n, C, K = 60, 3, 4
    y = np.r_[np.arange(C), rng.integers(0, C, n - C)]
    group = rng.integers(0, K, n)
    bits = np.eye(K, dtype=int)[group]
    other = rng.integers(0, 2, (n, 2))
    count = nbm.class_counts(y, C)
    shared = nbm.BernoulliComponent.from_counts(nbm.bernoulli_counts(other, y, C), count, 1.0)
    cat = nbm.NaiveBayes(
        nbm.log_class_prior(count),
        [shared, nbm.CategoricalComponent.from_counts(nbm.categorical_counts(group, y, C, K), 1.0)],
    )
    pob = cat.with_component(1, nbm.BernoulliComponent.from_counts(nbm.bernoulli_counts(bits, y, C), count, 1.0))
    assert cat.components[0] is pob.components[0]
    # the PoB model equals BernoulliNB on all bits; CAT equals the shared part
    # plus CategoricalNB's group term
    sk_pob = BernoulliNB(alpha=1.0, binarize=None).fit(np.hstack([other, bits]), y)
    np.testing.assert_allclose(
        pob.predict_proba([other, bits]), sk_pob.predict_proba(np.hstack([other, bits])), atol=TOL
    )
    sk_o = BernoulliNB(alpha=1.0, binarize=None).fit(other, y)
    sk_g = CategoricalNB(alpha=1.0, min_categories=K).fit(group[:, None], y)
    joint = sk_o.predict_joint_log_proba(other) + sk_g.predict_joint_log_proba(group[:, None]) - sk_o.class_log_prior_
    np.testing.assert_allclose(cat.joint_log_likelihood([other, group]), joint, rtol=1e-12)


# ---------------------------------------------------------------------------
# alpha = 0: the alpha -> 0+ limit, never NaN
# ---------------------------------------------------------------------------


def _quiet_sklearn(estimator, X, y):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return estimator.fit(X, y)


@SETTINGS
@given(table=categorical_tables(), seed=st.integers(0, 2**32 - 1))
def test_alpha_zero_categorical_is_the_small_alpha_limit(table, seed):
    n_classes, n_levels, X, y = table
    model = categorical_model(X, y, n_classes, n_levels, 0.0)
    X_new = all_level_rows(n_levels, X.shape[1], np.random.default_rng(seed))
    # a tiny alpha is numerically the limit: the vetoed classes keep ~1e-13
    # times a likelihood ratio far below 1e7 on tables this small
    sk = _quiet_sklearn(sk_categorical(1e-13, n_levels), X, y)
    for rows in (X, X_new):
        got = model.predict_proba(columns(rows))
        assert np.all(np.isfinite(got))
        np.testing.assert_allclose(got.sum(axis=1), 1.0, rtol=1e-12)
        np.testing.assert_allclose(got, sk.predict_proba(rows), atol=1e-6, rtol=0)
        assert not np.any(np.isnan(model.joint_log_likelihood(columns(rows))))


@SETTINGS
@given(table=bit_tables())
def test_alpha_zero_bernoulli_is_the_small_alpha_limit(table):
    """Oracle: each bit as a two-level CategoricalNB feature as alpha shrinks to 1e-13.

    The smoothing formula is the same ((N_cd + a) / (N_c + 2a)), but
    CategoricalNB takes the log of each probability directly, whereas
    BernoulliNB forms log(1 - p) as log(1 - exp(log p)), which loses about
    three digits when 1 - p is ~1e-13 and so cannot serve as the limit."""
    n_classes, B, y = table
    count = nbm.class_counts(y, n_classes)
    model = nbm.NaiveBayes(
        nbm.log_class_prior(count),
        [nbm.BernoulliComponent.from_counts(nbm.bernoulli_counts(B, y, n_classes), count, 0.0)],
    )
    every_pattern = np.array(np.meshgrid(*[[0, 1]] * B.shape[1])).reshape(B.shape[1], -1).T
    got = model.predict_proba([every_pattern])
    assert np.all(np.isfinite(got))
    # At a finite alpha a vetoed class keeps mass of order alpha / (the winner's
    # likelihood), which can be ~1e-6 at alpha = 1e-13: so test convergence, the
    # gap shrinking in proportion to alpha, not closeness at one alpha.
    gaps = [
        np.abs(got - _quiet_sklearn(sk_categorical(a, 2), B, y).predict_proba(every_pattern)).max()
        for a in (1e-12, 1e-13)
    ]
    assert gaps[1] <= 1e-9 or gaps[1] <= gaps[0] / 5, gaps
    assert gaps[1] <= 1e-4, gaps


def test_alpha_zero_level_unseen_by_every_class():
    """Level 2 never occurs: every class is vetoed once, so the limit is decided
    by the leading coefficients 1/N_c.  With the empirical prior N_c/N the
    posterior is pi_c / N_c / sum = uniform; with a uniform prior it is
    proportional to 1/N_c.  (Dropping the coefficients would give the prior.)"""
    y = np.array([0, 0, 0, 1])  # N_0 = 3, N_1 = 1
    codes = np.array([0, 1, 0, 1])
    counts = nbm.categorical_counts(codes, y, 2, 3)
    comp = nbm.CategoricalComponent.from_counts(counts, 0.0)
    assert np.all(np.isneginf(comp.log_theta[:, 2]))
    fitted = nbm.NaiveBayes(nbm.log_class_prior(nbm.class_counts(y, 2)), [comp])
    np.testing.assert_allclose(fitted.predict_proba([[2]]), [[0.5, 0.5]], rtol=1e-12)
    uniform = nbm.NaiveBayes(nbm.log_class_prior(nbm.class_counts(y, 2), fit_prior=False), [comp])
    np.testing.assert_allclose(uniform.predict_proba([[2]]), [[0.25, 0.75]], rtol=1e-12)
    # a level seen by class 0 only: class 1 is vetoed and loses all mass
    proba = fitted.predict_proba([[0]])
    assert proba[0, 1] == 0.0 and proba[0, 0] == 1.0
    assert np.isneginf(fitted.joint_log_likelihood([[0]])[0, 1])
    assert np.isneginf(fitted.predict_log_proba([[0]])[0, 1])  # log-loss of class 1 there: inf


def test_alpha_zero_fewest_vetoes_win_and_rest_decides():
    """Two features; class 0 vetoes feature A, class 1 vetoes feature B, class 2
    vetoes both.  Classes 0 and 1 tie on vetoes, class 2 gets 0, and the mix of
    0 and 1 follows the limit computed by hand."""
    y = np.array([0, 0, 1, 1, 1, 2])
    a = np.array([1, 1, 0, 0, 1, 1])  # row value 0: class 0 and 2 never have it
    b = np.array([0, 1, 1, 1, 1, 1])  # row value 0: classes 1 and 2 never have it
    C, K = 3, 2
    model = nbm.NaiveBayes(
        nbm.log_class_prior(nbm.class_counts(y, C)),
        [
            nbm.CategoricalComponent.from_counts(nbm.categorical_counts(a, y, C, K), 0.0),
            nbm.CategoricalComponent.from_counts(nbm.categorical_counts(b, y, C, K), 0.0),
        ],
    )
    got = model.predict_proba([[0], [0]])[0]
    # class 0: pi = 2/6, A-factor ~ alpha/2, B-factor P(b=0|0) = 1/2
    # class 1: pi = 3/6, A-factor P(a=0|1) = 2/3, B-factor ~ alpha/3
    w0 = (2 / 6) * (1 / 2) * (1 / 2)
    w1 = (3 / 6) * (2 / 3) * (1 / 3)
    np.testing.assert_allclose(got, [w0 / (w0 + w1), w1 / (w0 + w1), 0.0], rtol=1e-12)


def test_alpha_zero_mixed_model_never_nan():
    rng = np.random.default_rng(5)
    n, C = 12, 3
    y = np.r_[np.arange(C), rng.integers(0, C, n - C)]
    X_cat = rng.integers(0, 8, (n, 3))  # many zero cells
    B = rng.integers(0, 2, (n, 5))
    B[:, 0] = y == 0  # bit always on in class 0, always off elsewhere
    X_real = rng.normal(size=(n, 2)) + y[:, None]
    count = nbm.class_counts(y, C)
    model = nbm.NaiveBayes(
        nbm.log_class_prior(count),
        [
            *[
                nbm.CategoricalComponent.from_counts(nbm.categorical_counts(X_cat[:, i], y, C, 8), 0.0)
                for i in range(3)
            ],
            nbm.BernoulliComponent.from_counts(nbm.bernoulli_counts(B, y, C), count, 0.0),
            nbm.GaussianComponent.from_moments(nbm.gaussian_moments(X_real, y, C), var_smoothing=1e-9),
        ],
    )
    X_test = rng.integers(0, 8, (200, 3))
    B_test = rng.integers(0, 2, (200, 5))
    R_test = rng.normal(size=(200, 2))
    inputs = [*columns(X_test), B_test, R_test]
    log_proba = model.predict_log_proba(inputs)
    assert not np.any(np.isnan(log_proba))
    np.testing.assert_allclose(np.exp(log_proba).sum(axis=1), 1.0, rtol=1e-12)
    joint = model.joint_log_likelihood(inputs)
    assert not np.any(np.isnan(joint))
    assert np.any(np.isneginf(joint))  # the table really has zero factors
    # mass goes exactly to the classes with the fewest vetoes
    vetoes = model.log_likelihood(inputs).vetoes
    assert np.any(vetoes.min(axis=1) > 0)  # some rows are vetoed by every class
    keeps = vetoes == vetoes.min(axis=1, keepdims=True)
    np.testing.assert_array_equal(np.isfinite(log_proba), keeps)
    # bit 0 set: classes 1 and 2 carry a veto that class 0 does not
    assert np.all(vetoes[B_test[:, 0] == 1, 1:] >= 1)
    # the training rows are possible under their own class: finite log-loss
    assert np.all(np.isfinite(model.predict_log_proba([*columns(X_cat), B, X_real])[np.arange(len(y)), y]))


def test_alpha_zero_empty_class_has_limiting_parameters():
    counts = np.array([[2.0, 0.0, 1.0], [0.0, 0.0, 0.0]])
    np.testing.assert_allclose(nbm.categorical_log_theta(counts, 0.0)[1], np.log([1 / 3] * 3))
    bits = nbm.BernoulliComponent.from_counts([[0.0], [0.0]], [2.0, 0.0], 0.0)
    log_p, log_1mp = bits.log_p, bits.log_1mp
    assert np.isneginf(log_p[0, 0]) and log_1mp[0, 0] == 0.0
    np.testing.assert_allclose([log_p[1, 0], log_1mp[1, 0]], np.log([0.5, 0.5]))


def test_gaussian_empty_class_needs_zero_prior():
    X = np.array([[0.0], [1.0], [2.0]])
    y = np.array([0, 0, 1])
    moments = nbm.gaussian_moments(X, y, 3)  # class 2 has no rows
    comp = nbm.GaussianComponent.from_moments(moments)
    model = nbm.NaiveBayes(nbm.log_class_prior(nbm.class_counts(y, 3)), [comp])
    assert np.all(model.predict_proba([X])[:, 2] == 0.0)
    with pytest.raises(ValueError, match="undefined"):
        nbm.NaiveBayes(nbm.log_class_prior(nbm.class_counts(y, 3), fit_prior=False), [comp])


# ---------------------------------------------------------------------------
# the paper's quantities
# ---------------------------------------------------------------------------

PROBS = st.one_of(st.sampled_from([0.0, 1.0]), st.floats(0, 1))


@settings(max_examples=200, deadline=None)
@given(theta=hnp.arrays(float, st.integers(1, 8), elements=PROBS))
def test_q_minus_j_is_the_product_of_the_others(theta):
    brute = np.array([np.prod(np.delete(1.0 - theta, j)) for j in range(theta.size)])
    np.testing.assert_allclose(nbm.q_minus_j(theta), brute, rtol=1e-12, atol=1e-300)
    np.testing.assert_allclose(nbm.f_j(theta), theta * brute, rtol=1e-12, atol=1e-300)


def test_q_minus_j_batches_over_leading_axes():
    theta = np.random.default_rng(0).dirichlet(np.ones(5), size=(3, 4))
    out = nbm.q_minus_j(theta)
    assert out.shape == (3, 4, 5)
    np.testing.assert_allclose(out[2, 1], nbm.q_minus_j(theta[2, 1]), rtol=1e-15)


@pytest.mark.parametrize("K", [2, 3, 4, 6, 10, 25])
@pytest.mark.parametrize("concentration", [0.1, "1/K", 1.0, 5.0])
def test_f_j_lies_between_the_bounds(K, concentration):
    a = 1.0 / K if concentration == "1/K" else concentration
    theta = np.random.default_rng(K).dirichlet(np.full(K, a), size=4000)
    f = nbm.f_j(theta)
    assert np.all(nbm.lower_bound(theta) <= f + 1e-12)  # eq. 9
    assert np.all(f <= nbm.upper_bound(theta, K) + 1e-12)  # eq. 10


@pytest.mark.parametrize("K", [2, 3, 5, 10])
def test_bounds_are_attained(K):
    for t in np.linspace(0.0, 1.0, 11):
        centre = np.full(K, (1 - t) / (K - 1))  # eq. 7
        centre[0] = t
        assert nbm.q_minus_j(centre)[0] == pytest.approx(nbm.q_minus_j_at_centre(t, K), rel=1e-12, abs=1e-300)
        assert nbm.f_j(centre)[0] == pytest.approx(nbm.upper_bound(t, K), rel=1e-12, abs=1e-300)
        corner = np.zeros(K)
        corner[0], corner[-1] = t, 1 - t
        assert nbm.f_j(corner)[0] == pytest.approx(nbm.lower_bound(t), rel=1e-12, abs=1e-300)
        assert nbm.q_minus_j(corner)[0] == pytest.approx(t, rel=1e-12, abs=1e-300)


@pytest.mark.parametrize("K", [3, 4, 8])
def test_centre_is_the_maximum_of_q_minus_j(K):
    """Eq. 8 is the maximum over the face theta_j = t: random points never exceed it,
    and the sampled maximum approaches it."""
    rng = np.random.default_rng(K)
    t = 0.3
    rest = rng.dirichlet(np.full(K - 1, 20.0), size=20000) * (1 - t)
    theta = np.hstack([np.full((rest.shape[0], 1), t), rest])
    q = nbm.q_minus_j(theta)[:, 0]
    star = nbm.q_minus_j_at_centre(t, K)
    assert q.max() <= star + 1e-15
    assert q.max() > star - 1e-3


@settings(max_examples=200, deadline=None)
@given(a=st.floats(1e-6, 1 - 1e-6), b=st.floats(1e-6, 1 - 1e-6), K=st.integers(2, 30))
def test_bound_ratios_exceed_the_parameter_ratio(a, b, K):
    """Eq. 11: for b > a, l(b)/l(a) > b/a and u(b)/u(a) > b/a."""
    a, b = min(a, b), max(a, b)
    if b / a < 1 + 1e-9:
        return
    assert nbm.lower_bound(b) / nbm.lower_bound(a) > b / a
    assert nbm.upper_bound(b, K) / nbm.upper_bound(a, K) > b / a


@pytest.mark.parametrize("K", [3, 6, 10])
@pytest.mark.parametrize("concentration", ["1/K", 1.0])
def test_eq13_guarantees_a_more_extreme_ratio(K, concentration):
    a = 1.0 / K if concentration == "1/K" else concentration
    rng = np.random.default_rng(100 + K)
    theta_c = rng.dirichlet(np.full(K, a), size=20000)
    theta_d = rng.dirichlet(np.full(K, a), size=20000)
    log_ratio_theta = np.log(theta_c) - np.log(theta_d)
    log_ratio_f = np.log(nbm.f_j(theta_c)) - np.log(nbm.f_j(theta_d))
    sure = nbm.guaranteed_more_extreme(theta_c, theta_d, K)
    assert sure.sum() > 100  # the condition is met often enough to be tested
    assert np.all(log_ratio_theta[sure] > 0)
    assert np.all(log_ratio_f[sure] > log_ratio_theta[sure])  # eq. 12
    # eq. 12 itself, the lower bound on the ratio
    ratio_bound = np.log(nbm.lower_bound(theta_c)) - np.log(nbm.upper_bound(theta_d, K))
    assert np.all(log_ratio_f >= ratio_bound - 1e-9)
    if K == 3 and a == 1.0:
        # the paper's exceptions: without the guarantee the ratio can shrink
        assert np.any((log_ratio_theta > 0) & (log_ratio_f < log_ratio_theta))


def test_eq13_on_two_classes_by_hand():
    # K = 2: Q^{-j} = theta_j, so eq. 13 reads theta_jc > theta_jd
    assert nbm.guaranteed_more_extreme(0.6, 0.5, 2)
    assert not nbm.guaranteed_more_extreme(0.5, 0.6, 2)
    # K = 3, theta_jd = 0: the threshold is (1/2)**2
    assert nbm.guaranteed_more_extreme(0.26, 0.0, 3)
    assert not nbm.guaranteed_more_extreme(0.24, 0.0, 3)


@st.composite
def ml_tables(draw):
    """Rows of one categorical variable where every class sees every level."""
    n_classes = draw(st.integers(2, 4))
    n_levels = draw(st.integers(2, 6))
    base_y = np.repeat(np.arange(n_classes), n_levels)
    base_x = np.tile(np.arange(n_levels), n_classes)
    m = draw(st.integers(0, 40))
    extra_y = draw(hnp.arrays(np.int64, m, elements=st.integers(0, n_classes - 1)))
    extra_x = draw(hnp.arrays(np.int64, m, elements=st.integers(0, n_levels - 1)))
    return n_classes, n_levels, np.r_[base_x, extra_x], np.r_[base_y, extra_y]


@SETTINGS
@given(table=ml_tables())
def test_eq2_and_eq3_match_sklearn_with_maximum_likelihood(table):
    n_classes, n_levels, x, y = table
    class_count = nbm.class_counts(y, n_classes)
    counts = nbm.categorical_counts(x, y, n_classes, n_levels)
    pi = class_count / class_count.sum()
    theta = counts / class_count[:, None]
    one_hot = np.eye(n_levels, dtype=int)[x]

    sk_cat = _quiet_sklearn(CategoricalNB(alpha=0.0, force_alpha=True), x[:, None], y)
    sk_pob = _quiet_sklearn(BernoulliNB(alpha=0.0, force_alpha=True, binarize=None), one_hot, y)
    # the paper's remark: ML fitting gives the PoB model the same pi and Theta
    np.testing.assert_allclose(np.exp(sk_pob.class_log_prior_), pi, rtol=1e-12)
    np.testing.assert_allclose(np.exp(sk_pob.feature_log_prob_), theta, rtol=1e-12)

    cat = nbm.categorical_posterior(pi, theta)  # eq. 2, shape (K, C)
    pob = nbm.pob_posterior(pi, theta)  # eq. 3
    np.testing.assert_allclose(cat, sk_cat.predict_proba(np.arange(n_levels)[:, None]), atol=TOL)
    np.testing.assert_allclose(pob, sk_pob.predict_proba(np.eye(n_levels, dtype=int)), atol=TOL)

    # and the model path (alpha = 0) gives the same two posteriors
    prior = nbm.log_class_prior(class_count)
    cat_model = nbm.NaiveBayes(prior, [nbm.CategoricalComponent.from_counts(counts, 0.0)])
    pob_model = nbm.NaiveBayes(
        prior, [nbm.BernoulliComponent.from_counts(nbm.bernoulli_counts(one_hot, y, n_classes), class_count, 0.0)]
    )
    np.testing.assert_allclose(cat_model.predict_proba([np.arange(n_levels)]), cat, atol=TOL)
    np.testing.assert_allclose(pob_model.predict_proba([np.eye(n_levels, dtype=int)]), pob, atol=TOL)


def test_posteriors_by_hand_and_batched():
    pi = np.array([0.5, 0.5])
    theta = np.array([[0.5, 0.5], [0.9, 0.1]])
    # eq. 2 for x = 1 (j = 0): 0.5 / (0.5 + 0.9)
    np.testing.assert_allclose(nbm.categorical_posterior(pi, theta)[0], [0.5 / 1.4, 0.9 / 1.4])
    # eq. 3, K = 2: Q^{-j} = theta_j so the numerators are theta_j**2
    np.testing.assert_allclose(nbm.pob_posterior(pi, theta)[0], [0.25 / 1.06, 0.81 / 1.06])
    rng = np.random.default_rng(1)
    pis = rng.dirichlet(np.ones(3), size=5)
    thetas = rng.dirichlet(np.ones(4), size=(5, 3))
    batched = nbm.pob_posterior(pis, thetas)
    assert batched.shape == (5, 4, 3)
    np.testing.assert_allclose(batched[3], nbm.pob_posterior(pis[3], thetas[3]), rtol=1e-14)


# ---------------------------------------------------------------------------
# the paper's experiment script runs
# ---------------------------------------------------------------------------


@pytest.mark.slow
def test_paper_experiment_quick_run(capsys):
    path = Path(__file__).resolve().parents[1] / "bench" / "paper_experiment.py"
    spec = importlib.util.spec_from_file_location("paper_experiment", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    rows = module.main(["--quick"])
    assert len(rows) == 2 * 2 * 3 * 2  # protocols x metrics x K x concentration
    for row in rows:
        assert 0.0 <= row["lo"] <= row["hi"] <= 1.0
        assert 0.0 <= row["large_n"] <= 1.0
    assert "paper" in capsys.readouterr().out
