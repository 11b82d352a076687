"""Records written out by hand (``nblint.core.records.Record``) compare, hash and show as the named tuples they replaced."""

from __future__ import annotations

import pytest

from nblint.core.records import Record
from nblint.core.resources import MemoryBudget, ProfileCaps
from nblint.structure.implication import Implication


class Pair(Record):
    __slots__ = ("first", "second")

    def __init__(self, first, second) -> None:
        self.first = first
        self.second = second


class OtherPair(Record):
    __slots__ = ("first", "second")

    def __init__(self, first, second) -> None:
        self.first = first
        self.second = second


@pytest.mark.parametrize("a, b", [(1, "x"), (0.5, ("y", 2)), (None, frozenset({3}))])
def test_records_of_one_type_are_equal_and_hash_alike_as_their_fields_are(a, b):
    assert Pair(a, b) == Pair(a, b) and hash(Pair(a, b)) == hash(Pair(a, b)) == hash((a, b))
    assert Pair(a, b) != Pair(b, a) or a == b
    assert len({Pair(a, b), Pair(a, b)}) == 1
    assert repr(Pair(a, b)) == f"Pair(first={a!r}, second={b!r})"


def test_records_of_two_types_are_never_equal_even_with_equal_fields():
    assert Pair(1, 2) != OtherPair(1, 2) and OtherPair(1, 2) != Pair(1, 2)
    assert Pair(1, 2) != (1, 2)


def test_a_memory_budget_is_one_cache_key_however_often_it_is_made():
    """A profile cache is keyed by the run's memory budget: equal budgets must find the same profile."""
    cache = {MemoryBudget.default(): "profile"}
    assert cache.get(MemoryBudget.default()) == "profile"
    assert ProfileCaps.for_table(None, 10, 100) == ProfileCaps.for_table(None, 10, 100)
    assert ProfileCaps.for_table(None, 10, 100) != ProfileCaps.for_table(None, 11, 100)


def test_implications_compare_by_their_fields():
    implied = (("b", 3, 2.5),)
    assert Implication("a", 3, implied) == Implication("a", 3, implied) != Implication("a", 4, implied)
