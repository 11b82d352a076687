"""The project's own habits hold: its pre-commit hooks run, and warnings from nblint's code fail tests."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import warnings
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GIT = ["git", "-c", "user.name=nblint tests", "-c", "user.email=tests@nblint.invalid", "-c", "commit.gpgsign=false"]


def _warn_from(module: str) -> None:
    """Warn as code of ``module`` does (the warnings filter matches the module of the warning's frame)."""
    exec(
        compile("warnings.warn('a warning', UserWarning)", f"<{module}>", "exec"),
        {"__name__": module, "warnings": warnings},
    )


@pytest.mark.parametrize("module", ["nblint.analysis.context", "nblint_rules.counts.nb201_zero_count_cell"])
def test_a_warning_from_nblint_code_fails_the_test(module):
    """pyproject.toml's filterwarnings: error:::nblint (the suite must run without -W ignore for this)."""
    if any(arg.startswith("-W") for arg in sys.argv) or sys.warnoptions:
        pytest.skip("warnings filters given on the command line replace the configured ones")
    with pytest.raises(UserWarning):
        _warn_from(module)
    with warnings.catch_warnings(record=True):  # other code's warnings stay warnings
        _warn_from("pandas.core.frame")


@pytest.mark.slow
def test_the_readme_test_subsets_split_the_suite(tmp_path):
    """`python -m pytest -m "not slow"` and `-m slow` (README, Development) select complementary halves.

    One collection under `-m slow`: what it selects is the slow half, what it deselects (printed by a
    plugin) is what `-m "not slow"` selects, the same expression's complement. Two files of the suite,
    one with tests of each kind, show it (the whole suite's collection costs 15 s of CPU and takes
    the same path: the suite's own runs collect it all).
    """
    (tmp_path / "print_deselected.py").write_text(
        "def pytest_deselected(items):\n    for item in items:\n        print('deselected', item.nodeid)\n"
    )
    # addopts cleared so that one -q gives node ids whatever pyproject's addopts say (and in one process)
    command = [sys.executable, "-m", "pytest", "--collect-only", "-o", "addopts=", "-q", "--strict-markers"]
    command += [
        "-p",
        "no:cacheprovider",
        "-p",
        "print_deselected",
        "-m",
        "slow",
        "tests/test_wheel.py",
        "tests/test_readme.py",
    ]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")])}
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, env=env)
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    fast_ids = {line.removeprefix("deselected ") for line in lines if line.startswith("deselected ")}
    slow_ids = {line for line in lines if "::" in line and not line.startswith("deselected ")}
    assert fast_ids and slow_ids and not fast_ids & slow_ids
    assert "tests/test_wheel.py::test_a_new_rule_family_is_in_the_wheel" in slow_ids
    assert "tests/test_readme.py::test_readme_opens_with_the_two_commands_ci_runs" in fast_ids


def _pre_commit(repo: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PRE_COMMIT", "GIT_"))}
    env["PRE_COMMIT_HOME"] = str(repo.parent / "pre-commit-home")
    env["PATH"] = os.pathsep.join([sysconfig.get_path("scripts"), env.get("PATH", "")])  # ruff and nblint
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", "run", "--all-files"],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )


@pytest.mark.slow
def test_the_project_pre_commit_hooks_pass_and_catch_what_they_are_for(tmp_path):
    pytest.importorskip("pre_commit")
    if shutil.which("ruff", path=sysconfig.get_path("scripts")) is None:
        pytest.skip("ruff is not installed here (pip install -e '.[test]')")
    repo = tmp_path / "repo"
    repo.mkdir()
    for name in (".pre-commit-config.yaml", "pyproject.toml"):
        shutil.copy2(ROOT / name, repo / name)
    shutil.copytree(ROOT / "examples", repo / "examples")
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    subprocess.run([*GIT, "-C", str(repo), "add", "-A"], check=True)

    clean = _pre_commit(repo)
    assert clean.returncode == 0, clean.stdout + clean.stderr
    assert "ruff (lint)" in clean.stdout and "ruff (format)" in clean.stdout
    assert "nblint (examples/)" in clean.stdout

    (repo / "examples" / "broken.csv").write_text("a,b,y\n1,2,0\n1,2,3,4\n")
    (repo / "examples" / "helper.py").write_text("import os\n")
    (repo / "examples" / "ugly.py").write_text("x = {  'a':1 }\n")
    subprocess.run([*GIT, "-C", str(repo), "add", "-A"], check=True)
    broken = _pre_commit(repo)
    assert broken.returncode == 1
    assert "F401" in broken.stdout and "helper.py" in broken.stdout
    assert (repo / "examples" / "ugly.py").read_text() == 'x = {"a": 1}\n'  # the format hook rewrote it
    assert "examples/broken.csv: error:" in broken.stdout
