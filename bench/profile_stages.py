"""Profile: where `nblint check`'s CPU time goes on one table, stage by stage.

Runs ``nblint check PATH --target y --format json --jobs 1`` in this process under cProfile
with a CPU-time clock (``time.process_time``: time spent waiting on a loaded machine is not
counted, so the shares hold under load; ``--jobs 1`` puts every stage on the profiled thread)
and prints the CPU seconds of each stage, as the speed page's breakdown gives them:

* parse: pyarrow's CSV parser, block by block (the read's own work);
* profile: the per-chunk profile (kinds, class counts, Gram and co-occurrence counts);
* profile pass, the rest: Arrow columns to numpy, chunks regrouped, the first pass's bookkeeping;
* spill: the parsed rows kept for NB401's pass, in memory (:mod:`nblint.readers.kept`) or in a
  temporary Arrow file (a table too large to keep);
* NB401, its rows: the kept rows (or the spill read back, to numpy), encoded, fold statistics, windows;
* NB401, scoring: CAT, PoB and every one-group variant scored on every row, both passes;
* structure, other rules: group search, VIF and every other rule;
* output: the report rendered;
* start-up: the rest (imports, the command line, loading the rules).

The profiler's own cost per call weighs on stages made of many small calls (keeping the rows
took 0.41 s profiled and about 0.06 s unprofiled, 4,030 columns of chunks): a change there is
measured in whole processes (``bench/bench_check.py``).

    python bench/make_data.py long 1000000 /tmp/long.csv
    python bench/profile_stages.py /tmp/long.csv --save /tmp/long.prof
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import io
import os
import pstats
import re
import time

#: Each stage's functions (their cumulative CPU time), as ``file:line(function)`` patterns.
STAGES = {
    "parse": r"readers/csvfile.py:\d+\(parse\)",
    "profile": r"profile/table.py:\d+\(from_chunk\)",
    "spill": r"readers/(spill.py:\d+\((add|finish)\)|kept.py:\d+\(add\))",
    "profile pass": r"run/runner.py:\d+\(make_context\)",
    "NB401": r"impact/measure.py:\d+\(measure_impact\)",
    "NB401, scoring": r"impact/scoring.py:\d+\(posteriors\)",
    "lint": r"run/runner.py:\d+\(lint_paths\)",
    "output": r"report/formats.py:\d+\(render\)",
}


def cumulative(stats: pstats.Stats, pattern: str) -> float:
    """CPU seconds spent in (and under) the functions matching ``pattern``."""
    found = re.compile(pattern)
    return sum(entry[3] for (path, line, name), entry in stats.stats.items() if found.search(f"{path}:{line}({name})"))


def stages(stats: pstats.Stats) -> dict[str, float]:
    """The breakdown: each stage's CPU seconds, the stages adding up to the whole profile."""
    t = {name: cumulative(stats, pattern) for name, pattern in STAGES.items()}
    total = stats.total_tt
    return {
        "start-up": total - t["lint"] - t["output"],
        "parse": t["parse"],
        "profile": t["profile"],
        "profile pass, the rest": t["profile pass"] - t["parse"] - t["profile"] - t["spill"],
        "spill": t["spill"],
        "NB401, its rows": t["NB401"] - t["NB401, scoring"],
        "NB401, scoring": t["NB401, scoring"],
        "structure, other rules": t["lint"] - t["profile pass"] - t["NB401"],
        "output": t["output"],
        "total": total,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("path", help="the CSV to check (its target column is y)")
    parser.add_argument("--save", help="also write the profile here (for pstats or snakeviz)")
    args = parser.parse_args()

    profiler = cProfile.Profile(time.process_time)
    profiler.enable()
    from nblint.cli import main as cli

    with contextlib.redirect_stdout(io.StringIO()):  # (the report itself is not wanted here)
        try:
            cli(["check", args.path, "--target", "y", "--format", "json", "--jobs", "1"], standalone_mode=False)
        except SystemExit:
            pass
    profiler.disable()
    if args.save:
        profiler.dump_stats(args.save)
    breakdown = stages(pstats.Stats(profiler))
    total = breakdown["total"]
    for name, seconds in breakdown.items():
        print(f"{name:24s} {seconds:6.2f} s  {seconds / total:4.0%}")
    load = " ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"(CPU seconds under the profiler, --jobs 1; load average {load})")


if __name__ == "__main__":
    main()
