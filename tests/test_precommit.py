"""The pre-commit hooks: the manifest is valid, and real pre-commit runs the hook.

Two end-to-end tests run ``pre-commit run --all-files`` (twice each, in one pre-commit
home) in a user repository: one whose ``.pre-commit-config.yaml`` is the README's snippet
``examples/pre-commit-config.yaml`` exactly as written (a ``repo: local`` hook running the
nblint of this environment), one pointing ``repo:`` at a temporary git repository copied
from this checkout (pre-commit clones a repository at a revision, so the hook under test
must be committed somewhere) and ``rev:`` at its commit: pre-commit then installs nblint
and its dependencies into its own environment once, which takes a while.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest
import yaml
from missing_module import cli_here

ROOT = Path(__file__).resolve().parent.parent
MANIFEST = ROOT / ".pre-commit-hooks.yaml"
SNIPPET = ROOT / "examples" / "pre-commit-config.yaml"

pytest.importorskip("pre_commit")

GIT = ["git", "-c", "user.name=nblint tests", "-c", "user.email=tests@nblint.invalid", "-c", "commit.gpgsign=false"]


def hooks() -> dict:
    return {hook["id"]: hook for hook in yaml.safe_load(MANIFEST.read_text())}


def test_manifest_validates_with_pre_commit():
    out = subprocess.run(
        [sys.executable, "-m", "pre_commit", "validate-manifest", str(MANIFEST)], capture_output=True, text=True
    )
    assert out.returncode == 0, out.stdout + out.stderr


def test_hooks_take_their_settings_from_the_config_and_may_run_in_parallel():
    for hook in hooks().values():
        assert hook["entry"] == "nblint check"  # no arguments: [tool.nblint] decides
        assert hook["language"] == "python"
        assert not hook.get("require_serial", False)
        assert not hook.get("args")


@pytest.mark.parametrize(
    "name, nblint, data_only",
    [
        ("data/train.csv", True, True),
        ("data/TRAIN.CSV", True, True),
        ("data/train.tsv", True, True),
        ("data/train.csv.gz", True, True),
        ("data/train.parquet", True, True),
        ("data/train.pq", True, True),
        ("conf/pipeline.yaml", True, False),
        ("conf/pipeline.yml", True, False),
        ("conf/pipeline.json", True, False),
        ("pyproject.toml", True, False),
        ("train.py", True, False),
        ("notebooks/Analysis.ipynb", True, False),
        ("README.md", False, False),
        ("data/train.csv.bak", False, False),
        ("data/notes.txt", False, False),
    ],
)
def test_files_patterns(name, nblint, data_only):
    # pre-commit applies `files` with re.search to the repository-relative path.
    assert bool(re.search(hooks()["nblint"]["files"], name)) is nblint
    assert bool(re.search(hooks()["nblint-data"]["files"], name)) is data_only


def test_splitting_files_over_processes_gives_the_same_findings(tmp_path):
    from nblint.run.runner import lint_paths

    paths = [str(ROOT / "examples" / "customers.csv"), str(ROOT / "examples" / "clean.csv")]
    together = lint_paths(paths).findings
    apart = [f for path in paths for f in lint_paths([path]).findings]
    assert [f.to_dict() for f in together] == [f.to_dict() for f in apart]


def test_files_that_are_not_pipeline_configs_pass(tmp_path):
    """The `nblint` hook hands nblint every changed YAML/JSON/TOML/Python file."""
    from click.testing import CliRunner

    from nblint.cli import main

    for name, text in {
        "pyproject.toml": "[project]\nname = 'x'\n",
        "conf.yaml": "a: 1\n",
        "train.py": "x = 1\n",
    }.items():
        (tmp_path / name).write_text(text)
    result = CliRunner().invoke(
        main, ["check", *(str(tmp_path / n) for n in ("pyproject.toml", "conf.yaml", "train.py"))]
    )
    assert result.exit_code == 0, result.output


def _source_files(root: Path) -> list[str]:
    """This checkout's files as git sees them (tracked and new, not ignored)."""
    out = subprocess.run(
        ["git", "-C", str(root), "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        capture_output=True,
        text=True,
    )
    if out.returncode != 0:  # not a git checkout: everything but caches
        return [
            str(p.relative_to(root))
            for p in root.rglob("*")
            if p.is_file()
            and not any(
                part.startswith(".")
                and part != ".pre-commit-hooks.yaml"
                or part in ("__pycache__", "build", "dist")
                or part.endswith(".egg-info")
                for part in p.relative_to(root).parts
            )
        ]
    return [name for name in out.stdout.split("\0") if name]


@pytest.fixture(scope="module")
def hook_repository(tmp_path_factory) -> tuple[Path, str]:
    """A committed copy of this checkout: what the user's config points pre-commit at."""
    dest = tmp_path_factory.mktemp("nblint-hook")
    for name in _source_files(ROOT):
        source = ROOT / name
        if source.is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, dest / name)
    subprocess.run(["git", "init", "-q", str(dest)], check=True)
    subprocess.run([*GIT, "-C", str(dest), "add", "-A"], check=True)
    subprocess.run([*GIT, "-C", str(dest), "commit", "-q", "-m", "nblint under test"], check=True)
    rev = subprocess.run(["git", "-C", str(dest), "rev-parse", "HEAD"], capture_output=True, text=True, check=True)
    return dest, rev.stdout.strip()


@pytest.fixture(scope="module")
def hook_home(tmp_path_factory) -> Path:
    """The ``PRE_COMMIT_HOME`` of the tests that install the hook repository.

    pre-commit builds one environment per hook repository and revision (a pip install of nblint and
    its dependencies, the slow part) whatever hook of it a config selects: the tests share it, as
    a user's repositories share pre-commit's cache, and whichever runs first installs it.
    """
    return tmp_path_factory.mktemp("pre-commit-home")


def _pre_commit(repo: Path, home: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PRE_COMMIT", "GIT_"))}
    env["PRE_COMMIT_HOME"] = str(home)
    # pip compiles every module it installs into the hook's environment (numpy, pandas, scipy,
    # scikit-learn...): three quarters of the install's CPU (measured: 34 s, 9.6 s without), for
    # modules the hook never imports. PIP_COMPILE=0 is pip's --no-compile: the same packages at the
    # same versions, nblint's own modules compiled on first import as anywhere else.
    env["PIP_COMPILE"] = "0"
    # The README's local hook runs the nblint installed with this Python, as a user's would be on PATH.
    env["PATH"] = os.pathsep.join([sysconfig.get_path("scripts"), env.get("PATH", "")])
    # --color always: pre-commit then runs the hook in a pseudo-terminal, where only
    # the PRE_COMMIT variable it sets keeps nblint's output plain.
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", "run", "--all-files", "--color", "always"],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        timeout=1800,
    )


def _plain(text: str) -> str:
    return re.sub(r"\x1b\[[0-9;]*m", "", text)


def _passes_a_clean_table_and_fails_a_one_hot_group(repo: Path, home: Path) -> None:
    """Run real pre-commit in ``repo`` (its config written): a clean table passes, a one-hot group fails."""
    (repo / "data").mkdir(parents=True)
    # Clean under a declared Bernoulli model: independent flags, every value seen with every class.
    flags = ["has_card,is_member,label"] + [f"{i % 2},{(i // 2) % 2},{'ab'[(i // 4) % 2]}" for i in range(40)]
    (repo / "data" / "clean.csv").write_text("\n".join(flags) + "\n")
    (repo / "pyproject.toml").write_text('[tool.nblint]\ntarget = "label"\nmodel = "bernoulli"\n')
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    subprocess.run([*GIT, "-C", str(repo), "add", "-A"], check=True)

    clean = _pre_commit(repo, home)
    assert clean.returncode == 0, clean.stdout + clean.stderr
    assert re.search(r"^nblint\.+Passed$", _plain(clean.stdout), flags=re.M), clean.stdout

    rows = ["a_x,a_y,a_z,label"] + [
        ",".join(["1" if i % 3 == k else "0" for k in range(3)] + [str(i % 2)]) for i in range(12)
    ]
    (repo / "data" / "onehot.csv").write_text("\n".join(rows) + "\n")
    # A notebook whose second cell one-hot encodes for BernoulliNB: the hook checks notebooks too.
    cells = [
        "from sklearn.naive_bayes import BernoulliNB\nfrom sklearn.preprocessing import OneHotEncoder",
        "from sklearn.pipeline import make_pipeline\nmodel = make_pipeline(OneHotEncoder(), BernoulliNB())",
    ]
    notebook = {
        "cells": [
            {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None, "source": c} for c in cells
        ],
        "metadata": {},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    (repo / "train.ipynb").write_text(json.dumps(notebook))
    subprocess.run([*GIT, "-C", str(repo), "add", "-A"], check=True)
    failing = _pre_commit(repo, home)
    assert failing.returncode == 1, failing.stdout + failing.stderr
    assert re.search(r"^nblint\.+Failed$", _plain(failing.stdout), flags=re.M), failing.stdout
    # The finding, uncoloured although the hook ran in a pseudo-terminal, with its fix under it.
    assert "\ndata/onehot.csv: NB101 [warning] columns a_x, a_y, a_z form a one-hot group" in failing.stdout
    assert "\n  help: Collapse the group into one categorical column" in failing.stdout
    assert "\ntrain.ipynb:cell 2:2: NB501 [warning] OneHotEncoder (cell 2, line 2) one-hot encodes" in failing.stdout
    assert "data/clean.csv" not in failing.stdout  # clean files stay quiet


def test_readme_snippet_is_the_manifest_hook_run_locally():
    """The README's local hook checks the same files, the same way, as the `nblint` hook of the manifest."""
    (local,) = yaml.safe_load(SNIPPET.read_text())["repos"]
    assert local["repo"] == "local"
    (hook,) = local["hooks"]
    manifest = hooks()["nblint"]
    assert {key: hook[key] for key in ("id", "name", "entry", "files")} == {
        key: manifest[key] for key in ("id", "name", "entry", "files")
    }
    assert hook["language"] == "system"


@pytest.mark.slow
def test_real_pre_commit_runs_the_readme_snippet_as_written(tmp_path):
    repo = tmp_path / "user"
    repo.mkdir()
    (repo / ".pre-commit-config.yaml").write_text(SNIPPET.read_text())
    _passes_a_clean_table_and_fails_a_one_hot_group(repo, tmp_path / "pre-commit-home")


@pytest.mark.slow
def test_real_pre_commit_installs_the_hook_repository(tmp_path, hook_repository, hook_home):
    """``repo:`` this repository's URL and ``rev:`` one of its commits, as the README describes."""
    hook_repo, rev = hook_repository
    repo = tmp_path / "user"
    repo.mkdir()
    config = {"repos": [{"repo": str(hook_repo), "rev": rev, "hooks": [{"id": "nblint"}]}]}
    (repo / ".pre-commit-config.yaml").write_text(yaml.safe_dump(config))
    _passes_a_clean_table_and_fails_a_one_hot_group(repo, hook_home)


@pytest.mark.slow
def test_the_hook_repository_lints_text_without_additional_dependencies(
    tmp_path, hook_repository, hook_home, monkeypatch
):
    """A `text = ...` setting needs scikit-learn, a dependency: no `additional_dependencies` key (issue 35)."""
    hook_repo, rev = hook_repository
    repo = tmp_path / "user"
    (repo / "data").mkdir(parents=True)
    words = ["refund", "late", "great", "thanks", "broken", "love", "slow", "fast"]
    docs = [" ".join(words[(i * k) % 8] for k in range(1, 5)) for i in range(60)]
    rows = ["body,label"] + [f"{doc},{'ab'[i % 2]}" for i, doc in enumerate(docs)]
    (repo / "data" / "tweets.csv").write_text("\n".join(rows) + "\n")
    (repo / "pyproject.toml").write_text('[tool.nblint]\ntarget = "label"\ntext = "body"\n')
    config = {"repos": [{"repo": str(hook_repo), "rev": rev, "hooks": [{"id": "nblint-data"}]}]}
    (repo / ".pre-commit-config.yaml").write_text(yaml.safe_dump(config))
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    subprocess.run([*GIT, "-C", str(repo), "add", "-A"], check=True)
    hooked = _pre_commit(repo, hook_home)
    monkeypatch.chdir(repo)  # this environment's nblint, in the test's process: what the hook must print
    local = cli_here("check", "data/tweets.csv")
    assert local.returncode in (0, 1) and "error:" not in local.stderr, local.stderr
    assert hooked.returncode == local.returncode, hooked.stdout + hooked.stderr
    assert "needs scikit-learn" not in hooked.stdout + hooked.stderr
    findings = [line for line in local.stdout.splitlines() if line.startswith("data/tweets.csv: NB")]
    assert all(line in hooked.stdout for line in findings)
