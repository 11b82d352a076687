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
* for each measurement, whichever reading fits it (:mod:`nblint.estimators.readings`):
  a normal density, a normal density of ``log x``, or a categorical over about
  ``sqrt(n)`` quantile bins,

times the class prior, with one Lidstone ``alpha`` for the discrete parts, and by
default each feature's log-likelihood weighted (WANBIA,
:mod:`nblint.estimators.wanbia`) so near-copies of one measurement do not count
as full evidence each.  Every piece is fitted from sufficient statistics by
:mod:`nblint.nbmath`, the package NB401's measurement uses, so ``partial_fit``
merges batches exactly, and with ``weights=None`` and ``continuous="gaussian"``
this estimator's posteriors are NB401's model "CAT".  Which column is what comes from
nblint's own analyses (:func:`nblint.estimators.recommend.recommended_features`) unless
given.

Importing this module imports scikit-learn (a dependency of nblint, imported only when used).
"""

from __future__ import annotations

import copy
import warnings

import numpy as np
from scipy import sparse
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted

from nblint import nbmath
from nblint.core.runkeys import RUN_KEYS
from nblint.estimators import columnvalues, featureplan, mixedparts, readings
from nblint.estimators.featureplan import CONTINUOUS_READINGS
from nblint.estimators.mixedweights import FeatureWeights
from nblint.estimators.recommend import Feature

try:  # scikit-learn >= 1.6
    from sklearn.utils.validation import validate_data
except ImportError:  # pragma: no cover - older scikit-learn

    def validate_data(estimator, X, y="no_validation", **kwargs):
        kwargs["force_all_finite"] = kwargs.pop("ensure_all_finite", True)
        return estimator._validate_data(X, y, **kwargs)


#: Values of ``continuous``: choose per column, or one reading for every inferred continuous column.
CONTINUOUS = ("auto", "gaussian", *CONTINUOUS_READINGS)
#: Values of ``weights``.
WEIGHTS = (None, "wanbia")


class MixedNB(ClassifierMixin, FeatureWeights, BaseEstimator):
    """Naive Bayes with an event model per column: categorical, Bernoulli, multinomial, Gaussian.

    Parameters
    ----------
    kinds : "auto", str or dict, default "auto"
        Which event model reads each column.  ``"auto"``: nblint's own inference
        (the kinds of ``nblint columns``, one-hot/dummy groups found from the
        values and collapsed into one categorical feature; identifiers and
        constant columns left out; a dense count column on its own, categorical
        or Gaussian: see :mod:`nblint.estimators.recommend`; a continuous column
        read as ``continuous`` says).  One of ``"categorical"``, ``"bernoulli"``,
        ``"multinomial"``, ``"gaussian"``, ``"lognormal"`` (a normal density of
        ``log x``; values must be positive), ``"binned"`` (a categorical feature
        over about ``sqrt(n)`` quantile bins), ``"continuous"`` (a measurement
        whose reading ``continuous`` chooses, as for a column inferred continuous):
        that reading for every column.  A dict
        declares columns (by name, or by position for arrays without names):
        ``{"colour": "categorical", "n_visits": "multinomial", "id": "drop",
        "height": "continuous", ("a_x", "a_y", "a_z"): "one-hot", ("b_1", "b_2"): "dummy"}``;
        declared kinds win and the columns it does not name are inferred.  A
        declared group is named as nblint names a group it finds
        (:func:`nblint.structure.groups.group_label`: ``"a"`` here).  A sparse
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
        columns is added to every class variance (of the log-normal columns: of
        their logs).
    continuous : {"auto", "gaussian", "lognormal", "binned"}, default "auto"
        How a column nblint *infers* as continuous, or ``kinds`` declares
        ``"continuous"``, is read (other declared kinds are kept as declared).  ``"auto"``: per column, the reading with the best
        held-out conditional log-likelihood of the class given that column
        (5 seeded folds; Gaussian, Gaussian on the log scale when every value is
        positive, or about ``sqrt(n)`` quantile bins; see
        :mod:`nblint.estimators.readings`); the scores are in
        ``reading_scores_``.  ``"gaussian"`` is the reading of ``GaussianNB``
        (and of NB401's model CAT).
    weights : {"wanbia", None}, default "wanbia"
        ``"wanbia"``: one non-negative weight per feature (a group is one
        feature, a multinomial block is one feature) on its log-likelihood,
        fitted to the conditional log-likelihood of the classes by L-BFGS-B from
        ``w = 1`` with a pull towards 1 (Zaidi et al., JMLR 2013; see
        :mod:`nblint.estimators.wanbia`), so near-copies of one measurement are
        not counted as full evidence each.  Needs a full :meth:`fit`.

    Notes
    -----
    ``partial_fit`` merges batches exactly for every reading, but decides on
    the first batch which column is what, including a continuous column's
    reading and its bin edges (``bin_edges_``); ``weights="wanbia"`` needs all
    rows at once, so ``partial_fit`` gives the unweighted model with it
    (``weights_`` all 1) and warns.

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
    log_theta_, log_var_ : ndarray of shape (n_classes, n_lognormal)
        The same for the logs of the log-normal columns.
    bin_edges_ : dict
        Column -> inner edges of its bins, for the binned columns.
    reading_scores_ : dict
        Column -> {reading: held-out conditional log-likelihood per row}, for
        each continuous column whose reading ``continuous="auto"`` chose.
    weights_ : ndarray of shape (n_features,)
        The weight of each feature of ``features_`` (all 1 without ``weights``).
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

    def __init__(
        self,
        kinds="auto",
        *,
        alpha=1.0,
        fit_prior=True,
        class_prior=None,
        var_smoothing=1e-9,
        continuous="auto",
        weights="wanbia",
    ):
        self.kinds = kinds
        self.continuous = continuous
        self.weights = weights
        self.alpha = alpha
        self.fit_prior = fit_prior
        self.class_prior = class_prior
        self.var_smoothing = var_smoothing

    # ------------------------------------------------------------------ fitting

    def fit(self, X, y, sample_weight=None):
        """Fit from ``X`` (a DataFrame, array or sparse matrix) and the classes ``y``.

        ``sample_weight`` (one number >= 0 per row) makes a row count as its weight in
        every statistic, as in scikit-learn's naive Bayes classes, and in WANBIA's fit
        of the feature weights; a row of weight 0 is left out. What is decided from
        the rows themselves (which column is what with ``kinds="auto"``, a continuous
        column's reading and bin edges, WANBIA's folds) reads the rows given, not
        their weights: there, weight 2 is not the same as the row written twice.
        """
        for name in ("classes_", "_plan"):
            self.__dict__.pop(name, None)
        X, y = self._validate(X, y, reset=True)
        sample_weight = columnvalues.checked_sample_weight(sample_weight, X)
        if sample_weight is not None and not np.all(sample_weight > 0):  # a row of weight 0 is a row not given
            kept = np.flatnonzero(sample_weight > 0)
            X, y, sample_weight = X[kept], y[kept], sample_weight[kept]
        self._partial_fit(X, y, np.unique(y), sample_weight)
        if isinstance(self._model, ValueError):
            raise self._model
        if self.weights == "wanbia":
            self.weights_ = self._fit_weights(X, np.searchsorted(self.classes_, y), sample_weight)
        return self

    def partial_fit(self, X, y, classes=None, sample_weight=None):
        """Add a batch of rows (the statistics merge exactly: the same model as one fit).

        A batch that is refused (a ValueError, a TypeError) leaves the model as it was:
        nothing of it is counted.

        Parameters
        ----------
        X, y, sample_weight
            As for :meth:`fit`.
        classes : array-like, optional
            Every class, required on the first call.  Which column is what is
            decided on the first call (from that batch, for ``kinds="auto"``).
        """
        state = copy.deepcopy(self.__dict__)  # (restored if the batch is refused half-way)
        try:
            return self._partial_fit_batch(X, y, classes, sample_weight)
        except BaseException:
            self.__dict__.clear()
            self.__dict__.update(state)
            raise

    def _partial_fit_batch(self, X, y, classes, sample_weight):
        first = not hasattr(self, "classes_")
        if first and classes is None:
            raise ValueError("classes must be passed on the first call to partial_fit")
        X, y = self._validate(X, y, reset=first)
        sample_weight = columnvalues.checked_sample_weight(sample_weight, X)
        if sample_weight is not None and not np.all(sample_weight > 0):  # a row of weight 0 is a row not given
            kept = np.flatnonzero(sample_weight > 0)
            X, y, sample_weight = X[kept], y[kept], sample_weight[kept]
        if not first and classes is not None and not np.array_equal(np.unique(classes), self.classes_):
            raise ValueError(
                f"classes={classes!r} is not the same as on the first call to partial_fit: {self.classes_!r}"
            )
        self._partial_fit(X, y, np.unique(classes) if first else self.classes_, sample_weight)
        if first and self.weights is not None:
            warnings.warn(
                f"weights={self.weights!r} are fitted to all rows at once by fit: partial_fit gives the "
                "unweighted model (weights_ all 1)",
                UserWarning,
                stacklevel=3,  # (the caller of partial_fit)
            )
        return self

    def _validate(self, X, y, reset: bool):
        dtype = columnvalues.frame_dtype(X)
        X, y = validate_data(self, X, y, reset=reset, dtype=dtype, accept_sparse="csr", ensure_all_finite=False)
        check_classification_targets(y)
        return X, y

    def _partial_fit(self, X, y, classes, sample_weight=None):
        if not hasattr(self, "classes_"):
            RUN_KEYS["alpha"].parse(float(self.alpha), "alpha")  # (checked as every face checks a smoothing)
            if self.continuous not in CONTINUOUS:
                raise ValueError(f"continuous must be one of {CONTINUOUS}, got {self.continuous!r}")
            if self.weights not in WEIGHTS:
                raise ValueError(f"weights must be one of {WEIGHTS}, got {self.weights!r}")
            self.classes_ = classes
            self._plan = self._make_plan(X, y)
            self._start_statistics(len(classes))
        codes = np.searchsorted(self.classes_, y)
        if np.any(codes >= len(self.classes_)) or np.any(self.classes_[np.minimum(codes, len(self.classes_) - 1)] != y):
            raise ValueError(f"y has classes not in classes={self.classes_!r}")
        self._add_statistics(X, codes, sample_weight)
        self.weights_ = np.ones(len(self.features_))
        try:
            self._model: nbmath.NaiveBayes | ValueError = self._fit_model()
        except ValueError as exc:  # e.g. one row so far: no variance yet; later batches may bring it
            self._model = exc
        return self

    def _make_plan(self, X, y) -> featureplan.Plan:
        """Decide which column is what: declared kinds, then nblint's inference for the rest."""
        names = list(getattr(self, "feature_names_in_", [f"x{j}" for j in range(X.shape[1])]))
        declared = featureplan.declared(self.kinds, names)
        rest = [j for j in range(len(names)) if j not in declared.columns]
        features, left_out = list(declared.features), dict(declared.left_out)
        if rest and sparse.issparse(X):
            features.append(Feature("multinomial", tuple(names[j] for j in rest), None, "counts"))
        elif rest:
            found, why = featureplan.inferred(X, y, names, rest)
            features += found
            left_out.update(why)
        order = {name: j for j, name in enumerate(names)}
        features.sort(key=lambda f: order[f.columns[0]])
        features = self._read_continuous(X, y, features, declared, order)
        self.features_ = features
        self.left_out_ = dict(sorted(left_out.items(), key=lambda item: order[item[0]]))
        return featureplan.Plan(features, order)

    def _read_continuous(self, X, y, features: list[Feature], declared: featureplan.Declared, order) -> list[Feature]:
        """Each inferred continuous column's reading (``continuous``), and the bin edges of binned columns."""
        self.reading_scores_: dict[str, dict[str, float]] = {}
        self.bin_edges_: dict[str, np.ndarray] = {}
        codes = np.searchsorted(self.classes_, y)
        out = []
        for feature in features:
            column = feature.columns[0]
            chosen = order[column] not in declared.columns or column in declared.measurements
            if feature.model == "gaussian" and chosen and self.continuous != "gaussian":
                reading = self.continuous
                if reading == "auto" or reading == "lognormal":
                    values = np.asarray(
                        columnvalues.dense(columnvalues.numeric(X, [order[column]], "Gaussian"))[:, 0], dtype=float
                    )
                if reading == "auto":
                    scores = readings.held_out_scores(
                        values, codes, len(self.classes_), alpha=float(self.alpha), var_smoothing=self.var_smoothing
                    )
                    self.reading_scores_[column] = scores
                    reading = readings.choose_reading(values, codes, len(self.classes_), scores=scores)
                elif reading == "lognormal" and not np.all(values > 0):
                    reading = "gaussian"  # log x needs x > 0: the Gaussian reading, as GaussianNB would
                feature = Feature(reading, feature.columns, None, feature.label)
            if feature.model == "binned":
                values = columnvalues.dense(columnvalues.block(X, [order[column]]))[:, 0]
                try:
                    self.bin_edges_[column] = readings.bin_edges(np.asarray(values, dtype=float))
                except (TypeError, ValueError):
                    raise ValueError(f"the binned column {column!r} must hold numbers") from None
            out.append(feature)
        return out

    # ------------------------------------------------------------------ predicting

    def _joint(self, X) -> nbmath.LogLikelihood:
        check_is_fitted(self)
        X = validate_data(
            self, X, reset=False, dtype=columnvalues.frame_dtype(X), accept_sparse="csr", ensure_all_finite=False
        )
        model = self._model
        if isinstance(model, ValueError):
            raise ValueError(f"the rows seen so far give no model: {model}")
        if not model.components:  # every column left out: the prior alone
            zeros = np.zeros((X.shape[0], len(self.classes_)))
            return nbmath.LogLikelihood(zeros, zeros.astype(np.int64))
        if self.weights is not None:
            first = [self._units().index(u) for u in range(max(self._units(), default=-1) + 1)]
            return mixedparts.weighted_sum(self._feature_terms(X), self.weights_[first])
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
