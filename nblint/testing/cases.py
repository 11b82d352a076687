"""Rule case files: a rule's passing and failing examples as data, run by one parametrised test.

A case file is YAML named after its rule (``NB101.yaml``)::

    rule: NB101
    cases:
      - name: three indicators that sum to one
        expect: fail              # the rule must fire ("pass": it must stay silent)
        table: |                  # CSV text; the data rows may be repeated and rows appended
          a,b,c,y
          1,0,0,0
          0,1,0,1
        repeat: 10
        append: |
          0,0,1,1
        target: y                 # the default
        model: bernoulli          # optional, as --model
        alpha: 0                  # optional: the model's known smoothing
        options: {min-count: 3}   # optional: the rule's options (and shared ones: term-block)
        columns: [a, b, c]        # optional: some finding names exactly these columns
        rows: [2]                 # optional: some finding's example rows
        severity: warning         # optional: the severity of every finding
        message_contains: one-hot # optional: some finding's message contains this
        test_table: |             # optional: the test table (CSV text) the table is compared with (NB6xx)
          a,b,c,y
          0,0,1,0
        test_repeat: 1            # optional: its data rows repeated

A pipeline rule's case gives a ``config`` text and its ``form`` (``hydra`` or
``spec`` YAML, ``python``, ``json``, ``toml``), or for the ``notebook`` form its
``cells`` (each a code cell's text, or ``{markdown: text}``), written as an
nbformat 4 notebook; it is written to a file and checked with ``nblint check
--format json``, and a failing case names the finding's ``line`` (a notebook case
may also name its ``cell``).  A live case gives ``live`` Python code defining
``pipe``, ``X`` and ``y`` (and, for the NB6xx rules, ``X_test`` and ``y_test``), checked
with :func:`nblint.check_pipeline`.

Case files are test code: a ``live`` case is executed, as a test is.  The rules
run through the installed packs (``nblint.rules`` entry points), exactly as
``nblint check`` runs them, so a third-party pack is installed (``pip install
-e .``) before its cases run.
"""

from __future__ import annotations

import io
import json
import tempfile
import unittest
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: The file suffix each config ``form`` is written with.
SUFFIX = {"hydra": ".yaml", "spec": ".yaml", "python": ".py", "json": ".json", "toml": ".toml", "notebook": ".ipynb"}


@dataclass(frozen=True)
class Case:
    """One case of a case file.

    Attributes
    ----------
    rule : str
        The rule's code.
    spec : dict
        The case as written (``name``, ``expect``, ``table`` or ``config`` ...).
    source : str
        The case file it comes from.
    """

    rule: str
    spec: dict[str, Any]
    source: str = ""

    @property
    def name(self) -> str:
        return str(self.spec["name"])

    @property
    def id(self) -> str:
        """``CODE-[form-]name``: a test id (``ids=lambda case: case.id``)."""
        form = f"{self.spec['form']}-" if "form" in self.spec else ""
        return f"{self.rule}-{form}{self.name}"

    @property
    def kind(self) -> str:
        """``table``, ``config`` (a file in one of :data:`SUFFIX`'s forms) or ``live``."""
        if "live" in self.spec:
            return "live"
        return "config" if "config" in self.spec or "cells" in self.spec else "table"


def load_yaml(text: str):
    """The YAML document ``text``, read safely: with libyaml's loader where PyYAML has it, else PyYAML's own.

    The two build the same objects (checked on every case and corpus label file of this repository,
    216 files); libyaml reads them in an eighth of the CPU, which every test process pays when it
    collects the case files and corpus labels.
    """
    import yaml

    return yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


def load_cases(folder) -> list[Case]:
    """Every case of every ``*.yaml`` case file in ``folder``, in file-name order.

    Parameters
    ----------
    folder : str or path
        A folder of case files, each with ``rule: CODE`` and a list of ``cases``.

    Returns
    -------
    list of Case
    """
    cases = []
    for path in sorted(Path(folder).glob("*.yaml")):
        document = load_yaml(path.read_text(encoding="utf-8"))
        cases += [Case(document["rule"], case, str(path)) for case in document["cases"]]
    return cases


def notebook_text(cells: list) -> str:
    """An nbformat 4 notebook of ``cells`` (code cell texts, or ``{"markdown": text}``), as nbformat writes it."""

    def cell(item) -> dict[str, Any]:
        kind, text = ("markdown", item["markdown"]) if isinstance(item, dict) else ("code", item)
        extra: dict[str, Any] = {"execution_count": None, "outputs": []} if kind == "code" else {}
        return {"cell_type": kind, "metadata": {}, "source": text.splitlines(keepends=True), **extra}

    document = {
        "cells": [cell(item) for item in cells],
        "metadata": {"language_info": {"name": "python"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    return json.dumps(document, indent=1) + "\n"


def build_table(spec: dict[str, Any]):
    """The case's table as a DataFrame: its CSV text, data rows repeated ``repeat`` times, then ``append``."""
    import pandas as pd

    header, *rows = spec["table"].strip("\n").splitlines()
    rows = rows * int(spec.get("repeat", 1)) + spec.get("append", "").strip("\n").splitlines()
    return pd.read_csv(io.StringIO("\n".join([header, *rows]) + "\n"))


def case_findings(case: Case, folder=None) -> list[dict]:
    """The findings of the case's rule on the case, as JSON dicts.

    Parameters
    ----------
    case : Case
    folder : str or path, optional
        Where a config case writes its file (and ``nblint.toml``); a temporary folder by default.

    Raises
    ------
    unittest.SkipTest
        A live case without scikit-learn (pytest reports it as skipped).
    """
    if case.kind == "table":
        findings = _table_findings(case)
    elif case.kind == "live":
        findings = _live_findings(case)
    elif folder is None:
        with tempfile.TemporaryDirectory() as temporary:
            findings = _config_findings(case, Path(temporary))
    else:
        findings = _config_findings(case, Path(folder))
    return [f for f in findings if f["code"] == case.rule]


def check_case(case: Case, folder=None, findings: list[dict] | None = None) -> None:
    """Assert that the case's rule fires (``expect: fail``) or stays silent (``expect: pass``) as the case says.

    ``findings``: the case's findings already run (:func:`case_findings`), to look at them further.

    Raises
    ------
    AssertionError
        Saying what differs.
    """
    findings = case_findings(case, folder) if findings is None else findings
    spec = case.spec
    if spec["expect"] == "pass":
        assert findings == [], [f["message"] for f in findings]
        return
    assert spec["expect"] == "fail", f"expect is 'pass' or 'fail', not {spec['expect']!r}"
    assert findings, f"{case.rule} did not fire"
    for key in ("rows", "line", "cell"):
        if key in spec:
            assert any(f.get(key) == spec[key] for f in findings), [f.get(key) for f in findings]
    if "columns" in spec:  # listed in name order, whatever the table's order
        assert any(sorted(f["columns"]) == sorted(spec["columns"]) for f in findings), [f["columns"] for f in findings]
    if "severity" in spec:
        assert {f["severity"] for f in findings} == {spec["severity"]}
    if "message_contains" in spec:
        assert any(spec["message_contains"] in f["message"] for f in findings), [f["message"] for f in findings]


def _table_findings(case: Case) -> list[dict]:
    import nblint

    spec = case.spec
    options = _table_options(case.rule, spec["options"]) if "options" in spec else None
    report = nblint.check(
        build_table(spec),
        target=spec.get("target", "y"),
        model=spec.get("model"),
        alpha=spec.get("alpha"),
        select=[case.rule],
        options=options,
        test=_test_table(spec),
    )
    return [f.to_dict() for f in report]


def _test_table(spec: dict[str, Any]):
    """The case's test table (``test_table``, its rows repeated ``test_repeat`` times), or None."""
    if "test_table" not in spec:
        return None
    return build_table({"table": spec["test_table"], "repeat": spec.get("test_repeat", 1)})


def _table_options(code: str, values: dict) -> dict:
    """The case's options by rule: the rule's own, and a shared option (``term-block``) on the rule declaring it."""
    from nblint.engine import load_rules

    declared = {o.name: c for c, rule in load_rules().items() for o in rule.options if o.shared}
    own = {o.name for o in load_rules()[code].options}
    options: dict[str, dict] = {}
    for name, value in values.items():
        options.setdefault(code if name in own else declared.get(name, code), {})[name] = value
    return options


def _config_findings(case: Case, folder: Path) -> list[dict]:
    """Write the case's config (and its rule options as nblint.toml) and lint it through the CLI."""
    from click.testing import CliRunner

    from nblint.cli import main
    from nblint.pipelines import read_config

    spec = case.spec
    path = folder / f"pipeline{SUFFIX[spec['form']]}"
    path.write_text(notebook_text(spec["cells"]) if spec["form"] == "notebook" else spec["config"], encoding="utf-8")
    if "options" in spec:
        values = "".join(f"{name} = {json.dumps(value)}\n" for name, value in spec["options"].items())
        (folder / "nblint.toml").write_text(f"[{case.rule}]\n{values}", encoding="utf-8")
    config = read_config(str(path))
    assert config is not None and config.specs, "the case is not read as a pipeline config"
    result = CliRunner().invoke(main, ["check", str(path), "--select", case.rule, "--format", "json"])
    assert result.exit_code in (0, 1) and result.stderr == "", result.output
    return json.loads(result.stdout)


def _live_findings(case: Case) -> list[dict]:
    import pandas as pd

    import nblint

    try:
        import sklearn  # noqa: F401 - a live case builds scikit-learn objects
    except ImportError:
        raise unittest.SkipTest("a live case needs scikit-learn") from None
    namespace: dict[str, Any] = {"pd": pd}
    exec(case.spec["live"], namespace)  # test code from the case file, never user data
    test = {name: namespace[name] for name in ("X_test", "y_test") if name in namespace}
    report = nblint.check_pipeline(namespace["pipe"], namespace["X"], namespace["y"], select=[case.rule], **test)
    return [f.to_dict() for f in report]
