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


#: The first bytes of a zip archive (an .xlsx) and of an OLE2 compound file (an .xls, or an encrypted .xlsx).
ZIP_MAGIC = b"PK\x03\x04"
OLE_MAGIC = bytes.fromhex("D0CF11E0A1B11AE1")


def excel_rows(path: str, sheet: str | None = None, sheets: list[str] | None = None) -> Iterator[Sequence[Any]]:
    """The rows of one sheet (the first table sheet, or ``sheet``), as cell values; the header row first.

    The bytes decide the reader, not the suffix (an ``.xlsx`` saved as ``.xls`` is read);
    a password-protected workbook, or text named like a workbook, is said to be one.
    ``sheets``, when given, receives the workbook's sheet names, in order.

    Raises
    ------
    InputError
        When the reading library is missing, the file is not a workbook, or the sheet does not exist.
    """
    with open(path, "rb") as handle:
        start = handle.read(1 << 16)
    if start.startswith(OLE_MAGIC) and "EncryptedPackage".encode("utf-16-le") in start:
        raise InputError(
            "a password-protected (encrypted) workbook: save it without a password, or export the sheet to CSV"
        )
    if start.startswith(ZIP_MAGIC):
        return _xlsx_rows(path, sheet, sheets)
    if start.startswith(OLE_MAGIC):
        return _xls_rows(path, sheet, sheets)
    what = "text, not a workbook (a CSV file named like one?)" if _is_text(start) else "not an Excel workbook"
    raise InputError(f"{what}: an .xlsx is a zip archive and an .xls an OLE2 file; rename a CSV to .csv")


def _is_text(start: bytes) -> bool:
    try:
        start.decode("utf-8")
    except UnicodeDecodeError as exc:
        return exc.start > len(start) - 4  # (a character cut by the end of the sample)
    return b"\x00" not in start


def _pick(names: list[str], sheet: str | None, tables: list[str] | None = None, sheets: list[str] | None = None) -> str:
    """The sheet to read: ``sheet``, else the first of ``tables`` (the sheets holding cells, not charts).

    ``sheets``, when given, receives ``names``.
    """
    tables = names if tables is None else tables
    if sheets is not None:
        sheets[:] = names
    if not names:
        raise InputError("the workbook has no sheets")
    if sheet is None:
        if not tables:
            raise InputError(f"the workbook has no sheet of cells, only charts (sheets: {', '.join(names)})")
        return tables[0]
    if sheet not in names:
        raise InputError(f"sheet {sheet!r} not found{did_you_mean(sheet, names)} (sheets: {', '.join(names)})")
    if sheet not in tables:
        raise InputError(f"sheet {sheet!r} is a chart, not a sheet of cells (sheets of cells: {', '.join(tables)})")
    return sheet


def _refuse_doctype(path: str) -> None:
    """Refuse a workbook whose XML parts declare a DOCTYPE (entities): Excel never writes one."""
    import zipfile

    try:
        with zipfile.ZipFile(path) as archive:
            for member in archive.namelist():
                if member.endswith((".xml", ".rels")):
                    with archive.open(member) as part:
                        if b"<!DOCTYPE" in part.read(4096):  # (entities are declared in it, before the root)
                            raise InputError(
                                f"the workbook's {member} declares a DOCTYPE (XML entities): refused, "
                                "as Excel never writes one"
                            )
    except (zipfile.BadZipFile, OSError, RuntimeError) as exc:  # (encrypted members, damaged archive)
        raise InputError(f"not a readable Excel workbook ({type(exc).__name__}: {exc})") from None


def _xlsx_rows(path: str, sheet: str | None, sheets: list[str] | None) -> Iterator[Sequence[Any]]:
    try:
        import openpyxl
    except ImportError:
        raise InputError(
            f"an Excel workbook: nblint reads it with openpyxl, which is not installed ({ENABLE})"
        ) from None
    import zipfile

    _refuse_doctype(path)
    handle = open(path, "rb")  # (a file object: openpyxl then reads the bytes whatever the suffix says)
    try:
        # read_only streams the rows; data_only gives each formula's value as Excel last computed it
        book = openpyxl.load_workbook(handle, read_only=True, data_only=True)
    except (zipfile.BadZipFile, KeyError, OSError, ValueError, SyntaxError) as exc:  # (ParseError is a SyntaxError)
        handle.close()
        raise InputError(f"not a readable Excel workbook ({type(exc).__name__}: {exc})") from None
    weakref.finalize(book, handle.close)
    tables = [ws.title for ws in book.worksheets]  # (chart sheets are in sheetnames, not in worksheets)
    name = _pick(list(book.sheetnames), sheet, tables, sheets)
    worksheet = book[name]
    # The rows and cells the sheet holds, not its declared dimension: one stray cell at XFD1048576
    # would otherwise make every row 16,384 cells wide.
    worksheet.reset_dimensions()

    def rows() -> Iterator[Sequence[Any]]:
        try:
            yield from worksheet.iter_rows(values_only=True)
        except (SyntaxError, ValueError, KeyError, TypeError) as exc:  # damaged sheet XML, a cell it cannot read
            raise InputError(f"damaged sheet {name!r} ({type(exc).__name__}: {exc})") from None
        finally:
            book.close()
            handle.close()

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
    name = _pick(list(book.sheet_names()), sheet, sheets=sheets)
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

    The table is the header row's columns, and its rows down to the last with a value
    in them: a sheet is a grid, not a file of records, so a cell right of the header
    (a note, or a stray cell at XFD1048576) belongs to no column. Such cells are left
    out, and said in the returned object's ``limits`` (NB106's notes); a row with no
    value in the table's columns is empty, and trailing empty rows are left out (a
    sheet's range keeps formatted but empty rows; they are no table rows). What is
    read costs the cells the sheet holds, never its declared dimension.
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
    header: list[str] = []
    filled: set[int] = set()  # the columns some data row has a value in
    sheets: list[str] = []
    outside = 0  # cells with a value right of the header's columns
    first_outside = ""
    for number, row in enumerate(excel_rows(path, sheet, sheets)):
        texts = [cell_text(v) for v in row]
        if header and len(texts) > width:
            beyond = [k for k in range(width, len(texts)) if texts[k]]
            if beyond:
                outside += len(beyond)
                first_outside = first_outside or f"{_column_letters(beyond[0])}{number + 1}"
            del texts[width:]
        while texts and texts[-1] == "":
            texts.pop()
        if not header:  # (blank rows above the header are skipped, as pandas does)
            width = len(texts)  # the header's columns: every row is written this wide, as Excel's export does
            header = texts
            blank = 0
        elif len(filled) < width:
            filled.update(k for k, text in enumerate(texts[:width]) if text)
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
    empty = [k for k in range(width) if header[k] and k not in filled]
    formulas = _uncomputed_formulas(path, sheet, empty) if empty else []
    if formulas:
        spool.close()
        names = ", ".join(repr(header[k]) for k in formulas)
        raise InputError(
            f"{'column' if len(formulas) == 1 else 'columns'} {names} {'holds' if len(formulas) == 1 else 'hold'} "
            "formulas with no value saved (the workbook was written by a program that does not compute "
            "formulas): open and save it in Excel, or export the sheet to CSV"
        )
    if spool.tell() == 0:
        spool.close()
        which = f"sheet {sheet!r}" if sheet is not None else "the first sheet"
        raise InputError(f"{which} is empty (pass --sheet NAME to read another)")
    spool.sheet_note = sheet_note(sheets, sheet)  # type: ignore[attr-defined]
    spool.limits = (  # type: ignore[attr-defined]
        (
            f"{outside:,} cell{'s' if outside > 1 else ''} right of the header's {width} columns (the first at "
            f"{first_outside}) left out: a cell under no header belongs to no column (name its column in the header "
            "row to lint it)",
        )
        if outside
        else ()
    )
    return spool


def _column_letters(k: int) -> str:
    """Excel's name of the 0-based column ``k``: A, ..., Z, AA, ..., XFD."""
    letters = ""
    k += 1
    while k:
        k, digit = divmod(k - 1, 26)
        letters = chr(ord("A") + digit) + letters
    return letters


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


def _uncomputed_formulas(path: str, sheet: str | None, columns: list[int]) -> list[int]:
    """Which of ``columns`` (empty in every data row) hold formulas: values a program never computed.

    Read as values (``data_only``), a formula Excel never computed is an empty cell; read
    again as written, it is ``=...``. Only for columns that are empty throughout, so an
    ordinary sheet is read once.
    """
    with open(path, "rb") as handle:
        if not handle.read(4).startswith(ZIP_MAGIC):
            return []  # (.xls files store each formula's value)
        import openpyxl

        handle.seek(0)
        book = openpyxl.load_workbook(handle, read_only=True, data_only=False)
        try:
            worksheet = book[_pick(list(book.sheetnames), sheet, [ws.title for ws in book.worksheets])]
            worksheet.reset_dimensions()
            found: set[int] = set()
            for row in worksheet.iter_rows(min_row=2, values_only=True):
                found.update(k for k in columns if k < len(row) and isinstance(row[k], str) and row[k].startswith("="))
                if len(found) == len(columns):
                    break
        finally:
            book.close()
    return sorted(found)
