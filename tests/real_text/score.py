"""Score nblint on the real text corpus: findings, codes and the blind expectations, per scenario.

Run from the repository root::

    python tests/real_text/score.py                        # both corpora, whole, every scenario
    python tests/real_text/score.py --docs 2000            # the test's subsets
    python tests/real_text/score.py --only '20ng/counts/*' --only '*/planted/none/*'

Each scenario (corpus, form, model, alpha; :mod:`expectations`) builds its matrix
(:mod:`build`; built once per corpus and form), runs the public API
``nblint.check(X, y, feature_names=..., model=..., alpha=...)`` and compares the findings with
``expectations.yaml``. It prints, per scenario, the number of findings, warnings and errors,
the codes with their counts, the expectations held / checked, the time of ``nblint.check``
and each expectation that fails with what nblint did; then the failures summed up by
expectation and the codes of all findings. ``--json FILE`` writes the same as JSON.
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import signal
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make `real_text` importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from real_text import build, corpora, expectations  # noqa: E402


@dataclass
class ScenarioScore:
    scenario: expectations.Scenario
    docs: int
    words: int
    findings: list[dict] = field(default_factory=list)
    checks: list[expectations.Check] = field(default_factory=list)
    seconds: float = 0.0
    error: str | None = None

    @property
    def codes(self) -> Counter:
        return Counter(f["code"] for f in self.findings)

    def count(self, severity: str) -> int:
        return sum(f["severity"] == severity for f in self.findings)

    @property
    def failed(self) -> list[expectations.Check]:
        return [c for c in self.checks if not c.ok]


def aspect(check_name: str) -> str:
    """The test aspect a check belongs to: ``limits``, ``must``, ``must_not`` or ``planted``.

    A run that crashed or went over the CPU limit (``nblint.check ran``) fails every aspect.
    """
    head = check_name.split(" ", 1)[0]
    return {"must": "must", "must_not": "must_not", "planted": "planted"}.get(head, "limits")


class CPULimit(Exception):
    """nblint.check used more CPU seconds than allowed (a hang is a result too)."""


def _over_limit(signum, frame):
    raise CPULimit()


def lint(
    matrix: build.Matrix, scenario: expectations.Scenario, cpu_limit: float | None = None
) -> tuple[list[dict], float]:
    """The public API's findings on ``matrix`` under ``scenario``, and the seconds it took.

    ``cpu_limit``: raise :class:`CPULimit` once the process has spent this many CPU seconds in
    user mode inside the call (``ITIMER_VIRTUAL``; machine load does not count).
    """
    import nblint

    previous = None
    if cpu_limit:
        previous = signal.signal(signal.SIGVTALRM, _over_limit)
        signal.setitimer(signal.ITIMER_VIRTUAL, cpu_limit)
    start = time.perf_counter()
    try:
        report = nblint.check(
            matrix.X, matrix.y, feature_names=matrix.feature_names, model=scenario.nblint_model, alpha=scenario.alpha
        )
    finally:
        if cpu_limit:
            signal.setitimer(signal.ITIMER_VIRTUAL, 0)
            signal.signal(signal.SIGVTALRM, previous)
    seconds = time.perf_counter() - start
    return [expectations.finding_dict(f) for f in report.findings], seconds


def score_scenario(
    scenario: expectations.Scenario, docs: int | None, raw: dict | None = None, cpu_limit: float | None = None
) -> ScenarioScore:
    matrix = build.build(scenario.corpus, scenario.form, docs)
    score = ScenarioScore(scenario, docs=len(matrix.y), words=len(matrix.words))
    start = time.perf_counter()
    try:
        score.findings, score.seconds = lint(matrix, scenario, cpu_limit)
    except CPULimit:
        score.seconds = time.perf_counter() - start
        score.error = f"over the CPU limit: nblint.check did not finish within {cpu_limit:g} CPU seconds"
        score.checks = [expectations.Check("nblint.check ran", False, score.error)]
        return score
    except Exception as exc:  # a crash is a result too: reported, not raised
        score.error = f"{type(exc).__name__}: {exc}"
        score.checks = [expectations.Check("nblint.check ran", False, score.error)]
        return score
    expected = expectations.load(scenario, raw)
    n_classes = len(set(matrix.y.tolist()))
    score.checks = expectations.evaluate(expected, score.findings, matrix.words, matrix.meta, matrix.groups, n_classes)
    return score


def score_all(
    ids: list[str] | None = None, docs: int | None = None, out=None, cpu_limit: float | None = None
) -> list[ScenarioScore]:
    """Score every scenario (or those whose id matches a glob of ``ids``), printing each as it goes."""
    raw = expectations.read()
    chosen = [s for s in expectations.scenarios() if not ids or any(fnmatch.fnmatch(s.id, p) for p in ids)]
    scores = []
    for scenario in chosen:
        score = score_scenario(scenario, docs, raw, cpu_limit)
        scores.append(score)
        if out is not None:
            print_scenario(score, out)
    return scores


def _codes(counter: Counter) -> str:
    return ", ".join(f"{n} {c}" for c, n in sorted(counter.items(), key=lambda kv: (-kv[1], kv[0]))) or "-"


def print_scenario(s: ScenarioScore, out=sys.stdout) -> None:
    held = sum(c.ok for c in s.checks)
    print(
        f"{s.scenario.id:<40} {s.docs:>6}x{s.words:<6} findings {len(s.findings):>6} (warn {s.count('warning'):>5}, "
        f"err {s.count('error'):>4})  {held}/{len(s.checks)} held  {s.seconds:6.2f} s  codes: {_codes(s.codes)}",
        file=out,
    )
    for c in s.failed:
        print(f"      FAIL {c.name}: {c.detail}", file=out)
    out.flush()


def summary(scores: list[ScenarioScore], out=sys.stdout) -> None:
    checks = [c for s in scores for c in s.checks]
    failing = [s for s in scores if s.failed]
    print(file=out)
    print(
        f"{len(scores)} scenarios, {sum(s.seconds for s in scores):.1f} s in nblint.check; "
        f"expectations held {sum(c.ok for c in checks)}/{len(checks)}; scenarios with every expectation held "
        f"{len(scores) - len(failing)}/{len(scores)}",
        file=out,
    )
    by_check = Counter(c.name for s in scores for c in s.failed)
    print("failed expectations (scenarios failing each):", file=out)
    for name, n in by_check.most_common():
        print(f"  {n:>3}  {name}", file=out)
    by_aspect = Counter((s.scenario.id, aspect(c.name)) for s in scores for c in s.failed)
    print(
        "failing (scenario, aspect) pairs by aspect: "
        + ", ".join(f"{a} {n}" for a, n in Counter(a for _, a in by_aspect).most_common()),
        file=out,
    )
    print(f"codes over all findings: {_codes(sum((s.codes for s in scores), Counter()))}", file=out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", action="append", help="scenario ids or globs, e.g. '20ng/counts/*' (repeatable)")
    parser.add_argument("--docs", type=int, default=None, help="a seeded subset of this many documents")
    parser.add_argument("--json", help="also write the scores to this file")
    parser.add_argument(
        "--cpu-limit", type=float, default=600.0, help="CPU seconds per nblint.check before it counts as hung"
    )
    args = parser.parse_args(argv)
    import nblint

    try:
        for corpus in corpora.CORPORA:
            corpora.tab_file(corpus)
    except corpora.CorpusUnavailable as exc:
        print(f"skipped: {exc}", file=sys.stderr)
        return 0
    print(f"nblint {nblint.__version__} from {Path(nblint.__file__).parent}; {corpora.PACKAGE}=={corpora.VERSION}")
    print(f"documents: {'all' if args.docs is None else args.docs}")
    scores = score_all(args.only, args.docs, out=sys.stdout, cpu_limit=args.cpu_limit)
    summary(scores)
    if args.json:
        payload = [
            {
                "scenario": s.scenario.id,
                "docs": s.docs,
                "words": s.words,
                "seconds": s.seconds,
                "findings": len(s.findings),
                "warnings": s.count("warning"),
                "errors": s.count("error"),
                "codes": dict(s.codes),
                "failed": [{"name": c.name, "detail": c.detail} for c in s.failed],
                "held": sum(c.ok for c in s.checks),
                "checked": len(s.checks),
            }
            for s in scores
        ]
        Path(args.json).write_text(json.dumps(payload, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
