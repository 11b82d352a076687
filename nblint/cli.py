"""The ``nblint`` command line."""

from __future__ import annotations

import sys

import click

from nblint import __version__
from nblint.engine import MODELS, describe, load_rules, validate_codes
from nblint.findings import Severity


def _codes(value: str | None) -> list[str] | None:
    if value is None:
        return None
    return [v.strip() for v in value.split(",") if v.strip()]


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", prog_name="nblint")
def main() -> None:
    """nblint: lint tables and pipeline configs fed to Naive Bayes."""


@main.command()
@click.argument("paths", nargs=-1, required=True)
@click.option("--target", "-t", help="The class column.")
@click.option("--model", "-m", type=click.Choice(MODELS, case_sensitive=False), help="The Naive Bayes event model in use.")
@click.option("--select", help="Comma-separated rule codes or prefixes to enable (default: all).")
@click.option("--ignore", help="Comma-separated rule codes or prefixes to disable.")
@click.option("--format", "output_format", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--config", type=click.Path(dir_okay=False), help="Use this config file instead of searching for one.")
@click.option("--fail-on", type=click.Choice(["info", "warning", "error"]), help="Lowest severity that makes the exit code 1 (default: warning).")
@click.option("--encoding", help="Text encoding of CSV/TSV inputs (default: utf-8).")
def check(paths, target, model, select, ignore, output_format, config, fail_on, encoding):
    """Lint tables (CSV, TSV, gzip CSV, Parquet; - for CSV on stdin), pipeline configs
    (YAML, JSON, TOML, Python) and folders of them.

    Files that are not pipeline configs are skipped silently. A table checked
    with a pipeline config takes the config's Naive Bayes model unless --model
    is given.

    Exit status: 0 when nothing is at or above the fail level, 1 when something is,
    2 when an input or config could not be read (the other inputs are still linted).
    """
    from nblint.runner import Overrides, lint_paths

    rules = load_rules()
    for what, codes in (("--select", _codes(select)), ("--ignore", _codes(ignore))):
        try:
            validate_codes(codes or [], rules, what)
        except ValueError as exc:
            raise click.UsageError(str(exc)) from None
    overrides = Overrides(
        target=target,
        model=model.lower() if model else None,
        select=_codes(select),
        ignore=_codes(ignore),
        fail_on=Severity.parse(fail_on) if fail_on else None,
        encoding=encoding,
        config=config,
    )
    result = lint_paths(list(paths), overrides)
    from nblint.reporters import render_json, render_text

    findings = result.findings
    if output_format == "json":
        click.echo(render_json(findings), nl=False)
    else:
        click.echo(render_text(findings, len(result.files)), nl=False)
    seen = set()
    for message in result.warnings + [r.error for r in result.errors]:
        if message not in seen:
            seen.add(message)
            click.echo(message, err=True)
    sys.exit(result.exit_code())


@main.command("rules")
def list_rules():
    """List every rule: code, name, default severity and summary."""
    for rule in load_rules().values():
        click.echo(describe(rule))


@main.command("rule")
@click.argument("code")
def show_rule(code):
    """Print one rule's documentation."""
    rule = load_rules().get(code.upper())
    if rule is None:
        raise click.UsageError(f"unknown rule {code!r}; `nblint rules` lists them")
    click.echo(rule.documentation(), nl=False)


if __name__ == "__main__":  # pragma: no cover
    main()
