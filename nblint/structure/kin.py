"""The columns around an exclusive set: its name family, and the flags that say it is no variable's levels.

An exclusive set of 0/1 columns found by :func:`~nblint.structure.exclusive.dummy_sets`
is read against the table's other columns before it is called a drop-first group:

* its **family**, the other 0/1 columns whose names carry its stem or its shared affix
  (the variable's other levels: a family sharing rows far more rarely than chance is one
  broken group, not exclusive parts of it), and the one-hot groups written as it is
  (one encoder call that kept every level);
* its **kin**, columns that say the set's exclusivity is one relation among flags:
  same-stem flags that partly overlap a member (multi-label), flags that fill its
  all-zero rows while meeting its members far more rarely than chance, and columns that
  exclude one member beyond chance while crossing another.
"""

from __future__ import annotations

import numpy as np

from nblint.structure.families import may_carry_stems
from nblint.structure.groups import Group, exclusivity_evidence, member_evidence
from nblint.structure.names import candidate_stems, family_stems, informative_stem, name_stem, shared_affix


def _written_as(members, stem: str | None) -> str | None:
    """The separator every member's name puts after ``stem`` (``_`` for ``region_C``), or None."""
    if not stem or not all(len(m) > len(stem) and m.startswith(stem) for m in members):
        return None
    seps = {m[len(stem)] for m in members}
    sep = seps.pop() if len(seps) == 1 else None
    return None if sep is None or sep.isalnum() else sep


def encoded_whole(members, stem: str | None, onehot: list[Group], stemmed_sets) -> list[str]:
    """The one-hot groups written as ``members`` are, when they say the encoder kept every level.

    ``pd.get_dummies`` and ``OneHotEncoder`` encode every variable of a call the same way:
    ``region_C, region_M, ...`` and ``sex_F, sex_M`` summing to one on every row say the call
    kept every level, so an exclusive set written alike (``education_P, education_PS,
    education_S``) with a few all-zero rows lost its value there: no level was dropped.
    Only when the one-hot groups are the only other stem-named sets written that way (a
    drop-first set beside them would say the encoding differs by variable).

    Parameters
    ----------
    members : list of str
    stem : str or None
        The members' stem.
    onehot : list of Group
        The table's exact one-hot groups.
    stemmed_sets : list of (stem, members)
        The exclusive sets with a stem, ``members`` among them.
    """
    sep = _written_as(members, stem)
    if sep is None:
        return []
    alike = sorted(g.stem + sep for g in onehot if g.stem and _written_as(g.members, g.stem) == sep)
    others = [m for st, m in stemmed_sets if set(m) != set(members) and _written_as(m, st) == sep]
    return alike if alike and not others else []


def stem_family_columns(members: list[str], binary: list[str], all_names) -> list[str]:
    """The 0/1 columns outside ``members`` whose names carry the members' shared stem as their variable.

    ``reg_ne, reg_west`` beside ``reg_nc, reg_south``: the other levels of ``reg``.  A column
    under a longer stem of its own (``occupation_husb_*`` beside ``occupation_*``) is another
    variable and is left out.
    """
    stem = name_stem(members, period_dummies=False)
    if stem is None:
        return []
    family = []
    for name in binary:
        if name in members or not name.startswith(stem):
            continue  # cheap test first: the table's other columns do not carry the stem at all
        if name_stem(list(members) + [name], period_dummies=False) != stem:
            continue
        own = family_stems(name, all_names)
        if own and max(own, key=lambda x: (len(x), x)) != stem:
            continue
        family.append(name)
    return family


def level_family(names, binary) -> list[str]:
    """The columns whose names count in a stem's family when it is asked whether the stem names a set of 0/1 columns.

    A stem names a set of 0/1 columns when the columns carrying it are the set (and at most
    one more, :func:`~nblint.structure.names.informative_stem`).  Measurements that carry it
    beside mostly 0/1 columns (``occ_years``, ``occ_score`` beside ``occ_1 .. occ_14``) are
    attributes of the variable, not levels, and are left out of the count; where the stem's
    columns are mostly measurements (``pixel_*``, a few of them 0/1), they stay, and the stem
    names a family of measurements, not the levels of one variable.
    """
    names = list(names)
    # (only the names that may carry a stem, found in one scan: most of a vocabulary carries none)
    stemmed = [
        (i, stems) for i in may_carry_stems(names, list(range(len(names)))) if (stems := candidate_stems(names[i]))
    ]
    carriers: dict[str, list[int]] = {}  # stem -> [0/1 carriers, other carriers]
    for i, stems in stemmed:
        for stem in stems:
            carriers.setdefault(stem, [0, 0])[names[i] not in binary] += 1
    left_out = {
        i for i, stems in stemmed if names[i] not in binary and all(carriers[st][0] > carriers[st][1] for st in stems)
    }
    return [name for i, name in enumerate(names) if i not in left_out] if left_out else names


def affix_family_columns(members: list[str], binary: list[str], all_names) -> list[str]:
    """The 0/1 columns outside ``members`` that carry the members' shared prefix or suffix, when it names them.

    Levels written without a separator share a part of their names instead of a stem
    (``exhealth, vghealth, goodhealth`` beside ``poorhealth``).  The affix
    (:func:`~nblint.structure.names.shared_affix`) names a variable only when no more than
    one column of the table carries it beyond the family (as :func:`~nblint.structure.names.informative_stem`
    asks of a stem); then the other 0/1 columns carrying it are the variable's other levels.
    """
    affix = shared_affix(members)
    if affix is None:
        return []
    carriers = [name for name in all_names if _carries(name, affix)]
    family = [name for name in binary if name not in members and _carries(name, affix)]
    if not family or len(carriers) > len(members) + len(family) + 1:
        return []
    return family


def _carries(name: str, affix: str) -> bool:
    lowered = name.lower()
    return lowered.startswith(affix) or lowered.endswith(affix)


def multi_label_kin(members: list[str], binary: list[str], cooccurrence: np.ndarray, all_names) -> list[str]:
    """Columns outside ``members`` that carry their shared name stem and partly overlap one of them.

    ``disp.heinz32, disp.heinz41, disp.hunts32`` never share a row, but ``disp.heinz28``
    shares rows with two of them without lying within either: the ``disp`` flags are
    not exclusive, so an exclusive subset of them is not one encoded variable.  A
    column nested in a member (a subtype) or holding one (a union of levels) does not count.
    """
    stem = informative_stem(members, all_names)  # a stem of all columns (v1..v30) names no variable
    if stem is None:
        return []
    index = {name: k for k, name in enumerate(binary)}
    inside = [index[m] for m in members]
    counts = np.diag(cooccurrence)
    kin = []
    for c, name in enumerate(binary):
        if name in members or name_stem(list(members) + [name]) != stem:
            continue
        own = family_stems(name, all_names)
        if own and max(own, key=lambda x: (len(x), x)) != stem:
            continue  # a variable of its own under a longer stem (occupation_husb_* beside occupation_*)
        shared = cooccurrence[inside, c]
        partial = (shared > 0) & (shared < np.minimum(counts[inside], counts[c]))
        if partial.any():
            kin.append(name)
    return kin


def filling_kin(members: list[int], cooccurrence: np.ndarray, n_rows: int, max_share: float) -> list[int]:
    """Columns that take an exclusive set's all-zero rows, sharing far fewer rows with it than chance would.

    An exclusive set reads as a drop-first variable when its all-zero rows are a level of
    its own. When other 0/1 columns fill those rows instead (with them, at most
    ``max_share`` of the rows have none set) while meeting the set's members on a few
    rows, far fewer than independent columns would (at most half), the set and those
    columns are one family of flags that can be set together (multi-label: a plant with
    two dispersal modes), of which the set happens to be exclusive. Columns that never
    meet the set are left out (with it they are a larger exclusive set, the search's to
    find), as are columns within it. Indices are positions in ``cooccurrence``; the
    returned kin are empty when they leave more than ``max_share`` of the rows uncovered.
    """
    counts = np.diag(cooccurrence).astype(np.float64)
    inside = list(members)
    set_rows = float(counts[inside].sum())
    reference = n_rows - set_rows
    if reference <= max_share * n_rows:
        return []  # (nothing to fill: the set covers nearly every row itself)
    shared = cooccurrence[inside].sum(axis=0).astype(np.float64)
    expected = counts * set_rows / n_rows
    candidate = (shared > 0) & (shared <= 0.5 * expected) & (counts - shared > 0)
    candidate[inside] = False
    kin = np.flatnonzero(candidate).tolist()
    if not kin:
        return []
    # Rows the kin take outside the set, at least: their own rows there, less every row two of them share.
    pairs = cooccurrence[np.ix_(kin, kin)]
    outside = float((counts[kin] - shared[kin]).sum()) - float(np.triu(pairs, 1).sum())
    return kin if reference - outside <= max_share * n_rows else []


def crossing_kin(members: list[int], cooccurrence: np.ndarray, n_rows: int, min_evidence: float) -> list[int]:
    """Columns that exclude one member of an exclusive set beyond chance and cross another: the set is flags.

    The levels of one variable exclude each other and nothing else needs to: a column of
    another variable meets each level or is nested in one.  Exclusive flags of a world of
    facts (``feathers``, ``toothed``: no animal has both) sit among other facts that exclude
    some of them and overlap the rest: ``hair`` never meets ``feathers`` (beyond chance:
    ``min_evidence`` nats for the pair) but shares some rows with ``toothed`` and not others
    (a partial overlap, neither column within the other).  Such a column, when its
    exclusion of the member is a rival of the set's own (at least half the evidence the
    member brings to the set, and ``min_evidence``), says the set's exclusivity is one
    relation among many, not a partition into levels; a rare column of another variable
    that misses one level (no mining in the north-east) is far weaker than a level's
    exclusion of the other levels.  Indices are positions in ``cooccurrence``; members
    are not returned.
    """
    O = cooccurrence
    counts = np.diag(O).astype(np.int64)
    inside = list(members)
    usable = (counts > 0) & (counts < n_rows)
    usable[inside] = False
    rows = O[inside]  # (k, b): rows each member shares with each column
    smaller = np.minimum(counts[inside][:, None], counts[None, :])
    crosses = ((rows > 0) & (rows < smaller)).any(axis=0) & usable
    excludes = np.zeros(len(counts), dtype=bool)
    total = int(counts[inside].sum())
    for k, member in enumerate(inside):
        s = int(counts[member])
        # As strong a rival as the set's own members: at least half the evidence the member brings to the set.
        rival = max(min_evidence, 0.5 * member_evidence(s, total - s, n_rows))
        for column in np.flatnonzero((rows[k] == 0) & crosses).tolist():
            if exclusivity_evidence([s, int(counts[column])], n_rows) >= rival:
                excludes[column] = True
    return np.flatnonzero(excludes).tolist()
