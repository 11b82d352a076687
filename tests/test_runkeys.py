"""The run keys are declared once and say the same words on every face (issue 39 item 5).

A bad smoothing or model given on the command line, in the configuration file, in an nblint
spec or to the Python API is refused with the same text; only where it was written differs.
"""

from __future__ import annotations

import pandas as pd
import pytest
from click.testing import CliRunner

import nblint
from nblint.cli import main
from nblint.core.runkeys import RUN_KEYS
from nblint.run.config import TOP_KEYS, FileSettings

TABLE = "a,b,y\n1,0,x\n0,1,z\n1,1,x\n0,0,z\n"
CHOICES = (
    "bernoulli, multinomial, complement, gaussian, categorical "
    "(or the class: BernoulliNB, MultinomialNB, ComplementNB, GaussianNB, CategoricalNB)"
)


def faces(tmp_path, key: str, written: str, given) -> dict[str, str]:
    """The error text of each face given the run key ``key`` (``written`` in TOML and YAML, ``given`` to Python)."""
    (tmp_path / "t.csv").write_text(TABLE)
    said = {}
    runner = CliRunner()
    target = [] if key == "target" else ["--target", "y"]
    result = runner.invoke(main, ["check", str(tmp_path / "t.csv"), *target, f"--{key}", written.strip("'")])
    said["command line"] = result.stderr
    config = tmp_path / "conf"
    config.mkdir()
    (config / "t.csv").write_text(TABLE)
    (config / "nblint.toml").write_text(f"{key} = {written}\n" + ("" if key == "target" else 'target = "y"\n'))
    said["configuration"] = runner.invoke(main, ["check", str(config / "t.csv")]).stderr
    spec = {"data": "t.csv", "target": "y", "model": "BernoulliNB"}  # (lines 1 to 3; params: alpha on line 5)
    params = f"params:\n  alpha: {written}\n" if key == "alpha" else ""
    if not params:
        spec[key] = written
    (tmp_path / "spec.nblint.yaml").write_text("".join(f"{k}: {v}\n" for k, v in spec.items()) + params)
    said["spec"] = runner.invoke(main, ["check", str(tmp_path / "spec.nblint.yaml")]).stderr
    with pytest.raises(ValueError) as raised:
        nblint.check(pd.DataFrame({"a": [1, 0], "y": ["x", "z"]}), **{"target": "y", key: given})
    said["API"] = str(raised.value)
    return said


SPEC_LINE = {"target": 2, "model": 3, "alpha": 5}


@pytest.mark.parametrize(
    "key, written, given, problem",
    [
        ("alpha", "-1", -1, "must be a finite number >= 0, got -1"),
        ("alpha", "-0.5", -0.5, "must be a finite number >= 0, got -0.5"),
        ("model", "'bernouli'", "bernouli", f"must be one of {CHOICES}, got 'bernouli'; did you mean 'bernoulli'?"),
        ("target", "''", "", "must be a non-empty string, got ''"),
    ],
)
def test_a_bad_run_key_gets_the_same_words_on_the_four_faces(tmp_path, key, written, given, problem):
    said = faces(tmp_path, key, written, given)
    assert {face: problem in text for face, text in said.items()} == dict.fromkeys(said, True), said
    assert said["API"] == f"{key} {problem}"
    assert f"Invalid value for '--{key}'" in said["command line"]
    assert f"nblint.toml: error: {key} {problem}" in said["configuration"]
    assert f"in the nblint spec at line {SPEC_LINE[key]} {problem}" in said["spec"]


def test_every_run_key_is_declared_with_a_type_a_help_and_a_check():
    assert set(RUN_KEYS) == {"target", "model", "alpha", "text", "test", "kinds", "memory-budget"}
    for name, key in RUN_KEYS.items():
        assert key.name == name and key.type and key.help.endswith(".")
        configured = "columns" if name == "kinds" else name  # (the configuration's table of declared kinds)
        assert configured in TOP_KEYS
        assert getattr(FileSettings(), name.replace("-", "_")) == key.default, name  # (a file's, when none is given)
    assert RUN_KEYS["alpha"].parse("0", from_text=True) == 0.0
    assert RUN_KEYS["memory-budget"].parse("4GiB") == 4 << 30
    with pytest.raises(ValueError, match="^must be a finite number >= 0, got True$"):
        RUN_KEYS["alpha"].parse(True)
    with pytest.raises(ValueError, match="^where must be a non-empty string, got ''$"):
        RUN_KEYS["target"].parse("", "where")
    with pytest.raises(ValueError, match=r"^columns\.'a' must be one of binary, .*, got 'bits'$"):
        RUN_KEYS["kinds"].parse({"a": "bits"}, "columns")


def test_file_settings_rule_options_and_analysis_settings_are_three_names_each_resolved_once():
    """A file's settings, a rule's option values and the analysis settings are named apart; the analysis
    settings of a run's option values are made once, whoever asks (the run's profile, the context)."""
    from nblint.engine import Rule, RuleOptions, Severity, resolved_options, shared_settings
    from nblint.engine.settings import AnalysisSettings
    from nblint.run.config import FileSettings, Settings
    from nblint.testing import context

    assert Settings is FileSettings  # (the former name, kept for code that imports it)
    options = resolved_options({"NB104": {"vif-threshold": 7.0}})
    assert isinstance(options, RuleOptions) and options["NB104"]["vif-threshold"] == 7.0
    assert shared_settings(options) is shared_settings(options)
    assert isinstance(shared_settings(options), AnalysisSettings)
    ctx = context(pd.DataFrame({"a": [1, 0, 1, 0], "y": ["x", "z", "x", "z"]}), target="y")
    assert ctx.settings is shared_settings(ctx.rule_options)  # (the context's are the run's, not a second copy)

    class Example(Rule):
        code, name, severity = "NB999", "example", Severity.INFO

    rule = Example({"summarize-above": 3})
    assert rule.option_values == {"summarize-above": 3} and rule.settings is rule.option_values
