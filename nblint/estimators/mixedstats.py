"""The sufficient statistics of :class:`~nblint.estimators.mixednb.MixedNB`, and its model fitted from them.

Per class: the row count, each categorical feature's level counts (a collapsed group's
levels, a binned measurement's bins), the Bernoulli and multinomial counts, and the
moments of the normal and log-normal columns.  They are sums over rows, so batches
(``partial_fit``) and folds (WANBIA's cross-fitting) add and subtract exactly; the model
is fitted from them by :mod:`nblint.nbmath`, as NB401's is.
"""

from __future__ import annotations

import numpy as np
from scipy import sparse

from nblint import nbmath
from nblint.estimators import columnvalues, featureplan, mixedparts, readings
from nblint.estimators.recommend import Feature


class MixedStatistics:
    """The statistics part of :class:`~nblint.estimators.mixednb.MixedNB` (a base class of it, no face of its own)."""

    # What the estimator's face sets before the statistics are gathered.
    _plan: featureplan.Plan
    classes_: np.ndarray
    bin_edges_: dict
    alpha: float
    fit_prior: bool
    class_prior: object
    var_smoothing: float

    def _start_statistics(self, n_classes: int) -> None:
        plan = self._plan
        C = n_classes
        self.class_count_ = np.zeros(C)
        self.categories_ = [
            np.array(plan.group_levels(f), dtype=object)
            if f.group
            else columnvalues.bin_labels(self.bin_edges_[f.columns[0]])
            if f.model == "binned"
            else np.array([], dtype=object)
            for f in plan.categorical
        ]
        self.category_count_ = [np.zeros((C, len(levels))) for levels in self.categories_]
        self._level_index = [{level: k for k, level in enumerate(levels)} for levels in self.categories_]
        self.bernoulli_count_ = np.zeros((C, len(plan.bernoulli)))
        self.feature_count_ = np.zeros((C, len(plan.multinomial)))
        self._moments = nbmath.Moments(
            np.zeros((C, len(plan.gaussian))), np.zeros((C, len(plan.gaussian))), np.zeros((C, len(plan.gaussian)))
        )
        D = len(plan.lognormal)
        self._log_moments = nbmath.Moments(np.zeros((C, D)), np.zeros((C, D)), np.zeros((C, D)))

    def _add_statistics(self, X, y: np.ndarray, weights=None) -> None:
        plan, C = self._plan, len(self.classes_)
        self.class_count_ += nbmath.class_counts(y, C, weights)
        for i, feature in enumerate(plan.categorical):
            codes = self._codes(i, feature, X, grow=True)
            n_levels = self.category_count_[i].shape[1]
            self.category_count_[i] += nbmath.categorical_counts(codes, y, C, n_levels, weights)
        if plan.bernoulli:
            bits = columnvalues.numeric(X, plan.bernoulli, "Bernoulli")
            self.bernoulli_count_ += nbmath.bernoulli_counts(bits, y, C, weights)
        if plan.multinomial:
            counts = columnvalues.numeric(X, plan.multinomial, "multinomial")
            self.feature_count_ += nbmath.multinomial_counts(counts, y, C, weights)
        if plan.gaussian:
            batch = nbmath.gaussian_moments(
                columnvalues.dense(columnvalues.numeric(X, plan.gaussian, "Gaussian")), y, C, weights
            )
            self._moments = nbmath.merge_moments(self._moments, batch)
        if plan.lognormal:
            values = np.asarray(columnvalues.dense(columnvalues.numeric(X, plan.lognormal, "log-normal")), dtype=float)
            if not np.all(values > 0):
                raise ValueError("the log-normal columns must hold positive numbers (declare them 'gaussian')")
            batch = nbmath.gaussian_moments(np.log(values), y, C, weights)
            self._log_moments = nbmath.merge_moments(self._log_moments, batch)

    def _codes(self, i: int, feature: Feature, X, grow: bool) -> np.ndarray:
        """Level codes of categorical feature ``i`` (:data:`nbmath.MISSING` where unknown)."""
        if feature.group:
            return columnvalues.group_codes(
                columnvalues.dense(columnvalues.block(X, self._plan.positions(feature))), feature.group
            )
        if feature.model == "binned":
            values = columnvalues.dense(columnvalues.block(X, self._plan.positions(feature)))[:, 0]
            try:
                values = np.asarray(values, dtype=float)
            except (TypeError, ValueError):
                raise ValueError(f"the binned column {feature.columns[0]!r} must hold numbers") from None
            return readings.bin_codes(values, self.bin_edges_[feature.columns[0]])
        values = columnvalues.dense(columnvalues.block(X, self._plan.positions(feature)))[:, 0]
        index = self._level_index[i]
        if not grow and values.dtype.kind in "iuf" and all(type(k) in (int, float) for k in index):
            return columnvalues.known_codes(values, index)
        codes = np.full(len(values), nbmath.MISSING, dtype=np.int64)
        present = ~columnvalues.isna(values)
        uniques, inverse = columnvalues.levels(values[present])
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
        if plan.lognormal:
            lognormal = mixedparts.LogNormalComponent.from_moments(self._log_moments, self.var_smoothing)
            self.log_theta_, self.log_var_ = lognormal.mean, lognormal.var
            components.append(lognormal)
        return nbmath.NaiveBayes(self.class_log_prior_, components)

    def _inputs(self, X) -> list:
        plan = self._plan
        inputs = [self._codes(i, f, X, grow=False) for i, f in enumerate(plan.categorical)]
        if plan.bernoulli:
            bits = columnvalues.numeric(X, plan.bernoulli, "Bernoulli")
            if not sparse.issparse(bits):  # a value other than 0/1, never seen in training: no evidence
                bits = np.asarray(bits, dtype=float)
                bits = np.where((bits == 0) | (bits == 1), bits, np.nan)
            inputs.append(bits)
        if plan.multinomial:
            inputs.append(columnvalues.numeric(X, plan.multinomial, "multinomial"))
        if plan.gaussian:
            inputs.append(columnvalues.dense(columnvalues.numeric(X, plan.gaussian, "Gaussian")))
        if plan.lognormal:
            inputs.append(
                np.asarray(columnvalues.dense(columnvalues.numeric(X, plan.lognormal, "log-normal")), dtype=float)
            )
        return inputs
