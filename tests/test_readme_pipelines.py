"""The pipelines page stays true: its spec, output, suppressions and API snippet; the README lists every rule."""

from __future__ import annotations

import re

from click.testing import CliRunner
from doc_pages import ROOT, block, documentation, page

from nblint.cli import main
from nblint.engine import load_rules

README = page("README.md")


def test_readme_lists_every_rule_with_its_name():
    for code, rule in load_rules().items():
        assert f"| {code} | {rule.name} |" in README, code


def test_readme_spec_is_checked_with_its_data(tmp_path, monkeypatch):
    spec, shown = block("yaml", "data: examples/customers.csv"), block("text", "pipeline.yaml:")
    assert spec.startswith("model: ")
    (tmp_path / "pipeline.yaml").write_text(spec)
    (tmp_path / "examples").mkdir()
    (tmp_path / "examples" / "customers.csv").write_bytes((ROOT / "examples" / "customers.csv").read_bytes())
    monkeypatch.chdir(tmp_path)
    for args in (["pipeline.yaml"], ["pipeline.yaml", "examples/customers.csv"]):
        result = CliRunner().invoke(main, ["check", *args])
        assert result.exit_code == 1 and result.stderr == ""
        assert result.stdout == shown


def test_readme_python_flows_snippet(tmp_path, monkeypatch):
    """The 'How Python code is followed' example gives exactly the output shown under it."""
    source, shown = block("python", 'read_csv("titanic.csv")'), block("text", "titanic.py:")
    (tmp_path / "titanic.py").write_text(source)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["check", "titanic.py"])
    assert result.exit_code == 1 and result.stderr == ""
    assert result.stdout == shown


def test_readme_suppressions(tmp_path, monkeypatch):
    suppressed, per_file = block("yaml", "# nblint: ignore[NB501]"), block("toml", 'per-file-ignores]\n"configs')
    assert "# nblint: ignore\n" in suppressed
    unsuppressed = re.sub(r"\s*# nblint: ignore.*", "", suppressed)
    (tmp_path / "pyproject.toml").write_text(per_file)
    for name, text in (
        ("suppressed.yaml", suppressed),
        ("plain.yaml", unsuppressed),
        ("configs/legacy/old.yaml", unsuppressed),
    ):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["check", "suppressed.yaml", "plain.yaml", "configs"])
    assert result.stderr == ""
    findings = [line for line in result.stdout.splitlines()[:-1] if not line.startswith("  help: ")]
    assert [line.split(" [")[0] for line in findings] == ["plain.yaml:3: NB501", "plain.yaml:5: NB502"]


def test_readme_noqa_snippet(tmp_path, monkeypatch):
    suppressed = block("python", "# noqa: NB501")
    (tmp_path / "quiet.py").write_text(suppressed)
    (tmp_path / "plain.py").write_text(re.sub(r"\s*# noqa.*", "", suppressed))
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["check", "quiet.py", "plain.py", "--format", "concise"])
    assert [line.split(" [")[0] for line in result.stdout.splitlines()[:-1]] == [
        "plain.py:6: NB501",
        "plain.py:7: NB502",
    ]


def test_readme_tables_only_files_pattern_is_the_data_hook():
    import yaml

    manifest = {hook["id"]: hook for hook in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())}
    assert f"`files: {manifest['nblint-data']['files']}`" in documentation()


def test_readme_live_pipeline_snippet(capsys):
    snippet = block("python", "report = nblint.check_pipeline(pipe)")
    namespace: dict = {}
    exec(compile(snippet, "README.md", "exec"), namespace)
    printed = capsys.readouterr().out.strip()
    assert printed == "['NB501', 'NB508']"
    assert f"print(report.codes())                  # {printed}" in snippet
