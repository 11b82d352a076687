"""Benchmark: lint a sparse 100,000 x 50,000 document-term matrix without densifying it.

Generates (seeded, in each process) ``--rows`` documents of about ``--tokens`` tokens
over a ``--words`` vocabulary with Zipf-like word frequencies (exponent 1.1), each of
4 classes favouring its own slice of the vocabulary, as a ``scipy.sparse`` CSR count
matrix: the input MultinomialNB is usually given. Dense, it would be
``rows x words x 8`` bytes (40 GB at the defaults).

Three commands run in fresh processes, interleaved ``--repeat`` times (paired: every
round runs all three on the same machine state):

* ``build``: build the matrix and nothing else (the baseline: the cost of having it);
* ``fit``: build it, then ``sklearn.naive_bayes.MultinomialNB().fit(X, y)``;
* ``check``: build it, then ``nblint.check(X, y)``.

For each, the median and min-max of the wall time after building and of the peak
resident memory; the ratios are check / fit and the memory nblint adds over building.

    python bench/bench_sparse.py                  # 100,000 x 50,000, 3 rounds
    python bench/bench_sparse.py --rows 20000     # a quicker look
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys

_CHILD = r"""
import json, resource, sys, time
import numpy as np
from scipy import sparse

rows, words, tokens, what = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
rng = np.random.default_rng(0)
y = rng.integers(0, 4, rows)
frequency = 1.0 / np.arange(1, words + 1) ** 1.1
frequency /= frequency.sum()
lengths = rng.poisson(tokens, rows)
doc = np.repeat(np.arange(rows), lengths)
word = rng.choice(words, size=len(doc), p=frequency)
word = (word + 97 * y[doc] * (rng.random(len(doc)) < 0.3)) % words  # each class tilts its vocabulary
X = sparse.csr_matrix((np.ones(len(doc), dtype=np.int64), (doc, word)), shape=(rows, words))
X.sum_duplicates()
start = time.perf_counter()
result = {}
if what == "fit":
    from sklearn.naive_bayes import MultinomialNB
    MultinomialNB().fit(X, y)
elif what == "check":
    import nblint
    report = nblint.check(X, y)
    result["findings"] = len(report)
    result["codes"] = sorted(set(report.codes()))
result.update(seconds=time.perf_counter() - start, peak_mib=resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
              nnz=int(X.nnz), dense_gib=rows * words * 8 / 2**30)
print(json.dumps(result))
"""


def run(rows: int, words: int, tokens: int, what: str) -> dict:
    out = subprocess.run(
        [sys.executable, "-c", _CHILD, str(rows), str(words), str(tokens), what],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def spread(values: list[float], digits: int = 2) -> str:
    return f"{statistics.median(values):.{digits}f} ({min(values):.{digits}f}-{max(values):.{digits}f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--words", type=int, default=50_000)
    parser.add_argument("--tokens", type=int, default=100, help="mean tokens per document")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    results: dict[str, list[dict]] = {"build": [], "fit": [], "check": []}
    for _ in range(args.repeat):
        for what in results:
            results[what].append(run(args.rows, args.words, args.tokens, what))
    first = results["check"][0]
    print(
        f"{args.rows:,} x {args.words:,} counts, {first['nnz']:,} stored entries "
        f"(dense float64: {first['dense_gib']:.0f} GiB); {first['findings']} findings, codes {first['codes']}"
    )
    print(f"{'command':<8} {'seconds after building':>26} {'peak MiB':>26}")
    for what, runs in results.items():
        print(f"{what:<8} {spread([r['seconds'] for r in runs]):>26} {spread([r['peak_mib'] for r in runs], 0):>26}")
    ratio = [c["seconds"] / f["seconds"] for c, f in zip(results["check"], results["fit"])]
    added = [c["peak_mib"] - b["peak_mib"] for c, b in zip(results["check"], results["build"])]
    fit_added = [f["peak_mib"] - b["peak_mib"] for f, b in zip(results["fit"], results["build"])]
    print(f"check / fit time (paired): {spread(ratio)}")
    print(f"peak over building: check +{spread(added, 0)} MiB, fit +{spread(fit_added, 0)} MiB")


if __name__ == "__main__":
    main()
