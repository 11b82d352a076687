"""The documentation's API inputs, live pipelines with their data and the HTML report stay true."""

from __future__ import annotations

import ast
import shutil

import pytest
from click.testing import CliRunner
from doc_pages import ROOT, block

from nblint.cli import main


@pytest.fixture
def folder(tmp_path, monkeypatch):
    """A folder with the examples, as the snippets expect, so that what they write stays there."""
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def run_and_compare(snippet: str, capsys) -> None:
    """Run the snippet; each ``print(...)  # value`` line must print that value."""
    exec(compile(snippet, "README.md", "exec"), {})
    printed = capsys.readouterr().out.splitlines()
    shown = [
        line.split("#", 1)[1].strip() for line in snippet.splitlines() if line.startswith("print(") and "#" in line
    ]
    shown += [line[1:].strip() for line in snippet.splitlines() if line.startswith("# [")]
    assert printed == shown and shown


def test_api_inputs_snippet(folder, capsys):
    pytest.importorskip("polars")
    run_and_compare(block("python", "sparse.csr_matrix"), capsys)
    assert (folder / "report.html").read_text().startswith("<!DOCTYPE html>")


def test_live_pipeline_with_its_data_snippet(folder, capsys):
    pytest.importorskip("sklearn")
    snippet = block("python", "check_pipeline(pipe, X, y)")
    run_and_compare(snippet, capsys)
    assert ast.literal_eval(snippet.splitlines()[-1][1:].strip())[0] == "NB501"


def test_html_report_command(folder):
    (command,) = [line for line in block("bash", "--format html").splitlines() if line.startswith("nblint ")]
    result = CliRunner().invoke(main, command.split()[1:])
    assert result.exit_code == 1  # the example has findings
    page = (folder / "report.html").read_text()
    assert page.count('<figure class="group"') == 3 and page.count('<figure class="impact"') == 1
