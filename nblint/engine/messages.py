"""Messages as templates over evidence: the one formatter every finding's message is rendered with.

A rule declares its messages as templates, one per sentence shape (``Rule.messages``,
variant name -> template), and builds a finding with ``self.finding(ctx, "variant",
evidence=...)``: the message is :func:`render` of the variant's template over the
finding's *fields*, so every number a message shows is a value of its evidence by
construction, formatted as the template says.

The fields
----------
The finding's evidence keys, plus ``column`` (its one column, when it names exactly one),
``columns`` (its list of columns) and ``rows`` (its list of rows; an evidence key of the
same name, a count of rows, takes precedence). Nothing else: a template that needs a value
the evidence lacks adds it to the evidence.

The syntax
----------
Standard :meth:`str.format` (``{share:.0%}``, ``{n:,}``, ``{value!r}``, ``{p:.3g}``,
``{examples[0][message]}``), plus the named format specs below, which print the
project's usual wording of a value. A named spec may take arguments in parentheses
and, after a colon, a standard spec for the number it shows (``{n:plural(row):,}``):

``names`` / ``names(LIMIT)``
    A list of column names, at most LIMIT (default 6) then the count:
    ``a, b, c, ... (12 columns)`` (:func:`fmt_columns`).
``count``
    How many items a list has: ``{binary:count} binary columns``.
``joined``
    The items of a list joined by commas as they are: ``onehotencoder, standardscaler``.
``pairs``
    A mapping as ``key: value; key: value`` (``bernoulli: 2; gaussian: 3``).
``quoted``
    Each item of a list quoted as Python writes it, joined by commas: ``'a', 'b'``
    (a single value: ``'a'``).
``level``
    A level as users wrote it, 3 rather than 3.0 (:func:`fmt_value`; a list: joined by commas).
``label``
    A class label quoted as users wrote it, ``'3'`` (:func:`fmt_class`; a list: joined by commas).
``number``
    A whole number as one, any other to 4 significant digits: ``12``, ``0.3333`` (:func:`fmt_number`).
``share``
    A probability as a percentage to one decimal, or to its first digit where that would
    show 0.0%: ``12.5%``, ``0.005%`` (:func:`fmt_share`).
``plural(NOUN)`` / ``plural(NOUN,PLURAL)``
    The number and the noun agreeing with it: ``1 row``, ``3 rows``, ``2 classes`` with
    ``plural(class,classes)``; the noun alone is ``NOUN`` for exactly one, else ``PLURAL``
    (default: ``NOUN`` + ``s``). A list or a mapping counts its items.
``choose(ONE,MANY)``
    The word alone agreeing with the number (``{n:choose(has,have)}``), no number shown.
``chance``
    A probability as odds where it is small: ``about 1 in 3e+12`` below 1%, else ``2.50%``
    (:func:`fmt_chance`).
``likely``
    The variable a group's names share a stem with, after its columns: `` (likely variable
    'colour')``, nothing for no stem (:func:`fmt_likely`; only names make a group an encoded
    variable with a name, DESIGN 4b, so without one the message names none).

Engine templates
----------------
Two messages are the engine's, not a rule's (:meth:`nblint.engine.Rule.template` finds them):

* ``summary``: the one finding for many columns reported for one reason on a wide table
  (:data:`SUMMARY`; a rule words its own by declaring a ``summary`` variant, over the summary's
  evidence: ``instances``, ``share``, ``examples``, ``columns`` and what its
  :meth:`~nblint.engine.Rule.summary_evidence` adds);
* a suffix, written ``VARIANT+SUFFIX``: the template of ``VARIANT`` followed by
  ``SUFFIXES[SUFFIX]`` (``+undecided``: a pipeline finding about a branch its helper's
  arguments do not decide).
"""

from __future__ import annotations

import re
import string
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any

#: The message of a summary finding, unless the rule declares its own ``summary`` variant.
SUMMARY = (
    "{instances} columns ({share:.0%} of the features) are reported for one reason; "
    "the costliest: {examples[0][message]}"
)

#: Words the engine appends to a rule's template (variant ``VARIANT+NAME``).
SUFFIXES: Mapping[str, str] = {
    "undecided": " (on a branch of {undecided_branch} that its arguments do not decide)",
}

#: A named spec: its name, its arguments in parentheses, then a standard spec for its number.
_NAMED = re.compile(r"^(?P<name>[a-z]+)(?:\((?P<args>[^()]*)\))?(?::(?P<spec>.*))?$")


# --------------------------------------------------------------------------- the project's wordings


def fmt_columns(columns: Iterable[str], limit: int = 6) -> str:
    """``a, b, c`` (or ``a, b, ... (12 columns)``) for messages: at most ``limit`` names, then the count."""
    columns = list(columns)
    shown = ", ".join(columns[:limit])
    return shown + (f", ... ({len(columns)} columns)" if len(columns) > limit else "")


def fmt_value(value) -> str:
    """A level as users wrote it: 3 rather than 3.0."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def fmt_class(label) -> str:
    """A class label quoted as users wrote it: ``'3'``."""
    return repr(fmt_value(label))


def fmt_share(p: float) -> str:
    """A probability as a percentage to one decimal, or to its first digit where that shows 0.0% (0.005%)."""
    text = f"{p:.1%}"
    if p > 0 and float(text[:-1]) == 0:
        text = f"{100 * p:.1g}%"
    return text


def fmt_number(x: float) -> str:
    """A whole number as one (``12``), any other to 4 significant digits (``0.3333``)."""
    return f"{int(x)}" if float(x).is_integer() else f"{x:.4g}"


def fmt_chance(p: float) -> str:
    """``about 1 in 3e+12`` for a small probability, ``2.50%`` for one of 1% or more."""
    if p <= 0:
        return "less than 1 in 1e300"
    return f"about 1 in {1 / p:.2g}" if p < 0.01 else f"{p:.2%}"


def fmt_likely(stem: str | None) -> str:
    """`` (likely variable 'colour')`` after a group's columns when their names share a stem, else nothing."""
    return f" (likely variable {stem!r})" if stem else ""


def _each(value, word) -> str:
    if isinstance(value, (list, tuple)):
        return ", ".join(map(word, value))
    return word(value)


def _count(value) -> Any:
    return len(value) if isinstance(value, (Sequence, Mapping)) and not isinstance(value, str) else value


def _names(value, args: Sequence[str], spec: str) -> str:
    return fmt_columns(map(str, value), int(args[0]) if args else 6)


def _plural(value, args: Sequence[str], spec: str) -> str:
    n = _count(value)
    noun, many = (args[0], args[0] + "s") if len(args) == 1 else (args[0], args[1])
    return f"{format(n, spec)} {noun if n == 1 else many}"


def _choose(value, args: Sequence[str], spec: str) -> str:
    one, many = args
    return one if _count(value) == 1 else many


#: The named specs: name -> (value, arguments, standard spec) -> text. See the module docstring.
NAMED_SPECS = {
    "names": _names,
    "count": lambda value, args, spec: format(len(value), spec),
    "joined": lambda value, args, spec: ", ".join(map(str, value)),
    "pairs": lambda value, args, spec: "; ".join(f"{key}: {format(item, spec)}" for key, item in value.items()),
    "quoted": lambda value, args, spec: _each(value, repr),
    "level": lambda value, args, spec: _each(value, fmt_value),
    "label": lambda value, args, spec: _each(value, fmt_class),
    "number": lambda value, args, spec: fmt_number(value),
    "share": lambda value, args, spec: fmt_share(value),
    "plural": _plural,
    "choose": _choose,
    "chance": lambda value, args, spec: fmt_chance(value),
    "likely": lambda value, args, spec: fmt_likely(value),
}


# --------------------------------------------------------------------------- rendering


class MessageFormatter(string.Formatter):
    """:meth:`str.format` with the named specs of :data:`NAMED_SPECS` (see the module docstring)."""

    def format_field(self, value: Any, format_spec: str) -> str:
        named = named_spec(format_spec)
        if named is None:
            return format(value, format_spec)
        name, args, spec = named
        return NAMED_SPECS[name](value, args, spec)


def named_spec(format_spec: str) -> tuple[str, tuple[str, ...], str] | None:
    """``(name, arguments, standard spec)`` of a named spec (``plural(row):,``), None for a standard one."""
    match = _NAMED.match(format_spec)
    if match is None or match["name"] not in NAMED_SPECS:
        return None
    args = tuple(arg.strip() for arg in match["args"].split(",")) if match["args"] else ()
    return match["name"], args, match["spec"] or ""


FORMATTER = MessageFormatter()


@lru_cache(maxsize=1024)
def _plain(template: str) -> bool:
    """Whether ``template`` uses no named spec (then :meth:`str.format_map` renders it, at C speed)."""
    return not any(spec and named_spec(spec) for _, spec in fields_of(template))


def render(template: str, fields: Mapping[str, Any]) -> str:
    """The message ``template`` says over ``fields`` (see the module docstring for the syntax).

    Raises
    ------
    KeyError
        When the template reads a field ``fields`` lacks.
    """
    if _plain(template):
        return template.format_map(fields)
    return FORMATTER.vformat(template, (), fields)


def finding_fields(evidence: Mapping[str, Any], columns: Sequence[str], rows: Sequence[int]) -> dict[str, Any]:
    """The fields a finding's template may read: ``column`` (one column), ``columns``, ``rows``, then the evidence."""
    fields: dict[str, Any] = {"columns": list(columns), "rows": list(rows)}
    if len(columns) == 1:
        fields["column"] = columns[0]
    fields.update(evidence)
    return fields


def fields_of(template: str) -> list[tuple[str, str]]:
    """``(field name, format spec)`` of every replacement field of ``template``, nested ones (``{x:{width}}``) too.

    Raises
    ------
    ValueError
        When the template does not parse.
    """
    found: list[tuple[str, str]] = []
    for _, name, spec, _ in string.Formatter().parse(template):
        if name is None:
            continue
        found.append((name, spec or ""))
        if spec and "{" in spec:
            found += fields_of(spec)
    return found


def field_root(name: str) -> str:
    """The key a field reads: ``examples`` of ``examples[0][message]``, ``group`` of ``group.label``."""
    return re.split(r"[.\[]", name, maxsplit=1)[0]


def literal_text(template: str) -> str:
    """The words of ``template`` outside its replacement fields (where a number would be written, not measured)."""
    return "".join(text for text, *_ in string.Formatter().parse(template))
