"""Config files: which files are pipeline configs, reading them, and running the pipeline rules.

A file is read as a pipeline config by its suffix (``.yaml``, ``.yml``, ``.json``,
``.toml``, ``.py``; nblint's own ``pyproject.toml`` and ``nblint.toml`` never are,
even when named on the command line, as pre-commit does) and only when its bytes
hint at one: ``_target_``, a ``model`` key or a
``!!python/`` tag for YAML/JSON/TOML, ``sklearn`` or ``imblearn`` for Python.
Everything else -- and a file that parses but builds no scikit-learn object --
is skipped silently, so a pre-commit hook over every YAML and Python file of a
repository stays quiet.  A file that hints at a config but cannot be parsed is
an error naming the line.

Suppression comments (``# nblint: ignore``, ``# nblint: ignore[NB501, NB5]``) are
found by their text on each line, the way ``# noqa`` usually is, so the same
words inside a string on that line count too.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field

from nblint.engine import resolved_options, run_rules
from nblint.errors import InputError
from nblint.fileguard import read_limited
from nblint.findings import Finding
from nblint.pipelines.context import PipelineContext
from nblint.pipelines.mapping import read_mapping_config
from nblint.pipelines.pysource import read_python
from nblint.pipelines.spec import PipelineSpec
from nblint.pipelines.tree import read_documents

CONFIG_SUFFIXES = (".yaml", ".yml", ".json", ".toml", ".py")
#: nblint's own configuration files, never pipeline configs.
NBLINT_CONFIG_NAMES = frozenset({"pyproject.toml", "nblint.toml"})
_MAPPING_HINT = re.compile(rb"_target_|(?:^|[{,])\s*[\"']?model[\"']?\s*[:=]|!!?python/", re.M)
_PYTHON_HINT = re.compile(rb"sklearn|imblearn")
_SUPPRESSION = re.compile(r"#\s*nblint:\s*ignore\b(?:\[(?P<codes>[^\]]*)\])?", re.I)


def is_config_path(path: str) -> bool:
    """Whether ``path`` has the suffix of a pipeline config (and so is never read as a table)."""
    return path.lower().endswith(CONFIG_SUFFIXES)


@dataclass
class ConfigFile:
    """A pipeline config that was read: its pipelines and its suppression comments.

    Attributes
    ----------
    path : str
    specs : list of PipelineSpec
    suppressions : dict
        1-based line -> the codes (or prefixes) ignored on it; None means every code.
    """

    path: str
    specs: list[PipelineSpec]
    suppressions: dict[int, frozenset[str] | None] = field(default_factory=dict)

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
    raw = read_limited(path)  # (a FIFO or device is refused, never read)
    python = path.lower().endswith(".py")
    if not (_PYTHON_HINT if python else _MAPPING_HINT).search(raw):
        return None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise InputError(f"not UTF-8 text (byte 0x{raw[exc.start]:02x} at line {line})") from None
    try:
        if python:
            specs = read_python(text, path)
        else:
            specs = read_mapping_config(read_documents(text, os.path.splitext(path.lower())[1]), path)
    except (RecursionError, MemoryError):  # (CPython's parser reports its own depth limit as either)
        raise InputError("nested too deeply to read") from None
    if specs is None:
        return None
    return ConfigFile(path, specs, _suppressions(text))


def _suppressions(text: str) -> dict[int, frozenset[str] | None]:
    """``# nblint: ignore`` (every code) and ``# nblint: ignore[NB501, NB507]`` comments, by line."""
    found: dict[int, frozenset[str] | None] = {}
    for number, line in enumerate(text.splitlines(), 1):
        match = _SUPPRESSION.search(line)
        if match:
            codes = match.group("codes")
            found[number] = None if codes is None else frozenset(c.strip().upper() for c in codes.split(",") if c.strip())
    return found


def lint_specs(specs: list[PipelineSpec], codes: list[str], rule_options: dict | None = None,
               config: ConfigFile | None = None) -> list[Finding]:
    """Run the enabled pipeline rules on every spec; identical findings once, suppressed ones left out.

    Parameters
    ----------
    specs : list of PipelineSpec
        The pipelines of one file (or one live object).
    codes : list of str
        The enabled rule codes (table rules among them are not run).
    rule_options : dict, optional
        Configured options per rule code; defaults fill the rest.
    config : ConfigFile, optional
        The file the specs come from, for its ``# nblint: ignore`` comments.

    Returns
    -------
    list of Finding
        Sorted by path, line and code.
    """
    options = resolved_options(rule_options)
    findings: list[Finding] = []
    seen = set()
    for spec in specs:
        for finding in run_rules(PipelineContext(spec, options), codes, options):
            key = (finding.code, finding.line, finding.message)
            if key not in seen and not (config is not None and config.suppressed(finding)):
                seen.add(key)
                findings.append(finding)
    findings.sort(key=Finding.sort_key)
    return findings
