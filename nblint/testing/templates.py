"""The contract's checks of messages: templates over evidence (:mod:`nblint.engine.messages`).

A finding's message is written for a person, its evidence (``--format json``) for a
program: a number the message shows and the evidence lacks can be neither checked nor
used by a tool. With messages as templates, that holds by construction when two things
hold, which these checks assert:

* :func:`check_templates` (the rule alone): every template of ``Rule.messages`` parses,
  reads named fields only, with named specs that exist, and its literal words write no
  number but notation (``0/1``, ``0..K-1``, ``K-1``), digits joined to letters (``NB104``,
  ``log2``) and the rule's ``message_constants`` (the codes 0, 1 and 2 of an example);
* :func:`check_finding_messages` (the findings of a run): each finding's ``variant`` is one
  of the rule's (:meth:`nblint.engine.Rule.template`), every value its template reads is
  plain JSON (a numpy scalar would print ``np.float64(0.5)``), and its message is the
  template rendered over the finding's fields as the report writes them (numbers to 6
  digits: a message showing more digits than its evidence holds fails). :func:`check_json_messages` does the same on findings as JSON (``--format json``,
  without their variant): the message is one of the rule's templates over the fields.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from typing import Any

from nblint.engine import Rule
from nblint.engine.findings import Finding
from nblint.engine.messages import (
    NAMED_SPECS,
    SUFFIXES,
    field_root,
    fields_of,
    finding_fields,
    literal_text,
    named_spec,
    render,
)
from nblint.engine.rule import jsonable

#: Notation, not quantities: the values of a bit, the codes CategoricalNB takes, the terms of a formula.
_NOTATION = re.compile(r"(?<![\w.])(?:0/1|0\.\.K-1|[A-Za-z]\s?[-+*/]\s?\d+)(?![\w])")
#: A number written in words: digits not joined to letters (``NB104``, ``log2`` and ``3rd`` are names).
_NUMBER = re.compile(r"(?<![\w.])\d+(?:\.\d+)?(?![\w])")
#: A format spec that calls a named spec: a name and arguments in parentheses.
_CALL = re.compile(r"^(?P<name>[a-z]+)\(")


def check_templates(rule: type[Rule]) -> None:
    """Every template of the rule parses, reads named fields with known specs, and writes no measured number.

    Raises
    ------
    AssertionError
        Naming the rule, the variant and what is wrong.
    """
    constants = {float(c) for c in rule.message_constants}
    for variant, template in {**rule.messages, **{f"+{name}": words for name, words in SUFFIXES.items()}}.items():
        where = f"{rule.code} message {variant!r}"
        assert re.fullmatch(r"\+?[a-z][a-z0-9_]*", variant), f"{where}: a variant is a snake_case word"
        try:
            fields = fields_of(template)
        except ValueError as exc:
            raise AssertionError(f"{where} does not parse: {exc}\n{template}") from None
        for name, spec in fields:
            assert name and not name[0].isdigit(), f"{where}: a field is read by name, not position ({{{name}}})"
            call = _CALL.match(spec)
            if call is not None:
                assert named_spec(spec) is not None, (
                    f"{where}: {{{name}:{spec}}} names no spec of {sorted(NAMED_SPECS)}"
                )
        words = _NOTATION.sub(" ", literal_text(template))
        shown = [n for n in _NUMBER.findall(words) if float(n) not in constants]
        assert not shown, (
            f"{where} writes {', '.join(shown)} in its words: a number measured goes in the evidence and the "
            f"template reads it ({{field}}); one the message explains with goes in message_constants\n{template}"
        )


def check_finding_messages(rule: type[Rule], findings: Iterable[Finding], where: str) -> None:
    """Each finding's message is its variant's template over its fields, every field read plain JSON.

    Parameters
    ----------
    rule : subclass of nblint.engine.Rule
    findings : iterable of Finding
        As the rule made them (before the engine makes their evidence plain JSON).
    where : str
        The input, for the assertion's message.
    """
    for finding in findings:
        said = f"{rule.code} on {where}: {finding.message!r}"
        template = rule.template(finding.variant) if finding.variant else None
        assert template is not None, (
            f"{said} has variant {finding.variant!r}, not one of {sorted(rule.messages)}: "
            "a message is a template of Rule.messages (self.finding(ctx, 'variant', evidence=...))"
        )
        fields = finding_fields(finding.evidence, finding.columns, finding.rows)
        for name, _ in fields_of(template):
            root = field_root(name)
            assert root in fields, f"{said}: the template reads {{{name}}}, which its evidence lacks"
            assert _plain(fields[root]), (
                f"{said}: the template reads {{{name}}} = {fields[root]!r}, which is not plain JSON "
                "(make the evidence a Python number, text, list or dict)"
            )
        reported = _as_reported(finding.evidence)
        expected = render(template, finding_fields(reported, finding.columns, finding.rows))
        assert finding.message == expected, (
            f"{said} is not its template over its evidence as JSON (a number the message shows that the "
            f"evidence lacks, or shows with more digits):\n{finding.message}\n{expected}"
        )


def check_json_messages(rule: type[Rule], findings: Iterable[dict[str, Any]], where: str) -> None:
    """Each finding (as JSON, without its variant) says one of the rule's templates over its fields."""
    variants = [*rule.messages, "summary"]
    templates = [rule.template(v) for v in variants] + [rule.template(f"{v}+{s}") for v in variants for s in SUFFIXES]
    for finding in findings:
        fields = finding_fields(finding.get("evidence", {}), finding.get("columns", []), finding.get("rows", []))
        rendered = []
        for template in filter(None, templates):
            try:
                rendered.append(render(template, fields))
            except (KeyError, IndexError, TypeError, ValueError, AttributeError):
                continue  # (a template of another variant, reading fields this finding has not)
        assert finding["message"] in rendered, (
            f"{rule.code} on {where}: {finding['message']!r} is none of the rule's templates over its evidence"
        )


def _as_reported(value: Any) -> Any:
    """Evidence as the report writes it (:func:`nblint.engine.settle`: numbers to 6 digits, numpy made plain), but
    an infinite or missing number kept a number (the report writes it as text, ``"inf"``, or null)."""
    if isinstance(value, dict):
        return {str(key): _as_reported(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_as_reported(item) for item in value]
    if isinstance(value, float) and not math.isfinite(value):
        return float(value)
    return jsonable(value)


def _plain(value: Any) -> bool:
    """Whether ``value`` is plain JSON: text (a string enum too), a Python number, True/False/None, lists and dicts of them.

    A numpy scalar is not: ``{x!r}`` of one prints ``np.float64(0.5)``.
    """
    kind = type(value)
    if kind in (int, float, bool) or isinstance(value, str) or value is None:
        return True
    if isinstance(value, (list, tuple)):
        return all(_plain(item) for item in value)
    if isinstance(value, dict):
        return all(isinstance(key, str) and _plain(item) for key, item in value.items())
    return False
