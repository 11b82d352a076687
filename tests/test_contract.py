"""One contract test run over every registered rule (the scikit-learn estimator-checks idea)."""

from __future__ import annotations

import inspect
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from slow_set import slow_where

import nblint
from nblint import testing
from nblint.cli import main
from nblint.engine import DOC_SECTIONS, MODELS, load_rules
from nblint.pipelines import read_config

CASES = testing.load_cases(Path(__file__).parent / "rule_cases")
RULES = load_rules()


def test_builtin_pack_is_loaded_through_the_entry_point():
    from importlib.metadata import entry_points

    assert "nblint_rules" in [ep.value for ep in entry_points(group="nblint.rules")]
    assert {r.__module__.split(".")[0] for r in RULES.values()} == {"nblint_rules"}


@pytest.fixture(scope="module", autouse=True)
def _one_blas_thread():
    """BLAS on one thread for the whole module, as ``testing.check_rule`` holds it for a whole rule.

    Each check then enters it for nothing, where taking it (threadpoolctl asking each BLAS for its
    thread count) cost 0.3 ms a check. Being a module fixture, it keeps the module's tests on one
    ``pytest -n`` worker (tests/conftest.py): each contract input's contexts are built in one
    process, not in each.
    """
    from nblint.core.blas import one_blas_thread

    with one_blas_thread():
        yield


def _runs_a_case(param) -> bool:
    """A failing case's ``messages`` check (``caseN``): it runs its case afresh, as tests/test_rule_cases.py does.

    That test checks the messages of the findings it has run (the same assertion), so the fast
    subset runs each case once; ``python -m pytest`` (CI) runs the contract's own check too.
    """
    (check,) = param.values
    return check.check == "messages" and check.input.startswith("case")


@slow_where(testing.parametrize_with_checks(RULES.values(), CASES), _runs_a_case)
def test_rule_contract(check):
    """One test per (rule, check, input): documentation, templates, case coverage, behaviour, messages over evidence.

    A rule's known failures are its documented ``contract_exemptions`` (strict expected failures).
    """
    check()


@pytest.mark.parametrize("code", [code for code, rule in RULES.items() if rule.contract_exemptions])
def test_every_exemption_is_still_needed(code):
    """An exemption is documented in the rule and removed as soon as the rule keeps that part of the contract."""
    assert testing.stale_exemptions(RULES[code], CASES) == []


def test_every_builtin_rule_says_its_messages_as_templates():
    """Issue 39 item 4: every built-in rule declares ``messages``, and no finding it builds passes a literal message.

    Each ``finding``/``step_finding`` call of a rule module names a variant: a string written there is one of
    the rule's (a computed one, ``f"{problem}_{texts}"``, is checked on every contract input and case by the
    ``messages`` check, which fails a literal message as a finding without a variant).
    """
    import ast

    assert [code for code, rule in RULES.items() if not rule.messages] == []
    for code, rule in RULES.items():
        module = inspect.getmodule(rule)
        for call in ast.walk(ast.parse(inspect.getsource(module))):
            if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)):
                continue
            position = {"finding": 1, "step_finding": 2}.get(call.func.attr)
            if position is None:
                continue
            where = f"{code}: line {call.lineno} of {module.__name__}"
            assert "message" not in [keyword.arg for keyword in call.keywords], f"{where} passes a literal message"
            variant = call.args[position] if len(call.args) > position else None
            if isinstance(variant, ast.Constant):
                assert rule.template(variant.value) is not None, f"{where}: {variant.value!r} is not a variant"


def test_rule_names_are_unique():
    assert len({r.name for r in RULES.values()}) == len(RULES)


@pytest.mark.parametrize("code", list(RULES))
def test_rule_command_prints_the_documentation(code):
    result = CliRunner().invoke(main, ["rule", code.lower()])
    assert result.exit_code == 0
    for title in (*DOC_SECTIONS, "Options"):
        assert f"## {title}" in result.stdout
    for option in RULES[code].options:
        assert option.name in result.stdout


def test_rules_command_lists_every_rule():
    result = CliRunner().invoke(main, ["rules"])
    lines = result.stdout.splitlines()
    assert [line.split()[0] for line in lines] == list(RULES)
    for line, rule in zip(lines, RULES.values()):
        assert rule.name in line and str(rule.severity) in line and rule.summary() in line


def test_unknown_rule_is_a_usage_error():
    assert CliRunner().invoke(main, ["rule", "NB999"]).exit_code == 2


PIPELINE_RULES = [code for code, rule in RULES.items() if "pipeline" in rule.inputs]
FENCE_SUFFIX = {"yaml": ".yaml", "python": ".py"}


@pytest.mark.parametrize("code", PIPELINE_RULES)
def test_pipeline_rule_examples_are_true(code, tmp_path):
    """The documented Example makes the rule fire; the Use instead does not."""
    sections = RULES[code].doc_sections()
    for title, fires in (("Example", True), ("Use instead", False)):
        language, text = re.match(r"```(\w+)\n(.*?)```", sections[title], flags=re.S).groups()
        path = tmp_path / f"{title.replace(' ', '_')}{FENCE_SUFFIX[language]}"
        path.write_text(text)
        assert read_config(str(path)) is not None, f"{code} {title} is not read as a pipeline config"
        result = CliRunner().invoke(main, ["check", str(path), "--select", code, "--format", "json"])
        assert bool(json.loads(result.stdout)) is fires, f"{code} {title}: {result.stdout}"


def test_the_engine_runs_a_rule_only_under_the_models_it_declares():
    """Rule.models gates as needs_target does: no rule opens with its own `if ctx.model ...: return`."""
    import pandas as pd

    from nblint.engine import applies

    rules = load_rules()
    frame = pd.DataFrame({"u": [0.5, 1.5, 2.5, 3.5] * 5, "v": [0, 1, 1, 0] * 5, "y": list("abab") * 5})
    for model in (None, "bernoulli", "gaussian", "categorical"):
        report = nblint.check(frame, target="y", model=model)
        ran = {f.code for f in report}
        for code in ran:
            assert not rules[code].models or model in rules[code].models, (code, model)
    gated = {code: rule.models for code, rule in rules.items() if rule.models}
    assert gated["NB301"] == {"bernoulli"} and gated["NB205"] == {None, "gaussian"}
    assert gated["NB308"] == set(MODELS)  # any declared model, not none
    for code, rule in rules.items():  # the gate lives in the engine, not in each rule
        source = Path(inspect.getsourcefile(rule)).read_text()
        assert not re.search(r"if ctx\.model (?:not in|!=|is None|in) .*:\n\s+return\n", source), code

    class Declared:
        input, target, model = "table", "y", "gaussian"

    assert applies(rules["NB304"], Declared()) and not applies(rules["NB301"], Declared())
    assert not applies(rules["NB205"], type("Other", (Declared,), {"model": "categorical"})())
