"""Benchmark: `nblint check DIR` on a repository-like folder of 1,000 YAML and Python files.

Generates (seeded, rewritten on every run, under bench/out/configs/) a tree of
``--files`` files (default 1,000), half YAML and half Python, spread over nested
folders. Most are not pipeline configs -- Kubernetes/compose/CI-style YAML,
Hydra configs for other libraries, numpy/pandas scripts, scripts that use only
scikit-learn metrics -- and ``--share`` of them (default 10%) are: Hydra YAML
pipelines and Python sources building scikit-learn pipelines, each with a known
number of findings.

It then runs ``nblint check DIR --format json`` ``--repeat`` times, each in a fresh
process, and prints the median wall time, the number of findings (and whether it
is the number expected), and, for scale, the median time of a fresh process that
only imports nblint's command line.

    python bench/bench_configs.py                 # 1,000 files, 5 runs
    python bench/bench_configs.py --files 5000 --repeat 3
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
    ("_target_: sklearn.pipeline.Pipeline\nsteps:\n  - - encode\n    - _target_: sklearn.preprocessing.OneHotEncoder\n"
     "      handle_unknown: ignore\n  - - nb\n    - _target_: sklearn.naive_bayes.BernoulliNB\n      alpha: 0\n", 3),
    ("model: CategoricalNB\nparams: {{min_categories: {n}0}}\nencoders:\n  city{i}:\n    class: OrdinalEncoder\n"
     "    handle_unknown: use_encoded_value\n    unknown_value: {n}\n", 0),
]
PIPELINE_PY = [
    ("from sklearn.naive_bayes import MultinomialNB\nfrom sklearn.pipeline import make_pipeline\n"
     "from sklearn.preprocessing import StandardScaler\n\nmodel_{i} = make_pipeline(StandardScaler(), MultinomialNB())\n", 1),
    ("import pandas as pd\nfrom sklearn.naive_bayes import GaussianNB\n\ndf = pd.read_csv('t{i}.csv')\n"
     "X = pd.get_dummies(df, drop_first=True)\nGaussianNB(var_smoothing={n}e-9).fit(X, df.y)\n", 1),
]


def generate(root: Path, n_files: int, share: float, seed: int = 0) -> int:
    """Write the tree; return the number of findings nblint should report."""
    rng = random.Random(seed)
    shutil.rmtree(root, ignore_errors=True)
    expected = 0
    for i in range(n_files):
        folder = root / f"pkg{i % 10}" / f"sub{i % 7}"
        folder.mkdir(parents=True, exist_ok=True)
        python = i % 2 == 1
        values = {"i": i, "n": 1 + rng.randrange(9)}
        if rng.random() < share:
            template, findings = rng.choice(PIPELINE_PY if python else PIPELINE_YAML)
            expected += findings
        else:
            template = rng.choice(UNRELATED_PY if python else UNRELATED_YAML)
        (folder / f"file{i:05d}{'.py' if python else '.yaml'}").write_text(template.format(**values))
    return expected


def timed(command: list[str]) -> tuple[float, subprocess.CompletedProcess]:
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True)
    return time.perf_counter() - start, done


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--files", type=int, default=1000)
    parser.add_argument("--share", type=float, default=0.1, help="share of files that are pipeline configs")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()

    expected = generate(OUT, args.files, args.share)
    runs, startup = [], []
    for _ in range(args.repeat):
        seconds, done = timed([*NBLINT, "check", str(OUT), "--format", "json"])
        if done.returncode not in (0, 1) or done.stderr:
            sys.exit(f"nblint failed ({done.returncode}): {done.stderr}")
        runs.append(seconds)
        findings = json.loads(done.stdout)
        startup.append(timed([sys.executable, "-c", "import nblint.cli, nblint.runner"])[0])
    configs = len({f["path"] for f in findings})
    print(f"{args.files} files ({args.share:.0%} pipeline configs) in {OUT}")
    print(f"nblint check DIR: median {statistics.median(runs):.2f} s over {args.repeat} runs "
          f"(min {min(runs):.2f}, max {max(runs):.2f})")
    print(f"  findings: {len(findings)} in {configs} files (expected {expected}: "
          f"{'ok' if len(findings) == expected else 'MISMATCH'})")
    print(f"  start-up alone (import nblint.cli, nblint.runner): median {statistics.median(startup):.2f} s")


if __name__ == "__main__":
    main()
