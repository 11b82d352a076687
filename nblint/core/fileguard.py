"""What nblint opens: regular files only, configs within a size, and text no deeper than a parser can take.

A FIFO or a device named as an input (``nblint check /dev/zero``, a FIFO called
``pipeline.yaml`` in a checked folder) would block or stream forever: it is
refused before it is opened.  A symbolic link loop is told as such, not as a
missing file.  Configs are read whole, so they are read only up to
:data:`MAX_CONFIG_BYTES`; and JSON and TOML are checked for their bracket
depth in one flat pass before a parser that recurses sees them.
"""

from __future__ import annotations

import errno
import os
import re
import stat

from nblint.core.errors import InputError

#: The largest config (pipeline config, pyproject.toml, nblint.toml) read, in bytes.
MAX_CONFIG_BYTES = 16 << 20
#: The deepest nesting of brackets accepted in JSON and TOML (as YAML: see nblint.pipelines.tree).
MAX_DEPTH = 200

_KINDS = (
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def regular_file(path: str, what: str = "file") -> os.stat_result:
    """``os.stat(path)`` of a regular file; an :class:`InputError` naming what else it is.

    Parameters
    ----------
    what : str
        What the file was to be (``"file"``, ``"table"``), for "is a directory, not a table".
    """
    try:
        info = os.stat(path)
    except FileNotFoundError:
        if os.path.islink(path):
            raise InputError("broken symbolic link (its target does not exist)") from None
        raise InputError("file not found") from None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise InputError("symbolic link loop (too many levels of symbolic links)") from None
        raise InputError(f"cannot read: {exc.strerror or exc}") from None
    if stat.S_ISDIR(info.st_mode):
        raise InputError(f"is a directory, not a {what}" if what != "file" else "is a directory")
    if not stat.S_ISREG(info.st_mode):
        kind = next((name for test, name in _KINDS if test(info.st_mode)), "not a regular file")
        raise InputError(f"is {kind}, not a regular file: nblint reads files (use - for standard input)")
    return info


def read_limited(path: str, limit: int = MAX_CONFIG_BYTES) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes.

    Raises
    ------
    InputError
        Not a regular file, unreadable, or larger than ``limit``.
    """
    regular_file(path)
    try:
        with open(path, "rb") as handle:
            data = handle.read(limit + 1)
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror or exc}") from None
    if len(data) > limit:
        raise InputError(f"larger than {limit >> 20} MiB: not read as a config")
    return data


_TOKENS = {
    # (the unrolled form of a string: one step per run of plain characters, not per character,
    # 100x faster on a notebook's megabytes of embedded images)
    "json": re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]', re.S),
    "toml": re.compile(
        r'"""(?:[^\\]|\\.)*?"""|\'\'\'.*?\'\'\'|"(?:[^"\\\n]|\\.)*"|\'[^\'\n]*\'|#[^\n]*|[\[\]{}]', re.S
    ),
}


def check_nesting(text: str, syntax: str, limit: int = MAX_DEPTH) -> None:
    """Refuse JSON or TOML whose brackets nest deeper than ``limit`` (strings and comments skipped).

    One flat pass over the tokens, so it runs before any parser recurses; a
    bracket left open or closed twice is left to the parser to report.
    """
    depth = 0
    for token in _TOKENS[syntax].finditer(text):
        char = token.group()
        if char in "[{":
            depth += 1
            if depth > limit:
                raise InputError("nested too deeply to read")
        elif char in "]}":
            depth = max(depth - 1, 0)
