"""nblint: a data-quality linter for tables and pipeline configs fed to Naive Bayes.

The public Python API is :func:`check`, which lints a table (a pandas, polars or
Dask DataFrame, a pyarrow Table, a numpy array or scipy.sparse matrix with its
classes, a dict of arrays, or a path) and returns a :class:`~nblint.api.report.Report`,
and :func:`check_pipeline`, which lints a live scikit-learn pipeline and what its
model receives.  Heavy modules are imported lazily so
that ``import nblint`` stays cheap (it never imports pandera or scikit-learn).
:class:`~nblint.estimators.mixednb.MixedNB` (a Naive Bayes with an event model per column)
and :class:`~nblint.estimators.collapse.CollapseGroups` are scikit-learn estimators, loaded
on first use (scikit-learn is a dependency, imported only then).

Every error nblint reports as the user's to fix is a :class:`NblintError`:
:class:`InputError` (an input cannot be read), :class:`ConfigError` (a setting is
invalid), :class:`OutputExists` (an output file exists and ``force`` was not given) and
:class:`MissingDependency` (a package a feature needs is not installed).
"""

from __future__ import annotations

import sys

from nblint.core.atomic import OutputExists
from nblint.core.errors import ConfigError, InputError, MissingDependency, NblintError
from nblint.core.version import __version__
from nblint.engine import findings as _findings

# ``nblint.findings`` moved to ``nblint.engine.findings``; the old path keeps working for one
# release (rule packs import it), as an alias of the same module, not a copy.
sys.modules.setdefault(__name__ + ".findings", _findings)

__all__ = [
    "__version__",
    "check",
    "check_pipeline",
    "MixedNB",
    "CollapseGroups",
    "NblintError",
    "InputError",
    "ConfigError",
    "OutputExists",
    "MissingDependency",
]


def __getattr__(name: str):
    """``MixedNB`` and ``CollapseGroups`` import scikit-learn, so only when asked for."""
    if name in ("MixedNB", "CollapseGroups"):
        from nblint.core.dependencies import require

        require("sklearn", f"nblint.{name}")  # one line saying what to install, not a bare ModuleNotFoundError
    if name == "MixedNB":
        from nblint.estimators.mixednb import MixedNB

        return MixedNB
    if name == "CollapseGroups":
        from nblint.estimators.collapse import CollapseGroups

        return CollapseGroups
    raise AttributeError(f"module 'nblint' has no attribute {name!r}")


def check(data, y=None, *, target=None, model=None, feature_names=None, **kwargs):
    """Lint a table and return a :class:`~nblint.api.report.Report`.

    Parameters
    ----------
    data : table, array, sparse matrix or path
        A pandas DataFrame, a polars DataFrame or LazyFrame (collected, read
        through Arrow), a pyarrow Table or RecordBatch, a dict of equally long
        arrays, a 2-D numpy array or ``scipy.sparse`` matrix (read without
        densifying it), a Dask DataFrame (profiled partition by partition on its
        cluster, ``naive-bayes-lint[dask]``), or the path of a CSV/TSV/Parquet file.
        Anything else raises ``TypeError``.
    y : array-like, optional
        The class of each row, scikit-learn style: ``nblint.check(X, y)``. It
        becomes the target column, named ``target``, else after the Series,
        else ``y``. (A string is read as ``target``.)
    target : str, optional
        Without ``y``: the name of the class column of ``data``.
    model : str, optional
        The Naive Bayes event model the table is meant for: ``"bernoulli"``,
        ``"multinomial"``, ``"complement"``, ``"gaussian"`` or ``"categorical"``, or
        its class name (``"BernoulliNB"``).
    feature_names : sequence of str, optional
        Column names of a numpy array or sparse matrix (default ``x0`` .. ``x{p-1}``).
    **kwargs
        ``select``, ``ignore`` (lists of codes or prefixes), ``options``
        (a mapping ``{"NB104": {"vif-threshold": 5}}``, ``vif_threshold`` too), ``alpha`` (the
        model's smoothing, when known), ``kinds`` (declared column kinds,
        ``{"season": "categorical", "pixel_*": "count"}``: they win over inference) and
        ``words`` (``True``: the features are a document-term block, a text vectorizer's
        output, read as one block of words whatever the vocabulary size; or the names of
        those columns). Without ``words`` a block is read from its shape and values;
        ``test`` (the test or serving table, of any kind ``data`` may be, a path too; a
        matrix takes ``data``'s column names) with ``y_test`` (its classes, optional: a
        serving table has none): what a model fitted on ``data`` meets there, the NB6xx
        rules (findings located at the test file, ``<test>`` in memory); and
        ``test_feature_names``, the columns of a test matrix made with a vocabulary of
        its own (a vectorizer fitted on the test documents): it is read through the
        training vocabulary, and NB606 counts the test tokens outside it.

    Returns
    -------
    Report
        The findings, with ``to_frame()``, ``to_json()``, ``to_html(path)`` and an
        HTML view in notebooks.
    """
    from nblint.core.collector import collector_paused

    # (a first call imports the API, the runner and the analyses: modules, classes and functions that live as
    # long as the process, which the cyclic collector would otherwise walk again and again as they are made)
    with collector_paused():
        from nblint.api.report import check as _check

    return _check(data, y, target=target, model=model, feature_names=feature_names, **kwargs)


def check_pipeline(pipeline, X=None, y=None, **kwargs):
    """Lint a live scikit-learn pipeline (or estimator), and what its model receives from ``X``.

    The pipeline is inspected by class and ``get_params()``; the NB5xx rules
    report on it (findings have ``path`` ``<pipeline>`` and no line). With ``X``,
    the table rules run on the table the final estimator receives, under the
    event model it declares (BernoulliNB: ``bernoulli``) and its ``alpha``:

    * a fitted pipeline: ``X`` through every step but the last (``transform``
      only, never ``fit``), column names from ``get_feature_names_out`` where the
      steps have it;
    * a search, calibration or one-vs-rest wrapper (``GridSearchCV``,
      ``RandomizedSearchCV``, ``HalvingGridSearchCV``, ``CalibratedClassifierCV``,
      ``OneVsRestClassifier``...): the pipeline it wraps, fitted or not (a fitted wrapper
      through the fitted copy it holds, such as ``best_estimator_``; ``refit=False`` through
      the pipeline it was given), under that copy's model and ``alpha``;
    * raw documents (a list, tuple, 1-D array or Series of strings) into text
      vectorizers (CountVectorizer, TfidfVectorizer, HashingVectorizer, then
      TfidfTransformer, or pipelines of them): fitted steps are applied, the others
      fitted on the documents as clones (``pipeline`` is never changed); the
      vocabulary names the columns (HashingVectorizer: ``hash_<bucket>``, empty
      buckets left out, said by NB106);
    * an estimator alone, or steps that do not change ``X``: ``X`` as given;
    * an unfitted pipeline whose steps would change ``X``: no table rule runs, and
      NB511 (info) names the steps nblint could not apply.

    Parameters
    ----------
    pipeline : sklearn.pipeline.Pipeline or estimator
        Any object with ``get_params``: a Pipeline, a meta-estimator such as
        GridSearchCV, or a Naive Bayes estimator on its own.
    X : table or array, optional
        The training features, of any kind :func:`check` accepts.
    y : array-like, optional
        The training classes (a target column named ``target``, else after the
        Series, else ``y``).
    **kwargs
        ``target``, ``select``, ``ignore`` and ``options``, as for :func:`check`;
        ``X_test`` and ``y_test``: the test rows (and their classes, optional), sent
        through the same steps as ``X`` (fitted steps transform; a text chain is the
        clone fitted on ``X``), so the NB6xx rules compare what the model sees.

    Returns
    -------
    Report
        Pipeline findings first, then the table's.
    """
    from nblint.api.report import check_pipeline as _check_pipeline

    return _check_pipeline(pipeline, X=X, y=y, **kwargs)
