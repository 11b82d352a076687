"""The wheel carries every rule family, a new one too: setup.py finds them, nobody lists them by hand."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

NEW_RULE = '''
from nblint.engine import Rule
from nblint.engine.findings import Severity


class Placeholder(Rule):
    """A rule of a family the build has never seen."""

    code = "NB901"
    name = "placeholder"
    severity = Severity.INFO

    def check(self, ctx):
        return []
'''


def packages_under(folder: Path) -> list[str]:
    """Every folder with an ``__init__.py`` under ``folder``, as a path relative to it."""
    return sorted(str(init.parent.relative_to(folder)) for init in folder.rglob("__init__.py"))


@pytest.mark.slow
def test_a_new_rule_family_is_in_the_wheel(tmp_path):
    source = tmp_path / "nblint"
    source.mkdir()
    for name in ("pyproject.toml", "setup.py", "README.md"):
        shutil.copy2(ROOT / name, source / name)
    junk = shutil.ignore_patterns("__pycache__", "*.pyc")
    for name in ("nblint", "rules"):
        shutil.copytree(ROOT / name, source / name, ignore=junk)
    family = source / "rules" / "newfamily"
    family.mkdir()
    (family / "__init__.py").write_text('"""A rule family added after setup.py was written."""\n')
    (family / "nb901_placeholder.py").write_text(NEW_RULE)

    out = tmp_path / "dist"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(out), str(source)],
        check=True,
        capture_output=True,
        text=True,
    )
    (wheel,) = out.glob("naive_bayes_lint-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())

    assert "nblint_rules/newfamily/__init__.py" in names
    assert "nblint_rules/newfamily/nb901_placeholder.py" in names
    # every rule module of every family, and every package of nblint, under its import name
    for module in (source / "rules").rglob("*.py"):
        assert f"nblint_rules/{module.relative_to(source / 'rules').as_posix()}" in names, module
    for package in packages_under(source / "nblint"):
        assert f"nblint/{package}/__init__.py".replace("/./", "/") in names, package
    assert not any(name.startswith("rules/") for name in names), "the pack ships as nblint_rules, not rules"
    (entry_points,) = [n for n in names if n.endswith(".dist-info/entry_points.txt")]
    assert "builtin = nblint_rules" in zipfile.ZipFile(wheel).read(entry_points).decode()
