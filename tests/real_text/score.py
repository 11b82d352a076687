"""Score nblint on the real text corpora: findings, codes and the blind expectations, per scenario.

Run from the repository root::

    python tests/real_text/score.py                        # every corpus, whole, every scenario
    python tests/real_text/score.py --docs 2000            # the test's subsets
    python tests/real_text/score.py --only '20ng/counts/*' --only '*/planted/none/*'
    python tests/real_text/score.py --only 'rt/*/none/alpha=1' --table   # precision / recall per corpus and form

Each scenario (corpus, form, model, alpha; :mod:`expectations`) builds its matrix
(:mod:`build`; built once per corpus and form), runs the public API
``nblint.check(X, y, feature_names=..., model=..., alpha=...)`` and compares the findings with
``expectations.yaml``. It prints, per scenario, the number of findings, warnings and errors,
the codes with their counts, the expectations held / checked, the time of ``nblint.check``
and each expectation that fails with what nblint did; then the failures summed up by
expectation and the codes of all findings. ``--json FILE`` writes the same as JSON.

Precision and recall (per scenario, and summed per corpus and form):

* a finding *counts* when it is at ``warning`` or above (the default fail level: what fails a
  run); it is *right* when it matches one of the scenario's ``must`` patterns (a real or planted
  problem the blind labels name), or names only planted metadata columns where the planted
  groups are expected, and no ``must_not`` pattern; precision = right / counted
  (``-`` when nothing counts);
* recall = ``must`` patterns met / ``must`` patterns (the problems the labels name, found);
* ``exit``: the default run's exit code (1 when a finding counts), beside the label's where it has one.
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

    #: (right, counted) findings at warning or above, and (met, named) ``must`` patterns: see the module docstring.
    precision_counts: tuple[int, int] = (0, 0)
    recall_counts: tuple[int, int] = (0, 0)

    @property
    def exit(self) -> int:
        return int(any(expectations.SEVERITY_RANK.get(f["severity"], 0) >= 2 for f in self.findings))


def ratio(hit: int, total: int) -> str:
    return f"{hit / total:.2f}" if total else "-"


def precision_recall(
    expected: expectations.Expectation, findings: list[dict], words: list[str], meta: list[str]
) -> tuple[tuple[int, int], tuple[int, int]]:
    """(right, counted) findings and (met, named) ``must`` patterns: see the module docstring."""
    ctx = (set(words), set(meta), expected.corpus)
    musts = [{k: v for k, v in p.items() if k != "count"} for p in expected.must]
    counted = [f for f in findings if expectations.SEVERITY_RANK.get(f["severity"], 0) >= 2]
    meta_set = set(meta)

    def named(f: dict) -> bool:
        planted = expected.planted_groups and bool(f["columns"]) and set(f["columns"]) <= meta_set
        return planted or any(expectations.matches(p, f, *ctx) for p in musts)

    right = [f for f in counted if named(f) and not any(expectations.matches(p, f, *ctx) for p in expected.must_not)]
    met = 0
    for pattern in expected.must:
        body = {k: v for k, v in pattern.items() if k != "count"}
        hits = sum(expectations.matches(body, f, *ctx) for f in findings)
        met += hits == pattern["count"] if "count" in pattern else hits > 0
    return (len(right), len(counted)), (met, len(expected.must))


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
    score.precision_counts, score.recall_counts = precision_recall(expected, score.findings, matrix.words, matrix.meta)
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
        f"{s.scenario.id:<44} {s.docs:>6}x{s.words:<6} findings {len(s.findings):>6} (warn {s.count('warning'):>5}, "
        f"err {s.count('error'):>4}) exit {s.exit}  P {ratio(*s.precision_counts):>4} R {ratio(*s.recall_counts):>4}  "
        f"{held}/{len(s.checks)} held  {s.seconds:6.2f} s  codes: {_codes(s.codes)}",
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


def table(scores: list[ScenarioScore], out=sys.stdout) -> None:
    """A markdown table per corpus and form (summed over the models and alphas scored)."""
    rows: dict[tuple[str, str], list[ScenarioScore]] = {}
    for s in scores:
        rows.setdefault((s.scenario.corpus, s.scenario.form), []).append(s)
    print(file=out)
    print(
        "| corpus | form | documents x words | scenarios | findings (median) | warnings+errors (median) | exit 1 "
        "| precision | recall | expectations held | scenarios all held |",
        file=out,
    )
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|", file=out)
    for (corpus, form), group in rows.items():
        right = sum(s.precision_counts[0] for s in group)
        counted = sum(s.precision_counts[1] for s in group)
        met = sum(s.recall_counts[0] for s in group)
        named = sum(s.recall_counts[1] for s in group)
        checks = [c for s in group for c in s.checks]
        findings = sorted(len(s.findings) for s in group)
        failing = sorted(s.count("warning") + s.count("error") for s in group)
        print(
            f"| {corpus} | {form} | {group[0].docs:,} x {group[0].words:,} | {len(group)} | {findings[len(findings) // 2]} "
            f"| {failing[len(failing) // 2]} | {sum(s.exit for s in group)}/{len(group)} | {ratio(right, counted)} "
            f"({right}/{counted}) | {ratio(met, named)} ({met}/{named}) | {sum(c.ok for c in checks)}/{len(checks)} "
            f"| {sum(not s.failed for s in group)}/{len(group)} |",
            file=out,
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", action="append", help="scenario ids or globs, e.g. '20ng/counts/*' (repeatable)")
    parser.add_argument("--docs", type=int, default=None, help="a seeded subset of this many documents")
    parser.add_argument("--json", help="also write the scores to this file")
    parser.add_argument("--table", action="store_true", help="also print a table per corpus and form (markdown)")
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
    print(f"nblint {nblint.__version__} from {Path(nblint.__file__).parent}; {corpora.pins()}")
    print(f"documents: {'all' if args.docs is None else args.docs}")
    scores = score_all(args.only, args.docs, out=sys.stdout, cpu_limit=args.cpu_limit)
    summary(scores)
    if args.table:
        table(scores)
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
                "exit": s.exit,
                "precision": list(s.precision_counts),
                "recall": list(s.recall_counts),
                "checked": len(s.checks),
            }
            for s in scores
        ]
        Path(args.json).write_text(json.dumps(payload, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
