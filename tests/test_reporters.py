"""The output formats: SARIF against the 2.1.0 schema, GitHub escaping, JUnit, text colour, --output/--exit-zero."""

from __future__ import annotations

import io
import json
import xml.etree.ElementTree as ET
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from nblint.cli import main
from nblint.core.terminal import Progress, color_enabled, is_interactive
from nblint.engine import load_rules
from nblint.engine.findings import Finding, Severity
from nblint.report.formats import escape_data, escape_property, render, render_github, render_junit
from nblint.report.sarif import sarif_log
from nblint.run.runner import FileResult, RunResult

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = json.loads((Path(__file__).parent / "data" / "sarif-schema-2.1.0.json").read_text())
EXAMPLES = ["check", "examples/customers.csv", "examples/clean.csv"]


def config_finding(**changes) -> Finding:
    """A finding as a pipeline-config rule would yield it: a line (and a column)."""
    values = {
        "code": "NB101",
        "name": "one-hot-group",
        "severity": Severity.ERROR,
        "message": "OneHotEncoder feeds BernoulliNB",
        "path": "conf/pipe,1:a.yaml",
        "line": 7,
        "fix": "Use OrdinalEncoder into CategoricalNB.",
    }
    values.update(changes)
    finding = Finding(**values)
    finding.column = 5  # configs carry a column; reporters read it when present
    return finding


def run_of(*files: FileResult) -> RunResult:
    return RunResult(list(files))


@pytest.fixture
def examples(monkeypatch):
    monkeypatch.chdir(ROOT)

    def invoke(*args):
        return CliRunner().invoke(main, [*EXAMPLES, *args])

    return invoke


# --------------------------------------------------------------------------- SARIF


def test_sarif_of_the_examples_validates_against_the_sarif_2_1_0_schema(examples):
    result = examples("--format", "sarif")
    assert result.exit_code == 1
    log = json.loads(result.stdout)
    jsonschema.Draft202012Validator(SCHEMA).validate(log)
    assert log["version"] == "2.1.0"


def test_sarif_driver_lists_every_rule_with_its_documentation(examples):
    driver = json.loads(examples("--format", "sarif", "--select", "NB101").stdout)["runs"][0]["tool"]["driver"]
    rules = load_rules()
    assert [r["id"] for r in driver["rules"]] == list(rules)  # every rule, whatever was selected
    for descriptor, rule in zip(driver["rules"], rules.values(), strict=True):
        assert descriptor["name"] == rule.name
        assert descriptor["shortDescription"]["text"] == rule.summary()
        assert descriptor["fullDescription"]["text"]
        assert "Why is this bad?" in descriptor["help"]["text"]
        assert descriptor["help"]["markdown"] == rule.documentation()
        assert (
            descriptor["defaultConfiguration"]["level"]
            == {"error": "error", "warning": "warning", "info": "note"}[str(rule.severity)]
        )


def test_sarif_results_locate_tables_by_file_and_columns(examples):
    run = json.loads(examples("--format", "sarif").stdout)["runs"][0]
    first = run["results"][0]
    assert first["ruleId"] == "NB101" and run["tool"]["driver"]["rules"][first["ruleIndex"]]["id"] == "NB101"
    assert first["level"] == "warning"
    assert first["message"]["text"].startswith("columns channel_app, channel_phone, channel_web form a one-hot group")
    (location,) = first["locations"]
    assert location["physicalLocation"]["artifactLocation"] == {
        "uri": "examples/customers.csv",
        "uriBaseId": "%SRCROOT%",
    }
    assert location["physicalLocation"]["region"] == {"startLine": 1}  # the header row naming the columns
    assert [loc["name"] for loc in location["logicalLocations"]] == ["channel_app", "channel_phone", "channel_web"]
    assert run["invocations"] == [{"executionSuccessful": True}]


def test_sarif_config_findings_carry_line_and_column_and_errors_are_notifications():
    log = sarif_log(
        run_of(
            FileResult("conf/pipe,1:a.yaml", [config_finding()]),
            FileResult("bad.csv", error="bad.csv: error: file is empty"),
        )
    )
    jsonschema.Draft202012Validator(SCHEMA).validate(log)
    run = log["runs"][0]
    (result,) = run["results"]
    assert result["level"] == "error"
    assert result["locations"][0]["physicalLocation"]["region"] == {"startLine": 7, "startColumn": 5}
    assert result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "conf/pipe%2C1%3Aa.yaml"
    (invocation,) = run["invocations"]
    assert invocation["executionSuccessful"] is False
    assert invocation["toolExecutionNotifications"][0]["message"]["text"] == "bad.csv: error: file is empty"


def test_sarif_fingerprints_are_stable_and_distinct(examples):
    results = json.loads(examples("--format", "sarif").stdout)["runs"][0]["results"]
    prints = [r["partialFingerprints"]["nblintFinding/v1"] for r in results]
    assert len(set(prints)) == len(prints)
    again = json.loads(examples("--format", "sarif").stdout)["runs"][0]["results"]
    assert prints == [r["partialFingerprints"]["nblintFinding/v1"] for r in again]


# --------------------------------------------------------------------------- GitHub


def test_github_escaping_of_message_and_properties():
    assert escape_data("50% of\r\nrows: a, b") == "50%25 of%0D%0Arows: a, b"
    assert escape_property("a:b,c%\n") == "a%3Ab%2Cc%25%0A"


def test_github_annotation_for_a_config_finding():
    text = render_github(run_of(FileResult("conf/pipe,1:a.yaml", [config_finding(message="100% sure:\nsee, here")])))
    assert text == (
        "::error file=conf/pipe%2C1%3Aa.yaml,line=7,col=5,title=NB101 one-hot-group"
        "::100%25 sure:%0Asee, here%0AFix: Use OrdinalEncoder into CategoricalNB.\n"
    )


def test_github_levels_and_unreadable_inputs():
    findings = [config_finding(severity=s, line=None) for s in (Severity.ERROR, Severity.WARNING, Severity.INFO)]
    lines = render_github(
        run_of(FileResult("t.csv", findings), FileResult("x.csv", error="x.csv: error: file not found"))
    )
    commands = [line.split(" ", 1)[0] for line in lines.splitlines()]
    assert commands == ["::error", "::warning", "::notice", "::error"]
    assert "line=" not in lines.splitlines()[0]  # a table finding annotates the file
    assert lines.splitlines()[-1] == "::error file=x.csv,title=nblint::x.csv: error: file not found"


# --------------------------------------------------------------------------- JUnit


def test_junit_one_testcase_per_finding_and_one_per_clean_file(examples):
    """CI servers show one result per <testcase>: each finding is its own case, with at most one <failure>."""
    root = ET.fromstring(examples("--format", "junit").stdout)
    (suite,) = root
    cases = list(suite)
    findings = [f for f in json.loads(examples("--format", "json").stdout) if f["path"] == "examples/customers.csv"]
    assert [c.get("classname") for c in cases] == ["examples/customers.csv"] * len(findings) + ["examples/clean.csv"]
    assert all(len(c.findall("failure")) <= 1 for c in cases)
    assert [c.find("failure").get("type") for c in cases[:-1]] == [f["code"] for f in findings]
    assert cases[0].get("name") == "NB101 one-hot-group: " + ", ".join(findings[0]["columns"])
    assert len({c.get("name") for c in cases[:-1]}) == len(findings)  # names tell the cases apart
    assert suite.get("tests") == str(len(findings) + 1) and suite.get("failures") == str(len(findings))
    assert suite.get("errors") == "0"
    assert cases[0].find("failure").get("message").startswith("NB101 one-hot-group: columns channel_app")
    assert "fix: Collapse the group" in cases[0].find("failure").text
    assert (cases[-1].get("name"), list(cases[-1])) == ("no findings", [])


def test_junit_findings_below_the_fail_level_do_not_fail_and_errors_are_errors():
    info = config_finding(severity=Severity.INFO, message="note <&> \x00this")
    xml = render_junit(
        run_of(
            FileResult("a.yaml", [config_finding(), info], fail_on=Severity.ERROR),
            FileResult("b.csv", error="b.csv: error: ragged rows"),
        )
    )
    root = ET.fromstring(xml)
    failing, passing, b = root[0]
    assert [f.get("type") for f in failing.findall("failure")] == ["NB101"] and failing.get("line") == "7"
    assert "a.yaml:7: NB101 [error]" in failing.find("failure").text
    assert passing.find("failure") is None
    assert "a.yaml:7: NB101 [info] note <&> \ufffdthis" in passing.find("system-out").text
    assert b.find("error").get("message") == "b.csv: error: ragged rows"
    assert root.get("tests") == "3" and root.get("failures") == "1" and root.get("errors") == "1"


# --------------------------------------------------------------------------- text, colour, progress


def test_text_shows_the_line_of_config_findings():
    text = render(run_of(FileResult("conf/pipe,1:a.yaml", [config_finding()])), "text")
    assert text.splitlines()[0] == "conf/pipe,1:a.yaml:7: NB101 [error] OneHotEncoder feeds BernoulliNB"


def test_color_flag_colours_code_and_severity_and_no_color_does_not(examples):
    coloured = examples("--color").stdout
    assert "\x1b[" in coloured
    assert "\x1b[33m\x1b[1mNB101\x1b[0m \x1b[33m[warning]\x1b[0m columns channel_app" in coloured
    plain = examples("--no-color").stdout
    assert "\x1b" not in plain
    assert plain == examples().stdout  # not a terminal: plain by default
    assert "\x1b" not in examples("--color", "--format", "json").stdout  # only text is ever coloured


class FakeTTY(io.StringIO):
    def isatty(self):
        return True


@pytest.mark.parametrize(
    "environ, interactive",
    [
        ({}, True),
        ({"CI": "true"}, False),
        ({"GITHUB_ACTIONS": "true"}, False),
        ({"PRE_COMMIT": "1"}, False),
        ({"CI": "false"}, True),
        ({"CI": ""}, True),
    ],
)
def test_interactive_only_on_a_terminal_outside_ci_and_pre_commit(environ, interactive):
    assert is_interactive(FakeTTY(), environ) is interactive
    assert color_enabled(None, FakeTTY(), environ) is interactive
    assert is_interactive(io.StringIO(), environ) is False
    assert color_enabled(True, io.StringIO(), environ) is True  # --color wins
    assert color_enabled(False, FakeTTY(), environ) is False  # --no-color wins


def test_no_color_variable_turns_colour_off():
    assert color_enabled(None, FakeTTY(), {"NO_COLOR": "1"}) is False
    assert is_interactive(FakeTTY(), {"NO_COLOR": "1"}) is True  # progress is not colour


def test_progress_draws_only_when_enabled_and_for_several_files():
    stream = FakeTTY()
    progress = Progress(stream, enabled=True)
    progress(1, 1, "only.csv")
    assert stream.getvalue() == ""
    progress(1, 2, "a.csv")
    progress(2, 2, "b.csv")
    progress.clear()
    assert stream.getvalue() == "\r\x1b[K[1/2] a.csv\r\x1b[K[2/2] b.csv\r\x1b[K"
    quiet = FakeTTY()
    Progress(quiet, enabled=False)(1, 2, "a.csv")
    assert quiet.getvalue() == ""


def test_cli_draws_no_progress_when_stderr_is_not_a_terminal(examples):
    assert examples().stderr == ""


# --------------------------------------------------------------------------- --output, --exit-zero


@pytest.mark.parametrize("fmt", ["text", "json", "sarif", "github", "junit"])
def test_output_writes_the_same_report_to_a_file(examples, tmp_path, fmt):
    target = tmp_path / f"report.{fmt}"
    written = examples("--format", fmt, "--output", str(target))
    assert written.exit_code == 1
    assert written.stdout == ""
    assert target.read_text(encoding="utf-8") == examples("--format", fmt).stdout


def test_output_to_an_unwritable_place_is_exit_2(examples, tmp_path):
    result = examples("--output", str(tmp_path / "missing" / "report.txt"))
    assert result.exit_code == 2
    assert "cannot write the report" in result.stderr


def test_exit_zero_with_findings_but_still_2_on_errors(examples, tmp_path):
    assert examples().exit_code == 1
    assert examples("--exit-zero").exit_code == 0
    empty = tmp_path / "empty.csv"
    empty.write_text("")
    assert examples(str(empty), "--exit-zero").exit_code == 2
