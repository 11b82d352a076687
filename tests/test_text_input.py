"""From documents in: raw documents through check_pipeline, and a text column through ``--text``.

Every test compares two routes to the same matrix -- the documents through nblint, and
scikit-learn's own vectorizer output through ``nblint.check(X, y, feature_names=..., words=True)``
(declared a block of words, as a vectorizer's output is) -- and never today's counts of
findings, which the wide-table work may change.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from missing_module import cli_here as run_cli
from missing_module import cli_without

import nblint

pytest.importorskip("sklearn")
from sklearn.base import clone  # noqa: E402
from sklearn.exceptions import NotFittedError  # noqa: E402
from sklearn.feature_extraction.text import (  # noqa: E402
    CountVectorizer,
    HashingVectorizer,
    TfidfTransformer,
    TfidfVectorizer,
)
from sklearn.naive_bayes import BernoulliNB, ComplementNB, MultinomialNB  # noqa: E402
from sklearn.pipeline import make_pipeline  # noqa: E402
from sklearn.utils.validation import check_is_fitted  # noqa: E402

COMMON = [f"word{i}" for i in range(30)]
TOPIC = {"spam": ["cheap", "pills", "offer", "winner", "free"], "ham": ["meeting", "noon", "lunch", "report", "agenda"]}


def corpus(n: int = 240, seed: int = 7) -> tuple[list[str], list[str]]:
    """``n`` short documents from a fixed vocabulary; each class draws a few words of its own topic.

    Common words follow a Zipf-like law, so some are rare; a few documents are empty.
    """
    rng = np.random.default_rng(seed)
    weights = 1.0 / np.arange(1, len(COMMON) + 1)
    docs, labels = [], []
    for i in range(n):
        label = "spam" if i % 3 == 0 else "ham"
        words = list(rng.choice(COMMON, size=rng.integers(0, 7), p=weights / weights.sum()))
        words += list(rng.choice(TOPIC[label], size=rng.integers(0, 3)))
        rng.shuffle(words)
        docs.append(" ".join(words).title() if i % 5 == 0 else " ".join(words))  # (case folds away)
        labels.append(label)
    docs[4] = docs[17] = ""  # empty documents are documents too
    return docs, labels


DOCS, Y = corpus()


def table_findings(report) -> list[dict]:
    """The findings on the table (the pipeline's own come first, path ``<pipeline>``), path aside."""
    return [{k: v for k, v in f.to_dict().items() if k != "path"} for f in report if f.path != "<pipeline>"]


def matrix_findings(vectorizer, docs, y, **kwargs) -> list[dict]:
    """What ``nblint.check`` says of the matrix scikit-learn makes of ``docs``, with the vocabulary as names."""
    X = vectorizer.fit_transform(docs)
    return table_findings(nblint.check(X, y, feature_names=vectorizer.get_feature_names_out(), words=True, **kwargs))


def as_counts(findings: list[dict]) -> list[dict]:
    """The findings with NB209's reading of the documents left out (the matrix alone cannot read them).

    From the documents, NB209 says which of the vectorizer's steps made copies one; from the matrix,
    that the documents may differ in what the vectorizer dropped. Everything else is the same.
    """
    out = []
    for f in findings:
        if f["code"] == "NB209" and "made_identical_by" in f["evidence"]:
            f = {
                **f,
                "evidence": {
                    k: v
                    for k, v in f["evidence"].items()
                    if k not in ("same_text_sets", "made_identical_by", "vectorized_sets", "by_step")
                },
            }
        if f["code"] == "NB209" and "repeat" in f["message"]:
            f = {**f, "message": f["message"].split(";")[0].split(" (identical as counts")[0]}
        out.append(f)
    return out


def params(obj) -> str:
    return repr(sorted((k, repr(v)) for k, v in obj.get_params(deep=True).items()))


# --------------------------------------------------------------------------- check_pipeline on documents


@pytest.mark.parametrize(
    "vectorizer, model, declared",
    [
        (CountVectorizer(), MultinomialNB(), {"model": "multinomial", "alpha": 1.0}),
        (CountVectorizer(min_df=2), MultinomialNB(alpha=0.5), {"model": "multinomial", "alpha": 0.5}),
        (TfidfVectorizer(), ComplementNB(), {"model": "complement", "alpha": 1.0}),
        (CountVectorizer(binary=True), BernoulliNB(), {"model": "bernoulli", "alpha": 1.0}),
        (make_pipeline(CountVectorizer(), TfidfTransformer()), MultinomialNB(), {"model": "multinomial", "alpha": 1.0}),
    ],
    ids=["counts", "min_df-alpha", "tfidf-complement", "binary-bernoulli", "nested-tfidf"],
)
def test_raw_documents_are_linted_as_the_vectorizers_matrix(vectorizer, model, declared):
    pipe = make_pipeline(clone(vectorizer), clone(model))
    expected = matrix_findings(clone(vectorizer), DOCS, Y, **declared)
    assert expected  # (the comparison below is between two non-empty reports)
    found = table_findings(nblint.check_pipeline(pipe, DOCS, Y))
    assert as_counts(found) == as_counts(expected)  # not fitted: nblint fits a clone
    fitted = make_pipeline(clone(vectorizer), clone(model)).fit(DOCS, Y)
    assert table_findings(nblint.check_pipeline(fitted, DOCS, Y)) == found  # fitted: applied
    copies = [f for f in found if f["code"] == "NB209" and "repeat" in f["message"]]
    assert all("made_identical_by" in f["evidence"] for f in copies)  # (the documents are read where they are given)


@pytest.mark.parametrize(
    "docs",
    [tuple(DOCS), np.array(DOCS), np.array(DOCS, dtype=object), pd.Series(DOCS, name="body")],
    ids=["tuple", "str-array", "object-array", "series"],
)
def test_every_kind_of_document_list_is_read_alike(docs):
    expected = table_findings(nblint.check_pipeline(make_pipeline(CountVectorizer(), MultinomialNB()), DOCS, Y))
    report = nblint.check_pipeline(make_pipeline(CountVectorizer(), MultinomialNB()), docs, Y)
    assert table_findings(report) == expected


def test_the_users_pipeline_is_not_changed():
    pipe = make_pipeline(make_pipeline(CountVectorizer(), TfidfTransformer()), MultinomialNB())
    before, docs = params(pipe), list(DOCS)
    nblint.check_pipeline(pipe, DOCS, Y)
    assert params(pipe) == before and DOCS == docs
    for step in (pipe[0][0], pipe[0][1], pipe[-1]):
        with pytest.raises(NotFittedError):
            check_is_fitted(step)
    fitted = make_pipeline(CountVectorizer(), MultinomialNB()).fit(DOCS[:100], Y[:100])
    vocabulary, counts = dict(fitted[0].vocabulary_), fitted[-1].feature_count_.copy()
    nblint.check_pipeline(fitted, DOCS, Y)
    assert fitted[0].vocabulary_ == vocabulary and np.array_equal(fitted[-1].feature_count_, counts)


def test_a_fitted_vectorizer_is_applied_with_its_own_vocabulary():
    vectorizer = CountVectorizer().fit(DOCS[:60])  # fitted on other documents: words of the rest are unknown
    pipe = make_pipeline(vectorizer, MultinomialNB()).fit(DOCS[:60], Y[:60])
    expected = nblint.check(
        vectorizer.transform(DOCS),
        Y,
        feature_names=vectorizer.get_feature_names_out(),
        model="multinomial",
        alpha=1.0,
        words=True,
    )
    report = nblint.check_pipeline(pipe, DOCS, Y)
    assert as_counts(table_findings(report)) == as_counts(table_findings(expected))
    assert set(CountVectorizer().fit(DOCS).vocabulary_) - set(vectorizer.vocabulary_)  # (the test has teeth)


def test_hashed_columns_are_named_by_bucket_and_the_empty_buckets_left_out():
    pipe = make_pipeline(HashingVectorizer(n_features=2**12, alternate_sign=False), MultinomialNB())
    X = HashingVectorizer(n_features=2**12, alternate_sign=False).transform(DOCS)
    filled = np.flatnonzero(np.diff(X.tocsc().indptr))
    expected = nblint.check(
        X[:, filled], Y, feature_names=[f"hash_{j}" for j in filled], model="multinomial", alpha=1.0, words=True
    )
    report = nblint.check_pipeline(pipe, DOCS, Y)
    note = [f for f in report if f.code == "NB106" and "HashingVectorizer" in f.message]
    assert len(note) == 1 and f"{2**12 - len(filled):,} of {2**12:,} buckets" in note[0].message
    # (NB106 says the HashingVectorizer note and the words left out of VIF as one finding)
    assert [f for f in as_counts(table_findings(report)) if f["code"] != "NB106"] == [
        f for f in as_counts(table_findings(expected)) if f["code"] != "NB106"
    ]


def test_documents_into_steps_that_are_not_text_still_say_nblint_could_not_apply_them():
    from sklearn.preprocessing import FunctionTransformer

    pipe = make_pipeline(CountVectorizer(), FunctionTransformer(), MultinomialNB())
    assert "NB511" in nblint.check_pipeline(pipe, DOCS, Y).codes()
    assert "NB511" in nblint.check_pipeline(make_pipeline(CountVectorizer(), MultinomialNB()), [1, 2] * 120, Y).codes()


# --------------------------------------------------------------------------- --text on a table


def write_table(tmp_path: Path, frame: pd.DataFrame, suffix: str) -> Path:
    path = tmp_path / f"docs{suffix}"
    if suffix == ".parquet":
        frame.to_parquet(path, index=False)
    else:
        frame.to_csv(path, index=False)
    return path


def cli_findings(*args: str) -> list[dict]:
    result = run_cli("check", "--format", "json", "--exit-zero", *args)
    assert result.returncode == 0, result.stderr
    return [{k: v for k, v in f.items() if k != "path"} for f in json.loads(result.stdout)]


def same_as_the_matrix(cli: list[dict], api: list[dict]) -> bool:
    """The CLI's findings are the API's on the vectorizer's matrix, but for what only the documents tell.

    With ``--text`` nblint has the documents themselves, so NB209 also says which identical rows are
    the same text and which became identical in vectorizing (the matrix alone cannot): its message
    and evidence may say more; the rows it points at, its code and severity are the same.
    """

    def core(findings: list[dict]) -> list[dict]:
        return [
            {k: v for k, v in f.items() if f["code"] != "NB209" or k not in ("message", "evidence")} for f in findings
        ]

    told = [f for f in cli if f["code"] == "NB209"]
    return core(cli) == core(api) and (not told or any("same text" in f["message"] for f in told))


@pytest.mark.slow
@pytest.mark.parametrize("suffix", [".csv", ".parquet"])
@pytest.mark.parametrize("model", [None, "multinomial"])
def test_text_column_is_linted_as_the_api_lints_the_same_documents(tmp_path, suffix, model):
    path = write_table(tmp_path, pd.DataFrame({"body": DOCS, "label": Y}), suffix)
    declared = {"model": model} if model else {}
    expected = matrix_findings(CountVectorizer(), DOCS, Y, **declared)
    assert expected
    options = ["--model", model] if model else []
    assert same_as_the_matrix(cli_findings(str(path), "--target", "label", "--text", "body", *options), expected)


def test_the_config_key_reads_the_text_column(tmp_path):
    path = write_table(tmp_path, pd.DataFrame({"body": DOCS, "label": Y}), ".csv")
    (tmp_path / "nblint.toml").write_text('target = "label"\ntext = "body"\n')
    assert same_as_the_matrix(cli_findings(str(path)), matrix_findings(CountVectorizer(), DOCS, Y))


@pytest.mark.slow
def test_other_numeric_columns_are_kept_beside_the_words(tmp_path):
    rng = np.random.default_rng(3)
    channel = rng.choice(["web", "app", "phone"], len(DOCS))
    frame = pd.DataFrame({"body": DOCS, "label": Y, "author": rng.choice(["ann", "bob"], len(DOCS))})
    for level in ("web", "app", "phone"):
        frame[f"channel_{level}"] = (channel == level).astype(int)
    found = cli_findings(str(write_table(tmp_path, frame, ".csv")), "--target", "label", "--text", "body")
    groups = [f["columns"] for f in found if f["code"] == "NB101"]
    assert groups == [["channel_app", "channel_phone", "channel_web"]]  # the metadata group, found exactly
    notes = [f["message"] for f in found if f["code"] == "NB106"]
    assert not any("'author'" in note for note in notes)  # linted beside the words (issue 34), not left out


@pytest.mark.slow
def test_a_metadata_leak_beside_the_words_is_still_found(tmp_path):
    """Issue 34: a posting client that names the class, a text column beside --text's words, is linted."""
    rng = np.random.default_rng(4)
    client = np.where(np.asarray(Y) == Y[0], "TweetDeck", rng.choice(["web", "android"], len(DOCS)))
    frame = pd.DataFrame({"body": DOCS, "label": Y, "client": client})
    found = cli_findings(str(write_table(tmp_path, frame, ".csv")), "--target", "label", "--text", "body")
    leaks = [f for f in found if f["code"] in ("NB202", "NB208") and f["columns"] == ["client"]]
    assert leaks and all(f["severity"] == "warning" for f in leaks)
    assert not [f for f in found if f["code"] == "NB106" and "'client'" in f["message"]]
    # the words' findings are those of the documents alone: the client adds its own, nothing else
    alone = cli_findings(
        str(write_table(tmp_path, frame.drop(columns="client"), ".csv")), "--target", "label", "--text", "body"
    )
    assert [f for f in found if "client" not in f["columns"]] == alone


def test_a_column_of_documents_without_text_gets_the_hint(tmp_path):
    """Issue 34: documents read as one value per row say how to lint their words."""
    docs = [f"{doc} and a few more words here" for doc in DOCS]
    path = write_table(tmp_path, pd.DataFrame({"body": docs, "label": Y}), ".csv")
    notes = [f["message"] for f in cli_findings(str(path), "--target", "label") if f["code"] == "NB106"]
    assert any("--text body" in note for note in notes)
    shown = run_cli("columns", str(path), "--target", "label", "--format", "json")
    why = {row["column"]: row["why"] for row in json.loads(shown.stdout)}
    assert "--text body" in why["body"]


@pytest.mark.slow
def test_columns_and_impact_take_text(tmp_path):
    rng = np.random.default_rng(5)
    frame = pd.DataFrame({"body": DOCS, "label": Y, "client": rng.choice(["web", "app", "mail"], len(DOCS))})
    quarter = rng.integers(0, 3, len(DOCS))
    for level in range(3):
        frame[f"len_q{level}"] = (quarter == level).astype(int)
    path = str(write_table(tmp_path, frame, ".csv"))
    shown = run_cli("columns", path, "--target", "label", "--text", "body", "--format", "json")
    assert shown.returncode == 0, shown.stderr
    rows = {row["column"]: row for row in json.loads(shown.stdout)}
    assert set(rows) == {"body", "label", "client", "len_q0", "len_q1", "len_q2"}  # the words are one row
    assert (rows["body"]["kind"], rows["body"]["model"]) == ("count", "multinomial")
    assert rows["client"]["kind"] == "categorical" and rows["len_q0"]["kind"] == "group-member"
    measured = run_cli("impact", path, "--target", "label", "--text", "body", "--format", "json")
    assert measured.returncode == 0, measured.stderr
    assert "len_q0" in measured.stdout


@pytest.mark.slow
def test_a_word_spelt_like_a_column_is_prefixed(tmp_path):
    frame = pd.DataFrame({"body": DOCS, "label": Y, "noon": np.arange(len(DOCS)) % 2})
    found = cli_findings(str(write_table(tmp_path, frame, ".csv")), "--target", "label", "--text", "body")
    columns = {c for f in found for c in f["columns"]}
    assert "body:noon" in columns


@pytest.mark.slow
def test_a_missing_text_column_is_one_error_line_and_the_other_files_are_linted(tmp_path):
    good = write_table(tmp_path, pd.DataFrame({"body": DOCS, "label": Y}), ".csv")
    bad = tmp_path / "other.csv"
    pd.DataFrame({"text": DOCS, "label": Y}).to_csv(bad, index=False)
    result = run_cli("check", "--format", "json", str(good), str(bad), "--target", "label", "--text", "body")
    assert result.returncode == 2
    assert result.stderr.splitlines() == [f"{bad}: error: text column 'body' not found (columns: 'text', 'label')"]
    assert {f["path"] for f in json.loads(result.stdout)} == {str(good)}


@pytest.mark.slow
def test_a_column_with_no_words_is_one_error_line(tmp_path):
    path = write_table(tmp_path, pd.DataFrame({"body": ["", "a", "b c"] * 10, "label": [0, 1, 1] * 10}), ".csv")
    result = run_cli("check", str(path), "--target", "label", "--text", "body")
    assert result.returncode == 2 and len(result.stderr.splitlines()) == 1
    assert result.stderr.startswith(f"{path}: error: text column 'body' holds no words")


def test_without_scikit_learn_text_is_one_line_saying_what_to_install(tmp_path):
    """scikit-learn is a dependency: missing, it is a broken install, still said in one line that installs it."""
    path = write_table(tmp_path, pd.DataFrame({"body": DOCS, "label": Y}), ".csv")
    result = cli_without("sklearn", "check", str(path), "--target", "label", "--text", "body")
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        "nblint check: error: --text needs scikit-learn, which naive-bayes-lint requires and is not installed here: "
        "pip install scikit-learn"
    ]
    assert result.stdout == ""


def test_readme_text_snippet_is_the_matrix_route(monkeypatch):
    import re

    page = (Path(__file__).resolve().parent.parent / "docs" / "text.md").read_text()
    (snippet,) = [b for b in re.findall(r"```python\n(.*?)```", page, flags=re.S) if "CountVectorizer()" in b]
    namespace: dict = {}
    exec(compile(snippet, "docs/text.md", "exec"), namespace)
    vectorizer = CountVectorizer()
    X = vectorizer.fit_transform(namespace["docs"])
    expected = nblint.check(
        X,
        namespace["labels"],
        feature_names=vectorizer.get_feature_names_out(),
        model="multinomial",
        alpha=1.0,
        words=True,
    )
    assert as_counts(table_findings(namespace["report"])) == as_counts(table_findings(expected)) != []


def _small_vocabulary(tmp_path: Path) -> list[str]:
    """The options that read this corpus's vocabulary of 40 words as a document-term block."""
    config = tmp_path / "nblint.toml"
    config.write_text("[NB209]\nterm-block = 20\n")
    return ["--target", "label", "--text", "body", "--config", str(config)]


@pytest.mark.slow
def test_documents_identical_only_after_vectorizing_say_which_step_made_them_one(tmp_path):
    """Issue 34: NB209 tells copies of a text from documents that only the vectorizer made alike."""
    docs = list(DOCS) + ["Win a FREE cruise now", "win a free cruise now", "cruise now, win: a free"]
    labels = list(Y) + [Y[0], Y[1], Y[0]]
    path = write_table(tmp_path, pd.DataFrame({"body": docs, "label": labels}), ".csv")
    found = [f for f in cli_findings(str(path), *_small_vocabulary(tmp_path)) if f["code"] == "NB209"]
    copies = [f for f in found if "sets" in f["evidence"]]
    assert len(copies) == 1
    steps = copies[0]["evidence"]["made_identical_by"]
    # "Win a FREE ..." and "win a free ..." differ in case; "cruise now, win: a free" in word order too
    assert steps.get("word order", 0) >= 1 and "identical only in vectorizing" in copies[0]["message"]
    assert "(0-based positions" in copies[0]["message"]


@pytest.mark.slow
def test_empty_documents_are_one_finding_with_their_classes(tmp_path):
    """Issue 34: empty documents, all in one class beyond chance, are a warning naming the class."""
    filled = [doc or "word0" for doc in DOCS]  # (the corpus's own two empty documents filled)
    docs = filled + [""] * 12
    labels = list(Y) + [Y[0]] * 12
    path = write_table(tmp_path, pd.DataFrame({"body": docs, "label": labels}), ".csv")
    empty = [
        f
        for f in cli_findings(str(path), *_small_vocabulary(tmp_path))
        if "empty_rows" in f["evidence"] and f["code"] == "NB209" and "sets" not in f["evidence"]
    ]
    assert [(f["severity"], f["evidence"]["by_class"]) for f in empty] == [("warning", {str(Y[0]): 12})]
    assert empty[0]["evidence"]["example_positions"][0] == len(DOCS)  # 0-based: the first empty one
    # spread over the classes as the rows are, they are information only
    spread = filled + [""] * 12
    spread_labels = list(Y) + list(Y[:12])
    path = write_table(tmp_path, pd.DataFrame({"body": spread, "label": spread_labels}), ".csv")
    empty = [
        f
        for f in cli_findings(str(path), *_small_vocabulary(tmp_path))
        if f["code"] == "NB209" and "by_class" in f["evidence"]
    ]
    assert [f["severity"] for f in empty] == ["info"]
