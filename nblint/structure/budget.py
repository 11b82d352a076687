"""A search budget: how many nodes the combinatorial searches over one table may still visit."""

from __future__ import annotations

#: Nodes (search steps) the group searches of one table may visit in all.
SEARCH_BUDGET = 200_000


class Budget:
    """Search steps left, shared by every search over one table.

    The group searches (exact covers, cliques) are exponential in the worst case:
    small tables with many rare 0/1 columns are exclusive by chance everywhere.
    Each search spends from one budget (a node of a search, or a set its pruning
    weighs), and a search that finds it empty stops and says so (``exhausted``),
    which NB106 reports.

    Examples
    --------
    >>> b = Budget(2)
    >>> b.spend(), b.spend(), b.spend(), b.exhausted
    (True, True, False, True)

    (A class written out: a dataclass's generated methods cost a first check in a fresh process ~1 ms.)
    """

    __slots__ = ("left", "exhausted")

    def __init__(self, left: int = SEARCH_BUDGET, exhausted: bool = False) -> None:
        self.left = left
        #: Set once a search wanted a step the budget no longer had.
        self.exhausted = exhausted

    def spend(self) -> bool:
        """Take one step; False (and ``exhausted``) when none is left."""
        if self.left <= 0:
            self.exhausted = True
            return False
        self.left -= 1
        return True

    def part(self, parts: int) -> Budget:
        """A budget of an equal share of what is left, for one of ``parts`` searches."""
        return Budget(self.left // max(parts, 1))

    def absorb(self, part: Budget, given: int) -> None:
        """Charge what ``part`` (which was given ``given`` steps) used, and its exhaustion."""
        self.left -= given - part.left
        self.exhausted |= part.exhausted
