"""The streamed comparison of CAT with each product-of-Bernoullis variant (NB401).

Each window of scored rows is reduced where it is scored (:class:`InSample`,
:class:`WindowScores`) and added in row order into the accumulators
(:class:`Scores`, :class:`Comparisons`), so every float sum is the same for any
chunking or engine; the excess confidence is streamed into an integer histogram.
DESIGN.md section 5 defines what is compared.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from nblint.engine.findings import EXAMPLE_ROWS
from nblint.impact.scoring import CAT, POB, Posteriors
from nblint.impact.statistics import FoldCounts

#: Resolution of the streamed histogram of excess confidence (percentiles exact to this).
EXCESS_BINS = 20_000


class Scores:
    """Streaming log-loss and accuracy of every model (indexed as in :data:`CAT`)."""

    def __init__(self, n_models: int):
        self.rows = 0
        self.log_loss_sum = np.zeros(n_models)
        self.correct = np.zeros(n_models, dtype=np.int64)
        self.gap_square_sum = np.zeros(n_models)
        self.cat_only_right = np.zeros(n_models, dtype=np.int64)

    def add(self, post: Posteriors | WindowScores) -> None:
        self.rows += post.argmax.shape[1] if isinstance(post, Posteriors) else post.rows
        self.log_loss_sum += post.log_loss
        self.correct += post.correct
        self.gap_square_sum += post.gap_square
        self.cat_only_right += post.cat_only_right

    def paired(self, model: int) -> dict:
        """How far model ``model``'s log-loss is above CAT's, row by row, and how sure that is.

        With d_i the difference of the two models' losses on row i (the same row, the
        same fold's fit), ``mean`` is the mean of d, ``standard_error`` its standard
        error (sample variance of d over n) and ``z`` their ratio: a large positive z
        (NB401's ``noise-z``) says CAT is the better model beyond the noise of which rows were drawn.
        ``z`` is None where a loss is infinite (alpha = 0 and a vetoed true class).
        """
        n = self.rows
        if n < 2:
            return {"mean": None, "standard_error": None, "z": None}
        with np.errstate(invalid="ignore", over="ignore"):
            mean = (self.log_loss_sum[model] - self.log_loss_sum[CAT]) / n
            variance = (self.gap_square_sum[model] - n * mean * mean) / (n - 1)
        if not (np.isfinite(mean) and np.isfinite(variance)):
            return {"mean": float(mean) if not np.isnan(mean) else None, "standard_error": None, "z": None}
        se = float(np.sqrt(max(variance, 0.0) / n))
        z = float(mean / se) if se > 0 else (0.0 if mean == 0 else float(np.copysign(1e9, mean)))
        return {"mean": float(mean), "standard_error": se, "z": z}

    def decisions(self, model: int) -> dict:
        """Rows only CAT classifies right against rows only model ``model`` does (McNemar's test).

        Under no difference between the two models' decisions each disagreeing row is
        a fair coin, so ``z`` = (a - b) / sqrt(a + b) is about standard normal; a large
        positive z (NB401's ``noise-z``) says CAT decides better beyond noise.
        """
        a = int(self.cat_only_right[model])
        b = a + int(self.correct[model]) - int(self.correct[CAT])
        z = (a - b) / float(np.sqrt(a + b)) if a + b else 0.0
        return {"collapsed_only_right": a, "bits_only_right": b, "z": z}

    def result(self, model: int) -> dict:
        if not self.rows:
            return {"log_loss": None, "accuracy": None}
        return {
            "log_loss": float(self.log_loss_sum[model]) / self.rows,
            "accuracy": int(self.correct[model]) / self.rows,
        }


def histogram_percentile(histogram: np.ndarray, q: float) -> float:
    """The ``q`` quantile of the excess confidence from its histogram (exact to a bin)."""
    cumulative = np.cumsum(histogram)
    k = int(np.searchsorted(cumulative, q * cumulative[-1]))
    return k / EXCESS_BINS - 1.0


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
        #: Each variant's 95th percentile of excess, when the histograms were summed elsewhere.
        self.p95: list[float] | None = None
        self.extra: list[dict] = [{} for _ in range(V)]

    def add_window(self, window: InSample) -> None:
        """Add one window's in-sample results (windows in row order: sums round as they did)."""
        self.in_sample.add(window.scores)
        self.rows += window.scores.rows
        self.map_differs += window.map_differs
        self.pob_more_confident += window.more_confident
        self.excess_sum += window.excess_sum
        if window.bins is not None:
            self.pending_bins.append(window.bins)
            self.pending_rows += window.scores.rows
            if self.pending_rows >= self.excess_hist.shape[1]:
                self._flush_bins()
        for v, rows in enumerate(window.examples):
            room = EXAMPLE_ROWS - len(self.example_rows[v])
            if room > 0:
                self.example_rows[v] += rows[:room]

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
        return histogram_percentile(self.excess_hist[v], q)

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
            "excess_p95": (self.p95[v] if self.p95 is not None else self.percentile(v, 0.95)) if self.rows else 0.0,
            "cat": {"in_sample": self.in_sample.result(CAT), "cross_validated": self.cross_validated.result(CAT)},
            "pob": {
                "in_sample": self.in_sample.result(POB + v),
                "cross_validated": self.cross_validated.result(POB + v),
            },
            # Bits minus collapsed, out of fold, paired by row: is CAT better beyond noise?
            "cross_validated_difference": self.cross_validated.paired(POB + v),
            "cross_validated_decisions": self.cross_validated.decisions(POB + v),
            "flipped_rows": self.example_rows[v],
            **self.extra[v],
        }


@dataclass
class WindowScores:
    """Every model's scores summed over a window of rows: what :class:`Scores` adds."""

    rows: int
    log_loss: np.ndarray  # (M,)
    correct: np.ndarray  # (M,)
    gap_square: np.ndarray  # (M,)
    cat_only_right: np.ndarray  # (M,)

    @classmethod
    def of(cls, post: Posteriors) -> WindowScores:
        return cls(post.argmax.shape[1], post.log_loss, post.correct, post.gap_square, post.cat_only_right)


@dataclass
class InSample:
    """What one window of pass 1 adds to the measurement, reduced over its rows.

    Windows are scored anywhere (threads, Dask workers) and added in row order
    (:meth:`Comparisons.add_window`, :meth:`FoldCounts.merge`), so every float sum
    is the same as adding row windows one after the other.  ``bins`` (each row's
    excess-confidence bin, (V, n)) feeds an integer histogram, which may be summed
    elsewhere in any order (then ``bins`` is None here).
    """

    scores: WindowScores
    map_differs: np.ndarray  # (V,)
    more_confident: np.ndarray  # (V,)
    excess_sum: np.ndarray  # (V,)
    bins: np.ndarray | None
    examples: list[list[int]]  # per variant: the first flipped rows (1-based), at most EXAMPLE_ROWS
    points: np.ndarray  # (p, 3): the plot's rows of this window
    folds: FoldCounts | None  # this window's rows' fold statistics

    @classmethod
    def of(cls, post: Posteriors, rows: np.ndarray, points: np.ndarray, folds: FoldCounts | None) -> InSample:
        """CAT against each variant on the window's rows (``rows``: their 0-based numbers)."""
        assert post.max is not None, "pass 1's windows are scored with their confidence"
        flipped = post.argmax[POB:] != post.argmax[CAT]
        excess = post.max[POB:] - post.max[CAT]
        index = np.clip(np.rint((excess + 1.0) * EXCESS_BINS).astype(np.int64), 0, 2 * EXCESS_BINS)
        return cls(
            WindowScores.of(post),
            flipped.sum(axis=1),
            # "Higher" beyond rounding: equal maxima (e.g. a group with no effect) are not counted.
            (excess > 1e-12).sum(axis=1),
            excess.sum(axis=1),
            index.astype(_BIN),
            [[int(r) + 1 for r in rows[row_flipped][:EXAMPLE_ROWS]] for row_flipped in flipped],
            points,
            folds,
        )
