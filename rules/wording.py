"""The words the rule families share: a list of columns, the variable a group likely encodes, the fix for
a group read as separate bits.

Each is written once here so that the rules saying the same thing say it the same way.
"""

from __future__ import annotations

from nblint.engine.messages import fmt_columns

__all__ = ["GROUP_FIX", "fmt_columns", "likely_variable"]


def likely_variable(stem: str | None) -> str:
    """`` (likely variable 'colour')`` after a group's columns when their names share a stem, else nothing.

    Only names make a group *an encoded variable* with a name (DESIGN 4b): without a stem the
    message names no variable rather than invent one.
    """
    return f" (likely variable {stem!r})" if stem else ""


#: The fix for a group read as separate bits (NB307, under every declared model): the model and the
#: command that read it as one variable.
GROUP_FIX = (
    "Read the group as one categorical feature: fit nblint.MixedNB (an event model per column, groups "
    "collapsed), or run `nblint fix` to write the table with the group collapsed for CategoricalNB "
    "(CollapseGroups does the same inside a pipeline)."
)
