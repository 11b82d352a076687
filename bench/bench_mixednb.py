"""MixedNB against scikit-learn's Naive Bayes classes: accuracy on real tables, speed at 1M rows.

Part 1 (``--part accuracy``): 5-fold stratified cross-validation (shuffled, seed 0)
on every table with a class of both real-data corpora (``tests/real_tables``: ``round1``
and ``round2``, ``--tables``) that holds one-hot or drop-first dummy columns (pandas
``get_dummies`` with and without ``drop_first``, scikit-learn's ``OneHotEncoder`` with
and without ``drop="first"``).  Compared:

* ``MixedNB()``: its defaults (kinds inferred by nblint on each training fold, groups
  collapsed, each measurement's reading chosen, WANBIA weights where they are the default);
* ``MixedNB(weights=None)``: the same without WANBIA's weights (on checkouts that have them);
* ``BernoulliNB()``, ``GaussianNB()``: every column as it is;
* ``CategoricalNB()`` over the bits: every column as its own categorical feature
  (continuous columns cut into 5 quantile bins), so each group bit is a two-level
  variable: the product of Bernoullis again;
* logistic regression: numbers scaled, text one-hot, scikit-learn's defaults otherwise;
* wnb's ``GeneralNB`` (``pip install wnb``; not a dependency of nblint) with one
  distribution per column from the kinds MixedNB infers on the training fold (``--no-wnb``
  leaves it out).

Text columns are given to the scikit-learn classes as ordinal codes and to MixedNB and
logistic regression as text; missing numbers are filled with the column's median for
all (rows without a class are dropped).  Printed: cross-validated log-loss (scikit-learn's
``log_loss``) and accuracy over all rows, then the issue's bars: the share of tables where
MixedNB's log-loss is within 2% of the best of the three scikit-learn Naive Bayes (bar 90%),
its worst ratio to that best (bar 1.25x), and its median log-loss against logistic
regression's (bar: within 10%).

Part 2 (``--part speed``): fit and predict_proba time at ``--rows`` rows on synthetic
tables of one kind (MixedNB told the kind, so no inference, and weights off) against the
matching scikit-learn class, and a sparse count block against MultinomialNB; each repeat
runs both back to back (paired), and the ratio MixedNB / scikit-learn is given as the
median and min-max of the per-repeat ratios (bar: fit within 2x).  Then the weighted fit
(``weights="wanbia"``) against the same scikit-learn fit (bar: within 10x).  Plus MixedNB
on a mixed table with kinds inferred (its fit then includes nblint's profile of the table
and the choice of each measurement's reading).

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


def corpus_tables(repo: str, corpora: list[str]):
    """The corpus tables with groups: (id, frame, target), built by the corpus's own builders."""
    sys.path.insert(0, os.path.join(repo, "tests", "real_tables"))
    import build  # the corpus registry (tests/real_tables/build.py)

    for corpus in corpora:
        for table_id in build.table_ids(corpus=corpus):
            if build.entries(corpus)[table_id].variant not in GROUPED_VARIANTS:
                continue
            try:
                table = build.build(table_id)
            except ImportError as exc:  # a data package not installed
                print(f"skip {table_id}: {exc}", file=sys.stderr)
                continue
            if table.target is None:
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


def logistic_regression(X: pd.DataFrame):
    """Logistic regression as a careful user sets it up: numbers scaled, text one-hot (unknown levels ignored)."""
    from sklearn.compose import ColumnTransformer
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import OneHotEncoder, StandardScaler

    text = [c for c in X.columns if X[c].dtype == object]
    numbers = [c for c in X.columns if c not in text]
    encode = ColumnTransformer(
        [("numbers", StandardScaler(), numbers), ("text", OneHotEncoder(handle_unknown="ignore"), text)]
    )
    return make_pipeline(encode, LogisticRegression(max_iter=2000))


class _GeneralNBOnKinds:
    """wnb's GeneralNB with one distribution per column from the kinds MixedNB infers on the training fold.

    A group's bits are each a two-level categorical (wnb has no group), a binned
    or Gaussian column a normal one, a log-normal column a log-normal one;
    text columns arrive as codes.  Built per fold, so ``clone`` sees no fitted state.
    """

    def __init__(self, frame: pd.DataFrame, coded: np.ndarray):
        self.frame, self.coded = frame, coded

    def fit_predict_proba(self, train, test, y):
        from wnb import Distribution, GeneralNB

        kinds = {}
        for feature in MixedNB().fit(self.frame.iloc[train], y[train]).features_:
            for column in feature.columns:
                kinds[column] = feature.model
        position = {c: j for j, c in enumerate(self.frame.columns)}
        distributions, used = [], []
        for column, model in kinds.items():
            dist = {
                "gaussian": Distribution.NORMAL,
                "binned": Distribution.NORMAL,
                "lognormal": Distribution.LOGNORMAL,
            }.get(model, Distribution.CATEGORICAL)
            distributions.append(dist)
            used.append(position[column])
        data = self.coded[:, used]
        model = GeneralNB(distributions=distributions, alpha=1.0).fit(data[train], y[train])
        return model.predict_proba(data[test])


def _cv_proba(model, data, y, folds):
    """Out-of-fold posteriors: ``cross_val_predict``, or a per-fold fit for the wnb wrapper."""
    if isinstance(model, _GeneralNBOnKinds):
        proba = np.zeros((len(y), len(np.unique(y))))
        for train, test in folds.split(np.zeros(len(y)), y):
            proba[test] = model.fit_predict_proba(train, test, y)
        return proba
    return cross_val_predict(clone(model), data, y, cv=folds, method="predict_proba")


def _weighted():
    """MixedNB with WANBIA weights, when this checkout has them (the bench also measures older checkouts)."""
    try:
        return MixedNB(weights="wanbia")
    except TypeError:
        return None


def _no_weights():
    """MixedNB with weights off, when this checkout has the option."""
    model = MixedNB()
    return model.set_params(weights=None) if "weights" in model.get_params() else None


def accuracy_part(repo: str, corpora: list[str], with_wnb: bool) -> list[dict]:
    rows = []
    unweighted = _no_weights()
    for table_id, frame, target in corpus_tables(repo, corpora):
        X, coded, y = prepare(frame, target)
        classes, counts = np.unique(y, return_counts=True)
        if counts.min() < 5:
            print(f"skip {table_id}: a class with fewer than 5 rows", file=sys.stderr)
            continue
        codes = categorical_codes(coded)
        folds = StratifiedKFold(5, shuffle=True, random_state=0)
        candidates = {
            "MixedNB": (MixedNB(), X),
            "MixedNB(weights=None)": (unweighted, X),
            "BernoulliNB": (BernoulliNB(), coded),
            "GaussianNB": (GaussianNB(), coded),
            "CategoricalNB(5 bins)": (CategoricalNB(min_categories=codes.max(axis=0) + 1), codes),
            "LogisticRegression": (logistic_regression(X), X),
            "wnb GeneralNB": (_GeneralNBOnKinds(X, coded) if with_wnb else None, None),
        }
        row = {"table": table_id, "rows": len(y), "columns": X.shape[1], "classes": len(classes)}
        for name, (model, data) in candidates.items():
            if model is None:
                row[name] = None
                continue
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                try:
                    proba = _cv_proba(model, data, y, folds)
                except (ValueError, np.linalg.LinAlgError) as exc:
                    row[name] = None
                    print(f"{table_id}: {name} failed: {exc}", file=sys.stderr)
                    continue
            if not np.all(np.isfinite(proba)):
                proba = np.nan_to_num(proba, nan=1.0 / len(classes))
            row[name] = (log_loss(y, proba, labels=classes), accuracy_score(y, classes[proba.argmax(axis=1)]))
        rows.append(row)
        print(_accuracy_line(row), flush=True)
    return rows


NAMES = (
    "MixedNB",
    "MixedNB(weights=None)",
    "BernoulliNB",
    "GaussianNB",
    "CategoricalNB(5 bins)",
    "LogisticRegression",
    "wnb GeneralNB",
)
#: Log-loss added to both sides of a ratio to the best scikit-learn Naive Bayes (nats).
FLOOR = 0.01
#: The Naive Bayes a user would pick from scikit-learn: MixedNB's bar is the best of these per table.
SKLEARN_NB = ("BernoulliNB", "GaussianNB", "CategoricalNB(5 bins)")
SHORT = {
    "MixedNB": "Mixed",
    "MixedNB(weights=None)": "Mixed(no w)",
    "BernoulliNB": "Bern",
    "GaussianNB": "Gauss",
    "CategoricalNB(5 bins)": "Cat5",
    "LogisticRegression": "LogReg",
    "wnb GeneralNB": "wnb",
}


def _accuracy_header() -> str:
    cells = " ".join(f"{SHORT[n]:>14}" for n in NAMES)
    return f"{'table':<40} {'rows':>6} {cells}   (log-loss / accuracy, 5-fold cv)"


def _accuracy_line(row: dict) -> str:
    cells = []
    for name in NAMES:
        value = row.get(name)
        cells.append(f"{'-':>14}" if value is None else f"{value[0]:>7.3f}/{value[1]:>6.1%}")
    return f"{row['table']:<40} {row['rows']:>6} " + " ".join(cells)


def summary(rows: list[dict], model: str = "MixedNB") -> str:
    """Medians per model, then the issue's three bars for ``model``."""
    lines = []
    for name in NAMES:
        losses = [r[name][0] for r in rows if r.get(name)]
        accs = [r[name][1] for r in rows if r.get(name)]
        if losses:
            lines.append(
                f"{name:<22} median log-loss {statistics.median(losses):.3f}, median accuracy "
                f"{statistics.median(accs):.1%} ({len(losses)} tables)"
            )
    for name in ("MixedNB", "MixedNB(weights=None)"):
        scored = [r for r in rows if r.get(name) and all(r.get(n) for n in SKLEARN_NB)]
        if not scored:
            continue
        # A ratio to a log-loss near 0 (a table every model nearly separates) is all noise: the
        # denominators are floored at FLOOR nats (printed), and the strict count is printed too.
        best = [min(r[n][0] for n in SKLEARN_NB) for r in scored]
        strict = sum(r[name][0] <= 1.02 * b for r, b in zip(scored, best))
        ratios = [(r[name][0] + FLOOR) / (b + FLOOR) for r, b in zip(scored, best)]
        within = sum(ratio <= 1.02 for ratio in ratios)
        worst = max(range(len(scored)), key=lambda i: ratios[i])
        vs_lr = [r[name][0] / r["LogisticRegression"][0] for r in scored if r.get("LogisticRegression")]
        medians = (
            statistics.median(r[name][0] for r in scored),
            statistics.median(r["LogisticRegression"][0] for r in scored if r.get("LogisticRegression")),
        )
        lines.append(
            f"{name}: within 2% of the best scikit-learn NB on {within} of {len(scored)} tables "
            f"({within / len(scored):.0%}; bar 90%; {strict} without the {FLOOR} floor), worst ratio {ratios[worst]:.2f}x on "
            f"{scored[worst]['table']} (bar 1.25x), median log-loss {medians[0]:.3f} vs logistic "
            f"regression's {medians[1]:.3f} = {medians[0] / medians[1]:.2f}x (bar 1.10x; median per-table "
            f"ratio {statistics.median(vs_lr):.2f}x, lower than logistic regression on "
            f"{sum(v < 1 for v in vs_lr)} of {len(vs_lr)})"
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
        ours_fit, theirs_fit, ours_pred, theirs_pred, weighted_fit, weighted_theirs = [], [], [], [], [], []
        for _ in range(repeat):
            ours, theirs = _unweighted(kind), clone(sk)
            ours_fit.append(timed(lambda: ours.fit(X, y)))
            theirs_fit.append(timed(lambda: theirs.fit(X, y)))
            ours_pred.append(timed(lambda: ours.predict_proba(X)))
            theirs_pred.append(timed(lambda: theirs.predict_proba(X)))
            weighted = _weighted()
            if weighted is not None:
                weighted.set_params(kinds=kind)
                weighted_fit.append(timed(lambda: weighted.fit(X, y)))
                weighted_theirs.append(timed(lambda: clone(sk).fit(X, y)))
        results.append(
            {
                "table": label,
                "sklearn": type(sk).__name__,
                "fit": (ours_fit, theirs_fit),
                "predict_proba": (ours_pred, theirs_pred),
            }
        )
        if weighted_fit:
            results[-1]["weighted fit"] = (weighted_fit, weighted_theirs)
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


def _unweighted(kind: str):
    """MixedNB with ``kinds=kind`` and weights off (older checkouts have no ``weights``)."""
    model = MixedNB(kinds=kind)
    return model.set_params(weights=None) if "weights" in model.get_params() else model


def _spread(values: list[float]) -> str:
    return f"{statistics.median(values):.3f} [{min(values):.3f}-{max(values):.3f}]"


def _speed_line(result: dict) -> str:
    parts = [f"{result['table']:<24} vs {result['sklearn']:<14}"]
    for what in ("fit", "predict_proba", "weighted fit"):
        if what not in result:
            continue
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
    parser.add_argument(
        "--tables",
        choices=["round1", "round2", "all"],
        default="all",
        help="Which corpus's tables with groups: round1 (corpus one), round2 or all (default).",
    )
    parser.add_argument("--no-wnb", action="store_true", help="Leave out wnb's GeneralNB (pip install wnb).")
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    if args.part in ("accuracy", "both"):
        print(_accuracy_header())
        corpora = ["round1", "round2"] if args.tables == "all" else [args.tables]
        with_wnb = not args.no_wnb
        if with_wnb:
            try:
                import wnb  # noqa: F401
            except ImportError:
                print("wnb is not installed (pip install wnb): its column is left empty", file=sys.stderr)
                with_wnb = False
        rows = accuracy_part(args.corpus, corpora, with_wnb)
        print(summary(rows))
    if args.part in ("speed", "both"):
        print(
            f"\nfit / predict_proba at {args.rows:,} rows, {args.repeat} paired repeats: "
            "median [min-max] seconds, ratio MixedNB / scikit-learn"
        )
        speed_part(args.rows, args.repeat)


if __name__ == "__main__":
    main()
