"""Messages as templates over evidence (issue 39 item 4): the formatter and a rule's rendering.

The oracle of each named spec is the project's wording helper it stands for (and
:meth:`str.format` for everything else): a template must print exactly what the f-string
it replaces printed.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nblint.engine import Rule, Severity
from nblint.engine.messages import (
    SUMMARY,
    field_root,
    fields_of,
    fmt_class,
    fmt_columns,
    fmt_number,
    fmt_share,
    fmt_value,
    literal_text,
    named_spec,
    render,
)

names = st.lists(st.text(alphabet="abcxyz_0", min_size=1, max_size=5), max_size=15)
#: Examples enough for a formatter (derandomised, no deadline: a loaded machine is slow, not wrong).
SETTINGS = settings(max_examples=50, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
numbers = st.floats(allow_nan=False, allow_infinity=False, min_value=-1e9, max_value=1e9)


@SETTINGS
@given(names, st.integers(1, 8))
def test_names_is_fmt_columns(columns, limit):
    assert render("{columns:names}", {"columns": columns}) == fmt_columns(columns)
    assert render(f"{{columns:names({limit})}}", {"columns": columns}) == fmt_columns(columns, limit)


@SETTINGS
@given(st.lists(st.one_of(st.text(max_size=4), st.integers(), numbers), min_size=1, max_size=5))
def test_quoted_level_and_label_are_the_helpers_joined(values):
    assert render("{v:quoted}", {"v": values}) == ", ".join(map(repr, values))
    assert render("{v:level}", {"v": values}) == ", ".join(map(fmt_value, values))
    assert render("{v:label}", {"v": values}) == ", ".join(map(fmt_class, values))
    assert render("{v:label}", {"v": values[0]}) == fmt_class(values[0])
    assert render("{v:quoted}", {"v": values[0]}) == repr(values[0])


@SETTINGS
@given(numbers, st.floats(0, 1))
def test_number_and_share_are_the_helpers(x, p):
    assert render("{x:number}", {"x": x}) == fmt_number(x)
    assert render("{p:share}", {"p": p}) == fmt_share(p)


@pytest.mark.parametrize(
    ("p", "expected"),
    [(0.0, "less than 1 in 1e300"), (3.2e-13, "about 1 in 3.1e+12"), (0.004, "about 1 in 2.5e+02"), (0.025, "2.50%")],
)
def test_chance_is_odds_below_one_percent(p, expected):
    assert render("by chance {p:chance}", {"p": p}) == f"by chance {expected}"


def test_likely_names_a_variable_only_where_the_names_share_a_stem():
    assert render("a, b{v:likely}: K=2", {"v": "colour"}) == "a, b (likely variable 'colour'): K=2"
    assert render("a, b{v:likely}: K=2", {"v": None}) == "a, b: K=2"


def test_a_share_too_small_for_one_decimal_shows_its_first_digit():
    assert render("{p:share} and {p:.1%}", {"p": 0.00005}) == "0.005% and 0.0%"


@pytest.mark.parametrize(
    ("template", "n", "expected"),
    [
        ("{n:plural(row)}", 1, "1 row"),
        ("{n:plural(row)}", 0, "0 rows"),
        ("{n:plural(row)}", 3, "3 rows"),
        ("{n:plural(class,classes)}", 2, "2 classes"),
        ("{n:plural(class, classes)}", 1, "1 class"),
        ("{n:plural(row):,}", 12345, "12,345 rows"),
        ("{n:plural(column)}", ["a", "b"], "2 columns"),  # a list counts its items
        ("{n:plural(class,classes)}", {"a": 3}, "1 class"),  # a mapping too
        ("{n:count} of them", ["a", "b", "c"], "3 of them"),
        ("{n:pairs}", {"bernoulli": 2, "gaussian": 3}, "bernoulli: 2; gaussian: 3"),
        ("{n:joined}", ["onehotencoder", 3], "onehotencoder, 3"),
        ("{n:choose(has,have)}", 1, "has"),
        ("{n:choose(has,have)}", 4, "have"),
    ],
)
def test_plural_and_choose_agree_with_the_number(template, n, expected):
    assert render(template, {"n": n}) == expected


@SETTINGS
@given(numbers, st.integers(-(10**7), 10**7), st.text(max_size=6))
def test_standard_specs_render_as_str_format(x, n, text):
    template = "{x:.3g} {x:.1%} {n:,} {text!r} {n:>6} {x:{width}}"
    fields = {"x": x, "n": n, "text": text, "width": ".2f"}
    assert render(template, fields) == template.format(**fields)
    mixed = "{n:plural(row)}: {x:.3g} and {text!r}"  # a named spec beside standard ones
    assert render(mixed, fields) == f"{n} {'row' if n == 1 else 'rows'}: {x:.3g} and {text!r}"


def test_a_field_the_fields_lack_is_a_key_error():
    with pytest.raises(KeyError):
        render("{missing}", {})
    with pytest.raises(KeyError):
        render("{missing:names}", {})


def test_named_specs_are_told_from_standard_ones():
    assert named_spec("plural(row):,") == ("plural", ("row",), ",")
    assert named_spec("names") == ("names", (), "")
    assert named_spec(".0%") is None and named_spec("g") is None and named_spec("unknown(x)") is None


def test_a_templates_fields_roots_and_words():
    template = "{examples[0][message]} {n:{width}} {group.label!r}: {columns:names(3)} 0/1"
    assert [name for name, _ in fields_of(template)] == ["examples[0][message]", "n", "width", "group.label", "columns"]
    assert [field_root(name) for name, _ in fields_of(template)] == ["examples", "n", "width", "group", "columns"]
    assert literal_text(template) == "  :  0/1"
    assert "{instances}" in SUMMARY


# --------------------------------------------------------------------------- a rule's rendering


class _Context:
    path = "t.csv"


class _Rule(Rule):
    """A rule with two variants."""

    code = "NB998"
    name = "test-rule"
    severity = Severity.WARNING
    messages = {
        "constant": "column {column!r} has the same value ({value}) on every row",
        "many": "{n_rows:plural(row)} of {columns:names} repeat; rows {rows}",
    }


def test_a_finding_renders_its_variants_template_over_its_fields():
    rule = _Rule()
    one = rule.finding(_Context(), "constant", columns=["a"], evidence={"value": 7})
    assert one.message == "column 'a' has the same value (7) on every row" and one.variant == "constant"
    many = rule.finding(_Context(), "many", columns=list("abcdefgh"), rows=[2, 5], evidence={"n_rows": 2})
    assert many.message == "2 rows of a, b, c, d, e, f, ... (8 columns) repeat; rows [2, 5]"
    assert "variant" not in many.to_dict()  # (JSON, SARIF and the goldens never show it)


def test_an_evidence_key_takes_precedence_over_the_findings_rows():
    class Counted(_Rule):
        messages = {"count": "{rows} rows"}

    rule = Counted()
    assert rule.finding(_Context(), "count", rows=[1, 2], evidence={"rows": 40}).message == "40 rows"


def test_a_literal_message_is_still_accepted_while_rules_move_to_templates():
    rule = _Rule()
    assert rule.finding(_Context(), "some literal words").message == "some literal words"
    assert rule.finding(_Context(), "some literal words").variant == ""
    assert rule.finding(_Context(), message="constant").message == "constant"  # (message= is always literal)


def test_engine_templates_summary_and_suffixes():
    assert _Rule.template("summary") == SUMMARY
    assert _Rule.template("constant+undecided").startswith(_Rule.messages["constant"] + " (on a branch of ")
    assert _Rule.template("nothing") is None and _Rule.template("constant+nothing") is None


def test_a_summary_reads_every_finding_it_folds_not_only_the_ten_it_shows():
    """NB208's "at least X% of rows" is the least over all the columns summarised (summary_evidence gets them all)."""

    class Least(_Rule):
        messages = {
            "constant": _Rule.messages["constant"],
            "summary": "{instances} columns, the least at {least:.0%}; the first: {examples[0][message]}",
        }

        def cost(self, finding):
            return finding.evidence["value"]

        def summary_evidence(self, ctx, findings):
            return {"least": min(f.evidence["value"] for f in findings) / 100}

    class Wide(_Context):
        names = [f"c{k}" for k in range(12)]
        table_order = {name: k for k, name in enumerate(names)}
        profile = type("Profile", (), {"names": names})()
        target = None

    findings = [
        Least().finding(Wide(), "constant", columns=[c], evidence={"value": 90 - k}) for k, c in enumerate(Wide.names)
    ]
    (summary,) = Least().summarize(Wide(), findings, limit=5)
    assert (
        summary.message == "12 columns, the least at 79%; the first: column 'c0' has the same value (90) on every row"
    )
    assert len(summary.evidence["examples"]) == 10  # (the ten costliest shown; the least is the twelfth)
