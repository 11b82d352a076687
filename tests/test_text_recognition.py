"""Text is text at every size (issue 34, item 1), and indicators are not text (issue 41, item 2).

A block of words from any scikit-learn vectorizer setting is read as one block, through
``check_pipeline`` (declared by the vectorizer) and through ``check`` on the matrix alone
(read from its values, the same as declaring it with ``words=True``). A one-hot encoding of
a variable with a thousand levels and more, dense or sparse, is not a block of words. The
documents are generated (Zipf-distributed words whose frequencies depend on the class);
the real corpora are tests/test_real_text.py's.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import sparse
from sklearn.feature_extraction.text import CountVectorizer, HashingVectorizer, TfidfTransformer, TfidfVectorizer
from sklearn.naive_bayes import BernoulliNB, ComplementNB, MultinomialNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import OneHotEncoder

import nblint
from nblint import testing
from nblint.profile.gram import chunk_gram
from nblint.profile.incidence import Incidence
from nblint.readers.words import indicator_encoding, median_beside_zeros
from nblint.structure.terms import row_count_sums

CLASSES = ("sport", "tech", "food")
#: What a block of words never is: an encoded variable (NB101-NB103, NB307), collinear words (NB104),
#: categorical codes (NB305), several event models (NB308).
NOT_FOR_WORDS = {"NB101", "NB102", "NB103", "NB104", "NB305", "NB307", "NB308"}


def documents(n_docs: int = 900, n_types: int = 2000, shortest: int = 3, longest: int = 60, seed: int = 0):
    """Documents of Zipf-distributed made-up words, each class favouring every third word; and their classes."""
    rng = np.random.default_rng(seed)
    letters = np.array(list("abcdefghijklmnopqrstuvwxyz"))
    vocabulary = np.array(["".join(rng.choice(letters, size=rng.integers(3, 9))) for _ in range(n_types)])
    ranks = np.arange(1, n_types + 1)
    labels = np.array(CLASSES)[rng.integers(0, len(CLASSES), n_docs)]
    docs = []
    for label in labels:
        weights = 1.0 / ranks**1.05
        weights[CLASSES.index(label) :: 3] *= 2.0
        weights /= weights.sum()
        docs.append(" ".join(vocabulary[rng.choice(n_types, size=rng.integers(shortest, longest + 1), p=weights)]))
    return docs, labels


DOCS, Y = documents()

SETTINGS = {
    "counts": (CountVectorizer(), MultinomialNB()),
    "max_features=300": (CountVectorizer(max_features=300), MultinomialNB()),
    "max_features=1000": (CountVectorizer(max_features=1000), MultinomialNB()),
    "min_df=2": (CountVectorizer(min_df=2), MultinomialNB()),
    "bigrams": (CountVectorizer(ngram_range=(1, 2), max_features=500), MultinomialNB()),
    "binary": (CountVectorizer(binary=True, max_features=1000), BernoulliNB()),
    "tfidf": (TfidfVectorizer(max_features=500), ComplementNB()),
    "tfidf-transformer": (make_pipeline(CountVectorizer(max_features=400), TfidfTransformer()), MultinomialNB()),
    "hashing": (HashingVectorizer(n_features=2**12, alternate_sign=False), MultinomialNB()),
}


def context(data, y=None, **kwargs):
    return testing.context(data, y, **kwargs)


def table_findings(report) -> list[dict]:
    return [{k: v for k, v in f.to_dict().items() if k != "path"} for f in report if f.path != "<pipeline>"]


def assert_one_block(findings: list[dict]) -> None:
    """No finding that only an encoded or collinear table has; at most one finding per rule and class."""
    codes = [f["code"] for f in findings]
    assert not NOT_FOR_WORDS & set(codes), codes
    assert all(codes.count(code) <= len(CLASSES) for code in codes), codes


@pytest.mark.parametrize("setting", SETTINGS)
def test_every_vectorizer_setting_is_one_block_of_words_through_check_pipeline(setting):
    vectorizer, model = SETTINGS[setting]
    findings = table_findings(nblint.check_pipeline(make_pipeline(vectorizer, model), DOCS, Y))
    assert findings  # (the comparison has teeth: the block has zero cells at least)
    assert_one_block(findings)


@pytest.mark.parametrize("setting", SETTINGS)
def test_a_vectorizers_matrix_alone_is_read_as_words_from_its_values(setting):
    vectorizer, _ = SETTINGS[setting]
    X = vectorizer.fit_transform(DOCS)
    names = vectorizer.get_feature_names_out() if hasattr(vectorizer, "get_feature_names_out") else None
    if isinstance(vectorizer, HashingVectorizer):
        names = None
    read = context(X, Y, feature_names=names)
    declared = context(X, Y, feature_names=names, words=True)
    assert read.term_columns == declared.term_columns == frozenset(read.profile.features)
    found = table_findings(nblint.check(X, Y, feature_names=names))
    assert found == table_findings(nblint.check(X, Y, feature_names=names, words=True))
    assert_one_block(found)


def test_a_small_vocabulary_declared_by_its_vectorizer_is_words():
    # The README's spam/ham pipeline: 8 words, a correct counts-into-MultinomialNB setup.
    docs = ["cheap pills now", "meeting at noon", "cheap cheap offer", "lunch at noon"] * 10
    labels = ["spam", "ham", "spam", "ham"] * 10
    findings = table_findings(nblint.check_pipeline(make_pipeline(CountVectorizer(), MultinomialNB()), docs, labels))
    assert_one_block(findings)
    assert not [f for f in findings if f["severity"] == "error"]
    # Undeclared, eight columns are a table, not a vocabulary: the same matrix reads as one with words=True.
    X = CountVectorizer().fit_transform(docs)
    assert not context(X, labels).term_columns
    assert len(context(X, labels, words=True).term_columns) == 8


def test_short_documents_of_0_1_words_are_words_not_indicators():
    docs, y = documents(shortest=2, longest=8, seed=3)
    X = CountVectorizer(binary=True, max_features=300).fit_transform(docs)
    assert len(context(X, y).term_columns) == X.shape[1]
    # In a dense table, the 0/1 words zero on at least half of the rows are the block (a frequent 0/1 word may be a flag).
    dense = pd.DataFrame(X.toarray(), columns=[f"w{j}" for j in range(X.shape[1])]).assign(label=y)
    rare = {f"w{j}" for j in np.flatnonzero(2 * np.asarray((X > 0).sum(axis=0)).ravel() <= X.shape[0])}
    assert len(rare) >= 250
    assert context(dense, target="label").term_columns == rare


@pytest.mark.parametrize("sparse_output", [True, False], ids=["sparse", "dense"])
@pytest.mark.parametrize("drop", [None, "first"], ids=["one-hot", "drop-first"])
def test_a_one_hot_block_of_a_thousand_levels_and_more_is_not_words(drop, sparse_output):
    rng = np.random.default_rng(1)
    city = rng.integers(0, 1100, 6000)
    y = (city % 3 == 0) ^ (rng.random(6000) < 0.2)
    encoder = OneHotEncoder(drop=drop, sparse_output=sparse_output)
    X = encoder.fit_transform(city.reshape(-1, 1))
    assert X.shape[1] >= 1000
    ctx = context(X, y, feature_names=encoder.get_feature_names_out())
    assert ctx.term_columns == frozenset()
    assert ctx.duplicate_rows is None  # (repeated rows of one level are not "identical documents")


def test_one_hot_encodings_of_several_variables_and_a_frame_of_dummies_are_not_words():
    rng = np.random.default_rng(2)
    n = 5000
    codes = np.column_stack([rng.integers(0, 800, n), rng.integers(0, 500, n)])
    y = rng.integers(0, 2, n)
    assert context(OneHotEncoder().fit_transform(codes), y).term_columns == frozenset()
    frame = pd.get_dummies(pd.Series(codes[:, 0]).astype(str), prefix="city", dtype=int).assign(y=y)
    assert frame.shape[1] > 700
    assert context(frame, target="y").term_columns == frozenset()


def test_findings_on_a_block_of_words_do_not_depend_on_column_order():
    vectorizer = CountVectorizer(max_features=600)
    X = vectorizer.fit_transform(DOCS).tocsc()
    names = vectorizer.get_feature_names_out()
    order = np.random.default_rng(4).permutation(X.shape[1])
    as_made = table_findings(nblint.check(X.tocsr(), Y, feature_names=names))
    shuffled = table_findings(nblint.check(X[:, order].tocsr(), Y, feature_names=names[order]))
    assert as_made == shuffled
    assert_one_block(as_made)


def test_a_hashed_matrix_costs_by_its_filled_columns():
    # HashingVectorizer's default: 2^20 columns for a few hundred words. The profile sees the filled columns only,
    # the block is words, and NB106 says how many empty columns were left out.
    X = HashingVectorizer(alternate_sign=False).transform(DOCS[:40])
    filled = int((np.diff(X.tocsc().indptr) > 0).sum())
    ctx = context(X, Y[:40])
    assert ctx.source.matrix.shape == (40, filled)
    assert len(ctx.term_columns) == filled
    note = [f for f in nblint.check(X, Y[:40]) if f.code == "NB106"]
    assert len(note) == 1 and f"{2**20 - filled:,} of the matrix's {2**20:,} columns" in note[0].message


# --------------------------------------------------------------------------- the row-count signature


def _row_counts(B: np.ndarray) -> tuple[float, float]:
    m = B.sum(axis=1).astype(np.float64)
    return float(m.sum()), float(np.dot(m, m))


@pytest.mark.parametrize("wide", [False, True])
def test_row_count_sums_are_the_sums_over_rows(wide):
    rng = np.random.default_rng(5)
    B = (rng.random((300, 12)) < 0.2).astype(np.int64)
    names = tuple(f"c{j}" for j in range(12))
    gram, _ = chunk_gram(B, names, np.ones(12, bool), np.ones(12, bool), wide_binary=4 if wide else 4096)
    assert isinstance(gram.counts, Incidence) == wide
    for columns in (names, names[3:9], names[::4]):
        index = [names.index(c) for c in columns]
        assert row_count_sums(gram, columns) == _row_counts(B[:, index])


def test_the_signature_of_indicators_against_words():
    rng = np.random.default_rng(6)
    n = 1000
    onehot = np.eye(40, dtype=np.int64)[rng.integers(0, 40, n)]
    two_variables = np.hstack([onehot, np.eye(30, dtype=np.int64)[rng.integers(0, 30, n)]])
    dummies = onehot[:, 1:]
    words = (rng.random((n, 70)) < rng.uniform(0.01, 0.2, (n, 1))).astype(np.int64)  # documents of many lengths
    readings = [(onehot, "one variable"), (dummies, "one variable"), (two_variables, "one-hot"), (words, None)]
    for block, reading in readings:
        assert indicator_encoding(*_row_counts(block), n, 0.05) == reading
    broken = two_variables.copy()
    broken[:10, 0] = 1 - broken[:10, 0]  # 1% of the rows off by one: still an encoding (NB103's to report)
    assert indicator_encoding(*_row_counts(broken), n, 0.05) == "one-hot"
    assert indicator_encoding(*_row_counts(broken[:, :40]), n, 0.05) == "one variable"


def test_the_comoments_of_some_columns_are_those_of_the_whole_matrix():
    rng = np.random.default_rng(7)
    X = np.column_stack(
        [rng.integers(0, 2, 200), rng.normal(size=200), rng.integers(0, 2, 200), rng.poisson(2, 200), rng.random(200)]
    )
    names, zero_one = tuple("abcde"), np.array([True, False, True, False, False])
    whole = chunk_gram(X, names, np.ones(5, bool), zero_one)[0].comoment
    for keep in ([0, 1, 2, 3, 4], [0, 2, 4], [1, 3], [0, 3, 4], [2]):
        part = chunk_gram(X, names, np.ones(5, bool), zero_one)[0].comoment_of(keep)
        np.testing.assert_allclose(part, whole[np.ix_(keep, keep)], rtol=0, atol=1e-9)


@pytest.mark.parametrize("setting", ["max_features=300", "min_df=2", "bigrams"])
def test_a_dense_document_term_array_is_read_as_words_too(setting):
    vectorizer, _ = SETTINGS[setting]
    X = vectorizer.fit_transform(DOCS)
    names = vectorizer.get_feature_names_out()
    ctx = context(X.toarray(), Y, feature_names=names)
    assert ctx.term_columns == frozenset(names)  # (counts: the frequent words of the block too)
    assert_one_block(table_findings(nblint.check(X.toarray(), Y, feature_names=names)))


@pytest.mark.parametrize("as_sparse", [False, True], ids=["dense", "sparse"])
def test_columns_each_set_on_nearly_half_of_the_rows_are_not_a_vocabulary(as_sparse):
    # 600 independent yes/no answers: most are zero on half of the rows or more, but the typical one is set on 45%
    # of them, which no vocabulary's typical word is (Zipf's law).
    rng = np.random.default_rng(8)
    bits = (rng.random((400, 600)) < 0.45).astype(np.int64)
    y = rng.integers(0, 2, 400)
    data = sparse.csr_matrix(bits) if as_sparse else bits
    assert context(data, y).term_columns == frozenset()
    assert len(context(data, y, words=True).term_columns) == 600  # (declared, they are words)


@pytest.mark.parametrize("sparse_output", [True, False], ids=["sparse", "dense"])
def test_drop_first_dummies_of_several_variables_with_common_references_are_named_an_encoding(sparse_output):
    # Two variables whose reference level is half of the rows: rows set 0, 1 or 2 columns, as short documents
    # do; the encoder's names (x0_<level>, x1_<level>) say what the values leave open.
    rng = np.random.default_rng(9)
    n = 6000
    codes = np.column_stack(
        [
            np.where(rng.random(n) < 0.5, 0, rng.integers(1, 600, n)),
            np.where(rng.random(n) < 0.5, 0, rng.integers(1, 500, n)),
        ]
    )
    encoder = OneHotEncoder(drop="first", sparse_output=sparse_output)
    X = encoder.fit_transform(codes)
    assert X.shape[1] >= 1000
    names = encoder.get_feature_names_out()
    assert context(X, rng.integers(0, 2, n), feature_names=names).term_columns == frozenset()


def test_documents_of_their_own_words_are_words_even_with_equal_lengths():
    # 40 documents of 25 words each, no word in two documents: every row sets 25 columns, as a one-hot encoding
    # of 25 variables would, but no "level" repeats (an identifier's levels, not a variable's): words.
    n, per_row = 40, 25
    rows = np.repeat(np.arange(n), per_row)
    X = sparse.csr_matrix((np.ones(n * per_row, dtype=np.int64), (rows, np.arange(n * per_row))))
    y = np.array(["a", "b"] * (n // 2))
    assert len(context(X, y).term_columns) == n * per_row
    assert len(context(X.toarray(), y).term_columns) == n * per_row


# --------------------------------------------------------------------------- signed hashes, and cost by the entries


@pytest.mark.parametrize("model, severity", [(None, "warning"), ("multinomial", "error")])
def test_a_sign_hashed_block_is_words_and_its_negatives_one_finding(model, severity):
    # HashingVectorizer's default alternate_sign=True: each word has one sign, in every document, and the
    # l2 norm makes the weights fractional. The block is words; its negatives are one NB302, not a table.
    X = HashingVectorizer(n_features=2**14).fit_transform(DOCS)
    assert X.min() < 0
    ctx = context(X, Y)
    assert ctx.term_columns == frozenset(ctx.profile.features)
    found = table_findings(nblint.check(X, Y, model=model))
    assert_one_block(found)
    assert not {"NB105", "NB205"} & {f["code"] for f in found}  # (no table of identical or class-constant columns)
    negative = [f for f in found if f["code"] == "NB302"]
    entries = X.tocsr()
    signed = len(np.unique(entries.indices[entries.data < 0]))  # the columns holding a negative entry
    assert len(negative) == 1 and negative[0]["severity"] == severity
    assert negative[0]["evidence"]["words"] == len(negative[0]["columns"]) == signed
    assert negative[0]["evidence"]["negative_cells"] == int((X.data < 0).sum())


def test_signed_columns_that_change_sign_from_row_to_row_are_not_a_sign_hash():
    # Sparse signed measurements (centred, or scaled with signs): a column takes both signs, so no hash gave them.
    rng = np.random.default_rng(11)
    X = sparse.random(400, 300, density=0.05, random_state=3, format="csr")
    X.data = rng.normal(size=X.nnz)
    assert context(X, rng.integers(0, 2, 400)).term_columns == frozenset()


def test_zero_cells_of_fractional_words_under_bernoulli_are_the_presence_tables_cells():
    # tf-idf weights read by BernoulliNB: a word's cells are the classes its presence (x > 0) or its absence
    # never meets. The oracle reads them from the matrix; classes and words unrelated, so none is NB202's or NB208's.
    rng = np.random.default_rng(12)
    n, p = 300, 400
    X = sparse.random(n, p, density=0.02, random_state=4, format="csr")
    X.data = np.round(rng.random(X.nnz) + 0.01, 3)
    y = np.array(["a", "b", "c"])[rng.integers(0, 3, n)]
    present = np.vstack([np.asarray((X[y == c] > 0).sum(axis=0)).ravel() for c in ("a", "b", "c")])
    absent = np.array([[int((y == c).sum())] for c in ("a", "b", "c")]) - present
    expected = sum(int(((side == 0) & side.any(axis=0)).sum()) for side in (present, absent))
    zero = [f for f in nblint.check(X, y, model="bernoulli") if f.code == "NB201"]
    assert len(zero) == 1
    assert f"({expected:,} zero cells" in zero[0].message


def test_documents_of_unique_words_cost_by_their_entries():
    # The small-scale analogue of a million distinct words: 300 documents of 100 words each, no word in two
    # documents. One block of words, nothing above info (a document's own words are identical columns by chance).
    n, per_row = 300, 100
    rows = np.repeat(np.arange(n), per_row)
    X = sparse.csr_matrix((np.ones(n * per_row, dtype=np.int64), (rows, np.arange(n * per_row))))
    y = np.random.default_rng(13).choice(["a", "b"], n)
    report = nblint.check(X, y)
    assert {f.code for f in report.findings} <= {"NB106", "NB201", "NB203"}
    assert all(f.severity.name == "INFO" for f in report.findings)


def test_one_long_document_among_short_ones_is_one_row_of_words():
    # The small-scale analogue of a 20 MB document: one document of 200,000 tokens beside 60 short ones.
    rng = np.random.default_rng(14)
    vocabulary = np.array([f"t{k}" for k in range(3000)])
    weights = 1.0 / np.arange(1, 3001)
    weights /= weights.sum()
    docs = [" ".join(vocabulary[rng.choice(3000, size=200_000, p=weights)])]
    docs += [" ".join(vocabulary[rng.choice(3000, size=30, p=weights)]) for _ in range(60)]
    y = np.array(["a", "b"] * 31)[:61]
    vectorizer = CountVectorizer()
    X = vectorizer.fit_transform(docs)
    names = vectorizer.get_feature_names_out()
    ctx = context(X, y, feature_names=names)
    assert ctx.term_columns == frozenset(names)
    found = table_findings(nblint.check(X, y, feature_names=names))
    assert_one_block(found)
    assert not [f for f in found if f["severity"] == "error"]


@pytest.mark.parametrize("setting", ["counts", "min_df=2", "binary", "tfidf"])
def test_a_length_stacked_beside_the_words_of_a_sparse_matrix_is_linted_as_a_table_column(setting):
    # A document's length in characters and in tokens, stacked after the vectorizer's columns with no names
    # declared as words: no word outweighs the rest of its own document, so they are table columns. The oracle
    # is the same matrix with its words declared (words=the vocabulary).
    vectorizer, _ = SETTINGS[setting]
    names = [str(w) for w in vectorizer.fit(DOCS).get_feature_names_out()]
    meta = np.column_stack([[len(d) for d in DOCS], [len(d.split()) for d in DOCS]])
    X = sparse.hstack([vectorizer.transform(DOCS), sparse.csr_matrix(meta)], format="csr")
    columns = [*names, "doc_length", "doc_tokens"]
    assert context(X, Y, feature_names=columns).term_columns == frozenset(names)
    read = table_findings(nblint.check(X, Y, feature_names=columns))
    assert read == table_findings(nblint.check(X, Y, feature_names=columns, words=names))
    assert any({"doc_length", "doc_tokens"} <= set(f["columns"]) for f in read)  # (collinear: NB104, as a table)


@settings(deadline=None, derandomize=True)
@given(st.lists(st.integers(0, 10**6), max_size=40), st.integers(0, 60))
def test_the_median_beside_left_out_empty_columns_is_numpys_median_of_the_whole(values, zeros):
    # A hashed matrix's empty buckets are left out of its columns and counted: the typical word's
    # frequency must be the one np.median gives with every empty bucket present, to the bit.
    if not values and not zeros:
        return
    whole = np.concatenate([np.asarray(values, dtype=np.int64), np.zeros(zeros, dtype=np.int64)])
    assert median_beside_zeros(np.asarray(values, dtype=np.int64), zeros) == float(np.median(whole))
