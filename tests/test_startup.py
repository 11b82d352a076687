"""A linter starts like one: what each command imports, observed in a fresh process.

Behaviour, not timing: each command runs in its own interpreter, which reports the
modules loaded when it exits. Commands that read no table load no table library
(pandas, pyarrow, scipy); a small table's check loads no statistics, learning,
plotting or DataFrame library beyond pyarrow, which parses the CSV. The times are
``bench/bench_startup.py``'s.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

#: Runs the CLI, then prints the top-level packages loaded (after a marker) on stderr.
WRAPPER = """
import atexit, sys
atexit.register(lambda: print("\\n@@modules " + " ".join(sorted(sys.modules)), file=sys.stderr))
from nblint.cli import main
main(sys.argv[1:], prog_name="nblint")
"""
TABLE_LIBRARIES = {"pandas", "pyarrow", "scipy", "polars", "statsmodels", "sklearn", "matplotlib", "pandera", "dask"}


def loaded(*args: str, cwd=None) -> tuple[set[str], subprocess.CompletedProcess]:
    """Modules a fresh ``nblint ARGS`` process has loaded when it exits."""
    proc = subprocess.run([sys.executable, "-c", WRAPPER, *args], capture_output=True, text=True, cwd=cwd, check=False)
    _, marker, names = proc.stderr.rpartition("@@modules ")
    assert marker, proc.stderr
    return set(names.split()), proc


def packages(modules: set[str]) -> set[str]:
    return {name.split(".")[0] for name in modules}


@pytest.mark.parametrize("args", [["--version"], ["rules"], ["rule", "NB201"], ["rules", "--format", "json"]])
def test_commands_that_read_no_table_load_no_table_library(args):
    modules, proc = loaded(*args)
    assert proc.returncode == 0, proc.stderr
    assert packages(modules) & TABLE_LIBRARIES == set()


def test_a_pipeline_only_run_loads_no_table_library(tmp_path):
    config = tmp_path / "pipeline.yaml"
    config.write_text("model:\n  _target_: sklearn.naive_bayes.BernoulliNB\n  alpha: 0\n")
    modules, proc = loaded("check", str(config))
    assert proc.returncode == 1, proc.stderr + proc.stdout
    assert "NB502" in proc.stdout  # the config was linted
    assert packages(modules) & TABLE_LIBRARIES == set()


def test_a_small_table_check_loads_only_what_its_rules_need(tmp_path):
    rows = ["flag,measure,visits,y"] + [f"{i % 2},{(i * 7919) % 101 / 10},{i % 5},{(i // 2) % 2}" for i in range(40)]
    table = tmp_path / "small.csv"
    table.write_text("\n".join(rows) + "\n")
    modules, proc = loaded("check", str(table), "--target", "y")
    assert proc.returncode in (0, 1), proc.stderr
    assert "pyarrow" in packages(modules)  # (the CSV was parsed)
    # Nothing of pandas (pyarrow's to_numpy would import it), and no scipy: its VIFs are
    # small (no LAPACK triangular solve), it has no one-hot group (no impact measurement).
    assert packages(modules) & TABLE_LIBRARIES == {"pyarrow"}
    assert "nblint.impact" not in modules
    # The profile needs the maths' moments only: no model, no components (nothing is fitted).
    assert "nblint.nbmath.moments" in modules and "nblint.nbmath.components" not in modules
    # A run of tables asks of each path only whether it is a pipeline config: no config reader is loaded.
    assert not {"yaml", "tomllib", "nblint.pipelines.mapping", "nblint.pipelines.pysource"} & modules


#: A first ``nblint.check`` on a numpy matrix and numpy classes, then the packages it loaded.
API_WRAPPER = """
import sys
import numpy as np
import nblint
X = np.array([[1, 0, 2], [0, 1, 0], [3, 0, 1], [0, 2, 0]] * 5)
y = np.array(LABELS * 5, dtype=DTYPE)
report = nblint.check(X, y)
print(len(report.findings), sorted({m.split(".")[0] for m in sys.modules}))
"""


@pytest.mark.parametrize(
    "labels, dtype",
    [
        (["a", "b", "a", "b"], "U1"),
        (["a", "b", "a", "b"], "object"),
        ([0, 1, 0, 1], "int64"),
        ([0.0, 1.0, 0.0, 1.0], "float64"),
    ],
)
def test_a_first_check_on_numpy_arrays_loads_no_dataframe_library(labels, dtype):
    # A scikit-learn user's X and y are numpy: the classes are read without pandas (a third of a
    # second to import, more than the whole lint of a small matrix).
    code = API_WRAPPER.replace("LABELS", repr(labels)).replace("DTYPE", repr(dtype))
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    count, _, names = proc.stdout.strip().partition(" ")
    assert int(count) > 0  # (the matrix was linted: its columns decide the classes)
    assert not {"pandas", "pyarrow", "polars"} & set(json.loads(names.replace("'", '"')))


#: A first ``nblint.check`` of a small sparse matrix (the fixed cost ``bench/bench_text.py --first`` times),
#: then the modules it loaded beyond ``import nblint`` and what the caller had.
SPARSE_FIRST_CHECK = """
import json, sys
import numpy as np
from scipy import sparse
X = sparse.random(20, 30, density=0.2, random_state=0, format="csr")
X.data = np.ceil(3 * X.data)
X[:, 29] = X[:, 0] + X[:, 1]  # (an exact dependency: NB104's pivoted Cholesky runs)
y = np.array(["a", "b"] * 10)
import nblint
before = set(sys.modules)
report = nblint.check(X, y)
print(json.dumps([sorted({f.code for f in report.findings}), sorted(set(sys.modules) - before)]))
"""

#: What a small matrix's check never needs: statistics, learning, DataFrame and plotting libraries,
#: scipy's dense linear algebra (numpy does a few dozen columns' factorisations), the BLAS scan
#: (no product of a 20 x 30 table is large enough for BLAS to use threads), the impact measurement,
#: the pipeline machinery (the NB5xx pack is loaded, its rules do not run on a table).
NOT_FOR_A_SMALL_MATRIX = (
    "scipy.linalg",
    "scipy.stats",
    "scipy.special",
    "scipy.optimize",
    "statsmodels",
    "sklearn",
    "pandas",
    "pyarrow",
    "polars",
    "matplotlib",
    "threadpoolctl",
    "nblint.impact",
    "nblint.nbmath.components",
    "nblint.pipelines",
)


def test_a_first_check_of_a_small_sparse_matrix_loads_only_what_it_needs():
    proc = subprocess.run([sys.executable, "-c", SPARSE_FIRST_CHECK], capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    codes, loaded_now = json.loads(proc.stdout.strip().splitlines()[-1])
    assert "NB104" in codes  # (the dependency was looked for, and found)
    heavy = {name for name in loaded_now for top in NOT_FOR_A_SMALL_MATRIX if f"{name}.".startswith(f"{top}.")}
    assert heavy == set()


def test_numpy_classes_are_read_as_pandas_reads_them():
    import numpy as np
    import pandas as pd

    from nblint.readers.conversions import array_column_data, series_column_data

    for values in (
        np.array(["spam", "ham", "spam", "eggs"], dtype=object),
        np.array(["b", "a", "b"]),
        np.array([3, 1, 3], dtype=np.int32),
        np.array([True, False, True]),
        np.array([0.5, np.inf, 1.0]),
    ):
        ours, theirs = array_column_data(values), series_column_data(pd.Series(values))
        assert ours is not None
        assert (ours.kind, ours.labels, ours.integer_dtype) == (theirs.kind, theirs.labels, theirs.integer_dtype)
        np.testing.assert_array_equal(ours.values, theirs.values)
    # Missing labels and mixed objects are pandas' to read.
    assert array_column_data(np.array(["a", None], dtype=object)) is None
    assert array_column_data(np.array(["a", 1], dtype=object)) is None


def test_the_maths_package_exports_every_name_of_its_parts_on_first_use():
    code = (
        "import sys, json; from nblint import nbmath; import nblint.nbmath.model as model; "
        "before = sorted(m for m in sys.modules if m.startswith('nblint.nbmath.')); "
        "same = all(getattr(nbmath, n) is getattr(sys.modules['nblint.nbmath.' + nbmath._PARTS[n]], n) for n in nbmath.__all__); "
        "print(json.dumps([before, same, sorted(set(nbmath.__all__) - set(dir(nbmath)))]))"
    )
    before, same, missing = json.loads(
        subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    )
    assert "nblint.nbmath.components" not in before and "nblint.nbmath.model" in before
    assert same and missing == []


@pytest.mark.slow
def test_a_small_check_with_exact_dependencies_finds_them_without_scipy_linalg(tmp_path):
    """The other side of the screen: a column that is the sum of two others needs the pivoted
    Cholesky; on a few columns it is numpy's (the unblocked algorithm LAPACK itself runs at that
    size), so NB104 reports it and scipy.linalg, a tenth of a second to import, is not loaded."""
    rows = ["a,b,total,y"] + [f"{i % 7},{(i * 3) % 11},{i % 7 + (i * 3) % 11},{i % 2}" for i in range(40)]
    table = tmp_path / "sums.csv"
    table.write_text("\n".join(rows) + "\n")
    modules, proc = loaded("check", str(table), "--target", "y", "--select", "NB104")
    assert proc.returncode == 1, proc.stderr
    assert "NB104" in proc.stdout and "'total'" in proc.stdout
    assert "scipy.linalg" not in modules
    assert not {"statsmodels", "sklearn", "matplotlib", "polars"} & packages(modules)


#: Enters one_blas_thread with numpy loaded (as an API caller's session has it) and loads
#: scipy's own BLAS meanwhile (as profiling a large table does), then prints each BLAS's threads.
BLAS_PROBE = """
import json
import numpy
from threadpoolctl import threadpool_info
from nblint.core.blas import one_blas_thread

def threads():
    return sorted({info["num_threads"] for info in threadpool_info() if info["user_api"] == "blas"})

with one_blas_thread():
    import scipy.linalg
    inside = threads()
print(json.dumps({"inside": inside, "after": threads()}))
"""


def test_a_blas_loaded_while_nblint_runs_stays_on_one_thread_and_is_handed_back():
    # Lazy imports load scipy's BLAS after one_blas_thread has limited the BLAS
    # already loaded; on two threads its SSYRK spun for seconds of CPU.
    env = {k: v for k, v in os.environ.items() if not k.endswith("_NUM_THREADS")} | {"OPENBLAS_NUM_THREADS": "2"}
    proc = subprocess.run([sys.executable, "-c", BLAS_PROBE], capture_output=True, text=True, env=env, check=True)
    assert json.loads(proc.stdout) == {"inside": [1], "after": [2]}


def counted_scans(monkeypatch) -> list[int]:
    """A list that grows by one at each threadpoolctl scan of the process's libraries, from none scanned yet."""
    import threadpoolctl

    from nblint.core import blas

    scans: list[int] = []
    scan = threadpoolctl.ThreadpoolController.__init__

    def counted(self, *args, **kwargs):
        scans.append(1)
        scan(self, *args, **kwargs)

    monkeypatch.setattr(threadpoolctl.ThreadpoolController, "__init__", counted)
    monkeypatch.setattr(blas, "_SCANNED", None)  # (as in a fresh process)
    return scans


def test_the_libraries_are_scanned_again_only_when_an_extension_module_was_imported_meanwhile(monkeypatch):
    # Each scan of the process's shared libraries costs 5-25 ms: while no extension module is
    # imported, no BLAS can have been loaded, so a run (or its hand-back) reuses the last scan.
    from nblint.core import blas

    scans = counted_scans(monkeypatch)
    with blas.one_blas_thread():
        pass
    assert len(scans) == 1
    with blas.one_blas_thread():
        monkeypatch.setitem(sys.modules, "_a_pure_module", type(sys)("_a_pure_module"))
    assert len(scans) == 1
    with blas.one_blas_thread():
        monkeypatch.setitem(sys.modules, "_a_fresh_extension", type(sys)("_a_fresh_extension"))
        sys.modules["_a_fresh_extension"].__file__ = "/somewhere/_a_fresh_extension" + blas._EXTENSION_SUFFIXES[0]
    assert len(scans) == 2  # the hand-back looks for a BLAS the new extension may have loaded
    with blas.one_blas_thread():
        pass
    assert len(scans) == 2


#: A text user's first check: a small document-term matrix made by CountVectorizer (scikit-learn, its
#: threadpoolctl and its BLAS and OpenMP libraries loaded, as after vectorizing a real corpus), then
#: ``nblint.check(X, y, feature_names=...)``; prints the scans of the process's shared libraries the
#: check made, how many columns it read as words, and the modules it loaded.
TEXT_FIRST_CHECK = """
import json, sys
import numpy as np
from sklearn.feature_extraction.text import CountVectorizer
import threadpoolctl
scans = []
scan = threadpoolctl.ThreadpoolController.__init__
def counted(self, *args, **kwargs):
    scans.append(1)
    scan(self, *args, **kwargs)
threadpoolctl.ThreadpoolController.__init__ = counted
rng = np.random.default_rng(34)
syllables = ["ba", "ko", "ri", "tu", "me", "sa", "lo", "ni", "da", "pe", "gu", "fa", "zo", "hi", "ve"]
vocabulary = sorted({"".join(rng.choice(syllables, size=rng.integers(2, 4))) for _ in range(900)})
p = 1.0 / np.arange(1, len(vocabulary) + 1)
docs = [" ".join(rng.choice(vocabulary, size=rng.integers(5, 25), p=p / p.sum())) for _ in range(300)]
y = np.array(["ham", "spam"])[rng.integers(0, 2, len(docs))]
vectorizer = CountVectorizer()
X = vectorizer.fit_transform(docs)
import nblint
before = set(sys.modules)
report = nblint.check(X, y, feature_names=vectorizer.get_feature_names_out())
loaded_now = sorted(set(sys.modules) - before)
from nblint.readers.sparse import SparseSource
from nblint.readers.words import TERM_BLOCK
source = SparseSource(X, vectorizer.get_feature_names_out())
source.settle_words(TERM_BLOCK, 0.01)
print(json.dumps([len(scans), X.shape[1], len(source.words), loaded_now]))
"""

#: What a sparse text check never needs (beyond NOT_FOR_A_SMALL_MATRIX's, which scikit-learn may have loaded).
NOT_FOR_A_TEXT_CHECK = ("nblint.impact", "nblint.nbmath.components", "nblint.pipelines", "statsmodels", "pandas")


def test_a_first_text_check_after_scikit_learn_never_scans_for_blas_libraries():
    # Issue 34: threadpoolctl's scan of the 200-odd shared libraries scikit-learn brings was a fixed
    # cost of every first text check; a sparse document-term matrix has no dense BLAS step to limit.
    proc = subprocess.run([sys.executable, "-c", TEXT_FIRST_CHECK], capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    scans, width, words, loaded_now = json.loads(proc.stdout.strip().splitlines()[-1])
    assert words == width > 200  # (the text path: every column read as a word)
    assert scans == 0
    heavy = {name for name in loaded_now for top in NOT_FOR_A_TEXT_CHECK if f"{name}.".startswith(f"{top}.")}
    assert heavy == set()


#: A run (blas_scope) whose dense step is large enough for BLAS threads: the step's BLAS on one thread,
#: kept for the run's later steps, handed back when the run leaves; a run of small steps limits nothing.
BLAS_SCOPE_PROBE = """
import json
import numpy
from threadpoolctl import threadpool_info
from nblint.core.blas import THREADED_WORK, blas_scope, dense_blas

def threads():
    return sorted({info["num_threads"] for info in threadpool_info() if info["user_api"] == "blas"})

seen = {}
with blas_scope():
    with dense_blas(THREADED_WORK - 1):
        seen["small step"] = threads()
    with dense_blas(THREADED_WORK):
        seen["large step"] = threads()
    seen["after it, in the run"] = threads()
seen["after the run"] = threads()
with dense_blas(THREADED_WORK):
    seen["a step outside a run"] = threads()
seen["after that step"] = threads()
print(json.dumps(seen))
"""


def test_a_run_limits_blas_from_its_first_large_dense_step_and_hands_it_back():
    env = {k: v for k, v in os.environ.items() if not k.endswith("_NUM_THREADS")} | {"OPENBLAS_NUM_THREADS": "2"}
    proc = subprocess.run([sys.executable, "-c", BLAS_SCOPE_PROBE], capture_output=True, text=True, env=env, check=True)
    assert json.loads(proc.stdout) == {
        "small step": [2],
        "large step": [1],
        "after it, in the run": [1],
        "after the run": [2],
        "a step outside a run": [1],
        "after that step": [2],
    }


def test_a_run_scans_for_blas_libraries_only_when_a_dense_step_needs_them(monkeypatch):
    from nblint.core import blas

    scans = counted_scans(monkeypatch)
    with blas.blas_scope():
        with blas.dense_blas(blas.THREADED_WORK - 1):
            pass
    assert scans == []
    with blas.blas_scope():
        for _ in range(3):  # (a step per chunk: the limit is taken once for the run)
            with blas.dense_blas(blas.THREADED_WORK):
                pass
    assert len(scans) == 1
