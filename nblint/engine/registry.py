"""The registry: rule packs, and running rules on a table (a rule itself: :mod:`nblint.engine.rule`; selection:
:mod:`nblint.engine.selection`).

Rule packs are Python packages registered under the ``nblint.rules`` entry point
group; every module in a pack is scanned for :class:`Rule` subclasses.  The
built-in pack (``nblint_rules``, the repository's ``rules/`` folder) is loaded
the same way, so adding a rule is adding one module (and its case file).
"""

from __future__ import annotations

import importlib
import os
import re
import sys
from collections.abc import Callable, Collection, Iterable, Iterator
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from nblint.core.collector import collector_paused
from nblint.engine.entry_points import entry_points
from nblint.engine.findings import Finding
from nblint.engine.pack_modules import walk_modules
from nblint.engine.rule import INPUTS, STATUSES, SUMMARIZE_ABOVE, Rule, jsonable
from nblint.engine.settings import AnalysisSettings

ENTRY_POINT_GROUP = "nblint.rules"
#: A rule code: its pack's letters, then three digits (NB101; a pack's MP101).
CODE_PATTERN = re.compile(r"^[A-Z]{1,8}[1-9]\d\d$")
#: The built-in pack. Its ``CODE_PREFIX`` (NB) is the prefix it owns, its ``LEFT_TO_PACKS`` (NB9) the part of it
#: left to third-party packs: no built-in code starts with it.
BUILTIN_PACK = "nblint_rules"
#: A pack's code prefix: letters, then the digits it keeps for itself, if any (``MP``, ``NB9``).
PREFIX_PATTERN = re.compile(r"^[A-Z]{1,8}\d{0,2}$")


class PackError(RuntimeError):
    """A rule pack that cannot be loaded as it is (a code outside its prefix, a prefix another pack owns, ...)."""


@dataclass(frozen=True)
class Pack:
    """A loaded rule pack: its import name, the code prefix it owns and where that prefix was declared."""

    module: str
    prefix: str
    declared: str  # "built in", "its entry point", "CODE_PREFIX", "its codes"
    codes: tuple[str, ...]


# --------------------------------------------------------------------------- packs


def load_rules(inputs: Collection[str] | None = None, test_table: bool = True) -> dict[str, type[Rule]]:
    """Every rule of every installed pack, by code (validated: codes unique, well formed, within their pack's prefix).

    With ``inputs`` (what a run offers its rules: ``("table",)``), the rules that may read it: those of every
    family of the built-in pack but a family whose package declares other ``INPUTS``, or says its rules compare
    a table with its test table (``READS_TEST_TABLE``) when ``test_table`` is false (:func:`family_reads`). Where
    the built-in pack is the only one, the other families' modules are not imported: a check of a table never
    imports the pipeline rules, nor the train/test rules without a test table. The same rules whatever was
    loaded before.

    Raises
    ------
    PackError
        Naming the pack and the rule: a malformed code, a code outside the pack's prefix, a
        prefix that overlaps another pack's, a built-in code inside a pack's prefix, a status,
        replacement or renamed code that does not hold.
    """
    if inputs is None:
        return _all_rules()
    reading = (frozenset(inputs), test_table)
    found = _SOME.get(reading)
    if found is None:
        if _RULES is None and _builtin_only():
            found = _builtin_rules(reading)
        else:
            found = {code: rule for code, rule in _all_rules().items() if _may_read(rule, reading)}
        _SOME[reading] = found
    return found


def _all_rules() -> dict[str, type[Rule]]:
    """Every rule of every installed pack, validated (:func:`load_rules` without ``inputs``)."""
    global _RULES, _RENAMED, _PACKS
    if _RULES is None:
        rules: dict[str, type[Rule]] = {}
        packs: list[Pack] = []
        renamed: dict[str, str] = dict(RENAMED)
        for entry, module in _pack_entries():
            found = list(_rules_in_package(module))
            if not found:  # a pack with no rules owns nothing
                continue
            pack = _pack(entry, module, found)
            _add_rules(rules, found, pack)
            own = getattr(importlib.import_module(module), "RENAMED_CODES", {}) if module != BUILTIN_PACK else {}
            for old, new in dict(own).items():
                if not str(old).startswith(pack.prefix):
                    raise PackError(f"rule pack {module!r} renames {old}, outside its prefix {pack.prefix!r}")
                renamed[str(old)] = str(new)
            packs.append(pack)
        _check_owners(packs)
        _check_lives(rules, renamed)
        _PACKS = packs
        _RENAMED = renamed
        _RULES = dict(sorted(rules.items()))
    return _RULES


_RULES: dict[str, type[Rule]] | None = None
_RENAMED: dict[str, str] | None = None
_PACKS: list[Pack] | None = None
#: :func:`load_rules` of some inputs, by (inputs, test_table).
_SOME: dict[tuple[frozenset[str], bool], dict[str, type[Rule]]] = {}
#: Whether the built-in pack is the only one installed (None: not looked yet).
_ALONE: bool | None = None


def forget_rules() -> None:
    """Forget every rule loaded and the packs found: the next :func:`load_rules` looks for packs again (tests)."""
    global _RULES, _RENAMED, _PACKS, _ALONE
    _RULES = _RENAMED = _PACKS = _ALONE = None
    _SOME.clear()


def _add_rules(rules: dict[str, type[Rule]], found: list[type[Rule]], pack: Pack) -> None:
    """Add ``found``, the rules of ``pack``, to ``rules``, each checked (:func:`_check_rule`) and its code unique."""
    for rule in found:
        _check_rule(rule, pack)
        other = rules.get(rule.code)
        if other is not None and other is not rule:
            raise PackError(f"rule code {rule.code} is defined twice ({other.__module__}, {rule.__module__})")
        rules[rule.code] = rule


def _builtin_only() -> bool:
    """Whether the built-in pack is the only installed pack (looked up once: the entry points are read then)."""
    global _ALONE
    if _ALONE is None:
        _ALONE = [module for _, module in _pack_entries()] == [BUILTIN_PACK]
    return _ALONE


def _builtin_rules(reading: tuple[frozenset[str], bool]) -> dict[str, type[Rule]]:
    """The built-in rules that may read ``reading`` (:func:`_may_read`), importing only their families' modules.

    Each rule is checked as :func:`load_rules` checks it; the lives of the rules (a replacement, a
    narrowing, a renamed code naming a rule of another family) are checked where every rule is loaded.
    """
    pack = importlib.import_module(BUILTIN_PACK)
    found = list(_rules_in_package(BUILTIN_PACK, lambda name: family_reads(_family(name), *reading)))
    rules: dict[str, type[Rule]] = {}
    _add_rules(rules, found, Pack(BUILTIN_PACK, pack.CODE_PREFIX, "built in", ()))
    return dict(sorted(rules.items()))


def family_reads(family: Any, inputs: frozenset[str], test_table: bool) -> bool:
    """Whether the rules of a family of the built-in pack (its package, or None: a module at the pack's top) may read
    ``inputs``: a family declares the inputs its rules read (``INPUTS``, keys of :data:`~nblint.engine.rule.INPUTS`),
    and whether they all compare a table with its test table (``READS_TEST_TABLE``); one declaring neither may read
    anything. A test holds every rule to its family's declaration."""
    declared = getattr(family, "INPUTS", None)
    if declared is not None and not inputs & set(declared):
        return False
    return test_table or not getattr(family, "READS_TEST_TABLE", False)


def _family(name: str) -> Any:
    """The family package of a module of the built-in pack (``nblint_rules.counts.nb201_...``), or None."""
    parts = name.split(".")
    return sys.modules.get(".".join(parts[:2])) if len(parts) > 2 else None


def _may_read(rule: type[Rule], reading: tuple[frozenset[str], bool]) -> bool:
    """Whether :func:`load_rules` of ``reading`` has ``rule``: a third-party pack's always, a built-in one by its family."""
    if not rule.__module__.startswith(BUILTIN_PACK + "."):
        return True
    return family_reads(_family(rule.__module__), *reading)


def loaded_packs() -> list[Pack]:
    """The packs :func:`load_rules` loaded, the built-in one first."""
    load_rules()
    assert _PACKS is not None
    return _PACKS


def _pack_entries() -> list[tuple[str, str]]:
    """(entry point name, import name) of every pack, the built-in one first."""
    entries = entry_points(ENTRY_POINT_GROUP)
    if BUILTIN_PACK not in [module for _, module in entries]:
        # Running from a source tree that was not installed: the built-in pack is still ours.
        entries.insert(0, ("builtin", BUILTIN_PACK))
    entries.sort(key=lambda entry: entry[1] != BUILTIN_PACK)  # (stable: the others keep their order)
    unique: dict[str, tuple[str, str]] = {}
    for name, module in entries:  # a pack registered twice is loaded once, under its first entry point
        unique.setdefault(module, (name, module))
    return list(unique.values())


def _pack(entry: str, module: str, rules: list[type[Rule]]) -> Pack:
    """The prefix a pack owns: its entry point's name (``MP = my_pack``), its ``CODE_PREFIX``, else its codes' common start.

    The built-in pack owns ``NB``.
    """
    codes = tuple(sorted(rule.code for rule in rules))
    if module == BUILTIN_PACK:
        return Pack(module, importlib.import_module(module).CODE_PREFIX, "built in", codes)
    prefix: Any
    if PREFIX_PATTERN.match(entry):
        prefix, declared = entry, "its entry point"
    else:
        prefix = getattr(importlib.import_module(module), "CODE_PREFIX", None)
        declared = "CODE_PREFIX"
        if prefix is None:
            # the codes' common start, up to the letters and two digits (NB901 and NB902: NB90)
            shared = re.match(r"[A-Z]{1,8}\d{0,2}", os.path.commonprefix(list(codes)))
            prefix, declared = (shared.group() if shared else ""), "its codes"
    if not isinstance(prefix, str) or not PREFIX_PATTERN.match(prefix):
        raise PackError(
            f"rule pack {module!r}: code prefix {prefix!r} (from {declared}) is not letters followed by at most "
            "two digits; name the entry point after the prefix (MP = my_pack) or set CODE_PREFIX in the package"
        )
    return Pack(module, prefix, declared, codes)


def _check_rule(rule: type[Rule], pack: Pack) -> None:
    where = f"rule {rule.__qualname__} of pack {pack.module!r}"
    if not CODE_PATTERN.match(rule.code):
        raise PackError(f"{where} has a malformed code {rule.code!r} (letters, then three digits: MP101)")
    if not rule.code.startswith(pack.prefix):
        raise PackError(
            f"{where}: code {rule.code} is outside the prefix {pack.prefix!r} the pack owns (from {pack.declared})"
        )
    if pack.module == BUILTIN_PACK and rule.code.startswith(left_to_packs()):
        raise PackError(
            f"{where}: built-in codes never start with {left_to_packs()}, which is left to third-party packs"
        )
    if not rule.inputs or not set(rule.inputs) <= set(INPUTS):
        raise PackError(f"{where} reads {rule.inputs!r} (expected some of {', '.join(INPUTS)})")
    if rule.status not in STATUSES:
        raise PackError(f"{where} has the status {rule.status!r} (expected one of {', '.join(STATUSES)})")


def left_to_packs() -> str:
    """The part of the built-in prefix left to third-party packs (NB9): no built-in code starts with it."""
    return importlib.import_module(BUILTIN_PACK).LEFT_TO_PACKS


def _check_owners(packs: list[Pack]) -> None:
    """No two packs own overlapping prefixes, and no code of one pack falls inside another's prefix.

    The built-in pack owns NB but NB9, which third-party packs may share out (``NB9 = my_pack``,
    or codes NB901-NB909 of a pack owning NB90).
    """
    for pack in sorted(packs, key=lambda pack: pack.module == BUILTIN_PACK):  # a third-party claim is named first
        for other in packs:
            if other is pack:
                continue
            inside = [
                code
                for code in other.codes
                if code.startswith(pack.prefix)
                and not (pack.module == BUILTIN_PACK and code.startswith(left_to_packs()))
            ]
            if inside:
                raise PackError(
                    f"rule pack {pack.module!r} owns the code prefix {pack.prefix!r} (from {pack.declared}), but "
                    f"{'the built-in pack' if other.module == BUILTIN_PACK else f'rule pack {other.module!r}'} "
                    f"has {', '.join(inside[:3])} inside it: each pack's codes start with a prefix of its own"
                )
            if other.module != BUILTIN_PACK and pack.module != BUILTIN_PACK and other.prefix.startswith(pack.prefix):
                raise PackError(
                    f"rule packs {pack.module!r} and {other.module!r} both own codes starting {other.prefix!r}: "
                    "each pack's codes start with a prefix of its own"
                )


def _check_lives(rules: dict[str, type[Rule]], renamed: dict[str, str]) -> None:
    """A replacement or a narrowing names a rule that is there; a renamed code is no rule's code and leads to one."""
    for code, rule in rules.items():
        if rule.replaced_by and rule.replaced_by not in rules:
            raise PackError(f"rule {code} is replaced by {rule.replaced_by}, which no pack defines")
        for narrowing in rule.narrowed:
            if narrowing.to not in rules:
                raise PackError(
                    f"rule {code} was narrowed to leave {narrowing.what} to {narrowing.to}, which no pack defines"
                )
    for old, new in renamed.items():
        if old in rules:
            raise PackError(f"{old} is renamed {new} but is still the code of {rules[old].__qualname__}")
        if new not in rules:
            raise PackError(f"{old} is renamed {new}, which no pack defines")


def _rules_in_package(package_name: str, wanted: Callable[[str], bool] | None = None) -> Iterator[type[Rule]]:
    """The rules of a package's modules, in module order, then definition order; ``wanted``: the modules to import
    (by name; its subpackages are imported anyway, to list their modules)."""
    # (the collector paused: a pack's modules and rule classes live as long as the process, no cycles to find young)
    with collector_paused():
        package = importlib.import_module(package_name)
        modules = [package]
        if hasattr(package, "__path__"):
            for name, _ in walk_modules(package):
                if wanted is None or wanted(name):
                    modules.append(importlib.import_module(name))
    for module in modules:
        for obj in list(vars(module).values()):  # (in definition order; inspect.getmembers sorts every name)
            if (
                isinstance(obj, type)
                and issubclass(obj, Rule)
                and obj is not Rule
                and obj.__module__ == module.__name__
                and obj.code
            ):
                yield obj


#: Renamed built-in codes: old code -> new code. Selections (``--select``, ``--ignore``, the
#: config's lists) and suppression comments written with an old code act on the new one, with a
#: warning. A pack adds its own with a ``RENAMED_CODES`` mapping in its package (see
#: :func:`renamed_codes`). No built-in code has been renamed in a release yet.
RENAMED: dict[str, str] = {}


def renamed_codes() -> dict[str, str]:
    """Every renamed code of every pack (:data:`RENAMED` and each pack's ``RENAMED_CODES``), old -> new."""
    if _RENAMED is None and _builtin_only():
        return dict(RENAMED)  # (nothing to import for them: the built-in pack's are here)
    load_rules()
    assert _RENAMED is not None
    return _RENAMED


# --------------------------------------------------------------------------- running


def run_rules(ctx, codes: list[str], rule_options: dict[str, dict[str, Any]]) -> list[Finding]:
    """Run the chosen rules that read what ``ctx`` holds (``ctx.input``: a table or a pipeline); sorted findings.

    Only the rules that may read what ``ctx`` offers are loaded (:func:`load_rules` of its input, and of its
    test table where it has one): a chosen code of another family is one that could not run on it.
    """
    rules = load_rules((ctx.input,), test_table=getattr(ctx, "test", None) is not None)
    findings: list[Finding] = []
    with collector_paused():  # (a vocabulary's kinds and findings: many small objects, few cycles)
        for code in codes:
            rule_cls = rules.get(code)
            if rule_cls is None or not applies(rule_cls, ctx):
                continue
            rule = rule_cls(rule_options.get(code))
            found = list(rule.check(ctx))
            limit = rule.option_values.get(SUMMARIZE_ABOVE.name)
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
        finding.evidence = jsonable(finding.evidence)


class RuleOptions(dict[str, dict[str, Any]]):
    """Every rule's option values (code -> option name -> value), defaults filled in, resolved once for a run.

    The analysis settings, the shared options typed (:class:`~nblint.engine.settings.AnalysisSettings`),
    are read from them once, here, whoever asks first (the run's profile or the analysis context).
    ``reading``: the inputs of :func:`load_rules` the options are of (None: every rule's).
    """

    def __init__(self, values=(), reading: tuple[Collection[str], bool] | None = None):
        super().__init__(values)
        self.reading = reading

    @cached_property
    def analysis(self) -> AnalysisSettings:
        """The analysis settings of these option values."""
        rules = load_rules() if self.reading is None else load_rules(*self.reading)
        return AnalysisSettings.from_options(rules, self)


def resolved_options(
    overrides: dict[str, dict[str, Any]] | None = None, inputs: Collection[str] | None = None, test_table: bool = True
) -> RuleOptions:
    """Every rule's options with defaults filled in and overrides applied.

    With ``inputs``, those of the rules of :func:`load_rules` of ``inputs`` and ``test_table``, and of any rule
    ``overrides`` names; another rule run on them gets its defaults, as here (:meth:`Rule.__init__`).
    """
    overrides = overrides or {}
    rules = load_rules(inputs, test_table)
    if inputs is not None and not set(overrides) <= set(rules):  # (a configured rule: every rule is loaded anyway)
        every = load_rules()
        rules = dict(sorted((rules | {code: every[code] for code in overrides if code in every}).items()))
    return RuleOptions(
        ((code, {o.name: o.default for o in rule.options} | overrides.get(code, {})) for code, rule in rules.items()),
        reading=None if inputs is None else (tuple(inputs), test_table),
    )


def shared_settings(rule_options: dict[str, dict[str, Any]]) -> AnalysisSettings:
    """The analysis settings: every shared option's resolved value, typed (:class:`~nblint.engine.settings.AnalysisSettings`).

    Resolved once per :class:`RuleOptions` (what :func:`resolved_options` returns); other option tables each time.
    """
    if isinstance(rule_options, RuleOptions):
        return rule_options.analysis
    return AnalysisSettings.from_options(load_rules(), rule_options)


def rule_record(rule: type[Rule]) -> dict[str, Any]:
    """A rule as data, for ``nblint rules --format json``.

    Returns
    -------
    dict
        ``code``, ``name``, ``severity`` (the default one), ``summary`` (the first
        line of the documentation), ``inputs`` (what the rule reads: ``table``,
        ``pipeline``, ...), ``needs_target`` (skipped without ``--target``),
        ``status`` (``stable``, ``preview``, ``deprecated`` or ``removed``), ``since``
        (the version of that status), ``replaced_by`` (a code, or null), ``narrowed`` (what
        other rules report now that this one reported before: ``what``, ``to``, ``since``), ``models``
        (the declared event models the rule runs under, null standing for "no model
        declared"; empty: it runs whatever the model), ``options`` (each with
        ``name``, ``default`` and ``doc``) and ``documentation`` (what ``nblint rule
        CODE`` prints).
    """
    return {
        "code": rule.code,
        "name": rule.name,
        "severity": str(rule.severity),
        "summary": rule.summary(),
        "inputs": list(rule.inputs),
        "needs_target": rule.needs_target,
        "status": rule.status,
        "since": rule.since,
        "replaced_by": rule.replaced_by,
        "narrowed": [{"what": n.what, "to": n.to, "since": n.since} for n in rule.narrowed],
        "models": sorted(rule.models, key=lambda m: (m is not None, m or "")),
        "options": [{"name": opt.name, "default": opt.default, "doc": opt.doc} for opt in rule.options],
        "documentation": rule.documentation(status=True),
    }


def describe(rule: type[Rule]) -> str:
    """One line for ``nblint rules`` (a rule that is not stable has its status after its summary)."""
    status = "" if rule.status == "stable" else f" ({rule.status})"
    return f"{rule.code}  {rule.name:<28} {str(rule.severity):<8} {rule.summary()}{status}"
