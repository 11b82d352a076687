"""The files of a run: folders walked for tables and pipeline configs, in sorted order.

A walk never descends into version-control, environment or cache folders
(:data:`SKIP_DIRS`), reads no Excel workbook (named ones are linted), and lists a
folder it cannot read with its error line, so that the run reports it and goes on.
"""

from __future__ import annotations

import os

from nblint.readers import is_table_path

#: Folders never descended into when a directory is checked.
SKIP_DIRS = {
    ".git",
    ".hg",
    ".svn",
    ".venv",
    "venv",
    "node_modules",
    "__pycache__",
    ".tox",
    ".mypy_cache",
    ".pytest_cache",
}


def expand_paths(paths: list[str]) -> tuple[list[str], list[str], dict[str, str]]:
    """Files to lint (folders walked in sorted order), warnings for empty folders, and folders that cannot be read.

    The last maps each unreadable folder (met in the walk, or given) to its error line, listed
    with the files at its place so that the run reports it and goes on.  A walk reads no Excel
    workbook (they are linted when named: a folder of them is not an error where openpyxl is
    missing), and a warning names those it passed over, so that none is skipped silently.
    """
    from nblint.pipelines import is_config_path
    from nblint.readers.excel import is_excel_path

    files, warnings = [], []
    unreadable: dict[str, str] = {}

    def failed(exc: OSError) -> None:
        folder = _joined(os.path.dirname(exc.filename), os.path.basename(exc.filename)) if exc.filename else path
        unreadable[folder] = f"{folder}: error: cannot read the folder: {exc.strerror or exc}"
        found.append(folder)

    for path in paths:
        if path != "-" and os.path.isdir(path):
            found: list[str] = []
            workbooks: list[str] = []
            for folder, dirs, names in os.walk(path, onerror=failed):
                dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS and not d.startswith("."))
                found += [_joined(folder, n) for n in sorted(names) if is_table_path(n) or is_config_path(n)]
                workbooks += [_joined(folder, n) for n in sorted(names) if is_excel_path(n)]
            if not found:
                warnings.append(f"{path}: warning: no tables or pipeline configs found in this folder")
            if workbooks:
                warnings.append(
                    f"{path}: warning: a folder is walked for CSV, TSV and Parquet files, not Excel workbooks: "
                    f"skipped {', '.join(workbooks)} (name a workbook to lint it)"
                )
            files += found
        else:
            files.append(path)
    return files, warnings, unreadable


def _joined(folder: str, name: str) -> str:
    """``folder/name`` without a leading ``./`` (walking ``.``, as ``nblint check`` with no path does, puts one)."""
    path = os.path.join(folder, name)
    prefix = os.curdir + os.sep
    return path[len(prefix) :] if path.startswith(prefix) else path
