"""The facts behind ``expectations.yaml``, computed with pandas / numpy / scipy only (no nblint).

Run from the repository root: ``python tests/real_traintest/inspect_data.py [split ...]``.
Prints, per split, what the issue's definitions ask about a training part and its test part:
the schema, unseen levels and the test rows they touch, zero-count (level, class) cells met on
test rows, rows in both parts (and with another label), the class priors and a chi-square test
of their difference, measurement values outside every class's training range, and (text) the
share of test tokens outside the training vocabulary.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import sparse, stats

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from real_traintest import splits  # noqa: E402


def prior_shift(train: pd.Series, test: pd.Series) -> dict:
    table = pd.crosstab(pd.concat([train, test], ignore_index=True), np.r_[np.zeros(len(train)), np.ones(len(test))])
    chi2, p, dof, _ = stats.chi2_contingency(table.to_numpy())
    return {
        "train": train.value_counts(normalize=True).round(3).to_dict(),
        "test": test.value_counts(normalize=True).round(3).to_dict(),
        "chi2": round(float(chi2), 1),
        "dof": int(dof),
        "p": float(p),
    }


def table_facts(split: splits.Split) -> None:
    train, test, y = split.train, split.test, split.target
    features = [c for c in train.columns if c != y]
    print(
        "  schema: missing",
        sorted(set(train.columns) - set(test.columns)),
        "extra",
        sorted(set(test.columns) - set(train.columns)),
    )
    cats = [c for c in features if train[c].dtype == object]
    nums = [c for c in features if c not in cats]
    print("  categorical:", cats, " numeric:", nums)
    for c in cats:
        unseen = ~test[c].isin(set(train[c]))
        print(
            f"  unseen {c}: {sorted(set(test[c][unseen]))[:12]} levels={test[c][unseen].nunique()} rows={int(unseen.sum())} share={unseen.mean():.3f}"
        )
    if not split.serving and cats:
        classes = sorted(train[y].unique())
        seen_pairs = {c: set(zip(train[c], train[y])) for c in cats}
        levels = {c: set(train[c]) for c in cats}
        vetoed_any = np.zeros(len(test), dtype=bool)
        for cls in classes:
            vetoed = np.zeros(len(test), dtype=bool)
            for c in cats:
                v = test[c].to_numpy()
                vetoed |= np.array([(x in levels[c]) and ((x, cls) not in seen_pairs[c]) for x in v])
            print(f"  zero cells met, class {cls}: rows={int(vetoed.sum())} share={vetoed.mean():.3f}")
            vetoed_any |= vetoed
        print(f"  zero cells met, any class: rows={int(vetoed_any.sum())} share={vetoed_any.mean():.3f}")
        for c in cats:
            v = test[c].to_numpy()
            hit = np.array([(x in levels[c]) and any((x, k) not in seen_pairs[c] for k in classes) for x in v])
            print(f"    by column {c}: rows={int(hit.sum())}")
    key_cols = features
    tr = train[key_cols].astype(str).agg("|".join, axis=1)
    te = test[[c for c in key_cols if c in test.columns]].astype(str).agg("|".join, axis=1)
    both = te.isin(set(tr))
    print(f"  overlap rows (features equal): test rows={int(both.sum())} distinct={te[both].nunique()}")
    if not split.serving and both.any():
        labels = train.assign(_k=tr).groupby("_k")[y].agg(set)
        other = [i for i in np.flatnonzero(both.to_numpy()) if test[y].iloc[i] not in labels[te.iloc[i]]]
        print(f"    with a label not seen for them in training: {len(other)}")
    print(f"  train duplicates within: {int(tr.duplicated().sum())}")
    if not split.serving:
        print("  prior:", prior_shift(train[y], test[y]))
    for c in nums:
        g = train.groupby(y)[c]
        lo, hi = g.min(), g.max()
        mean, sd = g.mean(), g.std(ddof=0)
        x = test[c].to_numpy(dtype=float)
        outside = (x < lo.min()) | (x > hi.max())
        z = np.min(
            np.abs(x[:, None] - mean.to_numpy()[None, :]) / np.where(sd.to_numpy() > 0, sd.to_numpy(), np.nan)[None, :],
            axis=1,
        )
        zo = z[outside]
        print(
            f"  {c}: train per-class min {lo.to_dict()} max {hi.to_dict()} sd {sd.round(3).to_dict()}; test range [{x.min()}, {x.max()}]; "
            f"outside every class's range: {int(outside.sum())} rows, nearest-class z of those max {np.nanmax(zo) if len(zo) else 0:.2f}; "
            f"test rows with nearest-class z>5: {int((z > 5).sum())}"
        )
        zero_var = sd[sd == 0]
        if len(zero_var):
            print(
                f"    zero within-class variance in training for {list(zero_var.index)}; test values there {sorted(set(x))[:8]}"
            )


def text_facts(split: splits.Split) -> None:
    m = splits.text_matrices(split)
    from sklearn.feature_extraction.text import CountVectorizer

    print(f"  train {m.X_train.shape} test {m.X_test.shape}")
    analyzer = CountVectorizer().build_analyzer()
    vocab = set(m.vocabulary)
    y_test = m.y_test
    total = unseen = 0
    per_class: dict = {}
    for i, doc in enumerate(split.test["text"]):
        tokens = analyzer(doc)
        n, u = len(tokens), sum(t not in vocab for t in tokens)
        total += n
        unseen += u
        if y_test is not None:
            a = per_class.setdefault(y_test[i], [0, 0])
            a[0] += n
            a[1] += u
    print(f"  unseen tokens (outside the min_df=2 training vocabulary): {unseen}/{total} = {unseen / total:.3f}")
    if per_class:
        print("   per class:", {k: round(u / n, 3) for k, (n, u) in sorted(per_class.items())})
    own_unseen = [w for w in m.test_vocabulary if w not in vocab]
    print(f"  test vocabulary {len(m.test_vocabulary)} words, {len(own_unseen)} outside training vocabulary")
    empty_test = int((np.diff(m.X_test.indptr) == 0).sum())
    print(f"  test rows empty under the training vocabulary: {empty_test}")
    # overlap by text
    tr_text = split.train["text"].str.strip()
    te_text = split.test["text"].str.strip()
    both = te_text.isin(set(tr_text)) & (te_text != "")
    print(f"  identical documents in both: test rows={int(both.sum())} distinct texts={te_text[both].nunique()}")
    if y_test is not None and both.any():
        labels = split.train.assign(_t=tr_text).groupby("_t")[split.target].agg(set)
        other = [i for i in np.flatnonzero(both.to_numpy()) if y_test[i] not in labels[te_text.iloc[i]]]
        print(f"    of which with a label not among the training copy's: {len(other)}")

    # overlap as the model sees it: identical count rows under the training vocabulary
    def keys(X):
        X = sparse.csr_matrix(X, copy=True)
        X.sort_indices()
        return [
            (X.indices[X.indptr[i] : X.indptr[i + 1]].tobytes(), X.data[X.indptr[i] : X.indptr[i + 1]].tobytes())
            for i in range(X.shape[0])
        ]

    ktr, kte = keys(m.X_train), keys(m.X_test)
    empty_key = (b"", b"")
    s = set(ktr)
    rows = [i for i, k in enumerate(kte) if k in s and k != empty_key]
    print(f"  identical count rows in both (non-empty): test rows={len(rows)}")
    if y_test is not None and rows:
        lab: dict = {}
        for k, c in zip(ktr, m.y_train):
            lab.setdefault(k, set()).add(c)
        other = [i for i in rows if y_test[i] not in lab[kte[i]]]
        print(f"    of which with a label not among the training rows': {len(other)}")
    if y_test is not None:
        pr = prior_shift(pd.Series(m.y_train), pd.Series(y_test))
        print("  prior: chi2", pr["chi2"], "dof", pr["dof"], "p", pr["p"])
        diff = {k: round(pr["test"].get(k, 0) - v, 3) for k, v in pr["train"].items()}
        print("   test - train share:", diff)


def main(ids: list[str]) -> None:
    for split_id in ids or splits.SPLITS:
        split = splits.load(split_id)
        print(f"== {split_id} ({split.kind}) train {split.train.shape} test {split.test.shape} serving={split.serving}")
        (text_facts if split.kind == "text" else table_facts)(split)


if __name__ == "__main__":
    main(sys.argv[1:])
