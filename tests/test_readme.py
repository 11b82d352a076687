"""The README stays true: its commands are the ones CI runs, its shown output is real."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from nblint.cli import main

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()


def blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", README, flags=re.S)


def test_readme_opens_with_the_two_commands_ci_runs():
    first = blocks("bash")[0].strip().splitlines()
    assert first == [
        "pip install . && nblint check examples/customers.csv --target churned",
        'pip install -e ".[test]" && python -m pytest',
    ]
    ci = (ROOT / ".ci" / "run").read_text()
    assert "python -m pip install --quiet ." in ci
    assert "nblint check examples/customers.csv --target churned" in ci
    assert 'python -m pip install --quiet -e ".[test]"' in ci
    assert ci.rstrip().endswith("python -m pytest")


def test_readme_example_output_is_what_nblint_prints(monkeypatch):
    shown = blocks("text")[0]
    monkeypatch.chdir(ROOT)
    result = CliRunner().invoke(main, ["check", "examples/customers.csv", "--target", "churned"])
    assert result.exit_code == 1
    assert result.stdout == shown


def test_readme_python_snippet_runs(monkeypatch):
    monkeypatch.chdir(ROOT)
    snippet = blocks("python")[0]
    namespace: dict = {}
    exec(compile(snippet, "README.md", "exec"), namespace)
    cli = CliRunner().invoke(main, ["check", "examples/customers.csv", "--target", "churned", "--format", "json"])
    expected = [f["code"] for f in json.loads(cli.stdout)]
    assert len(namespace["report"]) == len(expected) > 0
    assert list(namespace["frame"]["code"]) == expected
    assert json.loads(namespace["text"]) == [dict(f, path="<dataframe>") for f in json.loads(cli.stdout)]


def test_readme_config_block_is_valid(tmp_path):
    from nblint.run.config import load_config

    toml = blocks("toml")[0]
    (tmp_path / "pyproject.toml").write_text(toml)
    settings = load_config(str(tmp_path / "pyproject.toml"))
    assert settings.target == "churned"
    assert settings.rule_options["NB104"]["vif-threshold"] == 5.0
    assert settings.kinds == {"season": "categorical", "pixel_*": "count"}


def test_module_entry_point_prints_version():
    out = subprocess.run([sys.executable, "-m", "nblint", "--version"], capture_output=True, text=True, check=True)
    assert "nblint" in out.stdout


@pytest.mark.parametrize("command", ["nblint columns", "nblint impact"])
def test_readme_command_output_is_what_nblint_prints(command, monkeypatch):
    block = next(b for b in blocks("text") if b.startswith(f"$ {command}"))
    line, *expected = block.splitlines()
    monkeypatch.chdir(ROOT)
    result = CliRunner().invoke(main, line.split()[2:])
    assert result.exit_code == 0
    assert result.stdout.splitlines() == expected


def test_readme_check_commands_print_what_is_shown(monkeypatch):
    shown = [b for b in blocks("text") if b.startswith("$ nblint check")]
    assert shown
    monkeypatch.chdir(ROOT)
    for block in shown:
        line, *expected = block.splitlines()
        result = CliRunner().invoke(main, line.split()[2:])
        assert result.exit_code in (0, 1) and result.stderr == ""
        assert result.stdout.splitlines() == expected


def test_readme_documents_every_option_of_check_schema_and_rules():
    """The command-line synopsis lists each option; the README explains each option of check."""
    (synopsis,) = [b for b in blocks("text") if b.startswith("nblint check")]
    for command in ("check", "schema", "rules"):
        for param in main.commands[command].params:
            for name in [*getattr(param, "opts", []), *getattr(param, "secondary_opts", [])]:
                if name.startswith("--"):
                    assert name in synopsis, (command, name)
                    assert command != "check" or f"`{name}" in README, name


def test_readme_integration_snippets_are_the_tested_example_files():
    """The pre-commit, pandera and workflow snippets are copies of files the tests use."""
    for name in ("pre-commit-config.yaml", "github-workflow.yml"):
        assert (ROOT / "examples" / name).read_text() in blocks("yaml")
    assert (ROOT / "examples" / "schema.py").read_text() in blocks("python")


def test_workflow_snippet_commands_run(tmp_path, monkeypatch):
    import json
    import shlex
    import shutil

    import yaml

    workflow = yaml.safe_load((ROOT / "examples" / "github-workflow.yml").read_text())
    commands = [
        step["run"] for step in workflow["jobs"]["nblint"]["steps"] if step.get("run", "").startswith("nblint ")
    ]
    assert len(commands) == 3
    shutil.copytree(ROOT / "examples", tmp_path / "data", ignore=shutil.ignore_patterns("*.py", "*.yaml", "*.yml"))
    monkeypatch.chdir(tmp_path)
    codes = [CliRunner().invoke(main, shlex.split(command, comments=True)[1:]).exit_code for command in commands]
    assert codes == [0, 0, 1]  # --exit-zero for the reports; the annotations fail the job on findings
    sarif = json.loads((tmp_path / "nblint.sarif").read_text())
    assert (
        sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        == "data/customers.csv"
    )
    assert (tmp_path / "nblint-junit.xml").read_text().startswith('<?xml version="1.0" encoding="utf-8"?>')


@pytest.mark.slow
def test_readme_dask_command_runs_on_a_local_cluster(monkeypatch):
    import pytest

    distributed = pytest.importorskip("distributed")
    monkeypatch.chdir(ROOT)
    command = next(line for b in blocks("bash") for line in b.splitlines() if "--engine dask" in line)
    local = CliRunner().invoke(main, ["check", "examples/customers.csv", "--target", "churned"])
    with distributed.LocalCluster(n_workers=2, processes=False, dashboard_address=None) as cluster:
        argv = command.replace("tcp://scheduler:8786", cluster.scheduler_address).split()[1:]
        result = CliRunner().invoke(main, argv)
        assert result.exit_code == 1 and result.stdout == local.stdout


#: The README's Python blocks that are not scripts: the rule pack's pytest module (tests/test_testing.py
#: runs it with pytest inside a pack, as the README says to).
NOT_SCRIPTS = ("# tests/test_my_rules.py",)


def python_snippets() -> list:
    snippets = [b for b in blocks("python") if not b.startswith(NOT_SCRIPTS)]
    return [
        pytest.param(b, id=f"block{i}", marks=[pytest.mark.slow] if "distributed" in b else [])
        for i, b in enumerate(snippets)
    ]


def write_titanic_like(path: Path) -> None:
    """A table with the columns the README's titanic.py uses (the passenger data itself is not shipped)."""
    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(0)
    n = 200
    pd.DataFrame(
        {
            "Pclass": rng.integers(1, 4, n),
            "Embarked": rng.choice(["C", "Q", "S"], n),
            "SibSp": rng.integers(0, 4, n),
            "Survived": rng.integers(0, 2, n),
        }
    ).to_csv(path, index=False)


@pytest.mark.parametrize("snippet", python_snippets())
def test_every_readme_python_snippet_runs_as_a_script(snippet, tmp_path):
    """Each block, saved as a file and run with python in a folder holding the examples, exits 0.

    A script, not exec() in this process: what only works inside a test runner (a name the test
    defines, a Dask Client() outside the __main__ guard, whose workers re-import the script) fails.
    """
    import shutil

    for module in ("polars", "sklearn", "pandera", "distributed"):
        if f"import {module}" in snippet or f"from {module}" in snippet:
            pytest.importorskip(module)
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    if 'read_csv("titanic.csv")' in snippet:  # the pipeline-linting section's script reads the user's own table
        write_titanic_like(tmp_path / "titanic.csv")
    (tmp_path / "snippet.py").write_text(snippet)
    proc = subprocess.run([sys.executable, "snippet.py"], cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    if "distributed" in snippet:  # the Dask report is the one nblint check prints (the path aside)
        local = CliRunner().invoke(main, ["check", str(ROOT / "examples/customers.csv"), "--target", "churned"])
        shown = proc.stdout.rstrip("\n").replace("<dask>", str(ROOT / "examples/customers.csv"))
        assert shown == local.stdout.rstrip("\n")


def test_readme_speed_commands_are_the_bench_scripts_options():
    """The Speed section's rerun commands name bench scripts that take the options shown
    (running them is the benchmark itself, minutes each, so their --help is what is run)."""
    speed = README.split("## Speed\n", 1)[1].split("\n## ", 1)[0]
    commands = re.findall(r"`python (bench/\w+\.py)([^`]*)`", speed)
    assert {script for script, _ in commands} >= {"bench/bench_startup.py", "bench/bench_check.py"}
    for script, options in commands:
        usage = subprocess.run(
            [sys.executable, str(ROOT / script), "--help"], capture_output=True, text=True, check=True
        )
        for option in re.findall(r"--[\w-]+", options):
            assert option in usage.stdout, (script, option)
