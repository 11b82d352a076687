"""A rule pack's modules are listed as ``pkgutil.walk_packages`` lists them (the oracle), in its order."""

from __future__ import annotations

import importlib
import pkgutil
import sys

import pytest

from nblint.engine.pack_modules import walk_modules


def walked(package) -> list[tuple[str, bool]]:
    return [(info.name, info.ispkg) for info in pkgutil.walk_packages(package.__path__, package.__name__ + ".")]


@pytest.mark.parametrize("name", ["nblint_rules", "nblint", "email", "json", "encodings"])
def test_installed_packages_are_listed_as_pkgutil_lists_them(name):
    package = importlib.import_module(name)
    assert list(walk_modules(package)) == walked(package)


def test_a_made_up_pack_with_what_is_no_module(tmp_path, monkeypatch):
    root = tmp_path / "made_pack"
    for folder in ["", "family", "family/inner", "no_init", "__pycache__", "dotted.dir", "family/__pycache__"]:
        (root / folder).mkdir(parents=True, exist_ok=True)
    for path in ["__init__.py", "b_rule.py", "a_rule.py", "family/__init__.py", "family/nb1_x.py", "family/inner/__init__.py",
                 "family/inner/deep.py", "no_init/orphan.py", "__pycache__/__init__.cpython-311.pyc", ".py", "notes.txt",
                 "family/__pycache__/nb1_x.cpython-311.pyc", "a_rule.pyc"]:  # fmt: skip
        (root / path).write_text("")
    monkeypatch.syspath_prepend(str(tmp_path))
    package = importlib.import_module("made_pack")
    try:
        listed = list(walk_modules(package))
        assert listed == walked(package)
        assert ("made_pack.family.inner.deep", False) in listed and ("made_pack.no_init", False) not in listed
    finally:
        for module in [m for m in sys.modules if m == "made_pack" or m.startswith("made_pack.")]:
            del sys.modules[module]
