"""Where a data file that a pipeline config names may be: inside its project, and a table.

An nblint spec's ``data:`` names a table to check with the spec.  The spec is a file
anyone can add in a pull request, and nblint's output (error lines, findings, SARIF)
often ends up in public CI logs or code-scanning alerts.  A spec that could name any
readable file (``../../etc/passwd``, the runner's ``.env``) would have nblint print
that file's first line, as the "columns" of a table, where the author of the pull
request reads it.  So a named data file is read only where

* it resolves (symbolic links followed) inside the folder tree of the file that names
  it, of the git repository holding that file (the nearest folder above it with a
  ``.git``), or of the working directory, unless the user allows more on the
  command line (never from a config file: the config can be part of the same pull
  request); and
* its name is that of a table nblint reads (CSV/TSV/Parquet/Arrow/Excel; with the
  Dask engine also a folder or a glob of them), so a secret inside the project that is
  not a table (``.env``, ``id_rsa``) is never read as one.

Nothing of a refused file is opened: the error line names the spec, its line and the
path as written, and says how to allow it.
"""

from __future__ import annotations

import glob
import os

#: The command-line flag that lifts the folder confinement (it never lifts the table-name check).
ALLOW_FLAG = "--allow-outside-data"


def _inside(path: str, folder: str) -> bool:
    """Whether ``path`` (resolved) lies in ``folder``'s tree (resolved)."""
    path, folder = os.path.realpath(path), os.path.realpath(folder)
    return os.path.commonpath([path, folder]) == folder


def _repository(path: str) -> str | None:
    """The nearest folder at or above ``path``'s folder that holds a ``.git`` (a repository's root); None: none."""
    folder = os.path.dirname(os.path.realpath(path))
    while True:
        if os.path.exists(os.path.join(folder, ".git")):
            return folder
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent


def _names_a_table(path: str, engine: str) -> bool:
    from nblint.readers.excel import is_excel_path
    from nblint.readers.formats import is_table_path

    if is_table_path(path) or is_excel_path(path):
        return True
    # Dask reads a folder of Parquet files, or a glob, as one table
    return engine == "dask" and (os.path.isdir(path) or glob.has_magic(path))


def refusal(
    data_path: str, config_path: str, line: int | None, *, allow_outside: bool, engine: str = "local"
) -> str | None:
    """The error line for a data file a config names that must not be read; None where it may be read.

    Parameters
    ----------
    data_path : str
        The named file, joined to the config's folder.
    config_path : str
        The config (spec) that names it.
    line : int or None
        The line of the config that names it.
    allow_outside : bool
        The user allowed data outside the config's folder and the working directory.
    engine : {"local", "dask"}

    Returns
    -------
    str or None
    """
    where = f"{config_path}:{line or 1}"
    if not _names_a_table(data_path, engine):
        return (
            f"{where}: error: the data file {data_path!r} is not named as a table nblint reads "
            "(.csv, .tsv, .tab, .parquet, .arrow, .feather, .xlsx, ...); it was not read"
        )
    if allow_outside:
        return None
    trees = [os.path.dirname(os.path.abspath(config_path)), os.curdir, _repository(config_path)]
    if any(tree is not None and _inside(data_path, tree) for tree in trees):
        return None
    return (
        f"{where}: error: the data file {data_path!r} lies outside the folder of {config_path}, its repository "
        f"and the working directory; it was not read (pass {ALLOW_FLAG} to read it)"
    )
