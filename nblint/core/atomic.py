"""Atomic, non-clobbering output files: every file nblint writes goes through :func:`atomic_output`.

A file is written to a temporary file in the target's own folder (so the final
rename stays on one file system), flushed to disk, and only then moved into
place.  A run stopped half-way (SIGKILL, SIGTERM, Ctrl-C, a full disk, a file
size limit) therefore leaves the previous state: the target absent, or as it
was.  Without ``force`` the move is a hard link, which the kernel refuses when
the target exists, so two runs racing for one name cannot both "win" and never
leave a mix of both; with ``force`` it is :func:`os.replace`, atomic as well.
"""

from __future__ import annotations

import contextlib
import errno
import os
import tempfile
from collections.abc import Iterator

from nblint.core.errors import NblintError


class OutputExists(NblintError):
    """The output file exists and ``--force`` was not given; ``path`` names it."""

    def __init__(self, path: str):
        super().__init__("the output exists: pass --force to overwrite it")
        self.path = path


def refuse_existing(paths, force: bool) -> None:
    """Raise :class:`OutputExists` for the first of ``paths`` that exists (unless ``force``)."""
    if force:
        return
    for path in paths:
        if os.path.lexists(path):
            raise OutputExists(path)


@contextlib.contextmanager
def atomic_output(path: str, force: bool = False) -> Iterator[str]:
    """A temporary path to write, moved to ``path`` when the block ends without an exception.

    Parameters
    ----------
    path : str
        The file to create (or replace, with ``force``).
    force : bool
        Replace an existing ``path``; without it an existing file raises :class:`OutputExists`.

    Yields
    ------
    str
        Where to write: a fresh empty file beside ``path``.  It is removed when the block raises
        (any exception, including the :class:`~nblint.core.interrupts.Interrupted` of a signal).
    """
    refuse_existing([path], force)
    folder = os.path.dirname(os.path.abspath(path))
    fd, temporary = tempfile.mkstemp(
        dir=folder,
        prefix="." + os.path.basename(path)[:64] + ".",
        suffix=".nblint-tmp" + os.path.splitext(path)[1][:16],  # the suffix: writers that pick a format by it
    )
    os.close(fd)
    os.chmod(temporary, 0o666 & ~_umask())  # the mode a plain open() would give, not mkstemp's 0600
    try:
        yield temporary
        _fsync(temporary)
        if force:
            os.replace(temporary, path)
        else:
            _link_new(temporary, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)
    _fsync_folder(folder)


def write_text(path: str, text: str, force: bool = False) -> None:
    """Write ``text`` (UTF-8, ``\\n`` line ends) to ``path`` atomically (see :func:`atomic_output`)."""
    with atomic_output(path, force) as temporary:
        with open(temporary, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)


def _link_new(temporary: str, path: str) -> None:
    """Give ``temporary`` the name ``path`` only if no file has it (atomic, race-free)."""
    try:
        os.link(temporary, path)
    except FileExistsError:
        raise OutputExists(path) from None
    except OSError as exc:  # a file system without hard links (some FUSE/SMB mounts): check, then rename
        if exc.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EXDEV, errno.EMLINK):
            raise
        refuse_existing([path], False)
        os.replace(temporary, path)


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _fsync(path: str) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _fsync_folder(folder: str) -> None:
    """Make the rename itself durable (best effort: not every platform opens folders)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
