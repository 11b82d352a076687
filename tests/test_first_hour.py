"""What a new user meets in the first hour (issue 35, the smaller items): each said where they look.

A workbook whose first sheet is not the data, a folder walk passing over workbooks, a
mistyped rule code, the order of the error lines and the summary, the JSON keys of
``nblint rules``, and ``nblint fix`` writing CSV as a person would (quotes only where needed).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pandas as pd
import pytest
from click.testing import CliRunner

from nblint.cli import main
from nblint.engine import load_rules
from nblint.engine.registry import rule_record


def _workbook_with_a_cover_sheet(path) -> None:
    pytest.importorskip("openpyxl")
    with pd.ExcelWriter(path) as writer:
        pd.DataFrame({"About": ["churn data, one row per customer", "see the sheet 'data'"]}).to_excel(
            writer, sheet_name="README", index=False
        )
        pd.DataFrame({"a": [1, 0, 1, 0] * 5, "y": [0, 1, 1, 0] * 5}).to_excel(writer, sheet_name="data", index=False)


def test_a_workbook_whose_first_sheet_is_not_the_data_points_at_sheet(tmp_path):
    book = tmp_path / "book.xlsx"
    _workbook_with_a_cover_sheet(book)
    result = CliRunner().invoke(main, ["check", str(book), "--target", "y"])
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        f"{book}: error: target column 'y' not found (columns: About); that is the first sheet, 'README', "
        "of README, data: --sheet NAME reads another"
    ]
    assert CliRunner().invoke(main, ["check", str(book), "--target", "y", "--sheet", "data"]).exit_code in (0, 1)


def test_a_single_sheet_workbook_says_nothing_of_sheets(tmp_path):
    pytest.importorskip("openpyxl")
    book = tmp_path / "one.xlsx"
    pd.DataFrame({"a": [1, 0] * 5, "b": [0, 1] * 5}).to_excel(book, index=False)
    result = CliRunner().invoke(main, ["check", str(book), "--target", "y"])
    assert result.exit_code == 2 and "--sheet" not in result.stderr


def test_a_folder_walk_names_the_workbooks_it_skips(tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "t.csv").write_text("a,y\n" + "".join(f"{i % 2},{i % 3 % 2}\n" for i in range(20)))
    for name in ("sub/b.xlsx", "a.xls"):
        (tmp_path / name).write_bytes(b"not read")
    result = CliRunner().invoke(main, ["check", str(tmp_path), "--target", "y"])
    assert result.exit_code in (0, 1), result.output
    (line,) = [line for line in result.stderr.splitlines() if "Excel" in line]
    assert line == (
        f"{tmp_path}: warning: a folder is walked for CSV, TSV and Parquet files, not Excel workbooks: "
        f"skipped {tmp_path}/a.xls, {tmp_path}/sub/b.xlsx (name a workbook to lint it)"
    )
    assert "in 1 file" in result.stdout  # the CSV, only


@pytest.mark.parametrize("typed", ["NB1O1", "nb4o1", "one-hot-grup", "NB9", "zzz"])
def test_rule_and_select_offer_the_same_did_you_mean(typed):
    rule = CliRunner().invoke(main, ["rule", typed])
    select = CliRunner().invoke(main, ["check", "--select", typed, "examples/customers.csv"])
    assert rule.exit_code == select.exit_code == 2

    def guess(stderr: str) -> str:
        found = re.search(r"(; did you mean .*?\?)? \(`nblint rules` lists", stderr)
        assert found, stderr
        return found.group(1) or ""

    assert guess(rule.stderr) == guess(select.stderr)
    if typed == "NB1O1":
        assert guess(rule.stderr) == "; did you mean 'NB101' (one-hot-group)?"


def test_the_summary_prints_after_the_errors_it_counts(tmp_path):
    good = tmp_path / "good.csv"
    good.write_text("a,y\n" + "".join(f"{i % 2},{i % 3 % 2}\n" for i in range(20)))
    missing = tmp_path / "missing.csv"
    proc = subprocess.run(
        [sys.executable, "-m", "nblint.cli", "check", str(good), str(missing), "--target", "y"],
        capture_output=False,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    lines = proc.stdout.splitlines()
    error = lines.index(f"{missing}: error: file not found")
    summary = next(i for i, line in enumerate(lines) if "1 file could not be read" in line)
    assert error < summary == len(lines) - 1


def test_every_key_of_rules_json_is_documented():
    documented = set(re.findall(r"``(\w+)``", rule_record.__doc__))
    for rule in load_rules().values():
        assert set(rule_record(rule)) <= documented
    listed = json.loads(CliRunner().invoke(main, ["rules", "--format", "json"]).stdout)
    assert "models" in listed[0]


def test_fix_writes_csv_quoted_only_where_needed_so_restore_gives_the_file_back(tmp_path, monkeypatch):
    """A header and text values unquoted, a value with a comma or a quote quoted: --restore's CSV is the input's.

    (Its numbers are written as pyarrow renders them, which is how they are written here; an
    integral float written ``74.0`` would come back ``74``.)
    """
    rows = []
    for i in range(60):
        level = ["red", "green", "blue"][i % 3]
        note = ["plain", "with, comma", 'said "hi"'][i % 3 if i % 7 == 0 else 0]
        rows.append([f"{i + 0.25}", *(str(int(level == c)) for c in ("red", "green", "blue")), note, "ab"[i % 2]])
    original = "price,colour_red,colour_green,colour_blue,note,label\n"
    original += "".join(
        ",".join(f'"{v.replace(chr(34), 2 * chr(34))}"' if ("," in v or '"' in v) else v for v in row) + "\n"
        for row in rows
    )
    monkeypatch.chdir(tmp_path)
    (tmp_path / "data.csv").write_text(original)
    fixed = CliRunner().invoke(main, ["fix", "data.csv", "-o", "fixed.csv"])
    assert fixed.exit_code == 0, fixed.output
    text = (tmp_path / "fixed.csv").read_text()
    assert text.splitlines()[0] == "price,colour,note,label"
    assert '"with, comma"' in text and '"said ""hi"""' in text and '"plain"' not in text
    back = CliRunner().invoke(main, ["fix", "fixed.csv", "--restore", "fixed.mapping.json", "-o", "back.csv"])
    assert back.exit_code == 0, back.output
    assert (tmp_path / "back.csv").read_text() == original


def test_nblint_exports_its_exceptions_documented_and_catchable(tmp_path):
    import nblint

    names = ["NblintError", "InputError", "ConfigError", "OutputExists", "MissingDependency"]
    assert set(names) <= set(nblint.__all__)
    for name in names:
        cls = getattr(nblint, name)
        assert issubclass(cls, nblint.NblintError) and cls.__doc__ and cls.__module__.startswith("nblint.core")
    assert issubclass(nblint.InputError, ValueError) and issubclass(nblint.MissingDependency, ImportError)
    with pytest.raises(nblint.NblintError, match="file not found"):
        nblint.check(str(tmp_path / "missing.csv"), target="y")
    with pytest.raises(nblint.ConfigError):
        nblint.check(pd.DataFrame({"a": [0, 1], "y": [0, 1]}), target="y", select=["NB1O1"])
