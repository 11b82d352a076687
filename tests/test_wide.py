"""Wide tables: sparse co-occurrences find the same groups as the dense path, and say what they skip."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest
import scipy.sparse
from hypothesis import given, settings
from hypothesis import strategies as st
from tables import mixed_table, onehot

import nblint
from nblint import testing
from nblint.profile.incidence import Incidence
from nblint.profile.table import TableProfile
from nblint.readers import DataFrameSource
from nblint.structure.budget import Budget
from nblint.structure.duplicates import first_pairs, same_moments


def bag_of_words(seed: int = 0, n: int = 400, words: int = 300) -> tuple[pd.DataFrame, dict]:
    """Sparse 0/1 word columns (about 2% ones), two one-hot groups and a duplicated word, shuffled."""
    rng = np.random.default_rng(seed)
    bits = (rng.random((n, words)) < 0.02).astype(np.int8)
    frame = pd.DataFrame(bits, columns=[f"w{j:03d}" for j in range(words)])
    frame["w_copy"] = frame["w007"]
    groups = []
    for g, k in enumerate((3, 4)):
        names = [f"g{g}_{j}" for j in range(k)]
        frame = pd.concat([frame, onehot(rng.integers(0, k, n), k, names)], axis=1)
        groups.append(names)
    frame = frame[rng.permutation(frame.columns)]
    frame["y"] = rng.integers(0, 2, n)
    return frame, {"groups": groups, "identical": ["w007", "w_copy"]}


def test_wide_profile_keeps_the_incidence_and_no_dense_binary_block():
    frame, _ = bag_of_words()
    profile = TableProfile.from_source(DataFrameSource(frame, chunk_rows=64), "y", wide_binary=100)
    gram = profile.gram
    assert gram.wide and isinstance(gram.cooccurrence, Incidence)
    assert (
        scipy.sparse.issparse(gram.cooccurrence.B) and gram.cooccurrence.B.nnz == frame[list(gram.binary)].sum().sum()
    )
    assert len(gram.binary) == 308 and gram.comoment.shape == (0, 0)
    dense = TableProfile.from_source(DataFrameSource(frame, chunk_rows=64), "y").gram
    assert not dense.wide
    everything = range(len(gram.binary))
    np.testing.assert_array_equal(gram.block(everything), dense.cooccurrence)
    np.testing.assert_array_equal(gram.diagonal(), dense.diagonal())
    ones = frame[list(gram.binary)].to_numpy().sum(axis=1)
    np.testing.assert_array_equal(np.diff(gram.cooccurrence.B.indptr), ones)  # the rows, in order, across chunks


@pytest.mark.slow
def test_wide_search_finds_the_groups_and_duplicates_among_sparse_words():
    frame, truth = bag_of_words()
    wide = nblint.check(frame, target="y", select=["NB101", "NB105", "NB106"], options={"NB106": {"wide-columns": 100}})
    groups = [sorted(f.columns) for f in wide if f.code == "NB101"]
    assert sorted(groups) == sorted(sorted(g) for g in truth["groups"])
    # 300 sparse 0/1 words are a bag of words (issue 34: text at any size): two words that always occur
    # together are a phrase of the documents, never an NB105 warning (the one-hot groups beside them are)
    assert not [f for f in wide if f.code == "NB105" and str(f.severity) != "info" and "w_copy" in f.columns]
    notes = [f for f in wide if f.code == "NB106"]
    assert len(notes) == 1 and notes[0].evidence["wide"] and notes[0].evidence["binary_columns"] == 308
    assert "searched among its 128 most frequent 0/1 columns only" in notes[0].message
    # Read dense, the same words are a document-term block too: no group search among them runs out of
    # its budget (rare words exclusive by chance exhausted it when they were read as a table's columns).
    dense = nblint.check(frame, target="y", select=["NB101", "NB106"])
    assert sorted(sorted(f.columns) for f in dense if f.code == "NB101") == sorted(sorted(g) for g in truth["groups"])
    assert [f.message for f in dense if f.code == "NB106"] == [
        "VIF (NB104) leaves out the 308 words of the document-term block: linear dependencies among words are "
        "what any bag of words has"
    ]


def test_wide_and_dense_give_the_same_groups_and_duplicates_on_a_mixed_table():
    frame, truth = mixed_table(4, n=300)
    select = ["NB101", "NB105"]
    wide = nblint.check(frame, target="target", select=select + ["NB106"], options={"NB106": {"wide-columns": 5}})
    dense = nblint.check(frame, target="target", select=select)
    assert [f.to_dict() for f in wide if f.code != "NB106"] == [f.to_dict() for f in dense]
    assert {frozenset(f.columns) for f in dense if f.code == "NB101"} == {frozenset(g) for g in truth["onehot"]}


def test_a_row_with_no_bits_rules_out_every_group_in_wide_tables():
    frame, _ = bag_of_words()
    words = [c for c in frame.columns if c.startswith("w")]
    frame = frame[words + ["y"]].copy()
    frame.loc[5, words] = 0
    ctx = testing.context(frame, target="y", options={"NB106": {"wide-columns": 100}})  # wide past 100 bits
    assert ctx.profile.gram.cooccurrence.B[5].nnz == 0
    assert ctx.group_search.onehot == []


def zipf_words_and_groups(n: int, words: int, per_row: int, seed: int = 0) -> tuple[list[str], Incidence, list]:
    """An incidence of Zipf-distributed words (about ``per_row`` a row) beside one-hot groups of 3 and 5 levels."""
    rng = np.random.default_rng(seed)
    frequency = 1.0 / np.arange(1, words + 1)
    frequency /= frequency.sum()
    rows, cols = [], []
    for r in range(n):
        chosen = rng.choice(words, size=rng.poisson(per_row) + 1, replace=False, p=frequency)
        rows += [r] * len(chosen)
        cols += chosen.tolist()
    names = [f"w{j:05d}" for j in range(words)]
    groups = []
    for g, k in enumerate((3, 5)):
        codes = rng.integers(0, k, n)
        groups.append([f"g{g}_{j}" for j in range(k)])
        for j in range(k):
            rows += np.flatnonzero(codes == j).tolist()
            cols += [len(names)] * int((codes == j).sum())
            names.append(groups[-1][j])
    B = scipy.sparse.csr_matrix((np.ones(len(rows)), (rows, cols)), shape=(n, len(names)))
    return names, Incidence(B), groups


def test_the_wide_search_keeps_enough_rows_to_end_among_rare_words(monkeypatch):
    """Rare words, pairwise exclusive by the hundred, end the search early when enough rows are checked.

    With only the 32 sparsest rows as constraints, each start among the rarer words ran to its
    share of a 5,000-node budget; about a thousand rows end the whole search in a few hundred
    nodes. Which rows are kept changes the work, never the groups: every row gives the same.
    """
    from nblint.structure import onehot_sparse as search

    names, incidence, planted = zipf_words_and_groups(1000, 2000, 20)
    order = {name: i for i, name in enumerate(names)}
    searched = incidence.diagonal() >= 3

    def groups(kept_cells: int) -> tuple[list, bool]:
        monkeypatch.setattr(search, "KEPT_CELLS", kept_cells)
        found = search.find_onehot_groups_sparse(names, incidence, 1000, order, Budget(5000), searched)
        return [g.members for g in found.onehot], found.capped

    assert groups(search.KEPT_CELLS) == (planted, False)
    assert groups(10**9) == (planted, False)  # every row kept


def test_wide_passes_read_the_held_incidence_as_the_rows_would_give_it(monkeypatch):
    """Duplicate documents and NB401's words come from the profile's incidence on a wide table:
    the findings are those of the passes that read every column again."""
    from nblint.analysis.rows import RowFingerprints

    frame, truth = bag_of_words()
    frame.insert(0, "count", np.arange(len(frame)) % 7)  # a column outside the 0/1 block, read by the passes
    copies = frame.iloc[:6].copy()
    copies.loc[copies.index[:3], "y"] = 1 - copies["y"].iloc[:3]  # three documents again under the other label
    frame = pd.concat([frame, copies], ignore_index=True)
    options = {"NB106": {"wide-columns": 100}, "NB209": {"term-block": 100}}

    def findings():
        return [f.to_dict() for f in nblint.check(frame, target="y", options=options)]

    held = findings()
    monkeypatch.setattr(RowFingerprints, "add_held", lambda self, matrix, names: None)
    monkeypatch.setattr("nblint.impact.measure._held_terms", lambda ctx, design: None)
    assert held == findings()
    codes = {f["code"] for f in held}
    assert {"NB209", "NB401"} <= codes
    nb209 = next(f for f in held if f["code"] == "NB209")
    assert nb209["evidence"]["conflicting_sets"] == 3 and nb209["evidence"]["sets"] == 6
    assert sorted(sorted(f["columns"]) for f in held if f["code"] == "NB101") == sorted(
        sorted(g) for g in truth["groups"]
    )


def every_pair_sorted(groups, partners, text) -> list[tuple[str, str]]:
    """The plain listing :func:`first_pairs` must cut: every allowed pair of every group, then one sort."""

    def may_pair(a, b):  # (integer codes only beside a column of words)
        if a in partners:
            return b in text
        if b in partners:
            return a in text
        return True

    pairs = []
    for group in groups:
        members = sorted(group)
        pairs += [(a, b) for i, a in enumerate(members) for b in members[i + 1 :] if may_pair(a, b)]
    return sorted(pairs)


@settings(max_examples=200, deadline=None)
@given(
    names=st.lists(st.text(alphabet="abc01", min_size=1, max_size=4), unique=True, max_size=24),
    data=st.data(),
)
def test_first_recode_pairs_are_the_head_of_every_pair_sorted_and_the_total_its_length(names, data):
    """Columns in few groups (ties of level-count signatures), codes and words overlapping, a cap below and above."""
    group_of = data.draw(st.lists(st.integers(0, 3), min_size=len(names), max_size=len(names)))
    groups = [[n for n, g in zip(names, group_of) if g == k] for k in range(4)]
    groups = [g for g in groups if g]
    partners = set(data.draw(st.lists(st.sampled_from(names), unique=True) if names else st.just([])))
    text = set(data.draw(st.lists(st.sampled_from(names), unique=True) if names else st.just([])))
    limit = data.draw(st.integers(0, 300))
    listing = every_pair_sorted(groups, partners, text)
    found = first_pairs(groups, partners, text, limit)
    assert found.first == listing[:limit]
    assert found.total == len(listing)


def same_moments_dense(mean, M) -> list[list[int]]:
    """The plain test :func:`same_moments` must equal: every pair at once, then the greedy sets."""
    d = np.sqrt(np.abs(np.diag(M)))
    scale = np.outer(d, d) + 1e-300
    close = (np.abs(M - np.diag(M)[:, None]) <= 1e-9 * scale) & (np.abs(M - np.diag(M)[None, :]) <= 1e-9 * scale)
    close &= np.abs(mean[:, None] - mean[None, :]) <= 1e-12 * (1 + np.abs(mean[:, None]))
    taken: set[int] = set()
    sets = []
    for a in range(len(mean)):
        if a in taken:
            continue
        partners = [int(b) for b in np.flatnonzero(close[a]) if b >= a and b not in taken]
        taken.update(partners)
        if len(partners) > 1:
            sets.append(partners)
    return sets


@settings(max_examples=200, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    n_base=st.integers(1, 4),
    n_columns=st.integers(0, 30),
    nudge=st.sampled_from([0.0, 1e-15, 1e-13, 1e-11, 1e-9, 1e-6]),
    scale=st.sampled_from([1e-8, 1.0, 1e6, 1e12]),
    odd=st.sampled_from([None, np.nan, np.inf, -np.inf]),
)
def test_same_moments_are_the_sets_the_dense_comparison_gives(seed, n_base, n_columns, nudge, scale, odd):
    """Copies of few columns (ties of means), copies shifted or scaled by a hair, a column not finite."""
    rng = np.random.default_rng(seed)
    base = rng.integers(0, 4, (12, n_base)).astype(float) * scale
    pick = rng.integers(0, n_base, n_columns)
    X = base[:, pick] * (1 + nudge * rng.integers(-1, 2, n_columns)) + nudge * scale * rng.integers(-1, 2, n_columns)
    mean = X.mean(axis=0)
    M = (X - mean).T @ (X - mean)
    if odd is not None and n_columns:
        j = int(rng.integers(0, n_columns))
        mean[j] = odd
        M[j, :] = M[:, j] = odd if rng.random() < 0.5 else M[j, j]
    gram = SimpleNamespace(mean=mean, comoment=M)
    with np.errstate(invalid="ignore"):  # (inf - inf, in both: what is compared is the sets)
        assert same_moments(gram, np.arange(n_columns)) == same_moments_dense(mean, M)
        # (the columns of a key are some of the gram's, in any order)
        order = rng.permutation(n_columns)
        assert same_moments(gram, order) == same_moments_dense(mean[order], M[np.ix_(order, order)])
