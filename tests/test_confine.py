"""A spec's ``data:`` stays in its project (issue 41, item 1): no output carries a file from elsewhere.

A spec is a file anyone can add in a pull request, and nblint's output goes to public CI logs
and code-scanning alerts (SARIF). A planted secret beside the project (a CSV-named and a
``.env`` file, reached by ``..``, by an absolute path and by a symbolic link inside the project)
must appear in no output of any format; the refusal is one error line naming the spec and its
line; a table inside the project (or the working directory) is still read, and
``--allow-outside-data`` lifts the folder confinement (never the table-name check).
"""

from __future__ import annotations

import os

import pytest
from click.testing import CliRunner

from nblint.cli import main

SECRET = "AKIAEXAMPLESECRET42"
TABLE = "a,b,y\n1,0,x\n0,1,y\n1,0,x\n0,1,y\n"
FORMATS = ["text", "concise", "json", "sarif", "github", "junit"]


@pytest.fixture
def project(tmp_path, monkeypatch):
    """``tmp/outside/{secret.csv,.env}`` beside ``tmp/project``, the working directory."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.csv").write_text(f"{SECRET},b\n{SECRET}1,2\n")
    (outside / ".env").write_text(f"TOKEN={SECRET}\n")
    project = tmp_path / "project"
    project.mkdir()
    (project / "train.csv").write_text(TABLE)
    monkeypatch.chdir(project)
    return project


def spec(folder, name: str, data: str) -> str:
    path = folder / name
    path.write_text(f"model: BernoulliNB\ndata: {data}\ntarget: y\n")
    return name


def run(*args):
    result = CliRunner().invoke(main, ["check", *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result


@pytest.mark.parametrize("output_format", FORMATS)
@pytest.mark.parametrize(
    "data", ["../outside/secret.csv", "../outside/.env", "ABSOLUTE", "link.csv"], ids=["dotdot", "env", "abs", "link"]
)
def test_no_output_carries_a_file_from_outside(project, data, output_format):
    if data == "ABSOLUTE":
        data = str(project.parent / "outside" / "secret.csv")
    if data == "link.csv":
        os.symlink(project.parent / "outside" / "secret.csv", project / "link.csv")
    name = spec(project, "nblint.yaml", data)
    result = run(name, "train.csv", "--target", "y", "--format", output_format)
    assert SECRET not in result.stdout + result.stderr
    assert result.exit_code == 2
    (line,) = [line for line in result.stderr.splitlines() if "error:" in line]
    assert line.startswith(f"{name}:2: error: the data file ")
    assert "it was not read" in line
    assert "train.csv" in result.stdout  # the other input is still linted


def test_a_non_table_name_is_refused_even_inside_the_project(project):
    (project / ".env").write_text(f"TOKEN={SECRET}\n")
    result = run(spec(project, "nblint.yaml", ".env"), "--allow-outside-data")
    assert SECRET not in result.stdout + result.stderr
    assert result.stderr.startswith("nblint.yaml:2: error: the data file '.env' is not named as a table")


def test_the_flag_reads_a_table_outside(project):
    name = spec(project, "nblint.yaml", "../outside/secret.csv")
    refused = run(name)
    assert "pass --allow-outside-data to read it" in refused.stderr
    allowed = run(name, "--allow-outside-data")
    # read now, as the user asked: the refusal is gone and the table's own error speaks of its columns
    assert "--allow-outside-data" not in allowed.stderr
    assert "target column 'y' not found" in allowed.stderr


def test_data_inside_the_project_or_the_working_directory_is_read(project):
    sub = project / "configs"
    sub.mkdir()
    inside = run(spec(project, "nblint.yaml", "train.csv"), "--format", "concise")
    # in the working directory's tree though outside the spec's folder: allowed too
    spec(sub, "spec.yaml", "../train.csv")
    up = run("configs/spec.yaml", "--format", "concise")
    for result in (inside, up):
        assert result.exit_code in (0, 1), result.output
        assert result.stderr == ""
        assert "train.csv" in result.stdout


def test_data_inside_the_specs_repository_is_read(tmp_path, monkeypatch):
    repository = tmp_path / "repo"
    (repository / ".git").mkdir(parents=True)
    (repository / "configs").mkdir()
    (repository / "data").mkdir()
    (repository / "data" / "train.csv").write_text(TABLE)
    spec(repository / "configs", "spec.yaml", "../data/train.csv")
    monkeypatch.chdir(tmp_path)  # above the repository: only the repository's tree allows the data
    result = run("repo/configs/spec.yaml", "--format", "concise")
    assert result.exit_code in (0, 1) and result.stderr == "", result.output
    # the same layout with no repository is refused: the spec's folder and the working directory only
    (repository / ".git").rmdir()
    monkeypatch.chdir(repository / "configs")
    assert "lies outside the folder of spec.yaml" in run("spec.yaml").stderr
