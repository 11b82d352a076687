"""Score nblint's train/test findings (NB6xx) on real splits against the blind labels.

Run from the repository root::

    python tests/real_traintest/score.py                     # every scenario
    python tests/real_traintest/score.py --only 'grants*'    # a selection (fnmatch on the scenario id)
    python tests/real_traintest/score.py --json scores.json

A *scenario* is one split (:mod:`splits`: a real published split or a planted one), a declared
model (``none`` = not declared) and an alpha. Tables run through the public API
``nblint.check(train, target=..., test=test, model=..., alpha=...)``; text splits through
``nblint.check_pipeline(make_pipeline(CountVectorizer(min_df=2), <model>(alpha=...)), docs,
y, X_test=docs_test, y_test=y_test)`` (the test documents through the vectorizer, as the model
sees them; a serving split passes no ``y_test``). Until the API takes a test table the scorer
says so and every scenario is *skipped* (:func:`api_ready`).

``expectations.yaml`` holds the labels. Schema::

    concepts: {unseen_level: NB601, ...}   # concept -> code: the one place the codes are named
    splits: {pima: {notes: ...}, ...}      # the facts, from inspect_data.py (pandas / numpy only)
    rules:                                 # applied in order to every scenario they match
      - why: ...
        when: {split: [grants, grants/unseen], model: categorical, alpha: 0}   # a key left out matches any
        max_errors: 0                      # at most this many NB6xx errors (null: no limit); later rules win
        must:     [pattern, ...]           # each matches at least one NB6xx finding
        must_not: [pattern, ...]           # none matches any NB6xx finding

A pattern matches a finding when every key it gives agrees: ``finding`` (a concept or a list of
them), ``columns`` (all among the finding's columns), ``severity`` / ``min_severity``,
``mentions_any`` (one of these strings is in the finding's columns, message or JSON evidence).

Only NB6xx findings are scored (the other families have their own corpora). Per scenario the
scorer prints the NB6xx findings and each expectation held or failed; at the end, per concept,
recall (``must`` patterns met / named) and false alarms (``must_not`` patterns hit / checked).
"""

from __future__ import annotations

import argparse
import fnmatch
import inspect
import json
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from nblint.testing.cases import load_yaml

if __package__ in (None, ""):  # run as a script: make `real_traintest` importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from real_text.expectations import SEVERITY_RANK, finding_dict  # noqa: E402

from real_traintest import splits  # noqa: E402

HERE = Path(__file__).resolve().parent
PATH = HERE / "expectations.yaml"
PATTERN_KEYS = {"finding", "columns", "severity", "min_severity", "mentions_any"}
RULE_KEYS = {"why", "when", "max_errors", "must", "must_not"}
#: The model class a text scenario's pipeline ends in.
TEXT_MODELS = {"multinomial": "MultinomialNB", "bernoulli": "BernoulliNB", "complement": "ComplementNB"}


@dataclass(frozen=True)
class Scenario:
    split: str
    model: str  # "none" where no model is declared
    alpha: float

    @property
    def id(self) -> str:
        return f"{self.split}/{self.model}/alpha={self.alpha:g}"


S = Scenario
#: Every scored scenario: each table split undeclared and under the model its columns invite; grants
#: also under CategoricalNB at alpha 1 and 0; each text split under MultinomialNB.
SCENARIOS = [
    S("pima", "none", 1),
    S("pima", "gaussian", 1),
    S("pima/shift", "none", 1),
    S("pima/serving", "none", 1),
    S("synth", "none", 1),
    S("synth", "gaussian", 1),
    S("bivariate", "none", 1),
    S("bivariate", "gaussian", 1),
    S("grants", "none", 1),
    S("grants", "categorical", 1),
    S("grants", "categorical", 0),
    S("grants/unseen", "none", 1),
    S("grants/unseen", "categorical", 1),
    S("20ng", "multinomial", 1),
    S("reuters8", "multinomial", 1),
    S("20ng/dupes", "multinomial", 1),
    S("reuters8/shift", "multinomial", 1),
    S("20ng/serving", "multinomial", 1),
]


@dataclass
class Check:
    name: str
    ok: bool
    kind: str  # "must", "must_not" or "limit"
    concepts: tuple[str, ...] = ()
    detail: str = ""


@dataclass
class Expectation:
    max_errors: int | None = None
    must: list[dict] = field(default_factory=list)
    must_not: list[dict] = field(default_factory=list)


def read(path: Path = PATH) -> dict:
    """The labels, their schema checked (an unknown key is a typo, not a silent no-op)."""
    raw = load_yaml(path.read_text(encoding="utf-8"))
    concepts = raw["concepts"]
    for i, rule in enumerate(raw["rules"]):
        if set(rule) - RULE_KEYS:
            raise ValueError(f"rule {i}: unknown keys {sorted(set(rule) - RULE_KEYS)}")
        for key in rule.get("when", {}):
            if key not in ("split", "model", "alpha"):
                raise ValueError(f"rule {i}: unknown when key {key!r}")
        for pattern in rule.get("must", []) + rule.get("must_not", []):
            if set(pattern) - PATTERN_KEYS:
                raise ValueError(f"rule {i}: unknown pattern keys {sorted(set(pattern) - PATTERN_KEYS)}")
            for concept in _as_list(pattern["finding"]):
                if concept not in concepts:
                    raise ValueError(f"rule {i}: unknown concept {concept!r}")
    return raw


def _as_list(value) -> list:
    return value if isinstance(value, list) else [value]


def _matches_when(when: dict, scenario: Scenario) -> bool:
    values = {"split": scenario.split, "model": scenario.model, "alpha": scenario.alpha}
    return all(values[key] in _as_list(wanted) for key, wanted in when.items())


def expectation(scenario: Scenario, raw: dict) -> Expectation:
    out = Expectation()
    for rule in raw["rules"]:
        if not _matches_when(rule.get("when", {}), scenario):
            continue
        if "max_errors" in rule:
            out.max_errors = rule["max_errors"]
        out.must += rule.get("must", [])
        out.must_not += rule.get("must_not", [])
    return out


def matches(pattern: dict, finding: dict, concepts: dict) -> bool:
    if finding["code"] not in {concepts[c] for c in _as_list(pattern["finding"])}:
        return False
    if "severity" in pattern and finding["severity"] != pattern["severity"]:
        return False
    if "min_severity" in pattern and SEVERITY_RANK.get(finding["severity"], 0) < SEVERITY_RANK[pattern["min_severity"]]:
        return False
    if not set(pattern.get("columns", [])) <= set(finding["columns"]):
        return False
    if "mentions_any" in pattern:
        text = " ".join([*finding["columns"], finding["message"], json.dumps(finding["evidence"], default=str)])
        if not any(str(word) in text for word in pattern["mentions_any"]):
            return False
    return True


def evaluate(expected: Expectation, findings: list[dict], concepts: dict) -> list[Check]:
    """Each expectation against the scenario's NB6xx findings (``finding_dict`` form)."""
    checks = []
    if expected.max_errors is not None:
        errors = [f for f in findings if f["severity"] == "error"]
        shown = ", ".join(f"{f['code']}({','.join(f['columns'][:2])})" for f in errors[:3])
        checks.append(
            Check("max_errors", len(errors) <= expected.max_errors, "limit", (), f"{len(errors)} errors {shown}")
        )
    for pattern in expected.must:
        hits = [f for f in findings if matches(pattern, f, concepts)]
        checks.append(
            Check(f"must {pattern}", bool(hits), "must", tuple(_as_list(pattern["finding"])), f"{len(hits)} matching")
        )
    for pattern in expected.must_not:
        hits = [f for f in findings if matches(pattern, f, concepts)]
        shown = "; ".join(f"{f['code']}[{f['severity']}]: {f['message'][:120]}" for f in hits[:2])
        checks.append(Check(f"must_not {pattern}", not hits, "must_not", tuple(_as_list(pattern["finding"])), shown))
    return checks


# ------------------------------------------------------------------ running nblint


def api_ready() -> str | None:
    """``None`` when the API takes a test table (``check(..., test=)``, ``check_pipeline(..., X_test=)``), else why not."""
    import nblint
    from nblint.api import report

    for name, wanted in (("check", "test"), ("check_pipeline", "X_test")):
        for function in (getattr(nblint, name), getattr(report, name, None)):
            if function is None:
                continue
            parameters = inspect.signature(function).parameters
            if wanted in parameters:
                break
        else:
            return f"nblint.{name} takes no {wanted}= yet (issue 38 item 1)"
    return None


def run(scenario: Scenario) -> list[dict]:
    """nblint's findings (NB6xx only, as dicts) on ``scenario``."""
    import nblint

    split = splits.load(scenario.split)
    model = None if scenario.model == "none" else scenario.model
    if split.kind == "table":
        report = nblint.check(split.train, target=split.target, test=split.test, model=model, alpha=scenario.alpha)
    else:
        from sklearn import naive_bayes
        from sklearn.feature_extraction.text import CountVectorizer
        from sklearn.pipeline import make_pipeline

        estimator = getattr(naive_bayes, TEXT_MODELS[scenario.model])(alpha=scenario.alpha)
        pipeline = make_pipeline(CountVectorizer(min_df=2), estimator)
        extra = {} if split.serving else {"y_test": split.test[split.target]}
        report = nblint.check_pipeline(
            pipeline, split.train["text"], split.train[split.target], X_test=split.test["text"], **extra
        )
    return [finding_dict(f) for f in report.findings if str(f.code).startswith("NB6")]


@dataclass
class Score:
    scenario: Scenario
    findings: list[dict] = field(default_factory=list)
    checks: list[Check] = field(default_factory=list)
    seconds: float = 0.0
    error: str | None = None


def score(scenario: Scenario, raw: dict | None = None) -> Score:
    raw = raw or read()
    out = Score(scenario)
    start = time.perf_counter()
    try:
        out.findings = run(scenario)
    except splits.SplitUnavailable as exc:
        out.error = f"unavailable: {exc}"
        return out
    out.seconds = time.perf_counter() - start
    out.checks = evaluate(expectation(scenario, raw), out.findings, raw["concepts"])
    return out


def summary(scores: list[Score]) -> dict:
    """Per concept: (must met, must named) and (must_not hit, must_not checked)."""
    table: dict = defaultdict(lambda: {"met": 0, "named": 0, "false_alarms": 0, "checked": 0})
    for s in scores:
        for c in s.checks:
            for concept in c.concepts:
                row = table[concept]
                if c.kind == "must":
                    row["named"] += 1
                    row["met"] += c.ok
                elif c.kind == "must_not":
                    row["checked"] += 1
                    row["false_alarms"] += not c.ok
    return dict(sorted(table.items()))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", action="append", default=[], help="fnmatch pattern on scenario ids")
    parser.add_argument("--json", help="write the scores as JSON here")
    args = parser.parse_args(argv)
    reason = api_ready()
    if reason:
        print(f"skipped: {reason}")
        return 0
    raw = read()
    chosen = [s for s in SCENARIOS if not args.only or any(fnmatch.fnmatch(s.id, p) for p in args.only)]
    scores = []
    for scenario in chosen:
        s = score(scenario, raw)
        scores.append(s)
        held = sum(c.ok for c in s.checks)
        print(
            f"== {scenario.id}: {len(s.findings)} NB6xx findings, {held}/{len(s.checks)} held, {s.seconds:.1f}s"
            + (f" [{s.error}]" if s.error else "")
        )
        for f in s.findings:
            print(f"   {f['code']} {f['severity']:<7} {','.join(f['columns'][:3])}: {f['message'][:140]}")
        for c in s.checks:
            if not c.ok:
                print(f"   FAIL {c.name}: {c.detail}")
    print("\nper concept: must met/named, must_not false alarms/checked")
    for concept, row in summary(scores).items():
        print(f"  {concept:<16} {row['met']}/{row['named']}   {row['false_alarms']}/{row['checked']}")
    if args.json:
        payload = [
            {
                "scenario": s.scenario.id,
                "findings": s.findings,
                "checks": [c.__dict__ for c in s.checks],
                "seconds": s.seconds,
                "error": s.error,
            }
            for s in scores
        ]
        Path(args.json).write_text(json.dumps(payload, indent=1, default=str), encoding="utf-8")
    return int(any(not c.ok for s in scores for c in s.checks))


if __name__ == "__main__":
    sys.exit(main())
