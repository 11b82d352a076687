"""The profile merges: chunked profiling gives the same findings as profiling whole."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tables import mixed_table

from nblint import testing
from nblint.engine import load_rules, run_rules
from nblint.profile.table import TableProfile
from nblint.readers import DataFrameSource


def findings_json(frame, chunk_rows, target="target"):
    ctx = testing.context(DataFrameSource(frame, chunk_rows=chunk_rows), target=target)
    return [f.to_dict() for f in run_rules(ctx, list(load_rules()), ctx.rule_options)]


@pytest.mark.slow
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), chunk_rows=st.integers(1, 120))
def test_chunked_profile_gives_the_same_findings_as_whole(seed, chunk_rows):
    frame, _ = mixed_table(seed, n=240)
    whole = findings_json(frame, chunk_rows=len(frame))
    chunked = findings_json(frame, chunk_rows=chunk_rows)
    assert chunked == whole
    assert {f["code"] for f in whole} >= {"NB101", "NB102", "NB104", "NB105"}


@settings(max_examples=25, deadline=None)
@given(
    values=st.lists(
        st.tuples(
            st.integers(0, 3),
            st.floats(-1e6, 1e6, allow_nan=False),
            st.sampled_from(["a", "b", None]),
            st.integers(0, 1),
            st.integers(0, 1),
            st.sampled_from(["u", "v", "w"]),
        ),
        min_size=2,
        max_size=60,
    ),
    cut=st.integers(1, 59),
)
def test_merge_equals_whole_statistics(values, cut):
    # k is 0/1 in one part and not in the other at times (the merge re-splits the
    # Gram); b0 and b1 are 0/1 throughout (their co-moments come from the counts).
    frame = pd.DataFrame(values, columns=["k", "x", "t", "b0", "b1", "y"])
    cut = min(cut, len(frame) - 1)
    whole = TableProfile.from_source(DataFrameSource(frame, chunk_rows=len(frame)), "y")
    first = TableProfile.from_source(DataFrameSource(frame.iloc[:cut].reset_index(drop=True)), "y")
    second = TableProfile.from_source(DataFrameSource(frame.iloc[cut:].reset_index(drop=True)), "y")
    for merged in (first.merge(second), second.merge(first)):
        assert merged.classes == whole.classes
        np.testing.assert_array_equal(merged.class_count, whole.class_count)
        np.testing.assert_array_equal(merged.numeric.class_n, whole.numeric.class_n)
        np.testing.assert_allclose(merged.numeric.class_mean, whole.numeric.class_mean, rtol=1e-9, atol=1e-6)
        np.testing.assert_allclose(merged.numeric.class_m2, whole.numeric.class_m2, rtol=1e-9, atol=1e-3)
        for column in ("k", "t"):
            a, b = merged.levels(column), whole.levels(column)
            assert a.keys == b.keys
            np.testing.assert_array_equal(a.table, b.table)
        assert merged.n_missing("t") == whole.n_missing("t")
        np.testing.assert_allclose(merged.gram.comoment, whole.gram.comoment, rtol=1e-9, atol=1e-3)
        assert merged.gram.binary == whole.gram.binary
        np.testing.assert_array_equal(merged.gram.cooccurrence, whole.gram.cooccurrence)
    # A merge that is not in place leaves both parts as they were.
    np.testing.assert_array_equal(first.merge(second).gram.cooccurrence, merged.gram.cooccurrence)


def test_in_place_merge_of_a_running_total_equals_plain_merges():
    rng = np.random.default_rng(3)
    frame = pd.DataFrame({f"b{j}": rng.integers(0, 2, 300) for j in range(5)} | {"y": rng.integers(0, 3, 300)})
    parts = [
        TableProfile.from_source(DataFrameSource(frame.iloc[i : i + 50].reset_index(drop=True)), "y")
        for i in range(0, 300, 50)
    ]
    plain = parts[0]
    for part in parts[1:]:
        plain = plain.merge(part)
    first = parts[0].gram.counts.copy()
    running = parts[0]
    for part in parts[1:]:
        running = running.merge(part, in_place=True)
    np.testing.assert_array_equal(running.gram.cooccurrence, plain.gram.cooccurrence)
    np.testing.assert_array_equal(
        plain.gram.cooccurrence, frame.drop(columns="y").T.values @ frame.drop(columns="y").values
    )
    assert not np.array_equal(parts[0].gram.counts, first)  # the running total's first part was reused


def test_class_labels_are_sorted_whatever_the_chunk_order():
    frame = pd.DataFrame({"x": [1.0, 2.0, 3.0, 4.0], "y": ["zeta", "alpha", "mid", "alpha"]})
    profile = TableProfile.from_source(DataFrameSource(frame, chunk_rows=1), "y")
    assert profile.classes == ("alpha", "mid", "zeta")
    assert profile.class_count.tolist() == [2, 1, 1]


def test_missing_target_rows_are_counted_but_not_classed():
    frame = pd.DataFrame({"x": [1.0, 2.0, 3.0], "y": ["a", None, "b"]})
    profile = TableProfile.from_source(DataFrameSource(frame), "y")
    assert profile.target_missing == 1
    assert profile.class_count.tolist() == [1, 1]
    assert profile.levels("x").totals.sum() == 3


@settings(max_examples=200, deadline=None)
@given(
    st.integers(1, 40),
    st.lists(st.tuples(st.integers(0, 5000), st.integers(-60, 10**9), st.integers(0, 39)), max_size=300),
)
def test_a_sparse_block_sorts_its_entries_as_a_three_key_sort_would(slots, entries):
    """The packed-integer sort of the level tables: by column, then value, then class slot, each distinct
    triple once with its entries (the runs of a three-key sort), from the values as floats or as integers."""
    from nblint.profile.sparse import _sorted_cells

    c = np.array([e[0] for e in entries], dtype=np.int64)
    v = np.array([float(e[1]) for e in entries])
    k = np.array([e[2] % slots for e in entries], dtype=np.int64)
    expected = _three_key_runs(c, v, k)
    assert [a.tolist() for a in _sorted_cells(c, v, k, slots, whole=True)] == expected
    assert [a.tolist() for a in _sorted_cells(c, v.astype(np.int64), k, slots, whole=True)] == expected


def _three_key_runs(c, v, k) -> list[list]:
    """The oracle of the level tables' cells: a three-key sort, and the runs of equal (c, v, k) in it."""
    order = np.lexsort((k, v, c))
    runs: dict = {}
    for triple in zip(c[order].tolist(), v[order].tolist(), k[order].tolist()):
        runs[triple] = runs.get(triple, 0) + 1
    return [[t[0] for t in runs], [t[1] for t in runs], [t[2] for t in runs], list(runs.values())]


@settings(max_examples=200, deadline=None)
@given(
    st.integers(1, 40),
    st.lists(
        st.tuples(
            st.integers(0, 5000),
            st.floats(-1e6, 1e6, allow_nan=False).filter(lambda x: x != 0) | st.sampled_from([0.5, 0.25, 1e-9]),
            st.integers(0, 39),
        ),
        max_size=300,
    ),
)
def test_a_sparse_block_of_weights_sorts_its_entries_as_a_three_key_sort_would(slots, entries):
    """Weights that are not whole (tf-idf) are packed by their rank: the same cells as sorting by three keys."""
    from nblint.profile.sparse import _sorted_cells

    c = np.array([e[0] for e in entries], dtype=np.int64)
    v = np.array([e[1] for e in entries], dtype=np.float64)
    k = np.array([e[2] % slots for e in entries], dtype=np.int64)
    assert [a.tolist() for a in _sorted_cells(c, v, k, slots)] == _three_key_runs(c, v, k)


@settings(max_examples=100, deadline=None)
@given(
    rows=st.integers(2, 60),
    columns=st.integers(1, 12),
    classes=st.integers(1, 9),
    values=st.sampled_from(["counts", "signed", "weights"]),
    seed=st.integers(0, 2**16),
)
def test_a_sparse_blocks_packed_levels_read_as_its_columns_tables_one_by_one(rows, columns, classes, values, seed):
    """The packed levels keep only non-empty class cells; every reader of them agrees with the dense tables.

    The oracle is each column's :class:`~nblint.profile.levels.Levels` made alone (a dense
    levels x slots table): the table, the rows of the level 0, the rows below 0, the best
    reading of the levels and the single-class levels read for all columns at once must equal
    what the same readers give over the list of those tables.
    """
    from scipy import sparse

    from nblint.profile.levels import PackedLevels, counts_below, key_counts, level_reading_right
    from nblint.readers.memory import table_source
    from nblint.structure.leakage import _packed_single_levels

    rng = np.random.default_rng(seed)
    X = rng.integers(0, 4, (rows, columns)) * (rng.random((rows, columns)) < 0.4)
    if values == "signed":
        X = X * rng.choice([-1, 1], (rows, columns))
    X = X.astype(np.float64) / (3.0 if values == "weights" else 1.0)
    y = rng.integers(0, classes, rows)
    names = [f"w{j:02d}" for j in range(columns)]  # (the profile's name order is the matrix's)
    source, target = table_source(sparse.csr_matrix(X), y, feature_names=names)
    profile = TableProfile.from_source(source, target)
    levels, labels = profile.numeric.levels, profile.classes
    classes = len(labels)
    assert isinstance(levels, PackedLevels)
    tables = [levels[j] for j in range(len(levels))]  # (each made alone from its cells)
    slots = levels.slots
    for j, lv in enumerate(tables):
        if lv is None:
            continue
        start, stop = int(levels.bounds[j]), int(levels.bounds[j + 1])
        assert np.array_equal(levels.table[start:stop], lv.table)
        column = X[:, j]
        for key, row in zip(lv.keys, lv.table):
            assert row[:classes].tolist() == [int(np.sum((column == key) & (y == label))) for label in labels]
    for key in (0.0, 1.0):
        assert np.array_equal(key_counts(levels, key, slots), key_counts(tables, key, slots))
    for inclusive in (False, True):
        got = counts_below(levels, 0.0, slots, inclusive=inclusive)
        assert np.array_equal(got, counts_below(tables, 0.0, slots, inclusive=inclusive))
    assert np.array_equal(level_reading_right(levels, classes), level_reading_right(tables, classes))
    tests, singles = _packed_single_levels(levels, classes, 2)
    for j, lv in enumerate(tables):
        if lv is None:
            assert tests[j] == -1
            continue
        counts = lv.table[:, :classes]
        big = counts.sum(axis=1) >= 2
        assert tests[j] == int(big.sum())
        expected = [
            (key, int(row.argmax()), int(row.sum()))
            for key, row, b in zip(lv.keys, counts, big)
            if b and (row > 0).sum() == 1
        ]
        assert singles.get(j, []) == expected
    # Merging two parts of a table moves each part's class slots among the union's classes (an increasing map,
    # the missing-target slot last): every column at once, as each column's remap_levels would.
    from nblint.profile.levels import remap_levels

    union = classes + int(rng.integers(0, 4))
    slot_map = np.append(np.sort(rng.choice(union, classes, replace=False)), union).astype(np.int64)
    moved = levels.remapped(slot_map, union)
    for j, lv in enumerate(tables):
        alone = remap_levels(lv, slot_map, union)
        assert (moved[j] is None) == (alone is None)
        if alone is not None:
            assert moved[j].keys == alone.keys and np.array_equal(moved[j].table, alone.table)


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 12), st.integers(1, 15), st.floats(0.0, 1.0), st.integers(0, 2**32 - 1))
def test_a_permutation_of_a_blocks_columns_is_scipys_column_slice_entry_for_entry(rows, cols, density, seed):
    # in_name_order renumbers the entries of a CSR block (readers.sparse.columns_taken), and a sparse source
    # drops its empty columns so (sharing the arrays): the arrays must be those scipy's column slice gives,
    # in the same entry order (its sums run in that order).
    from scipy import sparse

    from nblint.readers.sparse import columns_taken

    rng = np.random.default_rng(seed)
    matrix = sparse.random(rows, cols, density=density, format="csr", random_state=rng)
    order = rng.permutation(cols)
    filled = np.flatnonzero(np.bincount(matrix.indices, minlength=cols))
    for got, expected in (
        (columns_taken(matrix, order), matrix[:, order]),
        (columns_taken(matrix, filled, copy=False), matrix[:, filled]),
    ):
        assert got.shape == expected.shape
        for field in ("indptr", "indices", "data"):
            assert np.array_equal(getattr(got, field), getattr(expected, field))


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.integers(-(2**62), 2**62), max_size=40),
    st.sampled_from([np.int8, np.int32, np.int64, np.uint8, np.uint64]),
    st.lists(st.integers(0, 40), max_size=6),
)
def test_hashes_of_counts_and_their_sums_per_segment_are_the_plain_ones(values, dtype, cuts):
    # core.hashing: counts are hashed through a table of their span (whole_hashes), and the order-free
    # hashes are summed per row or column with one reduceat (segment_sums): each must be what hashing every
    # value's float64 bits and a Python sum mod 2^64 of each segment give.
    from nblint.core.hashing import mix64, segment_sums, whole_hashes

    info = np.iinfo(dtype)
    counts = np.array([min(max(v, info.min), int(info.max)) for v in values], dtype=dtype)
    if len(counts) > 3:
        counts[: len(counts) // 2] %= 7  # (small spans too: the table's path)
    expected = mix64(counts.astype(np.float64).view(np.uint64))
    assert np.array_equal(whole_hashes(counts), expected)
    bounds = np.array([0] + sorted(min(c, len(counts)) for c in cuts) + [len(counts)])
    sums = [sum(int(h) for h in expected[a:b]) % 2**64 for a, b in zip(bounds[:-1], bounds[1:])]
    assert segment_sums(expected, bounds).tolist() == sums
