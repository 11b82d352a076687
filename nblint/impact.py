"""The measured cost of the one-hot mistake (NB401, ``nblint impact``).

For a table with a target and one-hot/dummy groups G_1..G_m (DESIGN.md section 5):

* model **CAT** reads each group as one categorical feature (for a dummy group the
  all-zero row is the reference level), the paper's eq. 2;
* model **PoB** reads every group bit as an independent Bernoulli feature, the
  product of Bernoullis of eqs. 1 and 3;
* every other column is read identically by both: discrete columns (flags, codes,
  text, counts with few values) as categorical features (a two-level categorical
  feature is exactly a Bernoulli one with the same alpha), continuous columns as
  Gaussian features; identifiers, constants and columns with missing values are
  left out.  Both use the same Lidstone smoothing ``alpha`` (``alpha = 0`` is the
  paper's maximum-likelihood setting, handled as the limit alpha -> 0+).

The table-level comparison is all groups as bits against all collapsed.  Each
group's own cost is measured against the correct model: every other group
collapsed in both, only this group read as bits in "PoB".

Everything is fitted from count tables (:mod:`nblint.nbmath`), so it streams: one
pass over the rows scores the in-sample models and gathers per-fold count tables,
a second scores k-fold cross-validation (fold = a hash of the row number, so it
does not depend on chunking), each fold's training counts being the total minus
the fold's own.  Rows are scored in windows cut from the row stream, not from the
chunks, with CAT, PoB and every group's variant at once.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

import numpy as np

from nblint import nbmath
from nblint.hashing import mix64
from nblint.parallel import ordered_map

#: Resolution of the streamed histogram of excess confidence (percentiles exact to this).
EXCESS_BINS = 20_000
#: Encoded rows kept from the first pass for the cross-validation pass, at most (bytes).
#: A table whose encoded rows would not fit keeps none (its pass 2 reads the rows
#: again), so memory never grows with the rows: the 1M x 65 bench table keeps
#: 64 MiB, the 10M one nothing.
ENCODED_CACHE_BYTES = 256 * 2**20


@dataclass
class ImpactSettings:
    """Knobs of the impact measurement (NB401's options)."""

    alpha: float = 1.0
    folds: int = 5
    seed: int = 0
    var_smoothing: float = 1e-9
    plot_points: int = 20_000


# --------------------------------------------------------------------------- design


@dataclass
class GroupFeature:
    """A group as the models see it: CAT level codes and PoB bits."""

    label: str
    kind: str  # "one-hot" | "dummy"
    members: list[str]

    @property
    def n_levels(self) -> int:
        return len(self.members) + (self.kind == "dummy")


@dataclass
class Design:
    """Which columns feed which component, and how values become level indices."""

    classes: tuple
    groups: list[GroupFeature]
    categorical: list[str]
    level_keys: dict[str, tuple]
    gaussian: list[str]
    left_out: dict[str, str]

    @property
    def columns(self) -> list[str]:
        cols = [m for g in self.groups for m in g.members] + self.categorical + self.gaussian
        return cols


def make_design(ctx) -> Design:
    """Decide, from the profile and the column kinds, how each column enters both models."""
    profile = ctx.profile
    groups = [GroupFeature(g.label, g.kind, list(g.members)) for g in ctx.structure.groups]
    in_group = {m for g in groups for m in g.members}
    categorical, gaussian, left_out, keys = [], [], {}, {}
    for column in profile.features:
        if column in in_group:
            continue
        kind = ctx.kinds[column]
        if kind.kind in ("identifier", "constant"):
            left_out[column] = kind.kind
        elif profile.n_missing(column):
            left_out[column] = "missing values"
        elif kind.kind == "continuous" or profile.levels(column) is None:
            if column in profile.text:
                left_out[column] = "too many text values"
            else:
                gaussian.append(column)
        else:
            categorical.append(column)
            keys[column] = profile.levels(column).keys
    return Design(profile.classes, groups, categorical, keys, gaussian, left_out)


# --------------------------------------------------------------------------- statistics


@dataclass
class Counts:
    """Sufficient statistics of the rows of one set (all rows, or one fold)."""

    class_count: np.ndarray  # (C,)
    group_counts: list[np.ndarray]  # per group (C, K_g): rows of class c at level k
    categorical: list[np.ndarray]  # per categorical column (C, K)
    gauss_n: np.ndarray  # (C, D)
    gauss_mean: np.ndarray  # (C, D)
    gauss_m2: np.ndarray  # (C, D)

    def minus(self, part: "Counts") -> "Counts":
        """The statistics of the rows of ``self`` not in ``part`` (exact for counts).

        Gaussian moments are taken apart by inverting Chan's pairwise update.
        """
        n = self.gauss_n - part.gauss_n
        with np.errstate(invalid="ignore", divide="ignore"):
            mean = np.where(n > 0, (self.gauss_n * self.gauss_mean - part.gauss_n * part.gauss_mean) / np.maximum(n, 1), 0.0)
            m2 = self.gauss_m2 - part.gauss_m2 - np.where(
                n > 0, part.gauss_n * n / np.maximum(self.gauss_n, 1) * (part.gauss_mean - mean) ** 2, 0.0)
        return Counts(
            self.class_count - part.class_count,
            [a - b for a, b in zip(self.group_counts, part.group_counts)],
            [a - b for a, b in zip(self.categorical, part.categorical)],
            n, mean, np.maximum(m2, 0.0),
        )


def profile_counts(ctx, design: Design) -> Counts:
    """All-rows statistics, straight from the profile (no pass over the rows)."""
    profile = ctx.profile
    C = len(profile.classes)
    numeric = profile.numeric
    group_counts = []
    for group in design.groups:
        table = np.zeros((C, group.n_levels), dtype=np.int64)
        for k, member in enumerate(group.members):
            j = numeric.names.index(member)
            table[:, k] = np.rint(numeric.class_mean[:C, j] * numeric.class_n[:C, j]).astype(np.int64)
        if group.kind == "dummy":
            table[:, -1] = profile.class_count - table[:, :-1].sum(axis=1)
        group_counts.append(table)
    categorical = [profile.levels(c).table[:, :C].T.astype(np.int64) for c in design.categorical]
    idx = [numeric.names.index(c) for c in design.gaussian]
    return Counts(
        profile.class_count.astype(np.int64), group_counts, categorical,
        numeric.class_n[:C][:, idx].astype(np.float64), numeric.class_mean[:C][:, idx], numeric.class_m2[:C][:, idx],
    )


# --------------------------------------------------------------------------- models


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
    def categorical(cls, comp: nbmath.CategoricalComponent) -> "LevelTable":
        """CAT: ``log theta_jc`` for the observed level j (eq. 2's likelihood)."""
        return cls(comp.log_lead, comp.vetoed.astype(np.int64))

    @classmethod
    def product_of_bernoullis(cls, comp: nbmath.BernoulliComponent, n_levels: int) -> "LevelTable":
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

    def difference(self, other: "LevelTable") -> "LevelTable":
        """``self - other``: swapping one encoding of a group for another is adding this."""
        return LevelTable(self.finite - other.finite, self.vetoes - other.vetoes)

    @classmethod
    def side_by_side(cls, tables: list["LevelTable"]) -> "LevelTable":
        """One table holding the levels of ``tables``, one table after the other."""
        return cls(np.concatenate([t.finite for t in tables], axis=1), np.concatenate([t.vetoes for t in tables], axis=1))


@dataclass
class Models:
    """Both models' parts, fitted from one set of statistics."""

    log_prior: np.ndarray
    group_cat: list[LevelTable]
    group_pob: list[LevelTable]
    categorical: list[LevelTable]
    gaussian: nbmath.GaussianComponent | None
    exact_zero: bool  # alpha == 0: vetoes possible, posteriors need the limit rule

    def __post_init__(self):
        # The groups' tables side by side, group g's levels from column level_offset[g]:
        # one gather per class then fetches every group's term for a window of rows.
        self.level_offset = np.cumsum([0] + [t.finite.shape[1] for t in self.group_cat[:-1]])
        self.cat_levels = LevelTable.side_by_side(self.group_cat)
        # PoB minus CAT per group: the change of reading that one group as bits (eq. 1's
        # likelihood over eq. 2's, in logs).
        self.swap = LevelTable.side_by_side([p.difference(c) for p, c in zip(self.group_pob, self.group_cat)])


def fit(counts: Counts, design: Design, settings: ImpactSettings, overall_var: np.ndarray | None) -> Models:
    """Fit CAT's and PoB's parts from counts (same alpha for both)."""
    alpha = settings.alpha
    cat, pob = [], []
    for group, table in zip(design.groups, counts.group_counts):
        cat.append(LevelTable.categorical(nbmath.CategoricalComponent.from_counts(table, alpha)))
        # A bit is set exactly when the collapsed variable is at that member's level.
        ones = table[:, : len(group.members)]
        bits = nbmath.BernoulliComponent.from_counts(ones, counts.class_count, alpha)
        pob.append(LevelTable.product_of_bernoullis(bits, group.n_levels))
    categorical = [LevelTable.categorical(nbmath.CategoricalComponent.from_counts(t, alpha)) for t in counts.categorical]
    gaussian = None
    if design.gaussian:
        var = np.where(counts.gauss_n > 0, counts.gauss_m2 / np.maximum(counts.gauss_n, 1), 0.0)
        gaussian = nbmath.GaussianComponent.from_moments(
            counts.class_count, counts.gauss_mean, var, var_smoothing=settings.var_smoothing, overall_var=overall_var)
    return Models(nbmath.log_class_prior(counts.class_count), cat, pob, categorical, gaussian, alpha == 0)


# --------------------------------------------------------------------------- rows


@dataclass
class RowInputs:
    """Encoded rows (a chunk, a window of rows, or a subset of one), ready for the components."""

    y: np.ndarray  # class index, rows with a target only
    rows: np.ndarray  # global 0-based row numbers
    group_codes: np.ndarray  # (G, n): level code of each group
    categorical: list[np.ndarray]
    gaussian: np.ndarray

    def __len__(self) -> int:
        return len(self.y)

    @property
    def nbytes(self) -> int:
        arrays = [self.y, self.rows, self.gaussian, self.group_codes, *self.categorical]
        return sum(a.nbytes for a in arrays)

    def take(self, index: slice | np.ndarray) -> "RowInputs":
        """The rows at ``index`` (a slice or positions)."""
        return RowInputs(self.y[index], self.rows[index], self.group_codes[:, index],
                         [codes[index] for codes in self.categorical], self.gaussian[index])

    @classmethod
    def concatenate(cls, parts: list["RowInputs"]) -> "RowInputs":
        """The rows of ``parts``, one after the other."""
        if len(parts) == 1:
            return parts[0]
        return cls(np.concatenate([p.y for p in parts]), np.concatenate([p.rows for p in parts]),
                   np.concatenate([p.group_codes for p in parts], axis=1),
                   [np.concatenate(column) for column in zip(*(p.categorical for p in parts))],
                   np.concatenate([p.gaussian for p in parts]))


def encode_chunk(chunk, design: Design, target: str) -> RowInputs:
    """Encode one chunk (rows with a missing target are dropped)."""
    cols = dict(zip(chunk.names, chunk.columns))
    class_index = {c: i for i, c in enumerate(design.classes)}
    tcol = cols[target]
    if tcol.kind == "text":
        lookup = np.array([class_index.get(label, -1) for label in tcol.labels] + [-1], dtype=np.int64)
        y = lookup[tcol.values]
    else:
        values = tcol.as_float()
        keys = np.array(design.classes, dtype=np.float64)
        pos = np.clip(np.searchsorted(keys, values), 0, max(len(keys) - 1, 0))
        y = np.where(~np.isnan(values) & (keys[pos] == values), pos, -1) if len(keys) else np.full(len(values), -1)
    keep = y >= 0
    rows = np.arange(chunk.row_offset, chunk.row_offset + chunk.n_rows)[keep]
    group_codes = np.empty((len(design.groups), int(keep.sum())), dtype=np.int64)
    for code, group in zip(group_codes, design.groups):
        # The collapsed variable: the level whose bit is set; for a dummy group the
        # all-zero rows are the reference level, the last code.
        code[:] = group.n_levels - 1
        for k, member in enumerate(group.members):
            code[cols[member].values[keep] == 1] = k
    categorical = []
    for column in design.categorical:
        col = cols[column]
        keys = design.level_keys[column]
        if col.kind == "text":
            index = {k: i for i, k in enumerate(keys)}
            lookup = np.array([index[label] for label in col.labels] + [0], dtype=np.int64)
            categorical.append(_compact(lookup[col.values[keep]]))
        else:
            categorical.append(_compact(_level_index(np.array(keys, dtype=np.float64), col.values[keep])))
    gaussian = (np.column_stack([cols[c].as_float()[keep] for c in design.gaussian])
                if design.gaussian else np.zeros((int(keep.sum()), 0)))
    return RowInputs(y[keep], rows, _compact(group_codes), categorical, gaussian)


def _compact(codes: np.ndarray) -> np.ndarray:
    """Level codes in the smallest integer type that holds them (they are kept between passes)."""
    top = int(codes.max()) if codes.size else 0
    return codes.astype(np.int8 if top < 2**7 else np.int16 if top < 2**15 else np.int32, copy=False)


def _level_index(keys: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Index of each value among the sorted level keys (every value is a key)."""
    lo, hi = keys[0], keys[-1]
    if np.all(keys == np.floor(keys)) and hi - lo < 1 << 16:
        # Whole-number levels: one lookup array over lo..hi beats a binary search.
        lookup = np.zeros(int(hi - lo) + 1, dtype=np.int64)
        lookup[(keys - lo).astype(np.int64)] = np.arange(len(keys))
        return lookup[(values - lo).astype(np.int64)]
    return np.searchsorted(keys, values)


def _other_features(models: Models, inputs: RowInputs):
    """Log likelihood of the rows under the features both models read alike (categorical
    and Gaussian columns), class-major: finite (C, n), and vetoes (C, n) or None.

    Vetoes exist only with alpha = 0; otherwise they are never built.
    """
    C = len(models.log_prior)
    finite = np.zeros((C, len(inputs)))
    vetoes = np.zeros((C, len(inputs)), dtype=np.int64) if models.exact_zero else None
    for table, codes in zip(models.categorical, inputs.categorical):
        table.add_to(finite, vetoes, codes)
    if models.gaussian is not None:
        finite += models.gaussian.log_likelihood(inputs.gaussian).finite.T
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


def _argmax(log_post: np.ndarray, top: np.ndarray) -> np.ndarray:
    """The predicted class: the lowest class index whose log posterior is the top one.

    As ``argmax`` over the (few) classes of a class-major (C, ...) array, in one
    vector step per class.
    """
    if len(log_post) > LOOP_CLASSES:
        return np.argmax(log_post == top, axis=0)  # (the first, lowest, class at the top)
    index = np.zeros(top.shape, dtype=np.int64)
    for c in reversed(range(len(log_post))):  # down to class 0: the lowest tied class is written last
        index[log_post[c] == top] = c
    return index


@dataclass
class _Posteriors:
    """Every model's posteriors on a window of rows, reduced over the classes."""

    argmax: np.ndarray  # (M, n) predicted class
    max: np.ndarray  # (M, n) its posterior probability
    log_loss: np.ndarray  # (M,) sum over the rows of -log p(y | x)
    correct: np.ndarray  # (M,) rows whose predicted class is y


def _posteriors(models: Models, inputs: RowInputs) -> _Posteriors:
    """Score a window of rows with CAT, PoB and every group's variant at once."""
    log_post, top = _log_posterior(models, *_log_likelihoods(models, inputs))
    argmax = _argmax(log_post, top)
    at_y = np.take_along_axis(log_post, inputs.y[None, None, :], axis=0)[0]
    return _Posteriors(argmax, np.exp(top), -at_y.sum(axis=1), (argmax == inputs.y).sum(axis=1))


# --------------------------------------------------------------------------- accumulators


class Scores:
    """Streaming log-loss and accuracy of every model (indexed as in :data:`CAT`)."""

    def __init__(self, n_models: int):
        self.rows = 0
        self.log_loss_sum = np.zeros(n_models)
        self.correct = np.zeros(n_models, dtype=np.int64)

    def add(self, post: _Posteriors) -> None:
        self.rows += post.argmax.shape[1]
        self.log_loss_sum += post.log_loss
        self.correct += post.correct

    def result(self, model: int) -> dict:
        if not self.rows:
            return {"log_loss": None, "accuracy": None}
        return {"log_loss": float(self.log_loss_sum[model]) / self.rows,
                "accuracy": int(self.correct[model]) / self.rows}


#: Integer type of an excess-confidence bin index (0 .. 2 * EXCESS_BINS).
_BIN = np.min_scalar_type(2 * EXCESS_BINS)


class Comparisons:
    """CAT against each product-of-Bernoullis variant, accumulated over rows.

    Variant v is model ``POB + v``: v = 0 reads every group as bits (the table-level
    comparison), v = 1 + g only group g.
    """

    def __init__(self, labels: list[str], columns: list[list[str]]):
        V = len(labels)
        self.labels, self.columns = labels, columns
        self.rows = 0
        self.map_differs = np.zeros(V, dtype=np.int64)
        self.pob_more_confident = np.zeros(V, dtype=np.int64)
        self.excess_sum = np.zeros(V)
        self.excess_hist = np.zeros((V, 2 * EXCESS_BINS + 1), dtype=np.int64)
        self.pending_bins: list[np.ndarray] = []  # (V, n) bin indices not yet in excess_hist
        self.pending_rows = 0
        self.in_sample = Scores(POB + V)
        self.cross_validated = Scores(POB + V)
        self.example_rows: list[list[int]] = [[] for _ in range(V)]
        self.extra: list[dict] = [{} for _ in range(V)]

    def add_in_sample(self, post: _Posteriors, rows: np.ndarray) -> None:
        self.in_sample.add(post)
        flipped = post.argmax[POB:] != post.argmax[CAT]
        excess = post.max[POB:] - post.max[CAT]
        self.rows += len(rows)
        self.map_differs += flipped.sum(axis=1)
        # "Higher" beyond rounding: equal maxima (e.g. a group with no effect) are not counted.
        self.pob_more_confident += (excess > 1e-12).sum(axis=1)
        self.excess_sum += excess.sum(axis=1)
        index = np.clip(np.rint((excess + 1.0) * EXCESS_BINS).astype(np.int64), 0, 2 * EXCESS_BINS)
        self.pending_bins.append(index.astype(_BIN))
        self.pending_rows += len(rows)
        if self.pending_rows >= self.excess_hist.shape[1]:
            self._flush_bins()
        for v in np.flatnonzero(flipped.any(axis=1)):
            room = 5 - len(self.example_rows[v])
            if room > 0:
                self.example_rows[v] += [int(r) + 1 for r in rows[flipped[v]][:room]]

    def _flush_bins(self) -> None:
        """Count the pending bin indices into the histograms.

        A bincount costs O(rows + bins); waiting until at least ``bins`` rows are
        pending keeps that O(rows) overall.  One bincount per variant rather than one
        over ``variant * bins + bin`` keeps the indices in 16 bits until then.
        """
        if not self.pending_rows:
            return
        pending = np.concatenate(self.pending_bins, axis=1)
        for hist, index in zip(self.excess_hist, pending):
            hist += np.bincount(index, minlength=len(hist))
        self.pending_bins, self.pending_rows = [], 0

    def percentile(self, v: int, q: float) -> float:
        cumulative = np.cumsum(self.excess_hist[v])
        k = int(np.searchsorted(cumulative, q * cumulative[-1]))
        return k / EXCESS_BINS - 1.0

    def results(self) -> list[dict]:
        """One result per variant, in variant order."""
        self._flush_bins()
        return [self._result(v) for v in range(len(self.labels))]

    def _result(self, v: int) -> dict:
        rows = max(self.rows, 1)
        return {
            "group": self.labels[v],
            "columns": self.columns[v],
            "rows": self.rows,
            "map_differs_share": int(self.map_differs[v]) / rows,
            "pob_more_confident_share": int(self.pob_more_confident[v]) / rows,
            "excess_mean": float(self.excess_sum[v]) / rows,
            "excess_p95": self.percentile(v, 0.95) if self.rows else 0.0,
            "cat": {"in_sample": self.in_sample.result(CAT), "cross_validated": self.cross_validated.result(CAT)},
            "pob": {"in_sample": self.in_sample.result(POB + v),
                    "cross_validated": self.cross_validated.result(POB + v)},
            "flipped_rows": self.example_rows[v],
            **self.extra[v],
        }


@dataclass
class ImpactResult:
    """The table-level comparison, one per group, and what went into the models."""

    table: dict
    groups: list[dict]
    design: Design
    settings: ImpactSettings
    plot_points: np.ndarray  # (n, 3): CAT max posterior, PoB max posterior, flipped
    notes: list[str] = field(default_factory=list)


# --------------------------------------------------------------------------- the measurement


def measure_impact(ctx, settings: ImpactSettings | None = None) -> ImpactResult | None:
    """Fit CAT and PoB and compare them on the table's rows (None without groups or target)."""
    settings = settings or ImpactSettings()
    if ctx.target is None or not ctx.structure.groups or len(ctx.profile.classes) < 2:
        return None
    design = make_design(ctx)
    totals = profile_counts(ctx, design)
    overall_var = _overall_variance(totals)
    if _drop_unmeasurable(design, totals, overall_var, settings.var_smoothing):
        totals = profile_counts(ctx, design)
        overall_var = _overall_variance(totals)
    full = fit(totals, design, settings, overall_var)
    k = max(2, int(settings.folds))
    comparisons = Comparisons(["table"] + [g.label for g in design.groups],
                              [[m for g in design.groups for m in g.members]] + [list(g.members) for g in design.groups])
    fold_counts = _FoldCounts(totals, k)
    columns = design.columns + [ctx.target]
    n_rows = ctx.profile.n_rows
    stride = max(1, -(-n_rows // max(settings.plot_points, 1)))
    points = []
    size = _window_rows(design)
    share = score_share(design, n_rows)
    # With a sample, the fold statistics (of every row) are gathered in windows of
    # their own: a many-class window of ``size`` rows is a few dozen rows.
    count_size = size if share is None else max(size, SCORE_CELLS // (len(design.columns) + 2))

    def windows():
        """The table's encoded rows in windows of ``count_size`` rows, whatever the chunking."""
        return _regroup((encode_chunk(chunk, design, ctx.target) for chunk in ctx.scan(columns)), count_size)

    def scored(window: RowInputs) -> RowInputs:
        """The rows of ``window`` that are scored: all, or the sample's."""
        return window if share is None else window.take(np.flatnonzero(_in_sample(window.rows, share)))

    def counted() -> Iterator[RowInputs]:
        """Pass 1's windows, each one's fold statistics gathered (every row) as it goes by."""
        for window in windows():
            fold_counts.add(window, _folds(window.rows, k, settings.seed))
            yield window if share is None else scored(window)

    # Pass 1: in-sample scores, and each fold's statistics.  The encoded windows are
    # kept for pass 2 when all of them fit in ENCODED_CACHE_BYTES (they are compact
    # codes; the first window tells their size); else pass 2 reads and encodes the
    # rows again, so memory stays bounded.
    # Windows are scored ``jobs`` at a time and their results added in row order.
    jobs = ctx.source.jobs
    kept: list[RowInputs] | None = []
    kept_bytes = 0
    to_score = counted() if share is None else _regroup(counted(), size)
    scored_rows = n_rows if share is None else max(1, int(share * n_rows))
    for window, post in ordered_map(lambda window: (window, _posteriors(full, window)), to_score, jobs, "nblint-impact"):
        if kept is not None and not kept and window.nbytes / max(len(window), 1) * scored_rows > ENCODED_CACHE_BYTES:
            kept = None
        comparisons.add_in_sample(post, window.rows)
        keep = window.rows % stride == 0
        points.append(np.column_stack([post.max[CAT][keep], post.max[POB][keep],
                                       post.argmax[CAT][keep] != post.argmax[POB][keep]]))
        if kept is not None:
            kept_bytes += window.nbytes
            if kept_bytes <= ENCODED_CACHE_BYTES:
                kept.append(window)
            else:
                kept = None

    # Pass 2: k-fold cross-validation (fit on the other folds, score this one).  Each
    # fold's rows are regrouped into full windows of their own (so at most k windows
    # of encoded rows wait at a time).
    fold_models = [fit(totals.minus(fold_counts.counts(f)), design, settings, overall_var) for f in range(k)]
    def fold_windows() -> Iterator[tuple[int, RowInputs]]:
        by_fold = [_Regrouper(size) for _ in range(k)]
        for window in kept if kept is not None else map(scored, windows()):
            folds = _folds(window.rows, k, settings.seed)
            for f, regrouper in enumerate(by_fold):
                for part in regrouper.add(window.take(np.flatnonzero(folds == f))):
                    yield f, part
        for f, regrouper in enumerate(by_fold):
            for part in regrouper.rest():
                yield f, part

    for post in ordered_map(lambda item: _posteriors(fold_models[item[0]], item[1]), fold_windows(), jobs, "nblint-impact"):
        comparisons.cross_validated.add(post)

    for extra, group, counts in zip(comparisons.extra[1:], design.groups, totals.group_counts):
        extra["eq13_guaranteed_more_extreme_share"] = _eq13_share(counts, settings.alpha)
        extra["kind"] = group.kind
        extra["levels"] = group.n_levels
    notes = [f"{c} left out ({why})" for c, why in design.left_out.items()]
    if share is not None:
        notes.append(sample_note(design, n_rows, comparisons.rows))
    plot = np.concatenate(points) if points else np.zeros((0, 3))
    table, *per_group = comparisons.results()
    return ImpactResult(table, per_group, design, settings, plot, notes)


#: Float cells of the work arrays of one window (2**20 float64, 8 MiB): every
#: model's class-major log posteriors, (C, G + 2, n), and the encoded inputs.
#: ``jobs + 1`` windows are in flight (measured on the 1M x 65 bench table with
#: --jobs 2: peak 335-342 MiB at 2**20 cells, 346-376 MiB at 2**21, same speed).
SCORE_CELLS = 1 << 20


#: Targets with more classes than this may be scored on a sample of rows (below);
#: ordinary targets are always scored on every row.
MANY_CLASSES = 100
#: Class-term evaluations both passes may take on a many-class target: rows x classes x
#: (features + models) x 2.  Beyond it, a fixed sample of rows is scored (10,000
#: classes over 100,000 rows would be about 3e10, minutes of scoring).
IMPACT_WORK = 1e9


def score_share(design: Design, n_rows: int) -> float | None:
    """The share of rows scored (a sample within :data:`IMPACT_WORK`), or None: every row.

    The cost of scoring is linear in rows x classes x terms; with at most
    :data:`MANY_CLASSES` classes it is the table's own size and every row is scored.
    """
    C, G = len(design.classes), len(design.groups)
    work = 2.0 * n_rows * C * (2 * G + FIRST_GROUP + len(design.categorical) + len(design.gaussian))
    if C <= MANY_CLASSES or work <= IMPACT_WORK:
        return None
    return IMPACT_WORK / work


def sample_note(design: Design, n_rows: int, scored: int | None = None) -> str:
    """What the sample leaves out, in words (for NB106 and the impact report)."""
    share = score_share(design, n_rows)
    scored = int(round(share * n_rows)) if scored is None else scored
    return (f"NB401/impact scored a fixed sample of about {scored:,} of {n_rows:,} rows: scoring every row against "
            f"{len(design.classes):,} classes would take more than {IMPACT_WORK:.0e} class-term evaluations "
            "(the models are still fitted on every row)")


def impact_limit(ctx) -> str | None:
    """NB106's note when the impact measurement of this table scores a sample (None: every row)."""
    if ctx.target is None or len(ctx.profile.classes) <= MANY_CLASSES or not ctx.structure.groups:
        return None
    design = make_design(ctx)
    return sample_note(design, ctx.profile.n_rows) if score_share(design, ctx.profile.n_rows) else None


def _in_sample(rows: np.ndarray, share: float) -> np.ndarray:
    """Whether each row (by its global number, so whatever the chunking) is in the sample."""
    return (mix64(rows.astype(np.uint64) ^ np.uint64(0x5DEECE66D)) >> np.uint64(11)) < np.uint64(int(share * 2**53))


def _window_rows(design: Design) -> int:
    """Rows scored at once: as many as fit :data:`SCORE_CELLS`.

    A row takes C * (G + 2) cells of log posteriors and about one per encoded
    feature.
    """
    C, G = len(design.classes), len(design.groups)
    per_row = C * (FIRST_GROUP + G) + G + len(design.categorical) + len(design.gaussian)
    return max(1, SCORE_CELLS // per_row)


class _Regrouper:
    """Encoded rows taken in pieces of any size, handed on in windows of ``size`` rows.

    Window boundaries depend only on the rows' order, not on how they arrive, so
    everything summed window by window is the same for any chunking.
    """

    def __init__(self, size: int):
        self.size = size
        self.parts: list[RowInputs] = []
        self.n = 0

    def add(self, inputs: RowInputs) -> Iterator[RowInputs]:
        """Take ``inputs``; yield every window they complete."""
        start = 0
        while self.n + len(inputs) - start >= self.size:
            end = start + self.size - self.n
            self.parts.append(inputs.take(slice(start, end)))
            yield RowInputs.concatenate(self.parts)
            self.parts, self.n, start = [], 0, end
        if start < len(inputs):
            self.parts.append(inputs.take(slice(start, None)))
            self.n += len(inputs) - start

    def rest(self) -> Iterator[RowInputs]:
        """Yield the last, shorter window, if rows are left."""
        if self.n:
            yield RowInputs.concatenate(self.parts)
            self.parts, self.n = [], 0


def _regroup(stream: Iterable[RowInputs], size: int) -> Iterator[RowInputs]:
    """The rows of ``stream`` in windows of ``size`` rows (the last may be shorter)."""
    regrouper = _Regrouper(size)
    for inputs in stream:
        yield from regrouper.add(inputs)
    yield from regrouper.rest()


def _folds(rows: np.ndarray, k: int, seed: int) -> np.ndarray:
    """Fold of each row: a hash of its global row number (independent of chunking).

    The seed shifts the row numbers by ``seed`` times the golden-ratio constant,
    modulo 2**64: computed on Python integers, whose product does not overflow
    (numpy's uint64 scalars would warn about the wrap for every seed past 1).
    """
    offset = np.uint64(seed * 0x9E3779B97F4A7C15 % 2**64)
    return (mix64(rows.astype(np.uint64) + offset) % np.uint64(k)).astype(np.int64)


class _FoldCounts:
    """Per-fold statistics, gathered with one bincount per feature over ``fold * C + y``."""

    def __init__(self, like: Counts, k: int):
        C, D = like.gauss_n.shape
        self.k, self.C = k, C
        self.classes = np.zeros((k, C), dtype=np.int64)
        self.groups = [np.zeros((k,) + t.shape, dtype=np.int64) for t in like.group_counts]
        self.categorical = [np.zeros((k,) + t.shape, dtype=np.int64) for t in like.categorical]
        self.n = np.zeros((k, C, D))
        self.sum = np.zeros((k, C, D))
        self.sumsq = np.zeros((k, C, D))
        self.shift = like.gauss_mean  # all-rows class means: deviations from them subtract stably

    def add(self, inputs: RowInputs, folds: np.ndarray) -> None:
        k, C = self.k, self.C
        cell = folds * C + inputs.y  # (fold, class) of each row
        self.classes += np.bincount(cell, minlength=k * C).reshape(k, C)
        for acc, codes in zip(self.groups + self.categorical, [*inputs.group_codes, *inputs.categorical]):
            K = acc.shape[2]
            acc += np.bincount(cell * K + codes, minlength=k * C * K).reshape(k, C, K)
        if inputs.gaussian.shape[1]:
            dev = inputs.gaussian - self.shift[inputs.y]
            self.n += np.bincount(cell, minlength=k * C).reshape(k, C)[:, :, None]
            for d in range(dev.shape[1]):
                self.sum[:, :, d] += np.bincount(cell, weights=dev[:, d], minlength=k * C).reshape(k, C)
                self.sumsq[:, :, d] += np.bincount(cell, weights=dev[:, d] ** 2, minlength=k * C).reshape(k, C)

    def counts(self, f: int) -> Counts:
        """Fold ``f``'s statistics."""
        n = self.n[f]
        with np.errstate(invalid="ignore", divide="ignore"):
            mean_dev = np.where(n > 0, self.sum[f] / np.maximum(n, 1), 0.0)
        m2 = np.maximum(self.sumsq[f] - n * mean_dev**2, 0.0)
        return Counts(self.classes[f], [g[f] for g in self.groups], [c[f] for c in self.categorical],
                      n, self.shift + mean_dev, m2)


def _drop_unmeasurable(design: Design, totals: Counts, overall_var: np.ndarray, var_smoothing: float) -> bool:
    """Leave out Gaussian columns whose class variance stays zero after smoothing; whether any were.

    Values such as 1e-320 and 0 have a variance that underflows to zero, and so
    does ``var_smoothing`` times it: no Gaussian density can be fitted (GaussianNB
    divides by zero).  Such a column is a constant to both models.
    """
    if not design.gaussian:
        return False
    epsilon = var_smoothing * float(np.max(overall_var))
    with np.errstate(invalid="ignore", divide="ignore"):
        var = np.where(totals.gauss_n > 0, totals.gauss_m2 / np.maximum(totals.gauss_n, 1), np.inf)
    unusable = ~np.all(var + epsilon > 0, axis=0)
    for j in np.flatnonzero(unusable):
        design.left_out[design.gaussian[j]] = "variance too small for double precision"
    design.gaussian = [c for c, bad in zip(design.gaussian, unusable) if not bad]
    return bool(unusable.any())


def _overall_variance(counts: Counts) -> np.ndarray:
    """Each Gaussian feature's variance over all rows (GaussianNB's var_smoothing scale)."""
    if counts.gauss_n.size == 0:
        return np.zeros(0)
    n = counts.gauss_n.sum(axis=0)
    mean = (counts.gauss_n * counts.gauss_mean).sum(axis=0) / np.maximum(n, 1)
    m2 = counts.gauss_m2.sum(axis=0) + (counts.gauss_n * (counts.gauss_mean - mean) ** 2).sum(axis=0)
    return m2 / np.maximum(n, 1)


def _eq13_share(table: np.ndarray, alpha: float) -> float:
    """Share of (level, class pair) cases where eq. 13 guarantees PoB's ratio is more extreme.

    For the observed level j and classes c, d with theta_jc > theta_jd, eq. 13 says
    the PoB ratio f_j(theta_c) / f_j(theta_d) exceeds theta_jc / theta_jd whenever
    theta_jc > ((K - 2 + theta_jd) / (K - 1)) ** (K - 1).

    That threshold, the centre optimum Q*(theta_jd) of eq. 8, is at least theta_jd
    (Q^{-j} >= theta_j), so every guaranteed pair is a pair with theta_jc > theta_jd,
    and both counts are, for each d, how many classes lie above a threshold: a
    search in the sorted column, O(K C log C) instead of a loop over C^2 pairs
    (10,000 classes: 10^8 pairs).
    """
    theta = np.exp(nbmath.categorical_log_theta(table, alpha))  # (C, K)
    C, K = theta.shape
    if K < 2 or C < 2:
        return 0.0
    hits = total = 0
    for j in range(K):
        ordered = np.sort(theta[:, j])
        above = lambda threshold: int((C - np.searchsorted(ordered, threshold, side="right")).sum())  # noqa: E731
        total += above(theta[:, j])
        hits += above(nbmath.q_minus_j_at_centre(theta[:, j], K))
    return hits / total if total else 0.0


# --------------------------------------------------------------------------- rendering


def render_text(result: ImpactResult, path: str) -> str:
    """The full impact table: one line per group and one for all groups together."""
    header = (f"{'group':<16} {'K':>3} {'rows':>7} {'flips':>7} {'more conf.':>10} {'excess':>8} {'p95':>7}  "
              f"{'log-loss CAT/PoB (in | cv)':<31} {'accuracy CAT/PoB (cv)':<21}")
    lines = [f"{path}: impact of reading one-hot/dummy groups as independent bits "
             f"(alpha={result.settings.alpha:g}, {result.settings.folds}-fold cv, seed {result.settings.seed})", header]
    for row in result.groups + [dict(result.table, group="all groups", levels=None)]:
        cat, pob = row["cat"], row["pob"]
        k = "" if row.get("levels") is None else str(row["levels"])
        lines.append(
            f"{row['group'][:16]:<16} {k:>3} {row['rows']:>7} {row['map_differs_share']:>7.2%} "
            f"{row['pob_more_confident_share']:>10.1%} {row['excess_mean']:>+8.4f} {row['excess_p95']:>+7.3f}  "
            f"{_pair(cat['in_sample']['log_loss'], pob['in_sample']['log_loss'])} | "
            f"{_pair(cat['cross_validated']['log_loss'], pob['cross_validated']['log_loss'])}  "
            f"{cat['cross_validated']['accuracy']:.1%}/{pob['cross_validated']['accuracy']:.1%}"
        )
    lines.append("flips: rows whose predicted class differs; more conf.: rows where the bits model's top posterior is higher;")
    lines.append("excess: that top posterior minus the collapsed model's (mean, 95th percentile). Each group row reads only")
    lines.append("that group as bits; 'all groups' reads every group as bits.")
    lines += [f"note: {note}" for note in result.notes]
    return "\n".join(lines) + "\n"


def _pair(a, b) -> str:
    if a is None or b is None:
        return f"{'-':>13}"
    return f"{a:.4f}/{b:.4f}"


def to_json(result: ImpactResult, path: str) -> dict:
    """The impact result as plain JSON data."""
    from nblint.engine import _jsonable

    return _jsonable({
        "path": path,
        "alpha": result.settings.alpha,
        "folds": result.settings.folds,
        "seed": result.settings.seed,
        "table": result.table,
        "groups": result.groups,
        "left_out": result.design.left_out,
    })


def plot(result: ImpactResult, path: str, title: str) -> None:
    """Draw the paper's Figure 3 for this table and the per-group excess, to a PNG.

    Left: each row's maximum posterior under PoB (all groups as bits) against CAT,
    rows whose predicted class flips in red. Right: per group, the mean and 95th
    percentile of the excess confidence and the share of flipped rows.

    Raises
    ------
    ImportError
        When matplotlib is not installed (``pip install 'nblint[plot]'``).
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    points = result.plot_points
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 5), gridspec_kw={"width_ratios": [1, 1.2]})
    same, flipped = points[points[:, 2] == 0], points[points[:, 2] == 1]
    left.scatter(same[:, 0], same[:, 1], s=6, alpha=0.5, color="tab:blue", label="same MAP class")
    left.scatter(flipped[:, 0], flipped[:, 1], s=14, alpha=0.9, color="tab:red", label="MAP class differs")
    lo = 1.0 / max(len(result.design.classes), 1)  # a maximum posterior is at least 1/C
    left.plot([lo, 1], [lo, 1], color="grey", lw=1, ls="--")
    left.set_xlim(lo - 0.02, 1.01)
    left.set_ylim(lo - 0.02, 1.01)
    left.set_xlabel("max posterior, categorical model (CAT)")
    left.set_ylabel("max posterior, product of Bernoullis (PoB)")
    left.set_title("each row (all groups as bits)")
    left.legend(loc="lower right", fontsize=8)
    names = [g["group"] for g in result.groups]
    x = np.arange(len(names))
    right.bar(x - 0.2, [g["excess_mean"] for g in result.groups], width=0.4, label="mean excess")
    right.bar(x + 0.2, [g["excess_p95"] for g in result.groups], width=0.4, label="95th percentile")
    right.plot(x, [g["map_differs_share"] for g in result.groups], "o", color="tab:red", label="share of rows flipped")
    right.axhline(0, color="grey", lw=1)
    right.set_xticks(x, names, rotation=30, ha="right")
    right.set_title("per group (only that group as bits)")
    right.legend(fontsize=8)
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
