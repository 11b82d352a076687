"""Whether output is for a person at a terminal: colour and progress.

Colour and the progress line are for a person watching a terminal.  They are
off when the stream is not a terminal, under pre-commit (``PRE_COMMIT``, which
runs hooks in a pseudo-terminal of its own), in CI (``CI``, ``GITHUB_ACTIONS``)
and when ``NO_COLOR`` is set (https://no-color.org); ``--color``/``--no-color``
override the colour decision either way.
"""

from __future__ import annotations

import os
from typing import TextIO

#: Environment variables that mean "no person is watching this stream".
NON_INTERACTIVE_VARIABLES = ("PRE_COMMIT", "CI", "GITHUB_ACTIONS")

_FALSE = {"", "0", "false", "no", "off"}


def _set(name: str, environ) -> bool:
    value = environ.get(name)
    return value is not None and value.strip().lower() not in _FALSE


def is_interactive(stream: TextIO, environ=None) -> bool:
    """True when ``stream`` is a terminal and no CI or pre-commit variable is set.

    Parameters
    ----------
    stream : file-like
        The stream the output goes to (``isatty`` is asked; a stream without it
        is not a terminal).
    environ : mapping, optional
        The environment (``os.environ`` by default).

    Returns
    -------
    bool
    """
    environ = os.environ if environ is None else environ
    if any(_set(name, environ) for name in NON_INTERACTIVE_VARIABLES):
        return False
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty and isatty())
    except (ValueError, OSError):  # a closed or detached stream
        return False


def color_enabled(flag: bool | None, stream: TextIO, environ=None) -> bool:
    """Whether to colour output written to ``stream``.

    Parameters
    ----------
    flag : bool or None
        ``--color`` (True) or ``--no-color`` (False) wins; None decides from
        the stream and the environment.
    stream : file-like
    environ : mapping, optional

    Returns
    -------
    bool
    """
    if flag is not None:
        return flag
    environ = os.environ if environ is None else environ
    if _set("NO_COLOR", environ):
        return False
    return is_interactive(stream, environ)


class Progress:
    """A one-line ``[i/n] path`` progress indicator on a terminal, rewritten in place.

    It draws nothing unless ``enabled`` (the CLI enables it when
    :func:`is_interactive` holds for stderr) and more than one file is checked,
    so that logs, pipes, CI and pre-commit never see control characters.

    Parameters
    ----------
    stream : file-like
        Where to draw (stderr).
    enabled : bool
    """

    def __init__(self, stream: TextIO, enabled: bool):
        self.stream = stream
        self.enabled = enabled
        self._drawn = False

    def __call__(self, index: int, total: int, path: str) -> None:
        """Show that file ``index`` (1-based) of ``total``, ``path``, is being checked."""
        if not self.enabled or total < 2:
            return
        self.stream.write(f"\r\x1b[K[{index}/{total}] {path}")
        self.stream.flush()
        self._drawn = True

    def clear(self) -> None:
        """Erase the line (before the report is printed)."""
        if self._drawn:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self._drawn = False
