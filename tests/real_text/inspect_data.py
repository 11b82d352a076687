"""Look at the corpora's data (pandas / numpy / scipy only, never nblint): the basis of the blind labels.

Run from the repository root::

    python tests/real_text/inspect_data.py                    # every corpus, whole
    python tests/real_text/inspect_data.py tweets --docs 2000 # one corpus, the test's subset

Per corpus: documents, classes and their sizes, empty texts (by class), texts that occur more
than once (and with more than one label). Per vectorizer form: the matrix's shape, rows left
empty (by class), identical rows (sets, and sets with more than one label; how many of those
are identical only after vectorizing), words in every document, and the words a careful reader
would call *giveaways*: present in at least ``--share`` of one class's documents and in at most
``--other`` of the others' (an artefact's signature, not ordinary class vocabulary).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
import pandas as pd

if __package__ in (None, ""):  # run as a script: make `real_text` importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from real_text import build, corpora  # noqa: E402

FORMS = ("counts", "binary", "tfidf", "capped", "capped_binary")


def giveaways(matrix: build.Matrix, share: float, other: float, top: int = 8) -> list[str]:
    """Words in >= ``share`` of one class's documents and <= ``other`` of the rest (document frequencies)."""
    present = (matrix.X != 0).astype(np.int64).tocsc()
    labels = pd.Series(matrix.y)
    out = []
    for label in sorted(labels.unique(), key=str):
        inside = (labels == label).to_numpy()
        df_in = np.asarray(present[inside].sum(axis=0)).ravel() / inside.sum()
        df_out = np.asarray(present[~inside].sum(axis=0)).ravel() / max((~inside).sum(), 1)
        hits = np.flatnonzero((df_in >= share) & (df_out <= other))
        hits = hits[np.argsort(-(df_in[hits] - df_out[hits]))][:top]
        if len(hits):
            shown = ", ".join(f"{matrix.words[j]} {df_in[j]:.0%}/{df_out[j]:.1%}" for j in hits)
            out.append(f"{label} ({inside.sum()} docs): {shown}")
    return out


def inspect(corpus: str, docs: int | None, share: float, other: float) -> None:
    frame = build.documents(corpus, docs)
    sizes = frame["label"].value_counts()
    print(f"== {corpus}: {len(frame)} documents, {len(sizes)} classes; {corpora.CORPORA[corpus].name}")
    print("   classes:", ", ".join(f"{c} {n}" for c, n in sizes.items()))
    blank = frame["text"].str.strip() == ""
    print(f"   empty texts: {int(blank.sum())} {frame.loc[blank, 'label'].value_counts().to_dict()}")
    repeated = frame[frame["text"].duplicated(keep=False) & ~blank]
    labels = repeated.groupby("text")["label"].nunique()
    print(
        f"   repeated texts: {len(repeated)} rows in {len(labels)} sets, {int((labels > 1).sum())} sets with "
        f"more than one label; e.g. {[t[:40] for t in labels[labels > 1].index[:5]]}"
    )
    tokens = frame["text"].str.split().str.len()
    print(f"   tokens per document: median {tokens.median():.0f}, mean {tokens.mean():.1f}, max {tokens.max()}")
    for form in FORMS:
        matrix = build.build(corpus, form, docs)
        X = matrix.X
        empty = np.diff(X.indptr) == 0
        dup = build.duplicates(matrix)
        by_class = pd.Series(matrix.y[empty]).value_counts().to_dict()
        everywhere = [matrix.words[j] for j in np.flatnonzero(np.diff((X != 0).tocsc().indptr) == X.shape[0])]
        print(
            f"   {form:<14} {X.shape[0]} x {X.shape[1]} ({X.nnz} non-zeros); empty rows {int(empty.sum())} "
            f"{by_class}; identical rows {dup['rows']} in {dup['groups']} sets, {dup['conflicting']} with more than "
            f"one label; words in every document: {everywhere}"
        )
        if form in ("counts", "capped"):
            for line in giveaways(matrix, share, other):
                print(f"      giveaway? {line}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("corpora", nargs="*", default=list(corpora.CORPORA))
    parser.add_argument("--docs", type=int, default=None)
    parser.add_argument("--share", type=float, default=0.3, help="share of one class's documents (default 0.3)")
    parser.add_argument("--other", type=float, default=0.01, help="share of the others' at most (default 0.01)")
    args = parser.parse_args(argv)
    for corpus in args.corpora:
        inspect(corpus, args.docs, args.share, args.other)
    return 0


if __name__ == "__main__":
    sys.exit(main())
