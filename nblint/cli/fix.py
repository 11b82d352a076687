"""``nblint fix``: write the table with its one-hot/dummy groups collapsed into categorical columns."""

from __future__ import annotations

import sys

import click

from nblint.cli.base import CONFIG, FORCE, main, refuse_existing_output


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
@CONFIG
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
    from nblint.run.overrides import Overrides
    from nblint.run.runner import table_context

    try:
        fix_mod.output_format(output)
        written = [output] if mapping else [output, fix_mod.mapping_path(output)]
        fix_mod.check_outputs([path] + ([mapping] if mapping else []), written)
        refuse_existing_output(None, force, *written)
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
