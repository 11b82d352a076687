"""The README stays true: its commands are the ones CI runs, its shown output is real.

The snippets of every page (the README and docs/) are run by tests/test_docs.py; these are the
README's own promises and the documentation's blocks that need more than running.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest
from click.testing import CliRunner
from doc_pages import ROOT, block, blocks, documentation, page

from nblint.cli import main

README = page("README.md")


def test_readme_opens_with_the_two_commands_ci_runs():
    first = blocks("bash", "README.md")[0].strip().splitlines()
    assert first == [
        "pip install . && nblint check examples/customers.csv --target churned",
        'pip install -e ".[test]" && python -m pytest',
    ]
    assert blocks("bash", "docs/index.md")[0].strip().splitlines() == first  # the site's front page too
    ci = (ROOT / ".ci" / "run").read_text()
    assert "python -m pip install --quiet ." in ci
    assert "nblint check examples/customers.csv --target churned" in ci
    assert 'python -m pip install --quiet -e ".[test]"' in ci
    assert ci.rstrip().endswith("python -m pytest")


def test_readme_is_a_front_page():
    """The README is short; the rest is on the documentation site, which it links page by page."""
    assert len(README.splitlines()) < 300
    for target in re.findall(r"\]\((docs/[^)#]*)", README):
        assert (ROOT / target).exists(), target
    linked = set(re.findall(r"\]\(docs/([^)#]+\.md)", README))
    on_site = {path.name for path in (ROOT / "docs").glob("*.md")} - {"index.md"}
    assert linked == on_site


def test_readme_example_output_is_what_nblint_prints(monkeypatch):
    shown = blocks("text", "README.md")[0]
    monkeypatch.chdir(ROOT)
    result = CliRunner().invoke(main, ["check", "examples/customers.csv", "--target", "churned"])
    assert result.exit_code == 1
    assert result.stdout == shown


def test_readme_python_snippet_runs(monkeypatch):
    monkeypatch.chdir(ROOT)
    snippet = blocks("python", "README.md")[0]
    namespace: dict = {}
    exec(compile(snippet, "README.md", "exec"), namespace)
    cli = CliRunner().invoke(main, ["check", "examples/customers.csv", "--target", "churned", "--format", "json"])
    expected = [f["code"] for f in json.loads(cli.stdout)]
    assert len(namespace["report"]) == len(expected) > 0
    assert list(namespace["frame"]["code"]) == expected
    assert json.loads(namespace["text"]) == [dict(f, path="<dataframe>") for f in json.loads(cli.stdout)]


def test_readme_install_wording():
    """What works today comes first; the index name is said to be the future one, not given as a command."""
    install = README.split("## Installing\n", 1)[1].split("\n## ", 1)[0]
    assert "`pip install .`" in install and "naive-bayes-lint @ git+" in install
    assert "pip install naive-bayes-lint" in install and "does not work today" in install


def test_config_block_is_valid(tmp_path):
    from nblint.run.config import load_config

    toml = block("toml", 'target = "churned"')
    (tmp_path / "pyproject.toml").write_text(toml)
    settings = load_config(str(tmp_path / "pyproject.toml"))
    assert settings.target == "churned"
    assert settings.rule_options["NB104"]["vif-threshold"] == 5.0
    assert settings.kinds == {"season": "categorical", "pixel_*": "count"}


def test_configuration_page_documents_every_key():
    from nblint.run.config import PER_FILE_KEYS, TOP_KEYS

    table = page("docs/configuration.md").split("| key | what |", 1)[1].split("\n\n", 1)[0]
    for key in TOP_KEYS | PER_FILE_KEYS:
        assert f"`{key}`" in table, key


def test_module_entry_point_prints_version():
    out = subprocess.run([sys.executable, "-m", "nblint", "--version"], capture_output=True, text=True, check=True)
    assert "nblint" in out.stdout


def test_cli_page_documents_every_option_of_every_command():
    """The command-line synopsis lists each option of each command; the page explains each option of check."""
    cli = page("docs/cli.md")
    (synopsis,) = [b for b in blocks("text", "docs/cli.md") if b.startswith("nblint check")]
    for command in main.commands:
        if command in ("check", "schema", "rules", "rule", "columns", "impact", "fix"):
            assert f"nblint {command} " in synopsis, command
        for param in main.commands[command].params:
            for name in [*getattr(param, "opts", []), *getattr(param, "secondary_opts", [])]:
                if name.startswith("--") and name != "--help":
                    assert name in synopsis, (command, name)
                    assert command != "check" or f"`{name}" in cli, name


def test_cli_page_documents_every_key_of_rules_json():
    rules = json.loads(CliRunner().invoke(main, ["rules", "--format", "json"]).stdout)
    said = page("docs/cli.md").split("`nblint rules --format json` gives", 1)[1].split("\n\n", 1)[0]
    for key in {key for rule in rules for key in rule} | {key for rule in rules for o in rule["options"] for key in o}:
        assert f"`{key}`" in said, key


def test_integration_snippets_are_the_tested_example_files():
    """The pre-commit, pandera and workflow snippets are copies of files the tests use."""
    for name in ("pre-commit-config.yaml", "github-workflow.yml"):
        assert (ROOT / "examples" / name).read_text() in blocks("yaml")
    assert (ROOT / "examples" / "schema.py").read_text() in blocks("python")


def test_hook_repository_snippet_names_this_release_and_its_hooks():
    """The pre-commit snippet that uses this repository as a hook repository: its rev is this
    version's tag (`v` + the version, which the release is tagged with) and its hooks exist."""
    import yaml

    from nblint import __version__

    snippet = block("yaml", "rev: v")
    assert snippet in blocks("yaml", "README.md") and snippet in blocks("yaml", "docs/ci.md")
    (repo,) = yaml.safe_load(snippet)["repos"]
    assert repo["rev"] == f"v{__version__}" == "v0.1.0"
    manifest = {hook["id"] for hook in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())}
    assert {hook["id"] for hook in repo["hooks"]} <= manifest


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
def test_dask_command_runs_on_a_local_cluster(monkeypatch):
    import pytest

    distributed = pytest.importorskip("distributed")
    monkeypatch.chdir(ROOT)
    command = next(line for b in blocks("bash") for line in b.splitlines() if "--engine dask" in line)
    local = CliRunner().invoke(main, ["check", "examples/customers.csv", "--target", "churned"])
    with distributed.LocalCluster(n_workers=2, processes=False, dashboard_address=None) as cluster:
        argv = command.replace("tcp://scheduler:8786", cluster.scheduler_address).split()[1:]
        result = CliRunner().invoke(main, argv)
        assert result.exit_code == 1 and result.stdout == local.stdout


@pytest.mark.slow
def test_bench_commands_are_the_bench_scripts_options(script_runner):
    """The rerun commands the pages give name bench scripts that take the options shown
    (running them is the benchmark itself, minutes each, so their --help is what is run, once per
    script, each a process of its own forked from the run's warmed interpreter)."""
    commands = sorted(set(re.findall(r"`python (bench/\w+\.py)([^`]*)`", documentation())))
    assert {script for script, _ in commands} >= {"bench/bench_startup.py", "bench/bench_check.py"}
    usages = {}
    for script, options in commands:
        if script not in usages:
            usages[script] = script_runner.run(ROOT / script, "--help")
            assert usages[script].returncode == 0, (script, usages[script].stderr[-2000:])
        for option in re.findall(r"--[\w-]+", options):
            assert option in usages[script].stdout, (script, option)
