"""Excel workbooks are read as their CSV export: the same findings, or one line saying how to read them."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner
from missing_module import cli_without

from nblint.cli import main

pytest.importorskip("openpyxl")

ROOT = Path(__file__).resolve().parent.parent
CUSTOMERS = ROOT / "examples" / "customers.csv"


def findings(path: Path, *extra: str) -> list[dict]:
    result = CliRunner().invoke(main, ["check", str(path), "--target", "churned", "--format", "json", *extra])
    assert result.exit_code == 1, result.output
    return [{k: v for k, v in f.items() if k != "path"} for f in json.loads(result.stdout)]


def test_a_workbook_gets_the_findings_of_its_csv_export(tmp_path):
    frame = pd.read_csv(CUSTOMERS)
    workbook = tmp_path / "customers.xlsx"
    frame.to_excel(workbook, index=False)  # (openpyxl writes it; Excel's own export of it is the CSV)
    expected = findings(CUSTOMERS)
    assert expected and findings(workbook) == expected


def test_sheet_picks_a_sheet_and_a_wrong_name_gets_a_did_you_mean(tmp_path):
    workbook = tmp_path / "book.xlsx"
    with pd.ExcelWriter(workbook) as writer:
        pd.DataFrame({"note": ["read me"]}).to_excel(writer, sheet_name="notes", index=False)
        pd.read_csv(CUSTOMERS).to_excel(writer, sheet_name="customers", index=False)
    assert findings(workbook, "--sheet", "customers") == findings(CUSTOMERS)
    result = CliRunner().invoke(main, ["check", str(workbook), "--target", "churned", "--sheet", "customer"])
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        f"{workbook}: error: sheet 'customer' not found; did you mean 'customers'? (sheets: notes, customers)"
    ]
    # without --sheet, the first sheet: it has no 'churned' column
    first = CliRunner().invoke(main, ["check", str(workbook), "--target", "churned"])
    assert first.exit_code == 2 and "target column 'churned' not found" in first.stderr


def test_cells_are_written_as_excel_exports_them(tmp_path):
    import datetime

    from nblint.readers.excel import spool_sheet

    frame = pd.DataFrame(
        {
            "n": [1, 2, None],
            "x": [0.5, 2.0, 1e-3],
            "flag": [True, False, True],
            "day": [datetime.datetime(2024, 1, 2)] * 3,
            "s": ["a,b", 'q"q', None],
        }
    )
    workbook = tmp_path / "cells.xlsx"
    frame.to_excel(workbook, index=False)
    with spool_sheet(str(workbook)) as spool:
        text = Path(spool.name).read_text()
    assert text.splitlines() == [
        "n,x,flag,day,s",
        '1,0.5,TRUE,2024-01-02,"a,b"',
        '2,2,FALSE,2024-01-02,"q""q"',
        ",0.001,TRUE,2024-01-02,",
    ]


def test_without_openpyxl_an_excel_file_is_one_line_saying_how_to_read_it(tmp_path):
    workbook = tmp_path / "t.xlsx"
    pd.DataFrame({"a": [1, 0], "y": [0, 1]}).to_excel(workbook, index=False)
    table = tmp_path / "t.csv"
    table.write_text("a,b,y\n1,0,1\n0,1,0\n")
    proc = cli_without("openpyxl", "check", str(workbook), str(table), "--target", "y")
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.splitlines() == [
        f"{workbook}: error: an Excel workbook: nblint reads it with openpyxl, which is not installed "
        '(pip install "naive-bayes-lint[excel]", or export the sheet to CSV)'
    ]
    assert "Found" in proc.stdout and "in 1 file" in proc.stdout  # the CSV was still linted


def test_a_damaged_workbook_is_one_error_line(tmp_path):
    bad = tmp_path / "bad.xlsx"
    bad.write_bytes(b"not a zip")
    result = CliRunner().invoke(main, ["check", str(bad)])
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        f"{bad}: error: text, not a workbook (a CSV file named like one?): an .xlsx is a zip archive and an .xls "
        "an OLE2 file; rename a CSV to .csv"
    ]
