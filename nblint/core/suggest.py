"""Did-you-mean: the names a mistyped one most likely meant, for error messages."""

from __future__ import annotations

import difflib
from collections.abc import Sequence

#: Up to this many columns, an error lists them all; past it, the closest ones.
LIST_ALL = 30
#: How many close names to list for a wide table.
CLOSEST = 8


def closest(name: str, names: Sequence[str], n: int = CLOSEST, cutoff: float = 0.6) -> list[str]:
    """The ``names`` most like ``name``, best first: same name but for case, then by difflib's ratio.

    Parameters
    ----------
    name : str
        What was asked for.
    names : sequence of str
        What exists.
    n : int
        At most this many.
    cutoff : float
        difflib's similarity threshold (0 keeps everything, ranked).

    Returns
    -------
    list of str
    """
    folded = name.casefold()
    same_case = [candidate for candidate in names if candidate.casefold() == folded]
    by_folded: dict[str, list[str]] = {}
    for candidate in names:
        by_folded.setdefault(candidate.casefold(), []).append(candidate)
    similar = difflib.get_close_matches(folded, list(by_folded), n=n, cutoff=cutoff)
    ranked = same_case + [c for key in similar for c in by_folded[key] if c not in same_case]
    return ranked[:n]


def missing_column(what: str, name: str, names: Sequence[str]) -> str:
    """``target column 'churn' not found; did you mean 'churned'? (columns: ...)``.

    A table of up to :data:`LIST_ALL` columns lists them all, in table order;
    a wider one lists its :data:`CLOSEST` closest names, so the right name is
    never cut off a preview of the first few.

    Parameters
    ----------
    what : str
        ``"target column"``.
    name : str
        The name that was not found.
    names : sequence of str
        The table's columns, in order.

    Returns
    -------
    str
    """
    likely = closest(name, names, n=3)
    guess = f"; did you mean {' or '.join(repr(c) for c in likely)}?" if likely else ""
    if len(names) <= LIST_ALL:
        listed = f"columns: {', '.join(names)}" if names else "the table has no columns"
    else:
        ranked = closest(name, names, cutoff=0.0)
        listed = f"the closest of its {len(names):,} columns: {', '.join(ranked)}"
    return f"{what} {name!r} not found{guess} ({listed})"


def did_you_mean(name: str, names: Sequence[str], n: int = 1) -> str:
    """``"; did you mean 'BernoulliNB'?"`` for the closest of ``names``, or ``""`` when none is close.

    Parameters
    ----------
    name : str
        What was written.
    names : sequence of str
        What is accepted.
    n : int
        At most this many suggestions (joined by "or").

    Returns
    -------
    str
        A clause to append to an error message.
    """
    likely = closest(name, names, n=n)
    return f"; did you mean {' or '.join(repr(c) for c in likely)}?" if likely else ""
