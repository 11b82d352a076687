"""Analyses shared by the rules: computed once per table, on first use, then cached.

A :class:`TableContext` wraps one table's profile.  Rules ask it for the
structure of the table (groups, VIF, duplicates, kinds, separations) and never
read rows.  The algorithms are pure functions of the profile in
:mod:`nblint.structure` and :mod:`nblint.structure.leakage`; the context only caches their
results and feeds them the settings the rules declared (``ctx.settings``, typed).
Where a per-row result is needed (example rows of a broken group, verifying that
a code column decodes a group, that two columns are identical), the context
makes one extra chunked pass over the candidates only (:meth:`TableContext.row_checks`).
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any, cast

import numpy as np

from nblint.analysis.presence import ClassPresence
from nblint.analysis.rowchecks import RowChecks, RowVerdicts
from nblint.analysis.rows import DuplicateRows, RowFingerprints, duplicate_rows
from nblint.engine import shared_settings
from nblint.profile.incidence import Incidence
from nblint.profile.levels import PairLevels, key_counts, level_sizes
from nblint.profile.table import TableProfile, class_slots
from nblint.readers import Chunk, Names, TableSource
from nblint.readers.words import (
    encoded_names,
    indicator_encoding,
    levels_repeat,
    rare_typical_word,
    sparse_candidates,
)
from nblint.structure import (
    Budget,
    Group,
    GroupSearch,
    VifResult,
    chance,
    find_onehot_groups,
    find_onehot_groups_sparse,
    giveaways,
    leakage,
    missing_together,
    variance_inflation,
)
from nblint.structure.duplicates import (
    MAX_RECODE_PAIRS,
    code_column_candidates,
    identical_candidates,
    recode_candidates,
)
from nblint.structure.exclusive import BrokenCandidate, candidate_sets
from nblint.structure.families import exclusive_families
from nblint.structure.groups import exclusivity_evidence, expected_cooccurrences
from nblint.structure.kinds import ColumnKind, declared_kind, infer_kinds, is_documents, term_kinds
from nblint.structure.names import group_stem, informative_stem
from nblint.structure.nesting import Nesting, nested_groups
from nblint.structure.terms import row_count_sums


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
    #: The names enumerate every level (``smoker_yes``/``smoker_no``): the breakage is certain.
    complete_names: bool = False
    #: A drop-first set (``"dummy"``): its all-zero rows are the reference level, and only the
    #: rows with two or more set break it.
    kind: str = "one-hot"
    #: Stems of the one-hot groups written the same way (one encoder call that kept every level):
    #: why all-zero rows are breakage and not a dropped reference level.
    siblings: list = field(default_factory=list)

    @property
    def violations(self) -> int:
        """Rows that break the group: not summing to one (a drop-first set: summing to two or more)."""
        return self.rows_multi if self.kind == "dummy" else self.rows_zero + self.rows_multi


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
    #: Exclusive 0/1 columns whose names say they are not one variable (NB107): flags of different
    #: variables, a variable nested in another, or an exclusive subset of flags that overlap.
    flags: list[Group] = field(default_factory=list)
    #: Groups among 0/1 columns missing on the same rows, on the rows where they are known
    #: (:mod:`nblint.structure.missing_together`): reported by NB101/NB102, but kept out of
    #: :attr:`groups`, whose users (impact, the recommended model) read every row.
    missing_together: list[Group] = field(default_factory=list)
    #: Code column -> the group among :attr:`missing_together` it carries the same information as
    #: (NB105), kept apart from :attr:`code_columns` as those groups are from :attr:`groups`.
    missing_together_codes: dict[str, Group] = field(default_factory=dict)
    #: Groups nested in coarser groups (each fine level within one coarse level): NB105.
    nested: list[Nesting] = field(default_factory=list)

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
    alpha : float or None
        The smoothing the model uses, when known.
    kinds : dict or None
        Declared column kinds: column name or glob -> kind (they win over inference).
    """

    def __init__(
        self,
        source: TableSource,
        profile: TableProfile,
        model: str | None = None,
        rule_options: dict | None = None,
        alpha: float | None = None,
        kinds: dict | None = None,
    ):
        self.source = source
        self.profile = profile
        self.model = model
        self.rule_options = rule_options or {}
        #: The smoothing the model uses, when known (config ``alpha`` or a pipeline); None: unknown.
        self.alpha = alpha
        self.declared_kinds = dict(kinds or {})
        #: The analysis settings (the shared rule options), typed: ``ctx.settings.min_evidence``.
        self.settings = shared_settings(self.rule_options)
        #: One search budget for every combinatorial search over this table.
        self.budget = Budget()

    # ---------------------------------------------------------------- basics

    #: What this context holds: the rules whose ``inputs`` include it run on it.
    input = "table"
    #: The test (or serving) table compared with this training table, a
    #: :class:`nblint.run.pairing.TestComparison` (the NB6xx rules read it); None: no test table given.
    test: Any = None

    @property
    def path(self) -> str:
        return self.source.path

    @property
    def target(self) -> str | None:
        return self.profile.target

    @property
    def n_rows(self) -> int:
        return self.profile.n_rows

    @cached_property
    def table_order(self) -> dict[str, int]:
        """Column -> position in the profile, which is in name order (findings list columns so)."""
        names = self.profile.names
        return dict(zip(names, range(len(names))))

    @cached_property
    def source_order(self) -> dict[str, int]:
        """Column -> position in the table as given: for what is written back to the user (``nblint fix``)."""
        return {name: i for i, name in enumerate(self.source.names)}

    def scan(self, columns) -> list[Chunk] | Any:
        """Iterate the table again, in chunks, restricted to ``columns`` (second pass)."""
        return self.source.chunks(list(columns))

    def reduce_rows(self, columns, accumulator):
        """``accumulator.add(chunk)`` over the rows in order (restricted to ``columns``), returned.

        A source whose rows live elsewhere (Dask) adds each partition's chunks to a
        copy of the empty ``accumulator`` there and merges the copies here in row
        order (``accumulator.merge``), so the accumulator's results are the same.
        """
        return self.source.reduce_rows(list(columns), accumulator)

    # ---------------------------------------------------------------- structure

    @cached_property
    def group_search(self) -> GroupSearch:
        gram = self.profile.gram
        if gram.wide:
            search = find_onehot_groups_sparse(
                gram.binary,
                gram.cooccurrence,
                gram.n,
                self.table_order,
                self.budget,
                self._shown_exclusive,
            )
        else:
            binary, cooccurrence = self._searched_binary()
            search = find_onehot_groups(binary, cooccurrence, gram.n, self.table_order, self.budget)
        kept = [g for g in search.onehot if not self._by_chance(g.members, "cover")]
        return search if len(kept) == len(search.onehot) else replace(search, onehot=kept)

    @cached_property
    def _shown_exclusive(self) -> np.ndarray | None:
        """The wide 0/1 columns the one-hot search visits: all but the words too rare to be shown exclusive.

        Two columns that never meet are evidence of ``s_i s_j / n`` nats (the log of the chance
        that independent ones would not); a word of a document-term block that cannot reach
        ``min-evidence`` even beside the most frequent column is exclusive of the others by
        chance alone (rare words are pairwise exclusive by the thousand, and partition the rows
        in countless ways: an exact search among them runs to its budget). Columns outside a
        term block are all visited. None: every column.
        """
        gram = self.profile.gram
        terms = self.term_columns
        if not terms:
            return None
        counts = gram.diagonal()
        floor = self._evidence_floor(counts, gram.n)
        in_block = np.fromiter((name in terms for name in gram.binary), dtype=bool, count=len(gram.binary))
        shown = ~in_block | (np.asarray(counts) >= floor)
        return None if shown.all() else shown

    def _evidence_floor(self, counts: np.ndarray, n: int) -> float:
        """Rows a 0/1 column must be set on for ``min-evidence`` beside the most frequent usable column."""
        usable = counts[(counts > 0) & (counts < n)]
        most = int(usable.max()) if len(usable) else 0
        return self.settings.min_evidence * n / max(most, 1)

    @cached_property
    def term_supports(self) -> dict[str, int]:
        """Rows where each term column is non-zero (its document frequency), where known.

        A word's documents are its non-zero rows whatever their sign (a sign hash's negative words too).
        """
        nonzero, terms = self.nonzero_rows, self.term_columns
        if terms == nonzero.keys():  # (a vectorizer's matrix: every column is a term, copied at once)
            return dict(nonzero)
        known, position = self._nonzero.tolist(), cast(Names, self.profile.numeric.names).positions()
        return {c: known[position[c]] for c in terms if c in position and known[position[c]] >= 0}

    def _by_chance(self, members: list[str], relation: str) -> bool:
        """Whether an exact relation among term columns is what independent sparse columns produce by chance.

        Only relations whose members are all terms of a document-term block are weighed
        (:mod:`nblint.structure.chance`). Identical words seen in fewer than
        ``separation-min-rows`` documents rest on those few documents: chance, whatever
        their names and the other rare words of the corpus. Past that, names that share a
        stem say it is an encoding.
        """
        supports = self.term_supports
        if not members or any(m not in supports for m in members):
            return False
        # The documents are the independent draws, not the words: a document's words come together (a
        # name, a bigram, two product codes of one message), so a relation seen in fewer documents than a
        # level needs to count as evidence (``separation-min-rows``) is what those documents say, not
        # structure, whatever the names or the other rare words of the corpus.
        # (A cover's evidence is every row it partitions: it is weighed below.)
        if relation == "identical" and min(supports[m] for m in members) < self.settings.separation_min_rows:
            return True
        if group_stem(members, self.profile.names):
            return False
        peers = self._support_peers
        n = self.n_rows
        if relation == "cover":
            expected = chance.expected_covers([supports[m] for m in members], n, peers)
        else:
            # Pairwise: a long document's own words coincide as a set; the chance of one pair of them is
            # what independence can speak to, with rows drawn in proportion to the documents' lengths.
            support = supports[members[0]]
            expected = chance.expected_identical(support, 2, n, peers, self._length_spread)
        return expected >= chance.MAX_EXPECTED

    @cached_property
    def _length_spread(self) -> float:
        """``n * sum(q_d^2)`` for row weights ``q`` proportional to the rows' non-zero cells (1 when all are equal).

        Under independence with rows drawn in proportion to their lengths, two words of
        support ``s`` coincide about ``spread^s`` times more often than with rows drawn
        uniformly: long documents share their words.
        """
        found = self.duplicate_rows
        lengths = np.zeros(0) if found is None else found.lengths.astype(np.float64)
        if not len(lengths) or lengths.sum() == 0:
            return 1.0
        q = lengths / lengths.sum()
        return float(max(1.0, len(q) * np.dot(q, q)))

    @cached_property
    def _support_peers(self) -> Counter:
        return Counter(self.term_supports.values())

    @cached_property
    def limits(self) -> list[str]:
        """What was not checked, or checked only in part, on this table (reported by NB106)."""
        gram = self.profile.gram
        notes = []
        if gram.wide:
            notes.append(
                f"wide table: {len(gram.binary)} complete 0/1 columns (more than {self.wide_binary}): one-hot groups "
                "and identical 0/1 columns are found exactly from sparse co-occurrence counts; dummy and broken "
                f"groups (NB102, NB103) are searched among its {self.FREQUENT_BINARY} most frequent 0/1 columns only, and VIF "
                "(NB104) covers the "
                f"{len(gram.names)} other complete numeric columns only"
            )
            shown = self._shown_exclusive
            if shown is not None:
                floor = self._evidence_floor(gram.diagonal(), gram.n)
                notes.append(
                    f"one-hot groups (NB101) are searched among the {int(shown.sum()):,} 0/1 columns set on at least "
                    f"{math.ceil(floor):,} rows or outside the document-term block: its {int((~shown).sum()):,} rarer "
                    f"words cannot be shown exclusive of another column (min-evidence)"
                )
        notes.extend(self.source.limits)
        # (the words the profile gathered no co-moments for too; a wide table's 0/1 words are said above)
        wide_words = cast(Names, gram.binary).positions() if gram.wide else {}
        vif_words = len([t for t in self.term_columns if t not in wide_words])
        if vif_words:
            notes.append(
                f"VIF (NB104) leaves out the {vif_words:,} words of the document-term block: linear "
                "dependencies among words are what any bag of words has"
            )
        notes += self.incomplete
        notes += [f"column {name!r} not checked: it holds {why}" for name, why in self.source.skipped.items()]
        notes += [
            f"column {name!r} holds documents, read as one value per row (not checked as words): lint their "
            f"words with --text {name} (text = {name!r} in the config)"
            for name in sorted(self.profile.text)
            if name != self.target and is_documents(self.profile, name)
        ]
        if self.target is not None and self.structure.groups:  # (else nothing is measured: no import)
            from nblint.impact import impact_limit

            notes += [note for note in [impact_limit(self)] if note]
        return notes + list(self.profile.limits)

    @cached_property
    def incomplete(self) -> list[str]:
        """The notes of :attr:`limits` that say a finding may be missing (NB106 reports them as warnings).

        The levels past the profile's cap are counted by the pass over their (value, class)
        pairs; only a column with more pairs than the memory budget lets that pass hold is
        not, and then its per-level findings may be missing: the run says it is incomplete.
        So does a search for recodings (NB105) cut at :data:`MAX_RECODE_PAIRS` candidate pairs,
        and a group search that ran out of its node budget (:data:`~nblint.structure.budget.SEARCH_BUDGET`).
        """
        notes = []
        if self.structure.capped:  # (a group the search did not reach is a finding that may be missing)
            notes.append(f"group search stopped at its budget of {Budget().left} nodes; some groups may be missing")
        candidates = len(self._recode_candidates)
        if candidates > MAX_RECODE_PAIRS:
            notes.append(
                f"columns recoding each other (NB105) checked among the first {MAX_RECODE_PAIRS} of {candidates:,} "
                "candidate pairs of categorical columns (by name): each pair is a set of its (value, value) pairs "
                "in one more pass"
            )
        if self.target is None or not (self._past_level_cap or leakage.past_cap_candidates(self.profile, self.kinds)):
            return notes  # (no column past the cap: no pass, nothing left out)
        scan = self._past_cap_scan
        dropped = [c for c in scan.columns if c in scan.dropped]  # (table order)
        if not dropped:
            return notes
        listed = ", ".join(repr(c) for c in dropped[:5]) + (
            f" and {len(dropped) - 5:,} more" if len(dropped) > 5 else ""
        )
        plural = "s" if len(dropped) > 1 else ""
        return notes + [
            f"{len(dropped):,} discrete column{plural} with more distinct (value, class) pairs than the memory budget "
            f"lets one pass count ({scan.max_pairs:,} per column): {listed}: zero-count cells (NB201), levels seen in "
            "one class (NB202), rare levels (NB203) and whether they decide the target (NB208) are not checked there "
            "(raise memory-budget in the configuration)"
        ]

    @cached_property
    def _past_level_cap(self) -> list[str]:
        """Discrete features whose levels went past the profile's cap and a per-level rule reads, in table order.

        Categorical codes (NB201-NB203, NB208), and counts where the model reads them by
        their levels (a declared Categorical or Bernoulli model: NB201, NB203).
        """
        profile, terms = self.profile, self.term_columns

        def by_levels(kind: ColumnKind) -> bool:
            return kind.kind in leakage.LEVEL_KINDS or (
                kind.kind == "count" and (self.model or kind.model) in ("categorical", "bernoulli")
            )

        return [
            column
            for column, kind in self.kinds.items()
            if by_levels(kind)
            and column not in terms
            and profile.levels(column) is None
            and profile.n_distinct(column) is not None
        ]

    def level_pairs(self, column: str) -> PairLevels | None:
        """The contingency table of a feature past the cap on levels, by its non-empty cells (None: unknown)."""
        if self.target is None or column not in self._past_level_cap:
            return None
        return self._past_cap_scan.table(column)

    @property
    def wide_binary(self) -> int:
        """More complete 0/1 columns than this make the table wide (the ``wide-columns`` setting)."""
        return self.settings.wide_columns

    @cached_property
    def kinds(self) -> dict[str, ColumnKind]:
        """Every column's kind and recommended event model (see :mod:`nblint.structure.kinds`).

        The words of a document-term block are counts (or, fractional, weights read as
        measurements) whatever a single word looks like: a word with three distinct counts
        is not a categorical code. Group members, 0/1 words and declared kinds keep their kind.
        """
        groups = self.structure.groups
        members = {m for g in groups for m in g.members}
        terms, declared = self.term_columns, self.declared_kinds
        words = [c for c in terms if c not in members]
        if declared:
            words = [c for c in words if declared_kind(c, declared) is None]
        preset = term_kinds(self.profile, words)
        return infer_kinds(self.profile, groups, self.structure.code_columns, self.declared_kinds, preset)

    @cached_property
    def nonzero_rows(self) -> dict[str, int]:
        """Rows where each non-negative numeric feature is non-zero, where the profile tells (its levels)."""
        numeric = self.profile.numeric
        nonzero = self._nonzero
        target = self.target
        # (every column at once: a vocabulary has tens of thousands)
        at = np.flatnonzero((numeric.minimum >= 0) & (nonzero >= 0)).tolist()
        return {name: k for name, k in zip([numeric.names[j] for j in at], nonzero[at].tolist()) if name != target}

    @cached_property
    def _nonzero(self) -> np.ndarray:
        """:attr:`nonzero_rows` as an array over the profile's numeric columns, -1 where unknown."""
        numeric = self.profile.numeric
        n_rows = numeric.class_n.sum(axis=0)  # (p,) non-missing rows
        nonzero = np.full(len(numeric.names), -1, dtype=np.int64)  # -1: unknown (levels past the cap)
        zero_one = numeric.zero_one  # (only their sums are counts: other columns' may be infinite)
        nonzero[zero_one] = np.rint((numeric.class_mean[:, zero_one] * numeric.class_n[:, zero_one]).sum(axis=0))
        # The other columns with a table: the rows that are not at the level 0.
        tabled = ~zero_one & (level_sizes(numeric.levels) >= 0)
        zeros = key_counts(numeric.levels, 0.0, numeric.class_n.shape[0]).sum(axis=0)
        nonzero[tabled] = n_rows[tabled] - zeros[tabled]
        return nonzero

    @cached_property
    def term_columns(self) -> frozenset[str]:
        """The columns of a document-term block (a bag of words, n-gram counts, tf-idf weights), or none.

        A term column is a numeric feature with no negative value (or whole, a count with a
        negative cell) that is zero on at least half of its rows: a word absent from most documents; beside a block of counts, also a
        whole count from 0 (not 0/1) that is present in more: a frequent word. Only a block is text:
        at least ``term-block`` such columns (the setting), so a lone count beside measurements
        is never one, whose typical column is rare (Zipf's law: :func:`nblint.readers.words.rare_typical_word`); and a block of 0/1 columns whose rows each set one column per variable (a
        one-hot encoding, however many levels) is indicators, not words (:mod:`nblint.readers.words`).
        Declared words (a vectorizer's output, ``--text``) are the block whatever their number.
        Rules read a term column the way text models do: Bernoulli NB's
        binarisation at 0 is word presence (the multivariate Bernoulli event model), and a
        rare term is one seen in few rows, whatever its counts.
        """
        numeric = self.profile.numeric
        n_rows = numeric.class_n.sum(axis=0)
        nonzero, target = self._nonzero, self.target
        if self.source.words is not None:
            return self.source.words - {target}
        # (whole counts with a negative cell are words too: a corrupted count, a hashing vectorizer's sign)
        signed_counts = numeric.integral & ~(numeric.minimum >= 0) & (nonzero >= 0) & (2 * nonzero <= n_rows)
        at = np.flatnonzero(sparse_candidates(numeric.minimum, nonzero, n_rows) | signed_counts).tolist()
        sparse = [name for name in (numeric.names[j] for j in at) if name != target]
        if len(sparse) < self.settings.term_block or not rare_typical_word(nonzero[at], self.n_rows):
            return frozenset()
        zero_one = numeric.zero_one[at]
        if zero_one.all() and (
            (levels_repeat(nonzero[at]) and self._indicator_encoding(sparse)) or encoded_names(sparse)
        ):
            return frozenset()
        # A sparse matrix given as such (a vectorizer's output) is one block: its frequent words
        # ('the', in 93% of documents) are terms too, and so are words with a negative cell (an
        # error in the counts, or a hashing vectorizer's signs: NB302 says so once for the block).
        # In a dense file only the sparse columns are.
        if numeric.fingerprints is not None:
            block = frozenset(numeric.names) - {target}
            # (--text: the vocabulary is known, and the table's numeric columns beside it are not words)
            words = self.source.words
            return block if words is None or len(words) == len(block) else block & frozenset(words)
        # In a dense file, a frequent word of a block of counts is a count absent from some
        # documents ('it' in 60 of 100, 'the' in 95): whole, from 0, not 0/1 (an indicator beside
        # the words may be as frequent); only where the block's words are counts too.
        if (numeric.integral[at] & (numeric.maximum[at] > 1)).any():
            frequent = np.flatnonzero(
                (numeric.minimum == 0) & numeric.integral & (numeric.maximum > 1) & (2 * nonzero > n_rows)
            ).tolist()
            sparse += [name for name in (numeric.names[j] for j in frequent) if name != target]
        return frozenset(sparse)

    def _indicator_encoding(self, columns: list[str]) -> bool:
        """Whether the rows of these 0/1 columns say they are indicators of variables, not words (:mod:`nblint.structure.terms`).

        Read over the complete ones (those with the co-occurrence counts); with none, not an encoding.
        """
        gram = self.profile.gram
        binary = cast(Names, gram.binary).positions()
        complete = [c for c in columns if c in binary]
        if not complete:
            return False
        ones, squares = row_count_sums(gram, complete)
        return indicator_encoding(ones, squares, gram.n, self.settings.max_violation_share) is not None

    @cached_property
    def duplicate_rows(self) -> DuplicateRows | None:
        """Identical rows of a table that holds a document-term block (:mod:`nblint.analysis.rows`); else None.

        Only documents: in a narrow table of a few discrete columns, identical rows are what
        the values allow, not copies. The pass reads the features and the target once more
        (a sparse input as its row blocks).
        """
        if not self.term_columns:
            return None
        return self._row_pass(self.term_columns)

    @cached_property
    def empty_documents(self) -> DuplicateRows | None:
        """:attr:`duplicate_rows`, with its empty rows those with no word set.

        The structure may read some columns of the block as an encoded variable (a one-hot
        metadata group given in one matrix with the words): those do not fill a document, and
        only then is the pass made again with the words alone (the structure itself reads
        :attr:`duplicate_rows`, so the first pass cannot wait for it).
        """
        found = self.duplicate_rows
        if found is None:
            return None
        encoded = {c for group in self.structure.groups for c in group.members} & self.term_columns
        return self._row_pass(self.term_columns - encoded) if encoded else found

    def _row_pass(self, words: frozenset[str]) -> DuplicateRows:
        features = tuple(self.profile.features)
        fingerprints = RowFingerprints(frozenset(features), self.target, words)
        if self.source.matrix is not None:  # a sparse matrix: its own row blocks
            for chunk in self.source.chunks():
                fingerprints.add(chunk)
        else:
            gram = self.profile.gram
            if gram.wide and gram.binary and not self.source.distributed:
                # The wide 0/1 block is held whole (the profile's incidence): read only the other columns again.
                fingerprints.add_held(cast(Incidence, gram.cooccurrence).B, tuple(gram.binary))
                features = tuple(c for c in features if c in fingerprints.features)
            columns = features + ((self.target,) if self.target is not None else ())
            fingerprints = self.reduce_rows(columns, fingerprints)
        return duplicate_rows(fingerprints)

    def features_of_kind(self, *kinds: str) -> list[str]:
        """Feature columns of the given kinds, in table order (a new list)."""
        # (several rules ask, each over every kind of a vocabulary: a kind's columns are listed once)
        by_kind = self._columns_by_kind
        if len(kinds) == 1:
            return list(by_kind.get(kinds[0], ()))
        wanted = set(kinds)
        return [c for c, k in self.kinds.items() if k.kind in wanted]

    @cached_property
    def _columns_by_kind(self) -> dict[str, list[str]]:
        by_kind: dict[str, list[str]] = {}
        for column, kind in self.kinds.items():
            by_kind.setdefault(kind.kind, []).append(column)
        return by_kind

    @cached_property
    def impact(self):
        """CAT against PoB on this table (:mod:`nblint.impact`), with the impact settings."""
        if self.target is None or not self.structure.groups or len(self.profile.classes) < 2:
            return None  # nothing to measure (as measure_impact would say), and nothing to import for it
        from nblint.impact import measure_impact

        return measure_impact(self, self.impact_settings())

    def impact_settings(self, alpha: float | None = None, folds: int | None = None, seed: int | None = None):
        """NB401's measurement settings: those given here (``nblint impact``'s options), else the
        table's alpha (the config's or the pipeline's, the one alpha the rules read), else NB401's options.
        """
        from nblint.impact import ImpactSettings

        if alpha is None:
            alpha = self.alpha if self.alpha is not None else self.settings.alpha
        return ImpactSettings(
            alpha=alpha,
            folds=folds if folds is not None else self.settings.folds,
            seed=seed if seed is not None else self.settings.seed,
        )

    @cached_property
    def vif(self) -> VifResult:
        """Variance inflation of the complete numeric columns, the words of a document-term block left out.

        A bag of words has more words than documents, or words seen in a few documents
        each: exact linear dependencies among them are certain and say nothing about the
        table (and finding each would take a least-squares fit per word).
        """
        gram = self.profile.gram
        names = gram.names
        if self._vif_words:
            keep = [i for i, name in enumerate(names) if name not in self.term_columns]
            return variance_inflation(
                tuple(names[i] for i in keep), gram.comoment_of(keep), self.group_search.onehot, self.n_rows
            )
        return variance_inflation(names, gram.comoment, self.group_search.onehot, self.n_rows)

    @cached_property
    def _vif_words(self) -> int:
        """How many of the co-moments' columns are words of a document-term block (left out of VIF)."""
        terms = self.term_columns
        return sum(name in terms for name in self.profile.gram.names) if terms else 0

    # ---------------------------------------------------------------- class association

    @cached_property
    def deciding_columns(self) -> dict[str, leakage.DecidingColumn]:
        """Columns from which the target can be read on (nearly) every row (:mod:`nblint.structure.leakage`)."""
        if self.target is None:
            return {}
        share = self.settings.decides_share
        max_chance = self.settings.separation_max_chance
        found = {d.column: d for d in leakage.deciding_columns(self.profile, self.kinds, share, max_chance)}
        candidates = [c for c in leakage.threshold_candidates(self.profile, self.kinds) if c not in found]
        if candidates:
            # Measurements with too many values for a contingency table: one pass over them alone.
            scan = self.reduce_rows(
                candidates + [self.target],
                _ThresholdPass(leakage.ThresholdScan(self.profile, candidates), self.target, self.profile.classes),
            ).scan
            class_rows = self.profile.class_count[:2]
            for d in scan.results():
                if leakage.decides(d, class_rows, share):
                    found[d.column] = d
            one_sided = [c for c in candidates if c not in found]
            for d in scan.one_sided(one_sided, class_rows, share, max_chance):
                found[d.column] = d
        past = [c for c in leakage.past_cap_candidates(self.profile, self.kinds) if c not in found]
        if past:
            # Discrete columns with more levels than the profile counts: their (value, class) pairs, one pass.
            levels = self._past_cap_scan
            level_columns = {c for c in past if self.kinds[c].kind in leakage.LEVEL_KINDS}
            class_rows = self.profile.class_count[: len(self.profile.classes)]
            for d in levels.results(class_rows, share, level_columns, past):
                found[d.column] = d
        return dict(sorted(found.items(), key=lambda kv: self.table_order[kv[0]]))

    @cached_property
    def _past_cap_scan(self) -> leakage.LevelScan:
        """The (value, class) pairs of the discrete columns past the cap on levels, in one pass (NB208, NB202)."""
        columns = sorted(
            set(leakage.past_cap_candidates(self.profile, self.kinds)) | set(self._past_level_cap),
            key=self.table_order.__getitem__,
        )
        classes, target = self.profile.classes, self.target
        if not columns or target is None:  # (only asked for with a target)
            return leakage.LevelScan([], len(classes))
        caps = self.profile.caps
        max_pairs = caps.pairs(len(columns)) if caps is not None else None
        return self.reduce_rows(columns + [target], _LevelPass(columns, target, classes, max_pairs)).scan

    @cached_property
    def single_class_levels(self) -> dict[str, list[leakage.SingleClassLevel]]:
        """Levels seen in one class only, beyond chance, per column (columns that decide the target left out)."""
        if self.target is None:
            return {}
        deciding = set(self.deciding_columns)
        columns = [c for c in leakage.scanned_columns(self.profile, self.kinds) if c not in deciding]
        # The words of a document-term block are weighed by their documents (:attr:`class_vocabulary`).
        terms = self.term_columns
        if terms:
            columns = [c for c in columns if c not in terms]
        # Categorical columns past the cap on levels: their levels from the pass over their pairs.
        past = [c for c in self._past_level_cap if self.kinds[c].kind in leakage.LEVEL_KINDS and c not in deciding]
        counted = self._past_cap_scan.single_class(past, self.settings.separation_min_rows) if past else (0, [])
        found: dict[str, list[leakage.SingleClassLevel]] = {}
        for level in leakage.single_class_levels(
            self.profile,
            columns,
            self.settings.separation_min_rows,
            self.settings.separation_max_chance,
            counted,
        ):
            found.setdefault(level.column, []).append(level)
        return found

    @cached_property
    def term_presence(self) -> tuple[tuple[str, ...], np.ndarray]:
        """The term columns (table order) and the documents of each class each is non-zero in, ``(C, p)``.

        From the profile where it tells (0/1 words; words whose levels it keeps: the rows
        off the level 0); the others (tf-idf weights) are counted in one pass over their rows.
        """
        numeric, terms = self.profile.numeric, self.term_columns
        n_classes = len(self.profile.classes)
        order = self.table_order
        names = tuple(sorted(terms, key=order.__getitem__))
        position = cast(Names, numeric.names).positions()
        at = np.array([position[c] for c in names], dtype=np.int64)
        presence = np.full((n_classes, len(names)), -1, dtype=np.int64)
        if not len(names) or self.target is None:
            return names, presence
        zero_one = numeric.zero_one[at]
        presence[:, zero_one] = numeric.level_counts[1][:n_classes, at[zero_one]]
        tabled = ~zero_one & (level_sizes(numeric.levels)[at] >= 0)
        zeros = key_counts(numeric.levels, 0.0, numeric.class_n.shape[0])
        presence[:, tabled] = (numeric.class_n - zeros)[:n_classes, at[tabled]]
        unread = np.flatnonzero(~zero_one & ~tabled)
        unknown = [names[j] for j in unread.tolist()]
        if unknown:
            counter = ClassPresence(unknown, self.target, self.profile.classes)
            if self.source.matrix is not None:  # a sparse matrix: its own row blocks
                for chunk in self.source.chunks():
                    counter.add(chunk)
            else:
                counter = self.reduce_rows(unknown + [self.target], counter)
            presence[:, unread] = counter.presence[:n_classes]
        return names, presence

    @cached_property
    def class_vocabulary(self) -> giveaways.ClassVocabulary:
        """Words that give a class away, and class-specific words (:mod:`nblint.structure.giveaways`).

        Words that decide the target outright are NB208's, and left out.
        """
        if self.target is None or not self.term_columns:
            return giveaways.ClassVocabulary([], [], 0)
        names, presence = self.term_presence
        deciding = self.deciding_columns
        if deciding:
            keep = [j for j, c in enumerate(names) if c not in deciding]
            names, presence = tuple(names[j] for j in keep), presence[:, keep]
        settings = self.settings
        return giveaways.class_vocabulary(
            names,
            presence,
            self.profile.class_count[: len(self.profile.classes)],
            settings.giveaway_share,
            settings.decides_share,
            settings.separation_min_rows,
            settings.separation_max_chance,
        )

    # ---------------------------------------------------------------- groups, verified

    @cached_property
    def structure(self) -> Structure:
        """Groups, broken groups, code columns and identical columns, verified.

        Order of the search: exact one-hot groups; then sets that sum to one on nearly
        every row with a few overlaps (broken groups); then exclusive sets (drop-first
        dummy groups, whatever the share of the reference level).  An exclusive set is
        kept as a dummy group when its exclusivity is beyond chance (``min-evidence``
        nats), its names share a telling stem, or a column of the table decodes it;
        when the names say no level can be missing (``smoker_yes``/``smoker_no``), its
        all-zero rows are breakage instead.
        """
        search = self.group_search
        n = self.n_rows
        max_share = self.settings.max_violation_share
        min_evidence = self.settings.min_evidence
        names = list(self.profile.names)

        broken_candidates: list[BrokenCandidate] = []
        dummy_candidates: list[Group] = []
        flags: list[Group] = list(search.cross)
        binary, cooccurrence = self._searched_binary()
        if binary:
            broken_candidates, dummy_candidates, exclusive_flags = candidate_sets(
                binary,
                cooccurrence,
                search.onehot,
                n,
                names,
                self.table_order,
                max_share,
                min_evidence,
                self.budget,
            )
            if self.term_columns:
                # Among the words of a term block, exclusive sets are topics (the words of different
                # classes rarely meet), not encoded variables: only a shared name stem makes them one.
                def encoded(members) -> bool:
                    return not all(m in self.term_columns for m in members) or group_stem(members, names) is not None

                broken_candidates = [c for c in broken_candidates if encoded(c[0])]
                dummy_candidates = [g for g in dummy_candidates if encoded(g.members)]
                exclusive_flags = [g for g in exclusive_flags if encoded(g.members)]
            flags += exclusive_flags
        if self.profile.gram.wide:
            held = {m for c in broken_candidates for m in c[0]} | {
                m for g in search.onehot + dummy_candidates + flags for m in g.members
            }
            dummy_candidates += self._dummy_families(held)

        missing, missing_flags = self._missing_together_groups()
        flags += missing_flags
        # (only numeric members: yes/no words are 0/1 for the group searches, not for the row checks)
        missing_numeric = [g for g in missing if not any(m in self.profile.text for m in g.members)]
        code_candidates = code_column_candidates(self.profile, search.onehot + dummy_candidates + missing_numeric)
        identical_exact, identical_pending = identical_candidates(self.profile)
        checks = self.row_checks([(c[0], c[1]) for c in broken_candidates], code_candidates, identical_pending)

        code_columns: dict[str, Group] = {}
        for (column, group), ok in sorted(zip(code_candidates, checks.decodes), key=lambda item: item[0][0]):
            if ok and column not in code_columns:
                code_columns[column] = group

        dummy: list[Group] = []
        for cand in dummy_candidates:
            decoded_by = sorted(c for c, g in code_columns.items() if g is cand)
            strong = cand.evidence["exclusivity_evidence"] >= min_evidence
            if not (strong or "shared_name_stem" in cand.evidence or decoded_by):
                continue
            evidence = {"reference_rows": n - sum(cand.counts), **cand.evidence}
            if not strong:
                evidence.pop("exclusivity_evidence")
            if decoded_by:
                evidence["decoded_by"] = decoded_by[0]
            group = Group("dummy", cand.members, cand.counts, n, cand.stem, evidence)
            dummy.append(group)
            for column in decoded_by:
                code_columns[column] = group
        kept = {id(g) for g in search.onehot} | {id(g) for g in dummy}
        known_only = {id(g) for g in missing_numeric}
        missing_codes = {c: g for c, g in code_columns.items() if id(g) in known_only}
        code_columns = {c: g for c, g in code_columns.items() if id(g) in kept}

        broken = []
        for (members, counts, complete, reference, siblings), sums in zip(broken_candidates, checks.row_sums):
            zero, multi = sums.zero, sums.multi
            bad = multi if reference else zero + multi  # a drop-first set's all-zero rows are its reference level
            examples = sums.multi_examples if reference else sums.examples
            if bad and (complete or bad <= max_share * n):
                stem = group_stem(members, self.profile.names)
                kind = "dummy" if reference else "one-hot"
                broken.append(BrokenGroup(members, counts, n, zero, multi, examples, stem, complete, kind, siblings))

        identical = sorted(
            (cols for cols in identical_exact + checks.identical if not self._by_chance(cols, "identical")),
            key=lambda cols: self.table_order[cols[0]],
        )
        dummy.sort(key=lambda g: self.table_order[g.members[0]])
        broken.sort(key=lambda g: self.table_order[g.members[0]])
        flags.sort(key=lambda g: self.table_order[g.members[0]])
        nested = nested_groups(search.onehot + dummy, binary, cooccurrence, min_evidence) if binary else []
        nested.sort(key=lambda x: (self.table_order[x.fine.members[0]], self.table_order[x.coarse.members[0]]))
        return Structure(
            search.onehot,
            dummy,
            broken,
            code_columns,
            identical,
            self.budget.exhausted,
            flags,
            missing,
            missing_codes,
            nested,
        )

    def _missing_together_groups(self) -> tuple[list[Group], list[Group]]:
        """Groups among the 0/1 feature columns with missing values, and yes/no text columns (:mod:`nblint.structure.missing_together`).

        One pass over those columns alone (at most :data:`missing_together.MAX_COLUMNS`, by name).
        """
        if self.term_columns:
            return [], []  # (none is searched beside a document-term block)
        numeric = self.profile.numeric
        n = self.n_rows
        yes = {}
        for name, stats in self.profile.text.items():
            label = missing_together.yes_label(stats.levels.keys) if stats.levels is not None else None
            if name != self.target and label is not None and stats.n_missing < n:
                yes[name] = label
        partly_missing = numeric.zero_one & (numeric.n_missing > 0) & (numeric.n_missing < n)
        flags = [numeric.names[j] for j in np.flatnonzero(partly_missing).tolist()]
        columns = sorted([name for name in flags if name != self.target] + list(yes))[: missing_together.MAX_COLUMNS]
        if len(columns) < 2:
            return [], []
        counts = self.reduce_rows(
            columns, missing_together.MissingCounts(columns, {c: yes[c] for c in columns if c in yes})
        )
        return missing_together.missing_together_groups(
            counts,
            n,
            self.table_order,
            list(self.profile.names),
            self.budget,
            self.settings.min_evidence,
            self.settings.max_violation_share,
        )

    def _dummy_families(self, held: set[str]) -> list[Group]:
        """Drop-first candidates of a wide table checked whole by name stem (:mod:`nblint.structure.families`).

        The exclusive-set searches of a wide table visit its most frequent 0/1 columns only; the
        levels of a many-level variable are each rare. A stem family none of whose rows has two
        members set is read from its own rows, at any number of levels, when its stem names it
        (:func:`~nblint.structure.names.informative_stem`) and its exclusivity is beyond chance
        (``min-evidence``: a few rare words under one stem never meet by chance alone);
        ``held``: columns already in a candidate.
        """
        gram = self.profile.gram
        binary = list(gram.binary)
        counts = np.asarray(gram.diagonal())
        n = gram.n
        searched = (counts > 0) & (counts < n)
        searched &= np.fromiter((name not in held for name in binary), dtype=bool, count=len(binary))
        names = list(self.profile.names)
        found = []
        for index in exclusive_families(cast(Incidence, gram.cooccurrence), counts, binary, searched, n):
            members = sorted((binary[k] for k in index), key=self.table_order.__getitem__)
            stem = informative_stem(members, names)
            if stem is None:
                continue
            ones = [int(counts[gram.binary.index(m)]) for m in members]
            strength = exclusivity_evidence(ones, n)
            if strength < self.settings.min_evidence:
                continue  # (rare same-stem words, bigrams of one first word, are exclusive by chance)
            evidence = {
                "exclusivity_evidence": round(strength, 3),
                "expected_cooccurrences_if_independent": round(expected_cooccurrences(ones, n), 3),
                "shared_name_stem": stem,
                "checked_whole": "a wide table's stem family, every row read",
            }
            found.append(Group("dummy", members, ones, n, group_stem(members, names), evidence))
        return found

    #: On a wide table, or beside a document-term block, the exclusive-set searches run among this many
    #: of the most frequent 0/1 columns.
    FREQUENT_BINARY = 128

    def _searched_binary(self) -> tuple[list[str], np.ndarray]:
        """The 0/1 columns the dense group searches visit, and their co-occurrences (dense).

        Every complete 0/1 column on an ordinary table. On a wide table, or one that holds a
        document-term block, the :data:`FREQUENT_BINARY` most frequent ones (ties by name):
        exclusivity is evidence only where independent columns would meet (two columns set on
        ``s_i`` and ``s_j`` rows meet about ``s_i s_j / n`` times), and a one-hot group of K
        columns has a member set on at least ``n / K`` rows; the rare words, thousands of them
        and pairwise exclusive, would make the searches visit every pair of words for nothing.
        """
        gram = self.profile.gram
        names = list(gram.binary)
        if not gram.wide and not self.term_columns:
            return names, cast(np.ndarray, gram.cooccurrence)  # (dense below WIDE_BINARY columns)
        counts = np.asarray(gram.diagonal())
        usable = np.flatnonzero((counts > 0) & (counts < gram.n))
        # Two columns that never meet are evidence of ``s_i s_j / n`` nats (the log of the chance that
        # independent ones would not): a column that cannot reach ``min-evidence`` even beside the most
        # frequent one cannot be shown exclusive, and only widens the search.
        floor = self._evidence_floor(counts, gram.n)
        usable = usable[counts[usable] >= floor]
        if len(usable) > self.FREQUENT_BINARY:  # (only columns as frequent as the last one chosen can be chosen)
            last = np.partition(counts[usable], len(usable) - self.FREQUENT_BINARY)[len(usable) - self.FREQUENT_BINARY]
            usable = usable[counts[usable] >= last]
        ones = counts.tolist()
        chosen = sorted(usable.tolist(), key=lambda i: (-ones[i], names[i]))[: self.FREQUENT_BINARY]
        chosen.sort(key=lambda i: names[i])
        if len(chosen) < 2:
            return [], np.zeros((0, 0), dtype=np.int64)
        return [names[i] for i in chosen], gram.block(chosen)

    @cached_property
    def recodes(self) -> list[tuple[str, str]]:
        """Pairs of categorical columns whose values map one to one (one recodes the other), not identical.

        Only categorical columns: a count or a measurement and a one-to-one function of it
        (``exper`` and ``expersq``) are different features for a Gaussian or count model.
        """
        return list(self.recode_levels)

    @cached_property
    def recode_levels(self) -> dict[tuple[str, str], int]:
        """:attr:`recodes`, each with the number of values it maps one to one."""
        structure = self.structure
        pending = self._recode_candidates[:MAX_RECODE_PAIRS]
        if not pending:
            return {}
        same = {frozenset(cols) for cols in structure.identical}
        checks = self.row_checks([], [], [], pending)
        return {
            pair: levels
            for pair, levels in zip(pending, checks.recodes)
            if levels and not any(set(pair) <= s for s in same)
        }

    @cached_property
    def _recode_candidates(self) -> list[tuple[str, str]]:
        """Every pair of categorical columns that may recode each other (:func:`recode_candidates`), sorted."""
        categorical = {c for c, k in self.kinds.items() if k.kind == "categorical"} - set(self.structure.code_columns)
        # Integer codes of a categorical column (cowcode2 beside ctryname) recode it too, whatever their kind.
        codes = {c for c, k in self.kinds.items() if k.kind in ("count", "identifier")}
        return recode_candidates(self.profile, set(self.profile.names) - categorical - codes, partners=codes)

    def row_checks(self, broken_candidates, code_candidates, identical_candidates, recode_candidates=()) -> RowVerdicts:
        """One chunked pass computing every per-row verification at once (:mod:`nblint.analysis.rowchecks`)."""
        checks = RowChecks(
            broken_candidates, code_candidates, [c for cols in identical_candidates for c in cols], recode_candidates
        )
        needed = sorted(
            {m for members, _ in broken_candidates for m in members}
            | {c for c, _ in code_candidates}
            | {m for _, g in code_candidates for m in g.members}
            | set(checks.hashes)
            | {c for pair in recode_candidates for c in pair},
            key=lambda c: self.table_order[c],
        )
        if needed:
            checks = self.reduce_rows(needed, checks)
        return checks.verdicts(identical_candidates)


class _LevelPass:
    """NB208's pass over discrete columns past the cap on levels: a :class:`leakage.LevelScan` fed chunk by chunk."""

    def __init__(self, columns, target: str, classes: tuple, max_pairs: int | None = None):
        self.scan, self.target, self.classes = leakage.LevelScan(columns, len(classes), max_pairs), target, classes

    def add(self, chunk: Chunk) -> None:
        slots = class_slots(chunk, self.target, self.classes)
        self.scan.add({c: _values(chunk.column(c)) for c in self.scan.columns}, slots)

    def merge(self, other: _LevelPass) -> None:
        self.scan.merge(other.scan)


def _values(column) -> np.ndarray:
    """A column's values as they compare: text as its labels, whole numbers as integers (never through float64)."""
    if column.kind == "text":  # (a missing cell is code -1: the None after the labels, left out when counted)
        return np.asarray(tuple(column.labels or ()) + (None,), dtype=object)[column.values]
    return column.values if column.integer_dtype else column.as_float()


class _ThresholdPass:
    """NB208's pass over threshold candidates: a :class:`leakage.ThresholdScan` fed chunk by chunk."""

    def __init__(self, scan: leakage.ThresholdScan, target: str, classes: tuple):
        self.scan, self.target, self.classes = scan, target, classes

    def add(self, chunk: Chunk) -> None:
        slots = class_slots(chunk, self.target, self.classes)
        self.scan.add({c: chunk.column(c).as_float() for c in self.scan.columns}, slots)

    def merge(self, other: _ThresholdPass) -> None:
        self.scan.merge(other.scan)
