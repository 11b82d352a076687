"""Hostile and odd inputs (issue 17): a correct lint, or one line ``path: error: problem``, and nothing else.

Every input is generated here, at test time (no large file is committed). Each
case asserts the exit code, the exact error line (or the findings), that
nothing else was printed, and, where a run has other inputs, that they were
still linted. The cases already covered one by one in test_bad_input.py are
repeated in the corpus at the top, so that this file lists every hostile input
nblint is known to meet.
"""

from __future__ import annotations

import gzip
import io
import json
import os
import re
import signal
import subprocess
import sys
import time
import warnings

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

import nblint
from nblint.cli import main
from nblint.readers import CsvSource

GOOD = "a,b,y\n1,0,x\n0,1,y\n1,0,x\n"


def run(*args, input=None, env=None):
    """The CLI in-process; numpy's RuntimeWarnings (overflow, invalid value...) are errors here."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        result = CliRunner(env=env).invoke(main, list(args), input=input)
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output + (result.stderr or ""), result.output
    return result


def assert_only_error(result, path: str, message: str, good: str | None = None):
    """Exit 2, exactly one stderr line, ``path: error: message``; the good file still linted, nothing else said."""
    assert result.exit_code == 2, result.output
    assert result.stderr == f"{path}: error: {message}\n"
    if good is not None:
        assert f"{good}: NB101" in result.stdout
    assert path not in result.stdout


def json_lint(*args, env=None) -> list[dict]:
    result = run("check", *args, "--format", "json", env=env)
    assert result.exit_code in (0, 1) and result.stderr == "", result.output
    return [{k: v for k, v in f.items() if k != "path"} for f in json.loads(result.stdout)]


def findings_of(frame: pd.DataFrame, **kwargs) -> list[dict]:
    return [{k: v for k, v in f.items() if k != "path"} for f in json.loads(nblint.check(frame, **kwargs).to_json())]


def onehot_table(n: int = 300, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    level = rng.integers(0, 3, n)
    return pd.DataFrame(
        {
            "g_a": (level == 0).astype(int),
            "g_b": (level == 1).astype(int),
            "g_c": (level == 2).astype(int),
            "x": np.round(rng.normal(size=n), 3),
            "y": rng.choice(["p", "q"], n),
        }
    )


# --------------------------------------------------------------------------- the corpus of bad files


class _Zeros(io.RawIOBase):
    """/dev/zero as a stream: NUL bytes for ever."""

    def readable(self):
        return True

    def readinto(self, buffer):
        buffer[:] = bytes(len(buffer))
        return len(buffer)


BAD_FILES = [
    # (name, bytes, the message)  -- as in test_bad_input, then issue 17's
    ("empty.csv", b"", "file is empty"),
    ("header_only.csv", b"a,b,y\n", "no data rows"),
    ("ragged.csv", b"a,b,y\n1,0,x\n1,0,x,extra\n", "ragged rows: data row 2 has 4 fields, the header has 3"),
    ("dupes.csv", b"a,a,y\n1,0,x\n", "duplicate column names: 'a'"),
    (
        "unterminated.csv",
        b'a,b,y\n1,0,x\n1,"0,x\n0,1,y\n',
        "unterminated quote: the quoted field starting at line 3 does not end",
    ),
    (
        "bomb.csv.gz",
        lambda: gzip.compress(b"a" * (40 << 20)),  # (deflated by its test, not by every process that collects)
        "the first line is longer than 32 MiB with no line end: not a CSV table",
    ),
    (
        "long_row.csv.gz",
        lambda: gzip.compress(b"a,y\n1," + b"x" * (40 << 20) + b"\n"),
        "line 2 is longer than 32 MiB with no line end: not a CSV table",
    ),
    (
        "deep.json",
        b'{"_target_": "sklearn.naive_bayes.BernoulliNB", "a": ' + b"[" * 100_000 + b"]" * 100_000 + b"}",
        "nested too deeply to read",
    ),
    (
        "deep.toml",
        b'_target_ = "sklearn.naive_bayes.BernoulliNB"\na = ' + b"[" * 100_000 + b"]" * 100_000 + b"\n",
        "nested too deeply to read",
    ),
    (
        "deep.yaml",
        b"_target_: sklearn.naive_bayes.BernoulliNB\na: " + b"[" * 50_000 + b"]" * 50_000 + b"\n",
        "nested too deeply to read",
    ),
    (
        "unary.py",
        b"from sklearn.naive_bayes import BernoulliNB\nx = " + b"-" * 100_000 + b"1\n",
        "nested too deeply to read",
    ),
    (
        "laughs.yaml",
        (
            "_target_: sklearn.naive_bayes.BernoulliNB\na0: &a0 [1, 2, 3, 4, 5, 6, 7, 8, 9]\n"
            + "".join(f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]\n" for i in range(1, 10))
        ).encode(),
        "YAML aliases expand to more than 1,000,000 values",
    ),
    (
        "spec_types.yaml",
        b"model: BernoulliNB\nparams:\n  alpha: lots\n",
        "'params.alpha' in the nblint spec at line 3 must be a finite number >= 0, got 'lots'",
    ),
    (
        "spec_nan.yaml",
        b"model: BernoulliNB\nparams:\n  alpha: .nan\n",
        "'params.alpha' in the nblint spec at line 3 must be a finite number >= 0, got nan",
    ),
]


@pytest.mark.parametrize("name, content, message", BAD_FILES, ids=[case[0] for case in BAD_FILES])
def test_a_bad_file_is_one_error_line_and_the_others_are_still_linted(write, name, content, message):
    bad = write(name, content)
    good = write("good.csv", GOOD)
    assert_only_error(run("check", bad, good, "--target", "y"), bad, message, good)


def test_parquet_named_csv_is_told_what_it_is(tmp_path, write):
    bad = tmp_path / "table.csv"
    onehot_table(20).to_parquet(bad)
    good = write("good.csv", GOOD)
    assert_only_error(
        run("check", str(bad), good),
        str(bad),
        "the file holds Parquet data, not CSV text: name the file *.parquet",
        good,
    )


@pytest.mark.parametrize("name", ["fifo.yaml", "fifo.csv"])
def test_a_fifo_is_refused_given_or_met_in_a_folder(tmp_path, write, name):
    folder = tmp_path / "data"
    folder.mkdir()
    fifo = folder / name
    os.mkfifo(fifo)  # opening it for reading would block until a writer came
    good = write("data/good.csv", GOOD)
    message = "is a FIFO (named pipe), not a regular file: nblint reads files (use - for standard input)"
    assert_only_error(run("check", str(fifo), good), str(fifo), message, good)
    assert_only_error(run("check", str(folder)), str(fifo), message, good)


def test_a_device_is_refused_as_a_table_and_as_a_config(write):
    good = write("good.csv", GOOD)
    message = "is a character device, not a regular file: nblint reads files (use - for standard input)"
    assert_only_error(run("check", "/dev/zero", good), "/dev/zero", message, good)
    result = run("check", good, "--config", "/dev/zero")
    assert result.exit_code == 2 and good not in result.stdout  # (the table was not linted without its config)
    assert result.stderr == f"/dev/zero: error: cannot read config: {message}\n"


def test_symbolic_links_that_lead_nowhere(tmp_path, write):
    good = write("good.csv", GOOD)
    loop_a, loop_b, broken = tmp_path / "a.csv", tmp_path / "b.csv", tmp_path / "broken.csv"
    loop_a.symlink_to(loop_b)
    loop_b.symlink_to(loop_a)
    broken.symlink_to(tmp_path / "nothing.csv")
    assert_only_error(
        run("check", str(loop_a), good), str(loop_a), "symbolic link loop (too many levels of symbolic links)", good
    )
    assert_only_error(
        run("check", str(broken), good), str(broken), "broken symbolic link (its target does not exist)", good
    )
    assert_only_error(
        run("check", str(tmp_path / "missing.csv"), good), str(tmp_path / "missing.csv"), "file not found", good
    )


def test_standard_input_without_line_ends_or_past_the_disk_budget_is_refused():
    result = run("check", "-", input=_Zeros())  # check - < /dev/zero
    assert_only_error(result, "-", "the first line is longer than 32 MiB with no line end: not a CSV table")
    endless = io.BytesIO(b"a,b\n" + b"1,2\n" * (1 << 20))
    result = run("check", "-", input=endless, env={"NBLINT_DISK_BUDGET": "2MB"})
    assert_only_error(
        result,
        "-",
        "standard input is larger than the 2,000,000 bytes nblint may copy to the temporary "
        "folder (NBLINT_DISK_BUDGET); pass the file instead",
    )


def test_gzip_is_told_by_its_bytes_on_standard_input_and_under_a_csv_name(tmp_path):
    """(Issue 24: the bytes decide, so gzip under any name, or on standard input, is read, not refused.)"""
    (tmp_path / "plain.csv").write_text(GOOD)
    (tmp_path / "gzip_named.csv").write_bytes(gzip.compress(GOOD.encode()))
    expected = json_lint(str(tmp_path / "plain.csv"), "--target", "y")
    assert json_lint(str(tmp_path / "gzip_named.csv"), "--target", "y") == expected
    result = run("check", "-", "--target", "y", "--format", "json", input=gzip.compress(GOOD.encode()))
    assert result.exit_code == 1 and result.stderr == ""
    assert [{k: v for k, v in f.items() if k != "path"} for f in json.loads(result.stdout)] == expected


def test_a_nested_parquet_target_is_one_error_line_and_nested_features_are_skipped(tmp_path, write):
    good = write("good.csv", GOOD)
    table = pa.table(
        {
            "g_a": [1, 0, 1, 0] * 5,
            "g_b": [0, 1, 0, 1] * 5,
            "items": [[1, 2], [3], [], [4]] * 5,
            "point": [{"x": 1}] * 20,
            "tags": pa.array([[("k", 1)]] * 20, type=pa.map_(pa.string(), pa.int64())),
            "y": ["p", "q", "p", "q"] * 5,
        }
    )
    path = tmp_path / "nested.parquet"
    pq.write_table(table, path)
    result = run("check", str(path), good, "--target", "y")
    assert result.exit_code == 1 and result.stderr == "", result.output
    notes = [line for line in result.stdout.splitlines() if " NB106 " in line]
    assert notes == [
        f"{path}: NB106 [info] column 'items' not checked: it holds nested values (lists)",
        f"{path}: NB106 [info] column 'point' not checked: it holds nested values (structs)",
        f"{path}: NB106 [info] column 'tags' not checked: it holds nested values (maps)",
    ]
    assert f"{path}: NB101" in result.stdout and f"{good}: NB101" in result.stdout
    assert_only_error(
        run("check", str(path), "--target", "items"),
        str(path),
        "target column 'items' cannot be read: it holds nested values (lists)",
    )


# --------------------------------------------------------------------------- valid CSV, read as pandas reads it


def test_quoted_line_ends_across_every_block_boundary_read_as_pandas_does(tmp_path, monkeypatch):
    frame = onehot_table(400)
    frame["note"] = np.where(np.arange(400) % 3 == 0, 'two\nlines, and "quotes"', "plain")
    path = tmp_path / "quoted.csv"
    frame.to_csv(path, index=False)
    expected = findings_of(pd.read_csv(path), target="y")
    for block in (64, 1000, 4096):  # (a block cut inside a quoted field ended in 'ragged rows')
        monkeypatch.setattr(CsvSource, "PARSE_BLOCK", block)
        for jobs in ("1", "2"):
            assert json_lint(str(path), "--target", "y", "--jobs", jobs) == expected


def test_a_quoted_header_with_a_line_end_adds_no_row(write):
    frame = onehot_table(60)
    path = write("header.csv", frame.rename(columns={"x": "x\nsecond line"}).to_csv(index=False))
    found = json_lint(path, "--target", "y")
    group = [f for f in found if f["code"] == "NB101"]
    assert group and "every one of the 60 rows" in group[0]["message"]  # not 61: no phantom row
    assert found == findings_of(pd.read_csv(path), target="y")


def test_empty_na_and_null_text_cells_are_missing_as_in_pandas(write):
    rows = ["t,g_a,g_b,y", "red,1,0,p", ",0,1,q", "NA,1,0,", "null,0,1,q", "blue,1,0,p", "None,0,1,q", "red,1,0,p"]
    path = write("missing.csv", "\n".join(rows) + "\n")
    found = json_lint(path, "--target", "y")
    assert found == findings_of(pd.read_csv(path), target="y")
    codes = {f["code"]: f for f in found}
    assert "missing on 1 rows" in next(
        f["message"] for f in found if f["code"] == "NB206" and "missing" in f["message"]
    )
    assert codes["NB207"]["columns"] == ["t"]  # NB207 fires on the text column's missing cells


def test_a_semicolon_file_is_read_with_its_delimiter(tmp_path):
    frame = onehot_table(100)
    comma, semicolon = tmp_path / "comma.csv", tmp_path / "semicolon.csv"
    frame.to_csv(comma, index=False)
    frame.to_csv(semicolon, index=False, sep=";")
    assert json_lint(str(semicolon), "--target", "y") == json_lint(str(comma), "--target", "y")


@pytest.mark.parametrize("line_end", ["\r\n", "\r"])
def test_windows_and_old_mac_line_ends_read_as_pandas_does(tmp_path, monkeypatch, line_end):
    monkeypatch.setattr(CsvSource, "PARSE_BLOCK", 256)  # (many blocks: a cut may fall between \r and \n)
    frame = onehot_table(200)
    frame["note"] = np.where(np.arange(200) % 4 == 0, "a\rb", "plain")
    path = tmp_path / "lines.csv"
    path.write_bytes(frame.to_csv(index=False, lineterminator=line_end).encode())
    assert json_lint(str(path), "--target", "y") == findings_of(pd.read_csv(path), target="y")


def test_a_single_column_file_stays_one_column(write):
    path = write("one.csv", "y\np\nq\np\n")
    assert json_lint(path, "--target", "y") == findings_of(pd.read_csv(path), target="y")


def test_a_gzip_csv_with_quoted_line_ends_reads_like_the_plain_one(tmp_path):
    frame = onehot_table(200)
    frame["note"] = "a\nb"
    plain, packed = tmp_path / "t.csv", tmp_path / "t.csv.gz"
    frame.to_csv(plain, index=False)
    frame.to_csv(packed, index=False, compression="gzip")
    assert json_lint(str(packed), "--target", "y") == json_lint(str(plain), "--target", "y")


# --------------------------------------------------------------------------- bounded resources


def test_continuous_columns_past_the_budget_skip_vif_and_say_so(tmp_path):
    rng = np.random.default_rng(0)
    frame = pd.DataFrame(rng.normal(size=(40, 300)), columns=[f"f{i}" for i in range(300)])
    frame["y"] = rng.choice(["p", "q"], 40)
    path = tmp_path / "wide.csv"
    frame.to_csv(path, index=False)
    found = json_lint(str(path), "--target", "y", "--select", "NB1", env={"NBLINT_MEMORY_BUDGET": "2.2MB"})
    assert [f["message"] for f in found] == [
        "VIF (NB104) leaves out the 300 complete continuous columns: their co-moment matrix would take 2.88 MB, "
        "over the memory budget's 1.1 MB for it; identical columns among them are still found, by hashing"
    ]
    default = {f["code"] for f in json_lint(str(path), "--target", "y", "--select", "NB1")}
    assert "NB104" in default and "NB106" not in default  # within the default budget: VIF computed, nothing left out


def test_zero_one_columns_past_the_budget_skip_the_group_search_and_say_so(tmp_path):
    rng = np.random.default_rng(0)
    frame = pd.DataFrame(rng.integers(0, 2, size=(40, 600)), columns=[f"b{i}" for i in range(600)])
    frame["y"] = rng.choice(["p", "q"], 40)
    path = tmp_path / "bits.parquet"
    frame.to_parquet(path)
    config = tmp_path / "nblint.toml"
    config.write_text('memory-budget = "1MiB"\n')
    found = json_lint(str(path), "--target", "y", "--select", "NB106", "--config", str(config))
    assert len(found) == 1 and found[0]["message"].startswith(
        "one-hot, dummy and broken groups (NB101-NB103, NB105) and identical 0/1 columns are not searched among the "
        "600 complete 0/1 columns: their co-occurrence counts would take"
    )


def test_per_class_statistics_past_the_budget_are_one_error_line(tmp_path):
    rng = np.random.default_rng(0)
    frame = pd.DataFrame(rng.normal(size=(3000, 40)), columns=[f"f{i}" for i in range(40)])
    frame["y"] = np.arange(3000)  # 3,000 classes x 40 columns
    path = tmp_path / "classes.parquet"
    frame.to_parquet(path)
    result = run("check", str(path), "--target", "y", env={"NBLINT_MEMORY_BUDGET": "1MiB"})
    assert result.exit_code == 2 and result.stderr.startswith(f"{path}: error: target 'y' has ")
    assert result.stderr.endswith("(raise memory-budget in the configuration, or lint fewer columns)\n")
    assert result.stderr.count("\n") == 1


@pytest.mark.slow
def test_the_spill_past_the_disk_budget_is_dropped_and_the_findings_do_not_change(tmp_path, monkeypatch):
    from nblint.api.report import _codes, _settings
    from nblint.readers import read_table
    from nblint.readers.csvfile import CsvSource
    from nblint.run.runner import lint_source

    monkeypatch.setattr(CsvSource, "KEEP_BYTES", 0)  # (its chunks not kept in memory: it spills)
    path = tmp_path / "t.csv"
    onehot_table(200_000).to_csv(path, index=False)  # a spill of about 2 MB
    settings = _settings(target="y")
    kept = read_table(str(path))
    expected = lint_source(kept, settings, _codes(settings))
    monkeypatch.setenv("NBLINT_DISK_BUDGET", "1MiB")
    dropped = read_table(str(path))
    assert lint_source(dropped, settings, _codes(settings)) == expected
    assert kept._spill is not None and dropped._spill is None and dropped.passes >= 2  # later passes parsed the CSV


def test_many_classes_score_a_sample_of_rows_and_nb106_says_so(monkeypatch):
    from nblint.impact import sample

    monkeypatch.setattr(sample, "IMPACT_WORK", 1e5)
    frame = onehot_table(3000)
    frame["y"] = np.arange(3000) % 150  # 150 classes: past MANY_CLASSES
    found = findings_of(frame, target="y", select=["NB106", "NB401"])
    notes = [f["message"] for f in found if f["code"] == "NB106"]
    assert len(notes) == 1 and notes[0].startswith("NB401/impact scored a fixed sample of about ")
    assert [f["code"] for f in found].count("NB401") == 1


def test_the_eq13_share_counts_the_same_pairs_as_the_double_loop():
    from nblint import nbmath
    from nblint.impact.measure import _eq13_share

    rng = np.random.default_rng(3)
    for classes, levels in ((2, 3), (7, 4), (30, 6)):
        table = rng.integers(0, 20, size=(classes, levels))
        theta = np.exp(nbmath.categorical_log_theta(table, 1.0))
        hits = total = 0
        for c in range(classes):
            for d in range(classes):
                if c != d:
                    larger = theta[c] > theta[d]
                    total += int(larger.sum())
                    hits += int((nbmath.guaranteed_more_extreme(theta[c], theta[d], levels) & larger).sum())
        assert _eq13_share(table, 1.0) == hits / total


@pytest.mark.slow
def test_a_pyproject_of_10000_tables_is_read(tmp_path):
    text = "[tool.nblint]\ntarget = 'y'\n" + "".join(f"[tool.other.t{i}]\nkey = {i}\n" for i in range(10_000))
    (tmp_path / "pyproject.toml").write_text(text)
    spec = tmp_path / "pipeline.toml"
    spec.write_text(
        "".join(f"[t{i}]\nvalue = {i}\n" for i in range(10_000))
        + '[m]\n_target_ = "sklearn.naive_bayes.BernoulliNB"\nalpha = 0\n'
    )
    result = run("check", str(spec))
    assert result.exit_code == 1 and f"{spec}:20003: NB502 [warning] BernoulliNB (line 20002)" in result.stdout, (
        result.output
    )


# --------------------------------------------------------------------------- settings, everywhere


@pytest.mark.parametrize(
    "config, message",
    [
        ("alpha = nan\n", "alpha must be a finite number >= 0, got nan"),
        ("alpha = inf\n", "alpha must be a finite number >= 0, got inf"),
        ("[NB104]\nvif-threshold = nan\n", "NB104.vif-threshold: expected a finite number >= 1, got nan"),
        ("[NB401]\nfolds = 1\n", "NB401.folds: expected a whole number >= 2, got 1"),
        (
            "[NB103]\nmax-violation-share = 2.0\n",
            "NB103.max-violation-share: expected a finite number >= 0 and <= 1, got 2.0",
        ),
        ('memory-budget = "lots"\n', "memory-budget must be a size such as 2GB or a number of bytes, got 'lots'"),
    ],
)
def test_bad_settings_in_the_config_name_the_key(tmp_path, write, config, message):
    good = write("good.csv", GOOD)
    path = tmp_path / "nblint.toml"
    path.write_text(config)
    result = run("check", good, "--config", str(path))
    assert result.exit_code == 2 and result.stderr == f"{path}: error: {message}\n"


@pytest.mark.parametrize("variable", ["NBLINT_MEMORY_BUDGET", "NBLINT_DISK_BUDGET"])
def test_a_bad_budget_in_the_environment_names_the_variable(variable):
    result = run("check", "-", input=GOOD, env={variable: "lots"})
    assert_only_error(result, "-", f"{variable} must be a size such as 2GB or a number of bytes, got 'lots'")


def test_an_invalid_pyproject_is_an_error_not_ignored(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[tool.nblint\ntarget = 'y'\n")
    data = tmp_path / "t.csv"
    data.write_text(GOOD)
    result = run("check", str(data))
    assert result.exit_code == 2 and result.stderr.startswith(f"{tmp_path / 'pyproject.toml'}: error: invalid TOML: ")
    assert result.stderr.count("\n") == 1


@pytest.mark.parametrize(
    "args, fragment",
    [
        (["impact", "{path}", "--target", "y", "--alpha", "nan"], "must be a finite number >= 0, got nan"),
        (["impact", "{path}", "--target", "y", "--seed", "-1"], "-1 is not in the range"),
    ],
)
def test_bad_settings_on_the_command_line_are_usage_errors(write, args, fragment):
    path = write("t.csv", GOOD)
    result = run(*[a.format(path=path) for a in args])
    assert result.exit_code == 2 and fragment in result.stderr


def test_bad_settings_in_the_api_are_value_errors():
    frame = onehot_table(30)
    with pytest.raises(ValueError, match="alpha must be a finite number >= 0, got nan"):
        nblint.check(frame, target="y", alpha=float("nan"))
    with pytest.raises(ValueError, match="NB104.vif-threshold: expected a finite number >= 1, got inf"):
        nblint.check(frame, target="y", options={"NB104": {"vif-threshold": float("inf")}})
    with pytest.raises(ValueError, match="target 'y' not found|target column 'z' not found"):
        nblint.check(frame, target="z")


def test_the_api_reads_a_target_mixing_1_and_the_text_1_as_a_csv_of_it_does(tmp_path):
    frame = onehot_table(60).drop(columns="y")
    frame["y"] = pd.Series([1, "1", 2, "2"] * 15, dtype=object)
    path = tmp_path / "mixed.csv"
    frame.to_csv(path, index=False)
    assert findings_of(frame, target="y") == findings_of(pd.read_csv(path), target="y")


def test_the_api_skips_a_column_of_lists_with_a_note():
    frame = onehot_table(40)
    frame["items"] = [[1, 2], [3]] * 20
    found = findings_of(frame, target="y")
    assert any(
        f["code"] == "NB106" and f["message"] == "column 'items' not checked: it holds nested values (lists)"
        for f in found
    )
    assert any(f["code"] == "NB101" for f in found)


# --------------------------------------------------------------------------- outputs, signals, numbers


def test_output_naming_an_input_is_refused_and_the_input_kept(write):
    path = write("x.csv", GOOD)
    result = run("check", path, "-o", path)
    assert result.exit_code == 2 and "is an input of this run: writing the report would overwrite it" in result.stderr
    assert open(path).read() == GOOD


@pytest.mark.slow
@pytest.mark.parametrize("signum, status", [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_a_signal_removes_the_temporary_files_and_exits_128_plus_its_number(tmp_path, signum, status):
    path = tmp_path / "big.csv"
    onehot_table(400_000).to_csv(path, index=False)
    temp = tmp_path / "tmp"
    temp.mkdir()
    # (a budget whose eighth is under the table's 6 MB of values: it spills rather than keeping its chunks)
    env = dict(os.environ, TMPDIR=str(temp), NBLINT_MEMORY_BUDGET="16MiB")
    process = subprocess.Popen(
        [sys.executable, "-m", "nblint", "check", str(path), "--target", "y"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 120
    while not any(name.startswith(f"nblint-{process.pid}-spill-") for name in os.listdir(temp)):
        assert process.poll() is None and time.monotonic() < deadline, "the run ended before it could be stopped"
        time.sleep(0.01)
    process.send_signal(signum)
    out, err = process.communicate(timeout=120)
    assert process.returncode == status
    assert err.decode() == f"nblint: interrupted by {signal.Signals(signum).name}\n" and out == b""
    assert os.listdir(temp) == []


def test_subnormal_values_are_not_called_equal(write):
    path = write("tiny.csv", "x,y\n1e-320,a\n0,a\n1e-320,a\n0.5,b\n0.7,b\n0.1,b\n")
    found = json_lint(path, "--target", "y", "--select", "NB205")
    assert [f["message"] for f in found] == [
        "column 'x': in class 'a' its 3 values take 2 distinct values from 0 to 1e-320, too close together for "
        "their variance to be told from zero in double precision"
    ]


def test_a_table_whose_variance_underflows_still_gets_its_impact_measured(tmp_path):
    frame = onehot_table(300)
    frame["x"] = np.where(np.arange(300) % 2 == 0, 1e-320, 0.0)
    path = tmp_path / "tiny.csv"
    frame.to_csv(path, index=False)
    assert any(f["code"] == "NB401" for f in json_lint(str(path), "--target", "y"))


# --------------------------------------------------------------------------- round 2 (issue 24)


def _nblint(*args, cwd=None, preexec_fn=None, **kwargs):
    return subprocess.run(
        [sys.executable, "-m", "nblint", *map(str, args)],
        capture_output=True,
        text=True,
        cwd=cwd,
        preexec_fn=preexec_fn,
        **kwargs,
    )


@pytest.mark.slow
def test_no_descriptor_is_held_past_a_files_read(tmp_path):
    """500 CSVs under ``ulimit -n 64``: every one linted (a descriptor was held per CSV, by its spill)."""
    for i in range(500):
        (tmp_path / f"t{i:03}.csv").write_text(GOOD)

    def limit():
        import resource

        resource.setrlimit(resource.RLIMIT_NOFILE, (64, 64))

    result = _nblint("check", tmp_path, "--target", "y", "--format", "concise", "-j", "1", preexec_fn=limit)
    assert result.returncode == 1, result.stderr[-2000:]
    assert result.stderr == ""
    assert len({line.split(":")[0] for line in result.stdout.splitlines() if ": NB101" in line}) == 500


def _unprivileged():
    """A ``preexec_fn`` for which mode 000 means unreadable even when the tests run as root.

    Root reads a mode-000 file through the CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH
    capabilities; dropped from the bounding set before ``exec``, the child has neither.
    """
    if os.geteuid() != 0:
        return None
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)

    def drop():
        for capability in (1, 2):  # CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH
            if libc.prctl(24, capability, 0, 0, 0) != 0:  # PR_CAPBSET_DROP
                raise OSError(ctypes.get_errno(), "cannot drop the capability")

    return drop


def test_an_unreadable_file_and_folder_are_named_and_the_run_goes_on(tmp_path):
    import shutil
    import tempfile

    # A folder nobody can walk into (pytest's tmp_path is root's alone).
    root = tempfile.mkdtemp(prefix="nblint-unreadable-")
    try:
        os.chmod(root, 0o755)
        for name in ("good.csv", "locked.csv"):
            with open(os.path.join(root, name), "w") as handle:
                handle.write(GOOD)
        os.mkdir(os.path.join(root, "sub"))
        with open(os.path.join(root, "sub", "inner.csv"), "w") as handle:
            handle.write(GOOD)
        os.chmod(os.path.join(root, "locked.csv"), 0)
        os.chmod(os.path.join(root, "sub"), 0)
        result = _nblint("check", ".", "--target", "y", "--format", "concise", cwd=root, preexec_fn=_unprivileged())
        assert result.returncode == 2, result.stderr
        assert result.stderr.splitlines() == [
            "locked.csv: error: cannot read the file: Permission denied",
            "sub: error: cannot read the folder: Permission denied",
        ]
        assert "good.csv: NB101" in result.stdout
        result = _nblint("check", "locked.csv", "--target", "y", cwd=root, preexec_fn=_unprivileged())
        assert (result.returncode, result.stderr) == (2, "locked.csv: error: cannot read the file: Permission denied\n")
    finally:
        os.chmod(os.path.join(root, "sub"), 0o755)
        shutil.rmtree(root)


def _leak_frame(n: int = 40) -> pd.DataFrame:
    cls = np.random.default_rng(0).integers(0, 2, n)
    return pd.DataFrame(
        {"leak": np.int64(2**53) + cls, "x": np.round(np.random.default_rng(1).normal(size=n), 3), "y": cls}
    )


def test_integers_past_2_53_are_not_merged_csv_parquet_and_dataframe_alike(tmp_path):
    """2^53 and 2^53 + 1 are two values: the column that is the class is a leak (NB208), not constant (NB204)."""
    frame = _leak_frame()
    frame.to_csv(tmp_path / "t.csv", index=False)
    frame.to_parquet(tmp_path / "t.parquet", index=False)
    from_csv = json_lint(str(tmp_path / "t.csv"), "--target", "y")
    assert [f["code"] for f in from_csv] == ["NB208"]
    assert "leak > 9007199254740992" in from_csv[0]["message"]
    assert json_lint(str(tmp_path / "t.parquet"), "--target", "y") == from_csv
    assert findings_of(frame, target="y") == from_csv


def test_a_uint64_target_past_2_63_has_its_two_classes(tmp_path):
    """In a CSV too: pyarrow infers float64 for integers past int64 (2^63 and 2^63 + 1 become one value)."""
    from nblint.profile.table import TableProfile
    from nblint.readers import DataFrameSource
    from nblint.run.overrides import Overrides
    from nblint.run.runner import table_context

    n = 40
    cls = np.random.default_rng(0).integers(0, 2, n).astype(np.uint64)
    frame = pd.DataFrame({"x": np.arange(n) % 7, "t": np.uint64(2**63) + cls})
    frame.to_parquet(tmp_path / "t.parquet", index=False)
    ctx = table_context(str(tmp_path / "t.parquet"), Overrides(target="t"))
    assert ctx.profile.classes == (2**63, 2**63 + 1)
    assert TableProfile.from_source(DataFrameSource(frame), "t").classes == (2**63, 2**63 + 1)
    assert findings_of(frame, target="t") == json_lint(str(tmp_path / "t.parquet"), "--target", "t")
    frame.to_csv(tmp_path / "t.csv", index=False)
    assert table_context(str(tmp_path / "t.csv"), Overrides(target="t")).profile.classes == (2**63, 2**63 + 1)
    assert json_lint(str(tmp_path / "t.csv"), "--target", "t") == json_lint(
        str(tmp_path / "t.parquet"), "--target", "t"
    )


def test_integers_past_int64_after_the_first_block_stay_exact(tmp_path, monkeypatch):
    """The first block's small ids are int64; later blocks' ids past 2^63 make the pass restart as uint64.

    A negative id anywhere makes it float64 (which only then merges neighbours past 2^53).
    """
    from nblint.readers.csvfile import CsvSource
    from nblint.run.overrides import Overrides
    from nblint.run.runner import table_context

    monkeypatch.setattr(CsvSource, "PARSE_BLOCK", 1 << 10)  # many blocks: the big ids are far past the first
    small = np.arange(6000) % 2 + 1  # 24 kB: the first block (at least 1,000 rows) holds small ids only
    big = [2**63 + int(k) for k in np.arange(200) % 2]
    rows = "".join(f"{i % 3},{t}\n" for i, t in enumerate(list(small) + big))
    (tmp_path / "ids.csv").write_text("x,t\n" + rows)
    ctx = table_context(str(tmp_path / "ids.csv"), Overrides(target="t"))
    assert ctx.profile.classes == (1, 2, 2**63, 2**63 + 1)
    (tmp_path / "signed.csv").write_text("x,t\n" + rows + "0,-1\n")
    assert len(table_context(str(tmp_path / "signed.csv"), Overrides(target="t")).profile.classes) == 4


def test_decimal_one_hot_columns_in_a_dataframe_are_found_as_in_parquet(tmp_path):
    import decimal

    frame = onehot_table()
    for name in ("g_a", "g_b", "g_c"):
        frame[name] = [decimal.Decimal(int(v)) for v in frame[name]]
    frame.to_parquet(tmp_path / "d.parquet", index=False)
    from_frame = findings_of(frame, target="y")
    assert "NB101" in [f["code"] for f in from_frame]
    assert from_frame == json_lint(str(tmp_path / "d.parquet"), "--target", "y")


def test_arrow_canonical_extension_types_are_read(tmp_path):
    """arrow.bool8 (booleans), arrow.uuid and arrow.json (text): every command reads them, none crashes."""
    import uuid

    frame = onehot_table(60)
    table = pa.Table.from_pandas(frame, preserve_index=False)
    n = table.num_rows
    ids = pa.array([uuid.UUID(int=i).bytes for i in range(n)], pa.binary(16))
    table = table.append_column("flag", pa.array(np.arange(n) % 2, pa.int8()).cast(pa.bool8()))
    table = table.append_column("id", pa.ExtensionArray.from_storage(pa.uuid(), ids))
    table = table.append_column("doc", pa.array(['{"k": 1}'] * n, pa.json_()))
    pq.write_table(table, tmp_path / "ext.parquet")
    path = str(tmp_path / "ext.parquet")
    codes = [f["code"] for f in json_lint(path, "--target", "y")]
    assert "NB101" in codes
    assert [f["code"] for f in json.loads(nblint.check(table, target="y").to_json())] == codes
    for args in (["columns", path], ["schema", path], ["impact", path, "--target", "y"]):
        result = run(*args)
        assert result.exit_code == 0 and result.stderr == "", (args, result.output)
    for out in ("fixed.parquet", "fixed2.csv"):
        result = run("fix", path, "-o", str(tmp_path / out))
        assert result.exit_code == 0, result.output
    fixed = pq.read_table(tmp_path / "fixed.parquet")
    assert fixed.schema.field("id").type == pa.uuid() and fixed.column("id") == table.column("id")
    assert pd.read_csv(tmp_path / "fixed2.csv")["id"].tolist() == [str(uuid.UUID(int=i)) for i in range(n)]


FORMATS = ("text", "concise", "json", "sarif", "github", "junit", "html")

#: ``nblint check . --target y --format F`` for each format F of argv, one after the other in one
#: process writing to its real standard output (what a file name that is not UTF-8 tests), each run's
#: outputs and exit code after a line of its own. One child, not one per format: a child's imports
#: (pandas, scikit-learn) cost about 2 s of CPU, linting the two files a tenth of that.
EVERY_FORMAT = """
import sys
from nblint.cli import main
for fmt in sys.argv[1:]:
    code = 0
    print(f"=== {fmt}", flush=True)
    print(f"=== {fmt}", file=sys.stderr, flush=True)
    try:
        main(["check", ".", "--target", "y", "--format", fmt], prog_name="nblint")
    except SystemExit as done:
        code = done.code
    sys.stdout.flush()
    print(f"=== exit {code}", file=sys.stderr, flush=True)
"""


def _split_by_format(text: str) -> dict[str, str]:
    """The output of each format of :data:`EVERY_FORMAT` (its exit line included for standard error)."""
    parts = re.split(r"^=== (\w+)\n", text, flags=re.M)[1:]
    return dict(zip(parts[::2], parts[1::2]))


@pytest.fixture(scope="module")
def not_utf8_runs(tmp_path_factory) -> dict[str, tuple[int, str, str]]:
    """(exit code, standard output, standard error) of each format on a folder with a file name that is not UTF-8."""
    folder = tmp_path_factory.mktemp("not_utf8")
    (folder / "ok.csv").write_text(GOOD)
    with open(os.path.join(os.fsencode(folder), b"bad\xff.csv"), "wb") as handle:
        handle.write(GOOD.encode())
    done = subprocess.run([sys.executable, "-c", EVERY_FORMAT, *FORMATS], capture_output=True, text=True, cwd=folder)
    assert done.returncode == 0, done.stderr[-2000:]
    outputs, errors = _split_by_format(done.stdout), _split_by_format(done.stderr)
    runs = {}
    for fmt in FORMATS:
        error, exit_line = errors[fmt].rsplit("=== exit ", 1)
        runs[fmt] = (int(exit_line), outputs[fmt], error)
    return runs


@pytest.mark.slow
@pytest.mark.parametrize("fmt", FORMATS)
def test_a_file_name_that_is_not_utf8_is_linted_in_every_format(not_utf8_runs, fmt):
    returncode, stdout, stderr = not_utf8_runs[fmt]
    result = subprocess.CompletedProcess([fmt], returncode, stdout, stderr)
    assert (result.returncode, result.stderr) == (1, "")
    if fmt == "sarif":
        uris = {
            r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
            for r in json.loads(result.stdout)["runs"][0]["results"]
        }
        assert uris == {"bad%FF.csv", "ok.csv"}
    elif fmt == "json":
        assert {f["path"] for f in json.loads(result.stdout)} == {"bad\udcff.csv", "ok.csv"}
    elif fmt in ("text", "concise"):
        assert "bad\\udcff.csv: NB101" in result.stdout


def test_a_carriage_return_in_a_file_name_is_printed_escaped(tmp_path, monkeypatch):
    (tmp_path / "x\ry.csv").write_text(GOOD)
    monkeypatch.chdir(tmp_path)  # (in this process: the escape is the reporter's, not the terminal's)
    result = run("check", ".", "--target", "y", "--format", "concise")
    assert result.exit_code == 1 and "\r" not in result.stdout
    assert "x\\ry.csv: NB101" in result.stdout


def test_standard_output_on_a_full_disk_is_one_line(tmp_path):
    (tmp_path / "ok.csv").write_text(GOOD)
    with open("/dev/full", "w") as full:
        result = subprocess.run(
            [sys.executable, "-m", "nblint", "check", "ok.csv", "--target", "y"],
            cwd=tmp_path,
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
        )
    assert (result.returncode, result.stderr) == (
        2,
        "error: cannot write to standard output: No space left on device\n",
    )


def test_no_writable_temporary_folder_is_one_line(monkeypatch):
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", "/nonexistent/nblint-no-tmp")
    result = run("check", "-", "--target", "y", input=GOOD)
    assert result.exit_code == 2
    assert result.stderr == (
        "-: error: cannot copy standard input to a temporary file (No such file or directory): "
        "set TMPDIR to a writable folder\n"
    )


def _compressed_tables(csv: bytes) -> dict:
    import bz2
    import lzma
    import zipfile

    sink = pa.BufferOutputStream()
    with pa.CompressedOutputStream(sink, "zstd") as stream:
        stream.write(csv)
    archive = io.BytesIO()
    with zipfile.ZipFile(archive, "w") as handle:
        handle.writestr("table.csv", csv)
    return {
        "gz.csv": gzip.compress(csv),
        "bz2.csv": bz2.compress(csv),
        "xz.csv": lzma.compress(csv),
        "zstd.csv": sink.getvalue().to_pybytes(),
        "zip.csv": archive.getvalue(),
        "utf16le.csv": b"\xff\xfe" + csv.decode().encode("utf-16-le"),
        "utf16be.csv": b"\xfe\xff" + csv.decode().encode("utf-16-be"),
    }


def test_formats_are_told_by_their_magic_bytes_and_read(tmp_path):
    """Compressed CSV (gzip, bzip2, xz, zstd, zip), UTF-16 with a BOM, Feather/Arrow IPC: all read, same findings."""
    import pyarrow.feather as feather

    frame = onehot_table()
    csv = frame.to_csv(index=False).encode()
    (tmp_path / "plain.csv").write_bytes(csv)
    for name, data in _compressed_tables(csv).items():
        (tmp_path / name).write_bytes(data)
    feather.write_feather(frame, tmp_path / "table.feather")
    feather.write_feather(frame, tmp_path / "feather_named.csv")
    expected = json_lint(str(tmp_path / "plain.csv"), "--target", "y")
    assert "NB101" in [f["code"] for f in expected]
    for name in [*_compressed_tables(csv), "table.feather", "feather_named.csv"]:
        assert json_lint(str(tmp_path / name), "--target", "y") == expected, name
    assert json_lint(str(tmp_path / "utf16be.csv"), "--target", "y", "--encoding", "latin-1") == expected


def test_what_nblint_does_not_read_is_named(tmp_path):
    import zipfile

    buffer = io.BytesIO()
    onehot_table().to_parquet(buffer, index=False)
    (tmp_path / "pq.csv.gz").write_bytes(gzip.compress(buffer.getvalue()))
    with zipfile.ZipFile(tmp_path / "book.xlsx", "w") as book:
        book.writestr("[Content_Types].xml", "<Types/>")
        book.writestr("xl/workbook.xml", "<workbook/>")
    (tmp_path / "book.csv").write_bytes((tmp_path / "book.xlsx").read_bytes())
    (tmp_path / "good.csv").write_text(GOOD)
    result = run(
        "check", str(tmp_path / "pq.csv.gz"), str(tmp_path / "good.csv"), "--target", "y", "--format", "concise"
    )
    assert_only_error(
        result,
        str(tmp_path / "pq.csv.gz"),
        "the file holds gzip-compressed Parquet data, not CSV text: decompress it first",
        good=str(tmp_path / "good.csv"),
    )
    # (a workbook named .xlsx is read as one: tests/test_excel.py)
    for name in ("book.csv",):
        result = run("check", str(tmp_path / name), str(tmp_path / "good.csv"), "--target", "y", "--format", "concise")
        assert_only_error(
            result,
            str(tmp_path / name),
            "the file holds an Excel workbook (.xlsx), not CSV text: save the sheet as CSV",
            good=str(tmp_path / "good.csv"),
        )


def test_an_excel_sep_line_is_honoured(tmp_path):
    frame = onehot_table()
    (tmp_path / "plain.csv").write_text(frame.to_csv(index=False))
    (tmp_path / "sep.csv").write_text("sep=;\n" + frame.to_csv(index=False, sep=";"))
    expected = json_lint(str(tmp_path / "plain.csv"), "--target", "y")
    assert json_lint(str(tmp_path / "sep.csv"), "--target", "y") == expected


#: Dask's own deprecations (pandas 3's, in dask's parquet reader): a run's child hides them as Python
#: hides a DeprecationWarning outside __main__; in this process pytest would list them.
DASKS_OWN = pytest.mark.filterwarnings("ignore::DeprecationWarning:dask")


@pytest.mark.slow
@DASKS_OWN
def test_an_excel_sep_line_is_honoured_by_the_dask_engine(tmp_path, monkeypatch):
    pytest.importorskip("dask.dataframe")
    frame = onehot_table()
    (tmp_path / "sep.csv").write_text("sep=;\n" + frame.to_csv(index=False, sep=";"))
    monkeypatch.chdir(tmp_path)  # (in this process: the engine, not the process, is under test)
    local = run("check", "sep.csv", "--target", "y", "--format", "json")
    dask = run("check", "sep.csv", "--target", "y", "--format", "json", "--engine", "dask")
    assert (dask.exit_code, dask.stderr) == (local.exit_code, "") and "NB101" in dask.stdout
    assert {f["code"] for f in json.loads(dask.stdout)} == {f["code"] for f in json.loads(local.stdout)}


def test_a_column_name_over_128_kib_is_read(tmp_path):
    name = "a" * 200_000
    (tmp_path / "long.csv").write_text(f"{name},b,y\n1,0,x\n0,1,y\n1,0,x\n")
    findings = json_lint(str(tmp_path / "long.csv"), "--target", "y")
    assert findings[0]["code"] == "NB101" and findings[0]["columns"] == [name, "b"]


def test_a_pep_263_coding_cookie_is_honoured(tmp_path):
    source = (
        "# -*- coding: latin-1 -*-\n# café\nfrom sklearn.naive_bayes import MultinomialNB\nm = MultinomialNB(alpha=0)\n"
    )
    (tmp_path / "cookie.py").write_bytes(source.encode("latin-1"))
    codes = [(f["code"], f["line"]) for f in json_lint(str(tmp_path / "cookie.py"))]
    assert codes == [("NB502", 4)]


def test_syntax_newer_than_the_interpreter_is_a_note_not_an_error(tmp_path):
    source = "from sklearn.naive_bayes import MultinomialNB\ntype Alias = int\nm = MultinomialNB(alpha=0)\n"
    (tmp_path / "newer.py").write_text(source)
    findings = json_lint(str(tmp_path / "newer.py"))
    if sys.version_info >= (3, 12):  # the interpreter reads it: the pipeline is checked
        assert [f["code"] for f in findings] == ["NB502"]
    else:
        assert [(f["code"], f["line"]) for f in findings] == [("NB510", 2)]
        assert "uses Python 3.12 syntax at line 2" in findings[0]["message"]


def test_an_infinite_alpha_in_a_config_is_reported(tmp_path):
    (tmp_path / "model.yaml").write_text("_target_: sklearn.naive_bayes.MultinomialNB\nalpha: .inf\n")
    findings = json_lint(str(tmp_path / "model.yaml"))
    assert [(f["code"], f["line"]) for f in findings] == [("NB502", 2)]


def test_a_notebook_over_16_mib_of_outputs_is_read(tmp_path):
    import base64

    plot = base64.b64encode(os.urandom(1 << 20)).decode()  # an embedded PNG of 1.3 MiB, as text
    cell = {"cell_type": "code", "metadata": {}, "execution_count": 1}
    code = ["from sklearn.naive_bayes import MultinomialNB\n", "m = MultinomialNB(alpha=0)\n"]
    outputs = [{"output_type": "display_data", "data": {"image/png": plot}, "metadata": {}}]
    cells = [{**cell, "source": code, "outputs": outputs}] + [{**cell, "source": ["x = 1\n"], "outputs": outputs}] * 13
    notebook = {"cells": cells, "metadata": {"kernelspec": {"name": "python3"}}, "nbformat": 4, "nbformat_minor": 5}
    (tmp_path / "big.ipynb").write_text(json.dumps(notebook))
    assert (tmp_path / "big.ipynb").stat().st_size > 16 << 20
    findings = json_lint(str(tmp_path / "big.ipynb"))
    assert [f["code"] for f in findings] == ["NB502"]


@pytest.mark.slow
def test_int64_and_float64_extremes_print_no_warning_and_crash_nothing(tmp_path):
    """(run() makes numpy's RuntimeWarnings errors; the square of 1e-12 x 1.8e308 was an OverflowError in NB205.)"""
    n = 40
    rng = np.random.default_rng(0)
    frame = pd.DataFrame(
        {
            "i": np.where(np.arange(n) % 2, np.iinfo(np.int64).max, np.iinfo(np.int64).min),
            "f": np.where(np.arange(n) % 3 == 0, np.finfo(np.float64).max, -np.finfo(np.float64).max),
            "g": rng.normal(size=n) * 1e300,
            # Few whole values spread over float64's or uint64's whole range: a kind is read from their
            # frequencies, once an array over the range ("array is too big").
            "w": np.array([0.0, 1.0, 2.0, 1e300, np.finfo(np.float64).max])[np.arange(n) % 5],
            "u": np.array([0, 7, 2**63, 2**63 + 1, 2**64 - 1], dtype=np.uint64)[np.arange(n) % 5],
            "y": rng.integers(0, 2, n),
        }
    )
    level = rng.integers(0, 3, n)  # a one-hot group beside them: NB401 and the readings fit the extremes too
    for k in range(3):
        frame[f"h_{k}"] = (level == k).astype(int)
    frame.to_csv(tmp_path / "ext.csv", index=False)
    frame.to_parquet(tmp_path / "ext.parquet", index=False)
    from_csv = json_lint(str(tmp_path / "ext.csv"), "--target", "y")
    assert "NB401" in [f["code"] for f in from_csv]
    assert json_lint(str(tmp_path / "ext.parquet"), "--target", "y") == from_csv
    for command in ("impact", "columns"):
        done = _nblint(command, "ext.csv", "--target", "y", cwd=tmp_path)
        assert (done.returncode, done.stderr) == (0, ""), (command, done.stderr)
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        assert findings_of(frame, target="y") == from_csv


@pytest.mark.slow
@DASKS_OWN
def test_the_dask_engine_honours_a_spec_and_parquet_folders_without_a_slash(tmp_path, monkeypatch):
    pytest.importorskip("dask.dataframe")
    frame = onehot_table()
    frame.to_csv(tmp_path / "data.csv", index=False)
    (tmp_path / "spec.yaml").write_text("model: bernoulli\ndata: data.csv\ntarget: y\n")
    monkeypatch.chdir(tmp_path)  # (in this process: the engine, not the process, is under test)
    local = run("check", "spec.yaml", "--format", "json")
    dask = run("check", "spec.yaml", "--format", "json", "--engine", "dask")
    assert local.exit_code == 1 and "NB101" in local.stdout
    assert (dask.exit_code, dask.stderr) == (1, "")
    codes = sorted({(f["path"], f["code"]) for f in json.loads(local.stdout)})
    assert sorted({(f["path"], f["code"]) for f in json.loads(dask.stdout)}) == codes
    (tmp_path / "parts").mkdir()
    frame.iloc[:150].to_parquet(tmp_path / "parts" / "a.parquet", index=False)
    frame.iloc[150:].to_parquet(tmp_path / "parts" / "b.parquet", index=False)
    results = [
        run("check", name, "--target", "y", "--format", "concise", "--engine", "dask") for name in ("parts", "parts/")
    ]
    assert [r.exit_code for r in results] == [1, 1], results[0].stderr
    assert results[0].stdout.replace("parts:", "parts/:") == results[1].stdout
    assert "NB101" in results[0].stdout


def test_a_bad_byte_past_the_first_block_is_located(tmp_path, monkeypatch):
    monkeypatch.setattr(CsvSource, "PARSE_BLOCK", 1 << 12)  # (a small first block: the bad byte is past it)
    monkeypatch.setattr(CsvSource, "BLOCK_ROWS", 16)
    rows = b"a,b,y\n" + b"1,0,x\n0,1,y\n" * 2000 + b"1,\xff,x\n" + b"0,1,y\n" * 3
    (tmp_path / "bad.csv").write_bytes(rows)
    (tmp_path / "good.csv").write_text(GOOD)
    result = run("check", str(tmp_path / "bad.csv"), str(tmp_path / "good.csv"), "--target", "y", "--format", "concise")
    assert_only_error(
        result,
        str(tmp_path / "bad.csv"),
        "bytes not valid in utf-8 in column 'b' at data row 4001; pass --encoding (for example --encoding latin-1)",
        good=str(tmp_path / "good.csv"),
    )


def test_a_killed_run_s_temporary_files_are_removed_by_the_next_run_and_a_live_run_s_are_not(tmp_path):
    """SIGKILL skips every clean-up: the copy of standard input stays until a later run sweeps it."""
    folder = tmp_path / "tmp"
    folder.mkdir()
    env = {**os.environ, "TMPDIR": str(folder)}
    command = [sys.executable, "-m", "nblint", "check", "-", "--target", "y"]

    def reading_stdin():
        """A run blocked on standard input after its first bytes are copied to a temporary file."""
        proc = subprocess.Popen(command, env=env, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL)
        proc.stdin.write(b"a,y\n1,0\n")
        proc.stdin.flush()
        deadline = time.monotonic() + 60
        while not list(folder.glob(f"nblint-{proc.pid}-stdin-*")):
            assert time.monotonic() < deadline and proc.poll() is None
            time.sleep(0.05)
        return proc

    killed = reading_stdin()
    killed.kill()
    killed.wait()
    orphans = sorted(p.name for p in folder.iterdir())
    assert orphans and all(name.startswith(f"nblint-{killed.pid}") for name in orphans), orphans
    live = reading_stdin()  # sweeps the killed run's files, keeps its own
    try:
        left = sorted(p.name for p in folder.iterdir())
        assert not [name for name in left if name.startswith(f"nblint-{killed.pid}")], left
        assert [name for name in left if name.startswith(f"nblint-{live.pid}-stdin-")], left
        third = subprocess.run(command, env=env, input=b"a,y\n1,0\n2,1\n", capture_output=True)
        assert third.returncode in (0, 1), third.stderr
        assert [p for p in folder.iterdir() if p.name.startswith(f"nblint-{live.pid}-stdin-")]  # live: kept
    finally:
        live.stdin.close()
        live.wait(60)
    assert sorted(p.name for p in folder.iterdir()) == []  # a run that ends removes its files and its lock


# --------------------------------------------------------------------------- round 3 (issue 41)


def test_a_value_that_keeps_doubling_is_given_up_under_a_memory_cap(tmp_path):
    """Lines of ``s1 = s0 + s0`` (about 530 bytes) asked for 2 GB; past a size bound the value is unknown, said so."""
    lines = ["from sklearn.naive_bayes import BernoulliNB", 's0 = "ab"']
    lines += [f"s{i + 1} = s{i} + s{i}" for i in range(30)]  # s30 would hold 2 GiB
    lines.append("clf = BernoulliNB(alpha=0)")
    source = "\n".join(lines) + "\n"
    assert len(source) < 540
    path = tmp_path / "doubling.py"
    path.write_text(source)

    def limit():
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))

    result = _nblint(
        "check", path, "--format", "json", preexec_fn=limit, env={**os.environ, "OPENBLAS_NUM_THREADS": "1"}
    )
    assert result.returncode == 1 and result.stderr == "", result.stderr[-2000:]
    found = {(f["code"], f["line"]): f["message"] for f in json.loads(result.stdout)}
    assert ("NB502", len(lines)) in found  # the model after the doubling lines is still read
    (note,) = [message for (code, _), message in found.items() if code == "NB510"]
    assert "gave up" in note


def test_nested_loops_over_literal_keys_are_read_a_bounded_number_of_times(monkeypatch):
    """Each loop over literal keys that passes its key to a helper is read key by key; nested, the keys
    multiply (12**5 readings here), so the readings have one budget per source, and past it a loop is read once."""
    from nblint.pipelines import pysource

    keys = ", ".join(f'"k{i}"' for i in range(12))
    lines = [
        "from sklearn.naive_bayes import GaussianNB",
        "from sklearn.preprocessing import StandardScaler",
        "def prep(a, b, c, d, e):",
        "    return StandardScaler()",
    ]
    for depth, name in enumerate("abcde"):
        lines.append("    " * depth + f"for {name} in [{keys}]:")
    lines.append("    " * 5 + "prep(a, b, c, d, e).fit(X)")
    lines.append("GaussianNB().fit(X, y)")
    readings = []
    original = pysource._ModuleReader.inline

    def counted(self, *args, **kwargs):
        readings.append(1)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(pysource._ModuleReader, "inline", counted)
    assert pysource.read_python("\n".join(lines) + "\n", "nested.py") is not None
    assert len(readings) <= 200
