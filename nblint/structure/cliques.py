"""Maximal cliques of a graph over columns, the sets the exclusive-set searches start from.

Pairwise exclusive 0/1 columns (or nearly exclusive ones) are the edges of a graph; a
variable's levels are a clique of it, and the searches of :mod:`nblint.structure.exclusive`
start from its maximal cliques, enumerated here in an order that does not depend on the
table's column order, within the table's search budget.
"""

from __future__ import annotations

import numpy as np

from nblint.structure.budget import Budget


def maximal_cliques(adjacency: np.ndarray, order: list[int], budget: Budget) -> list[list[int]]:
    """Every maximal clique (two or more vertices) of a graph, by Bron-Kerbosch with pivoting.

    Vertices are visited in ``order`` (by name: the result does not depend on column
    order).  Each clique is returned sorted in that order.

    Notes
    -----
    The recursion of Bron-Kerbosch runs as a loop over an explicit stack, so a clique of K
    members (drop-first dummies: one branch per level) needs no recursion depth of K.  The
    sets are Python integers used as bit sets (bit r: the vertex of rank r), so a node's
    ``P`` and ``X`` are two numbers kept in its frame (``O(b)`` bits each) and the pivot, the
    vertex with most neighbours in ``P``, is a bit count per vertex of ``P | X``.
    """
    order = list(order)
    m = len(order)
    if not m:
        return []
    # Everything is indexed by rank (name order) from here: the first of equals is the first by name.
    A = np.asarray(adjacency, dtype=bool)[np.ix_(order, order)]
    neighbours = [int.from_bytes(np.packbits(row, bitorder="little").tobytes(), "little") for row in A]
    chosen: list[int] = []
    cliques: list[list[int]] = []
    # Each frame: [vertices to try, position, P, X, whether a child of tries[position] is open].
    stack: list[list] = []

    def enter(p: int, x: int) -> None:
        if not budget.spend():
            return
        if not p and not x:
            if len(chosen) >= 2:
                cliques.append(sorted(chosen))
            return
        # The first vertex with the most neighbours in P; none can have more than |P| (a vertex of X)
        # or |P| - 1 (one of P): the search stops at the first that reaches it (a clique: the first).
        most = p.bit_count() - (0 if x else 1)
        best, pivot = -1, 0
        for u in _members(p | x):
            degree = (neighbours[u] & p).bit_count()
            if degree > best:
                best, pivot = degree, u
                if degree >= most:
                    break
        stack.append([list(_members(p & ~neighbours[pivot])), 0, p, x, False])

    enter(sum(1 << v for v in range(m) if neighbours[v]), 0)
    while stack:
        frame = stack[-1]
        tries, position, p, x, open_child = frame
        if open_child:  # back from the child of tries[position]: the vertex moves from P to X
            v = tries[position]
            chosen.pop()
            frame[1], frame[2], frame[3], frame[4] = position + 1, p & ~(1 << v), x | (1 << v), False
            if budget.exhausted:
                break
            continue
        if position == len(tries):
            stack.pop()
            continue
        v = tries[position]
        chosen.append(v)
        frame[4] = True
        enter(p & neighbours[v], x & neighbours[v])
    return [[order[k] for k in clique] for clique in cliques]


def _members(bits: int):
    """The vertices of a bit set, in increasing order."""
    while bits:
        low = bits & -bits
        yield low.bit_length() - 1
        bits ^= low
