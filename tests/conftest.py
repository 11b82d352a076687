import gc
import os
import sys
import textwrap
import types

import pytest

#: Set (to the variable's value) where the run removed PYTHONDONTWRITEBYTECODE from its environment.
_NO_BYTECODE = pytest.StashKey[str]()


def pytest_configure(config: pytest.Config) -> None:
    """The run's processes cache their bytecode, as Python does unless told not to.

    With ``PYTHONDONTWRITEBYTECODE`` set, nothing caches the compiled modules of the editable
    nblint (pip compiles an installed package's, not an editable one's) nor pytest's rewritten
    test modules: every process of the run (each xdist worker, each child that runs the CLI or a
    script) compiles them from source again, about 3 s of CPU per worker and 0.2 s per child.
    The run (its controller, before the workers start) leaves the variable out of its
    environment, so each module is compiled once and read from ``__pycache__`` (which
    ``.gitignore`` lists) after; the variable comes back when the run ends. (As
    ``bench/bench_check.py`` measures nblint: as an installed package runs.)
    """
    value = os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    if value is not None:
        config.stash[_NO_BYTECODE] = value
        sys.dont_write_bytecode = False


def pytest_unconfigure(config: pytest.Config) -> None:
    value = config.stash.get(_NO_BYTECODE, None)
    if value is not None:
        os.environ["PYTHONDONTWRITEBYTECODE"] = value
        sys.dont_write_bytecode = True


@pytest.hookimpl(tryfirst=True)
def pytest_runtestloop(session: pytest.Session) -> None:
    """What a process holds when its tests start stays to its end: the cyclic collector stops walking it.

    By then a worker holds the imported libraries (pandas, scikit-learn, SciPy) and the collected
    tests, about 250,000 tracked objects, none of them garbage: each full collection walked them all
    (about 0.25 s; a few run during the tests, and pytest's clean-up runs five more at the end of
    each process, to report what finalisers raised). Frozen (``gc.freeze``), they are left out of
    every collection; what a test creates is collected as before.
    """
    gc.freeze()


@pytest.hookimpl(optionalhook=True, tryfirst=True)  # (before xdist's own, which would make its own)
def pytest_xdist_make_scheduler(config: pytest.Config, log):
    """``--dist loadgroup`` as xdist schedules it, counting only unfinished work (``tests/scheduling.py``)."""
    if config.getvalue("dist") != "loadgroup":
        return None
    from scheduling import PrunedLoadGroupScheduling

    return PrunedLoadGroupScheduling(config, log)


@pytest.hookimpl(tryfirst=True)  # before xdist's own hook, which reads the marks
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Keep the tests of a file that share a module-scoped fixture on one worker under ``pytest -n``.

    A module fixture (a scored corpus, a Dask cluster, a built hook repository) is built once per
    process that runs a test using it; ``--dist loadgroup`` (pyproject's addopts) sends the tests
    of one ``xdist_group`` to one worker, so it is built once, as in a single process. The other
    tests go to whichever worker is free. Without ``-n`` the mark does nothing.
    """
    for item in items:
        fixtures = getattr(item, "_fixtureinfo", None)
        if fixtures is None or item.get_closest_marker("xdist_group"):
            continue
        scopes = {definition.scope for defs in fixtures.name2fixturedefs.values() for definition in defs}
        if scopes & {"module", "class", "package"}:
            item.add_marker(pytest.mark.xdist_group(item.nodeid.split("::")[0]))
    if "PYTEST_XDIST_WORKER" in os.environ:
        # Longest first: a worker takes the next unit of work as it frees up, groups (the most tests
        # first) before single tests and single tests in this order; a test that takes seconds met
        # last keeps one worker busy while the other idles. The slow ones go ahead (a stable sort:
        # every worker collects the same order, as xdist requires). ``-n 0`` keeps the files' order.
        items.sort(key=lambda item: item.get_closest_marker("slow") is None)


@pytest.fixture(scope="session")
def script_runner():
    """One warmed interpreter per test process, forked per script (``tests/scripts.py``): ``run(script, *args)``.

    Each script is a process of its own, as ``python script.py`` runs it; only the import of pandas,
    scikit-learn and nblint (about 2 s of CPU a fresh interpreter pays) is paid once per worker, not
    once per script, by every test file that runs scripts (the documentation's, the code nblint
    prints). Session-scoped, so no file pins its tests to one worker for it. Without ``os.fork`` each
    script runs in a fresh interpreter.
    """
    from scripts import ScriptRunner, run_fresh

    if not hasattr(os, "fork"):
        yield types.SimpleNamespace(run=run_fresh)
        return
    runner = ScriptRunner()
    yield runner
    runner.close()


@pytest.fixture
def write(tmp_path):
    """Write text (or bytes, or what a function of no arguments returns) to a file in tmp_path; its path as str.

    (A function: a large input, built when its test writes it rather than when its module is
    collected by every test process.)
    """

    def _write(name: str, content) -> str:
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if callable(content):
            content = content()
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(textwrap.dedent(content))
        return str(path)

    return _write


@pytest.fixture
def declared(monkeypatch):
    """The (file name, target, model, alpha) each table of a run is linted with, in order."""
    import os

    import nblint.run.runner

    seen = []
    original = nblint.run.runner.lint_source

    def spy(source, settings, codes, jobs=None, **more):  # (more: a test table, --test)
        seen.append((os.path.basename(source.path), settings.target, settings.model, settings.alpha))
        return original(source, settings, codes, jobs, **more)

    monkeypatch.setattr(nblint.run.runner, "lint_source", spy)
    return seen
