"""Read the hand-written expectations of a corpus table (``expectations/<id>.yaml``).

Schema (every key but ``id`` optional)::

    id: wage1                     # the corpus id (file name without .yaml)
    base: cps1985                 # variants: the author table they encode
    variant: author               # author|clean|get_dummies|drop_first|onehot_encoder|
                                  # onehot_encoder_drop_first (anonymised ones have no file)
    target: married               # must equal the registry's (checked)
    model: null                   # declared NB event model, must equal the registry's
    clean: false                  # true: no warning-or-worse finding is expected at all
    notes: ...                    # what the documentation and the data show
    groups:                       # every group a careful analyst finds, checked on the data
      - {kind: dummy, variable: region, members: [northcen, south, west], reference: "east (22%)"}
    kinds: {educ: count, "pixel_*": count}   # only where clear; keys may be globs,
                                             # an exact name wins over a glob
    exclusive_flags:              # optional: 0/1 columns that never share a row (or sum to one)
      - {members: [a, b], why: ...} # but are NOT an encoded variable (separate yes/no facts,
                                    # names and documentation give no variable): a found
                                    # NB101/NB102 over exactly these is a false group
    must:     [{code: NB202, columns: [naffairs]}]
    must_not: [{code: NB305, columns: [educ]}, {min_severity: error}]
    inherit: [kinds, must, must_not]         # variants: take these from ``base`` (entries
                                             # naming a column the variant lacks are dropped)

A must / must_not *pattern* matches a finding when every key it gives agrees: ``code``
equal, ``severity`` equal, ``min_severity`` at most the finding's, and ``columns`` a subset
of the finding's columns. Group kinds are ``onehot`` (the members sum to one on every row)
and ``dummy`` (pairwise exclusive, some rows with none set: the reference level).

Members of expected groups are labelled ``group-member`` for the kind score. Anonymised
tables have no file: their expectations are the original's, renamed.

Corpus one's files live in ``expectations/``; the second corpus (``round2``, labelled blind
before nblint ran on it) in ``expectations2/``, the third (``round3``, labelled blind too) in
``expectations3/``. Table ids are unique across the corpora.
"""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass, field
from pathlib import Path

from nblint.testing.cases import load_yaml

HERE = Path(__file__).resolve().parent
EXPECTATIONS = HERE / "expectations"
EXPECTATIONS2 = HERE / "expectations2"
EXPECTATIONS3 = HERE / "expectations3"
GROUP_KINDS = ("onehot", "dummy")
KINDS = ("binary", "group-member", "categorical", "count", "continuous", "identifier", "constant")
SEVERITIES = ("info", "warning", "error")


@dataclass
class Group:
    kind: str
    variable: str
    members: list[str]
    reference: str | None = None


@dataclass
class Expectation:
    id: str
    variant: str
    target: str | None
    model: str | None
    clean: bool
    groups: list[Group] = field(default_factory=list)
    kinds: dict[str, str] = field(default_factory=dict)
    must: list[dict] = field(default_factory=list)
    must_not: list[dict] = field(default_factory=list)
    base: str | None = None
    #: Exclusive 0/1 column sets that are not an encoded variable (see the schema).
    exclusive_flags: list[list[str]] = field(default_factory=list)


def path_of(table_id: str) -> Path:
    """The label file of ``table_id``, in its corpus's folder."""
    for folder in (EXPECTATIONS, EXPECTATIONS2):
        path = folder / f"{table_id}.yaml"
        if path.exists():
            return path
    return EXPECTATIONS3 / f"{table_id}.yaml"


def read(table_id: str) -> dict:
    path = path_of(table_id)
    with open(path, encoding="utf-8") as handle:
        raw = load_yaml(handle.read())
    if raw.get("id") != table_id:
        raise ValueError(f"{path.name}: id {raw.get('id')!r} is not {table_id!r}")
    return raw


def _patterns(items, columns: set[str], where: str) -> list[dict]:
    out = []
    for item in items or []:
        unknown = set(item) - {"code", "columns", "severity", "min_severity"}
        if unknown:
            raise ValueError(f"{where}: unknown keys {sorted(unknown)}")
        for key in ("severity", "min_severity"):
            if key in item and item[key] not in SEVERITIES:
                raise ValueError(f"{where}: bad {key} {item[key]!r}")
        if set(item.get("columns", [])) <= columns:
            out.append(dict(item))
    return out


def _kinds(raw: dict, columns: list[str]) -> dict[str, str]:
    """Resolve glob keys against the table's columns; exact names win."""
    kinds: dict[str, str] = {}
    globs = {k: v for k, v in raw.items() if any(ch in k for ch in "*?[") and k not in columns}
    for pattern, kind in globs.items():
        for column in fnmatch.filter(columns, pattern):
            kinds[column] = kind
    for name, kind in raw.items():
        if name in columns:
            kinds[name] = kind
    return kinds


def load(
    table_id: str, columns: list[str], copy_of: str | None = None, renaming: dict[str, str] | None = None
) -> Expectation:
    """The expectations of corpus table ``table_id`` whose columns are ``columns``.

    For an anonymised copy pass ``copy_of`` (the original's id) and ``renaming``
    (original name -> new name); ``columns`` are then the copy's.
    """
    if copy_of is not None:
        original = load(copy_of, [_inverse(renaming)[c] for c in columns])
        return rename(original, table_id, renaming)
    raw = read(table_id)
    present = set(columns)
    inherited = {}
    if raw.get("base"):
        base = read(raw["base"])
        for key in raw.get("inherit", []):
            inherited[key] = base.get(key) or ({} if key == "kinds" else [])
    own_kinds = raw.get("kinds") or {}
    unknown = [k for k in own_kinds if k not in present and not fnmatch.filter(columns, k)]
    if unknown:
        raise ValueError(f"{table_id}.yaml: kinds for columns the table lacks: {unknown}")
    kinds = _kinds({**inherited.get("kinds", {}), **own_kinds}, columns)
    groups = [Group(**g) for g in raw.get("groups") or []]
    for g in groups:
        if g.kind not in GROUP_KINDS:
            raise ValueError(f"{table_id}: group kind {g.kind!r}")
        missing = set(g.members) - present
        if missing:
            raise ValueError(f"{table_id}: group {g.variable!r} names missing columns {sorted(missing)}")
        for m in g.members:
            kinds[m] = "group-member"
    exclusive = []
    for item in raw.get("exclusive_flags") or []:
        members = list(item["members"])
        missing = set(members) - present
        if missing:
            raise ValueError(f"{table_id}: exclusive_flags name missing columns {sorted(missing)}")
        if any(set(members) == set(g.members) for g in groups):
            raise ValueError(f"{table_id}: {members} are both a group and exclusive flags")
        exclusive.append(members)
    bad = {k: v for k, v in kinds.items() if v not in KINDS}
    if bad:
        raise ValueError(f"{table_id}: unknown kinds {bad}")
    where = f"{table_id}.yaml"
    must = _patterns(inherited.get("must"), present, where) + _patterns(raw.get("must"), present, where)
    must_not = _patterns(inherited.get("must_not"), present, where) + _patterns(raw.get("must_not"), present, where)
    for item in raw.get("must", []) + raw.get("must_not", []):
        if not set(item.get("columns", [])) <= present:
            raise ValueError(f"{where}: {item} names a column the table lacks")
    return Expectation(
        id=table_id,
        variant=raw["variant"],
        target=raw.get("target"),
        model=raw.get("model"),
        clean=bool(raw.get("clean", False)),
        groups=groups,
        kinds=kinds,
        must=must,
        must_not=must_not,
        base=raw.get("base"),
        exclusive_flags=exclusive,
    )


def _inverse(renaming: dict[str, str]) -> dict[str, str]:
    return {new: old for old, new in renaming.items()}


def rename(expectation: Expectation, table_id: str, renaming: dict[str, str]) -> Expectation:
    """``expectation`` with every column name passed through ``renaming``."""

    def cols(items):
        return [renaming[c] for c in items]

    def pattern(p):
        return {**p, "columns": cols(p["columns"])} if "columns" in p else dict(p)

    return Expectation(
        id=table_id,
        variant="anonymised",
        target=renaming.get(expectation.target) if expectation.target else None,
        model=expectation.model,
        clean=expectation.clean,
        groups=[Group(g.kind, g.variable, cols(g.members), g.reference) for g in expectation.groups],
        kinds={renaming[c]: k for c, k in expectation.kinds.items()},
        must=[pattern(p) for p in expectation.must],
        must_not=[pattern(p) for p in expectation.must_not],
        base=expectation.id,
        exclusive_flags=[cols(m) for m in expectation.exclusive_flags],
    )


def group_violations(frame, group: Group) -> list[str]:
    """What in ``frame`` contradicts ``group`` (empty when the data bear the label out).

    Members must be two-valued 0/1 (or yes/no, true/false); rows where a member is missing
    are left out. A one-hot group sums to one on every row; a dummy group sums to at most one
    and has rows with none set (its reference level).
    """
    import numpy as np
    import pandas as pd

    problems = []
    bits = {}
    for m in group.members:
        column = frame[m]
        values = set(pd.unique(column.dropna()))
        if values <= {0, 1}:
            bits[m] = column.astype(float)
        elif values <= {"yes", "no"}:
            bits[m] = column.map({"yes": 1.0, "no": 0.0})
        else:
            problems.append(f"{m} is not 0/1: {sorted(map(str, values))[:5]}")
    if problems:
        return problems
    rows = pd.DataFrame(bits).dropna()
    total = rows.sum(axis=1).to_numpy()
    if group.kind == "onehot" and not np.all(total == 1):
        problems.append(f"one-hot {group.variable!r}: row sums {sorted(set(total.tolist()))}")
    if group.kind == "dummy":
        if np.any(total > 1):
            problems.append(f"dummy {group.variable!r}: {int(np.sum(total > 1))} rows with two or more set")
        if not np.any(total == 0):
            problems.append(f"dummy {group.variable!r}: no row has the reference level")
    return problems
