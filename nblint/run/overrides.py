"""The command line's settings: what a run is told beside (and over) each file's configuration.

An API check builds its settings from its arguments (:func:`nblint.run.config.parse_settings`) and
never needs these; the CLI's commands, pre-commit and :func:`nblint.run.runner.lint_paths` do. (Their
own module, so that a first check does not exec a dataclass it never makes.)
"""

from __future__ import annotations

from dataclasses import dataclass

from nblint.engine.findings import Severity


@dataclass
class Overrides:
    """Command-line settings; None means "not given" (the config decides)."""

    target: str | None = None
    text: str | None = None
    model: str | None = None
    alpha: float | None = None
    select: list[str] | None = None
    ignore: list[str] | None = None
    fail_on: Severity | None = None
    encoding: str | None = None
    config: str | None = None
    #: The sheet of an Excel workbook to read (default: the first).
    sheet: str | None = None
    #: Added to the select and ignore lists in force (the command line's, else the configuration's).
    extend_select: list[str] | None = None
    extend_ignore: list[str] | None = None
    #: ``--preview``: run the rules in preview too.
    preview: bool | None = None
    #: ``--allow-outside-data``: read a data file a spec names outside its folder and the working directory.
    allow_outside_data: bool = False
    #: ``--test``: the test or serving table each checked table is compared with (:mod:`nblint.run.pairing`).
    test: str | None = None
