"""Wide sparse data (issue 21): findings scale with problems, chance is not structure, text event models.

The corpus is generated: documents of Zipf-distributed words whose frequencies depend on
the class, as a CountVectorizer would give them, with planted copies of documents and
planted metadata groups. The real corpora (20 Newsgroups, Reuters) are in
tests/real_text.
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner
from scipy import sparse
from sklearn.feature_extraction.text import CountVectorizer

import nblint
from nblint.cli import main
from nblint.engine.rule import LISTED_TERMS
from nblint.report.summary import statistics

N_DOCS, N_WORDS = 600, 400
#: A vocabulary of 400 words is small: the term block is declared at 100 columns (NB209's option).
TEXT = {"NB209": {"term-block": 100}}


def corpus(seed: int = 0):
    """A count matrix (CSR), its word names and classes: each class favours its own slice of the vocabulary."""
    rng = np.random.default_rng(seed)
    y = np.repeat(["sport", "tech", "food"], N_DOCS // 3)
    ranks = np.arange(1, N_WORDS + 1)
    rows = []
    for label in y:
        weights = 1.0 / ranks**1.1
        shift = {"sport": 0, "tech": 1, "food": 2}[label]
        weights[shift::3] *= 3.0  # the class's own words
        weights /= weights.sum()
        length = rng.integers(5, 40)
        rows.append(np.bincount(rng.choice(N_WORDS, size=length, p=weights), minlength=N_WORDS))
    X = np.array(rows)
    X[5] = X[4]  # a copy with the same label
    y = y.copy()
    X[N_DOCS - 1] = X[0]  # a copy under another label ('food' against 'sport')
    names = [f"word{i:03d}" for i in range(N_WORDS)]
    return sparse.csr_matrix(X), names, y


def codes(report) -> list[str]:
    return [f.code for f in report.findings]


def test_a_rule_that_fires_on_many_columns_says_it_once_with_every_instance_counted():
    X, names, y = corpus()
    wide = nblint.check(X, y, feature_names=names, model="multinomial", select=["NB201"], options=TEXT)
    per_column = nblint.check(
        X,
        y,
        feature_names=names,
        model="multinomial",
        select=["NB201"],
        options={"NB201": {"summarize-above": 10**6}, **TEXT},
    )
    assert len(per_column.findings) > 50  # the oracle: one finding per column, as on a narrow table
    assert len(wide.findings) == 1
    summary = wide.findings[0]
    assert summary.evidence["instances"] == len(per_column.findings)
    assert sorted(summary.columns) == sorted(f.columns[0] for f in per_column.findings)
    # The words' costliest listed (bounded: a vocabulary of a million words is not a million entries),
    # each with its cost, the rows its zero cells veto, costliest first; the finding names every word.
    listed = summary.evidence["columns"]
    cost = {f.columns[0]: f.evidence["vetoed_rows"] for f in per_column.findings}
    assert len(listed) == min(LISTED_TERMS, len(cost)) < len(cost)
    assert all(cost[c["column"]] == c["cost"] for c in listed)
    assert [c["cost"] for c in listed] == sorted(cost.values(), reverse=True)[: len(listed)]
    assert f"{len(per_column.findings):,} of {N_WORDS:,} features" in summary.message
    # --statistics counts the instances, not the one finding
    assert statistics(wide.findings)[0]["count"] == len(per_column.findings)


def test_alpha_zero_with_unseen_word_class_cells_is_one_error():
    X, names, y = corpus()
    report = nblint.check(X, y, feature_names=names, model="multinomial", alpha=0, options=TEXT)
    errors = [f for f in report.findings if str(f.severity) == "error"]
    assert [f.code for f in errors] == ["NB201"]
    assert "vetoes its class" in errors[0].message


@pytest.mark.parametrize("form", ["counts", "tfidf"])
def test_a_text_model_over_a_bag_of_words_is_at_most_one_info_per_table(form):
    X, names, y = corpus()
    if form == "tfidf":
        from sklearn.feature_extraction.text import TfidfTransformer

        X = TfidfTransformer().fit_transform(X)
    bernoulli = nblint.check(X, y, feature_names=names, model="bernoulli", options=TEXT)
    nb301 = [f for f in bernoulli.findings if f.code == "NB301"]
    assert len(nb301) == 1 and str(nb301[0].severity) == "info"
    assert "word presence" in nb301[0].message
    multinomial = nblint.check(X, y, feature_names=names, model="multinomial", options=TEXT)
    nb303 = [f for f in multinomial.findings if f.code == "NB303"]
    assert len(nb303) == (1 if form == "tfidf" else 0)
    assert all(str(f.severity) == "info" for f in nb303)
    assert "NB308" not in codes(multinomial)  # words seen at most once per document are still counts


def test_a_lone_count_under_bernoulli_is_still_an_error():
    frame = pd.DataFrame({"visits": [0, 12, 3, 1, 0, 7] * 5, "member": [0, 1] * 15, "y": list("ab") * 15})
    report = nblint.check(frame, target="y", model="bernoulli", options=TEXT)
    assert [(f.code, str(f.severity)) for f in report.findings if f.code == "NB301"] == [("NB301", "error")]


def test_words_seen_once_in_one_document_are_not_identical_columns_or_a_group():
    X, names, y = corpus()
    X = sparse.hstack([X, sparse.csr_matrix((N_DOCS, 3))]).tolil()
    X[7, N_WORDS] = X[7, N_WORDS + 1] = X[7, N_WORDS + 2] = 1  # three rare words, seen once, in one document
    full = X.tocsr()
    words = names + ["zephyr", "quokka", "brisket"]  # no shared stem: nothing says they encode one variable
    report = nblint.check(full, y, feature_names=words, options=TEXT)
    assert not {"NB101", "NB102", "NB105", "NB401"} & set(codes(report))


def test_metadata_groups_beside_the_words_are_still_found_exactly():
    X, names, y = corpus()
    rng = np.random.default_rng(1)
    quarter = rng.integers(0, 4, N_DOCS)
    onehot = np.eye(4, dtype=int)[quarter]
    source = rng.choice(3, N_DOCS, p=[0.5, 0.3, 0.2])
    dummies = np.eye(3, dtype=int)[source][:, 1:]
    full = sparse.hstack([X, sparse.csr_matrix(onehot), sparse.csr_matrix(dummies)]).tocsr()
    meta = ["length_Q1", "length_Q2", "length_Q3", "length_Q4", "source_b", "source_c"]
    report = nblint.check(full, y, feature_names=names + meta, options=TEXT)
    groups = {f.code: sorted(f.columns) for f in report.findings if f.code in ("NB101", "NB102")}
    assert groups.get("NB101") == meta[:4]


def test_in_a_dense_file_the_frequent_words_of_a_count_block_are_words(tmp_path):
    """A word in most documents ('the') is a term of the block, not a categorical column of its own."""
    X, names, y = corpus()
    frame = pd.DataFrame(X.toarray(), columns=names)
    rng = np.random.default_rng(2)
    frame["the"] = rng.poisson(6, N_DOCS)  # in nearly every document, up to ~15 times
    frame.loc[0, "the"] = 0
    frame["is_reply"] = (rng.random(N_DOCS) < 0.7).astype(int)  # an indicator as frequent: not a word
    frame["y"] = y
    path = tmp_path / "docs.csv"
    frame.to_csv(path, index=False)
    (tmp_path / "nblint.toml").write_text('target = "y"\n[NB209]\nterm-block = 100\n')
    shown = CliRunner().invoke(
        main, ["columns", str(path), "--config", str(tmp_path / "nblint.toml"), "--format", "json"]
    )
    why = {row["column"]: row["why"] for row in json.loads(shown.stdout)}
    assert why["the"].startswith("a word of a document-term block") and why["word000"] == why["the"]
    assert not why["is_reply"].startswith("a word")
    report = nblint.check(str(path), target="y", options=TEXT)
    assert not [f for f in report.findings if f.columns == ["the"]]  # no NB203 of its own


def test_identical_documents_are_found_and_the_ones_with_two_labels_said(tmp_path):
    X, names, y = corpus()
    report = nblint.check(X, y, feature_names=names, options=TEXT)
    found = [f for f in report.findings if f.code == "NB209"]
    assert len(found) == 1
    assert found[0].evidence["sets"] == 2 and found[0].evidence["conflicting_sets"] == 1
    assert found[0].rows[:2] == [1, N_DOCS]  # the conflicting copies first
    # the same table as a CSV file, its columns reversed: the same finding
    frame = pd.DataFrame(X.toarray(), columns=names).iloc[:, ::-1]
    frame["y"] = y
    path = tmp_path / "docs.csv"
    frame.to_csv(path, index=False)
    from_file = [f for f in nblint.check(str(path), target="y", options=TEXT).findings if f.code == "NB209"]
    assert [f.evidence for f in from_file] == [found[0].evidence]


# ------------------------------------------------------------------ issue 34: leakage means leakage


def _vectorized(form: str, planted: str | None = None):
    """The corpus as documents again, vectorized by scikit-learn as ``form``; ``planted`` added to every 'tech' one."""
    from sklearn.feature_extraction.text import CountVectorizer, TfidfVectorizer

    X, names, y = corpus()
    docs = [" ".join(np.repeat(names, row)) for row in X.toarray()]
    if planted:
        docs = [f"{doc} {planted}" if label == "tech" else doc for doc, label in zip(docs, y)]
    vectorizer = {
        "counts": CountVectorizer(),
        "binary": CountVectorizer(binary=True),
        "tfidf": TfidfVectorizer(),
    }[form]
    return vectorizer.fit_transform(docs), list(vectorizer.get_feature_names_out()), y


@pytest.mark.parametrize("form", ["counts", "binary", "tfidf"])
def test_a_token_in_every_document_of_one_class_gives_it_away_under_every_vectorizer(form):
    X, names, y = _vectorized(form, planted="zzfooter")
    report = nblint.check(X, y, feature_names=names, options=TEXT)
    found = [f for f in report.findings if f.code == "NB202" and "zzfooter" in f.columns]
    assert [(str(f.severity), f.columns) for f in found] == [("warning", ["zzfooter"])]
    (word,) = found[0].evidence["words"]
    assert (word["share"], word["elsewhere"], found[0].evidence["class"]) == (1.0, 0, "tech")
    assert "100% of them" in found[0].message


@pytest.mark.parametrize("form", ["counts", "binary", "tfidf"])
def test_class_vocabulary_is_at_most_one_info_and_the_clean_corpus_has_no_giveaway(form):
    X, names, y = _vectorized(form)
    rng = np.random.default_rng(3)
    # a word of a few dozen 'food' documents only: what a class's own vocabulary looks like
    extra = sparse.csr_matrix((rng.random(N_DOCS) < 0.2) & (y == "food"), dtype=X.dtype).T
    report = nblint.check(sparse.hstack([X, extra]).tocsr(), y, feature_names=names + ["zzrecipe"], options=TEXT)
    nb202 = [f for f in report.findings if f.code == "NB202"]
    assert [str(f.severity) for f in nb202] == ["info"]
    assert "zzrecipe" in nb202[0].columns and nb202[0].evidence["per_class"] == {"food": 1}


def test_a_giveaway_needs_most_of_its_class_and_nearly_none_of_the_others():
    """The module's definition, against scipy's hypergeometric tail as the chance's oracle."""
    from scipy.stats import hypergeom

    from nblint.structure.giveaways import at_least, class_vocabulary

    class_rows = np.array([100, 300])
    presence = np.array(
        [
            [90, 40, 60, 100],  # in 90%, 40%, 60%, 100% of class 0
            [0, 0, 30, 10],  # in none, none, 10% (too many), 3.3% (more than 1% of its documents elsewhere)
        ]
    )
    found = class_vocabulary(["a", "b", "c", "d"], presence, class_rows, 0.5, 0.99, 5, 0.01)
    assert [(w.column, w.klass) for w in found.giveaways] == [("a", 0)]
    assert [w.column for w in found.specific] == ["b"]
    for present, n, n_c, d in [(90, 400, 100, 90), (7, 50, 10, 12), (3, 20, 5, 4)]:
        assert at_least(present, n, n_c, d) == pytest.approx(hypergeom.sf(present - 1, n, n_c, d), rel=1e-9)


# ------------------------------------------------------------------ issue 34: one finding per problem


@pytest.mark.parametrize("model,severity", [("multinomial", "error"), ("complement", "error"), (None, "warning")])
def test_negative_cells_in_a_block_of_words_are_one_finding(model, severity):
    X, names, y = corpus()
    X = X.astype(np.int64).tocsr(copy=True)
    cells = np.random.default_rng(6).choice(X.nnz, 40, replace=False)
    X.data[cells] *= -1
    words = len(np.unique(X.indices[cells]))
    report = nblint.check(X, y, feature_names=names, model=model, options=TEXT)
    found = [f for f in report.findings if f.code == "NB302"]
    assert [(str(f.severity), f.evidence["words"], f.evidence["negative_cells"]) for f in found] == [
        (severity, words, 40)
    ]
    assert len(found[0].columns) == words
    # the words stay words: no codes, no several event models, no findings per word
    assert not {"NB305", "NB308", "NB303"} & set(codes(report))
    # scikit-learn is the oracle of the error: it refuses the matrix
    if model is not None:
        from sklearn.naive_bayes import ComplementNB, MultinomialNB

        with pytest.raises(ValueError, match="[Nn]egative"):
            {"multinomial": MultinomialNB, "complement": ComplementNB}[model]().fit(X, y)


# ------------------------------------------------------------------ issue 34: chance is not structure


@pytest.mark.parametrize("documents", [[33], [10, 250], [10, 250, 400]])
def test_words_of_one_to_a_few_documents_are_not_duplicate_information_whatever_their_names(documents):
    """Two product codes of the same message or two, a two-word name: the documents' words, not an encoding."""
    X, names, y = corpus()
    extra = np.zeros((N_DOCS, 4), dtype=np.int64)
    extra[documents, 0] = extra[documents, 1] = 1  # codes sharing a stem
    extra[documents, 2] = extra[documents, 3] = 1  # a place name
    full = sparse.hstack([X, sparse.csr_matrix(extra)]).tocsr()
    report = nblint.check(full, y, feature_names=names + ["sku4411", "sku9032", "puerto", "rico"], options=TEXT)
    assert "NB105" not in codes(report)


def test_an_encoding_seen_in_enough_documents_is_still_duplicate_information():
    X, names, y = corpus()
    rng = np.random.default_rng(8)
    flag = (rng.random(N_DOCS) < 0.1).astype(np.int64)
    extra = np.column_stack([flag, flag])  # one flag written twice, on ~60 documents
    full = sparse.hstack([X, sparse.csr_matrix(extra)]).tocsr()
    report = nblint.check(full, y, feature_names=names + ["promo_flag", "promo_copy"], options=TEXT)
    found = [f.columns for f in report.findings if f.code == "NB105"]
    assert found == [["promo_copy", "promo_flag"]]


def test_most_of_a_class_must_be_shown_by_the_sample():
    """16 of 28 documents is 57%, but its 95% lower bound (40%) is not half: not yet a giveaway (statsmodels' oracle)."""
    from statsmodels.stats.proportion import proportion_confint

    from nblint.structure.giveaways import class_vocabulary, share_lower_bound

    for present, rows in [(16, 28), (30, 30), (1488, 2840), (3, 7)]:
        expected = proportion_confint(present, rows, alpha=0.1, method="beta")[0]
        assert share_lower_bound(present, rows) == pytest.approx(expected, rel=1e-9)
    presence = np.array([[16, 28], [0, 0]])  # in 16 and in all 28 of the class's documents, none elsewhere
    found = class_vocabulary(["bike", "footer"], presence, np.array([28, 28]), 0.5, 0.99, 5, 0.01)
    assert [w.column for w in found.giveaways] == ["footer"] and [w.column for w in found.specific] == ["bike"]


def _with_empty_rows(per_class: dict[str, int], seed: int = 3):
    """1,000 documents of 400 words (600 'a', 300 'b', 100 'c'), ``per_class`` of each class emptied."""
    rng = np.random.default_rng(seed)
    y = np.array(["a"] * 600 + ["b"] * 300 + ["c"] * 100)
    X = sparse.random(
        1000, 400, density=0.05, format="csr", random_state=seed, data_rvs=lambda k: rng.integers(1, 4, k)
    )
    keep = np.ones(1000)
    for label, count in per_class.items():
        keep[np.flatnonzero(y == label)[:count]] = 0
    X = sparse.diags(keep) @ X  # (the emptied rows' entries are multiplied away)
    X.eliminate_zeros()
    return X.tocsr(), [f"w{j}" for j in range(400)], y


def test_empty_documents_are_a_warning_only_where_a_class_holds_more_than_its_share():
    from scipy.stats import hypergeom

    def empty_finding(per_class):
        X, names, y = _with_empty_rows(per_class)
        (found,) = [
            f for f in nblint.check(X, y, feature_names=names, select=["NB209"]).findings if "empty" in f.message
        ]
        return found, X, y

    # spread in proportion to the classes (5% of each): noise, said once at info
    spread, _, _ = empty_finding({"a": 30, "b": 15, "c": 5})
    assert str(spread.severity) == "info"
    # 'b' holds 20 of the 25 with 30% of the rows: an artefact of how 'b' was collected
    uneven, X, y = empty_finding({"a": 5, "b": 20})
    assert str(uneven.severity) == "warning" and "'b'" in uneven.message
    empty = X.getnnz(axis=1) == 0
    oracle = hypergeom.sf(int(empty[y == "b"].sum()) - 1, len(y), int((y == "b").sum()), int(empty.sum())) * 3
    assert uneven.evidence["heaviest_class"] == "b"
    assert uneven.evidence["chance_heaviest"] == pytest.approx(min(1.0, oracle), rel=1e-9)


def test_an_empty_document_beside_metadata_is_still_empty():
    """Columns beside the words (a source, a length) do not fill a document with no word."""
    X, names, y = _with_empty_rows({"b": 20})
    source = (np.arange(1000) % 2).reshape(-1, 1)  # a 0/1 metadata column set on half the rows
    with_meta = sparse.hstack([X, sparse.csr_matrix(source)]).tocsr()
    report = nblint.check(with_meta, y, feature_names=[*names, "from_web"], words=names, select=["NB209"])
    (found,) = [f for f in report.findings if "empty" in f.message]
    assert found.evidence["empty_rows"] == 20 and found.evidence["by_class"] == {"b": 20}


# --------------------------------------------------------------------------- NB209: which step of a live vectorizer


def _made_identical_by(vectorizer, docs, y):
    from sklearn.naive_bayes import MultinomialNB
    from sklearn.pipeline import make_pipeline

    report = nblint.check_pipeline(make_pipeline(vectorizer, MultinomialNB()), docs, y, select=["NB209"])
    copies = [f for f in report.findings if f.code == "NB209" and "repeat" in f.message]
    assert len(copies) == 1
    return copies[0]


#: Filler documents, each different under every vectorizer below (each word in two of them, for min_df=2),
#: so that only the pair under test repeats.
_FILLER = [f"w{i} w{i + 1}" for i in range(40)]


@pytest.mark.parametrize(
    "make, pair, step",
    [
        (lambda: CountVectorizer(stop_words="english"), ["the cat sat here", "cat sat here"], "stop words"),
        (
            lambda: CountVectorizer(min_df=2),
            ["cat sat zqxjv", "cat sat"],
            "the vocabulary (min_df=2: terms outside it)",
        ),
        (lambda: CountVectorizer(), ["Cat Sat", "cat sat"], "lower-casing"),
        (lambda: CountVectorizer(lowercase=False), ["cat, sat", "cat sat"], "the token pattern"),
    ],
)
def test_nb209_says_which_step_of_the_pipelines_vectorizer_made_documents_one(make, pair, step):
    from sklearn.base import clone

    vectorizer = make()
    docs = _FILLER + [pair[0], pair[1], pair[1]]  # (the odd word of the first is in one document: min_df=2 drops it)
    y = ["a", "b"] * (len(_FILLER) // 2) + ["a", "b", "a"]
    # The oracle: scikit-learn's own analyzer and vocabulary make the pair one term sequence.
    fitted = clone(vectorizer).fit(docs)
    analyze = fitted.build_analyzer()
    assert [t for t in analyze(pair[0]) if t in fitted.vocabulary_] == [
        t for t in analyze(pair[1]) if t in fitted.vocabulary_
    ]
    finding = _made_identical_by(vectorizer, docs, y)
    (made_by,) = finding.evidence["made_identical_by"]  # (the one set of copies)
    assert made_by.startswith(step)
    assert step in finding.message


def test_nb209_reads_no_step_from_a_vectorizer_with_the_users_own_tokenizer():
    # A callable tokenizer is the user's code: never run by nblint, so no step is named.
    docs = _FILLER + ["the cat sat here", "cat sat here", "cat sat here"]
    y = ["a", "b"] * (len(_FILLER) // 2) + ["a", "b", "a"]
    finding = _made_identical_by(
        CountVectorizer(tokenizer=str.split, stop_words="english", token_pattern=None), docs, y
    )
    assert "made_identical_by" not in finding.evidence
    assert "may differ in what the vectorizer dropped" in finding.message


@pytest.mark.parametrize("seed", range(4))
def test_identical_words_are_chance_at_once_as_one_by_one(seed):
    # Sets of identical words (two words of one document, copies seen in more documents, a member that is
    # no word, an empty set) decided together are each what TermBlock.by_chance says of it alone.
    from nblint.testing import context

    rng = np.random.default_rng(seed)
    n, p = 400, 60
    X = sparse.random(n, p, density=0.03, random_state=seed, format="csc")
    X.data = np.ceil(4 * X.data)
    dense = X.toarray()
    for k, documents in zip(range(0, 20, 2), (1, 2, 3, 4, 6, 10, 20, 30, 40, 60)):  # pairs of identical words
        rows = rng.choice(n, size=documents, replace=False)
        dense[:, k] = dense[:, k + 1] = 0
        dense[rows, k] = dense[rows, k + 1] = 1
    names = [f"w{k}" for k in range(p)]
    ctx = context(sparse.csr_matrix(dense), rng.choice(["a", "b"], size=n), feature_names=names, words=True)
    sets = [[names[k], names[k + 1]] for k in range(0, 20, 2)] + [[names[30], names[31], names[32]], ["w0", "nope"], []]
    terms = ctx.terms
    assert terms.identical_by_chance(sets) == [terms.by_chance(s, "identical") for s in sets]
    assert True in terms.identical_by_chance(sets) and False in terms.identical_by_chance(sets)


# --------------------------------------------------------------------------- NB204: words in every document


def test_words_in_every_document_of_a_binary_vectorizer_are_one_info_finding_not_constant_column_warnings():
    """Long documents read as present/absent: 'the' and 'and' are in every one (issue 34 item 1: one finding per
    rule for the block). A word the same in every document carries no evidence, and is no flaw of the data."""
    rng = np.random.default_rng(204)
    topics = {"sport": ["goal", "match", "team", "score"], "food": ["salt", "bread", "oven", "taste"]}
    filler = [f"w{k}" for k in range(300)]
    docs, y = [], []
    for label, own in topics.items():
        for _ in range(60):
            words = ["the", "and"] + list(rng.choice(own, 3)) + list(rng.choice(filler, 12))
            docs.append(" ".join(rng.permutation(words)))
            y.append(label)
    vectorizer = CountVectorizer(binary=True, min_df=2)
    X = vectorizer.fit_transform(docs)
    names = list(vectorizer.get_feature_names_out())
    everywhere = sorted(names[j] for j in np.flatnonzero(X.getnnz(axis=0) == X.shape[0]))
    assert everywhere == ["and", "the"]  # (the oracle: scikit-learn's own matrix)
    report = nblint.check(X, np.array(y), feature_names=names, words=True)
    constant = [f for f in report.findings if f.code == "NB204"]
    assert [(str(f.severity), sorted(f.columns)) for f in constant] == [("info", everywhere)]
    assert "2 words of the document-term block are in every document (and, the)" in constant[0].message
    # The same matrix as a dense numpy array is read as the sparse one is: one block, its frequent words in it
    # (once, 'and' and 'the' were table columns there: constant-column warnings, VIF, per-column findings).
    dense = nblint.check(X.toarray(), np.array(y), feature_names=names)
    sparse_ = nblint.check(X, np.array(y), feature_names=names)
    assert [(f.code, str(f.severity), f.columns) for f in dense.findings] == [
        (f.code, str(f.severity), f.columns) for f in sparse_.findings
    ]
    assert "NB204" in dense.codes()
    # The counts of the same documents vary from document to document: no word is constant there.
    counts = CountVectorizer(min_df=2).fit_transform([d + " the and" * (i % 3) for i, d in enumerate(docs)])
    assert not [f for f in nblint.check(counts, np.array(y), words=True).findings if f.code == "NB204"]


# --------------------------------------------------------------------------- NB105: n-grams of one span


def test_character_ngrams_of_one_word_are_not_duplicate_information():
    """Character n-grams (and word n-grams) of one span are identical columns by construction: 'eh.' is only ever
    followed by the space that ends its word ('eh. '). Their names share a separator ('.'), which once read as an
    encoding's stem: NB105 warnings on every real corpus tried under analyzer='char_wb'."""
    from sklearn.feature_extraction.text import TfidfVectorizer

    rng = np.random.default_rng(105)
    filler = [f"w{k}q" for k in range(200)]
    docs = [
        " ".join(rng.choice(filler, 8))
        + (" eh." if i % 7 == 0 else "")
        + (" eh" if i % 5 == 1 else "")
        + (" beh." if i % 11 == 3 else "")
        + (" ah." if i % 4 == 2 else "")
        + (" ok." if i % 3 == 0 else "")
        for i in range(140)
    ]
    y = np.array(["a", "b"])[rng.integers(0, 2, len(docs))]
    vectorizer = TfidfVectorizer(analyzer="char_wb", ngram_range=(2, 4), min_df=2)
    X = vectorizer.fit_transform(docs)
    names = list(vectorizer.get_feature_names_out())
    present = {name: (X[:, j].toarray().ravel() > 0).tolist() for j, name in enumerate(names)}
    twins = [name for name in names if present[name] == present["eh."]]
    assert twins == ["eh.", "eh. "]  # (the oracle: the vectorizer's own columns; 'eh.' always ends its word)
    report = nblint.check(X, y, feature_names=names, select=["NB105"])  # (the block read from the values)
    assert not report.findings, [f.message for f in report.findings]


# --------------------------------------------------------------------------- NB102: bigrams of one first word


def test_bigrams_of_one_first_word_are_not_a_dummy_group():
    """CountVectorizer(ngram_range=(1, 2)) on earnings notices: a notice says 'net shr' or 'net oper', never both.
    The bigrams are exclusive and share their first word, which once read as the stem of a drop-first dummy
    group (Reuters R8: 'net oper', 'net shr', an NB102 warning and an NB401 measure among words)."""
    rng = np.random.default_rng(102)
    filler = [f"w{k}q" for k in range(300)]
    docs, y = [], []
    for i in range(400):
        words = list(rng.choice(filler, 10))
        if i % 2 == 0:
            words += ["net", "shr" if i % 4 == 0 else "oper", "profit"]
        docs.append(" ".join(words))
        y.append("earn" if i % 2 == 0 else "other")
    vectorizer = CountVectorizer(ngram_range=(1, 2), min_df=2)
    X = vectorizer.fit_transform(docs).tocsc()
    names = list(vectorizer.get_feature_names_out())
    shr, oper = (X[:, names.index(b)].toarray().ravel() > 0 for b in ("net shr", "net oper"))
    assert not (shr & oper).any() and shr.sum() == oper.sum() == 100  # (the oracle: exclusive in the matrix)
    report = nblint.check(X.tocsr(), np.array(y), feature_names=names)
    grouped = [f for f in report.findings if f.code in ("NB101", "NB102", "NB103", "NB107", "NB307", "NB401")]
    assert not grouped, [f.message for f in grouped]


def test_hashed_buckets_of_one_phrase_are_not_duplicate_information():
    """HashingVectorizer(ngram_range=(1, 2)): 'puerto', 'rico' and 'puerto rico' are three buckets set on the same
    documents. Their names, hash_<bucket>, share the stem every column of the block carries, which once read as an
    encoding's: NB105 warnings on every real corpus tried with hashed bigrams."""
    from sklearn.feature_extraction.text import HashingVectorizer

    rng = np.random.default_rng(7)
    filler = [f"w{k}q" for k in range(400)]
    docs = [" ".join(rng.choice(filler, 12)) + (" puerto rico" if i % 9 == 0 else "") for i in range(300)]
    y = np.array(["a", "b"])[rng.integers(0, 2, len(docs))]
    vectorizer = HashingVectorizer(ngram_range=(1, 2), alternate_sign=False, norm=None)
    X = vectorizer.transform(docs).tocsc()
    phrase = vectorizer.transform(["puerto rico"]).indices  # (the oracle: the phrase's own buckets)
    assert len(phrase) == 3 and all((X[:, j] != X[:, phrase[0]]).nnz == 0 for j in phrase)
    from sklearn.naive_bayes import MultinomialNB
    from sklearn.pipeline import make_pipeline

    report = nblint.check_pipeline(make_pipeline(vectorizer, MultinomialNB()), docs, y, select=["NB105"])
    assert not report.findings, [f.message for f in report.findings]  # (the buckets named hash_<bucket> there)


def test_bigrams_of_one_author_are_not_duplicate_information():
    """20 Newsgroups under CountVectorizer(ngram_range=(1, 2)): 'bakken writes' and 'bakken cs' (an author's
    attribution line and address) are set on the same posts. They share their first word, which once read as a
    stem: NB105 warnings on phrases, which are the vocabulary's, not an encoding's."""
    rng = np.random.default_rng(21)
    filler = [f"w{k}q" for k in range(400)] + ["writes", "cs"] * 20
    docs = [
        " ".join(rng.choice(filler, 12))
        + (f" bakken writes {' '.join(rng.choice(filler, 5))} bakken cs" if i % 25 == 0 else "")
        for i in range(400)
    ]
    y = np.array(["a", "b"])[rng.integers(0, 2, len(docs))]
    vectorizer = CountVectorizer(ngram_range=(1, 2), min_df=2)
    X = vectorizer.fit_transform(docs).tocsc()
    names = list(vectorizer.get_feature_names_out())
    writes, cs = (X[:, names.index(b)].toarray().ravel() for b in ("bakken writes", "bakken cs"))
    assert (writes == cs).all() and writes.sum() == 16  # (the oracle: the vectorizer's own columns)
    report = nblint.check(X.tocsr(), y, feature_names=names, select=["NB105"])
    assert not report.findings, [f.message for f in report.findings]
