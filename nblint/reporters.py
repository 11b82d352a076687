"""Render findings: ruff-like text lines, or a deterministic JSON array."""

from __future__ import annotations

import json
from collections import Counter

from nblint.findings import Finding


def render_text(findings: list[Finding], n_files: int) -> str:
    """One line per finding, ``path: CODE [severity] message`` (``path:line: ...`` in configs), then a summary line."""
    lines = [f"{f.path}{'' if f.line is None else f':{f.line}'}: {f.code} [{f.severity}] {f.message}" for f in findings]
    lines.append(summary_line(findings, n_files))
    return "\n".join(lines) + "\n"


def summary_line(findings: list[Finding], n_files: int) -> str:
    files = f"{n_files} file" + ("" if n_files == 1 else "s")
    if not findings:
        return f"All checks passed ({files})."
    by_severity = Counter(f.severity for f in findings)
    parts = [f"{by_severity[s]} {s}" + ("" if by_severity[s] == 1 else "s") for s in sorted(by_severity, reverse=True)]
    noun = "finding" if len(findings) == 1 else "findings"
    return f"Found {len(findings)} {noun} ({', '.join(parts)}) in {files}."


def render_json(findings: list[Finding]) -> str:
    """A JSON array of finding objects; same findings, same bytes."""
    return json.dumps([f.to_dict() for f in findings], indent=2, ensure_ascii=False, sort_keys=False) + "\n"


RENDERERS = {"text": render_text, "json": lambda findings, n_files: render_json(findings)}

