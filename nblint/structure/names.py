"""What column names say about indicator columns: the variable they share, and whether they are complete.

Names never decide a group: values do (see :mod:`nblint.structure.onehot`).  Names
label the likely source variable, break ties between equally valid readings, and
count as evidence only when they discriminate (a stem every column shares, as in
an anonymised table ``c0, c1, ...``, says nothing).
"""

from __future__ import annotations

import re
from functools import lru_cache
from itertools import islice
from os.path import commonprefix

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
    return _name_stem(tuple(names), period_dummies)


#: Name work is memoised: the group searches ask for the stems of the same sets and pairs
#: many times over (a 5,822 x 132 drop-first table asked 256,000 times in one check).
NAME_CACHE = 1 << 16


@lru_cache(maxsize=NAME_CACHE)
def _name_stem(names: tuple[str, ...], period_dummies: bool) -> str | None:
    if len(names) < 2:
        return None
    prefix = commonprefix(list(names))
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


def stem_family(stem: str, names, enough: int | None = None) -> int:
    """How many of ``names`` carry ``stem`` (followed by a separator or a digit), counted up to ``enough``.

    With ``enough``, the count stops there: the answer is ``min(count, enough)``, all a caller
    comparing the count with a bound needs (the ``x{j}`` placeholders of a hashed block all carry
    ``x``: a few names tell, not a scan of the 2^20 declared). A tuple of names (a table's) is looked
    up by identity: its stems' counts are kept beside it (:func:`_family_counts`), each as far as it
    was counted, so asking again costs a dictionary look-up, not hashing every name of a vocabulary
    into a cache key. A tuple asked about many stems (a bigram vocabulary: every ``new ...`` names a
    stem ``new``) has every stem it carries counted in one pass (:func:`_every_stem_count`), as
    long as :data:`_SCANS_BEFORE_TABLE` scans, rather than a scan of every name per stem.
    """
    if not isinstance(names, tuple):
        return _stem_family(stem, tuple(names), enough)
    kept = _family_counts(names)
    if kept.complete:
        found = kept.counts.get(stem, 0)
        return found if enough is None else min(found, enough)
    counts = kept.counts
    known = counts.get(stem)
    if known is not None:
        found, stopped = known
        if not stopped or (enough is not None and found >= enough):
            return found if enough is None else min(found, enough)
    kept.scans += 1
    if kept.scans >= _SCANS_BEFORE_TABLE:
        kept.counts, kept.complete = _every_stem_count(names), True
        return stem_family(stem, names, enough)
    found = _count_family(stem, names, enough)
    counts[stem] = (found, enough is not None and found >= enough)  # (stopped: a lower bound only)
    return found


class _Counted:
    """The stems counted in one tuple of names: ``counts`` stem -> (count, stopped) while they are asked one
    by one (``stopped``: the count stopped at a caller's bound, a lower bound only), or stem -> count once
    ``complete`` (every stem the names carry, :func:`_every_stem_count`); ``scans`` of the names so far."""

    __slots__ = ("names", "counts", "complete", "scans")

    def __init__(self, names: tuple) -> None:
        self.names = names  # (held: its id is not reused while it is here)
        self.counts: dict = {}
        self.complete = False
        self.scans = 0


#: The stems counted in the last few tuples of names asked about, by identity (``id -> _Counted``).
_FAMILY_COUNTS: dict[int, _Counted] = {}
#: Tuples of names whose counts are kept (a run asks about one table's names, and a few subsets).
_FAMILY_TABLES = 8
#: Scans of a tuple's names, one per stem asked, after which every stem it carries is counted at once.
_SCANS_BEFORE_TABLE = 4
#: What follows a stem in a name that carries it (:func:`carries`), as a pattern: a name's stems end before each match.
_STEM_END = re.compile(r"[\[=_.:\s\d-]")


def _family_counts(names: tuple) -> _Counted:
    """The counts of stems already asked about in ``names`` (this very tuple), filled by :func:`stem_family`."""
    kept = _FAMILY_COUNTS.get(id(names))
    if kept is not None and kept.names is names:
        return kept
    if len(_FAMILY_COUNTS) >= _FAMILY_TABLES:
        _FAMILY_COUNTS.pop(next(iter(_FAMILY_COUNTS), -1), None)  # (the oldest; -1 is no id)
    kept = _Counted(names)
    _FAMILY_COUNTS[id(names)] = kept
    return kept


def _every_stem_count(names: tuple) -> dict[str, int]:
    """How many of ``names`` carry each stem any of them carries: ``name[:i]`` for every ``i >= 1`` where
    ``name[i]`` is a separator, a space or a digit (:func:`carries`, read the other way round).

    A name carries a stem at most once (its prefixes differ in length), so each is counted once per name.
    """
    counts: dict[str, int] = {}
    for name in names:
        for match in _STEM_END.finditer(name, 1):
            stem = name[: match.start()]
            counts[stem] = counts.get(stem, 0) + 1
    return counts


@lru_cache(maxsize=NAME_CACHE)
def _stem_family(stem: str, names: tuple[str, ...], enough: int | None) -> int:
    return _count_family(stem, names, enough)


def _count_family(stem: str, names: tuple[str, ...], enough: int | None = None) -> int:
    """The names carrying ``stem``, counted in name order and no further than ``enough`` (None: all)."""
    if enough is not None and enough <= 0:
        return 0
    joined = "\x00".join(names)
    if "\x00" in stem or joined.count("\x00") != max(len(names) - 1, 0):  # (a NUL in a name: one by one)
        carrying = filter(None, (carries(n, stem) for n in names))
        return sum(1 for _ in islice(carrying, enough))
    # One scan of every name at once (a hashed matrix's x0 .. x{p-1} all carry ``x``): a match only where
    # a name begins, and at most one per name, since the stem and its separator hold no NUL. With a bound,
    # the scan stops at its match (the placeholders' stem: at the first few names).
    pattern = r"(?<![^\x00])" + re.escape(stem) + _STEM_END.pattern
    if enough is None:
        return len(re.findall(pattern, joined))
    return sum(1 for _ in islice(re.finditer(pattern, joined), enough))


#: What follows a stem in the name of a column that carries it (besides a digit or a space).
_AFTER_STEM = frozenset("[=_.:-")


def carries(name: str, stem: str) -> bool:
    """Whether ``name`` carries ``stem``: begins with it, then a separator or a digit (``color_red``, ``y81``).

    A test of one character, not a pattern: the stems tried are the prefixes of every name with a
    separator, each a regular expression to compile if it were one (a tenth of a millisecond).

    Examples
    --------
    >>> carries("color_red", "color"), carries("y81", "y"), carries("colors", "color"), carries("color", "color")
    (True, True, False, False)
    """
    if len(name) <= len(stem) or not name.startswith(stem):
        return False
    after = name[len(stem)]
    return after in _AFTER_STEM or after.isspace() or after.isdecimal()  # (as a pattern's \s and \d read them)


#: Words for the two directions of one axis, each followed by a step count in a column name: event-study
#: dummies write "periods until treatment" and "periods since treatment" as ``lead3`` and ``lag2``.
#: Each pair is written in the axis's order (before the event, then after it).
_AXIS_DIRECTIONS = (
    ("lead", "lag"),
    ("leads", "lags"),
    ("pre", "post"),
    ("before", "after"),
    ("minus", "plus"),
)
#: A direction word and a step count: ``lead3``, ``lag_0``, ``pre-2``.
_DIRECTION_STEP = re.compile(r"^([A-Za-z]+)[_.\- ]?(\d+)$")


def signed_axis(members) -> str | None:
    """The variable of columns named as steps in both directions of one axis (``lead1..lead9``, ``lag0..lag5``).

    An event-study table writes one variable, time relative to an event, as one 0/1
    column per period before it (``lead k``: k periods until treatment) and after it
    (``lag k``): two prefixes, but one enumeration of the levels of one signed number,
    so the names point to one variable, not two.  Both directions must be present, and
    every name must be a direction word of the same pair and a step count (case aside,
    written alike).  Returns the two words joined (``'lead/lag'``), or None.

    Examples
    --------
    >>> signed_axis(["lead2", "lead1", "lag0", "lag1"])
    'lead/lag'
    >>> signed_axis(["post_1", "pre_2", "pre_1"])
    'pre/post'
    >>> signed_axis(["lead1", "lead2"]) is None  # one direction: a plain stem (``lead``)
    True
    >>> signed_axis(["lead1", "lag1", "size2"]) is None
    True
    """
    return _signed_axis(tuple(members))


@lru_cache(maxsize=NAME_CACHE)
def _signed_axis(members: tuple[str, ...]) -> str | None:
    found = [_DIRECTION_STEP.match(m) for m in members]
    if len(found) < 2 or not all(found):
        return None
    words = {m.group(1) for m in found if m is not None}
    if len(words) != 2 or len({w.lower() for w in words}) != 2:
        return None
    by_lower = {w.lower(): w for w in words}
    for pair in _AXIS_DIRECTIONS:
        if set(pair) == set(by_lower):
            return "/".join(by_lower[w] for w in pair)
    return None


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
    if stem is None:
        # Two direction words of one axis (``lead3``, ``lag2``) name one variable as a stem does.
        return signed_axis(members)
    if stem_family(stem, all_names, enough=len(members) + 2) > len(members) + 1:
        return None
    return stem


def stem_ties(members, all_names) -> set:
    """Members that share with at least one other member a stem that names them (see :func:`informative_stem`).

    The stems two names can share are their prefixes cut at a separator (and the
    letters of a letters + digits name), so each name's candidates are listed once
    (memoised) and counted, instead of asking for the stem of every pair: the search
    calls this for every candidate set of a table.
    """
    members = list(members)
    all_names = tuple(all_names)
    carriers: dict[str, list] = {}
    for m in members:
        for stem in _candidate_stems(m):
            carriers.setdefault(stem, []).append(m)
    tied: set = set()
    for stem, who in carriers.items():
        if len(who) >= 2 and stem_family(stem, all_names, enough=len(who) + 2) <= len(who) + 1:
            tied.update(who)
    return tied


def candidate_stems(name: str) -> tuple[str, ...]:
    """Every stem ``name`` can share with another name (see :func:`stem_ties`), sorted."""
    if _SEPARATORS.search(name) is None:  # (most of a vocabulary: a word, or letters + digits; not cached)
        digits = _LETTERS_DIGITS.match(name)
        return (digits.group(1),) if digits else ()
    return _candidate_stems(name)


@lru_cache(maxsize=NAME_CACHE)
def _candidate_stems(name: str) -> tuple[str, ...]:
    """Every stem ``name`` can share with another name: its prefixes before a separator, cleaned as
    :func:`name_stem` cleans them, and the letters of a letters + digits name; only those it carries
    (followed by a separator or a digit, :func:`stem_family`)."""
    found = {name[: m.start()].rstrip("_=.:[- ") for m in _SEPARATORS.finditer(name) if m.start() > 0}
    digits = _LETTERS_DIGITS.match(name)
    if digits:
        found.add(digits.group(1))
    return tuple(sorted(s for s in found if s and carries(name, s)))


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


def family_stems(name: str, all_names) -> frozenset:
    """The stems of ``name`` that at least one other column of the table carries too (its variable, by name)."""
    all_names = tuple(all_names)
    return frozenset(s for s in _candidate_stems(name) if stem_family(s, all_names, enough=2) >= 2)


def cross_stem(members, all_names) -> tuple[str, ...] | None:
    """The variables, by name, of exclusive columns whose names point to different variables.

    Every member's name carries a stem that other columns share (``continent_Asia``,
    ``country_Chile``; ``disp.heinz28``, ``feat.heinz32``), and no stem is carried by
    all of them: the names say the columns belong to two or more variables, so their
    exclusivity is a relation between variables (nesting, or flags that exclude each
    other), not one encoded variable.  None when the names say nothing (``c0, c1``
    of an anonymised table, ``private, freepoor``: no stem), share a stem, or are the two
    directions of one axis (``lead3``, ``lag2``: :func:`signed_axis`).

    Examples
    --------
    >>> cross_stem(["continent_Asia", "country_Chile"], ["continent_Asia", "continent_Africa", "country_Chile", "country_Peru"])
    ('continent', 'country')
    >>> cross_stem(["a", "b"], ["a", "b", "c"]) is None
    True
    """
    if signed_axis(members):
        return None  # (``lead3``, ``lag2``: two directions of one variable, see :func:`signed_axis`)
    all_names = tuple(all_names)
    stems = [family_stems(m, all_names) for m in members]
    if len(stems) < 2 or not all(stems) or frozenset.intersection(*stems):
        return None
    # Each member's shortest family stem names its variable.
    return tuple(sorted({min(s, key=lambda x: (len(x), x)) for s in stems}))


def measured_per_level(members, stem: str | None, all_names, binary) -> str | None:
    """The stem of a measurement the table carries once per level of ``members`` (wide choice data).

    ``feat.dannon, feat.hiland, feat.yoplait`` beside ``price.dannon, price.hiland,
    price.yoplait`` (prices, not 0/1): each level name recurs under another stem whose
    columns are measurements, so the levels are the alternatives of a choice and the
    flags one yes/no attribute per alternative, not the levels of one encoded variable.
    Two 0/1 families over the same level names (``mother_edu_*``, ``father_edu_*``) are
    two encoded variables and do not count: only a stem with a column that is not 0/1
    for every level does.  None when there is no such stem.

    Examples
    --------
    >>> names = ["feat.a", "feat.b", "price.a", "price.b", "y"]
    >>> measured_per_level(["feat.a", "feat.b"], "feat", names, {"feat.a", "feat.b", "y"})
    'price'
    >>> measured_per_level(["m_a", "m_b"], "m", ["m_a", "m_b", "f_a", "f_b"], {"m_a", "m_b", "f_a", "f_b"}) is None
    True
    >>> measured_per_level(["a0", "a1"], "a", ["a0", "a1", "w0", "w1"], {"a0", "a1"}) is None  # numbered columns
    True
    """
    if stem is None:
        return None
    return _measured_per_level(tuple(members), stem, tuple(all_names), frozenset(binary))


@lru_cache(maxsize=NAME_CACHE)
def _measured_per_level(members: tuple, stem: str, all_names: tuple, binary: frozenset) -> str | None:
    # Only stems followed by a separator (``feat.dannon``): ``a0, a1`` beside word counts ``w0, w1``
    # are numbered columns, not attributes of named alternatives.
    if not all(_separated(m, stem) for m in members):
        return None
    levels = set(level_names(members, stem))
    if len(levels) < len(members):
        return None
    carried: dict[str, set] = {}
    for name in all_names:
        if name in binary or name in members:
            continue
        for other in _candidate_stems(name):
            if other != stem and _separated(name, other):
                carried.setdefault(other, set()).update(level_names([name], other))
    found = sorted(other for other, seen in carried.items() if levels <= seen)
    return found[0] if found else None


def _separated(name: str, stem: str) -> bool:
    """Whether ``name`` continues ``stem`` with a separator (``feat.dannon`` after ``feat``)."""
    return name.startswith(stem) and _SEPARATORS.match(name, len(stem)) is not None


def shared_affix(members, least: int = 3) -> str | None:
    """A prefix or suffix of ``least`` letters or more that every member's name carries (``lchronic, nchronic``).

    Names without a separator can still name one variable's levels by a common part
    (``exhealth, goodhealth``; ``centcity, outercity``).  Case is ignored.

    Examples
    --------
    >>> shared_affix(["exhealth", "fairhealth", "goodhealth"])
    'health'
    >>> shared_affix(["feathers", "toothed"]) is None
    True
    """
    lowered = [m.lower() for m in members]
    if len(lowered) < 2:
        return None
    prefix = commonprefix(lowered)
    suffix = commonprefix([m[::-1] for m in lowered])[::-1]
    best = max(prefix, suffix, key=len)
    return best if len(best) >= least else None
