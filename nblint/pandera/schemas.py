"""pandera schemas written for a table: nblint's checks for it, and a new table's rows checked against it.

:func:`schema_for_table` writes the schema of ``nblint schema`` (the table's columns, its
one-hot groups as row checks, each enabled rule as its dataframe check);
:func:`schema_for_new_rows` checks a test or serving table against the training table's
profile with pandera's own checks; :func:`schema_yaml` and :func:`load_schema` write and
read them (the checks registered first).
"""

from __future__ import annotations

from typing import Any

import pandas as pd
import pandera.pandas as pa
from pandera.api.checks import Check

from nblint.core.version import __version__
from nblint.engine.findings import Severity
from nblint.pandera.checks import check_name, option_statistic, register, table_rules

#: How far a new measurement may lie from the training values before it is out of support: a value
#: fails when it is outside the training minimum and maximum *and* more than this many standard
#: deviations from every class's training mean. A Gaussian feature's log-likelihood there is below
#: -SUPPORT_SDS**2 / 2 = -18 nats for every class, enough to outvote every other feature of the row
#: alone; nearer values are what a Gaussian's tails are for.
SUPPORT_SDS = 6.0
#: Column kinds whose values are levels for a Naive Bayes model (categorical or Bernoulli features):
#: a new table's value must be one of the training levels.
LEVEL_KINDS = ("binary", "group-member", "categorical", "constant")
#: Column kinds read as measurements (Gaussian, or counts): a new value must lie within the support.
MEASUREMENT_KINDS = ("continuous", "count")


# --------------------------------------------------------------------------- schemas


def schema_for_table(path: str, settings, codes: list[str]) -> pa.DataFrameSchema:
    """A pandera schema for the table at ``path``.

    Columns get the dtype and nullability pandas reads them with; each one-hot
    group nblint finds becomes a :data:`SUM_TO_ONE` check; each enabled table
    rule becomes its dataframe check with the file's target, model and resolved
    options as statistics.  Rules below error severity are written with
    ``raise_warning=True``, so the schema validates the table it was written
    for and fails when the data gets worse (a broken group, an error-level
    finding); rules that need a target are left out when there is none.

    Parameters
    ----------
    path : str
        A CSV/TSV/gzip CSV/Parquet file.
    settings : nblint.run.config.FileSettings
        The file's resolved settings (target, model, rule options, encoding).
    codes : list of str
        The enabled rule codes.

    Returns
    -------
    pandera.pandas.DataFrameSchema

    Raises
    ------
    nblint.core.errors.NblintError
        When the file cannot be read as a table.
    """
    from nblint.run.runner import make_context
    from nblint.run.tables import open_table

    source, _ = open_table(path, encoding=settings.encoding)
    context = make_context(source, settings, jobs=1)
    frame = read_frame(path, encoding=settings.encoding)
    columns = {name: pa.Column(frame[name].dtype, nullable=bool(frame[name].isna().any())) for name in source.names}
    checks = [Check.nblint_sum_to_one(columns=list(group.members)) for group in context.structure.onehot]
    rules = table_rules()
    for code in codes:
        rule = rules.get(code)
        if rule is None or (rule.needs_target and settings.target is None):
            continue
        statistics: dict[str, Any] = {}
        if settings.target is not None:
            statistics["target"] = settings.target
        if settings.model is not None:
            statistics["model"] = settings.model
        if settings.kinds:
            statistics["kinds"] = dict(settings.kinds)  # the configuration's declared kinds travel with the schema
        for option in rule.options:
            statistics[option_statistic(option.name)] = context.rule_options[code][option.name]
        factory = getattr(Check, check_name(code))
        checks.append(factory(**statistics, raise_warning=rule.severity < Severity.ERROR))
    return pa.DataFrameSchema(columns, checks=checks, name=_schema_name(path))


def schema_for_new_rows(data, target: str | None = None, *, settings=None, support_sds: float = SUPPORT_SDS):
    """A pandera schema that checks a new table (test or serving rows) against a training table's profile.

    Built from one profile of the training table (:class:`~nblint.profile.table.TableProfile`)
    with pandera's built-in checks, so it validates without nblint and round-trips through YAML:

    * each discrete feature (binary, group member, categorical, constant) gets
      ``Check.isin(training levels)``: a new row's level never seen in training is a
      failure case (column, value, row). A column whose levels the profile could not keep
      exactly (over its distinct-value cap) gets no ``isin`` (said in the column's description);
    * each measurement (continuous or count) gets ``Check.in_range(low, high)`` with

          low  = min(min_i x_i, min_c (mu_c - k sigma_c))
          high = max(max_i x_i, max_c (mu_c + k sigma_c)),

      ``mu_c``, ``sigma_c`` the class's training mean and standard deviation (GaussianNB's,
      ``ddof=0``), ``k`` = ``support_sds`` (:data:`SUPPORT_SDS`): the values within ``k``
      standard deviations of some class mean, and the training range itself (each class's
      interval contains its own mean, which lies inside the training range, so their union
      with the range is this one interval). A column constant within every class
      (``sigma_c = 0``) allows only its training range.
    * the target, where given, is optional (a serving table has none) and ``isin`` its
      training classes.

    Every training feature column is required (a missing one is pandera's column error);
    missing values are allowed where training had them. Identifiers and text are not checked.

    Parameters
    ----------
    data : str or pandas.DataFrame
        The training table: a file nblint reads, or a frame.
    target : str, optional
        The class column (for a path, the configuration's target is used when not given).
    settings : nblint.run.config.FileSettings, optional
        Resolved settings of the training table (from the command line); overrides ``target``.
    support_sds : float
        ``k`` above.

    Returns
    -------
    pandera.pandas.DataFrameSchema
    """
    from nblint.run.config import FileSettings
    from nblint.run.runner import make_context
    from nblint.run.tables import open_table

    if isinstance(data, pd.DataFrame):
        settings = settings or FileSettings(target=target)
        name = "new_rows"
    else:
        from nblint.run.overrides import Overrides
        from nblint.run.runner import settings_for

        settings = settings or settings_for(data, Overrides(target=target), {})
        name = _schema_name(data)
    source, _ = open_table(data, encoding=settings.encoding)
    ctx = make_context(source, settings, jobs=1)
    profile = ctx.profile
    classes = len(profile.classes)
    # class slots: each class of the target, or the one slot of every row without a target
    slots = slice(0, classes) if profile.target is not None and classes else slice(classes, classes + 1)
    columns: dict[str, pa.Column] = {}
    for column in profile.features:
        checked = _new_row_column(ctx, column, slots, support_sds)
        if checked is not None:
            columns[column] = checked
    if profile.target is not None:
        allowed_classes = [c.item() if hasattr(c, "item") else c for c in profile.classes]
        columns[profile.target] = pa.Column(required=False, nullable=True, checks=[Check.isin(allowed_classes)])
    return pa.DataFrameSchema(columns, name=f"{name}_new_rows", strict=False)


def _new_row_column(ctx, column: str, slots: slice, support_sds: float) -> pa.Column | None:
    """A training feature's column of :func:`schema_for_new_rows`: its levels, or its support; None: not checked."""
    import numpy as np

    profile, numeric = ctx.profile, ctx.profile.numeric
    kind = str(ctx.kinds[column].kind)
    nullable = bool(profile.n_missing(column))
    if kind in LEVEL_KINDS:
        levels = profile.levels(column)
        if levels is None:
            description = "levels not checked: more distinct values than the profile keeps exactly"
            return pa.Column(required=True, nullable=nullable, description=description)
        present = sorted(key for key, total in zip(levels.keys, levels.totals) if total)
        if column not in profile.text:  # numbers as the table writes them: whole ones as int
            integral = numeric.integral[numeric.names.index(column)]
            present = [int(v) if integral else float(v) for v in present]
        return pa.Column(required=True, nullable=nullable, checks=[Check.isin(present)])
    if kind in MEASUREMENT_KINDS and column not in profile.text:
        j = numeric.names.index(column)
        n = numeric.class_n[slots, j]
        seen = n > 0
        mean = numeric.class_mean[slots, j][seen]
        sd = np.sqrt(numeric.class_m2[slots, j][seen] / n[seen])
        low = float(min(numeric.minimum[j], np.min(mean - support_sds * sd)))
        high = float(max(numeric.maximum[j], np.max(mean + support_sds * sd)))
        return pa.Column(required=True, nullable=nullable, checks=[Check.in_range(low, high)])
    return None


def read_frame(path: str, encoding: str = "utf-8") -> pd.DataFrame:
    """Read a table with pandas the way a user validating it would.

    ``pandas.read_csv`` (tab-separated for ``.tsv``/``.tab``, gzip by suffix),
    ``pandas.read_parquet``, or pyarrow's Arrow IPC readers (Feather, an IPC file
    or stream) through ``to_pandas``: the dtypes a written schema expects are
    the ones this gives.

    Parameters
    ----------
    path : str
    encoding : str, default "utf-8"

    Returns
    -------
    pandas.DataFrame
    """
    from nblint.readers import TableFormat, table_format
    from nblint.readers.excel import is_excel_path, spool_sheet

    if is_excel_path(path):  # the first sheet, as nblint check reads it (its CSV export)
        with spool_sheet(path) as spool:
            return pd.read_csv(spool.name)
    form = table_format(path) or TableFormat("csv")
    if form.kind == "parquet":
        return pd.read_parquet(path)
    if form.kind == "arrow":
        from nblint.readers.ipc import read_arrow_table

        return read_arrow_table(path).to_pandas()
    return pd.read_csv(path, sep=form.delimiter, encoding=encoding)


def _schema_name(path: str) -> str:
    import os

    from nblint.readers.excel import EXCEL_SUFFIXES
    from nblint.readers.formats import TABLE_SUFFIXES

    name = os.path.basename(path)
    for suffix in TABLE_SUFFIXES + EXCEL_SUFFIXES:
        if name.lower().endswith(suffix):
            return name[: -len(suffix)]
    return name


SCHEMA_HEADER = (
    "# pandera DataFrameSchema written by nblint {version} for {path}.\n"
    "# It uses nblint's registered checks (nblint_*): load it with\n"
    '#   nblint.pandera.load_schema("schema.yaml")\n'
    "# or `import nblint.pandera` before pandera's from_yaml.\n"
)


def schema_yaml(schema: pa.DataFrameSchema, path: str) -> str:
    """The schema as YAML text with a header saying how to load it (deterministic)."""
    text = schema.to_yaml()
    assert text is not None  # pandera returns the text when given no stream to write it to
    return SCHEMA_HEADER.format(version=__version__, path=path.replace("\\", "/")) + text


def load_schema(source) -> pa.DataFrameSchema:
    """Read a pandera schema (YAML file or text) that uses nblint's checks.

    Registers the checks first, which pandera needs to resolve them: without
    that, pandera's ``from_yaml`` refuses the schema with an ``AttributeError``.

    Parameters
    ----------
    source : str or os.PathLike
        A path to a YAML file, or YAML text.

    Returns
    -------
    pandera.pandas.DataFrameSchema
    """
    import os
    from pathlib import Path

    register()
    if isinstance(source, os.PathLike) or (isinstance(source, str) and "\n" not in source and os.path.exists(source)):
        source = Path(source)
    return pa.DataFrameSchema.from_yaml(source)
