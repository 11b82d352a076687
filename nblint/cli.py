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
@click.option("--jobs", "-j", type=click.IntRange(min=1), help="Chunks profiled in parallel (default: every core). Output is the same for every value.")
@click.option("--engine", type=click.Choice(["local", "dask"]), default="local", show_default=True,
              help="dask: read each path (file, glob or Parquet folder) with Dask and profile its partitions on the cluster.")
@click.option("--scheduler", metavar="ADDRESS", help="With --engine dask: the Dask scheduler to use (e.g. tcp://host:8786; default: local).")
def check(paths, target, model, select, ignore, output_format, config, fail_on, encoding, jobs, engine, scheduler):
    """Lint tables (CSV, TSV, gzip CSV, Parquet; - for CSV on stdin) and folders of them.

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
    if scheduler and engine != "dask":
        raise click.UsageError("--scheduler needs --engine dask")
    from nblint.errors import ConfigError

    try:
        result = lint_paths(list(paths), overrides, jobs=jobs, engine=engine, scheduler=scheduler)
    except ConfigError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(2)
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


@main.command()
@click.argument("path")
@click.option("--target", "-t", help="The class column.")
@click.option("--format", "output_format", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--config", type=click.Path(dir_okay=False), help="Use this config file instead of searching for one.")
@click.option("--encoding", help="Text encoding of CSV/TSV inputs (default: utf-8).")
def columns(path, target, output_format, config, encoding):
    """Print each column's kind, the event model nblint recommends for it, and why."""
    import json

    from nblint.errors import NblintError
    from nblint.runner import Overrides, table_context

    try:
        ctx = table_context(path, Overrides(target=target, config=config, encoding=encoding))
    except NblintError as exc:
        click.echo(f"{path}: error: {exc}", err=True)
        sys.exit(2)
    kinds = list(ctx.kinds.values())
    if output_format == "json":
        click.echo(json.dumps([k.to_dict() for k in kinds], indent=2, ensure_ascii=False))
        return
    width = max([len("column")] + [len(k.column) for k in kinds])
    click.echo(f"{'column':<{width}}  {'kind':<12}  {'model':<11}  why")
    for k in kinds:
        click.echo(f"{k.column:<{width}}  {k.kind:<12}  {k.model or '-':<11}  {k.why}")
    mixed = sorted({k.model for k in kinds if k.model})
    if len(mixed) > 1:
        click.echo(f"\nMixed kinds: no single event model fits every column ({', '.join(mixed)}); see NB308.")


@main.command()
@click.argument("path")
@click.option("--target", "-t", help="The class column (or `target` in the config).")
@click.option("--format", "output_format", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--alpha", type=click.FloatRange(min=0.0), help="Smoothing of both models (default: NB401's alpha option, 1).")
@click.option("--folds", type=click.IntRange(min=2), help="Cross-validation folds (default 5).")
@click.option("--seed", type=int, help="Seed of the fold assignment (default 0).")
@click.option("--plot", "plot_path", type=click.Path(dir_okay=False), help="Also draw the comparison to this PNG (needs nblint[plot]).")
@click.option("--config", type=click.Path(dir_okay=False), help="Use this config file instead of searching for one.")
@click.option("--encoding", help="Text encoding of CSV/TSV inputs (default: utf-8).")
def impact(path, target, output_format, alpha, folds, seed, plot_path, config, encoding):
    """Measure what reading one-hot/dummy groups as independent bits costs (NB401, in full)."""
    import json

    from nblint import impact as impact_mod
    from nblint.errors import NblintError
    from nblint.runner import Overrides, table_context

    if plot_path:
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            raise click.UsageError("--plot needs matplotlib: pip install 'nblint[plot]'") from None
    try:
        ctx = table_context(path, Overrides(target=target, config=config, encoding=encoding))
        if ctx.target is None:
            raise click.UsageError("impact needs a target: --target COLUMN (or `target` in the config)")
        options = ctx.rule_options["NB401"]
        settings = impact_mod.ImpactSettings(
            alpha=alpha if alpha is not None else (ctx.alpha if ctx.alpha is not None else float(options["alpha"])),
            folds=folds or int(options["folds"]),
            seed=seed if seed is not None else int(options["seed"]),
        )
        result = impact_mod.measure_impact(ctx, settings)
    except NblintError as exc:
        click.echo(f"{path}: error: {exc}", err=True)
        sys.exit(2)
    if result is None:
        click.echo(f"{path}: no one-hot or dummy groups found (or fewer than two classes): nothing to measure")
        return
    if output_format == "json":
        click.echo(json.dumps(impact_mod.to_json(result, path), indent=2, ensure_ascii=False))
    else:
        click.echo(impact_mod.render_text(result, path), nl=False)
    if plot_path:
        impact_mod.plot(result, plot_path, f"{path}: one-hot groups read as bits (PoB) vs collapsed (CAT)")
        click.echo(f"wrote {plot_path}", err=True)


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
