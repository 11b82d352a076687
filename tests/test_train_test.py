"""A training table against its test or serving table (NB6xx, :mod:`nblint.run.pairing`).

Oracles: scikit-learn's CategoricalNB (``predict`` fails on a code past ``n_categories_``;
with ``alpha = 0`` a class's ``predict_proba`` is 0 on exactly the rows NB602 counts), and
the CLI's contract for bad input (one line, exit 2, the other files still linted).
"""

from __future__ import annotations

import json
import warnings

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

import nblint
from nblint.cli import main

sklearn = pytest.importorskip("sklearn")


def _codes(report, code):
    return [f for f in report if f.code == code]


def _categorical_pair(seed: int):
    """Integer-coded features, a training table whose every class has rows, and a test table drawn wider."""
    rng = np.random.default_rng(seed)
    n, m = 60, 40
    train = pd.DataFrame({"a": rng.integers(0, 3, n), "b": rng.integers(0, 4, n), "y": rng.integers(0, 2, n)})
    test = pd.DataFrame({"a": rng.integers(0, 3, m), "b": rng.integers(0, 4, m), "y": rng.integers(0, 2, m)})
    return train, test


def test_an_unseen_code_past_the_training_codes_is_an_error_because_categoricalnb_fails():
    from sklearn.naive_bayes import CategoricalNB

    train = pd.DataFrame({"size": [0, 1, 2, 0, 1, 2] * 4, "y": ["a", "b"] * 12})
    test = pd.DataFrame({"size": [0, 1, 3], "y": ["a", "b", "a"]})
    found = _codes(nblint.check(train, target="y", model="categorical", test=test), "NB601")
    assert [f.severity.name for f in found] == ["ERROR"]
    with pytest.raises(IndexError):
        CategoricalNB().fit(train[["size"]], train["y"]).predict(test[["size"]])
    # min_categories reserves the code: predict then works, the level is met with the smoothing alone
    CategoricalNB(min_categories=4).fit(train[["size"]], train["y"]).predict(test[["size"]])


def test_an_unseen_code_inside_the_training_range_is_a_warning_because_predict_works():
    from sklearn.naive_bayes import CategoricalNB

    train = pd.DataFrame({"size": [0, 2, 0, 2] * 6, "y": ["a", "b"] * 12})
    test = pd.DataFrame({"size": [0, 1, 2], "y": ["a", "b", "a"]})
    found = _codes(nblint.check(train, target="y", model="categorical", test=test), "NB601")
    assert [f.severity.name for f in found] == ["WARNING"] and found[0].evidence["rows"] == 1
    CategoricalNB().fit(train[["size"]], train["y"]).predict(test[["size"]])  # no error


@pytest.mark.parametrize("seed", range(5))
def test_alpha_zero_vetoes_are_the_zero_posteriors_of_categoricalnb(seed):
    from sklearn.naive_bayes import CategoricalNB

    train, test = _categorical_pair(seed)
    rng = np.random.default_rng(seed)
    # plant a few (level, class) cells training never has: rows of class 1 never take a = 2
    train.loc[(train.y == 1) & (train.a == 2), "a"] = rng.integers(0, 2)
    train.loc[train.index[:3], ["a", "b", "y"]] = [[2, 3, 0], [0, 3, 1], [1, 0, 1]]  # every code in training
    report = nblint.check(train, target="y", model="categorical", alpha=0, test=test, select=["NB602"])
    with warnings.catch_warnings(), np.errstate(divide="ignore", invalid="ignore"):
        warnings.simplefilter("ignore")  # (log 0: the zero cells alpha = 0 leaves)
        model = CategoricalNB(alpha=0, force_alpha=True).fit(train[["a", "b"]], train["y"])
        log_joint = model._joint_log_likelihood(test[["a", "b"]].to_numpy())
    vetoed = np.isneginf(log_joint)  # (rows, classes): the class's likelihood is zero
    found = _codes(report, "NB602")
    if not vetoed.any():
        assert found == []
        return
    (finding,) = found
    assert finding.severity.name == "ERROR"
    assert finding.evidence["rows"] == int(vetoed.any(axis=1).sum())
    by_class = {item["class"]: item["rows"] for item in finding.evidence["classes"]}
    assert by_class == {str(c): int(n) for c, n in zip(model.classes_, vetoed.sum(axis=0)) if n}
    assert finding.rows == (np.flatnonzero(vetoed.any(axis=1))[:5] + 1).tolist()


def test_a_serving_table_without_the_target_is_compared_too():
    train = pd.DataFrame({"colour": ["red", "blue"] * 10, "y": ["a", "b"] * 10})
    serving = pd.DataFrame({"colour": ["red", "green", "green"]})
    report = nblint.check(train, target="y", test=serving)
    codes = {f.code for f in report if f.code.startswith("NB6")}
    assert "NB601" in codes and "NB604" not in codes  # no labels: no prior to compare
    assert all(f.path == "<test>" for f in report if f.code.startswith("NB6"))
    # every training row repeats another: a serving row equal to one is what the values allow
    assert _codes(report, "NB603") == []


def test_rows_in_both_tables_are_reported_only_beyond_chance():
    from scipy.stats import binom

    rng = np.random.default_rng(3)
    train = pd.DataFrame({"h": rng.normal(size=200).round(6), "w": rng.normal(size=200).round(6)})
    train["y"] = rng.choice(["a", "b"], 200)
    test = train.sample(40, random_state=1).reset_index(drop=True)
    test.loc[5:, ["h", "w"]] = rng.normal(size=(35, 2))  # 5 copies, 35 new rows
    (both,) = _codes(nblint.check(train, target="y", test=test), "NB603")
    assert both.evidence["rows"] == 5 and both.evidence["chance"] == 0 and both.evidence["p_value"] == 0
    # a narrow table of two 0/1 columns: every row repeats, and a test row equal to one is chance
    narrow = pd.DataFrame(
        {"p": rng.integers(0, 2, 200), "q": rng.integers(0, 2, 200), "y": rng.choice(["a", "b"], 200)}
    )
    assert _codes(nblint.check(narrow, target="y", test=narrow.head(30)), "NB603") == []
    # the chance of a repeat in between: the binomial tail against the training table's own repeats
    keys = narrow[["p", "q"]].astype(str).agg(",".join, axis=1)
    chance = float(keys.duplicated(keep=False).mean())
    assert binom.sf(29, 30, chance) > 0.001


def test_prior_shift_names_the_test_of_proportions():
    from scipy.stats import chi2_contingency

    train = pd.DataFrame({"x": [1, 0] * 50, "y": ["a"] * 80 + ["b"] * 20})
    test = pd.DataFrame({"x": [1, 0] * 25, "y": ["a"] * 25 + ["b"] * 25})
    (finding,) = _codes(nblint.check(train, target="y", test=test), "NB604")
    _, p_value, _, _ = chi2_contingency([[80, 20], [25, 25]], correction=False)
    assert finding.evidence["p_value"] == pytest.approx(p_value, rel=1e-5)
    assert finding.evidence["log_prior_shift"] == pytest.approx(np.log(0.5 / 0.8), rel=1e-5)


def test_sparse_text_matrices_and_check_pipeline_see_the_documents_as_the_model_does():
    from sklearn.feature_extraction.text import CountVectorizer
    from sklearn.naive_bayes import MultinomialNB
    from sklearn.pipeline import make_pipeline

    docs = ["cheap pills now", "meeting at noon", "cheap offer now", "lunch at noon", "pills for less", "noon lunch"]
    y = ["spam", "ham", "spam", "ham", "spam", "ham"]
    test_docs = ["meeting at noon", "cheap lunch"]
    pipe = make_pipeline(CountVectorizer(), MultinomialNB(alpha=0))
    report = nblint.check_pipeline(pipe, docs, y, X_test=test_docs, y_test=["spam", "spam"])
    (both,) = _codes(report, "NB603")
    assert both.evidence["rows"] == 1 and both.evidence["conflicting"] == 1
    (met,) = _codes(report, "NB602")
    assert met.severity.name == "ERROR"  # MultinomialNB(alpha=0): 'meeting' vetoes spam, 'cheap'/'lunch' both
    assert {item["class"]: item["rows"] for item in met.evidence["classes"]} == {"spam": 2, "ham": 1}
    # the oracle: MultinomialNB(alpha=0)'s joint log-likelihood is -inf exactly where NB602 says a class is vetoed
    vectorizer = CountVectorizer().fit(docs)
    with warnings.catch_warnings(), np.errstate(divide="ignore"):
        warnings.simplefilter("ignore")
        model = MultinomialNB(alpha=0, force_alpha=True).fit(vectorizer.transform(docs), y)
        vetoed = np.isneginf(model._joint_log_likelihood(vectorizer.transform(test_docs)))
    assert {str(c): int(n) for c, n in zip(model.classes_, vetoed.sum(axis=0))} == {"spam": 2, "ham": 1}
    assert met.evidence["rows"] == int(vetoed.any(axis=1).sum())
    # the same as a sparse matrix through nblint.check, the vectorizer fitted by the user
    names = list(vectorizer.get_feature_names_out())
    again = nblint.check(
        vectorizer.transform(docs),
        y,
        feature_names=names,
        alpha=0,
        model="multinomial",
        test=vectorizer.transform(test_docs),
        y_test=["spam", "spam"],
        select=["NB602", "NB603"],
    )
    assert [(f.code, f.evidence["rows"]) for f in again] == [("NB602", 2), ("NB603", 1)]


_MASK = 2**64 - 1


def _mix(x: int) -> int:
    """splitmix64's finaliser on a Python int: the oracle of the vectorised ``mix64``."""
    x ^= x >> 30
    x = (x * 0xBF58476D1CE4E5B9) & _MASK
    x ^= x >> 27
    x = (x * 0x94D049BB133111EB) & _MASK
    return x ^ (x >> 31)


def _name_salt(name: str) -> int:
    """A column's salt in plain Python, the oracle of the vectorised ``nblint.analysis.rows._salts``: each code point
    mixed with its position in the name, summed (wrapping), the sum mixed with the name's length."""
    from nblint.core.hashing import GOLDEN_GAMMA

    total = 0
    for k, character in enumerate(name):
        total = (total + _mix((ord(character) + k * GOLDEN_GAMMA) & _MASK)) & _MASK
    return _mix((total + len(name) * GOLDEN_GAMMA) & _MASK)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.text(max_size=6), max_size=8))
def test_column_salts_are_their_names_hash(names):
    """The salts of a block's columns, made for every name at once, are each name's own hash (whatever the others)."""
    from nblint.analysis.rows import _salts

    assert _salts(names).tolist() == [_name_salt(name) for name in names]


_DTYPE_VALUES = {
    "int8": st.one_of(st.integers(0, 1), st.integers(-128, 127)),
    "uint8": st.one_of(st.integers(0, 1), st.integers(0, 255)),
    "bool": st.booleans(),
    "int64": st.one_of(st.integers(-3, 20), st.integers(-(2**63), 2**63 - 1)),
    "int64 past 2**53": st.integers(2**53 - 3, 2**53 + 40),  # (a narrow range the float64 bits round)
    "uint64": st.one_of(st.integers(0, 5), st.integers(0, 2**64 - 1)),
    "float64": st.one_of(st.sampled_from([0.0, -0.0, 1.0, 0.5, float("nan")]), st.floats(allow_nan=False)),
}


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_row_fingerprints_are_the_sum_of_their_cells_hashes_whatever_the_dtype(data):
    """A row's fingerprint (NB603, NB209) is by definition the wrapping sum over its non-zero cells of
    ``mix64(column salt + mix64(the value's float64 bits))``: computed here cell by cell in plain Python,
    it equals the one made a chunk at a time (narrow integer columns through a table of their values)."""
    import struct

    from scipy import sparse

    from nblint.analysis.rows import RowFingerprints
    from nblint.readers.chunks import Chunk, ColumnData, SparseBlock

    n = data.draw(st.integers(1, 30))
    dtypes = data.draw(st.lists(st.sampled_from(sorted(_DTYPE_VALUES)), min_size=1, max_size=6))
    names = [f"c{k}" for k in range(len(dtypes))]
    columns = [
        np.array(data.draw(st.lists(_DTYPE_VALUES[d], min_size=n, max_size=n)), dtype=d.split()[0]) for d in dtypes
    ]
    words = frozenset(data.draw(st.lists(st.sampled_from(names), unique=True)))
    cuts = sorted(set(data.draw(st.lists(st.integers(1, n - 1), max_size=3)) if n > 1 else []))
    # Some columns as a sparse row block (a matrix's, or a wide table's 0/1 block), the others dense.
    in_block = data.draw(st.lists(st.sampled_from(names), unique=True))
    block_at = [k for k, name in enumerate(names) if name in in_block]
    fingerprints = RowFingerprints(frozenset(names), None, words if data.draw(st.booleans()) else None)
    if fingerprints.words is None:
        words = frozenset(names)  # (no block of words: every feature counts as one)
    for start, stop in zip([0, *cuts], [*cuts, n]):
        dense = [k for k in range(len(names)) if k not in block_at]
        part = tuple(ColumnData("numeric", columns[k][start:stop], None, columns[k].dtype.kind != "f") for k in dense)
        block = None
        if block_at:
            cells = np.column_stack([columns[k][start:stop].astype(np.float64) for k in block_at])
            block = SparseBlock(tuple(names[k] for k in block_at), sparse.csr_matrix(cells), False, np.zeros(1, bool))
        fingerprints.add(Chunk(tuple(names[k] for k in dense), part, start, stop - start, sparse=block))

    salts = {name: _name_salt(name) for name in names}
    expected, set_cells, set_words = [], [], []
    for i in range(n):
        total, cells, in_words = 0, 0, 0
        for name, column in zip(names, columns):
            value = float(column[i])
            if value != 0:
                bits = struct.unpack("<Q", struct.pack("<d", value))[0]
                total = (total + _mix((salts[name] + _mix(bits)) & _MASK)) & _MASK
                cells += 1
                in_words += name in words
        expected.append(total)
        set_cells.append(cells)
        set_words.append(in_words)
    assert np.concatenate(fingerprints.hashes).tolist() == expected
    assert np.concatenate(fingerprints.nonzero).tolist() == set_cells
    assert np.concatenate(fingerprints.word_nonzero).tolist() == set_words


def _documents(rng, n: int, words: list[str]) -> list[str]:
    return [" ".join(rng.choice(words, size=rng.integers(3, 12))) for _ in range(n)]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_test_matrix_with_its_own_vocabulary_is_read_through_the_training_one_and_nb606_counts_the_rest(seed):
    """Oracle: the training vectorizer's own analyzer and vocabulary, token by token; and the findings of
    the test documents transformed by the training vectorizer (what the model reads)."""
    from sklearn.feature_extraction.text import CountVectorizer, TfidfVectorizer

    rng = np.random.default_rng(seed)
    old = [f"w{k}" for k in range(40)]
    new = [f"n{k}" for k in range(25)]  # words the training documents never have
    docs, y = _documents(rng, 80, old), rng.choice(["a", "b"], 80).tolist()
    test_docs = _documents(rng, 30, old[:20] + new)
    y_test = rng.choice(["a", "b"], 30).tolist()
    fitted = CountVectorizer().fit(docs)
    names = list(fitted.get_feature_names_out())
    analyzer = fitted.build_analyzer()
    tokens = {"a": [0, 0], "b": [0, 0]}
    for doc, label in zip(test_docs, y_test):
        found = analyzer(doc)
        tokens[label][0] += len(found)
        tokens[label][1] += sum(token not in fitted.vocabulary_ for token in found)
    own = CountVectorizer().fit(test_docs)  # a vectorizer fitted on the test documents: their own vocabulary
    args = {"feature_names": names, "y_test": y_test, "model": "multinomial"}
    report = nblint.check(
        fitted.transform(docs), y, test=own.transform(test_docs), test_feature_names=own.get_feature_names_out(), **args
    )
    (unseen,) = _codes(report, "NB606")
    assert unseen.evidence["tokens"] == sum(t for t, _ in tokens.values())
    assert unseen.evidence["unseen"] == sum(u for _, u in tokens.values())
    assert {c["class"]: (c["tokens"], c["unseen"]) for c in unseen.evidence["classes"]} == {
        label: tuple(counts) for label, counts in tokens.items()
    }
    # Every other finding is that of the test documents as the training vectorizer counts them.
    seen = nblint.check(fitted.transform(docs), y, test=fitted.transform(test_docs), **args)
    assert _plain([f for f in report if f.code != "NB606"]) == _plain(seen)
    # One vectorizer for both (the model's own view): no token is unseen by construction, NB606 is quiet.
    same = nblint.check(fitted.transform(docs), y, test=fitted.transform(test_docs), test_feature_names=names, **args)
    assert _codes(same, "NB606") == [] and _plain(same) == _plain(seen)
    # tf-idf weights are no counts: a document's tokens are its distinct words
    weighted = TfidfVectorizer().fit(test_docs)
    report = nblint.check(
        fitted.transform(docs),
        y,
        test=weighted.transform(test_docs),
        test_feature_names=weighted.get_feature_names_out(),
        **args,
    )
    distinct = [set(analyzer(doc)) for doc in test_docs]
    (unseen,) = _codes(report, "NB606")
    assert (unseen.evidence["tokens"], unseen.evidence["unseen"]) == (
        sum(map(len, distinct)),
        sum(len(words - set(fitted.vocabulary_)) for words in distinct),
    )


def test_test_feature_names_must_name_a_test_matrix_s_columns_once():
    train, test = _categorical_pair(0)
    with pytest.raises(ValueError, match="a DataFrame names its own"):
        nblint.check(train, target="y", test=test, test_feature_names=["a", "b"])
    X = np.ones((3, 2))
    with pytest.raises(ValueError, match="name each of the test matrix's 2 columns once"):
        nblint.check(X, [0, 1, 0], test=X, test_feature_names=["a", "a"])
    with pytest.raises(ValueError, match="goes with test="):
        nblint.check(X, [0, 1, 0], test_feature_names=["a", "b"])


# --------------------------------------------------------------------------- order


def _plain(report, rows: bool = True):
    out = []
    for f in report:
        d = f.to_dict()
        if not rows:
            d.pop("rows")
            d["evidence"] = {k: v for k, v in d["evidence"].items() if "rows" not in k or isinstance(v, int)}
        out.append(json.dumps(d, sort_keys=True))
    return sorted(out)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), data=st.data())
def test_findings_do_not_depend_on_column_order_or_test_row_order(seed, data):
    train, test = _categorical_pair(seed)
    train["h"] = np.random.default_rng(seed).normal(size=len(train))
    test["h"] = np.random.default_rng(seed + 1).normal(size=len(test)) * 20
    test.loc[0, "a"] = 7  # an unseen level
    test.loc[1] = train.loc[5]  # a training row
    columns = data.draw(st.permutations(list(train.columns)))
    first = nblint.check(train, target="y", test=test, select=["NB6"])
    swapped = nblint.check(train[columns], target="y", test=test[columns], select=["NB6"])
    assert _plain(first) == _plain(swapped)
    order = data.draw(st.permutations(range(len(test))))
    shuffled = nblint.check(train, target="y", test=test.iloc[list(order)].reset_index(drop=True), select=["NB6"])
    assert _plain(first, rows=False) == _plain(shuffled, rows=False)


# --------------------------------------------------------------------------- the command line


@pytest.fixture
def pair(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "train.csv").write_text("colour,size,y\n" + "red,1,a\nblue,2,b\n" * 5)
    (tmp_path / "test.csv").write_text("colour,size,y\nred,1,a\ngreen,2,b\n")
    (tmp_path / "other.csv").write_text("colour,size,y\n" + "red,1,a\nblue,2,b\n" * 5)
    return tmp_path


def _run(*args):
    return CliRunner().invoke(main, ["check", *args])


def test_cli_test_option_locates_the_findings_in_the_test_file(pair):
    result = _run("train.csv", "--target", "y", "--test", "test.csv", "--select", "NB6", "--format", "json")
    assert result.exit_code == 1
    findings = json.loads(result.stdout)
    assert [f["code"] for f in findings] == ["NB601", "NB602"]  # green; red never b (row 1 repeats by chance)
    assert {f["path"] for f in findings} == {"test.csv"}


@pytest.mark.parametrize(
    "test, says",
    [
        ("missing.csv", "missing.csv: error: file not found (the test table of train.csv)"),
        ("folder.csv", "folder.csv: error:"),
        ("nothing_shared.csv", "nothing_shared.csv: error: the test table nothing_shared.csv shares no column"),
    ],
)
def test_a_bad_test_table_is_one_line_and_exit_2_and_the_other_files_are_still_linted(pair, test, says):
    (pair / "folder.csv").mkdir()
    (pair / "nothing_shared.csv").write_text("p,q\n1,2\n")
    (pair / "nblint.toml").write_text(f'target = "y"\n\n[per-file-settings."train.csv"]\ntest = "{test}"\n')
    result = _run("train.csv", "other.csv", "--select", "NB2")
    assert result.exit_code == 2
    lines = [line for line in result.stderr.splitlines() if "error" in line]
    assert len(lines) == 1 and lines[0].startswith(says), result.stderr
    assert "Traceback" not in result.output
    assert "other.csv: NB206" in result.stdout  # the other file was linted (its classes are tiny)


def test_the_configuration_names_the_test_table_beside_itself(pair):
    (pair / "nblint.toml").write_text('target = "y"\n\n[per-file-settings."train.csv"]\ntest = "test.csv"\n')
    result = _run("train.csv", "other.csv", "--select", "NB601", "--format", "json")
    assert [(f["code"], f["path"]) for f in json.loads(result.stdout)] == [("NB601", "test.csv")]


def test_a_configured_test_table_outside_the_project_is_refused(pair, tmp_path_factory):
    outside = tmp_path_factory.mktemp("elsewhere") / "test.csv"
    outside.write_text("colour,size,y\nred,1,a\n")
    (pair / "nblint.toml").write_text(f'target = "y"\ntest = "{outside.as_posix()}"\n')
    result = _run("train.csv", "--select", "NB6")
    assert result.exit_code == 2
    assert "lies outside the folder of" in result.stderr and "--allow-outside-data" in result.stderr


def test_text_column_test_documents_are_counted_with_the_training_vocabulary(pair):
    (pair / "docs.csv").write_text(
        "body,y\n"
        + '"cheap pills now",spam\n"meeting at noon",ham\n"cheap offer now",spam\n"lunch at noon",ham\n'
        + '"pills for less",spam\n"noon meeting moved",ham\n'
    )
    (pair / "docs_test.csv").write_text('body,y\n"Meeting  at noon",spam\n"crypto airdrop claim today",spam\n')
    result = _run("docs.csv", "--target", "y", "--text", "body", "--test", "docs_test.csv", "--format", "json")
    found = {f["code"]: f for f in json.loads(result.stdout) if f["code"].startswith("NB6")}
    assert found["NB606"]["evidence"]["unseen"] == 4 and found["NB606"]["evidence"]["tokens"] == 7
    assert found["NB603"]["evidence"]["conflicting"] == 1  # the same document (case and spacing folded)


def test_the_dask_engine_compares_a_test_table_as_the_local_one_does(pair):
    """The training table's partitions on Dask (profile, and NB603's fingerprints merged in row order)."""
    dd = pytest.importorskip("dask.dataframe")
    from pathlib import Path

    split = Path(__file__).resolve().parent / "data" / "split"
    args = [str(split / "train.csv"), "--target", "decision", "--test", str(split / "test.csv"), "--format", "json"]
    local = _run(*args, "--select", "NB6")
    assert _run(*args, "--select", "NB6", "--engine", "dask").stdout == local.stdout
    train, test = pd.read_csv(split / "train.csv"), pd.read_csv(split / "test.csv")
    in_parts = nblint.check(dd.from_pandas(train, npartitions=4), target="decision", test=test, select=["NB6"])
    assert [f.code for f in in_parts] == ["NB601", "NB603", "NB604", "NB605"]
    assert _plain(in_parts) == _plain(nblint.check(train, target="decision", test=test, select=["NB6"]))
    # a test table the local reader cannot take as one file (a glob of parts): one line, exit 2
    result = _run(*args[:3], "--test", str(split / "*.csv"), "--engine", "dask")
    assert result.exit_code == 2 and "with --engine dask the test table is one file" in result.stderr


def test_the_docs_configuration_block_works(tmp_path, monkeypatch):
    """docs/train-test.md's configuration block, as pyproject.toml beside the pair, compares them."""
    import re
    import shutil
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    page = (root / "docs" / "train-test.md").read_text()
    (block,) = [b for b in re.findall(r"```toml\n(.*?)```", page, flags=re.S) if 'test = "tests/data/split' in b]
    shutil.copytree(root / "tests" / "data" / "split", tmp_path / "tests" / "data" / "split")
    (tmp_path / "pyproject.toml").write_text(block)
    monkeypatch.chdir(tmp_path)
    result = _run("tests/data/split/train.csv", "--select", "NB6", "--format", "json")
    found = json.loads(result.stdout)
    assert [f["code"] for f in found] == ["NB601", "NB603", "NB604", "NB605"]
    assert {f["path"] for f in found} == {"tests/data/split/test.csv"}


def test_an_nblint_spec_names_the_test_table_beside_its_data(pair):
    (pair / "pipeline.yaml").write_text(
        "model: categorical\nparams:\n  alpha: 0\ndata: train.csv\ntarget: y\ntest: test.csv\n"
    )
    result = _run("pipeline.yaml", "--select", "NB601,NB602", "--format", "json")
    found = json.loads(result.stdout)
    assert [(f["code"], f["path"], f["severity"]) for f in found] == [
        ("NB601", "test.csv", "error"),  # CategoricalNB, no min_categories, no encoder with a plan: a text level fails
        ("NB602", "test.csv", "error"),  # the spec's alpha = 0: red vetoes b
    ]


def test_a_spec_naming_a_test_table_outside_its_project_is_refused_at_its_line(pair, tmp_path_factory):
    outside = tmp_path_factory.mktemp("elsewhere") / "test.csv"
    outside.write_text("colour,size,y\nred,1,a\n")
    (pair / "pipeline.yaml").write_text(f"model: categorical\ndata: train.csv\ntarget: y\ntest: {outside}\n")
    result = _run("pipeline.yaml", "--select", "NB6")
    assert result.exit_code == 2
    assert result.stderr.startswith("pipeline.yaml:4: error: the data file") and "--allow-outside-data" in result.stderr


def test_an_encoder_that_raises_on_unknown_levels_makes_the_unseen_level_an_error():
    from sklearn.naive_bayes import CategoricalNB
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import OrdinalEncoder

    X = pd.DataFrame({"colour": ["red", "blue", "red", "blue"] * 5})
    y = ["a", "b", "a", "b"] * 5
    X_test = pd.DataFrame({"colour": ["red", "green"]})
    pipe = make_pipeline(OrdinalEncoder(), CategoricalNB()).fit(X, y)
    with pytest.raises(ValueError):
        pipe.predict(X_test)  # the oracle: the encoder raises on green
    (finding,) = _codes(nblint.check_pipeline(pipe, X, y, X_test=X_test, select=["NB601"]), "NB601")
    assert finding.severity.name == "ERROR" and finding.path == "<test>"
    assert "the pipeline's steps fail on the test rows" in finding.message
    # handle_unknown planned for: predict works, and the unknown code is one the model never saw (a warning)
    planned = make_pipeline(
        OrdinalEncoder(handle_unknown="use_encoded_value", unknown_value=2), CategoricalNB(min_categories=3)
    ).fit(X, y)
    planned.predict(X_test)
    found = _codes(nblint.check_pipeline(planned, X, y, X_test=X_test, select=["NB601"]), "NB601")
    assert [f.severity.name for f in found] == ["WARNING"]


def test_a_spec_encoder_without_handle_unknown_makes_the_unseen_level_an_error(pair):
    (pair / "pipeline.yaml").write_text(
        "model: categorical\nencoders:\n  colour: OrdinalEncoder\ndata: train.csv\ntarget: y\ntest: test.csv\n"
    )
    found = json.loads(_run("pipeline.yaml", "--select", "NB601", "--format", "json").stdout)
    assert [(f["code"], f["severity"]) for f in found] == [("NB601", "error")]
    assert "OrdinalEncoder (line 3) in pipeline.yaml raises on them" in found[0]["message"]
    (pair / "pipeline.yaml").write_text(
        "model: categorical\nencoders:\n  colour: {class: OrdinalEncoder, handle_unknown: use_encoded_value, "
        "unknown_value: 5}\ndata: train.csv\ntarget: y\ntest: test.csv\n"
    )
    found = json.loads(_run("pipeline.yaml", "--select", "NB601", "--format", "json").stdout)
    assert [(f["code"], f["severity"]) for f in found] == [("NB601", "warning")]


def test_the_test_csv_is_read_in_one_pass_and_the_training_file_not_again_but_for_rows_in_both():
    from pathlib import Path

    from nblint import testing
    from nblint.readers.files import read_table
    from nblint.run.pairing import compare
    from nblint.run.tables import read_test

    root = Path(__file__).resolve().parent / "data" / "split"
    train = read_table(str(root / "train.csv"))
    ctx = testing.context(train, target="decision")
    before = train.passes
    test = read_test(str(root / "test.csv"), train, target="decision")
    result = compare(ctx, test)
    assert (test.passes, train.passes - before) == (1, 0)
    assert result.overlap.rows == 3 and train.passes - before == 1  # NB603 fingerprints the training rows once


def test_checked_with_its_test_table_the_training_file_is_read_as_often_as_checked_alone():
    """NB603's training fingerprints come from the profile's pass, and equal those a pass of their own makes."""
    from pathlib import Path

    from nblint import testing
    from nblint.readers.files import read_table
    from nblint.run.config import Settings
    from nblint.run.pairing import compare
    from nblint.run.runner import lint_source
    from nblint.run.tables import read_test

    root = Path(__file__).resolve().parent / "data" / "split"
    settings = Settings(target="decision")
    codes = settings.enabled_codes(str(root / "train.csv"))
    assert "NB603" in codes
    alone = read_table(str(root / "train.csv"))
    lint_source(alone, settings, codes)
    paired = read_table(str(root / "train.csv"))
    test = read_test(str(root / "test.csv"), paired, target="decision")
    (both,) = [f for f in lint_source(paired, settings, codes, test=test) if f.code == "NB603"]
    assert paired.passes == alone.passes and test.passes == 1
    train = read_table(str(root / "train.csv"))  # (no fingerprints handed to compare: it reads the rows again)
    again = compare(
        testing.context(train, target="decision"), read_test(str(root / "test.csv"), train, target="decision")
    ).overlap
    assert (both.evidence["rows"], both.evidence["conflicting"], both.evidence["p_value"]) == (
        again.rows,
        again.conflicting,
        again.p_value,
    )
    assert both.rows == again.examples
