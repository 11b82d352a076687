"""NB510's notes for Python nblint cannot read, in whole or in part: why, and where.

A source Python 3 refuses (Python 2, a syntax error, syntax newer than the running
Python, nesting past what Python's parser accepts) is still a Python source: it is
one note naming the reason and the line, never an input error.  Code read only down
to :data:`~nblint.pipelines.pyparse.MAX_NESTING` levels is a note naming the lines cut.
"""

from __future__ import annotations

import sys

from nblint.pipelines.pyparse import MAX_NESTING, Unreadable, newer_syntax


def unreadable_message(problem: Unreadable, text: str) -> str:
    """NB510's note for a source Python 3 cannot parse: why (Python 2, newer syntax, depth, a syntax error) and where."""
    if problem.deep:
        return (
            "Python's parser refuses this file as nested too deeply (the limit of its own parser, "
            "not an error in the code), so nblint cannot read it: its pipelines are not checked"
        )
    if problem.python2:
        return (
            f"this file is Python 2 (Python 3 refuses its syntax at line {problem.line}): nblint "
            "reads Python 3 only, so its pipelines are not checked"
        )
    newer = newer_syntax(text, problem.line)
    if newer is not None:  # code for a newer Python: unreadable here, not broken
        return (
            f"this file uses Python {newer[0]}.{newer[1]} syntax at line {problem.line}, newer than the Python "
            f"{sys.version_info[0]}.{sys.version_info[1]} nblint runs on, so nblint cannot read it: its pipelines "
            f"are not checked (run nblint on Python {newer[0]}.{newer[1]} or later)"
        )
    return (
        f"this file has a Python syntax error at line {problem.line}, column {problem.column} ({problem.message}), "
        "so nblint cannot read it: its pipelines are not checked"
    )


def cut_message(where: str) -> str:
    """NB510's note for code cut at :data:`~nblint.pipelines.pyparse.MAX_NESTING` levels, ``where`` being its lines."""
    return (
        f"code at {where} is nested more than {MAX_NESTING} levels deep (a very long chain of operators or "
        "calls): nblint read it down to that depth, and what the deeper part computes is not followed"
    )


def line_list(numbers: list[int]) -> str:
    """``line 3`` or ``lines 3, 8, ...`` (at most five), for a note naming where."""
    shown = ", ".join(map(str, numbers[:5]))
    return f"line{'s' if len(numbers) > 1 else ''} {shown}{', ...' if len(numbers) > 5 else ''}"
