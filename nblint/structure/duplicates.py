"""Columns that carry the same information: identical columns, and a code column beside its own indicators.

Complete 0/1 columns are decided exactly from their co-occurrence counts.  Other
columns are only *candidates* here, found from profile statistics that identical
columns must share; :meth:`nblint.analysis.context.TableContext.row_checks` verifies them
row by row (a 64-bit hash of each column, or the table of (code, level) pairs).
"""

from __future__ import annotations

from bisect import bisect_right

import numpy as np

from nblint.core.records import Record
from nblint.profile.levels import level_sizes
from nblint.readers import name_mask
from nblint.structure.groups import Group


def identical_binary_dense(binary, cooccurrence: np.ndarray, n_rows: int) -> list[list[str]]:
    """Sets of identical 0/1 columns from the co-occurrence matrix: ``O_ij = O_ii = O_jj``.

    Constant columns (no ones, or all ones) are NB204's finding, not duplicates.
    """
    exact: list[list[str]] = []
    O = cooccurrence
    ones = np.diag(O)  # (each column's count of ones, read once: the loop below visits every column)
    # Identical columns have the same count of ones: only columns sharing theirs with another are candidates.
    _, inverse, shared = np.unique(ones, return_inverse=True, return_counts=True)
    seen: set[int] = set()
    for i in np.flatnonzero(shared[inverse.reshape(-1)] > 1).tolist():
        if i in seen or ones[i] in (0, n_rows):
            continue  # a constant column (NB204's), not a duplicate
        same = np.flatnonzero((O[i] == ones[i]) & (ones == ones[i]))
        if len(same) > 1:
            seen.update(same.tolist())
            exact.append([binary[k] for k in same])
    return exact


def identical_binary_sparse(binary, incidence) -> list[list[str]]:
    """Sets of identical 0/1 columns of a wide block: columns set on the same rows (see :class:`Incidence`).

    Constant columns (no ones, or all ones) are NB204's finding, not duplicates.
    """
    return [[binary[k] for k in members] for members in incidence.identical_sets()]


def identical_candidates(profile) -> tuple[list[list[str]], list[list[str]]]:
    """Columns identical in every row: exact sets, and candidate sets to verify.

    Complete 0/1 columns are decided exactly by their co-occurrence counts.  Complete
    numeric columns are candidates when their means and co-moments agree
    (correlation one, same mean and variance); other columns when cheap profile keys
    agree (missing count, range, level counts).
    """
    gram, numeric = profile.gram, profile.numeric
    exact = (
        identical_binary_sparse(gram.binary, gram.cooccurrence)
        if gram.wide
        else identical_binary_dense(gram.binary, gram.cooccurrence, gram.n)
    )
    binary = set(gram.binary)
    if numeric.fingerprints is not None and not profile.text:
        features = profile.features
        others = np.array(features, dtype=object)[~name_mask(features, binary)].tolist()  # (a vocabulary at once)
        return exact + _same_fingerprint(profile, others), []
    complete = {name: j for j, name in enumerate(gram.names)}
    keys: dict[tuple, list[str]] = {}
    key: tuple
    for column in profile.features:
        if column in binary:
            continue
        if column in profile.text:
            levels = profile.text[column].levels
            if levels is not None and len(levels.keys) <= 1:
                continue  # constant: NB204's finding, not a duplicate
            key = ("text", profile.n_missing(column), None if levels is None else (levels.keys, tuple(levels.totals)))
        else:
            j = numeric.names.index(column)
            if numeric.n_missing[j] == profile.n_rows:
                continue  # all missing: a constant column, not a duplicate
            if numeric.minimum[j] == numeric.maximum[j]:
                continue  # constant: NB204's finding, not a duplicate
            key = ("numeric", int(numeric.n_missing[j]), float(numeric.minimum[j]), float(numeric.maximum[j]))
            if numeric.fingerprints is not None:  # (sparse input) as good as the hash pass: no pass needed
                key = ("fingerprint", int(numeric.fingerprints[j]))
        keys.setdefault(key, []).append(column)
    candidates = []
    for key, cols in keys.items():
        if len(cols) < 2:
            continue
        if key[0] == "fingerprint":
            exact.append(cols)
        elif all(c in complete for c in cols):
            # Keep only pairs whose centred co-moments say "the same column".
            candidates += [[cols[b] for b in same] for same in same_moments(gram, [complete[c] for c in cols])]
        else:
            candidates.append(cols)
    return exact, candidates


def same_moments(gram, idx) -> list[list[int]]:
    """Sets of positions in ``idx`` (complete columns of ``gram``) whose means and centred co-moments agree.

    Column ``b`` is close to ``a`` when ``M_ab`` equals both ``M_aa`` and ``M_bb`` to ``1e-9 d_a d_b``
    (``d = sqrt(|diag M|)``: correlation one, equal variances) and the means agree to
    ``1e-12 (1 + |mean_a|)``.  Greedily, in order: each ``a`` not yet in a set takes the close
    ``b >= a`` not yet in one.  Only columns whose means lie within twice that tolerance of
    ``mean_a`` (a window of the sorted means, wider than any rounding of the test) are compared,
    so the work follows the columns and the close pairs, never the square of a key's columns
    (5,200 columns of one range on a wide table); a column whose mean is not finite is compared
    with every column, as the test itself would.
    """
    idx = np.asarray(idx, dtype=np.int64)
    mean = gram.mean[idx]
    diag = gram.comoment[idx, idx]
    d = np.sqrt(np.abs(diag))
    finite = np.flatnonzero(np.isfinite(mean))
    by_mean = finite[np.argsort(mean[finite], kind="stable")]
    sorted_means = mean[by_mean]
    everyone = np.arange(len(idx))
    taken = np.zeros(len(idx), dtype=bool)
    sets = []
    for a in range(len(idx)):
        if taken[a]:
            continue
        tolerance = 1e-12 * (1 + np.abs(mean[a]))
        if np.isfinite(mean[a]):
            low = np.searchsorted(sorted_means, mean[a] - 2 * tolerance, side="left")
            high = np.searchsorted(sorted_means, mean[a] + 2 * tolerance, side="right")
            near = by_mean[low:high]
        else:
            near = everyone
        near = np.sort(near[(near >= a) & ~taken[near]])
        M_a = gram.comoment[idx[a], idx[near]]
        scale = d[a] * d[near] + 1e-300
        close = (np.abs(M_a - diag[a]) <= 1e-9 * scale) & (np.abs(M_a - diag[near]) <= 1e-9 * scale)
        close &= np.abs(mean[a] - mean[near]) <= tolerance
        partners = near[close]
        taken[partners] = True
        if len(partners) > 1:
            sets.append(partners.tolist())
    return sets


def _same_fingerprint(profile, columns: list[str]) -> list[list[str]]:
    """Sets of ``columns`` (numeric, of a sparse input) with equal fingerprints, constant columns left out.

    What :func:`identical_candidates` finds column by column, for a vocabulary at once: the
    sets in the order of their first column, each in the order of ``columns``.
    """
    numeric = profile.numeric
    position = numeric.names.positions()
    at = np.fromiter(map(position.__getitem__, columns), dtype=np.int64, count=len(columns))
    # All missing, or one value: a constant column (NB204's finding), not a duplicate.
    kept = np.flatnonzero(~((numeric.n_missing[at] == profile.n_rows) | (numeric.minimum[at] == numeric.maximum[at])))
    _, first, inverse, count = np.unique(
        numeric.fingerprints[at[kept]], return_index=True, return_inverse=True, return_counts=True
    )
    grouped = kept[np.argsort(inverse.reshape(-1), kind="stable")]  # each key's columns together, in order
    shared = np.flatnonzero(count > 1)
    shared = shared[np.argsort(first[shared], kind="stable")]
    # Every shared key's run of ``grouped``, concatenated in that order, named at once and cut into sets
    # (a hashed vocabulary has thousands of such sets: no array slice per set).
    sizes = count[shared]
    ends = np.cumsum(sizes)
    starts = ends - sizes
    runs = np.arange(int(ends[-1]) if len(ends) else 0) + np.repeat((np.cumsum(count) - count)[shared] - starts, sizes)
    named = np.array(columns, dtype=object)[grouped[runs]].tolist()
    return [named[a:b] for a, b in zip(starts.tolist(), ends.tolist())]


def code_column_candidates(profile, groups: list[Group]) -> list[tuple[str, Group]]:
    """(column, group) pairs where a discrete column's level counts equal a group's level counts.

    A code column that carries the same variable as a group of indicators has one
    level per group level (the reference included) with the same counts; equal count
    signatures are necessary, and the row pass checks they are sufficient.
    """
    if not groups:
        return []
    members = {m for g in groups for m in g.members}
    # A group found on the rows where its members are known (missing together) is carried by a code
    # column missing on as many rows: its signature is over the known rows.
    missing_rows = {int(g.evidence["missing_rows"]) for g in groups if g.evidence.get("missing_rows")}
    signatures = [
        sorted(group.counts + ([group.n_rows - sum(group.counts)] if sum(group.counts) < group.n_rows else []))
        for group in groups
    ]
    sizes = {len(signature) for signature in signatures}
    # Each column's level counts once (not once per group: wide tables have thousands of columns);
    # the 0/1 columns' two counts from the class counts, without a table each.
    numeric = profile.numeric
    level_rows = [counts.sum(axis=0).tolist() for counts in numeric.level_counts]
    column_counts = {}
    for column in profile.features:
        missing = profile.n_missing(column)
        if column in members or (missing and missing not in missing_rows):
            continue
        j = None if column in profile.text else numeric.names.index(column)
        if j is not None and numeric.zero_one[j]:
            if missing:
                continue  # (a 0/1 column's two counts below are over every row)
            counts = sorted(rows[j] for rows in level_rows if rows[j] > 0)
            if len(counts) in sizes:
                column_counts[column] = counts
            continue
        levels = profile.levels(column)
        if levels is not None and len(levels.keys) in sizes:
            column_counts[column] = sorted(levels.totals.tolist())
    by_counts: dict[tuple, list[str]] = {}
    for column, counts in column_counts.items():
        by_counts.setdefault(tuple(counts), []).append(column)
    return [
        (column, group)
        for group, signature in zip(groups, signatures)
        for column in by_counts.get(tuple(signature), ())
    ]


#: Most pairs of columns checked for being recodings of each other (they cost a pass over both).
MAX_RECODE_PAIRS = 200
#: Rows per level (on average) a column needs for a one-to-one map to mean a recoding: values seen
#: once map one to one onto anything (two row identifiers), but a level on two rows or more maps only
#: when its rows are the same rows in both columns, which unrelated columns with the same level
#: counts do not do (a country's 9 spells of 1,808 carry the same code in both columns).
RECODE_ROWS_PER_LEVEL = 2


class CandidatePairs(Record):
    """The first pairs of a sorted listing of candidate pairs, and how many pairs the listing holds.

    (Written out: a named tuple's class costs a fresh process ~0.4 ms to create; none reads this as a tuple.)
    """

    __slots__ = ("first", "total")

    def __init__(self, first: list[tuple[str, str]], total: int) -> None:
        self.first = first
        self.total = total


def recode_candidates(profile, columns, partners=frozenset()) -> CandidatePairs:
    """Pairs of discrete columns (three or more levels, ten rows per level, none missing) with the same level counts.

    Two columns that recode one variable (``STORE`` 0..4 beside ``StoreID`` 1, 2, 3, 4, 7)
    have one level each per value with the same counts; equal sorted count signatures
    are necessary, and the row pass checks the values map one to one.  Columns in
    ``columns`` (features) are considered, the others left out (group members, code columns, the
    words of a vocabulary: never visited, the pairs being sorted whatever the order). Columns past the profile's cap
    on levels have no counts to compare: those with about ten rows per level (by their
    distinct-value sketch) are paired with each other, and the row pass decides. The first
    :data:`MAX_RECODE_PAIRS` candidate pairs, sorted, and the number of all (the caller checks those
    and says how many were left: :func:`first_pairs`).

    Columns in ``partners`` (integer columns read as counts or identifiers) are paired only
    with text columns: a number and a one-to-one function of it (``exper``, ``expersq``) are two
    features for a count or Gaussian model, but integers that map one to one onto the words of a
    categorical column (``cowcode2`` beside ``ctryname``) are its codes.
    """
    by_signature: dict[tuple, list[str]] = {}
    text = profile.text
    # The numeric columns that cannot qualify, all at once (a vocabulary has tens of thousands): with a
    # missing value, with fewer than three levels (0/1 columns have two) or more than the rows allow.
    numeric = profile.numeric
    sizes = np.where(numeric.zero_one, 2, level_sizes(numeric.levels))  # (-1: no table)
    hopeless = (numeric.n_missing > 0) | (sizes < 3) | (profile.n_rows < RECODE_ROWS_PER_LEVEL * sizes)
    position = numeric.names.positions()
    past_cap = (numeric.n_missing == 0) & ~numeric.zero_one & (sizes < 0)  # (no table: past the cap, or continuous)
    for column in sorted(columns):
        if profile.n_missing(column):
            continue
        levels = profile.levels(column)
        if levels is None and (column in profile.text or past_cap[numeric.names.index(column)]):
            distinct = profile.n_distinct(column)  # (None: a measurement, no sketch of its values)
            if distinct is not None and RECODE_ROWS_PER_LEVEL * distinct <= SKETCH_SLACK * profile.n_rows:
                by_signature.setdefault(("past the cap",), []).append(column)
            continue
        if column in position and hopeless[position[column]]:
            continue
        if levels is None or len(levels.keys) < 3 or profile.n_rows < RECODE_ROWS_PER_LEVEL * len(levels.keys):
            continue
        by_signature.setdefault(tuple(sorted(levels.totals.tolist())), []).append(column)
    return first_pairs(by_signature.values(), partners, text, MAX_RECODE_PAIRS)


def first_pairs(groups, partners, text, limit: int) -> CandidatePairs:
    """The first ``limit`` of the sorted pairs ``(a, b)``, ``a < b``, of one group that may pair, and their number.

    The listing is every pair of names within one of ``groups`` (disjoint sets of names) that
    may recode each other, sorted: a name in ``partners`` (integer codes) only beside a name in
    ``text`` (a column of words); exactly, ``a`` in ``partners`` needs ``b`` in ``text``, and
    otherwise ``b`` in ``partners`` needs ``a`` in ``text``.  It is never built.  Sorted pairs
    come ``a`` by ``a``, and ``a``'s partners are the names after it in its group that it may
    pair with: every one (``a`` a column of words, no partner), the words (``a`` a partner) or
    the non-partners (any other ``a``), each a sorted list cut at ``a`` by bisection.  So the
    work follows the columns and the pairs kept, never the square of a group (5,200 columns of
    one level-count signature are 13.5 million pairs).
    """
    partners_of: dict[str, tuple[list[str], ...]] = {}
    for group in groups:
        members = sorted(group)
        lists = (members, [b for b in members if b in text], [b for b in members if b not in partners])
        partners_of.update(dict.fromkeys(members, lists))
    first: list[tuple[str, str]] = []
    total = 0
    for a in sorted(partners_of):
        members, words, plain = partners_of[a]
        allowed = words if a in partners else members if a in text else plain
        after = bisect_right(allowed, a)  # (names are distinct: every b past a)
        total += len(allowed) - after
        if len(first) < limit:
            first += [(a, b) for b in allowed[after : after + limit - len(first)]]
    return CandidatePairs(first, total)


#: Slack on a distinct-value sketch's estimate (about 3% relative error) when choosing candidates.
SKETCH_SLACK = 1.25
