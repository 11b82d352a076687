"""Benchmark: `nblint check DIR` on a repository-like folder of 1,000 YAML, Python and notebook files.

Generates (seeded, rewritten on every run, under bench/out/configs/) a tree of
``--files`` files (default 1,000), a third each YAML, Python and Jupyter
notebooks (``--kinds`` chooses), spread over nested folders. Most are not
pipeline configs -- Kubernetes/compose/CI-style YAML, Hydra configs for other
libraries, numpy/pandas scripts, scripts that use only scikit-learn metrics,
plotting notebooks with their outputs (a PNG in some) -- and ``--share`` of
them (default 10%) are: Hydra YAML pipelines, Python sources and notebooks
building, searching and fitting scikit-learn models (in loops, functions,
across cells), each with a known number of findings.

It then runs, paired and alternating, ``--repeat`` times each in a fresh process:

* ``nblint check DIR --format json``;
* the floor: a process that imports nblint's command line, reads every file,
  ``json.loads`` each notebook and ``ast.parse`` each Python file (what any
  reader of these files must do);

and prints the medians (min-max) of both, their ratio, the number of findings
(and whether it is the number expected), and the median start-up of a process
that only imports nblint's command line.

    python bench/bench_configs.py                 # 1,000 files, 5 runs
    python bench/bench_configs.py --files 5000 --repeat 3
    python bench/bench_configs.py --kinds yaml,py # the earlier YAML/Python tree
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

OUT = Path(__file__).resolve().parent / "out" / "configs"
NBLINT = [sys.executable, "-m", "nblint"]

UNRELATED_YAML = [
    "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web-{i}\nspec:\n  replicas: {n}\n"
    "  template:\n    spec:\n      containers:\n        - name: web\n          image: nginx:1.{n}\n",
    "version: '3'\nservices:\n  db{i}:\n    image: postgres:{n}\n    environment:\n      - POSTGRES_DB=app\n",
    "name: ci-{i}\non: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n"
    "      - uses: actions/checkout@v4\n      - run: make test-{n}\n",
    "optimizer:\n  _target_: torch.optim.Adam\n  lr: 0.00{n}\nscheduler:\n  _target_: torch.optim.lr_scheduler.StepLR\n",
    "model: resnet{n}\nepochs: {i}\nbatch_size: 32\naugment: true\n",
]
UNRELATED_PY = [
    "import numpy as np\n\n\ndef f{i}(x):\n    return np.sqrt(x) * {n}\n\n\nprint(f{i}(np.arange(10)))\n",
    "import pandas as pd\n\ndf = pd.read_csv('data_{i}.csv')\nprint(df.describe(), {n})\n",
    "from sklearn.metrics import accuracy_score\n\nprint(accuracy_score([0, 1, {n}], [0, 1, {n}]))\n",
    "class Thing{i}:\n    def __init__(self):\n        self.value = {n}\n\n    def run(self):\n        return self.value\n",
]
# (template, number of findings it produces)
PIPELINE_YAML = [
    (
        "_target_: sklearn.pipeline.Pipeline\nsteps:\n  - - encode\n    - _target_: sklearn.preprocessing.OneHotEncoder\n"
        "      handle_unknown: ignore\n  - - nb\n    - _target_: sklearn.naive_bayes.BernoulliNB\n      alpha: 0\n",
        3,
    ),
    (
        "model: CategoricalNB\nparams: {{min_categories: {n}0}}\nencoders:\n  city{i}:\n    class: OrdinalEncoder\n"
        "    handle_unknown: use_encoded_value\n    unknown_value: {n}\n",
        0,
    ),
]
PIPELINE_PY = [
    (
        "from sklearn.naive_bayes import MultinomialNB\nfrom sklearn.pipeline import make_pipeline\n"
        "from sklearn.preprocessing import StandardScaler\n\nmodel_{i} = make_pipeline(StandardScaler(), MultinomialNB())\n",
        1,
    ),
    (
        "import pandas as pd\nfrom sklearn.naive_bayes import GaussianNB\n\ndf = pd.read_csv('t{i}.csv')\n"
        "X = pd.get_dummies(df, drop_first=True)\nGaussianNB(var_smoothing={n}e-9).fit(X, df.y)\n",
        1,
    ),
]


# Notebooks: lists of code cells ("md:" starts a markdown cell). Real notebooks carry their outputs.
UNRELATED_NB = [
    [
        "md:# Exploration {i}",
        "import pandas as pd\nimport matplotlib.pyplot as plt\n%matplotlib inline",
        "df = pd.read_csv('data_{i}.csv')\ndf.describe()",
        "df.plot(kind='hist', bins={n}0)\nplt.show()",
    ],
    [
        "import numpy as np\n!pip install -q seaborn",
        "x = np.linspace(0, {n}, 100)\ny = np.sin(x)",
        "md:Results",
        "%%time\nsum(y ** 2)",
    ],
]
PIPELINE_NB = [
    (
        [
            "md:# Churn {i}",
            "import pandas as pd\nfrom sklearn.naive_bayes import BernoulliNB, GaussianNB",
            "df = pd.read_csv('churn_{i}.csv')\nX = pd.get_dummies(df.drop(columns='churned'))",
            "models = {{'g': GaussianNB(), 'b': BernoulliNB(alpha=0)}}\nfor name, m in models.items():\n    m.fit(X, df.churned)",
        ],
        3,
    ),  # NB501 for each of the two models, NB502 for BernoulliNB
    (
        [
            "import pandas as pd\nfrom sklearn.preprocessing import LabelEncoder\nfrom sklearn.naive_bayes import GaussianNB",
            "def train(model, X, y):\n    model.fit(X, y)\n    return model",
            "df = pd.read_csv('adult_{i}.csv')\nfor c in ['race', 'sex']:\n    df[c] = LabelEncoder().fit_transform(df[c])",
            "md:Fit",
            "train(GaussianNB(), df.drop(columns='income'), df.income)",
        ],
        1,
    ),  # NB505
]
PNG_OUTPUT = {
    "output_type": "display_data",
    "metadata": {},
    "data": {"image/png": "iVBORw0KGgo" + "A" * 40_000, "text/plain": ["<Figure size 640x480>"]},
}


def notebook_text(cells: list[str], values: dict, rng: random.Random) -> str:
    """An nbformat 4 notebook of ``cells``, laid out as Jupyter writes it, some code cells with a plot output."""
    out = []
    for number, text in enumerate(cells, 1):
        text = text.format(**values)
        if text.startswith("md:"):
            out.append({"cell_type": "markdown", "metadata": {}, "source": text[3:].splitlines(keepends=True)})
            continue
        outputs = [PNG_OUTPUT] if rng.random() < 0.2 else []
        out.append(
            {
                "cell_type": "code",
                "execution_count": number,
                "metadata": {},
                "outputs": outputs,
                "source": text.splitlines(keepends=True),
            }
        )
    document = {
        "cells": out,
        "metadata": {"kernelspec": {"language": "python", "name": "python3"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    return json.dumps(document, indent=1) + "\n"


def generate(root: Path, n_files: int, share: float, kinds: list[str], seed: int = 0) -> int:
    """Write the tree; return the number of findings nblint should report."""
    rng = random.Random(seed)
    shutil.rmtree(root, ignore_errors=True)
    expected = 0
    for i in range(n_files):
        folder = root / f"pkg{i % 10}" / f"sub{i % 7}"
        folder.mkdir(parents=True, exist_ok=True)
        kind = kinds[i % len(kinds)]
        values = {"i": i, "n": 1 + rng.randrange(9)}
        pipeline = rng.random() < share
        if kind == "ipynb":
            if pipeline:
                cells, findings = rng.choice(PIPELINE_NB)
                expected += findings
            else:
                cells = rng.choice(UNRELATED_NB)
            text = notebook_text(cells, values, rng)
        else:
            python = kind == "py"
            if pipeline:
                template, findings = rng.choice(PIPELINE_PY if python else PIPELINE_YAML)
                expected += findings
            else:
                template = rng.choice(UNRELATED_PY if python else UNRELATED_YAML)
            text = template.format(**values)
        (folder / f"file{i:05d}.{kind}").write_text(text)
    return expected


FLOOR = """
import ast, json, os, sys
import nblint.cli, nblint.run.runner
for folder, _, names in os.walk(sys.argv[1]):
    for name in sorted(names):
        raw = open(os.path.join(folder, name), "rb").read()
        if name.endswith(".ipynb"):
            json.loads(raw)
        elif name.endswith(".py"):
            ast.parse(raw)
"""


def timed(command: list[str]) -> tuple[float, subprocess.CompletedProcess]:
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True)
    return time.perf_counter() - start, done


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--files", type=int, default=1000)
    parser.add_argument("--share", type=float, default=0.1, help="share of files that are pipeline configs")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--kinds", default="yaml,py,ipynb", help="file kinds, in rotation (yaml, py, ipynb)")
    args = parser.parse_args()

    kinds = args.kinds.split(",")
    expected = generate(OUT, args.files, args.share, kinds)
    size = sum(p.stat().st_size for p in OUT.rglob("*") if p.is_file())
    runs, floors, startup = [], [], []
    for _ in range(args.repeat):
        seconds, done = timed([*NBLINT, "check", str(OUT), "--format", "json"])
        if done.returncode not in (0, 1) or done.stderr:
            sys.exit(f"nblint failed ({done.returncode}): {done.stderr}")
        runs.append(seconds)
        findings = json.loads(done.stdout)
        floors.append(timed([sys.executable, "-c", FLOOR, str(OUT)])[0])
        startup.append(timed([sys.executable, "-c", "import nblint.cli, nblint.run.runner"])[0])
    configs = len({f["path"] for f in findings})
    ratios = [run / floor for run, floor in zip(runs, floors)]
    print(f"{args.files} files ({', '.join(kinds)}; {args.share:.0%} build pipelines; {size / 1e6:.1f} MB) in {OUT}")
    print(
        f"nblint check DIR: median {statistics.median(runs):.2f} s over {args.repeat} runs "
        f"(min {min(runs):.2f}, max {max(runs):.2f})"
    )
    print(
        f"  floor (read every file, json.loads notebooks, ast.parse Python): median {statistics.median(floors):.2f} s "
        f"(min {min(floors):.2f}, max {max(floors):.2f})"
    )
    print(
        f"  check / floor, paired: median {statistics.median(ratios):.2f}x (min {min(ratios):.2f}, max {max(ratios):.2f})"
    )
    print(
        f"  findings: {len(findings)} in {configs} files (expected {expected}: "
        f"{'ok' if len(findings) == expected else 'MISMATCH'})"
    )
    print(f"  start-up alone (import nblint.cli, nblint.run.runner): median {statistics.median(startup):.2f} s")


if __name__ == "__main__":
    main()
