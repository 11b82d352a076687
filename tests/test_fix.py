"""nblint fix (groups collapsed, reversibly) and nblint columns --pipeline (code that runs)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner
from scripts import run_concurrently

from nblint import MixedNB, testing
from nblint.cli import main
from nblint.estimators.fix import REFERENCE, mapping_path, write_fixed
from nblint.readers import DataFrameSource


def colour_table(n: int = 200, seed: int = 0) -> pd.DataFrame:
    """A one-hot group with a name stem, a drop-first dummy group, a text column, a measurement."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    colour = np.where(rng.random(n) < 0.6, y, rng.integers(0, 3, n))
    size = rng.integers(0, 3, n)
    frame = pd.DataFrame({"height": rng.normal(y, 1.0, n)})
    for k, name in enumerate(["red", "green", "blue"]):
        frame[f"colour_{name}"] = (colour == k).astype(int)
    frame["city"] = rng.choice(["Oslo", "Lima", "Pune"], n)
    frame["size_m"] = (size == 1).astype(int)
    frame["size_l"] = (size == 2).astype(int)
    frame["y"] = np.where(y == 1, "yes", "no")
    return frame


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_fix_collapses_groups_and_restore_gives_the_table_back(tmp_path):
    frame = colour_table()
    source = tmp_path / "data.csv"
    frame.to_csv(source, index=False)
    before = source.read_bytes()
    result = run("fix", source, "-o", tmp_path / "fixed.parquet")
    assert result.exit_code == 0, result.output
    fixed = pq.read_table(tmp_path / "fixed.parquet").to_pandas()
    assert list(fixed.columns) == ["height", "colour", "city", "size", "y"]
    colour = np.array(["red", "green", "blue"])[
        frame[["colour_red", "colour_green", "colour_blue"]].to_numpy().argmax(1)
    ]
    assert fixed["colour"].tolist() == colour.tolist()
    size = np.where(frame["size_m"] == 1, "m", np.where(frame["size_l"] == 1, "l", REFERENCE))
    assert fixed["size"].tolist() == size.tolist()
    mapping = json.loads((tmp_path / "fixed.mapping.json").read_text())
    assert [(g["column"], g["kind"], g["levels"]) for g in mapping["groups"]] == [
        ("colour", "one-hot", ["red", "green", "blue"]),
        ("size", "dummy", ["m", "l", REFERENCE]),
    ]
    assert source.read_bytes() == before

    back = run(
        "fix", tmp_path / "fixed.parquet", "--restore", tmp_path / "fixed.mapping.json", "-o", tmp_path / "back.csv"
    )
    assert back.exit_code == 0, back.output
    pd.testing.assert_frame_equal(pd.read_csv(tmp_path / "back.csv"), frame)


def test_fix_streams_chunk_by_chunk(tmp_path):
    frame = colour_table(n=103)
    out = tmp_path / "fixed.csv"
    write_fixed(testing.context(DataFrameSource(frame, chunk_rows=7)), str(out))
    write_fixed(testing.context(frame), str(tmp_path / "whole.csv"))
    assert out.read_bytes() == (tmp_path / "whole.csv").read_bytes()
    assert len(pd.read_csv(out)) == 103


def test_fix_never_writes_an_input(tmp_path, monkeypatch):
    frame = colour_table()
    source = tmp_path / "data.csv"
    frame.to_csv(source, index=False)
    before = source.read_bytes()
    monkeypatch.chdir(tmp_path)
    for output in ("data.csv", "./data.csv", str(source)):
        result = run("fix", "data.csv", "-o", output)
        assert result.exit_code == 2
        assert result.stderr.count("\n") == 1 and "it is an input" in result.stderr
    (tmp_path / "data.mapping.json").write_text("{}")
    # The mapping of data.parquet would be data.mapping.json: writing it is refused too when it is an input.
    refused = run("fix", "data.mapping.json", "-o", "data.parquet")
    assert refused.exit_code == 2 and "it is an input" in refused.stderr
    assert source.read_bytes() == before
    wrong = run("fix", "data.csv", "-o", "fixed.xlsx")
    assert wrong.exit_code == 2 and "must be a .parquet" in wrong.stderr


def test_fix_without_groups_writes_nothing(tmp_path):
    result = run("fix", "examples/clean.csv", "-o", tmp_path / "fixed.parquet")
    assert result.exit_code == 0 and "nothing to collapse" in result.stdout
    assert not (tmp_path / "fixed.parquet").exists()
    assert mapping_path(str(tmp_path / "fixed.csv.gz")) == str(tmp_path / "fixed.mapping.json")


def execute(code: str, cwd, runner) -> None:
    """Run the printed code (our own generated code) and keep its model for the checks: a script of its
    own in ``cwd``, forked from the run's warmed interpreter (conftest's ``script_runner``)."""
    script = cwd / "printed.py"
    script.write_text(code + "\nimport pickle\npickle.dump(model, open('model.pkl', 'wb'))\n")
    ran = runner.run(script)
    assert ran.returncode == 0, ran.stderr[-2000:]


@pytest.mark.slow
def test_columns_pipeline_prints_code_that_fits_the_recommended_model(tmp_path, script_runner):
    import pickle

    frame = colour_table()
    frame["n_visits"] = np.random.default_rng(1).poisson(2, len(frame))
    frame["id"] = np.arange(len(frame))
    path = tmp_path / "data.csv"
    frame.to_csv(path, index=False)
    result = run("columns", path, "--target", "y", "--pipeline")
    assert result.exit_code == 0, result.output
    code = result.stdout
    assert "from nblint import MixedNB" in code and "'one-hot'" in code and "'id': 'drop'" in code
    execute(code, tmp_path, script_runner)
    model = pickle.loads((tmp_path / "model.pkl").read_bytes())
    X = pd.read_csv(path).drop(columns="y")
    auto = MixedNB().fit(X, frame["y"])
    assert [(f.model, f.columns) for f in model.features_] == [(f.model, f.columns) for f in auto.features_]
    np.testing.assert_allclose(model.predict_proba(X), auto.predict_proba(X), rtol=0, atol=1e-12)


@pytest.mark.slow
def test_columns_pipeline_for_one_kind_is_mixednb_too(tmp_path, script_runner):
    """Even where GaussianNB would read every column, the printed model is the MixedNB `impact` weighs (issue 35)."""
    import pickle

    rng = np.random.default_rng(0)
    frame = pd.DataFrame({"u": rng.normal(size=100), "v": rng.normal(size=100), "y": rng.integers(0, 2, 100)})
    path = tmp_path / "data.parquet"
    frame.to_parquet(path)
    code = run("columns", path, "--target", "y", "--pipeline").stdout
    assert "from nblint import MixedNB" in code and "pd.read_parquet" in code
    assert "'u': 'continuous'" in code and "'v': 'continuous'" in code
    execute(code, tmp_path, script_runner)
    model = pickle.loads((tmp_path / "model.pkl").read_bytes())
    auto = MixedNB().fit(frame[["u", "v"]], frame["y"])
    assert [(f.model, f.label) for f in model.features_] == [(f.model, f.label) for f in auto.features_]
    no_target = run("columns", path, "--pipeline")
    assert no_target.exit_code == 2


# --------------------------------------------------------------------------- the documentation's page


ROOT = Path(__file__).resolve().parent.parent
MIXEDNB_PAGE = (ROOT / "docs" / "mixednb.md").read_text()


def readme_block(language: str, containing: str) -> str:
    """The first block of ``language`` on the MixedNB page (docs/mixednb.md) that contains ``containing``."""
    return next(b for b in re.findall(rf"```{language}\n(.*?)```", MIXEDNB_PAGE, flags=re.S) if containing in b)


def test_readme_mixednb_snippet_runs(monkeypatch):
    monkeypatch.chdir(ROOT)
    namespace: dict = {}
    exec(compile(readme_block("python", "MixedNB().fit"), "README.md", "exec"), namespace)
    assert namespace["proba"].shape == (400, 2)
    assert {f.columns[0]: f.model for f in namespace["declared"].features_}["support_calls"] == "multinomial"
    assert namespace["pipeline"].steps[0][1].groups_ == [((0, 1, 2), "one-hot")]


def test_readme_pipeline_and_fix_output_is_what_nblint_prints(tmp_path, monkeypatch):
    block = readme_block("text", "$ nblint columns examples/customers.csv --target churned --pipeline")
    line, *expected = block.splitlines()
    monkeypatch.chdir(ROOT)
    assert run(*line.split()[2:]).stdout.splitlines() == expected
    (tmp_path / "examples").mkdir()
    shutil.copy(ROOT / "examples" / "customers.csv", tmp_path / "examples")
    monkeypatch.chdir(tmp_path)
    line, *expected = readme_block("text", "$ nblint fix").splitlines()
    result = run(*line.split()[2:])
    assert result.exit_code == 0 and result.stdout.splitlines() == expected
    restore = re.search(r"`(nblint fix \S+ --restore .*?)`", MIXEDNB_PAGE).group(1)
    assert run(*restore.split()[1:]).exit_code == 0
    pd.testing.assert_frame_equal(pd.read_csv("back.csv"), pd.read_csv("examples/customers.csv"))


# --------------------------------------------------------------------------- atomic, non-clobbering outputs (issue 24)


def _fix_cli(*args, **kwargs):
    return subprocess.run(
        [sys.executable, "-m", "nblint", "fix", *[str(a) for a in args]], capture_output=True, text=True, **kwargs
    )


def test_fix_refuses_an_existing_output_or_mapping_unless_forced(tmp_path):
    colour_table().to_csv(tmp_path / "data.csv", index=False)
    out = tmp_path / "fixed.csv"
    out.write_text("mine\n")
    result = run("fix", tmp_path / "data.csv", "-o", out)
    assert result.exit_code == 2
    assert result.output == f"{out}: error: the output exists: pass --force to overwrite it\n"
    assert out.read_text() == "mine\n" and not Path(mapping_path(str(out))).exists()
    out.unlink()
    Path(mapping_path(str(out))).write_text("{}")  # the mapping alone exists: nothing is written either
    result = run("fix", tmp_path / "data.csv", "-o", out)
    assert result.exit_code == 2 and not out.exists()
    assert Path(mapping_path(str(out))).read_text() == "{}"
    result = run("fix", tmp_path / "data.csv", "-o", out, "--force")
    assert result.exit_code == 0, result.output
    assert pd.read_csv(out).shape == (200, 5)
    assert json.loads(Path(mapping_path(str(out))).read_text())["nblint_fix_mapping"] == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["data.csv", "fixed.csv", "fixed.mapping.json"]


def test_every_output_option_refuses_an_existing_file(tmp_path):
    colour_table().to_csv(tmp_path / "data.csv", index=False)
    for command in (["check", tmp_path / "data.csv", "--target", "y"], ["schema", tmp_path / "data.csv"]):
        out = tmp_path / "out.txt"
        out.write_text("mine\n")
        result = run(*command, "-o", out)
        assert (result.exit_code, result.output) == (
            2,
            f"{out}: error: the output exists: pass --force to overwrite it\n",
        )
        assert out.read_text() == "mine\n"
        result = run(*command, "-o", out, "--force")
        assert result.exit_code in (0, 1) and out.read_text() != "mine\n"


def test_a_failed_write_leaves_nothing_behind(tmp_path):
    """A file size limit (as a full disk) mid-write: one line, exit 2, no partial output, no temporary file."""
    frame = colour_table(20_000)
    frame.to_csv(tmp_path / "data.csv", index=False)
    out = tmp_path / "fixed.csv"
    code = (
        "import resource, sys; resource.setrlimit(resource.RLIMIT_FSIZE, (200_000, 200_000));"
        "from nblint.cli import main; sys.argv = ['nblint', 'fix', sys.argv[1], '-o', sys.argv[2]]; main()"
    )
    result = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path / "data.csv"), str(out)], capture_output=True, text=True
    )
    assert result.returncode == 2, result.stderr
    assert result.stderr.startswith(f"{out}: error: cannot write: ") and result.stderr.count("\n") == 1
    assert "File too large" in result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["data.csv"]


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(os, "fork"), reason="the writers are processes forked at once")
def test_concurrent_writers_leave_one_complete_file(tmp_path, script_runner):
    frame = colour_table(30_000)
    frame.to_csv(tmp_path / "data.csv", index=False)
    out = tmp_path / "fixed.parquet"
    for force in ([], ["--force"]):  # (each round's three writers forked at once from the warmed interpreter)
        fix = ["fix", str(tmp_path / "data.csv"), "-o", str(out), *force]
        codes = run_concurrently(script_runner, tmp_path, [fix] * 3)
        assert 0 in codes and set(codes) <= {0, 2}, codes
        assert pq.read_table(out).num_rows == 30_000
        assert not [p.name for p in tmp_path.iterdir() if "nblint-tmp" in p.name]
        if not force:
            out.unlink()
            Path(mapping_path(str(out))).unlink()


@pytest.mark.slow
@pytest.mark.parametrize("suffix", [".csv", ".parquet"])
def test_fix_killed_at_random_points_leaves_the_output_absent_or_complete(tmp_path, suffix):
    import random
    import signal
    import time

    n = 400_000
    frame = colour_table(n)
    frame.to_csv(tmp_path / "data.csv", index=False)
    rng = random.Random(24)
    outcomes = set()
    for attempt in range(4):
        out = tmp_path / f"fixed{attempt}{suffix}"
        proc = subprocess.Popen(
            [sys.executable, "-m", "nblint", "fix", str(tmp_path / "data.csv"), "-o", str(out)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        time.sleep(rng.uniform(0.5, 6.0))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        if out.exists():
            rows = pq.read_table(out).num_rows if suffix == ".parquet" else len(pd.read_csv(out))
            assert rows == n
            outcomes.add("complete")
        else:
            assert not Path(mapping_path(str(out))).exists()  # the mapping is written last
            outcomes.add("absent")
    assert outcomes  # (which outcome depends on the machine's speed; either is correct)


# --------------------------------------------------------------------------- lossless for the other columns (issue 24)


def _odd_table(values: dict, n: int) -> pd.DataFrame:
    """A one-hot group g_a/g_b/g_c, a target, and the columns of ``values``."""
    level = np.arange(n) % 3
    frame = pd.DataFrame({f"g_{k}": (level == i).astype(np.int8) for i, k in enumerate("abc")})
    frame["g_b"] = frame["g_b"].astype(bool)  # members of any type come back in it
    for name, column in values.items():
        frame[name] = column
    frame["y"] = np.where(level == 0, "p", "q")
    return frame


def _columns_strategy():
    import decimal

    from hypothesis import strategies as st

    decimals = st.decimals(min_value=-(10**20), max_value=10**20, places=1).map(decimal.Decimal)

    def column(n):
        big = st.integers(-(2**63), 2**63 - 1)
        return st.fixed_dictionaries(
            {
                "i64": st.lists(
                    st.sampled_from([2**53, 2**53 + 1, -(2**63), 2**63 - 1, 0]) | big, min_size=n, max_size=n
                ),
                "u64": st.lists(st.integers(0, 2**64 - 1), min_size=n, max_size=n),
                "f": st.lists(st.floats(allow_nan=False) | st.sampled_from([np.inf, -np.inf]), min_size=n, max_size=n),
                "nint": st.lists(st.none() | st.integers(-(2**63), 2**63 - 1), min_size=n, max_size=n),
                "nbool": st.lists(st.none() | st.booleans(), min_size=n, max_size=n),
                "ts": st.lists(st.integers(0, 2**40), min_size=n, max_size=n),
                "td": st.lists(st.none() | st.integers(-(2**40), 2**40), min_size=n, max_size=n),
                "cat": st.lists(st.sampled_from(["lo", "mid", "hi"]), min_size=n, max_size=n),
                "dec": st.tuples(
                    decimals,  # one decimal at least: a column of nothing but None is of no type
                    st.lists(st.none() | decimals, min_size=n - 1, max_size=n - 1),
                ).map(lambda t: [t[0], *t[1]]),
            }
        )

    return st.integers(6, 12).flatmap(lambda n: column(n).map(lambda d: (n, d)))


def _frame_of(n: int, d: dict) -> pd.DataFrame:
    values = {
        "i64": np.array(d["i64"], dtype=np.int64),
        "u64": np.array(d["u64"], dtype=np.uint64),
        "f": np.array(d["f"], dtype=np.float64),
        "nint": pd.array(d["nint"], dtype="Int64"),
        "nbool": pd.array(d["nbool"], dtype="boolean"),
        "ts": pd.to_datetime(d["ts"], unit="us").tz_localize("Asia/Kolkata"),
        "td": pd.to_timedelta(pd.array(d["td"], dtype="Int64").astype("float64"), unit="us"),
        "cat": pd.Categorical(d["cat"], categories=["lo", "mid", "hi"], ordered=True),
        "dec": d["dec"],
    }
    return _odd_table(values, n)


def test_fix_keeps_the_other_columns_exactly_parquet_round_trip(tmp_path):
    from hypothesis import HealthCheck, Phase, given, settings

    PHASES = (Phase.explicit, Phase.reuse, Phase.generate)  # shrinking these tables takes minutes

    @settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck), phases=PHASES)
    @given(_columns_strategy())
    def check(case):
        n, d = case
        frame = _frame_of(n, d)
        folder = Path(tempfile.mkdtemp(dir=tmp_path))
        frame.to_parquet(folder / "in.parquet", index=False)
        result = run("fix", folder / "in.parquet", "-o", folder / "out.parquet")
        assert result.exit_code == 0, result.output
        fixed = pd.read_parquet(folder / "out.parquet")
        rest = [c for c in frame.columns if not c.startswith("g_")]
        pd.testing.assert_frame_equal(fixed[rest], pd.read_parquet(folder / "in.parquet")[rest])
        assert fixed["g"].tolist() == np.array(["a", "b", "c"])[np.arange(n) % 3].tolist()
        result = run(
            "fix", folder / "out.parquet", "--restore", folder / "out.mapping.json", "-o", folder / "back.parquet"
        )
        assert result.exit_code == 0, result.output
        back = pd.read_parquet(folder / "back.parquet")
        pd.testing.assert_frame_equal(back[list(frame.columns)], pd.read_parquet(folder / "in.parquet"))

    check()


@pytest.mark.slow
def test_fix_csv_output_writes_values_losslessly(tmp_path):
    from hypothesis import HealthCheck, Phase, given, settings

    PHASES = (Phase.explicit, Phase.reuse, Phase.generate)  # shrinking these tables takes minutes

    @settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck), phases=PHASES)
    @given(_columns_strategy())
    def check(case):
        n, d = case
        frame = _frame_of(n, d)[["g_a", "g_b", "g_c", "i64", "u64", "f", "cat", "y"]]
        folder = Path(tempfile.mkdtemp(dir=tmp_path))
        frame.to_parquet(folder / "in.parquet", index=False)
        result = run("fix", folder / "in.parquet", "-o", folder / "out.csv")
        assert result.exit_code == 0, result.output
        back = pd.read_csv(folder / "out.csv", dtype={"i64": "int64", "u64": "uint64", "cat": str})
        assert back["i64"].tolist() == d["i64"] and back["u64"].tolist() == d["u64"]
        assert back["f"].tolist() == d["f"]  # floats written with round-trip precision, infinities as inf/-inf
        assert back["cat"].tolist() == d["cat"]

    check()


def test_fix_from_csv_keeps_infinities_and_big_integers(tmp_path):
    n = 9
    level = np.arange(n) % 3
    lines = ["g_a,g_b,g_c,big,f,y"] + [
        f"{int(level[i] == 0)},{int(level[i] == 1)},{int(level[i] == 2)},{2**53 + i},{['inf', '-inf', '1.5'][i % 3]},{'pq'[i % 2]}"
        for i in range(n)
    ]
    (tmp_path / "in.csv").write_text("\n".join(lines) + "\n")
    result = run("fix", tmp_path / "in.csv", "-o", tmp_path / "out.csv")
    assert result.exit_code == 0, result.output
    out = (tmp_path / "out.csv").read_text().splitlines()
    assert [row.split(",")[1:3] for row in out[1:]] == [
        [str(2**53 + i), ["inf", "-inf", "1.5"][i % 3]] for i in range(n)
    ]


@pytest.mark.parametrize("suffix", [".tab", ".tab.gz", ".tsv.gz"])
def test_fix_writes_and_restores_every_delimited_suffix_nblint_reads(tmp_path, suffix):
    # The output's delimiter and compression come from the readers' one suffix table (``.tab`` is
    # tab-separated there): a table written here is read back by pandas and restored to the input.
    frame = colour_table()
    frame.to_csv(tmp_path / "data.csv", index=False)
    out = tmp_path / f"fixed{suffix}"
    result = run("fix", tmp_path / "data.csv", "-o", out)
    assert result.exit_code == 0, result.output
    fixed = pd.read_csv(out, sep="\t")
    assert list(fixed.columns) == ["height", "colour", "city", "size", "y"]
    assert mapping_path(str(out)) == str(tmp_path / "fixed.mapping.json")
    back = run("fix", out, "--restore", tmp_path / "fixed.mapping.json", "-o", tmp_path / "back.csv")
    assert back.exit_code == 0, back.output
    pd.testing.assert_frame_equal(pd.read_csv(tmp_path / "back.csv"), frame)
