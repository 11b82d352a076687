"""The paper's quantities for one categorical variable, by equation number.

C. K. I. Williams, "Naive Bayes classifiers and one-hot encoding of categorical
variables" (``shared/background/000_10c6e39b2ed1bd36.txt``).  Notation: a
variable with K levels, ``theta_j = P(x = j | y)`` for one class, ``pi`` the
class prior.

* eq. 1: ``p(x~ = e_j | y) = theta_j Q^{-j}``, the one-hot vector e_j under the
  product-of-Bernoullis (PoB) model -- :func:`f_j`;
* eq. 2: the categorical posterior ``p(y = i | x = j)`` -- :func:`categorical_posterior`;
* eq. 3: the PoB posterior ``p(y = i | x~ = e_j)`` -- :func:`pob_posterior`;
* eq. 4: ``Q^{-j}(theta) = prod_{k != j} (1 - theta_k)`` -- :func:`q_minus_j`,
  :func:`log_q_minus_j`;
* eqs. 5, 6: the Lagrangian of ``max Q^{-j}`` on the simplex and its stationary
  point (every other ``1 - theta_k`` equal): derivation only;
* eqs. 7, 8: that point, ``1 - theta_k* = (K - 2 + theta_j) / (K - 1)``, and
  ``max Q^{-j} = ((K - 2 + theta_j) / (K - 1)) ** (K - 1)`` -- :func:`q_minus_j_at_centre`;
* eqs. 9, 10: the bounds ``l(theta_j) = theta_j ** 2 <= f_j <= u(theta_j)`` --
  :func:`lower_bound`, :func:`upper_bound`;
* eq. 11: ``l(b)/l(a) > b/a`` and ``u(b)/u(a) > b/a`` for ``b > a``: a property of
  the bounds (tests/test_nbmath.py checks it);
* eqs. 12, 13: ``f_j(theta_c) / f_j(theta_d) >= l(theta_jc) / u(theta_jd)``, so the
  ratio is surely pushed further from 1 when ``theta_jc > max Q^{-j}(theta_jd)`` --
  :func:`guaranteed_more_extreme`;
* eq. 14: ``f_j`` ratios near ``(theta_jc / theta_jd) ** 2`` in sparse Dirichlet
  draws: an observation of the paper's experiment, not a bound; not computed here.
"""

from __future__ import annotations

import numpy as np

from nblint.nbmath._checks import _as_probabilities


def log_q_minus_j(theta) -> np.ndarray:
    """``log Q^{-j}(theta) = sum_{k != j} log(1 - theta_k)`` for every j (eqs. 1, 4).

    Computed as an exclusive prefix sum plus an exclusive suffix sum of
    ``log1p(-theta_k)`` along the last axis, so nothing is subtracted: a
    ``theta_k = 1`` (log term ``-inf``) makes every *other* ``Q^{-j}`` zero
    and leaves its own finite, with no ``inf - inf``.

    Parameters
    ----------
    theta : array_like, shape (..., K)
        Probabilities in [0, 1] (for eq. 1 they need not sum to 1).

    Returns
    -------
    ndarray, shape (..., K)
    """
    theta = _as_probabilities(theta, "theta")
    with np.errstate(divide="ignore"):
        log_off = np.log1p(-theta)  # log(1 - theta_k)
    zero = np.zeros_like(log_off[..., :1])
    before = np.cumsum(np.concatenate([zero, log_off[..., :-1]], axis=-1), axis=-1)
    rev = log_off[..., ::-1]
    after = np.cumsum(np.concatenate([zero, rev[..., :-1]], axis=-1), axis=-1)[..., ::-1]
    return before + after


def q_minus_j(theta) -> np.ndarray:
    """``Q^{-j}(theta) = prod_{k != j} (1 - theta_k)`` for every j (eqs. 1, 4).

    Parameters
    ----------
    theta : array_like, shape (..., K)

    Returns
    -------
    ndarray, shape (..., K)
    """
    return np.exp(log_q_minus_j(theta))


def f_j(theta) -> np.ndarray:
    """``f_j(theta) = theta_j Q^{-j}(theta)`` for every j (sec. 2; eq. 1).

    Under the product-of-Bernoullis model this is the probability of the
    one-hot vector e_j (eq. 1).

    Parameters
    ----------
    theta : array_like, shape (..., K)

    Returns
    -------
    ndarray, shape (..., K)
    """
    theta = _as_probabilities(theta, "theta")
    return theta * q_minus_j(theta)


def q_minus_j_at_centre(theta_j, K: int) -> np.ndarray:
    """Largest ``Q^{-j}`` given ``theta_j``, at the centre of the simplex (eq. 8).

    With the other K - 1 entries all equal to ``(1 - theta_j) / (K - 1)``
    (eq. 7), ``Q^{-j} = ((K - 2 + theta_j) / (K - 1)) ** (K - 1)``.

    Parameters
    ----------
    theta_j : array_like, values in [0, 1]
    K : int >= 2

    Returns
    -------
    ndarray
    """
    if K < 2:
        raise ValueError("K must be at least 2")
    theta_j = _as_probabilities(theta_j, "theta_j")
    one_minus_other = (K - 2 + theta_j) / (K - 1)  # eq. 7
    return one_minus_other ** (K - 1)  # eq. 8


def lower_bound(theta_j) -> np.ndarray:
    """``l(theta_j) = theta_j ** 2`` (eq. 9): ``f_j`` at a corner of the simplex.

    At a corner one other entry is ``1 - theta_j`` and the rest are 0, so
    ``Q^{-j} = theta_j``, its smallest value.
    """
    theta_j = _as_probabilities(theta_j, "theta_j")
    return theta_j**2


def upper_bound(theta_j, K: int) -> np.ndarray:
    """``u(theta_j) = theta_j ((K - 2 + theta_j) / (K - 1)) ** (K - 1)`` (eq. 10).

    ``theta_j`` times the centre optimum of eq. 8.
    """
    theta_j = _as_probabilities(theta_j, "theta_j")
    return theta_j * q_minus_j_at_centre(theta_j, K)


def guaranteed_more_extreme(theta_jc, theta_jd, K: int) -> np.ndarray:
    """True where ``f_j(theta_c) / f_j(theta_d) > theta_jc / theta_jd`` is certain (eq. 13).

    From eq. 12, ``f_j(theta_c) / f_j(theta_d) >= l(theta_jc) / u(theta_jd)
    = (theta_jc / theta_jd) * theta_jc / Q*(theta_jd)``; the ratio is
    therefore pushed further from 1 whenever ``theta_jc`` exceeds the centre
    optimum ``Q*(theta_jd)`` of eq. 8 -- the condition of eq. 13.

    Parameters
    ----------
    theta_jc, theta_jd : array_like (broadcastable), values in [0, 1]
        P(x = j | c) and P(x = j | d) for two classes.
    K : int >= 2

    Returns
    -------
    ndarray of bool
    """
    theta_jc = _as_probabilities(theta_jc, "theta_jc")
    return theta_jc > q_minus_j_at_centre(theta_jd, K)


def _normalise_over_classes(log_numerator: np.ndarray) -> np.ndarray:
    """(..., C, K) unnormalised log numerators -> (..., K, C) posteriors."""
    # Imported here: scipy.special costs a linter's start-up (it loads scipy's array-API
    # layer), and only the paper's closed forms need it, never a table check.
    from scipy.special import logsumexp

    with np.errstate(invalid="ignore"):
        log_post = log_numerator - logsumexp(log_numerator, axis=-2, keepdims=True)
    return np.swapaxes(np.exp(log_post), -1, -2)


def _pi_theta(pi, theta) -> tuple[np.ndarray, np.ndarray]:
    pi = _as_probabilities(pi, "pi")
    theta = _as_probabilities(theta, "theta")
    if theta.ndim < 2 or pi.shape[-1] != theta.shape[-2]:
        raise ValueError("pi must be (..., C) and theta (..., C, K)")
    with np.errstate(divide="ignore"):
        return np.log(pi)[..., :, None], np.log(theta)


def categorical_posterior(pi, theta) -> np.ndarray:
    """Categorical model posterior p(y = i | x = j) for every j at once (eq. 2).

    ``p(y = i | x = j) = pi_i theta_ji / sum_c pi_c theta_jc``, computed in
    log space.

    Parameters
    ----------
    pi : array_like, shape (..., C)
        Class prior.
    theta : array_like, shape (..., C, K)
        ``theta[..., c, j] = P(x = j | y = c)``; each row on the simplex.

    Returns
    -------
    ndarray, shape (..., K, C)
        Row j is the posterior after observing x = j.  A value that no class
        can produce (all ``pi_c theta_jc = 0``) has an undefined posterior and
        gives a NaN row.
    """
    log_pi, log_theta = _pi_theta(pi, theta)
    return _normalise_over_classes(log_pi + log_theta)


def pob_posterior(pi, theta) -> np.ndarray:
    """Product-of-Bernoullis posterior p(y = i | x~ = e_j) for every j (eq. 3).

    ``pi_i Q_i^{-j} theta_ji / sum_c pi_c Q_c^{-j} theta_jc``: eq. 2 with the
    extra factor ``Q^{-j}`` of eq. 1 for every class.  With maximum-likelihood
    parameters the PoB model has the same pi and Theta as the categorical one
    (paper, after eq. 3), so the same arguments are passed to both.

    Parameters
    ----------
    pi : array_like, shape (..., C)
    theta : array_like, shape (..., C, K)
        Bit probabilities ``P(x~(j) = 1 | y = c)``; rows need not sum to 1.

    Returns
    -------
    ndarray, shape (..., K, C)
        As :func:`categorical_posterior`.
    """
    log_pi, log_theta = _pi_theta(pi, theta)
    return _normalise_over_classes(log_pi + log_theta + log_q_minus_j(theta))
