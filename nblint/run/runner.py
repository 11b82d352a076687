"""Lint a run of paths: expand folders, resolve each file's settings, collect results.

Exit status of a run (documented in docs/cli.md): 2 if any input or config could
not be read (the other files are still linted and reported), else 1 if any
finding is at or above its file's ``fail-on`` severity, else 0.

Tables and pipeline configs are linted in one run.  Configs are read first,
because an nblint spec can name its data file, which is then linted too (right
after the spec).  A table's target, model and smoothing come, in order, from
the command line, the nblint configuration (per-file settings, then the
top-level keys), and only then from the spec naming the table.  A pipeline
config that does not name a table never changes it, so a table gives the same
findings whatever else is in the run (pre-commit groups files as it likes).
"""

from __future__ import annotations

import os
import sys
from functools import partial
from typing import TYPE_CHECKING, Any

from nblint.analysis.context import TableContext
from nblint.core.blas import blas_scope
from nblint.core.collector import collector_paused
from nblint.core.errors import ConfigError, NblintError
from nblint.core.resources import MemoryBudget, resource_error
from nblint.engine import resolved_options, run_rules, shared_settings
from nblint.engine.findings import Finding, Severity
from nblint.profile.table import TableProfile
from nblint.readers import TableSource
from nblint.run.config import FileSettings, find_config, load_config
from nblint.run.tables import TestError, open_table, open_test

if TYPE_CHECKING:
    from nblint.core.progress import ProgressBar
    from nblint.pipelines import ConfigFile, PipelineSpec
    from nblint.run.overrides import Overrides
    from nblint.run.pairing import TestComparison


# (The run's records are plain classes: a dataclass exec's its generated methods when this module is imported,
# which an API user's first check pays too.)
class FileResult:
    """What one input produced: findings, or an error line."""

    def __init__(self, path: str, findings=None, error: str | None = None, fail_on: Severity = Severity.WARNING):
        self.path = path
        self.findings: list[Finding] = [] if findings is None else findings
        self.error = error
        self.fail_on = fail_on


class RunResult:
    """What a run produced: each input's result, and the run's warning lines."""

    def __init__(self, files: list[FileResult], warnings: list[str] | None = None):
        self.files = files
        self.warnings: list[str] = [] if warnings is None else warnings

    @property
    def findings(self) -> list[Finding]:
        return [f for r in self.files for f in r.findings]

    @property
    def errors(self) -> list[FileResult]:
        return [r for r in self.files if r.error]

    def exit_code(self, exit_zero: bool = False) -> int:
        if self.errors:
            return 2
        if exit_zero:
            return 0
        failing = any(f.severity >= r.fail_on for r in self.files for f in r.findings)
        return 1 if failing else 0


#: Overrides that steer the run, not a file's settings.
_RUN_ONLY = ("config", "sheet", "allow_outside_data")


def settings_for(path: str, overrides: Overrides, cache: dict) -> FileSettings:
    """The settings of one file: its config (found or given), per-file globs, then the command line."""
    config_path = overrides.config or find_config(path if path != "-" else os.getcwd())
    if config_path is None:
        base = FileSettings()
    else:
        if config_path not in cache:
            try:
                cache[config_path] = load_config(config_path)
            except ConfigError as exc:
                cache[config_path] = ConfigError(f"{config_path}: error: {exc}")
        base = cache[config_path]
        if isinstance(base, ConfigError):
            raise base
    resolved = base.for_file(path)
    extend = {"extend_select": "select", "extend_ignore": "ignore"}
    changes = {k: v for k, v in vars(overrides).items() if v is not None and k not in _RUN_ONLY and k not in extend}
    if overrides.test is not None:
        changes["test_named_by"], changes["test_line"] = None, None  # (given on the command line: read where it is)
    resolved = resolved.replace(**changes)
    for option, key in extend.items():
        if getattr(overrides, option):
            resolved = resolved.replace(**{key: getattr(resolved, key) + getattr(overrides, option)})
    return resolved


def default_jobs() -> int:
    """Every core this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


#: Most threads --jobs is taken to ask for: each holds a chunk in flight, so this bounds memory too.
MAX_JOBS = 256


#: Profiles of one table kept across runs with other rules or models (pandera's checks of one
#: validation): by target, the width setting and the memory budget, all a profile depends on.
ProfileCache = dict[tuple[Any, ...], TableProfile]


def make_context(
    source: TableSource,
    settings: FileSettings,
    jobs: int | None = None,
    profiles: ProfileCache | None = None,
    rows: Any = None,
) -> TableContext:
    """Profile one table (one pass, ``jobs`` chunks at a time) and wrap it in the context the rules share.

    ``profiles``, when given, keeps the profile for the next context of the same table;
    ``rows``, an accumulator fed the same pass (:meth:`TableProfile.from_source`), only when
    that pass is made here.
    """
    jobs = min(jobs or default_jobs(), MAX_JOBS)
    source.jobs = jobs  # a CSV source also parses that many blocks at once
    # (the options of the rules that may read a table alone: a test table's rules, NB6xx, are not imported for
    # one; run on one, they get their defaults, or the options configured for them, which load every rule)
    options = resolved_options(settings.rule_options, (TableContext.input,), test_table=False)
    analysis = shared_settings(options)
    wide = analysis.wide_columns
    budget = MemoryBudget.default(settings.memory_budget)
    source.memory_budget = budget.memory  # (what its passes keep in memory stays within it)
    key = (settings.target, wide, budget)
    source.settle_words(analysis.term_block, analysis.max_violation_share)
    cached = key + (analysis.term_block, analysis.max_violation_share)  # (a matrix's words shape its profile)
    profile = profiles.get(cached) if profiles is not None else None
    if profile is None:  # (where the rows live elsewhere, each part is profiled there and the parts merged)
        part = partial(TableProfile.from_source, target=settings.target, jobs=1, wide_binary=wide, budget=budget)
        profile = source.backend.profile(settings.target, part, TableProfile.merge)
    if profile is None:
        profile = TableProfile.from_source(source, settings.target, jobs, wide, budget, rows)
    if profiles is not None:
        profiles[cached] = profile
    return TableContext(source, profile, settings.model, options, settings.alpha, settings.kinds)


def lint_source(
    source: TableSource,
    settings: FileSettings,
    codes: list[str],
    jobs: int | None = None,
    profiles: ProfileCache | None = None,
    test: TableSource | TestComparison | None = None,
) -> list[Finding]:
    """Profile one table (or take its profile from ``profiles``) and run the enabled rules on it.

    ``test``, when given, is its test or serving table: compared with it in one pass
    (:func:`nblint.run.pairing.compare`) for the NB6xx rules; or the comparison already made
    (a pipeline's steps that failed on the test rows).

    The rules run with the cyclic garbage collector paused (:func:`rules_of`).
    """
    with blas_scope():  # (its dense steps limit BLAS to one thread, if one is large enough to need it)
        return _lint_source(source, settings, codes, jobs, profiles, test)


def _lint_source(
    source: TableSource,
    settings: FileSettings,
    codes: list[str],
    jobs: int | None,
    profiles: ProfileCache | None,
    test: TableSource | TestComparison | None,
) -> list[Finding]:
    """:func:`lint_source` on one BLAS thread."""
    train_rows = None
    if isinstance(test, TableSource):
        from nblint.run.overlap import train_rows_for

        # The training rows' fingerprints for the rows in both tables, made in the profile's pass (a few
        # numpy sums per chunk): a pass of their own would read the training table again.
        train_rows = train_rows_for(source, test, settings.target)
    ctx = make_context(source, settings, jobs, profiles, train_rows)
    if isinstance(test, TableSource):
        from nblint.run.pairing import compare

        test.jobs = source.jobs
        try:
            ctx.test = compare(
                ctx, test, settings.unknown_raises, settings.min_categories, train_rows, settings.unknown_planned
            )
        except TestError:
            raise
        except NblintError as exc:  # (the pass over the test table: its rows, or no column shared)
            raise TestError(f"{test.path}: error: {exc} (the test table of {source.path})") from None
    elif test is not None:
        ctx.test = test
    held = [ctx]
    del ctx  # (held is the only reference: rules_of lets go of the context before the collector resumes)
    findings = rules_of(held, codes)
    beside = source.beside
    if beside is None:
        return findings
    # The columns that could not join the words (--text), linted as the table they are: what they
    # say about themselves is kept (what they say of the target alone the words' table said already).
    own = set(beside.names) - {settings.target}
    kept = [f for f in rules_of([make_context(beside, settings, jobs)], codes) if own & set(f.columns)]
    return sorted(findings + kept, key=Finding.sort_key)


def rules_of(held: list[TableContext], codes: list[str]) -> list[Finding]:
    """The findings of the rules ``codes`` on the context ``held[0]``, which is let go before the collector resumes.

    The rules run with the cyclic garbage collector paused (:func:`~nblint.core.collector.collector_paused`),
    and it stays paused until the context is gone: resumed while the context is alive, its first collection
    would walk every object the analyses made for the rules (a vocabulary's kinds, levels and evidence),
    which reference counting frees as soon as the context goes, its cycles broken (:meth:`TableContext.close`).
    The caller hands over its only reference (``held``, emptied here).
    """
    with collector_paused():
        ctx = held.pop()
        findings = run_rules(ctx, codes, ctx.rule_options)
        ctx.close()
        del ctx
    return findings


def show_progress(source: TableSource, stream=None) -> ProgressBar | None:
    """Attach a progress bar on ``stream`` (stderr) to a file source, when a person watches it."""
    from nblint.core.progress import ProgressBar  # (a run of paths' progress bar: an API check has none)
    from nblint.core.terminal import is_interactive
    from nblint.readers.sources import StreamSource  # (a file's: an in-memory table has no stream to watch)

    stream = stream if stream is not None else sys.stderr
    if not isinstance(source, StreamSource) or not is_interactive(stream):
        return None
    bar = ProgressBar(source.path, source.size_bytes, stream)
    source.on_progress = bar.update
    return bar


def table_context(path: str, overrides: Overrides, jobs: int | None = None) -> TableContext:
    """The analysis context of one table file, with its settings resolved (for `nblint columns`)."""
    settings = settings_for(path, overrides, {})
    source, _ = open_table(
        path, target=settings.target, text=settings.text, encoding=settings.encoding, sheet=overrides.sheet
    )
    return make_context(source, settings, jobs)


def beside_context(ctx: TableContext, jobs: int | None = None) -> TableContext | None:
    """The context of the columns linted beside a text column's words (``--text``), or None."""
    beside = ctx.source.beside
    if beside is None:
        return None
    settings = FileSettings(target=ctx.target, model=ctx.model, alpha=ctx.alpha, kinds=ctx.declared_kinds)
    return make_context(beside, settings.replace(rule_options=ctx.rule_options), jobs)


def lint_paths(
    paths: list[str],
    overrides: Overrides | None = None,
    stdin=None,
    progress=None,
    jobs: int | None = None,
    bars: bool = True,
    engine: str = "local",
    scheduler: str | None = None,
) -> RunResult:
    """Lint every path; an unreadable one becomes an error result and the run goes on.

    Files that are not pipeline configs (an unrelated YAML or Python file) are
    skipped silently and not counted.  No rule sees two files; a table takes its
    target, model and smoothing from the command line, else the nblint
    configuration, else the spec that names it as its data (never from another
    pipeline config), so its findings do not depend on what else is in the run.

    Parameters
    ----------
    paths : list of str
        Files, folders (walked for tables and configs) or ``-`` (CSV on stdin);
        with ``engine="dask"``, each a file, a glob or a Parquet folder read as one table.
    overrides : Overrides, optional
        Command-line settings.
    stdin : binary file, optional
        Read for ``-`` instead of ``sys.stdin.buffer``.
    progress : callable, optional
        Called as ``progress(i, n, path)`` before file ``i`` (1-based) of ``n``.
    jobs : int, optional
        Chunks profiled at once (default: every core).
    bars : bool, default True
        Allow a progress bar on stderr when a person watches it
        (:func:`nblint.core.terminal.is_interactive`).
    engine : {"local", "dask"}
    scheduler : str, optional
        The Dask scheduler's address (default: Dask's local scheduler).

    Returns
    -------
    RunResult
    """
    from nblint.run.declared import path_key, with_named_data  # (what specs declare: a run of paths only)
    from nblint.run.overrides import Overrides  # (the command line's: an API check has none)

    run = _Run(overrides or Overrides(), stdin, jobs, bars, engine)
    files, unreadable, configs = run.files(paths)
    run.connect(scheduler)
    explicit = set(paths)
    files, named = with_named_data(files, configs, unreadable, run.overrides.allow_outside_data, engine)
    cache: dict = {}
    results = []
    try:
        for number, path in enumerate(files, 1):
            if progress is not None:
                progress(number, len(files), path)
            if path in unreadable:
                results.append(FileResult(path, error=unreadable[path]))
                continue
            config = configs.get(path)
            table = _json_table(path, config) if path in explicit else None
            if table is not None:  # (named on the command line: a table in JSON is said, not passed over)
                results.append(FileResult(path, error=f"{path}: error: {table}"))
                continue
            if path in configs and config is None:
                continue
            try:
                settings = settings_for(path, run.overrides, cache)
            except ConfigError as exc:
                results.append(FileResult(path, error=str(exc)))
                continue
            run.warnings += settings.selection_notes(path)  # renamed codes, deprecated rules
            if config is not None:  # (a config that could not be read was passed over above)
                results.append(_config_result(path, config, settings, run.warnings))
                continue
            results.append(run.table(path, settings, named.get(path_key(path))))
    finally:
        if run.client is not None:
            run.client.close()
    return RunResult(results, run.warnings)


class _Run:
    """What a run's tables share: the command line's settings, how files are read, and the warnings said."""

    def __init__(self, overrides: Overrides, stdin: Any, jobs: int | None, bars: bool, engine: str):
        self.overrides = overrides
        self.stdin = stdin
        self.jobs = jobs
        self.bars = bars
        self.engine = engine
        #: The Dask scheduler's client (``--scheduler``), closed at the end of the run.
        self.client: Any = None
        self.warnings: list[str] = []

    def files(self, paths: list[str]) -> tuple[list[str], dict[str, str], dict[str, ConfigFile | NblintError | None]]:
        """The run's files, those that cannot be read (with their error lines), and the pipeline configs read.

        Locally, folders are walked (:func:`nblint.run.paths.expand_paths`); with the Dask engine,
        each path (a file, a glob, a folder) is one table, but a pipeline config is read as one, so
        that the table its nblint spec names is checked too.
        """
        from nblint.pipelines import is_config_path
        from nblint.run.paths import expand_paths  # (a run of paths: the API's check has none)

        if self.engine == "dask":
            files, unreadable = list(paths), dict[str, str]()
            return files, unreadable, {p: _read_config(p) for p in files if is_config_path(p) and os.path.isfile(p)}
        files, warnings, unreadable = expand_paths(paths)
        self.warnings += warnings
        return files, unreadable, {path: _read_config(path) for path in files if is_config_path(path)}

    def connect(self, scheduler: str | None) -> None:
        """With the Dask engine, connect to the scheduler at ``scheduler`` (None: Dask's default scheduler)."""
        if self.engine == "dask":
            from nblint.dask.source import dask_client

            self.client = dask_client(scheduler)

    def open(self, path: str, settings: FileSettings) -> TableSource:
        """The table at ``path``, read as its settings say (:func:`nblint.run.tables.open_table`)."""
        sheet = self.overrides.sheet
        if self.engine != "dask" and sheet is not None:
            from nblint.readers.excel import is_excel_path

            if not is_excel_path(path):
                self.warnings.append(
                    f"{path}: warning: --sheet names a sheet of an Excel workbook: ignored for this file"
                )
        source, _ = open_table(
            path,
            target=settings.target,
            text=settings.text,
            encoding=settings.encoding,
            sheet=sheet if self.engine != "dask" else None,
            stdin=self.stdin,
            engine=self.engine,
            client=self.client,
        )
        return source

    def table(self, path: str, settings: FileSettings, spec: PipelineSpec | None) -> FileResult:
        """Lint the table at ``path`` (``spec``: the spec that names it, whose declarations fill in its settings)."""
        if spec is not None:
            from nblint.run.declared import declared_by_spec

            settings = declared_by_spec(settings, spec, path, self.overrides, self.warnings)
        bar = None
        try:
            source = self.open(path, settings)
            bar = show_progress(source) if self.bars else None
            test = open_test(path, source, settings, self.overrides, self.engine)
            findings = lint_source(source, settings, settings.enabled_codes(path), self.jobs, test=test)
        except TestError as exc:
            return FileResult(path, error=str(exc), fail_on=settings.fail_on)
        except NblintError as exc:
            named_by = f" (named by {spec.path}, line {spec.data_line})" if spec is not None else ""
            return FileResult(path, error=f"{path}: error: {exc}{named_by}", fail_on=settings.fail_on)
        except Exception as exc:  # out of memory or threads (a small ulimit -v): this file, not the run
            message = resource_error(exc)
            if message is None:
                raise
            return FileResult(path, error=f"{path}: error: {message}", fail_on=settings.fail_on)
        finally:
            if bar is not None:
                bar.close()
        return FileResult(path, findings, fail_on=settings.fail_on)


def _json_table(path: str, config: ConfigFile | NblintError | None) -> str | None:
    """The error line of a table written in JSON at ``path``, which no pipeline config reads; None: none."""
    from nblint.pipelines import ConfigFile
    from nblint.pipelines.configs import json_table_error

    if config is not None and not (isinstance(config, ConfigFile) and not config.specs):
        return None

    try:
        return json_table_error(path)
    except OSError:  # (unreadable: the config reader has said so already)
        return None


def _read_config(path: str) -> ConfigFile | NblintError | None:
    from nblint.pipelines import read_config

    try:
        return read_config(path)
    except NblintError as exc:
        return exc


def _config_result(
    path: str, config: ConfigFile | NblintError, settings: FileSettings, warnings: list[str]
) -> FileResult:
    """A pipeline config's findings (or its error line); what its suppressions say is added to ``warnings``."""
    if isinstance(config, NblintError):
        return FileResult(path, error=f"{path}: error: {config}", fail_on=settings.fail_on)
    from nblint.pipelines import lint_specs

    codes = settings.enabled_codes(path)
    findings = lint_specs(config.specs, codes, settings.rule_options, config)
    warnings += config.suppression_warnings()
    return FileResult(path, findings, fail_on=settings.fail_on)
