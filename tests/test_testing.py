"""nblint.testing catches broken rules, and a third-party pack's tests written as the docs show them pass."""

from __future__ import annotations

import itertools
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from nblint import testing
from nblint.engine import Rule, load_rules
from nblint.engine.findings import Severity

ROOT = Path(__file__).resolve().parent.parent
DEVELOPMENT = (ROOT / "docs" / "development.md").read_text()

DOC = """{summary}

    ## What it does
    Reports something.

    ## Why is this bad?
    It is a test.

    ## Severity
    Never an error.

    ## Example
    Anything.

    ## Use instead
    Nothing.
    """


#: The messages of the rules made for these tests.
MESSAGES = {
    "exists": "column {column!r} exists",
    "ratio": "{ratio} rows for each other row",
    "call": "call {call}",
    "first": "the first column",
    "a_column": "a column",
}


def make_rule(code: str, check, summary: str = "A rule made for a test.", messages=MESSAGES) -> type[Rule]:
    return type(
        f"Rule{code}",
        (Rule,),
        {
            "__doc__": DOC.format(summary=summary),
            "code": code,
            "name": f"test-{code[2:]}",
            "severity": Severity.INFO,
            "messages": messages,
            "check": check,
            "__module__": __name__,
        },
    )


def finding_per_feature(self, ctx):
    for column in ctx.profile.names:
        if column != ctx.target:
            yield self.finding(ctx, "exists", columns=[column])


def raises_on_one_row(self, ctx):
    yield self.finding(ctx, "ratio", evidence={"ratio": ctx.n_rows // (ctx.n_rows - 1)})


COUNTER = itertools.count()


def counts_its_calls(self, ctx):
    yield self.finding(ctx, "call", evidence={"call": next(COUNTER)})


def names_the_first_column(self, ctx):
    yield self.finding(ctx, "first", columns=[ctx.source.names[0]])


def names_a_column_that_is_not_there(self, ctx):
    yield self.finding(ctx, "a_column", columns=["no such column"])


def test_a_well_behaved_rule_keeps_the_contract():
    testing.check_rule(make_rule("NB991", finding_per_feature))


@pytest.mark.parametrize(
    "check, broken",
    [
        (raises_on_one_row, r"NB992 raised ZeroDivisionError on a one-row table, no model"),
        (counts_its_calls, r"NB992 on a typical table, no model: a second run gives other findings"),
        (names_the_first_column, r"NB992 on a typical table with its columns reversed, no model: other findings"),
        (names_a_column_that_is_not_there, r"names columns the table does not have: \['no such column'\]"),
    ],
)
def test_a_broken_rule_breaks_the_contract(check, broken):
    with pytest.raises(AssertionError, match=broken):
        testing.check_rule_behaviour(make_rule("NB992", check))


def test_an_empty_table_is_refused_before_any_rule_runs():
    """nblint refuses a table without rows (one error line, exit 2): no rule ever has to read one."""
    from nblint.testing.contract import _contexts

    assert _contexts("an empty table, no model", 0) == ()
    assert len(_contexts("a one-row table, no model", 0)) == 1


def test_undocumented_rules_and_missing_cases_break_the_contract():
    rule = make_rule("NB993", finding_per_feature)
    rule.__doc__ = rule.__doc__.replace("## Use instead", "## Instead")
    with pytest.raises(AssertionError, match="NB993 lacks the 'Use instead' section"):
        testing.check_rule_metadata(rule)
    with pytest.raises(AssertionError, match="NB101 needs at least one passing and one failing case"):
        testing.check_case_coverage(
            load_rules()["NB101"],
            [c for c in testing.load_cases(ROOT / "tests" / "rule_cases") if c.spec["expect"] == "pass"],
        )


def test_a_case_that_does_not_hold_fails(tmp_path):
    (case,) = [
        c for c in testing.load_cases(ROOT / "tests" / "rule_cases") if c.rule == "NB204" and c.spec["expect"] == "fail"
    ][:1]
    flipped = testing.Case(case.rule, dict(case.spec, expect="pass"), case.source)
    with pytest.raises(AssertionError):
        testing.check_case(flipped, tmp_path)
    wrong_columns = testing.Case(case.rule, dict(case.spec, columns=["no such column"]), case.source)
    with pytest.raises(AssertionError):
        testing.check_case(wrong_columns, tmp_path)


# --------------------------------------------------------------------------- a third-party pack, as docs/development.md shows


RULE_MODULE = '''
from nblint.engine import Rule
from nblint.engine.findings import Severity


class ShoutingColumn(Rule):
    """A column name in capitals.

    ## What it does
    Reports column names written in capital letters.

    ## Why is this bad?
    The house style is lower case.

    ## Severity
    Never an error: a matter of style.

    ## Example
    A column ``AGE``.

    ## Use instead
    A column ``age``.
    """

    code = "NB901"
    name = "shouting-column"
    severity = Severity.INFO
    messages = {"capitals": "column {column!r} is in capitals"}

    def check(self, ctx):
        for column in ctx.profile.names:
            if column.isupper():
                yield self.finding(ctx, "capitals", columns=[column])
'''

CASE_FILE = """
rule: NB901
cases:
  - name: a column in capitals
    expect: fail
    columns: [AGE]
    table: |
      AGE,y
      30,0
      40,1
  - name: lower case
    expect: pass
    table: |
      age,y
      30,0
      40,1
"""


@pytest.mark.slow
def test_a_third_party_pack_runs_the_readme_tests(tmp_path):
    """A pack registered through its entry point (a dist-info on the path, as pip writes it) runs the tests docs/development.md shows."""
    snippet = re.search(r"```python\n(# tests/test_my_rules\.py.*?)```", DEVELOPMENT, flags=re.S).group(1)
    (tmp_path / "my_pack").mkdir()
    (tmp_path / "my_pack" / "__init__.py").write_text("")
    (tmp_path / "my_pack" / "shouting.py").write_text(RULE_MODULE)
    info = tmp_path / "my_pack-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: my-pack\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[nblint.rules]\nmy_pack = my_pack\n")
    (tmp_path / "tests" / "rule_cases").mkdir(parents=True)
    (tmp_path / "tests" / "rule_cases" / "NB901.yaml").write_text(CASE_FILE)
    (tmp_path / "tests" / "test_my_rules.py").write_text(snippet)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")]))
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "tests"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    # two cases; the contract: metadata, templates, case coverage, behaviour and messages on each contract table,
    # messages on the one failing case
    tables = sum(item.input == "table" for item in testing.contract_inputs())
    assert re.search(rf"\b{2 + 3 + 2 * tables + 1} passed\b", result.stdout), result.stdout


def test_rules_of_a_package():
    assert [rule.code for rule in testing.rules_of("nblint_rules.impact")] == ["NB401"]
    assert len(testing.rules_of("nblint_rules")) == len(load_rules())
    assert testing.rules_of("nblint_rules.imp") == []


def test_importing_nblint_testing_imports_neither_pytest_nor_sklearn():
    code = textwrap.dedent("""
        import sys
        import nblint.testing
        print(sorted(m for m in ("pytest", "sklearn") if m in sys.modules))
    """)
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"


# --------------------------------------------------------------------------- messages as templates over evidence (issue 39)


@pytest.mark.parametrize(
    "template, broken",
    [
        ("the table has 60 rows", r"NB994 message 'rows' writes 60 in its words"),
        ("{rows} rows in {}", r"a field is read by name, not position"),
        ("{rows rows", r"does not parse"),
        ("{rows:plurals(row)} rows", r"names no spec of"),
    ],
)
def test_a_template_that_writes_a_number_or_does_not_parse_breaks_the_contract(template, broken):
    rule = make_rule("NB994", finding_per_feature, messages={"rows": template})
    with pytest.raises(AssertionError, match=broken):
        testing.check_rule_templates(rule)


def test_numbers_a_template_explains_with_and_notation_keep_the_contract():
    words = "code 'colour_2', NB104, log2, K-1 bits, 0/1 columns, codes 0..K-1, {rows} rows, codes 0 and 1"
    rule = make_rule("NB994", finding_per_feature, messages={"rows": words})
    with pytest.raises(AssertionError, match="writes 0, 1 in its words"):
        testing.check_rule_templates(rule)
    rule.message_constants = frozenset({0.0, 1.0})  # (the codes of an example: declared)
    testing.check_rule_templates(rule)


def says_the_row_count(self, ctx):
    yield self.finding(ctx, f"the table has {ctx.n_rows} rows", evidence={"note": "rows left out"})


def says_a_third(self, ctx):
    yield self.finding(ctx, "third", evidence={"third": 1 / 3})


def says_a_numpy_number(self, ctx):
    import numpy as np

    yield self.finding(ctx, "third", evidence={"third": np.float64(0.25)})


@pytest.mark.parametrize(
    "check, broken",
    [
        (says_the_row_count, r"NB994 on a typical table, no model: 'the table has 60 rows' has variant '', not one"),
        (says_a_third, r"is not its template over its evidence as JSON"),
        (says_a_numpy_number, r"the template reads \{third\} = np.float64\(0.25\), which is not plain JSON"),
    ],
)
def test_a_message_that_is_not_its_template_over_plain_evidence_breaks_the_contract(check, broken):
    """A literal message, a number shown with more digits than the report keeps, a numpy number read by a template."""
    rule = make_rule("NB994", check, messages={"third": "a third is {third}"})
    with pytest.raises(AssertionError, match=broken):
        testing.check_messages_on(rule, "a typical table, no model")


def test_exemptions_and_stale_exemptions():
    rule = make_rule("NB994", says_the_row_count)
    with pytest.raises(
        AssertionError, match=r"NB994 on a typical table, no model: 'the table has 60 rows' has variant"
    ):
        testing.check_rule(rule)
    rule.contract_exemptions = {"messages": "a test of exemptions"}
    testing.check_rule(rule)  # the whole contract but the exempt check
    assert testing.stale_exemptions(rule) == []
    rule.contract_exemptions = {"messages": "no longer needed"}
    rule.check = finding_per_feature
    assert testing.stale_exemptions(rule) == ["messages"]


def test_a_failing_cases_json_says_one_of_the_rules_templates():
    from nblint.testing.templates import check_json_messages

    rule = make_rule("NB994", finding_per_feature)
    said = {"message": "column 'a' exists", "columns": ["a"], "rows": [], "evidence": {}}
    check_json_messages(rule, [said], "a case")
    with pytest.raises(AssertionError, match="none of the rule's templates"):
        check_json_messages(rule, [dict(said, message="column 'b' exists")], "a case")


def test_parametrize_with_checks_makes_one_test_per_rule_check_and_input():
    rule = make_rule("NB995", says_the_row_count)
    rule.contract_exemptions = {"messages": "the message is literal"}
    cases = [testing.Case("NB995", {"name": f"c{i}", "expect": expect}) for i, expect in enumerate(["pass", "fail"])]
    params = testing.parametrize_with_checks([rule], cases).args[1]
    ids = [param.id for param in params]
    tables = [item.name for item in testing.contract_inputs() if item.input == "table"]
    assert ids[:4] == [
        "NB995-metadata",
        "NB995-templates",
        "NB995-case_coverage",
        "NB995-behaviour-a_typical_table_no_model",
    ]
    assert len(ids) == 3 + 2 * len(tables) + 1 and ids[-1] == "NB995-messages-case2"  # the failing case
    exempt = [param.id for param in params if param.marks]
    assert exempt == [i for i in ids if "-messages-" in i]
    assert all(param.marks[0].kwargs["reason"] == "the message is literal" for param in params if param.marks)
    with pytest.raises(ValueError, match=r"NB995 is exempt from checks that do not exist: \['evidence'\]"):
        testing.parametrize_with_checks([rule], expected_failed_checks=lambda rule: {"evidence": "a typo"})


def test_the_kit_builds_the_context_a_run_builds():
    """Issue 39 item 8: ``testing.context`` goes through the run's factory, so the rules find on it what
    ``nblint.check`` finds (settings, options and declared kinds resolved as a run resolves them)."""
    import pandas as pd

    import nblint
    from nblint.engine import load_rules, run_rules

    frame = testing.contract_table()
    options = {"NB203": {"min-count": 7}}
    for model in (None, "bernoulli", "gaussian"):
        ctx = testing.context(frame, target="y", model=model, options=options, kinds={"code": "categorical"})
        ours = [f.to_dict() for f in run_rules(ctx, list(load_rules()), ctx.rule_options)]
        report = nblint.check(frame, target="y", model=model, options=options, kinds={"code": "categorical"})
        assert ours == [f.to_dict() for f in report], model
    assert isinstance(testing.context(pd.DataFrame({"a": [0, 1], "y": [0, 1]}), target="y").source.path, str)


def test_no_test_builds_a_context_by_hand():
    """One kit: a context assembled by hand (TableContext called in a test) could be one no run produces."""
    call = "TableContext" + "("
    tests = Path(__file__).parent
    assert [str(p.relative_to(tests)) for p in sorted(tests.rglob("*.py")) if call in p.read_text()] == []
