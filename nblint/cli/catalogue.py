"""``nblint rules`` and ``nblint rule CODE``: the rule catalogue."""

from __future__ import annotations

import click

from nblint.cli.base import main
from nblint.engine import describe, load_rules, rule_record


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
    from nblint.engine.selection import renamed_note, rule_guess, selector_code

    rules = load_rules()
    rule = rules.get(selector_code(code))
    if rule is None:  # the did-you-mean of --select, from the same function
        raise click.UsageError(f"unknown rule {code!r}{rule_guess(code, rules)} (`nblint rules` lists them)")
    note = renamed_note(code)
    if note:
        click.echo(note, err=True)
    click.echo(rule.documentation(status=True), nl=False)
