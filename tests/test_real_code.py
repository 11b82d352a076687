"""nblint's pipeline rules on real public scripts and notebooks (tests/real_code).

The corpus files are public code kept outside the repository; each floor (per corpus, per kind of
file) skips, saying how many of its files are there, unless all have been brought into the scratch
folder (see tests/real_code/score.py). The corpus files and the matcher are checked always. Four
corpora share the scorer: corpus.yaml (nblint was tuned on it), then holdout.yaml, holdout2.yaml and
holdout3.yaml, each collected and labelled before nblint ran on it, then tuned on in turn.
"""

import importlib.util
import re
import sys
from pathlib import Path

import pytest

SCORE_PY = Path(__file__).parent / "real_code" / "score.py"
_spec = importlib.util.spec_from_file_location("real_code_score", SCORE_PY)
score_mod = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = score_mod  # dataclasses look their module up while the class is built
_spec.loader.exec_module(score_mod)

Spot, Outcome, match_file = score_mod.Spot, score_mod.Outcome, score_mod.match_file
CODES = {f"NB50{i}" for i in range(1, 10)}


# --- the corpus file itself -------------------------------------------------------------------


@pytest.fixture(scope="module")
def corpus():
    return score_mod.load_corpus()


def test_corpus_entries_are_well_formed(corpus):
    _check_entries(corpus)


def _check_entries(corpus):
    """Ids, kinds, provenance, digests and labels of every entry follow the schema in corpus.yaml."""
    files = corpus["files"]
    ids = [entry["id"] for entry in files]
    assert len(ids) == len(set(ids))
    for entry in files:
        assert re.fullmatch(r"[a-z0-9_]+", entry["id"]), entry["id"]
        assert entry["kind"] in ("script", "notebook")
        source = entry["source"]
        assert re.fullmatch(r"[0-9a-f]{40}", source["commit"]), entry["id"]
        assert "/" in source["repo"] and source["path"].endswith(score_mod.EXTENSIONS[entry["kind"]])
        assert re.fullmatch(r"[0-9a-f]{64}", entry["sha256"]), entry["id"]
        labels = entry.get("labels") or []
        required = [label for label in labels if not label.get("optional")]
        assert bool(entry.get("clean")) == (not required), entry["id"]
        for label in labels:
            assert label["code"] in CODES and label["line"] >= 1 and label["why"].strip()
            assert ("cell" in label) == (entry["kind"] == "notebook"), entry["id"]


def test_corpus_is_the_size_the_issue_asks_for(corpus):
    kinds = [entry["kind"] for entry in corpus["files"]]
    assert kinds.count("script") >= 45 and kinds.count("notebook") >= 25
    clean = sum(1 for entry in corpus["files"] if entry.get("clean"))
    assert 0 < clean < len(kinds)


def test_digest_ignores_line_endings(tmp_path):
    unix, windows = tmp_path / "a.py", tmp_path / "b.py"
    unix.write_bytes(b"import x\nx.fit()\n")
    windows.write_bytes(b"import x\r\nx.fit()\r\n")
    assert score_mod.text_digest(unix) == score_mod.text_digest(windows)
    windows.write_bytes(b"import y\r\nx.fit()\r\n")
    assert score_mod.text_digest(unix) != score_mod.text_digest(windows)


@pytest.fixture(scope="module")
def holdout():
    return score_mod.load_corpus(score_mod.HOLDOUT)


def test_holdout_entries_are_well_formed_and_new(corpus, holdout):
    _check_entries(holdout)
    tuned_on = {(entry["source"]["repo"], entry["source"]["path"]) for entry in corpus["files"]}
    held_out = {(entry["source"]["repo"], entry["source"]["path"]) for entry in holdout["files"]}
    assert not tuned_on & held_out, "a held-out file must not be in corpus.yaml"
    assert not {e["id"] for e in corpus["files"]} & {e["id"] for e in holdout["files"]}
    kinds = [entry["kind"] for entry in holdout["files"]]
    assert kinds.count("script") >= 30 and kinds.count("notebook") >= 20
    clean = sum(1 for entry in holdout["files"] if entry.get("clean"))
    assert 0 < clean < len(kinds)


def test_each_corpus_has_its_own_scratch_folder(monkeypatch):
    monkeypatch.delenv("NBLINT_REAL_CODE", raising=False)
    monkeypatch.delenv("NBLINT_REAL_CODE_HOLDOUT", raising=False)
    assert score_mod.default_folder().name == "real_code"
    assert score_mod.default_folder("holdout").name == "real_code_holdout"
    monkeypatch.setenv("NBLINT_REAL_CODE_HOLDOUT", "/somewhere/else")
    assert score_mod.default_folder("holdout") == Path("/somewhere/else")
    assert score_mod.default_folder().name == "real_code"


def test_scoring_the_holdout_without_its_files_skips_cleanly(tmp_path, capsys):
    absent = tmp_path / "not_brought"
    assert score_mod.main(["--corpus", "holdout", "--folder", str(absent)]) == 0
    assert "nothing scored" in capsys.readouterr().out
    assert score_mod.main(["--corpus", "holdout", "--folder", str(tmp_path), "--verify"]) == 1
    assert "missing" in capsys.readouterr().out


# --- the matcher ------------------------------------------------------------------------------


def _match(labels, findings, optional=(), tolerance=2):
    out = Outcome()
    match_file(list(labels), list(optional), list(findings), tolerance, out)
    return out


def test_a_finding_within_tolerance_matches_and_one_outside_is_misplaced():
    label = Spot("f", "NB501", None, 10)
    assert _match([label], [Spot("f", "NB501", None, 12)]).correct
    out = _match([label], [Spot("f", "NB501", None, 13)])
    assert not out.correct and len(out.misplaced) == 1 and not out.false_alarms and not out.missed


def test_cells_must_agree_for_notebooks():
    out = _match([Spot("n", "NB505", 4, 1)], [Spot("n", "NB505", 5, 1)])
    assert not out.correct and len(out.misplaced) == 1


def test_wrong_code_is_a_miss_and_a_false_alarm():
    out = _match([Spot("f", "NB501", None, 10)], [Spot("f", "NB507", None, 10)])
    assert len(out.missed) == 1 and len(out.false_alarms) == 1


def test_repeated_findings_at_one_place_count_once():
    finding = Spot("f", "NB505", None, 3)
    out = _match([Spot("f", "NB505", None, 3)], [finding, finding, finding])
    assert len(out.correct) == 1 and not out.false_alarms


def test_closest_finding_is_taken_first():
    labels = [Spot("f", "NB502", None, 10), Spot("f", "NB502", None, 12)]
    out = _match(labels, [Spot("f", "NB502", None, 12), Spot("f", "NB502", None, 10)])
    assert sorted((a.line, b.line) for a, b in out.correct) == [(10, 10), (12, 12)]


def test_optional_labels_neither_reward_nor_punish():
    optional = [Spot("f", "NB503", None, 29)]
    hit = _match([], [Spot("f", "NB503", None, 29)], optional)
    assert hit.optional_hits and not hit.false_alarms
    silent = _match([], [], optional)
    assert not silent.missed and not silent.false_alarms


def test_precision_and_recall_formulas():
    out = Outcome()
    match_file(
        [Spot("a", "NB501", None, 1), Spot("a", "NB502", None, 5), Spot("a", "NB505", None, 9)],
        [],
        [Spot("a", "NB501", None, 2), Spot("a", "NB502", None, 40), Spot("a", "NB509", None, 7)],
        2,
        out,
    )
    counts = out.counts({"a": "script"})
    assert (counts["correct"], counts["misplaced"], counts["missed"], counts["false_alarms"]) == (1, 1, 1, 1)
    assert counts["precision"] == pytest.approx(1 / 3) and counts["recall"] == pytest.approx(1 / 3)
    assert out.counts({"a": "script"}, kind="notebook")["labels"] == 0


def _tiny_corpus(tmp_path):
    """A one-notebook, one-script corpus written here (no public code), with its digests."""
    notebook = tmp_path / "nb_tiny.ipynb"
    notebook.write_text(
        '{"cells": [{"cell_type": "markdown", "source": "# t"}, '
        '{"cell_type": "code", "source": "le = LabelEncoder()"}], "nbformat": 4}'
    )
    script = tmp_path / "py_tiny.py"
    script.write_text("m = MultinomialNB(alpha=0)\n")
    files = [
        {
            "id": "nb_tiny",
            "kind": "notebook",
            "sha256": score_mod.text_digest(notebook),
            "labels": [{"code": "NB505", "cell": 2, "line": 1, "why": "w"}],
        },
        {
            "id": "py_tiny",
            "kind": "script",
            "sha256": score_mod.text_digest(script),
            "labels": [{"code": "NB502", "line": 1, "why": "w"}],
        },
    ]
    return {"line_tolerance": 2, "files": files}, notebook, script


def test_score_reads_cell_locations_from_nblint_json(tmp_path, monkeypatch):
    corpus, notebook, script = _tiny_corpus(tmp_path)
    findings = [
        {"path": str(notebook), "code": "NB505", "cell": 2, "line": 1},
        {"path": str(script), "code": "NB502", "line": 1},
        {"path": str(script), "code": "NB503", "line": 1},
    ]
    monkeypatch.setattr(score_mod, "run_nblint", lambda paths: (findings, {}))
    out, kinds = score_mod.score(tmp_path, corpus)
    assert kinds == {"nb_tiny": "notebook", "py_tiny": "script"}
    assert len(out.correct) == 2 and [s.code for s in out.false_alarms] == ["NB503"]


def test_an_unreadable_notebook_misses_all_its_labels_and_a_changed_file_is_skipped(tmp_path, monkeypatch):
    corpus, notebook, script = _tiny_corpus(tmp_path)
    errors = {str(notebook.resolve()): "not a table"}
    monkeypatch.setattr(score_mod, "run_nblint", lambda paths: ([], errors))
    script.write_text("m = MultinomialNB(alpha=1)\n")  # no longer the labelled version
    out, kinds = score_mod.score(tmp_path, corpus)
    assert kinds == {"nb_tiny": "notebook"} and "py_tiny" in out.skipped
    assert [s.code for s in out.missed] == ["NB505"] and "nb_tiny" in out.unreadable


# --- the floors on the real files, per corpus and per kind -------------------------------------
# Every corpus, scripts and notebooks alike: precision at least 0.95, recall at least 0.90 (issue 36).
# A floor runs only on a whole set: when every file of its kind in that corpus is in the scratch folder
# and is the labelled version (score.py --verify); otherwise it skips saying how many are there, so the
# test report says which floors ran. Scores when every file of the four corpora was restored from git
# snapshots (issue 36, round 2; python tests/real_code/score.py --corpus X):
#   main      scripts 1.00 / 1.00 (25 labels)   notebooks 1.00 / 1.00 (19)
#   holdout   scripts 1.00 / 1.00 (24)          notebooks 1.00 / 1.00 (27)
#   holdout2  scripts 1.00 / 1.00 (7)           notebooks 1.00 / 1.00 (6; 0.86 before the positional
#             target was read: the target's LabelEncoder was reported)
#   holdout3  scripts 1.00 / 1.00 (10; 0.91 of 11 before line 54 of the talkingdata script, a refit
#             of the encoder labelled at line 53, became optional)  notebooks 1.00 / 1.00 (7)

PRECISION_FLOOR, RECALL_FLOOR = 0.95, 0.90
#: Floors held lower, each with the reason; lift them when the reason goes away.
LOWER_FLOORS: dict[tuple[str, str], dict[str, float]] = {}
KIND_NAMES = {"script": "scripts", "notebook": "notebooks"}


@pytest.fixture(scope="module")
def scored_corpora():
    """Scores per corpus name, each computed once for the floors that need it."""
    return {}


def _whole_set(name: str, kind: str) -> tuple[Path, dict]:
    """The scratch folder and labels of corpus ``name``; skip unless every file of ``kind`` is there and verified."""
    corpus = score_mod.load_corpus(score_mod.CORPORA[name][0])
    folder = score_mod.default_folder(name)
    entries = [e for e in corpus["files"] if e["kind"] == kind]
    present = [
        e
        for e in entries
        if (path := folder / f"{e['id']}{score_mod.EXTENSIONS[kind]}").is_file()
        and score_mod.text_digest(path) == e["sha256"]
    ]
    if len(present) < len(entries):
        pytest.skip(
            f"{len(present)} of {len(entries)} {KIND_NAMES[kind]} of {name} restored and verified in {folder}, "
            "see tests/real_code/score.py"
        )
    return folder, corpus


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["script", "notebook"])
@pytest.mark.parametrize("name", sorted(score_mod.CORPORA))
def test_floor(scored_corpora, name, kind):
    folder, corpus = _whole_set(name, kind)
    if name not in scored_corpora:
        scored_corpora[name] = score_mod.score(folder, corpus)
    out, kinds = scored_corpora[name]
    counts = out.counts(kinds, kind=kind)
    floor = LOWER_FLOORS.get((name, kind), {"precision": PRECISION_FLOOR, "recall": RECALL_FLOOR})
    print(f"{name} {KIND_NAMES[kind]}: precision {counts['precision']:.2f}, recall {counts['recall']:.2f}")
    assert counts["precision"] >= floor["precision"], score_mod.report(out, kinds)
    assert counts["recall"] >= floor["recall"], score_mod.report(out, kinds)


# --- the second held-out set --------------------------------------------------------------------
# holdout2.yaml: 28 files collected after the first holdout was tuned on, labels committed before
# nblint ran on them. Blind: precision 0.92, recall 0.69 (0.85 after three misread labels were
# corrected, in a commit of their own); after the fixes they prompted: 0.86 / 0.92 (13 labels, so
# one finding moves recall by 0.08). With every file restored (issue 36, round 2) the scripts' NB507
# was found where its label says (the line naming the dropped levels): scripts 1.00 / 1.00, notebooks
# 0.86 / 1.00 (the floors above).


@pytest.fixture(scope="module")
def holdout2():
    return score_mod.load_corpus(score_mod.HOLDOUT2)


def test_holdout2_entries_are_well_formed_and_new(corpus, holdout, holdout2):
    _check_entries(holdout2)
    earlier = {(e["source"]["repo"], e["source"]["path"]) for c in (corpus, holdout) for e in c["files"]}
    later = {(e["source"]["repo"], e["source"]["path"]) for e in holdout2["files"]}
    assert not earlier & later, "a file of holdout2 is already in corpus.yaml or holdout.yaml"
    assert not {e["id"] for c in (corpus, holdout) for e in c["files"]} & {e["id"] for e in holdout2["files"]}
    kinds = [entry["kind"] for entry in holdout2["files"]]
    assert kinds.count("script") >= 10 and kinds.count("notebook") >= 10


# --- the third held-out set (issue 36) ------------------------------------------------------------
# holdout3.yaml: 31 files (16 scripts, 15 notebooks; 11 pair steps through containers or helpers)
# from repositories no earlier corpus uses, labels committed before nblint ran on them. Blind, with
# nblint as it was before issue 36's changes: scripts precision 1.00, recall 0.64 (7 of 11);
# notebooks precision 0.88 (one false NB506), recall 1.00 (7 of 7). After the fixes they prompted
# (tests/real_code/IDIOMS.md): scripts 1.00 / 0.91 (10 of 11), notebooks 1.00 / 1.00 (7 of 7).


@pytest.fixture(scope="module")
def holdout3():
    return score_mod.load_corpus(score_mod.HOLDOUT3)


def test_holdout3_entries_are_well_formed_and_new(corpus, holdout, holdout2, holdout3):
    _check_entries(holdout3)
    earlier = [e for c in (corpus, holdout, holdout2) for e in c["files"]]
    assert not {e["source"]["repo"] for e in earlier} & {e["source"]["repo"] for e in holdout3["files"]}, (
        "holdout3 must come from repositories no earlier corpus uses"
    )
    assert not {e["id"] for e in earlier} & {e["id"] for e in holdout3["files"]}
    kinds = [entry["kind"] for entry in holdout3["files"]]
    assert len(kinds) >= 30 and kinds.count("script") >= 10 and kinds.count("notebook") >= 10
