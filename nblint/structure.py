"""Structure of a table's columns, from its profile: one-hot and dummy groups, VIF.

Everything here works on the merged :class:`~nblint.profile.Gram` (exact 0/1
co-occurrence counts and centred co-moments), never on rows.

One-hot groups
--------------
Columns ``x_1..x_K`` (each 0/1) form a one-hot group exactly when every row
has one and only one of them set:

    sum_k x_rk = 1  for every row r.

With ``s_k = sum_r x_rk`` (the diagonal of the co-occurrence matrix ``O``) and
``O_kl`` the rows where both are 1, that holds if and only if the columns are
pairwise exclusive (``O_kl = 0`` for ``k != l``: no row has two) and their
counts add up to the number of rows (``sum_k s_k = n``: no row has none).
Both conditions are integer equalities, so detection is exact.  Such a group
makes ``[1, x_1..x_K]`` rank deficient: each member's variance inflation factor
is infinite (DESIGN.md section 7; footnote 3 of the Williams paper).

A dummy (drop-first) group is a set of pairwise exclusive columns whose counts
add up to less than ``n``: the all-zero row is the dropped reference level.
Exclusive flags happen by chance too, so a dummy group is only reported with
evidence that it is one variable (see :func:`find_exclusive_sets`).

Variance inflation
------------------
For standardised predictors with correlation matrix ``R``, the variance
inflation factor of column ``j`` in a regression with an intercept is

    VIF_j = 1 / (1 - R_j^2) = [R^{-1}]_jj,

which is what statsmodels' ``variance_inflation_factor`` computes with a
constant column, one regression per column.  Here it is one Cholesky
factorisation of ``R`` after exact dependencies are taken out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np

#: Residual variance share (1 / VIF) at or below which a column is an exact
#: linear combination of the others: VIF >= 1e10.
RANK_TOLERANCE = 1e-10
#: Search budget (DFS nodes) for exact-cover group search, per table.
SEARCH_BUDGET = 200_000

_SEPARATORS = re.compile(r"(\[T\.|\[|=|_|\.|:|\s|-)")


# --------------------------------------------------------------------------- names


def name_stem(names: list[str] | tuple[str, ...]) -> str | None:
    """The likely source variable of a set of indicator columns, from their names.

    Recognises ``color_red`` (pandas), ``x0_red`` (scikit-learn), ``color=red``,
    ``color[T.red]`` (patsy) and similar: the longest common prefix of the names
    cut back to a separator.  Returns None when the names share no such stem.

    Examples
    --------
    >>> name_stem(["color_red", "color_blue"])
    'color'
    >>> name_stem(["C(color)[T.red]", "C(color)[T.blue]"])
    'C(color)'
    >>> name_stem(["a", "b"]) is None
    True
    """
    if len(names) < 2:
        return None
    prefix = names[0]
    for name in names[1:]:
        k = 0
        while k < min(len(prefix), len(name)) and prefix[k] == name[k]:
            k += 1
        prefix = prefix[:k]
    if not prefix:
        return None
    if all(len(n) > len(prefix) and _SEPARATORS.match(n, len(prefix)) for n in names):
        stem = prefix  # every name continues with a separator: the prefix is the stem
    else:
        # Cut back to the last separator, so that "color_r" from red/rose gives "color".
        cuts = [m.start() for m in _SEPARATORS.finditer(prefix)]
        if not cuts:
            return None
        stem = prefix[: cuts[-1]]
    stem = stem.rstrip("_=.:[- ")
    return stem or None


def _prefix_affinity(a: str, b: str) -> int:
    """Length of the common name prefix up to a separator (0 when unrelated)."""
    stem = name_stem([a, b])
    return len(stem) if stem else 0


# --------------------------------------------------------------------------- groups


@dataclass
class Group:
    """A set of mutually exclusive 0/1 columns that encode one variable.

    Attributes
    ----------
    kind : {"one-hot", "dummy"}
    members : list of str
        Member columns in table order.
    counts : list of int
        Rows with each member set.
    n_rows : int
    stem : str or None
        The likely source variable, when the names tell.
    evidence : dict
        Why the set was judged one variable.
    """

    kind: str
    members: list[str]
    counts: list[int]
    n_rows: int
    stem: str | None = None
    evidence: dict = field(default_factory=dict)

    @property
    def reference_count(self) -> int:
        """Rows where no member is set (the dropped level of a dummy group)."""
        return self.n_rows - sum(self.counts)

    @property
    def n_levels(self) -> int:
        """Levels of the encoded variable: K for one-hot, K + 1 for dummy (the reference)."""
        return len(self.members) + (self.kind == "dummy")

    @property
    def label(self) -> str:
        return self.stem or "+".join(self.members[:3]) + ("+..." if len(self.members) > 3 else "")


@dataclass
class GroupSearch:
    """Result of the group search, with what (if anything) was capped."""

    onehot: list[Group]
    #: Budget left for later clique searches over the leftover columns.
    budget: list[int]
    capped: bool = False


def find_onehot_groups(binary: tuple[str, ...], cooccurrence: np.ndarray, n_rows: int, table_order: dict[str, int]) -> GroupSearch:
    """Find every set of 0/1 columns that sums to exactly one on every row.

    Parameters
    ----------
    binary : tuple of str
        The 0/1 columns (no missing values).
    cooccurrence : ndarray (b, b) of int
        Exact co-occurrence counts ``O``; ``diag(O)`` are the columns' counts of ones.
    n_rows : int
    table_order : dict
        Column name -> position in the table (for stable, table-ordered output).

    Returns
    -------
    GroupSearch
        The one-hot groups (exact covers), and the search budget left.

    Notes
    -----
    A group is an exact cover of the rows by pairwise exclusive columns, so it is
    searched as a clique of the exclusivity graph whose counts add up to ``n``.
    In real tables a column's exclusive partners are almost always exactly its own
    group's other levels and the search ends at once; small tables, where rare
    columns are exclusive by chance, are searched depth-first with pruning on the
    count total, within :data:`SEARCH_BUDGET` nodes (reported when hit).  Names
    only order the search (same-stem partners first), they never decide.
    """
    b = len(binary)
    counts = np.diag(cooccurrence).astype(np.int64) if b else np.zeros(0, dtype=np.int64)
    # A column set on no row or on every row cannot be part of a group of two or more.
    usable = (counts > 0) & (counts < n_rows)
    exclusive = (cooccurrence == 0) & usable[:, None] & usable[None, :]
    np.fill_diagonal(exclusive, False)
    neighbours = [np.flatnonzero(exclusive[i]) for i in range(b)]
    assigned = np.zeros(b, dtype=bool)
    budget = [SEARCH_BUDGET]
    groups: list[Group] = []

    order = sorted(range(b), key=lambda i: table_order[binary[i]])
    for i in order:
        if assigned[i] or not usable[i] or len(neighbours[i]) == 0:
            continue
        candidates = [j for j in neighbours[i] if not assigned[j]]
        # Same-stem partners first, then larger counts (they reach n sooner), then table order.
        candidates.sort(key=lambda j: (-_prefix_affinity(binary[i], binary[j]), -counts[j], table_order[binary[j]]))
        found = _exact_cover([i], int(counts[i]), candidates, counts, exclusive, n_rows, budget)
        if found:
            groups.append(_onehot_group(found, binary, counts, n_rows, table_order))
            assigned[found] = True
    return GroupSearch(groups, budget, capped=budget[0] <= 0)


def _onehot_group(found: list[int], binary, counts: np.ndarray, n_rows: int, table_order: dict[str, int]) -> Group:
    """The :class:`Group` of an exact cover (indices into ``binary``), members in table order."""
    members = sorted(found, key=lambda k: table_order[binary[k]])
    names = [binary[k] for k in members]
    return Group("one-hot", names, [int(counts[k]) for k in members], n_rows, name_stem(names),
                 {"row_sum": 1, "rows_summing_to_one": n_rows})


def find_onehot_groups_sparse(binary: tuple[str, ...], cooccurrence, n_rows: int, table_order: dict[str, int],
                              sparse_rows: list) -> GroupSearch:
    """:func:`find_onehot_groups` for wide tables, from sparse co-occurrences.

    Parameters
    ----------
    binary, n_rows, table_order
        As in :func:`find_onehot_groups`.
    cooccurrence : scipy.sparse CSR matrix (b, b)
        Exact co-occurrence counts; only pairs that share a row are stored, so the
        exclusivity graph (dense for a bag of words: most pairs never meet) is never built.
    sparse_rows : list of (ones, row, columns)
        Rows with the fewest ones (:attr:`nblint.profile.Gram.sparse_rows`).

    Notes
    -----
    Every one-hot group has exactly one member set on every row.  So a row with
    no 0/1 column set rules out every group at once, and otherwise each group has
    one member among the few columns set on the sparsest row: those are the only
    starting points.  The search is Knuth's exact cover (Algorithm X) on the kept
    rows: it branches on the uncovered kept row with the fewest admissible columns
    (pairwise exclusive with the chosen ones), dropping a branch as soon as a kept
    row cannot be covered; once every kept row is covered it falls back to every
    admissible column.  A found set is exact by construction: pairwise exclusive
    (``O_jk = 0``) with counts adding up to ``n``.  :data:`SEARCH_BUDGET` bounds the
    nodes, shared equally among the starting columns.
    """
    b = len(binary)
    counts = np.asarray(cooccurrence.diagonal(), dtype=np.int64) if b else np.zeros(0, dtype=np.int64)
    budget = [SEARCH_BUDGET]
    if not b or not sparse_rows or sparse_rows[0][0] == 0:
        return GroupSearch([], budget)  # a row with no 0/1 column set: no group covers it
    usable = (counts > 0) & (counts < n_rows)
    indptr, indices = cooccurrence.indptr, cooccurrence.indices
    position = np.array([table_order[name] for name in binary], dtype=np.int64)
    rows = [np.asarray(cols, dtype=np.int64) for _, _, cols in sparse_rows]
    assigned = np.zeros(b, dtype=bool)

    def partners(j: int) -> np.ndarray:
        return indices[indptr[j]:indptr[j + 1]]

    def cover(chosen: list[int], total: int, allowed: np.ndarray):
        if total == n_rows:
            return list(chosen) if len(chosen) >= 2 else None
        if budget[0] <= 0:
            return None
        budget[0] -= 1
        if total + int(counts[allowed].sum()) < n_rows:
            return None
        branch = None
        in_cover = np.zeros(b, dtype=bool)
        in_cover[chosen] = True
        for cols in rows:
            if in_cover[cols].any():
                continue
            options = cols[allowed[cols]]
            if not len(options):
                return None  # this row can no longer be covered
            if branch is None or len(options) < len(branch):
                branch = options
        if branch is None:
            # Every kept row is covered: any admissible column may come next, larger counts first.
            branch = np.flatnonzero(allowed)
            order = branch[np.lexsort((position[branch], -counts[branch]))].tolist()
        else:
            order = sorted(branch.tolist(), key=lambda j: (-_prefix_affinity(binary[chosen[0]], binary[j]), -counts[j], position[j]))
        allowed = allowed.copy()
        for j in order:
            if total + counts[j] <= n_rows:
                narrowed = allowed.copy()
                narrowed[partners(j)] = False
                narrowed[j] = False
                found = cover(chosen + [j], total + int(counts[j]), narrowed)
                if found or budget[0] <= 0:
                    return found
            allowed[j] = False  # every cover with j was tried
        return None

    groups: list[Group] = []
    starts = [i for i in sorted(rows[0].tolist(), key=lambda k: table_order[binary[k]]) if usable[i]]
    shared, capped = budget[0], False
    for started, i in enumerate(starts):
        if assigned[i]:
            continue
        # Each start gets an equal share of what is left, so that a start among chance-exclusive
        # rare columns (a bag of words) cannot use up the search of the starts after it.
        budget[0] = shared // (len(starts) - started)
        allowed = usable & ~assigned
        allowed[partners(i)] = False
        allowed[i] = False
        share = budget[0]
        found = cover([i], int(counts[i]), allowed)
        capped |= budget[0] <= 0 and not found
        shared -= share - budget[0]
        if found:
            groups.append(_onehot_group(found, binary, counts, n_rows, table_order))
            assigned[found] = True
    groups.sort(key=lambda g: table_order[g.members[0]])
    budget[0] = shared if not capped else 0
    return GroupSearch(groups, budget, capped=capped)


def _exact_cover(chosen, total, candidates, counts, exclusive, n_rows, budget):
    """Depth-first search for a clique extending ``chosen`` whose counts sum to ``n_rows``."""
    if total == n_rows:
        return list(chosen) if len(chosen) >= 2 else None
    if budget[0] <= 0:
        return None
    budget[0] -= 1
    remaining = sum(int(counts[j]) for j in candidates)
    if total + remaining < n_rows:
        return None
    for pos, j in enumerate(candidates):
        if total + counts[j] > n_rows:
            continue
        rest = [k for k in candidates[pos + 1 :] if exclusive[j, k]]
        found = _exact_cover(chosen + [j], total + int(counts[j]), rest, counts, exclusive, n_rows, budget)
        if found:
            return found
        if budget[0] <= 0:
            return None
    return None


def maximal_cliques(adjacency: np.ndarray, order: list[int], budget: list[int]) -> list[list[int]]:
    """Disjoint maximal cliques (size >= 2) of a graph, largest first.

    Bron-Kerbosch with pivoting over the vertices in ``order``, sharing the search
    ``budget``; then each vertex is kept in the first (largest, then earliest in
    ``order``) clique that contains it, so the result partitions part of the vertices.
    """
    rank = {v: r for r, v in enumerate(order)}
    allowed = set(order)
    neighbours = {v: set(np.flatnonzero(adjacency[v]).tolist()) & allowed for v in order}
    cliques: list[list[int]] = []

    def expand(r, p, x):
        if budget[0] <= 0:
            return
        budget[0] -= 1
        if not p and not x:
            if len(r) >= 2:
                cliques.append(sorted(r, key=rank.get))
            return
        pivot = max(p | x, key=lambda u: (len(neighbours[u] & p), -rank[u]))
        for v in sorted(p - neighbours[pivot], key=rank.get):
            expand(r | {v}, p & neighbours[v], x & neighbours[v])
            p = p - {v}
            x = x | {v}

    expand(set(), {v for v in order if neighbours[v]}, set())
    cliques.sort(key=lambda c: (-len(c), [rank[v] for v in c]))
    taken: set[int] = set()
    result = []
    for clique in cliques:
        members = [v for v in clique if v not in taken]
        if len(members) >= 2:
            taken.update(members)
            result.append(members)
    return result


def exclusivity_evidence(counts: list[int], n_rows: int) -> float:
    """Expected co-occurrences, summed over pairs, if the columns were independent.

    Observing none where independence predicts ``E = sum_{k<l} s_k s_l / n`` has
    probability about ``exp(-E)`` (Poisson), so ``E`` is the evidence (in nats)
    that the exclusivity is structural rather than chance.
    """
    s = np.asarray(counts, dtype=np.float64)
    return float((s.sum() ** 2 - (s * s).sum()) / 2.0 / n_rows) if n_rows else 0.0


# --------------------------------------------------------------------------- VIF


@dataclass
class VifResult:
    """Variance inflation factors of the complete, non-constant numeric columns.

    Attributes
    ----------
    vif : dict
        Column -> VIF (``inf`` for exact linear combinations).
    dependencies : dict
        Column -> the columns it is an exact linear combination of, with coefficients
        (for every column with infinite VIF that is not explained by a one-hot group).
    dropped : dict
        One-hot group member left out of the regressors -> its group label.
    """

    vif: dict[str, float]
    dependencies: dict[str, dict[str, float]]
    dropped: dict[str, str]
    tolerance: float = RANK_TOLERANCE
    #: Columns of ``inverse`` and the inverse correlation matrix over them (independent set).
    independent: tuple[str, ...] = ()
    inverse: np.ndarray | None = None

    def partners(self, column: str, top: int = 3) -> list[str]:
        """The columns that explain most of ``column``: largest standardised coefficients.

        Regressing standardised column j on the others gives coefficients
        ``beta_k = -[R^{-1}]_jk / [R^{-1}]_jj``.
        """
        if column in self.dependencies:
            ranked = sorted(self.dependencies[column].items(), key=lambda kv: -abs(kv[1]))
            return [name for name, _ in ranked[:top]]
        if self.inverse is None or column not in self.independent:
            return []
        j = self.independent.index(column)
        beta = -self.inverse[j] / self.inverse[j, j]
        beta[j] = 0.0
        order = np.argsort(-np.abs(beta), kind="stable")[:top]
        return [self.independent[k] for k in order if abs(beta[k]) > 1e-3]


def variance_inflation(names: tuple[str, ...], comoment: np.ndarray, onehot: list[Group]) -> VifResult:
    """VIF of every column, in closed form from the centred co-moment matrix.

    Parameters
    ----------
    names : tuple of str
        Columns of ``comoment`` (complete numeric features).
    comoment : ndarray (q, q)
        Centred co-moments ``M``; constant columns (``M_jj = 0``) are skipped.
    onehot : list of Group
        Exact one-hot groups: their last member is left out of the regressors
        (it is ``1 - sum`` of the others) and reported with ``VIF = inf``.

    Returns
    -------
    VifResult
    """
    diag = np.diag(comoment) if len(names) else np.zeros(0)
    scale = np.sqrt(np.abs(diag))
    varying = diag > 1e-12 * max(1.0, float(np.max(np.abs(diag))) if len(diag) else 1.0)
    dropped = {}
    for group in onehot:
        present = [m for m in group.members if m in names]
        if len(present) == len(group.members):
            dropped[present[-1]] = group.label
    keep = [j for j, name in enumerate(names) if varying[j] and name not in dropped]
    vif = {name: float("inf") for name in dropped}
    dependencies: dict[str, dict[str, float]] = {}
    if not keep:
        return VifResult(vif, dependencies, dropped)
    k = np.array(keep)
    R = comoment[np.ix_(k, k)] / np.outer(scale[k], scale[k])
    np.fill_diagonal(R, 1.0)
    independent, dependent = _independent_columns(R)
    if dependent:
        S = np.array(independent)
        for d in dependent:
            beta, *_ = np.linalg.lstsq(R[np.ix_(S, S)], R[S, d], rcond=None)
            # beta is on the standardised scale; report coefficients on the columns' own.
            dependencies[names[k[d]]] = {
                names[k[s]]: float(b * scale[k[d]] / scale[k[s]]) for s, b in zip(S, beta) if abs(b) > 1e-8
            }
            vif[names[k[d]]] = float("inf")
    inverse = None
    if independent:
        S = np.array(independent)
        L = np.linalg.cholesky(R[np.ix_(S, S)])
        Linv = _triangular_inverse(L)
        # R^{-1} = L^{-T} L^{-1}; its diagonal is the VIF of each column.
        inverse = Linv.T @ Linv
        for s, v in zip(S, np.diag(inverse)):
            vif[names[k[s]]] = float(v)
    kept = tuple(names[k[s]] for s in independent)
    return VifResult(vif, dependencies, dropped, RANK_TOLERANCE, kept, inverse)


def _independent_columns(R: np.ndarray) -> tuple[list[int], list[int]]:
    """Split columns into a maximal independent set and the exactly dependent rest.

    Fast path: a plain Cholesky whose pivots all exceed the tolerance.  Otherwise
    LAPACK's pivoted Cholesky (``dpstrf``) with the tolerance stated in
    :data:`RANK_TOLERANCE`.
    """
    try:
        L = np.linalg.cholesky(R)
        if np.min(np.diag(L)) ** 2 > RANK_TOLERANCE:
            return list(range(len(R))), []
    except np.linalg.LinAlgError:
        pass
    from scipy.linalg.lapack import dpstrf

    _, piv, rank, _ = dpstrf(R, tol=RANK_TOLERANCE, lower=1)
    piv = piv - 1
    independent = sorted(int(p) for p in piv[:rank])
    dependent = sorted(int(p) for p in piv[rank:])
    return independent, dependent


def _triangular_inverse(L: np.ndarray) -> np.ndarray:
    from scipy.linalg import solve_triangular

    return solve_triangular(L, np.eye(len(L)), lower=True)
