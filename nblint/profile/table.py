"""The table profile: sufficient statistics gathered in one pass and merged.

A :class:`TableProfile` is built from each chunk of rows independently
(:meth:`TableProfile.from_chunk`) and combined with :meth:`TableProfile.merge`.
Merging is associative, so the same code serves a DataFrame in memory, a CSV
read in chunks and partitions computed elsewhere.  Everything a rule needs
comes from here; rules never read rows (a second pass, through
:meth:`nblint.analysis.context.TableContext.scan`, is kept for per-row results).

What is gathered
----------------
Let ``c`` index the classes of the target (plus one last slot, ``c = C``, for
rows whose target is missing or for every row when no target is given), ``j``
the feature columns.

* per class and numeric column: count of non-missing values ``n_cj``, mean
  ``mu_cj`` and centred sum of squares ``M2_cj`` (merged with Chan et al.'s
  pairwise update, which is exact in exact arithmetic and stable in floats);
* per numeric column: missing count, min, max, whether every value is whole,
  whether every value is 0 or 1;
* per discrete column (up to :data:`DISTINCT_CAP` distinct values): the
  contingency table ``N[level, c]``; 0/1 columns need none, their table is
  ``(n_cj - S_cj, S_cj)`` with ``S_cj`` the class sums;
* the Gram block for the numeric columns that are complete: column means and
  the centred co-moment matrix ``M = sum_r (x_r - mu)(x_r - mu)^T`` (for VIF),
  and for the 0/1 columns among them the exact integer co-occurrence counts
  ``O_ij = #{r : x_ri = x_rj = 1}`` (for one-hot detection, which must be exact).

This module holds the table-level profile (target, text columns, the merge of
class slots); its blocks have their own modules: :mod:`nblint.profile.levels` (level
tables and distinct sketches), :mod:`nblint.profile.numeric` (per-class moments of
the numeric columns) and :mod:`nblint.profile.gram` (co-moments and co-occurrences).
"""

from __future__ import annotations

from functools import cached_property
from typing import Any

import numpy as np

from nblint.core.errors import InputError
from nblint.core.parallel import ordered_map
from nblint.core.resources import MemoryBudget, ProfileCaps
from nblint.profile.gram import WIDE_BINARY, Gram, merge_gram
from nblint.profile.levels import (
    DISTINCT_CAP,
    Levels,
    estimate_distinct,
    level_sizes,
    merge_distinct,
    remap_levels,
    smallest,
    sort_key,
    value_hashes,
)
from nblint.profile.numeric import (
    NumericStats,
    bincount2,
    merge_numeric,
    profile_numeric,
    remap_numeric,
)
from nblint.profile.target import class_slots, encode_target
from nblint.readers import Chunk, TableSource

# The blocks' own modules compute and merge them; their names stay importable from here.
__all__ = [
    "DISTINCT_CAP",
    "WIDE_BINARY",
    "Gram",
    "Levels",
    "NumericStats",
    "TableProfile",
    "TextStats",
    "class_slots",
]


# --------------------------------------------------------------------------- statistics blocks


class TextStats:
    """Statistics of one text column.

    (The profile's classes are written out: a dataclass's generated methods cost a first check in a
    fresh process ~1 ms each.)
    """

    __slots__ = ("n_missing", "levels", "sketch", "words")

    def __init__(self, n_missing: int, levels: Levels | None, sketch: np.ndarray | None = None, words: int = 0):
        self.n_missing = n_missing
        self.levels = levels  # None: more than DISTINCT_CAP levels
        self.sketch = sketch  # distinct-value sketch when levels is None
        #: Whitespace-separated words over the present values: documents have many, labels a few.
        self.words = words


# --------------------------------------------------------------------------- the profile


class TableProfile:
    """Mergeable sufficient statistics of one table (see the module docstring)."""

    def __init__(
        self,
        names: tuple[str, ...],
        target: str | None,
        n_rows: int,
        classes: tuple,
        class_count: np.ndarray,
        target_missing: int,
        numeric: NumericStats,
        text: dict[str, TextStats],
        gram: Gram,
        kinds: dict[str, str] | None = None,
        limits: tuple[str, ...] = (),
        level_cap: int = DISTINCT_CAP,
        caps: ProfileCaps | None = None,
    ) -> None:
        self.names = names
        self.target = target
        self.n_rows = n_rows
        self.classes = classes  # sorted class labels (float for a numeric target, str for text)
        self.class_count = class_count  # (C,) int64
        self.target_missing = target_missing
        self.numeric = numeric
        self.text = text
        self.gram = gram
        self.kinds: dict[str, str] = {} if kinds is None else kinds  # column -> "numeric" | "text"
        #: What the profile left out to stay within its memory budget (reported by NB106).
        self.limits = limits
        #: Distinct values kept exactly per column (DISTINCT_CAP, or fewer within the budget).
        self.level_cap = level_cap
        #: The budget's caps (None: no budget, as for a profile built by hand).
        self.caps = caps

    # ---------------------------------------------------------------- building

    @classmethod
    def from_source(
        cls,
        source: TableSource,
        target: str | None = None,
        jobs: int = 1,
        wide_binary: int | None = None,
        budget: MemoryBudget | None = None,
        rows: Any = None,
    ) -> TableProfile:
        """Profile a whole source, chunk by chunk, merging as it goes.

        Parameters
        ----------
        source : TableSource
        target : str, optional
        jobs : int
            Chunks profiled at once, on as many threads (numpy's and pyarrow's
            kernels release the GIL).  The chunks and the order of the merges are
            the same for every ``jobs``, so the profile is too, bit for bit.
        wide_binary : int, optional
            More complete 0/1 columns than this make the table *wide* (default
            :data:`WIDE_BINARY`): see :class:`Gram`.
        budget : MemoryBudget, optional
            The memory the profile may take (default :meth:`MemoryBudget.default`): past
            it, structures are capped (see :class:`~nblint.core.resources.ProfileCaps`) and
            ``limits`` says how.
        rows : accumulator, optional
            What else a caller needs of every row, gathered in the same pass rather than a
            second one (the training rows' fingerprints a test table is compared with): each
            chunk is added to an ``rows.empty()`` of its own (``add(chunk)``, on the chunk's
            thread), merged into ``rows`` in row order (``merge``) once the pass is whole.
        """
        caps = ProfileCaps.for_table(budget, len(source.names), DISTINCT_CAP)
        if target is not None and target in source.skipped:
            raise InputError(f"target column {target!r} cannot be read: it holds {source.skipped[target]}")
        if target is not None and target not in source.names:
            from nblint.core.suggest import missing_column  # (an error's words)

            raise InputError(missing_column("target column", target, list(source.names)) + source.missing_column_note)

        def read(chunk: Chunk) -> tuple[TableProfile, Any]:
            if rows is None:
                return cls.from_chunk(chunk, target, wide_binary, caps), None
            own = rows.empty()
            own.add(chunk)
            return cls.from_chunk(chunk, target, wide_binary, caps), own

        def fold(chunks) -> tuple[TableProfile | None, Any]:
            profile, seen = None, rows.empty() if rows is not None else None
            for part, own in ordered_map(read, chunks, jobs, "nblint-profile"):
                # The running profile is ours alone: merging may reuse its arrays.
                profile = part if profile is None else profile.merge(part, in_place=True)
                if seen is not None:
                    seen.merge(own)
            return profile, seen

        # A CSV source may restart the pass when a column's type widens mid-file: each
        # attempt folds from scratch (the restart protocol of TableSource.settled_pass).
        profile, seen = source.settled_pass(fold, sparse_except=(target,) if target is not None else ())
        if rows is not None and seen is not None:
            rows.merge(seen)
        if profile is None:
            raise InputError("no data rows")
        profile.limits += _level_note(profile, caps)
        return profile

    @classmethod
    def from_chunk(
        cls, chunk: Chunk, target: str | None = None, wide_binary: int | None = None, caps: ProfileCaps | None = None
    ) -> TableProfile:
        """Profile one chunk of rows (``wide_binary``, ``caps``: see :meth:`from_source`).

        Columns are profiled in name order, whatever their order in the table: every
        sum, matrix factorisation and search below then sees the same columns in the
        same order, so findings do not depend on column order, to the last bit.
        """
        if chunk.sparse is not None:
            from nblint.profile import sparse
            from nblint.readers.sparse import SparseBlock

            # A dense table's 0/1 columns (a wide CSV's) are profiled as if they were dense.
            if isinstance(chunk.sparse, SparseBlock) and chunk.sparse.table_columns:
                return cls._from_table_block(chunk, target, WIDE_BINARY if wide_binary is None else wide_binary, caps)
            part = sparse.profile_block(sparse.in_name_order(chunk), target, wide_binary)
            return cls(
                part.names,
                target,
                part.n_rows,
                part.classes,
                part.class_count,
                part.target_missing,
                part.numeric,
                {},
                part.gram,
                part.kinds,
            )
        # Values near the float64 limits (1.8e308, int64's ends as floats) overflow sums of squares
        # to inf: the statistics say so (rules read inf as unusable), numpy need not print a warning.
        with np.errstate(over="ignore", invalid="ignore"):
            return cls._from_chunk(chunk, target, wide_binary, caps)

    @classmethod
    def _from_table_block(cls, chunk: Chunk, target, wide_binary: int, caps) -> TableProfile:
        """A chunk of a dense table whose complete 0/1 columns come as a sparse block
        (:func:`nblint.profile.sparse.table_block_rest`): its other columns profiled dense,
        the block beside them (:func:`~nblint.profile.sparse.side_by_side`), or the whole chunk
        densified where the block is too small to be wide or the rest has 0/1 columns of its own.
        """
        from nblint.profile import sparse

        split = sparse.table_block_rest(chunk, target, wide_binary)
        if split is not None:
            rest, numeric_columns = split
            classes, _, _, _ = encode_target(rest, target)
            _check_class_cells(caps, target, len(classes) + 1, numeric_columns)
            with np.errstate(over="ignore", invalid="ignore"):
                other = cls._from_chunk(rest, target, wide_binary, caps)
            if not other.gram.binary and not other.gram.wide:
                part = sparse.side_by_side(chunk, other, target, wide_binary, caps)
                return cls(
                    part.names,
                    target,
                    other.n_rows,
                    other.classes,
                    other.class_count,
                    other.target_missing,
                    part.numeric,
                    other.text,
                    part.gram,
                    part.kinds,
                    part.limits,
                    other.level_cap,
                    caps,
                )
        return cls.from_chunk(sparse.densified(chunk), target, wide_binary, caps)

    @classmethod
    def _from_chunk(cls, chunk: Chunk, target, wide_binary, caps) -> TableProfile:
        chunk = _in_name_order(chunk)
        n = chunk.n_rows
        classes, y, class_count, target_missing = encode_target(chunk, target)
        slots = len(classes) + 1
        numeric_idx = [
            i
            for i, (name, col) in enumerate(zip(chunk.names, chunk.columns))
            if col.kind == "numeric" and name != target
        ]
        text_idx = [
            i for i, (name, col) in enumerate(zip(chunk.names, chunk.columns)) if col.kind == "text" and name != target
        ]
        kinds = {chunk.names[i]: "numeric" for i in numeric_idx} | {chunk.names[i]: "text" for i in text_idx}
        _check_class_cells(caps, target, slots, len(numeric_idx))
        cap = caps.levels(slots) if caps is not None else DISTINCT_CAP

        numeric, gram, limits = profile_numeric(chunk, numeric_idx, y, slots, wide_binary, cap, caps)
        text = {}
        for i in text_idx:
            col = chunk.columns[i]
            assert col.labels is not None  # a text column carries its labels
            present = col.values >= 0
            levels, sketch = None, None
            if len(col.labels) > cap:
                sketch = smallest(value_hashes(col.labels))
            else:
                table = bincount2(col.values[present], y[present], len(col.labels), slots)
                used = table.sum(axis=1) > 0
                keys = [col.labels[k] for k in np.flatnonzero(used)]
                order = sorted(range(len(keys)), key=lambda k: keys[k])
                levels = Levels(tuple(keys[k] for k in order), table[used][order])
            words = np.array([len(label.split()) for label in col.labels] + [0], dtype=np.int64)
            text[chunk.names[i]] = TextStats(int(n - present.sum()), levels, sketch, int(words[col.values].sum()))
        return cls(
            chunk.names, target, n, classes, class_count, target_missing, numeric, text, gram, kinds, limits, cap, caps
        )

    # ---------------------------------------------------------------- merging

    def merge(self, other: TableProfile, in_place: bool = False) -> TableProfile:
        """Combine the profiles of two disjoint sets of rows of the same table.

        With ``in_place`` the result may share (and has changed) this profile's
        largest arrays: for a running total that nobody else holds.
        """
        if self.names != other.names or self.target != other.target:
            raise ValueError("cannot merge profiles of different tables")
        if self.kinds != other.kinds:  # (one comparison of the dicts: a vocabulary's are 20,000 long)
            for name, kind in self.kinds.items():
                if other.kinds.get(name) != kind:
                    raise InputError(f"column {name!r} is numeric in one part of the table and text in another")
        classes = tuple(sorted(set(self.classes) | set(other.classes), key=sort_key))
        caps = self.caps or other.caps
        _check_class_cells(caps, self.target, len(classes) + 1, len(self.numeric.names))
        cap = min(self.level_cap, other.level_cap, caps.levels(len(classes) + 1) if caps is not None else DISTINCT_CAP)
        a_slots, b_slots = _slot_map(self.classes, classes), _slot_map(other.classes, classes)
        a_num, b_num = (
            remap_numeric(self.numeric, a_slots, len(classes)),
            remap_numeric(other.numeric, b_slots, len(classes)),
        )
        class_count = np.zeros(len(classes), dtype=np.int64)
        class_count[a_slots[:-1]] += self.class_count
        class_count[b_slots[:-1]] += other.class_count
        text = {}
        for name, a in self.text.items():
            b = other.text[name]
            levels, sketch = merge_distinct(
                remap_levels(a.levels, a_slots, len(classes)),
                a.sketch,
                remap_levels(b.levels, b_slots, len(classes)),
                b.sketch,
                cap,
            )
            text[name] = TextStats(a.n_missing + b.n_missing, levels, sketch, a.words + b.words)
        gram, gram_limits = merge_gram(self.gram, other.gram, in_place, caps)
        return TableProfile(
            self.names,
            self.target,
            self.n_rows + other.n_rows,
            classes,
            class_count,
            self.target_missing + other.target_missing,
            merge_numeric(a_num, b_num, cap),
            text,
            gram,
            dict(self.kinds),
            _ordered_union(self.limits, other.limits, gram_limits),
            cap,
            caps,
        )

    # ---------------------------------------------------------------- views

    @cached_property
    def features(self) -> tuple[str, ...]:
        """Every column but the target, in table order (made once: the analyses of a vocabulary ask often)."""
        names, target = tuple(self.names), self.target
        if target not in names:
            return names
        # (slices, not a test per name: the analyses ask for this several times over a vocabulary)
        i = names.index(target)
        rest = names[i + 1 :]
        return names[:i] + (rest if target not in rest else tuple(n for n in rest if n != target))

    def levels(self, name: str) -> Levels | None:
        """The contingency table of a discrete column (0/1 columns included), or None."""
        if name in self.text:
            return self.text[name].levels
        j = self.numeric.names.index(name)
        if self.numeric.zero_one[j]:
            return self.numeric.zero_one_table(j)
        return self.numeric.levels[j]

    def n_distinct(self, name: str) -> float | None:
        """Distinct non-missing values: exact up to the cap, else estimated; None if unknown."""
        if name not in self.text and self.numeric.zero_one[j := self.numeric.names.index(name)]:
            return float(sum(bool(counts[:, j].any()) for counts in self.numeric.level_counts))
        levels = self.levels(name)
        if levels is not None:
            return float(len(levels.keys))
        sketch = self.text[name].sketch if name in self.text else self.numeric.sketches[self.numeric.names.index(name)]
        return None if sketch is None else estimate_distinct(sketch)

    def n_missing(self, name: str) -> int:
        if name in self.text:
            return self.text[name].n_missing
        return int(self.numeric.n_missing[self.numeric.names.index(name)])


# --------------------------------------------------------------------------- helpers


def _ordered_union(*notes: tuple[str, ...]) -> tuple[str, ...]:
    """The notes of every part, each once, in order."""
    return tuple(dict.fromkeys(note for part in notes for note in part))


def _level_note(profile: TableProfile, caps: ProfileCaps | None) -> tuple[str, ...]:
    """NB106's note when the budget lowered the distinct-value cap and a column went past it (none otherwise)."""
    cap = profile.level_cap
    numeric = profile.numeric
    past = any(stats.levels is None for stats in profile.text.values()) or bool(
        np.any((level_sizes(numeric.levels) < 0) & ~numeric.zero_one)
    )
    if cap >= DISTINCT_CAP or caps is None or not past:
        return ()
    return (
        f"distinct values counted exactly up to {cap:,} per column (not {DISTINCT_CAP:,}) to keep "
        f"{caps.n_columns:,} columns within the memory budget: a column with more is read as having many values",
    )


def _check_class_cells(caps: ProfileCaps | None, target: str | None, slots: int, columns: int) -> None:
    """Refuse a target whose per-class statistics (class slots x numeric columns) cannot fit the budget."""
    if caps is None or target is None or slots * columns <= caps.class_cells:
        return
    raise InputError(
        f"target {target!r} has {slots - 1:,}+ classes over {columns:,} numeric columns: their per-class "
        f"statistics would take {caps.describe(80.0 * slots * columns)} (raise memory-budget in the "
        "configuration, or lint fewer columns)"
    )


def _in_name_order(chunk: Chunk) -> Chunk:
    """The chunk with its columns sorted by name (stable, so repeated names keep their order)."""
    order = sorted(range(len(chunk.names)), key=lambda i: chunk.names[i])
    if order == list(range(len(order))):
        return chunk
    return Chunk(
        tuple(chunk.names[i] for i in order), tuple(chunk.columns[i] for i in order), chunk.row_offset, chunk.n_rows
    )


def _slot_map(old: tuple, new: tuple) -> np.ndarray:
    """Index of each old class slot (and the trailing missing-target slot) in the new classes."""
    index = {c: i for i, c in enumerate(new)}
    return np.array([index[c] for c in old] + [len(new)], dtype=np.int64)
