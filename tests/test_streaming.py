"""Streaming reads: the same findings as the table read whole, whatever the blocks, chunks or jobs."""

from __future__ import annotations

import gzip
import io
import os

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from tables import mixed_table

from nblint import testing
from nblint.cli import main
from nblint.core.progress import ProgressBar
from nblint.core.terminal import is_interactive
from nblint.engine import load_rules, run_rules
from nblint.profile.table import TableProfile
from nblint.readers import ArrowSource, CsvSource, ParquetSource, read_table
from nblint.readers.csvblocks import record_blocks


def findings(source, target="target", jobs=1):
    ctx = testing.context(source, target=target, jobs=jobs)
    return [f.to_dict() for f in run_rules(ctx, list(load_rules()), ctx.rule_options)]


def read_whole(path, chunk_rows):
    """The oracle: the table as pandas reads the whole file (values and missing cells)."""
    frame = pd.read_csv(path)
    return ArrowSource(str(path), pa.Table.from_pandas(frame, preserve_index=False), chunk_rows=chunk_rows)


def without_path(found):
    return [{k: v for k, v in f.items() if k != "path"} for f in found]


def small_blocks(monkeypatch, size):
    """Make both CSV readers (streamed for gzip, blocks for plain UTF-8) cut the file small."""
    monkeypatch.setattr(CsvSource, "BLOCK_SIZE", size)
    monkeypatch.setattr(CsvSource, "PARSE_BLOCK", size)


@pytest.fixture
def table_csv(tmp_path):
    frame, _ = mixed_table(3, n=600)
    path = tmp_path / "t.csv"
    frame.to_csv(path, index=False)
    return str(path)


@pytest.mark.parametrize("chunk_rows", [37, 600])
def test_streamed_csv_equals_the_table_read_whole(table_csv, monkeypatch, chunk_rows):
    # Tiny blocks: the streaming reader sees the file in many pieces, and the chunks
    # it regroups them into straddle the block boundaries.
    small_blocks(monkeypatch, 2048)
    whole = read_whole(table_csv, chunk_rows)
    streamed = CsvSource(table_csv, chunk_rows=chunk_rows)
    expected = findings(whole)
    assert findings(streamed) == expected
    assert {f["code"] for f in expected} >= {"NB101", "NB102", "NB104", "NB105"}
    assert streamed.passes >= 2  # the verification pass read the file again


def test_kept_chunks_give_later_passes_the_columns_a_spill_gives_without_reading_the_file(table_csv, monkeypatch):
    """The first pass's chunks kept in memory: later passes get what the spill's read gives, and never the file."""
    small_blocks(monkeypatch, 3000)
    pd.read_csv(table_csv).assign(flag=lambda f: np.arange(len(f)) % 2, big=lambda f: np.arange(len(f)) * 1000).to_csv(
        table_csv, index=False
    )  # (and a 0/1 column and a wide integer one, kept as bits and in 16 bits)
    kept = CsvSource(table_csv, chunk_rows=128)
    kept.settled_pass(lambda chunks: [None for _ in chunks])
    monkeypatch.setattr(CsvSource, "KEEP_BYTES", 0)
    monkeypatch.setattr(CsvSource, "SPILL_MIN_BYTES", 0)
    spilled = CsvSource(table_csv, chunk_rows=128)
    spilled.settled_pass(lambda chunks: [None for _ in chunks])
    assert kept._kept is not None and kept._spill is None and spilled._spill is not None and spilled._kept is None
    names = list(reversed(kept.names))  # (any order, any subset)
    assert {"flag", "big"} <= set(names) and any(kept.chunks([n]).__next__().columns[0].kind == "text" for n in names)
    os.remove(table_csv)  # a later pass reads the kept chunks, not the file
    before = kept.passes
    read = list(kept.chunks(names))
    assert len(read) == 5 and kept.passes == before + 1
    for a, b in zip(read, spilled.chunks(names), strict=True):
        assert (a.names, a.row_offset, a.n_rows) == (b.names, b.row_offset, b.n_rows)
        for x, y in zip(a.columns, b.columns):
            assert (x.kind, x.labels, x.integer_dtype, x.values.dtype) == (
                y.kind,
                y.labels,
                y.integer_dtype,
                y.values.dtype,
            )
            np.testing.assert_array_equal(x.values, y.values)
            assert (x.missing is None) == (y.missing is None)
            if x.missing is not None:
                np.testing.assert_array_equal(x.missing, y.missing)


def test_chunks_past_the_keep_limit_are_let_go_and_the_file_parsed_again(table_csv, monkeypatch):
    """An estimate the rows outgrow: nothing kept, no spill, later passes parse the file; the findings stay."""
    from nblint.readers import csvfile
    from nblint.readers.kept import KeptChunks

    expected = findings(CsvSource(table_csv, chunk_rows=50))
    monkeypatch.setattr(csvfile, "keeper", lambda *args: KeptChunks(1000))  # (kept, then past 1,000 bytes)
    source = CsvSource(table_csv, chunk_rows=50)
    assert findings(source) == expected
    assert source._kept is None and source._spill is None and source.passes >= 2


def test_the_configured_memory_budget_bounds_what_the_first_pass_keeps(tmp_path, monkeypatch):
    """``memory-budget`` in the configuration bounds the kept chunks as NBLINT_MEMORY_BUDGET does, with its findings."""
    frame, _ = mixed_table(3, n=20_000)  # (its values take more than an eighth of 1 MiB)
    path = tmp_path / "t.csv"
    frame.to_csv(path, index=False)
    config = tmp_path / "budget.toml"  # (given with --config: not found beside the table)
    config.write_text('memory-budget = "1MiB"\n')
    monkeypatch.delenv("NBLINT_MEMORY_BUDGET", raising=False)
    sources = []
    keep_or_spill = CsvSource._keep_or_spill

    def recorded(self, first):
        sources.append(self)
        return keep_or_spill(self, first)

    monkeypatch.setattr(CsvSource, "_keep_or_spill", recorded)
    args = ["check", str(path), "--target", "target", "--format", "json"]
    default = CliRunner().invoke(main, args)
    assert default.exit_code == 1, default.output
    assert sources[-1]._kept is not None  # within the machine's budget: kept
    budgeted = CliRunner().invoke(main, [*args, "--config", str(config)])
    assert sources[-1]._kept is None and sources[-1].passes >= 2  # past an eighth of 1 MiB: the file read again
    monkeypatch.setenv("NBLINT_MEMORY_BUDGET", "1MiB")
    from_environment = CliRunner().invoke(main, args)
    assert sources[-1]._kept is None
    assert budgeted.output == from_environment.output and '"NB101"' in budgeted.output


def test_chunk_and_block_boundaries_do_not_change_findings(table_csv, monkeypatch):
    small_blocks(monkeypatch, 3000)
    results = [findings(CsvSource(table_csv, chunk_rows=rows)) for rows in (50, 128, 600)]
    assert results[0] == results[1] == results[2]


def test_gzip_tsv_and_parquet_stream_like_csv(table_csv, tmp_path):
    frame = pd.read_csv(table_csv)
    gz = tmp_path / "t.tsv.gz"
    gz.write_bytes(gzip.compress(frame.to_csv(sep="\t", index=False).encode()))
    pq = tmp_path / "t.parquet"
    frame.to_parquet(pq, row_group_size=97)
    expected = without_path(findings(read_table(table_csv)))
    assert without_path(findings(read_table(str(gz)))) == expected
    parquet = read_table(str(pq))
    assert isinstance(parquet, ParquetSource)
    assert without_path(findings(parquet)) == expected


def test_zero_one_columns_are_read_as_int8_and_widened_when_a_later_value_does_not_fit(tmp_path, monkeypatch):
    small_blocks(monkeypatch, 1024)
    rng = np.random.default_rng(1)
    n = 3000
    frame = pd.DataFrame(
        {
            "flag": rng.integers(0, 2, n),
            "grows": rng.integers(0, 2, n),  # 0/1 in the first block, then a count that fits int8
            "overflows": rng.integers(0, 2, n),  # then a value past int8's range: widened, pass restarted
            "y": rng.integers(0, 2, n),
        }
    )
    frame.loc[n - 10, "grows"] = 7
    frame.loc[n - 5, "overflows"] = 300
    path = tmp_path / "narrow.csv"
    frame.to_csv(path, index=False)
    streamed = CsvSource(str(path), chunk_rows=256)
    got = findings(streamed, "y")
    assert {name: str(kind) for name, kind in streamed.types.items()} == {
        "flag": "int8",
        "grows": "int8",
        "overflows": "int64",
        "y": "int8",
    }
    assert got == findings(read_whole(path, 256), "y")
    chunks = list(streamed.chunks(["grows", "overflows"]))
    np.testing.assert_array_equal(np.concatenate([c.columns[0].values for c in chunks]), frame["grows"])
    np.testing.assert_array_equal(np.concatenate([c.columns[1].values for c in chunks]), frame["overflows"])


def blocks_of(data: bytes, size: int, start: int = 0) -> list[bytes]:
    import pyarrow as pa

    stream = pa.BufferReader(data)
    stream.read_buffer(start)
    return [block.data.to_pybytes() for block in record_blocks(stream, size, ",", offset=start)]


@settings(max_examples=60, deadline=None)
@given(
    lines=st.lists(
        st.binary(min_size=0, max_size=40).map(lambda b: b.replace(b"\n", b"").replace(b"\r", b"").replace(b'"', b"")),
        max_size=30,
    ),
    size=st.integers(1, 64),
    final_newline=st.booleans(),
    start=st.integers(0, 5),
)
def test_record_blocks_cut_at_line_ends_and_lose_no_byte(lines, size, final_newline, start):
    data = b"\n".join(lines) + (b"\n" if final_newline and lines else b"")
    blocks = blocks_of(b"h" * start + data, size, start)
    assert all(block.endswith(b"\n") for block in blocks[:-1])
    joined = b"".join(blocks)
    assert data.startswith(joined) and not data[len(joined) :].strip()  # only a blank tail is dropped


_cells = st.text(alphabet=st.sampled_from(list('ab,"\n\r x')), max_size=6)


@settings(max_examples=80, deadline=None)
@given(rows=st.lists(st.lists(_cells, min_size=2, max_size=2), min_size=1, max_size=25), size=st.integers(1, 48))
def test_record_blocks_never_cut_a_quoted_field(rows, size):
    # RFC 4180 text as the csv module writes it (quoted line ends, doubled quotes):
    # every block must hold whole records, whatever the block size.
    import csv

    out = io.StringIO()
    csv.writer(out, lineterminator="\r\n").writerows(rows)  # (RFC 4180: a field holding \r or \n is quoted)
    data = out.getvalue().encode()
    blocks = blocks_of(data, size)
    assert b"".join(blocks) == data
    records = [row for block in blocks for row in csv.reader(io.StringIO(block.decode(), newline=""))]
    assert records == list(csv.reader(io.StringIO(data.decode(), newline="")))


@pytest.mark.parametrize("name", ["late.csv", "late.csv.gz"])
def test_a_type_that_changes_mid_file_is_widened_as_the_whole_file_read_would(tmp_path, monkeypatch, name):
    small_blocks(monkeypatch, 1024)
    rng = np.random.default_rng(0)
    n = 2000
    frame = pd.DataFrame(
        {
            "late_float": rng.integers(0, 5, n).astype(str),
            "late_text": [""] * n,
            "y": rng.integers(0, 2, n),
        }
    )
    frame.loc[n - 3, "late_float"] = "2.5"
    frame.loc[n - 2, "late_text"] = "word"
    path = tmp_path / name
    frame.to_csv(path, index=False)
    streamed = CsvSource(str(path), chunk_rows=256)
    streamed.jobs = 2
    got = findings(streamed, "y")
    assert {str(v) for v in streamed.types.values()} >= {"double", "string"}
    assert got == findings(read_whole(path, 256), "y")


def test_ragged_row_deep_in_the_file_is_one_error_line(tmp_path, monkeypatch):
    small_blocks(monkeypatch, 1024)
    rows = ["a,b,y"] + [f"{i % 2},{1 - i % 2},x" for i in range(3000)]
    rows[2500] += ",extra"
    path = tmp_path / "ragged.csv"
    path.write_text("\n".join(rows) + "\n")
    result = CliRunner().invoke(main, ["check", str(path), "--target", "y"])
    assert result.exit_code == 2
    assert result.stderr.strip() == f"{path}: error: ragged rows: data row 2500 has 4 fields, the header has 3"


def test_stdin_is_spooled_and_read_twice():
    frame, _ = mixed_table(5, n=200)
    text = frame.to_csv(index=False)
    result = CliRunner().invoke(main, ["check", "-", "--target", "target", "--format", "json"], input=text)
    assert result.exit_code == 1, result.output
    source = read_table("-", stdin=io.BytesIO(text.encode()))
    assert without_path(findings(source)) == [
        {k: v for k, v in f.items() if k != "path"} for f in __import__("json").loads(result.stdout)
    ]


def test_json_output_is_byte_identical_for_one_and_two_jobs(table_csv):
    outputs = [
        CliRunner().invoke(main, ["check", table_csv, "--target", "target", "--format", "json", "--jobs", jobs])
        for jobs in ("1", "2")
    ]
    assert outputs[0].exit_code == outputs[1].exit_code == 1
    assert outputs[0].stdout == outputs[1].stdout


def test_profiles_from_one_and_three_threads_are_equal_bit_for_bit(table_csv):
    one = TableProfile.from_source(CsvSource(table_csv, chunk_rows=40), "target", jobs=1)
    three = TableProfile.from_source(CsvSource(table_csv, chunk_rows=40), "target", jobs=3)
    np.testing.assert_array_equal(one.gram.comoment, three.gram.comoment)
    np.testing.assert_array_equal(one.numeric.class_m2, three.numeric.class_m2)


class _Tty(io.StringIO):
    def isatty(self):
        return True


@pytest.mark.parametrize(
    "env, tty, expected",
    [
        ({}, True, True),
        ({}, False, False),
        ({"CI": "true"}, True, False),
        ({"GITHUB_ACTIONS": "true"}, True, False),
        ({"PRE_COMMIT": "1"}, True, False),
    ],
)
def test_progress_only_on_a_terminal_outside_ci_and_pre_commit(env, tty, expected):
    assert is_interactive(_Tty() if tty else io.StringIO(), env) is expected


def test_progress_bar_shows_share_rate_and_eta_after_its_delay():
    now = [0.0]
    stream = _Tty()
    bar = ProgressBar("big.csv", 4_000_000, stream, delay=1.0, clock=lambda: now[0])
    bar.update(1, 500_000, 10)
    assert stream.getvalue() == ""  # short reads draw nothing
    now[0] = 2.0
    bar.update(1, 1_000_000, 20_000)
    line = stream.getvalue()
    assert "big.csv pass 1" in line and " 25%" in line and "1.0 MB/4.0 MB" in line
    assert "500.0 kB/s" in line and "ETA 0:06" in line and "20,000 rows" in line
    bar.close()
    assert stream.getvalue().endswith("\r\x1b[K")


def test_many_integer_columns_convert_at_once_as_one_at_a_time():
    """Columns of one integer type converted as one 2-D array equal arrow_column_data's, missing values included."""
    import pyarrow as pa

    from nblint.readers.conversions import BULK_COLUMNS, arrow_column_data, table_column_data

    rng = np.random.default_rng(1)
    columns = {}
    for i in range(3 * BULK_COLUMNS):
        if i % 3 == 0:
            columns[f"bit{i}"] = pa.array(rng.integers(0, 2, 500).astype(np.int8))
        elif i % 3 == 1:
            columns[f"num{i}"] = pa.array(rng.integers(-(2**40), 2**40, 500))
        else:  # one missing value: converted alone
            columns[f"gap{i}"] = pa.array([None] + rng.integers(0, 9, 499).tolist(), type=pa.int64())
    table = pa.table(columns)
    table = pa.concat_tables([table.slice(0, 123), table.slice(123)])  # columns of two chunks, as regrouped
    names = sorted(table.column_names, reverse=True)
    for bulk, alone in zip(table_column_data(table, names), (arrow_column_data(table.column(n)) for n in names)):
        assert (bulk.kind, bulk.values.dtype, bulk.integer_dtype) == (
            alone.kind,
            alone.values.dtype,
            alone.integer_dtype,
        )
        np.testing.assert_array_equal(bulk.values, alone.values)
        assert (bulk.missing is None) == (alone.missing is None)
        if alone.missing is not None:
            np.testing.assert_array_equal(bulk.missing, alone.missing)
