"""Errors that end the linting of one input (exit code 2), never the whole run."""

from __future__ import annotations


class NblintError(Exception):
    """Base class: an error the user can fix, reported as one line without a traceback."""


class InputError(NblintError, ValueError):
    """An input file cannot be read as a table (missing, empty, ragged, bad bytes...).

    A ValueError too, so that API callers can catch it as the usual kind of bad value.
    """


class ConfigError(NblintError, ValueError):
    """A configuration file or option is invalid; the message names the key."""


def first_line(exc) -> str:
    """The first line of an exception's message (or of a message), for a one-line error."""
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__
