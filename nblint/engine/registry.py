"""The rule engine: rule metadata, rule packs, selection, and running rules on a table.

A rule is a small class: metadata (``code``, ``name``, ``severity``, ``options``,
``inputs``), a docstring in fixed sections, and :meth:`Rule.check` yielding
findings.  A rule reads tables (the default, ``inputs = ("table",)``: its ``check``
gets a :class:`nblint.analysis.context.TableContext`) or pipeline configs (``inputs =
("pipeline",)``: a :class:`nblint.pipelines.PipelineContext`).  Rule
packs are Python packages registered under the ``nblint.rules`` entry point
group; every module in a pack is scanned for :class:`Rule` subclasses.  The
built-in pack (``nblint_rules``, the repository's ``rules/`` folder) is loaded
the same way, so adding a rule is adding one module (and its case file).
"""

from __future__ import annotations

import importlib
import inspect
import math
import pkgutil
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any, ClassVar

from nblint.engine.findings import Finding, Severity

ENTRY_POINT_GROUP = "nblint.rules"
CODE_PATTERN = re.compile(r"^NB[1-9]\d\d$")
DOC_SECTIONS = ("What it does", "Why is this bad?", "Example", "Use instead")
MODELS = ("bernoulli", "multinomial", "complement", "gaussian", "categorical")
#: The scikit-learn class of each event model: a model may be named either way, everywhere.
MODEL_CLASSES = {
    "bernoulli": "BernoulliNB",
    "multinomial": "MultinomialNB",
    "complement": "ComplementNB",
    "gaussian": "GaussianNB",
    "categorical": "CategoricalNB",
}
#: The kinds of input a rule can read, and how ``nblint rule CODE`` describes each.
INPUTS = {
    "table": "tables",
    "pipeline": "pipeline configs (YAML, JSON, TOML, Python) and live pipelines",
    "live": "live pipelines given with their training data (nblint.check_pipeline)",
}


@dataclass(frozen=True)
class Option:
    """A rule option: its kebab-case name, default, type and one-line meaning.

    A number must be finite and, where they are given, within ``minimum`` and
    ``maximum`` (inclusive): ``nan`` would make every comparison false and
    silently turn a check off.
    """

    name: str
    default: Any
    doc: str
    #: An analysis setting as well: rules and analyses read it as ``ctx.setting(name)``, whichever rule declares it.
    shared: bool = False
    minimum: float | None = None
    maximum: float | None = None

    def coerce(self, value: Any) -> Any:
        """Check and convert a configured value to the default's type (ValueError saying what is expected)."""
        kind = type(self.default)
        if kind is bool:
            if isinstance(value, bool):
                return value
        elif kind in (int, float):
            if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value):
                if kind is int and not float(value).is_integer():
                    return _bad(self, value)
                if (self.minimum is not None and value < self.minimum) or (
                    self.maximum is not None and value > self.maximum
                ):
                    return _bad(self, value)
                return kind(value)
        elif isinstance(value, kind):
            return value
        return _bad(self, value)

    def expected(self) -> str:
        """What a value must be, in words (``a whole number >= 2``)."""
        kind = type(self.default)
        what = {bool: "true or false", int: "a whole number", float: "a finite number"}.get(kind, kind.__name__)
        bounds = [f">= {self.minimum:g}"] if self.minimum is not None else []
        bounds += [f"<= {self.maximum:g}"] if self.maximum is not None else []
        return " ".join([what] + [" and ".join(bounds)] if bounds else [what])


#: The option of a rule that reports one finding per column: past this many columns for one reason, it
#: reports once for the table (see :meth:`Rule.summarize`). A rule opts in by listing it in its ``options``.
SUMMARIZE_ABOVE = Option(
    "summarize-above",
    50,
    "On a wide table, more than this many columns reported for one reason become one finding for the table "
    "(count, share, the costliest examples; every column in the evidence). Narrow tables keep a finding per column.",
    minimum=1,
)


def parse_model(name: str) -> str | None:
    """The event model a name means, or None.

    ``bernoulli``, ``BernoulliNB`` and ``sklearn.naive_bayes.BernoulliNB`` (in
    any case) all mean ``bernoulli``: the CLI, the configuration, the nblint
    spec, the API and the pandera checks accept every spelling.
    """
    text = name.strip()
    if "." in text:  # a dotted class path names the class
        cls = text.rsplit(".", 1)[-1].lower()
        return next((model for model, c in MODEL_CLASSES.items() if c.lower() == cls), None)
    text = text.lower()
    return next((model for model, c in MODEL_CLASSES.items() if text in (model, c.lower())), None)


def model_choices() -> str:
    """The accepted model names, for error messages and help."""
    return f"{', '.join(MODELS)} (or the class: {', '.join(MODEL_CLASSES.values())})"


def _bad(option: Option, value: Any):
    raise ValueError(f"expected {option.expected()}, got {value!r}")


class Rule:
    """Base class of every rule.  Subclasses set the class attributes and ``check``.

    The class docstring is the rule's documentation: a one-line summary, then the
    sections ``## What it does``, ``## Why is this bad?``, ``## Example`` and
    ``## Use instead``.  ``nblint rule CODE`` prints it with the options.
    """

    code: ClassVar[str] = ""
    name: ClassVar[str] = ""
    severity: ClassVar[Severity] = Severity.WARNING
    options: ClassVar[tuple[Option, ...]] = ()
    #: The rule needs ``--target`` (skipped without one).
    needs_target: ClassVar[bool] = False
    #: What the rule reads: keys of :data:`INPUTS`; a context runs the rules whose inputs include its own.
    inputs: ClassVar[tuple[str, ...]] = ("table",)
    #: Row-level checks (by name) whose failing rows are this rule's finding, e.g. the pandera
    #: check ``nblint_sum_to_one`` of a one-hot group's columns: integrations map them back to the rule.
    row_checks: ClassVar[tuple[str, ...]] = ()

    def __init__(self, settings: dict[str, Any] | None = None):
        self.settings = {opt.name: opt.default for opt in self.options} | dict(settings or {})

    def check(self, ctx) -> Iterable[Finding]:  # pragma: no cover - abstract
        raise NotImplementedError

    # ------------------------------------------------------------ many columns, one reason

    def reason(self, finding: Finding) -> Any:
        """What a per-column finding says, as a key: findings with equal keys are one problem on a wide table.

        The default is the severity (every finding of the rule says the same thing); a rule
        whose findings differ by class, say, returns the class too.
        """
        return finding.severity

    def cost(self, finding: Finding) -> float:
        """How much a per-column finding costs (rows affected, class mass): summaries list the costliest first."""
        return float(finding.evidence.get("rows", 0) or 0)

    def summary_message(self, ctx, findings: list[Finding], share: float) -> str:
        """The one message of a summary finding: ``findings`` (ranked by cost) make ``share`` of the features.

        Rules override this with words about their own problem; the default names the
        count and the costliest instance.
        """
        first = findings[0]
        return f"{len(findings)} columns ({share:.0%} of the features) are reported for one reason; the costliest: {first.message}"

    def summarize(self, ctx, findings: list[Finding], limit: int) -> list[Finding]:
        """Say once what this rule found on more than ``limit`` columns of one table for one reason.

        When more than ``limit`` findings are about one column each, they are grouped by
        :meth:`reason` (the class, say), and each group becomes one finding with the count,
        the share of the features, the costliest instances (:meth:`cost`) in the message and
        every column, in table order, in ``columns`` and the evidence. A group of one, and
        findings about several columns, stay as they are; a narrow table, where a rule cannot
        fire on more than ``limit`` columns, keeps one finding per column.
        """
        per_column = [f for f in findings if len(f.columns) == 1]
        if len(per_column) <= limit:
            return findings
        by_reason: dict[Any, list[Finding]] = {}
        for f in per_column:
            by_reason.setdefault(self.reason(f), []).append(f)
        large = {key: group for key, group in by_reason.items() if len(group) > 1}
        summarized = {id(f) for group in large.values() for f in group}
        kept = [f for f in findings if id(f) not in summarized]
        order = ctx.table_order
        for group in large.values():
            ranked = sorted(group, key=lambda f: (-self.cost(f), order.get(f.columns[0], 0)))
            share = len(group) / _n_features(ctx)
            message = self.summary_message(ctx, ranked, share)
            kept.append(self.summary_finding(ctx, message, ranked[:10], [(f.columns[0], self.cost(f)) for f in ranked]))
        return kept

    def summary_finding(self, ctx, message: str, examples: list[Finding], ranked: list[tuple[str, float]]) -> Finding:
        """The one finding for many columns reported for one reason (see :meth:`summarize`).

        Parameters
        ----------
        message : str
            What :meth:`summary_message` says.
        examples : list of Finding
            The per-column findings of the costliest columns (at most ten are kept), costliest first.
        ranked : list of (str, float)
            Every column reported, with its cost, costliest first.
        """
        order = ctx.table_order
        evidence = {
            "instances": len(ranked),
            "share": len(ranked) / _n_features(ctx),
            "examples": [{"column": f.columns[0], "message": f.message, **f.evidence} for f in examples[:10]],
            # Already plain (a vocabulary's worth of entries is not walked again by :func:`settle`).
            "columns": _Plain({"column": str(column), "cost": _jsonable(float(cost))} for column, cost in ranked),
        }
        return self.finding(
            ctx,
            message,
            columns=sorted((column for column, _ in ranked), key=lambda c: order.get(c, 0)),
            evidence=evidence,
            fix=examples[0].fix,
            severity=examples[0].severity,
        )

    # ---------------------------------------------------------------- helpers

    def finding(
        self,
        ctx,
        message: str,
        *,
        columns=(),
        rows=(),
        evidence=None,
        fix: str = "",
        severity: Severity | None = None,
        line: int | None = None,
        figure: dict | None = None,
    ) -> Finding:
        """Build a finding of this rule for the table in ``ctx`` (``figure``: see :class:`Finding`)."""
        return Finding(
            code=self.code,
            name=self.name,
            severity=severity or self.severity,
            message=message,
            path=ctx.path,
            columns=list(columns),
            rows=list(rows),
            line=line,
            # As given: :func:`run_rules` makes the evidence of the findings it keeps plain JSON (a wide
            # table's per-column findings are mostly folded into one summary, their evidence never shown).
            evidence=dict(evidence or {}),
            fix=fix,
            figure=figure,
        )

    @classmethod
    def summary(cls) -> str:
        doc = inspect.getdoc(cls) or ""
        return doc.strip().splitlines()[0] if doc.strip() else ""

    @classmethod
    def documentation(cls) -> str:
        """The full documentation: header, docstring sections and options."""
        doc = inspect.getdoc(cls) or ""
        lines = [
            f"# {cls.name} ({cls.code})",
            "",
            f"Default severity: {cls.severity}.",
            f"Reads {' and '.join(INPUTS[i] for i in cls.inputs)}.",
        ]
        if cls.needs_target:
            lines.append("Needs a target column (--target or `target` in the config).")
        lines += ["", doc.strip(), "", "## Options", ""]
        if cls.options:
            for opt in cls.options:
                lines.append(f"- `{opt.name}` (default: `{_toml(opt.default)}`): {opt.doc}")
            lines += ["", "Set them in the config, for example:", "", "```toml", f"[tool.nblint.{cls.code}]"]
            lines += [f"{opt.name} = {_toml(opt.default)}" for opt in cls.options] + ["```"]
        else:
            lines.append("None.")
        return "\n".join(lines) + "\n"

    @classmethod
    def doc_sections(cls) -> dict[str, str]:
        """The docstring's ``## Section`` bodies, by title."""
        doc = inspect.getdoc(cls) or ""
        parts = re.split(r"^## (.+)$", doc, flags=re.M)
        return {parts[i].strip(): parts[i + 1].strip() for i in range(1, len(parts) - 1, 2)}


def _n_features(ctx) -> int:
    return max(1, len(ctx.profile.names) - (ctx.target is not None))


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    return repr(value)


class _Plain(list):
    """A list of evidence that is plain JSON already (see :meth:`Rule.summary_finding`)."""


def _jsonable(value: Any) -> Any:
    """Evidence as plain JSON types, floats rounded for stable, readable output."""
    import math

    import numpy as np

    kind = type(value)  # the plain types first: evidence is mostly made of them (wide tables make a lot of it)
    if kind is str or kind is int or kind is bool or value is None or kind is _Plain:
        return value
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (int, np.integer)):
        return int(value)
    if kind is float and value.is_integer() and abs(value) < 1e6:
        return value  # a count held as a float (a cost, a row total) is already what 6 digits would print
    if isinstance(value, (float, np.floating)):
        value = float(value)
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        if math.isnan(value):
            return None
        return float(f"{value:.6g}")
    return value


# --------------------------------------------------------------------------- packs


def load_rules() -> dict[str, type[Rule]]:
    """Every rule of every installed pack, by code (validated: codes unique and well formed)."""
    global _RULES
    if _RULES is None:
        rules: dict[str, type[Rule]] = {}
        for package in _pack_modules():
            for rule in _rules_in_package(package):
                if not CODE_PATTERN.match(rule.code):
                    raise RuntimeError(f"rule {rule.__qualname__} has a malformed code {rule.code!r}")
                if not rule.inputs or not set(rule.inputs) <= set(INPUTS):
                    raise RuntimeError(f"rule {rule.code} reads {rule.inputs!r} (expected some of {', '.join(INPUTS)})")
                other = rules.get(rule.code)
                if other is not None and other is not rule:
                    raise RuntimeError(
                        f"rule code {rule.code} is defined twice ({other.__module__}, {rule.__module__})"
                    )
                rules[rule.code] = rule
        _RULES = dict(sorted(rules.items()))
    return _RULES


_RULES: dict[str, type[Rule]] | None = None


def _pack_modules() -> list[str]:
    from importlib.metadata import entry_points

    names = [ep.value for ep in entry_points(group=ENTRY_POINT_GROUP)]
    if "nblint_rules" not in names:
        # Running from a source tree that was not installed: the built-in pack is still ours.
        names.insert(0, "nblint_rules")
    return sorted(set(names), key=names.index)


def _rules_in_package(package_name: str) -> Iterator[type[Rule]]:
    package = importlib.import_module(package_name)
    modules = [package]
    if hasattr(package, "__path__"):
        for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            modules.append(importlib.import_module(info.name))
    for module in modules:
        for _, obj in inspect.getmembers(module, inspect.isclass):
            if issubclass(obj, Rule) and obj is not Rule and obj.__module__ == module.__name__ and obj.code:
                yield obj


def select_rules(rules: dict[str, type[Rule]], select: Iterable[str] | None, ignore: Iterable[str] | None) -> list[str]:
    """Codes enabled by ``select`` and not removed by ``ignore`` (prefixes, ruff-style).

    ``NB1`` selects every NB1xx rule, ``ALL`` every rule, a rule's name that
    rule; the longest matching prefix wins when a code matches both lists.
    """
    by_name = {rule.name: code for code, rule in rules.items() if rule.name}
    select = [selector_code(s, by_name) for s in select] if select else ["ALL"]
    ignore = [selector_code(i, by_name) for i in ignore or []]
    chosen = []
    for code in rules:
        s = _match_len(code, select)
        i = _match_len(code, ignore)
        if s >= 0 and s >= i:
            chosen.append(code)
    return chosen


def _match_len(code: str, prefixes: list[str]) -> int:
    best = -1
    for prefix in prefixes:
        prefix = prefix.strip().upper()
        if prefix == "ALL":
            best = max(best, 0)
        elif code.startswith(prefix):
            best = max(best, len(prefix))
    return best


def selector_code(selector: str, by_name: dict[str, str] | None = None) -> str:
    """A selector as a code or prefix: ``nb104``, ``NB104`` and the rule's name ``collinear`` give ``NB104``.

    Rule names are accepted wherever codes are (``--select one-hot-group``,
    ``# nblint: ignore[one-hot-group]``), in kebab or snake case.  Anything
    else is returned upper-cased, as a code prefix.
    """
    text = selector.strip()
    by_name = _codes_by_name() if by_name is None else by_name
    return by_name.get(text.lower().replace("_", "-"), text.upper())


def _codes_by_name() -> dict[str, str]:
    return {rule.name: code for code, rule in load_rules().items() if rule.name}


def unknown_selector(selector: str, rules: dict[str, type[Rule]]) -> str:
    """``'NB1O1' matches no rule; did you mean 'NB101'?``: the likeliest code or rule name, where one is close."""
    from nblint.core.suggest import closest

    text = selector.strip()
    names = {rule.name: code for code, rule in rules.items() if rule.name}
    # a code with one character wrong (NB1O1, NB10l): codes are compared at their own length only, so
    # that a family prefix (NB9) is not "corrected" to some code that happens to contain it
    same_length = [code for code in rules if len(code) == len(text)]
    guesses = closest(_digits(text.upper()), same_length, n=1, cutoff=0.75)
    by_name = closest(text.lower().replace("_", "-"), list(names), n=1, cutoff=0.6)
    if by_name and not (guesses and text.upper().startswith("NB")):
        guess = f"; did you mean {by_name[0]!r} ({names[by_name[0]]})?"
    elif guesses:
        guess = f"; did you mean {guesses[0]!r} ({rules[guesses[0]].name})?"
    else:
        guess = ""
    return f"{selector!r} matches no rule{guess} (`nblint rules` lists codes and names)"


def likely_rules(text: str, rules: dict[str, type[Rule]], n: int = 3) -> list[str]:
    """The codes a mistyped rule code or name most likely meant, best first (for ``nblint rule``)."""
    from nblint.core.suggest import closest

    names = {rule.name: code for code, rule in rules.items() if rule.name}
    exact = [c for c in rules if c == _digits(text.strip().upper())]
    by_code = closest(_digits(text.strip().upper()), list(rules), n=n)
    by_name = [names[m] for m in closest(text.strip().lower().replace("_", "-"), list(names), n=n)]
    ranked = exact + (by_code if text.strip().upper().startswith("NB") else by_name + by_code)
    return list(dict.fromkeys(ranked))[:n]


def _digits(code: str) -> str:
    """Letters typed for the digits they look like, after the NB of a code (NB1O1, NB1Ol)."""
    return code[:2] + code[2:].translate(str.maketrans("OLI", "011"))


def validate_codes(prefixes: Iterable[str], rules: dict[str, type[Rule]], what: str) -> None:
    """Reject selectors that match no rule (a typo should not silently select nothing), with a did-you-mean."""
    for prefix in prefixes:
        p = selector_code(prefix)
        if p != "ALL" and not any(code.startswith(p) for code in rules):
            raise ValueError(f"{what}: {unknown_selector(prefix, rules)}")


# --------------------------------------------------------------------------- running


def run_rules(ctx, codes: list[str], rule_options: dict[str, dict[str, Any]]) -> list[Finding]:
    """Run the chosen rules that read what ``ctx`` holds (``ctx.input``: a table or a pipeline); sorted findings."""
    rules = load_rules()
    findings: list[Finding] = []
    for code in codes:
        rule_cls = rules[code]
        if ctx.input not in rule_cls.inputs or (rule_cls.needs_target and ctx.target is None):
            continue
        rule = rule_cls(rule_options.get(code))
        found = list(rule.check(ctx))
        limit = rule.settings.get(SUMMARIZE_ABOVE.name)
        findings.extend(found if limit is None else rule.summarize(ctx, found, int(limit)))
    settle(findings)
    findings.sort(key=Finding.sort_key)
    return findings


def settle(findings: Iterable[Finding]) -> None:
    """Make the evidence of findings that are kept plain JSON (numbers rounded to 6 digits, inf as text).

    :meth:`Rule.finding` keeps evidence as the rule gave it: on a wide table most per-column
    findings are folded into one summary and their evidence is never shown.
    """
    for finding in findings:
        finding.evidence = _jsonable(finding.evidence)


def resolved_options(overrides: dict[str, dict[str, Any]] | None = None) -> dict[str, dict[str, Any]]:
    """Every rule's options with defaults filled in and overrides applied."""
    overrides = overrides or {}
    return {
        code: {o.name: o.default for o in rule.options} | overrides.get(code, {}) for code, rule in load_rules().items()
    }


def shared_settings(rule_options: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The analysis settings: every shared option's resolved value, by name.

    A shared option is declared by exactly one rule (the one whose finding it shapes
    most) and read by the analyses and other rules through ``ctx.setting(name)``,
    so that no code outside a rule names a rule code, and two rules never need two
    options kept equal by hand.
    """
    settings: dict[str, Any] = {}
    for code, rule in load_rules().items():
        for option in rule.options:
            if option.shared:
                if option.name in settings:
                    raise RuntimeError(f"shared option {option.name!r} is declared twice (again by {code})")
                settings[option.name] = rule_options.get(code, {}).get(option.name, option.default)
    return settings


def rule_record(rule: type[Rule]) -> dict[str, Any]:
    """A rule as data, for ``nblint rules --format json``."""
    return {
        "code": rule.code,
        "name": rule.name,
        "severity": str(rule.severity),
        "summary": rule.summary(),
        "inputs": list(rule.inputs),
        "needs_target": rule.needs_target,
        "options": [{"name": opt.name, "default": opt.default, "doc": opt.doc} for opt in rule.options],
        "documentation": rule.documentation(),
    }


def describe(rule: type[Rule]) -> str:
    """One line for ``nblint rules``."""
    return f"{rule.code}  {rule.name:<28} {str(rule.severity):<8} {rule.summary()}"
