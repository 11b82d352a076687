"""The parts of :class:`~nblint.estimators.mixednb.MixedNB`'s model beyond :mod:`nblint.nbmath`'s components.

A log-normal component (normal densities of ``log x``), a component restricted to some of
its columns (one feature's terms), and the weighted sum of the features' log-likelihoods
(WANBIA's weights, :mod:`nblint.estimators.wanbia`).
"""

from __future__ import annotations

import numpy as np

from nblint import nbmath


class LogNormalComponent(nbmath.GaussianComponent):
    """Normal densities of ``log x``, as densities of ``x`` (the Jacobian ``-log x`` included).

    A value that is not positive, never seen in training, gives no evidence.
    """

    @classmethod
    def from_moments(cls, moments, var_smoothing: float = 1e-9, overall_var=None):
        return super().from_moments(moments, var_smoothing=var_smoothing, overall_var=overall_var)

    def log_likelihood(self, X) -> nbmath.LogLikelihood:
        X = np.asarray(X, dtype=float)
        positive = X > 0
        logs = np.log(np.where(positive, X, 1.0))
        out = np.zeros((X.shape[0], self.mean.shape[0]))
        for d in range(X.shape[1]):
            density = nbmath.gaussian_log_density(logs[:, [d]], self.mean[:, [d]], self.var[:, [d]]) - logs[:, [d]]
            out += np.where(positive[:, [d]], density, 0.0)
        out[:, self.empty] = 0.0
        return nbmath.LogLikelihood(out, nbmath.NO_VETOES)


def bernoulli_columns(component, pick: list[int]):
    return nbmath.BernoulliComponent(
        component.log_p[:, pick],
        component.log_1mp[:, pick],
        component.lead_p[:, pick],
        component.lead_1mp[:, pick],
        component.vetoed_p[:, pick],
        component.vetoed_1mp[:, pick],
    )


def multinomial_columns(component, pick: list[int]):
    return nbmath.MultinomialComponent(
        component.log_theta[:, pick], component.log_lead[:, pick], component.vetoed[:, pick]
    )


def gaussian_columns(component, pick: list[int]):
    return nbmath.GaussianComponent(component.mean[:, pick], component.var[:, pick], component.empty)


def lognormal_columns(component, pick: list[int]):
    return LogNormalComponent(component.mean[:, pick], component.var[:, pick], component.empty)


def weighted_sum(terms: list[nbmath.LogLikelihood], weights: np.ndarray) -> nbmath.LogLikelihood:
    """``sum_f w_f log P(x_f | c)``; a zero count still vetoes (alpha = 0) where its feature's weight is > 0."""
    finite = sum((w * t.finite for w, t in zip(weights, terms, strict=True)), start=np.zeros_like(terms[0].finite))
    vetoes = sum((t.vetoes for w, t in zip(weights, terms, strict=True) if w > 0), start=0)
    return nbmath.LogLikelihood(finite, vetoes)
