"""Read and apply the blind expectations of the text corpora (``expectations.yaml``, ``expectations_34.yaml``).

A *scenario* is one run of ``nblint.check(X, y, feature_names=..., model=..., alpha=...)``:
a corpus (``20ng``, ``reuters8``; issue 34's ``tweets``, ``friends``, ``reuters52``, ``rt``), a
form (``counts``, ``binary``, ``tfidf``, ``planted``; issue 34's capped vocabularies, the
cleaned counts and the planted problems; see :mod:`build`), a model (``multinomial``,
``bernoulli``, ``complement``, ``none`` = not declared) and an alpha (``1`` or ``0``).

Each file's rules apply to the corpora that file describes (its ``corpora`` keys) and to no
other: issue 21's file keeps its two corpora and four forms, issue 34's file its four corpora
and every form.

Schema::

    corpora:
      20ng:
        notes: ...                 # what the data show (inspected with pandas / numpy only)
        leak_words: [nhl, athos]   # words that give the class away, for ``mentions_any``
    rules:                         # applied in order to every scenario they match
      - why: ...                   # the reason, from the issue or a text user's judgement
        when: {corpus: 20ng, form: [counts, binary], model: bernoulli, alpha: 0}
                                   # a value or a list per key; a key left out matches any
        max_findings: 40           # at most this many findings in all
        min_errors: 1              # at least / at most this many error findings
        max_errors: 1
        default_max_per_code: 2    # at most this many findings of any one code ...
        max_per_code: {NB201: 1, NB202: classes}   # ... or of these ("classes": the number of classes)
        planted_groups: true       # the planted groups are found exactly (NB101 / NB102, exact members)
        exit: 0                    # the default fail level (warning): 0 = no finding at warning or above
        must:     [pattern, ...]   # each matches at least one finding (exactly ``count`` if given)
        must_not: [pattern, ...]   # none matches any finding

Later rules override earlier ones for scalars; ``must`` / ``must_not`` add up;
``max_per_code`` merges key by key.

A *pattern* matches a finding when every key it gives agrees:

``code``
    a code or a list of codes (the finding's code is one of them);
``severity`` / ``min_severity``
    the finding's severity is that one / at least that one (info < warning < error);
``columns``
    these columns are all among the finding's columns;
``among``
    ``words``: the finding names at least one vocabulary column; ``meta``: at least one planted
    metadata column;
``message``
    a regular expression found in the finding's message;
``mentions_any``
    a list of words, or the name of a list under the corpus (``leak_words``): at least one of
    them is in the finding's columns, its message or its JSON evidence;
``count``
    (``must`` only) exactly this many findings match the rest of the pattern.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from nblint.testing.cases import load_yaml

HERE = Path(__file__).resolve().parent
PATH = HERE / "expectations.yaml"
#: Issue 34 item 7's corpora, labelled blind.
PATH_34 = HERE / "expectations_34.yaml"
PATHS = (PATH, PATH_34)
MODELS = ("multinomial", "bernoulli", "complement", "none")
ALPHAS = (1, 0)
SEVERITY_RANK = {"info": 1, "warning": 2, "error": 3}
PATTERN_KEYS = {"code", "severity", "min_severity", "columns", "among", "message", "mentions_any", "count"}
RULE_KEYS = {
    "why",
    "when",
    "max_findings",
    "min_errors",
    "max_errors",
    "default_max_per_code",
    "max_per_code",
    "planted_groups",
    "exit",
    "must",
    "must_not",
}


@dataclass(frozen=True)
class Scenario:
    corpus: str
    form: str
    model: str  # "none" where no model is declared
    alpha: int

    @property
    def id(self) -> str:
        return f"{self.corpus}/{self.form}/{self.model}/alpha={self.alpha}"

    @property
    def nblint_model(self) -> str | None:
        return None if self.model == "none" else self.model


@dataclass
class Expectation:
    scenario: Scenario
    max_findings: int | None = None
    min_errors: int | None = None
    max_errors: int | None = None
    default_max_per_code: int | None = None
    max_per_code: dict = field(default_factory=dict)
    planted_groups: bool = False
    exit: int | None = None
    must: list[dict] = field(default_factory=list)
    must_not: list[dict] = field(default_factory=list)
    corpus: dict = field(default_factory=dict)


@dataclass
class Check:
    """One expectation, held or not, with what nblint did."""

    name: str  # e.g. "max_findings", "must NB201", "planted onehot"
    ok: bool
    detail: str = ""


def _read_file(path: Path) -> dict:
    with open(path, encoding="utf-8") as handle:
        raw = load_yaml(handle.read())
    for i, rule in enumerate(raw["rules"]):
        unknown = set(rule) - RULE_KEYS
        if unknown:
            raise ValueError(f"{path.name} rule {i}: unknown keys {sorted(unknown)}")
        for pattern in rule.get("must", []) + rule.get("must_not", []):
            if set(pattern) - PATTERN_KEYS:
                raise ValueError(f"{path.name} rule {i}: unknown pattern keys {sorted(set(pattern) - PATTERN_KEYS)}")
    return raw


def read(paths: tuple[Path, ...] = PATHS) -> dict:
    """Every expectations file, merged: each rule scoped (``scope``) to its own file's corpora."""
    merged: dict = {"corpora": {}, "rules": []}
    for path in paths:
        raw = _read_file(path)
        merged["corpora"].update(raw["corpora"])
        merged["rules"] += [dict(rule, scope=sorted(raw["corpora"])) for rule in raw["rules"]]
    return merged


def _matches_when(when: dict, scenario: Scenario) -> bool:
    for key, wanted in (when or {}).items():
        values = wanted if isinstance(wanted, list) else [wanted]
        if getattr(scenario, key) not in values:
            raise_unknown = key not in ("corpus", "form", "model", "alpha")
            if raise_unknown:
                raise ValueError(f"unknown 'when' key {key!r}")
            return False
    return True


def load(scenario: Scenario, raw: dict | None = None) -> Expectation:
    """The expectations of ``scenario``: every matching rule, merged in order."""
    raw = raw if raw is not None else read()
    out = Expectation(scenario=scenario, corpus=dict(raw["corpora"].get(scenario.corpus, {})))
    for rule in raw["rules"]:
        if "scope" in rule and scenario.corpus not in rule["scope"]:
            continue
        if not _matches_when(rule.get("when"), scenario):
            continue
        for key in ("max_findings", "min_errors", "max_errors", "default_max_per_code", "planted_groups", "exit"):
            if key in rule:
                setattr(out, key, rule[key])
        out.max_per_code.update(rule.get("max_per_code") or {})
        out.must += [dict(p) for p in rule.get("must") or []]
        out.must_not += [dict(p) for p in rule.get("must_not") or []]
    return out


# ------------------------------------------------------------------ matching


def severity_name(severity) -> str:
    """``info`` / ``warning`` / ``error`` from an enum member (by name), a rank (1-3) or a string."""
    name = getattr(severity, "name", None)
    if isinstance(name, str):
        return name.lower()
    if isinstance(severity, int):
        return {rank: key for key, rank in SEVERITY_RANK.items()}.get(severity, str(severity))
    return str(severity).lower().rsplit(".", 1)[-1]


def finding_dict(finding) -> dict:
    """A finding of the public API as a plain dict (code, severity, message, columns, evidence)."""
    severity = severity_name(getattr(finding, "severity", ""))
    return {
        "code": finding.code,
        "severity": severity,
        "message": str(finding.message),
        "columns": [str(c) for c in (finding.columns or [])],
        "evidence": getattr(finding, "evidence", {}) or {},
    }


def matches(pattern: dict, finding: dict, words: set[str], meta: set[str], corpus: dict) -> bool:
    """Does ``pattern`` (see the module docstring) match ``finding`` (a :func:`finding_dict`)?"""
    if "code" in pattern:
        codes = pattern["code"] if isinstance(pattern["code"], list) else [pattern["code"]]
        if finding["code"] not in codes:
            return False
    if "severity" in pattern and finding["severity"] != pattern["severity"]:
        return False
    if "min_severity" in pattern:
        if SEVERITY_RANK.get(finding["severity"], 0) < SEVERITY_RANK[pattern["min_severity"]]:
            return False
    if not set(pattern.get("columns", [])) <= set(finding["columns"]):
        return False
    among = pattern.get("among")
    if among == "words" and not any(c in words for c in finding["columns"]):
        return False
    if among == "meta" and not any(c in meta for c in finding["columns"]):
        return False
    if "message" in pattern and not re.search(pattern["message"], finding["message"]):
        return False
    if "mentions_any" in pattern:
        wanted = pattern["mentions_any"]
        wanted = corpus.get(wanted, []) if isinstance(wanted, str) else wanted
        text = finding["message"] + " " + json.dumps(finding["evidence"], default=str)
        tokens = set(re.findall(r"[a-z]+", text.lower())) | set(finding["columns"])
        if not any(w in tokens for w in wanted):
            return False
    return True


def _brief(finding: dict) -> str:
    columns = finding["columns"]
    shown = ",".join(columns[:3]) + (f",+{len(columns) - 3}" if len(columns) > 3 else "")
    return f"{finding['code']}[{finding['severity']}]({shown})"


def _describe(pattern: dict) -> str:
    return " ".join(f"{k}={v}" for k, v in pattern.items() if k != "message") + (
        " message=/../" if "message" in pattern else ""
    )


def evaluate(
    expectation: Expectation, findings: list[dict], words: list[str], meta: list[str], groups: dict, n_classes: int
) -> list[Check]:
    """Every expectation of ``expectation`` against ``findings``: one :class:`Check` each."""
    words_set, meta_set = set(words), set(meta)
    checks: list[Check] = []
    n = len(findings)
    errors = sum(f["severity"] == "error" for f in findings)
    if expectation.max_findings is not None:
        checks.append(
            Check("max_findings", n <= expectation.max_findings, f"{n} findings (at most {expectation.max_findings})")
        )
    if expectation.min_errors is not None:
        checks.append(
            Check(
                "min_errors", errors >= expectation.min_errors, f"{errors} errors (at least {expectation.min_errors})"
            )
        )
    if expectation.max_errors is not None:
        checks.append(
            Check("max_errors", errors <= expectation.max_errors, f"{errors} errors (at most {expectation.max_errors})")
        )
    if expectation.exit is not None:
        failing = [f for f in findings if SEVERITY_RANK.get(f["severity"], 0) >= SEVERITY_RANK["warning"]]
        shown = ", ".join(_brief(f) for f in failing[:3]) + (f" (+{len(failing) - 3} more)" if len(failing) > 3 else "")
        checks.append(
            Check(
                "exit",
                int(bool(failing)) == expectation.exit,
                f"exit {int(bool(failing))} at the default fail level (expected {expectation.exit})"
                + (f": {shown}" if failing else ""),
            )
        )
    per_code: dict[str, int] = {}
    for f in findings:
        per_code[f["code"]] = per_code.get(f["code"], 0) + 1
    for code, count in sorted(per_code.items()):
        limit = expectation.max_per_code.get(code, expectation.default_max_per_code)
        if limit == "classes":
            limit = n_classes
        if limit is not None:
            checks.append(Check(f"max_per_code {code}", count <= limit, f"{count} {code} (at most {limit})"))
    if expectation.planted_groups:
        found = {
            "onehot": {frozenset(f["columns"]) for f in findings if f["code"] == "NB101"},
            "dummy": {frozenset(f["columns"]) for f in findings if f["code"] == "NB102"},
        }
        for kind, members in groups.items():
            code = "NB101" if kind == "onehot" else "NB102"
            hit = frozenset(members) in found[kind]
            near = [sorted(g)[:6] for g in found[kind] if g & frozenset(members)]
            checks.append(
                Check(f"planted {kind}", hit, f"{code} {members}: " + ("found" if hit else f"not found; near: {near}"))
            )
    ctx = (words_set, meta_set, expectation.corpus)
    for pattern in expectation.must:
        body = {k: v for k, v in pattern.items() if k != "count"}
        hits = [f for f in findings if matches(body, f, *ctx)]
        if "count" in pattern:
            ok = len(hits) == pattern["count"]
            detail = f"{len(hits)} matching (exactly {pattern['count']})"
        else:
            ok = bool(hits)
            detail = f"{len(hits)} matching"
        checks.append(Check(f"must {_describe(pattern)}", ok, detail))
    for pattern in expectation.must_not:
        hits = [f for f in findings if matches(pattern, f, *ctx)]
        shown = ", ".join(_brief(f) for f in hits[:3]) + (f" (+{len(hits) - 3} more)" if len(hits) > 3 else "")
        checks.append(
            Check(f"must_not {_describe(pattern)}", not hits, f"{len(hits)} matching: {shown}" if hits else "")
        )
    return checks


#: Issue 21's corpora and forms (``expectations.yaml``); every other corpus takes every form.
CORPORA_21 = ("20ng", "reuters8")
FORMS_21 = ("counts", "binary", "tfidf", "planted")


def scenarios(corpora=None, forms=None) -> list[Scenario]:
    """Every scenario of the grid: each corpus's forms (issue 21's four for its corpora) under every model and alpha."""
    from . import build
    from . import corpora as registry

    chosen = corpora if corpora is not None else tuple(registry.CORPORA)
    out = []
    for c in chosen:
        own = FORMS_21 if c in CORPORA_21 else build.FORMS
        out += [Scenario(c, f, m, a) for f in own if forms is None or f in forms for m in MODELS for a in ALPHAS]
    return out
