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
    from nblint.estimators.explain import _frame
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
    train, y_train = _frame(train_ctx, all_features)
    test, y_test = _test_frame(test_source, all_features, target)
    known = np.isin(y_test, np.unique(y_train))
    new_class_rows = int((~known).sum())
    if new_class_rows:
        notes.append(f"{new_class_rows} test rows have a class the training table never has: not scored")
    test, y_test = test[known].reset_index(drop=True), y_test[known]
    models = [_recommended(features, train[recommended_columns], y_train, test[recommended_columns], y_test, alpha)]
    if declared is not None:
        models.append(_declared(declared, train, y_train, test, y_test, alpha))
    return HeldOutResult(n_rows, len(y_test), new_class_rows, models, touched, notes)


def _test_frame(source, columns: list[str], target: str):
    """The test rows with a class: their feature columns and their class (as text, as training's)."""
    import pandas as pd
    import pyarrow as pa

    from nblint.estimators.fix import _arrow

    names = [*columns, target]
    tables = [pa.table([_arrow(chunk.column(n)) for n in names], names=names) for chunk in source.chunks(names)]
    frame = pa.concat_tables(tables).to_pandas() if tables else pd.DataFrame(columns=names)
    frame = frame[frame[target].notna()]
    return frame[columns].reset_index(drop=True), frame[target].astype(str).to_numpy()


def _scores(probabilities: np.ndarray, classes: np.ndarray, y: np.ndarray) -> tuple[float | None, float | None]:
    """scikit-learn's log-loss and accuracy of ``probabilities`` (rows x ``classes``) against ``y``."""
    from sklearn.metrics import accuracy_score, log_loss

    if len(y) == 0:
        return None, None
    predicted = classes[np.argmax(probabilities, axis=1)]
    return float(log_loss(y, probabilities, labels=classes)), float(accuracy_score(y, predicted))


def _recommended(features, train, y_train, test, y_test, alpha: float) -> ModelScore:
    from nblint.estimators.mixednb import MixedNB
    from nblint.estimators.recommend import recommended_kinds

    name = "MixedNB (recommended features)"
    if not features:
        return ModelScore("recommended", name, 0, None, None, note="no feature to fit")
    model = MixedNB(kinds=recommended_kinds(features), alpha=alpha)
    try:
        model.fit(train, y_train)
        probabilities = model.predict_proba(test)
    except ValueError as exc:
        return ModelScore("recommended", name, 0, None, None, note=f"MixedNB could not score the test rows: {exc}")
    loss, accuracy = _scores(probabilities, model.classes_, y_test)
    return ModelScore("recommended", name, len(y_test), loss, accuracy)


def _declared(declared: str, train, y_train, test, y_test, alpha: float) -> ModelScore:
    from pandas.api.types import is_bool_dtype, is_numeric_dtype
    from sklearn import naive_bayes

    cls = SKLEARN_CLASSES[declared]
    if declared == "categorical":
        return _categorical(train, y_train, test, y_test, alpha)
    numeric = [c for c in train.columns if is_numeric_dtype(train[c]) or is_bool_dtype(train[c])]
    left_out = [c for c in train.columns if c not in numeric]
    note = f"{', '.join(left_out)} left out (not numbers: {cls} cannot read them)" if left_out else None
    if not numeric:
        return ModelScore("declared", cls, 0, None, None, note="no numeric feature column")
    X_train, X_test = train[numeric].to_numpy(dtype=float), test[numeric].to_numpy(dtype=float)
    if np.isnan(X_train).any() or np.isnan(X_test).any():
        return ModelScore("declared", cls, 0, None, None, note=f"{cls} cannot take missing values")
    # force_alpha=False: alpha 0 is clipped to 1e-10 as scikit-learn always did, so a zero count
    # vetoes a class without leaving a row with no posterior at all
    estimator = (
        getattr(naive_bayes, cls)()
        if declared == "gaussian"
        else getattr(naive_bayes, cls)(alpha=alpha, force_alpha=False)
    )
    try:
        estimator.fit(X_train, y_train)
        probabilities = estimator.predict_proba(X_test)
    except ValueError as exc:  # MultinomialNB / ComplementNB on negative values
        return ModelScore("declared", cls, 0, None, None, note=f"{cls} could not be fitted: {exc}")
    loss, accuracy = _scores(probabilities, estimator.classes_, y_test)
    return ModelScore("declared", cls, len(y_test), loss, accuracy, note=note)


def _categorical(train, y_train, test, y_test, alpha: float) -> ModelScore:
    """CategoricalNB over ordinal codes, a test level never seen coded as a reserved category."""
    from sklearn.naive_bayes import CategoricalNB
    from sklearn.preprocessing import OrdinalEncoder

    text_train = train.astype(str).where(train.notna(), "")
    text_test = test.astype(str).where(test.notna(), "")
    encoder = OrdinalEncoder(handle_unknown="use_encoded_value", unknown_value=-1, dtype=np.int64)
    codes_train = encoder.fit_transform(text_train)
    codes_test = encoder.transform(text_test)
    n_levels = np.array([len(c) for c in encoder.categories_])
    unseen = codes_test < 0
    # the reserved category: one past the training levels of each column, never seen with a class
    codes_test = np.where(unseen, n_levels[None, :], codes_test)
    estimator = CategoricalNB(alpha=alpha, force_alpha=False, min_categories=n_levels + 1)
    estimator.fit(codes_train, y_train)
    probabilities = estimator.predict_proba(codes_test)
    loss, accuracy = _scores(probabilities, estimator.classes_, y_test)
    unseen_rows = int(unseen.any(axis=1).sum())
    note = (
        f"{unseen_rows} test rows have a level training never had: scikit-learn's CategoricalNB without "
        "min_categories cannot predict them; here they carry only the smoothing"
        if unseen_rows
        else None
    )
    return ModelScore("declared", "CategoricalNB", len(y_test), loss, accuracy, unseen_rows, note)
