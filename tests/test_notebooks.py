"""Jupyter notebooks end to end: cells read in order (never run), IPython syntax skipped, findings at
cell and line in every output format, suppressions in cells, bad notebooks, nbformat 3, and the
Python reader's limits said rather than guessed (NB510)."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from nblint.cli import main
from nblint.pipelines import read_config
from nblint.pipelines.pyparse import blank_ipython

SCHEMA = json.loads((Path(__file__).parent / "data" / "sarif-schema-2.1.0.json").read_text())


def code(source: str) -> dict:
    return {
        "cell_type": "code",
        "execution_count": None,
        "metadata": {},
        "outputs": [],
        "source": source.splitlines(keepends=True),
    }


def markdown(source: str) -> dict:
    return {"cell_type": "markdown", "metadata": {}, "source": source.splitlines(keepends=True)}


def notebook(*cells: dict, language: str = "python") -> str:
    """An nbformat 4 notebook, laid out as Jupyter writes it (one source line per JSON line)."""
    document = {
        "cells": list(cells),
        "metadata": {"kernelspec": {"display_name": "Python 3", "language": language, "name": "python3"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    return json.dumps(document, indent=1) + "\n"


def run(*args):
    result = CliRunner().invoke(main, list(args))
    assert "Traceback" not in result.output + (result.stderr or "")
    return result


def findings(*args) -> list[dict]:
    result = run("check", *args, "--format", "json")
    assert result.exit_code in (0, 1) and result.stderr == "", result.output
    return json.loads(result.stdout)


# A notebook as people write them: a title, imports with a magic, data in one cell, the model in
# another, a timed fit.  Cell 5 line 2 is BernoulliNB(alpha=0); cell 3 line 3 the get_dummies.
ANALYSIS = notebook(
    markdown("# Churn analysis\n"),
    code("%matplotlib inline\nimport pandas as pd\nfrom sklearn.naive_bayes import BernoulliNB\n"),
    code("!ls data\ndf = pd.read_csv('churn.csv')\nX = pd.get_dummies(df[['plan', 'region']])\ndf.head?\n"),
    markdown("## Model\nBernoulli, as the features are bits.\n"),
    code("%%time\nclf = BernoulliNB(alpha=0)\nclf.fit(X, df.churned)\n"),
)


@pytest.fixture
def analysis(write):
    return write("analysis.ipynb", ANALYSIS)


def test_findings_are_located_by_cell_and_line_within_the_cell(analysis):
    found = findings(analysis)
    assert [(f["code"], f["cell"], f["line"]) for f in found] == [("NB501", 3, 3), ("NB502", 5, 2)]
    onehot = found[0]
    assert onehot["columns"] == ["plan", "region"]
    assert "get_dummies (cell 3, line 3)" in onehot["message"] and "BernoulliNB (cell 5, line 2)" in onehot["message"]
    assert onehot["evidence"]["step_cell"] == 3 and onehot["evidence"]["model_cell"] == 5
    assert list(onehot)[list(onehot).index("line") + 1] == "cell"  # "cell" sits beside "line"
    text = [line for line in run("check", analysis).stdout.splitlines() if line.startswith(analysis)]
    assert text[0].startswith(f"{analysis}:cell 3:3: NB501 [warning] ")
    assert text[1].startswith(f"{analysis}:cell 5:2: NB502 [warning] ")


def test_table_and_script_findings_have_no_cell(write):
    script = write("train.py", "from sklearn.naive_bayes import MultinomialNB\nMultinomialNB(alpha=0)\n")
    (finding,) = findings(script)
    assert "cell" not in finding and finding["line"] == 2


def ipynb_line(path: str, text: str) -> int:
    """The line of the .ipynb file where ``text`` is written."""
    (line,) = [i for i, content in enumerate(Path(path).read_text().splitlines(), 1) if text in content]
    return line


def test_sarif_points_at_the_line_of_the_ipynb_file_and_carries_the_cell(analysis):
    log = json.loads(run("check", analysis, "--format", "sarif").stdout)
    jsonschema.Draft202012Validator(SCHEMA).validate(log)
    results = log["runs"][0]["results"]
    regions = [r["locations"][0]["physicalLocation"]["region"]["startLine"] for r in results]
    assert regions == [ipynb_line(analysis, "pd.get_dummies"), ipynb_line(analysis, "BernoulliNB(alpha=0)")]
    assert [(r["properties"]["cell"], r["properties"]["cellLine"]) for r in results] == [(3, 3), (5, 2)]


def test_github_annotations_and_junit_carry_the_same_location(analysis):
    github = run("check", analysis, "--format", "github").stdout.splitlines()
    line = ipynb_line(analysis, "BernoulliNB(alpha=0)")
    assert github[1].startswith(
        f"::warning file={analysis},line={line},title=NB502 smoothing-disabled (cell 5%2C line 2)::"
    )
    junit = ET.fromstring(run("check", analysis, "--format", "junit").stdout)
    details = [failure.text for failure in junit.iter("failure")]
    assert details[1].startswith(f"{analysis}:cell 5:2: NB502 [warning]")
    # the test case a CI server lists names the cell, and its line is the .ipynb file's (issue 35)
    case = [c for c in junit.iter("testcase") if c.get("name").startswith("NB502")][0]
    assert (case.get("name"), case.get("line")) == ("NB502 smoothing-disabled: cell 5, line 2", str(line))


def test_a_source_written_as_one_string_is_located_on_that_string(write):
    document = json.loads(notebook(code("from sklearn.naive_bayes import BernoulliNB\n")))
    document["cells"].append(
        {
            "cell_type": "code",
            "metadata": {},
            "outputs": [],
            "execution_count": 2,
            "source": "x = 1\nclf = BernoulliNB(alpha=0)",
        }
    )
    path = write("one.ipynb", json.dumps(document, indent=2))
    log = json.loads(run("check", path, "--format", "sarif").stdout)
    (result,) = log["runs"][0]["results"]
    assert result["properties"]["cell"] == 2 and result["properties"]["cellLine"] == 2
    assert result["locations"][0]["physicalLocation"]["region"]["startLine"] == ipynb_line(path, "x = 1")


# --------------------------------------------------------------------------- reading cells


def test_names_and_data_flow_across_cells_in_order(write):
    path = write(
        "flow.ipynb",
        notebook(
            code("import pandas as pd\nfrom sklearn.preprocessing import LabelEncoder\n"),
            code("from sklearn.naive_bayes import GaussianNB\nmodel = GaussianNB()\n"),
            code(
                "df = pd.read_csv('adult.csv')\nfor c in ['race', 'sex']:\n    df[c] = LabelEncoder().fit_transform(df[c])\n"
            ),
            code("model.fit(df.drop(columns='income'), df.income)\n"),
        ),
    )
    (finding,) = findings(path)
    assert (finding["code"], finding["cell"], finding["line"], finding["columns"]) == ("NB505", 3, 3, ["race", "sex"])


def test_ipython_syntax_is_skipped_not_a_parse_error(write):
    path = write(
        "magics.ipynb",
        notebook(
            code("%load_ext autoreload\n%autoreload 2\n!pip install -q scikit-learn\nfiles = !ls\n"),
            code("%%bash\nfor f in *.csv; do echo $f; done\n"),
            code("%%writefile helper.py\ndef broken(:\n"),
            code("from sklearn.naive_bayes import MultinomialNB\n?MultinomialNB\nMultinomialNB??\n"),
            code("%%capture out\nclf = MultinomialNB(alpha=0)\n"),
            code("for a in [1.0]:\n    %time clf.fit(X, y)\n"),
        ),
    )
    result = run("check", path, "--format", "json")
    assert result.exit_code == 1 and result.stderr == ""
    assert [(f["code"], f["cell"], f["line"]) for f in json.loads(result.stdout)] == [("NB502", 5, 2)]


def test_blanking_keeps_every_line_and_the_timed_statement():
    text = "%time model.fit(X, y)\n!echo hi\nx = 1\ndf.describe?\n  %timeit -n 3 predict(X)"
    blanked, runs = blank_ipython(text)
    assert blanked.splitlines() == ["model.fit(X, y)", "pass", "x = 1", "pass", "  predict(X)"]
    assert blank_ipython("%run -i helpers.py\n")[1] == [("helpers.py", 1)]


def test_valid_python_is_never_rewritten(write):
    """A cell that parses as written is read as is, magic-looking text in strings included."""
    path = write(
        "strings.ipynb",
        notebook(
            code(
                'from sklearn.naive_bayes import MultinomialNB\nquery = """\n%s\n!important\n"""\nMultinomialNB(alpha=0)\n'
            )
        ),
    )
    assert [(f["cell"], f["line"]) for f in findings(path)] == [(1, 6)]


def test_an_unreadable_cell_is_said_and_the_others_are_read(write):
    path = write(
        "half.ipynb",
        notebook(
            code("from sklearn.naive_bayes import MultinomialNB\n"),
            code("clf = MultinomialNB(alpha=0\n"),  # left half-written
            code("print 'accuracy', score\n"),  # Python 2
            code("other = MultinomialNB(alpha=0)\n"),
        ),
    )
    found = findings(path)
    assert [(f["code"], f["cell"], f["line"], f["severity"]) for f in found] == [
        ("NB510", 2, 1, "info"),
        ("NB510", 3, 1, "info"),
        ("NB502", 4, 1, "warning"),
    ]
    assert found[0]["message"].startswith("1 code cell could not be read as Python 3 (cell 2: syntax error")
    assert found[1]["message"].startswith("the notebook is Python 2 (cell 3): nblint read those cells with")
    assert run("check", path).exit_code == 1  # the NB502 warning; the infos alone would pass


def test_a_cell_too_deep_to_read_is_said_and_the_others_are_read(write):
    # A picture spelled out as one sum of hundreds of small lists parses, but nests far deeper than any
    # pipeline code; a cell of thousands of unary minuses is past what Python's own parser accepts.
    picture = " + ".join(f"[{i % 7}] * {i % 5 + 1}" for i in range(600))
    path = write(
        "deep.ipynb",
        notebook(
            code(
                "import numpy as np\nfrom sklearn.naive_bayes import BernoulliNB\n"
                "from sklearn.preprocessing import OneHotEncoder\nfrom sklearn.pipeline import make_pipeline\n"
            ),
            code(f"picture = np.array({picture})\nsmall = picture.reshape(20, -1)\n"),
            code("level = " + "-" * 3000 + "1\n"),
            code("model = make_pipeline(OneHotEncoder(), BernoulliNB())\nmodel.fit(X, y)\n"),
        ),
    )
    found = findings(path)
    assert [(f["code"], f["cell"], f["line"]) for f in found] == [("NB510", 2, 1), ("NB510", 3, 1), ("NB501", 4, 1)]
    assert "nested more than 100 levels deep" in found[0]["message"]
    assert "cell 3 is nested too deeply for Python's parser" in found[1]["message"]


def test_a_script_with_a_very_long_expression_is_read_around_it(write):
    sizes = " + ".join(f"[{i}]" for i in range(500))
    path = write(
        "long.py",
        "from sklearn.naive_bayes import BernoulliNB\n"
        "from sklearn.preprocessing import OneHotEncoder\nfrom sklearn.pipeline import make_pipeline\n"
        f"sizes = {sizes}\nmodel = make_pipeline(OneHotEncoder(), BernoulliNB())\n",
    )
    found = findings(path)
    assert [(f["code"], f["line"]) for f in found] == [("NB510", 4), ("NB501", 5)]
    assert found[0]["message"].startswith("code at line 4 is nested more than 100 levels deep")


def test_nbformat_3_worksheets(write):
    document = {
        "nbformat": 3,
        "nbformat_minor": 0,
        "metadata": {"name": "old"},
        "worksheets": [
            {
                "cells": [
                    {"cell_type": "heading", "level": 1, "metadata": {}, "source": ["Old notebook"]},
                    {
                        "cell_type": "code",
                        "collapsed": False,
                        "input": ["from sklearn.naive_bayes import BernoulliNB\n", "clf = BernoulliNB(alpha=0)"],
                        "language": "python",
                        "metadata": {},
                        "outputs": [],
                    },
                ]
            }
        ],
    }
    path = write("old.ipynb", json.dumps(document, indent=1))
    (finding,) = findings(path)
    assert (finding["cell"], finding["line"]) == (2, 2)
    log = json.loads(run("check", path, "--format", "sarif").stdout)
    region = log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]
    assert region["startLine"] == ipynb_line(path, "clf = BernoulliNB(alpha=0)")


def test_suppression_comments_in_cells(write):
    path = write(
        "quiet.ipynb",
        notebook(
            code("from sklearn.naive_bayes import BernoulliNB, MultinomialNB\n"),
            code(
                "a = MultinomialNB(alpha=0)  # nblint: ignore[NB502]\n"
                "b = MultinomialNB(alpha=0)  # noqa: NB502\n"
                "c = MultinomialNB(alpha=0)  # noqa: E501\n"
                "d = MultinomialNB(alpha=0)  # noqa\n"
            ),
        ),
    )
    assert [(f["cell"], f["line"]) for f in findings(path)] == [(2, 3)]


# --------------------------------------------------------------------------- what is and is not a notebook


@pytest.mark.parametrize(
    "content, message",
    [
        ('{"cells": [\n', "not a notebook: invalid JSON at line 2, column 1: Expecting value"),
        ("", "not a notebook: invalid JSON at line 1, column 1: Expecting value"),
        ('{"name": "package", "version": "1.0"}', "not a Jupyter notebook: no 'cells' list"),
        ("[1, 2, 3]", "not a Jupyter notebook: the JSON is not an object with a 'cells' list"),
        (b"\xff\xfe{", "not a notebook: not UTF-8 text"),
    ],
)
def test_a_broken_notebook_is_one_error_line_and_others_are_still_linted(write, content, message):
    bad = write("broken.ipynb", content)
    good = write(
        "good.ipynb", notebook(code("from sklearn.naive_bayes import MultinomialNB\nMultinomialNB(alpha=0)\n"))
    )
    result = run("check", bad, good)
    assert result.exit_code == 2
    assert result.stderr.startswith(f"{bad}: error: {message}") and result.stderr.count("\n") == 1, result.stderr
    assert f"{good}:cell 1:2: NB502" in result.stdout


def test_notebooks_without_scikit_learn_or_python_are_skipped_silently(tmp_path, write):
    write("repo/plots.ipynb", notebook(code("import matplotlib.pyplot as plt\nplt.plot([1, 2])\n")))
    write("repo/empty.ipynb", notebook())
    write(
        "repo/r.ipynb",
        notebook(code("library(e1071)\n# sklearn would be import sklearn\nmodel <- naiveBayes(y ~ .)\n"), language="R"),
    )
    write("repo/.ipynb_checkpoints/train-checkpoint.ipynb", '{"cells": [')
    result = run("check", str(tmp_path / "repo"))
    assert result.exit_code == 0 and result.stderr == ""
    assert result.stdout == "All checks passed (0 files).\n"


def test_folders_are_walked_for_notebooks(tmp_path, write, analysis):
    write("nb/deep/train.ipynb", ANALYSIS)
    paths = {f["path"] for f in findings(str(tmp_path))}
    assert paths == {analysis, str(tmp_path / "nb" / "deep" / "train.ipynb")}


def test_nothing_in_a_notebook_is_ever_run(tmp_path, write):
    marker = tmp_path / "MARKER"
    path = write(
        "hostile.ipynb",
        notebook(
            code(f"import os\nos.system('touch {marker}')\nfrom sklearn.naive_bayes import GaussianNB\n"),
            code(f"!touch {marker}\n%system touch {marker}\nGaussianNB(var_smoothing=0)\n"),
            code(f"%%bash\ntouch {marker}\n"),
        ),
    )
    assert [f["code"] for f in findings(path)] == ["NB502"]
    assert not marker.exists()


def test_output_is_deterministic(tmp_path, write, analysis):
    write("more/b.ipynb", ANALYSIS)
    first = run("check", str(tmp_path), "--format", "json").stdout
    assert first == run("check", str(tmp_path), "--format", "json").stdout


def test_read_config_gives_specs_with_cells(analysis):
    config = read_config(analysis)
    assert config.cells is not None and config.cells.cells == [2, 3, 5]
    (spec,) = [s for s in config.specs if s.model]
    assert spec.form == "notebook" and spec.estimator.label() == "BernoulliNB (cell 5, line 2)"


# --------------------------------------------------------------------------- Python 2 and star imports (scripts too)


def test_python_2_script_is_read_with_its_statements_set_aside_and_said(write):
    path = write(
        "legacy.py",
        """\
        from sklearn.naive_bayes import MultinomialNB
        from sklearn.feature_extraction.text import CountVectorizer

        try:
            clf = MultinomialNB(alpha=0).fit(X, y)
        except ValueError, e:
            print "failed:", e
            raise RuntimeError, "no model"
        """,
    )
    result = run("check", path, "--format", "json")
    assert result.exit_code == 1 and result.stderr == ""
    found = json.loads(result.stdout)
    assert [(f["code"], f["severity"], f["line"]) for f in found] == [("NB502", "warning", 5), ("NB510", "info", 6)]
    assert "set aside (print, exec, old except/raise forms at lines 6, 7, 8)" in found[1]["message"]


def test_python_2_that_stays_unreadable_is_an_info_not_a_parse_error(write):
    path = write("older.py", "from sklearn.naive_bayes import MultinomialNB\nclf = MultinomialNB(alpha=0)\nx = `clf`\n")
    result = run("check", path, "--format", "json")
    assert result.exit_code == 0 and result.stderr == ""
    (finding,) = json.loads(result.stdout)
    assert (finding["code"], finding["severity"], finding["line"]) == ("NB510", "info", 3)
    assert "its pipelines are not checked" in finding["message"]


def test_a_python_3_syntax_error_is_a_note_that_says_where(write):
    path = write("broken.py", "from sklearn.naive_bayes import MultinomialNB\nclf = MultinomialNB(alpha=0\n")
    result = run("check", path, "--format", "json")
    assert result.exit_code == 0 and result.stderr == ""
    (finding,) = json.loads(result.stdout)
    assert (finding["code"], finding["severity"], finding["line"]) == ("NB510", "info", 2)
    assert "syntax error at line 2" in finding["message"] and "not checked" in finding["message"]


def test_python_2_with_a_syntax_error_too_is_one_note_and_the_other_files_are_linted(write):
    older = write(
        "older_broken.py", "from sklearn.naive_bayes import BernoulliNB\nprint 'x'\nclf = BernoulliNB(alpha=0\n"
    )
    fine = write("fine.py", "from sklearn.naive_bayes import BernoulliNB\nclf = BernoulliNB(alpha=0)\n")
    result = run("check", older, fine, "--format", "json")
    assert result.exit_code == 1 and result.stderr == ""
    found = sorted((Path(f["path"]).name, f["code"]) for f in json.loads(result.stdout))
    assert found == [("fine.py", "NB502"), ("older_broken.py", "NB510")]


def test_a_name_from_a_run_script_is_said_not_guessed(write):
    path = write(
        "uses_helpers.ipynb",
        notebook(
            code("%run helpers.py\nfrom sklearn.model_selection import cross_val_score\n"),
            code("scores = cross_val_score(BernoulliNB(alpha=0), X, y)\n"),
        ),
    )
    (finding,) = findings(path)
    assert (finding["code"], finding["cell"], finding["line"]) == ("NB510", 2, 1)
    assert "`%run helpers.py` (line 1)" in finding["message"]


def test_code_is_read_never_run(tmp_path):
    """Scripts and notebooks that would write a file, import a planted module and unpickle a
    planted object when run: nblint lints them and none of that happens."""
    import os
    import pickle
    import subprocess
    import sys

    canary = tmp_path / "ran.txt"
    (tmp_path / "planted.py").write_text(f"open({str(canary)!r}, 'w').write('imported')\n")

    class Trap:
        def __reduce__(self):
            return (open, (str(canary), "w"))

    (tmp_path / "trap.pkl").write_bytes(pickle.dumps(Trap()))
    body = (
        f"import planted\nimport pickle\nopen({str(canary)!r}, 'w').write('ran')\n"
        f"model = pickle.load(open({str(tmp_path / 'trap.pkl')!r}, 'rb'))\n"
        "from sklearn.naive_bayes import MultinomialNB\nMultinomialNB(alpha=0).fit(X, y)\n"
    )
    (tmp_path / "script.py").write_text(body)
    (tmp_path / "analysis.ipynb").write_text(notebook(code("!touch shell_escape_ran\n%run planted.py"), code(body)))
    # A fresh process with the planted module importable from the working folder.
    proc = subprocess.run(
        [sys.executable, "-m", "nblint", "check", "script.py", "analysis.ipynb", "--format", "json"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(tmp_path)},
    )
    assert proc.returncode == 1, proc.stderr
    codes = {(Path(f["path"]).name, f["code"]) for f in json.loads(proc.stdout)}
    assert {("script.py", "NB502"), ("analysis.ipynb", "NB502")} <= codes
    assert not canary.exists()
    assert not (tmp_path / "shell_escape_ran").exists()


def test_a_cell_indented_as_a_whole_is_read_as_ipython_runs_it(write):
    """IPython dedents a cell pasted indented (its first line's indentation off every line), so it runs."""
    path = write(
        "indented.ipynb",
        notebook(
            code(
                "  from sklearn.naive_bayes import BernoulliNB\n  from sklearn.feature_extraction.text import CountVectorizer"
            ),
            code("  %matplotlib inline\n  vec = CountVectorizer()\n  X = vec.fit_transform(docs)"),
            code("  clf = BernoulliNB()\n  for a in [1, 2]:\n      print(a)\n  clf.fit(X, y)"),
        ),
    )
    found = [(f["code"], f["cell"], f["line"]) for f in findings(path)]
    assert ("NB503", 2, 2) in found and not [f for f in found if f[0] == "NB510"]


def test_a_script_exported_from_a_notebook_reads_its_magic_cells_and_survives_a_broken_cell(write):
    """nbconvert writes %%time cells as get_ipython().run_cell_magic(...) with the cell's code in a string, and
    keeps `# In[n]:` markers: the code in the string is read, and a cell with a syntax error is set apart."""
    path = write(
        "exported.py",
        "#!/usr/bin/env python\n# coding: utf-8\n\n# In[1]:\n\n\n"
        "from sklearn.naive_bayes import MultinomialNB\nfrom sklearn.preprocessing import StandardScaler\n\n\n"
        "# In[2]:\n\n\nscaled = StandardScaler().fit_transform(X)\n\n\n"
        "# In[3]:\n\n\nmodel = MultinomialNB(\n\n\n"
        "# In[4]:\n\n\n"
        "get_ipython().run_cell_magic('time', '', 'clf = MultinomialNB(alpha=0)\\nclf.fit(scaled, y)')\n",
    )
    found = {(f["code"], f["line"]) for f in findings(path)}
    assert {("NB504", 14), ("NB502", 26), ("NB510", 20)} <= found, found


def test_a_python_source_python_cannot_decode_is_a_note_not_an_input_error(tmp_path):
    """No coding cookie and a Latin-1 byte: Python refuses the file as a SyntaxError, nblint says why (NB510)."""
    path = tmp_path / "latin.py"
    path.write_bytes(b"from sklearn.naive_bayes import BernoulliNB\n# caf\xe9\nclf = BernoulliNB(alpha=0)\n")
    (finding,) = findings(str(path))
    assert (finding["code"], finding["line"]) == ("NB510", 2) and "byte 0xe9" in finding["message"]
