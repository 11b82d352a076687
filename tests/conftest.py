import io
import textwrap

import pandas as pd
import pytest


def read_csv_text(text: str) -> pd.DataFrame:
    return pd.read_csv(io.StringIO(textwrap.dedent(text)))


@pytest.fixture
def write(tmp_path):
    """Write text (or bytes) to a file in tmp_path and return its path as str."""

    def _write(name: str, content) -> str:
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
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
