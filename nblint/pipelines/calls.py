"""What every reader of pipeline code produces: calls, their parameters and where they were written.

A :class:`Call` is a callable named by its dotted target with its parameters:
literal values, nested calls, a :class:`OneOf` where the code chooses among
values, or an :class:`Expr` where the value is not a literal; a :class:`Note`
is something the reader could not follow. Each carries its 1-based source
position (:data:`Mark`). :mod:`nblint.pipelines.spec` turns calls into
pipelines; :mod:`nblint.pipelines.params` follows parameter paths through them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from nblint.pipelines import catalog

#: A 1-based (line, column) source position; (None, None) where unknown (live objects).
Mark = tuple[int | None, int | None]
NO_MARK: Mark = (None, None)


class Expr:
    """A parameter value that is not a literal (a variable, an interpolation, an expression).

    ``source`` is its text, or a callable giving the text when it is first asked
    for (unparsing every expression of a large Python file up front is slow).
    """

    __slots__ = ("_source", "mark")

    def __init__(self, source: str | Callable[[], str], mark: Mark = (None, None)):
        self._source = source
        self.mark = mark  # where the value is written, where the reader knows

    @property
    def text(self) -> str:
        if callable(self._source):
            self._source = self._source()
        return self._source

    def __repr__(self) -> str:
        return self.text

    __str__ = __repr__


class OneOf:
    """The values a parameter (or a name) takes in turn: a parameter grid's candidates, a loop's items.

    ``GridSearchCV(nb, {"alpha": [0, 0.1, 1]})`` gives the model's ``alpha`` the
    value ``OneOf([0, 0.1, 1])``: each candidate is fitted, so a rule asks whether
    any of them is a problem.  (A plain list stays a list: ``alpha=[...]`` is a
    per-feature value.)
    """

    __slots__ = ("items",)

    def __init__(self, items):
        self.items = tuple(items)

    def __repr__(self) -> str:
        return f"one of {list(self.items)!r}"

    __str__ = __repr__


@dataclass(frozen=True)
class Note:
    """Something in a source that nblint could not follow (reported by NB510), and where."""

    line: int | None
    message: str


@dataclass(eq=False)
class Call:
    """A call of a class or function named in a config, as read (before interpretation).

    Attributes
    ----------
    target : str
        The callable as written or resolved (``sklearn.preprocessing.OneHotEncoder``,
        ``OneHotEncoder``, ``pandas.get_dummies``).
    params : dict
        Parameter name -> value: a literal, a list or dict of values, a nested
        :class:`Call`, or an :class:`Expr`.
    mark : Mark
        Position of the call (the ``_target_`` key, the call expression...).
    marks : dict
        Parameter name -> position of the parameter.
    feeders : tuple of tuple of Call
        Data preparation applied to the input before this call (Python sources:
        ``X = pd.get_dummies(df)`` followed by ``model.fit(X, y)``); parallel
        chains, each in the order applied.
    columns : tuple of str or None
        In a feeder chain, the columns this use of the call was applied to
        (``df[["a", "b"]] = enc.fit_transform(df[["a", "b"]])``), where the source says.
    """

    target: str
    params: dict[str, Any] = field(default_factory=dict)
    mark: Mark = NO_MARK
    marks: dict[str, Mark] = field(default_factory=dict)
    feeders: tuple[tuple[Call, ...], ...] = ()
    columns: tuple[str, ...] | None = None

    @property
    def cls(self) -> str:
        return catalog.short_name(self.target)

    @property
    def known(self) -> bool:
        return catalog.is_known(self.target)

    @property
    def role(self) -> str:
        return catalog.role(self.cls) if self.known else "other"

    def bind_positional(self, args: list[tuple[Any, Mark]]) -> None:
        """Set the parameters that positional arguments stand for (``make_pipeline(a, b)``, ``Pipeline(steps)``).

        Arguments of callables nblint has no names for are kept as ``arg0``, ``arg1``...
        """
        if not args:
            return
        variadic = catalog.VARIADIC.get(self.cls)
        if variadic is not None:
            self.params[variadic] = [value for value, _ in args]
            self.marks[variadic] = args[0][1]
            return
        names = catalog.positional_names(self.cls)
        for index, (value, mark) in enumerate(args):
            name = names[index] if index < len(names) else f"arg{index}"
            self.params[name] = value
            self.marks[name] = mark


@dataclass(eq=False)
class Param:
    """One parameter of a step: its value and the 1-based source line and column."""

    name: str
    value: Any
    line: int | None = None
    column: int | None = None
