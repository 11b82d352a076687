"""nblint fix (groups collapsed, reversibly) and nblint columns --pipeline (code that runs)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from nblint import MixedNB
from nblint.analysis.context import TableContext
from nblint.cli import main
from nblint.engine import resolved_options
from nblint.estimators.fix import REFERENCE, mapping_path, write_fixed
from nblint.profile.table import TableProfile
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
    source = DataFrameSource(frame, chunk_rows=7)
    ctx = TableContext(source, TableProfile.from_source(source, None), None, resolved_options())
    out = tmp_path / "fixed.csv"
    write_fixed(ctx, str(out))
    whole = DataFrameSource(frame)
    write_fixed(
        TableContext(whole, TableProfile.from_source(whole, None), None, resolved_options()),
        str(tmp_path / "whole.csv"),
    )
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


def execute(code: str, cwd) -> None:
    """Run the printed code (our own generated code) and keep its model for the checks."""
    script = code + "\nimport pickle\npickle.dump(model, open('model.pkl', 'wb'))\n"
    subprocess.run([sys.executable, "-c", script], cwd=cwd, check=True)


@pytest.mark.slow
def test_columns_pipeline_prints_code_that_fits_the_recommended_model(tmp_path):
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
    execute(code, tmp_path)
    model = pickle.loads((tmp_path / "model.pkl").read_bytes())
    X = pd.read_csv(path).drop(columns="y")
    auto = MixedNB().fit(X, frame["y"])
    assert [(f.model, f.columns) for f in model.features_] == [(f.model, f.columns) for f in auto.features_]
    np.testing.assert_allclose(model.predict_proba(X), auto.predict_proba(X), rtol=0, atol=1e-12)


@pytest.mark.slow
def test_columns_pipeline_for_one_kind_is_plain_scikit_learn(tmp_path):
    import pickle

    rng = np.random.default_rng(0)
    frame = pd.DataFrame({"u": rng.normal(size=100), "v": rng.normal(size=100), "y": rng.integers(0, 2, 100)})
    path = tmp_path / "data.parquet"
    frame.to_parquet(path)
    code = run("columns", path, "--target", "y", "--pipeline").stdout
    assert "GaussianNB()" in code and "pd.read_parquet" in code
    execute(code, tmp_path)
    assert type(pickle.loads((tmp_path / "model.pkl").read_bytes())).__name__ == "GaussianNB"
    no_target = run("columns", path, "--pipeline")
    assert no_target.exit_code == 2


# --------------------------------------------------------------------------- the README's section


ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()


def readme_block(language: str, containing: str) -> str:
    return next(b for b in re.findall(rf"```{language}\n(.*?)```", README, flags=re.S) if containing in b)


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
    restore = re.search(r"`(nblint fix \S+ --restore .*?)`", README).group(1)
    assert run(*restore.split()[1:]).exit_code == 0
    pd.testing.assert_frame_equal(pd.read_csv("back.csv"), pd.read_csv("examples/customers.csv"))
