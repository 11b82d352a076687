"""``nblint schema``: write a pandera schema of nblint's checks for a table."""

from __future__ import annotations

import sys

import click

from nblint.cli.base import (
    CONFIG,
    FORCE,
    MODEL,
    MODEL_HELP,
    TARGET,
    main,
    refuse_existing_output,
    refuse_output_over_input,
    split_codes,
    validate_selectors,
    write_output,
)


@main.command()
@click.argument("path")
@click.option("--target", "-t", type=TARGET, help="The class column (default: from the config).")
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
@CONFIG
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
    from nblint.run.overrides import Overrides
    from nblint.run.runner import settings_for

    validate_selectors(select=select, ignore=ignore)
    refuse_output_over_input(output, [path])
    refuse_existing_output(output, force)
    overrides = Overrides(
        target=target,
        model=model,
        select=split_codes(select),
        ignore=split_codes(ignore),
        encoding=encoding,
        config=config,
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
        write_output(output, text, "schema", force)
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
