"""Analyses shared by the rules: computed once per table, on first use, then cached.

A :class:`TableContext` wraps one table's profile.  Rules ask it for the
structure of the table (groups, VIF, duplicates, kinds, separations) and never
read rows.  The context only caches and wires: the algorithms are pure functions
of the profile in :mod:`nblint.structure` (the verified structure in
:mod:`nblint.structure.verified`, fed by :mod:`nblint.analysis.structure`), the
document-term block is a :class:`~nblint.analysis.termblock.TermBlock`, the association with the target a
:class:`~nblint.analysis.association.ClassAssociation`, the zero-count cells
:mod:`nblint.analysis.zerocells`, one column as the rules read it a
:class:`~nblint.analysis.columns.ColumnRecord` (:meth:`TableContext.column`), and the
context feeds them the settings the rules declared (``ctx.settings``, typed).  Where a per-row result is
needed (example rows of a broken group, verifying that a code column decodes a group,
that two columns are identical), the context makes one extra chunked pass over the
candidates only (:meth:`TableContext.row_checks`, :meth:`TableContext.reduce_rows`).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cached_property
from typing import Any

import numpy as np

from nblint.analysis import limits
from nblint.analysis.association import ClassAssociation
from nblint.analysis.columns import ColumnRecord, KindIndex, column_kinds
from nblint.analysis.onehot import onehot_search
from nblint.analysis.presence import class_vocabulary, term_presence
from nblint.analysis.recodes import candidate_recodes, verified_recodes
from nblint.analysis.rowchecks import RowVerdicts, verify_rows
from nblint.analysis.rows import DuplicateRows, empty_documents, table_duplicate_rows
from nblint.analysis.structure import nested_categoricals, table_structure
from nblint.analysis.termblock import TermBlock
from nblint.analysis.zerocells import Found, zero_cells
from nblint.engine import shared_settings
from nblint.profile.levels import PairLevels
from nblint.profile.table import TableProfile
from nblint.readers import Chunk, TableSource
from nblint.structure import (
    Budget,
    GroupSearch,
    VifResult,
    giveaways,
    leakage,
    searched,
)
from nblint.structure.duplicates import CandidatePairs
from nblint.structure.kinds import ColumnKind
from nblint.structure.nesting import ColumnNesting
from nblint.structure.verified import Structure
from nblint.structure.vif import profile_variance_inflation


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

    def close(self) -> None:
        """Let go of every analysis: the context is not used after this.

        Several analyses hold the context's own methods (its pass over the rows, its kinds), so with it they
        form reference cycles that only the cyclic garbage collector frees, in a collection that walks every
        object they made (a kind per word of a vocabulary). Cleared, reference counting frees them as soon as
        the last reference to the context goes; findings keep what they hold.
        """
        vars(self).clear()

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
    def class_rows(self) -> dict[Any, int]:
        """Rows per class, in class order: label (as ``profile.classes`` has it) -> rows."""
        return {label: int(rows) for label, rows in zip(self.profile.classes, self.profile.class_count)}

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
        """``accumulator.add(chunk)`` over the rows in order (``columns`` only), returned: the source's
        backend's pass (:meth:`nblint.readers.chunks.Backend.reduce_rows`), the same wherever the rows live."""
        return self.source.backend.reduce_rows(list(columns), accumulator)

    # ---------------------------------------------------------------- structure

    @cached_property
    def group_search(self) -> GroupSearch:
        """The one-hot groups (:mod:`nblint.analysis.onehot`), those a term block makes by chance left out."""
        return onehot_search(self)

    @cached_property
    def shown_exclusive(self) -> np.ndarray | None:
        """The wide 0/1 columns the one-hot search visits (:func:`nblint.structure.searched.shown_exclusive`)."""
        return searched.shown_exclusive(self.profile.gram, self.term_columns, self.settings.min_evidence)

    @cached_property
    def searched_binary(self) -> tuple[list[str], np.ndarray]:
        """The 0/1 columns the dense group searches visit, and their co-occurrences (:mod:`nblint.structure.searched`)."""
        return searched.searched_binary(self.profile.gram, bool(self.term_columns), self.settings.min_evidence)

    #: On a wide table, or beside a document-term block, the exclusive-set searches run among this many
    #: of the most frequent 0/1 columns.
    FREQUENT_BINARY = searched.FREQUENT_BINARY

    # ---------------------------------------------------------------- the document-term block

    @cached_property
    def terms(self) -> TermBlock:
        """The document-term block (:mod:`nblint.analysis.termblock`): its words, their documents, their chance."""

        def row_lengths():
            found = self.duplicate_rows
            return None if found is None else found.lengths

        return TermBlock(self.profile, self.source.words, self.settings, row_lengths, self.source.array)

    @property
    def term_columns(self) -> frozenset[str]:
        """The columns of a document-term block, or none (:attr:`TermBlock.columns`)."""
        return self.terms.columns

    @property
    def term_supports(self) -> dict[str, int]:
        """Rows where each term column is non-zero (its document frequency), where known."""
        return self.terms.supports

    @property
    def nonzero_rows(self) -> dict[str, int]:
        """Rows where each non-negative numeric feature is non-zero, where the profile tells (its levels)."""
        return self.terms.nonzero_rows

    @cached_property
    def limits(self) -> list[str]:
        """What was not checked, or checked only in part, on this table (reported by NB106; :mod:`nblint.analysis.limits`)."""
        return limits.table_limits(self)

    @cached_property
    def incomplete(self) -> list[str]:
        """The notes of :attr:`limits` that say a finding may be missing (NB106 reports them as warnings)."""
        return limits.incomplete_notes(self)

    def level_pairs(self, column: str) -> PairLevels | None:
        """The contingency table of a feature past the cap on levels, by its non-empty cells (None: unknown)."""
        return self.association.level_pairs(column)

    @property
    def wide_binary(self) -> int:
        """More complete 0/1 columns than this make the table wide (the ``wide-columns`` setting)."""
        return self.settings.wide_columns

    @cached_property
    def kinds(self) -> Mapping[str, ColumnKind]:
        """Every column's kind and recommended event model (:func:`~nblint.analysis.columns.column_kinds`): a
        read-only mapping in table order, a vocabulary's words held as arrays (:class:`~nblint.structure.wordkinds.Kinds`)."""
        return column_kinds(self)

    @cached_property
    def duplicate_rows(self) -> DuplicateRows | None:
        """Identical rows of a table that holds a document-term block, else None (:func:`~nblint.analysis.rows.table_duplicate_rows`)."""
        return table_duplicate_rows(self)

    @cached_property
    def empty_documents(self) -> DuplicateRows | None:
        """:attr:`duplicate_rows`, its empty rows those with no word set (:func:`~nblint.analysis.rows.empty_documents`)."""
        return empty_documents(self)

    def column(self, name: str) -> ColumnRecord:
        """One feature column as the rules read it: kind, levels, range, per-class statistics (:mod:`~nblint.analysis.columns`)."""
        record = self._column_records.get(name)
        if record is None:
            record = self._column_records[name] = ColumnRecord(self.profile, name, lambda: self.kinds)
        return record

    @cached_property
    def _column_records(self) -> dict[str, ColumnRecord]:
        return {}

    def features_of_kind(self, *kinds: str, model: str | None = None) -> list[str]:
        """Feature columns of the given kinds, in table order (a new list); with ``model``, only those its kind
        recommends that event model for (a vocabulary's words are weights read by a text model, not Gaussian)."""
        return self._kind_index.columns(*kinds, model=model)

    @cached_property
    def _kind_index(self) -> KindIndex:
        # (several rules ask, each over every kind of a vocabulary: the kinds as arrays, made once)
        return KindIndex(self.kinds)

    @cached_property
    def impact(self):
        """CAT against PoB on this table (:func:`nblint.impact.measure_impact`, its settings NB401's options)."""
        if self.target is None or not self.structure.groups or len(self.profile.classes) < 2:
            return None  # nothing to measure (as measure_impact would say), and nothing to import for it
        from nblint.impact import measure_impact

        return measure_impact(self)

    @cached_property
    def vif(self) -> VifResult:
        """Variance inflation of the complete numeric columns, the words of a document-term block left out."""
        return profile_variance_inflation(self.profile.gram, self.term_columns, self.group_search.onehot, self.n_rows)

    # ---------------------------------------------------------------- class association

    @cached_property
    def association(self) -> ClassAssociation:
        """How each column is associated with the target (:mod:`nblint.analysis.association`)."""
        return ClassAssociation(
            self.profile, self.kinds, self.term_columns, self.model, self.settings, self.table_order, self.reduce_rows
        )

    @property
    def deciding_columns(self) -> dict[str, leakage.DecidingColumn]:
        """Columns from which the target can be read on (nearly) every row (:mod:`nblint.structure.leakage`)."""
        return self.association.deciding_columns

    @property
    def single_class_levels(self) -> dict[str, list[leakage.SingleClassLevel]]:
        """Levels seen in one class only, beyond chance, per column (columns that decide the target left out)."""
        return self.association.single_class_levels

    @cached_property
    def zero_cells(self) -> Found:
        """Every discrete feature's zero (value, class) cells, as its event model reads it (:mod:`~nblint.analysis.zerocells`)."""
        return zero_cells(self)

    @cached_property
    def term_presence(self) -> tuple[tuple[str, ...], np.ndarray]:
        """The term columns (table order) and the documents of each class each is non-zero in, ``(C, p)`` (:func:`~nblint.analysis.presence.term_presence`)."""
        return term_presence(self.profile, self.term_columns, self.table_order, self.source, self.reduce_rows)

    @cached_property
    def class_vocabulary(self) -> giveaways.ClassVocabulary:
        """Words that give a class away, and class-specific words (:func:`~nblint.analysis.presence.class_vocabulary`)."""
        return class_vocabulary(self)

    # ---------------------------------------------------------------- groups, verified

    @cached_property
    def structure(self) -> Structure:
        """Groups, broken groups, code columns and identical columns, verified (:func:`~nblint.analysis.structure.table_structure`)."""
        return table_structure(self)

    @cached_property
    def recodes(self) -> list[tuple[str, str]]:
        """Pairs of categorical columns whose values map one to one (one recodes the other), not identical (:mod:`~nblint.analysis.recodes`)."""
        return list(self.recode_levels)

    @cached_property
    def recode_levels(self) -> dict[tuple[str, str], int]:
        """:attr:`recodes`, each with the number of values it maps one to one (:mod:`~nblint.analysis.recodes`)."""
        return verified_recodes(self)

    @cached_property
    def recode_candidates(self) -> CandidatePairs:
        """The pairs of categorical columns that may recode each other: the first ones, sorted, and their number (:mod:`~nblint.analysis.recodes`)."""
        return candidate_recodes(self)

    @cached_property
    def nested_columns(self) -> list[ColumnNesting]:
        """Categorical columns nested in another (NB105), verified row by row (:func:`~nblint.analysis.structure.nested_categoricals`)."""
        return nested_categoricals(self)

    def row_checks(self, broken_candidates, code_candidates, identical_candidates, recode_candidates=()) -> RowVerdicts:
        """One chunked pass computing every per-row verification at once (:mod:`nblint.analysis.rowchecks`)."""
        return verify_rows(
            self.reduce_rows,
            self.table_order,
            broken_candidates,
            code_candidates,
            identical_candidates,
            recode_candidates,
        )
