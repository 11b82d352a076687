"""The ``nblint`` command line."""

from __future__ import annotations

import os
import re
import sys
from contextlib import contextmanager

import click

from nblint.core.models import model_choices, parse_model
from nblint.core.version import __version__
from nblint.engine import describe, load_rules, rule_record, validate_codes
from nblint.engine.findings import Severity
from nblint.report.formats import FORMATS


class _UsageError(click.UsageError):
    """A usage error shown as one line, ``nblint check: error: problem``, exit 2."""

    def show(self, file=None) -> None:
        command = self.ctx.command_path if self.ctx is not None else "nblint"
        click.echo(f"{command}: error: {self.format_message()}", file=file or sys.stderr)


@contextmanager
def _one_line_usage_errors():
    try:
        yield
    except _UsageError:
        raise
    except click.UsageError as exc:
        raise _UsageError(exc.format_message(), exc.ctx) from None


class _Command(click.Command):
    """A command whose long options may also be spelt in snake_case (``--fail_on``)."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        names = {
            name
            for param in self.get_params(ctx)
            if isinstance(param, click.Option)
            for name in (*param.opts, *param.secondary_opts)
            if name.startswith("--")
        }
        spelt = []
        for index, arg in enumerate(args):
            if arg == "--":  # what follows is arguments, never options
                spelt += args[index:]
                break
            name, equals, value = arg.partition("=")
            kebab = name.replace("_", "-")
            spelt.append(kebab + equals + value if name.startswith("--") and kebab in names else arg)
        return super().parse_args(ctx, spelt)


class _Group(click.Group):
    """nblint's commands: snake_case long options accepted, usage errors on one line."""

    command_class = _Command

    def make_context(self, *args, **kwargs) -> click.Context:
        with _one_line_usage_errors():
            return super().make_context(*args, **kwargs)

    def invoke(self, ctx: click.Context):
        from nblint.core.dependencies import explain_missing
        from nblint.engine import PackError

        try:
            with _one_line_usage_errors():
                return super().invoke(ctx)
        except PackError as exc:  # an installed rule pack that cannot be loaded: one line, exit 2
            click.echo(f"nblint: error: {exc}", err=True)
            sys.exit(2)
        except ImportError as exc:  # a package nblint can name the install of: one line, not a traceback
            line = explain_missing(exc)
            if line is None:
                raise
            click.echo(f"nblint: error: {line}", err=True)
            sys.exit(2)


class _Model(click.ParamType):
    """A Naive Bayes model: ``bernoulli`` or its class, ``BernoulliNB`` (any case)."""

    name = "model"

    def convert(self, value, param, ctx):
        model = parse_model(value) if isinstance(value, str) else None
        if model is None:
            self.fail(f"{value!r} is not one of {model_choices()}", param, ctx)
        return model


MODEL = _Model()
MODEL_HELP = "The Naive Bayes event model in use: bernoulli, multinomial, complement, gaussian, categorical, or its class (BernoulliNB...)."


def _codes(value: str | None) -> list[str] | None:
    if value is None:
        return None
    return [v.strip() for v in value.split(",") if v.strip()]


def _validate_selectors(**selectors: str | None) -> None:
    """Reject --select/--ignore/... values that match no rule (a usage error, exit 2)."""
    rules = load_rules()
    for option, value in selectors.items():
        what, codes = "--" + option.replace("_", "-"), _codes(value)
        try:
            validate_codes(codes or [], rules, what)
        except ValueError as exc:
            raise click.UsageError(str(exc)) from None


def _refuse_output_over_input(output: str | None, paths) -> None:
    """A usage error when ``--output`` names one of the inputs: writing the report would overwrite it."""
    import os

    if output is None or not os.path.exists(output):
        return
    from nblint.pipelines import is_config_path
    from nblint.readers import is_table_path

    for path in paths:
        if path == "-" or not os.path.exists(path):
            continue
        inside = (
            os.path.isdir(path)
            and (is_table_path(output) or is_config_path(output))
            and os.path.realpath(output).startswith(os.path.join(os.path.realpath(path), ""))
        )
        if inside or os.path.samefile(output, path):
            raise click.UsageError(f"--output {output} is an input of this run: writing the report would overwrite it")


FORCE = click.option("--force", is_flag=True, help="Overwrite the output file if it exists.")


def printable(text: str, controls: bool = True, color: bool = False) -> str:
    """``text`` safe to print: a file name's undecodable bytes as ``\\udcXX`` and, with ``controls``,
    control characters (a carriage return would let a name overwrite its own line) as escapes.

    ESC stays when ``color`` (the colours are escapes); newlines and tabs always stay.
    """
    text = text.encode("utf-8", "backslashreplace").decode("utf-8")
    if not controls:
        return text
    pattern = _CONTROLS_KEEP_ESC if color else _CONTROLS
    return pattern.sub(lambda m: repr(m.group())[1:-1], text)


_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f]")
_CONTROLS_KEEP_ESC = re.compile("[\x00-\x08\x0b-\x1a\x1c-\x1f\x7f]")


def _write(output: str, text: str, what: str, force: bool = False) -> None:
    """Write ``text`` to the file ``output`` atomically; exit 2 with one error line if that fails or it exists."""
    from nblint.core.atomic import OutputExists, write_text

    try:
        write_text(output, text, force)
    except OutputExists as exc:
        click.echo(f"{output}: error: {exc}", err=True)
        sys.exit(2)
    except OSError as exc:
        click.echo(f"{output}: error: cannot write the {what}: {exc.strerror or exc}", err=True)
        sys.exit(2)


def _refuse_text_without_sklearn(engine: str) -> None:
    """A usage error, before anything is read, when ``--text`` cannot work."""
    if engine != "local":
        raise click.UsageError("--text reads the table with the local engine only (not --engine dask)")
    from nblint.core.dependencies import require
    from nblint.core.errors import MissingDependency

    try:
        require("sklearn.feature_extraction.text", "--text")  # what --text will use
    except MissingDependency as exc:
        raise click.UsageError(str(exc)) from None


def _refuse_existing_output(output: str | None, force: bool, *more: str) -> None:
    """Exit 2 with one line, before any work, when an output file exists and ``--force`` was not given."""
    from nblint.core.atomic import OutputExists, refuse_existing

    try:
        refuse_existing([p for p in (output, *more) if p], force)
    except OutputExists as exc:
        click.echo(f"{exc.path}: error: {exc}", err=True)
        sys.exit(2)


class _FiniteFloat(click.ParamType):
    """A finite number at least ``minimum`` (click's FloatRange lets nan through: every comparison with it is false)."""

    name = "float"

    def __init__(self, minimum: float):
        self.minimum = minimum

    def convert(self, value, param, ctx):
        import math

        number = click.FLOAT.convert(value, param, ctx)
        if not math.isfinite(number) or number < self.minimum:
            self.fail(f"{value!r} is not a finite number >= {self.minimum:g}", param, ctx)
        return number


@click.group("nblint", cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", prog_name="nblint")
@click.pass_context
def main(ctx: click.Context) -> None:
    """nblint: lint tables and pipeline configs fed to Naive Bayes."""
    from nblint.core.interrupts import exit_on_signals
    from nblint.core.resources import fit_threads_to_address_space
    from nblint.run.blas import one_blas_thread

    ctx.with_resource(one_blas_thread())  # for every command (impact, columns: not through lint_source)
    ctx.with_resource(exit_on_signals())  # SIGINT/SIGTERM/SIGHUP/SIGUSR1: temp files removed, exit 128 + signal
    fit_threads_to_address_space()  # (after: it may load numpy, whose BLAS must see one thread as it loads)


@main.command()
@click.argument("paths", nargs=-1)
@click.option("--target", "-t", help="The class column.")
@click.option(
    "--text",
    metavar="COLUMN",
    help="A column of documents: lint its word counts, as scikit-learn's CountVectorizer() makes them, beside the "
    "other numeric columns.",
)
@click.option(
    "--test",
    metavar="PATH",
    help="The test or serving table of the checked table (any format nblint reads; the target may be absent): "
    "say what a model fitted on the checked table meets there (NB6xx rules: unseen levels, zero cells met, "
    "rows in both tables, prior shift, values out of support, unseen words, schema).",
)
@click.option("--model", "-m", type=MODEL, metavar="MODEL", help=MODEL_HELP)
@click.option("--alpha", type=_FiniteFloat(0.0), help="The model's smoothing (0 = none: a zero count vetoes a class).")
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
@click.option("--config", type=click.Path(dir_okay=False), help="Use this config file instead of searching for one.")
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
    from nblint.core.terminal import Progress, color_enabled, is_interactive
    from nblint.report.formats import render, render_statistics
    from nblint.run.runner import Overrides, lint_paths

    _validate_selectors(select=select, ignore=ignore, extend_select=extend_select, extend_ignore=extend_ignore)
    _refuse_output_over_input(output, paths)
    _refuse_existing_output(output, force)
    if statistics and output_format not in ("text", "concise", "json"):
        raise click.UsageError(f"--statistics prints text or json, not {output_format}")
    if text is not None:
        _refuse_text_without_sklearn(engine)
    overrides = Overrides(
        target=target,
        text=text,
        test=test,
        model=model,
        alpha=alpha,
        select=_codes(select),
        ignore=_codes(ignore),
        fail_on=Severity.parse(fail_on) if fail_on else None,
        encoding=encoding,
        config=config,
        sheet=sheet,
        extend_select=_codes(extend_select),
        extend_ignore=_codes(extend_ignore),
        preview=preview,
        allow_outside_data=allow_outside_data,
    )
    if scheduler and engine != "dask":
        raise click.UsageError("--scheduler needs --engine dask")
    from nblint.core.errors import ConfigError

    stderr = sys.stderr  # (click.get_text_stream is deprecated from Click 8.5: the streams themselves)
    progress = Progress(stderr, enabled=not quiet and is_interactive(stderr))
    try:
        result = lint_paths(
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
    stdout = sys.stdout
    use_color = (
        output is None and output_format in ("text", "concise") and not statistics and color_enabled(color, stdout)
    )
    if statistics:
        report = render_statistics(result, "json" if output_format == "json" else "text", summary=not quiet)
    else:
        report = render(result, output_format, color=use_color, quiet=quiet)
    report = printable(report, controls=output_format in ("text", "concise") or statistics, color=use_color)
    # The warnings and error lines first: the report ends with the summary that counts them.
    seen = set()
    for message in ([] if quiet else result.warnings) + [r.error for r in result.errors if r.error]:
        if message not in seen:
            seen.add(message)
            click.echo(printable(message), err=True)
    if output is None:
        _echo_stdout(report, use_color)
    else:
        _write(output, report, "report", force)
    sys.exit(result.exit_code(exit_zero=exit_zero))


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


@main.command()
@click.argument("path")
@click.option("--target", "-t", help="The class column (default: from the config).")
@click.option("--model", "-m", type=MODEL, metavar="MODEL", help=MODEL_HELP)
@click.option("--select", help="Comma-separated rule codes or prefixes to include as checks (default: the config's).")
@click.option("--ignore", help="Comma-separated rule codes or prefixes to leave out.")
@click.option(
    "--output",
    "-o",
    "output",
    type=click.Path(dir_okay=False, writable=True),
    help="Write the YAML schema to this file instead of standard output.",
)
@click.option("--config", type=click.Path(dir_okay=False), help="Use this config file instead of searching for one.")
@click.option("--encoding", help="Text encoding of a CSV/TSV input (default: utf-8).")
@click.option(
    "--new-rows",
    is_flag=True,
    help="Write the schema a new (test or serving) table must pass instead: PATH's levels and support ranges.",
)
@FORCE
def schema(path, target, model, select, ignore, output, config, encoding, new_rows, force):
    """Write a pandera schema (YAML) for the table at PATH.

    Column dtypes and nullability, the one-hot groups found as nblint_sum_to_one
    checks, and each enabled rule as its nblint_* dataframe check with the target,
    model and options as statistics (rules below error severity warn). Load it
    with nblint.pandera.load_schema. Exit status 2 when the table cannot be read.

    With --new-rows, the schema a test or serving table of the training table PATH must
    pass (nblint.pandera.schema_for_new_rows): each discrete column isin its training
    levels, each measurement in_range of its training support, the target optional.
    """
    from nblint.core.errors import ConfigError, NblintError
    from nblint.run.runner import Overrides, settings_for

    _validate_selectors(select=select, ignore=ignore)
    _refuse_output_over_input(output, [path])
    _refuse_existing_output(output, force)
    overrides = Overrides(
        target=target, model=model, select=_codes(select), ignore=_codes(ignore), encoding=encoding, config=config
    )
    try:
        settings = settings_for(path, overrides, {})
    except ConfigError as exc:
        click.echo(str(exc), err=True)
        sys.exit(2)
    import nblint.pandera as nbpa

    try:
        if new_rows:
            table_schema = nbpa.schema_for_new_rows(path, settings=settings)
        else:
            table_schema = nbpa.schema_for_table(path, settings, settings.enabled_codes(path))
    except NblintError as exc:
        click.echo(f"{path}: error: {exc}", err=True)
        sys.exit(2)
    text = nbpa.schema_yaml(table_schema, path)
    if output is None:
        click.echo(text, nl=False)
    else:
        _write(output, text, "schema", force)
    for line in _schema_failures(table_schema, path, settings.encoding):
        click.echo(line, err=True)


def _schema_failures(table_schema, path: str, encoding: str) -> list[str]:
    """Warning lines for the schema's error checks that already fail on the table it was written for.

    The schema carries every enabled rule as a check, and a rule that finds something
    in this table fails here too: say so at writing time (which checks, and why, in
    the rule's own words) rather than at the first validation in CI.
    """
    import warnings

    import pandera.errors as pa_errors

    import nblint.pandera as nbpa

    try:
        frame = nbpa.read_frame(path, encoding)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the warn-level checks: findings below error, not failures
            table_schema.validate(frame, lazy=True)
    except pa_errors.SchemaErrors as exc:
        errors = exc.schema_errors
    except pa_errors.SchemaError as exc:
        errors = [exc]
    except Exception as exc:  # the table read by pandas differs from nblint's reading: say it, do not fail
        return [f"{path}: warning: the schema could not be tried on the table ({type(exc).__name__}: {exc})"]
    else:
        return []
    lines = [f"{path}: warning: this schema already fails on the table it was written for ({len(errors)} checks):"]
    for error in errors:
        first = str(error).splitlines()[0] if str(error) else type(error).__name__
        lines.append(f"  {first}")
    lines.append(
        "  (the schema checks what nblint checks: fix the table, or pass --ignore/--select to leave rules out)"
    )
    return lines


@main.command()
@click.argument("path")
@click.option("--target", "-t", help="The class column.")
@click.option("--format", "output_format", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--config", type=click.Path(dir_okay=False), help="Use this config file instead of searching for one.")
@click.option("--encoding", help="Text encoding of CSV/TSV inputs (default: utf-8).")
@click.option("--sheet", metavar="NAME", help="The sheet of an Excel workbook to read (default: the first).")
@click.option(
    "--pipeline", is_flag=True, help="Print scikit-learn code that builds the recommended model (needs a target)."
)
@click.option(
    "--text",
    metavar="COLUMN",
    help="A column of documents: read its words as check --text does.",
)
def columns(path, target, output_format, config, encoding, sheet, pipeline, text):
    """Print each column's kind, the event model nblint recommends for it, and why.

    With --text COLUMN the column's words are one row (the document-term block), and
    the table's other columns are shown beside it.
    """
    import json

    from nblint.core.errors import NblintError
    from nblint.run.runner import Overrides, beside_context, table_context

    if text is not None:
        _refuse_text_without_sklearn("local")
    try:
        ctx = table_context(path, Overrides(target=target, config=config, encoding=encoding, sheet=sheet, text=text))
        beside = beside_context(ctx)
    except NblintError as exc:
        click.echo(f"{path}: error: {exc}", err=True)
        sys.exit(2)
    if pipeline and ctx.term_columns:
        raise click.UsageError("--pipeline writes the model of a table's columns, not of a block of words")
    if pipeline:
        from nblint.estimators.recommend import pipeline_code

        if ctx.target is None:
            raise click.UsageError("--pipeline needs a target: --target COLUMN (or `target` in the config)")
        from nblint.run.runner import settings_for

        used = settings_for(path, Overrides(target=target, config=config, encoding=encoding), {}).encoding
        click.echo(pipeline_code(ctx, path, used, sheet), nl=False)
        return
    from nblint.estimators.recommend import recommended_models

    kinds = [ctx.kinds[name] for name in ctx.source.names]  # as the table has them (the profile sorts by name)
    # the model column is the model each column has in the recommended model (--pipeline), so the two agree
    models = recommended_models(ctx) if ctx.target is not None else {k.column: k.model or "-" for k in kinds}
    if text is not None:
        kinds, models = _words_as_one_row(ctx, text, kinds, models)
    if beside is not None:
        extra = [beside.kinds[name] for name in beside.source.names if name != ctx.target]
        kinds += extra
        models |= {k.column: k.model or "-" for k in extra}
    if output_format == "json":
        # "model" stays the kind's event model (what the kind alone says); "pipeline_model" is the text's column
        records = [
            k.to_dict() | {"pipeline_model": None if models[k.column] == "-" else models[k.column]} for k in kinds
        ]
        click.echo(json.dumps(records, indent=2, ensure_ascii=False))
        return
    width = max([len("column")] + [len(k.column) for k in kinds])
    click.echo(f"{'column':<{width}}  {'kind':<12}  {'model':<11}  {'status':<9}  why")
    for k in kinds:
        click.echo(f"{k.column:<{width}}  {k.kind:<12}  {models[k.column]:<11}  {k.status:<9}  {k.why}")
    mixed = sorted({models[k.column] for k in kinds if models[k.column] != "-"})
    if len(mixed) > 1:
        click.echo(f"\nMixed kinds: no single event model fits every column ({', '.join(mixed)}); see NB308.")


def _words_as_one_row(ctx, text: str, kinds: list, models: dict) -> tuple[list, dict]:
    """``nblint columns --text``: the words of the column's vocabulary as one row named by the column.

    They are CountVectorizer() counts, whatever one word looks like (a word seen at most
    once per document is 0/1): a count block, for a multinomial model.
    """
    from nblint.structure.kinds import ColumnKind, Kind

    vocabulary = set(ctx.source.words)
    row = ColumnKind(
        text,
        Kind.COUNT,
        "multinomial",
        f"documents: {len(vocabulary):,} words (CountVectorizer() counts), read as text models read words",
        float(len(vocabulary)),
    )
    kept = {c: m for c, m in models.items() if c not in vocabulary}
    return [row] + [k for k in kinds if k.column not in vocabulary], {**kept, text: "multinomial"}


@main.command()
@click.argument("path")
@click.option("--target", "-t", help="The class column (or `target` in the config).")
@click.option("--format", "output_format", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--alpha", type=_FiniteFloat(0.0), help="Smoothing of both models (default: NB401's alpha option, 1).")
@click.option("--folds", type=click.IntRange(min=2), help="Cross-validation folds (default 5).")
@click.option(
    "--seed", type=click.IntRange(min=0), help="Seed of the fold assignment, a whole number >= 0 (default 0)."
)
@click.option(
    "--plot",
    "plot_path",
    type=click.Path(dir_okay=False),
    help="Also draw the comparison to this PNG (needs naive-bayes-lint[plot]).",
)
@click.option("--config", type=click.Path(dir_okay=False), help="Use this config file instead of searching for one.")
@click.option("--encoding", help="Text encoding of CSV/TSV inputs (default: utf-8).")
@FORCE
@click.option("--sheet", metavar="NAME", help="The sheet of an Excel workbook to read (default: the first).")
@click.option(
    "--text",
    metavar="COLUMN",
    help="A column of documents: read its words as check --text does.",
)
@click.option(
    "--test",
    "test_path",
    metavar="PATH",
    help="A test table with the same columns: score the models fitted on PATH on its rows (log-loss, accuracy).",
)
@click.option("--model", "-m", type=MODEL, metavar="MODEL", help="The declared model, scored on the --test rows too.")
def impact(
    path, target, output_format, alpha, folds, seed, plot_path, config, encoding, force, sheet, text, test_path, model
):
    """Measure what reading one-hot/dummy groups as independent bits costs (NB401, in full).

    With --text COLUMN the column's words are read as check --text reads them, beside the
    table's numeric columns (where metadata groups are measured).

    With --test TEST the recommended model (MixedNB, groups collapsed) and the declared
    model (--model, or the configuration's) are fitted on PATH and scored on TEST's rows:
    test-set log-loss and accuracy, and how many test rows the train/test findings touch.
    """
    import json

    from nblint import impact as impact_mod
    from nblint.core.errors import NblintError
    from nblint.estimators.explain import explain_weights
    from nblint.report import formats as reporters
    from nblint.run.runner import Overrides, table_context

    if plot_path:
        from nblint.core.dependencies import require
        from nblint.core.errors import MissingDependency

        try:
            require("matplotlib", "--plot")
        except MissingDependency as exc:
            raise click.UsageError(str(exc)) from None
        folder = os.path.dirname(plot_path)
        if folder and not os.path.isdir(folder):  # say so before measuring, not after
            click.echo(f"{plot_path}: error: cannot write the plot: no folder {folder!r}", err=True)
            sys.exit(2)
        _refuse_existing_output(plot_path, force)
    if text is not None:
        _refuse_text_without_sklearn("local")
        if test_path is not None:
            # (the held-out scores read the test rows by the training table's feature columns; a text column's
            # words become columns only through the training vocabulary, which that reading does not apply)
            click.echo(
                f"{test_path}: error: impact --test does not take --text: the held-out scores read the test table's "
                f"feature columns, and its documents have none until counted with the training vocabulary; "
                f"`nblint check {path} --text {text} --test {test_path}` gives the train/test findings",
                err=True,
            )
            sys.exit(2)
    overrides = Overrides(target=target, config=config, encoding=encoding, sheet=sheet, text=text, model=model)
    try:
        ctx = table_context(path, overrides)
        if ctx.target is None:
            raise click.UsageError("impact needs a target: --target COLUMN (or `target` in the config)")
        result = impact_mod.measure_impact(ctx, ctx.impact_settings(alpha, folds, seed))
        weights = explain_weights(ctx)  # the recommended model's weights: what a user of the fix gets
    except NblintError as exc:
        click.echo(f"{path}: error: {exc}", err=True)
        sys.exit(2)
    heldout = None
    if test_path is not None:
        heldout = _heldout(ctx, path, test_path, overrides, ctx.impact_settings(alpha, folds, seed).alpha)
    if output_format == "json":
        data = reporters.impact_json(result, path, weights, with_weights=True)
        if heldout is not None:
            data["test"] = reporters.heldout_json(heldout, test_path)
        click.echo(json.dumps(data, indent=2, ensure_ascii=False))
        if result is None:
            return
    elif result is None:
        click.echo(f"{path}: no one-hot or dummy groups found (or fewer than two classes): nothing to measure")
        click.echo(reporters.render_weights_text(weights), nl=False)
        if heldout is not None:
            click.echo(reporters.render_heldout_text(heldout, test_path), nl=False)
        return
    else:
        click.echo(reporters.render_impact_text(result, path), nl=False)
        click.echo(reporters.render_weights_text(weights), nl=False)
        if heldout is not None:
            click.echo(reporters.render_heldout_text(heldout, test_path), nl=False)
    if plot_path:
        try:
            from nblint.core.atomic import OutputExists, atomic_output

            with atomic_output(plot_path, force) as temporary:
                title = f"{path}: one-hot groups read as bits (PoB) vs collapsed (CAT)"
                reporters.plot_impact(result, temporary, title)
        except OutputExists as exc:
            click.echo(f"{plot_path}: error: {exc}", err=True)
            sys.exit(2)
        except OSError as exc:
            click.echo(f"{plot_path}: error: cannot write the plot: {exc.strerror or exc}", err=True)
            sys.exit(2)
        click.echo(f"wrote {plot_path}", err=True)


def _heldout(ctx, path: str, test_path: str, overrides, alpha: float):
    """``impact --test``: the test table read as the training table was, and the models scored on it."""
    from nblint.core.errors import NblintError
    from nblint.impact.heldout import measure_heldout
    from nblint.readers.files import read_table
    from nblint.run.runner import settings_for

    settings = settings_for(path, overrides, {})
    try:
        test_source = read_table(test_path, encoding=settings.encoding, sheet=overrides.sheet)
    except NblintError as exc:
        click.echo(f"{test_path}: error: {exc}", err=True)
        sys.exit(2)
    try:
        return measure_heldout(ctx, test_source, alpha, _train_test_findings(path, test_path, overrides), ctx.model)
    except NblintError as exc:
        click.echo(f"{test_path}: error: {exc}", err=True)
        sys.exit(2)


def _train_test_findings(path: str, test_path: str, overrides) -> list:
    """The train/test findings (NB6xx) of this pair, as ``nblint check PATH --test TEST`` finds them.

    Empty where the run has no test table to pair (a build without the train/test inputs of
    issue 38 item 1: the merge wires ``Overrides.test``).
    """
    import dataclasses

    from nblint.impact.heldout import train_test_codes
    from nblint.run.runner import lint_paths

    codes = sorted(train_test_codes())
    if not codes or "test" not in {f.name for f in dataclasses.fields(overrides)}:
        return []
    paired = dataclasses.replace(overrides, test=test_path, select=codes)
    return lint_paths([path], paired).findings


@main.command()
@click.argument("path")
@click.option(
    "--output",
    "-o",
    "output",
    required=True,
    type=click.Path(dir_okay=False),
    help="The table to write (.parquet, .pq, .csv, .tsv); its mapping goes beside it (<stem>.mapping.json).",
)
@click.option(
    "--restore",
    "mapping",
    type=click.Path(dir_okay=False),
    help="Undo: write PATH (a table nblint fix wrote) with the groups of this mapping file as bits again.",
)
@click.option("--config", type=click.Path(dir_okay=False), help="Use this config file instead of searching for one.")
@click.option("--encoding", help="Text encoding of a CSV/TSV input (default: utf-8).")
@FORCE
def fix(path, output, mapping, config, encoding, force):
    """Write the table at PATH with its one-hot/dummy groups collapsed into categorical columns.

    Each group becomes one text column (its level on every row), at the place of
    its first member; a mapping file beside the output records how to undo it
    (--restore). The input is never written: an output naming it is refused, and
    so is an existing output unless --force. Both files appear complete or not at
    all, and together (written aside, then renamed as one unit: a failure leaves
    the previous pair).
    """
    from nblint.core.atomic import OutputExists
    from nblint.core.errors import NblintError
    from nblint.estimators import fix as fix_mod
    from nblint.run.runner import Overrides, table_context

    try:
        fix_mod.output_format(output)
        written = [output] if mapping else [output, fix_mod.mapping_path(output)]
        fix_mod.check_outputs([path] + ([mapping] if mapping else []), written)
        _refuse_existing_output(None, force, *written)
        if mapping:
            restored = fix_mod.restore(fix_mod.read_arrow(path), fix_mod.read_mapping(mapping))
            fix_mod.write_tables([restored], output, force)
            click.echo(f"wrote {output}", err=True)
            return
        ctx = table_context(path, Overrides(config=config, encoding=encoding))
        groups = fix_mod.write_fixed(ctx, output, force)
    except OutputExists as exc:
        click.echo(f"{exc.path}: error: {exc}", err=True)
        sys.exit(2)
    except NblintError as exc:
        click.echo(f"{path}: error: {exc}", err=True)
        sys.exit(2)
    except OSError as exc:  # (a failed move names its target: the table or its mapping)
        target = exc.filename2 if isinstance(exc.filename2, str) else output
        click.echo(f"{target}: error: cannot write: {exc.strerror or exc}", err=True)
        sys.exit(2)
    if not groups:
        click.echo(f"{path}: no one-hot or dummy groups found: nothing to collapse, nothing written")
        return
    for group in groups:
        click.echo(f"{path}: {group['kind']} group of {len(group['members'])} columns -> {group['column']!r}")
    click.echo(f"wrote {output} and {fix_mod.mapping_path(output)}")


@main.command("rules")
@click.option(
    "--format",
    "output_format",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="json: every rule with its severity, inputs, models, options and documentation.",
)
def list_rules(output_format):
    """List every rule: code, name, default severity and summary."""
    rules = load_rules().values()
    if output_format == "json":
        import json

        click.echo(json.dumps([rule_record(rule) for rule in rules], indent=2, ensure_ascii=False))
        return
    for rule in rules:
        click.echo(describe(rule))


@main.command("rule")
@click.argument("code")
def show_rule(code):
    """Print one rule's documentation (CODE is a rule code or a rule name)."""
    from nblint.engine.registry import renamed_note, rule_guess, selector_code

    rules = load_rules()
    rule = rules.get(selector_code(code))
    if rule is None:  # the did-you-mean of --select, from the same function
        raise click.UsageError(f"unknown rule {code!r}{rule_guess(code, rules)} (`nblint rules` lists them)")
    note = renamed_note(code)
    if note:
        click.echo(note, err=True)
    click.echo(rule.documentation(status=True), nl=False)


if __name__ == "__main__":  # pragma: no cover
    main()
