"""Where a table's target, model and alpha come from, and that they do not depend on the rest of the run.

The command line, then the configuration (``[tool.nblint]``, per-file settings), then the nblint
spec that names the table as its ``data``; a pipeline config that does not name the table never
changes it, so pre-commit may group and order files as it likes.
"""

from __future__ import annotations

import itertools
import json

import pytest
from click.testing import CliRunner

from nblint.cli import main
from nblint.run.runner import lint_paths

#: 0/1 columns, a count column and a measurement: findings under every model differ.
TABLE = "a,b,n,x,y\n1,0,3,0.5,p\n0,1,5,1.25,q\n1,0,2,2.5,p\n0,1,7,0.75,q\n1,0,1,1.5,q\n0,1,0,3.5,p\n"
#: A pipeline that does not name the table: BernoulliNB without smoothing.
UNRELATED_YAML = "_target_: sklearn.naive_bayes.BernoulliNB\nalpha: 0\n"
UNRELATED_PY = "from sklearn.naive_bayes import MultinomialNB\nclf = MultinomialNB(alpha=0.5)\n"


def groupings(paths: list[str]):
    """Every order of ``paths``, split every way into consecutive groups (as pre-commit may run them)."""
    for order in itertools.permutations(paths):
        for cuts in itertools.product([False, True], repeat=len(order) - 1):
            groups, current = [], [order[0]]
            for path, cut in zip(order[1:], cuts):
                if cut:
                    groups.append(current)
                    current = []
                current.append(path)
            yield groups + [current]


def table_findings(groups: list[list[str]], table: str) -> list[dict]:
    return [f.to_dict() for group in groups for f in lint_paths(group).findings if f.path == table]


@pytest.mark.slow
@pytest.mark.parametrize(
    "config", ['[tool.nblint]\ntarget = "y"\nmodel = "gaussian"\n', '[tool.nblint]\ntarget = "y"\n']
)
def test_a_table_gives_the_same_findings_whatever_else_is_in_the_run(tmp_path, declared, config):
    """The issue's case: with model = "gaussian" configured, a BernoulliNB config in the run changed the table."""
    (tmp_path / "pyproject.toml").write_text(config)
    table, yaml_config, py_config = tmp_path / "t.csv", tmp_path / "pipe.yaml", tmp_path / "train.py"
    table.write_text(TABLE)
    yaml_config.write_text(UNRELATED_YAML)
    py_config.write_text(UNRELATED_PY)
    alone = table_findings([[str(table)]], str(table))
    assert alone
    model = "gaussian" if "model" in config else None
    runs = list(groupings([str(table), str(yaml_config), str(py_config)]))
    assert len(runs) == 24
    for groups in runs:
        assert table_findings(groups, str(table)) == alone, groups
    assert set(declared) == {("t.csv", "y", model, None)}
    # The same through the command line, the folder included.
    expected = CliRunner().invoke(main, ["check", str(table), "--format", "json"]).stdout
    for args in ([str(yaml_config), str(table)], [str(table), str(py_config)], [str(tmp_path)]):
        out = json.loads(CliRunner().invoke(main, ["check", *args, "--format", "json"]).stdout)
        assert [f for f in out if f["path"] == str(table)] == json.loads(expected)


SPEC = "model: BernoulliNB\nparams: {alpha: 0.5}\ndata: t.csv\ntarget: y\n"


def test_the_spec_naming_a_table_declares_what_the_configuration_does_not(tmp_path, declared):
    table, spec = tmp_path / "t.csv", tmp_path / "spec.yaml"
    table.write_text(TABLE)
    spec.write_text(SPEC)
    for args in ([spec], [spec, table], [table, spec]):
        result = CliRunner().invoke(main, ["check", *map(str, args)])
        assert result.exit_code == 1 and result.stderr == ""
    assert declared == [("t.csv", "y", "bernoulli", 0.5)] * 3  # checked once per run, in either order


@pytest.mark.parametrize(
    "config, checked, alone, overridden",
    [
        ('model = "gaussian"\n', ("y", "gaussian", None), (None, "gaussian", None), ("model", "gaussian", "bernoulli")),
        ("alpha = 2.0\n", ("y", "bernoulli", 2.0), (None, None, 2.0), None),
        ('target = "a"\n', ("a", "bernoulli", 0.5), ("a", None, None), ("target", "a", "y")),
        (
            '[per-file-settings."t.csv"]\nmodel = "CategoricalNB"\n',
            ("y", "categorical", None),
            (None, "categorical", None),
            ("model", "categorical", "bernoulli"),
        ),
    ],
)
def test_the_configuration_wins_over_the_spec_and_says_so(tmp_path, declared, config, checked, alone, overridden):
    table, spec = tmp_path / "t.csv", tmp_path / "spec.yaml"
    table.write_text(TABLE)
    spec.write_text(SPEC)
    (tmp_path / "nblint.toml").write_text(config)
    stderr = [
        CliRunner().invoke(main, ["check", *map(str, args)]).stderr
        for args in ([spec], [spec, table], [table, spec], [table])
    ]
    assert declared == [("t.csv", *checked)] * 3 + [("t.csv", *alone)]
    if overridden is None:
        assert stderr == ["", "", "", ""]
    else:
        key, used, spec_value = overridden
        line = (
            f"{spec}:3: warning: {table} is checked with {key} {used!r} from {tmp_path / 'nblint.toml'}, "
            f"not the spec's {spec_value!r}\n"
        )
        assert stderr == [line] * 3 + [""]


def test_the_command_line_wins_over_both_without_a_warning(tmp_path, declared):
    table, spec = tmp_path / "t.csv", tmp_path / "spec.yaml"
    table.write_text(TABLE)
    spec.write_text(SPEC)
    (tmp_path / "nblint.toml").write_text('model = "gaussian"\nalpha = 2.0\n')
    result = CliRunner().invoke(main, ["check", str(spec), "--model", "MultinomialNB", "--alpha", "0", "--target", "a"])
    assert result.stderr == ""
    assert declared == [("t.csv", "a", "multinomial", 0.0)]
