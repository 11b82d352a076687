"""nblint: a data-quality linter for tables and pipeline configs fed to Naive Bayes.

The public Python API is :func:`check`, which lints a pandas DataFrame (or a
path) and returns a :class:`~nblint.report.Report`.  Heavy modules are imported
lazily so that ``import nblint`` stays cheap (and never imports pandera).
"""

from __future__ import annotations

__version__ = "0.1.0"

__all__ = ["__version__", "check"]


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
        The Naive Bayes event model the table is meant for.
    **kwargs
        ``select``, ``ignore`` (lists of codes or prefixes), ``options``
        (a mapping ``{"NB104": {"vif-threshold": 5}}``) and ``alpha`` (the
        model's smoothing, when known).

    Returns
    -------
    Report
        The findings, with ``to_frame()`` and ``to_json()``.
    """
    from nblint.api import check as _check

    return _check(data, target=target, model=model, **kwargs)
