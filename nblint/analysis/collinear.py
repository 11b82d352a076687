"""NB104's cases: which columns over the VIF threshold are reported, and how, from the VIF analysis.

:func:`collinear_cases` sorts what :mod:`nblint.structure.vif` found into the cases NB104
words: a table whose rows cannot tell dependencies apart (as many independent columns as
the rows allow), many exact dependencies at once (one rank deficiency), each exact
dependency solved for one column, and clusters of columns with a finite VIF over the
threshold. Columns a one-hot or dummy group, a group's code column or an identical copy
already explain are left out: those are NB101/NB102/NB105's findings.
"""

from __future__ import annotations

import math

from nblint.core.records import Record
from nblint.structure.vif import short_terms

#: More exact dependencies than this are reported as one rank deficiency, not one finding each.
MAX_DEPENDENCIES = 5
#: Columns over the VIF threshold whose correlation is at least this are one cluster (one finding).
CLUSTER_R = 0.9


class ByRows(Record):
    """As many independent columns as the rows allow: every further column is a combination by arithmetic alone.

    Attributes
    ----------
    dependent : int
        The columns that are exact combinations of others.
    short : int
        The most columns a combination may have and still say something about the data.
    kept : int
        The combinations of at most ``short`` columns (they are reported on their own).

    (Written out: a named tuple's class costs a fresh process ~0.4 ms to create; none reads this as a tuple.)
    """

    __slots__ = ("dependent", "short", "kept")

    def __init__(self, dependent: int, short: int, kept: int) -> None:
        self.dependent = dependent
        self.short = short
        self.kept = kept


class ExactDependency(Record):
    """``solved = sum_k terms_k * x_k + intercept``: columns exactly linearly dependent, solved for the last.

    (Written out: a named tuple's class costs a fresh process ~0.4 ms to create; none reads this as a tuple.)
    """

    __slots__ = ("involved", "vif", "solved", "terms", "intercept")

    def __init__(self, involved: list[str], vif: float, solved: str, terms: dict[str, float], intercept: float) -> None:
        self.involved = involved
        self.vif = vif
        self.solved = solved
        self.terms = terms
        self.intercept = intercept


class CollinearCases:
    """Every case NB104 reports, each in table order.

    Attributes
    ----------
    by_rows : ByRows or None
        The table's rows cannot tell dependencies apart (None: they can).
    rank_deficient : dict
        More than :data:`MAX_DEPENDENCIES` unexplained exact dependencies: each column's combination
        of the others, in table order (else empty).
    exact : list of ExactDependency
        Each exact dependency not explained otherwise.
    clusters : list of list of str
        Columns with a finite VIF over the threshold, grouped by correlation (none when ``by_rows``).
    """

    def __init__(self) -> None:  # (a plain class: a dataclass exec's its methods at import, for a first check too)
        self.by_rows: ByRows | None = None
        self.rank_deficient: dict[str, dict] = {}
        self.exact: list[ExactDependency] = []
        self.clusters: list[list[str]] = []


def collinear_cases(ctx, threshold: float) -> CollinearCases:
    """The columns of ``ctx`` whose VIF is over ``threshold``, sorted into NB104's cases."""
    cases = CollinearCases()
    vif = ctx.vif
    if not vif.may_exceed(threshold):
        return cases
    structure = ctx.structure
    order = ctx.table_order
    dependencies = vif.dependencies
    dependent = len(dependencies) + len(vif.by_rows)
    by_rows = dependent > 0 and len(vif.independent) >= ctx.n_rows - 1
    if by_rows:
        # Centred, n rows span at most n - 1 dimensions: with that many independent columns
        # every further column is a combination of them, whatever the data mean. Only a
        # combination of a few columns (a copy, a sum of some others) says something about
        # the data; the rest are said once.
        short = short_terms(len(vif.independent))
        dependencies = {c: combo for c, combo in dependencies.items() if len(combo) <= short}
        cases.by_rows = ByRows(dependent, short, len(dependencies))
        if not dependencies:
            return cases
    explained = {m for g in structure.groups for m in g.members}
    explained |= set(structure.code_columns)
    explained |= {c for cols in structure.identical for c in cols}
    explained |= {m for g in structure.broken for m in g.members}
    # combinations by arithmetic alone: said once
    explained |= set(vif.by_rows) | (set(vif.dependencies) - set(dependencies))
    unexplained = sorted((c for c in dependencies if c not in explained), key=order.__getitem__)
    if len(unexplained) > MAX_DEPENDENCIES:
        # Many columns that are each a combination of others (sparse indicators on few
        # rows): one rank deficiency to look at, not one finding per combination.
        cases.rank_deficient = {c: dependencies[c] for c in unexplained}
        explained |= set(dependencies)
    mentioned: set[str] = set()
    gram = ctx.profile.gram
    for column in sorted(vif.vif, key=order.__getitem__):
        value = vif.vif[column]
        if column in explained or column in mentioned or column in vif.dropped or not value > threshold:
            continue
        if math.isinf(value):
            combo = dependencies.get(column, {})
            involved = sorted([column, *combo], key=order.__getitem__)
            mentioned.update(involved)
            mean = {name: gram.mean[gram.names.index(name)] for name in involved}
            # column = sum_k coef_k * x_k + intercept; written solved for the last column
            # in table order, which reads naturally ("total = a + b + c").
            solved, terms, intercept = _solve_for(involved[-1], column, combo, mean)
            terms = dict(sorted(terms.items(), key=lambda kv: order[kv[0]]))
            cases.exact.append(ExactDependency(involved, value, solved, terms, intercept))
    if by_rows:  # VIF needs more rows than columns: no finite value means anything here
        return cases
    finite = [
        c
        for c in sorted(vif.vif, key=order.__getitem__)
        if c not in explained
        and c not in mentioned
        and c not in vif.dropped
        and vif.vif[c] > threshold
        and not math.isinf(vif.vif[c])
    ]
    cases.clusters = _clusters(vif, finite)
    return cases


def _clusters(vif, columns: list[str]) -> list[list[str]]:
    """Columns over the threshold grouped by strong correlation (or a main partner); in table order."""
    parent = {c: c for c in columns}

    def root(c: str) -> str:
        while parent[c] != c:
            parent[c] = parent[parent[c]]
            c = parent[c]
        return c

    def union(a: str, b: str) -> None:
        ra, rb = root(a), root(b)
        if ra != rb:
            # the root is the earlier column, so the result does not depend on the order of the unions
            first, second = sorted((ra, rb), key=columns.index)
            parent[second] = first

    for i, a in enumerate(columns):
        for b in columns[i + 1 :]:
            if abs(vif.correlation(a, b)) >= CLUSTER_R:
                union(a, b)
    members = set(columns)
    for c in columns:
        if all(root(o) != root(c) for o in columns if o != c):  # still alone: its main partner's cluster
            top = next((p for p in vif.partners(c, top=1) if p in members), None)
            if top is not None:
                union(c, top)
    groups: dict[str, list[str]] = {}
    for c in columns:
        groups.setdefault(root(c), []).append(c)
    return sorted(groups.values(), key=lambda g: columns.index(g[0]))


def _solve_for(target, column, combo, mean):
    """Rewrite ``column = sum_k combo_k x_k + b`` as ``target = ...`` (target in the equation)."""
    intercept = mean[column] - sum(coef * mean[name] for name, coef in combo.items())
    # Rounding noise from the means is not an intercept.
    if abs(intercept) <= 1e-9 * max(1.0, *(abs(m) for m in mean.values())):
        intercept = 0.0
    if target == column:
        return column, dict(combo), intercept
    pivot = combo[target]
    terms = {column: 1.0 / pivot}
    terms.update({name: -coef / pivot for name, coef in combo.items() if name != target})
    return target, terms, -intercept / pivot
