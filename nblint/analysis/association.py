"""How the columns of one table are associated with its target: columns that decide it, levels seen in one class.

A :class:`ClassAssociation` runs :mod:`nblint.structure.leakage` over a table's profile
and, where the profile cannot tell, over the rows once more: measurements with too many
values for a contingency table (a threshold scan), and discrete columns whose levels went
past the profile's cap (their (value, class) pairs, one pass for every rule that reads
them, NB201-NB203 and NB208).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cached_property

from nblint.analysis.scans import LevelPass, ThresholdPass
from nblint.engine.settings import AnalysisSettings
from nblint.profile.levels import PairLevels
from nblint.profile.table import TableProfile
from nblint.structure import leakage, leakage_scans
from nblint.structure.kinds import ColumnKind


class ClassAssociation:
    """The association of each column with the target of one table (it has a target).

    Parameters
    ----------
    profile : TableProfile
    kinds : Mapping
        Every column's kind (:attr:`nblint.analysis.context.TableContext.kinds`).
    terms : frozenset of str
        The words of a document-term block (weighed by their documents elsewhere).
    model : str or None
        The declared event model: a Categorical or Bernoulli model reads counts by their levels.
    settings : AnalysisSettings
    order : dict
        Column -> position in the table.
    reduce_rows : callable
        ``reduce_rows(columns, accumulator)``: the context's pass over the rows.
    """

    def __init__(
        self,
        profile: TableProfile,
        kinds: Mapping[str, ColumnKind],
        terms: frozenset[str],
        model: str | None,
        settings: AnalysisSettings,
        order: dict[str, int],
        reduce_rows: Callable,
    ):
        self.profile, self.kinds, self.terms, self.model = profile, kinds, terms, model
        self.settings, self.order, self.reduce_rows = settings, order, reduce_rows

    @cached_property
    def past_level_cap(self) -> list[str]:
        """Discrete features whose levels went past the profile's cap and a per-level rule reads, in table order.

        Categorical codes (NB201-NB203, NB208), and counts where the model reads them by
        their levels (a declared Categorical or Bernoulli model: NB201, NB203).
        """
        profile = self.profile

        def by_levels(kind: ColumnKind) -> bool:
            return kind.kind in leakage.LEVEL_KINDS or (
                kind.kind == "count" and (self.model or kind.model) in ("categorical", "bernoulli")
            )

        return [
            column
            for column, kind in self.other_kinds.items()
            if by_levels(kind) and profile.levels(column) is None and profile.n_distinct(column) is not None
        ]

    @cached_property
    def other_kinds(self) -> Mapping[str, ColumnKind]:
        """The kinds of the columns outside the document-term block, in table order (all of them without one).

        The words leave as one set difference, never visited one by one (a vocabulary: tens of thousands):
        the analyses that weigh words by their documents elsewhere read these only.
        """
        if not self.terms:
            return self.kinds
        others = self.kinds.keys() - self.terms
        return {column: self.kinds[column] for column in sorted(others, key=self.order.__getitem__)}

    @cached_property
    def past_cap_candidates(self) -> list[str]:
        """Discrete columns past the cap whose levels could decide the target (:func:`leakage_scans.past_cap_candidates`)."""
        return leakage_scans.past_cap_candidates(self.profile, self.kinds)

    @cached_property
    def past_cap_scan(self) -> leakage_scans.LevelScan:
        """The (value, class) pairs of the discrete columns past the cap on levels, in one pass (NB208, NB202)."""
        columns = sorted(
            set(self.past_cap_candidates) | set(self.past_level_cap),
            key=self.order.__getitem__,
        )
        classes, target = self.profile.classes, self.profile.target
        if not columns or target is None:  # (only asked for with a target)
            return leakage_scans.LevelScan([], len(classes))
        caps = self.profile.caps
        max_pairs = caps.pairs(len(columns)) if caps is not None else None
        return self.reduce_rows(columns + [target], LevelPass(columns, target, classes, max_pairs)).scan

    def level_pairs(self, column: str) -> PairLevels | None:
        """The contingency table of a feature past the cap on levels, by its non-empty cells (None: unknown)."""
        if self.profile.target is None or column not in self.past_level_cap:
            return None
        return self.past_cap_scan.table(column)

    @cached_property
    def deciding_columns(self) -> dict[str, leakage.DecidingColumn]:
        """Columns from which the target can be read on (nearly) every row (:mod:`nblint.structure.leakage`)."""
        profile, kinds, target = self.profile, self.kinds, self.profile.target
        if target is None:
            return {}
        share = self.settings.decides_share
        max_chance = self.settings.separation_max_chance
        found = {d.column: d for d in leakage.deciding_columns(profile, kinds, share, max_chance)}
        candidates = [c for c in leakage_scans.threshold_candidates(profile, kinds) if c not in found]
        if candidates:
            # Measurements with too many values for a contingency table: one pass over them alone.
            scan = self.reduce_rows(
                candidates + [target],
                ThresholdPass(leakage_scans.ThresholdScan(profile, candidates), target, profile.classes),
            ).scan
            class_rows = profile.class_count[:2]
            for d in scan.results():
                if leakage.decides(d, class_rows, share):
                    found[d.column] = d
            one_sided = [c for c in candidates if c not in found]
            for d in scan.one_sided(one_sided, class_rows, share, max_chance):
                found[d.column] = d
        past = [c for c in self.past_cap_candidates if c not in found]
        if past:
            # Discrete columns with more levels than the profile counts: their (value, class) pairs, one pass.
            levels = self.past_cap_scan
            level_columns = {c for c in past if kinds[c].kind in leakage.LEVEL_KINDS}
            class_rows = profile.class_count[: len(profile.classes)]
            for d in levels.results(class_rows, share, level_columns, past):
                found[d.column] = d
        return dict(sorted(found.items(), key=lambda kv: self.order[kv[0]]))

    @cached_property
    def single_class_levels(self) -> dict[str, list[leakage.SingleClassLevel]]:
        """Levels seen in one class only, beyond chance, per column (columns that decide the target left out)."""
        if self.profile.target is None:
            return {}
        deciding = set(self.deciding_columns)
        # The words of a document-term block are weighed by their documents (the class vocabulary): not scanned.
        columns = [c for c in leakage.scanned_columns(self.profile, self.other_kinds) if c not in deciding]
        # Categorical columns past the cap on levels: their levels from the pass over their pairs.
        past = [c for c in self.past_level_cap if self.kinds[c].kind in leakage.LEVEL_KINDS and c not in deciding]
        min_rows = self.settings.separation_min_rows
        counted = self.past_cap_scan.single_class(past, min_rows) if past else (0, [])
        found: dict[str, list[leakage.SingleClassLevel]] = {}
        for level in leakage.single_class_levels(
            self.profile, columns, min_rows, self.settings.separation_max_chance, counted
        ):
            found.setdefault(level.column, []).append(level)
        return found
