"""Rule codes and names: a name is accepted wherever a code is, and a typo gets the likeliest code."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from nblint.cli import main

ROOT = Path(__file__).resolve().parent.parent
CUSTOMERS = str(ROOT / "examples" / "customers.csv")


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def codes(result) -> list[str]:
    return sorted({f["code"] for f in json.loads(result.stdout)})


@pytest.mark.parametrize("option", ["--select", "--extend-select"])
def test_a_rule_name_selects_like_its_code(option):
    by_code = run("check", CUSTOMERS, "--target", "churned", "--format", "json", "--select", "NB101")
    by_name = run(
        "check", CUSTOMERS, "--target", "churned", "--format", "json", option, "one-hot-group", "--select", "NB102"
    )
    assert codes(by_code) == ["NB101"]
    assert codes(by_name) == (["NB101", "NB102"] if option == "--extend-select" else ["NB102"])
    snake = run("check", CUSTOMERS, "--target", "churned", "--format", "json", "--select", "one_hot_group,NB104")
    assert codes(snake) == ["NB101", "NB104"]


@pytest.mark.parametrize(
    "option, written, expected",
    [
        ("--select", "NB1O1", "--select: 'NB1O1' matches no rule; did you mean 'NB101' (one-hot-group)?"),
        ("--ignore", "one-hot-grup", "--ignore: 'one-hot-grup' matches no rule; did you mean 'one-hot-group' (NB101)?"),
        ("--extend-select", "NB4O1", "did you mean 'NB401' (one-hot-impact)?"),
        ("--extend-ignore", "NB9", "--extend-ignore: 'NB9' matches no rule (`nblint rules`"),
    ],
)
def test_an_unknown_selector_is_a_usage_error_with_a_did_you_mean(option, written, expected):
    result = run("check", CUSTOMERS, "--target", "churned", option, written)
    assert result.exit_code == 2
    assert expected in result.stderr


def test_ignore_by_name_removes_the_rule():
    result = run("check", CUSTOMERS, "--target", "churned", "--format", "json", "--ignore", "one-hot-impact")
    assert codes(result) == ["NB101", "NB102", "NB104", "NB105"]


def test_config_lists_and_per_file_ignores_take_names_and_suggest(tmp_path):
    config = tmp_path / "nblint.toml"
    config.write_text('select = ["NB1"]\n[per-file-ignores]\n"*.csv" = ["one-hot-group", "dummy-group"]\n')
    result = run("check", CUSTOMERS, "--target", "churned", "--format", "json", "--config", str(config))
    assert codes(result) == ["NB104", "NB105"]
    config.write_text('[per-file-ignores]\n"*.csv" = ["NB1O2"]\n')
    result = run("check", CUSTOMERS, "--target", "churned", "--config", str(config))
    assert result.exit_code == 2
    assert "'NB1O2' matches no rule; did you mean 'NB102' (dummy-group)?" in result.stderr


def test_suppressions_take_names_and_a_wrong_one_is_a_warning(tmp_path):
    source = tmp_path / "p.py"
    source.write_text(
        "from sklearn.naive_bayes import MultinomialNB\n"
        "a = MultinomialNB(alpha=0)  # nblint: ignore[smoothing-disabled]\n"
        "b = MultinomialNB(alpha=0)  # nblint: ignore[NB5O2]\n"
    )
    result = run("check", str(source))
    assert result.exit_code == 1
    assert [line.split(" [")[0] for line in result.stdout.splitlines() if " NB5" in line] == [f"{source}:3: NB502"]
    assert (
        f"{source}:3: warning: suppression '# nblint: ignore[NB5O2]': 'NB5O2' matches no rule; "
        "did you mean 'NB502' (smoothing-disabled)?"
    ) in result.stderr


@pytest.mark.parametrize(
    "written, expected",
    # the did-you-mean of --select (issue 35): a code for a code, a name for a name
    [("NB1O1", "did you mean 'NB101' (one-hot-group)?"), ("one-hot-grup", "did you mean 'one-hot-group' (NB101)?")],
)
def test_nblint_rule_suggests_and_takes_names(written, expected):
    result = run("rule", written)
    assert result.exit_code == 2 and expected in result.stderr
    by_name = run("rule", "one-hot-group")
    assert by_name.exit_code == 0 and by_name.stdout == run("rule", "NB101").stdout
