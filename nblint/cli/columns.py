"""``nblint columns``: each column's kind and the event model nblint reads it with."""

from __future__ import annotations

import sys

import click

from nblint.cli.base import CONFIG, TARGET, TEXT, main, refuse_text_without_sklearn


@main.command()
@click.argument("path")
@click.option("--target", "-t", type=TARGET, help="The class column.")
@click.option("--format", "output_format", type=click.Choice(["text", "json"]), default="text", show_default=True)
@CONFIG
@click.option("--encoding", help="Text encoding of CSV/TSV inputs (default: utf-8).")
@click.option("--sheet", metavar="NAME", help="The sheet of an Excel workbook to read (default: the first).")
@click.option(
    "--pipeline", is_flag=True, help="Print scikit-learn code that builds the recommended model (needs a target)."
)
@click.option(
    "--text",
    type=TEXT,
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
    from nblint.run.overrides import Overrides
    from nblint.run.runner import beside_context, table_context

    if text is not None:
        refuse_text_without_sklearn("local")
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
