"""MixedNB against scikit-learn's Naive Bayes classes: accuracy on real tables, speed at 1M rows.

Part 1 (``--part accuracy``): 5-fold stratified cross-validation (shuffled, seed 0)
on every table of the real-data corpus (``tests/real_tables``) that holds one-hot or
drop-first dummy columns (pandas ``get_dummies`` with and without ``drop_first``,
scikit-learn's ``OneHotEncoder`` with and without ``drop="first"``).  Compared:

* ``MixedNB()``: kinds inferred by nblint on each training fold, groups collapsed;
* ``BernoulliNB()``, ``GaussianNB()``: every column as it is;
* ``CategoricalNB()`` over the bits: every column as its own categorical feature
  (continuous columns cut into 5 quantile bins), so each group bit is a two-level
  variable: the product of Bernoullis again.

Text columns are given to the scikit-learn classes as ordinal codes and to MixedNB as
text; missing numbers are filled with the column's median for all four (rows without
a class are dropped).  Printed: cross-validated log-loss (scikit-learn's
``log_loss``) and accuracy over all rows.

Part 2 (``--part speed``): fit and predict_proba time at ``--rows`` rows on synthetic
tables of one kind (MixedNB told the kind, so no inference) against the matching
scikit-learn class, and a sparse count block against MultinomialNB; each repeat runs
both back to back (paired), and the ratio MixedNB / scikit-learn is given as the
median and min-max of the per-repeat ratios.  Plus MixedNB on a mixed table with
kinds inferred (its fit then includes nblint's profile of the table).

Run: ``python bench/bench_mixednb.py [--corpus REPO] [--rows N] [--repeat R]``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
import warnings

import numpy as np
import pandas as pd
from scipy import sparse
from sklearn.base import clone
from sklearn.metrics import accuracy_score, log_loss
from sklearn.model_selection import StratifiedKFold, cross_val_predict
from sklearn.naive_bayes import BernoulliNB, CategoricalNB, GaussianNB, MultinomialNB

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
from nblint import MixedNB  # noqa: E402

GROUPED_VARIANTS = ("get_dummies", "drop_first", "onehot_encoder", "onehot_encoder_drop_first")


# --------------------------------------------------------------------------- part 1: real tables


def corpus_tables(repo: str):
    """The corpus tables with groups: (id, frame, target), built by the corpus's own builders."""
    sys.path.insert(0, os.path.join(repo, "tests", "real_tables"))
    import build  # the corpus registry (tests/real_tables/build.py)

    for table_id in build.table_ids():
        if build.ENTRIES[table_id].variant not in GROUPED_VARIANTS:
            continue
        try:
            table = build.build(table_id)
        except ImportError as exc:  # a data package not installed
            print(f"skip {table_id}: {exc}", file=sys.stderr)
            continue
        yield table_id, table.frame, table.target


def prepare(frame: pd.DataFrame, target: str):
    """Rows with a class; numbers' gaps filled with the median; text kept (MixedNB) and coded (others)."""
    frame = frame[frame[target].notna()].reset_index(drop=True)
    y = frame.pop(target).astype(str).to_numpy()
    X = frame.copy()
    for column in X.columns:
        if X[column].dtype == bool:
            X[column] = X[column].astype(int)
        if pd.api.types.is_numeric_dtype(X[column]):
            X[column] = X[column].fillna(X[column].median())
        else:
            X[column] = X[column].astype("string").fillna("(missing)").astype(object)
    coded = X.copy()
    for column in coded.columns:
        if coded[column].dtype == object:
            coded[column] = pd.factorize(coded[column], sort=True)[0]
    return X, coded.to_numpy(dtype=float), y


def categorical_codes(coded: np.ndarray) -> np.ndarray:
    """Every column as codes 0..K-1: integers shifted, other numbers cut into 5 quantile bins."""
    out = np.empty_like(coded, dtype=np.int64)
    for j in range(coded.shape[1]):
        column = coded[:, j]
        if np.all(column == np.floor(column)) and len(np.unique(column)) <= 50:
            out[:, j] = np.unique(column, return_inverse=True)[1]
        else:
            edges = np.unique(np.quantile(column, [0.2, 0.4, 0.6, 0.8]))
            out[:, j] = np.searchsorted(edges, column, side="right")
    return out


def accuracy_part(repo: str) -> list[dict]:
    rows = []
    for table_id, frame, target in corpus_tables(repo):
        X, coded, y = prepare(frame, target)
        classes, counts = np.unique(y, return_counts=True)
        if counts.min() < 5:
            print(f"skip {table_id}: a class with fewer than 5 rows", file=sys.stderr)
            continue
        codes = categorical_codes(coded)
        folds = StratifiedKFold(5, shuffle=True, random_state=0)
        candidates = {
            "MixedNB": (MixedNB(), X),
            "BernoulliNB": (BernoulliNB(), coded),
            "GaussianNB": (GaussianNB(), coded),
            "CategoricalNB(bits)": (CategoricalNB(min_categories=codes.max(axis=0) + 1), codes),
        }
        row = {"table": table_id, "rows": len(y), "columns": X.shape[1], "classes": len(classes)}
        for name, (model, data) in candidates.items():
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                try:
                    proba = cross_val_predict(clone(model), data, y, cv=folds, method="predict_proba")
                except ValueError as exc:
                    row[name] = None
                    print(f"{table_id}: {name} failed: {exc}", file=sys.stderr)
                    continue
            row[name] = (log_loss(y, proba, labels=classes), accuracy_score(y, classes[proba.argmax(axis=1)]))
        rows.append(row)
        print(_accuracy_line(row), flush=True)
    return rows


NAMES = ("MixedNB", "BernoulliNB", "GaussianNB", "CategoricalNB(bits)")


def _accuracy_header() -> str:
    return f"{'table':<36} {'rows':>6} " + " ".join(f"{n:>21}" for n in NAMES) + "   (log-loss / accuracy, 5-fold cv)"


def _accuracy_line(row: dict) -> str:
    cells = []
    for name in NAMES:
        value = row.get(name)
        cells.append(f"{'failed':>21}" if value is None else f"{value[0]:>11.3f} / {value[1]:>6.1%}")
    return f"{row['table']:<36} {row['rows']:>6} " + " ".join(cells)


def summary(rows: list[dict]) -> str:
    """How often MixedNB's log-loss and accuracy are the best of the four, and the medians."""
    lines = []
    for name in NAMES:
        losses = [r[name][0] for r in rows if r.get(name)]
        accs = [r[name][1] for r in rows if r.get(name)]
        lines.append(
            f"{name:<20} median log-loss {statistics.median(losses):.3f}, median accuracy "
            f"{statistics.median(accs):.1%} ({len(losses)} tables)"
        )
    best_loss = sum(
        1 for r in rows if r.get("MixedNB") and all(r["MixedNB"][0] <= r[n][0] for n in NAMES[1:] if r.get(n))
    )
    best_acc = sum(
        1 for r in rows if r.get("MixedNB") and all(r["MixedNB"][1] >= r[n][1] for n in NAMES[1:] if r.get(n))
    )
    lines.append(
        f"MixedNB has the lowest log-loss on {best_loss} of {len(rows)} tables, "
        f"the highest accuracy (ties included) on {best_acc}"
    )
    return "\n".join(lines)


# --------------------------------------------------------------------------- part 2: speed


def one_kind_tables(n: int, rng: np.random.Generator):
    """(label, kind for MixedNB, scikit-learn class, X, y) at n rows."""
    y = rng.integers(0, 3, n)
    shift = y[:, None]
    categorical = (rng.integers(0, 5, (n, 10)) + shift) % 6
    bits = (rng.random((n, 20)) < 0.2 + 0.1 * shift).astype(np.float64)
    counts = rng.poisson(1.0 + shift, (n, 20)).astype(np.float64)
    gaussian = rng.normal(size=(n, 10)) + shift
    per_row = 10  # words per row, out of 10,000
    words = sparse.csr_matrix(
        (
            rng.integers(1, 4, n * per_row).astype(np.float64),
            rng.integers(0, 10_000, n * per_row),
            np.arange(0, n * per_row + 1, per_row),
        ),
        shape=(n, 10_000),
    )
    words.sum_duplicates()
    return [
        ("categorical 10 cols", "categorical", CategoricalNB(), categorical, y),
        ("bernoulli 20 cols", "bernoulli", BernoulliNB(), bits, y),
        ("multinomial 20 cols", "multinomial", MultinomialNB(), counts, y),
        ("gaussian 10 cols", "gaussian", GaussianNB(), gaussian, y),
        ("sparse counts 10k cols", "multinomial", MultinomialNB(), words, y),
    ]


def timed(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def speed_part(n: int, repeat: int) -> list[dict]:
    rng = np.random.default_rng(0)
    results = []
    for label, kind, sk, X, y in one_kind_tables(n, rng):
        ours_fit, theirs_fit, ours_pred, theirs_pred = [], [], [], []
        for _ in range(repeat):
            ours, theirs = MixedNB(kinds=kind), clone(sk)
            ours_fit.append(timed(lambda: ours.fit(X, y)))
            theirs_fit.append(timed(lambda: theirs.fit(X, y)))
            ours_pred.append(timed(lambda: ours.predict_proba(X)))
            theirs_pred.append(timed(lambda: theirs.predict_proba(X)))
        results.append(
            {
                "table": label,
                "sklearn": type(sk).__name__,
                "fit": (ours_fit, theirs_fit),
                "predict_proba": (ours_pred, theirs_pred),
            }
        )
        print(_speed_line(results[-1]), flush=True)
    # A mixed table with kinds inferred: fit includes nblint's profile and group search.
    y = rng.integers(0, 3, n)
    level = (rng.integers(0, 4, n) + y) % 4
    frame = pd.DataFrame({f"g{k}": (level == k).astype(np.int64) for k in range(4)})
    frame["flag"] = (rng.random(n) < 0.3).astype(np.int64)
    frame["visits"] = rng.poisson(1 + y)
    frame["x"] = rng.normal(size=n) + y
    fits, preds = [], []
    for _ in range(repeat):
        model = MixedNB()
        fits.append(timed(lambda: model.fit(frame, y)))
        preds.append(timed(lambda: model.predict_proba(frame)))
    print(
        f"{'mixed, kinds inferred':<24} fit {_spread(fits)} s, predict_proba {_spread(preds)} s "
        f"(features: {', '.join(f.model for f in model.features_)})"
    )
    return results


def _spread(values: list[float]) -> str:
    return f"{statistics.median(values):.3f} [{min(values):.3f}-{max(values):.3f}]"


def _speed_line(result: dict) -> str:
    parts = [f"{result['table']:<24} vs {result['sklearn']:<14}"]
    for what in ("fit", "predict_proba"):
        ours, theirs = result[what]
        ratios = [a / b for a, b in zip(ours, theirs)]
        parts.append(
            f"{what} {_spread(ours)} s vs {_spread(theirs)} s, ratio {statistics.median(ratios):.2f} "
            f"[{min(ratios):.2f}-{max(ratios):.2f}]"
        )
    return "  ".join(parts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--part", choices=["accuracy", "speed", "both"], default="both")
    parser.add_argument(
        "--corpus",
        default=os.path.join(os.path.dirname(__file__), ".."),
        help="Repository whose tests/real_tables holds the corpus builders (default: this one).",
    )
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    if args.part in ("accuracy", "both"):
        print(_accuracy_header())
        rows = accuracy_part(args.corpus)
        print(summary(rows))
    if args.part in ("speed", "both"):
        print(
            f"\nfit / predict_proba at {args.rows:,} rows, {args.repeat} paired repeats: "
            "median [min-max] seconds, ratio MixedNB / scikit-learn"
        )
        speed_part(args.rows, args.repeat)


if __name__ == "__main__":
    main()
