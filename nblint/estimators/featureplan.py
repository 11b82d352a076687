"""Which columns :class:`~nblint.estimators.mixednb.MixedNB` reads how: what ``kinds`` declares, what nblint infers.

A column is read by one event model (categorical, Bernoulli, multinomial, Gaussian,
log-normal, binned), a tuple of 0/1 columns is a group collapsed into one categorical
variable, and a column may be dropped. :func:`declared` reads the ``kinds`` parameter;
:func:`inferred` asks nblint's analyses for the rest (:mod:`nblint.estimators.recommend`);
a :class:`Plan` holds the features by event model, with the column positions they read.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from nblint.estimators.recommend import FEATURE_MODELS, Feature, frame_context, recommended_features
from nblint.structure.groups import group_label
from nblint.structure.names import group_stem

#: Readings of a continuous column besides the Gaussian one (:mod:`nblint.estimators.readings`).
CONTINUOUS_READINGS = ("lognormal", "binned")


#: What ``kinds`` may declare a measurement whose reading ``continuous`` chooses, as for an inferred one.
MEASUREMENT = "continuous"


#: Values ``kinds`` may give every column, or one: an event model, another reading of a measurement,
#: or a measurement whose reading is chosen.
READ_KINDS = (*FEATURE_MODELS, *CONTINUOUS_READINGS, MEASUREMENT)


#: Values ``kinds`` may give a column: a reading, or "drop".
COLUMN_KINDS = (*READ_KINDS, "drop")


#: Values ``kinds`` may give a tuple of columns (a group collapsed into one variable).
GROUP_KINDS = ("one-hot", "dummy")


#: Name of the class column in the table the kinds are inferred from.
TARGET = "__nblint_class__"


class Plan:
    """Features grouped by event model, with the column positions they read."""

    def __init__(self, features: list[Feature], order: dict[str, int]):
        self.order = order
        self.categorical = [f for f in features if f.model in ("categorical", "binned")]
        self.bernoulli = [order[c] for f in features if f.model == "bernoulli" for c in f.columns]
        self.multinomial = [order[c] for f in features if f.model == "multinomial" for c in f.columns]
        self.gaussian = [order[c] for f in features if f.model == "gaussian" for c in f.columns]
        self.lognormal = [order[c] for f in features if f.model == "lognormal" for c in f.columns]
        self.name_of = {j: name for name, j in order.items()}

    def positions(self, feature: Feature) -> list[int]:
        return [self.order[c] for c in feature.columns]

    @staticmethod
    def group_levels(feature: Feature) -> list[str]:
        """A group's levels: its members, then the reference level of a dummy group."""
        return [*feature.columns, *(["(reference)"] if feature.group == "dummy" else [])]


class Declared:
    def __init__(self):
        self.features: list[Feature] = []
        self.left_out: dict[str, str] = {}
        self.columns: set[int] = set()
        #: Columns declared "continuous": Gaussian features whose reading ``continuous`` chooses.
        self.measurements: set[str] = set()


def declared(kinds, names: list[str]) -> Declared:
    """The features ``kinds`` declares (a model name for every column, or a dict)."""
    out = Declared()
    if isinstance(kinds, str):
        if kinds == "auto":
            return out
        if kinds not in READ_KINDS:
            raise ValueError(f"kinds must be 'auto', one of {READ_KINDS} or a dict, got {kinds!r}")
        kinds = dict.fromkeys(range(len(names)), kinds)
    if not isinstance(kinds, Mapping):
        raise ValueError(f"kinds must be 'auto', one of {READ_KINDS} or a dict, got {kinds!r}")
    position = {name: j for j, name in enumerate(names)}

    def column(key) -> int:
        if isinstance(key, (int, np.integer)) and not isinstance(key, bool) and 0 <= key < len(names):
            return int(key)
        if key in position:
            return position[key]
        raise ValueError(f"kinds names {key!r}, which is not a column of X")

    for key, kind in kinds.items():
        if isinstance(key, tuple):
            if kind not in GROUP_KINDS:
                raise ValueError(f"a tuple of columns in kinds is a group: 'one-hot' or 'dummy', got {kind!r}")
            cols = sorted({column(k) for k in key})
            members = [names[j] for j in cols]
            label = group_label(members, group_stem(members, names))
            out.features.append(Feature("categorical", tuple(members), kind, label))
        else:
            if kind not in COLUMN_KINDS:
                raise ValueError(f"kinds[{key!r}] must be one of {COLUMN_KINDS}, got {kind!r}")
            cols = [column(key)]
            if kind == "drop":
                out.left_out[names[cols[0]]] = "declared drop"
            elif kind == MEASUREMENT:
                out.features.append(Feature("gaussian", (names[cols[0]],), None, names[cols[0]]))
                out.measurements.add(names[cols[0]])
            else:
                out.features.append(Feature(kind, (names[cols[0]],), None, names[cols[0]]))
        if out.columns & set(cols):
            raise ValueError(f"kinds declares column {names[min(out.columns & set(cols))]!r} twice")
        out.columns.update(cols)
    return out


def inferred(X, y, names: list[str], rest: list[int]) -> tuple[list[Feature], dict[str, str]]:
    """nblint's recommended features for the columns ``rest`` (kinds, groups: the analyses context)."""
    import pandas as pd

    frame = pd.DataFrame({names[j]: X[:, j] for j in rest}).infer_objects()
    frame[TARGET] = np.asarray(y)
    ctx = frame_context(frame, target=TARGET)
    return recommended_features(ctx)
