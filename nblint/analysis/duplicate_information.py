"""NB105's cases: the columns that repeat each other's information, in the order NB105 reports them.

Identical columns (a set of a document-term block's words only when their names say they
are one encoding: chance makes rare words identical), a code column beside its own group,
a group nested in another, and two columns that recode each other. The searches are the
structure's (:attr:`~nblint.analysis.context.TableContext.structure`); this module only
chooses and orders what NB105 words.
"""

from __future__ import annotations

from nblint.core.records import Record
from nblint.structure.groups import Group
from nblint.structure.implication import Implication, implied_columns
from nblint.structure.ngrams import word_stem

#: More sets of identical columns than this are reported as one finding.
MAX_IDENTICAL_SETS = 5
#: More 0/1 columns implying others than this are reported as one finding (one flag gating many is one problem).
MAX_IMPLICATIONS = 5


class DuplicateInformation(Record):
    """What NB105 reports, each case in its order.

    Attributes
    ----------
    identical : list of list of str
        Sets of identical columns (more than :data:`MAX_IDENTICAL_SETS`: said as one finding).
    codes : list of (str, Group)
        A code column and the group it decodes, in table order of the code column.
    nested : list
        The structure's nestings of one group in another (or of a lone 0/1 column in a group).
    nested_columns : list of ColumnNesting
        Categorical columns nested in another, verified row by row.
    recodes : list of (str, str, int)
        Two columns that recode each other, and their number of levels.
    implied : list of Implication
        0/1 columns outside the groups that imply other 0/1 columns (:mod:`nblint.structure.implication`).

    (Written out: a named tuple's class costs a fresh process ~0.4 ms to create; none reads this as a tuple.)
    """

    __slots__ = ("identical", "codes", "nested", "nested_columns", "recodes", "implied")

    def __init__(
        self,
        identical: list[list[str]],
        codes: list[tuple[str, Group]],
        nested: list,
        nested_columns: list,
        recodes: list[tuple[str, str, int]],
        implied: list[Implication],
    ) -> None:
        self.identical = identical
        self.codes = codes
        self.nested = nested
        self.nested_columns = nested_columns
        self.recodes = recodes
        self.implied = implied


def duplicate_information(ctx) -> DuplicateInformation:
    """The cases of ``ctx`` NB105 reports."""
    structure = ctx.structure
    terms = ctx.term_columns
    names = ctx.profile.names
    # (words of a block are reported identical only where a stem says they encode one variable: ngrams.word_stem)
    identical = [cols for cols in structure.identical if not all(c in terms for c in cols) or word_stem(cols, names)]
    codes = {**structure.code_columns, **structure.missing_together_codes}
    return DuplicateInformation(
        identical,
        sorted(codes.items(), key=lambda kv: ctx.table_order[kv[0]]),
        list(structure.nested),
        list(ctx.nested_columns),
        [(a, b, ctx.recode_levels[(a, b)]) for a, b in ctx.recodes],
        implications(ctx),
    )


def implications(ctx) -> list[Implication]:
    """The 0/1 columns outside every group that imply another (the words of a document-term block left out)."""
    structure = ctx.structure
    grouped = {m for g in structure.groups + structure.missing_together for m in g.members}
    grouped |= {m for b in structure.broken for m in b.members}
    binary, cooccurrence = ctx.searched_binary
    settings = ctx.settings
    return implied_columns(
        binary,
        cooccurrence,
        ctx.n_rows,
        grouped,
        ctx.term_columns,
        settings.separation_min_rows,
        settings.min_evidence,
    )
