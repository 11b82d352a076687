"""An MkDocs hook: one page per rule, and the rule index, generated from the rules themselves.

Each page is the text ``nblint rule CODE`` prints (:meth:`nblint.engine.Rule.documentation`:
status, default severity, inputs, then the docstring's What it does / Why is this bad? /
Severity / Example / Use instead sections and the options), so no rule text is copied by hand
and a rule's page can never disagree with its docstring. The index lists every rule, family by
family, with the summary line of its docstring. Rules come from the installed rule packs
(:func:`nblint.engine.load_rules`): build the site from an environment with this checkout
installed (``pip install -e ".[docs]"``).
"""

from __future__ import annotations

import re

from mkdocs.structure.files import File, Files

#: Where the generated pages live in the site (``rules/NB101.md``, ``rules/index.md``).
FOLDER = "rules"

#: The rule families, by the first two characters of the code's number (DESIGN.md's families).
FAMILIES = {
    "NB1": "Structure: groups, collinearity, duplicates",
    "NB2": "Per-class statistics (need a target)",
    "NB3": "A declared model against the columns (need a model)",
    "NB4": "Measured impact",
    "NB5": "Pipeline code and configs",
    "NB6": "A training table against its test or serving table (need --test)",
}


def _rules() -> dict:
    from nblint.engine import load_rules

    return dict(sorted(load_rules().items()))


def _markdown(text: str) -> str:
    """reST literals (````x````) as Markdown code spans; the rest is Markdown already."""
    return re.sub(r"``(.+?)``", r"`\1`", text)


def rule_page(rule) -> str:
    """A rule's page: the documentation ``nblint rule CODE`` prints, under the code as its title.

    The documentation opens with ``# name (CODE)`` and a few lines of facts (status, default
    severity, what it reads, whether it needs a target); on the page the facts are a list.
    """
    text = _markdown(rule.documentation(status=True))
    head, body = text.split("\n\n", 1)[1].split("\n\n", 1)
    facts = "\n".join(f"- {line}" for line in head.splitlines())
    note = f"Generated from the rule's own documentation: `nblint rule {rule.code}` prints the same text."
    return f"# {rule.code} {rule.name}\n\n{note}\n\n{facts}\n\n{body}"


def index_page(rules: dict) -> str:
    """Every rule, family by family: code (linked to its page), name, default severity, summary."""
    lines = [
        "# Rules",
        "",
        "Every rule, with its default severity and the first line of its documentation. Each page is",
        "generated from the rule itself, as `nblint rule CODE` prints it; `nblint rules` lists them.",
        "NB2xx rules need a target (`--target`); NB3xx rules need a declared model (`--model` or",
        "`model` in the configuration); NB6xx rules compare the table with its test or serving table",
        "(`--test`, see [Train and test tables](../train-test.md)).",
    ]
    for prefix, title in FAMILIES.items():
        members = [rule for code, rule in rules.items() if code.startswith(prefix)]
        if not members:
            continue
        lines += ["", f"## {title}", "", "| code | name | severity | what |", "|---|---|---|---|"]
        for rule in members:
            summary = _markdown(rule.summary()).rstrip(".").replace("|", "\\|")
            lines.append(f"| [{rule.code}]({rule.code}.md) | {rule.name} | {rule.severity} | {summary} |")
    others = [rule for code, rule in rules.items() if not code.startswith(tuple(FAMILIES))]
    if others:
        lines += ["", "## Other rule packs", "", "| code | name | severity | what |", "|---|---|---|---|"]
        for rule in others:
            lines.append(f"| [{rule.code}]({rule.code}.md) | {rule.name} | {rule.severity} | {rule.summary()} |")
    return "\n".join(lines) + "\n"


def on_config(config):
    """Put every rule's page in the navigation, under the rule index."""
    pages = [f"{FOLDER}/index.md", *(f"{FOLDER}/{code}.md" for code in _rules())]
    nav = config["nav"]
    for position, entry in enumerate(nav):
        if isinstance(entry, dict) and entry.get("Rules") == f"{FOLDER}/index.md":
            nav[position] = {"Rules": pages}
    return config


def on_files(files: Files, config) -> Files:
    """Add the generated pages to the site (they are never written into docs/)."""
    rules = _rules()
    files.append(File.generated(config, f"{FOLDER}/index.md", content=index_page(rules)))
    for code, rule in rules.items():
        files.append(File.generated(config, f"{FOLDER}/{code}.md", content=rule_page(rule)))
    return files
