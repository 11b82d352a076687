"""The words the rule families share: a list of columns, the fix for a group read as separate bits.

Each is written once here so that the rules saying the same thing say it the same way. Words a
template shows (the variable a group likely encodes, a chance as odds) are the formatter's named
specs (:mod:`nblint.engine.messages`).
"""

from __future__ import annotations

from nblint.engine.messages import fmt_columns

__all__ = ["GROUP_FIX", "fmt_columns"]


#: The fix for a group read as separate bits (NB307, under every declared model): the model and the
#: command that read it as one variable.
GROUP_FIX = (
    "Read the group as one categorical feature: fit nblint.MixedNB (an event model per column, groups "
    "collapsed), or run `nblint fix` to write the table with the group collapsed for CategoricalNB "
    "(CollapseGroups does the same inside a pipeline)."
)
