"""One contract test run over every registered rule (the scikit-learn estimator-checks idea)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from nblint.cli import main
from nblint.engine import CODE_PATTERN, DOC_SECTIONS, load_rules
from nblint.pipelines import read_config

CASES = Path(__file__).parent / "rule_cases"
RULES = load_rules()


def test_builtin_pack_is_loaded_through_the_entry_point():
    from importlib.metadata import entry_points

    assert "nblint_rules" in [ep.value for ep in entry_points(group="nblint.rules")]
    assert {r.__module__.split(".")[0] for r in RULES.values()} == {"nblint_rules"}


@pytest.mark.parametrize("code", list(RULES))
def test_rule_contract(code):
    rule = RULES[code]
    assert CODE_PATTERN.match(code) and rule.code == code
    assert rule.name and rule.name == rule.name.lower() and " " not in rule.name
    assert len({r.name for r in RULES.values()}) == len(RULES)
    sections = rule.doc_sections()
    for title in DOC_SECTIONS:
        assert sections.get(title), f"{code} lacks the '{title}' section"
    assert sections.get("Severity"), f"{code} must say what makes it an error (a '## Severity' section)"
    assert rule.summary() and not rule.summary().startswith("#")
    for option in rule.options:
        assert option.doc.strip(), f"{code} option {option.name} is undocumented"
        assert option.name == option.name.lower() and "_" not in option.name
        assert option.coerce(option.default) == option.default
    spec = yaml.safe_load((CASES / f"{code}.yaml").read_text())
    expects = {case["expect"] for case in spec["cases"]}
    assert expects == {"pass", "fail"}, f"{code} needs at least one passing and one failing case"
    if "pipeline" in rule.inputs:
        covered = {(case["form"], case["expect"]) for case in spec["cases"]}
        for form in ("hydra", "spec", "python"):
            assert {(form, "pass"), (form, "fail")} <= covered, f"{code} needs a passing and a failing {form} case"
        assert all("line" in case for case in spec["cases"] if case["expect"] == "fail"), f"{code}: say the line"


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
