"""Every snippet of the documentation (the README and docs/) runs as written, and shows what it prints.

Each fenced block is one of:

* a Python block: saved as a file and run with ``python`` in a folder holding the examples;
* a ``text`` block opening with ``$ nblint ...``: the command is run and its standard output must
  be the block's other lines, exactly;
* a ``bash`` block: its ``nblint`` lines are run (they exit 0, or 1 for findings) and its
  ``pip install`` lines are the installs CI runs (``.ci/run``);
* a block a feature test runs in its own way (a YAML spec with its data, suppression comments,
  the output of a script shown under it): listed in :data:`CLAIMS` with the test that finds it by
  the same marker;
* a benchmark's recorded output (a fence without a language): the paragraph before it names the
  script that printed it, the date and the machine.

:func:`test_every_block_is_run_or_claimed` fails on a block that is none of these, so a snippet
added to a page is run or tested from the day it is written. The rule pages are generated from the
rules at build time (docs/hooks/rules.py); their tests are at the end.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from doc_pages import DOCS, ROOT, all_blocks, pages
from scripts import run_fresh

from nblint.cli import main

#: Blocks that a feature test runs in its own way: (language, marker, the test that checks the block).
#: Among the blocks no generic runner takes, the marker is in one block of that language (or in copies of it).
CLAIMS = [
    ("text", "nblint check [PATH...]", "tests/test_readme.py::test_cli_page_documents_every_option_of_every_command"),
    ("text", "examples/customers.csv: NB101", "tests/test_readme.py::test_readme_example_output_is_what_nblint_prints"),
    ("toml", 'target = "churned"', "tests/test_readme.py::test_config_block_is_valid"),
    (
        "yaml",
        "# .pre-commit-config.yaml",
        "tests/test_readme.py::test_integration_snippets_are_the_tested_example_files",
    ),
    ("yaml", "rev: v", "tests/test_readme.py::test_hook_repository_snippet_names_this_release_and_its_hooks"),
    ("yaml", "# .github/workflows/nblint.yml", "tests/test_readme.py::test_workflow_snippet_commands_run"),
    (
        "yaml",
        "data: examples/customers.csv",
        "tests/test_readme_pipelines.py::test_readme_spec_is_checked_with_its_data",
    ),
    ("text", "pipeline.yaml:", "tests/test_readme_pipelines.py::test_readme_spec_is_checked_with_its_data"),
    ("text", "titanic.py:", "tests/test_readme_pipelines.py::test_readme_python_flows_snippet"),
    ("yaml", "# nblint: ignore[NB501]", "tests/test_readme_pipelines.py::test_readme_suppressions"),
    ("toml", 'per-file-ignores]\n"configs', "tests/test_readme_pipelines.py::test_readme_suppressions"),
    ("toml", 'test = "tests/data/split/test.csv"', "tests/test_train_test.py::test_the_docs_configuration_block_works"),
]

#: Python blocks that are not scripts: the rule pack's pytest module (tests/test_testing.py runs it
#: with pytest inside a pack of its own, as the page says to).
NOT_SCRIPTS = ("# tests/test_my_rules.py",)

#: A date, as the recorded benchmark outputs give theirs.
DATE = re.compile(r"\b20\d\d-\d\d-\d\d\b")


def kind(page: str, language: str, body: str) -> str:
    """How a block is kept true: ``python``, ``command``, ``bash``, ``claimed`` or ``recorded``."""
    if language == "python":
        return "python"
    if language == "text" and body.startswith("$ nblint "):
        return "command"
    if language == "bash":
        return "bash"
    if any(lang == language and claims(language, marker, body) for lang, marker, _ in CLAIMS):
        return "claimed"
    if language == "" and recorded(page, body):
        return "recorded"
    return "unknown"


def claims(language: str, marker: str, body: str) -> bool:
    """A text block (an output) is claimed by how it starts, any other block by what it holds."""
    return body.startswith(marker) if language == "text" else marker in body


def recorded(page: str, body: str) -> bool:
    """A benchmark's output: the paragraph before the fence names the bench script, a date and the machine."""
    text = pages()[page]
    before = text[: text.index("```\n" + body)].rstrip().rsplit("\n\n", 1)[-1]
    return "bench/" in before and bool(DATE.search(before)) and "machine" in before


def test_every_block_is_run_or_claimed():
    unknown = [(page, body[:80]) for page, language, body in all_blocks() if kind(page, language, body) == "unknown"]
    assert not unknown


@pytest.mark.parametrize(("language", "marker", "test"), CLAIMS)
def test_each_claim_names_one_block_and_a_test(language, marker, test):
    claimable = [body for page, lang, body in all_blocks() if lang == language and kind(page, lang, body) == "claimed"]
    assert len({body for body in claimable if claims(language, marker, body)}) == 1, marker
    path, name = test.split("::")
    assert f"\ndef {name}(" in (ROOT / path).read_text(), test


# --------------------------------------------------------------------------- the runners


def examples_folder(tmp_path: Path) -> Path:
    """A folder laid out as the snippets expect: the examples and the test data, copied (snippets write files)."""
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    (tmp_path / "tests" / "data").mkdir(parents=True)
    shutil.copy2(ROOT / "tests" / "data" / "messages.csv", tmp_path / "tests" / "data")
    shutil.copytree(ROOT / "tests" / "data" / "split", tmp_path / "tests" / "data" / "split")
    return tmp_path


def of_kind(wanted: str) -> list:
    found = [(page, body) for page, language, body in all_blocks() if kind(page, language, body) == wanted]
    counts: dict[str, int] = {}
    params = []
    for page, body in found:
        counts[page] = counts.get(page, 0) + 1
        slow = wanted == "python" and "distributed" in body
        marks = [pytest.mark.slow] if slow else []
        params.append(pytest.param(page, body, id=f"{page}-{counts[page]}", marks=marks))
    return params


@pytest.mark.parametrize(("page", "shown"), of_kind("command"))
def test_shown_commands_print_what_is_shown(page, shown, tmp_path, monkeypatch):
    line, *expected = shown.splitlines()
    monkeypatch.chdir(examples_folder(tmp_path))
    result = CliRunner().invoke(main, shlex.split(line)[2:])
    assert result.exit_code in (0, 1) and result.stderr == ""
    assert result.stdout.splitlines() == expected


@pytest.mark.parametrize(("page", "script"), of_kind("bash"))
def test_bash_blocks_run(page, script, tmp_path, monkeypatch):
    ci = (ROOT / ".ci" / "run").read_text()
    monkeypatch.chdir(examples_folder(tmp_path))
    for command in script.strip().splitlines():
        for part in command.split(" && "):
            if part.startswith("pip install "):  # the installs CI runs, as CI runs them
                assert f"python -m pip install --quiet {part.removeprefix('pip install ')}" in ci, part
            elif part == "python -m pytest":
                assert ci.rstrip().endswith(part)
            elif "--scheduler" in part:  # needs a running cluster: tests/test_readme.py starts one (slow)
                assert "--engine dask" in part
            else:
                argv = shlex.split(part)
                assert argv[0] == "nblint", part
                assert CliRunner().invoke(main, argv[1:]).exit_code in (0, 1), part


def write_titanic_like(path: Path) -> None:
    """A table with the columns the pipelines page's titanic.py uses (the passenger data itself is not shipped)."""
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


#: A comment that shows a value (``# ['NB501', 'NB508']``), not one that describes it (``# the same lines``).
VALUE = re.compile(r"""^[\[{('"\d-]""")


def shown_values(snippet: str) -> list[str] | None:
    """What a block says it prints, when every ``print(...)`` at the block's top level shows its value.

    The value is the comment after the call (``print(report.codes())  # ['NB501']``) or on the
    line under it (``# ['NB501', ...]``). ``None`` when a print's output is not shown.
    """
    lines = snippet.splitlines()
    shown = []
    for number, line in enumerate(lines):
        if not line.startswith("print("):
            continue
        comment = line.split("  # ", 1)[1].strip() if "  # " in line else ""
        under = lines[number + 1] if number + 1 < len(lines) else ""
        if not comment and under.startswith("# "):
            comment = under[2:].strip()
        if not VALUE.match(comment):
            return None
        shown.append(comment)
    return shown or None


def scripts() -> list:
    """The Python blocks that are scripts, each text once (the README's first block is also the API page's)."""
    seen: set[str] = set()
    params = []
    for param in of_kind("python"):
        snippet = param.values[1]
        if not snippet.startswith(NOT_SCRIPTS) and snippet not in seen:
            seen.add(snippet)
            params.append(param)
    return params


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(os, "fork"), reason="the warmed interpreter forks a process per script")
@pytest.mark.parametrize(("page", "snippet"), scripts())
def test_every_python_block_runs_as_a_script(page, snippet, tmp_path, script_runner):
    """Each block, saved as a file and run with python in a folder holding the examples, exits 0.

    A script, not exec() in this process: what only works inside a test runner (a name the test
    defines, a Dask Client() outside the __main__ guard, whose workers re-import the script) fails.
    Each runs in a process of its own, forked from an interpreter that imported pandas, scikit-learn
    and nblint once; one whose workers re-import it (Dask's) in a fresh interpreter.
    """
    for module in ("polars", "sklearn", "pandera", "distributed"):
        if f"import {module}" in snippet or f"from {module}" in snippet:
            pytest.importorskip(module)
    examples_folder(tmp_path)
    if 'read_csv("titanic.csv")' in snippet:  # the pipelines page's script reads the user's own table
        write_titanic_like(tmp_path / "titanic.csv")
    (tmp_path / "snippet.py").write_text(snippet)
    run = run_fresh if "distributed" in snippet else script_runner.run
    proc = run(tmp_path / "snippet.py")
    assert proc.returncode == 0, proc.stderr[-3000:]
    shown = shown_values(snippet)
    if shown is not None:
        assert proc.stdout.splitlines() == shown
    if "distributed" in snippet:  # the Dask report is the one nblint check prints (the path aside)
        local = CliRunner().invoke(main, ["check", str(ROOT / "examples/customers.csv"), "--target", "churned"])
        shown = proc.stdout.rstrip("\n").replace("<dask>", str(ROOT / "examples/customers.csv"))
        assert shown == local.stdout.rstrip("\n")


# --------------------------------------------------------------------------- the site


def test_every_page_is_in_the_navigation():
    import yaml

    nav = yaml.safe_load((ROOT / "mkdocs.yml").read_text())["nav"]
    listed = set(re.findall(r"[\w/-]+\.md", str(nav)))
    assert listed == {path.relative_to(DOCS).as_posix() for path in DOCS.glob("*.md")} | {"rules/index.md"}


def test_every_rule_has_a_generated_page_with_every_section():
    """The hook's page for each rule is the rule's own documentation, with every section the project asks for."""
    pytest.importorskip("mkdocs")
    import importlib.util

    # loaded from its file under a name of its own: "rules" is also the rule pack's folder
    spec = importlib.util.spec_from_file_location("nblint_docs_rules_hook", DOCS / "hooks" / "rules.py")
    hook = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hook)
    from nblint.engine import load_rules

    found = load_rules()
    index = hook.index_page(hook._rules())
    for code, rule in found.items():
        text = hook.rule_page(rule)
        assert text.startswith(f"# {code} {rule.name}\n")
        for section in ("What it does", "Why is this bad?", "Example", "Use instead", "Options", "Severity"):
            assert f"\n## {section}\n" in text, (code, section)
        assert hook._markdown(rule.doc_sections()["What it does"]) in text
        assert f"| [{code}]({code}.md) | {rule.name} | {rule.severity} |" in index


@pytest.mark.slow
def test_the_site_builds_without_a_warning(tmp_path):
    """`mkdocs build --strict`, as .ci/run runs it: every link and anchor resolves, every page renders."""
    pytest.importorskip("mkdocs")
    pytest.importorskip("mkdocstrings")
    command = [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")]
    build = subprocess.run(
        command, cwd=ROOT, capture_output=True, text=True, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    )
    assert build.returncode == 0, build.stderr[-3000:]
    rules = sorted(path.name for path in (tmp_path / "site" / "rules").iterdir() if path.is_dir())
    from nblint.engine import load_rules

    assert rules == sorted(load_rules())


def test_inline_commands_use_options_the_command_has():
    """A command quoted in the prose (`nblint check data --format sarif ...`) names a command and
    options nblint has (or their snake_case spellings), so no page teaches an option that is gone."""
    from doc_pages import documentation

    spans = set(re.findall(r"(?<!`)`(nblint [a-z]+ [^`]*)`", documentation()))
    assert spans
    for span in spans:
        _, command, *words = span.split()
        assert command in main.commands, span
        options = {
            name.replace("_", "-")
            for param in main.commands[command].params
            for name in [*getattr(param, "opts", []), *getattr(param, "secondary_opts", [])]
        }
        for word in words:
            option = word.split("=")[0].replace("_", "-")
            assert not option.startswith("-") or option == "-" or option in options, (span, word)
