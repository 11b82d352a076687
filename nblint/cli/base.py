"""The ``nblint`` command group and what its commands share: one-line usage errors, the option types, output checks.

Each command lives in the module of its group (:mod:`~nblint.cli.lint`, :mod:`~nblint.cli.schema`,
:mod:`~nblint.cli.columns`, :mod:`~nblint.cli.impact`, :mod:`~nblint.cli.fix`,
:mod:`~nblint.cli.catalogue`) and registers itself on :data:`main` as the package is imported.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager

import click

from nblint.core.runkeys import RUN_KEYS
from nblint.core.version import __version__
from nblint.engine import load_rules, validate_codes


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


class RunKeyOption(click.ParamType):
    """A run key given on the command line (``--alpha``, ``--model``, ...), validated as every face validates it.

    The words of a bad value are :mod:`nblint.core.runkeys`'s, the configuration's and the API's:
    ``Invalid value for '--alpha': must be a finite number >= 0, got -1``.
    """

    def __init__(self, key: str, name: str = "text"):
        self.key = RUN_KEYS[key]
        self.name = name  # (what click's help shows: --alpha FLOAT)

    def convert(self, value, param, ctx):
        if not isinstance(value, str):  # (a default, or a value converted already)
            return value
        try:
            return self.key.parse(value, from_text=True)
        except ValueError as exc:
            self.fail(str(exc), param, ctx)


MODEL = RunKeyOption("model", "model")
ALPHA = RunKeyOption("alpha", "float")
TARGET, TEXT, TEST = RunKeyOption("target"), RunKeyOption("text"), RunKeyOption("test")
MODEL_HELP = "The Naive Bayes event model in use: bernoulli, multinomial, complement, gaussian, categorical, or its class (BernoulliNB...)."


def split_codes(value: str | None) -> list[str] | None:
    if value is None:
        return None
    return [v.strip() for v in value.split(",") if v.strip()]


def validate_selectors(**selectors: str | None) -> None:
    """Reject --select/--ignore/... values that match no rule (a usage error, exit 2)."""
    rules = load_rules()
    for option, value in selectors.items():
        what, codes = "--" + option.replace("_", "-"), split_codes(value)
        try:
            validate_codes(codes or [], rules, what)
        except ValueError as exc:
            raise click.UsageError(str(exc)) from None


def refuse_output_over_input(output: str | None, paths) -> None:
    """A usage error when ``--output`` names one of the inputs: writing the report would overwrite it."""

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
#: ``--config``: every command that reads the configuration takes it in the same words.
CONFIG = click.option(
    "--config", type=click.Path(dir_okay=False), help="Use this config file instead of searching for one."
)


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


@contextmanager
def writing_output(output: str, what: str) -> Iterator[None]:
    """Exit 2 with one error line naming ``output`` when the block writing it fails, or it exists without --force."""
    from nblint.core.atomic import OutputExists

    try:
        yield
    except OutputExists as exc:
        click.echo(f"{output}: error: {exc}", err=True)
        sys.exit(2)
    except OSError as exc:
        click.echo(f"{output}: error: cannot write the {what}: {exc.strerror or exc}", err=True)
        sys.exit(2)


def write_output(output: str, text: str, what: str, force: bool = False) -> None:
    """Write ``text`` to the file ``output`` atomically; exit 2 with one error line if that fails or it exists."""
    from nblint.core.atomic import write_text

    with writing_output(output, what):
        write_text(output, text, force)


def refuse_text_without_sklearn(engine: str) -> None:
    """A usage error, before anything is read, when ``--text`` cannot work."""
    if engine != "local":
        raise click.UsageError("--text reads the table with the local engine only (not --engine dask)")
    from nblint.core.dependencies import require
    from nblint.core.errors import MissingDependency

    try:
        require("sklearn.feature_extraction.text", "--text")  # what --text will use
    except MissingDependency as exc:
        raise click.UsageError(str(exc)) from None


def refuse_existing_output(output: str | None, force: bool, *more: str) -> None:
    """Exit 2 with one line, before any work, when an output file exists and ``--force`` was not given."""
    from nblint.core.atomic import OutputExists, refuse_existing

    try:
        refuse_existing([p for p in (output, *more) if p], force)
    except OutputExists as exc:
        click.echo(f"{exc.path}: error: {exc}", err=True)
        sys.exit(2)


@click.group("nblint", cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", prog_name="nblint")
@click.pass_context
def main(ctx: click.Context) -> None:
    """nblint: lint tables and pipeline configs fed to Naive Bayes."""
    from nblint.core.blas import blas_scope
    from nblint.core.interrupts import exit_on_signals
    from nblint.core.resources import fit_threads_to_address_space

    # For every command (impact, columns: not through lint_source): BLAS loads on one thread, and the
    # libraries are limited when a dense step first needs it (a small table's check never looks for them).
    ctx.with_resource(blas_scope(environment=True))
    ctx.with_resource(exit_on_signals())  # SIGINT/SIGTERM/SIGHUP/SIGUSR1: temp files removed, exit 128 + signal
    fit_threads_to_address_space()  # (after: it may load numpy, whose BLAS must see one thread as it loads)
