"""What column names say about indicator columns: the variable they share, and whether they are complete.

Names never decide a group: values do (see :mod:`nblint.structure.onehot`).  Names
label the likely source variable, break ties between equally valid readings, and
count as evidence only when they discriminate (a stem every column shares, as in
an anonymised table ``c0, c1, ...``, says nothing).
"""

from __future__ import annotations

import re

_SEPARATORS = re.compile(r"(\[T\.|\[|=|_|\.|:|\s|-)")
#: ``y81``, ``d1990``: a short alphabetic stem followed by digits (year and period dummies).
_LETTERS_DIGITS = re.compile(r"^([A-Za-z]+)(\d+)$")
#: Level names that make a two-column set a complete enumeration of a two-level variable.
_COMPLEMENTS = (
    {"yes", "no"},
    {"y", "n"},
    {"true", "false"},
    {"t", "f"},
    {"0", "1"},
    {"male", "female"},
    {"m", "f"},
    {"on", "off"},
    {"pos", "neg"},
    {"positive", "negative"},
)


def name_stem(names, period_dummies: bool = True) -> str | None:
    """The likely source variable of a set of indicator columns, from their names.

    Recognises ``color_red`` (pandas), ``x0_red`` (scikit-learn), ``color=red``,
    ``color[T.red]`` (patsy), ``y81``/``y82`` (period dummies) and similar: the
    longest common prefix of the names cut back to a separator.  Returns None when
    the names share no such stem.  ``period_dummies=False`` leaves out the letters +
    digits reading (``v03``, ``v17`` of an anonymised table share no variable).

    Examples
    --------
    >>> name_stem(["color_red", "color_blue"])
    'color'
    >>> name_stem(["C(color)[T.red]", "C(color)[T.blue]"])
    'C(color)'
    >>> name_stem(["y81", "y82", "y85"])
    'y'
    >>> name_stem(["a", "b"]) is None
    True
    """
    names = list(names)
    if len(names) < 2:
        return None
    prefix = names[0]
    for name in names[1:]:
        k = 0
        while k < min(len(prefix), len(name)) and prefix[k] == name[k]:
            k += 1
        prefix = prefix[:k]
    if not prefix:
        return None
    if all(len(n) > len(prefix) and _SEPARATORS.match(n, len(prefix)) for n in names):
        stem = prefix  # every name continues with a separator: the prefix is the stem
    else:
        cuts = [m.start() for m in _SEPARATORS.finditer(prefix)]
        if cuts:
            # Cut back to the last separator, so that "color_r" from red/rose gives "color".
            stem = prefix[: cuts[-1]]
        else:
            matches = [_LETTERS_DIGITS.match(n) for n in names] if period_dummies else [None]
            found = [m for m in matches if m is not None]
            if len(found) < len(matches) or len({m.group(1) for m in found}) != 1:
                return None
            stem = found[0].group(1)
    stem = stem.rstrip("_=.:[- ")
    return stem or None


def group_stem(members, all_names) -> str | None:
    """The stem that labels a group: a separator stem, or a letters + digits one that names the group."""
    return name_stem(members, period_dummies=False) or informative_stem(members, all_names)


def stem_family(stem: str, names) -> int:
    """How many of ``names`` carry ``stem`` (followed by a separator or a digit)."""
    pattern = re.compile(re.escape(stem) + r"(\[T\.|\[|=|_|\.|:|\s|-|\d)")
    return sum(1 for n in names if pattern.match(n))


def informative_stem(members, all_names) -> str | None:
    """The members' shared stem, when it names them and not a larger family of columns.

    ``color_red, color_green`` beside ``age, income``: the stem ``color`` is carried by
    the members (and at most one other column, a ``color_code`` say), so it names their
    variable.  ``pixel_3_0, pixel_7_0`` among 64 ``pixel_*`` columns, or ``c0, c1`` of
    an anonymised table: the stem names a family of columns, and says nothing about
    which of them form a variable.
    """
    members = list(members)
    stem = name_stem(members)
    if stem is None or stem_family(stem, all_names) > len(members) + 1:
        return None
    return stem


def stem_ties(members, all_names) -> set:
    """Members that share with at least one other member a stem that names them (see :func:`informative_stem`)."""
    members = list(members)
    tied: set = set()
    pair_stems = (name_stem([a, b]) for i, a in enumerate(members) for b in members[i + 1 :])
    for stem in {s for s in pair_stems if s is not None}:
        carriers = [m for m in members if stem_family(stem, [m])]
        if len(carriers) >= 2 and stem_family(stem, all_names) <= len(carriers) + 1:
            tied.update(carriers)
    return tied


def level_names(members, stem: str | None) -> list[str]:
    """What each member's name adds to the stem (``color_red`` -> ``red``), lower case."""
    if not stem:
        return [m.lower() for m in members]
    return [_SEPARATORS.sub("", m[len(stem) :], count=1).rstrip("]").lower() for m in members]


def names_say_complete(members, stem: str | None) -> bool:
    """Whether the names enumerate every level of a two-level variable (``smoker_yes``/``smoker_no``).

    Then no level can have been dropped, and a row with none of them set is missing
    its value, not at a reference level.

    Examples
    --------
    >>> names_say_complete(["smoker_yes", "smoker_no"], "smoker")
    True
    >>> names_say_complete(["size_M", "size_L"], "size")
    False
    """
    if stem is None or len(members) != 2:
        return False
    return set(level_names(members, stem)) in _COMPLEMENTS
