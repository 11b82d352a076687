"""The README stays true: its commands are the ones CI runs, its shown output is real."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

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
    assert len(namespace["report"]) == 5
    assert list(namespace["frame"]["code"]) == ["NB101", "NB101", "NB102", "NB104", "NB105"]


def test_readme_config_block_is_valid(tmp_path):
    from nblint.config import load_config

    toml = blocks("toml")[0]
    (tmp_path / "pyproject.toml").write_text(toml)
    settings = load_config(str(tmp_path / "pyproject.toml"))
    assert settings.target == "churned"
    assert settings.rule_options["NB104"]["vif-threshold"] == 5.0


def test_module_entry_point_prints_version():
    out = subprocess.run([sys.executable, "-m", "nblint", "--version"], capture_output=True, text=True, check=True)
    assert "nblint" in out.stdout
