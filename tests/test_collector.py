"""Process-wide settings nblint changes while it runs (the garbage collector, the BLAS environment) are handed back as they were."""

from __future__ import annotations

import gc
import os
import threading

import pandas as pd
import pytest

import nblint
from nblint.core.blas import one_blas_thread
from nblint.core.collector import collector_paused
from nblint.engine import registry


@pytest.fixture
def collector_on():
    was = gc.isenabled()
    gc.enable()
    yield
    if not was:
        gc.disable()


def test_the_rules_run_with_the_collector_paused_and_it_is_on_again_after(collector_on, monkeypatch):
    seen = []
    rule = registry.load_rules()["NB204"]
    check = rule.check

    def recording(self, ctx):
        seen.append(gc.isenabled())
        return check(self, ctx)

    monkeypatch.setattr(rule, "check", recording)
    nblint.check(pd.DataFrame({"a": [1, 1, 1, 1], "y": [0, 1, 0, 1]}), target="y", select=["NB204"])
    assert seen == [False]
    assert gc.isenabled()


def test_a_collector_the_caller_switched_off_stays_off(collector_on):
    gc.disable()
    with collector_paused():
        assert not gc.isenabled()
    assert not gc.isenabled()


def test_an_error_inside_still_hands_the_collector_back(collector_on):
    with pytest.raises(RuntimeError), collector_paused():
        raise RuntimeError("a rule failed")
    assert gc.isenabled()


def _blas_variable() -> str | None:
    return os.environ.get("OPENBLAS_NUM_THREADS")


@pytest.mark.parametrize(
    "held, state, inside, outside",
    [
        (collector_paused, gc.isenabled, False, True),
        (one_blas_thread, _blas_variable, "1", None),
    ],
    ids=["garbage collector", "BLAS environment"],
)
def test_a_process_wide_setting_is_given_back_when_the_last_of_two_overlapping_runs_leaves(
    collector_on, monkeypatch, held, state, inside, outside
):
    monkeypatch.delenv("OPENBLAS_NUM_THREADS", raising=False)
    entered, leave = threading.Event(), threading.Event()
    seen = []

    def other_run():
        with held():
            entered.set()
            leave.wait(10)
            seen.append(state())

    worker = threading.Thread(target=other_run)
    with held():
        worker.start()
        assert entered.wait(10)
    seen.append(state())  # this run left first: the other one still runs
    leave.set()
    worker.join(10)
    assert seen == [inside, inside]
    assert state() == outside
