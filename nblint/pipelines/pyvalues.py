"""Values the Python reader works out without running anything: loop variables, ranges, items, instances.

Python sources keep models and column names in lists, dicts and tuples and walk
them in loops (``for name, model in models.items(): model.fit(X, y)``).  A loop
variable is a :class:`~nblint.pipelines.calls.OneOf`: the values it takes in
turn, where the iterable is written in the source (a literal list, a dict's
items/keys/values, ``zip``/``enumerate`` of those, ``range`` and numpy's
``linspace``/``arange``/``logspace`` with literal arguments).  Anything else is
unknown, and nothing is guessed about it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, TypeGuard

from nblint.pipelines import catalog
from nblint.pipelines.calls import Call, Expr, Mark, OneOf

#: Longest range or sequence spelled out as candidate values; longer ones keep their ends.
MAX_ITEMS = 1000


@dataclass(eq=False)
class Instance:
    """An object of a class defined in the source: its class name and the attributes its methods set."""

    cls: str
    attrs: dict[str, Any] = field(default_factory=dict)
    data: dict[str, Any] = field(default_factory=dict)


@dataclass(eq=False)
class Partial:
    """``functools.partial(f, *args, **keywords)``: a call of ``f`` waiting for the rest of its arguments.

    ``node`` is the ``partial(...)`` call; calling the name bound to it reads ``f`` called with the
    partial's arguments first, then the call's (:meth:`~nblint.pipelines.pycalls.CallReading.partial_call`).
    """

    node: Any


@dataclass(frozen=True)
class AllBut:
    """``[c for c in df.columns if c not in drop]``: every column of the frame it selects from but ``names``
    (``node`` is the comprehension, where a selection with it drops them)."""

    names: frozenset
    node: Any = field(compare=False)


def is_sequence(value: Any) -> TypeGuard[list[Any] | tuple[Any, ...]]:
    return isinstance(value, (list, tuple))


def items_of(value: Any) -> list | None:
    """The items a ``for`` loop over ``value`` takes, where the value is known (a list, a dict's keys, a OneOf)."""
    if isinstance(value, OneOf):
        return list(value.items)
    if isinstance(value, dict):
        return list(value.keys())
    if is_sequence(value):
        return list(value)
    return None


def method_items(receiver: Any, method: str) -> list | None:
    """``d.items()``, ``d.values()``, ``d.keys()`` of a known dict, as the list a loop walks."""
    if not isinstance(receiver, dict):
        return None
    if method == "items":
        return [[key, value] for key, value in receiver.items()]
    if method == "values":
        return list(receiver.values())
    if method == "keys":
        return list(receiver.keys())
    return None


def zipped(sequences: list) -> list | None:
    """``zip(a, b)`` of known sequences."""
    lists = [items_of(s) for s in sequences]
    if not lists or any(s is None for s in lists):
        return None
    return [list(row) for row in zip(*lists)]


def enumerated(sequence: Any, start: Any = 0) -> list | None:
    items = items_of(sequence)
    if items is None or not is_number(start):
        return None
    return [[start + i, item] for i, item in enumerate(items)]


def unpack(value: Any, size: int) -> list | None:
    """The parts of ``value`` for a target of ``size`` names (``name, model = item``), where known."""
    if is_sequence(value) and len(value) == size:
        return list(value)
    if isinstance(value, OneOf):
        rows = [unpack(item, size) for item in value.items]
        known = [row for row in rows if row is not None]
        if rows and len(known) == len(rows):
            return [one_of([row[i] for row in known]) for i in range(size)]
    return None


def one_of(values: list) -> Any:
    """A OneOf of ``values``; a single value stands for itself."""
    distinct: list[Any] = []
    for value in values:
        if not any(value is seen or (_literal(value) and value == seen) for seen in distinct):
            distinct.append(value)
    return distinct[0] if len(distinct) == 1 else OneOf(distinct)


def classes_named(value: Any) -> list[str]:
    """The scikit-learn classes a value names as classes, not instances: ``cls = BernoulliNB``, or each
    class a loop takes (``for cls in [BernoulliNB, GaussianNB]``); empty unless every item is one."""
    items = value.items if isinstance(value, OneOf) else (value,)
    found = [
        item.text
        for item in items
        if isinstance(item, Expr)
        and "." in item.text
        and catalog.is_known(item.text)
        and catalog.short_name(item.text) in catalog.KNOWN_NAMES
    ]
    return found if items and len(found) == len(items) else []


def is_literal(value: Any) -> bool:
    """A value written as a literal in the source: a string, number, bool or None."""
    return _literal(value)


def _literal(value: Any) -> bool:
    return isinstance(value, (str, int, float, bool, type(None)))


def subscript(value: Any, key: Any) -> Any:
    """``value[key]`` for a known list or dict and a literal key (None when it cannot be told).

    A key a loop takes in turn (``for name in models: models[name]``) gives the items each key
    picks, one by one, where every key picks one.
    """
    if isinstance(key, OneOf):
        picked = [subscript(value, item) for item in key.items]
        return one_of(picked) if picked and all(item is not None for item in picked) else None
    if isinstance(value, dict) and _literal(key) and key in value:
        return value[key]
    if is_sequence(value) and isinstance(key, int) and not isinstance(key, bool) and -len(value) <= key < len(value):
        return value[key]
    return None


def is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and not math.isnan(value)


def number_range(function: str, args: list, keywords: dict) -> list | None:
    """``range``, ``numpy.arange``, ``numpy.linspace`` and ``numpy.logspace`` of literal numbers, spelled out.

    Only the values matter to the rules (does a grid try alpha=0?), so a long
    range keeps its first and last :data:`MAX_ITEMS` // 2 values.
    """
    if not all(is_number(a) for a in args) or not all(is_number(v) for v in keywords.values()):
        return None
    if function in ("builtins.range", "numpy.arange"):
        start, stop, step = _range_args(args, keywords)
        if step == 0 or stop is None:
            return None
        count = max(0, math.ceil((stop - start) / step))
        return _spread(lambda i: start + i * step, count)
    if function in ("numpy.linspace", "numpy.logspace") and len(args) >= 2:
        start, stop = args[0], args[1]
        count = int(args[2]) if len(args) > 2 else int(keywords.get("num", 50))
        endpoint = len(args) < 4
        divisions = (count - 1 if endpoint else count) or 1
        values = _spread(lambda i: start + (stop - start) * i / divisions, count)
        if function == "numpy.logspace":
            base = keywords.get("base", 10.0)
            values = [base**v for v in values]
        return values
    return None


def _range_args(args: list, keywords: dict) -> tuple:
    if len(args) == 1:
        return 0, args[0], 1
    if len(args) >= 2:
        return args[0], args[1], args[2] if len(args) > 2 else keywords.get("step", 1)
    return keywords.get("start", 0), keywords.get("stop"), keywords.get("step", 1)


def _spread(value_at, count: int) -> list:
    if count <= MAX_ITEMS:
        return [value_at(i) for i in range(count)]
    half = MAX_ITEMS // 2
    return [value_at(i) for i in range(half)] + [value_at(i) for i in range(count - half, count)]


def calls_in(value: Any) -> list[Call]:
    """The estimators a value stands for: a call, or the calls among a OneOf's values."""
    if isinstance(value, Call):
        return [value]
    if isinstance(value, OneOf):
        return [item for item in value.items if isinstance(item, Call)]
    return []


#: Largest value the reader builds by joining others (characters of a string, items of a list or of the
#: names a loop takes): real code joins column names and short lists, while a chain of ``s1 = s0 + s0``
#: lines doubles a value on every line, so a few hundred bytes of source would otherwise ask for gigabytes.
MAX_JOINED = 100_000


class TooLarge:
    """What joining two values gives when the result would pass :data:`MAX_JOINED`: the reading gives up."""


TOO_LARGE = TooLarge()


def extent(value: Any) -> int:
    """How big a value is to hold: a string's characters, a sequence's items, a OneOf's values' extents added up."""
    if isinstance(value, (str, list, tuple)):
        return len(value)
    if isinstance(value, OneOf):
        return sum(extent(item) or 1 for item in value.items)
    return 1


def concatenated(left: Any, right: Any) -> Any:
    """``[0] + list(values)`` or ``col + "_enc"``: two known sequences or strings joined (None if unknown).

    A string joined with a loop's names gives the names the loop takes, each joined.  A join
    whose result would pass :data:`MAX_JOINED` gives :data:`TOO_LARGE` (checked before it is built).
    """
    if is_sequence(left) and is_sequence(right):
        return list(left) + list(right) if len(left) + len(right) <= MAX_JOINED else TOO_LARGE
    if isinstance(left, str) and isinstance(right, str):
        return left + right if len(left) + len(right) <= MAX_JOINED else TOO_LARGE
    for one, other, first in ((left, right, True), (right, left, False)):
        if isinstance(one, OneOf) and isinstance(other, str) and all(isinstance(v, str) for v in one.items):
            if extent(one) + len(one.items) * len(other) > MAX_JOINED:
                return TOO_LARGE
            return OneOf([v + other if first else other + v for v in one.items])
    return None


UNKNOWN = Expr("<unknown>")


def mark(node) -> Mark:
    """The 1-based (line, column) of an :mod:`ast` node."""
    return node.lineno, node.col_offset + 1


def unknown(node) -> Expr:
    """A value computed at run time, shown as its source text (unparsed only when asked for)."""
    return Expr(lambda: __import__("ast").unparse(node))
