"""nblint's table rules as pandera checks, and pandera schemas written for a table.

Importing this module registers, with :func:`pandera.extensions.register_check_method`,
one dataframe check per installed table rule and one row-level structure check:

* ``nblint_nb101``, ``nblint_nb102``, ... (:func:`check_name` of each rule code):
  runs that rule on the validated frame.  Statistics: ``target``, ``model``,
  ``kinds`` (declared column kinds, as ``[tool.nblint.columns]``) and
  the rule's options in snake case (``vif_threshold`` for NB104's
  ``vif-threshold``), all optional.  When the rule finds something the check
  fails with an ordinary :class:`pandera.errors.SchemaError` whose ``check.name``
  is the check name (:func:`rule_code` maps it back to the code) and whose
  message is ``CODE name: <the finding's message>``.  With pandera's
  ``raise_warning=True`` the same text is a :class:`pandera.errors.SchemaWarning`
  instead and validation goes on.
* ``nblint_sum_to_one(columns=[...])``: the columns of a one-hot group sum to
  exactly one on every row.  A vectorised row check, so pandera's failure cases
  are the rows that break the group (NB103's finding).

For a new table (a test or serving table, issue 38), :func:`schema_for_new_rows` writes a
schema from the *training* table's profile with pandera's own checks only: ``isin`` of the
training levels per discrete column (a level never seen in training is a failure case) and
``in_range`` per measurement column (a value out of the training support, see
:data:`SUPPORT_SDS`, is one).

They are used like pandera's own checks, in a ``DataFrameSchema``::

    import nblint.pandera  # registers the checks
    import pandera.pandas as pa

    schema = pa.DataFrameSchema(checks=[pa.Check.nblint_nb101(target="y", model="bernoulli")])

or in a ``DataFrameModel``'s ``Config`` (``nblint_nb101 = {"target": "y"}``), and
they round-trip through ``schema.to_yaml()`` / ``DataFrameSchema.from_yaml``.
pandera resolves a check by its registered name when it reads YAML, so a schema
that uses these checks must be loaded after ``import nblint.pandera`` — pandera
refuses it otherwise (``AttributeError``, "Make sure any custom checks have been
registered") — which :func:`load_schema` guarantees.

One profile per validation: the nblint checks of one ``validate`` call share the
table's profile (the one pass over every row), however many of them the schema
holds; each still runs its own rule with its own statistics.  pandera's
dataframe backends are wrapped on import so that their ``run_checks`` (the checks
of one validation, run on one frame) opens a scope that holds the profiles.

Backends: pandas DataFrames (pandera's pandas API) and polars DataFrames and
LazyFrames (``pandera.polars``).  Under polars, pandera turns any exception
raised by a check into a ``check_error``, so a failing rule check is reported as
pandera's "Error while executing check function" whose text carries the
finding; ``raise_warning`` and ``nblint_sum_to_one`` behave as under pandas.
"""

from __future__ import annotations

import contextvars
import functools
import inspect
import warnings
from contextlib import contextmanager
from typing import Any

import pandas as pd
import pandera.pandas as pa
from pandera.api.checks import Check
from pandera.errors import SchemaDefinitionError, SchemaError, SchemaWarning
from pandera.extensions import register_check_method

from nblint.core.errors import ConfigError, NblintError
from nblint.core.version import __version__
from nblint.engine import load_rules
from nblint.engine.findings import Severity
from nblint.run.config import parse_settings

__all__ = [
    "SUPPORT_SDS",
    "SUM_TO_ONE",
    "check_name",
    "load_schema",
    "register",
    "rule_code",
    "schema_for_new_rows",
    "schema_for_table",
    "read_frame",
    "schema_yaml",
    "table_rules",
]

CHECK_PREFIX = "nblint_"
#: The row-level structure check: a one-hot group's columns sum to one.
SUM_TO_ONE = "nblint_sum_to_one"
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
#: Every registered rule check takes these statistics before the rule's own options.
#: ``kinds`` are declared column kinds (column name or glob -> kind), as ``[tool.nblint.columns]``.
COMMON_STATISTICS = ("target", "model", "kinds")


def check_name(code: str) -> str:
    """The pandera check name of a rule: ``NB101`` -> ``nblint_nb101``."""
    return CHECK_PREFIX + code.lower()


def rule_code(check: Any) -> str | None:
    """The rule code behind a pandera check, its name, or a :class:`SchemaError` raised by it.

    Parameters
    ----------
    check : pandera.Check or str or pandera.errors.SchemaError

    Returns
    -------
    str or None
        ``"NB101"`` for ``nblint_nb101``, ``"NB103"`` for ``nblint_sum_to_one``,
        None for a check that is not nblint's.
    """
    if isinstance(check, SchemaError):
        check = check.check
    name = check if isinstance(check, str) else getattr(check, "name", None)
    if not isinstance(name, str) or not name.startswith(CHECK_PREFIX):
        return None
    if name == SUM_TO_ONE:  # the rule that declares the row check (a broken one-hot group)
        row_check = SUM_TO_ONE[len(CHECK_PREFIX) :]
        return next((code for code, rule in load_rules().items() if row_check in getattr(rule, "row_checks", ())), None)
    code = name[len(CHECK_PREFIX) :].upper()
    return code if code in load_rules() else None


def table_rules() -> dict:
    """The installed rules that read tables, by code.

    A rule reads tables unless it declares an ``inputs`` attribute without
    ``"table"`` (a pipeline-config rule), so packs need no second registry. The rules that
    compare a table with its test table (``reads_test_table``, NB6xx) have nothing to say of
    one table alone: a schema leaves them out (:func:`schema_for_new_rows` checks new rows).
    """
    return {
        code: rule
        for code, rule in load_rules().items()
        if "table" in getattr(rule, "inputs", ("table",)) and not getattr(rule, "reads_test_table", False)
    }


def _option_statistic(option_name: str) -> str:
    return option_name.replace("-", "_")


class _Context:
    """Links a registered check's function to the :class:`~pandera.Check` built around it.

    pandera passes the extra keyword arguments of a registered check method on
    to the check function; this one carries the Check itself, so the function
    can read the Check's ``raise_warning`` (which pandera may set after
    construction, as ``from_yaml`` does) and attach the Check to the error it
    raises.  Contexts compare equal, so checks still compare by statistics and
    options (a schema equals its YAML round trip).
    """

    __slots__ = ("check",)

    def __init__(self) -> None:
        self.check = None

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Context)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return "<nblint check context>"


def _with_context(factory):
    """Wrap pandera's factory for a registered check so each Check gets a :class:`_Context`."""

    def make(*args, **kwargs):
        # Options may be spelt as in the configuration (``vif-threshold``, e.g. in a YAML schema).
        kwargs = {key.replace("-", "_"): value for key, value in kwargs.items()}
        context = _Context()
        check = factory(*args, nblint_context=context, **kwargs)
        context.check = check
        return check

    functools.update_wrapper(make, factory, assigned=("__doc__",), updated=())  # (also sets __wrapped__)
    return make


def _make_rule_check(rule):
    """The check function for one rule, with the signature pandera reads statistics from."""
    options = {_option_statistic(opt.name): opt for opt in rule.options}
    statistics = [*COMMON_STATISTICS, *options]

    def rule_check(data, **kwargs):
        context = kwargs.pop("nblint_context", None)
        return _run_rule(rule, options, data, kwargs, context)

    name = check_name(rule.code)
    rule_check.__name__ = rule_check.__qualname__ = name
    rule_check.__doc__ = f"{rule.code} {rule.name}: {rule.summary()}"
    parameters = [inspect.Parameter("data", inspect.Parameter.POSITIONAL_ONLY)]
    parameters += [inspect.Parameter(s, inspect.Parameter.KEYWORD_ONLY, default=None) for s in statistics]
    parameters.append(inspect.Parameter("nblint_context", inspect.Parameter.KEYWORD_ONLY, default=None))
    # inspect.signature reads this attribute; mypy types a function without it
    rule_check.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    return rule_check, statistics


def register() -> list[str]:
    """Register every table rule (and :data:`SUM_TO_ONE`) as a pandera check method.

    Safe to call again: checks already registered are kept, rules of packs
    installed since are added.  Runs on import of this module.

    Returns
    -------
    list of str
        The nblint check names now registered.
    """
    registry = Check.REGISTERED_CUSTOM_CHECKS
    names = []
    for rule in table_rules().values():
        name = check_name(rule.code)
        names.append(name)
        if name in registry:
            continue
        function, statistics = _make_rule_check(rule)
        register_check_method(function, statistics=statistics, supported_types=pd.DataFrame)
        registry[name] = _with_context(registry[name])
    if SUM_TO_ONE not in registry:
        register_check_method(_sum_to_one, statistics=["columns"], supported_types=pd.DataFrame)
    names.append(SUM_TO_ONE)
    return names


# --------------------------------------------------------------------------- running a rule


#: The sources (with their profiles) of the validation under way: frame id -> (frame, source).
_VALIDATION: contextvars.ContextVar[dict | None] = contextvars.ContextVar("nblint_validation", default=None)


@contextmanager
def _one_profile_per_validation():
    """Share each frame's source, and so its profiles, among the checks run meanwhile."""
    token = _VALIDATION.set({})
    try:
        yield
    finally:
        _VALIDATION.reset(token)


def _scoped(run_checks):
    @functools.wraps(run_checks)
    def run_checks_sharing_profiles(self, *args, **kwargs):
        with _one_profile_per_validation():
            return run_checks(self, *args, **kwargs)

    # a mark on the function itself (so a reload never wraps twice); mypy types a function without it
    run_checks_sharing_profiles.nblint_scoped = True  # type: ignore[attr-defined]
    return run_checks_sharing_profiles


def _share_profiles_within_validations() -> None:
    """Wrap the ``run_checks`` of pandera's pandas and polars dataframe backends (once).

    A backend without that method keeps working unwrapped: each check then
    profiles the frame itself, as before.
    """
    backends: list[type] = []
    from pandera.backends.pandas.container import DataFrameSchemaBackend

    backends.append(DataFrameSchemaBackend)
    try:
        from pandera.backends.polars.container import DataFrameSchemaBackend as PolarsBackend
    except ImportError:  # pragma: no cover - polars not installed
        pass
    else:
        backends.append(PolarsBackend)
    for backend in backends:
        method = backend.__dict__.get("run_checks")
        if method is not None and not getattr(method, "nblint_scoped", False):
            # patching pandera's backend class in place (the docstring says why): no type describes that
            backend.run_checks = _scoped(method)  # type: ignore[attr-defined]


def _source(data) -> tuple[Any, dict | None]:
    """An nblint table source for what pandera hands a dataframe check, and its profiles.

    Within one validation (:func:`_one_profile_per_validation`) the checks get the
    same source for the same frame and the same profile cache
    (:data:`nblint.run.runner.ProfileCache`), so the frame is profiled once per target.
    """
    frame = getattr(data, "lazyframe", data)  # pandera.api.polars.types.PolarsData holds a LazyFrame
    shared = _VALIDATION.get()
    if shared is not None and id(frame) in shared:
        return shared[id(frame)][1:]
    source = _new_source(data)
    if shared is None:
        return source, None
    # (The frame is kept with its source, so its id cannot be reused meanwhile.)
    shared[id(frame)] = (frame, source, {})
    return shared[id(frame)][1:]


def _new_source(data):
    from nblint.readers import ArrowSource, DataFrameSource

    if isinstance(data, pd.DataFrame):
        return DataFrameSource(data)
    lazyframe = getattr(data, "lazyframe", None)  # pandera.api.polars.types.PolarsData
    if lazyframe is not None:
        return ArrowSource("<dataframe>", lazyframe.collect().to_arrow())
    raise SchemaDefinitionError(f"nblint checks validate pandas or polars data frames, not {type(data).__name__}")


def _settings(rule, options: dict, statistics: dict):
    table: dict[str, Any] = {k: statistics[k] for k in ("target", "model") if statistics.get(k) is not None}
    if statistics.get("kinds") is not None:
        table["columns"] = dict(statistics["kinds"])
    given = {opt.name: statistics[s] for s, opt in options.items() if statistics.get(s) is not None}
    if given:
        table[rule.code] = given
    try:
        settings = parse_settings(table)
    except ConfigError as exc:
        raise SchemaDefinitionError(f"{check_name(rule.code)}: {exc}") from None
    if rule.needs_target and settings.target is None:
        raise SchemaDefinitionError(f"{check_name(rule.code)}: {rule.code} needs the target column: pass target=...")
    return settings


def _run_rule(rule, options: dict, data, statistics: dict, context: _Context | None):
    from nblint.run.runner import lint_source

    settings = _settings(rule, options, statistics)
    check = context.check if context is not None else None
    try:
        source, profiles = _source(data)
        findings = lint_source(source, settings, [rule.code], profiles=profiles)
    except NblintError as exc:
        message = f"{rule.code} {rule.name}: cannot check the table: {exc}"
        raise SchemaError(None, data, message, failure_cases=_failure_cases([message]), check=check) from None
    if not findings:
        return True
    lines = [f"{f.code} {f.name}: {f.message}" for f in findings]
    message = "\n".join(lines)
    if check is not None and check.raise_warning:
        warnings.warn(message, SchemaWarning, stacklevel=2)
        return True
    raise SchemaError(None, data, message, failure_cases=_failure_cases(lines), check=check)


def _failure_cases(lines: list[str]) -> pd.DataFrame:
    """One failure case per finding, in the shape pandera's pandas backend collects."""
    return pd.DataFrame({"index": [None] * len(lines), "failure_case": lines})


def _sum_to_one(data, *, columns):
    """True on the rows where the 0/1 columns ``columns`` sum to exactly one."""
    columns = list(columns)
    lazyframe = getattr(data, "lazyframe", None)
    if lazyframe is not None:
        import polars as pl

        return lazyframe.select((pl.sum_horizontal([pl.col(c) for c in columns]) == 1).alias(SUM_TO_ONE))
    return data[columns].sum(axis=1) == 1


_sum_to_one.__name__ = _sum_to_one.__qualname__ = SUM_TO_ONE


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
    settings : nblint.run.config.Settings
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
    from nblint.readers import read_table
    from nblint.run.runner import make_context

    source = read_table(path, encoding=settings.encoding)
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
            statistics[_option_statistic(option.name)] = context.rule_options[code][option.name]
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
    settings : nblint.run.config.Settings, optional
        Resolved settings of the training table (from the command line); overrides ``target``.
    support_sds : float
        ``k`` above.

    Returns
    -------
    pandera.pandas.DataFrameSchema
    """
    import numpy as np

    from nblint.readers import DataFrameSource, TableSource
    from nblint.run.config import Settings
    from nblint.run.runner import make_context

    source: TableSource
    if isinstance(data, pd.DataFrame):
        settings = settings or Settings(target=target)
        source, name = DataFrameSource(data), "new_rows"
    else:
        from nblint.readers import read_table
        from nblint.run.runner import Overrides, settings_for

        settings = settings or settings_for(data, Overrides(target=target), {})
        source, name = read_table(data, encoding=settings.encoding), _schema_name(data)
    ctx = make_context(source, settings, jobs=1)
    profile, numeric = ctx.profile, ctx.profile.numeric
    classes = len(profile.classes)
    # class slots: each class of the target, or the one slot of every row without a target
    slots = slice(0, classes) if profile.target is not None and classes else slice(classes, classes + 1)
    columns: dict[str, pa.Column] = {}
    for column in profile.features:
        kind = str(ctx.kinds[column].kind)
        nullable = bool(profile.n_missing(column))
        if kind in LEVEL_KINDS:
            levels = profile.levels(column)
            if levels is None:
                description = "levels not checked: more distinct values than the profile keeps exactly"
                columns[column] = pa.Column(required=True, nullable=nullable, description=description)
                continue
            present = sorted(key for key, total in zip(levels.keys, levels.totals) if total)
            if column not in profile.text:  # numbers as the table writes them: whole ones as int
                integral = numeric.integral[numeric.names.index(column)]
                present = [int(v) if integral else float(v) for v in present]
            columns[column] = pa.Column(required=True, nullable=nullable, checks=[Check.isin(present)])
        elif kind in MEASUREMENT_KINDS and column not in profile.text:
            j = numeric.names.index(column)
            n = numeric.class_n[slots, j]
            seen = n > 0
            mean = numeric.class_mean[slots, j][seen]
            sd = np.sqrt(numeric.class_m2[slots, j][seen] / n[seen])
            low = float(min(numeric.minimum[j], np.min(mean - support_sds * sd)))
            high = float(max(numeric.maximum[j], np.max(mean + support_sds * sd)))
            columns[column] = pa.Column(required=True, nullable=nullable, checks=[Check.in_range(low, high)])
    if profile.target is not None:
        allowed_classes = [c.item() if hasattr(c, "item") else c for c in profile.classes]
        columns[profile.target] = pa.Column(required=False, nullable=True, checks=[Check.isin(allowed_classes)])
    return pa.DataFrameSchema(columns, name=f"{name}_new_rows", strict=False)


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


register()
_share_profiles_within_validations()
