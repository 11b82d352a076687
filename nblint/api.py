"""The Python API: lint a DataFrame (or a path) and get a :class:`Report`."""

from __future__ import annotations

import json
import os

from nblint.config import parse_settings
from nblint.dask_engine import DaskSource, is_dask_frame
from nblint.engine import load_rules, select_rules
from nblint.errors import ConfigError
from nblint.findings import Finding
from nblint.readers import DataFrameSource, read_table
from nblint.reporters import render_json, render_text
from nblint.runner import lint_source


class Report:
    """The findings of one table, with a readable repr and tabular/JSON views."""

    def __init__(self, findings: list[Finding], path: str):
        self.findings = findings
        self.path = path

    def __len__(self) -> int:
        return len(self.findings)

    def __iter__(self):
        return iter(self.findings)

    def __repr__(self) -> str:
        return render_text(self.findings, 1).rstrip("\n")

    def codes(self) -> list[str]:
        return [f.code for f in self.findings]

    def to_frame(self):
        """One row per finding: code, name, severity, columns, rows, message, fix, evidence (JSON)."""
        import pandas as pd

        rows = []
        for f in self.findings:
            d = f.to_dict()
            d["evidence"] = json.dumps(d["evidence"], sort_keys=True)
            rows.append(d)
        columns = ["code", "name", "severity", "path", "columns", "rows", "line", "message", "evidence", "fix"]
        return pd.DataFrame(rows, columns=columns)

    def to_json(self) -> str:
        return render_json(self.findings)


def check(data, target=None, model=None, select=None, ignore=None, options=None, alpha=None) -> Report:
    """Lint ``data`` (a pandas or Dask DataFrame, or a path); see :func:`nblint.check`."""
    table = {"target": target, "model": model, "select": select, "ignore": ignore, "alpha": alpha}
    table = {k: v for k, v in table.items() if v is not None}
    for code, values in (options or {}).items():
        table[code] = values
    try:
        settings = parse_settings(table)
    except ConfigError as exc:
        raise ValueError(str(exc)) from None
    if isinstance(data, (str, os.PathLike)):
        source = read_table(os.fspath(data), encoding=settings.encoding)
    elif is_dask_frame(data):
        source = DaskSource(data)  # profiled on the cluster (the current distributed client, if any)
    else:
        source = DataFrameSource(data)
    codes = select_rules(load_rules(), settings.select, settings.ignore)
    return Report(lint_source(source, settings, codes), source.path)
