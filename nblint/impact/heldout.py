"""The models fitted on the training table, scored on its test table (``nblint impact --test``).

Issue 38 item 3: where the test table carries the target, say what the model meets there in
the two numbers a Naive Bayes user judges a model by, for two models fitted on the training
table alone:

* the **recommended** model: :class:`nblint.MixedNB` over the features ``nblint columns
  --pipeline`` recommends (each one-hot/dummy group collapsed into one categorical feature,
  an event model per column, NB208's leaks left out): the model of ``nblint impact``'s weights
  section and of ``nblint fix``'s collapsed table;
* the **declared** model (``--model``, or ``model`` in the configuration), as scikit-learn
  fits it on the table's feature columns as they are: ``GaussianNB``, ``BernoulliNB``,
  ``MultinomialNB`` or ``ComplementNB`` on the numeric columns (others are left out, said in
  a note), ``CategoricalNB`` on every feature column coded by an ``OrdinalEncoder`` fitted on
  the training rows. A test level the training rows never had is coded as one more
  category, reserved by ``min_categories`` and never seen with any class, so it carries only
  the smoothing: scikit-learn's default (no reserved category) cannot predict those rows at
  all, and their count is reported as ``unseen_rows``.

On the test rows whose class the training table has (a test class never seen in training has
no posterior: its rows are counted apart, ``new_class_rows``):

    log-loss = -(1/n) sum_i log p(y_i | x_i)        accuracy = (1/n) sum_i [argmax_c p(c | x_i) = y_i]

the quantities of :func:`sklearn.metrics.log_loss` (probabilities clipped as it clips them)
and :func:`sklearn.metrics.accuracy_score`, which compute them here.

The test rows are read once, in the chunks their source yields, and each model's sums are
added chunk by chunk (memory does not grow with the test table; the training rows are the
seeded sample of at most 100,000 that ``nblint impact``'s weights are fitted on).

How many test rows the train/test findings touch is read from the findings themselves
(:func:`rows_touched`): each NB6xx finding says in ``evidence["rows"]`` how many test rows
it touches; their union is bounded, not guessed (at least the largest count, at most the sum
or the table).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

#: The rule family (its folder of the built-in pack) whose findings' rows :func:`rows_touched` counts.
TRAIN_TEST_FAMILY = "traintest"
#: The scikit-learn class of each declared event model.
SKLEARN_CLASSES = {
    "gaussian": "GaussianNB",
    "bernoulli": "BernoulliNB",
    "multinomial": "MultinomialNB",
    "complement": "ComplementNB",
    "categorical": "CategoricalNB",
}


@dataclass
class ModelScore:
    """One fitted model's score on the test rows."""

    name: str  # "recommended" or "declared"
    model: str  # what was fitted, for the reader: "MixedNB (recommended features)", "BernoulliNB"
    rows: int  # test rows scored
    log_loss: float | None
    accuracy: float | None
    #: Test rows with a level the training rows never had (the declared CategoricalNB only).
    unseen_rows: int | None = None
    note: str | None = None


@dataclass
class HeldOutResult:
    """The test-table measurement: the models' scores and the rows the findings touch."""

    test_rows: int
    scored_rows: int
    new_class_rows: int
    models: list[ModelScore]
    touched: dict
    notes: list[str] = field(default_factory=list)


def rows_touched(findings: Iterable, n_rows: int, codes: Iterable[str] | None = None) -> dict:
    """How many test rows the train/test findings touch, from each finding's own count.

    Parameters
    ----------
    findings : iterable of Finding
        Any findings; those of the train/test rules (:func:`train_test_codes`) whose
        ``evidence["rows"]`` is a whole number (the test rows that finding touches) count.
    n_rows : int
        Rows of the test table.
    codes : iterable of str, optional
        The codes that count (default: :func:`train_test_codes`).

    Returns
    -------
    dict
        ``{"findings": [{"code", "columns", "rows"}, ...] (sorted), "at_least": int,
        "at_most": int}``: the union of the findings' rows is at least the largest count
        and at most the sum of the counts (and the table's rows). Rows of two findings may
        be the same rows, so no single number is claimed.
    """
    codes = frozenset(train_test_codes() if codes is None else codes)
    counted = []
    for finding in findings:
        rows = (getattr(finding, "evidence", None) or {}).get("rows")
        if finding.code not in codes or isinstance(rows, bool) or not isinstance(rows, int):
            continue
        counted.append({"code": finding.code, "columns": list(finding.columns or []), "rows": rows})
    counted.sort(key=lambda item: (item["code"], item["columns"]))
    counts = [item["rows"] for item in counted]
    return {
        "findings": counted,
        "at_least": max(counts, default=0),
        "at_most": min(sum(counts), n_rows),
    }


def train_test_codes() -> frozenset[str]:
    """The codes of the train/test rules: the rules of the :data:`TRAIN_TEST_FAMILY` folder of any pack."""
    from nblint.engine.registry import load_rules

    return frozenset(
        code for code, rule in load_rules().items() if TRAIN_TEST_FAMILY in rule.__module__.split(".")[1:-1]
    )


def measure_heldout(
    train_ctx, test_source, alpha: float, findings: Sequence = (), declared: str | None = None
) -> HeldOutResult:
    """Fit the recommended and the declared model on ``train_ctx``'s table and score ``test_source``'s rows.

    Parameters
    ----------
    train_ctx : nblint.analysis.context.TableContext
        The training table, with a target.
    test_source : nblint.readers.TableSource
        The test table, read by the same reader; it may lack the target (a serving table:
        nothing is scored, the findings' rows are still counted).
    alpha : float
        The smoothing of both models (``nblint impact``'s ``--alpha``, NB401's option).
    findings : sequence of Finding
        The train/test findings of this pair (see :func:`rows_touched`).
    declared : str, optional
        The declared event model (:data:`SKLEARN_CLASSES`); None scores the recommended model alone.
    """
    from nblint.core.dependencies import require

    require("sklearn", "nblint impact --test (the models fitted on the training table)")
    from nblint.estimators.explain import labelled_frame
    from nblint.estimators.recommend import recommended_features

    target = train_ctx.target
    features, _ = recommended_features(train_ctx, leaks_out=True)
    recommended_columns = [c for f in features for c in f.columns]
    all_features = [n for n in train_ctx.source.names if n != target]
    # a streamed file knows its rows once read: count them in one pass over its first column
    n_rows = sum(chunk.n_rows for chunk in test_source.chunks(list(test_source.names[:1])))
    touched = rows_touched(findings, n_rows)
    notes: list[str] = []
    if target not in test_source.names:
        notes.append(f"the test table has no {target!r} column (a serving table): no model is scored")
        return HeldOutResult(n_rows, 0, 0, [], touched, notes)
    missing = sorted(set(all_features) - set(test_source.names))
    if missing:
        notes.append(f"the test table lacks {', '.join(missing)}: no model is scored")
        return HeldOutResult(n_rows, 0, 0, [], touched, notes)
    train, y_train = labelled_frame(train_ctx, all_features)
    classes = np.unique(y_train)
    models = [_fit_recommended(features, train[recommended_columns], y_train, alpha)]
    if declared is not None:
        models.append(_fit_declared(declared, train, y_train, alpha))
    scored = new_class_rows = 0
    for frame, y in _test_chunks(test_source, all_features, target):
        known = np.isin(y, classes)
        new_class_rows += int((~known).sum())
        frame, y = frame[known].reset_index(drop=True), y[known]
        scored += len(y)
        for model in models:
            model.add(frame, y)
    if new_class_rows:
        notes.append(f"{new_class_rows} test rows have a class the training table never has: not scored")
    return HeldOutResult(n_rows, scored, new_class_rows, [m.result() for m in models], touched, notes)


def _test_chunks(source, columns: list[str], target: str):
    """The test rows with a class, chunk by chunk: their feature columns and their class (as text, as training's)."""
    import pyarrow as pa

    from nblint.estimators.fix import arrow_array

    names = [*columns, target]
    for chunk in source.chunks(names):
        frame = pa.table([arrow_array(chunk.column(n)) for n in names], names=names).to_pandas()
        frame = frame[frame[target].notna()]
        yield frame[columns].reset_index(drop=True), frame[target].astype(str).to_numpy()


class _Scored:
    """A model fitted on the training rows, and its running score over the test chunks.

    ``predict(frame)`` gives the class probabilities of the rows (columns in ``classes``
    order) and, for the declared CategoricalNB, the rows with a level never seen (else None).
    Sums over chunks: ``sum_i -log p(y_i | x_i)`` (scikit-learn's ``log_loss`` with
    ``normalize=False``) and the rows predicted right (``accuracy_score``, ``normalize=False``).
    """

    def __init__(self, name: str, model: str, predict=None, classes=None, note: str | None = None):
        self.name, self.model, self.predict, self.classes, self.note = name, model, predict, classes, note
        self.rows = self.correct = 0
        self.loss_sum = 0.0
        self.unseen_rows: int | None = None

    def add(self, frame, y: np.ndarray) -> None:
        from sklearn.metrics import accuracy_score, log_loss

        if self.predict is None or len(y) == 0:
            return
        try:
            probabilities, unseen = self.predict(frame)
        except ValueError as exc:  # a value the fitted model cannot take (a missing value, a negative count)
            self.predict, self.note = None, f"{self.model} could not score the test rows: {exc}"
            return
        predicted = self.classes[np.argmax(probabilities, axis=1)]
        self.loss_sum += float(log_loss(y, probabilities, labels=self.classes, normalize=False))
        self.correct += int(accuracy_score(y, predicted, normalize=False))
        self.rows += len(y)
        if unseen is not None:
            self.unseen_rows = (self.unseen_rows or 0) + int(unseen.sum())

    def result(self) -> ModelScore:
        scored = self.predict is not None and self.rows > 0
        note = self.note
        if self.unseen_rows:
            note = (
                f"{self.unseen_rows} test rows have a level training never had: scikit-learn's CategoricalNB "
                "without min_categories cannot predict them; here they carry only the smoothing"
            )
        return ModelScore(
            self.name,
            self.model,
            self.rows if scored else 0,
            self.loss_sum / self.rows if scored else None,
            self.correct / self.rows if scored else None,
            self.unseen_rows,
            note,
        )


def _fit_recommended(features, train, y_train, alpha: float) -> _Scored:
    from nblint.estimators.mixednb import MixedNB
    from nblint.estimators.recommend import recommended_kinds

    name = "MixedNB (recommended features)"
    if not features:
        return _Scored("recommended", name, note="no feature to fit")
    columns = list(train.columns)
    model = MixedNB(kinds=recommended_kinds(features), alpha=alpha)
    try:
        model.fit(train, y_train)
    except ValueError as exc:
        return _Scored("recommended", name, note=f"MixedNB could not be fitted: {exc}")
    return _Scored("recommended", name, lambda frame: (model.predict_proba(frame[columns]), None), model.classes_)


def _fit_declared(declared: str, train, y_train, alpha: float) -> _Scored:
    from pandas.api.types import is_bool_dtype, is_numeric_dtype
    from sklearn import naive_bayes

    cls = SKLEARN_CLASSES[declared]
    if declared == "categorical":
        return _fit_categorical(train, y_train, alpha)
    numeric = [c for c in train.columns if is_numeric_dtype(train[c]) or is_bool_dtype(train[c])]
    left_out = [c for c in train.columns if c not in numeric]
    note = f"{', '.join(left_out)} left out (not numbers: {cls} cannot read them)" if left_out else None
    if not numeric:
        return _Scored("declared", cls, note="no numeric feature column")
    X_train = train[numeric].to_numpy(dtype=float)
    if np.isnan(X_train).any():
        return _Scored("declared", cls, note=f"{cls} cannot take missing values")
    # force_alpha=False: alpha 0 is clipped to 1e-10 as scikit-learn always did, so a zero count
    # vetoes a class without leaving a row with no posterior at all
    factory = getattr(naive_bayes, cls)
    estimator = factory() if declared == "gaussian" else factory(alpha=alpha, force_alpha=False)
    try:
        estimator.fit(X_train, y_train)
    except ValueError as exc:  # MultinomialNB / ComplementNB on negative values
        return _Scored("declared", cls, note=f"{cls} could not be fitted: {exc}")

    def predict(frame):
        X = frame[numeric].to_numpy(dtype=float)
        if np.isnan(X).any():
            raise ValueError("a test value is missing")
        return estimator.predict_proba(X), None

    return _Scored("declared", cls, predict, estimator.classes_, note)


def _fit_categorical(train, y_train, alpha: float) -> _Scored:
    """CategoricalNB over ordinal codes, a test level never seen coded as a reserved category."""
    from sklearn.naive_bayes import CategoricalNB
    from sklearn.preprocessing import OrdinalEncoder

    def as_text(frame):
        return frame.astype(str).where(frame.notna(), "")

    encoder = OrdinalEncoder(handle_unknown="use_encoded_value", unknown_value=-1, dtype=np.int64)
    codes_train = encoder.fit_transform(as_text(train))
    n_levels = np.array([len(c) for c in encoder.categories_])
    estimator = CategoricalNB(alpha=alpha, force_alpha=False, min_categories=n_levels + 1)
    estimator.fit(codes_train, y_train)

    def predict(frame):
        codes = encoder.transform(as_text(frame[list(train.columns)]))
        unseen = codes < 0
        # the reserved category: one past the training levels of each column, never seen with a class
        codes = np.where(unseen, n_levels[None, :], codes)
        return estimator.predict_proba(codes), unseen.any(axis=1)

    return _Scored("declared", "CategoricalNB", predict, estimator.classes_)
