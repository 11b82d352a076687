"""A wide CSV's packed int8 columns and digit blocks give the chunks, profile and findings of the plain path.

The packed path (:mod:`nblint.readers.packed`, :mod:`nblint.readers.digits`) is taken by
tables of more than 4,096 int8 columns; here the threshold is lowered so that small
hypothesis tables take it, with parse blocks and chunks of a few rows so that a table
spans several of each. The oracle is the same CSV read with packing switched off
(every column one pyarrow array, profiled dense), and pyarrow's own parse for the
digit reader.
"""

from __future__ import annotations

import inspect
import json

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.csv as pacsv
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nblint.cli import main
from nblint.profile.gram import Gram
from nblint.profile.incidence import Incidence
from nblint.profile.levels import Levels
from nblint.profile.numeric import NumericStats
from nblint.profile.table import TableProfile, TextStats
from nblint.readers import CsvSource, packed
from nblint.readers.digits import single_digits

FUZZ = settings(max_examples=25, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
#: Columns beside the 0/1 words, each a way for a packed column or a block to leave the fast path.
EXTRAS = ["late_two", "late_big", "gappy_word", "text", "float", "count", "all_zero", "negative"]


@st.composite
def wide_tables(draw) -> pd.DataFrame:
    n = draw(st.integers(12, 90))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    density = draw(st.sampled_from([0.05, 0.2, 0.5]))
    columns: dict = {f"w{j:02d}": (rng.random(n) < density).astype(int) for j in range(draw(st.integers(5, 12)))}
    level = rng.integers(0, 3, n)
    for j in range(3):  # a one-hot group among the words
        columns[f"g_{j}"] = (level == j).astype(int)
    late = int(rng.integers(n // 2, n))  # a row past the first block and chunk
    for kind in draw(st.lists(st.sampled_from(EXTRAS), max_size=4, unique=True)):
        values = pd.Series((rng.random(n) < 0.3).astype(int), dtype=object)
        if kind == "late_two":  # 0/1 in the first block, 2 in a later one: still int8
            values[late] = 2
        elif kind == "late_big":  # past int8 later on: the pass restarts with the column int64
            values[late] = 300
        elif kind == "gappy_word":  # missing cells in a 0/1 column
            values[rng.random(n) < 0.2] = None
        elif kind == "text":
            values = pd.Series(rng.choice(["a", "b", ""], n), dtype=object)
        elif kind == "float":
            values = pd.Series(np.round(rng.normal(size=n), 2))
        elif kind == "count":
            values = pd.Series(rng.integers(0, 6, n))
        elif kind == "all_zero":
            values = pd.Series(np.zeros(n, dtype=int))
        else:
            values = pd.Series(rng.integers(-1, 2, n))
        columns[kind] = values
    if draw(st.booleans()):
        target = pd.Series(rng.integers(0, draw(st.integers(2, 3)), n), dtype=object)
        if draw(st.booleans()):
            target[rng.random(n) < 0.1] = None
    else:
        target = pd.Series(rng.choice(["spam", "ham"], n), dtype=object)
    columns["y"] = target
    order = draw(st.permutations(list(columns)))
    return pd.DataFrame({name: columns[name] for name in order})


@pytest.fixture
def small_blocks(monkeypatch):
    """Pack from 3 int8 columns on, parse blocks of about 200 bytes: a small table spans several."""
    monkeypatch.setattr(packed, "PACK_COLUMNS", 3)
    monkeypatch.setattr(CsvSource, "PARSE_BLOCK", 200)
    monkeypatch.setattr(CsvSource, "BLOCK_ROWS", 1)
    monkeypatch.setattr(CsvSource, "MAX_PARSE_BLOCK", 200)


def profile(path, pack: bool, jobs: int, chunk_rows: int = 8) -> tuple[TableProfile, CsvSource]:
    source = CsvSource(str(path), chunk_rows=chunk_rows)
    source.PACK = pack
    source.jobs = jobs
    return TableProfile.from_source(source, "y", jobs=jobs, wide_binary=3), source


def assert_same(a, b, where="profile"):
    """Two profiles (or parts) equal to the bit: arrays by value, dtype and NaN; objects field by field."""
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        a, b = np.asarray(a), np.asarray(b)
        assert a.dtype == b.dtype and a.shape == b.shape, where
        assert np.array_equal(a, b, equal_nan=a.dtype.kind == "f"), where
    elif isinstance(a, Incidence):
        assert isinstance(b, Incidence), where
        assert_same(a.B.toarray(), b.B.toarray(), where)
    elif isinstance(a, Levels):
        assert a.keys == b.keys, where
        assert_same(a.table, b.table, where)
    elif isinstance(a, dict):
        assert list(a) == list(b), where
        for key in a:
            assert_same(a[key], b[key], f"{where}[{key!r}]")
    elif isinstance(a, (list, tuple)) and not isinstance(a, str):
        assert len(a) == len(b), where
        for i, (x, y) in enumerate(zip(a, b)):
            assert_same(x, y, f"{where}[{i}]")
    elif isinstance(a, (TableProfile, TextStats, NumericStats, Gram)):  # (records: their fields are their parameters)
        assert type(a) is type(b), where
        for name in inspect.signature(type(a)).parameters:
            assert_same(getattr(a, name), getattr(b, name), f"{where}.{name}")
    else:
        assert a == b or (a != a and b != b), (where, a, b)


@pytest.mark.slow
@FUZZ
@given(frame=wide_tables())
def test_the_packed_path_profiles_a_table_as_the_plain_path_does(tmp_path_factory, small_blocks, frame):
    path = tmp_path_factory.mktemp("packed") / "t.csv"
    frame.to_csv(path, index=False)
    plain, _ = profile(path, pack=False, jobs=1)
    for jobs in (1, 2):
        fast, source = profile(path, pack=True, jobs=jobs)
        assert_same(plain, fast)
        # The later passes read the packed spill: the same columns as the plain path's.
        names = list(frame.columns)
        again = [[(c.kind, c.values.tolist(), c.missing) for c in chunk.columns] for chunk in source.chunks(names)]
        plain_source = CsvSource(str(path), chunk_rows=8)
        plain_source.PACK = False
        plain_source.settled_pass(lambda chunks: [None for _ in chunks])
        expected = [
            [(c.kind, c.values.tolist(), c.missing) for c in chunk.columns] for chunk in plain_source.chunks(names)
        ]
        assert_same(again, expected, "chunks")


def test_the_packed_path_is_taken_and_sparse_blocks_reach_the_profile(tmp_path, small_blocks, monkeypatch):
    """(So that the properties above compare two different paths.)"""
    rng = np.random.default_rng(1)
    frame = pd.DataFrame({f"w{j}": (rng.random(40) < 0.3).astype(int) for j in range(8)})
    frame["late"] = 0
    frame.loc[35, "late"] = 2
    frame["y"] = rng.integers(0, 2, 40)
    frame.to_csv(tmp_path / "t.csv", index=False)

    def parsed(self, table):
        raise AssertionError("a block of single digits was parsed by pyarrow")

    monkeypatch.setattr(packed.Packing, "pack", parsed)  # every block here is single digits
    source = CsvSource(str(tmp_path / "t.csv"), chunk_rows=8)
    blocks = source.settled_pass(lambda chunks: [chunk.sparse for chunk in chunks], sparse_except=("y",))
    assert source._packing is not None and "y" in source._packing.packed
    assert len(blocks) == 5 and all(block is not None and block.table_columns for block in blocks)
    assert "y" not in blocks[0].names and "late" in blocks[0].names
    assert "late" not in blocks[-1].names  # 2 in the last chunk: an ordinary column there


def test_findings_packed_and_plain_agree(tmp_path, small_blocks, monkeypatch):
    rng = np.random.default_rng(3)
    n = 80
    frame = pd.DataFrame({f"w{j}": (rng.random(n) < 0.15).astype(int) for j in range(12)})
    level = rng.integers(0, 4, n)
    for j in range(4):
        frame[f"g_{j}"] = (level == j).astype(int)
    frame["gappy"] = pd.Series((rng.random(n) < 0.4).astype(int), dtype=object).mask(rng.random(n) < 0.1)
    frame["late"] = (rng.random(n) < 0.5).astype(int)
    frame.loc[70, "late"] = 2
    frame["y"] = rng.choice(["a", "b"], n)
    frame.to_csv(tmp_path / "t.csv", index=False)
    config = tmp_path / "nblint.toml"
    config.write_text("[NB106]\nwide-columns = 3\n")  # (the 16 complete 0/1 columns make a wide table)

    def run(pack: bool, jobs: int) -> list:
        monkeypatch.setattr(CsvSource, "PACK", pack)
        args = ["check", str(tmp_path / "t.csv"), "--target", "y", "--format", "json", "--jobs", str(jobs)]
        result = CliRunner().invoke(main, [*args, "--config", str(config)])
        assert result.exit_code in (0, 1), result.output
        return json.loads(result.output)

    plain = run(False, 1)
    assert {"NB101", "NB106"} <= {f["code"] for f in plain}
    assert any("wide table" in f["message"] for f in plain if f["code"] == "NB106")
    assert run(True, 1) == plain
    assert run(True, 2) == plain
    assert run(False, 2) == plain


CELLS = st.sampled_from(["0", "1", "7", "9", "10", "", "-1", "1.5", '"1"', " 1", "a"])


@settings(max_examples=200, deadline=None, derandomize=True)
@given(
    rows=st.lists(st.lists(CELLS, min_size=3, max_size=3), min_size=1, max_size=6),
    single=st.booleans(),
    end=st.sampled_from(["\n", "\r\n", ""]),
)
def test_single_digits_reads_exactly_what_pyarrow_parses_or_declines(rows, single, end):
    if single:  # most examples: fields of one digit, which the reader must take
        rows = [[cell if len(cell) == 1 and cell.isdigit() else "0" for cell in row] for row in rows]
    body = "\n".join(",".join(row) for row in rows) + end
    digits = single_digits(pa.py_buffer(body.encode()), 3, ",")
    if single and end != "\r\n":
        assert digits is not None
    if digits is None:
        return
    table = pacsv.read_csv(
        pa.BufferReader(body.encode()),
        read_options=pacsv.ReadOptions(column_names=["a", "b", "c"]),
        convert_options=pacsv.ConvertOptions(column_types=dict.fromkeys("abc", pa.int64())),
    )
    assert digits.dtype == np.uint8
    np.testing.assert_array_equal(digits, np.column_stack([table.column(c).to_numpy() for c in "abc"]))


def test_fix_writes_a_wide_csv_as_it_was_read_packed_or_not(tmp_path, small_blocks, monkeypatch):
    """``nblint fix`` reads the rows back from the spill, where a wide table's 0/1 columns are packed."""
    rng = np.random.default_rng(5)
    n = 50
    frame = pd.DataFrame({f"w{j}": (rng.random(n) < 0.2).astype(int) for j in range(8)})
    level = rng.integers(0, 3, n)
    for j, colour in enumerate(["red", "green", "blue"]):
        frame[f"colour_{colour}"] = (level == j).astype(int)
    frame["gappy"] = pd.Series((rng.random(n) < 0.4).astype(int), dtype=object).mask(rng.random(n) < 0.1)
    frame["y"] = rng.choice(["a", "b"], n)
    frame.to_csv(tmp_path / "t.csv", index=False)
    unpacked = []
    unpack_table = packed.Packing.unpack_table
    monkeypatch.setattr(packed.Packing, "unpack_table", lambda *a: unpacked.append(1) or unpack_table(*a))
    written = {}
    for pack in (False, True):
        monkeypatch.setattr(CsvSource, "PACK", pack)
        out = tmp_path / f"fixed_{pack}.csv"
        result = CliRunner().invoke(main, ["fix", str(tmp_path / "t.csv"), "-o", str(out)])
        assert result.exit_code == 0, result.output
        written[pack] = out.read_bytes()
    assert unpacked and written[True] == written[False]
    fixed = pd.read_csv(tmp_path / "fixed_True.csv")
    assert "colour" in fixed.columns and fixed["gappy"].isna().sum() == frame["gappy"].isna().sum()
