"""Naive Bayes maths for nblint, written to be read next to the paper.

Reference: C. K. I. Williams, "Naive Bayes classifiers and one-hot encoding of
categorical variables" (``shared/background/000_10c6e39b2ed1bd36.txt``).
Comments of the form ``(eq. N)`` point at that paper's numbered equations.

The package has four parts.

1. Sufficient statistics of a chunk of rows (class counts, (class, level)
   count tables, counts of set bits, per-class Gaussian moments) and how two
   chunks merge (counts add; moments take Chan et al.'s update,
   :func:`merge_moments`, the one implementation the profile, NB401 and
   :class:`nblint.MixedNB` share).  Everything below is fitted from these
   statistics, never from raw rows, so tables can be streamed in chunks.
2. Parameters from statistics, with scikit-learn's conventions (scikit-learn is
   the test oracle, it is not imported here): class log prior, Lidstone-smoothed
   categorical and Bernoulli parameters, Gaussian moments with ``var_smoothing``.
3. A Naive Bayes model made of components (any number of categorical features,
   blocks of Bernoulli bits, blocks of Gaussian features) with log-space
   posteriors.  Swapping one component lets a caller compare model "CAT" (a
   one-hot group collapsed to a single categorical feature) with model "PoB"
   (the same group as Bernoulli bits), every other component being shared::

       shared = [CategoricalComponent.from_counts(n_colour, alpha),
                 GaussianComponent.from_moments(g_moments)]
       cat = NaiveBayes(log_prior, [*shared,
                                    CategoricalComponent.from_counts(n_group, alpha)])
       pob = cat.with_component(2, BernoulliComponent.from_counts(
                 group_ones, class_count, alpha))
       lp_cat = cat.predict_log_proba([colour_codes, x_real, group_codes])
       lp_pob = pob.predict_log_proba([colour_codes, x_real, group_bits])

4. The paper's own quantities for one categorical variable: Q^{-j} (eqs. 1, 4),
   f_j, the centre-of-simplex optimum (eq. 8), the bounds (eqs. 9, 10), the
   "guaranteed more extreme" test (eq. 13) and the posteriors of eq. 2
   (categorical) and eq. 3 (product of Bernoullis).

Smoothing with ``alpha = 0`` (maximum likelihood, the paper's setting)
-----------------------------------------------------------------------
With ``alpha = 0`` a parameter fitted from a zero count is exactly 0 and its
log is ``-inf``; summing such logs naively gives ``-inf - (-inf) = NaN`` in the
posterior.  This module defines the ``alpha = 0`` posterior as the limit
``alpha -> 0+`` of the smoothed posteriors, which always exists:

* a factor fitted from a zero count behaves like ``alpha / N_c`` as alpha
  shrinks (the count's denominator ``N_c`` is the class size).  We call it a
  *veto* and keep its *leading coefficient* ``1 / N_c``;
* for one row, class ``c`` then carries ``alpha ** v_c * exp(L_c)``, where
  ``v_c`` counts its vetoes and ``L_c`` is the log of (prior x every non-zero
  factor x the leading coefficient of every vetoed factor);
* as ``alpha -> 0+`` only the classes with the fewest vetoes keep posterior
  mass, shared in proportion to ``exp(L_c)`` (the common ``alpha ** v``
  cancels).  Every row therefore has a proper distribution, and a row that
  every class vetoes (for example a level never seen in training) still gets
  one, decided by the rest of the evidence.
* a class whose denominator is itself zero (no rows at all) has the limiting
  parameters 1/K (categorical) and 1/2 (Bernoulli), which is what every
  ``alpha > 0`` gives it, so it is not vetoed.

Classes with a zero *prior* (``log_prior = -inf``) are not a smoothing limit:
they are excluded outright and always get posterior 0.  For ``alpha > 0``
there are no vetoes and all of this reduces to the usual softmax of the joint
log likelihood, equal to scikit-learn's.

Modules
-------
* :mod:`~nblint.nbmath.counts` and :mod:`~nblint.nbmath.moments`: part 1;
* :mod:`~nblint.nbmath.parameters`: part 2;
* :mod:`~nblint.nbmath.model` (log likelihoods with vetoes, posteriors,
  :class:`NaiveBayes`) and :mod:`~nblint.nbmath.components`: part 3;
* :mod:`~nblint.nbmath.paper`: part 4, with a table of the paper's equations.

Callers import the package (``from nblint import nbmath``; ``nbmath.X``): every
name below is re-exported here, its part imported when the name is first used.
"""

# ruff: noqa: F401  (the imports below are for type checkers: the names are exported through __getattr__)
from __future__ import annotations

from typing import TYPE_CHECKING

from nblint.core.lazy import lazy_exports

#: Every name re-exported here, and the part it lives in. A part is imported when one of its
#: names is first asked for: the profile, which needs the moments alone, does not import the
#: model and its components (about 10 ms of every nblint process that never fits a model).
_PARTS = {
    # sufficient statistics
    "class_counts": "counts",
    "categorical_counts": "counts",
    "bernoulli_counts": "counts",
    "multinomial_counts": "counts",
    "MISSING": "_checks",
    "Moments": "moments",
    "gaussian_moments": "moments",
    "merge_moments": "moments",
    "pooled_variance": "moments",
    # parameters from statistics
    "log_class_prior": "parameters",
    "categorical_log_theta": "parameters",
    "gaussian_epsilon": "parameters",
    "gaussian_log_density": "components",
    # model
    "LogLikelihood": "model",
    "NO_VETOES": "model",
    "Component": "model",
    "CategoricalComponent": "components",
    "BernoulliComponent": "components",
    "MultinomialComponent": "components",
    "GaussianComponent": "components",
    "NaiveBayes": "model",
    "log_posterior": "model",
    # the paper's quantities
    "log_q_minus_j": "paper",
    "q_minus_j": "paper",
    "f_j": "paper",
    "q_minus_j_at_centre": "paper",
    "lower_bound": "paper",
    "upper_bound": "paper",
    "guaranteed_more_extreme": "paper",
    "categorical_posterior": "paper",
    "pob_posterior": "paper",
}

__all__ = list(_PARTS)


__getattr__ = lazy_exports(__name__, {name: f"{__name__}.{part}" for name, part in _PARTS.items()})


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


if TYPE_CHECKING:  # (what the names are, for type checkers and readers; __all__ exports them)
    from nblint.nbmath._checks import MISSING
    from nblint.nbmath.components import (
        BernoulliComponent,
        CategoricalComponent,
        GaussianComponent,
        MultinomialComponent,
        gaussian_log_density,
    )
    from nblint.nbmath.counts import bernoulli_counts, categorical_counts, class_counts, multinomial_counts
    from nblint.nbmath.model import NO_VETOES, Component, LogLikelihood, NaiveBayes, log_posterior
    from nblint.nbmath.moments import Moments, gaussian_moments, merge_moments, pooled_variance
    from nblint.nbmath.paper import (
        categorical_posterior,
        f_j,
        guaranteed_more_extreme,
        log_q_minus_j,
        lower_bound,
        pob_posterior,
        q_minus_j,
        q_minus_j_at_centre,
        upper_bound,
    )
    from nblint.nbmath.parameters import categorical_log_theta, gaussian_epsilon, log_class_prior
