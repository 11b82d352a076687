"""The one-hot search of a table: exact groups among its 0/1 columns, those a term block makes by chance left out.

A wide table is searched over its sparse co-occurrences among the columns that can be
shown exclusive (:func:`nblint.structure.searched.shown_exclusive`), a narrow one over the
dense co-occurrences of the columns the searches visit
(:func:`nblint.structure.searched.searched_binary`); both searches are
:mod:`nblint.structure.onehot`'s. A set of a document-term block's words that covers every
row by chance (rare words, each in a few documents) is not an encoded variable.
"""

from __future__ import annotations

from nblint.structure.onehot import GroupSearch, find_onehot_groups


def onehot_search(ctx) -> GroupSearch:
    """The one-hot groups of ``ctx``'s table (its ``budget`` bounds the search)."""
    gram = ctx.profile.gram
    if gram.wide:
        from nblint.structure.onehot_sparse import find_onehot_groups_sparse  # (a wide table's search only)

        search = find_onehot_groups_sparse(
            gram.binary, gram.cooccurrence, gram.n, ctx.table_order, ctx.budget, ctx.shown_exclusive
        )
    else:
        binary, cooccurrence = ctx.searched_binary
        search = find_onehot_groups(binary, cooccurrence, gram.n, ctx.table_order, ctx.budget)
    kept = [g for g in search.onehot if not ctx.terms.by_chance(g.members, "cover")]
    return search if len(kept) == len(search.onehot) else GroupSearch(kept, search.capped, search.cross)
