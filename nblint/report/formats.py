"""Render findings: text (optionally coloured), JSON, SARIF 2.1.0 (:mod:`nblint.report.sarif`), GitHub annotations, JUnit XML, statistics (and HTML: :mod:`nblint.report.html`).

Every renderer is deterministic: the same findings give the same bytes (no
timestamps, absolute paths or hash-ordered collections).  The run-level
renderers take a :class:`~nblint.run.runner.RunResult`, so that files without
findings (JUnit test cases) and files that could not be read (SARIF
notifications, GitHub error annotations, JUnit errors) are reported too.
"""

from __future__ import annotations

import json
import re

from nblint.engine.findings import Finding, Severity

# `nblint impact` renders a measurement, not findings: its table, JSON and plot are in their own module.
from nblint.report.impact import (  # noqa: F401 - names cli.py uses
    heldout_json,
    impact_json,
    plot_impact,
    render_heldout_text,
    render_impact_text,
    render_weights_text,
)
from nblint.report.sarif import render_sarif
from nblint.report.summary import plural, statistics, summary_line

FORMATS = ("text", "concise", "json", "sarif", "github", "junit", "html")

GITHUB_COMMANDS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}
_SEVERITY_COLORS = {Severity.ERROR: "red", Severity.WARNING: "yellow", Severity.INFO: "cyan"}


# --------------------------------------------------------------------------- text and JSON


def render_text(
    findings: list[Finding],
    n_files: int,
    color: bool = False,
    n_unreadable: int = 0,
    fixes: bool = True,
    summary: bool = True,
) -> str:
    """Each finding as ``path[:line]: CODE [severity] message`` and its fix, then a summary line.

    Parameters
    ----------
    findings : list of Finding
    n_files : int
        How many inputs the run read and checked (for the summary).
    color : bool, default False
        Colour the code and severity with ANSI escapes (for a terminal).
    n_unreadable : int, default 0
        How many inputs could not be read (the summary says so).
    fixes : bool, default True
        Show each finding's fix on an indented ``help:`` line under it, as ruff
        does (False: one line per finding, the ``concise`` format).
    summary : bool, default True
        End with the summary line (``--quiet`` leaves it out unless an input
        could not be read).

    Returns
    -------
    str
    """
    lines = []
    for f in findings:
        lines.append(_text_line(f, color))
        if fixes and f.fix:
            lines.append(f"  {_style('help:', color, bold=True, fg='cyan')} {f.fix}")
    if summary or n_unreadable:
        lines.append(_style(summary_line(findings, n_files, n_unreadable), color, bold=True))
    return "".join(line + "\n" for line in lines)


def _text_line(f: Finding, color: bool) -> str:
    where = f.location()
    code = _style(f.code, color, bold=True, fg=_SEVERITY_COLORS[f.severity])
    severity = _style(f"[{f.severity}]", color, fg=_SEVERITY_COLORS[f.severity])
    return f"{_style(where, color, bold=True)}: {code} {severity} {f.message}"


def _style(text: str, color: bool, **styles) -> str:
    if not color:
        return text
    import click

    return click.style(text, **styles)


def render_statistics(result, output_format: str = "text", summary: bool = True) -> str:
    """``--statistics``: one line (or JSON object) per rule with its count, like ruff's.

    Text lines are ``count  code  name  severity``, the severity spelt out with
    counts when a rule found at several; then the summary line (always when an
    input could not be read).
    """
    rows = statistics(result.findings)
    if output_format == "json":
        return json.dumps(rows, indent=2, ensure_ascii=False) + "\n"
    count_width = max((len(str(row["count"])) for row in rows), default=0)
    name_width = max((len(row["name"]) for row in rows), default=0)
    lines = []
    for row in rows:
        severities = row["severities"]
        severity = (
            next(iter(severities)) if len(severities) == 1 else ", ".join(plural(n, s) for s, n in severities.items())
        )
        lines.append(f"{row['count']:>{count_width}}  {row['code']}  {row['name']:<{name_width}}  {severity}")
    n_unreadable = len(result.errors)
    if summary or n_unreadable:
        lines.append(summary_line(result.findings, len(result.files) - n_unreadable, n_unreadable))
    return "".join(line + "\n" for line in lines)


def render_json(findings: list[Finding]) -> str:
    """A JSON array of finding objects; same findings, same bytes."""
    return json.dumps([f.to_dict() for f in findings], indent=2, ensure_ascii=False, sort_keys=False) + "\n"


# --------------------------------------------------------------------------- GitHub Actions


def render_github(result) -> str:
    """GitHub Actions workflow commands, one per finding (and per unreadable input).

    ``::warning file=PATH,line=N,col=N,title=CODE name::message`` (``error`` and
    ``notice`` for the other severities), with the workflow-command escaping:
    ``%``, CR and LF in the message, and additionally ``:`` and ``,`` in the
    properties.  ``line`` appears for findings that have one (configs); a
    table finding annotates the file.  A notebook finding's ``line`` is the line
    of the ``.ipynb`` file where its source line is written, and its title says
    the cell and the line within the cell.

    Parameters
    ----------
    result : nblint.run.runner.RunResult

    Returns
    -------
    str
    """
    lines = []
    for f in result.findings:
        properties = [("file", f.path)]
        line = f.file_line if f.cell is not None else f.line
        if line:
            properties.append(("line", str(line)))
            column = getattr(f, "column", None)
            if column and f.cell is None:
                properties.append(("col", str(column)))
        cell = f" (cell {f.cell}, line {f.line})" if f.cell is not None else ""
        properties.append(("title", f"{f.code} {f.name}{cell}"))
        message = f.message if not f.fix else f"{f.message}\nFix: {f.fix}"
        lines.append(_workflow_command(GITHUB_COMMANDS[f.severity], properties, message))
    for r in result.errors:
        lines.append(_workflow_command("error", [("file", r.path), ("title", "nblint")], r.error))
    return "".join(line + "\n" for line in lines)


def escape_data(value: str) -> str:
    """Escape a workflow command's message (``%``, CR, LF), and write other control characters as escapes.

    A value from the data (a level, a column name) may hold a bell, a form feed, an ESC, a
    C1 control, a Unicode line separator or a bidirectional override: written raw they would reach the CI log as they
    are (or end the command early), so they are shown as ``\\x07``, ``\\u2028``...
    """
    value = value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return _GITHUB_CONTROLS.sub(lambda m: _escaped(m.group()), value)


#: Control characters other than tab, CR and LF (C0, DEL, C1), the Unicode line and paragraph
#: separators, and the bidirectional overrides and isolates (which reorder the text shown around them).
_GITHUB_CONTROLS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def _escaped(char: str) -> str:
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def escape_property(value: str) -> str:
    """Escape a workflow command's property value (``%``, CR, LF, ``:`` and ``,``)."""
    return escape_data(value).replace(":", "%3A").replace(",", "%2C")


def _workflow_command(command: str, properties: list[tuple[str, str]], message: str) -> str:
    props = ",".join(f"{key}={escape_property(value)}" for key, value in properties)
    return f"::{command} {props}::{escape_data(message)}"


# --------------------------------------------------------------------------- JUnit XML


def render_junit(result) -> str:
    """JUnit XML: one test case per finding (classname: the file checked; file: the finding's), one per clean file.

    CI servers show one result per ``<testcase>``, so each finding is its own case:
    it fails when its severity is at or above the file's fail level (``--fail-on``),
    exactly as it counts for the exit code, and passes, with the finding in its
    ``<system-out>``, below it.  A file without findings is one passing case; an
    input that could not be read is one case with an ``<error>``.

    Parameters
    ----------
    result : nblint.run.runner.RunResult

    Returns
    -------
    str
    """
    import xml.etree.ElementTree as ET  # (here: text and JSON reports need no XML)

    cases = []
    n_failed = n_errors = 0
    for r in result.files:
        path = _xml(r.path)
        if r.error:
            n_errors += 1
            case = ET.Element("testcase", {"classname": path, "name": "read", "file": path})
            ET.SubElement(case, "error", {"type": "InputError", "message": _xml(r.error)}).text = _xml(r.error)
            cases.append(case)
        if not r.findings and not r.error:
            cases.append(ET.Element("testcase", {"classname": path, "name": "no findings", "file": path}))
        for f in r.findings:
            # (classname: the file checked; file: where the finding is, its test table for NB6xx)
            attributes = {"classname": path, "name": _xml(_junit_name(f)), "file": _xml(f.path) if f.path else path}
            line = f.file_line if f.cell is not None else f.line  # (of the .ipynb file itself, as in SARIF)
            if line is not None:
                attributes["line"] = str(line)
            case = ET.Element("testcase", attributes)
            if f.severity >= r.fail_on:
                n_failed += 1
                failure = ET.SubElement(
                    case, "failure", {"type": f.code, "message": _xml(f"{f.code} {f.name}: {f.message}")}
                )
                failure.text = _xml(_junit_details(f))
            else:
                ET.SubElement(case, "system-out").text = _xml(_junit_details(f))
            cases.append(case)
    counts = {"tests": str(len(cases)), "failures": str(n_failed), "errors": str(n_errors)}
    root = ET.Element("testsuites", {"name": "nblint", **counts})
    suite = ET.SubElement(root, "testsuite", {"name": "nblint", **counts, "skipped": "0"})
    suite.extend(cases)
    ET.indent(root, space="  ")
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def _junit_name(f: Finding) -> str:
    """``NB101 one-hot-group: plan_basic, plan_pro, plan_team`` (``... line 12`` for a config finding,
    ``... cell 2, line 1`` for a notebook's)."""
    cell = f"cell {f.cell}, " if f.cell is not None else ""
    where = ", ".join(f.columns) if f.columns else (f"{cell}line {f.line}" if f.line is not None else "")
    return f"{f.code} {f.name}: {where}" if where else f"{f.code} {f.name}"


def _junit_details(f: Finding) -> str:
    lines = [f"{f.location()}: {f.code} [{f.severity}] {f.message}"]
    if f.columns:
        lines.append(f"columns: {', '.join(f.columns)}")
    if f.rows:
        lines.append(f"rows: {', '.join(map(str, f.rows))}")
    if f.fix:
        lines.append(f"fix: {f.fix}")
    return "\n".join(lines)


_XML_INVALID = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def _xml(text: str) -> str:
    """Drop the characters XML 1.0 cannot carry (ElementTree escapes the rest)."""
    return _XML_INVALID.sub("\ufffd", text)


# --------------------------------------------------------------------------- dispatch


def render(result, output_format: str, color: bool = False, quiet: bool = False) -> str:
    """Render a run in one of :data:`FORMATS`.

    Parameters
    ----------
    result : nblint.run.runner.RunResult
    output_format : str
    color : bool, default False
        Only the text formats are ever coloured.
    quiet : bool, default False
        Text formats: the findings only, no summary line unless an input could
        not be read (``--quiet``).

    Returns
    -------
    str
    """
    if output_format in ("text", "concise"):
        n_unreadable = len(result.errors)
        return render_text(
            result.findings,
            len(result.files) - n_unreadable,
            color=color,
            n_unreadable=n_unreadable,
            fixes=output_format == "text",
            summary=not quiet,
        )
    if output_format == "json":
        return render_json(result.findings)
    if output_format == "sarif":
        return render_sarif(result)
    if output_format == "github":
        return render_github(result)
    if output_format == "junit":
        return render_junit(result)
    if output_format == "html":
        from nblint.report.html import render_html

        return render_html(result)
    raise ValueError(f"unknown output format {output_format!r} (expected one of {', '.join(FORMATS)})")
