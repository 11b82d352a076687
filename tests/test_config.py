from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from nblint.cli import main

TABLE = "a,b,size_M,size_L,y\n1,0,0,0,p\n0,1,1,0,q\n1,0,0,1,p\n0,1,0,0,q\n"


def run(*args):
    return CliRunner().invoke(main, list(args))


def codes(result):
    return [f["code"] for f in json.loads(result.stdout)]


def test_pyproject_found_by_walking_up(tmp_path, write):
    write("pyproject.toml", '[tool.nblint]\ntarget = "y"\nselect = ["NB1"]\nignore = ["NB102"]\n')
    path = write("data/deep/t.csv", TABLE)
    result = run("check", path, "--format", "json")
    assert codes(result) == ["NB101"]


def test_nblint_toml_takes_top_level_keys_and_rule_options(tmp_path, write):
    write("nblint.toml", 'select = ["NB102"]\n[NB102]\nmin-evidence = 0.1\n')
    path = write("t.csv", "p,q,y\n1,0,a\n0,1,b\n0,0,a\n0,0,b\n")
    assert codes(run("check", path, "--format", "json")) == ["NB102"]


@pytest.mark.parametrize(
    "name, content",
    [
        ("shared.toml", '[project]\nname = "x"\n[tool.nblint]\ntarget = "y"\nselect = ["NB1"]\nignore = ["NB102"]\n'),
        ("shared-bare.toml", 'target = "y"\nselect = ["NB1"]\nignore = ["NB102"]\n'),
        ("pyproject.toml", '[tool.nblint]\ntarget = "y"\nselect = ["NB1"]\nignore = ["NB102"]\n'),
    ],
)
def test_config_option_takes_tool_nblint_tables_and_bare_keys(write, name, content):
    """--config FILE: a file with [tool.nblint] (whatever its name) is read as a pyproject.toml is."""
    config = write(f"conf/{name}", content)
    path = write("t.csv", TABLE)
    result = run("check", path, "--format", "json", "--config", config)
    assert codes(result) == ["NB101"], result.output


def test_a_tool_table_without_nblint_is_still_an_unknown_key(write):
    config = write("other.toml", "[tool.black]\nline-length = 100\n")
    result = run("check", write("t.csv", TABLE), "--config", config)
    assert result.exit_code == 2 and "unknown key 'tool'" in result.stderr


def test_cli_overrides_config(write):
    write("nblint.toml", 'ignore = ["NB101"]\n')
    path = write("t.csv", TABLE)
    assert "NB101" not in codes(run("check", path, "--format", "json"))
    assert "NB101" in codes(run("check", path, "--format", "json", "--ignore", "NB105"))


def test_per_file_settings_and_ignores(write):
    write(
        "nblint.toml", '[per-file-settings."train_*.csv"]\ntarget = "y"\n[per-file-ignores]\n"legacy/*.csv" = ["NB1"]\n'
    )
    train = write("train_1.csv", TABLE)
    legacy = write("legacy/old.csv", TABLE)
    result = run("check", train, legacy, "--format", "json")
    findings = json.loads(result.stdout)
    assert {f["path"] for f in findings} == {train}


def test_fail_on_error_makes_warnings_pass(write):
    path = write("t.csv", TABLE)
    assert run("check", path).exit_code == 1
    assert run("check", path, "--fail-on", "error").exit_code == 0
    write("nblint.toml", 'fail-on = "error"\n')
    assert run("check", path).exit_code == 0


@pytest.mark.parametrize(
    "content, fragment",
    [
        ('tagret = "y"\n', "unknown key 'tagret'; did you mean 'target'?"),
        ('model = "poisson"\n', "model must be one of"),
        ('select = ["NB9"]\n', "'NB9' matches no rule"),
        ("[NB104]\nvif-treshold = 3\n", "unknown option 'NB104.vif-treshold'"),
        ('[NB104]\nvif-threshold = "high"\n', "NB104.vif-threshold: expected a finite number >= 1"),
        ('fail-on = "fatal"\n', "fail-on"),
        ("target = [\n", "invalid TOML"),
    ],
)
def test_invalid_config_is_a_clear_error_naming_the_key(write, content, fragment):
    config = write("nblint.toml", content)
    path = write("t.csv", TABLE)
    result = run("check", path)
    assert result.exit_code == 2
    assert result.stderr.strip().startswith(f"{config}: error:")
    assert fragment in result.stderr
    assert "Traceback" not in result.stderr


def test_pyproject_keys_are_named_with_their_table(write):
    write("pyproject.toml", "[tool.nblint]\ntarget = 3\n")
    result = run("check", write("t.csv", TABLE))
    assert "tool.nblint.target must be a non-empty string" in result.stderr


def test_explicit_config_flag(write, tmp_path):
    config = write("elsewhere/custom.toml", 'select = ["NB105"]\n')
    path = write("t.csv", TABLE)
    # Without a target, y is a feature that decodes the a/b group: only NB105 is selected.
    assert codes(run("check", path, "--config", config, "--format", "json")) == ["NB105"]
