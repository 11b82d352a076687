"""The drop-first search's pruning (issue 39 item 8): its shortcuts change no set, and its work is charged.

The oracle is the search without its shortcuts: the pruning walked member by member from every
clique (:class:`Walked`), and the near-set search over the whole graph. Tables of rare flags on
few rows are exclusive by chance everywhere, so their cliques are many and mostly fall apart;
the names carry stems sometimes, so that ties by name are met too.
"""

from __future__ import annotations

from unittest import mock

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nblint.structure import exclusive
from nblint.structure.budget import Budget
from nblint.structure.cliques import maximal_cliques
from nblint.structure.dummy_search import DummySearch


class Walked(DummySearch):
    """The search with every set pruned step by step (no set is known to fall whole)."""

    def falls_whole(self, members, strongest):
        return False

    def cliques_falling_whole(self, sets):
        return np.zeros(len(sets), dtype=bool)


WORDS = "apple brick cloud dune ember fjord grove heron inlet juniper kelp lichen moss nettle".split()


@st.composite
def flag_tables(draw):
    """0/1 columns with few ones each on few rows (most pairs exclusive), named by stems or by words."""
    n = draw(st.integers(8, 60))
    b = draw(st.integers(2, len(WORDS)))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    most = draw(st.integers(1, max(1, n // 3)))
    X = np.zeros((n, b), dtype=np.int64)
    for j in range(b):
        X[rng.choice(n, size=int(rng.integers(1, most + 1)), replace=False), j] = 1
    if draw(st.booleans()):  # a drop-first group among the flags: each row one level, or the reference (0)
        levels = int(rng.integers(2, min(b, 5) + 1))
        codes = rng.integers(0, levels + 1, n)
        X[:, :levels] = codes[:, None] == np.arange(1, levels + 1)[None, :]
    if draw(st.booleans()):  # names with stems, so that some members are tied by their names
        names = [f"{('color', 'size', 'shape')[j % 3]}_{j}" for j in range(b)]
    else:
        names = WORDS[:b]
    return names, X.T @ X, n


def both_searches(names, O, n, min_evidence):
    fast, walked = Budget(10**7), Budget(10**7)
    found = DummySearch(names, O, n, tuple(names), min_evidence).choose(fast)
    reference = Walked(names, O, n, tuple(names), min_evidence).choose(walked)
    return found, reference, fast, walked


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(flag_tables(), st.sampled_from([2.0, 5.0, 7.0, 13.8]))
def test_sets_known_to_fall_whole_are_the_sets_the_walk_empties(table, min_evidence):
    """The shortcuts (a set no member of which can stay, told without walking it) choose the same sets."""
    names, O, n = table
    found, reference, fast, walked = both_searches(names, O, n, min_evidence)
    assert found == reference
    # what the walk would have weighed and the shortcut did not is work not done, not work uncharged
    assert fast.left >= walked.left and not fast.exhausted and not walked.exhausted


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(flag_tables(), st.sampled_from([2.0, 7.0, 13.8]))
def test_each_set_the_arrays_call_fallen_is_fallen_for_the_scalar_test_and_emptied_by_the_walk(table, min_evidence):
    names, O, n = table
    search = DummySearch(names, O, n, tuple(names), min_evidence)
    cliques = maximal_cliques(search.exclusive, search.order, Budget())
    walk = Walked(names, O, n, tuple(names), min_evidence)
    for clique, falls in zip(cliques, search.cliques_falling_whole(cliques)):
        if falls:
            assert walk.prune(clique, Budget()) == []
            ones = [search.ones[k] for k in clique]
            strongest = max(search.member_evidence(c, sum(ones) - c) for c in ones)
            assert search.falls_whole(clique, strongest)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(flag_tables(), st.sampled_from([0.05, 0.2, 0.5]))
def test_near_sets_over_the_columns_that_can_cover_are_the_near_sets_over_all(table, max_share):
    names, O, n = table
    found = exclusive.near_sets(names, O, n, max_share, Budget(10**7))
    with mock.patch.object(exclusive, "can_cover", lambda near, s, least: near.any(axis=1)):
        reference = exclusive.near_sets(names, O, n, max_share, Budget(10**7))
    assert found == reference


def test_the_pruning_spends_the_budget_and_a_search_it_runs_out_says_so():
    """Weighing a set the walk meets costs a node, as a node of the clique search does: a budget the
    cliques alone fit in runs out in the pruning, and the search is said to be cut (NB106)."""
    rng = np.random.default_rng(3)
    n, b = 40, 14
    X = np.zeros((n, b), dtype=np.int64)
    for j in range(b):
        X[rng.choice(n, size=3, replace=False), j] = 1
    names, O = [f"f{j:02d}" for j in range(b)], X.T @ X
    cliques_alone = Budget(10**7)
    maximal_cliques(DummySearch(names, O, n, tuple(names), 2.0).exclusive, list(range(b)), cliques_alone)
    spent_on_cliques = 10**7 - cliques_alone.left
    whole = Budget(10**7)
    Walked(names, O, n, tuple(names), 2.0).choose(whole)
    assert 10**7 - whole.left > spent_on_cliques  # (this table's walks weigh sets the cliques did not pay for)
    cut = Budget(spent_on_cliques)
    Walked(names, O, n, tuple(names), 2.0).choose(cut)
    assert cut.exhausted
