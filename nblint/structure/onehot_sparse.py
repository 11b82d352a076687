"""One-hot groups of a wide table, searched from its sparse 0/1 block.

The same exact groups as :func:`nblint.structure.onehot.find_onehot_groups` (sets of 0/1
columns that sum to exactly one on every row), found without the dense co-occurrence
matrix or the exclusivity graph, which a bag of words cannot afford (most pairs of words
never meet): an encoder's variable is checked whole from its rows first
(:mod:`nblint.structure.families`), then Knuth's exact cover runs on the sparsest rows,
each of which every group must cover (see :func:`find_onehot_groups_sparse`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import numpy as np

from nblint.structure.budget import Budget
from nblint.structure.families import covering_families
from nblint.structure.groups import Group
from nblint.structure.names import name_stem
from nblint.structure.onehot import GroupSearch, _group

#: Cells (searched columns of kept rows) the wide one-hot search checks each node against,
#: and the fewest rows it keeps (see :func:`_kept_rows`).
KEPT_CELLS, MIN_KEPT_ROWS = 1 << 15, 32


def find_onehot_groups_sparse(
    binary,
    cooccurrence,
    n_rows: int,
    table_order: dict[str, int],
    budget: Budget,
    searched: np.ndarray | None = None,
) -> GroupSearch:
    """:func:`~nblint.structure.onehot.find_onehot_groups` for wide tables, from sparse co-occurrences.

    Parameters
    ----------
    binary, n_rows, table_order, budget
        As in :func:`~nblint.structure.onehot.find_onehot_groups`.
    cooccurrence : nblint.profile.incidence.Incidence
        The 0/1 block, which gives each column's count and the columns it meets, so that
        neither ``O`` nor the exclusivity graph (dense for a bag of words: most pairs never
        meet) is built, and its rows (:func:`_kept_rows`).
    searched : ndarray of bool, optional
        The columns a group may have as members (default: every one). The search is
        exact among them: a group with a member outside them is not looked for.

    Notes
    -----
    Every one-hot group has exactly one member set on every row.  So a row with
    no searched column set rules out every group at once, and otherwise each group has
    one member among the few columns set on the sparsest row: those are the only
    starting points.  The search is Knuth's exact cover (Algorithm X) on the kept
    rows (the sparsest ones, :func:`_kept_rows`): it branches on the uncovered kept row
    with the fewest admissible columns (pairwise exclusive with the chosen ones),
    dropping a branch as soon as a kept row cannot be covered; once every kept row is
    covered it falls back to every admissible column.  Each kept row is a constraint
    every group satisfies, so which rows are kept changes the work, never the result.  A found set is exact by construction: pairwise exclusive
    (``O_jk = 0``) with counts adding up to ``n``.  Columns are tried by name, never
    by table position, and the budget is shared equally among the starting columns.
    """
    binary = list(binary)
    b = len(binary)
    if not b or not n_rows:
        return GroupSearch([])
    counts = np.asarray(cooccurrence.diagonal(), dtype=np.int64)
    varied = (counts > 0) & (counts < n_rows)
    by_name = sorted(range(b), key=binary.__getitem__)
    rank = np.empty(b, dtype=np.int64)
    rank[by_name] = np.arange(b)
    groups: list[Group] = []
    assigned = np.zeros(b, dtype=bool)
    # An encoder's variable, all its levels under one stem, is checked whole from its rows first
    # (:mod:`nblint.structure.families`): at any number of levels, and among words too rare to be
    # searched (a level set on one row is exclusive of everything by chance alone).
    for members in covering_families(cooccurrence, counts, binary, varied, n_rows):
        groups.append(_group(members, [], None, binary, counts, n_rows, table_order))
        assigned[members] = True
    usable = varied & ~assigned
    if searched is not None:
        usable &= searched
    # Each kept row keeps its searchable columns; the first (the fewest of them) gives the starts.
    rows = _kept_rows(cooccurrence.B, usable)
    if not len(rows[0]):
        # A row none of the searched columns covers: no other group among them.
        groups.sort(key=lambda g: table_order[g.members[0]])
        return GroupSearch(groups)
    kept = np.concatenate(rows)
    heads = np.cumsum([0] + [len(cols) for cols in rows[:-1]])
    partners = cooccurrence.partners
    kept_rows = _KeptRows(binary, counts, n_rows, rows, kept, heads, partners, rank)

    for found in _covers_from_starts(kept_rows, usable, assigned, budget):
        groups.append(_group(found, [], None, binary, counts, n_rows, table_order))
    groups.sort(key=lambda g: table_order[g.members[0]])
    return GroupSearch(groups, capped=budget.exhausted)


def _covers_from_starts(
    kept_rows: _KeptRows, usable: np.ndarray, assigned: np.ndarray, budget: Budget
) -> list[list[int]]:
    """The covers found from each start (the first kept row's columns, by name); ``assigned`` marks their members."""
    rows, partners, rank = kept_rows.rows, kept_rows.partners, kept_rows.rank
    found_covers = []
    starts = [i for i in sorted(rows[0].tolist(), key=lambda k: rank[k]) if usable[i]]
    for started, i in enumerate(starts):
        if assigned[i]:
            continue
        # Each start gets an equal share of what is left, so that a start among chance-exclusive
        # rare columns (a bag of words) cannot use up the search of the starts after it.
        part = budget.part(len(starts) - started)
        given = part.left
        allowed = usable & ~assigned
        allowed[partners(i)] = False
        allowed[i] = False
        found = _first_cover(i, allowed, part, kept_rows)
        budget.absorb(part, given)
        if found:
            found_covers.append(found)
            assigned[found] = True
    return found_covers


def _first_cover(start: int, allowed: np.ndarray, part: Budget, kept_rows: _KeptRows) -> list[int] | None:
    """The first cover through ``start`` among the ``allowed`` columns (updated in place), or None.

    (:func:`find_onehot_groups_sparse`'s search from one start, over its ``kept_rows``.)

    Algorithm X as a loop over an explicit stack: ``allowed`` and the chosen columns are
    changed in place and changed back on the way up, so a group of K members is K levels
    of ``O(b)`` work with no recursion to run out of.
    """
    binary, counts, n_rows, rows, kept, heads, partners, rank = kept_rows
    b = len(binary)
    chosen = [start]
    in_cover = np.zeros(b, dtype=bool)
    in_cover[start] = True
    total = int(counts[start])
    allowed_total = int(counts[allowed].sum())
    # Each frame: [columns to try, position, columns the child took from ``allowed`` (None: no child)].
    stack: list[list] = []

    def enter() -> bool:
        """Visit the node of the current state: True for a cover, else push its branches (if any)."""
        if total == n_rows:
            return len(chosen) >= 2
        if not part.spend() or total + allowed_total < n_rows:
            return False
        # Every kept row at once: the uncovered ones, and how many admissible columns each has left.
        uncovered = ~np.logical_or.reduceat(in_cover[kept], heads)
        options = np.add.reduceat(allowed[kept].astype(np.int64), heads)
        if (options[uncovered] == 0).any():
            return False  # a row can no longer be covered
        if uncovered.any():
            r = int(np.flatnonzero(uncovered)[np.argmin(options[uncovered])])  # (the first of the fewest)
            branch = rows[r][allowed[rows[r]]]
            stem_of = binary[chosen[0]]
            order = sorted(branch.tolist(), key=lambda j: (-_prefix_affinity(stem_of, binary[j]), -counts[j], rank[j]))
        else:
            # Every kept row is covered: any admissible column may come next, larger counts first.
            branch = np.flatnonzero(allowed)
            order = branch[np.lexsort((rank[branch], -counts[branch]))].tolist()
        stack.append([order, 0, None])
        return False

    if enter():
        return chosen
    while stack:
        frame = stack[-1]
        order, position, taken = frame
        if taken is not None:  # back from the child of order[position]
            j = order[position]
            allowed[taken] = True
            allowed_total += int(counts[taken].sum())
            chosen.pop()
            in_cover[j] = False
            total -= int(counts[j])
        elif position == len(order):
            tried = np.array(order, dtype=np.int64)
            allowed[tried] = True  # (each was admissible when the node was entered)
            allowed_total += int(counts[tried].sum())
            stack.pop()
            continue
        else:
            j = order[position]
            if total + counts[j] <= n_rows:
                chosen.append(j)
                in_cover[j] = True
                total += int(counts[j])
                near = partners(j)  # (j among them)
                frame[2] = near[allowed[near]]
                allowed[frame[2]] = False
                allowed_total -= int(counts[frame[2]].sum())
                if enter():
                    return chosen
                continue
        # Every cover with j was tried: j leaves the branches after it.
        allowed[j] = False
        allowed_total -= int(counts[j])
        frame[1], frame[2] = position + 1, None
        if part.exhausted:
            return None
    return None


class _KeptRows(NamedTuple):
    """What the search from each start reads: the columns, their counts, the kept rows (flat, with heads)."""

    binary: list
    counts: np.ndarray
    n_rows: int
    rows: list
    kept: np.ndarray
    heads: np.ndarray
    partners: Callable[[int], np.ndarray]
    rank: np.ndarray


def _kept_rows(B, usable: np.ndarray) -> list[np.ndarray]:
    """The searched columns of the rows the exact cover is checked on: the sparsest, about :data:`KEPT_CELLS` cells.

    Rows are taken by their count of searched columns (ties in row order) until they hold
    ``KEPT_CELLS`` cells, and at least :data:`MIN_KEPT_ROWS` rows; when the sparsest row has no
    searched column, that row alone (no group can cover it).  More kept rows prune more
    (a branch dies as soon as one of them can no longer be covered) but cost more per node:
    on a 10,000-document bag of words beside five one-hot groups, 32 rows let each start
    among the rarer words run to its share of the budget (200,000 nodes, 6.7 s, groups
    possibly missed), 32,768 cells (about 1,000 rows) ended the whole search in 950 nodes,
    0.6 s; every row, 540 nodes but 2 s.
    """
    # Each row's searched cells: a running count over the stored cells, read at the rows' ends.
    running = np.concatenate([[0], np.cumsum(usable[B.indices], dtype=np.int64)])
    per_row = running[B.indptr[1:]] - running[B.indptr[:-1]]
    order = np.argsort(per_row, kind="stable")
    if per_row[order[0]] == 0:
        return [np.zeros(0, dtype=np.int64)]  # a row with none of them: the caller needs no other
    taken = int(np.searchsorted(np.cumsum(per_row[order]), KEPT_CELLS)) + 1
    rows = []
    for r in order[: max(taken, MIN_KEPT_ROWS)].tolist():
        columns = B.indices[B.indptr[r] : B.indptr[r + 1]].astype(np.int64)
        rows.append(columns[usable[columns]])
    return rows


def _prefix_affinity(a: str, b: str) -> int:
    """Length of the common name prefix up to a separator (0 when unrelated)."""
    stem = name_stem([a, b])
    return len(stem) if stem else 0
