"""Benchmark: what the test suite costs, file by file, in CPU seconds (and wall, which load inflates).

Each test file runs as its own ``python -m pytest FILE -p no:cacheprovider`` process, one
after the other; its CPU time is the user + system time of that process and every process
it waited for (``resource.getrusage(RUSAGE_CHILDREN)`` before and after), so subprocesses a
test starts (the CLI, a wheel build, pre-commit) are counted. CPU seconds are what a file
costs whatever else runs on the machine; wall seconds are not, on a shared one. It prints
one line per file (CPU, wall, tests run, pytest's last line), the most expensive first, then
the totals, the date, the machine's cores and its load average before and after.

Files run one process each (``-o addopts=`` leaves out pyproject's ``-n auto``), so that a file's
CPU seconds are its own. ``--suite`` instead runs the README's command, ``python -m pytest``, then
the fast subset, ``python -m pytest -m "not slow"``, each once as configured (on every core, through
pytest-xdist), and prints their wall seconds: the figures the documentation gives, which mean
something only on a machine with nothing else running (the load average printed says whether it was).
With them it prints how busy each worker was (the seconds of the tests it ran, setup and teardown
included) and the files that kept it busy: the wall time is the busiest worker's, so a worker far
busier than the other says a test or an ``xdist_group`` pins too much work to one process. (This
module is loaded into the run as a pytest plugin, ``-p bench_tests``, which records each test's
seconds and worker in the controller; it changes nothing else.)

    python bench/bench_tests.py                          # every tests/test_*.py
    python bench/bench_tests.py --fast                   # the fast subset: -m "not slow"
    python bench/bench_tests.py tests/test_contract.py tests/test_rule_cases.py
    python bench/bench_tests.py --suite                  # wall time of the whole suite and the fast subset
    python bench/bench_tests.py --top 20 tests/test_hostile.py   # and its 20 costliest tests, in CPU seconds

With ``--top N`` each file's process loads this module as a plugin too, which records every test's
CPU seconds (the process's and its waited-for children's, setup and teardown included), and the N
costliest tests are listed at the end: on a loaded machine pytest's ``--durations`` (wall) misleads.
"""

from __future__ import annotations

import argparse
import datetime
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def children_cpu() -> float:
    """CPU seconds (user + system) of every child process waited for so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def summarise(result: subprocess.CompletedProcess) -> tuple[int, str]:
    """Tests run (skipped ones aside) and pytest's last line."""
    summary = result.stdout.strip().splitlines()[-1] if result.stdout.strip() else result.stderr.strip()[-200:]
    counts = {word: int(n) for n, word in re.findall(r"(\d+) (passed|failed|xfailed|xpassed|skipped|error)", summary)}
    return sum(n for word, n in counts.items() if word != "skipped"), summary


def run_file(path: Path, fast: bool, test_log: Path | None = None) -> tuple[float, float, int, str]:
    """CPU seconds, wall seconds, tests run and pytest's summary line of one test file.

    With ``test_log``, the plugin below appends each test's CPU seconds to that file.
    """
    command = [sys.executable, "-m", "pytest", str(path), "-p", "no:cacheprovider", "-o", "addopts=", "-q"]
    command += ["--strict-markers", "-m", "not slow"] if fast else ["--strict-markers"]
    env = dict(os.environ)
    if test_log is not None:
        command += ["-p", "bench_tests"]
        env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "bench"), os.environ.get("PYTHONPATH", "")])
        env[TEST_LOG] = str(test_log)
    cpu, wall = children_cpu(), time.perf_counter()
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, env=env)
    cpu, wall = children_cpu() - cpu, time.perf_counter() - wall
    return cpu, wall, *summarise(result)


#: Where the plugin below writes each test's CPU seconds (setup, call and teardown; ``--top``).
TEST_LOG = "NBLINT_BENCH_TEST_LOG"


def process_cpu() -> float:
    """CPU seconds of this process and of every child process it waited for."""
    return sum(
        usage.ru_utime + usage.ru_stime
        for usage in (resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN))
    )


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item, nextitem):
    """As a pytest plugin (``-p bench_tests``, one process): each test's CPU seconds, its children included."""
    path = os.environ.get(TEST_LOG)
    started = process_cpu()
    try:
        return (yield)
    finally:
        if path:
            with open(path, "a", encoding="utf-8") as log:
                log.write(f"{process_cpu() - started:.3f}\t{item.nodeid}\n")


def top_tests(path: Path, count: int) -> list[str]:
    """Lines giving the ``count`` tests that took the most CPU seconds, the most first."""
    rows = [line.split("\t", 1) for line in path.read_text(encoding="utf-8").splitlines()]
    ranked = sorted(((float(seconds), nodeid) for seconds, nodeid in rows), reverse=True)[:count]
    return [f"{seconds:8.1f}  {nodeid}" for seconds, nodeid in ranked]


#: Where the plugin below writes one line per test phase (worker, seconds, node id) in the controller.
WORKER_LOG = "NBLINT_BENCH_WORKER_LOG"


def pytest_runtest_logreport(report) -> None:
    """As a pytest plugin (``-p bench_tests``): the worker and seconds of each test phase, in the controller."""
    path = os.environ.get(WORKER_LOG)
    if not path or "PYTEST_XDIST_WORKER" in os.environ:  # a worker's own reports reach the controller too
        return
    node = getattr(report, "node", None)
    worker = node.gateway.id if node is not None else "main"
    with open(path, "a", encoding="utf-8") as log:
        log.write(f"{worker}\t{report.duration:.4f}\t{report.nodeid}\n")


def worker_totals(path: Path) -> list[str]:
    """Lines saying each worker's busy seconds and the three files that took most of them."""
    busy: dict[str, float] = {}
    files: dict[tuple[str, str], float] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        worker, seconds, nodeid = line.split("\t", 2)
        busy[worker] = busy.get(worker, 0.0) + float(seconds)
        key = (worker, nodeid.split("::")[0])
        files[key] = files.get(key, 0.0) + float(seconds)
    lines = []
    for worker in sorted(busy):
        top = sorted(((s, f) for (w, f), s in files.items() if w == worker), reverse=True)[:3]
        lines.append(f"  {worker}: busy {busy[worker]:.1f} s; most in " + ", ".join(f"{f} ({s:.1f} s)" for s, f in top))
    return lines


def run_suite(fast: bool) -> tuple[float, float, int, str, list[str]]:
    """CPU and wall seconds, tests run, pytest's summary line and the workers' totals of the suite (or its fast subset)."""
    command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "bench_tests"]
    command += ["-m", "not slow"] if fast else []
    with tempfile.TemporaryDirectory() as folder:
        log = Path(folder) / "workers.tsv"
        log.touch()
        path = os.pathsep.join([str(ROOT / "bench"), os.environ.get("PYTHONPATH", "")])
        env = {**os.environ, "PYTHONPATH": path, WORKER_LOG: str(log)}
        cpu, wall = children_cpu(), time.perf_counter()
        result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, env=env)
        cpu, wall = children_cpu() - cpu, time.perf_counter() - wall
        return cpu, wall, *summarise(result), worker_totals(log)


def suite() -> None:
    """Print the wall and CPU seconds of ``python -m pytest`` and of ``python -m pytest -m "not slow"``."""
    load_before = os.getloadavg()
    print(f"{'wall s':>8} {'CPU s':>8} {'tests':>6}  command: pytest's last line")
    for fast in (False, True):
        cpu, wall, ran, summary, workers = run_suite(fast)
        command = 'python -m pytest -m "not slow"' if fast else "python -m pytest"
        print(f"{wall:8.1f} {cpu:8.1f} {ran:6d}  {command}: {summary}", flush=True)
        print("\n".join(workers), flush=True)
    print(
        f"recorded {datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC on {os.cpu_count()} cores; "
        f"load average {load_before[0]:.1f} before, {os.getloadavg()[0]:.1f} after"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", help="test files (default: every tests/test_*.py)")
    parser.add_argument("--fast", action="store_true", help='only the fast subset (-m "not slow")')
    parser.add_argument(
        "--suite", action="store_true", help="the whole suite, then the fast subset, as the README runs them"
    )
    parser.add_argument("--top", type=int, default=0, metavar="N", help="then the N tests that took the most CPU")
    args = parser.parse_args(argv)
    if args.suite:
        return suite()
    files = [Path(f).resolve() for f in args.files] or sorted((ROOT / "tests").glob("test_*.py"))
    load_before = os.getloadavg()
    rows = []
    test_log = Path(tempfile.mkdtemp()) / "tests.tsv" if args.top else None
    for path in files:
        cpu, wall, ran, summary = run_file(path, args.fast, test_log)
        rows.append((cpu, wall, ran, path.relative_to(ROOT), summary))
        print(f"  ran {path.relative_to(ROOT)}: {cpu:.1f} s CPU, {wall:.1f} s wall, {ran} tests", file=sys.stderr)
    print(f"{'CPU s':>8} {'wall s':>8} {'tests':>6}  file: pytest's last line")
    for cpu, wall, ran, name, summary in sorted(rows, key=lambda row: -row[0]):
        print(f"{cpu:8.1f} {wall:8.1f} {ran:6d}  {name}: {summary}")
    total_cpu, total_wall, total_tests = (sum(row[i] for row in rows) for i in range(3))
    subset = 'the fast subset (-m "not slow")' if args.fast else "every test"
    print(f"{total_cpu:8.1f} {total_wall:8.1f} {total_tests:6d}  total over {len(rows)} files, {subset}")
    print(
        f"recorded {datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC on {os.cpu_count()} cores; "
        f"load average {load_before[0]:.1f} before, {os.getloadavg()[0]:.1f} after"
    )
    if test_log is not None:
        print(f"the {args.top} tests that took the most CPU seconds (setup, call and teardown, children included):")
        print("\n".join(top_tests(test_log, args.top) if test_log.exists() else []))
        shutil.rmtree(test_log.parent)


if __name__ == "__main__":
    main()
