"""0/1 columns that imply another (:mod:`nblint.structure.implication`, NB105's implications)."""

from __future__ import annotations

from math import comb, log

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from nblint.structure.implication import implied_columns, log_chance_inside


def _cooccurrence(frame: dict[str, np.ndarray]) -> tuple[list[str], np.ndarray]:
    names = list(frame)
    X = np.column_stack([frame[n] for n in names]).astype(np.int64)
    return names, X.T @ X


def _chain(n: int = 400, seed: int = 0) -> dict[str, np.ndarray]:
    """``small`` within ``middle`` within ``large``, and an independent ``other``."""
    rng = np.random.default_rng(seed)
    large = (rng.random(n) < 0.6).astype(int)
    middle = large * (rng.random(n) < 0.6)
    small = middle * (rng.random(n) < 0.5)
    return {"large": large, "middle": middle, "small": small, "other": (rng.random(n) < 0.5).astype(int)}


def test_the_chance_of_falling_inside_is_the_hypergeometric_one():
    # C(s_b, s_a) / C(n, s_a): all s_a random rows of n land among the s_b given rows.
    assert np.isclose(log_chance_inside(np.array([3]), np.array([10]), 40)[0], log(comb(10, 3) / comb(40, 3)))


def test_a_chain_of_implications_is_said_link_by_link():
    names, O = _cooccurrence(_chain())
    found = implied_columns(names, O, 400, grouped=(), excluded=(), min_rows=5, min_evidence=10.0)
    said = {i.column: [name for name, _, _ in i.implied] for i in found}
    assert said == {"middle": ["large"], "small": ["middle"]}  # (small within large follows: not said again)


def test_an_implying_group_member_is_left_to_the_nesting_search_but_may_be_implied():
    names, O = _cooccurrence(_chain())
    found = implied_columns(names, O, 400, grouped={"small", "large"}, excluded=(), min_rows=5, min_evidence=10.0)
    assert [(i.column, [name for name, _, _ in i.implied]) for i in found] == [("middle", ["large"])]


def test_excluded_columns_neither_imply_nor_are_implied():
    names, O = _cooccurrence(_chain())
    found = implied_columns(names, O, 400, grouped=(), excluded={"middle"}, min_rows=5, min_evidence=10.0)
    assert [(i.column, [name for name, _, _ in i.implied]) for i in found] == [("small", ["large"])]


@settings(max_examples=30, deadline=None)
@given(st.permutations(range(4)), st.integers(0, 50))
def test_the_implications_do_not_depend_on_column_order(permutation, seed):
    frame = _chain(seed=seed)
    names, O = _cooccurrence(frame)
    shuffled = {names[k]: frame[names[k]] for k in permutation}
    names2, O2 = _cooccurrence(shuffled)
    before = implied_columns(names, O, 400, grouped=(), excluded=(), min_rows=5, min_evidence=10.0)
    assert before == implied_columns(names2, O2, 400, grouped=(), excluded=(), min_rows=5, min_evidence=10.0)


def test_a_rare_column_inside_a_frequent_one_is_chance():
    # 5 rows inside a column set on 30 of 40: chance C(30, 5) / C(40, 5) = 0.22.
    large = np.array([1] * 30 + [0] * 10)
    small = np.array([1] * 5 + [0] * 35)
    names, O = _cooccurrence({"large": large, "small": small})
    assert implied_columns(names, O, 40, grouped=(), excluded=(), min_rows=5, min_evidence=10.0) == []
