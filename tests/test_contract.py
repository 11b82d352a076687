"""One contract test run over every registered rule (the scikit-learn estimator-checks idea)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from nblint import testing
from nblint.cli import main
from nblint.engine import DOC_SECTIONS, load_rules
from nblint.pipelines import read_config

CASES = testing.load_cases(Path(__file__).parent / "rule_cases")
RULES = load_rules()


def test_builtin_pack_is_loaded_through_the_entry_point():
    from importlib.metadata import entry_points

    assert "nblint_rules" in [ep.value for ep in entry_points(group="nblint.rules")]
    assert {r.__module__.split(".")[0] for r in RULES.values()} == {"nblint_rules"}


@pytest.mark.parametrize("code", list(RULES))
def test_rule_contract(code):
    """Documentation, options and case coverage (nblint.testing.check_rule_metadata, check_case_coverage)."""
    testing.check_rule_metadata(RULES[code])
    testing.check_case_coverage(RULES[code], CASES)
    assert len({r.name for r in RULES.values()}) == len(RULES)


@pytest.mark.parametrize("code", list(RULES))
def test_rule_behaviour(code):
    """Never raises on the contract's tables and configs, deterministic, whatever the column order."""
    testing.check_rule_behaviour(RULES[code])


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
