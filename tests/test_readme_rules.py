"""The README's rule tables are generated from the rules (nblint.testing.rule_table) and kept current."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from nblint.engine import load_rules
from nblint.testing.rule_table import update_tables

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
ROW = re.compile(r"^\| (NB\d{3}) \| ([a-z0-9-]+) \| (\w+) \| (.+) \|$", re.M)


def test_the_readme_tables_are_current():
    """Regenerate with: python -m nblint.testing.rule_table README.md"""
    assert update_tables(README) == README


def test_every_rule_has_one_row_and_no_row_is_extra():
    rows = ROW.findall(README)
    rules = load_rules()
    assert sorted(code for code, *_ in rows) == sorted(rules)
    for code, name, severity, what in rows:
        rule = rules[code]
        assert (name, severity) == (rule.name, str(rule.severity))
        assert what == re.sub(r"``(.+?)``", r"`\1`", rule.summary()).rstrip(".")


@pytest.mark.slow
def test_a_stale_table_is_found_and_regenerated(tmp_path):
    stale = re.sub(r"^\| NB204 .*\n", "", README, flags=re.M)
    stale = stale.replace("| NB101 |", "| NB999 | gone | info | a rule that no longer exists |\n| NB101 |", 1)
    path = tmp_path / "README.md"
    path.write_text(stale, encoding="utf-8")
    command = [sys.executable, "-m", "nblint.testing.rule_table"]
    check = subprocess.run([*command, "--check", str(path)], capture_output=True, text=True)
    assert check.returncode == 1 and "out of date" in check.stderr
    assert path.read_text(encoding="utf-8") == stale  # --check writes nothing
    subprocess.run([*command, str(path)], check=True, capture_output=True)
    assert path.read_text(encoding="utf-8") == README
