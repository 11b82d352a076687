"""Excel workbooks (``.xlsx``/``.xlsm`` through openpyxl, ``.xls`` through xlrd), read as their CSV export.

A sheet is written out as the CSV text Excel's own export would give (numbers as
numbers, TRUE/FALSE, dates in ISO form, empty cells empty) into a temporary
file, and that file is read by the CSV reader: the column kinds, the streaming
passes and so the findings are those of the CSV export, by construction, and no
second type inference exists to drift from the first.

Both libraries are optional (``pip install "naive-bayes-lint[excel]"``); without
them an Excel file is one error line saying so, never a decoding error about
the zip container's bytes.
"""

from __future__ import annotations

import csv
import datetime
import tempfile
import weakref
from collections.abc import Iterator, Sequence
from typing import Any

from nblint.core.dependencies import install_hint
from nblint.core.errors import InputError
from nblint.core.resources import disk_budget
from nblint.core.suggest import did_you_mean
from nblint.core.tempfiles import owned_prefix

#: Suffixes read as Excel workbooks (only when named on the command line or in the API: a folder
#: walk does not pick them up, so a folder of workbooks is not an error where openpyxl is missing).
EXCEL_SUFFIXES = (".xlsx", ".xlsm", ".xls")

ENABLE = f"{install_hint('openpyxl')}, or export the sheet to CSV"


def is_excel_path(path: str) -> bool:
    """Whether ``path`` names an Excel workbook (by suffix)."""
    return path.lower().endswith(EXCEL_SUFFIXES)


def excel_rows(path: str, sheet: str | None = None, sheets: list[str] | None = None) -> Iterator[Sequence[Any]]:
    """The rows of one sheet (the first, or ``sheet``), as cell values; the header row first.

    ``sheets``, when given, receives the workbook's sheet names, in order.

    Raises
    ------
    InputError
        When the reading library is missing, the file is not a workbook, or the sheet does not exist.
    """
    if path.lower().endswith(".xls"):
        return _xls_rows(path, sheet, sheets)
    return _xlsx_rows(path, sheet, sheets)


def _pick(names: list[str], sheet: str | None, sheets: list[str] | None = None) -> str:
    if sheets is not None:
        sheets[:] = names
    if not names:
        raise InputError("the workbook has no sheets")
    if sheet is None:
        return names[0]
    if sheet not in names:
        raise InputError(f"sheet {sheet!r} not found{did_you_mean(sheet, names)} (sheets: {', '.join(names)})")
    return sheet


def _xlsx_rows(path: str, sheet: str | None, sheets: list[str] | None) -> Iterator[Sequence[Any]]:
    try:
        import openpyxl
    except ImportError:
        raise InputError(
            f"an Excel workbook: nblint reads it with openpyxl, which is not installed ({ENABLE})"
        ) from None
    import zipfile

    try:
        # read_only streams the rows; data_only gives each formula's value as Excel last computed it
        book = openpyxl.load_workbook(path, read_only=True, data_only=True)
    except (zipfile.BadZipFile, KeyError, OSError, ValueError) as exc:
        raise InputError(f"not a readable Excel workbook ({type(exc).__name__}: {exc})") from None
    name = _pick(list(book.sheetnames), sheet, sheets)

    def rows() -> Iterator[Sequence[Any]]:
        try:
            yield from book[name].iter_rows(values_only=True)
        finally:
            book.close()

    return rows()


def _xls_rows(path: str, sheet: str | None, sheets: list[str] | None) -> Iterator[Sequence[Any]]:
    try:
        import xlrd
    except ImportError:
        raise InputError(
            f"an Excel 97-2003 workbook (.xls): nblint reads it with xlrd, which is not installed ({ENABLE})"
        ) from None
    try:
        book = xlrd.open_workbook(path, on_demand=True)
    except Exception as exc:  # xlrd raises its own XLRDError, and struct/value errors on damaged files
        raise InputError(f"not a readable Excel workbook ({type(exc).__name__}: {exc})") from None
    name = _pick(list(book.sheet_names()), sheet, sheets)
    table = book.sheet_by_name(name)

    def rows() -> Iterator[Sequence[Any]]:
        for index in range(table.nrows):
            values = []
            for cell in table.row(index):
                if cell.ctype == xlrd.XL_CELL_DATE:
                    values.append(xlrd.xldate.xldate_as_datetime(cell.value, book.datemode))
                elif cell.ctype == xlrd.XL_CELL_BOOLEAN:
                    values.append(bool(cell.value))
                elif cell.ctype in (xlrd.XL_CELL_EMPTY, xlrd.XL_CELL_BLANK, xlrd.XL_CELL_ERROR):
                    values.append(None)
                elif cell.ctype == xlrd.XL_CELL_NUMBER and float(cell.value).is_integer():
                    values.append(int(cell.value))  # .xls stores every number as a float; 3.0 is Excel's 3
                else:
                    values.append(cell.value)
            yield values

    return rows()


def cell_text(value: Any) -> str:
    """A cell as Excel's CSV export writes it."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, datetime.datetime) and value.time() == datetime.time():
        return value.date().isoformat()
    if isinstance(value, (datetime.date, datetime.time)):
        return value.isoformat()
    return str(value)


def spool_sheet(path: str, sheet: str | None = None) -> tempfile._TemporaryFileWrapper:
    """One sheet of a workbook as a temporary CSV file (deleted with the returned object).

    Every row is as wide as the header row; trailing empty rows are left out
    (a sheet's range keeps formatted but empty rows; they are no table rows).
    The returned object's ``sheet_note`` is :func:`sheet_note`'s for the sheet read.
    """
    limit = disk_budget()
    spool = tempfile.NamedTemporaryFile(
        prefix=owned_prefix("excel"), suffix=".csv", mode="w+", newline="", encoding="utf-8"
    )
    weakref.finalize(spool, spool.close)
    writer = csv.writer(spool, lineterminator="\n")
    width = 0
    blank = 0
    sheets: list[str] = []
    for number, row in enumerate(excel_rows(path, sheet, sheets)):
        texts = [cell_text(v) for v in row]
        while texts and texts[-1] == "":
            texts.pop()
        if number == 0:
            width = len(texts)  # the header's columns: every row is written this wide, as Excel's export does
        if not texts:
            blank += 1
            continue
        for _ in range(blank):
            writer.writerow([""] * width)
        blank = 0
        writer.writerow(texts + [""] * (width - len(texts)))
        if spool.tell() > limit:
            spool.close()
            raise InputError(f"the sheet is larger than the {limit:,} bytes nblint may copy to the temporary folder")
    spool.flush()
    note = sheet_note(sheets, sheet)
    if spool.tell() == 0:
        spool.close()
        raise InputError("the sheet is empty" + note)
    spool.sheet_note = note  # type: ignore[attr-defined]
    return spool


def sheet_note(sheets: list[str], sheet: str | None) -> str:
    """What to add to "column not found" when the first sheet was read by default and there are others.

    A workbook often opens on a cover or notes sheet: its error then says which sheet was
    read and that ``--sheet`` reads another.

    Examples
    --------
    >>> sheet_note(["README", "data"], None)
    "; that is the first sheet, 'README', of README, data: --sheet NAME reads another"
    >>> sheet_note(["data"], None), sheet_note(["README", "data"], "data")
    ('', '')
    """
    if sheet is not None or len(sheets) < 2:
        return ""
    return f"; that is the first sheet, {sheets[0]!r}, of {', '.join(sheets)}: --sheet NAME reads another"
