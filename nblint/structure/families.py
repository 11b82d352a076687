"""Name-stem families checked whole: 0/1 columns that share a stem and sum to one on every row.

An encoder writes a variable's levels under one stem (``x0_red``, ``color=red``,
``C(color)[T.red]``), all of them.  Whether such a family is a one-hot group is a
question about its rows alone: the family ``F`` is one exactly when every row has one
and only one member set,

    sum_{k in F} x_rk = 1  for every row r,

that is, when the rows its members are set on are all different (no row has two) and
number ``n`` (no row has none).  Read from the columns' own rows (the incidence
matrix, in column form) that costs ``O(e log e)`` for a family of ``e`` ones, whatever
its number of levels: the exact cover search, which works from co-occurrence counts and
cannot tell a 5,000-level variable from 5,000 rare words exclusive by chance, is not
needed for it.  Names only choose which sets are checked; the values decide.
"""

from __future__ import annotations

import re

import numpy as np

from nblint.profile.incidence import Incidence
from nblint.structure.names import candidate_stems


def stem_families(names, searched: np.ndarray) -> list[tuple[str, list[int]]]:
    """The stems two or more ``searched`` columns carry, each with its columns (indices, ascending).

    Larger families first, then by stem: a family is tried before the smaller ones inside it.
    """
    carriers: dict[str, list[int]] = {}
    for i in may_carry_stems(names, np.flatnonzero(searched).tolist()):
        for stem in candidate_stems(names[i]):
            carriers.setdefault(stem, []).append(i)
    families = [(stem, members) for stem, members in carriers.items() if len(members) >= 2]
    return sorted(families, key=lambda item: (-len(item[1]), item[0]))


#: A name with none of these characters carries no stem (:func:`~nblint.structure.names.candidate_stems`
#: cuts at a separator, or takes the letters of letters + digits): a plain word of a vocabulary.
_STEM_CHARACTERS = r"[\[=_.:\s\-\d]"
_STEM_CHARACTER = re.compile(_STEM_CHARACTERS)


def may_carry_stems(names, columns: list[int]) -> list[int]:
    """The ``columns`` whose names may carry a stem (hold one of :data:`_STEM_CHARACTERS`), in their order.

    (Most of a vocabulary is plain words: asking each for its stems was a Python call per word.) The
    distinct characters of all the names are classified once, and the names holding one of the stem
    characters are found with arrays over their code points: no Python per name.
    """
    chosen = [names[i] for i in columns]
    codes = np.frombuffer("".join(chosen).encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
    ascii = codes < 128
    present = np.flatnonzero(np.bincount(codes[ascii], minlength=128)).tolist() + np.unique(codes[~ascii]).tolist()
    special = [c for c in present if _STEM_CHARACTER.match(chr(c))]
    if not special:
        return []
    lengths = np.fromiter(map(len, chosen), dtype=np.int64, count=len(chosen))
    owner = np.repeat(np.arange(len(chosen)), lengths)  # (each code point's name)
    holds = np.bincount(owner[np.isin(codes, special)], minlength=len(chosen)) > 0
    return [columns[k] for k in np.flatnonzero(holds).tolist()]


def covering_families(
    incidence: Incidence, counts: np.ndarray, names, searched: np.ndarray, n_rows: int
) -> list[list[int]]:
    """Disjoint stem families of 0/1 columns that sum to exactly one on every row (one-hot groups).

    Parameters
    ----------
    incidence : Incidence
        The 0/1 block.
    counts : ndarray of int
        Each column's ones.
    names : sequence of str
        The columns' names.
    searched : ndarray of bool
        The columns a family may hold (complete, set on some rows but not all).
    n_rows : int

    Returns
    -------
    list of list of int
        Each family's columns (ascending), found in an order that depends on names only.
    """
    return _exclusive_families(incidence, counts, names, searched, n_rows, cover=True)


def exclusive_families(
    incidence: Incidence, counts: np.ndarray, names, searched: np.ndarray, n_rows: int
) -> list[list[int]]:
    """Disjoint stem families of 0/1 columns that sum to at most one on every row, and to zero on some.

    The drop-first reading of :func:`covering_families`: no row has two members set (the
    rows the members are set on are all different) and some rows have none (the dropped
    reference level).  Parameters as there.
    """
    return _exclusive_families(incidence, counts, names, searched, n_rows, cover=False)


def _exclusive_families(incidence, counts, names, searched, n_rows: int, cover: bool) -> list[list[int]]:
    found: list[list[int]] = []
    taken = np.zeros(len(counts), dtype=bool)
    for _, members in stem_families(names, searched):
        index = np.asarray(members, dtype=np.int64)
        ones = int(counts[index].sum())
        # Cheap test first: the ones must add up to the rows exactly (a cover) or to fewer (drop-first).
        if taken[index].any() or (ones != n_rows if cover else ones >= n_rows):
            continue
        if len(np.unique(incidence.rows(members))) == ones:  # every one on a row of its own
            found.append(members)
            taken[index] = True
    return found
