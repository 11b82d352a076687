"""The target column of a chunk as class slots: the labels, each row's slot, the class counts.

Every profile (dense chunks, a sparse block) and every later pass that groups
rows by class reads the target through these two functions, so a label is the
same class everywhere: integers compared as integers (2^63 and 2^63 + 1 are two
classes), text by its labels, other numbers as float64.
"""

from __future__ import annotations

import numpy as np

from nblint.profile.levels import exact_key
from nblint.readers import Chunk


def encode_target(chunk: Chunk, target: str | None):
    """Class labels (sorted), per-row slot index (C for missing) and class counts."""
    n = chunk.n_rows
    if target is None:
        return (), np.zeros(n, dtype=np.int64), np.zeros(0, dtype=np.int64), 0
    col = chunk.column(target)
    if col.kind == "text":
        codes, names = col.values, col.labels or ()
        present = codes >= 0
        used = np.flatnonzero(np.bincount(codes[present], minlength=len(names)))
        labels = [names[k] for k in used]
        order = np.argsort(np.array(labels, dtype=object), kind="stable") if labels else np.zeros(0, dtype=np.int64)
        classes = tuple(labels[k] for k in order)
        # Each label's slot, and last the missing rows' (code -1): a chunk may have no label at all.
        local = np.full(len(names) + 1, len(classes), dtype=np.int64)
        local[used[order]] = np.arange(len(classes))
        y = local[codes]
    elif col.values.dtype.kind in "iu":  # integers compared as integers: 2^63 and 2^63 + 1 are two classes
        present = ~col.missing if col.missing is not None else np.ones(n, dtype=bool)
        uniques, inverse = np.unique(col.values[present], return_inverse=True)
        classes = tuple(exact_key(int(u)) for u in uniques)
        y = np.full(n, len(classes), dtype=np.int64)
        y[present] = inverse.reshape(-1)
    else:
        values = col.as_float()
        present = ~np.isnan(values)
        uniques, inverse = np.unique(values[present], return_inverse=True)
        classes = tuple(float(u) for u in uniques)
        y = np.full(n, len(classes), dtype=np.int64)
        y[present] = inverse
    class_count = np.bincount(y, minlength=len(classes) + 1)[: len(classes)].astype(np.int64)
    return classes, y.astype(np.int64), class_count, int(n - present.sum())


def class_slots(chunk: Chunk, target: str, classes: tuple) -> np.ndarray:
    """Each row's index into the table's ``classes`` (``len(classes)`` where the target is missing)."""
    local, y, _, _ = encode_target(chunk, target)
    index = {label: k for k, label in enumerate(classes)}
    slots = np.array([index[label] for label in local] + [len(classes)], dtype=np.int64)
    return slots[y]
