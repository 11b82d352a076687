"""Golden outputs of the CLI on the bundled examples (set NBLINT_UPDATE_GOLDEN=1 to rewrite)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from nblint.cli import main

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = Path(__file__).parent / "golden"

CASES = {
    "customers.txt": ["check", "examples/customers.csv", "--target", "churned"],
    "customers.json": ["check", "examples/customers.csv", "--target", "churned", "--format", "json"],
    "clean.txt": ["check", "examples/clean.csv", "--target", "label"],
    "both.json": ["check", "examples", "--format", "json", "--select", "NB10", "--ignore", "NB105"],
    # ruff's --statistics: findings per rule, most first; NB401 found at two severities.
    "customers.statistics.txt": ["check", "examples/customers.csv", "--target", "churned", "--statistics"],
    "customers.statistics.json": [
        "check",
        "examples/customers.csv",
        "--target",
        "churned",
        "--statistics",
        "--format",
        "json",
    ],
    "customers.quiet.txt": ["check", "examples/customers.csv", "--target", "churned", "--quiet"],
    "clean.quiet.txt": ["check", "examples/clean.csv", "--target", "label", "--quiet"],
}
# Every output format on the same fixture set: the two bundled examples.
EXAMPLES = ["check", "examples/customers.csv", "examples/clean.csv"]
for _name, _format in [
    ("examples.txt", "text"),
    ("examples.json", "json"),
    ("examples.sarif", "sarif"),
    ("examples.github.txt", "github"),
    ("examples.junit.xml", "junit"),
    ("examples.concise.txt", "concise"),
]:
    CASES[_name] = [*EXAMPLES, "--format", _format]
# A training table against its test table (NB6xx): every output format names the test file where the rows are.
SPLIT = ["check", "tests/data/split/train.csv", "--target", "decision", "--test", "tests/data/split/test.csv"]
for _name, _format in [
    ("split.txt", "text"),
    ("split.json", "json"),
    ("split.sarif", "sarif"),
    ("split.github.txt", "github"),
    ("split.junit.xml", "junit"),
    ("split.concise.txt", "concise"),
]:
    CASES[_name] = [*SPLIT, "--format", _format]


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_output(name, monkeypatch):
    monkeypatch.chdir(ROOT)
    first = CliRunner().invoke(main, CASES[name])
    second = CliRunner().invoke(main, CASES[name])
    assert first.exit_code in (0, 1) and first.stderr == ""
    assert first.stdout == second.stdout  # deterministic, byte for byte
    path = GOLDEN / name
    if os.environ.get("NBLINT_UPDATE_GOLDEN"):
        path.write_text(first.stdout)
    assert first.stdout == path.read_text()
