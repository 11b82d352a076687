"""Lint a run of paths: expand folders, resolve each file's settings, collect results.

Exit status of a run (documented in the README): 2 if any input or config could
not be read (the other files are still linted and reported), else 1 if any
finding is at or above its file's ``fail-on`` severity, else 0.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field, replace

from nblint.analyses import TableContext
from nblint.config import Settings, find_config, load_config
from nblint.engine import resolved_options, run_rules
from nblint.errors import ConfigError, NblintError
from nblint.findings import Finding, Severity
from nblint.profile import TableProfile
from nblint.readers import StreamSource, TableSource, is_table_path, read_table
from nblint.progress import ProgressBar
from nblint.terminal import is_interactive

#: Folders never descended into when a directory is checked.
SKIP_DIRS = {".git", ".hg", ".svn", ".venv", "venv", "node_modules", "__pycache__", ".tox", ".mypy_cache", ".pytest_cache"}


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
    model: str | None = None
    alpha: float | None = None
    select: list[str] | None = None
    ignore: list[str] | None = None
    fail_on: Severity | None = None
    encoding: str | None = None
    config: str | None = None


def expand_paths(paths: list[str]) -> tuple[list[str], list[str]]:
    """Files to lint (folders walked in sorted order) and warnings for empty folders."""
    files, warnings = [], []
    for path in paths:
        if path != "-" and os.path.isdir(path):
            found = []
            for folder, dirs, names in os.walk(path):
                dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS and not d.startswith("."))
                found += [os.path.join(folder, n) for n in sorted(names) if is_table_path(n)]
            if not found:
                warnings.append(f"{path}: warning: no tables found in this folder")
            files += found
        else:
            files.append(path)
    return files, warnings


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
    changes = {k: v for k, v in vars(overrides).items() if v is not None and k != "config"}
    return replace(resolved, **changes)


def default_jobs() -> int:
    """Every core this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


def make_context(source: TableSource, settings: Settings, jobs: int | None = None) -> TableContext:
    """Profile one table (one pass, ``jobs`` chunks at a time) and wrap it in the context the rules share."""
    jobs = jobs or default_jobs()
    source.jobs = jobs  # a CSV source also parses that many blocks at once
    options = resolved_options(settings.rule_options)
    wide = options.get("NB106", {}).get("wide-columns")
    if hasattr(source, "compute_profile"):  # a Dask source profiles its partitions on the cluster
        profile = source.compute_profile(settings.target, wide)
    else:
        profile = TableProfile.from_source(source, settings.target, jobs, wide)
    return TableContext(source, profile, settings.model, options, settings.alpha)


def lint_source(source: TableSource, settings: Settings, codes: list[str], jobs: int | None = None) -> list[Finding]:
    """Profile one table and run the enabled rules on it."""
    ctx = make_context(source, settings, jobs)
    return run_rules(ctx, codes, ctx.rule_options)


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
    return make_context(read_table(path, encoding=settings.encoding), settings, jobs)


def lint_paths(paths: list[str], overrides: Overrides | None = None, stdin=None, jobs: int | None = None,
               progress: bool = True, engine: str = "local", scheduler: str | None = None) -> RunResult:
    """Lint every path; an unreadable one becomes an error result and the run goes on.

    ``jobs`` chunks are profiled at once (default: every core); ``progress``
    allows a progress bar on stderr when a person watches it (:func:`nblint.terminal.is_interactive`).
    With ``engine="dask"`` each path (a file, a glob or a Parquet folder) is one
    table read by Dask and profiled on the cluster at ``scheduler`` (default:
    Dask's local scheduler).
    """
    overrides = overrides or Overrides()
    client = None
    if engine == "dask":
        from nblint.dask_engine import DaskSource, read_dask

        files, warnings = list(paths), []  # each path (a file, a glob, a folder) is one table
        client = _dask_client(scheduler)

        def open_source(path: str, settings: Settings) -> TableSource:
            return DaskSource(read_dask(path, encoding=settings.encoding), path, client)
    else:
        files, warnings = expand_paths(paths)

        def open_source(path: str, settings: Settings) -> TableSource:
            return read_table(path, encoding=settings.encoding, stdin=stdin)

    cache: dict = {}
    results = []
    try:
        for path in files:
            try:
                settings = settings_for(path, overrides, cache)
            except ConfigError as exc:
                results.append(FileResult(path, error=str(exc)))
                continue
            bar = None
            try:
                source = open_source(path, settings)
                bar = show_progress(source) if progress else None
                findings = lint_source(source, settings, settings.enabled_codes(path), jobs)
            except NblintError as exc:
                results.append(FileResult(path, error=f"{path}: error: {exc}", fail_on=settings.fail_on))
                continue
            finally:
                if bar is not None:
                    bar.close()
            results.append(FileResult(path, findings, fail_on=settings.fail_on))
    finally:
        if client is not None:
            client.close()
    return RunResult(results, warnings)


def _dask_client(scheduler: str | None):
    """A ``distributed.Client`` of the scheduler at ``scheduler``; None: Dask's default scheduler."""
    if not scheduler:
        return None
    try:
        from distributed import Client
    except ImportError:
        raise ConfigError('--scheduler needs distributed: pip install "nblint[dask]"') from None
    try:
        return Client(scheduler, timeout="10s")
    except OSError as exc:
        raise ConfigError(f"cannot connect to the Dask scheduler at {scheduler}: {exc}") from None
