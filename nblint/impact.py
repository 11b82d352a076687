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
the fold's own.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from nblint import nbmath
from nblint.hashing import mix64

#: Resolution of the streamed histogram of excess confidence (percentiles exact to this).
EXCESS_BINS = 20_000
#: Encoded rows kept from the first pass for the cross-validation pass, at most (bytes).
ENCODED_CACHE_BYTES = 512 * 2**20


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

        One 1-D gather per class is much faster than a 2-D gather over a short axis.
        """
        for c in range(self.finite.shape[0]):
            finite[c] += self.finite[c].take(codes)
            if vetoes is not None:
                vetoes[c] += self.vetoes[c].take(codes)

    def difference(self, other: "LevelTable") -> "LevelTable":
        """``self - other``: swapping one encoding of a group for another is adding this."""
        return LevelTable(self.finite - other.finite, self.vetoes - other.vetoes)


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
        # PoB minus CAT per group: the change of reading that one group as bits.
        self.swap = [p.difference(c) for p, c in zip(self.group_pob, self.group_cat)]


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
    """One chunk's rows, encoded for the components."""

    y: np.ndarray  # class index, rows with a target only
    rows: np.ndarray  # global 0-based row numbers
    group_codes: list[np.ndarray]
    categorical: list[np.ndarray]
    gaussian: np.ndarray

    @property
    def nbytes(self) -> int:
        arrays = [self.y, self.rows, self.gaussian, *self.group_codes, *self.categorical]
        return sum(a.nbytes for a in arrays)


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
    group_codes = []
    for group in design.groups:
        # The collapsed variable: the level whose bit is set; for a dummy group the
        # all-zero rows are the reference level, the last code.
        code = np.full(int(keep.sum()), group.n_levels - 1, dtype=np.int64)
        for k, member in enumerate(group.members):
            code[cols[member].values[keep] == 1] = k
        group_codes.append(_compact(code))
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
    return RowInputs(y[keep], rows, group_codes, categorical, gaussian)


def _compact(codes: np.ndarray) -> np.ndarray:
    """Level codes in the smallest integer type that holds them (they are kept between passes)."""
    top = int(codes.max()) if len(codes) else 0
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


def _loglik(models: Models, inputs: RowInputs, rows: np.ndarray | slice):
    """CAT's log likelihood of the given rows, class-major (finite (C, n), vetoes or None).

    Vetoes exist only with alpha = 0; otherwise they are never built.
    """
    y = inputs.y[rows]
    C = len(models.log_prior)
    finite = np.zeros((C, len(y)))
    vetoes = np.zeros((C, len(y)), dtype=np.int64) if models.exact_zero else None
    for table, codes in zip(models.categorical, inputs.categorical):
        table.add_to(finite, vetoes, codes[rows])
    if models.gaussian is not None:
        finite += models.gaussian.log_likelihood(inputs.gaussian[rows]).finite.T
    for table, codes in zip(models.group_cat, inputs.group_codes):
        table.add_to(finite, vetoes, codes[rows])
    return finite, vetoes


def _posterior(models: Models, finite: np.ndarray, vetoes: np.ndarray | None) -> np.ndarray:
    """Log posteriors (C, n); a plain log-softmax unless alpha = 0 made vetoes possible."""
    if vetoes is not None and vetoes.any():
        return nbmath.log_posterior(models.log_prior, nbmath.LogLikelihood(finite.T, vetoes.T)).T
    score = finite + models.log_prior[:, None]
    score -= score.max(axis=0)
    score -= np.log(np.exp(score).sum(axis=0))
    return score


# --------------------------------------------------------------------------- accumulators


@dataclass
class _Summary:
    """CAT's posteriors for one chunk (C, n), reduced once and shared by every comparison."""

    log_post: np.ndarray
    argmax: np.ndarray
    max: np.ndarray

    @classmethod
    def of(cls, log_post: np.ndarray) -> "_Summary":
        argmax, top = _argmax_max(log_post)
        return cls(log_post, argmax, np.exp(top))


def _argmax_max(log_post: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Arg-max and max over the (few) classes of a class-major (C, n) array, in C vector steps.

    Ties go to the lowest class index, as with ``argmax``.
    """
    best = log_post[0].copy()
    index = np.zeros(log_post.shape[1], dtype=np.int64)
    for c in range(1, log_post.shape[0]):
        better = log_post[c] > best
        index[better] = c
        np.maximum(best, log_post[c], out=best)
    return index, best


@dataclass
class Scores:
    """Streaming log-loss and accuracy of one model."""

    rows: int = 0
    log_loss_sum: float = 0.0
    correct: int = 0

    def add(self, log_post: np.ndarray, y: np.ndarray, argmax: np.ndarray | None = None) -> None:
        """Add rows scored by class-major log posteriors (C, n)."""
        self.rows += len(y)
        self.log_loss_sum += float(-log_post[y, np.arange(len(y))].sum())
        self.correct += int(((_argmax_max(log_post)[0] if argmax is None else argmax) == y).sum())

    def add_summary(self, summary: _Summary, y: np.ndarray) -> None:
        self.add(summary.log_post, y, summary.argmax)

    def result(self) -> dict:
        if not self.rows:
            return {"log_loss": None, "accuracy": None}
        return {"log_loss": self.log_loss_sum / self.rows, "accuracy": self.correct / self.rows}


@dataclass
class Comparison:
    """CAT against a product-of-Bernoullis variant, accumulated over rows."""

    label: str
    columns: list[str]
    rows: int = 0
    map_differs: int = 0
    pob_more_confident: int = 0
    excess_sum: float = 0.0
    excess_hist: np.ndarray = field(default_factory=lambda: np.zeros(2 * EXCESS_BINS + 1, dtype=np.int64))
    cat_in: Scores = field(default_factory=Scores)
    pob_in: Scores = field(default_factory=Scores)
    cat_cv: Scores = field(default_factory=Scores)
    pob_cv: Scores = field(default_factory=Scores)
    example_rows: list[int] = field(default_factory=list)
    extra: dict = field(default_factory=dict)

    def add_in_sample(self, cat: "_Summary", pob: "_Summary", y: np.ndarray, rows: np.ndarray) -> None:
        self.cat_in.add_summary(cat, y)
        self.pob_in.add_summary(pob, y)
        pob_max = pob.max
        flipped = cat.argmax != pob.argmax
        excess = pob_max - cat.max
        self.rows += len(y)
        self.map_differs += int(flipped.sum())
        # "Higher" beyond rounding: equal maxima (e.g. a group with no effect) are not counted.
        self.pob_more_confident += int((excess > 1e-12).sum())
        self.excess_sum += float(excess.sum())
        index = np.clip(np.rint((excess + 1.0) * EXCESS_BINS).astype(np.int64), 0, 2 * EXCESS_BINS)
        self.excess_hist += np.bincount(index, minlength=2 * EXCESS_BINS + 1)
        room = 5 - len(self.example_rows)
        if room > 0:
            self.example_rows += [int(r) + 1 for r in rows[flipped][:room]]

    def percentile(self, q: float) -> float:
        cumulative = np.cumsum(self.excess_hist)
        k = int(np.searchsorted(cumulative, q * cumulative[-1]))
        return k / EXCESS_BINS - 1.0

    def result(self) -> dict:
        rows = max(self.rows, 1)
        return {
            "group": self.label,
            "columns": self.columns,
            "rows": self.rows,
            "map_differs_share": self.map_differs / rows,
            "pob_more_confident_share": self.pob_more_confident / rows,
            "excess_mean": self.excess_sum / rows,
            "excess_p95": self.percentile(0.95) if self.rows else 0.0,
            "cat": {"in_sample": self.cat_in.result(), "cross_validated": self.cat_cv.result()},
            "pob": {"in_sample": self.pob_in.result(), "cross_validated": self.pob_cv.result()},
            "flipped_rows": self.example_rows,
            **self.extra,
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
    full = fit(totals, design, settings, overall_var)
    k = max(2, int(settings.folds))
    table = Comparison("table", [m for g in design.groups for m in g.members])
    per_group = [Comparison(g.label, list(g.members)) for g in design.groups]
    fold_counts = _FoldCounts(totals, k)
    columns = design.columns + [ctx.target]
    n_rows = ctx.profile.n_rows
    stride = max(1, -(-n_rows // max(settings.plot_points, 1)))
    points = []

    # Pass 1: in-sample scores, and each fold's statistics.  The encoded rows are
    # kept for pass 2 while they fit in ENCODED_CACHE_BYTES (they are compact codes);
    # past that pass 2 reads and encodes the rows again, so memory stays bounded.
    kept: list[RowInputs] | None = []
    kept_bytes = 0
    for chunk in ctx.scan(columns):
        inputs = encode_chunk(chunk, design, ctx.target)
        if not len(inputs.y):
            continue
        _score(full, inputs, table, per_group, in_sample=True, points=points, stride=stride)
        fold_counts.add(inputs, _folds(inputs.rows, k, settings.seed))
        if kept is not None:
            kept_bytes += inputs.nbytes
            kept = kept + [inputs] if kept_bytes <= ENCODED_CACHE_BYTES else None

    # Pass 2: k-fold cross-validation (fit on the other folds, score this one).
    fold_models = [fit(totals.minus(fold_counts.counts(f)), design, settings, overall_var) for f in range(k)]
    again = kept if kept is not None else (encode_chunk(c, design, ctx.target) for c in ctx.scan(columns))
    for inputs in again:
        if not len(inputs.y):
            continue
        folds = _folds(inputs.rows, k, settings.seed)
        for f in range(k):
            select = np.flatnonzero(folds == f)
            if len(select):
                _score(fold_models[f], inputs, table, per_group, in_sample=False, select=select)

    for comparison, group, counts in zip(per_group, design.groups, totals.group_counts):
        comparison.extra["eq13_guaranteed_more_extreme_share"] = _eq13_share(counts, settings.alpha)
        comparison.extra["kind"] = group.kind
        comparison.extra["levels"] = group.n_levels
    notes = [f"{c} left out ({why})" for c, why in design.left_out.items()]
    plot = np.array(points, dtype=np.float64).reshape(-1, 3)
    return ImpactResult(table.result(), [c.result() for c in per_group], design, settings, plot, notes)


#: Rows scored at a time: (C, n) work arrays then stay in cache.
SCORE_ROWS = 1 << 15


def _score(models, inputs, table, per_group, in_sample, select=None, points=None, stride=1):
    """Score rows (all of the chunk, or the ``select`` indices) in cache-sized windows."""
    n = len(inputs.y) if select is None else len(select)
    for start in range(0, n, SCORE_ROWS):
        window = slice(start, min(n, start + SCORE_ROWS))
        rows = window if select is None else select[window]
        _score_rows(models, inputs, rows, table, per_group, in_sample, points, stride)


def _score_rows(models, inputs, rows, table, per_group, in_sample, points, stride):
    cat_f, cat_v = _loglik(models, inputs, rows)
    y = inputs.y[rows]
    cat_sum = _Summary.of(_posterior(models, cat_f, cat_v))
    # PoB (all groups as bits) = CAT + every group's swap; each group's own variant = CAT + its swap.
    pob_f = cat_f.copy()
    pob_v = None if cat_v is None else cat_v.copy()
    variants = []
    for swap, codes in zip(models.swap, inputs.group_codes):
        f = cat_f.copy()
        v = None if cat_v is None else cat_v.copy()
        swap.add_to(f, v, codes[rows])
        swap.add_to(pob_f, pob_v, codes[rows])
        variants.append((f, v))
    comparisons = [(table, pob_f, pob_v)] + [(c, f, v) for c, (f, v) in zip(per_group, variants)]
    row_numbers = inputs.rows[rows]
    for comparison, f, v in comparisons:
        summary = _Summary.of(_posterior(models, f, v))
        if in_sample:
            comparison.add_in_sample(cat_sum, summary, y, row_numbers)
        else:
            comparison.cat_cv.add_summary(cat_sum, y)
            comparison.pob_cv.add_summary(summary, y)
        if points is not None and comparison is table:
            keep = row_numbers % stride == 0
            flipped = cat_sum.argmax != summary.argmax
            points.extend(zip(cat_sum.max[keep], summary.max[keep], flipped[keep]))


def _folds(rows: np.ndarray, k: int, seed: int) -> np.ndarray:
    """Fold of each row: a hash of its global row number (independent of chunking)."""
    return (mix64(rows.astype(np.uint64) + np.uint64(seed) * np.uint64(0x9E3779B97F4A7C15)) % np.uint64(k)).astype(np.int64)


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
        for acc, codes in zip(self.groups + self.categorical, inputs.group_codes + inputs.categorical):
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
    """
    theta = np.exp(nbmath.categorical_log_theta(table, alpha))  # (C, K)
    C, K = theta.shape
    if K < 2 or C < 2:
        return 0.0
    hits = total = 0
    for c in range(C):
        for d in range(C):
            if c == d:
                continue
            larger = theta[c] > theta[d]
            total += int(larger.sum())
            hits += int((nbmath.guaranteed_more_extreme(theta[c], theta[d], K) & larger).sum())
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
