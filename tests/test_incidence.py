"""The incidence of a wide 0/1 block answers for its co-occurrence counts O = B^T B, without building O.

Oracle: O computed densely with numpy from the same 0/1 matrix.
"""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from scipy import sparse

from nblint.profile.incidence import Incidence

blocks = st.integers(1, 30).flatmap(
    lambda n: st.integers(1, 12).flatmap(lambda b: arrays(np.int8, (n, b), elements=st.integers(0, 1)))
)


def _identical_oracle(B: np.ndarray) -> list[list[int]]:
    n, b = B.shape
    sets: list[list[int]] = []
    for j in range(b):
        if B[:, j].sum() in (0, n):
            continue
        for members in sets:
            if np.array_equal(B[:, members[0]], B[:, j]):
                members.append(j)
                break
        else:
            sets.append([j])
    return [members for members in sets if len(members) > 1]


@settings(max_examples=150, deadline=None)
@given(blocks)
def test_incidence_gives_the_cooccurrence_counts(B):
    O = B.astype(np.int64).T @ B.astype(np.int64)
    incidence = Incidence(sparse.csr_matrix(B))
    assert np.array_equal(incidence.diagonal(), np.diag(O))
    for j in range(B.shape[1]):
        expected = np.flatnonzero(O[j]) if O[j, j] else np.zeros(0, dtype=np.int64)
        assert np.array_equal(incidence.partners(j), expected)
    index = list(range(B.shape[1]))[::-1]
    assert np.array_equal(incidence.block(index), O[np.ix_(index, index)])
    assert incidence.pairs() >= np.count_nonzero(O)
    assert incidence.identical_sets() == _identical_oracle(B)


@settings(max_examples=60, deadline=None)
@given(blocks, st.data())
def test_parts_add_up_as_their_rows_do(B, data):
    cut = data.draw(st.integers(0, B.shape[0]))
    merged = Incidence(sparse.csr_matrix(B[:cut])) + Incidence(sparse.csr_matrix(B[cut:]))
    O = B.astype(np.int64).T @ B.astype(np.int64)
    assert np.array_equal(merged.block(range(B.shape[1])), O)
    columns = data.draw(st.lists(st.integers(0, B.shape[1] - 1), min_size=1, unique=True))
    taken = Incidence(sparse.csr_matrix(B)).take(columns)
    assert np.array_equal(taken.block(range(len(columns))), O[np.ix_(columns, columns)])


@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(1, 400),
    b=st.integers(1, 40),
    density=st.sampled_from([0.0, 0.01, 0.2, 0.6, 1.0]),
    head=st.integers(1, 4),
    seed=st.integers(0, 2**32 - 1),
)
def test_partners_from_the_columns_bits_are_those_a_dense_product_gives(n, b, density, head, seed):
    """Row j of O's pattern, by bits (dense blocks) or by gathering rows: the columns j shares a row with."""
    from nblint.profile import incidence as module

    rng = np.random.default_rng(seed)
    dense = rng.random((n, b)) < density
    incidence = Incidence(sparse.csr_matrix(dense.astype(np.int8)))
    product = dense.T.astype(np.int64) @ dense.astype(np.int64)  # the oracle: O itself
    saved, module.HEAD_WORDS = module.HEAD_WORDS, head
    try:
        found = [incidence.partners(j).tolist() for j in range(b)]
    finally:
        module.HEAD_WORDS = saved
    assert found == [np.flatnonzero(row).tolist() for row in product]
    if density >= 0.2 and n >= 64 * head and b > 1:  # (every column meets the others in the first words)
        assert incidence._bits is not None
