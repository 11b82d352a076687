"""The built-in pack's families say what their rules read, and the registry imports a family only for a run that
offers it: a check of a table never imports the pipeline rules, nor the train/test rules without a test table.

The declarations (``INPUTS``, ``READS_TEST_TABLE`` in a family's package) are held to the rules they describe,
and the rules loaded for an input are the same whether the registry imported only their families (a fresh
process) or every rule first (this one).
"""

from __future__ import annotations

import importlib
import json
import subprocess
import sys

import pytest

from nblint.engine import load_rules
from nblint.engine.registry import BUILTIN_PACK, family_reads

RULES = load_rules()
#: Each (inputs, test_table) a run may offer its rules.
READINGS = [(("table",), False), (("table",), True), (("pipeline",), False), (("live",), False), (("pipeline",), True)]


def family_of(rule) -> str:
    return ".".join(rule.__module__.split(".")[:2])


FAMILIES = sorted({family_of(rule) for rule in RULES.values() if rule.__module__.startswith(BUILTIN_PACK + ".")})


@pytest.mark.parametrize("family", FAMILIES)
def test_every_rule_reads_what_its_family_declares(family):
    package = importlib.import_module(family)
    members = [rule for rule in RULES.values() if family_of(rule) == family]
    declared = getattr(package, "INPUTS", None)
    if declared is not None:
        assert [rule.code for rule in members if not set(rule.inputs) <= set(declared)] == []
    if getattr(package, "READS_TEST_TABLE", False):
        assert [rule.code for rule in members if not rule.reads_test_table] == []


def test_the_families_that_read_a_table_alone_leave_out_the_pipeline_and_test_table_rules():
    table = load_rules(("table",), test_table=False)
    assert {code[:3] for code in table} == {"NB1", "NB2", "NB3", "NB4"}
    assert {code[:3] for code in load_rules(("table",))} == {"NB1", "NB2", "NB3", "NB4", "NB6"}
    assert {code[:3] for code in load_rules(("pipeline",))} == {"NB5"}
    # Every rule that could run on a context is among them (the families hold no rule of another input).
    for inputs, test_table in READINGS:
        loaded = load_rules(inputs, test_table)
        runnable = {
            code
            for code, rule in RULES.items()
            if set(inputs) & set(rule.inputs) and (test_table or not rule.reads_test_table)
        }
        assert runnable <= set(loaded)
        assert family_reads(None, frozenset(inputs), test_table)  # (a module at the pack's top: always)


#: In a fresh process: the codes of each reading, loaded family by family, then the rule modules imported.
FRESH = """
import json, sys
from nblint.engine import load_rules
codes = {repr(reading): list(load_rules(*reading)) for reading in READINGS}
print(json.dumps({"codes": codes, "modules": sorted(m for m in sys.modules if m.startswith("nblint_rules."))}))
"""


def fresh(script: str) -> dict:
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_rules_loaded_family_by_family_are_those_of_every_rule_loaded():
    result = fresh(f"READINGS = {READINGS!r}\n" + FRESH)
    for inputs, test_table in READINGS:
        assert result["codes"][repr((inputs, test_table))] == list(load_rules(inputs, test_table))


#: A first ``nblint.check`` of a small matrix in a fresh process (``TEST``: with a test table), then the rule
#: modules it imported.
CHECK = """
import json, sys
import numpy as np
import nblint
X = np.array([[1, 0, 2], [0, 1, 0], [3, 0, 1], [0, 2, 0]] * 5)
y = np.array(["a", "b"] * 10)
nblint.check(X, y, **({"test": X, "y_test": y} if TEST else {}))
print(json.dumps(sorted(m for m in sys.modules if m.startswith("nblint_rules."))))
"""


def test_a_check_of_a_table_imports_neither_the_pipeline_rules_nor_the_test_table_rules_without_one():
    alone = set(fresh("TEST = False\n" + CHECK))
    assert {m for m in alone if m.count(".") == 2} and not {
        m for m in alone if m.startswith(("nblint_rules.pipeline.", "nblint_rules.traintest."))
    }
    with_test = set(fresh("TEST = True\n" + CHECK))
    assert {m for m in with_test if m.startswith("nblint_rules.traintest.")}
    assert not {m for m in with_test if m.startswith("nblint_rules.pipeline.")}
