"""The Python API: lint a DataFrame (or a path), or a live scikit-learn pipeline, and get a :class:`Report`."""

from __future__ import annotations

import json
import os

from dataclasses import replace

from nblint.config import Settings, parse_settings
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


def check(data, target=None, model=None, select=None, ignore=None, options=None, alpha=None, kinds=None) -> Report:
    """Lint ``data`` (a pandas or Dask DataFrame, or a path); see :func:`nblint.check`."""
    settings = _settings(target=target, model=model, select=select, ignore=ignore, options=options, alpha=alpha,
                         columns=kinds)
    if isinstance(data, (str, os.PathLike)):
        source = read_table(os.fspath(data), encoding=settings.encoding)
    elif is_dask_frame(data):
        source = DaskSource(data)  # profiled on the cluster (the current distributed client, if any)
    else:
        source = DataFrameSource(data)
    return Report(lint_source(source, settings, _codes(settings)), source.path)


def check_pipeline(pipeline, X=None, y=None, select=None, ignore=None, options=None) -> Report:
    """Lint a live scikit-learn pipeline (and optionally its data); see :func:`nblint.check_pipeline`."""
    from nblint.pipelines import lint_specs
    from nblint.pipelines.live import calls_from_object
    from nblint.pipelines.spec import build_specs

    settings = _settings(select=select, ignore=ignore, options=options)
    codes = _codes(settings)
    specs = build_specs(calls_from_object(pipeline), "<pipeline>", "live")
    findings = lint_specs(specs, codes, settings.rule_options)
    if X is not None:
        frame, target = _training_table(X, y)
        models = {spec.model for spec in specs if spec.model}
        settings = replace(settings, target=target, model=models.pop() if len(models) == 1 else None)
        findings += lint_source(DataFrameSource(frame), settings, codes)
    return Report(findings, "<pipeline>")


def _settings(**values) -> Settings:
    """Validated settings from API arguments (None means not given); errors as ValueError."""
    options = values.pop("options", None) or {}
    table = {k: v for k, v in values.items() if v is not None} | dict(options)
    try:
        return parse_settings(table)
    except ConfigError as exc:
        raise ValueError(str(exc)) from None


def _codes(settings: Settings) -> list[str]:
    return select_rules(load_rules(), settings.select, settings.ignore)


def _training_table(X, y):
    """``X`` as a DataFrame with ``y`` added as the target column (named after ``y`` if it can be)."""
    import pandas as pd

    frame = X.copy() if isinstance(X, pd.DataFrame) else pd.DataFrame(X).rename(columns=lambda c: f"x{c}")
    if y is None:
        return frame, None
    target = y.name if isinstance(getattr(y, "name", None), str) and y.name not in frame.columns else "y"
    if target in frame.columns:
        raise ValueError(f"X already has a column {target!r}; pass y as a pandas Series with another name")
    frame[target] = pd.Series(y).to_numpy() if not isinstance(y, pd.Series) else y.to_numpy()
    return frame, target
