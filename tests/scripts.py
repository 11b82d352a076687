"""Python scripts run as ``python script.py`` runs them, each in a process of its own, from one warmed interpreter.

A fresh ``python`` imports pandas, scikit-learn and nblint again before a script's first line:
about 2 s of CPU per script, where most documentation scripts take a fraction of that. A
:class:`ScriptRunner` starts one interpreter that imports them once (:data:`PRELOADED`) and then
forks it per script: the child is a process of its own (its own ``__main__``, globals,
working folder, ``sys.argv``, ``sys.path[0]``, standard streams and exit status; nothing it does
reaches the next script), so a script that only works inside a test runner still fails. Only the
import of the preloaded modules is shared. A script whose own children re-import its
``__main__`` (multiprocessing's spawn, a Dask cluster) is run with :func:`run_fresh`.
"""

from __future__ import annotations

import json
import select
import subprocess
import sys
import tempfile
from pathlib import Path

#: What the warmed interpreter imports before it forks (what the documentation's scripts import most).
PRELOADED = (
    "numpy",
    "pandas",
    "sklearn.feature_extraction.text",
    "sklearn.model_selection",
    "sklearn.naive_bayes",
    "sklearn.pipeline",
    "sklearn.preprocessing",
    "nblint",
    "nblint.cli",
)

#: Seconds a script may run.
TIMEOUT = 600

#: The warmed interpreter: one request per line (a script, its folder and where its outputs go),
#: answered with the forked child's exit status.
_SERVER = r"""
import importlib, json, os, runpy, sys, traceback

for name in sys.argv[1:]:
    importlib.import_module(name)
print("ready", flush=True)
for line in sys.stdin:
    request = json.loads(line)
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid:
        _, status = os.waitpid(pid, 0)
        print(os.waitstatus_to_exitcode(status), flush=True)
        continue
    # The child: the script's own process, its streams the files asked for, stdin empty.
    for fd, path, flags in ((0, os.devnull, os.O_RDONLY), (1, request["stdout"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC),
                            (2, request["stderr"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC)):
        os.dup2(os.open(path, flags, 0o644), fd)
    sys.stdin = open(0, closefd=False)
    os.chdir(request["cwd"])
    sys.argv = [request["script"], *request["args"]]
    sys.path[0] = os.path.dirname(os.path.abspath(request["script"]))
    try:
        runpy.run_path(request["script"], run_name="__main__")
    except SystemExit:
        raise  # (the interpreter's own exit: its status, atexit and the threads' join, as python script.py)
    except BaseException:
        traceback.print_exc()
        sys.exit(1)
    sys.exit(0)
"""


class ScriptRunner:
    """One warmed interpreter that runs each script in a forked process of its own (POSIX)."""

    def __init__(self, preloaded: tuple[str, ...] = PRELOADED):
        command = [sys.executable, "-c", _SERVER, *preloaded]
        self.server = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert self.server.stdout is not None and self.server.stdout.readline() == "ready\n"

    def run(self, script: Path, *args: str) -> subprocess.CompletedProcess:
        """Run ``python script ARGS`` in the script's folder: its exit status and outputs."""
        assert self.server.stdin is not None and self.server.stdout is not None
        with tempfile.TemporaryDirectory() as outputs:  # (not beside the script: a bench script is in the checkout)
            out, err = Path(outputs) / "stdout", Path(outputs) / "stderr"
            request = {
                "script": str(script),
                "args": list(args),
                "cwd": str(script.parent),
                "stdout": str(out),
                "stderr": str(err),
            }
            self.server.stdin.write(json.dumps(request) + "\n")
            self.server.stdin.flush()
            if not select.select([self.server.stdout], [], [], TIMEOUT)[0]:
                self.server.kill()
                raise TimeoutError(f"{script.name} ran for more than {TIMEOUT} s")
            status = int(self.server.stdout.readline())
            stdout, stderr = out.read_text(), err.read_text()
        return subprocess.CompletedProcess([sys.executable, script.name, *args], status, stdout, stderr)

    def close(self) -> None:
        assert self.server.stdin is not None
        self.server.stdin.close()
        self.server.wait(timeout=60)


def run_fresh(script: Path, *args: str) -> subprocess.CompletedProcess:
    """Run ``python script ARGS`` in a fresh interpreter, in the script's folder."""
    command = [sys.executable, script.name, *args]
    return subprocess.run(command, cwd=script.parent, capture_output=True, text=True, timeout=TIMEOUT)


#: ``nblint ARGV`` for each ARGV of the JSON list it is given, all at once, each in a process of its own
#: forked from this one (its outputs thrown away); prints their exit statuses, in order, as a JSON list.
_CONCURRENT_CLI = """
import json, os, sys
from nblint.cli import main

children = []
for argv in json.loads(sys.argv[1]):
    pid = os.fork()
    if pid == 0:
        os.dup2(os.open(os.devnull, os.O_WRONLY), 1), os.dup2(os.open(os.devnull, os.O_WRONLY), 2)
        try:
            main(argv, prog_name="nblint")
        except SystemExit as exc:
            os._exit(exc.code if isinstance(exc.code, int) else 1)
        os._exit(0)
    children.append(pid)
print(json.dumps([os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) for pid in children]))
"""


def run_concurrently(runner: ScriptRunner, folder: Path, argvs: list[list[str]]) -> list[int]:
    """``nblint ARGV`` for each of ``argvs`` at once, each a process of its own (forked by ``runner``'s
    interpreter, which imports nblint's CLI once): their exit statuses, in order."""
    script = folder / "concurrent_cli.py"
    script.write_text(_CONCURRENT_CLI)
    ran = runner.run(script, json.dumps(argvs))
    assert ran.returncode == 0, ran.stderr
    return json.loads(ran.stdout)
