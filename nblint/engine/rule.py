"""A rule: its metadata and options, its documentation, and the findings it builds.

A rule is a small class: metadata (``code``, ``name``, ``severity``, ``options``,
``inputs``), a docstring in fixed sections, and :meth:`Rule.check` yielding
findings. A rule reads tables (the default, ``inputs = ("table",)``: its ``check``
gets a :class:`nblint.analysis.context.TableContext`) or pipeline configs
(``inputs = ("pipeline",)``: a :class:`nblint.pipelines.PipelineContext`). On a
wide table a rule that fires on many columns for one reason says it once
(:meth:`Rule.summarize`); evidence becomes plain JSON once, for the findings kept
(:func:`jsonable`).
"""

from __future__ import annotations

import inspect
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from nblint.engine.findings import Finding, Severity
from nblint.engine.messages import SUFFIXES, SUMMARY, finding_fields, render

DOC_SECTIONS = ("What it does", "Why is this bad?", "Example", "Use instead")
#: The kinds of input a rule can read, and how ``nblint rule CODE`` describes each.
INPUTS = {
    "table": "tables",
    "pipeline": "pipeline configs (YAML, JSON, TOML, Python) and live pipelines",
    "live": "live pipelines given with their training data (nblint.check_pipeline)",
}
#: A rule's life, as ruff's: what each status means to selection (:func:`nblint.engine.select_rules`).
STATUSES = {
    "stable": "runs when selected, by its code, a prefix of it or ALL",
    "preview": "runs only when selected by its code or name, or with --preview (preview = true in the config)",
    "deprecated": "still runs when selected, with a warning naming what replaces it",
    "removed": "never runs; selecting it by its code or name is refused, naming what replaces it",
}


@dataclass(frozen=True)
class Narrowing:
    """A part of what a rule reported that another rule reports now (its lifecycle, beside ``status``).

    A stable rule keeps its code when it is narrowed; ``nblint rule CODE`` and ``nblint rules
    --format json`` say what moved where, and naming the rule in ``select``/``ignore`` warns once.
    """

    #: What the rule no longer reports, as a noun phrase (``one-hot and dummy groups``).
    what: str
    #: The code of the rule that reports it now.
    to: str
    #: The nblint version that moved it.
    since: str

    def sentence(self) -> str:
        """``one-hot and dummy groups are NB307's since 0.1.0``."""
        return f"{self.what} are {self.to}'s since {self.since}"


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
    #: An analysis setting as well: rules and analyses read it as ``ctx.settings.<name>`` (:class:`~nblint.engine.settings.AnalysisSettings`), whichever rule declares it.
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


#: Words of a document-term block a summary's evidence lists with their cost (the costliest: the evidence
#: of a rule that fires on every word stays bounded; the finding's columns name every word).
LISTED_TERMS = 100

#: The option of a rule that reports one finding per column: past this many columns for one reason, it
#: reports once for the table (see :meth:`Rule.summarize`). A rule opts in by listing it in its ``options``.
SUMMARIZE_ABOVE = Option(
    "summarize-above",
    50,
    "On a wide table, more than this many columns reported for one reason become one finding for the table "
    "(count, share, the costliest examples; every column in the finding and in the evidence, but for a block of "
    "words, whose 100 costliest the evidence lists). Narrow tables keep a finding per column; "
    "the words of a document-term block say it once at any number (unless this is raised above its default).",
    minimum=1,
)


def _bad(option: Option, value: Any):
    raise ValueError(f"expected {option.expected()}, got {value!r}")


class Rule:
    """Base class of every rule.  Subclasses set the class attributes and ``check``.

    The class docstring is the rule's documentation: a one-line summary, then the
    sections ``## What it does``, ``## Why is this bad?``, ``## Example`` and
    ``## Use instead``.  ``nblint rule CODE`` prints it with the options.

    Messages are templates over evidence (:mod:`nblint.engine.messages`, ruff's way): the
    rule declares :attr:`messages`, one template per sentence shape (variant name -> template
    in :meth:`str.format` syntax with a few named specs: ``{columns:names}``,
    ``{n_rows:plural(row)}``), and :meth:`finding` renders the variant's template over the
    finding's evidence (and its ``column``, ``columns`` and ``rows``). So every number a
    message shows is a value of its evidence by construction: a template that needs one more
    value adds it to the evidence, never computes it in the message. The contract checks it
    (:mod:`nblint.testing.templates`): each template parses, its literal words write no
    number but notation (``0/1``, ``K-1``, ``NB104``) and the rule's
    :attr:`message_constants`, and each finding's message is its template over its fields.
    """

    code: ClassVar[str] = ""
    name: ClassVar[str] = ""
    severity: ClassVar[Severity] = Severity.WARNING
    options: ClassVar[tuple[Option, ...]] = ()
    #: The rule needs ``--target`` (skipped without one).
    needs_target: ClassVar[bool] = False
    #: The declared event models the rule applies to (names of :data:`nblint.core.models.MODELS`;
    #: None: no model declared); empty: any. The engine skips the rule otherwise, as it does a
    #: rule that needs a target without one.
    models: ClassVar[frozenset[str | None]] = frozenset()
    #: What the rule reads: keys of :data:`INPUTS`; a context runs the rules whose inputs include its own.
    inputs: ClassVar[tuple[str, ...]] = ("table",)
    #: The rule compares the table with its test or serving table (``ctx.test``) and says nothing
    #: without one: a check of one table alone (a pandera schema) leaves it out.
    reads_test_table: ClassVar[bool] = False
    #: The rule's status, a key of :data:`STATUSES`: new rules may start in ``"preview"``.
    status: ClassVar[str] = "stable"
    #: The nblint version that first shipped the rule (every built-in rule declares it).
    since: ClassVar[str] = ""
    #: For a deprecated or removed rule: the code of the rule to use instead ("" when none does).
    replaced_by: ClassVar[str] = ""
    #: What another rule reports now that this one reported before (:class:`Narrowing`); the rule keeps its code.
    narrowed: ClassVar[tuple[Narrowing, ...]] = ()
    #: The rule's messages: variant name -> template over a finding's fields (:mod:`nblint.engine.messages`),
    #: one per sentence shape (``{"constant": "column {column!r} has the same value ({value}) on every row"}``).
    messages: ClassVar[Mapping[str, str]] = {}
    #: Numbers the rule's templates write in their words, explaining with rather than measuring (the codes
    #: 0, 1 and 2 of an example): the contract's template check allows them in the literal text.
    message_constants: ClassVar[frozenset[float]] = frozenset()
    #: Contract checks the rule is known to fail, each with the reason (check name -> why), as
    #: scikit-learn's ``expected_failed_checks``: :func:`nblint.testing.parametrize_with_checks` marks
    #: them as expected failures, and :func:`nblint.testing.stale_exemptions` tells when one is no longer needed.
    contract_exemptions: ClassVar[dict[str, str]] = {}
    #: Row-level checks (by name) whose failing rows are this rule's finding, e.g. the pandera
    #: check ``nblint_sum_to_one`` of a one-hot group's columns: integrations map them back to the rule.
    row_checks: ClassVar[tuple[str, ...]] = ()

    def __init__(self, option_values: dict[str, Any] | None = None):
        #: This rule's option values (option name -> value): each option's default, the configuration's applied.
        self.option_values = {opt.name: opt.default for opt in self.options} | dict(option_values or {})

    @property
    def settings(self) -> dict[str, Any]:
        """The former name of :attr:`option_values`, kept for rule packs that read ``self.settings[...]``."""
        return self.option_values

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

    def summary_evidence(self, ctx, findings: list[Finding]) -> dict[str, Any]:
        """What a summary's template reads beside its count, share, examples and columns (``findings`` ranked by cost).

        A rule that words its own summary (a ``summary`` variant in :attr:`messages`) adds
        here the values it shows (the target, the least share among the columns); the
        default adds nothing.
        """
        return {}

    def summary_variant(self, ctx, findings: list[Finding]) -> str:
        """The variant of a summary's message: ``summary`` (the rule's own, else the engine's :data:`SUMMARY`)."""
        return "summary"

    def summarize(self, ctx, findings: list[Finding], limit: int) -> list[Finding]:
        """Say once what this rule found on more than ``limit`` columns of one table for one reason.

        When more than ``limit`` findings are about one column each, they are grouped by
        :meth:`reason` (the class, say), and each group becomes one finding with the count,
        the share of the features, the costliest instances (:meth:`cost`) in the message and
        every column, in table order, in ``columns`` and the evidence. A group of one, and
        findings about several columns, stay as they are; a narrow table, where a rule cannot
        fire on more than ``limit`` columns, keeps one finding per column, but for the words of a
        document-term block, which are grouped whatever their number.
        """
        per_column = [f for f in findings if len(f.columns) == 1]
        if len(per_column) <= limit:
            # A block of words says it once at any size (text is text, DESIGN 4d): only its words'
            # findings are grouped, the table's other columns keep one finding each; unless the
            # user raised the option above its default to see every column.
            if limit > SUMMARIZE_ABOVE.default:
                return findings
            terms: frozenset[str] = getattr(ctx, "term_columns", frozenset())
            per_column = [f for f in per_column if f.columns[0] in terms]
            if len(per_column) <= 1:
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
            columns, costs = [f.columns[0] for f in ranked], [self.cost(f) for f in ranked]
            variant, extra = self._summary_variant(ctx, ranked), self.summary_evidence(ctx, ranked)
            kept.append(self.summary_finding(ctx, variant, ranked[:10], columns, costs, extra))
        return kept

    def _summary_variant(self, ctx, ranked: list[Finding]) -> str:
        """The summary's variant (a pack's rule that overrides the former ``summary_message`` hook keeps its literal message)."""
        legacy = getattr(self, "summary_message", None)
        if legacy is None:
            return self.summary_variant(ctx, ranked)
        return legacy(ctx, ranked, len(ranked) / _n_features(ctx))

    def summary_finding(
        self,
        ctx,
        variant: str,
        examples: list[Finding],
        columns: Sequence[str],
        costs: Sequence[float],
        extra: Mapping[str, Any] | None = None,
    ) -> Finding:
        """The one finding for many columns reported for one reason (see :meth:`summarize`).

        Every column is in the finding's ``columns``; the evidence lists each with its cost, but
        for the words of a document-term block, of which it lists the :data:`LISTED_TERMS` costliest
        (a vocabulary of a million words would be a million entries held until the report is written).

        Parameters
        ----------
        variant : str
            What :meth:`summary_variant` says (``summary``): its template is rendered over the evidence.
        examples : list of Finding
            The per-column findings of the costliest columns (at most ten are kept), costliest first.
        columns, costs : sequences
            Every column reported, costliest first, and its cost (a float each).
        extra : mapping, optional
            What the template reads beside the count, share, examples and columns: by default
            :meth:`summary_evidence` of the examples; :meth:`summarize` gives it every finding
            summarised (a least share is over all of them, not the ten shown).
        """
        order = ctx.table_order
        listed = len(columns)
        terms: frozenset[str] = getattr(ctx, "term_columns", frozenset())
        if listed > LISTED_TERMS and terms.issuperset(columns):
            listed = LISTED_TERMS  # (a block of words: the costliest; ``instances`` counts them all)
        evidence = {
            "instances": len(columns),
            "share": len(columns) / _n_features(ctx),
            "examples": [{"column": f.columns[0], "message": f.message, **f.evidence} for f in examples[:10]],
            "columns": _ranked_columns(columns[:listed], costs[:listed]),
            **(self.summary_evidence(ctx, examples) if extra is None else extra),
        }
        try:  # (a vocabulary's ten thousand words: a bound look-up, not a lambda per word)
            in_table_order = sorted(columns, key=order.__getitem__)
        except KeyError:  # a column outside the table (none of the built-in rules reports one)
            in_table_order = sorted(columns, key=lambda c: order.get(c, 0))
        return self.finding(
            ctx,
            variant,
            columns=in_table_order,
            evidence=evidence,
            fix=examples[0].fix,
            severity=examples[0].severity,
        )

    # ---------------------------------------------------------------- helpers

    @classmethod
    def template(cls, variant: str) -> str | None:
        """The template of ``variant``: the rule's (:attr:`messages`), the engine's ``summary``, with its suffixes.

        ``VARIANT+SUFFIX`` is ``VARIANT``'s template followed by :data:`~nblint.engine.messages.SUFFIXES`'s
        ``SUFFIX``. None when the rule has no such variant.
        """
        base, *suffixes = variant.split("+")
        template = cls.messages.get(base, SUMMARY if base == "summary" else None)
        if template is None or any(suffix not in SUFFIXES for suffix in suffixes):
            return None
        return template + "".join(SUFFIXES[suffix] for suffix in suffixes)

    def finding(
        self,
        ctx,
        variant: str = "",
        *,
        message: str | None = None,
        columns=(),
        rows=(),
        evidence=None,
        fix: str = "",
        severity: Severity | None = None,
        line: int | None = None,
        figure: dict | None = None,
    ) -> Finding:
        """Build a finding of this rule for the table in ``ctx``, its message the ``variant``'s template over its fields.

        Parameters
        ----------
        variant : str
            A key of :attr:`messages` (or ``summary``, see :meth:`template`): the message is
            :func:`~nblint.engine.messages.render` of its template over the evidence, ``column``,
            ``columns`` and ``rows``. While rules move to templates, a text that is no variant
            (or ``message=``) is taken as the literal message.
        figure : dict, optional
            See :class:`Finding`.
        """
        columns, rows, evidence = list(columns), list(rows), dict(evidence or {})
        template = self.template(variant) if message is None else None
        if template is not None:
            message = render(template, finding_fields(evidence, columns, rows))
        elif message is None:
            message, variant = variant, ""  # (a literal message, before its rule moved to templates)
        else:
            variant = ""
        return Finding(
            code=self.code,
            name=self.name,
            severity=severity or self.severity,
            message=message,
            path=ctx.path,
            columns=columns,
            rows=rows,
            line=line,
            # As given: :func:`run_rules` makes the evidence of the findings it keeps plain JSON (a wide
            # table's per-column findings are mostly folded into one summary, their evidence never shown).
            evidence=evidence,
            fix=fix,
            figure=figure,
            variant=variant,
        )

    @classmethod
    def summary(cls) -> str:
        doc = inspect.getdoc(cls) or ""
        return doc.strip().splitlines()[0] if doc.strip() else ""

    @classmethod
    def status_line(cls) -> str:
        """``Status: stable, since 0.1.0.`` (a deprecated or removed rule names what replaces it, a narrowed one what moved)."""
        line = f"Status: {cls.status}" + (f", since {cls.since}" if cls.since else "")
        if cls.status in ("deprecated", "removed"):
            line += f"; use {cls.replaced_by} instead" if cls.replaced_by else "; nothing replaces it"
        line += "".join(f"; narrowed: {narrowing.sentence()}" for narrowing in cls.narrowed)
        return line + "."

    @classmethod
    def documentation(cls, status: bool = False) -> str:
        """The full documentation: header, docstring sections and options.

        ``status`` adds the :meth:`status_line` (``nblint rule CODE`` prints it; the SARIF
        log's help text, a golden file, has none).
        """
        doc = inspect.getdoc(cls) or ""
        lines = [
            f"# {cls.name} ({cls.code})",
            "",
            *([cls.status_line()] if status else []),
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


def _ranked_columns(columns: Sequence[str], costs: Sequence[float]) -> _Plain:
    """A summary's every column with its cost, as plain JSON already (not walked again by :func:`settle`).

    A vocabulary has tens of thousands: whole costs below a million (rows, documents) are
    plain as they are (as floats), checked at once; any other cost is made plain one by one.
    """
    import numpy as np

    values = np.asarray(costs, dtype=np.float64)
    plain: list = values.tolist()
    if not (np.all(values == np.floor(values)) and np.all(np.abs(values) < 1e6)):
        plain = [cost if cost.is_integer() and abs(cost) < 1e6 else jsonable(cost) for cost in plain]
    return _Plain([{"column": str(column), "cost": cost} for column, cost in zip(columns, plain)])


class _Plain(list):
    """A list of evidence that is plain JSON already (see :meth:`Rule.summary_finding`)."""


def jsonable(value: Any) -> Any:
    """Evidence as plain JSON types, floats rounded for stable, readable output."""
    import math

    import numpy as np

    kind = type(value)  # the plain types first: evidence is mostly made of them (wide tables make a lot of it)
    if kind is str or kind is int or kind is bool or value is None or kind is _Plain:
        return value
    if isinstance(value, str):
        return str(value)  # (a string enum, such as a column's kind, as its value)
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
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
