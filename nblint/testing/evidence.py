"""Messages over evidence: every number a finding's message shows is in its evidence.

A finding's message is written for a person, its evidence (``--format json``) for a
program: a number the message shows and the evidence lacks can be neither checked
nor used by a tool. :func:`unsupported_numbers` lists the numbers of a message that
no value of the finding's data accounts for, the way the message formats them:

* ``0.123`` is any value that rounds to it at the digits shown (``1.2e-05`` at the
  digits of its mantissa), ``1,234`` is 1234, a sign is not compared (a message says
  "falls by 0.3" of a change of -0.3);
* ``40%`` is a value of 40 or a share of 0.4 (rounded at the digits shown);
* the data of a finding is its evidence (numbers, numbers inside its strings, keys that
  are numbers: a class called ``2``), its line, cell and rows, and how many columns and
  rows it names.

Numbers that are not quantities are left out: text in quotes or backticks (a column
called ``'colour_2'``), digits joined to letters (``NB104``, ``log2``, ``3rd``), terms of a
formula (the 1 of ``K-1``) and notation (``0/1``, ``0..K-1``). A rule whose messages explain with
a number they do not measure (the codes 0, 1 and 2 of an example) lists it in its
``message_constants``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Iterator
from typing import Any

#: Notation, not quantities: the values of a bit, the codes CategoricalNB takes.
_NOTATION = re.compile(r"(?<![\w.])(?:0/1|0\.\.K-1)(?![\w])")
#: Text a message quotes: a name or a value, not a quantity (an apostrophe inside a word is no quote).
_QUOTED = re.compile(r"(?<!\w)'[^'\n]*'(?!\w)|(?<!\w)\"[^\"\n]*\"(?!\w)|`[^`\n]*`")
#: A number as messages print it: thousands separators, decimals, an exponent, a percent sign.
_NUMBER = re.compile(
    r"(?<![\w.])(?<![A-Za-z][-+*/])(?P<digits>\d{1,3}(?:,\d{3})+(?![\d])|\d+)(?P<decimals>\.\d+)?(?P<exponent>[eE][-+]?\d+)?"
    r"(?P<percent>%)?(?![\w])(?!\.\d)"
)


def message_numbers(message: str) -> list[str]:
    """The numbers ``message`` shows, as written (quoted text and codes such as NB104 left out)."""
    return [match.group() for match in _NUMBER.finditer(_NOTATION.sub(" ", _QUOTED.sub(" ", message)))]


def unsupported_numbers(finding: dict[str, Any], constants: Iterable[float] = ()) -> list[str]:
    """The numbers of the finding's message that nothing in its data accounts for (see the module docstring).

    Parameters
    ----------
    finding : dict
        A finding as JSON (:meth:`nblint.engine.findings.Finding.to_dict`).
    constants : iterable of float
        Numbers the rule's messages explain with rather than measure (its
        :attr:`~nblint.engine.Rule.message_constants`: the codes 0, 1 and 2 of an example).
    """
    values = [*_data_values(finding), *map(float, constants)]
    return [shown for shown in message_numbers(finding["message"]) if not any(_shows(shown, v) for v in values)]


def _data_values(finding: dict[str, Any]) -> Iterator[float]:
    yield from _numbers_in(finding.get("evidence", {}))
    for key in ("line", "cell", "file_line"):
        if isinstance(finding.get(key), (int, float)) and not isinstance(finding.get(key), bool):
            yield float(finding[key])
    rows, columns = finding.get("rows") or [], finding.get("columns") or []
    yield from (float(row) for row in rows if isinstance(row, (int, float)))
    yield float(len(rows))
    yield float(len(columns))
    for column in columns:
        yield from _numbers_in(str(column))


def _numbers_in(value: Any) -> Iterator[float]:
    """Every number in a piece of JSON evidence: values, numbers written in strings, keys that are numbers."""
    if isinstance(value, bool) or value is None:
        return
    if isinstance(value, (int, float)):
        if math.isfinite(value):
            yield float(value)
    elif isinstance(value, str):
        for shown in _NUMBER.finditer(value):
            yield _value(shown.group())
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _numbers_in(str(key))
            yield from _numbers_in(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _numbers_in(item)


def _value(shown: str) -> float:
    return float(shown.rstrip("%").replace(",", ""))


def _shows(shown: str, value: float) -> bool:
    """Whether a message that prints ``value`` as the message formats numbers could show ``shown``."""
    number = _value(shown)
    match = _NUMBER.fullmatch(shown)
    assert match is not None
    decimals = len(match.group("decimals") or ".") - 1
    exponent = int(match.group("exponent")[1:]) if match.group("exponent") else 0
    tolerance = 0.5 * 10.0 ** (exponent - decimals) * (1 + 1e-9) + 1e-12
    candidates = [abs(value), abs(value) * 100] if match.group("percent") else [abs(value)]
    return any(abs(candidate - number) <= tolerance for candidate in candidates)
