"""NB401's two passes on a Dask cluster: rows scored where they live, sums added on the client.

The local engine (``_local_passes`` in :mod:`nblint.impact.measure`) scores the rows in
windows of ``plan.size`` rows cut from the stream of rows that have a target, and
adds each window's sums in row order; pass 2 does the same per cross-validation
fold, over each fold's rows, adding a fold's window when the pass-1 window holding
its last row has been read.  Here, with each partition's rows where the profile's pass
left them (:mod:`nblint.dask.parts`):

1. each partition counts its rows with a target, in all and per fold (one column read);
   the client lays the local engine's windows over the partitions (:func:`cuts`);
2. each partition encodes its rows and scores the windows that lie wholly in it, and
   cuts the pieces of the windows it shares with its neighbours, which stay on its
   worker; a window crossing partitions is assembled from its pieces on a worker.  Each
   window returns its sums (:class:`~nblint.impact.comparison.InSample` without the
   per-row bins, whose histograms are added up on the workers);
3. the client adds the windows' sums in window order, fits each fold's model, and pass 2
   encodes the rows again (no partition's encoded rows outlive the task that made them:
   memory on a worker does not grow with the rows) and scores each fold's windows the
   same way; the client adds them in the local engine's order.

The client receives kilobytes per window and one histogram, never rows; rows travel
between workers only in the pieces of the windows that cross partitions.
"""

from __future__ import annotations

import operator
from collections.abc import Iterator

import numpy as np

from nblint.dask.parts import part_chunks
from nblint.impact.comparison import EXCESS_BINS, WindowScores, histogram_percentile
from nblint.impact.design import RowInputs, class_codes
from nblint.impact.scoring import posteriors
from nblint.impact.statistics import FoldCounts


def cuts(start: int, end: int, total: int, size: int) -> Iterator[tuple[int, int, int, bool]]:
    """The windows of ``size`` positions over ``0..total`` that hold some of the positions ``start..end``.

    Yields (window, first, stop, whole): the window's number, the positions it holds
    counted from ``start`` (``first:stop``), and whether it lies wholly in ``start..end``.
    The last window of ``total`` is shorter.  Nothing for an empty ``start..end``.
    """
    if start >= end:
        return
    for window in range(start // size, -(-end // size)):
        low, high = window * size, min((window + 1) * size, total)
        yield window, max(low, start) - start, min(high, end) - start, start <= low and high <= end


def impact_passes(backend, plan, comparisons, fold_counts, points: list) -> None:
    """Run both passes of ``plan`` over the partitions ``backend`` (a :class:`~nblint.dask.backend.DaskBackend`) reaches."""
    import dask

    parts = backend.partitions(plan.columns)
    chunk_rows = backend.chunk_rows
    shared = dask.delayed(plan, traverse=False)  # (one copy sent to each worker, not one per task)
    sizes = backend.compute_all([dask.delayed(_sizes)(part, offset, chunk_rows, shared) for part, offset in parts])
    rows = [n for n, _ in sizes]  # rows with a target, per partition
    starts = [0, *np.cumsum(rows).tolist()]
    total, size = starts[-1], plan.size
    if not total:
        return

    # Pass 1: the in-sample windows.  Their integer parts (excess histograms, fold counts)
    # are summed on the workers; the client gets each window's float sums.
    scored = [
        dask.delayed(_in_sample_part)(part, offset, chunk_rows, shared, starts[p], starts[p + 1], total)
        for p, (part, offset) in enumerate(parts)
    ]
    crossing, histograms, counts = [], [], []
    for window, pieces in _crossing(scored, starts, total, size).items():
        result, histogram, fold_part = dask.delayed(_in_sample_window, nout=3)(shared, *pieces)
        crossing.append((window, result))
        histograms.append(histogram)
        counts.append(fold_part)
    for task in scored:
        histograms.append(dask.delayed(operator.itemgetter("histogram"))(task))
        counts.append(dask.delayed(operator.itemgetter("folds"))(task))
    p95 = dask.delayed(_percentiles)(_tree(np.add, histograms), 0.95)
    wholes = [dask.delayed(operator.itemgetter("windows"))(task) for task in scored]
    *results, p95, fold_total = backend.compute_all(
        [*wholes, *(result for _, result in crossing), p95, _tree(_add_counts, counts)]
    )
    in_windows = [pair for part in results[: len(wholes)] for pair in part]
    in_windows += [(window, result) for (window, _), result in zip(crossing, results[len(wholes) :])]
    fold_counts.add_counts(fold_total)
    for _, (result, sums) in sorted(in_windows, key=operator.itemgetter(0)):
        comparisons.add_window(result)
        points.append(result.points)
        fold_counts.add_sums(*sums)
    comparisons.p95 = p95

    # Pass 2: each fold's rows in windows of their own, scored by the fold's model.
    models = dask.delayed(plan.fold_models(fold_counts), traverse=False)
    per_fold = np.array([in_fold for _, in_fold in sizes], dtype=np.int64).reshape(len(parts), plan.folds)
    fold_starts = np.vstack([np.zeros((1, plan.folds), dtype=np.int64), np.cumsum(per_fold, axis=0)])
    fold_totals = fold_starts[-1].tolist()
    scored = [
        dask.delayed(_cross_validated_part)(
            part,
            offset,
            chunk_rows,
            shared,
            models,
            starts[p],
            fold_starts[p].tolist(),
            fold_starts[p + 1].tolist(),
            fold_totals,
        )
        for p, (part, offset) in enumerate(parts)
    ]
    fold_crossing = []
    for f in range(plan.folds):
        fold_bounds = fold_starts[:, f].tolist()
        for window, pieces in _crossing(scored, fold_bounds, fold_totals[f], size, f).items():
            fold_crossing.append(((f, window), dask.delayed(_fold_window)(models, f, *pieces)))
    wholes = [dask.delayed(operator.itemgetter("windows"))(task) for task in scored]
    results = backend.compute_all([*wholes, *(task for _, task in fold_crossing)])
    fold_windows = [item for part in results[: len(wholes)] for item in part]
    for ((f, window), _), (scores, last) in zip(fold_crossing, results[len(wholes) :]):
        fold_windows.append((f, window, last, scores))
    order = []
    for f, window, last, scores in fold_windows:
        # A full window is added when the pass-1 window holding its last row is read
        # (folds in order there); the last, shorter window of each fold at the end.
        full = min((window + 1) * size, fold_totals[f]) - window * size == size
        order.append(((last // size if full else float("inf"), f, window), scores))
    for _, scores in sorted(order, key=operator.itemgetter(0)):
        comparisons.cross_validated.add(scores)


def _crossing(scored: list, starts: list[int], total: int, size: int, fold: int | None = None) -> dict[int, list]:
    """Each window that crosses partitions: its pieces (delayed, on their workers), in row order.

    ``scored`` holds each partition's task, whose ``"pieces"`` are keyed by window (and fold);
    ``starts`` each partition's first position (and the end).
    """
    import dask

    crossing: dict[int, list] = {}
    for p, task in enumerate(scored):
        for window, _, _, whole in cuts(starts[p], starts[p + 1], total, size):
            if not whole:
                key = window if fold is None else (fold, window)
                piece = dask.delayed(_piece)(task, key)
                crossing.setdefault(window, []).append(piece)
    return crossing


def _tree(add, parts: list):
    """``parts`` summed pairwise, level by level, on the workers (one delayed result)."""
    import dask

    while len(parts) > 1:
        pairs = [dask.delayed(add)(parts[i], parts[i + 1]) for i in range(0, len(parts) - 1, 2)]
        parts = pairs + ([parts[-1]] if len(parts) % 2 else [])
    return parts[0]


# --------------------------------------------------------------------------- run on the workers


def _encoded(part, offset: int, chunk_rows: int, plan) -> RowInputs:
    """One partition's rows with a target, encoded for the models (rows numbered from the table's first)."""
    return RowInputs.concatenate([plan.encode(chunk) for chunk in part_chunks(part, offset, chunk_rows, plan.columns)])


def _sizes(part, offset: int, chunk_rows: int, plan) -> tuple[int, list[int]]:
    """Rows of a partition with a target, in all and in each fold (its target column read alone)."""
    n, folds = 0, np.zeros(plan.folds, dtype=np.int64)
    for chunk in part_chunks(part, offset, chunk_rows, [plan.target]):
        with_class = np.flatnonzero(class_codes(chunk.columns[0], plan.design.classes) >= 0)
        n += len(with_class)
        folds += np.bincount(plan.fold_of(chunk.row_offset + with_class), minlength=plan.folds)
    return n, folds.tolist()


def _in_sample_part(part, offset: int, chunk_rows: int, plan, start: int, end: int, total: int) -> dict:
    """Pass 1 over one partition, whose rows with a target are positions ``start..end`` of ``total``.

    ``"windows"``: (window, its sums) of each window wholly here; ``"histogram"`` and ``"folds"``:
    their excess histogram and fold counts, summed; ``"pieces"``: the rows of each window shared
    with a neighbour, by window.
    """
    encoded = _encoded(part, offset, chunk_rows, plan)
    windows, pieces = [], {}
    histogram = np.zeros((len(plan.design.groups) + 1, 2 * EXCESS_BINS + 1), dtype=np.int64)
    folds = FoldCounts(plan.totals, plan.folds)
    for window, first, stop, whole in cuts(start, end, total, plan.size):
        rows = encoded.take(slice(first, stop))
        if not whole:
            pieces[window] = rows
            continue
        result, counted, fold_part = _in_sample_window(plan, rows)
        windows.append((window, result))
        histogram += counted
        folds.add_counts(fold_part)
    return {"windows": windows, "histogram": histogram, "folds": folds, "pieces": pieces}


def _cross_validated_part(
    part, offset: int, chunk_rows: int, plan, models, start: int, fold_start: list, fold_end: list, fold_totals: list
) -> dict:
    """Pass 2 over one partition: each fold's rows here are positions ``fold_start[f]..fold_end[f]``
    of that fold's ``fold_totals[f]``; the partition's rows with a target begin at position ``start``.

    ``"windows"``: (fold, window, the pass-1 position of its last row, its sums) of each fold window
    wholly here; ``"pieces"``: the rows of each fold window shared with a neighbour, by (fold, window),
    with the pass-1 position of their last row.
    """
    encoded = _encoded(part, offset, chunk_rows, plan)
    in_fold = plan.fold_of(encoded.rows)
    windows, pieces = [], {}
    for f, model in models.items():  # (folds with rows, in order: an empty fold has no model)
        index = np.flatnonzero(in_fold == f)
        for window, first, stop, whole in cuts(fold_start[f], fold_end[f], fold_totals[f], plan.size):
            rows, last = encoded.take(index[first:stop]), start + int(index[stop - 1])
            if whole:
                windows.append((f, window, last, WindowScores.of(posteriors(model, rows, confidence=False))))
            else:
                pieces[(f, window)] = (rows, last)
    return {"windows": windows, "pieces": pieces}


def _piece(scored: dict, key):
    return scored["pieces"][key]


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


def _fold_window(models, fold: int, *pieces) -> tuple[WindowScores, int]:
    """Score one fold window assembled from its pieces with its fold's model: its sums, and the
    pass-1 position of its last row."""
    window = RowInputs.concatenate([rows for rows, _ in pieces])
    return WindowScores.of(posteriors(models[fold], window, confidence=False)), pieces[-1][1]
