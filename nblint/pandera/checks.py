"""nblint's table rules as pandera check methods: their names, their registration, and a rule run on a frame.

Each installed table rule is a dataframe check (``nblint_nb101``, ...) and a one-hot group's
columns summing to one a row check (``nblint_sum_to_one``); :func:`register` registers them
with pandera, and the checks of one validation share the frame's profiles (pandera's
dataframe backends are wrapped so that one validation is one scope).
"""

from __future__ import annotations

import contextvars
import functools
import inspect
import warnings
from contextlib import contextmanager
from typing import Any

import pandas as pd
from pandera.api.checks import Check
from pandera.errors import SchemaDefinitionError, SchemaError, SchemaWarning
from pandera.extensions import register_check_method

from nblint.core.errors import ConfigError, NblintError
from nblint.engine import load_rules
from nblint.run.config import parse_settings

CHECK_PREFIX = "nblint_"
#: The row-level structure check: a one-hot group's columns sum to one.
SUM_TO_ONE = "nblint_sum_to_one"
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


def option_statistic(option_name: str) -> str:
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
    options = {option_statistic(opt.name): opt for opt in rule.options}
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


def share_profiles_within_validations() -> None:
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
    from nblint.run.tables import open_table

    if isinstance(data, pd.DataFrame):
        return open_table(data)[0]
    lazyframe = getattr(data, "lazyframe", None)  # pandera.api.polars.types.PolarsData
    if lazyframe is not None:
        return open_table(lazyframe)[0]  # (collected, read through Arrow)
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
