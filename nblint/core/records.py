"""Records written out by hand: equal, hashed and shown by their fields, as the named tuples they replace.

A ``typing.NamedTuple`` or ``dataclass`` class costs a fresh process ~0.4-1 ms to create (its methods
are generated and compiled at import), and a first check creates dozens. A class that lists its fields
in ``__slots__`` and derives from :class:`Record` costs what a plain class costs, and keeps the value
semantics callers rely on: two records of one type whose fields are equal are equal and hash alike
(a profile cache keyed by a memory budget; a test that compares two runs' implications).
"""

from __future__ import annotations

from typing import Any

#: A field never assigned (it compares equal only to itself).
_UNSET = object()


class Record:
    """Value semantics over ``__slots__``: ``==``, ``hash`` and ``repr`` read the record's fields in order."""

    __slots__: tuple[str, ...] = ()

    def _fields(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name, _UNSET) for name in self.__slots__)

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={value!r}" for name, value in zip(self.__slots__, self._fields()))
        return f"{type(self).__name__}({shown})"
