"""Which 0/1 columns the group searches visit, and the exclusive-set candidates they return.

Two columns set on ``s_i`` and ``s_j`` of ``n`` rows that never meet are evidence of about
``s_i s_j / n`` nats that they are exclusive (the log of the chance that independent ones
would not meet).  A column that cannot reach ``min-evidence`` even beside the most frequent
column cannot be shown exclusive of anything, and only widens a search: on a wide table,
or beside a document-term block (thousands of rare words, pairwise exclusive by chance),
the searches leave such columns out, and the exclusive-set searches visit only the
:data:`FREQUENT_BINARY` most frequent 0/1 columns.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, cast

import numpy as np

from nblint.profile.incidence import Incidence
from nblint.readers import name_mask
from nblint.structure.budget import Budget
from nblint.structure.families import exclusive_families
from nblint.structure.groups import Group, exclusivity_evidence, expected_cooccurrences
from nblint.structure.names import group_stem, informative_stem
from nblint.structure.ngrams import spaced
from nblint.structure.onehot import GroupSearch

if TYPE_CHECKING:
    from nblint.structure.exclusive import BrokenCandidate

#: On a wide table, or beside a document-term block, the exclusive-set searches run among this many
#: of the most frequent 0/1 columns.
FREQUENT_BINARY = 128


def evidence_floor(counts: np.ndarray, n: int, min_evidence: float) -> float:
    """Rows a 0/1 column must be set on for ``min_evidence`` beside the most frequent usable column."""
    usable = counts[(counts > 0) & (counts < n)]
    most = int(usable.max()) if len(usable) else 0
    return min_evidence * n / max(most, 1)


def shown_exclusive(gram, terms: frozenset[str], min_evidence: float) -> np.ndarray | None:
    """The wide 0/1 columns the one-hot search visits: all but the words too rare to be shown exclusive.

    A word of a document-term block (``terms``) that cannot reach ``min_evidence`` even
    beside the most frequent column is exclusive of the others by chance alone (rare
    words are pairwise exclusive by the thousand, and partition the rows in countless
    ways: an exact search among them runs to its budget). Columns outside a term block
    are all visited. None: every column.
    """
    if not terms:
        return None
    counts = gram.diagonal()
    floor = evidence_floor(counts, gram.n, min_evidence)
    in_block = name_mask(gram.binary, terms)
    shown = ~in_block | (np.asarray(counts) >= floor)
    return None if shown.all() else shown


def searched_binary(gram, has_terms: bool, min_evidence: float) -> tuple[list[str], np.ndarray]:
    """The 0/1 columns the dense group searches visit, and their co-occurrences (dense).

    Every complete 0/1 column on an ordinary table. On a wide table, or one that holds a
    document-term block (``has_terms``), the :data:`FREQUENT_BINARY` most frequent ones
    (ties by name): exclusivity is evidence only where independent columns would meet, and
    a one-hot group of K columns has a member set on at least ``n / K`` rows; the rare
    words, thousands of them and pairwise exclusive, would make the searches visit every
    pair of words for nothing.
    """
    names = list(gram.binary)
    if not gram.wide and not has_terms:
        return names, cast(np.ndarray, gram.cooccurrence)  # (dense below WIDE_BINARY columns)
    counts = np.asarray(gram.diagonal())
    usable = np.flatnonzero((counts > 0) & (counts < gram.n))
    # A column that cannot reach ``min-evidence`` even beside the most frequent one cannot be
    # shown exclusive (the module docstring), and only widens the search.
    floor = evidence_floor(counts, gram.n, min_evidence)
    usable = usable[counts[usable] >= floor]
    if len(usable) > FREQUENT_BINARY:  # (only columns as frequent as the last one chosen can be chosen)
        last = np.partition(counts[usable], len(usable) - FREQUENT_BINARY)[len(usable) - FREQUENT_BINARY]
        usable = usable[counts[usable] >= last]
    ones = counts.tolist()
    chosen = sorted(usable.tolist(), key=lambda i: (-ones[i], names[i]))[:FREQUENT_BINARY]
    chosen.sort(key=lambda i: names[i])
    if len(chosen) < 2:
        return [], np.zeros((0, 0), dtype=np.int64)
    return [names[i] for i in chosen], gram.block(chosen)


def dummy_families(
    gram, held: set[str], names: Sequence[str], order: dict[str, int], min_evidence: float
) -> list[Group]:
    """Drop-first candidates of a wide table checked whole by name stem (:mod:`nblint.structure.families`).

    The exclusive-set searches of a wide table visit its most frequent 0/1 columns only; the
    levels of a many-level variable are each rare. A stem family none of whose rows has two
    members set is read from its own rows, at any number of levels, when its stem names it
    (:func:`~nblint.structure.names.informative_stem`) and its exclusivity is beyond chance
    (``min_evidence``: a few rare words under one stem never meet by chance alone);
    ``held``: columns already in a candidate.
    """
    binary = list(gram.binary)
    counts = np.asarray(gram.diagonal())
    n = gram.n
    searched = (counts > 0) & (counts < n)
    searched &= ~name_mask(binary, held)
    found = []
    for index in exclusive_families(cast(Incidence, gram.cooccurrence), counts, binary, searched, n):
        ranked = sorted(index, key=lambda k: order[binary[k]])  # (the members in table order)
        members = [binary[k] for k in ranked]
        stem = informative_stem(members, names)
        if stem is None:
            continue
        ones = [int(counts[k]) for k in ranked]
        strength = exclusivity_evidence(ones, n)
        if strength < min_evidence:
            continue  # (rare same-stem words, bigrams of one first word, are exclusive by chance)
        evidence = {
            "exclusivity_evidence": round(strength, 3),
            "expected_cooccurrences_if_independent": round(expected_cooccurrences(ones, n), 3),
            "shared_name_stem": stem,
            "checked_whole": "a wide table's stem family, every row read",
        }
        found.append(Group("dummy", members, ones, n, group_stem(members, names), evidence))
    return found


def exclusive_candidates(
    gram,
    n_rows: int,
    search: GroupSearch,
    binary: list[str],
    cooccurrence: np.ndarray,
    names: Sequence[str],
    order: dict[str, int],
    terms: frozenset[str],
    max_share: float,
    min_evidence: float,
    budget: Budget,
) -> tuple[list[BrokenCandidate], list[Group], list[Group]]:
    """Broken-group, dummy-group and exclusive-flag candidates beside the one-hot groups of ``search``.

    :func:`~nblint.structure.exclusive.candidate_sets` over ``binary``, the columns
    :func:`searched_binary` chose (``cooccurrence`` their counts); among the words of a term block (``terms``), exclusive sets are topics (the words
    of different classes rarely meet), not encoded variables: only a shared name stem makes
    them one, and never the first word of n-grams (:func:`~nblint.structure.ngrams.spaced`).  A wide table's stem families, checked whole, join the dummy candidates
    (:func:`dummy_families`); the flags start with the search's cross-stem covers.
    """
    broken: list[BrokenCandidate] = []
    dummy: list[Group] = []
    flags: list[Group] = list(search.cross)
    if binary:
        # (the drop-first search and its cliques, loaded where 0/1 columns are searched: never for words alone)
        from nblint.structure.exclusive import candidate_sets

        broken, dummy, exclusive_flags = candidate_sets(
            binary, cooccurrence, search.onehot, n_rows, names, order, max_share, min_evidence, budget
        )
        if terms:

            def encoded(members) -> bool:
                if not all(m in terms for m in members):
                    return True
                return not any(map(spaced, members)) and group_stem(members, names) is not None

            broken = [c for c in broken if encoded(c[0])]
            dummy = [g for g in dummy if encoded(g.members)]
            exclusive_flags = [g for g in exclusive_flags if encoded(g.members)]
        flags += exclusive_flags
    if gram.wide:
        held = {m for c in broken for m in c[0]} | {m for g in search.onehot + dummy + flags for m in g.members}
        held |= {m for m in terms if spaced(m)}  # (a word n-gram's first word is no stem: see spaced)
        dummy += dummy_families(gram, held, names, order, min_evidence)
    return broken, dummy, flags
