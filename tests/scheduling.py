"""How ``python -m pytest -n`` hands tests to its workers: xdist's ``loadgroup``, without its quadratic count.

xdist's ``LoadGroupScheduling`` (pyproject's ``--dist loadgroup``) keeps every work unit it ever
sent a worker in ``assigned_work[worker]`` and, each time a test finishes, counts the worker's
pending tests by walking all of them. A test without an ``xdist_group`` is a unit of its own, so
with ``n`` tests that is about ``n**2 / 4`` unit visits per worker over a run: for the fast subset's
6,000 tests, seconds of the controller's CPU spent recounting finished units. The scheduler here
forgets a unit once its last test is done, so the count walks only the few units in flight; and it
finds a test's place in a worker's collection in a table, where xdist searches the list (another
``n**2 / 4`` string comparisons).

Which unit goes to which worker, and when, is xdist's own decision, unchanged: a finished unit
held no pending test, so every count, and so every decision taken on it, is the same. (A worker
that crashes hands back only its unfinished units, as before: finished ones were never re-run.)
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from xdist.remote import Producer
from xdist.scheduler import LoadGroupScheduling
from xdist.workermanage import WorkerController


class PrunedLoadGroupScheduling(LoadGroupScheduling):
    """``--dist loadgroup`` whose record of a worker's units holds the unfinished ones only."""

    def __init__(self, config: pytest.Config, log: Producer | None = None) -> None:
        super().__init__(config, log)
        #: Per worker: each test's place in the collection it reported (the index the worker runs it by).
        self.positions: dict[WorkerController, dict[str, int]] = {}

    def add_node_collection(self, node: WorkerController, collection: Sequence[str]) -> None:
        super().add_node_collection(node, collection)
        self.positions[node] = {nodeid: index for index, nodeid in enumerate(collection)}

    def _assign_work_unit(self, node: WorkerController) -> None:
        """xdist's own (the next unit of the queue, sent whole), its look-up of each test's index aside."""
        scope, work_unit = self.workqueue.popitem(last=False)
        self.assigned_work.setdefault(node, {})[scope] = work_unit
        positions = self.positions[node]
        node.send_runtest_some([positions[nodeid] for nodeid, completed in work_unit.items() if not completed])

    def mark_test_complete(self, node: WorkerController, item_index: int, duration: float = 0) -> None:
        nodeid = self.registered_collections[node][item_index]
        scope = self._split_scope(nodeid)
        workload = self.assigned_work[node]
        unit = workload[scope]
        unit[nodeid] = True
        if False not in unit.values():  # (the unit's last test: nothing of it is pending any more)
            del workload[scope]
        self._reschedule(node)
