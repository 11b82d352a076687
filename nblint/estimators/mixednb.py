"""``MixedNB``: one Naive Bayes over mixed columns, each read by its own event model.

scikit-learn's Naive Bayes classes each assume one event model for every column;
a table with one-hot groups, flags, codes, counts and measurements fits none of
them (NB308), and reading a group's bits as independent Bernoullis over-counts
its evidence (NB401).  ``MixedNB`` is the model nblint recommends instead: the
product over features of

* categorical likelihoods ``theta_ck`` for categorical columns and for one-hot/
  dummy groups collapsed into one variable (a level never seen in training, or a
  group row with no or several bits set, gives no evidence rather than vetoing
  a class);
* Bernoulli likelihoods for 0/1 columns (a value other than 0 or 1 at prediction
  time gives no evidence);
* one multinomial over a block of counts of one kind, such as words (kept sparse
  when given sparse);
* normal densities for continuous columns,

times the class prior, with one Lidstone ``alpha`` for the discrete parts.  Every
piece is fitted from sufficient statistics by :mod:`nblint.nbmath`, the package
NB401's measurement uses, so ``partial_fit`` merges batches exactly and this
estimator's posteriors are NB401's model "CAT".  Which column is what comes from
nblint's own analyses (:func:`nblint.estimators.recommend.recommended_features`) unless
given.

Importing this module imports scikit-learn (``pip install 'nblint[sklearn]'``).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
from scipy import sparse
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted

from nblint import nbmath
from nblint.estimators.recommend import MODELS, Feature, frame_context, recommended_features

try:  # scikit-learn >= 1.6
    from sklearn.utils.validation import validate_data
except ImportError:  # pragma: no cover - older scikit-learn

    def validate_data(estimator, X, y="no_validation", **kwargs):
        kwargs["force_all_finite"] = kwargs.pop("ensure_all_finite", True)
        return estimator._validate_data(X, y, **kwargs)


#: Values ``kinds`` may give a column: an event model, or "drop".
COLUMN_KINDS = (*MODELS, "drop")
#: Values ``kinds`` may give a tuple of columns (a group collapsed into one variable).
GROUP_KINDS = ("one-hot", "dummy")
#: Name of the class column in the table the kinds are inferred from.
_TARGET = "__nblint_class__"


class MixedNB(ClassifierMixin, BaseEstimator):
    """Naive Bayes with an event model per column: categorical, Bernoulli, multinomial, Gaussian.

    Parameters
    ----------
    kinds : "auto", str or dict, default "auto"
        Which event model reads each column.  ``"auto"``: nblint's own inference
        (the kinds of ``nblint columns``, one-hot/dummy groups found from the
        values and collapsed into one categorical feature; identifiers and
        constant columns left out; a dense count column on its own, categorical
        or Gaussian: see :mod:`nblint.estimators.recommend`).  One of ``"categorical"``, ``"bernoulli"``,
        ``"multinomial"``, ``"gaussian"``: that model for every column.  A dict
        declares columns (by name, or by position for arrays without names):
        ``{"colour": "categorical", "n_visits": "multinomial", "id": "drop",
        ("a_x", "a_y", "a_z"): "one-hot", ("b_1", "b_2"): "dummy"}``; declared
        kinds win and the columns it does not name are inferred.  A sparse
        ``X`` is read, where not declared, as one block of counts (multinomial).
    alpha : float, default 1.0
        Additive (Lidstone) smoothing of the categorical, Bernoulli and
        multinomial parts; 0 is maximum likelihood, taken as the limit
        alpha -> 0+ (a zero count vetoes a class only against classes with fewer
        vetoes, never leaving a row without a posterior).
    fit_prior : bool, default True
        Learn the class prior; else uniform.
    class_prior : array-like of shape (n_classes,), default None
        Given class prior (takes precedence).
    var_smoothing : float, default 1e-9
        As in ``GaussianNB``: this share of the largest variance of the Gaussian
        columns is added to every class variance.

    Notes
    -----
    A missing value (NaN, None) in a categorical column, like a level never seen
    in training, gives no evidence on that row (its factor is summed out); the
    Bernoulli, multinomial and Gaussian columns must be complete.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    class_count_ : ndarray of shape (n_classes,)
    class_log_prior_ : ndarray of shape (n_classes,)
    features_ : list of nblint.estimators.recommend.Feature
        The features fitted, with their event models (column names, or ``x0``,
        ``x1``... for arrays without names).
    left_out_ : dict
        Columns not used, with why.
    categories_ : list of ndarray
        Levels of each categorical feature, in code order (for a group: its
        member columns, then ``"(reference)"`` for a dummy group).
    category_count_ : list of ndarray of shape (n_classes, n_levels)
    bernoulli_count_ : ndarray of shape (n_classes, n_bernoulli)
    feature_count_ : ndarray of shape (n_classes, n_multinomial)
    theta_, var_ : ndarray of shape (n_classes, n_gaussian)
        Class means and smoothed variances of the Gaussian columns.
    n_features_in_ : int
    feature_names_in_ : ndarray of str
        Only when ``X`` has string column names.

    Examples
    --------
    >>> import pandas as pd
    >>> from nblint import MixedNB
    >>> X = pd.DataFrame({"colour": ["red", "blue", "red", "green"] * 5,
    ...                   "height": [1.2, 3.4, 1.1, 2.5] * 5})
    >>> y = [0, 1, 0, 1] * 5
    >>> MixedNB().fit(X, y).predict(X.head(2)).tolist()
    [0, 1]
    """

    def __init__(self, kinds="auto", *, alpha=1.0, fit_prior=True, class_prior=None, var_smoothing=1e-9):
        self.kinds = kinds
        self.alpha = alpha
        self.fit_prior = fit_prior
        self.class_prior = class_prior
        self.var_smoothing = var_smoothing

    # ------------------------------------------------------------------ fitting

    def fit(self, X, y):
        """Fit from ``X`` (a DataFrame, array or sparse matrix) and the classes ``y``."""
        for name in ("classes_", "_plan"):
            self.__dict__.pop(name, None)
        X, y = self._validate(X, y, reset=True)
        self._partial_fit(X, y, np.unique(y))
        if isinstance(self._model, ValueError):
            raise self._model
        return self

    def partial_fit(self, X, y, classes=None):
        """Add a batch of rows (the statistics merge exactly: the same model as one fit).

        Parameters
        ----------
        X, y
            As for :meth:`fit`.
        classes : array-like, optional
            Every class, required on the first call.  Which column is what is
            decided on the first call (from that batch, for ``kinds="auto"``).
        """
        first = not hasattr(self, "classes_")
        if first and classes is None:
            raise ValueError("classes must be passed on the first call to partial_fit")
        X, y = self._validate(X, y, reset=first)
        if not first and classes is not None and not np.array_equal(np.unique(classes), self.classes_):
            raise ValueError(
                f"classes={classes!r} is not the same as on the first call to partial_fit: {self.classes_!r}"
            )
        return self._partial_fit(X, y, np.unique(classes) if first else self.classes_)

    def _validate(self, X, y, reset: bool):
        X, y = validate_data(self, X, y, reset=reset, dtype=None, accept_sparse="csr", ensure_all_finite=False)
        check_classification_targets(y)
        return X, y

    def _partial_fit(self, X, y, classes):
        if not hasattr(self, "classes_"):
            alpha = float(self.alpha)
            if not np.isfinite(alpha) or alpha < 0:
                raise ValueError(f"alpha must be a finite number >= 0, got {self.alpha!r}")
            self.classes_ = classes
            self._plan = self._make_plan(X, y)
            self._start_statistics(len(classes))
        codes = np.searchsorted(self.classes_, y)
        if np.any(codes >= len(self.classes_)) or np.any(self.classes_[np.minimum(codes, len(self.classes_) - 1)] != y):
            raise ValueError(f"y has classes not in classes={self.classes_!r}")
        self._add_statistics(X, codes)
        try:
            self._model = self._fit_model()
        except ValueError as exc:  # e.g. one row so far: no variance yet; later batches may bring it
            self._model = exc
        return self

    def _make_plan(self, X, y) -> _Plan:
        """Decide which column is what: declared kinds, then nblint's inference for the rest."""
        names = list(getattr(self, "feature_names_in_", [f"x{j}" for j in range(X.shape[1])]))
        declared = _declared(self.kinds, names)
        rest = [j for j in range(len(names)) if j not in declared.columns]
        features, left_out = list(declared.features), dict(declared.left_out)
        if rest and sparse.issparse(X):
            features.append(Feature("multinomial", tuple(names[j] for j in rest), None, "counts"))
        elif rest:
            found, why = _inferred(X, y, names, rest)
            features += found
            left_out.update(why)
        order = {name: j for j, name in enumerate(names)}
        features.sort(key=lambda f: order[f.columns[0]])
        self.features_ = features
        self.left_out_ = dict(sorted(left_out.items(), key=lambda item: order[item[0]]))
        return _Plan(features, order)

    def _start_statistics(self, n_classes: int) -> None:
        plan = self._plan
        C = n_classes
        self.class_count_ = np.zeros(C)
        self.categories_ = [
            np.array(plan.group_levels(f), dtype=object) if f.group else np.array([], dtype=object)
            for f in plan.categorical
        ]
        self.category_count_ = [np.zeros((C, len(levels))) for levels in self.categories_]
        self._level_index = [{level: k for k, level in enumerate(levels)} for levels in self.categories_]
        self.bernoulli_count_ = np.zeros((C, len(plan.bernoulli)))
        self.feature_count_ = np.zeros((C, len(plan.multinomial)))
        self._moments = nbmath.Moments(
            np.zeros((C, len(plan.gaussian))), np.zeros((C, len(plan.gaussian))), np.zeros((C, len(plan.gaussian)))
        )

    def _add_statistics(self, X, y: np.ndarray) -> None:
        plan, C = self._plan, len(self.classes_)
        self.class_count_ += nbmath.class_counts(y, C)
        for i, feature in enumerate(plan.categorical):
            codes = self._codes(i, feature, X, grow=True)
            self.category_count_[i] += nbmath.categorical_counts(codes, y, C, self.category_count_[i].shape[1])
        if plan.bernoulli:
            self.bernoulli_count_ += nbmath.bernoulli_counts(_numeric(X, plan.bernoulli, "Bernoulli"), y, C)
        if plan.multinomial:
            self.feature_count_ += nbmath.multinomial_counts(_numeric(X, plan.multinomial, "multinomial"), y, C)
        if plan.gaussian:
            batch = nbmath.gaussian_moments(_dense(_numeric(X, plan.gaussian, "Gaussian")), y, C)
            self._moments = nbmath.merge_moments(self._moments, batch)

    def _codes(self, i: int, feature: Feature, X, grow: bool) -> np.ndarray:
        """Level codes of categorical feature ``i`` (:data:`nbmath.MISSING` where unknown)."""
        if feature.group:
            return _group_codes(_dense(_block(X, self._plan.positions(feature))), feature.group)
        values = _dense(_block(X, self._plan.positions(feature)))[:, 0]
        index = self._level_index[i]
        if not grow and values.dtype.kind in "iuf" and all(type(k) in (int, float) for k in index):
            return _known_codes(values, index)
        codes = np.full(len(values), nbmath.MISSING, dtype=np.int64)
        present = ~_isna(values)
        uniques, inverse = np.unique(values[present], return_inverse=True)
        if grow:
            new = [value for value in uniques.tolist() if value not in index]
            if new:
                for value in new:
                    index[value] = len(index)
                self.categories_[i] = np.array(list(index), dtype=object)
                counts = self.category_count_[i]
                self.category_count_[i] = np.pad(counts, ((0, 0), (0, len(index) - counts.shape[1])))
        lookup = np.array([index.get(value, nbmath.MISSING) for value in uniques.tolist()], dtype=np.int64)
        codes[present] = lookup[inverse.reshape(-1)]
        return codes

    def _fit_model(self) -> nbmath.NaiveBayes:
        alpha, plan = float(self.alpha), self._plan
        self.class_log_prior_ = nbmath.log_class_prior(
            self.class_count_, fit_prior=self.fit_prior, class_prior=self.class_prior
        )
        components: list = [nbmath.CategoricalComponent.from_counts(counts, alpha) for counts in self.category_count_]
        if plan.bernoulli:
            components.append(nbmath.BernoulliComponent.from_counts(self.bernoulli_count_, self.class_count_, alpha))
        if plan.multinomial:
            components.append(nbmath.MultinomialComponent.from_counts(self.feature_count_, alpha))
        if plan.gaussian:
            gaussian = nbmath.GaussianComponent.from_moments(self._moments, var_smoothing=self.var_smoothing)
            self.theta_, self.var_ = gaussian.mean, gaussian.var
            components.append(gaussian)
        return nbmath.NaiveBayes(self.class_log_prior_, components)

    # ------------------------------------------------------------------ predicting

    def _inputs(self, X) -> list:
        plan = self._plan
        inputs = [self._codes(i, f, X, grow=False) for i, f in enumerate(plan.categorical)]
        if plan.bernoulli:
            bits = _numeric(X, plan.bernoulli, "Bernoulli")
            if not sparse.issparse(bits):  # a value other than 0/1, never seen in training: no evidence
                bits = np.asarray(bits, dtype=float)
                bits = np.where((bits == 0) | (bits == 1), bits, np.nan)
            inputs.append(bits)
        if plan.multinomial:
            inputs.append(_numeric(X, plan.multinomial, "multinomial"))
        if plan.gaussian:
            inputs.append(_dense(_numeric(X, plan.gaussian, "Gaussian")))
        return inputs

    def _joint(self, X) -> nbmath.LogLikelihood:
        check_is_fitted(self)
        X = validate_data(self, X, reset=False, dtype=None, accept_sparse="csr", ensure_all_finite=False)
        model = self._model
        if isinstance(model, ValueError):
            raise ValueError(f"the rows seen so far give no model: {model}")
        if not model.components:  # every column left out: the prior alone
            zeros = np.zeros((X.shape[0], len(self.classes_)))
            return nbmath.LogLikelihood(zeros, zeros.astype(np.int64))
        return model.log_likelihood(self._inputs(X))

    def predict_joint_log_proba(self, X) -> np.ndarray:
        """``log P(c) + log P(x | c)`` for every row and class (``-inf`` where alpha = 0 vetoes)."""
        joint = self._joint(X)
        return self.class_log_prior_ + joint.value

    def predict_log_proba(self, X) -> np.ndarray:
        """Log posteriors, shape (n_samples, n_classes), classes in ``classes_`` order."""
        joint = self._joint(X)
        return nbmath.log_posterior(self.class_log_prior_, joint)

    def predict_proba(self, X) -> np.ndarray:
        """Posteriors, shape (n_samples, n_classes)."""
        return np.exp(self.predict_log_proba(X))

    def predict(self, X) -> np.ndarray:
        """The class with the largest posterior (the first one on ties)."""
        log_proba = self.predict_log_proba(X)
        return self.classes_[np.argmax(log_proba, axis=1)]

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        tags.input_tags.string = True  # text columns are categorical features
        tags.input_tags.allow_nan = True  # in categorical columns: no evidence
        return tags

    def _more_tags(self):  # pragma: no cover - scikit-learn < 1.6
        return {"X_types": ["2darray", "sparse", "string"]}


# --------------------------------------------------------------------------- the plan


class _Plan:
    """Features grouped by event model, with the column positions they read."""

    def __init__(self, features: list[Feature], order: dict[str, int]):
        self.order = order
        self.categorical = [f for f in features if f.model == "categorical"]
        self.bernoulli = [order[c] for f in features if f.model == "bernoulli" for c in f.columns]
        self.multinomial = [order[c] for f in features if f.model == "multinomial" for c in f.columns]
        self.gaussian = [order[c] for f in features if f.model == "gaussian" for c in f.columns]

    def positions(self, feature: Feature) -> list[int]:
        return [self.order[c] for c in feature.columns]

    @staticmethod
    def group_levels(feature: Feature) -> list[str]:
        """A group's levels: its members, then the reference level of a dummy group."""
        return [*feature.columns, *(["(reference)"] if feature.group == "dummy" else [])]


class _Declared:
    def __init__(self):
        self.features: list[Feature] = []
        self.left_out: dict[str, str] = {}
        self.columns: set[int] = set()


def _declared(kinds, names: list[str]) -> _Declared:
    """The features ``kinds`` declares (a model name for every column, or a dict)."""
    out = _Declared()
    if isinstance(kinds, str):
        if kinds == "auto":
            return out
        if kinds not in MODELS:
            raise ValueError(f"kinds must be 'auto', one of {MODELS} or a dict, got {kinds!r}")
        kinds = dict.fromkeys(range(len(names)), kinds)
    if not isinstance(kinds, Mapping):
        raise ValueError(f"kinds must be 'auto', one of {MODELS} or a dict, got {kinds!r}")
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
            out.features.append(
                Feature("categorical", tuple(names[j] for j in cols), kind, "+".join(names[j] for j in cols))
            )
        else:
            if kind not in COLUMN_KINDS:
                raise ValueError(f"kinds[{key!r}] must be one of {COLUMN_KINDS}, got {kind!r}")
            cols = [column(key)]
            if kind == "drop":
                out.left_out[names[cols[0]]] = "declared drop"
            else:
                out.features.append(Feature(kind, (names[cols[0]],), None, names[cols[0]]))
        if out.columns & set(cols):
            raise ValueError(f"kinds declares column {names[min(out.columns & set(cols))]!r} twice")
        out.columns.update(cols)
    return out


def _inferred(X, y, names: list[str], rest: list[int]) -> tuple[list[Feature], dict[str, str]]:
    """nblint's recommended features for the columns ``rest`` (kinds, groups: the analyses context)."""
    import pandas as pd

    frame = pd.DataFrame({names[j]: X[:, j] for j in rest}).infer_objects()
    frame[_TARGET] = np.asarray(y)
    ctx = frame_context(frame, target=_TARGET)
    return recommended_features(ctx)


# --------------------------------------------------------------------------- reading columns


def _block(X, positions: list[int]):
    """Columns ``positions`` of ``X`` (sparse stays sparse; all of them in order: ``X`` itself, no copy)."""
    if len(positions) == X.shape[1] and positions == list(range(X.shape[1])):
        return X
    return X[:, positions]


def _numeric(X, positions: list[int], model: str):
    """A block of a numeric event model: finite numbers (ValueError naming the model if not)."""
    block = _block(X, positions)
    values = block.data if sparse.issparse(block) else block
    try:
        finite = np.all(np.isfinite(np.asarray(values, dtype=float)))
    except (TypeError, ValueError):
        raise ValueError(f"the {model} columns must hold numbers") from None
    if not finite:
        raise ValueError(
            f"Input contains NaN or inf in the {model} columns: only categorical columns may "
            "have missing values (impute them, or declare the column categorical or 'drop')"
        )
    return block


def _isna(values: np.ndarray) -> np.ndarray:
    """Missing values of one column: NaN, None, pandas' NA."""
    if values.dtype == object:
        import pandas as pd

        return np.asarray(pd.isna(values), dtype=bool)
    if values.dtype.kind == "f":
        return np.isnan(values)
    return np.zeros(len(values), dtype=bool)


def _dense(block) -> np.ndarray:
    """A block as a dense array; object columns of numbers become float."""
    block = block.toarray() if sparse.issparse(block) else np.asarray(block)
    if block.dtype == object:
        try:
            return block.astype(float)
        except (TypeError, ValueError):
            return block
    return block


def _known_codes(values: np.ndarray, index: dict) -> np.ndarray:
    """Codes of numeric values by binary search among the known levels (no sort of the rows)."""
    keys = np.array(list(index), dtype=float)
    order = np.argsort(keys)
    keys, codes_of = keys[order], np.array(list(index.values()), dtype=np.int64)[order]
    if not len(keys):
        return np.full(len(values), nbmath.MISSING, dtype=np.int64)
    position = np.minimum(np.searchsorted(keys, values), len(keys) - 1)
    return np.where(keys[position] == values, codes_of[position], nbmath.MISSING)


def _group_codes(bits: np.ndarray, kind: str) -> np.ndarray:
    """The collapsed variable of a group: which member is set (the reference for a dummy row of zeros).

    Rows with several members set, or none in a one-hot group, are not a level of
    the variable: they get :data:`nbmath.MISSING` (no evidence).
    """
    bits = np.asarray(bits, dtype=float)
    on = bits == 1
    n_on = on.sum(axis=1)
    codes = np.argmax(on, axis=1).astype(np.int64)
    if kind == "dummy":
        codes[n_on == 0] = bits.shape[1]  # the reference level, last
        valid = n_on <= 1
    else:
        valid = n_on == 1
    valid &= np.all(on | (bits == 0), axis=1)
    codes[~valid] = nbmath.MISSING
    return codes
