"""Atomic, non-clobbering output files: every file nblint writes goes through :func:`atomic_outputs`.

A file is written to a temporary file in the target's own folder (so the final
rename stays on one file system), flushed to disk, and only then moved into
place.  A run stopped half-way (SIGKILL, SIGTERM, Ctrl-C, a full disk, a file
size limit) therefore leaves the previous state: the target absent, or as it
was.  Without ``force`` the move is a hard link, which the kernel refuses when
the target exists, so two runs racing for one name cannot both "win" and never
leave a mix of both; with ``force`` it is :func:`os.replace`, atomic as well.

Files that belong together (``fix``'s table and its mapping) are one unit: all
are written first, then moved in one *commit*, under an advisory lock on their
folder (two runs' commits never interleave, so one run's table never ends up
beside another's mapping) with the signals nblint catches held back until it
ends; a move that fails puts back what the commit had already replaced, so a
failure leaves the previous pair. A signal that cannot be caught (SIGKILL, the
out-of-memory killer) can still stop a commit between two moves: the commit
writes a *journal* first (each target, the file it is about to become, and the
hard-linked backup of the file it replaces) and removes it when every move is
done. The next run that writes into the folder finds the journal unlocked and
rolls the commit back (:func:`_roll_back`): each target that became the new file
gets its previous file back (or is removed, if there was none), so the folder
holds the previous pair again, never one new file beside an old one.

A temporary output is named ``.<target>.<random>.nblint-tmp<suffix>`` and is
locked (``flock``) by its writer from before it has that name until it is moved
or removed. The kernel releases the lock however the writer ends, so one left
by a SIGKILL or an out-of-memory kill is unlocked: the next run that writes into
that folder removes it (:func:`sweep_orphans`). Where advisory locks are not
available (Windows), nothing is swept or locked.
"""

from __future__ import annotations

import contextlib
import errno
import glob
import os
import signal
import tempfile
from collections.abc import Iterator, Sequence

try:
    import fcntl
except ImportError:  # (Windows)
    fcntl = None  # type: ignore[assignment]

from nblint.core.errors import NblintError

#: The tail of every temporary output's name (before the target's own suffix).
TEMPORARY_MARK = ".nblint-tmp"


class OutputExists(NblintError):
    """The output file exists and ``--force`` was not given; ``path`` names it."""

    def __init__(self, path: str):
        super().__init__("the output exists: pass --force to overwrite it")
        self.path = path


def refuse_existing(paths, force: bool) -> None:
    """Raise :class:`OutputExists` for the first of ``paths`` that exists (unless ``force``).

    A half-done commit of a killed run is rolled back first: its new file is not "the output".
    """
    if force:
        return
    for folder in sorted({_folder(path) for path in paths}):
        if os.path.isdir(folder):
            sweep_orphans(folder)
    for path in paths:
        if os.path.lexists(path):
            raise OutputExists(path)


@contextlib.contextmanager
def atomic_output(path: str, force: bool = False) -> Iterator[str]:
    """A temporary path to write, moved to ``path`` when the block ends without an exception.

    One file of :func:`atomic_outputs`; see there.
    """
    with atomic_outputs([path], force) as (temporary,):
        yield temporary


@contextlib.contextmanager
def atomic_outputs(paths: Sequence[str], force: bool = False) -> Iterator[list[str]]:
    """Temporary paths to write, all moved to ``paths`` in one commit when the block ends without an exception.

    Parameters
    ----------
    paths : sequence of str
        The files to create (or replace, with ``force``), in the order they are moved.
    force : bool
        Replace existing files; without it an existing one raises :class:`OutputExists`
        (before anything is written, and again at the commit: the first run there wins).

    Yields
    ------
    list of str
        Where to write: a fresh empty file beside each path.  They are removed when the block
        raises (any exception, including the :class:`~nblint.core.interrupts.Interrupted` of a
        signal) or when the commit fails, which leaves every target as it was.
    """
    refuse_existing(paths, force)
    temporaries: list[tuple[str, int | None]] = []
    try:
        for path in paths:
            temporaries.append(_temporary(path))
        yield [temporary for temporary, _ in temporaries]
        for temporary, _ in temporaries:
            _fsync(temporary)
        with _commit_lock(sorted({_folder(path) for path in paths})):
            _move_all([temporary for temporary, _ in temporaries], list(paths), force)
    finally:
        for temporary, fd in temporaries:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(temporary)
            if fd is not None:
                os.close(fd)
    for folder in sorted({_folder(path) for path in paths}):
        _fsync_folder(folder)


def sweep_orphans(folder: str) -> None:
    """Remove the temporary outputs in ``folder`` whose writer is gone (their lock can be taken)."""
    if fcntl is None:
        return
    with _folder_locks([folder]):  # (not while another run commits: its backups are unlocked)
        _sweep(folder)


def _sweep(folder: str) -> None:
    # First the commits a killed run left half done (their backups are orphans below).
    for journal in sorted(glob.glob(os.path.join(glob.escape(folder), f".*{TEMPORARY_MARK}{JOURNAL}"))):
        _roll_back(journal)
    for orphan in glob.glob(os.path.join(glob.escape(folder), f".*{TEMPORARY_MARK}*")):
        try:
            fd = os.open(orphan, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        except OSError:  # (removed meanwhile, another user's, or a link)
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            if os.path.samestat(os.fstat(fd), os.lstat(orphan)):  # still the file that was locked
                os.unlink(orphan)
        except OSError:  # held: its writer runs
            pass
        finally:
            os.close(fd)


def _folder(path: str) -> str:
    return os.path.dirname(os.path.abspath(path))


def _temporary(path: str, sweep: bool = True, suffix: str | None = None) -> tuple[str, int | None]:
    """A new empty file beside ``path``, locked for this process, its orphaned siblings swept first.

    It is made under a name the sweep does not match and renamed once locked, so a sweep
    never meets it unlocked. ``suffix``: the end of its name (default: the mark and the
    target's suffix, for writers that pick a format by it).
    """
    folder = _folder(path)
    if sweep:
        sweep_orphans(folder)
    prefix = "." + os.path.basename(path)[:64] + "."
    if suffix is None:
        suffix = TEMPORARY_MARK + os.path.splitext(path)[1][:16]
    fd, fresh = tempfile.mkstemp(dir=folder, prefix=prefix, suffix=".nblint-new")
    os.chmod(fresh, 0o666 & ~_umask())  # the mode a plain open() would give, not mkstemp's 0600
    if fcntl is None:
        os.close(fd)
        fd = None
    else:
        fcntl.flock(fd, fcntl.LOCK_EX)
    temporary = fresh[: -len(".nblint-new")] + suffix
    try:
        os.rename(fresh, temporary)  # (the random part is mkstemp's: no other writer has this name)
    except BaseException:
        os.unlink(fresh)
        if fd is not None:
            os.close(fd)
        raise
    return temporary, fd


@contextlib.contextmanager
def _commit_lock(folders: list[str]) -> Iterator[None]:
    """Hold an advisory lock on each folder, and the signals nblint catches, while the block runs."""
    from nblint.core.interrupts import SIGNALS

    blocked = hasattr(signal, "pthread_sigmask")
    if blocked:
        previous = signal.pthread_sigmask(signal.SIG_BLOCK, SIGNALS)
    try:
        with _folder_locks(folders):
            yield
    finally:
        if blocked:
            signal.pthread_sigmask(signal.SIG_SETMASK, previous)  # a signal held back is delivered now


@contextlib.contextmanager
def _folder_locks(folders: list[str]) -> Iterator[None]:
    """An exclusive advisory lock on each folder (sorted: two runs take them in one order), while the block runs."""
    held = []
    try:
        for folder in sorted(folders):
            if fcntl is None:
                break
            try:
                fd = os.open(folder, os.O_RDONLY)
            except OSError:  # (a folder that cannot be opened: the moves are still atomic one by one)
                continue
            held.append(fd)
            fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        for fd in held:
            os.close(fd)


def _move_all(temporaries: list[str], paths: list[str], force: bool) -> None:
    """Move each temporary to its path; on a failure, put back what was already moved, then raise.

    Several paths are one unit: the previous files are backed up and a journal written
    before the first move, and the journal removed after the last (see the module docstring).
    """
    unit = len(paths) > 1
    backups: list[str | None] = [_backup(path) if force and unit else None for path in paths]
    journal = _journal(temporaries, paths, backups) if unit else None
    done: list[tuple[str, str | None]] = []  # (path, the previous file's backup, or None: there was none)
    try:
        for temporary, path, backup in zip(temporaries, paths, backups):
            if force:
                os.replace(temporary, path)
            else:
                _link_new(temporary, path)
            done.append((path, backup))
    except BaseException:
        for path, backup in reversed(done):
            with contextlib.suppress(OSError):
                if backup is not None:
                    os.replace(backup, path)
                else:
                    os.unlink(path)
        raise
    finally:
        if journal is not None:  # (first: without it, the backups are plain orphans)
            with contextlib.suppress(FileNotFoundError):
                os.unlink(journal[0])
            if journal[1] is not None:
                os.close(journal[1])
        for backup in backups:
            if backup is not None:
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(backup)


#: The tail of a commit's journal (after :data:`TEMPORARY_MARK`).
JOURNAL = ".journal"


def _journal(temporaries: list[str], paths: list[str], backups: list[str | None]) -> tuple[str, int | None]:
    """Write, lock and name the journal of a commit of several files: what :func:`_roll_back` undoes.

    Each entry is a target, the device and inode of the file about to become it (a
    target is this commit's exactly when it is that file), and its previous file's
    backup (None: there was none). Written whole under a name the sweep ignores, then
    renamed, so a journal the sweep finds is complete.
    """
    import json

    entries = []
    for temporary, path, backup in zip(temporaries, paths, backups):
        stat = os.stat(temporary)
        entries.append({"path": os.path.abspath(path), "file": [stat.st_dev, stat.st_ino], "backup": backup})
    temporary, fd = _temporary(paths[0], sweep=False, suffix=TEMPORARY_MARK + JOURNAL)
    try:
        with open(temporary, "w", encoding="utf-8") as handle:
            json.dump(entries, handle)
            handle.flush()
            os.fsync(handle.fileno())
    except BaseException:
        os.unlink(temporary)
        if fd is not None:
            os.close(fd)
        raise
    _fsync_folder(_folder(paths[0]))
    return temporary, fd


def _roll_back(journal: str) -> None:
    """Undo the commit a killed run left half done (its ``journal`` unlocked), as a failed move is undone.

    Each target that is the commit's new file gets its backup back, or is removed when
    there was no previous file; targets the commit had not reached are left alone. Called
    under the folder's lock, so no commit runs meanwhile.
    """
    import json

    try:
        fd = os.open(journal, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # (held: its writer still commits)
        with os.fdopen(os.dup(fd), encoding="utf-8") as handle:
            entries = json.load(handle)
        folder = _folder(journal)
        for entry in reversed(entries):
            path, backup = entry["path"], entry["backup"]
            if _folder(path) != folder or (backup is not None and _folder(backup) != folder):
                continue  # (a journal names files of its own folder only)
            try:
                current = os.lstat(path)
            except FileNotFoundError:
                continue
            if [current.st_dev, current.st_ino] != entry["file"]:
                continue  # not moved yet: the previous file is still there
            if backup is not None and os.path.lexists(backup):
                os.replace(backup, path)
            else:
                os.unlink(path)
        os.unlink(journal)
    except (OSError, ValueError, KeyError, TypeError):  # held, or not a journal nblint wrote: left to the sweep
        pass
    finally:
        os.close(fd)


def _backup(path: str) -> str | None:
    """A second name for the file at ``path`` (a hard link: nothing is copied), or None if there is none.

    Called under the folder's commit lock, so no sweep runs meanwhile; if this run dies
    before removing it, the next run sweeps it (it has a temporary's name and no lock).
    """
    if not os.path.lexists(path):
        return None
    fd, backup = tempfile.mkstemp(
        dir=_folder(path), prefix="." + os.path.basename(path)[:64] + ".", suffix=TEMPORARY_MARK + ".old"
    )
    os.close(fd)
    os.unlink(backup)  # (only the fresh random name is wanted)
    try:
        os.link(path, backup, follow_symlinks=False)
    except OSError:  # no hard links here: the previous file cannot be kept
        return None
    return backup


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
