"""A table's verified structure, fed from its context: groups, their breakage, codes, nested columns.

The searches are pure functions of the profile (:mod:`nblint.structure`); what they need
of a table beyond it is the context's: the one-hot search it cached, the 0/1 columns the
dense searches visit, whether a relation among a document-term block's words is chance,
the search budget every search shares, and the row pass that verifies candidates
(:meth:`~nblint.analysis.context.TableContext.row_checks`). This module hands those over,
so that the context only caches what comes back.
"""

from __future__ import annotations

from nblint.structure.groups import Group
from nblint.structure.nesting import ColumnNesting, nested_columns
from nblint.structure.verified import Structure, verified_structure


def table_structure(ctx) -> Structure:
    """Groups, broken groups, code columns and identical columns of ``ctx``'s table, verified.

    Order of the search (:func:`~nblint.structure.verified.verified_structure`): exact one-hot
    groups; then sets that sum to one on nearly every row with a few overlaps (broken groups);
    then exclusive sets (drop-first dummy groups, whatever the share of the reference level).
    An exclusive set is kept as a dummy group when its exclusivity is beyond chance
    (``min-evidence`` nats), its names share a telling stem, or a column of the table decodes
    it; when the names say no level can be missing (``smoker_yes``/``smoker_no``), its
    all-zero rows are breakage instead.
    """
    return verified_structure(
        ctx.profile,
        ctx.group_search,
        ctx.searched_binary,
        ctx.term_columns,
        ctx.terms.identical_by_chance,
        lambda: missing_together_groups(ctx),
        ctx.row_checks,
        ctx.table_order,
        ctx.settings.max_violation_share,
        ctx.settings.min_evidence,
        ctx.budget,
    )


def missing_together_groups(ctx) -> tuple[list[Group], list[Group]]:
    """Groups among the 0/1 feature columns with missing values, and yes/no text columns (:mod:`nblint.structure.missing_together`).

    One pass over those columns alone (at most :data:`missing_together.MAX_COLUMNS`, by name).
    """
    if ctx.term_columns:
        return [], []  # (none is searched beside a document-term block)
    from nblint.structure import missing_together  # (with the drop-first search it runs: a table's path only)

    settings = ctx.settings
    return missing_together.search(
        ctx.profile,
        ctx.reduce_rows,
        ctx.table_order,
        ctx.budget,
        settings.min_evidence,
        settings.max_violation_share,
    )


def nested_categoricals(ctx) -> list[ColumnNesting]:
    """Categorical columns nested in another, verified row by row (:func:`~nblint.structure.nesting.nested_columns`).

    Group members, code columns and the words of a document-term block are left out: they are
    read as their variable, or as words.
    """
    structure = ctx.structure
    taken = {m for g in structure.groups for m in g.members} | set(structure.code_columns) | ctx.term_columns
    # (the columns left, as one set difference: a vocabulary's words are tens of thousands, all taken)
    kinds = {c: ctx.kinds[c].kind for c in ctx.kinds.keys() - taken}
    return nested_columns(ctx.profile, kinds, ctx.row_checks, ctx.settings.min_evidence)
