"""What a run found, in a line and per rule: the counts every output format ends with.

Text, ``--statistics``, the HTML report and ``Report.summary`` say the same
line (:func:`summary_line`); ``--statistics`` and the HTML report count per
rule with :func:`statistics`, a wide table's summary finding counting every
instance it stands for.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from nblint.engine.findings import Finding


def plural(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


def summary_line(findings: list[Finding], n_files: int, n_unreadable: int = 0) -> str:
    """What the run found, in how many files, and how many could not be read.

    ``All checks passed (N files).`` only when every input was read and nothing
    was found; otherwise ``Found N findings (...) in N files.`` or ``No findings
    in N files.``, followed by ``; M files could not be read.``  ``n_files``
    counts the inputs that were read.
    """
    files = plural(n_files, "file")
    if not n_unreadable and not findings:
        return f"All checks passed ({files})."
    if findings:
        by_severity = Counter(f.severity for f in findings)
        parts = [plural(by_severity[s], str(s)) for s in sorted(by_severity, reverse=True)]
        found = f"Found {plural(len(findings), 'finding')} ({', '.join(parts)}) in {files}"
    else:
        found = f"No findings in {files}" if n_files else "No file checked"
    unread = f"; {plural(n_unreadable, 'file')} could not be read" if n_unreadable else ""
    return f"{found}{unread}."


def statistics(findings: list[Finding]) -> list[dict]:
    """How many findings each rule made, most first (then by code), with their severities.

    Returns
    -------
    list of dict
        ``{"code", "name", "count", "severities": {"error": n, ...}}``, severities
        from the highest.
    """
    by_code: dict[str, list[Finding]] = {}
    for f in findings:
        by_code.setdefault(f.code, []).append(f)
    rows: list[dict[str, Any]] = []
    for code, group in by_code.items():
        # A summary finding (one for many columns, see Rule.summarize) counts every instance it stands for.
        severities: Counter = Counter()
        for f in group:
            severities[f.severity] += int(f.evidence.get("instances", 1))
        rows.append(
            {
                "code": code,
                "name": group[0].name,
                "count": sum(severities.values()),
                "severities": {str(s): severities[s] for s in sorted(severities, reverse=True)},
            }
        )
    rows.sort(key=lambda row: (-row["count"], row["code"]))
    return rows
