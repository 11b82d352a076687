"""A linter starts like one: what each command imports, observed in a fresh process.

Behaviour, not timing: each command runs in its own interpreter, which reports the
modules loaded when it exits. Commands that read no table load no table library
(pandas, pyarrow, scipy); a small table's check loads no statistics, learning,
plotting or DataFrame library beyond pyarrow, which parses the CSV. The times are
``bench/bench_startup.py``'s.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

#: Runs the CLI, then prints the top-level packages loaded (after a marker) on stderr.
WRAPPER = """
import atexit, sys
atexit.register(lambda: print("\\n@@modules " + " ".join(sorted(sys.modules)), file=sys.stderr))
from nblint.cli import main
main(sys.argv[1:], prog_name="nblint")
"""
TABLE_LIBRARIES = {"pandas", "pyarrow", "scipy", "polars", "statsmodels", "sklearn", "matplotlib", "pandera", "dask"}


def loaded(*args: str, cwd=None) -> tuple[set[str], subprocess.CompletedProcess]:
    """Modules a fresh ``nblint ARGS`` process has loaded when it exits."""
    proc = subprocess.run([sys.executable, "-c", WRAPPER, *args], capture_output=True, text=True, cwd=cwd, check=False)
    _, marker, names = proc.stderr.rpartition("@@modules ")
    assert marker, proc.stderr
    return set(names.split()), proc


def packages(modules: set[str]) -> set[str]:
    return {name.split(".")[0] for name in modules}


@pytest.mark.parametrize("args", [["--version"], ["rules"], ["rule", "NB201"], ["rules", "--format", "json"]])
def test_commands_that_read_no_table_load_no_table_library(args):
    modules, proc = loaded(*args)
    assert proc.returncode == 0, proc.stderr
    assert packages(modules) & TABLE_LIBRARIES == set()


def test_a_pipeline_only_run_loads_no_table_library(tmp_path):
    config = tmp_path / "pipeline.yaml"
    config.write_text("model:\n  _target_: sklearn.naive_bayes.BernoulliNB\n  alpha: 0\n")
    modules, proc = loaded("check", str(config))
    assert proc.returncode == 1, proc.stderr + proc.stdout
    assert "NB502" in proc.stdout  # the config was linted
    assert packages(modules) & TABLE_LIBRARIES == set()


def test_a_small_table_check_loads_only_what_its_rules_need(tmp_path):
    rows = ["flag,measure,visits,y"] + [f"{i % 2},{(i * 7919) % 101 / 10},{i % 5},{(i // 2) % 2}" for i in range(40)]
    table = tmp_path / "small.csv"
    table.write_text("\n".join(rows) + "\n")
    modules, proc = loaded("check", str(table), "--target", "y")
    assert proc.returncode in (0, 1), proc.stderr
    assert "pyarrow" in packages(modules)  # (the CSV was parsed)
    # Nothing of pandas (pyarrow's to_numpy would import it), and no scipy: its VIFs are
    # small (no LAPACK triangular solve), it has no one-hot group (no impact measurement).
    assert packages(modules) & TABLE_LIBRARIES == {"pyarrow"}
    assert "nblint.impact" not in modules


@pytest.mark.slow
def test_a_check_with_exact_dependencies_loads_lapack_for_them(tmp_path):
    """The other side of the screen: a column that is the sum of two others needs the
    pivoted Cholesky, so scipy.linalg is loaded, and NB104 reports it."""
    rows = ["a,b,total,y"] + [f"{i % 7},{(i * 3) % 11},{i % 7 + (i * 3) % 11},{i % 2}" for i in range(40)]
    table = tmp_path / "sums.csv"
    table.write_text("\n".join(rows) + "\n")
    modules, proc = loaded("check", str(table), "--target", "y", "--select", "NB104")
    assert proc.returncode == 1, proc.stderr
    assert "NB104" in proc.stdout
    assert "scipy.linalg" in modules
    assert not {"statsmodels", "sklearn", "matplotlib", "polars"} & packages(modules)
