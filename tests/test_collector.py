"""The cyclic garbage collector is paused while the rules run, and handed back as it was."""

from __future__ import annotations

import gc
import threading

import pandas as pd
import pytest

import nblint
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


def test_the_collector_resumes_when_the_last_of_two_overlapping_runs_leaves(collector_on):
    entered, leave = threading.Event(), threading.Event()
    seen = []

    def other_run():
        with collector_paused():
            entered.set()
            leave.wait(10)
            seen.append(gc.isenabled())

    worker = threading.Thread(target=other_run)
    with collector_paused():
        worker.start()
        assert entered.wait(10)
    seen.append(gc.isenabled())  # this run left first: the other one still runs
    leave.set()
    worker.join(10)
    assert seen == [False, False]
    assert gc.isenabled()
