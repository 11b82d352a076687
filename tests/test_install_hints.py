"""Every install hint installs this project, and every missing package is one line saying what to install.

nblint is distributed as ``naive-bayes-lint``: ``nblint`` on the package index is an
unrelated project, and installing it over this one replaces the ``nblint/`` folder (issue 35).
scikit-learn is a dependency, imported only where used; plot, excel and dask are extras,
each failing with one line that names it when its package is missing.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import yaml
from missing_module import cli_without

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())

#: An install hint naming the bare distribution (BARE): pip install BARE, pip install 'BARE[x]', or BARE[x]
#: on its own (an extra of it). Spelt in pieces so this file does not match itself.
BARE = "nb" + "lint"
WRONG_HINTS = re.compile(
    rf"pip3? install\s+(?:-\S+\s+)*['\"]?{BARE}(?![\w-])"  # the bare name, with or without an extra
    rf"|(?<![\w-]){BARE}\[\w+\]"  # an extra of the bare name, not of naive-bayes-lint
)


def _scanned_files() -> list[Path]:
    """The files a user reads hints in: the code, the rule pack, the README, the docs site, the tests."""
    files = [ROOT / "README.md"]
    for folder in ("nblint", "rules", "docs", "tests"):
        base = ROOT / folder
        if base.is_dir():
            files += [p for p in base.rglob("*") if p.suffix in (".py", ".md", ".yaml", ".yml", ".toml", ".txt")]
    return sorted(p for p in files if p.is_file())


def test_no_install_hint_names_the_bare_nblint_distribution():
    offenders = [
        f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
        for path in _scanned_files()
        for n, line in enumerate(path.read_text(errors="replace").splitlines(), 1)
        if WRONG_HINTS.search(line)
    ]
    assert offenders == []


@pytest.mark.parametrize(
    "line, wrong",
    [
        ("raise InputError(\"--text needs scikit-learn: pip install '" + BARE + "[sklearn]'\")", True),
        ("pip install " + BARE, True),
        ("(needs " + BARE + "[sklearn])", True),
        ('pip install "naive-bayes-lint[plot]"', False),
        ("pip install naive-bayes-lint", False),
        ("!pip install -q scikit-learn", False),
        (BARE + " check data.csv", False),
    ],
)
def test_the_scan_tells_a_wrong_hint_from_a_right_one(line, wrong):
    assert bool(WRONG_HINTS.search(line)) is wrong


def test_every_hint_is_built_in_one_place_and_names_this_project():
    from nblint.core.dependencies import DISTRIBUTION, PROVIDERS, install_hint

    assert DISTRIBUTION == PYPROJECT["project"]["name"] == "naive-bayes-lint"
    extras = PYPROJECT["project"]["optional-dependencies"]
    for module, (package, extra) in PROVIDERS.items():
        if extra is None:  # a dependency: the hint installs the package itself
            assert any(req.startswith(package) for req in PYPROJECT["project"]["dependencies"]), module
            assert install_hint(module) == f"pip install {package}"
        else:
            assert any(req.startswith(package) for req in extras[extra]), module
            assert install_hint(module) == f'pip install "naive-bayes-lint[{extra}]"'


def test_scikit_learn_is_a_dependency_and_its_extra_an_empty_alias():
    assert any(req.startswith("scikit-learn") for req in PYPROJECT["project"]["dependencies"])
    assert PYPROJECT["project"]["optional-dependencies"]["sklearn"] == []


def test_the_hook_repository_needs_no_additional_dependencies_for_text():
    """pre-commit installs the repository with its dependencies: scikit-learn (for `text = ...`) among them."""
    for hook in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text()):
        assert hook["language"] == "python" and "additional_dependencies" not in hook, hook["id"]


@pytest.mark.parametrize(
    "module, args, line",
    [
        ("matplotlib", ["impact", "{table}", "--target", "y", "--plot", "{tmp}/f.png"], "--plot needs matplotlib"),
        ("dask", ["check", "{table}", "--target", "y", "--engine", "dask"], "--engine dask needs dask"),
        (
            "distributed",
            ["check", "{table}", "--target", "y", "--engine", "dask", "--scheduler", "tcp://x:1"],
            "nblint check: error: --scheduler needs distributed",
        ),
        ("openpyxl", ["check", "{tmp}/t.xlsx", "--target", "y"], "nblint reads it with openpyxl"),
    ],
)
def test_each_missing_extra_is_one_line_naming_it(tmp_path, module, args, line):
    from nblint.core.dependencies import PROVIDERS

    table = tmp_path / "t.csv"
    table.write_text("a,y\n" + "".join(f"{i % 2},{i % 3 % 2}\n" for i in range(20)))
    (tmp_path / "t.xlsx").write_bytes(b"PK\x03\x04" + b"\0" * 26)  # (a zip's first bytes; openpyxl is missing)
    proc = cli_without(module, *(a.format(table=table, tmp=tmp_path) for a in args))
    assert proc.returncode == 2, proc.stderr
    (message,) = proc.stderr.splitlines()
    assert line in message and f'pip install "naive-bayes-lint[{PROVIDERS[module][1]}]"' in message
    assert "Traceback" not in proc.stderr


def test_an_unguarded_import_of_a_known_package_is_one_line_too(tmp_path):
    """Any import of a package nblint can name the install of, failing where no hint was written, is one line."""
    code = (
        "import sys; sys.modules['sklearn'] = None\n"
        "import click\nfrom nblint.cli import main\n"
        "@main.command('boom')\ndef boom():\n    import sklearn.naive_bayes\n"
        "main(['boom'], prog_name='nblint')\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2
    assert proc.stderr.splitlines() == [
        "nblint: error: this command needs scikit-learn, which naive-bayes-lint requires and is not installed "
        "here: pip install scikit-learn"
    ]


def test_mixednb_without_scikit_learn_says_what_to_install():
    code = (
        "import sys; sys.modules['sklearn'] = None\n"
        "import nblint\n"
        "try:\n    from nblint import MixedNB\n"
        "except ImportError as exc:\n    print(type(exc).__name__, isinstance(exc, nblint.NblintError), exc)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out == (
        "MissingDependency True nblint.MixedNB needs scikit-learn, which naive-bayes-lint requires and is not "
        "installed here: pip install scikit-learn\n"
    )


# --------------------------------------------------------------------------- the pre-commit snippet's rev


def _documented_revs() -> list[str]:
    """Every ``rev:`` the README and the docs give for this repository as a hook repository."""
    texts = [(ROOT / "README.md").read_text()]
    if (ROOT / "docs").is_dir():
        texts += [p.read_text() for p in sorted((ROOT / "docs").rglob("*.md"))]
    return sorted({rev for text in texts for rev in re.findall(r"\brev:\s*['\"]?([\w.\-]+)", text)})


def test_the_readme_pre_commit_rev_is_a_tag_of_this_repository():
    revs = _documented_revs()
    assert revs, "the README (or docs) no longer names a rev: for the hook repository"
    listed = subprocess.run(["git", "-C", str(ROOT), "tag", "--list"], capture_output=True, text=True)
    if listed.returncode != 0:
        pytest.skip(f"not a git checkout ({listed.stderr.strip()})")
    tags = set(listed.stdout.split())
    if not tags:
        pytest.skip("this clone has no tags at all (a CI clone may not fetch them): cannot check the rev")
    assert set(revs) <= tags, f"documented revs {revs} are not all tags of this repository ({sorted(tags)})"


def test_an_installed_package_that_fails_to_import_is_not_called_missing():
    """scikit-learn present but its scipy gone: the real error, not 'pip install scikit-learn'."""
    code = (
        "import sys; sys.modules['scipy'] = None\n"
        "from nblint.core.dependencies import require\n"
        "try:\n    require('sklearn.naive_bayes', 'x')\n"
        "except ImportError as exc:\n    print(type(exc).__name__, exc.name)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split()[0] == "ModuleNotFoundError" and out.split()[1].startswith("scipy")
