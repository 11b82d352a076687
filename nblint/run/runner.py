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
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Literal, TypedDict

from nblint.analysis.context import TableContext
from nblint.core.collector import collector_paused
from nblint.core.errors import ConfigError, NblintError
from nblint.core.progress import ProgressBar
from nblint.core.resources import MemoryBudget, resource_error
from nblint.core.terminal import is_interactive
from nblint.engine import resolved_options, run_rules, shared_settings
from nblint.engine.findings import Finding, Severity
from nblint.profile.table import TableProfile
from nblint.readers import StreamSource, TableSource, is_table_path
from nblint.run.blas import one_blas_thread
from nblint.run.config import Settings, find_config, load_config

if TYPE_CHECKING:
    from nblint.pipelines import ConfigFile, PipelineSpec
    from nblint.run.pairing import TestComparison

#: Folders never descended into when a directory is checked.
SKIP_DIRS = {
    ".git",
    ".hg",
    ".svn",
    ".venv",
    "venv",
    "node_modules",
    "__pycache__",
    ".tox",
    ".mypy_cache",
    ".pytest_cache",
}


@dataclass
class FileResult:
    """What one input produced: findings, or an error line."""

    path: str
    findings: list[Finding] = field(default_factory=list)
    error: str | None = None
    fail_on: Severity = Severity.WARNING


@dataclass
class RunResult:
    files: list[FileResult]
    warnings: list[str] = field(default_factory=list)

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


@dataclass
class Overrides:
    """Command-line settings; None means "not given" (the config decides)."""

    target: str | None = None
    text: str | None = None
    model: str | None = None
    alpha: float | None = None
    select: list[str] | None = None
    ignore: list[str] | None = None
    fail_on: Severity | None = None
    encoding: str | None = None
    config: str | None = None
    #: The sheet of an Excel workbook to read (default: the first).
    sheet: str | None = None
    #: Added to the select and ignore lists in force (the command line's, else the configuration's).
    extend_select: list[str] | None = None
    extend_ignore: list[str] | None = None
    #: ``--preview``: run the rules in preview too.
    preview: bool | None = None
    #: ``--allow-outside-data``: read a data file a spec names outside its folder and the working directory.
    allow_outside_data: bool = False
    #: ``--test``: the test or serving table each checked table is compared with (:mod:`nblint.run.pairing`).
    test: str | None = None


def expand_paths(paths: list[str]) -> tuple[list[str], list[str], dict[str, str]]:
    """Files to lint (folders walked in sorted order), warnings for empty folders, and folders that cannot be read.

    The last maps each unreadable folder (met in the walk, or given) to its error line, listed
    with the files at its place so that the run reports it and goes on.  A walk reads no Excel
    workbook (they are linted when named: a folder of them is not an error where openpyxl is
    missing), and a warning names those it passed over, so that none is skipped silently.
    """
    from nblint.pipelines import is_config_path
    from nblint.readers.excel import is_excel_path

    files, warnings = [], []
    unreadable: dict[str, str] = {}

    def failed(exc: OSError) -> None:
        folder = _joined(os.path.dirname(exc.filename), os.path.basename(exc.filename)) if exc.filename else path
        unreadable[folder] = f"{folder}: error: cannot read the folder: {exc.strerror or exc}"
        found.append(folder)

    for path in paths:
        if path != "-" and os.path.isdir(path):
            found: list[str] = []
            workbooks: list[str] = []
            for folder, dirs, names in os.walk(path, onerror=failed):
                dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS and not d.startswith("."))
                found += [_joined(folder, n) for n in sorted(names) if is_table_path(n) or is_config_path(n)]
                workbooks += [_joined(folder, n) for n in sorted(names) if is_excel_path(n)]
            if not found:
                warnings.append(f"{path}: warning: no tables or pipeline configs found in this folder")
            if workbooks:
                warnings.append(
                    f"{path}: warning: a folder is walked for CSV, TSV and Parquet files, not Excel workbooks: "
                    f"skipped {', '.join(workbooks)} (name a workbook to lint it)"
                )
            files += found
        else:
            files.append(path)
    return files, warnings, unreadable


def _joined(folder: str, name: str) -> str:
    """``folder/name`` without a leading ``./`` (walking ``.``, as ``nblint check`` with no path does, puts one)."""
    path = os.path.join(folder, name)
    prefix = os.curdir + os.sep
    return path[len(prefix) :] if path.startswith(prefix) else path


#: Overrides that steer the run, not a file's settings.
_RUN_ONLY = ("config", "sheet", "allow_outside_data")


def settings_for(path: str, overrides: Overrides, cache: dict) -> Settings:
    """The settings of one file: its config (found or given), per-file globs, then the command line."""
    config_path = overrides.config or find_config(path if path != "-" else os.getcwd())
    if config_path is None:
        base = Settings()
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
    resolved = replace(resolved, **changes)
    for option, key in extend.items():
        if getattr(overrides, option):
            resolved = replace(resolved, **{key: getattr(resolved, key) + getattr(overrides, option)})
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
    settings: Settings,
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
    options = resolved_options(settings.rule_options)
    analysis = shared_settings(options)
    wide = analysis.wide_columns
    budget = MemoryBudget.default(settings.memory_budget)
    key = (settings.target, wide, budget)
    source.settle_words(analysis.term_block, analysis.max_violation_share)
    cached = key + (analysis.term_block, analysis.max_violation_share)  # (a matrix's words shape its profile)
    profile = profiles.get(cached) if profiles is not None else None
    if profile is None:
        profile = source.remote_profile(*key)  # a Dask source profiles on the cluster
    if profile is None:
        profile = TableProfile.from_source(source, settings.target, jobs, wide, budget, rows)
    if profiles is not None:
        profiles[cached] = profile
    return TableContext(source, profile, settings.model, options, settings.alpha, settings.kinds)


def lint_source(
    source: TableSource,
    settings: Settings,
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
    with one_blas_thread():
        return _lint_source(source, settings, codes, jobs, profiles, test)


def _lint_source(
    source: TableSource,
    settings: Settings,
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
    which reference counting frees as soon as the context goes. The caller hands over its only reference
    (``held``, emptied here).
    """
    with collector_paused():
        ctx = held.pop()
        findings = run_rules(ctx, codes, ctx.rule_options)
        del ctx
    return findings


def show_progress(source: TableSource, stream=None) -> ProgressBar | None:
    """Attach a progress bar on ``stream`` (stderr) to a file source, when a person watches it."""
    stream = stream if stream is not None else sys.stderr
    if not isinstance(source, StreamSource) or not is_interactive(stream):
        return None
    bar = ProgressBar(source.path, source.size_bytes, stream)
    source.on_progress = bar.update
    return bar


def table_context(path: str, overrides: Overrides, jobs: int | None = None) -> TableContext:
    """The analysis context of one table file, with its settings resolved (for `nblint columns`)."""
    settings = settings_for(path, overrides, {})
    from nblint.readers.files import read_table  # (the file readers: only when a file is read)

    source = read_table(path, encoding=settings.encoding, sheet=overrides.sheet)
    if settings.text:
        source = text_source(source, settings.text, settings.target)
    return make_context(source, settings, jobs)


def beside_context(ctx: TableContext, jobs: int | None = None) -> TableContext | None:
    """The context of the columns linted beside a text column's words (``--text``), or None."""
    beside = ctx.source.beside
    if beside is None:
        return None
    settings = Settings(target=ctx.target, model=ctx.model, alpha=ctx.alpha, kinds=ctx.declared_kinds)
    return make_context(beside, replace(settings, rule_options=ctx.rule_options), jobs)


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
    # (pipeline configs only here: ``nblint.check`` on a table does not import their readers)
    from nblint.pipelines import ConfigFile, is_config_path

    overrides = overrides or Overrides()
    client = None
    if engine == "dask":
        from nblint.dask.source import DaskSource, read_dask

        # each path (a file, a glob, a folder) is one table ...
        files: list[str] = list(paths)
        warnings: list[str] = []
        # ... but a pipeline config is read as one, so that the table its nblint spec names is checked too
        configs = {path: _read_config(path) for path in files if is_config_path(path) and os.path.isfile(path)}
        unreadable: dict[str, str] = {}
        client = _dask_client(scheduler)

        def open_source(path: str, settings: Settings) -> TableSource:
            if settings.text:
                raise ConfigError("a text column (--text, text = ...) is read with the local engine only")
            return DaskSource(read_dask(path, encoding=settings.encoding), path, client)
    else:
        files, warnings, unreadable = expand_paths(paths)
        configs = {path: _read_config(path) for path in files if is_config_path(path)}

        from nblint.readers.excel import is_excel_path
        from nblint.readers.files import read_table  # (the file readers: only when files are read)

        def open_source(path: str, settings: Settings) -> TableSource:
            if overrides.sheet is not None and not is_excel_path(path):
                warnings.append(f"{path}: warning: --sheet names a sheet of an Excel workbook: ignored for this file")
            source = read_table(path, encoding=settings.encoding, stdin=stdin, sheet=overrides.sheet)
            return text_source(source, settings.text, settings.target) if settings.text else source

    explicit = set(paths)
    files, named = _with_named_data(files, configs, unreadable, overrides.allow_outside_data, engine)
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
            if path in explicit and (config is None or isinstance(config, ConfigFile) and not config.specs):
                table = _json_table(path)  # (named on the command line: a table in JSON is said, not passed over)
                if table is not None:
                    results.append(FileResult(path, error=f"{path}: error: {table}"))
                    continue
            if path in configs and config is None:
                continue
            try:
                settings = settings_for(path, overrides, cache)
            except ConfigError as exc:
                results.append(FileResult(path, error=str(exc)))
                continue
            warnings += settings.selection_notes(path)  # renamed codes, deprecated rules
            if config is not None:  # (a config that could not be read was passed over above)
                results.append(_config_result(path, config, settings))
                if isinstance(config, ConfigFile):
                    warnings += config.suppression_warnings()
                continue
            spec = named.get(_key(path))
            if spec is not None:
                settings = _declared_by_spec(settings, spec, path, overrides, warnings)
            bar = None
            test = None
            try:
                source = open_source(path, settings)
                bar = show_progress(source) if bars else None
                test = open_test(path, source, settings, overrides, engine)
                findings = lint_source(source, settings, settings.enabled_codes(path), jobs, test=test)
            except TestError as exc:
                results.append(FileResult(path, error=str(exc), fail_on=settings.fail_on))
                continue
            except NblintError as exc:
                named_by = f" (named by {spec.path}, line {spec.data_line})" if spec is not None else ""
                results.append(FileResult(path, error=f"{path}: error: {exc}{named_by}", fail_on=settings.fail_on))
                continue
            except Exception as exc:  # out of memory or threads (a small ulimit -v): this file, not the run
                message = resource_error(exc)
                if message is None:
                    raise
                results.append(FileResult(path, error=f"{path}: error: {message}", fail_on=settings.fail_on))
                continue
            finally:
                if bar is not None:
                    bar.close()
            results.append(FileResult(path, findings, fail_on=settings.fail_on))
    finally:
        if client is not None:
            client.close()
    return RunResult(results, warnings)


class TestError(NblintError):
    """A test table that cannot be read: its error line is whole (it names the test file)."""


def open_test(
    path: str, train: TableSource, settings: Settings, overrides: Overrides, engine: str = "local"
) -> TableSource | None:
    """The test table of the table at ``path`` (``--test``, ``test = ...``), read the way ``train`` was; None: none.

    A table is not compared with itself (a configuration's ``test`` applies to every table,
    the test table included). A path the configuration names is confined as a spec's
    ``data:`` is (:mod:`nblint.run.confine`).

    Raises
    ------
    TestError
        One line naming the test file: it is refused, missing or unreadable, or the engine cannot take it.
    """
    test_path = settings.test
    if not test_path or (path != "-" and os.path.abspath(test_path) == os.path.abspath(path)):
        return None
    if engine == "dask" and not os.path.isfile(test_path):
        raise TestError(
            f"{test_path}: error: with --engine dask the test table is one file, read in chunks beside the "
            f"training table's partitions (the test table of {path})"
        )
    if settings.test_named_by is not None:
        from nblint.run.confine import refusal

        refused = refusal(
            test_path, settings.test_named_by, settings.test_line, allow_outside=overrides.allow_outside_data
        )
        if refused is not None:
            raise TestError(refused)
    from nblint.run.pairing import read_test

    try:
        return read_test(
            test_path,
            train,
            encoding=settings.encoding,
            text=settings.text,
            target=settings.target,
            sheet=overrides.sheet,
        )
    except NblintError as exc:
        raise TestError(f"{test_path}: error: {exc} (the test table of {path})") from None


def text_source(source: TableSource, column: str, target: str | None) -> TableSource:
    """``source`` with its text ``column`` as word counts beside its numeric columns (:mod:`nblint.readers.text`)."""
    from nblint.readers.sparse import SparseSource
    from nblint.readers.text import ColumnsSource, word_counts

    table = word_counts(source, column, target)
    # (the vocabulary is one block of words whatever its size; the table's numeric columns beside it are not)
    vocabulary = table.names[: len(table.names) - table.numeric]  # (the vocabulary, then the numeric columns)
    counts = SparseSource(table.matrix, table.names, table.target, table.y, source.path, words=vocabulary)
    counts.skipped = dict(source.skipped)
    counts.documents = table.documents
    if table.beside:
        with_target = {**table.beside, **({target: table.y} if target is not None and table.y is not None else {})}
        counts.beside = ColumnsSource(source.path, with_target)
    return counts


class _Declared(TypedDict, total=False):
    """What a spec fills in of a table's settings."""

    target: str
    model: str
    alpha: float


def _declared_by_spec(
    settings: Settings, spec: PipelineSpec, path: str, overrides: Overrides, warnings: list[str]
) -> Settings:
    """A table's settings with what the spec naming it declares, where nothing stronger does.

    The command line and the configuration decide first (``settings`` holds
    both); the spec fills in the target and the model (with its smoothing) that
    neither gives.  Where the configuration overrides the spec, a warning says
    so (``--target``/``--model`` are asked for and need none).
    """
    changes: _Declared = {}
    keys: tuple[Literal["target", "model"], ...] = ("target", "model")
    for key, declared in zip(keys, (spec.target, spec.model)):
        current = getattr(settings, key)
        if not declared:
            continue
        if current is None:
            changes[key] = declared
        elif current != declared and getattr(overrides, key) is None:
            warnings.append(
                f"{spec.path}:{spec.data_line or 1}: warning: {path} is checked with {key} {current!r} "
                f"from {settings.source or 'the configuration'}, not the spec's {declared!r}"
            )
    if changes.get("model") and settings.alpha is None and spec.alpha is not None:
        changes["alpha"] = spec.alpha
    resolved = replace(settings, **changes)
    if spec.test and settings.test is None:
        # The spec's test table, beside the spec, confined as its data is (open_test refuses it otherwise).
        test = os.path.normpath(os.path.join(os.path.dirname(spec.path), spec.test))
        resolved = replace(resolved, test=test, test_named_by=spec.path, test_line=spec.test_line)
    if resolved.test:
        from nblint.run.pairing import strict_encoders

        minimum = spec.estimator.value("min_categories") if spec.estimator is not None else None
        raises, planned = strict_encoders(spec)
        resolved = replace(resolved, unknown_raises=raises, unknown_planned=planned, min_categories=minimum)
    return resolved


def _json_table(path: str) -> str | None:
    from nblint.pipelines.configs import json_table_error

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


def _config_result(path: str, config: ConfigFile | NblintError, settings: Settings) -> FileResult:
    if isinstance(config, NblintError):
        return FileResult(path, error=f"{path}: error: {config}", fail_on=settings.fail_on)
    from nblint.pipelines import lint_specs

    codes = settings.enabled_codes(path)
    return FileResult(path, lint_specs(config.specs, codes, settings.rule_options, config), fail_on=settings.fail_on)


def _key(path: str) -> str:
    return path if path == "-" else os.path.abspath(path)


def _with_named_data(
    files: list[str],
    configs: dict[str, ConfigFile | NblintError | None],
    unreadable: dict[str, str],
    allow_outside: bool,
    engine: str,
) -> tuple[list[str], dict[str, PipelineSpec]]:
    """The run's files with each data file a spec names added after the spec (once), and who names what.

    A named file that may not be read (:mod:`nblint.run.confine`: outside the spec's project, or not
    named as a table) is listed with its error line in ``unreadable``, and never opened.
    """
    from nblint.pipelines import ConfigFile
    from nblint.run.confine import refusal

    present = {_key(path) for path in files}
    out: list[str] = []
    named: dict[str, PipelineSpec] = {}
    for path in files:
        out.append(path)
        config = configs.get(path)
        for data_path, spec in config.data_paths() if isinstance(config, ConfigFile) else ():
            if _key(data_path) in present:
                named.setdefault(_key(data_path), spec)
                continue
            present.add(_key(data_path))
            out.append(data_path)
            refused = refusal(data_path, spec.path, spec.data_line, allow_outside=allow_outside, engine=engine)
            if refused is not None:
                unreadable[data_path] = refused
            else:
                named[_key(data_path)] = spec
    return out, named


def _dask_client(scheduler: str | None):
    """A ``distributed.Client`` of the scheduler at ``scheduler``; None: Dask's default scheduler."""
    if not scheduler:
        return None
    from nblint.core.dependencies import missing_message

    try:
        from distributed import Client
    except ImportError:
        raise ConfigError(missing_message("distributed", "--scheduler")) from None
    try:
        return Client(scheduler, timeout="10s")
    except OSError as exc:
        raise ConfigError(f"cannot connect to the Dask scheduler at {scheduler}: {exc}") from None
