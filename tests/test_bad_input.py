"""Bad input: one line ``path: error: ...``, exit 2, no traceback, the other files still linted."""

from __future__ import annotations

import gzip
import hashlib
import os

import pytest
from click.testing import CliRunner

from nblint.cli import main

GOOD = "a,b,y\n1,0,x\n0,1,y\n1,0,x\n"


def run(*args, input=None):
    result = CliRunner().invoke(main, list(args), input=input)
    assert "Traceback" not in result.output + (result.stderr or "")
    return result


def assert_error(result, path, fragment):
    assert result.exit_code == 2, result.output
    lines = [line for line in result.stderr.splitlines() if line.startswith(f"{path}: error:")]
    assert len(lines) == 1, result.stderr
    assert fragment in lines[0], lines[0]


@pytest.mark.parametrize(
    "name, content, fragment",
    [
        ("empty.csv", b"", "file is empty"),
        ("header_only.csv", b"a,b,y\n", "no data rows"),
        ("ragged.csv", b"a,b,y\n1,0,x\n1,0,x,extra\n", "ragged rows: data row 2 has 4 fields, the header has 3"),
        ("latin1.csv", "name,y\nJos\u00e9,a\n".encode("latin-1"), "--encoding"),
        ("dupes.csv", b"a,a,y\n1,0,x\n", "duplicate column names: 'a'"),
        ("bad.parquet", b"PAR1 this is not parquet", "not a readable Parquet file"),
        ("bad.csv.gz", b"\x1f\x8b\x08 not really gzip", "gzip"),
    ],
)
def test_bad_file_is_one_error_line_and_other_files_still_linted(write, name, content, fragment):
    bad = write(name, content)
    good = write("good.csv", GOOD)
    result = run("check", bad, good, "--target", "y")
    assert_error(result, bad, fragment)
    # The good file was linted: its one-hot group is reported on stdout.
    assert f"{good}: NB101" in result.stdout


def test_missing_file(tmp_path, write):
    good = write("good.csv", GOOD)
    missing = str(tmp_path / "nope.csv")
    result = run("check", missing, good)
    assert_error(result, missing, "file not found")
    assert f"{good}: NB101" in result.stdout


def test_target_not_in_table(write):
    path = write("t.csv", GOOD)
    result = run("check", path, "--target", "label")
    assert_error(result, path, "target column 'label' not found")


def test_latin1_reads_with_encoding_option(write):
    path = write("latin1.csv", "name,y\nJos\u00e9,a\nAna,b\n".encode("latin-1"))
    result = run("check", path, "--encoding", "latin-1")
    assert result.exit_code == 0, result.output


def test_gzip_csv_reads(write):
    path = write("t.csv.gz", gzip.compress(GOOD.encode()))
    result = run("check", path, "--target", "y")
    assert result.exit_code == 1
    assert "NB101" in result.stdout


def test_stdin(write):
    result = run("check", "-", "--target", "y", input=GOOD)
    assert result.exit_code == 1
    assert "-: NB101" in result.stdout


def test_unknown_selector_is_a_usage_error(write):
    path = write("t.csv", GOOD)
    result = run("check", path, "--select", "NB999")
    assert result.exit_code == 2


@pytest.mark.parametrize(
    "name, content",
    [
        ("all_missing.csv", "a,b,y\n,1,x\n,2,y\n,3,x\n"),
        ("one_class.csv", "a,b,y\n1,0,x\n0,1,x\n"),
        ("mixed.csv", "a,b,y\n1,x,p\nhello,2.5,q\n3,,p\n"),
    ],
)
def test_odd_but_valid_tables_lint_normally(write, name, content):
    path = write(name, content)
    result = run("check", path, "--target", "y")
    assert result.exit_code in (0, 1), result.output
    assert result.stderr == ""


@pytest.mark.slow
def test_very_wide_table(write):
    n_cols = 5200
    header = ",".join(f"c{i}" for i in range(n_cols)) + ",y"
    rows = [",".join(str((r * 7 + i) % 5) for i in range(n_cols)) + f",{r % 2}" for r in range(12)]
    path = write("wide.csv", "\n".join([header, *rows]) + "\n")
    result = run("check", path, "--target", "y", "--select", "NB101,NB102,NB103,NB105")
    assert result.exit_code in (0, 1), result.output
    assert result.stderr == ""


def test_directory_checks_tables_and_warns_when_empty(tmp_path, write):
    write("data/a.csv", GOOD)
    write("data/sub/b.tsv", GOOD.replace(",", "\t"))
    write("data/notes.txt", "not a table")
    result = run("check", str(tmp_path / "data"))
    assert result.stdout.count("NB101") == 2
    empty = tmp_path / "empty"
    empty.mkdir()
    result = run("check", str(empty))
    assert result.exit_code == 0
    assert "no tables or pipeline configs found" in result.stderr


def test_inputs_are_never_modified(write):
    path = write("t.csv", GOOD)
    before = (hashlib.sha256(open(path, "rb").read()).hexdigest(), os.stat(path).st_mtime_ns)
    run("check", path, "--target", "y")
    after = (hashlib.sha256(open(path, "rb").read()).hexdigest(), os.stat(path).st_mtime_ns)
    assert before == after


def test_every_format_gives_the_same_findings(tmp_path):
    import json
    from pathlib import Path

    import pandas as pd

    frame = pd.read_csv(Path(__file__).resolve().parent.parent / "examples" / "customers.csv")
    paths = {
        "csv": tmp_path / "t.csv",
        "tsv": tmp_path / "t.tsv",
        "gz": tmp_path / "t.csv.gz",
        "parquet": tmp_path / "t.parquet",
    }
    frame.to_csv(paths["csv"], index=False)
    frame.to_csv(paths["tsv"], index=False, sep="\t")
    frame.to_csv(paths["gz"], index=False, compression="gzip")
    frame.to_parquet(paths["parquet"], index=False)
    outputs = {}
    for kind, path in paths.items():
        result = run("check", str(path), "--target", "churned", "--format", "json")
        assert result.exit_code == 1, result.output
        outputs[kind] = [{k: v for k, v in f.items() if k != "path"} for f in json.loads(result.stdout)]
    assert outputs["csv"] == outputs["tsv"] == outputs["gz"] == outputs["parquet"]
    assert {f["code"] for f in outputs["csv"]} >= {"NB101", "NB102", "NB104", "NB105", "NB401"}
