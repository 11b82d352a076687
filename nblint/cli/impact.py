"""``nblint impact``: what reading one-hot/dummy groups as independent bits costs (NB401, in full)."""

from __future__ import annotations

import os
import sys

import click

from nblint.cli.base import (
    ALPHA,
    CONFIG,
    FORCE,
    MODEL,
    TARGET,
    TEST,
    TEXT,
    main,
    refuse_existing_output,
    refuse_text_without_sklearn,
    writing_output,
)


@main.command()
@click.argument("path")
@click.option("--target", "-t", type=TARGET, help="The class column (or `target` in the config).")
@click.option("--format", "output_format", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--alpha", type=ALPHA, help="Smoothing of both models (default: NB401's alpha option, 1).")
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
@CONFIG
@click.option("--encoding", help="Text encoding of CSV/TSV inputs (default: utf-8).")
@FORCE
@click.option("--sheet", metavar="NAME", help="The sheet of an Excel workbook to read (default: the first).")
@click.option(
    "--text",
    type=TEXT,
    metavar="COLUMN",
    help="A column of documents: read its words as check --text does.",
)
@click.option(
    "--test",
    "test_path",
    type=TEST,
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
    from nblint.run.overrides import Overrides
    from nblint.run.runner import table_context

    if plot_path:
        _refuse_plot_before_measuring(plot_path, force)
    if text is not None:
        refuse_text_without_sklearn("local")
        if test_path is not None:
            _refuse_test_with_text(path, text, test_path)
    overrides = Overrides(target=target, config=config, encoding=encoding, sheet=sheet, text=text, model=model)
    try:
        ctx = table_context(path, overrides)
        if ctx.target is None:
            raise click.UsageError("impact needs a target: --target COLUMN (or `target` in the config)")
        settings = impact_mod.impact_settings(ctx, alpha, folds, seed)
        result = impact_mod.measure_impact(ctx, settings)
        weights = explain_weights(ctx)  # the recommended model's weights: what a user of the fix gets
    except NblintError as exc:
        click.echo(f"{path}: error: {exc}", err=True)
        sys.exit(2)
    heldout = None
    if test_path is not None:
        heldout = _heldout(ctx, path, test_path, overrides, settings.alpha)
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
        _write_plot(result, path, plot_path, force)


def _refuse_plot_before_measuring(plot_path: str, force: bool) -> None:
    """``--plot``: matplotlib missing, no such folder, or a file there without --force: said before measuring, not after."""
    from nblint.core.dependencies import require
    from nblint.core.errors import MissingDependency

    try:
        require("matplotlib", "--plot")
    except MissingDependency as exc:
        raise click.UsageError(str(exc)) from None
    folder = os.path.dirname(plot_path)
    if folder and not os.path.isdir(folder):
        click.echo(f"{plot_path}: error: cannot write the plot: no folder {folder!r}", err=True)
        sys.exit(2)
    refuse_existing_output(plot_path, force)


def _write_plot(result, path: str, plot_path: str, force: bool) -> None:
    """The CAT-against-PoB plot written at ``plot_path`` (whole or not at all)."""
    from nblint.core.atomic import atomic_output
    from nblint.report import formats as reporters

    with writing_output(plot_path, "plot"), atomic_output(plot_path, force) as temporary:
        title = f"{path}: one-hot groups read as bits (PoB) vs collapsed (CAT)"
        reporters.plot_impact(result, temporary, title)
    click.echo(f"wrote {plot_path}", err=True)


def _heldout(ctx, path: str, test_path: str, overrides, alpha: float):
    """``impact --test``: the test table read as the training table was, and the models scored on it."""
    from nblint.core.errors import NblintError
    from nblint.impact.heldout import measure_heldout
    from nblint.run.runner import settings_for
    from nblint.run.tables import open_table

    settings = settings_for(path, overrides, {})
    try:
        test_source, _ = open_table(test_path, encoding=settings.encoding, sheet=overrides.sheet)
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


def _refuse_test_with_text(path: str, text: str, test_path: str) -> None:
    """Exit 2 with one line: held-out scores read the test table's feature columns, which documents lack.

    A text column's words become columns only through the training vocabulary, which the held-out reading
    does not apply; ``nblint check --text --test`` gives the train/test findings instead.
    """
    click.echo(
        f"{test_path}: error: impact --test does not take --text: the held-out scores read the test table's "
        f"feature columns, and its documents have none until counted with the training vocabulary; "
        f"`nblint check {path} --text {text} --test {test_path}` gives the train/test findings",
        err=True,
    )
    sys.exit(2)
