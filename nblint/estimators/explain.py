"""Why the recommended MixedNB weighs each feature as it does: the weights of ``nblint impact``.

:class:`nblint.MixedNB` (its defaults: WANBIA weights, a reading per
measurement) is fitted on the table with the features ``nblint columns
--pipeline`` recommends, and each feature's weight is explained by two numbers
computed on the same cross-fitted log-likelihoods the weights were fitted to
(each row scored by a model fitted without its fold):

* *shares evidence with*: the features whose per-row evidence moves with this
  one's.  A feature's evidence on a row is its log-likelihood per class, centred
  over the classes (for two classes: its log-likelihood ratio); two features
  carry the same evidence when these are strongly correlated over the rows.
  The largest absolute correlations (at least :data:`SHARED`) are named.
* *cost of counting it fully*: how much the mean conditional log-likelihood of
  the classes per row drops when this feature's weight alone is set back to 1,
  the others kept; positive when the discount helps.

A feature is *discounted* when its weight is below :data:`DISCOUNTED`.  For a
measurement, the reading chosen and the held-out score of each reading
(:mod:`nblint.estimators.readings`) are listed too.  Rows are in the order of
the features' labels, so the output does not depend on the order of the columns.

The model fitted is the one ``nblint columns --pipeline`` prints, built from the same
:func:`nblint.estimators.recommend.recommended_kinds`: the same features (NB208's leaks
left out), the same readings (MixedNB chooses them when fitted) and the same names
(MixedNB's, which name a group as nblint does).
"""

from __future__ import annotations

import numpy as np

#: A weight below this counts as discounted.
DISCOUNTED = 0.75
#: Correlation of per-row evidence from which two features are said to share it.
SHARED = 0.5
#: Features named as sharing a feature's evidence, at most.
PARTNERS = 3
#: Rows the model is fitted on, at most (a seeded sample of larger tables keeps the section quick).
SAMPLE_ROWS = 100_000


def explain_weights(ctx) -> dict:
    """Fit the recommended MixedNB on the table of ``ctx`` and explain its weights.

    Parameters
    ----------
    ctx : nblint.analysis.context.TableContext
        With a target.

    Returns
    -------
    dict
        ``{"features": [...],
        "left_out": {...}, "rows": n, "note": str or None}``; each feature a dict
        with ``feature``, ``columns``, ``model``, ``reading_scores`` (measurements
        only), ``weight``, ``discounted``, ``shares_with`` (list of
        ``{"feature", "correlation"}``), ``cost_at_weight_1`` and ``why``.
    """
    from nblint.core.dependencies import require

    require("sklearn", "the recommended MixedNB (its weights)")
    from nblint.estimators.mixednb import MixedNB
    from nblint.estimators.recommend import recommended_features, recommended_kinds

    features, left_out = recommended_features(ctx, leaks_out=True)  # the printed code's
    out: dict = {"features": [], "left_out": left_out, "rows": 0, "note": None}
    if ctx.source.matrix is not None:
        out["note"] = "not measured for a sparse matrix"
        return out
    if not features:
        out["note"] = "no feature to weigh"
        return out
    frame, y = labelled_frame(ctx, [c for f in features for c in f.columns])
    if len(np.unique(y)) < 2:
        out["note"] = "fewer than two classes"
        return out
    out["rows"] = len(y)
    model = MixedNB(kinds=recommended_kinds(features))
    try:
        model.fit(frame, y)
    except ValueError as exc:
        out["note"] = f"MixedNB could not be fitted: {exc}"
        return out
    X, _ = model._validate(frame, y, reset=False)
    codes = np.searchsorted(model.classes_, y)
    rows, L = model._held_out_terms(X, codes)
    units = model._units()
    weights = np.array([model.weights_[units.index(u)] for u in range(len(L[0, :, 0]))])
    labels = _unit_labels(model, units, [f.label for f in model.features_])
    correlation = _evidence_correlation(L)
    cost = _cost_at_one(L, codes[rows], model.class_log_prior_, weights)
    records = []
    for u, label in enumerate(labels):
        members = [f for f, unit in zip(model.features_, units, strict=True) if unit == u]
        partners = sorted(
            ((labels[v], float(correlation[u, v])) for v in range(len(labels)) if v != u),
            key=lambda item: (-abs(item[1]), item[0]),
        )
        shares = [{"feature": name, "correlation": r} for name, r in partners[:PARTNERS] if abs(r) >= SHARED]
        record = {
            "feature": label,
            "columns": [c for f in members for c in f.columns],
            "model": members[0].model,
            "reading_scores": model.reading_scores_.get(members[0].columns[0]),
            "weight": float(weights[u]),
            "discounted": bool(weights[u] < DISCOUNTED),
            "shares_with": shares,
            "cost_at_weight_1": float(cost[u]),
        }
        record["why"] = _why(record)
        records.append(record)
    out["features"] = sorted(records, key=lambda r: r["feature"])
    return out


def labelled_frame(ctx, columns: list[str]):
    """The feature columns and the class of every row with a class (a seeded sample of large tables)."""
    import pandas as pd
    import pyarrow as pa

    from nblint.estimators.fix import arrow_array

    names = [*columns, ctx.target]
    tables = [pa.table([arrow_array(chunk.column(n)) for n in names], names=names) for chunk in ctx.scan(names)]
    frame = pa.concat_tables(tables).to_pandas() if tables else pd.DataFrame(columns=names)
    frame = frame[frame[ctx.target].notna()]
    if len(frame) > SAMPLE_ROWS:
        frame = frame.sample(SAMPLE_ROWS, random_state=0).sort_index()
    y = frame[ctx.target].astype(str).to_numpy()
    return frame[columns].reset_index(drop=True), y


def _unit_labels(model, units: list[int], names: list[str]) -> list[str]:
    """One label per weight: the feature's name, or ``counts (N columns)`` for a multinomial block."""
    labels: dict[int, str] = {}
    for feature, unit, name in zip(model.features_, units, names, strict=True):
        if feature.model == "multinomial":
            n = sum(len(f.columns) for f in model.features_ if f.model == "multinomial")
            labels[unit] = f"counts ({n} columns)"
        else:
            labels.setdefault(unit, name)
    return [labels[u] for u in sorted(labels)]


def _evidence_correlation(L: np.ndarray) -> np.ndarray:
    """Correlation over rows and classes of each pair of features' class-centred log-likelihoods, (F, F).

    A feature whose evidence never varies has correlation 0 with every other.
    """
    centred = L - L.mean(axis=2, keepdims=True)
    flat = centred.transpose(1, 0, 2).reshape(L.shape[1], -1)
    flat = flat - flat.mean(axis=1, keepdims=True)
    norm = np.sqrt((flat**2).sum(axis=1))
    scale = np.where(norm > 0, norm, 1.0)
    unit = flat / scale[:, None]
    correlation = np.clip(unit @ unit.T, -1.0, 1.0)
    correlation[norm == 0, :] = 0.0
    correlation[:, norm == 0] = 0.0
    return correlation


def _mean_cll(L: np.ndarray, y: np.ndarray, log_prior: np.ndarray, weights: np.ndarray) -> float:
    score = np.where(np.isfinite(log_prior), log_prior, -1e6) + np.einsum("nfc,f->nc", L, weights)
    top = score.max(axis=1, keepdims=True)
    norm = top[:, 0] + np.log(np.exp(score - top).sum(axis=1))
    return float((score[np.arange(len(y)), y] - norm).mean())


def _cost_at_one(L: np.ndarray, y: np.ndarray, log_prior: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Per feature: mean conditional log-likelihood with the fitted weights minus with that weight set to 1."""
    fitted = _mean_cll(L, y, log_prior, weights)
    out = np.zeros(len(weights))
    for u in range(len(weights)):
        forced = weights.copy()
        forced[u] = 1.0
        out[u] = fitted - _mean_cll(L, y, log_prior, forced)
    return out


def _why(record: dict) -> str:
    """The weight in words."""
    scores = record["reading_scores"]
    reading = ""
    if scores:
        best = record["model"]
        reading = f"read {best} ({', '.join(f'{r} {s:+.4f}' for r, s in scores.items())}); "
    if record["discounted"]:
        if record["shares_with"]:
            names = ", ".join(f"{p['feature']} (r={p['correlation']:+.2f})" for p in record["shares_with"])
            because = f"it carries the same evidence as {names}"
        else:
            because = "no single feature repeats it, but it adds little to the others on held-out rows"
        cost = record["cost_at_weight_1"]
        return f"{reading}discounted: {because}; counted fully it would cost {cost:.4f} nats/row"
    if record["weight"] > 1 / DISCOUNTED:
        return f"{reading}counted more than once: its evidence is stronger than plain Naive Bayes reads it"
    return f"{reading}counted about once"
