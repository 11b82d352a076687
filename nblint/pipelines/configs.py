"""Config files: which files are pipeline configs, and reading them (the rules run in :mod:`nblint.pipelines.lint`).

A file is read as a pipeline config by its suffix (``.yaml``, ``.yml``, ``.json``,
``.toml``, ``.py``, ``.ipynb``; nblint's own ``pyproject.toml`` and ``nblint.toml``
never are, even when named on the command line, as pre-commit does) and only
when its bytes hint at one: ``_target_``, a ``model`` key or a
``!!python/`` tag for YAML/JSON/TOML, ``sklearn``, ``imblearn`` or the name of a
Naive Bayes class for Python and notebooks.  Everything else -- and a file that parses but builds no
scikit-learn object -- is skipped silently, so a pre-commit hook over every
YAML, Python and notebook file of a repository stays quiet.  A file that hints
at a config but cannot be parsed is an error naming the line; a ``.ipynb`` file
is always a notebook, so one that is not JSON, or not a notebook, is an error.

Notebook findings are located by cell and line within the cell
(:mod:`nblint.pipelines.notebook`).

Suppression comments are found by their text on each line, the way ``# noqa``
usually is, so the same words inside a string on that line count too: nblint's
own ``# nblint: ignore`` (every code) and ``# nblint: ignore[NB501, NB5]``, and
ruff's ``# noqa`` (every code) and ``# noqa: NB501, NB507`` (codes separated by
commas or spaces; other tools' codes in the list are ignored).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from nblint.core.errors import InputError
from nblint.core.fileguard import read_limited
from nblint.engine import (
    load_rules,
    loaded_packs,
    renamed_codes,
    renamed_note,
    selector_code,
    unknown_selector,
)
from nblint.engine.findings import Finding
from nblint.pipelines.calls import Note
from nblint.pipelines.spec import PipelineSpec

if TYPE_CHECKING:
    from nblint.pipelines.notebook import CellMap

# Each format's reader (YAML and TOML through the mapping reader, Python through ast, notebooks) is
# imported when a file of that format is read: a run of tables asks only whether a path is a config.

CONFIG_SUFFIXES = (".yaml", ".yml", ".json", ".toml", ".py", ".ipynb")
#: nblint's own configuration files, never pipeline configs.
NBLINT_CONFIG_NAMES = frozenset({"pyproject.toml", "nblint.toml"})
_MAPPING_HINT = re.compile(rb"_target_|(?:^|[{,])\s*[\"']?model[\"']?\s*[:=]|!!?python/", re.M)
#: The libraries whose names make a Python file or notebook worth parsing (plain substring
#: tests: much faster than a regular expression over a notebook's embedded images).
_PYTHON_HINTS = (
    b"sklearn",
    b"imblearn",
    b"GaussianNB",
    b"MultinomialNB",
    b"BernoulliNB",
    b"ComplementNB",
    b"CategoricalNB",
)
_SUPPRESSION = re.compile(
    r"#\s*(?:nblint:\s*ignore\b(?:\[(?P<codes>[^\]]*)\])?"  # nblint: ignore[NB501, NB5]
    r"|noqa\b(?::\s*(?P<noqa>[A-Z]+[0-9]+(?:[\s,]+[A-Z]+[0-9]+)*))?)",  # noqa: NB501 NB502 (ruff's form)
    re.I,
)


def is_config_path(path: str) -> bool:
    """Whether ``path`` has the suffix of a pipeline config (and so is never read as a table)."""
    return path.lower().endswith(CONFIG_SUFFIXES)


#: An array whose first item is an object: JSON records (``DataFrame.to_json(orient="records")``).
_JSON_RECORDS = re.compile(rb"\A(?:\xef\xbb\xbf)?\s*\[\s*\{")


def json_table_error(path: str) -> str | None:
    """Why a ``.json`` file holding no pipeline is not linted, when it is a table (JSON records); else None.

    Tables are read from CSV, TSV, Parquet, Arrow and Excel files; a table given as
    JSON would otherwise pass as a config with nothing in it ("All checks passed").
    """
    if not path.lower().endswith(".json"):
        return None
    with open(path, "rb") as handle:
        head = handle.read(4096)
    if not _JSON_RECORDS.match(head):
        return None
    return (
        "a table in JSON (an array of records): nblint reads tables from CSV, TSV, Parquet, Arrow and Excel "
        "files (convert it: pandas.read_json(path).to_parquet(...))"
    )


@dataclass
class ConfigFile:
    """A pipeline config that was read: its pipelines and its suppression comments.

    Attributes
    ----------
    path : str
    specs : list of PipelineSpec
    suppressions : dict
        1-based line -> the codes (or prefixes) ignored on it; None means every code.
    cells : CellMap or None
        For a notebook: where each line of its joined code cells is (lines in
        specs and suppressions are lines of that joined text).
    """

    path: str
    specs: list[PipelineSpec]
    suppressions: dict[int, frozenset[str] | None] = field(default_factory=dict)
    cells: CellMap | None = None
    #: (1-based line, what was written) for each suppressed code or name that matches no rule.
    unknown_suppressions: list[tuple[int, str]] = field(default_factory=list)
    #: (1-based line, what was written) for each suppressed code that was renamed (it suppresses the new code).
    renamed_suppressions: list[tuple[int, str]] = field(default_factory=list)

    def suppression_warnings(self) -> list[str]:
        """One warning line for each suppression that names no rule, with the likeliest code."""
        lines = []
        for line, written in self.unknown_suppressions:
            lines.append(
                f"{self._where(line)}: warning: suppression '# nblint: ignore[{written}]': "
                f"{unknown_selector(written, load_rules())}; it suppresses nothing"
            )
        for line, written in self.renamed_suppressions:
            lines.append(f"{self._where(line)}: {renamed_note(written)}")
        return lines

    def _where(self, line: int) -> str:
        return f"{self.path}:{line}" if self.cells is None else f"{self.path} ({self.cells.describe(line)})"

    def data_paths(self) -> list[tuple[str, PipelineSpec]]:
        """The data files the specs name, relative to the config's folder, with the spec naming each."""
        folder = os.path.dirname(self.path)
        return [(os.path.normpath(os.path.join(folder, spec.data)), spec) for spec in self.specs if spec.data]

    def suppressed(self, finding: Finding) -> bool:
        """Whether a ``# nblint: ignore`` comment on the finding's line covers its code."""
        if finding.line not in self.suppressions:
            return False
        codes = self.suppressions[finding.line]
        return codes is None or any(finding.code.startswith(code) for code in codes)


#: Notebooks are read up to this size (their outputs are dropped as they are parsed); configs up to 16 MiB.
MAX_NOTEBOOK_BYTES = 512 << 20


def _coding_cookie(raw: bytes) -> str:
    """The encoding a Python source declares (PEP 263 ``# -*- coding: latin-1 -*-``), else UTF-8 (BOM allowed)."""
    import io
    import tokenize

    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(raw).readline)
    except SyntaxError:  # an unknown encoding in the cookie: read as UTF-8, which says where it fails
        return "utf-8-sig"
    return "utf-8-sig" if encoding in ("utf-8", "utf-8-sig") else encoding


def read_config(path: str) -> ConfigFile | None:
    """Read one config file; None when it is not a pipeline config.

    Parameters
    ----------
    path : str
        A ``.yaml``/``.yml``, ``.json``, ``.toml`` or ``.py`` file (opened read-only).

    Returns
    -------
    ConfigFile or None
        Its pipelines and suppression comments; None for a file to skip silently.

    Raises
    ------
    InputError
        When the file cannot be read, is not UTF-8, or is malformed (with the line).
    """
    if os.path.basename(path) in NBLINT_CONFIG_NAMES:
        return None
    if path.lower().endswith(".ipynb"):
        # A notebook's weight is mostly its outputs (embedded plots), which are dropped while parsing.
        return _read_notebook(read_limited(path, MAX_NOTEBOOK_BYTES), path)
    raw = read_limited(path)  # (a FIFO or device is refused, never read)
    python = path.lower().endswith(".py")
    if not (_mentions_library(raw) if python else _MAPPING_HINT.search(raw)):
        return None
    encoding = _coding_cookie(raw) if python else "utf-8-sig"
    try:
        text = raw.decode(encoding)
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        what = "UTF-8" if encoding == "utf-8-sig" else encoding
        if python:  # Python refuses it too (a SyntaxError): a source nblint cannot read, said by NB510
            message = (
                f"this file is not {what} text (byte 0x{raw[exc.start]:02x} at line {line}) and declares no other "
                "encoding, so Python and nblint cannot read it: its pipelines are not checked"
            )
            return ConfigFile(path, [PipelineSpec(path, "python", (), None, notes=(Note(line, message),))])
        raise InputError(f"not {what} text (byte 0x{raw[exc.start]:02x} at line {line})") from None
    try:
        if python:
            from nblint.pipelines.pysource import read_python

            specs = read_python(text, path)
        else:
            from nblint.pipelines.mapping import read_mapping_config
            from nblint.pipelines.tree import read_documents

            specs = read_mapping_config(read_documents(text, os.path.splitext(path.lower())[1]), path)
    except (RecursionError, MemoryError):  # (CPython's parser reports its own depth limit as either)
        raise InputError("nested too deeply to read") from None
    if specs is None:
        return None
    return _with_suppressions(ConfigFile(path, specs), text)


def _with_suppressions(config: ConfigFile, text: str) -> ConfigFile:
    """``config`` with the suppression comments of ``text``; the codes and names that match no rule noted."""
    config.suppressions = _suppressions(text)
    if "nblint" not in text and "NB" not in text.upper():
        return config
    codes = list(load_rules())
    prefixes = tuple(pack.prefix for pack in loaded_packs())
    renamed = renamed_codes()
    for number, line in enumerate(text.splitlines(), 1):
        for match in _SUPPRESSION.finditer(line):
            # every entry of nblint's own comment; of a noqa, only the codes of rule packs (E501 is another linter's)
            listed = match.group("codes") or ""
            written = [c for c in re.split(r"[\s,]+", listed) if c]
            written += [c for c in re.split(r"[\s,]+", match.group("noqa") or "") if c.upper().startswith(prefixes)]
            for entry in written:
                if entry.strip().upper() in renamed:
                    config.renamed_suppressions.append((number, entry))
                elif not any(code.startswith(selector_code(entry)) for code in codes):
                    config.unknown_suppressions.append((number, entry))
    return config


def _mentions_library(raw: bytes) -> bool:
    return any(hint in raw for hint in _PYTHON_HINTS)


def _read_notebook(raw: bytes, path: str) -> ConfigFile | None:
    """A notebook's code cells as one Python source; None when it uses no scikit-learn (or is not Python)."""
    from nblint.pipelines.notebook import file_lines, load_cells, read_notebook
    from nblint.pipelines.pynotes import cut_message
    from nblint.pipelines.pyparse import imports_library
    from nblint.pipelines.pysource import read_module

    cells = load_cells(raw)
    if cells is None or not _mentions_library(raw):
        return None
    try:
        notebook = read_notebook(cells, path)
    except (RecursionError, MemoryError):  # (a cell nested past CPython's parser limit)
        raise InputError("nested too deeply to read") from None
    notes = []
    if notebook.python2:
        first_cell, first = notebook.python2[0]
        listed = ", ".join(str(cell) for cell, _ in notebook.python2)
        notes.append(
            Note(
                notebook.cells.starts[notebook.cells.cells.index(first_cell)] + first.line - 1,
                (
                    f"the notebook is Python 2 (cell{'s' if len(notebook.python2) > 1 else ''} {listed}): nblint read "
                    "those cells with their Python 2 statements set aside (print, exec, old except/raise forms), so what "
                    "it checked assumes the rest means the same in Python 3"
                ),
            )
        )
    refused = [(cell, why) for cell, why in notebook.unreadable if not why.deep]
    if refused:
        described = "; ".join(f"cell {cell}: {why.reason} at line {why.line}" for cell, why in refused)
        count = len(refused)
        notes.append(
            Note(
                _joined_line(notebook, refused[0][0], refused[0][1].line),
                (
                    f"{count} code cell{'s' if count > 1 else ''} could not be read as Python 3 ({described}): "
                    "what they do is not followed, so pipelines built or fitted there are not checked"
                ),
            )
        )
    deep = [(cell, why) for cell, why in notebook.unreadable if why.deep]
    if deep:
        listed = ", ".join(str(cell) for cell, _ in deep)
        notes.append(
            Note(
                _joined_line(notebook, deep[0][0], deep[0][1].line),
                (
                    f"code cell{'s' if len(deep) > 1 else ''} {listed} {'are' if len(deep) > 1 else 'is'} nested too deeply "
                    "for Python's parser (its own limit, not an error in the code) and could not be read: what "
                    f"{'they do' if len(deep) > 1 else 'it does'} is not followed, so pipelines built or fitted there are "
                    "not checked"
                ),
            )
        )
    if notebook.cut:
        where = "; ".join(
            f"cell {cell}, line{'s' if len(lines) > 1 else ''} {', '.join(map(str, lines))}"
            for cell, lines in notebook.cut
        )
        first_cell, lines = notebook.cut[0]
        notes.append(Note(_joined_line(notebook, first_cell, lines[0]), cut_message(where)))
    specs = read_module(notebook.tree, path, notebook.text, "notebook", notes, notebook.runs)
    if specs is None:
        if not notes or not imports_library(notebook.text):
            return None
        specs = [PipelineSpec(path, "notebook", (), None, notes=tuple(notes))]
    for spec in specs:
        for step in spec.walk():
            if step.line is not None:
                step.place = notebook.cells.describe(step.line)
    notebook.cells.file_lines = file_lines(raw, notebook.cells)
    return _with_suppressions(ConfigFile(path, specs, cells=notebook.cells), notebook.text)


def _joined_line(notebook, cell: int, line: int) -> int:
    """The line of the notebook's joined code text that is line ``line`` of cell ``cell``."""
    return notebook.cells.starts[notebook.cells.cells.index(cell)] + line - 1


def _suppressions(text: str) -> dict[int, frozenset[str] | None]:
    """Suppression comments by line: the codes (or prefixes) each line ignores, None for every code.

    ``# nblint: ignore`` and a bare ``# noqa`` ignore every code; ``# nblint:
    ignore[NB501, NB5]`` and ``# noqa: NB501`` the codes they list.  Several
    comments on one line add up.
    """
    found: dict[int, frozenset[str] | None] = {}
    for number, line in enumerate(text.splitlines(), 1):
        codes: set[str] = set()
        for match in _SUPPRESSION.finditer(line):
            listed = match.group("codes") if match.group("codes") is not None else match.group("noqa")
            if listed is None:
                found[number] = None
                break
            codes.update(selector_code(c) for c in re.split(r"[\s,]+", listed) if c)
        else:
            if codes:
                found[number] = frozenset(codes)
    return found
