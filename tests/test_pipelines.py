"""Pipeline configs end to end: one PipelineSpec from every form, lines, suppressions, safety, bad files,
unrelated files, configs checked with their data, and live scikit-learn objects."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest
from click.testing import CliRunner

from nblint.cli import main
from nblint.pipelines import read_config

# The same pipeline in every form: ordinal codes for 'city', one-hot bits for 'color', both into
# BernoulliNB with alpha=0.
HYDRA = """\
model:
  _target_: sklearn.pipeline.Pipeline
  steps:
    - - prep
      - _target_: sklearn.compose.ColumnTransformer
        transformers:
          - [codes, {_target_: sklearn.preprocessing.OrdinalEncoder}, [city]]
          - [bits, {_target_: sklearn.preprocessing.OneHotEncoder, drop: first}, [color]]
    - - nb
      - _target_: sklearn.naive_bayes.BernoulliNB
        alpha: 0
"""
JSON = """\
{"model": {
  "_target_": "sklearn.pipeline.Pipeline",
  "steps": [
    ["prep", {"_target_": "sklearn.compose.ColumnTransformer",
              "transformers": [
                ["codes", {"_target_": "sklearn.preprocessing.OrdinalEncoder"}, ["city"]],
                ["bits", {"_target_": "sklearn.preprocessing.OneHotEncoder", "drop": "first"}, ["color"]]]}],
    ["nb", {"_target_": "sklearn.naive_bayes.BernoulliNB",
            "alpha": 0}]]}}
"""
TOML = """\
[model]
_target_ = "sklearn.pipeline.Pipeline"
steps = [
  ["prep", {_target_ = "sklearn.compose.ColumnTransformer", transformers = [
    ["codes", {_target_ = "sklearn.preprocessing.OrdinalEncoder"}, ["city"]],
    ["bits", {_target_ = "sklearn.preprocessing.OneHotEncoder", drop = "first"}, ["color"]],
  ]}],
  ["nb", {_target_ = "sklearn.naive_bayes.BernoulliNB", alpha = 0}],
]
"""
SPEC = """\
model: BernoulliNB
params:
  alpha: 0
encoders:
  city: OrdinalEncoder
  color: {class: OneHotEncoder, drop: first}
"""
PYTHON = """\
from sklearn.compose import ColumnTransformer
from sklearn.naive_bayes import BernoulliNB
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import OneHotEncoder, OrdinalEncoder

prep = ColumnTransformer([
    ("codes", OrdinalEncoder(), ["city"]),
    ("bits", OneHotEncoder(drop="first"), ["color"]),
])
model = Pipeline([("prep", prep), ("nb", BernoulliNB(alpha=0))])
"""
FORMS = {"hydra.yaml": HYDRA, "hydra.json": JSON, "hydra.toml": TOML, "spec.yaml": SPEC, "source.py": PYTHON}
#: (code, line) each form must report: NB505 at OrdinalEncoder, NB507 at drop, NB502 at alpha.
EXPECTED = {
    "hydra.yaml": [("NB505", 7), ("NB507", 8), ("NB502", 11)],
    "hydra.json": [("NB505", 6), ("NB507", 7), ("NB502", 9)],
    "hydra.toml": [("NB505", 5), ("NB507", 6), ("NB502", 8)],
    "spec.yaml": [("NB502", 3), ("NB505", 5), ("NB507", 6)],
    "source.py": [("NB505", 7), ("NB507", 8), ("NB502", 10)],
}


def run(*args):
    result = CliRunner().invoke(main, list(args))
    assert "Traceback" not in result.output + (result.stderr or "")
    return result


def json_findings(*args) -> list[dict]:
    result = run("check", *args, "--format", "json")
    assert result.exit_code in (0, 1), result.output
    return json.loads(result.stdout)


def structure(spec):
    """What a spec says, without positions: (class, columns) of every step, and the model."""
    return [(step.cls, step.columns) for step in spec.walk()], spec.model


@pytest.mark.parametrize("name", sorted(FORMS))
def test_every_form_gives_the_same_spec_and_the_findings_at_their_lines(write, name):
    path = write(name, FORMS[name])
    config = read_config(path)
    assert len(config.specs) == 1
    spec = config.specs[0]
    steps, model = structure(spec)
    assert model == "bernoulli" and spec.estimator.cls == "BernoulliNB"
    assert [s for s in steps if s[0] != "Pipeline"][1:] == [
        ("OrdinalEncoder", ("city",)),
        ("OneHotEncoder", ("color",)),
        ("BernoulliNB", None),
    ]
    assert spec.estimator.params["alpha"].value == 0
    found = [(f["code"], f["line"]) for f in json_findings(path)]
    assert sorted(found, key=lambda f: f[1]) == EXPECTED[name]


def test_python_source_and_live_object_agree(write):
    pytest.importorskip("sklearn")
    from sklearn.compose import ColumnTransformer
    from sklearn.naive_bayes import BernoulliNB
    from sklearn.pipeline import Pipeline
    from sklearn.preprocessing import OneHotEncoder, OrdinalEncoder

    import nblint

    prep = ColumnTransformer([("codes", OrdinalEncoder(), ["city"]), ("bits", OneHotEncoder(drop="first"), ["color"])])
    live = nblint.check_pipeline(Pipeline([("prep", prep), ("nb", BernoulliNB(alpha=0))]))
    source = json_findings(write("source.py", PYTHON))
    assert sorted(live.codes()) == sorted(f["code"] for f in source)
    assert all(f.line is None and f.path == "<pipeline>" for f in live)


# --------------------------------------------------------------------------- suppressions


def test_suppression_comments_on_the_line(write):
    path = write(
        "p.yaml",
        """\
        _target_: sklearn.pipeline.make_pipeline
        _args_:
          - _target_: sklearn.preprocessing.OneHotEncoder  # nblint: ignore[NB501]
            handle_unknown: ignore
          - _target_: sklearn.naive_bayes.BernoulliNB
            alpha: 0  # nblint: ignore
        """,
    )
    assert [(f["code"], f["line"]) for f in json_findings(path)] == [("NB508", 4)]


def test_suppression_names_only_its_codes(write):
    path = write(
        "p.py",
        """\
        from sklearn.naive_bayes import BernoulliNB
        from sklearn.pipeline import make_pipeline
        from sklearn.preprocessing import OneHotEncoder

        model = make_pipeline(OneHotEncoder(handle_unknown="ignore"), BernoulliNB())  # nblint: ignore[NB508, NB9]
        """,
    )
    assert [f["code"] for f in json_findings(path)] == ["NB501"]


def test_per_file_ignores_apply_to_configs(tmp_path, write):
    write("nblint.toml", '[per-file-ignores]\n"legacy/*.yaml" = ["NB50"]\n')
    legacy = write("legacy/old.yaml", "_target_: sklearn.naive_bayes.MultinomialNB\nalpha: 0\n")
    current = write("current/new.yaml", "_target_: sklearn.naive_bayes.MultinomialNB\nalpha: 0\n")
    assert [f["path"] for f in json_findings(legacy, current)] == [current]


# --------------------------------------------------------------------------- safety and bad input


@pytest.mark.parametrize(
    "tag", ["!!python/object/apply:os.system", "!!python/object/new:os.system", "!python/name:os.system"]
)
@pytest.mark.parametrize("with_target", [True, False])
def test_hostile_yaml_is_refused_and_nothing_runs(tmp_path, write, tag, with_target):
    marker = tmp_path / "MARKER"
    head = "_target_: sklearn.naive_bayes.BernoulliNB\n" if with_target else ""
    path = write("hostile.yaml", f'{head}alpha: {tag} ["touch {marker}"]\n')
    good = write("good.yaml", "_target_: sklearn.naive_bayes.MultinomialNB\nalpha: 0\n")
    result = run("check", path, good)
    assert result.exit_code == 2
    errors = [line for line in result.stderr.splitlines() if line.startswith(f"{path}: error:")]
    assert len(errors) == 1 and "refused YAML tag" in errors[0] and f"line {1 + with_target}" in errors[0]
    assert f"{good}:2: NB502" in result.stdout  # the other file is still linted
    assert not marker.exists()


@pytest.mark.parametrize(
    "name, content, fragment",
    [
        (
            "bad.yaml",
            "model:\n  _target_: sklearn.naive_bayes.BernoulliNB\n   alpha: 0\n",
            "invalid YAML at line 3, column 9",
        ),
        ("bad.yml", "_target_: BernoulliNB\nalpha: [1, 2\n", "invalid YAML at line 3"),
        (
            "bad.json",
            '{"_target_": "sklearn.naive_bayes.BernoulliNB",\n "alpha": 0,}\n',
            "invalid JSON at line 2, column 13",
        ),
        (
            "bad.toml",
            'model = "BernoulliNB"\nparams = {alpha = }\n',
            "invalid TOML: Invalid value (at line 2, column 19)",
        ),
        (
            "spec.yaml",
            "model: BernoulliNB\nencoder:\n  color: OneHotEncoder\n",
            "unknown key 'encoder' in the nblint spec at line 2; did you mean 'encoders'?",
        ),
        # a mistyped model is an error, not a file skipped as "not a config" (a false green in pre-commit)
        (
            "typo.yaml",
            "model: BernouliNB\ndata: t.csv\ntarget: y\n",
            "'model' in the nblint spec at line 1 must be one of bernoulli, multinomial, complement, gaussian, categorical "
            "(or the class: BernoulliNB, MultinomialNB, ComplementNB, GaussianNB, CategoricalNB), got 'BernouliNB'; "
            "did you mean 'BernoulliNB'?",
        ),
        (
            "typo2.yaml",
            "data: t.csv\nmodel: bernouli\n",
            "'model' in the nblint spec at line 2 must be one of bernoulli, multinomial, complement, gaussian, categorical "
            "(or the class: BernoulliNB, MultinomialNB, ComplementNB, GaussianNB, CategoricalNB), got 'bernouli'; "
            "did you mean 'bernoulli'?",
        ),
        ("typo.json", '{"model": "sklearn.naive_bayes.GausianNB",\n "target": "y"}\n', "did you mean 'GaussianNB'?"),
        ("typo.toml", 'model = "CategorialNB"\nparams = {alpha = 1}\n', "did you mean 'CategoricalNB'?"),
        (
            "typo3.yaml",
            "model: NaiveBayes\ntarget: y\n",
            "'model' in the nblint spec at line 1 must be one of bernoulli",
        ),
        ("typo4.yaml", "model: BernouliNB\ntarget: [y]\n", "did you mean 'BernoulliNB'?"),
        (
            "spec2.yaml",
            "model: BernoulliNB\nencoders: [OneHotEncoder]\n",
            "'encoders' in the nblint spec at line 2 must be a mapping",
        ),
        (
            "spec3.yaml",
            "model: GaussianNB\nencoders:\n  x: {class: 3}\n",
            "an encoder in the nblint spec at line 3 must be",
        ),
        # a scikit-learn class path that names nothing (Hydra, Lightning/jsonargparse, an nblint spec encoder)
        (
            "hydra_typo.yaml",
            "_target_: sklearn.pipeline.Pipeline\nsteps:\n  - - enc\n    - _target_: sklearn.preprocessing.OneHotEncoder\n"
            "  - - nb\n    - _target_: sklearn.naive_bayes.BernouliNB\n",
            "unknown class in '_target_' at line 6: sklearn.naive_bayes has no 'BernouliNB' "
            "(in 'sklearn.naive_bayes.BernouliNB'); did you mean 'sklearn.naive_bayes.BernoulliNB'?",
        ),
        (
            "lightning_typo.yaml",
            "model:\n  class_path: sklearn.naive_baye.MultinomialNB\n  init_args:\n    alpha: 1\n",
            "unknown class in 'class_path' at line 2: scikit-learn has no module 'naive_baye'",
        ),
        (
            "wrong_module.json",
            '{"_target_": "sklearn.preprocessing.GaussianNB"}\n',
            "did you mean 'sklearn.naive_bayes.GaussianNB'?",
        ),
        (
            "spec_encoder_typo.yaml",
            "model: categorical\nencoders:\n  color: sklearn.preprocessing.OrdinalEncodr\n",
            "unknown class in 'encoders' at line 3: sklearn.preprocessing has no 'OrdinalEncodr'",
        ),
        (
            "latin1.yaml",
            "_target_: sklearn.naive_bayes.BernoulliNB\n# caf\u00e9\n".encode("latin-1"),
            "not UTF-8 text (byte 0xe9 at line 2)",
        ),
    ],
)
def test_malformed_config_is_one_error_line_with_the_line(write, name, content, fragment):
    path = write(name, content)
    good = write("good.py", "from sklearn.naive_bayes import MultinomialNB\nclf = MultinomialNB(alpha=0)\n")
    result = run("check", path, good)
    assert result.exit_code == 2, result.output
    errors = [line for line in result.stderr.splitlines() if line.startswith(f"{path}: error:")]
    assert len(errors) == 1, result.stderr
    assert fragment in errors[0], errors[0]
    assert f"{good}:2: NB502" in result.stdout


@pytest.mark.parametrize(
    "name, text",
    [
        ("llm.yaml", "model: gpt-4\ntemperature: 0.2\n"),  # a string model beside keys no spec has
        ("params.yaml", "model:\n  n_estimators: 10\ndata:\n  path: x.csv\n"),  # a model that is a mapping
        ("hydra.yaml", "model:\n  _target_: mylib.Net\n"),
        ("pyproject.toml", '[project]\nname = "x"\n'),
        ("compose.yaml", "services:\n  model: {image: x}\n"),
    ],
)
def test_files_that_are_clearly_not_specs_are_skipped_quietly(write, name, text):
    path = write(name, text)
    result = run("check", path)
    assert (result.exit_code, result.stderr) == (0, ""), result.output
    assert "0 files" in result.stdout


@pytest.mark.parametrize(
    "name, text",
    [
        ("deep.yaml", "_target_: sklearn.naive_bayes.BernoulliNB\nalpha: " + "[" * 3000 + "]" * 3000 + "\n"),
        ("deep.json", '{"_target_": "sklearn.naive_bayes.BernoulliNB", "alpha": ' + "[" * 3000 + "]" * 3000 + "}\n"),
    ],
)
def test_deeply_nested_configs_are_an_error_not_a_crash(write, name, text):
    # A config is data: nested thousands deep it is malformed (or hostile), and one document is one tree.
    path = write(name, text)
    result = run("check", path)
    assert result.exit_code == 2 and result.stderr == f"{path}: error: nested too deeply to read\n"


@pytest.mark.parametrize("expression", ["-" * 3000 + "1", "(" * 300 + "1" + ")" * 300])
def test_python_too_deep_for_its_parser_is_a_note_not_an_error(write, expression):
    # Python code past the parser's own limits is code nblint cannot read (like Python 2), not a broken file.
    path = write("deep.py", f"from sklearn.naive_bayes import BernoulliNB\nx = {expression}\n")
    result = run("check", path, "--format", "json")
    assert result.exit_code == 0 and result.stderr == "", result.output
    [found] = json.loads(result.stdout)
    assert found["code"] == "NB510" and "nested too deeply" in found["message"]


def _laughs(levels: int) -> str:
    """A YAML 'billion laughs': each level is nine aliases of the one before (9**levels values)."""
    lines = ["_target_: sklearn.naive_bayes.BernoulliNB", "a0: &a0 [1, 2, 3, 4, 5, 6, 7, 8, 9]"]
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]" for i in range(1, levels + 1)]
    return "\n".join(lines) + "\n"


def test_yaml_alias_expansion_is_refused_before_loading(write):
    path = write("laughs.yaml", _laughs(9))
    result = run("check", path)
    assert result.exit_code == 2
    assert result.stderr == f"{path}: error: YAML aliases expand to more than 1,000,000 values\n"


def test_a_few_yaml_aliases_are_read(write):
    path = write("aliases.yaml", _laughs(2) + "alpha: 0\n")
    result = run("check", path)
    assert result.exit_code == 1 and "NB502" in result.stdout, result.output


def test_unrelated_files_are_skipped_silently(tmp_path, write):
    write("repo/k8s/service.yaml", "apiVersion: v1\nkind: Service\nmetadata:\n  name: web\n")
    write("repo/chart/templates/deploy.yaml", "metadata:\n  name: {{ .Values.name }}\n  bad: [\n")
    write("repo/conf/train.yaml", "_target_: torch.optim.Adam\nlr: 0.001\n")
    write("repo/conf/model.yaml", "model: resnet50\nepochs: 3\n")
    write("repo/package.json", '{"name": "web", "version": "1.0.0"}\n')
    write("repo/pyproject.toml", '[project]\nname = "x"\n[tool.nblint]\nmodel = "bernoulli"\n')
    write("repo/scripts/plot.py", "import numpy as np\nprint(np.arange(3)\n")
    write("repo/scripts/metrics.py", "from sklearn.metrics import accuracy_score\nprint(accuracy_score([1], [1]))\n")
    write("repo/nblint.toml", 'model = "bernoulli"\n')
    result = run("check", str(tmp_path / "repo"))
    assert result.exit_code == 0 and result.stderr == ""
    # Only metrics.py builds something from scikit-learn: it is checked (and clean).
    assert result.stdout == "All checks passed (1 file).\n"
    # pre-commit names files one by one, nblint's own configuration files included.
    named = sorted(str(p) for p in (tmp_path / "repo").rglob("*") if p.is_file())
    result = run("check", *named)
    assert result.exit_code == 0 and result.stderr == "" and result.stdout == "All checks passed (1 file).\n"


def test_output_is_deterministic(tmp_path, write):
    for name, text in FORMS.items():
        write(f"configs/{name}", text)
    first = run("check", str(tmp_path / "configs"), "--format", "json")
    second = run("check", str(tmp_path / "configs"), "--format", "json")
    assert first.exit_code == 1 and first.stdout == second.stdout
    assert [f["path"] for f in json.loads(first.stdout)] == sorted(f["path"] for f in json.loads(first.stdout))


# --------------------------------------------------------------------------- configs with their data

TABLE = "color_red,color_blue,size,label\n1,0,3,a\n0,1,5,b\n1,0,2,b\n0,1,7,a\n"
#: The table rule these tests expect (NB101: the color_* group) and the pipeline rules.
SELECT = "NB101,NB5"


def test_a_pipeline_config_that_does_not_name_the_table_leaves_it_alone(write, declared):
    config = write(
        "pipeline.yaml",
        "_target_: sklearn.pipeline.make_pipeline\n_args_:\n"
        "  - _target_: sklearn.preprocessing.OneHotEncoder\n"
        "  - _target_: sklearn.naive_bayes.BernoulliNB\n",
    )
    data = write("data.csv", TABLE)
    findings = json_findings(config, data, "--select", SELECT)
    assert [(f["path"], f["code"]) for f in findings] == [(config, "NB501"), (data, "NB101")]
    assert declared == [("data.csv", None, None, None)]  # tests/test_precedence.py: every order and grouping


def test_command_line_model_wins(write, declared):
    config = write("pipeline.yaml", "_target_: sklearn.naive_bayes.GaussianNB\n")
    data = write("data.csv", TABLE)
    run("check", data, config, "--model", "categorical")
    assert declared == [("data.csv", None, "categorical", None)]


def test_spec_naming_its_data(tmp_path, write, declared, monkeypatch):
    # run from the project's root, as a user does: the spec's ../data is inside the working directory
    # (tests/test_confine.py: a spec's data outside its folder, repository and working directory is not read)
    monkeypatch.chdir(tmp_path)
    write("data/train.csv", TABLE)
    spec = write(
        "configs/nb.yaml", "model: categorical\nparams: {min_categories: 9}\ndata: ../data/train.csv\ntarget: label\n"
    )
    findings = json_findings(spec, "--select", SELECT)
    data_path = os.path.normpath(str(tmp_path / "configs" / "../data/train.csv"))
    assert [(f["path"], f["code"]) for f in findings] == [(data_path, "NB101")]
    assert declared == [("train.csv", "label", "categorical", 1.0)]  # CategoricalNB's default alpha
    # Named on the command line as well, the table is checked once.
    declared.clear()
    assert json_findings(spec, data_path, "--select", SELECT) == findings
    assert len(declared) == 1


def test_missing_data_names_the_spec(tmp_path, write):
    spec = write("nb.yaml", "model: bernoulli\n\ndata: missing.csv\n")
    result = run("check", spec)
    assert result.exit_code == 2
    assert result.stderr.strip() == f"{tmp_path / 'missing.csv'}: error: file not found (named by {spec}, line 3)"


# --------------------------------------------------------------------------- live objects


def test_check_pipeline_on_scikit_learn_objects():
    pytest.importorskip("sklearn")
    import numpy as np
    import pandas as pd
    from sklearn.calibration import CalibratedClassifierCV
    from sklearn.compose import ColumnTransformer
    from sklearn.feature_extraction.text import CountVectorizer
    from sklearn.model_selection import GridSearchCV
    from sklearn.naive_bayes import BernoulliNB, CategoricalNB, MultinomialNB
    from sklearn.pipeline import Pipeline, make_pipeline
    from sklearn.preprocessing import FunctionTransformer, OrdinalEncoder, StandardScaler

    import nblint

    class HouseNB(BernoulliNB):
        """A user subclass is still a BernoulliNB."""

    assert nblint.check_pipeline(make_pipeline(CountVectorizer(), HouseNB())).codes() == ["NB503"]
    search = GridSearchCV(
        make_pipeline(StandardScaler(), MultinomialNB(class_prior=np.array([0.2, 0.2]))),
        {"multinomialnb__alpha": [0.5, 1.0]},
    )
    assert nblint.check_pipeline(search).codes() == ["NB504", "NB509"]
    dummies = FunctionTransformer(pd.get_dummies, kw_args={"drop_first": True})
    wrapped = make_pipeline(dummies, CalibratedClassifierCV(BernoulliNB()))
    assert nblint.check_pipeline(wrapped).codes() == ["NB507"]
    planned = Pipeline(
        [
            (
                "codes",
                ColumnTransformer(
                    [("city", OrdinalEncoder(handle_unknown="use_encoded_value", unknown_value=9), ["city"])]
                ),
            ),
            ("nb", CategoricalNB(min_categories=10)),
        ]
    )
    assert nblint.check_pipeline(planned).codes() == []


def test_check_pipeline_with_its_training_data():
    pytest.importorskip("sklearn")
    import pandas as pd
    from sklearn.naive_bayes import GaussianNB

    import nblint

    X = pd.DataFrame({"color_red": [1, 0, 1, 0], "color_blue": [0, 1, 0, 1], "size": [3, 5, 2, 7]})
    y = pd.Series(["a", "b", "b", "a"], name="label")
    report = nblint.check_pipeline(GaussianNB(var_smoothing=0), X, y, select=SELECT.split(","))
    assert report.codes() == ["NB502", "NB101"]
    assert [f.path for f in report] == ["<pipeline>", "<dataframe>"]
    with pytest.raises(TypeError, match="scikit-learn estimator"):
        nblint.check_pipeline("BernoulliNB()")


def test_import_nblint_does_not_import_scikit_learn():
    code = "import sys, nblint, nblint.api.report, nblint.run.runner; print('sklearn' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


# --------------------------------------------------------------------------- parser details


def test_yaml_anchors_are_read_once_and_recursive_ones_refused(write):
    shared = write(
        "anchors.yaml",
        textwrap.dedent("""\
        encoder: &enc {_target_: sklearn.preprocessing.OneHotEncoder}
        a: {_target_: sklearn.pipeline.make_pipeline, _args_: [*enc, {_target_: sklearn.naive_bayes.BernoulliNB}]}
        b: {_target_: sklearn.pipeline.make_pipeline, _args_: [*enc, {_target_: sklearn.naive_bayes.GaussianNB}]}
        """),
    )
    findings = json_findings(shared)
    assert [(f["code"], f["line"]) for f in findings] == [("NB501", 1), ("NB501", 1)]
    assert {f["evidence"]["model"] for f in findings} == {"BernoulliNB", "GaussianNB"}
    looped = write("loop.yaml", "_target_: sklearn.naive_bayes.BernoulliNB\nalpha: &a [*a]\n")
    result = run("check", looped)
    assert result.exit_code == 2 and "contains itself" in result.stderr


def test_spec_encoder_chains_and_passthrough(write):
    spec = read_config(
        write(
            "spec.yaml",
            """\
        model: GaussianNB
        encoders:
          age: passthrough
          income: [SimpleImputer, passthrough, {class: StandardScaler, with_mean: false}]
        """,
        )
    ).specs[0]
    (encoders, model) = spec.steps
    assert [[(s.cls, s.columns) for s in branch] for branch in encoders.branches] == [
        [],
        [("SimpleImputer", ("income",)), ("StandardScaler", ("income",))],
        [],
    ]  # the last: unlisted columns
    assert encoders.branches[1][1].params["with_mean"].value is False and model.cls == "GaussianNB"


def test_python_calls_in_with_statements_and_nested_targets(write):
    path = write(
        "train.py",
        """\
        import pandas as pd
        from sklearn.naive_bayes import BernoulliNB, ComplementNB

        with ComplementNB(class_prior=[0.5, 0.5]) as unused:
            pass
        a, (b, c) = 1, pd.get_dummies(df)
        BernoulliNB().fit(c)
        """,
    )
    assert [(f["code"], f["line"]) for f in json_findings(path)] == [("NB509", 4), ("NB501", 6)]


def test_python_follows_names_fit_and_cross_validation(write):
    path = write(
        "train.py",
        """\
        import pandas as pd
        from sklearn import naive_bayes
        from sklearn.model_selection import cross_val_score
        from sklearn.preprocessing import OneHotEncoder

        def main(df):
            encoder = OneHotEncoder(handle_unknown="ignore")
            X = encoder.fit_transform(df[["color"]])
            model = naive_bayes.BernoulliNB()
            return cross_val_score(model, X, df["y"])
        """,
    )
    assert [(f["code"], f["line"]) for f in json_findings(path)] == [("NB501", 7), ("NB508", 7)]


def test_a_spec_passes_its_model_and_smoothing_to_its_table(tmp_path, monkeypatch):
    """With alpha = 0 in the pipeline, a zero-count cell in its data vetoes a class: NB201 is an error."""
    import json

    from click.testing import CliRunner

    from nblint.cli import main

    # Five copies: every class has the ten rows below which NB206, not NB201, speaks.
    rows = ["weather,y"] + ["sun,a", "sun,b", "sun,c", "fog,a", "fog,b", "rain,c", "rain,a"] * 5
    (tmp_path / "t.csv").write_text("\n".join(rows) + "\n")
    monkeypatch.chdir(tmp_path)
    severities = {}
    for alpha in ("0", "1.0"):
        (tmp_path / "pipeline.yaml").write_text(
            f"model: CategoricalNB\nparams:\n  alpha: {alpha}\ndata: t.csv\ntarget: y\n"
        )
        result = CliRunner().invoke(main, ["check", "pipeline.yaml", "--select", "NB201", "--format", "json"])
        findings = [f for f in json.loads(result.stdout) if f["path"] == "t.csv"]
        assert findings and {f["evidence"]["model"] for f in findings} == {"categorical"}
        severities[alpha] = {f["severity"] for f in findings}
    assert severities == {"0": {"error"}, "1.0": {"info"}}  # with smoothing a zero cell is worth knowing, not a defect


def test_python_method_call_giving_none_on_its_own_is_not_a_model_built(write):
    # set_params on a name bound to None reads as None: a bare expression that built nothing. It was once
    # taken for a bare model (None is None) and crashed the unused-model check (found by mypy). The two
    # lines change nothing: the findings are those of the source without them (the bare model unused).
    source = """\
        from sklearn.naive_bayes import MultinomialNB

        model = MultinomialNB(alpha=0)
        model.fit(X, y)
        MultinomialNB(alpha=0)
        """
    spare = "spare = None\nspare.set_params(alpha=1)\n"
    plain = [(f["code"], f["line"]) for f in json_findings(write("plain.py", source))]
    assert plain and all(line == 3 for _, line in plain)
    with_none = json_findings(write("train.py", textwrap.dedent(source) + spare))
    assert [(f["code"], f["line"]) for f in with_none] == plain


def test_class_paths_outside_scikit_learn_stay_quiet_and_lightning_configs_are_read(write):
    """Only ``sklearn.`` paths are checked (nothing else is imported); ``class_path``/``init_args`` is a call."""
    third = write("third.yaml", "model:\n  _target_: mylib.models.BernouliNB\n  alpha: 0\n")
    private = write("private.yaml", "_target_: sklearn.preprocessing._encoders.OneHotEncoder\n")
    lightning = write(
        "lightning.yaml", "model:\n  class_path: sklearn.naive_bayes.ComplementNB\n  init_args:\n    alpha: 0\n"
    )
    result = CliRunner().invoke(main, ["check", third, private, lightning, "--format", "concise"])
    assert result.exit_code == 1 and result.stderr == "", result.output
    assert result.stdout.splitlines()[0].startswith(f"{lightning}:4: NB502")
