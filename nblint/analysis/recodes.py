"""Columns that recode each other: pairs whose values map one to one, verified on the rows (NB105).

The candidates come from the profile (:func:`nblint.structure.duplicates.recode_candidates`:
level counts that could pair one to one); one chunked pass (the context's
:meth:`~nblint.analysis.context.TableContext.row_checks`) keeps the pairs that do on every
row. Only categorical columns pair with each other: a count or a measurement and a
one-to-one function of it (``exper`` and ``expersq``) are different features for a
Gaussian or count model.
"""

from __future__ import annotations

from nblint.structure.duplicates import CandidatePairs, recode_candidates


def candidate_recodes(ctx) -> CandidatePairs:
    """The pairs of categorical columns of ``ctx`` that may recode each other: the first :data:`~nblint.structure.duplicates.MAX_RECODE_PAIRS`, sorted, and their number."""
    # (the kinds' arrays, read at once: a vocabulary is tens of thousands of columns, none categorical)
    categorical = set(ctx.features_of_kind("categorical")) - set(ctx.structure.code_columns)
    # Integer codes of a categorical column (cowcode2 beside ctryname) recode it too, whatever their kind;
    # they pair only with columns of words, so without one there is nothing to try, and a document-term
    # block's word counts are words, not codes (a vocabulary would be tens of thousands of partners).
    codes = set(ctx.features_of_kind("count", "identifier")) - ctx.term_columns if ctx.profile.text else set()
    # (the few columns that may pair, never the whole table: a vocabulary's words are neither)
    considered = {c for c in categorical | codes if c in ctx.table_order and c != ctx.target}
    return recode_candidates(ctx.profile, considered, partners=codes)


def verified_recodes(ctx) -> dict[tuple[str, str], int]:
    """The candidate pairs (the first :data:`~nblint.structure.duplicates.MAX_RECODE_PAIRS`) that recode each other on every row, each
    with the number of values it maps one to one; identical columns are not recodes."""
    pending = ctx.recode_candidates.first
    if not pending:
        return {}
    same = {frozenset(cols) for cols in ctx.structure.identical}
    checks = ctx.row_checks([], [], [], pending)
    return {
        pair: levels
        for pair, levels in zip(pending, checks.recodes)
        if levels and not any(set(pair) <= s for s in same)
    }
