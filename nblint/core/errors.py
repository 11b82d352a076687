"""Errors that end the linting of one input (exit code 2), never the whole run.

These are nblint's public exceptions (exported by :mod:`nblint`): catch
:class:`NblintError` to catch every error nblint reports as the user's to fix.
"""

from __future__ import annotations


class NblintError(Exception):
    """Base class: an error the user can fix, reported as one line without a traceback.

    The command line prints it as ``path: error: message`` and exits 2, after
    linting the other inputs; the Python API raises it.

    Examples
    --------
    >>> import nblint
    >>> try:
    ...     nblint.check("no-such-file.csv", target="y")
    ... except nblint.NblintError as exc:
    ...     print(exc)
    file not found
    """


class InputError(NblintError, ValueError):
    """An input file cannot be read as a table (missing, empty, ragged, bad bytes...).

    A ValueError too, so that API callers can catch it as the usual kind of bad value.
    """


class ConfigError(NblintError, ValueError):
    """A configuration file or option is invalid; the message names the key.

    A ValueError too, as :class:`InputError`.
    """


class MissingDependency(NblintError, ImportError):
    """A package a feature needs is not installed; the message says what to install.

    An ImportError too, so that code catching the usual error of a missing
    package catches it.  Its ``name`` is the package that could not be imported.
    """


def first_line(exc) -> str:
    """The first line of an exception's message (or of a message), for a one-line error."""
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__
