"""The ruff-grade command line: statistics, quiet, fixes, extend-select/ignore, noqa, rules as JSON,
the current folder, did-you-mean, --alpha, class names for models, both spellings of every option,
true summaries and the impact command's rough edges."""

from __future__ import annotations

import json
import re
import warnings
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from nblint.cli import main
from nblint.engine import load_rules

ROOT = Path(__file__).resolve().parent.parent
CUSTOMERS = ["check", "examples/customers.csv", "--target", "churned"]
#: A one-hot group (NB101), a dummy pair (NB102), a zero-count cell for class q (NB201).
TABLE = "a,b,size_M,size_L,y\n1,0,0,0,p\n0,1,1,0,q\n1,0,0,1,p\n0,1,0,0,q\n"
CLEAN = "has_card,is_member,label\n" + "".join(f"{i % 2},{(i // 2) % 2},{'ab'[(i // 4) % 2]}\n" for i in range(40))


def run(*args, input=None):
    result = CliRunner().invoke(main, [str(a) for a in args], input=input)
    assert "Traceback" not in result.output + result.stderr
    return result


def findings(result) -> list[dict]:
    return json.loads(result.stdout)


@pytest.fixture
def at_root(monkeypatch):
    monkeypatch.chdir(ROOT)


# --------------------------------------------------------------------------- fixes, concise, quiet


def test_text_shows_each_fix_on_a_help_line_under_its_finding(at_root):
    text = run(*CUSTOMERS).stdout.splitlines()
    data = findings(run(*CUSTOMERS, "--format", "json"))
    expected = [line for f in data for line in (None, f"  help: {f['fix']}")]
    assert all(f["fix"] for f in data)
    assert text[1:-1:2] == expected[1::2]
    assert [line.split(" [")[0] for line in text[0:-1:2]] == [f"{f['path']}: {f['code']}" for f in data]


def test_concise_is_one_line_per_finding(at_root):
    text = run(*CUSTOMERS).stdout
    concise = run(*CUSTOMERS, "--format", "concise")
    assert concise.exit_code == 1
    assert concise.stdout == "".join(line + "\n" for line in text.splitlines() if not line.startswith("  help: "))


def test_help_line_is_coloured_only_with_colour(at_root):
    coloured = run(*CUSTOMERS, "--color").stdout
    assert "\x1b[" in coloured and re.sub(r"\x1b\[[0-9;]*m", "", coloured) == run(*CUSTOMERS).stdout


def test_quiet_prints_the_findings_only_and_nothing_on_success(tmp_path, at_root):
    assert run(*CUSTOMERS, "--quiet").stdout == "".join(
        line + "\n" for line in run(*CUSTOMERS).stdout.splitlines()[:-1]
    )
    (tmp_path / "clean.csv").write_text(CLEAN)
    (tmp_path / "empty").mkdir()
    quiet = run("check", tmp_path / "clean.csv", tmp_path / "empty", "--target", "label", "-q")
    assert quiet.exit_code == 0 and quiet.stdout == "" and quiet.stderr == ""
    loud = run("check", tmp_path / "clean.csv", tmp_path / "empty", "--target", "label")
    assert loud.stdout == "All checks passed (1 file).\n" and "no tables or pipeline configs found" in loud.stderr


# --------------------------------------------------------------------------- true summaries


@pytest.mark.parametrize(
    "options", [[], ["--quiet"], ["--statistics"], ["--statistics", "--quiet"], ["--format", "concise"]]
)
def test_the_summary_never_says_all_passed_when_an_input_failed(tmp_path, options):
    (tmp_path / "empty.csv").write_text("")
    (tmp_path / "clean.csv").write_text(CLEAN)
    (tmp_path / "onehot.csv").write_text(TABLE)
    (tmp_path / "nblint.toml").write_text(
        'select = ["NB101"]\n[per-file-settings."clean.csv"]\ntarget = "label"\n'
        '[per-file-settings."onehot.csv"]\ntarget = "y"\n'
    )
    cases = {
        ("empty.csv",): "No file checked; 1 file could not be read.",
        ("clean.csv", "empty.csv"): "No findings in 1 file; 1 file could not be read.",
        ("empty.csv", "onehot.csv", "clean.csv"): "Found 1 finding (1 warning) in 2 files; 1 file could not be read.",
    }
    for names, summary in cases.items():
        result = run("check", *(tmp_path / name for name in names), *options)
        assert result.exit_code == 2
        assert result.stdout.splitlines()[-1] == summary, result.stdout
        assert "All checks passed" not in result.stdout
        assert result.stderr == f"{tmp_path / 'empty.csv'}: error: file is empty\n"


def test_summary_counts_the_files_read():
    from nblint.engine.findings import Finding, Severity
    from nblint.report.summary import summary_line

    finding = Finding("NB101", "one-hot-group", Severity.WARNING, "m")
    assert summary_line([], 2) == "All checks passed (2 files)."
    assert summary_line([finding], 1) == "Found 1 finding (1 warning) in 1 file."
    assert (
        summary_line([finding, finding], 1, 2) == "Found 2 findings (2 warnings) in 1 file; 2 files could not be read."
    )
    assert summary_line([], 0, 3) == "No file checked; 3 files could not be read."


# --------------------------------------------------------------------------- --statistics


def test_statistics_count_the_findings_of_each_rule(at_root):
    data = findings(run(*CUSTOMERS, "--format", "json"))
    stats = run(*CUSTOMERS, "--statistics", "--format", "json")
    assert stats.exit_code == 1
    counted = Counter(f["code"] for f in data)
    rows = findings(stats)
    assert {row["code"]: row["count"] for row in rows} == dict(counted)
    assert [row["count"] for row in rows] == sorted(counted.values(), reverse=True)
    for row in rows:
        assert row["severities"] == dict(Counter(f["severity"] for f in data if f["code"] == row["code"]))
        assert row["name"] == load_rules()[row["code"]].name
    text = run(*CUSTOMERS, "--statistics").stdout.splitlines()
    assert [line.split()[:2] for line in text[:-1]] == [[str(row["count"]), row["code"]] for row in rows]
    assert text[-1] == run(*CUSTOMERS).stdout.splitlines()[-1]


def test_statistics_for_ci_formats_is_a_usage_error(at_root):
    result = run(*CUSTOMERS, "--statistics", "--format", "sarif")
    assert result.exit_code == 2
    assert result.stderr == "nblint check: error: --statistics prints text or json, not sarif\n"


# --------------------------------------------------------------------------- selection


def codes(result) -> set[str]:
    return {f["code"] for f in findings(result)}


def test_extend_select_and_extend_ignore_add_to_the_lists_in_force(tmp_path):
    (tmp_path / "t.csv").write_text(TABLE)
    path = tmp_path / "t.csv"
    (tmp_path / "nblint.toml").write_text('target = "y"\nselect = ["NB1"]\nignore = ["NB101"]\n')
    base = codes(run("check", path, "--format", "json"))
    assert base == {"NB102"}
    assert codes(run("check", path, "--format", "json", "--extend-select", "NB206")) == {"NB102", "NB206"}
    assert codes(run("check", path, "--format", "json", "--select", "NB206")) == {"NB206"}
    assert codes(run("check", path, "--format", "json", "--extend-ignore", "NB102")) == set()
    assert codes(run("check", path, "--format", "json", "--ignore", "NB102")) == {"NB101"}
    # The longest prefix wins, as for --select/--ignore: NB101 beats NB1 either way.
    assert codes(run("check", path, "--format", "json", "--extend-select", "NB101")) == {"NB101", "NB102"}
    bad = run("check", path, "--extend-ignore", "NB9")
    assert bad.exit_code == 2 and bad.stderr == (
        "nblint check: error: --extend-ignore: 'NB9' matches no rule (`nblint rules` lists codes and names)\n"
    )


PIPELINE = """\
from sklearn.naive_bayes import BernoulliNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import OneHotEncoder

pipe = make_pipeline(
    OneHotEncoder(handle_unknown="ignore"),{six}
    BernoulliNB(alpha=0),{seven}
)
"""


@pytest.mark.parametrize(
    "six, seven, left",
    [
        ("", "", ["6:NB501", "6:NB508", "7:NB502"]),
        ("  # noqa: NB501", "", ["6:NB508", "7:NB502"]),
        ("  # noqa:NB501,NB508", "  # NOQA: NB502", []),
        ("  # noqa: NB501 E501", "  # noqa: E501", ["6:NB508", "7:NB502"]),  # other tools' codes: not ours
        ("  # noqa", "", ["7:NB502"]),  # ruff: a bare noqa covers every code
        ("  # noqa: NB5", "  #noqa", []),  # prefixes, as for # nblint: ignore[...]
        ("  # nblint: ignore[NB501]  # noqa: NB508", "  # nblint: ignore", []),  # several comments add up
    ],
)
def test_noqa_suppresses_like_nblint_ignore(tmp_path, six, seven, left):
    path = tmp_path / "train.py"
    path.write_text(PIPELINE.format(six=six, seven=seven))
    result = run("check", path, "--format", "json")
    assert [f"{f['line']}:{f['code']}" for f in findings(result)] == left


def test_noqa_in_yaml_too(tmp_path):
    path = tmp_path / "pipe.yaml"
    path.write_text(
        "_target_: sklearn.pipeline.make_pipeline\n_args_:\n"
        "  - _target_: sklearn.preprocessing.OneHotEncoder  # noqa: NB501\n"
        "  - _target_: sklearn.naive_bayes.BernoulliNB\n    alpha: 0\n"
    )
    assert [f["code"] for f in findings(run("check", path, "--format", "json"))] == ["NB502"]


# --------------------------------------------------------------------------- rules as JSON


def test_rules_as_json_are_the_rules():
    result = run("rules", "--format", "json")
    assert result.exit_code == 0
    records = findings(result)
    rules = load_rules()
    assert [r["code"] for r in records] == list(rules)
    for record in records:
        rule = rules[record["code"]]
        assert (record["name"], record["severity"], record["summary"]) == (
            rule.name,
            str(rule.severity),
            rule.summary(),
        )
        assert record["inputs"] == list(rule.inputs) and record["needs_target"] == rule.needs_target
        assert record["options"] == [{"name": o.name, "default": o.default, "doc": o.doc} for o in rule.options]
        assert record["documentation"] == run("rule", rule.code).stdout


# --------------------------------------------------------------------------- the current folder


def test_check_without_a_path_checks_the_current_folder(tmp_path, monkeypatch):
    (tmp_path / "sub").mkdir()
    (tmp_path / "t.csv").write_text(TABLE)
    (tmp_path / "sub" / "u.csv").write_text(TABLE)
    (tmp_path / "notes.txt").write_text("not a table\n")
    monkeypatch.chdir(tmp_path)
    bare = run("check", "--target", "y")
    assert bare.exit_code == 1
    # A folder's own files first, then its subfolders', as for any folder.
    assert (
        bare.stdout
        == run("check", ".", "--target", "y").stdout
        == run("check", "t.csv", "sub/u.csv", "--target", "y").stdout
    )
    assert bare.stdout.startswith("t.csv: ") and "\nsub/u.csv: " in bare.stdout and "./" not in bare.stdout


# --------------------------------------------------------------------------- did you mean


def test_a_mistyped_target_gets_a_suggestion_and_every_column(tmp_path):
    (tmp_path / "t.csv").write_text(TABLE)
    result = run("check", tmp_path / "t.csv", "--target", "Y")
    assert result.stderr == (
        f"{tmp_path / 't.csv'}: error: target column 'Y' not found; did you mean 'y'? "
        "(columns: a, b, size_M, size_L, y)\n"
    )


def test_a_wide_table_shows_the_closest_columns_never_cutting_off_the_right_one(tmp_path):
    names = [f"feature_{i:03d}" for i in range(60)] + ["churned"]  # the target comes last
    rows = [",".join(str((r + i) % 2) for i in range(len(names))) for r in range(4)]
    (tmp_path / "wide.csv").write_text(",".join(names) + "\n" + "\n".join(rows) + "\n")
    error = run("check", tmp_path / "wide.csv", "--target", "churn").stderr
    assert "did you mean 'churned'?" in error
    assert "(the closest of its 61 columns: churned, " in error
    assert len(error.splitlines()) == 1


def test_suggestions_rank_by_similarity():
    from nblint.core.suggest import closest, missing_column

    assert closest("Label", ["lable", "label", "LABEL", "x"]) == ["label", "LABEL", "lable"]
    assert missing_column("target column", "zzz", ["a", "b"]) == "target column 'zzz' not found (columns: a, b)"


# --------------------------------------------------------------------------- --alpha, models by class name


def test_alpha_on_the_command_line_is_the_configured_smoothing(tmp_path):
    header, *rows = TABLE.splitlines()
    (tmp_path / "t.csv").write_text("\n".join([header, *rows * 5]) + "\n")  # classes of 10 rows: NB201 speaks
    path = tmp_path / "t.csv"
    severity = {}
    for name, args, config in [
        ("default", [], ""),
        ("cli", ["--alpha", "0"], ""),
        ("config", [], "alpha = 0\n"),
        ("cli wins", ["--alpha", "1"], "alpha = 0\n"),
    ]:
        (tmp_path / "nblint.toml").write_text(config)
        data = findings(run("check", path, "--target", "y", "--select", "NB201", "--format", "json", *args))
        severity[name] = [f["severity"] for f in data]
    assert severity["cli"] == severity["config"] != severity["default"] == severity["cli wins"]
    assert set(severity["cli"]) == {"error"}  # alpha = 0: a zero count vetoes the class
    assert run("check", path, "--alpha", "-1").exit_code == 2


@pytest.mark.parametrize("spelling", ["BernoulliNB", "bernoullinb", "sklearn.naive_bayes.BernoulliNB", "Bernoulli"])
def test_models_may_be_named_by_their_class_everywhere(tmp_path, spelling):
    pytest.importorskip("pandera")
    import pandas as pd
    import pandera.pandas as pa

    import nblint
    import nblint.pandera  # noqa: F401

    (tmp_path / "t.csv").write_text("a,b,n,y\n1,0,3,p\n0,1,5,q\n1,0,2,p\n0,1,7,q\n")  # n: counts
    path = tmp_path / "t.csv"
    expected = run("check", path, "--target", "y", "--model", "bernoulli", "--format", "json").stdout
    assert "NB301" in expected
    assert run("check", path, "--target", "y", "--model", spelling, "--format", "json").stdout == expected
    (tmp_path / "nblint.toml").write_text(f'target = "y"\nmodel = "{spelling}"\n')
    assert run("check", path, "--format", "json").stdout == expected
    (tmp_path / "nblint.toml").write_text(f'target = "y"\n[per-file-settings."t.csv"]\nmodel = "{spelling}"\n')
    assert run("check", path, "--format", "json").stdout == expected
    (tmp_path / "nblint.toml").write_text("")
    frame = pd.read_csv(path)
    assert nblint.check(frame, target="y", model=spelling).codes() == [f["code"] for f in json.loads(expected)]
    with pytest.raises(pa.errors.SchemaError, match="NB301"):
        pa.DataFrameSchema(checks=[pa.Check.nblint_nb301(target="y", model=spelling)]).validate(frame)
    (tmp_path / "spec.yaml").write_text(f"model: {spelling}\ndata: t.csv\ntarget: y\n")
    with_alpha = run("check", path, "--target", "y", "--model", "bernoulli", "--alpha", "1", "--format", "json").stdout
    assert run("check", tmp_path / "spec.yaml", "--format", "json").stdout == with_alpha  # BernoulliNB's default alpha
    schema = run("schema", path, "--target", "y", "--model", spelling).stdout
    assert schema == run("schema", path, "--target", "y", "--model", "bernoulli").stdout and "bernoulli" in schema


def test_an_unknown_model_names_the_accepted_ones(tmp_path):
    (tmp_path / "t.csv").write_text(TABLE)
    result = run("check", tmp_path / "t.csv", "--model", "PoissonNB")
    assert result.exit_code == 2 and len(result.stderr.splitlines()) == 1
    assert (
        "must be one of bernoulli, multinomial, complement, gaussian, categorical (or the class: "
        "BernoulliNB, MultinomialNB, ComplementNB, GaussianNB, CategoricalNB), got 'PoissonNB'" in result.stderr
    )
    (tmp_path / "nblint.toml").write_text('model = "PoissonNB"\n')
    assert "model must be one of bernoulli" in run("check", tmp_path / "t.csv").stderr


# --------------------------------------------------------------------------- kebab-case and snake_case


def test_command_line_options_in_snake_case(tmp_path):
    (tmp_path / "t.csv").write_text(TABLE)
    path = tmp_path / "t.csv"
    kebab = run("check", path, "--target", "y", "--fail-on", "error", "--extend-select", "NB2", "--no-color")
    snake = run("check", path, "--target", "y", "--fail_on", "error", "--extend_select=NB2", "--no_color")
    assert (snake.exit_code, snake.stdout) == (kebab.exit_code, kebab.stdout) == (0, kebab.stdout)
    assert run("check", path, "--exit_zero", "--target", "y").exit_code == 0
    # After --, a name is a path even when it looks like an option.
    assert "--exit_zero: error: file not found" in run("check", "--", "--exit_zero").stderr


@pytest.mark.parametrize(
    "config",
    [
        'fail_on = "error"\nper_file_ignores = {"t.csv" = ["NB102"]}\n[NB104]\nvif_threshold = 1.5\n',
        'fail-on = "error"\nper-file-ignores = {"t.csv" = ["NB102"]}\n[NB104]\nvif-threshold = 1.5\n',
    ],
)
def test_configuration_keys_and_rule_options_in_either_spelling(tmp_path, config):
    (tmp_path / "t.csv").write_text(TABLE)
    (tmp_path / "nblint.toml").write_text(config)
    from nblint.run.config import load_config

    settings = load_config(str(tmp_path / "nblint.toml"))
    assert settings.fail_on.name == "ERROR" and settings.rule_options == {"NB104": {"vif-threshold": 1.5}}
    assert settings.ignored_for(str(tmp_path / "t.csv")) == ["NB102"]


def test_both_spellings_of_one_key_is_an_error(tmp_path):
    (tmp_path / "t.csv").write_text(TABLE)
    (tmp_path / "nblint.toml").write_text("[NB104]\nvif-threshold = 2.0\nvif_threshold = 3.0\n")
    result = run("check", tmp_path / "t.csv")
    assert result.exit_code == 2
    assert (
        result.stderr
        == f"{tmp_path / 'nblint.toml'}: error: NB104.vif-threshold is given twice, in kebab-case and snake_case\n"
    )


def test_rule_options_in_either_spelling_in_the_api_and_pandera():
    pytest.importorskip("pandera")
    import pandas as pd
    from pandera.pandas import Check, DataFrameSchema

    import nblint
    import nblint.pandera  # noqa: F401

    frame = pd.read_csv(ROOT / "examples" / "customers.csv")
    kebab = nblint.check(frame, select=["NB104"], options={"NB104": {"vif-threshold": 1.5}})
    snake = nblint.check(frame, select=["NB104"], options={"NB104": {"vif_threshold": 1.5}})
    default = nblint.check(frame, select=["NB104"])
    assert kebab.to_json() == snake.to_json() != default.to_json()
    assert Check.nblint_nb104(**{"vif-threshold": 1.5}) == Check.nblint_nb104(vif_threshold=1.5)
    # A YAML schema written by hand with the configuration's spelling.
    schema = DataFrameSchema(checks=[Check.nblint_nb104(vif_threshold=1.5)])
    kebab_yaml = schema.to_yaml().replace("\n  vif_threshold: 1.5\n", "\n  vif-threshold: 1.5\n")
    assert "vif-threshold: 1.5" in kebab_yaml
    assert DataFrameSchema.from_yaml(kebab_yaml) == schema


# --------------------------------------------------------------------------- impact's rough edges


def test_impact_refuses_a_negative_seed_in_one_line(at_root):
    result = run("impact", "examples/customers.csv", "--target", "churned", "--seed", "-5")
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == "nblint impact: error: Invalid value for '--seed': -5 is not in the range x>=0.\n"


def test_impact_seeds_warn_about_nothing(at_root):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # numpy's overflow RuntimeWarning would fail the command
        for seed in ("0", "2", "12345678901234567890123"):
            result = run("impact", "examples/customers.csv", "--target", "churned", "--seed", seed, "--format", "json")
            assert result.exit_code == 0 and result.stderr == "", result.output
            assert json.loads(result.stdout)["seed"] == int(seed)


def test_folds_are_the_wrapping_uint64_hash_for_every_seed():
    from nblint.core.hashing import mix64
    from nblint.impact.statistics import fold_of as _folds

    rows = np.arange(10_000, dtype=np.int64)
    for seed in (0, 1, 2, 7, 2**63 + 5):
        with np.errstate(over="ignore"):  # the formula as uint64 arithmetic wrapping modulo 2**64
            shifted = rows.astype(np.uint64) + np.uint64(seed % 2**64) * np.uint64(0x9E3779B97F4A7C15)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            assert np.array_equal(_folds(rows, 5, seed), (mix64(shifted) % np.uint64(5)).astype(np.int64))


def test_impact_plot_into_a_missing_folder_is_one_error_line(tmp_path, at_root):
    pytest.importorskip("matplotlib")
    plot = tmp_path / "missing" / "impact.png"
    result = run("impact", "examples/customers.csv", "--target", "churned", "--plot", plot)
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == f"{plot}: error: cannot write the plot: no folder '{plot.parent}'\n"


# --------------------------------------------------------------------------- usage errors


@pytest.mark.parametrize(
    "args, message",
    [
        (
            ["check", "--tagret", "y"],
            "nblint check: error: No such option '--tagret'. (Did you mean one of: '--target', '--test', '--text'?)",
        ),
        (["chek"], "nblint: error: No such command 'chek'."),
        (
            ["check", "--jobs", "0"],
            "nblint check: error: Invalid value for '--jobs' / '-j': 0 is not in the range x>=1.",
        ),
    ],
)
def test_usage_errors_are_one_line(args, message):
    result = run(*args)
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [message] or result.stderr.startswith(message)
    assert len(result.stderr.splitlines()) == 1
