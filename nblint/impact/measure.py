"""The measurement: both models fitted and compared on the table's rows, in two passes.

Pass 1 scores the in-sample models (fitted from the profile's statistics) and
gathers each fold's statistics; pass 2 scores k-fold cross-validation, each
fold's model fitted from the totals minus the fold's own.  Rows are scored in
windows cut from the row stream, not from the chunks, so every sum is the same
for any chunking; the accumulators of :mod:`~nblint.impact.comparison` stream
the comparison DESIGN.md section 5 defines, and :mod:`~nblint.impact.sample` says
which rows are scored.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

import numpy as np

from nblint import nbmath
from nblint.core.blas import dense_blas
from nblint.core.parallel import ordered_map
from nblint.impact.comparison import Comparisons, InSample
from nblint.impact.design import Design, RowInputs, encode_chunk, make_design
from nblint.impact.sample import is_sampled, sample_note, score_share
from nblint.impact.scoring import CAT, FIRST_GROUP, POB, Models, fit, posteriors
from nblint.impact.statistics import Counts, FoldCounts, drop_unmeasurable, fold_of, profile_counts
from nblint.readers.kept import keep_limit

#: Encoded rows kept from the first pass for the cross-validation pass, at most (bytes).
#: A table whose encoded rows would not fit keeps none (its pass 2 reads the rows
#: again), so memory never grows with the rows: the 1M x 65 bench table keeps
#: 64 MiB, the 10M one nothing.  Within a share of the memory budget too
#: (:func:`~nblint.readers.kept.keep_limit`).
ENCODED_CACHE_BYTES = 256 * 2**20


@dataclass
class ImpactSettings:
    """Knobs of the impact measurement.

    ``alpha``, ``folds`` and ``seed`` have no default here: they are NB401's options, whose
    defaults are the only ones (:func:`impact_settings` reads them, and ``nblint impact``'s
    options override them).
    """

    alpha: float
    folds: int
    seed: int
    var_smoothing: float = 1e-9
    plot_points: int = 20_000


def impact_settings(
    ctx, alpha: float | None = None, folds: int | None = None, seed: int | None = None
) -> ImpactSettings:
    """NB401's measurement settings on ``ctx``'s table: those given here (``nblint impact``'s options),
    else the table's alpha (the config's or the pipeline's, the one alpha the rules read), else NB401's options.
    """
    if alpha is None:
        alpha = ctx.alpha if ctx.alpha is not None else ctx.settings.alpha
    return ImpactSettings(
        alpha=alpha,
        folds=folds if folds is not None else ctx.settings.folds,
        seed=seed if seed is not None else ctx.settings.seed,
    )


@dataclass
class Plan:
    """The fitted in-sample models and everything a window needs to be scored (sent to workers)."""

    design: Design
    target: str
    totals: Counts
    full: Models
    folds: int
    seed: int
    stride: int
    size: int
    alpha: float
    var_smoothing: float
    overall_var: np.ndarray | None
    #: The share of rows scored (:func:`score_share`), None for every row.
    share: float | None = None
    #: The words of the term block for every row (CSR, in ``design.terms`` order) when the profile
    #: holds them (a wide table's 0/1 block): the passes then read the other columns only.
    held_terms: object = None

    @property
    def columns(self) -> list[str]:
        if self.held_terms is not None:
            held = set(self.design.terms)
            return [c for c in self.design.columns if c not in held] + [self.target]
        return self.design.columns + [self.target]

    def encode(self, chunk) -> RowInputs:
        return encode_chunk(chunk, self.design, self.target, self.held_terms)

    def in_sample(self, window: RowInputs, count: bool = True) -> InSample:
        """Score one window of rows with the in-sample models (and, if ``count``, gather its fold statistics)."""
        post = posteriors(self.full, window)
        keep = window.rows % self.stride == 0
        assert post.max is not None  # (scored with its confidence)
        points = np.column_stack(
            [post.max[CAT][keep], post.max[POB][keep], post.argmax[CAT][keep] != post.argmax[POB][keep]]
        )
        folds = None
        if count:
            folds = FoldCounts(self.totals, self.folds)
            folds.add(window, self.fold_of(window.rows))
        return InSample.of(post, window.rows, points, folds)

    def scored(self, window: RowInputs) -> RowInputs:
        """The rows of ``window`` that are scored: all, or the sample's."""
        return window if self.share is None else window.take(np.flatnonzero(is_sampled(window.rows, self.share)))

    def fold_of(self, rows: np.ndarray) -> np.ndarray:
        return fold_of(rows, self.folds, self.seed)

    def fold_models(self, fold_counts: FoldCounts) -> dict[int, Models]:
        """Each fold's model, fitted on the other folds (the totals minus the fold), by fold.

        A fold without rows scores nothing and gets no model: with more folds than
        rows (``folds`` up to its bound on a small table) most folds are empty, and fitting
        one model per empty fold was the whole cost of the check.
        """
        with_rows = np.flatnonzero(fold_counts.classes.sum(axis=1) > 0).tolist()
        return {
            f: fit(
                self.totals.minus(fold_counts.counts(f)), self.design, self.alpha, self.var_smoothing, self.overall_var
            )
            for f in with_rows
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
    settings = settings or impact_settings(ctx)
    if ctx.target is None or not ctx.structure.groups or len(ctx.profile.classes) < 2:
        return None
    # Its fits and scores are products of rows, features and classes.
    with dense_blas(float(ctx.profile.n_rows) * len(ctx.profile.names) * len(ctx.profile.classes)):
        return _measure(ctx, settings)


def _measure(ctx, settings: ImpactSettings) -> ImpactResult:
    """:func:`measure_impact` of a table with groups and classes, BLAS settled."""
    design = make_design(ctx)
    totals = profile_counts(ctx, design)
    overall_var = nbmath.pooled_variance(totals.moments)
    if drop_unmeasurable(design, totals, overall_var, settings.var_smoothing):
        totals = profile_counts(ctx, design)
        overall_var = nbmath.pooled_variance(totals.moments)
    full = fit(totals, design, settings.alpha, settings.var_smoothing, overall_var)
    k = max(2, int(settings.folds))
    comparisons = Comparisons(
        ["table"] + [g.label for g in design.groups],
        [[m for g in design.groups for m in g.members]] + [list(g.members) for g in design.groups],
    )
    fold_counts = FoldCounts(totals, k)
    n_rows = ctx.profile.n_rows
    stride = max(1, -(-n_rows // max(settings.plot_points, 1)))
    plan = Plan(
        design,
        ctx.target,
        totals,
        full,
        k,
        settings.seed,
        stride,
        _window_rows(design),
        settings.alpha,
        settings.var_smoothing,
        overall_var,
        score_share(design, n_rows),
    )
    points: list[np.ndarray] = []
    # A Dask source scores where its partitions live; a sample of a many-class
    # table is scored here (its rows stream past the client once per pass).
    if plan.share is not None or not ctx.source.backend.impact_passes(plan, comparisons, fold_counts, points):
        plan.held_terms = _held_terms(ctx, design)
        _local_passes(ctx, plan, comparisons, fold_counts, points)

    for extra, group, counts in zip(comparisons.extra[1:], design.groups, totals.group_counts):
        extra["eq13_guaranteed_more_extreme_share"] = _eq13_share(counts, settings.alpha)
        extra["kind"] = group.kind
        extra["levels"] = group.n_levels
    notes = [f"{c} left out ({why})" for c, why in design.left_out.items()]
    if plan.share is not None:
        notes.append(sample_note(design, n_rows, comparisons.rows))
    plot = np.concatenate(points) if points else np.zeros((0, 3))
    table, *per_group = comparisons.results()
    return ImpactResult(table, per_group, design, settings, plot, notes)


def _held_terms(ctx, design: Design):
    """The design's words for every row, from the profile's incidence when it holds them all (else None).

    A wide table's complete 0/1 columns are kept whole by the profile
    (:class:`~nblint.profile.incidence.Incidence`); reading 20,000 of them again, a chunk
    of rows at a time, cost more than the scoring. Their values are 1 (presence and
    count alike), as :func:`encode_chunk` reads them from the rows. A sparse matrix given
    as such is read from its own source as before.
    """
    gram = ctx.profile.gram
    if not design.terms or not gram.wide or ctx.source.matrix is not None:
        return None
    if any(term not in gram.binary for term in design.terms):
        return None
    held = gram.cooccurrence.B[:, [gram.binary.index(term) for term in design.terms]].tocsr().astype(np.float64)
    held.sort_indices()
    return held


def _local_passes(ctx, plan: Plan, comparisons: Comparisons, fold_counts: FoldCounts, points: list) -> None:
    """Both passes over the rows here, ``jobs`` windows at a time, their results added in row order."""
    size, k, n_rows, share = plan.size, plan.folds, ctx.profile.n_rows, plan.share
    # With a sample, the fold statistics (of every row) are gathered in windows of
    # their own: a many-class window of ``size`` rows is a few dozen rows.
    count_size = size if share is None else max(size, SCORE_CELLS // (plan.design.width + 2))

    def windows():
        """The table's encoded rows in windows of ``count_size`` rows, whatever the chunking."""
        return _regroup((plan.encode(chunk) for chunk in ctx.scan(plan.columns)), count_size)

    def counted() -> Iterator[RowInputs]:
        """A sample's windows to score, each window's fold statistics (every row) gathered as it goes by."""
        for window in windows():
            fold_counts.add(window, plan.fold_of(window.rows))
            yield plan.scored(window)

    # Pass 1: in-sample scores, and each fold's statistics.  The encoded windows are
    # kept for pass 2 when all of them fit in ENCODED_CACHE_BYTES, within a share of the
    # memory budget as a CSV's kept chunks are (they are compact codes; the first window
    # tells their size); else pass 2 reads and encodes the rows again, so memory stays bounded.
    # Windows are scored ``jobs`` at a time and their results added in row order.
    jobs = ctx.source.jobs
    cache_bytes = keep_limit(ENCODED_CACHE_BYTES, ctx.source.memory_budget)
    kept: list[RowInputs] | None = []
    kept_bytes = 0
    count = share is None  # without a sample, each window's fold statistics are gathered where it is scored
    to_score = windows() if count else _regroup(counted(), size)
    scored_rows = n_rows if count else max(1, int(share * n_rows))
    for window, result in ordered_map(
        lambda window: (window, plan.in_sample(window, count)), to_score, jobs, "nblint-impact"
    ):
        if kept is not None and not kept and window.nbytes / max(len(window), 1) * scored_rows > cache_bytes:
            kept = None
        comparisons.add_window(result)
        points.append(result.points)
        if count:
            assert result.folds is not None  # in_sample(window, count=True) gathers them
            fold_counts.merge(result.folds)
        if kept is not None:
            kept_bytes += window.nbytes
            if kept_bytes <= cache_bytes:
                kept.append(window)
            else:
                kept = None

    # Pass 2: k-fold cross-validation (fit on the other folds, score this one).  Each
    # fold's rows are regrouped into full windows of their own (so at most k windows
    # of encoded rows wait at a time).
    fold_models = plan.fold_models(fold_counts)

    def fold_windows() -> Iterator[tuple[int, RowInputs]]:
        by_fold = [_Regrouper(size) for _ in range(k)]
        for window in kept if kept is not None else map(plan.scored, windows()):
            folds = plan.fold_of(window.rows)
            for f, regrouper in enumerate(by_fold):
                for part in regrouper.add(window.take(np.flatnonzero(folds == f))):
                    yield f, part
        for f, regrouper in enumerate(by_fold):
            for part in regrouper.rest():
                yield f, part

    for post in ordered_map(
        lambda item: posteriors(fold_models[item[0]], item[1], confidence=False), fold_windows(), jobs, "nblint-impact"
    ):
        comparisons.cross_validated.add(post)


#: Float cells of the work arrays of one window (2**20 float64, 8 MiB): every
#: model's class-major log posteriors, (C, G + 2, n), and the encoded inputs.
#: ``jobs + 1`` windows are in flight (measured on the 1M x 65 bench table with
#: --jobs 2: peak 335-342 MiB at 2**20 cells, 346-376 MiB at 2**21, same speed).
SCORE_CELLS = 1 << 20


def _window_rows(design: Design) -> int:
    """Rows scored at once: as many as fit :data:`SCORE_CELLS`.

    A row takes C * (G + 2) cells of log posteriors and about one per encoded
    feature.
    """
    C, G = len(design.classes), len(design.groups)
    per_row = C * (FIRST_GROUP + G) + G + len(design.categorical) + len(design.gaussian) + bool(design.terms)
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

        def above(threshold: np.ndarray, ordered: np.ndarray = ordered) -> int:
            return int((C - np.searchsorted(ordered, threshold, side="right")).sum())

        total += above(theta[:, j])
        hits += above(nbmath.q_minus_j_at_centre(theta[:, j], K))
    return hits / total if total else 0.0
