"""Analyses shared by the rules: computed once per table, on first use, then cached.

A :class:`TableContext` wraps one table's profile.  Rules ask it for the
structure of the table (groups, VIF, duplicates) and never read rows.  Where a
per-row result is needed (example rows of a broken group, verifying that a code
column decodes a group, that two columns are identical), the context makes one
extra chunked pass over the candidates only (:meth:`TableContext.row_checks`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np

from nblint.hashing import mix64
from nblint.kinds import ColumnKind, infer_kinds
from nblint.profile import WIDE_BINARY, TableProfile
from nblint.readers import Chunk, TableSource
from nblint.structure import (
    Group,
    SEARCH_BUDGET,
    GroupSearch,
    VifResult,
    exclusivity_evidence,
    find_onehot_groups,
    find_onehot_groups_sparse,
    maximal_cliques,
    name_stem,
    variance_inflation,
)

#: How many example row numbers a finding carries.
EXAMPLE_ROWS = 5


@dataclass
class BrokenGroup:
    """A set of 0/1 columns that is one-hot on most rows but not all (NB103)."""

    members: list[str]
    counts: list[int]
    n_rows: int
    rows_zero: int
    rows_multi: int
    examples: list[int]
    stem: str | None

    @property
    def violations(self) -> int:
        return self.rows_zero + self.rows_multi


@dataclass
class Structure:
    """The column structure of a table (see :mod:`nblint.structure`)."""

    onehot: list[Group]
    dummy: list[Group]
    broken: list[BrokenGroup]
    #: Code column -> the group it carries the same information as.
    code_columns: dict[str, Group]
    #: Sets of columns identical in every row.
    identical: list[list[str]]
    capped: bool = False

    @property
    def groups(self) -> list[Group]:
        return self.onehot + self.dummy


class TableContext:
    """Everything the rules may know about one table.

    Parameters
    ----------
    source : TableSource
        Kept only for the candidate-verification pass.
    profile : TableProfile
    model : str or None
        The declared Naive Bayes event model.
    rule_options : dict
        Resolved options per rule code, ``{"NB104": {"vif-threshold": 10.0}}``.
    """

    def __init__(self, source: TableSource, profile: TableProfile, model: str | None = None,
                 rule_options: dict | None = None, alpha: float | None = None):
        self.source = source
        self.profile = profile
        self.model = model
        self.rule_options = rule_options or {}
        #: The smoothing the model uses, when known (config ``alpha`` or a pipeline); None: unknown.
        self.alpha = alpha

    # ---------------------------------------------------------------- basics

    #: What this context holds: the rules whose ``inputs`` include it run on it.
    input = "table"

    @property
    def path(self) -> str:
        return self.source.path

    @property
    def target(self) -> str | None:
        return self.profile.target

    @property
    def n_rows(self) -> int:
        return self.profile.n_rows

    def option(self, code: str, name: str) -> Any:
        """A rule option's resolved value (analyses read the options of the rule they serve)."""
        return self.rule_options[code][name]

    @cached_property
    def table_order(self) -> dict[str, int]:
        return {name: i for i, name in enumerate(self.profile.names)}

    def scan(self, columns) -> "list[Chunk] | Any":
        """Iterate the table again, in chunks, restricted to ``columns`` (second pass)."""
        return self.source.chunks(list(columns))

    # ---------------------------------------------------------------- structure

    @cached_property
    def group_search(self) -> GroupSearch:
        gram = self.profile.gram
        if gram.wide:
            return find_onehot_groups_sparse(gram.binary, gram.cooccurrence, gram.n, self.table_order, gram.sparse_rows)
        return find_onehot_groups(gram.binary, gram.cooccurrence, gram.n, self.table_order)

    @cached_property
    def limits(self) -> list[str]:
        """What was not checked, or checked only in part, on this table (reported by NB106)."""
        gram = self.profile.gram
        notes = []
        if gram.wide:
            notes.append(
                f"wide table: {len(gram.binary)} complete 0/1 columns (more than {self.wide_binary}): one-hot groups "
                "and identical 0/1 columns are found exactly from sparse co-occurrence counts; dummy and broken "
                "groups (NB102, NB103) are not searched, and VIF (NB104) covers the "
                f"{len(gram.names)} other complete numeric columns only"
            )
        if self.group_search.capped or self.structure.capped:
            notes.append(f"group search stopped at its budget of {SEARCH_BUDGET} nodes; some groups may be missing")
        notes += [f"column {name!r} not checked: it holds {why}" for name, why in self.source.skipped.items()]
        from nblint.impact import impact_limit

        notes += [note for note in [impact_limit(self)] if note]
        return notes + list(self.profile.limits)

    @property
    def wide_binary(self) -> int:
        """More complete 0/1 columns than this make the table wide (NB106's ``wide-columns``)."""
        return int(self.rule_options.get("NB106", {}).get("wide-columns", WIDE_BINARY))

    @cached_property
    def kinds(self) -> dict[str, ColumnKind]:
        """Every column's kind and recommended event model (see :mod:`nblint.kinds`)."""
        return infer_kinds(self.profile, self.structure.groups, self.structure.code_columns)

    def features_of_kind(self, *kinds: str) -> list[str]:
        """Feature columns of the given kinds, in table order."""
        return [c for c, k in self.kinds.items() if k.kind in kinds]

    @cached_property
    def impact(self):
        """CAT against PoB on this table (:mod:`nblint.impact`), with NB401's options."""
        from nblint.impact import ImpactSettings, measure_impact

        options = self.rule_options["NB401"]
        settings = ImpactSettings(
            alpha=self.alpha if self.alpha is not None else float(options["alpha"]),
            folds=int(options["folds"]),
            seed=int(options["seed"]),
        )
        return measure_impact(self, settings)

    @cached_property
    def vif(self) -> VifResult:
        gram = self.profile.gram
        return variance_inflation(gram.names, gram.comoment, self.group_search.onehot)

    @cached_property
    def structure(self) -> Structure:
        """Groups, broken groups, code columns and identical columns, verified."""
        search = self.group_search
        n = self.n_rows
        max_share = float(self.option("NB103", "max-violation-share"))
        min_evidence = float(self.option("NB102", "min-evidence"))

        # Sets of leftover 0/1 columns that are nearly one variable: either exclusive
        # (a dummy group, or a one-hot group with a few all-zero rows) or overlapping
        # on a few rows (a one-hot group with errors).
        broken_candidates: list[tuple[list[str], list[int]]] = []
        dummy_candidates: list[Group] = []
        for members, counts, overlap in self._near_groups(search, max_share):
            zero_rows = n - sum(counts)
            if overlap == 0 and not (0 < zero_rows <= max_share * n and zero_rows * 2 <= min(counts)):
                dummy_candidates.append(Group("dummy", members, counts, n, name_stem(members)))
            else:
                broken_candidates.append((members, counts))

        code_candidates = self._code_column_candidates(search.onehot + dummy_candidates)
        identical_exact, identical_candidates = self._identical_candidates()
        checks = self.row_checks(broken_candidates, code_candidates, identical_candidates)

        code_columns: dict[str, Group] = {}
        for (column, group), ok in zip(code_candidates, checks["decodes"]):
            if ok and column not in code_columns:
                code_columns[column] = group
        decoded = {id(g) for g in code_columns.values()}

        dummy: list[Group] = []
        for cand in dummy_candidates:
            evidence = exclusivity_evidence(cand.counts, n)
            reasons = {}
            if evidence >= min_evidence:
                reasons["expected_cooccurrences_if_independent"] = round(evidence, 3)
            if cand.stem:
                reasons["shared_name_stem"] = cand.stem
            if id(cand) in decoded:
                reasons["decoded_by"] = next(c for c, g in code_columns.items() if g is cand)
            if reasons:
                dummy.append(Group("dummy", cand.members, cand.counts, n, cand.stem,
                                   {"reference_rows": n - sum(cand.counts), **reasons}))
                for column, group in list(code_columns.items()):
                    if group is cand:
                        code_columns[column] = dummy[-1]
        kept = {id(g) for g in search.onehot} | {id(g) for g in dummy}
        code_columns = {c: g for c, g in code_columns.items() if id(g) in kept}

        broken = []
        for (members, counts), result in zip(broken_candidates, checks["row_sums"]):
            zero, multi, examples = result
            bad = zero + multi
            if 0 < bad <= max_share * n:
                broken.append(BrokenGroup(members, counts, n, zero, multi, examples, name_stem(members)))

        identical = sorted(identical_exact + checks["identical"], key=lambda cols: self.table_order[cols[0]])
        return Structure(search.onehot, dummy, broken, code_columns, identical, search.budget[0] <= 0)

    def _near_groups(self, search: GroupSearch, max_share: float):
        """Maximal sets of 0/1 columns (outside one-hot groups) that are nearly exclusive.

        Two columns are "near" when no row has both, or when the rows that have both
        are few (at most ``max_share`` of the rows) and at most half of what
        independent columns would share.  Maximal cliques of that graph are kept
        when they are exclusive, or when, overlaps counted twice, they still cover
        nearly every row (``sum s - 2 sum O_kl >= (1 - max_share) n``, a lower bound
        on the rows summing to exactly one).

        Yields
        ------
        (members, counts, overlap)
        """
        gram = self.profile.gram
        n = gram.n
        if gram.wide:
            return  # the near-exclusivity graph of a wide table is dense: not searched (see `limits`)
        in_group = {m for g in search.onehot for m in g.members}
        idx = [i for i, name in enumerate(gram.binary) if name not in in_group]
        if len(idx) < 2 or n == 0:
            return
        O = gram.cooccurrence[np.ix_(idx, idx)]
        s = np.diag(O).astype(np.float64)
        usable = (s > 0) & (s < n)
        expected = np.outer(s, s) / n
        near = ((O == 0) | ((O <= max_share * n) & (O <= 0.5 * expected))) & usable[:, None] & usable[None, :]
        np.fill_diagonal(near, False)
        names = [gram.binary[i] for i in idx]
        order = sorted(range(len(idx)), key=lambda k: self.table_order[names[k]])
        for clique in maximal_cliques(near, order, search.budget):
            pairs = O[np.ix_(clique, clique)]
            overlap = int((pairs.sum() - np.trace(pairs)) // 2)
            total = int(s[clique].sum())
            if overlap and total - 2 * overlap < (1 - max_share) * n:
                continue
            yield [names[k] for k in clique], [int(s[k]) for k in clique], overlap

    def _code_column_candidates(self, groups: list[Group]):
        """Discrete columns whose level counts equal a group's level counts (to verify)."""
        profile = self.profile
        pairs = []
        members = {m for g in groups for m in g.members}
        signatures = [
            sorted(group.counts + ([self.n_rows - sum(group.counts)] if group.kind == "dummy" or sum(group.counts) < self.n_rows else []))
            for group in groups
        ]
        sizes = {len(signature) for signature in signatures}
        # Each column's level counts once (not once per group: wide tables have thousands of columns).
        column_counts = {}
        for column in profile.features:
            if column in members or profile.n_missing(column):
                continue
            levels = profile.levels(column)
            if levels is not None and len(levels.keys) in sizes:
                column_counts[column] = sorted(levels.totals.tolist())
        for group, signature in zip(groups, signatures):
            for column, counts in column_counts.items():
                if counts == signature:
                    pairs.append((column, group))
        return pairs

    def _identical_candidates(self) -> tuple[list[list[str]], list[list[str]]]:
        """Columns identical in every row: exact sets, and candidate sets to verify.

        Complete 0/1 columns are decided exactly by their co-occurrence counts
        (``O_ij = O_ii = O_jj``).  Complete numeric columns are candidates when their
        means and co-moments agree (correlation one, same mean and variance); other
        columns when cheap profile keys agree.  Candidates are verified by a 64-bit
        hash of the whole column in :meth:`row_checks`.
        """
        profile, gram, numeric = self.profile, self.profile.gram, self.profile.numeric
        exact = _identical_sparse(gram) if gram.wide else _identical_dense(gram)
        binary = set(gram.binary)
        complete = {name: j for j, name in enumerate(gram.names)}
        keys: dict[tuple, list[str]] = {}
        for column in profile.features:
            if column in binary:
                continue
            if column in profile.text:
                levels = profile.text[column].levels
                key = ("text", profile.n_missing(column), None if levels is None else (levels.keys, tuple(levels.totals)))
            else:
                j = numeric.names.index(column)
                if numeric.n_missing[j] == profile.n_rows:
                    continue  # all missing: a constant column, not a duplicate
                key = ("numeric", int(numeric.n_missing[j]), float(numeric.minimum[j]), float(numeric.maximum[j]))
            keys.setdefault(key, []).append(column)
        candidates = []
        for cols in keys.values():
            if len(cols) < 2:
                continue
            if all(c in complete for c in cols):
                # Keep only pairs whose centred co-moments say "the same column".
                idx = [complete[c] for c in cols]
                M = gram.comoment[np.ix_(idx, idx)]
                d = np.sqrt(np.abs(np.diag(M)))
                scale = np.outer(d, d) + 1e-300
                mean = gram.mean[idx]
                close = (np.abs(M - np.diag(M)[:, None]) <= 1e-9 * scale) & (np.abs(M - np.diag(M)[None, :]) <= 1e-9 * scale)
                close &= np.abs(mean[:, None] - mean[None, :]) <= 1e-12 * (1 + np.abs(mean[:, None]))
                taken: set[int] = set()
                for a in range(len(cols)):
                    if a in taken:
                        continue
                    partners = [b for b in np.flatnonzero(close[a]) if b >= a and b not in taken]
                    taken.update(partners)
                    if len(partners) > 1:
                        candidates.append([cols[b] for b in partners])
            else:
                candidates.append(cols)
        return exact, candidates

    def row_checks(self, broken_candidates, code_candidates, identical_candidates) -> dict:
        """One chunked pass computing every per-row verification at once.

        Returns
        -------
        dict
            ``row_sums``: (rows summing to 0, rows summing to 2+, example rows) per
            broken candidate; ``decodes``: per (code column, group) pair, whether the
            column and the group determine each other row by row; ``identical``:
            lists of columns whose values agree on every row.
        """
        row_sums = [[0, 0, []] for _ in broken_candidates]
        # For each code candidate: observed (code level, group level) pairs.
        pair_tables: list[set] = [set() for _ in code_candidates]
        hashes = {c: np.uint64(0) for cols in identical_candidates for c in cols}
        needed = sorted({m for members, _ in broken_candidates for m in members}
                        | {c for c, _ in code_candidates} | {m for _, g in code_candidates for m in g.members}
                        | set(hashes), key=lambda c: self.table_order[c])
        if needed:
            for chunk in self.scan(needed):
                self._check_chunk(chunk, broken_candidates, row_sums, code_candidates, pair_tables, hashes)
        decodes = []
        for pairs in pair_tables:
            codes = [a for a, _ in pairs]
            levels = [b for _, b in pairs]
            decodes.append(len(set(codes)) == len(pairs) and len(set(levels)) == len(pairs))
        identical = []
        for cols in identical_candidates:
            by_hash: dict[int, list[str]] = {}
            for c in cols:
                by_hash.setdefault(int(hashes[c]), []).append(c)
            identical += [group for group in by_hash.values() if len(group) > 1]
        return {"row_sums": [tuple(r) for r in row_sums], "decodes": decodes, "identical": identical}

    def _check_chunk(self, chunk: Chunk, broken_candidates, row_sums, code_candidates, pair_tables, hashes):
        values = {name: col for name, col in zip(chunk.names, chunk.columns)}
        for (members, _), acc in zip(broken_candidates, row_sums):
            total = np.zeros(chunk.n_rows, dtype=np.int64)
            for m in members:
                total += values[m].values.astype(np.int64)
            bad = np.flatnonzero(total != 1)
            acc[0] += int((total == 0).sum())
            acc[1] += int((total >= 2).sum())
            room = EXAMPLE_ROWS - len(acc[2])
            if room > 0:
                acc[2].extend(int(r) + chunk.row_offset + 1 for r in bad[:room])
        for (column, group), pairs in zip(code_candidates, pair_tables):
            k = len(group.members) + 1
            level = np.full(chunk.n_rows, k - 1, dtype=np.int64)
            for position, m in enumerate(group.members):
                level[values[m].values.astype(bool)] = position
            col = values[column]
            if col.kind == "text":
                # Distinct (code, level) pairs of this chunk, then local codes -> labels.
                for key in np.unique(col.values * k + level).tolist():
                    pairs.add((col.labels[key // k], key % k))
            else:
                stacked = np.column_stack([col.as_float(), level.astype(np.float64)])
                pairs.update((a, int(b)) for a, b in np.unique(stacked, axis=0).tolist())
        if hashes:
            weights = mix64(np.arange(chunk.row_offset, chunk.row_offset + chunk.n_rows, dtype=np.uint64) + np.uint64(0x9E3779B97F4A7C15))
            for column in hashes:
                with np.errstate(over="ignore"):
                    hashes[column] = np.uint64(hashes[column] + np.sum(mix64(_value_hash(values[column]) ^ weights), dtype=np.uint64))


def _value_hash(col) -> np.ndarray:
    """A 64-bit hash of each row's value, equal for equal values across columns."""
    import pandas as pd

    if col.kind == "text":
        label_hash = pd.util.hash_array(np.array(col.labels + ("\x00missing",), dtype=object))
        return label_hash[col.values]
    values = col.as_float()
    bits = values.view(np.uint64).copy()
    bits[np.isnan(values)] = np.uint64(0x7FF8000000000001)  # one canonical NaN
    return mix64(bits)


def _identical_dense(gram) -> list[list[str]]:
    """Sets of identical 0/1 columns from the co-occurrence matrix: ``O_ij = O_ii = O_jj``."""
    exact: list[list[str]] = []
    O = gram.cooccurrence
    seen: set[int] = set()
    for i in range(len(gram.binary)):
        if i in seen:
            continue
        same = np.flatnonzero((O[i] == O[i, i]) & (np.diag(O) == O[i, i]))
        if len(same) > 1:
            seen.update(same.tolist())
            exact.append([gram.binary[k] for k in same])
    return exact


def _identical_sparse(gram) -> list[list[str]]:
    """Sets of identical 0/1 columns from sparse co-occurrences: ``O_ij = O_ii = O_jj``.

    Columns with no ones are identical to each other; they share no stored pair.
    """
    O = gram.cooccurrence.tocoo()
    ones = gram.diagonal()
    same = (O.row < O.col) & (O.data == ones[O.row]) & (O.data == ones[O.col])
    first = np.arange(len(gram.binary))
    for i, j in sorted(zip(O.row[same].tolist(), O.col[same].tolist())):
        first[j] = min(first[j], first[i])
    empty = np.flatnonzero(ones == 0)
    if len(empty) > 1:
        first[empty] = empty[0]
    sets: dict[int, list[str]] = {}
    for k, root in enumerate(first.tolist()):
        sets.setdefault(root, []).append(gram.binary[k])
    return [cols for cols in sets.values() if len(cols) > 1]
