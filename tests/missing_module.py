"""The CLI run in a fresh interpreter where one optional dependency cannot be imported, as if not installed."""

from __future__ import annotations

import subprocess
import sys


def cli_without(module: str, *args: str) -> subprocess.CompletedProcess:
    """``nblint ARGS`` in a fresh interpreter where ``import module`` fails (``sys.modules[module] = None``)."""
    code = f"import sys; sys.modules[{module!r}] = None\nfrom nblint.cli import main\nmain(prog_name='nblint')\n"
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=300)
