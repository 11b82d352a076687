"""Groups among the 0/1 columns the profile's co-occurrences leave out: with missing values, or written as yes/no.

A survey answer written as indicators (``income1..income4``) is missing on the rows
where the question was not answered, and then every indicator is missing there
together.  On the rows where they are known the indicators are an ordinary one-hot
or drop-first group.  The profile's co-occurrence counts hold only complete 0/1
columns, so these groups are searched apart, from two counts gathered over the 0/1
columns with missing values (:class:`MissingCounts`):

* ``O_kl``: rows where both are 1 (missing read as 0);
* ``M_kl``: rows where both are missing.

Columns ``k`` and ``l`` are missing on the same rows exactly when
``M_kk = M_ll = M_kl``.  Within each such class, on its ``n - M_kk`` known rows, the
one-hot search (:func:`~nblint.structure.onehot.find_onehot_groups`) and the
drop-first search (:func:`~nblint.structure.exclusive.dummy_sets`) run unchanged.

Indicators written as words (``private = yes/no``, one column per level) are 0/1
columns too: they join the same pass, read as 1 for "yes" (a class of their own
when they have no missing value).
"""

from __future__ import annotations

import numpy as np

from nblint.structure.budget import Budget
from nblint.structure.exclusive import dummy_sets
from nblint.structure.groups import Group, expected_cooccurrences
from nblint.structure.kin import filling_kin
from nblint.structure.names import cross_stem, group_stem
from nblint.structure.onehot import find_onehot_groups

#: The 0/1 columns with missing values searched at most (ties by name): bounds the pass and the search.
MAX_COLUMNS = 64


#: Two text values that are a yes/no flag, the "yes" first: such a column is a 0/1 column written in words.
YES_NO = (("yes", "no"), ("y", "n"), ("true", "false"), ("t", "f"))


def yes_label(keys) -> str | None:
    """The "yes" of a text column's two values when they are a yes/no pair (``{"no", "yes"}``), else None.

    Examples
    --------
    >>> yes_label(("no", "yes")), yes_label(("False", "True")), yes_label(("female", "male"))
    ('yes', 'True', None)
    """
    if len(keys) != 2:
        return None
    lower = {str(k).strip().lower(): k for k in keys}
    for yes, no in YES_NO:
        if set(lower) == {yes, no}:
            return lower[yes]
    return None


class MissingCounts:
    """``O`` (both 1, missing as 0) and ``M`` (both missing) over some 0/1 columns, chunk by chunk.

    ``yes`` maps a yes/no text column to its "yes" label (:func:`yes_label`): read as 1, the
    other value as 0.
    """

    def __init__(self, columns, yes: dict | None = None):
        self.columns = list(columns)
        self.yes = dict(yes or {})
        k = len(self.columns)
        self.ones = np.zeros((k, k), dtype=np.int64)
        self.missing = np.zeros((k, k), dtype=np.int64)

    def _values(self, name: str, column) -> np.ndarray:
        if name not in self.yes:
            return column.as_float()
        codes = np.asarray(column.values, dtype=np.int64)
        is_yes = np.array([label == self.yes[name] for label in column.labels] + [False])
        return np.where(codes < 0, np.nan, is_yes[codes].astype(np.float64))

    def add(self, chunk) -> None:
        values = dict(zip(chunk.names, chunk.columns))
        floats = np.column_stack([self._values(c, values[c]) for c in self.columns])
        absent = np.isnan(floats)
        ones = np.where(absent, 0.0, floats).astype(np.int64)
        gone = absent.astype(np.int64)
        self.ones += ones.T @ ones
        self.missing += gone.T @ gone

    def merge(self, other: MissingCounts) -> None:
        """Add the counts of rows gathered apart."""
        self.ones += other.ones
        self.missing += other.missing


def searched_columns(profile) -> tuple[list[str], dict[str, str]]:
    """The columns the missing-together search reads: 0/1 features with some (not all) values missing,
    and yes/no text columns, at most :data:`MAX_COLUMNS` (by name); and each yes/no column's "yes".
    """
    numeric = profile.numeric
    n = profile.n_rows
    yes = {}
    for name, stats in profile.text.items():
        label = yes_label(stats.levels.keys) if stats.levels is not None else None
        if name != profile.target and label is not None and stats.n_missing < n:
            yes[name] = label
    partly_missing = numeric.zero_one & (numeric.n_missing > 0) & (numeric.n_missing < n)
    flags = [numeric.names[j] for j in np.flatnonzero(partly_missing).tolist()]
    columns = sorted([name for name in flags if name != profile.target] + list(yes))[:MAX_COLUMNS]
    return columns, {c: yes[c] for c in columns if c in yes}


def search(
    profile, reduce_rows, table_order: dict[str, int], budget: Budget, min_evidence: float, max_share: float
) -> tuple[list[Group], list[Group]]:
    """:func:`missing_together_groups` over the columns :func:`searched_columns` names, counted in one pass.

    ``reduce_rows(columns, accumulator)`` is the context's pass over the rows (those columns alone).

    Returns
    -------
    (groups, flags)
    """
    columns, yes = searched_columns(profile)
    if len(columns) < 2:
        return [], []
    counts = reduce_rows(columns, MissingCounts(columns, yes))
    return missing_together_groups(
        counts, profile.n_rows, table_order, list(profile.names), budget, min_evidence, max_share
    )


def missing_together_groups(
    counts: MissingCounts,
    n_rows: int,
    table_order: dict[str, int],
    all_names,
    budget: Budget,
    min_evidence: float,
    max_share: float,
) -> tuple[list[Group], list[Group]]:
    """One-hot and drop-first groups among 0/1 columns missing on the same rows, on the rows where they are known.

    Each group's ``n_rows`` is its known rows, and its evidence says how many rows have
    every member missing (``missing_rows``).  A drop-first set is kept as :mod:`exclusive`
    keeps one: its exclusivity is beyond chance (``min_evidence`` nats) or its names share
    a stem; sets whose names point to two variables are left out, and a set whose all-zero
    rows other flags of the class fill (:func:`~nblint.structure.kin.filling_kin`) is
    exclusive flags, not a group.

    Returns
    -------
    (groups, flags)
    """
    columns = counts.columns
    M, O = counts.missing, counts.ones
    absent = np.diag(M)
    same = (M == absent[:, None]) & (M == absent[None, :])
    found: list[Group] = []
    flags: list[Group] = []
    seen: set[int] = set()
    for i in sorted(range(len(columns)), key=lambda k: columns[k]):
        if i in seen:
            continue
        members = [k for k in np.flatnonzero(same[i]).tolist() if k not in seen]
        seen.update(members)
        known = n_rows - int(absent[i])
        if len(members) < 2 or known <= 0:
            continue
        names = [columns[k] for k in members]
        block = O[np.ix_(members, members)]
        for group in find_onehot_groups(names, block, known, table_order, budget).onehot:
            found.append(_known(group, int(absent[i])))
        taken = {m for g in found for m in g.members}
        rest = [p for p, name in enumerate(names) if name not in taken]
        if len(rest) < 2:
            continue
        sub_names = [names[p] for p in rest]
        for s in dummy_sets(sub_names, block[np.ix_(rest, rest)], known, all_names, budget, min_evidence):
            set_names = sorted((sub_names[k] for k in s.members), key=table_order.__getitem__)
            if not (s.evidence >= min_evidence or s.stem) or cross_stem(set_names, all_names):
                continue
            set_counts = [
                int(block[rest[k], rest[k]]) for k in sorted(s.members, key=lambda k: table_order[sub_names[k]])
            ]
            evidence: dict = {"reference_rows": known - sum(set_counts)}
            if s.evidence >= min_evidence:
                evidence["exclusivity_evidence"] = round(s.evidence, 3)
                evidence["expected_cooccurrences_if_independent"] = round(expected_cooccurrences(set_counts, known), 3)
            if s.stem:
                evidence["shared_name_stem"] = s.stem
            kin = filling_kin([rest[k] for k in s.members], block, known, max_share) if not s.stem else []
            if kin:
                evidence["filling_kin"] = sorted((names[k] for k in kin), key=table_order.__getitem__)
                flags.append(_known(Group("dummy", set_names, set_counts, known, None, evidence), int(absent[i])))
                continue
            if s.undecided:
                continue  # (a rival reading as good: no group is claimed)
            group = Group("dummy", set_names, set_counts, known, group_stem(set_names, all_names), evidence)
            found.append(_known(group, int(absent[i])))
    found.sort(key=lambda g: table_order[g.members[0]])
    flags.sort(key=lambda g: table_order[g.members[0]])
    return found, flags


def _known(group: Group, missing: int) -> Group:
    group.evidence["missing_rows"] = missing
    return group
