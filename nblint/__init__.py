"""nblint: a data-quality linter for tables and pipeline configs fed to Naive Bayes.

The public Python API is :func:`check`, which lints a pandas DataFrame (or a
path) and returns a :class:`~nblint.report.Report`, and :func:`check_pipeline`,
which lints a live scikit-learn pipeline.  Heavy modules are imported lazily so
that ``import nblint`` stays cheap (it never imports pandera or scikit-learn).
"""

from __future__ import annotations

__version__ = "0.1.0"

__all__ = ["__version__", "check", "check_pipeline"]


def check(data, target=None, model=None, **kwargs):
    """Lint a table and return a :class:`~nblint.report.Report`.

    Parameters
    ----------
    data : pandas.DataFrame, dask.dataframe.DataFrame, str or os.PathLike
        The table, or the path of a CSV/TSV/Parquet file.  A Dask DataFrame is
        profiled partition by partition on its cluster (``nblint[dask]``).
    target : str, optional
        Name of the class column.
    model : {"bernoulli", "multinomial", "complement", "gaussian", "categorical"}, optional
        The Naive Bayes event model the table is meant for, or its class name
        (``"BernoulliNB"``).
    **kwargs
        ``select``, ``ignore`` (lists of codes or prefixes), ``options``
        (a mapping ``{"NB104": {"vif-threshold": 5}}``, ``vif_threshold`` too), ``alpha`` (the
        model's smoothing, when known) and ``kinds`` (declared column kinds,
        ``{"season": "categorical", "pixel_*": "count"}``: they win over inference).

    Returns
    -------
    Report
        The findings, with ``to_frame()`` and ``to_json()``.
    """
    from nblint.api import check as _check

    return _check(data, target=target, model=model, **kwargs)


def check_pipeline(pipeline, X=None, y=None, **kwargs):
    """Lint a live scikit-learn pipeline (or estimator), and its training data if given.

    The pipeline is inspected by class and ``get_params()``, never fitted or
    called; nblint does not import scikit-learn.  The NB5xx rules report on it
    (findings have ``path`` ``<pipeline>`` and no line).  With ``X``, the table
    rules also run on ``X`` (with ``y`` as the target), with the pipeline's
    Naive Bayes model as the declared model.

    Parameters
    ----------
    pipeline : sklearn.pipeline.Pipeline or estimator
        Any object with ``get_params``: a Pipeline, a meta-estimator such as
        GridSearchCV, or a Naive Bayes estimator on its own.
    X : pandas.DataFrame or array-like, optional
        The training features.
    y : pandas.Series or array-like, optional
        The training classes (a target column named after the Series, else ``y``).
    **kwargs
        ``select``, ``ignore`` and ``options``, as for :func:`check`.

    Returns
    -------
    Report
        Pipeline findings first, then the table's.
    """
    from nblint.api import check_pipeline as _check_pipeline

    return _check_pipeline(pipeline, X=X, y=y, **kwargs)
