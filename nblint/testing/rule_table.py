"""The README's rule tables, generated from the rules: code, name, default severity and summary line.

A table sits between two markers naming the inputs its rules read::

    <!-- rule-table: table -->
    | code | name | severity | what |
    ...
    <!-- /rule-table -->

``python -m nblint.testing.rule_table README.md`` rewrites every such table from
the installed rules; with ``--check`` it only says whether they are current
(exit 1 if not), which the test suite runs.  The rules stay the one registry.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable

from nblint.engine import Rule, load_rules

_TABLE = re.compile(r"(<!-- rule-table: (?P<inputs>[a-z ]+) -->\n)(?P<body>.*?)(<!-- /rule-table -->)", re.S)


def rule_table(rules: Iterable[type[Rule]]) -> str:
    """A Markdown table of ``rules``: one row each, ``| code | name | severity | summary |``.

    A rule that is not stable has its status after its name (``mp-new (preview)``): a stable
    rule's row says nothing more, so the table stays as narrow as before.
    """
    lines = ["| code | name | severity | what |", "|---|---|---|---|"]
    for rule in rules:
        name = rule.name if rule.status == "stable" else f"{rule.name} ({rule.status})"
        lines.append(f"| {rule.code} | {name} | {rule.severity} | {_markdown(rule.summary())} |")
    return "\n".join(lines) + "\n"


def _markdown(summary: str) -> str:
    """A docstring's summary line as a table cell: reST literals as Markdown code, no final full stop."""
    return re.sub(r"``(.+?)``", r"`\1`", summary).rstrip(".").replace("|", "\\|")


def update_tables(text: str, rules: dict[str, type[Rule]] | None = None) -> str:
    """``text`` with every marked rule table regenerated (rules reading any of the marker's inputs, by code)."""
    rules = load_rules() if rules is None else rules

    def table(match: re.Match) -> str:
        inputs = set(match.group("inputs").split())
        chosen = [rule for rule in rules.values() if inputs & set(rule.inputs)]
        return match.group(1) + rule_table(chosen) + match.group(4)

    return _TABLE.sub(table, text)


def main(argv: list[str] | None = None) -> int:
    """``python -m nblint.testing.rule_table [--check] FILE...``: regenerate (or check) the tables."""
    args = list(sys.argv[1:] if argv is None else argv)
    check = "--check" in args
    stale = []
    for path in (a for a in args if a != "--check"):
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
        updated = update_tables(text)
        if updated != text:
            stale.append(path)
            if not check:
                with open(path, "w", encoding="utf-8", newline="\n") as handle:
                    handle.write(updated)
    for path in stale:
        print(f"{path}: rule tables {'out of date' if check else 'regenerated'}", file=sys.stderr)
    return 1 if check and stale else 0


if __name__ == "__main__":
    raise SystemExit(main())
