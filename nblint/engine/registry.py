"""The registry: rule packs, selection, and running rules on a table (a rule itself: :mod:`nblint.engine.rule`).

Rule packs are Python packages registered under the ``nblint.rules`` entry point
group; every module in a pack is scanned for :class:`Rule` subclasses.  The
built-in pack (``nblint_rules``, the repository's ``rules/`` folder) is loaded
the same way, so adding a rule is adding one module (and its case file).
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
from collections.abc import Iterable, Iterator
from typing import Any

from nblint.core.collector import collector_paused
from nblint.engine.findings import Finding
from nblint.engine.rule import INPUTS, SUMMARIZE_ABOVE, Rule, _jsonable
from nblint.engine.settings import AnalysisSettings

ENTRY_POINT_GROUP = "nblint.rules"
CODE_PATTERN = re.compile(r"^NB[1-9]\d\d$")
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
    with collector_paused():  # (a vocabulary's kinds and findings: many small objects, few cycles)
        for code in codes:
            rule_cls = rules[code]
            if not applies(rule_cls, ctx):
                continue
            rule = rule_cls(rule_options.get(code))
            found = list(rule.check(ctx))
            limit = rule.settings.get(SUMMARIZE_ABOVE.name)
            findings.extend(found if limit is None else rule.summarize(ctx, found, int(limit)))
        settle(findings)
        findings.sort(key=Finding.sort_key)
    return findings


def applies(rule_cls: type[Rule], ctx) -> bool:
    """Whether the rule runs on this context: its input, its target and its declared model."""
    if ctx.input not in rule_cls.inputs or (rule_cls.needs_target and ctx.target is None):
        return False
    return not rule_cls.models or ctx.model in rule_cls.models


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


def shared_settings(rule_options: dict[str, dict[str, Any]]) -> AnalysisSettings:
    """The analysis settings: every shared option's resolved value, typed (:class:`~nblint.engine.settings.AnalysisSettings`)."""
    return AnalysisSettings.from_options(load_rules(), rule_options)


def rule_record(rule: type[Rule]) -> dict[str, Any]:
    """A rule as data, for ``nblint rules --format json``."""
    return {
        "code": rule.code,
        "name": rule.name,
        "severity": str(rule.severity),
        "summary": rule.summary(),
        "inputs": list(rule.inputs),
        "needs_target": rule.needs_target,
        "models": sorted(rule.models, key=lambda m: (m is not None, m or "")),
        "options": [{"name": opt.name, "default": opt.default, "doc": opt.doc} for opt in rule.options],
        "documentation": rule.documentation(),
    }


def describe(rule: type[Rule]) -> str:
    """One line for ``nblint rules``."""
    return f"{rule.code}  {rule.name:<28} {str(rule.severity):<8} {rule.summary()}"
