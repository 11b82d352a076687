"""``CollapseGroups``: one-hot/dummy groups back into ordinal codes, for a pipeline of your own.

``make_pipeline(CollapseGroups(), CategoricalNB())`` reads each group found by
nblint (the groups of ``nblint check``, from the values alone) as one
categorical feature instead of independent bits.  Each group's columns are
replaced, at the position of its first member, by one column of codes: the index
of the member that is set (0 .. K-1), and for a dummy group K for the rows where
none is (the reference level).  ``inverse_transform`` writes the bits back.

Importing this module imports scikit-learn (a dependency of nblint, imported only when used).
"""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils.validation import check_is_fitted

from nblint import nbmath
from nblint.estimators.columnvalues import group_codes
from nblint.estimators.featureplan import GROUP_KINDS
from nblint.estimators.mixednb import validate_data
from nblint.estimators.recommend import frame_context


class CollapseGroups(TransformerMixin, BaseEstimator):
    """Replace each one-hot/dummy group of 0/1 columns by one column of level codes.

    Parameters
    ----------
    groups : "auto" or dict, default "auto"
        ``"auto"``: the groups nblint finds in the data passed to :meth:`fit`.
        A dict declares them instead: ``{("a_x", "a_y", "a_z"): "one-hot",
        ("b_1", "b_2"): "dummy"}`` (column names, or positions for arrays).

    Attributes
    ----------
    groups_ : list of (tuple of int, str)
        Each group's member positions and kind.
    n_features_in_ : int
    feature_names_in_ : ndarray of str
        Only when ``X`` has string column names.

    Examples
    --------
    >>> import pandas as pd
    >>> from sklearn.naive_bayes import CategoricalNB
    >>> from sklearn.pipeline import make_pipeline
    >>> from nblint import CollapseGroups
    >>> X = pd.DataFrame({"red": [1, 0, 0, 1] * 5, "blue": [0, 1, 0, 0] * 5, "green": [0, 0, 1, 0] * 5})
    >>> CollapseGroups().fit_transform(X)[:4, 0].tolist()
    [0.0, 1.0, 2.0, 0.0]
    >>> make_pipeline(CollapseGroups(), CategoricalNB()).fit(X, [0, 1, 1, 0] * 5).predict(X.head(2)).tolist()
    [0, 1]
    """

    def __init__(self, groups="auto"):
        self.groups = groups

    def fit(self, X, y=None):
        """Find (or take) the groups of ``X``."""
        X = validate_data(self, X, reset=True, dtype=None)
        names = list(getattr(self, "feature_names_in_", [f"x{j}" for j in range(X.shape[1])]))
        position = {name: j for j, name in enumerate(names)}
        if isinstance(self.groups, str) and self.groups == "auto":
            import pandas as pd

            frame = pd.DataFrame({name: X[:, j] for j, name in enumerate(names)}).infer_objects()
            found = frame_context(frame).structure.groups
            groups = [(tuple(sorted(position[m] for m in g.members)), g.kind) for g in found]
        elif isinstance(self.groups, dict):
            groups = []
            for key, kind in self.groups.items():
                if kind not in GROUP_KINDS or not isinstance(key, tuple):
                    raise ValueError(f"groups maps tuples of columns to 'one-hot' or 'dummy', got {key!r}: {kind!r}")
                groups.append((tuple(sorted(k if isinstance(k, int) else position[k] for k in key)), kind))
        else:
            raise ValueError(f"groups must be 'auto' or a dict, got {self.groups!r}")
        self.groups_ = sorted(groups)
        self._names = names
        return self

    def _layout(self) -> list:
        """Output columns in order: an input position, or a group index."""
        first = {members[0]: g for g, (members, _) in enumerate(self.groups_)}
        member = {j for members, _ in self.groups_ for j in members}
        return [
            ("group", first[j]) if j in first else ("column", j)
            for j in range(self.n_features_in_)
            if j in first or j not in member
        ]

    def transform(self, X):
        """Each group's bits replaced by its level codes.

        Raises
        ------
        ValueError
            Where a row is not a level of a group (several bits set, or none in a
            one-hot group): the codes would be wrong.
        """
        check_is_fitted(self)
        X = validate_data(self, X, reset=False, dtype=None)
        out = []
        for what, index in self._layout():
            if what == "column":
                out.append(X[:, index])
                continue
            members, kind = self.groups_[index]
            codes = group_codes(X[:, list(members)], kind)
            bad = np.flatnonzero(codes == nbmath.MISSING)
            if bad.size:
                raise ValueError(
                    f"group {self._label(index)!r}: rows {(bad[:5] + 1).tolist()} are no level of it "
                    "(several bits set, or none in a one-hot group)"
                )
            out.append(codes)
        return _stack(out, X)

    def inverse_transform(self, X):
        """The bits back from the codes: the input of :meth:`transform`."""
        check_is_fitted(self)
        X = np.asarray(X)
        layout = self._layout()
        if X.ndim != 2 or X.shape[1] != len(layout):
            raise ValueError(f"X must have {len(layout)} columns, got shape {X.shape}")
        out: list = [None] * self.n_features_in_
        for k, (what, index) in enumerate(layout):
            if what == "column":
                out[index] = X[:, k]
                continue
            members, _ = self.groups_[index]
            codes = X[:, k].astype(float)
            for level, j in enumerate(members):
                out[j] = (codes == level).astype(float)
        return _stack(out, X)

    def get_feature_names_out(self, input_features=None):
        """Input names, each group's members replaced by the group's name (its members joined by ``+``)."""
        check_is_fitted(self)
        names = self._names if input_features is None else list(input_features)
        return np.array(
            [names[i] if what == "column" else self._label(i, names) for what, i in self._layout()], dtype=object
        )

    def _label(self, g: int, names=None) -> str:
        names = names or self._names
        return "+".join(names[j] for j in self.groups_[g][0])

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.string = True
        return tags


def _stack(columns: list, like: np.ndarray) -> np.ndarray:
    """Columns side by side: float when every one is numeric, else object."""
    if not columns:
        return np.zeros((like.shape[0], 0))
    try:
        return np.column_stack([np.asarray(c, dtype=float) for c in columns])
    except (TypeError, ValueError):
        return np.column_stack([np.asarray(c, dtype=object) for c in columns])
