"""The suite's load-group scheduler (tests/scheduling.py) sends what pytest-xdist's own sends, and names the same crashed test."""

from __future__ import annotations

import types

import pytest

pytest.importorskip("xdist")
from scheduling import PrunedLoadGroupScheduling  # noqa: E402
from xdist.scheduler import LoadGroupScheduling  # noqa: E402


class Worker:
    """A worker as the scheduler sees it: what it was sent, in order, and whether it was told to stop."""

    def __init__(self, name: str) -> None:
        self.gateway = types.SimpleNamespace(id=name)
        self.shutting_down = False
        self.batches: list[list[int]] = []
        self.queue: list[int] = []

    def send_runtest_some(self, indices: list[int]) -> None:
        self.batches.append(list(indices))
        self.queue.extend(indices)

    def shutdown(self) -> None:
        self.shutting_down = True


def _collection() -> list[str]:
    """Single tests, two groups of several tests, and a parametrised test whose value holds an ``@``."""
    tests = [f"tests/test_a.py::test_{k}" for k in range(40)]
    tests += [f"tests/test_b.py::test_{k}@corpus" for k in range(7)]
    tests += [f"tests/test_c.py::test_{k}@cluster" for k in range(3)]
    tests += ["tests/test_d.py::test_mail[a@b]", "tests/test_d.py::test_mail[c@d]"]
    return tests


def _run(scheduler_class, crash_after: int | None = None) -> dict:
    """Drive a scheduler through a run on two workers, each finishing its oldest test in turn.

    With ``crash_after``, the first worker dies once that many tests have reported. Returns the tests
    each worker was sent before the crash, batch by batch (empty batches left out), the test the
    scheduler names as running at the crash, and the tests reported, in order.
    """
    config = types.SimpleNamespace(
        getvalue=lambda name: ["2*popen"], option=types.SimpleNamespace(loadscopereorder=True)
    )
    scheduler = scheduler_class(config)
    workers = [Worker("gw0"), Worker("gw1")]
    for worker in workers:
        scheduler.add_node(worker)
    for worker in workers:
        scheduler.add_node_collection(worker, _collection())
    scheduler.schedule()
    crashed, reported, sent_before = None, [], None
    while scheduler.has_pending:
        progressed = False
        for worker in list(scheduler.nodes):
            if crash_after is not None and worker is workers[0] and len(reported) >= crash_after:
                sent_before = [[batch for batch in w.batches if batch] for w in workers]
                crashed = scheduler.remove_node(worker)
                continue
            if worker.queue:
                reported.append(worker.queue.pop(0))
                scheduler.mark_test_complete(worker, reported[-1])
                progressed = True
        if not progressed:
            break
    return {
        "sent": sent_before or [[batch for batch in w.batches if batch] for w in workers],
        "crashed": crashed,
        "reported": reported,
    }


def test_a_whole_run_sends_every_worker_what_xdists_scheduler_sends():
    ours = _run(PrunedLoadGroupScheduling)
    assert ours == _run(LoadGroupScheduling)
    assert sorted(ours["reported"]) == list(range(len(_collection())))  # every test once


@pytest.mark.parametrize("crash_after", [0, 5, 17, 30])
def test_a_crashed_workers_test_is_named_as_xdist_names_it_and_its_unfinished_tests_run_on_the_other(crash_after):
    ours, theirs = _run(PrunedLoadGroupScheduling, crash_after), _run(LoadGroupScheduling, crash_after)
    assert ours["sent"] == theirs["sent"] and ours["crashed"] == theirs["crashed"] is not None
    # The survivor finishes the crashed worker's unfinished tests, the crashed one among them: every test
    # reports once. (xdist's own sends the crashed worker's finished units again, as empty batches, and in
    # this lockstep run stops with those tests still queued.)
    assert sorted(ours["reported"]) == list(range(len(_collection())))
