"""NB6xx: what a model fitted on the training table meets in its test or serving table.

The rules read ``ctx.test``, the :class:`nblint.run.pairing.TestComparison` made when a test
table is given (``--test``, ``test = ...``, ``nblint.check(..., test=...)``); without one
they say nothing. Their findings are located in the test file.
"""

from __future__ import annotations

from dataclasses import replace

from nblint.engine import Rule
from nblint.engine.findings import Finding

#: What every rule of this family reads (keys of nblint.engine.rule.INPUTS), and that each compares the table with
#: its test table (Rule.reads_test_table): the engine imports the family's modules only for a run that offers a
#: table with its test table (nblint.engine.registry.family_reads).
INPUTS = ("table",)
READS_TEST_TABLE = True


class TestTableRule(Rule):
    """A rule about the test table: its findings, the summaries of a wide table's too, are located there."""

    reads_test_table = True

    def summary_finding(self, ctx, variant, examples, columns, costs, extra=None) -> Finding:
        return at_test(ctx, super().summary_finding(ctx, variant, examples, columns, costs, extra))


def at_test(ctx, finding: Finding) -> Finding:
    """The finding located in the test table (where the rows it is about are)."""
    return replace(finding, path=ctx.test.path)


def share(part: int, whole: int) -> float:
    """``part / whole``, 0 for an empty whole."""
    return part / whole if whole else 0.0
