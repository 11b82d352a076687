"""The CLI as the tests run it: in the test's own process, or in a fresh interpreter without an optional dependency."""

from __future__ import annotations

import subprocess
import sys


def cli_without(module: str, *args: str) -> subprocess.CompletedProcess:
    """``nblint ARGS`` in a fresh interpreter where ``import module`` fails (``sys.modules[module] = None``)."""
    code = f"import sys; sys.modules[{module!r}] = None\nfrom nblint.cli import main\nmain(prog_name='nblint')\n"
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=300)


def cli_here(*args: str) -> subprocess.CompletedProcess:
    """``nblint ARGS`` run by the CLI's own entry point in this process, as its return code and outputs.

    In the test's process (click's runner, as tests/test_hostile.py runs the CLI), not a child: a
    child imports pandas and scikit-learn again, about 2 s of CPU, where linting a test's table
    takes a tenth of that. An exception that escapes the CLI (a traceback in a real run) is raised;
    nblint's warnings are errors (pyproject's filterwarnings). Tests of the process itself (signals,
    descriptors, a missing package) start a child instead.
    """
    from click.testing import CliRunner

    from nblint.cli import main

    result = CliRunner().invoke(main, list(args), prog_name="nblint")
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return subprocess.CompletedProcess(["nblint", *args], result.exit_code, result.stdout, result.stderr)
