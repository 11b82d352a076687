"""NB401's two passes on a Dask cluster: rows scored where they live, sums added on the client.

The local engine (``_local_passes`` in :mod:`nblint.impact.measure`) scores the rows in
windows of ``plan.size`` rows cut from the stream of rows that have a target, and
adds each window's sums in row order; pass 2 does the same per cross-validation
fold, over each fold's rows, adding a fold's window when the pass-1 window holding
its last row has been read.  Here:

1. each partition's rows are encoded on its worker and kept there (``persist``);
   the client learns how many rows each holds, in all and per fold;
2. the client lays out the same windows over the partitions; a window inside one
   partition is scored where it lives, one crossing partitions is assembled from
   slices on a worker; each returns its sums (:class:`~nblint.impact.comparison.InSample`
   without the per-row bins, whose histograms are added up on the workers);
3. the client adds the windows' sums in window order, fits each fold's model, and
   the fold windows are scored the same way and added in the local engine's order.

The client receives kilobytes per window and one histogram, never rows.
"""

from __future__ import annotations

import numpy as np

from nblint.impact.comparison import EXCESS_BINS, WindowScores, histogram_percentile
from nblint.impact.design import RowInputs
from nblint.impact.scoring import posteriors
from nblint.readers import DataFrameSource


def impact_passes(backend, plan, comparisons, fold_counts, points: list) -> None:
    """Run both passes of ``plan`` over the partitions ``backend`` (a :class:`~nblint.dask.backend.DaskBackend`) reaches."""
    import dask

    encoded = backend.persist(
        [
            dask.delayed(_encode_partition)(part, offset, backend.chunk_rows, plan)
            for part, offset in backend.partitions(plan.columns)
        ]
    )
    sizes = backend.compute_all([dask.delayed(_fold_sizes)(e, plan) for e in encoded])
    rows = [n for n, _ in sizes]  # rows with a target, per partition
    starts = np.concatenate([[0], np.cumsum(rows)]).astype(np.int64)

    # Pass 1: the in-sample windows.  Their integer parts (excess histograms, fold
    # counts) are summed on the workers; the client gets each window's float sums.
    tasks, histograms, counts = [], [], []
    for begin in range(0, int(starts[-1]), plan.size):
        pieces = _pieces(encoded, starts, begin, min(begin + plan.size, int(starts[-1])))
        result, histogram, fold_part = dask.delayed(_in_sample_window, nout=3)(plan, *pieces)
        tasks.append(result)
        histograms.append(histogram)
        counts.append(fold_part)
    if not tasks:
        return
    p95 = dask.delayed(_percentiles)(_tree(np.add, histograms), 0.95)
    *results, p95, fold_total = backend.compute_all(tasks + [p95, _tree(_add_counts, counts)])
    fold_counts.add_counts(fold_total)
    for result, sums in results:
        comparisons.add_window(result)
        points.append(result.points)
        fold_counts.add_sums(*sums)
    comparisons.p95 = p95

    # Pass 2: each fold's rows in windows of their own, scored by the fold's model.
    fold_models = plan.fold_models(fold_counts)
    tasks, keys = [], []
    for f in range(plan.folds):
        in_fold = np.array([per_fold[f] for _, per_fold in sizes], dtype=np.int64)
        fold_starts = np.concatenate([[0], np.cumsum(in_fold)])
        total = int(fold_starts[-1])
        for j, begin in enumerate(range(0, total, plan.size)):
            end = min(begin + plan.size, total)
            pieces = []
            for p in range(len(encoded)):
                a, b = max(begin, fold_starts[p]) - fold_starts[p], min(end, fold_starts[p + 1]) - fold_starts[p]
                if a < b:
                    pieces.append((p, dask.delayed(_fold_rows)(encoded[p], plan, f, int(a), int(b))))
            last = pieces[-1][0]  # the partition of the window's last row
            tasks.append(dask.delayed(_fold_window)(fold_models[f], *(piece for _, piece in pieces)))
            # A full window is added when the pass-1 window holding its last row is read
            # (folds in order there); the last, shorter window of each fold at the end.
            keys.append((last, f, j, end - begin == plan.size))
    scored = backend.compute_all(tasks)
    order = []
    for (last, f, j, full), (scores, position) in zip(keys, scored):
        window = (int(starts[last]) + position) // plan.size if full else float("inf")
        order.append(((window, f, j), scores))
    for _, scores in sorted(order, key=lambda item: item[0]):
        comparisons.cross_validated.add(scores)


def _tree(add, parts: list):
    """``parts`` summed pairwise, level by level, on the workers (one delayed result)."""
    import dask

    while len(parts) > 1:
        pairs = [dask.delayed(add)(parts[i], parts[i + 1]) for i in range(0, len(parts) - 1, 2)]
        parts = pairs + ([parts[-1]] if len(parts) % 2 else [])
    return parts[0]


def _pieces(encoded: list, starts: np.ndarray, begin: int, end: int) -> list:
    """The delayed row slices making rows ``begin:end`` (positions among rows with a target)."""
    import dask

    pieces = []
    for p, part in enumerate(encoded):
        a, b = max(begin, starts[p]) - starts[p], min(end, starts[p + 1]) - starts[p]
        if a < b:
            pieces.append(dask.delayed(_take)(part, int(a), int(b)))
    return pieces


# --------------------------------------------------------------------------- run on the workers


def _encode_partition(frame, offset: int, chunk_rows: int, plan) -> RowInputs:
    """One partition's rows, encoded for the models (rows numbered from the table's first)."""
    source = DataFrameSource.part(frame, offset, chunk_rows)
    parts = [plan.encode(chunk) for chunk in source.chunks(plan.columns)]
    return RowInputs.concatenate(parts)


def _fold_sizes(encoded: RowInputs, plan) -> tuple[int, list[int]]:
    """Rows of a partition, in all and in each fold."""
    folds = plan.fold_of(encoded.rows)
    return len(encoded), np.bincount(folds, minlength=plan.folds).tolist()


def _take(encoded: RowInputs, a: int, b: int) -> RowInputs:
    return encoded.take(slice(a, b))


def _in_sample_window(plan, *pieces: RowInputs):
    """Score one window: (its sums with its fold statistics' float sums), the histogram of
    its rows' excess-confidence bins, and its fold counts (the integer parts)."""
    result = plan.in_sample(RowInputs.concatenate(list(pieces)))
    histogram = np.stack([np.bincount(bins, minlength=2 * EXCESS_BINS + 1) for bins in result.bins])
    folds = result.folds
    result.bins = result.folds = None
    return (result, (folds.sum, folds.sumsq)), histogram, folds


def _add_counts(a, b):
    a.add_counts(b)
    return a


def _percentiles(histogram: np.ndarray, q: float) -> list[float]:
    return [histogram_percentile(h, q) for h in histogram]


def _fold_rows(encoded: RowInputs, plan, fold: int, a: int, b: int) -> tuple[RowInputs, int]:
    """Rows ``a:b`` of one fold in a partition, and the partition position of the last."""
    index = np.flatnonzero(plan.fold_of(encoded.rows) == fold)[a:b]
    return encoded.take(index), int(index[-1])


def _fold_window(model, *pieces) -> tuple[WindowScores, int]:
    """Score one fold window with its fold's model: its sums, and where its last row was."""
    window = RowInputs.concatenate([rows for rows, _ in pieces])
    return WindowScores.of(posteriors(model, window)), pieces[-1][1]
