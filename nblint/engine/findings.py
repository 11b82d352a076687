"""The finding record every rule yields and every reporter renders."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any

#: The most example rows a finding lists (the rows of a broken group, the rows whose prediction flips),
#: gathered in row order by every engine.
EXAMPLE_ROWS = 5


class Severity(enum.IntEnum):
    """Ordered severities; ``--fail-on`` compares against these."""

    INFO = 1
    WARNING = 2
    ERROR = 3

    @classmethod
    def parse(cls, text: str) -> Severity:
        try:
            return cls[str(text).upper()]
        except KeyError:
            raise ValueError(f"unknown severity {text!r} (expected info, warning or error)") from None

    def __str__(self) -> str:
        return self.name.lower()


@dataclass
class Finding:
    """One problem found in one input.

    Attributes
    ----------
    code, name : str
        The rule's stable code (``NB101``) and its kebab-case name.
    severity : Severity
    message : str
        What is wrong, with the numbers.
    path : str
        The input file (``<dataframe>`` for the API, ``-`` for stdin).
    columns : list of str
        The columns involved; for a group rule exactly the group's members.
    rows : list of int
        A few example row numbers (1-based data rows) where rows are the point, at most
        :data:`EXAMPLE_ROWS` of them where a pass over the rows gathers them.
    line : int or None
        1-based line in the file where a line is meaningful (configs); in a
        notebook, the line within its cell.
    cell : int or None
        In a notebook: the 1-based position of the cell (counting every cell).
    file_line : int or None
        In a notebook: the line of the ``.ipynb`` file (its JSON text) where the
        finding's source line is written, for annotations on the file itself.
    evidence : dict
        The numbers behind the message (JSON-serialisable).
    fix : str
        What to do instead.
    figure : dict or None
        The data behind the finding's picture in the HTML report (:mod:`nblint.report.html`):
        not part of :meth:`to_dict`, so JSON and the other formats never change with it.
    variant : str
        The key of the rule's ``messages`` whose template the message is rendered from
        (:mod:`nblint.engine.messages`; "" for a literal message). Not part of :meth:`to_dict`
        either: the contract checks it, reporters never show it.
    """

    code: str
    name: str
    severity: Severity
    message: str
    path: str = ""
    columns: list[str] = field(default_factory=list)
    rows: list[int] = field(default_factory=list)
    line: int | None = None
    evidence: dict[str, Any] = field(default_factory=dict)
    fix: str = ""
    cell: int | None = None
    file_line: int | None = None
    figure: dict[str, Any] | None = field(default=None, repr=False, compare=False)
    variant: str = field(default="", compare=False)

    def sort_key(self):
        """Sort by file, (cell,) line and code; a stable sort keeps each rule's own (table) order."""
        return (self.path, self.cell or 0, self.line or 0, self.code)

    def location(self) -> str:
        """``path``, ``path:12`` or, in a notebook, ``path:cell 7:3``."""
        if self.line is None:
            return self.path
        return f"{self.path}:cell {self.cell}:{self.line}" if self.cell is not None else f"{self.path}:{self.line}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "name": self.name,
            "severity": str(self.severity),
            "path": self.path,
            "columns": list(self.columns),
            "rows": list(self.rows),
            "line": self.line,
            **({"cell": self.cell} if self.cell is not None else {}),
            "message": self.message,
            "evidence": self.evidence,
            "fix": self.fix,
        }
