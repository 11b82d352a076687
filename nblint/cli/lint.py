"""``nblint check``: lint tables and pipeline configs, and report the findings."""

from __future__ import annotations

import os
import sys

import click

from nblint.cli.base import (
    ALPHA,
    CONFIG,
    FORCE,
    MODEL,
    MODEL_HELP,
    TARGET,
    TEST,
    TEXT,
    main,
    printable,
    refuse_existing_output,
    refuse_output_over_input,
    refuse_text_without_sklearn,
    split_codes,
    validate_selectors,
    write_output,
)
from nblint.engine.findings import Severity
from nblint.report.formats import FORMATS


@main.command()
@click.argument("paths", nargs=-1)
@click.option("--target", "-t", type=TARGET, help="The class column.")
@click.option(
    "--text",
    type=TEXT,
    metavar="COLUMN",
    help="A column of documents: lint its word counts, as scikit-learn's CountVectorizer() makes them, beside the "
    "other numeric columns.",
)
@click.option(
    "--test",
    type=TEST,
    metavar="PATH",
    help="The test or serving table of the checked table (any format nblint reads; the target may be absent): "
    "say what a model fitted on the checked table meets there (NB6xx rules: unseen levels, zero cells met, "
    "rows in both tables, prior shift, values out of support, unseen words, schema).",
)
@click.option("--model", "-m", type=MODEL, metavar="MODEL", help=MODEL_HELP)
@click.option("--alpha", type=ALPHA, help="The model's smoothing (0 = none: a zero count vetoes a class).")
@click.option("--select", help="Comma-separated rule codes or prefixes to enable (default: all).")
@click.option("--ignore", help="Comma-separated rule codes or prefixes to disable.")
@click.option("--extend-select", help="Codes or prefixes to enable in addition to the select in force.")
@click.option("--extend-ignore", help="Codes or prefixes to disable in addition to the ignore in force.")
@click.option(
    "--preview/--no-preview",
    default=None,
    help="Run the rules in preview too (default: the config's `preview`; a preview rule selected by its code always runs).",
)
@click.option(
    "--format",
    "output_format",
    type=click.Choice(FORMATS),
    default="text",
    show_default=True,
    help="text for people (each finding with its fix); concise (one line per finding); json; "
    "sarif (GitHub code scanning); github (Actions annotations); junit (XML); "
    "html (one self-contained page with pictures; use --output).",
)
@click.option(
    "--output",
    "-o",
    "output",
    type=click.Path(dir_okay=False, writable=True),
    help="Write the report to this file instead of standard output.",
)
@click.option(
    "--statistics", is_flag=True, help="Print how many findings each rule made instead of the findings (text or json)."
)
@click.option(
    "--quiet",
    "-q",
    is_flag=True,
    help="Print the findings only: no summary (unless an input could not be read), "
    "no warnings, nothing at all when nothing is found.",
)
@click.option(
    "--exit-zero", is_flag=True, help="Exit 0 even when there are findings (still 2 when an input cannot be read)."
)
@click.option(
    "--color/--no-color",
    "color",
    default=None,
    help="Colour the text report (default: only on a terminal, never under CI or pre-commit).",
)
@CONFIG
@click.option(
    "--fail-on",
    type=click.Choice(["info", "warning", "error"]),
    help="Lowest severity that makes the exit code 1 (default: warning).",
)
@click.option("--encoding", help="Text encoding of CSV/TSV inputs (default: utf-8).")
@click.option("--sheet", metavar="NAME", help="The sheet of an Excel workbook to read (default: the first).")
@click.option(
    "--jobs",
    "-j",
    type=click.IntRange(min=1),
    help="Chunks profiled in parallel (default: every core). Output is the same for every value.",
)
@click.option(
    "--engine",
    type=click.Choice(["local", "dask"]),
    default="local",
    show_default=True,
    help="dask: read each path (file, glob or Parquet folder) with Dask and profile its partitions on the cluster.",
)
@click.option(
    "--scheduler",
    metavar="ADDRESS",
    help="With --engine dask: the Dask scheduler to use (e.g. tcp://host:8786; default: local).",
)
@click.option(
    "--allow-outside-data",
    is_flag=True,
    help="Read a data file an nblint spec names even outside the spec's folder and the working directory "
    "(off by default: a spec in a pull request must not make nblint print files from elsewhere).",
)
@FORCE
def check(
    paths,
    target,
    text,
    test,
    model,
    alpha,
    select,
    ignore,
    extend_select,
    extend_ignore,
    preview,
    output_format,
    output,
    statistics,
    quiet,
    exit_zero,
    color,
    config,
    fail_on,
    encoding,
    sheet,
    jobs,
    engine,
    scheduler,
    allow_outside_data,
    force,
):
    """Lint tables (CSV, TSV, gzip CSV, Parquet; - for CSV on stdin), pipeline configs
    (YAML, JSON, TOML, Python) and folders of them; no PATH: the current folder.

    Files that are not pipeline configs are skipped silently. A table's target,
    model and alpha come from the options, else the configuration, else the
    nblint spec naming it as its data; never from another pipeline config.

    With --text COLUMN a table's column of documents is linted as the word
    counts scikit-learn's CountVectorizer() makes of it (one column per word of
    the vocabulary), beside the target and the table's other numeric columns.

    With --test PATH each table is compared with its test or serving table, read
    the same way: the NB6xx findings are located in the test file.

    Exit status: 0 when nothing is at or above the fail level, 1 when something is,
    2 when an input or config could not be read (the other inputs are still linted).
    """
    from nblint.run.overrides import Overrides

    validate_selectors(select=select, ignore=ignore, extend_select=extend_select, extend_ignore=extend_ignore)
    refuse_output_over_input(output, paths)
    refuse_existing_output(output, force)
    if statistics and output_format not in ("text", "concise", "json"):
        raise click.UsageError(f"--statistics prints text or json, not {output_format}")
    if text is not None:
        refuse_text_without_sklearn(engine)
    overrides = Overrides(
        target=target,
        text=text,
        test=test,
        model=model,
        alpha=alpha,
        select=split_codes(select),
        ignore=split_codes(ignore),
        fail_on=Severity.parse(fail_on) if fail_on else None,
        encoding=encoding,
        config=config,
        sheet=sheet,
        extend_select=split_codes(extend_select),
        extend_ignore=split_codes(extend_ignore),
        preview=preview,
        allow_outside_data=allow_outside_data,
    )
    result = _lint(paths, overrides, quiet, jobs, engine, scheduler)
    report, use_color = _report(result, output_format, output, statistics, quiet, color)
    # The warnings and error lines first: the report ends with the summary that counts them.
    _echo_messages(result, quiet)
    if output is None:
        _echo_stdout(report, use_color)
    else:
        write_output(output, report, "report", force)
    sys.exit(result.exit_code(exit_zero=exit_zero))


def _lint(paths, overrides, quiet: bool, jobs, engine: str, scheduler):
    """``check``'s run over its paths (no path: the current folder), its progress on an interactive stderr."""
    from nblint.core.errors import ConfigError
    from nblint.core.terminal import Progress, is_interactive
    from nblint.run.runner import lint_paths

    if scheduler and engine != "dask":
        raise click.UsageError("--scheduler needs --engine dask")

    stderr = sys.stderr  # (click.get_text_stream is deprecated from Click 8.5: the streams themselves)
    progress = Progress(stderr, enabled=not quiet and is_interactive(stderr))
    try:
        return lint_paths(
            list(paths) or [os.curdir],
            overrides,
            progress=progress,
            jobs=jobs,
            bars=not quiet,
            engine=engine,
            scheduler=scheduler,
        )
    except ConfigError as exc:  # of the run, not of one file (--scheduler): prefixed as a usage error is
        click.echo(f"{click.get_current_context().command_path}: error: {exc}", err=True)
        sys.exit(2)
    finally:
        progress.clear()


def _report(result, output_format: str, output, statistics: bool, quiet: bool, color) -> tuple[str, bool]:
    """The report as printed (or written to ``output``), and whether it is in colour."""
    from nblint.core.terminal import color_enabled
    from nblint.report.formats import render, render_statistics

    stdout = sys.stdout
    use_color = (
        output is None and output_format in ("text", "concise") and not statistics and color_enabled(color, stdout)
    )
    if statistics:
        report = render_statistics(result, "json" if output_format == "json" else "text", summary=not quiet)
    else:
        report = render(result, output_format, color=use_color, quiet=quiet)
    report = printable(report, controls=output_format in ("text", "concise") or statistics, color=use_color)
    return report, use_color


def _echo_messages(result, quiet: bool) -> None:
    """The run's warnings (unless ``quiet``) and its error lines on stderr, each once."""
    seen = set()
    for message in ([] if quiet else result.warnings) + [r.error for r in result.errors if r.error]:
        if message not in seen:
            seen.add(message)
            click.echo(printable(message), err=True)


def _echo_stdout(text: str, color: bool = False) -> None:
    """Print the report; a standard output that cannot take it (a full disk, a closed pipe) is one line, exit 2."""
    try:
        click.echo(text, nl=False, color=color)
        sys.stdout.flush()
    except BrokenPipeError:
        raise
    except OSError as exc:
        try:
            sys.stdout = open(os.devnull, "w")  # (the interpreter's own flush at exit would fail again)
        except OSError:
            pass
        click.echo(f"error: cannot write to standard output: {exc.strerror or exc}", err=True)
        sys.exit(2)
