"""The Dask engine: per-partition profiles merged on a LocalCluster give the pandas path's findings."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner
from tables import mixed_table

import nblint
from nblint.cli import main

# A cluster per module and partitions scheduled on it: seconds, so outside the fast subset.
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module", autouse=True)
def dd():
    """Dask's frames; every test here is skipped where Dask or distributed is not installed.

    Imported when the module's first test runs, not when it is collected: the fast subset
    deselects every test here, and its processes never pay Dask's import (about 2 s of CPU).
    """
    dataframe = pytest.importorskip("dask.dataframe")
    pytest.importorskip("distributed")
    return dataframe


@pytest.fixture(scope="module")
def client():
    import distributed

    with distributed.LocalCluster(
        n_workers=3, threads_per_worker=1, processes=False, dashboard_address=None
    ) as cluster:
        with distributed.Client(cluster) as client:
            yield client


def test_dask_frame_on_a_local_cluster_gives_the_pandas_findings(client, dd):
    frame, _ = mixed_table(7, n=900)
    expected = nblint.check(frame, target="target").to_json()
    ddf = dd.from_pandas(frame, npartitions=5)
    assert ddf.npartitions == 5
    got = nblint.check(ddf, target="target")
    assert got.to_json().replace('"<dask>"', '"<dataframe>"') == expected
    assert {"NB101", "NB102", "NB104", "NB105", "NB401"} <= set(got.codes())


def test_engine_dask_reads_a_glob_of_parquet_files_on_a_scheduler(client, tmp_path):
    frame, _ = mixed_table(8, n=600)
    for i, start in enumerate(range(0, 600, 200)):
        frame.iloc[start : start + 200].to_parquet(tmp_path / f"part{i}.parquet")
    frame.to_parquet(tmp_path / "whole.parquet")
    local = CliRunner().invoke(
        main, ["check", str(tmp_path / "whole.parquet"), "--target", "target", "--format", "json"]
    )
    pattern = str(tmp_path / "part*.parquet")
    result = CliRunner().invoke(
        main,
        [
            "check",
            pattern,
            "--target",
            "target",
            "--format",
            "json",
            "--engine",
            "dask",
            "--scheduler",
            client.scheduler.address,
        ],
    )
    assert result.exit_code == local.exit_code == 1, result.output
    assert result.stdout.replace(pattern, "PATH") == local.stdout.replace(str(tmp_path / "whole.parquet"), "PATH")


def test_engine_dask_missing_path_is_one_error_line(tmp_path):
    missing = str(tmp_path / "nope*.csv")
    result = CliRunner().invoke(main, ["check", missing, "--engine", "dask"])
    assert result.exit_code == 2
    assert result.stderr.strip() == f"{missing}: error: file not found"


def _every_pass_table(n: int = 3000) -> pd.DataFrame:
    """Two classes; one-hot, dummy and broken groups, a code column beside its group, identical
    columns, and a measurement with too many values for a table that gives the class by a
    threshold: each pass after the profile has work (row checks, NB208's histograms, NB401)."""
    import numpy as np

    frame, _ = mixed_table(11, n=n)
    rng = np.random.default_rng(5)
    y = rng.integers(0, 2, n)
    frame["target"] = np.where(y == 1, "yes", "no")
    levels = rng.integers(0, 3, n)
    for k in range(3):
        frame[f"shade_{k}"] = (levels == k).astype(int)
    frame.loc[[17, 1234, 2990], "shade_1"] = 1 - frame.loc[[17, 1234, 2990], "shade_1"]  # broken on three rows
    frame["shade"] = np.array(["dark", "mid", "light"])[levels]
    frame["score"] = np.round(y * 10 + rng.normal(size=n), 6)  # decides the class at a threshold
    return frame


@pytest.mark.parametrize("partitions", [1, 7])
def test_every_pass_runs_where_the_partitions_live_with_the_local_findings(client, dd, monkeypatch, partitions):
    """Rows never travel to the client (the partition-by-partition reader is not called), and
    the findings are the local engine's byte for byte, with windows crossing partitions."""
    from nblint.dask import source as dask_engine
    from nblint.impact import measure

    monkeypatch.setattr(measure, "SCORE_CELLS", 1 << 11)  # windows of ~30 rows: many cross partition edges
    frame = _every_pass_table()
    expected = nblint.check(frame, target="target").to_json()

    def no_rows(*args, **kwargs):
        raise AssertionError("rows were brought to the client")

    monkeypatch.setattr(dask_engine.DaskSource, "chunks", no_rows)
    ddf = dd.from_pandas(frame, npartitions=partitions)
    got = nblint.check(ddf, target="target")
    assert got.to_json().replace('"<dask>"', '"<dataframe>"') == expected
    assert {"NB101", "NB102", "NB103", "NB105", "NB208", "NB401"} <= set(got.codes())
    # The messages round; the measurement itself is the same to the last bit (sums in the same order).
    import numpy as np

    from nblint import testing

    local = testing.context(frame, target="target").impact
    remote = testing.context(dask_engine.DaskSource(ddf), target="target").impact
    assert remote.table == local.table and remote.groups == local.groups
    assert np.array_equal(remote.plot_points, local.plot_points)


def test_a_run_that_keeps_no_partition_persists_nothing(client, dd):
    """Where no partition fits the worker's share of the budget (another run's parts still held, or a tiny
    budget), nothing is persisted: Dask refuses an empty persist, which crashed the run."""
    from nblint.dask.backend import DaskBackend

    frame, _ = mixed_table(3, n=60)
    assert DaskBackend(dd.from_pandas(frame, npartitions=2), client).persist([]) == []


def test_engine_dask_applies_the_configured_memory_budget_as_the_local_engine_does(client, tmp_path):
    """One context factory for both engines: the configuration's memory budget caps each partition's profile."""
    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(0)
    frame = pd.DataFrame(rng.integers(0, 2, size=(40, 600)), columns=[f"b{i}" for i in range(600)])
    frame["y"] = rng.choice(["p", "q"], 40)
    frame.to_parquet(tmp_path / "whole.parquet")
    for i, start in enumerate(range(0, 40, 20)):
        frame.iloc[start : start + 20].to_parquet(tmp_path / f"part{i}.parquet")
    config = tmp_path / "nblint.toml"
    config.write_text('memory-budget = "1MiB"\n')
    common = ["--target", "y", "--select", "NB106", "--format", "json", "--config", str(config)]
    local = CliRunner().invoke(main, ["check", str(tmp_path / "whole.parquet"), *common])
    pattern = str(tmp_path / "part*.parquet")
    result = CliRunner().invoke(
        main, ["check", pattern, *common, "--engine", "dask", "--scheduler", client.scheduler.address]
    )
    assert "co-occurrence counts would take" in local.stdout  # the budget left the group search out
    assert result.stdout.replace(pattern, "PATH") == local.stdout.replace(str(tmp_path / "whole.parquet"), "PATH")


def test_groups_missing_together_and_yes_no_indicators_on_dask_give_the_pandas_findings(client, dd):
    """Issue 22: the pass over 0/1 columns the profile leaves out (missing together, yes/no words) merges across partitions."""
    rng = np.random.default_rng(3)
    n = 600
    income = rng.integers(1, 5, n).astype(float)
    income[rng.random(n) < 0.1] = np.nan
    insurance = rng.choice(["none", "private", "public"], n)
    frame = pd.DataFrame({"income": income})
    for level in range(1, 5):
        frame[f"income{level}"] = np.where(np.isnan(income), np.nan, (income == level).astype(float))
    frame["private"] = np.where(insurance == "private", "yes", "no")
    frame["public"] = np.where(insurance == "public", "yes", "no")
    frame["age"] = rng.normal(40, 9, n).round(1)
    frame["target"] = rng.integers(0, 2, n)
    expected = nblint.check(frame, target="target")
    assert {"NB101", "NB102", "NB105"} <= set(expected.codes())
    got = nblint.check(dd.from_pandas(frame, npartitions=5), target="target")
    assert got.to_json().replace('"<dask>"', '"<dataframe>"') == expected.to_json()


#: How many times each partition of :func:`_loaded_partitions` was made (the in-process workers run this module's code).
_LOADS: dict[tuple[str, int], int] = {}


def _load(key: str, i: int, part: pd.DataFrame) -> pd.DataFrame:
    _LOADS[(key, i)] = _LOADS.get((key, i), 0) + 1
    return part


def _loaded_partitions(frame: pd.DataFrame, bounds: list[int], key: str):
    """``frame`` as a Dask frame whose partition i (rows ``bounds[i]:bounds[i + 1]``) counts in
    ``_LOADS[(key, i)]`` each time it is made."""
    import dask
    import dask.dataframe as dd

    parts = [dask.delayed(_load)(key, i, frame.iloc[a:b]) for i, (a, b) in enumerate(zip(bounds, bounds[1:]))]
    return dd.from_delayed(parts, meta=frame.iloc[:0])


@pytest.mark.parametrize("keep", ["every", "some", "none"])
def test_each_partition_is_read_once_and_later_passes_read_what_its_worker_kept(client, monkeypatch, keep):
    """The profile's pass keeps each partition's chunks on its worker: the row checks and NB401's
    two passes read them there, so a partition is made once. Past the worker's share of the memory
    budget a partition is not kept and is read again: the findings are the same either way."""
    import gc
    import time

    from nblint.dask import backend, parts
    from nblint.readers import DataFrameSource
    from nblint.readers.kept import KeptChunks

    frame = _every_pass_table()
    expected = nblint.check(frame, target="target").to_json()
    bounds = [0, 700, 1400, 2100, 3000]
    one = KeptChunks(1 << 40)  # (what a partition of 700 rows keeps)
    for chunk in DataFrameSource(frame.iloc[:700]).chunks():
        one.add(chunk)
    if keep == "none":
        monkeypatch.setattr(backend, "KEEP_BYTES", 0)
    elif keep == "some":  # (one partition's kept chunks and a half: the in-process workers share one count)
        monkeypatch.setattr(backend, "KEEP_BYTES", int(1.5 * one.nbytes))
    deadline = time.monotonic() + 10
    while parts.held_bytes() and time.monotonic() < deadline:  # (the last test's parts, let go by the workers)
        gc.collect()  # (an earlier run's parts may wait for the collector: its futures sit in reference cycles)
        time.sleep(0.05)
    got = nblint.check(_loaded_partitions(frame, bounds, keep), target="target")
    loads = [_LOADS.get((keep, i), 0) for i in range(len(bounds) - 1)]
    assert got.to_json().replace('"<dask>"', '"<dataframe>"') == expected
    assert {"NB103", "NB208", "NB401"} <= set(got.codes())  # (the row checks and NB401 read the rows again)
    if keep == "every":
        assert loads == [1, 1, 1, 1]
    elif keep == "some":
        assert min(loads) == 1 and max(loads) > 1
    else:
        assert min(loads) > 1


def test_windows_laid_over_partitions_cover_each_window_once_in_order():
    """:func:`nblint.dask.impact.cuts`: the pieces of every window, taken partition by partition, are
    the window's positions in order, and a window is 'whole' in the one partition holding all of it."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from nblint.dask.impact import cuts

    @settings(max_examples=200, deadline=None)
    @given(st.lists(st.integers(0, 40), min_size=1, max_size=8), st.integers(1, 25))
    def check(rows: list[int], size: int) -> None:
        starts = np.concatenate([[0], np.cumsum(rows)]).tolist()
        total = starts[-1]
        pieces: dict[int, list[int]] = {}
        for p in range(len(rows)):
            for window, first, stop, whole in cuts(starts[p], starts[p + 1], total, size):
                positions = list(range(starts[p] + first, starts[p] + stop))
                assert positions and whole == (
                    pieces.get(window) is None and len(positions) == min(size, total - window * size)
                )
                pieces.setdefault(window, []).extend(positions)
        assert sorted(pieces) == list(range(-(-total // size)))
        for window, positions in pieces.items():
            assert positions == list(range(window * size, min((window + 1) * size, total)))

    check()
