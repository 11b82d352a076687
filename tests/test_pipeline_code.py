"""The code `nblint columns --pipeline` prints runs on the file it was printed for, and agrees with `columns`."""

from __future__ import annotations

import json
import re
import subprocess

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from nblint.cli import main

pytest.importorskip("sklearn")


def table() -> pd.DataFrame:
    rng = np.random.default_rng(3)
    n = 120
    colour = rng.integers(0, 3, n)
    return pd.DataFrame(
        {
            "age": rng.normal(40, 10, n).round(1),
            **{f"colour_{c}": (colour == i).astype(int) for i, c in enumerate(["red", "green", "blue"])},
            "visits": rng.poisson(2, n),
            "member": rng.integers(0, 2, n),
            "y": rng.choice(["a", "b"], n),
        }
    )


def write(frame: pd.DataFrame, path) -> None:
    name = str(path)
    if name.endswith((".parquet", ".pq")):
        frame.to_parquet(path, index=False)
    elif name.endswith(".xlsx"):
        frame.to_excel(path, index=False)
    else:
        sep = "\t" if re.search(r"\.(tsv|tab)(\.gz)?$", name) else ","
        frame.to_csv(path, sep=sep, index=False)  # (pandas gzips by the .gz suffix)


def run_printed(runner, code: str, folder) -> subprocess.CompletedProcess:
    """Run the printed code as a script of its own in ``folder``: a process of its own, forked from the
    run's warmed interpreter (conftest's ``script_runner``), which imported pandas and scikit-learn once."""
    script = folder / "printed.py"
    script.write_text(code)
    return runner.run(script)


@pytest.mark.slow
@pytest.mark.parametrize(
    "name", ["d.csv", "d.tab", "d.tsv", "d.csv.gz", "d.tsv.gz", "d.tab.gz", "d.parquet", "d.pq", "d.xlsx", "d.txt"]
)
def test_printed_code_runs_on_the_file_it_was_printed_for(tmp_path, name, script_runner):
    if name.endswith(".xlsx"):
        pytest.importorskip("openpyxl")
    write(table(), tmp_path / name)
    result = CliRunner().invoke(main, ["columns", str(tmp_path / name), "--target", "y", "--pipeline"])
    assert result.exit_code == 0, result.output
    code = result.stdout + "print(model.predict(X if 'X' in dir() else table[columns])[:3].tolist())\n"
    proc = run_printed(script_runner, code, tmp_path)
    assert proc.returncode == 0, (result.stdout, proc.stderr[-2000:])
    assert re.fullmatch(r"\['[ab]', '[ab]', '[ab]'\]\n", proc.stdout)


def test_printed_code_reads_with_the_encoding_nblint_used(tmp_path, script_runner):
    path = tmp_path / "latin.csv"
    frame = table()
    frame["town"] = ["Orléans", "Besançon"] * (len(frame) // 2)
    frame.to_csv(path, index=False, encoding="latin-1")
    result = CliRunner().invoke(main, ["columns", str(path), "--target", "y", "--pipeline", "--encoding", "latin-1"])
    assert "encoding='latin-1'" in result.stdout
    proc = run_printed(script_runner, result.stdout, tmp_path)
    assert proc.returncode == 0, proc.stderr[-2000:]


def test_columns_and_pipeline_agree_on_every_column(tmp_path):
    """The model column of `nblint columns` is the model each column gets in the printed code (digits: pixels)."""
    from sklearn.datasets import load_digits

    digits = load_digits(as_frame=True).frame
    seen = {}
    for frame, target, name in [(digits, "target", "digits.tab"), (table(), "y", "t.csv")]:
        write(frame, tmp_path / name)
        path = str(tmp_path / name)
        shown = CliRunner().invoke(main, ["columns", path, "--target", target]).stdout.splitlines()
        models = {line.split()[0]: line.split()[2] for line in shown[1:] if line and not line.startswith("Mixed")}
        code = CliRunner().invoke(main, ["columns", path, "--target", target, "--pipeline"]).stdout
        printed = dict(re.findall(r"^    '([^']+)': '(\w+)'", code, flags=re.M))
        for members, _ in re.findall(r"^    \(([^)]*)\): '(one-hot|dummy)'", code, flags=re.M):
            printed |= dict.fromkeys(re.findall(r"'([^']+)'", members), "categorical")
        # a measurement ('continuous') is a Gaussian feature whose reading MixedNB chooses when fitted
        printed = {c: {"drop": "-", "continuous": "gaussian"}.get(m, m) for c, m in printed.items()}
        for column, model in models.items():
            if column != target:
                assert printed.get(column, "-") == model, (name, column)
        seen[name] = models
    # the pixels share one 0..16 scale: counts of one kind, one multinomial block in both
    # (a pixel with two values is binary; a constant one left out)
    pixels = [m for c, m in seen["digits.tab"].items() if c.startswith("pixel_")]
    assert pixels.count("multinomial") > 50 and set(pixels) <= {"multinomial", "bernoulli", "-"}


@pytest.mark.slow
def test_the_printed_model_leaves_out_leaks_and_says_where_it_guessed(tmp_path, script_runner):
    """Issue 22 item 4: NB208's leaks are left out with the reason; a guessed reading says so."""
    import statsmodels.api as sm

    fair = sm.datasets.fair.load_pandas().data  # `affairs` > 0 is the class: a leak
    fair["had_affair"] = np.where(fair["affairs"] > 0, "yes", "no")
    modes = sm.datasets.modechoice.load_pandas().data
    for frame, target, name in [(fair, "had_affair", "fair.csv"), (modes, "choice", "modes.csv")]:
        write(frame, tmp_path / name)
        path = str(tmp_path / name)
        code = CliRunner().invoke(main, ["columns", path, "--target", target, "--pipeline"]).stdout
        shown = CliRunner().invoke(main, ["columns", path, "--target", target, "--format", "json"]).stdout
        rows = {row["column"]: row for row in json.loads(shown)}
        guessed = dict(re.findall(r"^    '([^']+)': '\w+',  # .*ambiguous: read as (\w+)", code, flags=re.M))
        for column, kind in guessed.items():  # only ambiguous columns say so, with the kind they were read as
            assert (rows[column]["status"], rows[column]["kind"]) == ("ambiguous", kind), column
        if name == "fair.csv":
            assert re.search(r"^    'affairs': 'drop',  # gives the class on 100% of rows \(NB208\)", code, flags=re.M)
            assert rows["affairs"]["pipeline_model"] is None
            # five marriage ratings: a count or codes, a categorical feature either way: no guess to flag
            assert rows["rate_marriage"]["status"] == "ambiguous" and "rate_marriage" not in guessed
        else:
            assert "ttme" in guessed  # travel times: a count read as Gaussian, or codes read as categories
        proc = run_printed(script_runner, code, tmp_path)
        assert proc.returncode == 0, proc.stderr[-2000:]


def test_impact_and_the_printed_code_are_one_model():
    """Issue 35 item 4: `impact`'s weight table is the model `columns --pipeline` prints, and MixedNB()'s.

    The same features (a group by its name), the same readings (the spend columns are log-normal in
    all three) and the same weights, fitting the printed code as a user would.
    """
    from pathlib import Path

    from nblint import MixedNB

    root = Path(__file__).resolve().parent.parent
    path = str(root / "examples" / "customers.csv")
    code = CliRunner().invoke(main, ["columns", path, "--target", "churned", "--pipeline"]).stdout
    namespace: dict = {}
    exec(compile(code, "printed", "exec"), namespace)  # our own generated code
    printed = {f.label: (f.model, w) for f, w in zip(namespace["model"].features_, namespace["model"].weights_)}
    result = CliRunner().invoke(main, ["impact", path, "--target", "churned", "--format", "json"])
    table = {f["feature"]: (f["model"], f["weight"]) for f in json.loads(result.stdout)["weights"]["features"]}
    auto = MixedNB().fit(namespace["X"], namespace["y"])
    default = {f.label: (f.model, w) for f, w in zip(auto.features_, auto.weights_)}
    assert sorted(printed) == sorted(table) == sorted(default)
    assert {"plan", "region", "channel"} <= set(table)  # groups named as nblint names them
    assert table["spend_online"][0] == "lognormal"  # a reading, chosen once for all three
    for name, (model, weight) in table.items():
        assert printed[name][0] == default[name][0] == model, name
        assert printed[name][1] == pytest.approx(weight, abs=1e-6), name
        assert default[name][1] == pytest.approx(weight, abs=1e-6), name
