"""Render a run as a SARIF 2.1.0 log, in the subset GitHub code scanning ingests.

Deterministic like every renderer (:mod:`nblint.report.formats` dispatches to it):
no timestamps or absolute paths; each result carries a fingerprint stable across runs.
"""

from __future__ import annotations

import hashlib
import json
import os
import urllib.parse
from typing import Any

from nblint.engine.findings import Finding, Severity

SARIF_SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
SARIF_LEVELS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}


def sarif_log(result) -> dict:
    """The run as a SARIF 2.1.0 log (a dict), in the subset GitHub code scanning ingests.

    ``tool.driver.rules`` lists every installed rule (id, name, short and full
    description, help text and markdown, default level), so that a code-scanning
    alert can show the rule's documentation whatever was selected.  Each finding
    is a result with ``ruleId``/``ruleIndex``, ``level``, ``message`` and one
    location: the file (relative URIs against ``%SRCROOT%``) with a region
    (``startLine`` is the finding's line for configs, else 1: the header row that
    names the columns; for a notebook, the line of the ``.ipynb`` file where the
    source line is written, with ``cell`` and ``cellLine`` in the result's
    properties), and for tables one logical location per column involved.
    Inputs that could not be read are ``toolExecutionNotifications`` of the
    invocation, whose ``executionSuccessful`` is then false.

    Parameters
    ----------
    result : nblint.run.runner.RunResult

    Returns
    -------
    dict
    """
    from nblint.core.version import __version__
    from nblint.engine import load_rules

    rules = load_rules()
    index = {code: i for i, code in enumerate(rules)}
    descriptors = [_sarif_rule(rule) for rule in rules.values()]
    results = [_sarif_result(f, index.get(f.code)) for f in result.findings]
    notifications = [
        {
            "level": "error",
            "message": {"text": r.error},
            "locations": [{"physicalLocation": {"artifactLocation": _artifact(r.path)}}],
        }
        for r in result.errors
    ]
    invocation: dict[str, Any] = {"executionSuccessful": not notifications}
    if notifications:
        invocation["toolExecutionNotifications"] = notifications
    run = {
        "tool": {
            "driver": {
                "name": "nblint",
                "version": __version__,
                "semanticVersion": __version__,
                "rules": descriptors,
            }
        },
        "invocations": [invocation],
        "columnKind": "unicodeCodePoints",
        "results": results,
    }
    return {"$schema": SARIF_SCHEMA_URI, "version": "2.1.0", "runs": [run]}


def render_sarif(result) -> str:
    """:func:`sarif_log` as indented JSON text."""
    return json.dumps(sarif_log(result), indent=2, ensure_ascii=False) + "\n"


def _sarif_rule(rule) -> dict:
    sections = rule.doc_sections()
    documentation = rule.documentation()
    return {
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": rule.summary()},
        "fullDescription": {"text": _plain(sections.get("What it does", rule.summary()))},
        "help": {"text": _plain(documentation), "markdown": documentation},
        "defaultConfiguration": {"level": SARIF_LEVELS[rule.severity]},
        "properties": {"tags": ["nblint", "naive-bayes", "data-quality"]},
    }


def _plain(markdown: str) -> str:
    """Markdown as plain text: heading marks and fences dropped, wrapped paragraphs joined.

    Code blocks and list items keep their own lines.
    """
    blocks: list[str] = []
    paragraph: list[str] = []
    code: list[str] | None = None

    def flush():
        if paragraph:
            blocks.append(" ".join(paragraph))
            paragraph.clear()

    for line in markdown.strip().splitlines():
        if line.startswith("```"):
            flush()
            if code is None:
                code = []
            else:
                blocks.append("\n".join(code))
                code = None
        elif code is not None:
            code.append(line)
        elif not line.strip():
            flush()
        elif line.startswith("#"):
            flush()
            blocks.append(line.lstrip("#").strip())
        elif line.startswith("- "):
            flush()
            blocks.append(line)
        else:
            paragraph.append(line.strip())
    flush()
    if code:
        blocks.append("\n".join(code))
    return "\n\n".join(blocks)


def _sarif_result(f: Finding, rule_index: int | None) -> dict:
    # A notebook finding's region is the line of the .ipynb file itself; its cell and line within
    # the cell are properties (SARIF has no notion of cells).
    region = {"startLine": (f.file_line if f.cell is not None else f.line) or 1}
    column = getattr(f, "column", None)
    if column:
        region["startColumn"] = column
    location: dict = {"physicalLocation": {"artifactLocation": _artifact(f.path), "region": region}}
    if f.columns:
        location["logicalLocations"] = [{"name": c, "kind": "member"} for c in f.columns]
    text = f.message if not f.fix else f"{f.message}\nFix: {f.fix}"
    result: dict[str, Any] = {"ruleId": f.code}
    if rule_index is not None:
        result["ruleIndex"] = rule_index
    result.update(
        {
            "level": SARIF_LEVELS[f.severity],
            "message": {"text": text},
            "locations": [location],
            "partialFingerprints": {"nblintFinding/v1": _fingerprint(f)},
            "properties": {
                "columns": list(f.columns),
                "rows": list(f.rows),
                "evidence": f.evidence,
                **({"cell": f.cell, "cellLine": f.line} if f.cell is not None else {}),
            },
        }
    )
    return result


def _fingerprint(f: Finding) -> str:
    """Stable across runs while the same rule flags the same columns of the same file."""
    key = "\0".join([f.code, f.path, str(f.line or 0), *f.columns])
    return hashlib.sha256(key.encode("utf-8", "surrogateescape")).hexdigest()[:32]


def _artifact(path: str) -> dict:
    """A SARIF artifactLocation: relative URI against %SRCROOT% where possible."""
    if path in ("-", "<dataframe>"):
        return {"uri": urllib.parse.quote(path, safe="")}
    if os.path.isabs(path):
        relative = os.path.relpath(path)
        if relative.startswith(".."):
            return {"uri": _file_uri(path)}
        path = relative
    # The name's own bytes, percent-encoded: a name that is not UTF-8 is still a valid URI.
    uri = urllib.parse.quote(os.fsencode(path.replace(os.sep, "/")), safe="/")
    return {"uri": uri, "uriBaseId": "%SRCROOT%"}


def _file_uri(path: str) -> str:
    from pathlib import Path

    return Path(path).as_uri()
