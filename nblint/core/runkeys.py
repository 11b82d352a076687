"""The run keys: what a run is told about a table, declared once and validated in one place.

A table is checked with a target, a model and its smoothing, maybe a text column, a test
table, declared column kinds and a memory budget. Each face says them its own way (the
command line's ``--alpha``, the configuration's ``alpha = ...``, an nblint spec's
``params: {alpha: ...}``, the API's ``alpha=``), and each reads them through the one
:class:`RunKey` declared here, as a rule declares its options (name, type, default,
help, validation), so that the same bad value gets the same words on every face; the
face adds only where the value was written (``tool.nblint.alpha``, ``'--alpha'``, a
spec's line).

A check takes the value as the face holds it (``from_text``: the command line's text,
which a number is parsed from) and returns the parsed value, or raises ValueError with
what the value must be and the value as written: ``must be a finite number >= 0, got -1``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from nblint.core.models import DECLARABLE_KINDS, MODEL_CLASSES, MODELS, model_choices, parse_model
from nblint.core.records import Record
from nblint.core.resources import parse_size


def shown(value: Any, from_text: bool = False) -> str:
    """A value as an error line shows it: as written (a number from the command line without quotes)."""
    if from_text and isinstance(value, str) and _float(value) is not None:
        return value.strip()
    return repr(value)


def _float(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None


def non_empty_string(value: Any, from_text: bool = False) -> str:
    """A column name or a path: a string with something in it."""
    if not isinstance(value, str) or not value:
        raise ValueError(f"must be a non-empty string, got {shown(value, from_text)}")
    return value


def smoothing(value: Any, from_text: bool = False) -> float:
    """A Naive Bayes smoothing ``alpha``: a finite number >= 0 (0: none, the maximum-likelihood estimates).

    A number by type (a boolean is not one), or, from the command line, its text.
    """
    if from_text and isinstance(value, str):
        number = _float(value)
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        number = float(value)
    else:
        number = None
    if number is None or not math.isfinite(number) or number < 0:
        raise ValueError(f"must be a finite number >= 0, got {shown(value, from_text)}")
    return number


def model(value: Any, from_text: bool = False) -> str:
    """A Naive Bayes event model, by any of its names (:func:`nblint.core.models.parse_model`)."""
    parsed = parse_model(value) if isinstance(value, str) else None
    if parsed is None:
        guess = ""
        if isinstance(value, str):  # (a class path is guessed at by its class)
            from nblint.core.suggest import did_you_mean  # (an error's hint)

            guess = did_you_mean(value.strip().rsplit(".", 1)[-1], [*MODEL_CLASSES.values(), *MODELS])
        raise ValueError(f"must be one of {model_choices()}, got {value!r}{guess}")
    return parsed


def kinds(value: Any, from_text: bool = False) -> dict[str, str]:
    """Declared column kinds: a table of column name (or glob) -> one of the declarable kinds."""
    if not isinstance(value, dict):
        raise ValueError(f"must be a table of column -> kind, got {type(value).__name__}")
    declared = {}
    for column, kind in value.items():
        if not isinstance(kind, str) or kind.lower() not in DECLARABLE_KINDS:
            raise KindError(column, f"must be one of {', '.join(DECLARABLE_KINDS)}, got {kind!r}")
        declared[str(column)] = kind.lower()
    return declared


class KindError(ValueError):
    """A declared kind that is none of the declarable ones: its column is part of where it was written."""

    def __init__(self, column: Any, problem: str):
        super().__init__(problem)
        self.column = column


def memory_budget(value: Any, from_text: bool = False) -> int:
    """Bytes a table's statistics may take: a number of bytes, or a size such as ``"4GB"``."""
    return parse_size(value)


class RunKey(Record):
    """One run key, declared as a rule's option is.

    Attributes
    ----------
    name : str
        As the configuration writes it (kebab-case); the command line's option is ``--name``,
        the API's argument ``name`` in snake_case.
    type : str
        What a value is, in words (for the documentation).
    default : object
        The value when no face gives one (None: not given, the run decides).
    help : str
        One line for the documentation.
    check : callable
        ``check(value, from_text)``: the parsed value, or ValueError saying what it must be.

    (Written out: a named tuple's class costs a fresh process ~0.4 ms to create; none reads this as a tuple.)
    """

    __slots__ = ("name", "type", "default", "help", "check")

    def __init__(self, name: str, type: str, default: Any, help: str, check: Callable[[Any, bool], Any]) -> None:
        self.name = name
        self.type = type
        self.default = default
        self.help = help
        self.check = check

    def parse(self, value: Any, where: str | None = None, *, from_text: bool = False) -> Any:
        """The parsed value; a bad one raises ValueError, its text prefixed with ``where`` (the key as written).

        Without ``where`` the text is the problem alone (``must be ..., got ...``), for a face that
        names the key itself (the command line's ``Invalid value for '--alpha': ...``).
        """
        try:
            return self.check(value, from_text)
        except KindError as exc:
            if where is None:
                raise
            raise ValueError(f"{where}.{exc.column!r} {exc}") from None
        except ValueError as exc:
            if where is None:
                raise
            raise ValueError(f"{where} {exc}") from None


#: Every run key, in the order the documentation lists them.
RUN_KEYS: dict[str, RunKey] = {
    key.name: key
    for key in (
        RunKey("target", "column name", None, "The class column.", non_empty_string),
        RunKey("model", "model name", None, "The Naive Bayes event model in use (or its class).", model),
        RunKey(
            "alpha", "number >= 0", None, "The model's smoothing (0 = none: a zero count vetoes a class).", smoothing
        ),
        RunKey("text", "column name", None, "A column of documents, linted as its word counts.", non_empty_string),
        RunKey("test", "path", None, "The test or serving table, compared with the training one.", non_empty_string),
        RunKey("kinds", "table", {}, "Declared column kinds: column name or glob -> kind.", kinds),
        RunKey("memory-budget", "size", None, "The most a table's statistics may take (e.g. 4GB).", memory_budget),
    )
}
