"""The findings on the bench tables stay byte for byte what they were (set NBLINT_UPDATE_GOLDEN=1 to rewrite).

Speed work changes how rows are read, profiled and scored, never what is found: every bench
shape of ``bench/make_data.py`` (``long``, ``long`` written in pieces, ``wide``, ``small`` and a
folder of small tables), generated at test time from its seed at a small number of rows, is
checked as ``nblint check --format json`` and compared with the JSON recorded before
(``tests/golden/bench/``). Each runs as the CLI runs it, and again with chunks and impact
windows cut small, one thread, no encoded rows kept between NB401's passes, and the first pass's
chunks kept in memory (as a 1,000,000-row table's are) or a spill (compressed, as a 10,000,000-row
table's is) however small the file, so the streaming paths a long table takes are the ones compared,
on a table a test can afford.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from nblint.cli import main

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = Path(__file__).parent / "golden" / "bench"
sys.path.insert(0, str(ROOT / "bench"))
import make_data  # noqa: E402  (bench/: the one generator of each bench shape)

#: Rows of each small table: several impact windows and chunks once those are cut small.
ROWS = 3000


@pytest.fixture(scope="module")
def tables(tmp_path_factory) -> Path:
    """Every bench shape, small, in one folder (the names are the golden files')."""
    folder = tmp_path_factory.mktemp("bench")
    make_data.make_long(folder / "long.csv", ROWS)
    make_data.make_long_streamed(folder / "long_streamed.csv", ROWS, piece=1000)
    make_data.make_wide(folder / "wide.csv", ROWS, n_groups=20)
    make_data.small_table(folder / "small.csv", 0)
    make_data.small_folder(folder / "small_folder", 4)
    return folder


CASES = ["long", "long_streamed", "wide", "small", "small_folder"]


def check(name: str, *extra: str) -> str:
    target = name if name == "small_folder" else f"{name}.csv"
    result = CliRunner().invoke(main, ["check", target, "--target", "y", "--format", "json", *extra])
    assert result.exit_code in (0, 1) and result.stderr == "", result.output
    return result.stdout


@pytest.mark.parametrize("name", CASES)
def test_bench_findings_are_unchanged(name, tables, monkeypatch):
    monkeypatch.chdir(tables)
    output = check(name)
    path = GOLDEN / f"{name}.json"
    if os.environ.get("NBLINT_UPDATE_GOLDEN"):
        path.parent.mkdir(exist_ok=True)
        path.write_text(output)
    assert output == path.read_text()


@pytest.mark.parametrize("kept", [True, False], ids=["kept", "spilled"])
@pytest.mark.parametrize("name", ["long", "long_streamed", "wide"])
def test_bench_findings_do_not_depend_on_chunks_windows_or_threads(name, kept, tables, monkeypatch):
    """The long table's paths on a small one: many chunks, many impact windows, pass 2 reading the rows again."""
    from nblint.impact import measure
    from nblint.readers import chunks, csvfile

    monkeypatch.chdir(tables)
    monkeypatch.setattr(chunks, "CHUNK_CELLS", 65 * 700)
    monkeypatch.setattr(chunks, "MIN_CHUNK_ROWS", 1)
    monkeypatch.setattr(chunks, "WIDE_CHUNK_ROWS", 1)
    monkeypatch.setattr(measure, "SCORE_CELLS", 40 * 450)
    monkeypatch.setattr(measure, "ENCODED_CACHE_BYTES", 0)
    if not kept:  # (later passes read the spill, as a 10M-row table's do, compressed as its is)
        monkeypatch.setattr(csvfile.CsvSource, "KEEP_BYTES", 0)
        monkeypatch.setattr(csvfile.CsvSource, "SPILL_MIN_BYTES", 0)
        monkeypatch.setattr(csvfile.CsvSource, "SPILL_PLAIN_BYTES", 0)
    assert check(name, "--jobs", "1") == (GOLDEN / f"{name}.json").read_text()


def test_a_small_spill_is_written_as_is_and_a_large_one_compressed(tables, monkeypatch):
    """The spill's compression follows its expected size: the same rows, fewer bytes on disk past the bound."""
    from nblint.readers import csvfile

    monkeypatch.setattr(csvfile.CsvSource, "KEEP_BYTES", 0)  # (a table whose chunks are not kept in memory)

    def spill_bytes() -> int:
        source = csvfile.CsvSource(str(tables / "long.csv"))
        source.settled_pass(lambda chunks: [None for _ in chunks])
        assert source._spill is not None
        return os.path.getsize(source._spill.name)

    plain = spill_bytes()
    monkeypatch.setattr(csvfile.CsvSource, "SPILL_PLAIN_BYTES", plain // 2)  # (its values pass the bound now)
    compressed = spill_bytes()
    # The long shape's 0/1 columns are int8 bytes of 0 and 1: LZ4 takes them to well under half.
    assert compressed < plain / 2
