"""WANBIA's feature weights for :class:`~nblint.estimators.mixednb.MixedNB`: fitted to cross-fitted log-likelihoods.

Each weight unit (a feature; one for a whole multinomial block) gets its own
log-likelihood per row and class, scored by the model fitted without the row's fold;
:mod:`nblint.estimators.wanbia` fits the weights to them, so near-copies of one
measurement do not each count as full evidence.
"""

from __future__ import annotations

import numpy as np

from nblint import nbmath
from nblint.estimators import columnvalues, mixedparts, readings, wanbia
from nblint.estimators.mixedstats import MixedStatistics


class FeatureWeights(MixedStatistics):
    """The feature-weights part of :class:`~nblint.estimators.mixednb.MixedNB` (a base class of it)."""

    # What the estimator's face sets: the features, the fitted model, the weights option.
    features_: list
    _model: nbmath.NaiveBayes | ValueError
    weights: object

    def _units(self) -> list[int]:
        """The weight each feature of ``features_`` shares: its own, but one for all multinomial features.

        A multinomial block holds counts of one kind (words): one weight for the block,
        not one per word (10,000 weights would need 10,000 log-likelihoods per row).
        """
        units: list[int] = []
        multinomial: int | None = None
        for feature in self.features_:
            if feature.model == "multinomial":
                if multinomial is None:
                    multinomial = max(units, default=-1) + 1
                units.append(multinomial)
            else:
                units.append(max(units, default=-1) + 1)
        return units

    def _feature_terms(self, X) -> list[nbmath.LogLikelihood]:
        """Each weight unit's log-likelihood alone (:meth:`_units` order: a block split into its features)."""
        model, plan = self._model, self._plan
        assert isinstance(model, nbmath.NaiveBayes)
        inputs = self._inputs(X)
        terms: dict[str, nbmath.LogLikelihood] = {}
        components = iter(zip(model.components, inputs, strict=True))
        for feature in plan.categorical:
            component, codes = next(components)
            terms[feature.label] = component.log_likelihood(codes)
        blocks = (
            ("bernoulli", plan.bernoulli, mixedparts.bernoulli_columns),
            ("multinomial", plan.multinomial, mixedparts.multinomial_columns),
            ("gaussian", plan.gaussian, mixedparts.gaussian_columns),
            ("lognormal", plan.lognormal, mixedparts.lognormal_columns),
        )
        for model_name, block, split in blocks:
            if not block:
                continue
            component, values = next(components)
            if model_name == "multinomial":
                terms["\0multinomial"] = component.log_likelihood(values)
                continue
            within = {j: d for d, j in enumerate(block)}
            for feature in self.features_:
                if feature.model == model_name:
                    pick = [within[self._plan.order[c]] for c in feature.columns]
                    terms[feature.label] = split(component, pick).log_likelihood(columnvalues.block(values, pick))
        out: dict[int, nbmath.LogLikelihood] = {}
        for unit, feature in zip(self._units(), self.features_, strict=True):
            out.setdefault(unit, terms["\0multinomial" if feature.model == "multinomial" else feature.label])
        return [out[u] for u in sorted(out)]

    def _fit_weights(self, X, y: np.ndarray, sample_weight=None) -> np.ndarray:
        """WANBIA's weights, fitted to cross-fitted per-feature log-likelihoods (:mod:`nblint.estimators.wanbia`)."""
        units = self._units()
        if not units:
            return np.ones(0)
        rows, L = self._held_out_terms(X, y, sample_weight)
        row_weights = None if sample_weight is None else sample_weight[rows]
        return wanbia.fit_weights(L, y[rows], self.class_log_prior_, row_weights=row_weights)[units]

    def _held_out_terms(self, X, y: np.ndarray, sample_weight=None) -> tuple[np.ndarray, np.ndarray]:
        """The rows the weights are fitted on, and their cross-fitted log-likelihoods (rows, units, classes).

        Each row scored by this plan fitted without its fold; what the weights are
        fitted to, and what ``nblint impact`` explains them with.
        """
        n_units = max(self._units(), default=-1) + 1
        C = len(self.classes_)
        rows = wanbia.sample_rows(y, min(wanbia.SAMPLE_ROWS, max(2_000, wanbia.SAMPLE_CELLS // (n_units * C))))
        Xs, ys = X[rows], y[rows]
        L = np.zeros((len(rows), n_units, C))
        fold = wanbia.stratified_folds(ys, readings.FOLDS)
        try:
            for f in range(readings.FOLDS):
                test = fold == f
                if not test.any():
                    continue
                weights = None if sample_weight is None else sample_weight[rows][~test]
                part = self._refitted(Xs[~test], ys[~test], weights)
                L[test] = np.stack([t.finite for t in part._feature_terms(Xs[test])], axis=1)
        except ValueError:  # a fold without some class's rows, say: score in-sample instead
            L = np.stack([t.finite for t in self._feature_terms(Xs)], axis=1)
        return rows, L

    def _refitted(self, X, y: np.ndarray, sample_weight=None) -> FeatureWeights:
        """A copy with this plan (readings, bin edges) fitted on other rows, without feature weights."""
        part = object.__new__(type(self))
        part.__dict__.update(self.__dict__)
        part.weights = None
        part._start_statistics(len(self.classes_))
        part._add_statistics(X, y, sample_weight)
        part._model = part._fit_model()
        return part
