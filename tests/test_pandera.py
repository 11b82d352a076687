"""nblint's rules as pandera checks: registration, failures, warnings, YAML, backends, `nblint schema`."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pandera.pandas as pa
import pytest
from click.testing import CliRunner
from pandera.api.checks import Check
from pandera.errors import SchemaDefinitionError, SchemaError, SchemaErrors, SchemaWarning

import nblint
import nblint.pandera as nbpa
from nblint.cli import main

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = Path(__file__).parent / "golden"
CUSTOMERS = pd.read_csv(ROOT / "examples" / "customers.csv")
CLEAN = pd.read_csv(ROOT / "examples" / "clean.csv")
TABLES = {"customers": (CUSTOMERS, "churned"), "clean": (CLEAN, "label")}
RULES = nbpa.table_rules()


def run(code: str):
    """Run a python snippet in a fresh interpreter (registration is process-wide)."""
    out = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    return out.stdout


@pytest.mark.slow
def test_importing_nblint_does_not_import_pandera():
    out = run(
        """
        import sys
        import pandas as pd
        import nblint, nblint.api.report, nblint.cli, nblint.report.formats, nblint.run.runner
        nblint.check(pd.read_csv("examples/customers.csv"), target="churned")
        print("pandera" in sys.modules)
        import nblint.pandera
        print("pandera" in sys.modules)
        """
    )
    assert out.split() == ["False", "True"]


@pytest.mark.parametrize("code", list(RULES))
def test_every_table_rule_is_a_check_method_with_its_statistics(code):
    name = nbpa.check_name(code)
    assert name == "nblint_" + code.lower() and nbpa.rule_code(name) == code
    check = getattr(Check, name)(target="y")
    options = [o.name.replace("-", "_") for o in RULES[code].options]
    assert list(check.statistics) == ["target", "model", "kinds", *options]
    assert check.name == name


@pytest.mark.parametrize("table", list(TABLES))
@pytest.mark.parametrize("code", list(RULES))
def test_a_check_fails_exactly_when_the_rule_finds_something_with_its_messages(code, table):
    frame, target = TABLES[table]
    findings = nblint.check(frame, target=target, model="bernoulli", select=[code]).findings
    schema = pa.DataFrameSchema(checks=[getattr(Check, nbpa.check_name(code))(target=target, model="bernoulli")])
    if not findings:
        assert schema.validate(frame).equals(frame)
        return
    with pytest.raises(SchemaError) as caught:
        schema.validate(frame)
    assert nbpa.rule_code(caught.value) == code
    assert caught.value.check.name == nbpa.check_name(code)
    assert str(caught.value).splitlines() == [f"{f.code} {f.name}: {f.message}" for f in findings]


def test_raise_warning_turns_the_failure_into_a_schema_warning():
    schema = pa.DataFrameSchema(checks=[Check.nblint_nb101(target="churned", raise_warning=True)])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert schema.validate(CUSTOMERS).equals(CUSTOMERS)
    (warning,) = [w for w in caught if issubclass(w.category, SchemaWarning)]
    text = str(warning.message)
    assert text.startswith("NB101 one-hot-group: columns ") and "columns plan_basic, plan_pro, plan_team form" in text


def test_lazy_validation_collects_one_failure_case_per_finding():
    schema = pa.DataFrameSchema(checks=[Check.nblint_nb101(target="churned"), Check.nblint_nb104(vif_threshold=5)])
    with pytest.raises(SchemaErrors) as caught:
        schema.validate(CUSTOMERS, lazy=True)
    cases = caught.value.failure_cases
    assert [case.split(":")[0] for case in cases["failure_case"]] == [
        "NB101 one-hot-group",
        "NB101 one-hot-group",
        "NB104 collinear-columns",
    ]
    assert list(cases["check"]) == ["nblint_nb101(target=churned)"] * 2 + ["nblint_nb104(vif_threshold=5)"]


def test_options_are_statistics():
    rng = np.random.default_rng(0)
    a = rng.normal(size=300)
    frame = pd.DataFrame({"a": a, "b": a + rng.normal(scale=0.25, size=300), "y": rng.integers(0, 2, 300)})
    vif = 1 + 1 / 0.25**2  # about 17: flagged at the default 10, not at 50
    assert 10 < vif < 50
    with pytest.raises(SchemaError, match="NB104 collinear-columns: columns a, b are one cluster of collinear columns"):
        pa.DataFrameSchema(checks=[Check.nblint_nb104(target="y")]).validate(frame)
    pa.DataFrameSchema(checks=[Check.nblint_nb104(target="y", vif_threshold=50)]).validate(frame)


@pytest.mark.parametrize(
    "statistics, fragment",
    [
        ({"model": "poisson"}, "model must be one of"),
        ({"vif_threshold": "high"}, "vif-threshold: expected a finite number"),
        ({"vif_threshold": float("nan")}, "vif-threshold: expected a finite number >= 1, got nan"),
    ],
)
def test_bad_statistics_are_schema_definition_errors(statistics, fragment):
    schema = pa.DataFrameSchema(checks=[Check.nblint_nb104(**statistics)])
    with pytest.raises(SchemaDefinitionError, match=fragment):
        schema.validate(CLEAN)


def test_a_rule_that_needs_a_target_refuses_a_check_without_one():
    class NeedsTarget:
        code, name, options, needs_target = "NB299", "needs-target", (), True

    from nblint.pandera import checks

    with pytest.raises(SchemaDefinitionError, match="NB299 needs the target column"):
        checks._settings(NeedsTarget, {}, {})


def test_missing_target_column_fails_the_check():
    with pytest.raises(SchemaError, match="target column 'nope' not found"):
        pa.DataFrameSchema(checks=[Check.nblint_nb101(target="nope")]).validate(CLEAN)


def test_dataframe_model_config():
    class Customers(pa.DataFrameModel):
        class Config:
            nblint_nb101 = {"target": "churned", "model": "bernoulli"}
            nblint_nb104 = {"vif_threshold": 5.0, "raise_warning": True}

    with pytest.raises(SchemaError) as caught, pytest.warns(SchemaWarning, match="NB104 collinear-columns"):
        Customers.validate(CUSTOMERS)
    assert nbpa.rule_code(caught.value) == "NB101"

    class Clean(pa.DataFrameModel):
        class Config:
            nblint_nb101 = {"target": "label"}

    Clean.validate(CLEAN)


def test_sum_to_one_fails_on_the_rows_that_break_the_group():
    broken = CUSTOMERS.copy()
    broken.loc[[4, 9], "plan_team"] = 1 - broken.loc[[4, 9], "plan_team"]
    schema = pa.DataFrameSchema(checks=[Check.nblint_sum_to_one(columns=["plan_basic", "plan_pro", "plan_team"])])
    schema.validate(CUSTOMERS)
    with pytest.raises(SchemaErrors) as caught:
        schema.validate(broken, lazy=True)
    assert sorted(set(caught.value.failure_cases["index"])) == [4, 9]
    assert nbpa.rule_code(caught.value.schema_errors[0]) == "NB103"


def test_yaml_round_trip_keeps_statistics_and_warning_option():
    schema = pa.DataFrameSchema(
        {"churned": pa.Column(str)},
        checks=[
            Check.nblint_sum_to_one(columns=["plan_basic", "plan_pro", "plan_team"]),
            Check.nblint_nb101(target="churned", model="bernoulli", raise_warning=True),
            Check.nblint_nb104(vif_threshold=5.0),
        ],
    )
    text = schema.to_yaml()
    loaded = pa.DataFrameSchema.from_yaml(text)
    assert loaded == schema
    assert loaded.to_yaml() == text
    assert [c.raise_warning for c in loaded.checks] == [False, True, False]
    with warnings.catch_warnings(record=True) as caught, pytest.raises(SchemaError, match="NB104 collinear-columns"):
        warnings.simplefilter("always")
        loaded.validate(CUSTOMERS)
    assert any(str(w.message).startswith("NB101 one-hot-group") for w in caught)


@pytest.mark.slow
def test_yaml_that_uses_nblint_checks_is_refused_before_they_are_registered(tmp_path):
    path = tmp_path / "schema.yaml"
    path.write_text(pa.DataFrameSchema(checks=[Check.nblint_nb101(target="churned")]).to_yaml())
    out = run(
        f"""
        import pandera.pandas as pa
        try:
            pa.DataFrameSchema.from_yaml({str(path)!r})
        except AttributeError as error:
            print("refused:", error)
        else:
            print("accepted")
        import nblint.pandera
        schema = nblint.pandera.load_schema({str(path)!r})
        print("loaded:", schema.checks[0].name)
        """
    )
    refused, loaded = out.splitlines()
    assert refused.startswith("refused:") and "nblint_nb101" in refused and "registered" in refused
    assert loaded == "loaded: nblint_nb101"


def test_register_is_idempotent():
    before = dict(Check.REGISTERED_CUSTOM_CHECKS)
    names = nbpa.register()
    assert names == [nbpa.check_name(c) for c in RULES] + [nbpa.SUM_TO_ONE]
    assert Check.REGISTERED_CUSTOM_CHECKS == before


# --------------------------------------------------------------------------- polars


def test_polars_backend_runs_the_checks():
    pl = pytest.importorskip("polars")
    import pandera.polars as pap

    frame = pl.read_csv(ROOT / "examples" / "customers.csv")
    with pytest.raises(SchemaError) as caught:
        pap.DataFrameSchema(checks=[pap.Check.nblint_nb101(target="churned")]).validate(frame)
    assert nbpa.rule_code(caught.value) == "NB101"
    assert "NB101 one-hot-group: columns plan_basic, plan_pro, plan_team form a one-hot group" in str(caught.value)

    lenient = pap.DataFrameSchema(
        checks=[
            pap.Check.nblint_nb101(target="churned", raise_warning=True),
            pap.Check.nblint_sum_to_one(columns=["plan_basic", "plan_pro", "plan_team"]),
        ]
    )
    with warnings.catch_warnings(record=True) as warned:
        warnings.simplefilter("always")
        lenient.validate(frame)  # a DataFrame: pandera-polars runs data checks on it (a LazyFrame: schema only)
    assert any(str(w.message).startswith("NB101 one-hot-group") for w in warned)
    broken = frame.with_columns(pl.lit(1).alias("plan_pro"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(SchemaError) as caught:
            lenient.validate(broken)
    assert nbpa.rule_code(caught.value) == "NB103"
    pap.DataFrameSchema(checks=[pap.Check.nblint_nb101(target="label")]).validate(
        pl.read_csv(ROOT / "examples" / "clean.csv")
    )


def _counting_profiles(monkeypatch) -> list:
    """Record the target of every profile built (TableProfile.from_source is the one pass over the rows)."""
    from nblint.profile.table import TableProfile

    built = []
    original = TableProfile.from_source.__func__

    def spy(cls, source, target=None, *args, **kwargs):
        built.append(target)
        return original(cls, source, target, *args, **kwargs)

    monkeypatch.setattr(TableProfile, "from_source", classmethod(spy))
    return built


@pytest.mark.parametrize("backend", ["pandas", "polars"])
def test_one_validation_profiles_the_frame_once_however_many_checks(monkeypatch, backend):
    codes = [c for c in RULES if c not in {"NB401"}]  # (every rule but the impact one, for time)
    if backend == "pandas":
        api, frame = pa, CUSTOMERS
    else:
        pl = pytest.importorskip("polars")
        import pandera.polars as api

        frame = pl.from_pandas(CUSTOMERS)
    checks = [
        getattr(api.Check, nbpa.check_name(c))(target="churned", model="bernoulli", raise_warning=True) for c in codes
    ]
    checks.append(
        api.Check.nblint_nb104(target="churned", vif_threshold=5.0, raise_warning=True)
    )  # other options, same profile
    built = _counting_profiles(monkeypatch)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", SchemaWarning)
        api.DataFrameSchema(checks=checks).validate(frame)
    assert built == ["churned"]
    # The messages are each rule's own, as when each check profiles the frame alone.
    expected = nblint.check(CUSTOMERS, target="churned", model="bernoulli", select=codes).findings
    got = [line for w in caught if issubclass(w.category, SchemaWarning) for line in str(w.message).splitlines()]
    assert [line for line in got if not line.startswith("NB104")] == [
        f"{f.code} {f.name}: {f.message}" for f in expected if f.code != "NB104"
    ]


def test_each_validation_profiles_its_own_frame(monkeypatch):
    """Profiles live for one validation: a frame changed in place between two is seen changed."""
    schema = pa.DataFrameSchema(checks=[Check.nblint_nb101(target="churned"), Check.nblint_nb104(target="churned")])
    frame = CUSTOMERS.copy()
    built = _counting_profiles(monkeypatch)
    with pytest.raises(SchemaError):
        schema.validate(frame, inplace=True)
    frame[["plan_basic", "plan_pro", "plan_team"]] = np.eye(3, dtype=int)[np.arange(len(frame)) % 3] * 0
    frame.loc[frame.index[:2], "plan_pro"] = 1
    with pytest.raises(SchemaError) as caught:
        schema.validate(frame, inplace=True)
    assert built == ["churned", "churned"]
    assert "plan_basic" not in str(caught.value)  # (the group is gone)


# --------------------------------------------------------------------------- nblint schema


def test_schema_command_writes_the_golden_schema_deterministically(monkeypatch):
    monkeypatch.chdir(ROOT)
    args = ["schema", "examples/customers.csv", "--target", "churned", "--model", "bernoulli"]
    first, second = CliRunner().invoke(main, args), CliRunner().invoke(main, args)
    assert first.exit_code == 0, first.output
    assert first.stdout == second.stdout
    golden = GOLDEN / "customers.schema.yaml"
    if os.environ.get("NBLINT_UPDATE_GOLDEN"):
        golden.write_text(first.stdout)
    assert first.stdout == golden.read_text()


@pytest.mark.slow
def test_written_schema_validates_its_table_with_warnings_and_fails_when_a_group_breaks(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    out = tmp_path / "schema.yaml"
    result = CliRunner().invoke(main, ["schema", "examples/customers.csv", "--target", "churned", "-o", str(out)])
    assert result.exit_code == 0 and result.stdout == ""
    schema = nbpa.load_schema(out)
    assert [c.name for c in schema.checks][:2] == [nbpa.SUM_TO_ONE] * 2
    assert {nbpa.rule_code(c) for c in schema.checks[2:]} == set(RULES)
    assert list(schema.columns) == list(CUSTOMERS.columns)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        schema.validate(CUSTOMERS)
    codes = sorted({str(w.message)[:5] for w in caught if issubclass(w.category, SchemaWarning)})
    expected = sorted({f.code for f in nblint.check(CUSTOMERS, target="churned").findings})
    assert codes == expected and {"NB101", "NB102", "NB104", "NB105"} <= set(codes)
    broken = CUSTOMERS.copy()
    broken.loc[3, ["plan_basic", "plan_pro", "plan_team"]] = 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(SchemaErrors) as caught:
            schema.validate(broken, lazy=True)
    assert {nbpa.rule_code(e) for e in caught.value.schema_errors} == {"NB103"}


def test_schema_command_uses_the_config_and_reports_unreadable_tables(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.nblint]\ntarget = "label"\nignore = ["NB104"]\n')
    (tmp_path / "t.csv").write_text("a,b,label\n1,0,x\n0,1,y\n1,0,x\n")
    result = CliRunner().invoke(main, ["schema", str(tmp_path / "t.csv")])
    assert result.exit_code == 0, result.output
    assert "target: label" in result.stdout and "nblint_nb104" not in result.stdout
    assert "- a\n  - b\n  options:\n    check_name: nblint_sum_to_one" in result.stdout
    (tmp_path / "empty.csv").write_text("")
    bad = CliRunner().invoke(main, ["schema", str(tmp_path / "empty.csv")])
    assert bad.exit_code == 2 and "empty.csv: error: file is empty" in bad.stderr


@pytest.mark.slow
def test_example_schema_snippet_runs():
    out = subprocess.run([sys.executable, "examples/schema.py"], capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert [line.split(":")[0] for line in lines] == ["warning", "warning", "error"]
    assert lines[-1].startswith("error: NB101 NB101 one-hot-group: columns channel_app")


def test_declared_kinds_reach_the_rule_checks():
    """A handful of whole numbers is ambiguous (NB305 info); declared categorical, it is an error."""
    rng = np.random.default_rng(5)
    frame = pd.DataFrame(
        {
            "rating": rng.choice([1, 2, 3, 4, 5], 300, p=[0.1, 0.15, 0.2, 0.4, 0.15]),
            "x": rng.normal(size=300),
            "y": rng.integers(0, 2, 300),
        }
    )
    quiet = pa.DataFrameSchema(checks=[Check.nblint_nb305(target="y", model="gaussian")])
    assert quiet.validate(frame).equals(frame)
    declared = pa.DataFrameSchema(
        checks=[Check.nblint_nb305(target="y", model="gaussian", kinds={"rating": "categorical"})]
    )
    with pytest.raises(SchemaError, match="column 'rating' is categorical"):
        declared.validate(frame)
    assert pa.DataFrameSchema.from_yaml(declared.to_yaml()) == declared


def test_schema_command_says_when_its_table_already_fails_the_error_checks(tmp_path, monkeypatch):
    """--model bernoulli over a 3-valued column: NB301 (error) fails on the table; said at writing time."""
    monkeypatch.chdir(ROOT)
    out = tmp_path / "schema.yaml"
    result = CliRunner().invoke(
        main, ["schema", "examples/customers.csv", "--target", "churned", "--model", "bernoulli", "-o", str(out)]
    )
    assert result.exit_code == 0
    lines = result.stderr.splitlines()
    assert lines[0] == (
        "examples/customers.csv: warning: this schema already fails on the table it was written for (2 checks):"
    )
    assert [line.split(":")[0].strip() for line in lines[1:3]] == [
        "NB301 bernoulli-non-binary",
        "NB307 group-under-model",
    ]
    # the oracle: pandera itself, validating the written schema on the table
    import pandera.errors

    schema = nbpa.load_schema(str(out))
    with pytest.raises(pandera.errors.SchemaErrors) as failed:
        import warnings

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            schema.validate(nbpa.read_frame("examples/customers.csv"), lazy=True)
    assert len(failed.value.schema_errors) == 2
    # without a declared model nothing is at error level: the schema passes and nothing is said
    quiet = CliRunner().invoke(
        main, ["schema", "examples/customers.csv", "--target", "churned", "-o", str(tmp_path / "quiet.yaml")]
    )
    assert quiet.exit_code == 0 and quiet.stderr == ""


@pytest.mark.parametrize("form", ["feather", "ipc-file", "ipc-stream"])
def test_an_arrow_table_is_read_as_arrow_not_as_csv(tmp_path, form):
    import pyarrow as pa
    import pyarrow.feather as feather

    frame = pd.DataFrame({"a": [1, 2, 3], "b": ["x", "y", "x"], "c": [0.5, None, 1.5]})
    table = pa.Table.from_pandas(frame, preserve_index=False)
    path = tmp_path / ("t.feather" if form == "feather" else "t.arrow")
    if form == "feather":
        feather.write_feather(table, path)
    else:
        with pa.OSFile(str(path), "wb") as sink:
            open_writer = pa.ipc.new_file if form == "ipc-file" else pa.ipc.new_stream
            with open_writer(sink, table.schema) as writer:
                writer.write_table(table)
    pd.testing.assert_frame_equal(nbpa.read_frame(str(path)), frame)
