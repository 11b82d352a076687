"""Hostile and odd inputs, round 3 (issue 41, items 4-6): wrappers seen through, outputs paired, the rest.

Each case is generated here, at test time. The oracle for a wrapper is the pipeline it
wraps: ``check_pipeline`` on the wrapper says what it says on that pipeline (fitted or
not, tables or raw documents), so a wrapper can never turn into false NB301 findings on
the raw ``X`` or a TypeError.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st
from scripts import run_concurrently

import nblint
from nblint.cli import main
from nblint.core.atomic import TEMPORARY_MARK
from nblint.estimators.fix import mapping_path
from nblint.structure.budget import Budget

pytest.importorskip("sklearn")
from sklearn.calibration import CalibratedClassifierCV  # noqa: E402
from sklearn.experimental import enable_halving_search_cv  # noqa: E402, F401
from sklearn.feature_extraction.text import CountVectorizer  # noqa: E402
from sklearn.model_selection import GridSearchCV, HalvingGridSearchCV, RandomizedSearchCV  # noqa: E402
from sklearn.multiclass import OneVsRestClassifier  # noqa: E402
from sklearn.naive_bayes import BernoulliNB, MultinomialNB  # noqa: E402
from sklearn.pipeline import make_pipeline  # noqa: E402
from sklearn.preprocessing import OneHotEncoder  # noqa: E402

RNG = np.random.default_rng(41)
TABLE = pd.DataFrame({"color": RNG.choice(list("rgb"), 60), "size": RNG.choice(list("SML"), 60)})
DOCS = [" ".join(RNG.choice(["apple", "pear", "kiwi", "plum", "fig"], 5)) for _ in range(60)]
Y = RNG.integers(0, 2, 60)

WRAPPERS = {
    "GridSearchCV": lambda pipe, model: GridSearchCV(pipe, {f"{model}__alpha": [0.5, 1.0]}, cv=2),
    "RandomizedSearchCV": lambda pipe, model: RandomizedSearchCV(
        pipe, {f"{model}__alpha": [0.5, 1.0]}, n_iter=2, cv=2, random_state=0
    ),
    "HalvingGridSearchCV": lambda pipe, model: HalvingGridSearchCV(
        pipe, {f"{model}__alpha": [0.5, 1.0]}, cv=2, min_resources=20
    ),
    "refit=False": lambda pipe, model: GridSearchCV(pipe, {f"{model}__alpha": [0.5, 1.0]}, cv=2, refit=False),
    "CalibratedClassifierCV": lambda pipe, model: CalibratedClassifierCV(pipe, cv=2),
    "OneVsRestClassifier": lambda pipe, model: OneVsRestClassifier(pipe),
}
INPUTS = {
    "table": (lambda: make_pipeline(OneHotEncoder(handle_unknown="ignore"), BernoulliNB()), "bernoullinb", TABLE),
    "documents": (lambda: make_pipeline(CountVectorizer(), MultinomialNB()), "multinomialnb", DOCS),
}


def lint(estimator, X) -> list[tuple[str, list[str], str]]:
    return [(f.code, f.columns, f.message) for f in nblint.check_pipeline(estimator, X, Y)]


def fit(estimator, X):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (tiny folds: scikit-learn's own warnings are not the point)
        return estimator.fit(X, Y)


def inner_fitted(wrapper):
    """The fitted pipeline a wrapper holds, by scikit-learn's documented attributes (None: refit=False)."""
    if isinstance(wrapper, CalibratedClassifierCV):
        return wrapper.calibrated_classifiers_[0].estimator
    if isinstance(wrapper, OneVsRestClassifier):
        return wrapper.estimators_[0]
    return getattr(wrapper, "best_estimator_", None)


@pytest.mark.parametrize("wrapper", sorted(WRAPPERS))
@pytest.mark.parametrize("kind", sorted(INPUTS))
def test_an_unfitted_wrapper_is_linted_as_the_pipeline_it_wraps(kind, wrapper):
    make, model, X = INPUTS[kind]
    found = lint(WRAPPERS[wrapper](make(), model), X)
    assert found == lint(make(), X)
    assert "NB301" not in {code for code, _, _ in found}


@pytest.mark.parametrize("wrapper", sorted(WRAPPERS))
@pytest.mark.parametrize("kind", sorted(INPUTS))
def test_a_fitted_wrapper_is_linted_as_the_fitted_pipeline_it_holds(kind, wrapper):
    make, model, X = INPUTS[kind]
    search = fit(WRAPPERS[wrapper](make(), model), X)
    inner = inner_fitted(search)
    found = lint(search, X)
    pipeline_rules = [f for f in found if f[0].startswith("NB5") and f[0] != "NB511"]
    if inner is None:  # refit=False keeps no fitted pipeline: read as the one it was given
        assert found == lint(make(), X)
    else:
        assert [f for f in found if not f[0].startswith("NB5")] == [
            f for f in lint(inner, X) if not f[0].startswith("NB5")
        ]
    assert pipeline_rules == [f for f in lint(make(), X) if f[0].startswith("NB5") and f[0] != "NB511"]
    assert "NB301" not in {code for code, _, _ in found}
    if kind == "table" and inner is not None:  # the encoder's group is what BernoulliNB reads
        assert {"NB101", "NB307"} <= {code for code, _, _ in found}


def test_a_wrapper_of_a_wrapper_and_a_model_alone():
    nb = BernoulliNB()
    nested = CalibratedClassifierCV(GridSearchCV(make_pipeline(OneHotEncoder(), nb), {"bernoullinb__alpha": [1.0]}))
    assert lint(nested, TABLE) == lint(make_pipeline(OneHotEncoder(), BernoulliNB()), TABLE)
    codes = pd.get_dummies(TABLE, dtype=int)
    assert lint(GridSearchCV(BernoulliNB(), {"alpha": [0.5, 1.0]}), codes) == lint(BernoulliNB(), codes)


# --------------------------------------------------------------------------- item 2: levels past the cap


def _shops(levels: int, n: int, seed: int = 0) -> pd.DataFrame:
    """A categorical column of ``levels`` shops (heavy-tailed: many rare ones) beside a three-class target."""
    rng = np.random.default_rng(seed)
    codes = np.concatenate([np.arange(levels), rng.zipf(1.2, n - levels) % levels])
    y = rng.choice(["a", "b", "c"], n, p=[0.2, 0.3, 0.5])
    return pd.DataFrame({"shop": [f"s{k:06d}" for k in codes], "y": y})


def _per_level(report, code):
    return [(f.message, f.evidence) for f in report.findings if f.code == code]


def test_zero_cells_and_rare_levels_past_the_cap_are_those_below_it(monkeypatch):
    """The same column read through its dense table (below the cap) and by its (value, class) pairs past it.

    A small memory budget lowers the profile's cap on levels (NB106 says so) but leaves the
    pass over the pairs room: NB201 and NB203 must say the same, evidence and all.
    """
    frame = _shops(400, 3000)
    for k in range(50):  # (the cap follows the budget per column: enough columns to push it below 400 levels)
        frame[f"x{k}"] = np.random.default_rng(k).normal(size=len(frame))
    select = ["NB201", "NB202", "NB203", "NB106"]
    below = nblint.check(frame, target="y", select=select, model="categorical")
    monkeypatch.setenv("NBLINT_MEMORY_BUDGET", "1MiB")
    past = nblint.check(frame, target="y", select=select, model="categorical")
    (note,) = [f.message for f in past.findings if f.code == "NB106"]
    assert note.startswith("distinct values counted exactly up to ") and "'shop'" not in note
    for code in ("NB201", "NB202", "NB203"):
        assert _per_level(past, code) == _per_level(below, code), code
    assert _per_level(below, "NB201") and _per_level(below, "NB203")


@pytest.mark.parametrize("levels", [1_100, pytest.param(100_000, marks=pytest.mark.slow)])
def test_zero_cells_and_rare_levels_are_counted_at_any_number_of_levels(levels):
    """Past the cap of 1,000 levels NB201 and NB203 were skipped (an NB106 note, exit 0): pandas is the oracle."""
    frame = _shops(levels, 3 * levels)
    report = nblint.check(frame, target="y", select=["NB106", "NB201", "NB202", "NB203"])
    assert not [f for f in report.findings if f.code == "NB106"]
    totals = frame["shop"].value_counts()
    ((message, rare),) = _per_level(report, "NB203")
    assert rare["levels"] == levels and rare["rare_levels"] == {
        k: int(t) for k, t in sorted(totals[totals < 5].items())
    }
    assert message.startswith(f"column 'shop': {int((totals < 5).sum())} of {levels} levels have fewer than 5 rows")
    assert not _per_level(report, "NB202")  # (random classes: no level's cells are NB202's instead)
    table = pd.crosstab(frame["shop"], frame["y"])
    class_rows = frame["y"].value_counts()
    ((_, zero),) = _per_level(report, "NB201")
    assert zero["zero_cells"] == int((table == 0).to_numpy().sum())
    assert zero["vetoed_rows"] == int(((table == 0) * class_rows[table.columns]).to_numpy().sum())


def test_a_column_past_the_memory_budget_for_its_pairs_makes_the_run_fail_as_incomplete(tmp_path, monkeypatch):
    """Where a cap remains (the pairs would not fit the memory budget) NB106 is a warning: exit 1, not 'passed'."""
    path = tmp_path / "shops.csv"
    rng = np.random.default_rng(0)
    pd.DataFrame({"shop": [f"s{k}" for k in rng.integers(0, 5000, 20_000)], "y": rng.integers(0, 2, 20_000)}).to_csv(
        path, index=False
    )
    result = cli("check", path, "--target", "y", env={"NBLINT_MEMORY_BUDGET": "1MiB"})
    assert result.exit_code == 1, result.output
    (line,) = [line for line in result.stdout.splitlines() if ": NB106" in line]
    assert line.startswith(f"{path}: NB106 [warning] 1 discrete column with more distinct (value, class) pairs than")
    assert "'shop'" in line and all(code in line for code in ("NB201", "NB202", "NB203", "NB208"))
    assert cli("check", path, "--target", "y").exit_code == 0  # (within the default budget: read, nothing to say)


def test_columns_recoding_each_other_past_the_cap_are_found_and_a_cut_search_says_so():
    """NB105 read no column past the cap on levels; its search cut at 200 candidate pairs said nothing."""
    rng = np.random.default_rng(0)
    codes = rng.permutation(np.repeat(np.arange(1200), 12))
    frame = pd.DataFrame(
        {
            "store": [f"s{c:05d}" for c in codes],
            "store_code": [f"c{p}" for p in rng.permutation(1200)[codes]],
            "other": [f"o{c}" for c in rng.integers(0, 1200, len(codes))],  # (as many values: no recoding)
            "y": rng.integers(0, 2, len(codes)),
        }
    )
    (finding,) = nblint.check(frame, target="y", select=["NB105", "NB106"]).findings
    assert finding.columns == ["store", "store_code"] and "each of the 1200 values of one" in finding.message
    assert pd.crosstab(frame["store"], frame["store_code"]).astype(bool).sum(axis=1).eq(1).all()  # (the oracle)
    base = rng.integers(0, 3, 120)
    relabelled = pd.DataFrame({f"c{k:02d}": np.array([f"{k}a", f"{k}b", f"{k}c"])[(base + k) % 3] for k in range(22)})
    relabelled["y"] = rng.integers(0, 2, 120)
    report = nblint.check(relabelled, target="y", select=["NB105", "NB106"])
    assert len([f for f in report.findings if f.code == "NB105"]) == 200
    (note,) = [f for f in report.findings if f.code == "NB106"]
    assert note.severity.name == "WARNING" and "the first 200 of 231 candidate pairs" in note.message


@given(
    st.integers(1, 6).flatmap(
        lambda classes: st.tuples(
            st.just(classes),
            st.lists(st.lists(st.integers(0, 3), min_size=classes, max_size=classes), min_size=1, max_size=12),
            st.lists(st.booleans(), min_size=classes, max_size=classes),
            st.integers(0, 30),
        )
    )
)
def test_zero_cells_from_the_non_empty_cells_are_the_dense_tables(case):
    """:meth:`PairLevels.zero_cells` against the dense table's cells, as NB201 lists them below the cap."""
    from nblint.profile.levels import PairLevels

    n_classes, rows, counted, limit = case
    table = np.array(rows, dtype=np.int64)
    table = table[table.sum(axis=1) > 0]  # (a level is a value that occurs)
    counted = np.array(counted)
    class_rows = np.arange(1, n_classes + 1) * 10
    keys = tuple(f"k{i}" for i in range(len(table)))
    level, klass = np.nonzero(table)
    skip = set(keys[::3])
    dense = [(k, int(c)) for k, row in zip(keys, table) if k not in skip for c in np.flatnonzero((row == 0) & counted)]
    count, vetoed, cells = PairLevels(keys, level, klass, table[level, klass]).zero_cells(
        counted, class_rows, skip, limit
    )
    assert (count, vetoed, cells) == (len(dense), sum(int(class_rows[c]) for _, c in dense), dense[:limit])


# --------------------------------------------------------------------------- item 5: outputs paired and clean


def cli(*args, env=None):
    result = CliRunner(env=env).invoke(main, [str(a) for a in args])
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result


def onehot_csv(path: Path, n: int, seed: int = 0) -> Path:
    """A table with one one-hot group (so ``fix`` writes a table and a mapping) and ``n`` rows."""
    rng = np.random.default_rng(seed)
    colour = rng.integers(0, 3, n)
    frame = pd.DataFrame(
        {f"colour_{name}": (colour == k).astype(int) for k, name in enumerate(["red", "green", "blue"])}
    )
    frame["y"] = np.where(rng.random(n) < 0.5, "yes", "no")
    frame.to_csv(path, index=False)
    return path


def temporaries(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if TEMPORARY_MARK in p.name or p.name.endswith(".nblint-new"))


def test_a_failed_mapping_move_leaves_the_previous_pair(tmp_path):
    """The mapping cannot replace what is there (a folder): the table already moved is put back, one error line."""
    data = onehot_csv(tmp_path / "data.csv", 200)
    out = tmp_path / "fixed.csv"
    out.write_text("previous table\n")
    (Path(mapping_path(str(out))) / "inside").mkdir(parents=True)
    result = cli("fix", data, "-o", out, "--force")
    assert result.exit_code == 2
    assert result.stderr == f"{mapping_path(str(out))}: error: cannot write: Is a directory\n"
    assert out.read_text() == "previous table\n"
    assert temporaries(tmp_path) == []


def test_without_force_a_pair_is_written_whole_or_not_at_all(tmp_path):
    data = onehot_csv(tmp_path / "data.csv", 200)
    out = tmp_path / "fixed.csv"
    assert cli("fix", data, "-o", out).exit_code == 0
    table, mapping = out.read_bytes(), Path(mapping_path(str(out))).read_bytes()
    assert json.loads(mapping)["groups"][0]["members"] == ["colour_red", "colour_green", "colour_blue"]
    assert pd.read_csv(out).shape == (200, 2)
    assert cli("fix", data, "-o", out).exit_code == 2  # both exist: nothing replaced
    assert (out.read_bytes(), Path(mapping_path(str(out))).read_bytes()) == (table, mapping)
    assert temporaries(tmp_path) == []


def test_orphaned_partial_outputs_are_swept_and_a_live_writers_are_kept(tmp_path):
    """A partial output whose writer died (its lock free) is removed by the next run; one still locked is not."""
    fcntl = pytest.importorskip("fcntl")
    data = onehot_csv(tmp_path / "data.csv", 200)
    out = tmp_path / "fixed.csv"
    orphan = tmp_path / f".fixed.csv.k1lled{TEMPORARY_MARK}.csv"
    orphan.write_text("half a table")
    live = tmp_path / f".fixed.csv.w0rk1n{TEMPORARY_MARK}.csv"
    live.write_text("being written")
    with open(live) as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)  # as its writer holds it
        assert cli("fix", data, "-o", out).exit_code == 0
        assert temporaries(tmp_path) == [live.name]
    assert cli("fix", data, "-o", out, "--force").exit_code == 0
    assert temporaries(tmp_path) == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["data.csv", "fixed.csv", "fixed.mapping.json"]


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(os, "fork"), reason="the runs are processes forked at once")
def test_concurrent_forced_runs_never_pair_one_table_with_another_mapping(tmp_path, script_runner):
    """Two sources of different lengths fixed into one output at once: the mapping always names the table's source.

    Each round's four runs are processes of their own, forked together from one interpreter that
    imported nblint once (``run_concurrently``): they race for the output as four ``nblint fix`` would.
    """
    sources = {str(onehot_csv(tmp_path / f"data{n}.csv", n, seed=n)): n for n in (3_000, 5_000)}
    out = tmp_path / "fixed.csv"
    for _ in range(3):
        runs = [["fix", source, "-o", str(out), "--force"] for source in sources for _ in range(2)]
        assert run_concurrently(script_runner, tmp_path, runs) == [0] * len(runs)
        source = json.loads(Path(mapping_path(str(out))).read_text())["source"]
        assert len(pd.read_csv(out)) == sources[source]
        assert temporaries(tmp_path) == []


#: Run the CLI, SIGKILLed between the table's move and the mapping's (the only way to stop a commit there:
#: it holds back every signal nblint can catch).
_KILLED_BETWEEN_MOVES = """
import os, signal, sys
import nblint.core.atomic as atomic

def killed(move):
    def moved(src, dst, *args, **kwargs):
        if str(dst).endswith(".mapping.json") and atomic.TEMPORARY_MARK in str(src):
            os.kill(os.getpid(), signal.SIGKILL)
        return move(src, dst, *args, **kwargs)
    return moved

atomic.os.replace = killed(os.replace)
atomic._link_new = killed(atomic._link_new)
from nblint.cli import main
sys.exit(main())
"""


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(signal, "SIGKILL") or os.name != "posix", reason="SIGKILL and flock: POSIX")
@pytest.mark.parametrize("force", [True, False], ids=["force", "new"])
def test_a_commit_killed_between_its_moves_is_rolled_back_by_the_next_run(tmp_path, force):
    """SIGKILL after the table's move, before the mapping's: the next run puts the previous pair back (or none)."""
    script = tmp_path / "killed.py"
    script.write_text(_KILLED_BETWEEN_MOVES)
    first, second = onehot_csv(tmp_path / "first.csv", 100, seed=1), onehot_csv(tmp_path / "second.csv", 300, seed=2)
    out = tmp_path / "fixed.csv"
    mapping = Path(mapping_path(str(out)))
    if force:
        assert cli("fix", first, "-o", out).exit_code == 0
    before = (out.read_bytes(), mapping.read_bytes()) if force else None
    run = [sys.executable, str(script), "fix", str(second), "-o", str(out)] + (["--force"] if force else [])
    killed = subprocess.run(run, capture_output=True, timeout=600)
    assert killed.returncode == -signal.SIGKILL
    assert len(pd.read_csv(out)) == 300  # the half-done state: the new table ...
    assert (mapping.read_bytes() == before[1]) if force else not mapping.exists()  # ... beside the old mapping
    # The next run that writes here (with --force or without) first puts the previous pair back.
    assert cli("fix", first, "-o", out, *(["--force"] if force else [])).exit_code == 0
    assert json.loads(mapping.read_text())["source"] == str(first) and len(pd.read_csv(out)) == 100
    assert temporaries(tmp_path) == []
    if force:
        from nblint.core.atomic import sweep_orphans

        killed = subprocess.run(run, capture_output=True, timeout=600)
        assert killed.returncode == -signal.SIGKILL
        sweep_orphans(str(tmp_path))  # (what any run writing into the folder does first)
        assert (out.read_bytes(), mapping.read_bytes()) == before and temporaries(tmp_path) == []


def _handles(pid: int, signum: int) -> bool:
    """Whether process ``pid`` has a handler for ``signum`` (Linux: the SigCgt mask in /proc)."""
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("SigCgt:"):
                return bool(int(line.split()[1], 16) >> (signum - 1) & 1)
    return False


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads the signal mask from /proc")
@pytest.mark.parametrize("name", ["SIGHUP", "SIGUSR1"])
def test_sighup_and_sigusr1_are_handled_like_sigterm(tmp_path, name):
    """A run waiting on standard input gets the signal: one line, exit 128 + its number, no temporary file left."""
    signum = getattr(signal, name)
    temp = tmp_path / "tmp"
    temp.mkdir()
    process = subprocess.Popen(
        [sys.executable, "-m", "nblint", "check", "-", "--target", "y"],
        env=dict(os.environ, TMPDIR=str(temp)),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    process.stdin.write(b"a,b,y\n1,0,x\n")
    process.stdin.flush()
    deadline = time.monotonic() + 60
    while not _handles(process.pid, signum):
        assert process.poll() is None and time.monotonic() < deadline
        time.sleep(0.01)
    process.send_signal(signum)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 128 + signum
    assert err.decode() == f"nblint: interrupted by {name}\n" and out == b""
    assert [n for n in os.listdir(temp) if not n.endswith(".lock")] == []


# --------------------------------------------------------------------------- item 6: configs and encodings

GOOD = "a,b,y\n1,0,x\n0,1,y\n1,0,x\n"


def assert_only_error(result, path, message: str, good=None):
    """Exit 2, exactly one stderr line ``path: error: message``; the good file still linted."""
    assert result.exit_code == 2, result.output
    assert result.stderr == f"{path}: error: {message}\n"
    if good is not None:
        assert f"{good}: NB101" in result.stdout


@pytest.mark.parametrize("encoding", ["hex", "rot13", "base64"])
def test_a_codec_that_is_not_a_text_encoding_is_one_error_line(tmp_path, encoding):
    path = tmp_path / "data.csv"
    path.write_text(GOOD)
    result = cli("check", path, "--target", "y", "--encoding", encoding)
    assert_only_error(
        result, path, f"{encoding!r} is not a text encoding (a text encoding is, for example, utf-8 or latin-1)"
    )


@pytest.mark.parametrize(
    "config, message",
    [
        ("tool = 5\n", "'tool' must be a table ([tool.nblint]), got 5"),
        ('[tool]\nnblint = "x"\n', "'tool.nblint' must be a table ([tool.nblint]), got 'x'"),
        (
            "[tool]\nnblint = " + "9" * 60 + "\n",
            "'tool.nblint' must be a table ([tool.nblint]), got a very long integer",
        ),
        ("[tool.nblint]\nalpha = " + "9" * 5000 + "\n", "invalid config: an integer of more than 4,300 digits"),
    ],
    ids=["tool=5", "nblint=x", "nblint=long", "alpha=5000 digits"],
)
def test_a_tool_table_that_is_not_a_table_is_one_error_line(tmp_path, monkeypatch, config, message):
    (tmp_path / "pyproject.toml").write_text(config)
    (tmp_path / "data.csv").write_text(GOOD)
    monkeypatch.chdir(tmp_path)
    result = cli("check", "data.csv", "--target", "y")
    assert_only_error(result, tmp_path / "pyproject.toml", message)


def test_a_toml_config_with_a_byte_order_mark_is_read(tmp_path, monkeypatch):
    (tmp_path / "nblint.toml").write_bytes(b'\xef\xbb\xbftarget = "y"\nselect = ["NB101"]\n')
    (tmp_path / "data.csv").write_text(GOOD)
    monkeypatch.chdir(tmp_path)
    result = cli("check", "data.csv")
    assert result.exit_code == 1 and result.stderr == ""
    assert result.stdout.splitlines()[0].startswith("data.csv: NB101 [warning] columns a, b form a one-hot group")
    assert result.stdout.count(": NB") == 1  # select = ["NB101"] was read


@pytest.mark.parametrize("suffix", [".json", ".yaml"])
def test_a_5000_digit_integer_in_a_pipeline_config_is_one_error_line(tmp_path, suffix):
    digits = "9" * 5000
    path = tmp_path / f"pipeline{suffix}"
    if suffix == ".json":
        path.write_text('{"model": {"_target_": "sklearn.naive_bayes.BernoulliNB", "alpha": ' + digits + "}}")
    else:
        path.write_text("model:\n  _target_: sklearn.naive_bayes.BernoulliNB\n  alpha: " + digits + "\n")
    good = tmp_path / "good.csv"
    good.write_text(GOOD)
    result = cli("check", path, good, "--target", "y")
    assert_only_error(result, path, "an integer of more than 4,300 digits: no parameter of a pipeline takes one", good)


@pytest.mark.slow
def test_many_plain_yaml_values_are_not_taken_for_an_alias_bomb(tmp_path):
    """1.2 million values written out (no alias): read, not refused as "aliases expand"; a real bomb still is."""
    path = tmp_path / "pipeline.yaml"
    path.write_text(
        "model:\n  _target_: sklearn.naive_bayes.BernoulliNB\n  alpha: 0\nlevels: [" + "0," * 1_200_000 + "0]\n"
    )
    result = cli("check", path)
    assert result.stderr == "" and ": NB502" in result.stdout  # alpha = 0: read to the end
    bomb = tmp_path / "bomb.yaml"
    lines = ["model:", "  _target_: sklearn.naive_bayes.BernoulliNB", "a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]" for i in range(1, 8)]
    bomb.write_text("\n".join(lines) + "\n")
    assert_only_error(cli("check", bomb), bomb, "YAML aliases expand to more than 1,000,000 values")


def test_many_plain_yaml_keys_are_not_taken_for_an_alias_bomb(tmp_path, monkeypatch):
    """The issue's case as it was reported: plain keys of one mapping (no alias) past the bound, read to the end.

    (Reported with 500,000 keys against the bound of a million values; the test above reads that many
    values written out. Here the bound is a thousand, and the keys and values written out pass it.)
    """
    monkeypatch.setattr("nblint.pipelines.tree.MAX_EXPANDED_NODES", 1_000)
    path = tmp_path / "pipeline.yaml"
    lines = ["model:", "  _target_: sklearn.naive_bayes.BernoulliNB", "  alpha: 0", "levels:"]
    path.write_text("\n".join(lines + [f"  k{i}: {i}" for i in range(1_000)]) + "\n")
    result = cli("check", path)
    assert result.stderr == "" and ": NB502" in result.stdout  # alpha = 0: read to the end


# --------------------------------------------------------------------------- item 6: what a file is


@pytest.mark.parametrize("blank", ["\n", "\r\n\r\n", "\n" * 70_000], ids=["one", "two-crlf", "70k"])
def test_blank_lines_before_the_header_are_skipped_as_pandas_does(tmp_path, blank):
    plain, padded = tmp_path / "plain.csv", tmp_path / "padded.csv"
    plain.write_text(GOOD)
    padded.write_bytes(blank.encode() + GOOD.encode())
    assert pd.read_csv(padded).equals(pd.read_csv(plain))  # the oracle: pandas reads the same table
    expected = cli("check", plain, "--target", "y", "--format", "json").stdout.replace(str(plain), "TABLE")
    result = cli("check", padded, "--target", "y", "--format", "json")
    assert result.stderr == "" and result.stdout.replace(str(padded), "TABLE") == expected


def test_columns_pipeline_reads_a_semicolon_file_with_its_delimiter(tmp_path):
    path = tmp_path / "semi.csv"
    path.write_text(GOOD.replace(",", ";"))
    result = cli("columns", path, "--pipeline", "--target", "y")
    (line,) = [line for line in result.stdout.splitlines() if "read_csv" in line]
    assert line == f"table = pd.read_csv({str(path)!r}, sep=';')"
    assert list(pd.read_csv(path, sep=";").columns) == ["a", "b", "y"]  # what the printed call reads


def test_a_json_table_and_json_lines_are_one_error_line_each(tmp_path):
    frame = pd.read_csv(__import__("io").StringIO(GOOD))
    records, lines, good = tmp_path / "t.json", tmp_path / "t.jsonl", tmp_path / "good.csv"
    frame.to_json(records, orient="records")
    frame.to_json(lines, orient="records", lines=True)
    good.write_text(GOOD)
    result = cli("check", records, lines, good, "--target", "y")
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        f"{records}: error: a table in JSON (an array of records): nblint reads tables from CSV, TSV, Parquet, "
        "Arrow and Excel files (convert it: pandas.read_json(path).to_parquet(...))",
        f"{lines}: error: JSON Lines is not a table format nblint reads: convert it to CSV or Parquet "
        "(pandas.read_json(path, lines=True).to_parquet(...))",
    ]
    assert f"{good}: NB101" in result.stdout


def test_a_json_file_that_is_no_table_and_no_pipeline_is_still_passed_over(tmp_path):
    path = tmp_path / "package.json"
    path.write_text('{"name": "x", "files": ["a", "b"]}')
    result = cli("check", path)
    assert (result.exit_code, result.stderr) == (0, "")


def test_sheet_for_a_csv_says_it_is_ignored(tmp_path):
    path = tmp_path / "good.csv"
    path.write_text(GOOD)
    result = cli("check", path, "--target", "y", "--sheet", "2", "--select", "NB101")
    assert result.exit_code == 1 and f"{path}: NB101" in result.stdout
    assert result.stderr == f"{path}: warning: --sheet names a sheet of an Excel workbook: ignored for this file\n"


# --------------------------------------------------------------------------- item 6: the API, numbers and messages


@pytest.mark.parametrize(
    "y, message",
    [
        (np.array([[0, 1], [1, 0], [0, 1], [1, 0]]), "y must be 1-D (one class per row), got shape (4, 2)"),
        (
            __import__("scipy.sparse").sparse.csr_matrix(np.array([[0], [1], [0], [1]])),
            "y must be 1-D (one class per row), got a sparse matrix of shape (4, 1)",
        ),
    ],
    ids=["2-D", "sparse"],
)
def test_a_2d_or_sparse_y_is_one_clear_error(y, message):
    with pytest.raises(ValueError) as raised:
        nblint.check(np.array([[1, 0], [0, 1], [1, 0], [0, 1]]), y)
    assert str(raised.value) == message


def test_a_column_vector_y_is_read_as_scikit_learn_reads_it():
    X, y = np.array([[1, 0], [0, 1], [1, 0], [0, 1]]), np.array([0, 1, 0, 1])
    assert nblint.check(X, y[:, None]).to_json() == nblint.check(X, y).to_json()


def test_feature_names_as_one_string_is_refused():
    X = np.array([[1, 0, 1], [0, 1, 1]])
    with pytest.raises(ValueError, match=r"^feature_names must be a sequence of names, one per column, not one string"):
        nblint.check(X, [0, 1], feature_names="abc")  # three letters for three columns: still not names


def test_an_alpha_near_the_float_maximum_scores_without_numpy_warnings():
    """alpha * K overflows: the ratio is taken with alpha divided out, as the limit says (every level 1/K)."""
    from sklearn.naive_bayes import CategoricalNB

    from nblint.nbmath import categorical_log_theta

    counts = np.array([[3.0, 0.0, 1.0], [0.0, 5.0, 5.0]])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        log_theta = categorical_log_theta(counts, 1e308)
        rng = np.random.default_rng(0)
        X = pd.DataFrame({"c_a": rng.integers(0, 2, 60), "k": rng.choice(list("xyz"), 60), "g": rng.normal(size=60)})
        X["c_b"] = 1 - X["c_a"]
        for model in (None, "bernoulli", "multinomial", "categorical", "gaussian"):
            nblint.check(X, rng.integers(0, 2, 60), alpha=1e308, model=model)
    np.testing.assert_allclose(log_theta, np.log(np.full((2, 3), 1 / 3)))
    fitted = CategoricalNB(alpha=1e300).fit(np.repeat([[0], [1], [2]], [3, 6, 6], axis=0), [0, 0, 0] + [1] * 12)
    np.testing.assert_allclose(fitted.feature_log_prob_[0], np.log(np.full((2, 3), 1 / 3)), rtol=1e-12)


def test_nb201_never_says_up_to_0_0_percent():
    from statsmodels.stats.proportion import proportion_confint

    n = 7_000
    frame = pd.DataFrame({"k": ["common"] * n + ["common", "rare"] * 10, "y": ["a"] * n + ["b"] * 20})
    (finding,) = [f for f in nblint.check(frame, target="y", model="categorical") if f.code == "NB201"]
    upper = proportion_confint(0, n, alpha=0.10, method="beta")[1]  # one-sided 95%: the two-sided 90% interval's top
    assert f"({n} rows; true probability may still be up to {100 * upper:.1g}%)" in finding.message
    assert "0.0%" not in finding.message


def test_github_annotations_escape_control_characters_from_data(tmp_path):
    values = ["a\x07b", "c\x0bd", "e\x1bf", "g\u2028h", "i\x85j", "k\u202el"]
    escaped = ["a\\x07b", "c\\x0bd", "e\\x1bf", "g\\u2028h", "i\\x85j", "k\\u202el"]
    path = tmp_path / "data.csv"
    pd.DataFrame({"k": values * 2, "y": ["x"] * 6 + ["y"] * 6}).to_csv(path, index=False)
    result = cli("check", path, "--target", "y", "--format", "github", "--select", "NB203")
    (line,) = result.stdout.splitlines()
    assert all(ord(char) >= 0x20 and not 0x7F <= ord(char) <= 0x9F for char in line)
    assert not set(line) & {"\u2028", "\u202e"}
    assert all(text in line for text in escaped[:5])


# --------------------------------------------------------------------------- item 6: MixedNB and the frames users have


def _mixed_frames(n: int = 120, seed: int = 3):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    colour = np.where(rng.random(n) < 0.7, np.array(list("ab"))[y], rng.choice(list("abc"), n))
    frame = pd.DataFrame(
        {
            "c": pd.Categorical(colour),
            "b": (rng.random(n) < 0.3 + 0.4 * y),
            "m": pd.Series(np.array([1, "x", 2.5, "y"], dtype=object)[rng.integers(0, 4, n)], dtype=object),
            "g": rng.normal(y, 1.0, n),
        }
    )
    return frame, y


def test_mixednb_reads_a_categorical_beside_a_bool_and_a_column_mixing_numbers_and_text():
    from nblint import MixedNB

    frame, y = _mixed_frames()
    kinds = {"c": "categorical", "b": "bernoulli", "m": "categorical", "g": "gaussian"}
    plain = pd.DataFrame(
        {"c": frame["c"].astype(str), "b": frame["b"].astype(int), "m": frame["m"].map(repr), "g": frame["g"]}
    )
    got = MixedNB(kinds=kinds, weights=None).fit(frame, y)
    expected = MixedNB(kinds=kinds, weights=None).fit(plain, y)
    np.testing.assert_allclose(got.predict_proba(frame), expected.predict_proba(plain), rtol=1e-12)
    assert [f.model for f in MixedNB().fit(frame, y).features_]  # and kinds="auto" reads it too


def test_mixednb_refuses_a_datetime_column_by_name():
    from nblint import MixedNB

    frame, y = _mixed_frames()
    frame["when"] = pd.date_range("2024-01-01", periods=len(frame), freq="h")
    with pytest.raises(ValueError, match=r"^column 'when' holds dates or durations \(datetime64\[\w+\]\): MixedNB"):
        MixedNB().fit(frame, y)


def test_mixednb_sample_weight_counts_a_row_as_its_weight():
    """Integer weights are repeated rows (every statistic), and scikit-learn's CategoricalNB/GaussianNB agree."""
    from sklearn.naive_bayes import CategoricalNB, GaussianNB

    from nblint import MixedNB

    frame, y = _mixed_frames()
    w = np.random.default_rng(4).integers(0, 4, len(frame))
    kinds = {"c": "categorical", "b": "bernoulli", "m": "categorical", "g": "gaussian"}
    weighted = MixedNB(kinds=kinds, weights=None).fit(frame, y, sample_weight=w)
    repeated = MixedNB(kinds=kinds, weights=None).fit(frame.loc[frame.index.repeat(w)], np.repeat(y, w))
    np.testing.assert_allclose(weighted.predict_proba(frame), repeated.predict_proba(frame), rtol=1e-9)
    codes = frame[["c"]].apply(lambda s: s.cat.codes).to_numpy()
    alone = MixedNB(kinds={"c": "categorical"}, weights=None).fit(frame[["c"]], y, sample_weight=w)
    oracle = CategoricalNB(alpha=1.0).fit(codes, y, sample_weight=w)
    np.testing.assert_allclose(alone.predict_proba(frame[["c"]]), oracle.predict_proba(codes), rtol=1e-9)
    gaussian = MixedNB(kinds="gaussian", weights=None).fit(frame[["g"]], y, sample_weight=w + 0.5)
    oracle = GaussianNB().fit(frame[["g"]], y, sample_weight=w + 0.5)
    np.testing.assert_allclose(gaussian.theta_, oracle.theta_, rtol=1e-9)
    assert np.all(np.isfinite(MixedNB().fit(frame, y, sample_weight=w).weights_))  # WANBIA with weights too
    with pytest.raises(ValueError):
        MixedNB().fit(frame, y, sample_weight=-w - 1)


def test_a_refused_partial_fit_batch_leaves_the_model_unchanged():
    from nblint import MixedNB

    frame, y = _mixed_frames()
    kinds = {"c": "categorical", "b": "bernoulli", "m": "categorical", "g": "gaussian"}
    first, second = slice(0, 60), slice(60, None)
    refused = frame.iloc[first].copy()
    refused["g"] = refused["g"].astype(object)
    refused.iloc[5, refused.columns.get_loc("g")] = "oops"  # after the categorical counts, before the Gaussian ones
    model = MixedNB(kinds=kinds, weights=None).partial_fit(frame.iloc[first], y[first], classes=[0, 1])
    with pytest.raises(ValueError, match="the Gaussian columns must hold numbers"):
        model.partial_fit(refused, y[first])
    model.partial_fit(frame.iloc[second], y[second])
    clean = MixedNB(kinds=kinds, weights=None).partial_fit(frame.iloc[first], y[first], classes=[0, 1])
    clean.partial_fit(frame.iloc[second], y[second])
    np.testing.assert_array_equal(model.class_count_, clean.class_count_)
    np.testing.assert_allclose(model.predict_proba(frame), clean.predict_proba(frame), rtol=0, atol=0)


def test_text_words_renamed_onto_existing_columns_do_not_refuse_the_table(tmp_path):
    path = tmp_path / "docs.csv"
    path.write_text("doc,y,hello,doc:hello\nhello world,a,1,0\nbye world,b,0,1\nhello,a,1,0\nbye,b,0,1\n")
    result = cli("check", path, "--text", "doc", "--target", "y", "--format", "json")
    assert result.stderr == "" and result.exit_code in (0, 1)
    columns = {c for f in json.loads(result.stdout) for c in f["columns"]}
    assert {"doc:hello~2", "doc:hello", "hello"} <= columns  # the word, and the two columns of the table


@pytest.mark.parametrize("nest", ["object", "array"])
def test_a_notebook_whose_outputs_nest_200_levels_is_read(tmp_path, nest):
    deep: object = {}
    for _ in range(200):
        deep = {"x": deep} if nest == "object" else [deep]
    cell = {
        "cell_type": "code",
        "execution_count": 1,
        "metadata": {},
        "source": ["from sklearn.naive_bayes import BernoulliNB\n", "model = BernoulliNB(alpha=0)\n"],
        "outputs": [{"output_type": "execute_result", "execution_count": 1, "metadata": {}, "data": {"x": deep}}],
    }
    path = tmp_path / "deep.ipynb"
    path.write_text(json.dumps({"cells": [cell], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}))
    result = cli("check", path)
    assert result.stderr == "" and f"{path}:cell 1:2: NB502" in result.stdout


# --------------------------------------------------------------------------- item 6: Excel workbooks


def _workbook(path, extra=None):
    openpyxl = pytest.importorskip("openpyxl")
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "data"
    for row in [["a", "b", "y"], [1, 0, "x"], [0, 1, "y"], [1, 0, "x"], [0, 1, "y"]]:
        sheet.append(row)
    if extra is not None:
        extra(book, sheet)
    book.save(path)
    return path


def _rewritten(src, dst, change):
    import zipfile

    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w") as zout:
        for item in zin.infolist():
            data = zin.read(item.filename)
            zout.writestr(item, change(data) if item.filename == "xl/worksheets/sheet1.xml" else data)
    return dst


def _same_findings_as_good(tmp_path, path):
    good = _workbook(tmp_path / "good.xlsx")
    expected = cli("check", good, "--target", "y", "--format", "json").stdout.replace(str(good), "BOOK")
    result = cli("check", path, "--target", "y", "--format", "json")
    assert result.stderr == "" and result.stdout.replace(str(path), "BOOK") == expected


def test_a_chart_sheet_first_is_passed_over_for_the_first_sheet_of_cells(tmp_path):
    from openpyxl.chart import BarChart, Reference

    def chart(book, sheet):
        chart_sheet = book.create_chartsheet("chart", 0)
        bars = BarChart()
        bars.add_data(Reference(sheet, min_col=1, min_row=1, max_row=5))
        chart_sheet.add_chart(bars)

    path = _workbook(tmp_path / "chart.xlsx", chart)
    _same_findings_as_good(tmp_path, path)
    result = cli("check", path, "--target", "y", "--sheet", "chart")
    assert_only_error(result, path, "sheet 'chart' is a chart, not a sheet of cells (sheets of cells: data)")


def test_an_xlsx_named_xls_and_a_blank_first_row_are_read(tmp_path):
    import shutil

    renamed = tmp_path / "book.xls"
    shutil.copy(_workbook(tmp_path / "book.xlsx"), renamed)
    _same_findings_as_good(tmp_path, renamed)
    _same_findings_as_good(tmp_path, _workbook(tmp_path / "blank.xlsx", lambda book, sheet: sheet.insert_rows(1)))


@pytest.mark.parametrize(
    "row, column, address", [(1048576, 16384, "XFD1048576"), (3, 6, "F3")], ids=["XFD1048576", "a-note-beside"]
)
def test_a_cell_right_of_the_header_is_left_out_with_a_note(tmp_path, row, column, address):
    """The sheet's dimension says 1,048,576 x 16,384 cells; only 16 are there: the table is linted, a cell under
    no header is said by NB106 (it was "ragged rows" after a pass over 16,384-cell rows, a hang before that)."""
    path = _workbook(tmp_path / "stray.xlsx", lambda book, sheet: sheet.cell(row=row, column=column, value=1))
    good = _workbook(tmp_path / "good.xlsx")
    started = time.monotonic()
    result = cli("check", path, "--target", "y", "--format", "json")
    assert time.monotonic() - started < 600  # (a hang before; not a timing claim, a bound)
    expected = json.loads(cli("check", good, "--target", "y", "--format", "json").stdout)
    found = json.loads(result.stdout)
    (note,) = [f for f in found if f["code"] == "NB106"]
    assert note["message"] == (
        f"1 cell right of the header's 3 columns (the first at {address}) left out: a cell under no header belongs "
        "to no column (name its column in the header row to lint it)"
    )
    drop = {"path", "evidence"}
    assert [{k: v for k, v in f.items() if k not in drop} for f in found if f["code"] != "NB106"] == [
        {k: v for k, v in f.items() if k not in drop} for f in expected
    ]


@pytest.mark.slow
def test_a_value_far_below_the_table_is_a_row_and_chunks_without_a_label_are_read(tmp_path):
    """A value at A1048576 is a row of the table (the rows between are empty, as Excel's export writes them);
    chunks whose target is missing on every row were an IndexError traceback."""
    path = _workbook(tmp_path / "far.xlsx", lambda book, sheet: sheet.cell(row=1048576, column=1, value=1))
    result = cli("check", path, "--target", "y", "--select", "NB207")
    assert result.stderr == "" and f"{path}: NB207" in result.stdout


@pytest.mark.parametrize(
    "name, make, message",
    [
        (
            "damaged.xlsx",
            lambda tmp, good: _rewritten(good, tmp / "damaged.xlsx", lambda data: data[: len(data) // 2]),
            "damaged sheet 'data' (ParseError: ",
        ),
        (
            "entity.xlsx",
            lambda tmp, good: _rewritten(
                good,
                tmp / "entity.xlsx",
                lambda data: data.replace(b"<worksheet", b'<!DOCTYPE w [<!ENTITY e "boom">]><worksheet', 1),
            ),
            "the workbook's xl/worksheets/sheet1.xml declares a DOCTYPE (XML entities): refused, as Excel never "
            "writes one",
        ),
        (
            "csv.xlsx",
            lambda tmp, good: (tmp / "csv.xlsx").write_text(GOOD) and tmp / "csv.xlsx",
            "text, not a workbook (a CSV file named like one?): an .xlsx is a zip archive and an .xls an OLE2 file; "
            "rename a CSV to .csv",
        ),
        (
            "encrypted.xlsx",
            lambda tmp, good: (
                (tmp / "encrypted.xlsx").write_bytes(
                    bytes.fromhex("D0CF11E0A1B11AE1") + bytes(504) + "EncryptedPackage".encode("utf-16-le")
                )
                and tmp / "encrypted.xlsx"
            ),
            "a password-protected (encrypted) workbook: save it without a password, or export the sheet to CSV",
        ),
        (
            "book.ods",
            lambda tmp, good: (tmp / "book.ods").write_bytes(b"PK\x03\x04mimetype") and tmp / "book.ods",
            "an OpenDocument spreadsheet: nblint reads CSV, TSV, Parquet, Arrow and Excel (.xlsx, .xls) files; "
            "export the sheet to CSV",
        ),
        (
            "empty-first.xlsx",
            lambda tmp, good: _workbook(tmp / "empty-first.xlsx", lambda book, sheet: book.create_sheet("notes", 0)),
            "the first sheet is empty (pass --sheet NAME to read another)",
        ),
    ],
    ids=lambda value: value if isinstance(value, str) and "." in value and " " not in value else "",
)
def test_excel_container_problems_are_one_clear_line(tmp_path, name, make, message):
    path = make(tmp_path, _workbook(tmp_path / "good.xlsx"))
    other = tmp_path / "other.csv"
    other.write_text(GOOD)
    result = cli("check", path, other, "--target", "y")
    assert result.exit_code == 2, result.output
    (line,) = result.stderr.splitlines()
    assert line.startswith(f"{path}: error: {message}")
    assert f"{other}: NB101" in result.stdout


def test_formulas_without_cached_values_say_so_and_an_empty_column_is_still_read(tmp_path):
    def formulas(book, sheet):
        sheet["D1"] = "total"
        for row in range(2, 6):
            sheet[f"D{row}"] = f"=A{row}+B{row}"  # openpyxl writes no value: nothing computed them

    path = _workbook(tmp_path / "formulas.xlsx", formulas)
    result = cli("check", path, "--target", "y")
    assert_only_error(
        result,
        path,
        "column 'total' holds formulas with no value saved (the workbook was written by a program that does not "
        "compute formulas): open and save it in Excel, or export the sheet to CSV",
    )
    empty = _workbook(tmp_path / "empty-column.xlsx", lambda book, sheet: sheet.cell(row=1, column=4, value="notes"))
    result = cli("check", empty, "--target", "y", "--select", "NB101")
    assert result.stderr == "" and f"{empty}: NB101" in result.stdout


# --------------------------------------------------------------------------- item 6: a small address space


def _limited_run(tmp_path, megabytes: int):
    resource = pytest.importorskip("resource")
    table = tmp_path / "small.csv"
    rng = np.random.default_rng(5)
    colour = rng.integers(0, 3, 500)
    frame = pd.DataFrame({f"colour_{k}": (colour == k).astype(int) for k in range(3)})
    frame["height"] = rng.normal(size=500)
    frame["y"] = np.where(rng.random(500) < 0.5, "yes", "no")
    frame.to_csv(table, index=False)
    good = tmp_path / "good.csv"
    good.write_text(GOOD)

    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (megabytes << 20, megabytes << 20))

    env = {k: v for k, v in os.environ.items() if k != "ARROW_DEFAULT_MEMORY_POOL"}
    return subprocess.run(
        [sys.executable, "-m", "nblint", "check", str(table), str(good), "--target", "y"],
        preexec_fn=limit,
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )


@pytest.mark.parametrize(
    "megabytes", [500, pytest.param(650, marks=pytest.mark.slow), pytest.param(800, marks=pytest.mark.slow)]
)
def test_a_small_address_space_gives_findings_or_one_line_per_file(tmp_path, megabytes):
    """ulimit -v 500-800 MB on a 20 KB table: no traceback, no library's own abort, each file linted or one line."""
    result = _limited_run(tmp_path, megabytes)
    assert "Traceback" not in result.stderr and "OpenBLAS" not in result.stderr, result.stderr
    assert result.returncode in (0, 1, 2)
    for line in result.stderr.splitlines():
        assert ": error: out of " in line or line.startswith(("No file checked", "Found ")), line
    if result.returncode == 1:
        assert "small.csv: NB101" in result.stdout and "good.csv: NB101" in result.stdout


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads the signal mask from /proc")
def test_sigterm_under_a_small_address_space_ends_the_run(tmp_path):
    """Under ulimit -v 500 MB a BLAS that cannot start its threads spun, ignoring SIGTERM: the run must end.

    The signal arrives once the handler is installed, wherever the run is then (reading, profiling,
    BLAS in the impact fits): it ends with 143 and the one line, or had already finished cleanly (its
    report whole; a signal in the interpreter's exit then ends it by the default action).
    """
    resource = pytest.importorskip("resource")
    table = tmp_path / "table.csv"
    rng = np.random.default_rng(6)
    colour = rng.integers(0, 3, 20_000)
    frame = pd.DataFrame({f"colour_{k}": (colour == k).astype(int) for k in range(3)})
    for k in range(20):
        frame[f"x{k}"] = rng.normal(size=len(frame))
    frame["y"] = np.where(rng.random(len(frame)) < 0.5, "yes", "no")
    frame.to_csv(table, index=False)

    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (500 << 20, 500 << 20))

    env = {k: v for k, v in os.environ.items() if k != "ARROW_DEFAULT_MEMORY_POOL"}
    process = subprocess.Popen(
        [sys.executable, "-m", "nblint", "check", str(table), "--target", "y"],
        preexec_fn=limit,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    deadline = time.monotonic() + 120
    while process.poll() is None and not _handles(process.pid, signal.SIGTERM) and time.monotonic() < deadline:
        time.sleep(0.01)
    time.sleep(0.5)  # (into the run's work)
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
    out, err = process.communicate(timeout=120)  # a spin would time out here
    assert b"Traceback" not in err and b"OpenBLAS" not in err, err
    if process.returncode == 128 + signal.SIGTERM:
        assert err.decode().splitlines()[-1] == "nblint: interrupted by SIGTERM"
    elif process.returncode == -signal.SIGTERM:
        # The command had finished and restored the default handlers (they are the caller's again once
        # the run is over): the signal met the interpreter's exit, after the whole report was written.
        assert b": NB101" in out and out.rstrip().splitlines()[-1].startswith((b"Found ", b"All checks passed")), out
    else:
        assert process.returncode in (0, 1, 2) and b": NB101" in out


def test_resource_errors_are_named_and_others_are_not():
    from nblint.core.resources import resource_error

    assert resource_error(MemoryError()).startswith("out of memory")
    assert resource_error(
        RuntimeError("Unknown error: Failed to launch worker thread: Resource temporarily unavailable")
    ).startswith("out of threads")
    assert resource_error(ValueError("a bug")) is None
    assert resource_error(
        ImportError("/x/_libs/sparse.cpython-311-x86_64-linux-gnu.so: failed to map segment from shared object")
    ).startswith("out of memory")
    assert resource_error(ImportError("No module named 'pandas'")) is None


def test_invalid_bytes_in_a_parquet_string_column_are_one_error_line(tmp_path):
    import pyarrow as pa
    import pyarrow.parquet as pq

    raw = pa.array([b"good words here", b"bad \xff\xfe bytes", b"more words"] * 10, type=pa.binary())
    path = tmp_path / "docs.parquet"
    pq.write_table(pa.table({"doc": raw.view(pa.string()), "y": ["a", "b", "c"] * 10}), path)
    good = tmp_path / "good.csv"
    good.write_text(GOOD)
    message = (
        "column 'doc' holds bytes not valid in UTF-8 (byte 0xff in b'bad \\xff\\xfe bytes'): its writer stored them "
        "in a string column"
    )
    for extra in ([], ["--text", "doc"]):
        result = cli("check", path, good, "--target", "y", *extra)
        assert result.stderr.splitlines()[0] == f"{path}: error: {message}"
    assert_only_error(cli("check", path, "--target", "y"), path, message)


@pytest.mark.parametrize("binary", ["binary", "large_binary"])
def test_a_parquet_bytes_column_read_as_words_is_decoded_strictly(tmp_path, binary):
    """``--text`` on bytes: UTF-8 ones are the documents they spell (as the same column stored as strings); one
    that is not is one error line naming the column and its first bad row, never its escapes counted as words."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    docs = ["good words here", "other words there", "more words", "fine café words"] * 10
    y = ["a", "b", "c", "a"] * 10

    def write(name, values, kind):
        pq.write_table(pa.table({"doc": pa.array(values, type=kind), "y": y}), tmp_path / name)
        return tmp_path / name

    as_text = write("text.parquet", docs, pa.string())
    as_bytes = write("bytes.parquet", [d.encode() for d in docs], getattr(pa, binary)())
    expected = cli("check", as_text, "--target", "y", "--text", "doc", "--format", "json").stdout
    result = cli("check", as_bytes, "--target", "y", "--text", "doc", "--format", "json")
    assert result.stderr == "" and result.stdout == expected.replace(str(as_text), str(as_bytes))
    broken = [d.encode() for d in docs]
    broken[6] = b"bad \xff\xfe bytes"
    broken[9] = "latin-1 caf\xe9".encode("latin-1")
    path = write("broken.parquet", broken, getattr(pa, binary)())
    result = cli("check", path, as_text, "--target", "y", "--text", "doc")
    assert_only_error(
        result,
        path,
        "text column 'doc' holds bytes, and row 6 (0-based) is not valid UTF-8 (byte 0xff in b'bad \\xff\\xfe "
        "bytes'): store the documents as text (decoded with their encoding) to lint their words",
    )
    assert f"{as_text}: NB" in result.stdout  # (the other file still linted)


# ------------------------------------------------------------------ item 2: a group search cut short says so


def test_a_group_search_cut_at_its_budget_is_a_warning_and_the_exit_status_says_so(tmp_path, monkeypatch):
    """Many rare flags on few rows are exclusive by chance everywhere: the exact-cover search runs out of
    its node budget. Groups may then be missing, so NB106 is a warning (exit 1), not an info note.

    (The budget is cut to 2,000 nodes here: spending the 200,000 of a run takes about 20 s of CPU on
    this table, and where the search stops does not change what a cut search is said to be.)
    """
    monkeypatch.setattr(Budget.__init__, "__defaults__", (2_000, False))  # Budget(): the dataclass's defaults
    rng = np.random.default_rng(0)
    rows, columns = 24, 80
    flags = np.zeros((rows, columns), dtype=int)
    for j in range(columns):
        flags[rng.choice(rows, size=2, replace=False), j] = 1
    table = pd.DataFrame(flags, columns=[f"f{j:03d}" for j in range(columns)])
    table["y"] = rng.integers(0, 2, rows)
    path = tmp_path / "flags.csv"
    table.to_csv(path, index=False)
    result = CliRunner().invoke(main, ["check", str(path), "--target", "y", "--select", "NB106", "--format", "json"])
    found = json.loads(result.output)
    cut = [f for f in found if "group search stopped at its budget" in f["message"]]
    assert [f["severity"] for f in cut] == ["warning"]
    assert result.exit_code == 1
