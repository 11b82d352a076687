"""The test kit: a table's analysis context, built the way ``nblint check`` builds it.

Tests that look inside the analyses (kinds, structure, VIF, the impact design) need a
:class:`~nblint.analysis.context.TableContext`. :func:`context` is the one way to get one:
it goes through the run's factory (:func:`nblint.run.runner.make_context`), so a test sees
the settings, the profile and the document-term reading a run would, never a context
assembled by hand that a run could not produce::

    from nblint import testing

    ctx = testing.context(frame, target="y", model="bernoulli")
    ctx.structure.onehot
"""

from __future__ import annotations

from typing import Any


def context(
    data: Any,
    y: Any = None,
    *,
    target: str | None = None,
    model: str | None = None,
    alpha: float | None = None,
    options: dict[str, dict[str, Any]] | None = None,
    kinds: dict[str, str] | None = None,
    jobs: int = 1,
    **source_options: Any,
):
    """The analysis context of one table, as a run builds it.

    Parameters
    ----------
    data
        Anything the Python API lints (:data:`nblint.readers.memory.ACCEPTED`: a pandas or polars
        DataFrame, a numpy array, a sparse matrix, ...) or a
        :class:`~nblint.readers.TableSource` (a ``DataFrameSource(frame, chunk_rows=7)`` to
        profile a table in chunks).
    y : array-like, optional
        The class of each row, as ``nblint.check`` takes it.
    target : str, optional
        The class column (with ``y``: the name to give it).
    model : str, optional
        The declared event model (a name of :data:`nblint.core.models.MODELS`).
    alpha : float, optional
        The model's smoothing, when known.
    options : dict, optional
        Rule options by code (``{"NB106": {"wide-columns": 100}}``), shared ones included.
    kinds : dict, optional
        Declared column kinds (column name or glob -> kind).
    jobs : int
        Chunks profiled at once (the profile is the same, bit for bit, for every number).
    **source_options
        Passed to :func:`nblint.run.tables.open_table` (``feature_names``, ``words``, ...).

    Returns
    -------
    nblint.analysis.context.TableContext
    """
    from nblint.readers import TableSource
    from nblint.run.config import FileSettings
    from nblint.run.runner import make_context
    from nblint.run.tables import open_table

    if isinstance(data, TableSource):
        source = data
    else:
        source, target = open_table(data, y, target=target, **source_options)
    settings = FileSettings(
        target=target, model=model, alpha=alpha, rule_options=dict(options or {}), kinds=dict(kinds or {})
    )
    return make_context(source, settings, jobs=jobs)
