"""Every rule's case file (tests/rule_cases/CODE.yaml) run by one parametrised test.

A table rule's case gives a table (CSV text, optionally with its data rows
repeated ``repeat`` times and ``append`` rows added) and the target/model/options.
A pipeline rule's case gives a ``config`` text and its ``form`` (``hydra`` or
``spec`` YAML, ``python``, ``json``, ``toml``), or for the ``notebook`` form its
``cells`` (each a code cell's text, or ``{markdown: text}``), written as an
nbformat 4 notebook; it is written to a file and checked with
``nblint check --format json`` (a notebook case may name the finding's ``cell``).  Either says whether the rule must
fire (``fail``) or stay silent (``pass``); a failing case may also name the
finding's exact ``columns``, example ``rows``, config ``line`` (the JSON ``line``,
required for config cases), the ``severity`` of every finding, and a
``message_contains`` string.  ``alpha`` is the model's known smoothing (as in the
config).
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pandas as pd
import pytest
import yaml
from click.testing import CliRunner

import nblint
from nblint.cli import main
from nblint.pipelines import read_config

CASE_DIR = Path(__file__).parent / "rule_cases"
SUFFIX = {"hydra": ".yaml", "spec": ".yaml", "python": ".py", "json": ".json", "toml": ".toml", "notebook": ".ipynb"}


def notebook_text(cells: list) -> str:
    """An nbformat 4 notebook of ``cells`` (code cell texts, or ``{"markdown": text}``), as nbformat writes it."""
    def cell(item):
        kind, text = ("markdown", item["markdown"]) if isinstance(item, dict) else ("code", item)
        extra = {"execution_count": None, "outputs": []} if kind == "code" else {}
        return {"cell_type": kind, "metadata": {}, "source": text.splitlines(keepends=True), **extra}

    document = {"cells": [cell(item) for item in cells], "metadata": {"language_info": {"name": "python"}},
                "nbformat": 4, "nbformat_minor": 5}
    return json.dumps(document, indent=1) + "\n"


def load_cases():
    for path in sorted(CASE_DIR.glob("NB*.yaml")):
        spec = yaml.safe_load(path.read_text())
        for case in spec["cases"]:
            form = f"{case['form']}-" if "form" in case else ""
            yield pytest.param(spec["rule"], case, id=f"{spec['rule']}-{form}{case['name']}")


def build_table(case) -> pd.DataFrame:
    header, *rows = case["table"].strip("\n").splitlines()
    rows = rows * int(case.get("repeat", 1)) + case.get("append", "").strip("\n").splitlines()
    return pd.read_csv(io.StringIO("\n".join([header, *rows]) + "\n"))


def table_findings(code, case) -> list[dict]:
    frame = build_table(case)
    options = {code: case["options"]} if "options" in case else None
    report = nblint.check(frame, target=case.get("target", "y"), model=case.get("model"), alpha=case.get("alpha"),
                          select=[code], options=options)
    return [f.to_dict() for f in report]


def config_findings(code, case, folder: Path) -> list[dict]:
    """Write the case's config (and its rule options as nblint.toml) and lint it through the CLI."""
    path = folder / f"pipeline{SUFFIX[case['form']]}"
    path.write_text(notebook_text(case["cells"]) if case["form"] == "notebook" else case["config"])
    if "options" in case:
        values = "".join(f"{name} = {json.dumps(value)}\n" for name, value in case["options"].items())
        (folder / "nblint.toml").write_text(f"[{code}]\n{values}")
    config = read_config(str(path))
    assert config is not None and config.specs, "the case is not read as a pipeline config"
    result = CliRunner().invoke(main, ["check", str(path), "--select", code, "--format", "json"])
    assert result.exit_code in (0, 1) and result.stderr == "", result.output
    return json.loads(result.stdout)


@pytest.mark.parametrize("code, case", list(load_cases()))
def test_rule_case(code, case, tmp_path):
    configured = "config" in case or "cells" in case
    findings = config_findings(code, case, tmp_path) if configured else table_findings(code, case)
    findings = [f for f in findings if f["code"] == code]
    if case["expect"] == "pass":
        assert findings == [], [f["message"] for f in findings]
        return
    assert case["expect"] == "fail"
    assert findings, f"{code} did not fire"
    for key in ("rows", "line", "cell"):
        if key in case:
            assert any(f.get(key) == case[key] for f in findings), [f.get(key) for f in findings]
    if "columns" in case:  # listed in name order, whatever the table's order
        assert any(sorted(f["columns"]) == sorted(case["columns"]) for f in findings), [f["columns"] for f in findings]
    if "severity" in case:
        assert {f["severity"] for f in findings} == {case["severity"]}
    if "message_contains" in case:
        assert any(case["message_contains"] in f["message"] for f in findings), [f["message"] for f in findings]
