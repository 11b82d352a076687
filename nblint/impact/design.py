"""NB401's model design: which columns feed which component, and rows encoded for it.

Both models of the measurement read the same columns: each one-hot/dummy group
(as level codes for CAT, as bits for PoB), every other discrete column as a
categorical feature and every continuous one as a Gaussian feature.  The words
of a document-term block are one block, read as text models read them: counts
or weights by one multinomial per class (MultinomialNB), presence bits by
independent Bernoullis (BernoulliNB, which binarises at 0), as a sparse matrix.
A :class:`Design` records that decision, made once from the profile and the
column kinds; :func:`encode_chunk` turns a chunk of rows into the compact codes
and values the scoring kernel reads.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

#: How a document-term block is read (see :func:`term_model`).
MULTINOMIAL, BERNOULLI = "multinomial", "bernoulli"


@dataclass
class GroupFeature:
    """A group as the models see it: CAT level codes and PoB bits."""

    label: str
    kind: str  # "one-hot" | "dummy"
    members: list[str]

    @property
    def n_levels(self) -> int:
        return len(self.members) + (self.kind == "dummy")


@dataclass
class Design:
    """Which columns feed which component, and how values become level indices."""

    classes: tuple
    groups: list[GroupFeature]
    categorical: list[str]
    level_keys: dict[str, tuple]
    gaussian: list[str]
    left_out: dict[str, str]
    terms: list[str] = field(default_factory=list)  # the words of a document-term block, read as one block
    term_model: str | None = None  # MULTINOMIAL or BERNOULLI when there are terms

    @property
    def columns(self) -> list[str]:
        return [m for g in self.groups for m in g.members] + self.categorical + self.gaussian + self.terms

    @property
    def width(self) -> int:
        """Encoded values of a row, about: one per column read alone, one for a block (its words are sparse)."""
        return len(self.columns) - len(self.terms) + bool(self.terms)


def make_design(ctx) -> Design:
    """Decide, from the profile and the column kinds, how each column enters both models."""
    profile = ctx.profile
    groups = [GroupFeature(g.label, g.kind, list(g.members)) for g in ctx.structure.groups]
    in_group = {m for g in groups for m in g.members}
    block = term_model(ctx)
    words = ctx.term_columns if block is not None else frozenset()
    categorical, gaussian, terms, left_out, keys = [], [], [], {}, {}
    for column in profile.features:
        if column in in_group:
            continue
        kind = ctx.kinds[column]
        if kind.kind in ("identifier", "constant"):
            left_out[column] = kind.kind
        elif profile.n_missing(column):
            left_out[column] = "missing values"
        elif column in words:
            terms.append(column)
        elif kind.kind == "continuous" or profile.levels(column) is None:
            if column in profile.text:
                left_out[column] = "too many text values"
            else:
                gaussian.append(column)
        else:
            categorical.append(column)
            keys[column] = profile.levels(column).keys
    return Design(profile.classes, groups, categorical, keys, gaussian, left_out, terms, block if terms else None)


def term_model(ctx) -> str | None:
    """How the words of the table's document-term block are read, or None (no block, or each word alone).

    The declared model when it reads a block (Multinomial and Complement NB read counts
    and weights, Bernoulli NB presence); with none declared, presence bits when every
    word is 0/1 (``binary=True``), else counts. A declared Categorical or Gaussian NB
    reads each word as a feature of its own, as the columns elsewhere are read.
    """
    if not ctx.term_columns:
        return None
    if ctx.model in ("multinomial", "complement"):
        return MULTINOMIAL
    if ctx.model == "bernoulli":
        return BERNOULLI
    if ctx.model is not None:
        return None
    numeric = ctx.profile.numeric
    zero_one = numeric.zero_one
    binary = all(zero_one[numeric.names.index(c)] for c in ctx.term_columns)
    return BERNOULLI if binary else MULTINOMIAL


@dataclass
class RowInputs:
    """Encoded rows (a chunk, a window of rows, or a subset of one), ready for the components."""

    y: np.ndarray  # class index, rows with a target only
    rows: np.ndarray  # global 0-based row numbers
    group_codes: np.ndarray  # (G, n): level code of each group
    categorical: list[np.ndarray]
    gaussian: np.ndarray
    terms: Any = None  # scipy.sparse.csr_matrix (n, words): counts, weights or presence bits

    def __len__(self) -> int:
        return len(self.y)

    @property
    def nbytes(self) -> int:
        arrays = [self.y, self.rows, self.gaussian, self.group_codes, *self.categorical]
        if self.terms is not None:
            arrays += [self.terms.data, self.terms.indices, self.terms.indptr]
        return sum(a.nbytes for a in arrays)

    def take(self, index: slice | np.ndarray) -> RowInputs:
        """The rows at ``index`` (a slice or positions)."""
        return RowInputs(
            self.y[index],
            self.rows[index],
            self.group_codes[:, index],
            [codes[index] for codes in self.categorical],
            self.gaussian[index],
            None if self.terms is None else self.terms[index],
        )

    @classmethod
    def concatenate(cls, parts: list[RowInputs]) -> RowInputs:
        """The rows of ``parts``, one after the other."""
        if len(parts) == 1:
            return parts[0]
        return cls(
            np.concatenate([p.y for p in parts]),
            np.concatenate([p.rows for p in parts]),
            np.concatenate([p.group_codes for p in parts], axis=1),
            [np.concatenate(column) for column in zip(*(p.categorical for p in parts))],
            np.concatenate([p.gaussian for p in parts]),
            None if parts[0].terms is None else _stack([p.terms for p in parts]),
        )


def class_codes(tcol, classes) -> np.ndarray:
    """Each row's class index among ``classes`` from the target column ``tcol``, -1 where it has none."""
    if tcol.kind == "text":
        class_index = {c: i for i, c in enumerate(classes)}
        lookup = np.array([class_index.get(label, -1) for label in tcol.labels] + [-1], dtype=np.int64)
        return lookup[tcol.values]
    if _exact(tcol, classes):  # integer classes past 2^53: matched as integers (issue 24)
        keys = np.array([int(c) for c in classes], dtype=tcol.values.dtype)
        pos = np.clip(np.searchsorted(keys, tcol.values), 0, max(len(keys) - 1, 0))
        present = ~tcol.missing if tcol.missing is not None else np.ones(len(tcol.values), dtype=bool)
        return np.where(present & (keys[pos] == tcol.values), pos, -1)
    values = tcol.as_float()
    keys = np.array(classes, dtype=np.float64)
    pos = np.clip(np.searchsorted(keys, values), 0, max(len(keys) - 1, 0))
    return np.where(~np.isnan(values) & (keys[pos] == values), pos, -1) if len(keys) else np.full(len(values), -1)


def encode_chunk(chunk, design: Design, target: str, held_terms=None) -> RowInputs:
    """Encode one chunk (rows with a missing target are dropped).

    ``held_terms``: the design's words for every row of the table (CSR), when they are
    held in memory rather than read with the chunk.
    """
    cols = dict(zip(chunk.names, chunk.columns))
    y = class_codes(cols[target], design.classes)
    has_class = y >= 0
    kept = int(has_class.sum())
    # Every row has a class (the usual case): the columns as they are, not a copy of each
    # through the mask (52 copies of a million values for the long bench table).
    keep: slice | np.ndarray = slice(None) if kept == len(y) else has_class
    rows = np.arange(chunk.row_offset, chunk.row_offset + chunk.n_rows)[keep]
    group_codes = np.empty((len(design.groups), kept), dtype=np.int64)
    for code, group in zip(group_codes, design.groups):
        # The collapsed variable: the level whose bit is set; for a dummy group the
        # all-zero rows are the reference level, the last code.
        code[:] = group.n_levels - 1
        for k, member in enumerate(group.members):
            np.putmask(code, cols[member].values[keep] == 1, k)
    categorical = []
    for column in design.categorical:
        col = cols[column]
        level_keys = design.level_keys[column]
        if col.kind == "text":
            index = {k: i for i, k in enumerate(level_keys)}
            lookup = np.array([index[label] for label in col.labels] + [0], dtype=np.int64)
            categorical.append(_compact(lookup[col.values[keep]]))
        elif _exact(col, level_keys):
            exact = np.array([int(k) for k in level_keys], dtype=col.values.dtype)
            categorical.append(_compact(np.searchsorted(exact, col.values[keep])))
        else:
            categorical.append(_compact(_level_index(np.array(level_keys, dtype=np.float64), col.values[keep])))
    gaussian = (
        np.column_stack([cols[c].as_float()[keep] for c in design.gaussian]) if design.gaussian else np.zeros((kept, 0))
    )
    terms = None
    if design.terms and held_terms is not None:
        terms = held_terms[chunk.row_offset : chunk.row_offset + chunk.n_rows][np.flatnonzero(has_class)]
    elif design.terms:
        from scipy import sparse

        block = np.column_stack([cols[c].as_float()[keep] for c in design.terms])
        if design.term_model == BERNOULLI:
            block = (block > 0).astype(np.float64)  # Bernoulli NB binarises at 0: a word's presence
        terms = sparse.csr_matrix(block)
    return RowInputs(y[keep], rows, _compact(group_codes), categorical, gaussian, terms)


def _stack(blocks: list):
    """Sparse row blocks, one under the other."""
    from scipy import sparse

    return sparse.vstack(blocks, format="csr")


def _exact(col, keys) -> bool:
    """Whether an integer column's keys hold integers past 2^53 (float64 would merge them): compare as integers."""
    return col.values.dtype.kind in "iu" and any(isinstance(k, int) and not isinstance(k, bool) for k in keys)


def _compact(codes: np.ndarray) -> np.ndarray:
    """Level codes in the smallest integer type that holds them (they are kept between passes)."""
    top = int(codes.max()) if codes.size else 0
    return codes.astype(np.int8 if top < 2**7 else np.int16 if top < 2**15 else np.int32, copy=False)


def _level_index(keys: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Index of each value among the sorted level keys (every value is a key)."""
    lo, hi = keys[0], keys[-1]
    # (the span as Python floats: levels at float64's limits span inf, without numpy's overflow warning)
    if np.all(keys == np.floor(keys)) and float(hi) - float(lo) < 1 << 16:
        # Whole-number levels: one lookup array over lo..hi beats a binary search.
        lookup = np.zeros(int(hi - lo) + 1, dtype=np.int64)
        lookup[(keys - lo).astype(np.int64)] = np.arange(len(keys))
        return lookup[(values - lo).astype(np.int64)]
    return np.searchsorted(keys, values)
