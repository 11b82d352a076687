"""NB401's scoring kernel: CAT, PoB and every group's variant fitted and scored at once.

Each model is a sum of per-feature log likelihoods (:mod:`nblint.nbmath`'s
components); the discrete ones become :class:`LevelTable` look-ups, so scoring a
window of rows is one gather per class and feature.  CAT and PoB differ only in
the groups' terms: PoB is CAT plus, for every group, the swap "PoB minus CAT" of
that group's table, and the variant of group g adds g's swap only.  Arrays are
class-major, (C, ...), so reductions over the few classes run across rows.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from nblint import nbmath
from nblint.impact.design import BERNOULLI, Design, RowInputs
from nblint.impact.statistics import Counts


@dataclass
class LevelTable:
    """Log likelihood of each level of one discrete feature under each class.

    ``finite[c, k]`` and ``vetoes[c, k]`` follow :class:`nbmath.LogLikelihood`: the
    likelihood is ``alpha ** vetoes * exp(finite)`` in the alpha -> 0+ limit, so with
    alpha > 0 ``vetoes`` is zero.  Scoring rows is one gather per feature, giving
    class-major (C, n) arrays: reductions over the few classes then run across rows.
    """

    finite: np.ndarray  # (C, K)
    vetoes: np.ndarray  # (C, K) int

    @classmethod
    def categorical(cls, comp: nbmath.CategoricalComponent) -> LevelTable:
        """CAT: ``log theta_jc`` for the observed level j (eq. 2's likelihood)."""
        return cls(comp.log_lead, comp.vetoed.astype(np.int64))

    @classmethod
    def product_of_bernoullis(cls, comp: nbmath.BernoulliComponent, n_levels: int) -> LevelTable:
        """PoB: the bits of level j are e_j, so (eq. 1) the likelihood is
        ``theta~_jc * prod_{k != j} (1 - theta~_kc) = Q~^{-j}_c theta~_jc``; the reference
        level of a dummy group (all bits 0) gets ``prod_k (1 - theta~_kc)``."""
        off_finite = comp.lead_1mp.sum(axis=1)  # (C,): every bit 0
        off_vetoes = comp.vetoed_1mp.sum(axis=1).astype(np.int64)
        C, D = comp.lead_p.shape
        finite = np.empty((C, n_levels))
        vetoes = np.empty((C, n_levels), dtype=np.int64)
        finite[:, :D] = off_finite[:, None] - comp.lead_1mp + comp.lead_p
        vetoes[:, :D] = off_vetoes[:, None] - comp.vetoed_1mp + comp.vetoed_p
        finite[:, D:] = off_finite[:, None]
        vetoes[:, D:] = off_vetoes[:, None]
        return cls(finite, vetoes)

    def add_to(self, finite: np.ndarray, vetoes: np.ndarray | None, codes: np.ndarray) -> None:
        """Add each row's log likelihood (class-major, (C, n)) into the accumulators.

        One 1-D gather per class is much faster than a 2-D gather over a short axis;
        over many classes (:data:`LOOP_CLASSES`) the one 2-D gather is.
        """
        if self.finite.shape[0] > LOOP_CLASSES:
            finite += self.finite[:, codes]
            if vetoes is not None:
                vetoes += self.vetoes[:, codes]
            return
        for c in range(self.finite.shape[0]):
            finite[c] += self.finite[c].take(codes)
            if vetoes is not None:
                vetoes[c] += self.vetoes[c].take(codes)

    def difference(self, other: LevelTable) -> LevelTable:
        """``self - other``: swapping one encoding of a group for another is adding this."""
        return LevelTable(self.finite - other.finite, self.vetoes - other.vetoes)

    @classmethod
    def side_by_side(cls, tables: list[LevelTable]) -> LevelTable:
        """One table holding the levels of ``tables``, one table after the other."""
        return cls(
            np.concatenate([t.finite for t in tables], axis=1), np.concatenate([t.vetoes for t in tables], axis=1)
        )


@dataclass
class Models:
    """Both models' parts, fitted from one set of statistics."""

    log_prior: np.ndarray
    group_cat: list[LevelTable]
    group_pob: list[LevelTable]
    categorical: list[LevelTable]
    gaussian: nbmath.GaussianComponent | None
    exact_zero: bool  # alpha == 0: vetoes possible, posteriors need the limit rule
    terms: nbmath.MultinomialComponent | nbmath.BernoulliComponent | None = None  # a document-term block

    def __post_init__(self):
        # The groups' tables side by side, group g's levels from column level_offset[g]:
        # one gather per class then fetches every group's term for a window of rows.
        self.level_offset = np.cumsum([0] + [t.finite.shape[1] for t in self.group_cat[:-1]])
        self.cat_levels = LevelTable.side_by_side(self.group_cat)
        # PoB minus CAT per group: the change of reading that one group as bits (eq. 1's
        # likelihood over eq. 2's, in logs).
        self.swap = LevelTable.side_by_side([p.difference(c) for p, c in zip(self.group_pob, self.group_cat)])


def fit(counts: Counts, design: Design, alpha: float, var_smoothing: float, overall_var: np.ndarray | None) -> Models:
    """Fit CAT's and PoB's parts from counts (same alpha for both)."""
    cat, pob = [], []
    for group, table in zip(design.groups, counts.group_counts):
        cat.append(LevelTable.categorical(nbmath.CategoricalComponent.from_counts(table, alpha)))
        # A bit is set exactly when the collapsed variable is at that member's level.
        ones = table[:, : len(group.members)]
        bits = nbmath.BernoulliComponent.from_counts(ones, counts.class_count, alpha)
        pob.append(LevelTable.product_of_bernoullis(bits, group.n_levels))
    categorical = [
        LevelTable.categorical(nbmath.CategoricalComponent.from_counts(t, alpha)) for t in counts.categorical
    ]
    gaussian = None
    if design.gaussian:
        gaussian = nbmath.GaussianComponent.from_moments(
            counts.moments, var_smoothing=var_smoothing, overall_var=overall_var
        )
    terms: nbmath.MultinomialComponent | nbmath.BernoulliComponent | None = None
    if design.terms:
        if design.term_model == BERNOULLI:
            terms = nbmath.BernoulliComponent.from_counts(counts.terms, counts.class_count, alpha)
        else:
            terms = nbmath.MultinomialComponent.from_counts(counts.terms, alpha)
    return Models(nbmath.log_class_prior(counts.class_count), cat, pob, categorical, gaussian, alpha == 0, terms)


def _other_features(models: Models, inputs: RowInputs):
    """Log likelihood of the rows under the features both models read alike (categorical
    and Gaussian columns, a document-term block), class-major: finite (C, n), and vetoes (C, n) or None.

    Vetoes exist only with alpha = 0; otherwise they are never built.
    """
    C = len(models.log_prior)
    finite = np.zeros((C, len(inputs)))
    vetoes = np.zeros((C, len(inputs)), dtype=np.int64) if models.exact_zero else None
    for table, codes in zip(models.categorical, inputs.categorical):
        table.add_to(finite, vetoes, codes)
    if models.gaussian is not None:
        finite += models.gaussian.log_likelihood(inputs.gaussian).finite.T
    if models.terms is not None:
        words = models.terms.log_likelihood(inputs.terms)
        finite += words.finite.T
        if vetoes is not None and isinstance(words.vetoes, np.ndarray) and words.vetoes.ndim:  # (else the scalar 0)
            vetoes += np.rint(words.vetoes.T).astype(np.int64)
    return finite, vetoes


#: Up to this many classes, per-class loops of 1-D gathers and sums (fastest for few
#: classes); over it, one 2-D operation (a loop over 10,000 classes is all overhead).
LOOP_CLASSES = 64


def _gather_each(table: np.ndarray, codes: np.ndarray, out: np.ndarray) -> None:
    """``out[c] = table[c][codes]`` for each class c, one 1-D take per class."""
    for c in range(table.shape[0]):
        table[c].take(codes, out=out[c], mode="clip")


def _gather_many(table: np.ndarray, codes: np.ndarray, out: np.ndarray) -> None:
    """``out = table[:, codes]`` in one gather."""
    out[...] = table[:, codes]


#: Models scored together on each row: CAT, PoB (every group as bits), then one
#: variant per group g (only g as bits), at index ``FIRST_GROUP + g``.
CAT, POB, FIRST_GROUP = 0, 1, 2


def _log_likelihoods(models: Models, inputs: RowInputs):
    """Every model's log likelihood of the rows, class-major: finite (C, G + 2, n), vetoes or None.

    Model m is indexed as in :data:`CAT`, :data:`POB` and :data:`FIRST_GROUP`.
    """
    finite, vetoes = _other_features(models, inputs)
    # Position of each row's level in the side-by-side group tables, per group: (G, n).
    codes = inputs.group_codes + models.level_offset[:, None]
    finite = _every_model(finite, models.cat_levels.finite, models.swap.finite, codes)
    return finite, None if vetoes is None else _every_model(vetoes, models.cat_levels.vetoes, models.swap.vetoes, codes)


def _every_model(base: np.ndarray, cat: np.ndarray, swap: np.ndarray, codes: np.ndarray) -> np.ndarray:
    """Every model's (C, G + 2, n) values from those of the other features, ``base`` (C, n, overwritten).

    ``cat`` and ``swap`` are side-by-side (C, sum K_g) tables, ``codes`` the rows'
    positions in them, (G, n).  CAT adds each group's categorical term (eq. 2), PoB
    every group's swap on top of CAT, the variant of group g only g's swap.  Terms
    are added one group after the other, so each row's sum rounds the same way
    whatever the window.
    """
    C, n = base.shape
    G = len(codes)
    out = np.empty((C, FIRST_GROUP + G, n), dtype=base.dtype)
    terms = out[:, FIRST_GROUP:]
    # Codes are always in range; mode="clip" only lets take() write straight into out.
    gather = _gather_many if C > LOOP_CLASSES else _gather_each
    gather(cat, codes, terms)
    for g in range(G):
        base += terms[:, g]
    gather(swap, codes, terms)
    out[:, CAT] = base
    out[:, POB] = base
    for g in range(G):
        out[:, POB] += terms[:, g]
    terms += base[:, None, :]
    return out


def _log_posterior(models: Models, finite: np.ndarray, vetoes: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
    """Log posteriors from class-major log likelihoods (C, ...), and each row's largest one.

    The log-softmax over classes of ``log pi_c + log p(x | c)`` (eqs. 2 and 3), in
    place of ``finite``.  With alpha = 0, rows where a class is vetoed take the
    alpha -> 0+ limit of :func:`nbmath.log_posterior`; in the other rows the limit
    changes nothing.
    """
    if vetoes is not None:
        limit = vetoes.any(axis=0)
        loglik = nbmath.LogLikelihood(finite[:, limit].T, vetoes[:, limit].T)
        limit_post = nbmath.log_posterior(models.log_prior, loglik).T
    score = finite
    score += models.log_prior.reshape((-1,) + (1,) * (finite.ndim - 1))
    score -= score.max(axis=0)
    # Sum over classes one class at a time: the same rounding for any number of rows.
    if len(score) > LOOP_CLASSES:
        total = np.exp(score).sum(axis=0)  # (an outer-axis sum: also class after class)
    else:
        total = np.exp(score[0])
        for c in range(1, len(score)):
            total += np.exp(score[c])
    log_total = np.log(total)
    score -= log_total
    # The top class's log posterior is (m - m) - log(total) = -log(total) exactly, and
    # rounding is monotone, so no other class's is larger.
    top = -log_total
    if vetoes is not None:
        score[:, limit] = limit_post
        top[limit] = limit_post.max(axis=0)
    return score, top


def argmax(log_post: np.ndarray, top: np.ndarray) -> np.ndarray:
    """The predicted class: the lowest class index whose log posterior is the top one.

    As ``argmax`` over the (few) classes of a class-major (C, ...) array, in one
    vector step per class.
    """
    if len(log_post) > LOOP_CLASSES:
        return np.argmax(log_post == top, axis=0)  # (the first, lowest, class at the top)
    at_top = log_post == top
    # Small codes (LOOP_CLASSES < 256) in uint8, selected by arithmetic: index - (index - c)
    # is c (modulo 256, exact) where the class is at the top and index is left where it is
    # not. A boolean-indexed assignment per class built a list of row positions: 8x slower.
    index = np.zeros(top.shape, dtype=np.uint8)
    for c in reversed(range(len(log_post))):  # down to class 0: the lowest tied class is written last
        index -= at_top[c] * (index - np.uint8(c))
    return index.astype(np.int64)


@dataclass
class Posteriors:
    """Every model's posteriors on a window of rows, reduced over the classes."""

    argmax: np.ndarray  # (M, n) predicted class
    max: np.ndarray | None  # (M, n) its posterior probability (None when not asked for)
    log_loss: np.ndarray  # (M,) sum over the rows of -log p(y | x)
    correct: np.ndarray  # (M,) rows whose predicted class is y
    gap_square: np.ndarray  # (M,) sum over the rows of (model m's -log p(y | x) minus CAT's)^2
    cat_only_right: np.ndarray  # (M,) rows whose class CAT predicts and model m does not


def log_posteriors(models: Models, inputs: RowInputs) -> tuple[np.ndarray, np.ndarray]:
    """Every model's log posteriors of a window of rows, (C, G + 2, n), and each row's largest, (G + 2, n).

    Model m is indexed as in :data:`CAT`, :data:`POB` and :data:`FIRST_GROUP`.
    """
    return _log_posterior(models, *_log_likelihoods(models, inputs))


def posteriors(models: Models, inputs: RowInputs, confidence: bool = True) -> Posteriors:
    """Score a window of rows with CAT, PoB and every group's variant at once.

    ``confidence``: also each row's largest posterior probability, ``exp`` of its log
    (pass 1's excess confidence); the cross-validated pass reads only the scores, and
    skips these (models x rows) exponentials.
    """
    log_post, top = log_posteriors(models, inputs)
    predicted = argmax(log_post, top)
    at_y = np.take_along_axis(log_post, inputs.y[None, None, :], axis=0)[0]
    # Each row's loss under model m minus CAT's on the same row: the paired differences
    # whose spread says whether a difference in mean log-loss is beyond noise.
    with np.errstate(invalid="ignore", over="ignore"):  # alpha = 0: a vetoed true class loses +inf
        gap_square = np.square(at_y[CAT] - at_y).sum(axis=1)
    right = predicted == inputs.y
    cat_only_right = (right[CAT] & ~right).sum(axis=1)
    top_probability = np.exp(top) if confidence else None
    return Posteriors(predicted, top_probability, -at_y.sum(axis=1), right.sum(axis=1), gap_square, cat_only_right)
