"""What the Python reader keeps while it reads a source, and what its parts ask of each other.

The reader (:mod:`nblint.pipelines.pysource`) is one object mixed from parts:
calls (:mod:`~nblint.pipelines.pycalls`), loops (:mod:`~nblint.pipelines.pyloops`),
data preparation (:mod:`~nblint.pipelines.pydata`) and columns
(:mod:`~nblint.pipelines.pycolumns`).  Each part reads the state below and calls
methods another part (or the reader itself) defines; :class:`ReaderState` is the
one place both are declared, so a type checker sees every part whole and a part
that drifts from the others fails there instead of at run time.
"""

from __future__ import annotations

import ast
from abc import ABC, abstractmethod
from contextlib import AbstractContextManager
from typing import Any

from nblint.pipelines.calls import Call, Note

#: Parallel routes of data preparation, each a chain of uses in the order applied (empty: the raw input).
Chains = tuple[tuple[Call, ...], ...]
#: The data of each element of a tuple result, with the expression it comes from.
Parts = list[tuple[Chains | None, ast.expr | None]]
Function = ast.FunctionDef | ast.AsyncFunctionDef


class ReaderState(ABC):
    """The Python reader's state (one object per source read) and the methods its parts share."""

    def __init__(self, tree: ast.Module, tracks_data: bool = True):
        self.tree = tree
        self.tracks_data = tracks_data
        self.imports: dict[str, str] = {}  # local name -> dotted origin
        self.star: list[str] = []  # scikit-learn/imblearn modules imported with *
        self.foreign: list[tuple[str, int]] = []  # other modules imported with * (or %run), with their lines
        self.env: dict[str, Any] = {}  # name (or dotted attribute) -> value bound to it
        self.data: dict[str, Chains] = {}  # name -> the data preparation it holds
        self.memo: dict[tuple[int, int], Any] = {}  # (id(node), frame) -> its value, so each is read once per frame
        self.call_data: dict[tuple[int, int], Chains | None] = {}  # the same, for the data a source function returns
        self.calls: list[Call] = []
        self.notes: list[Note] = []
        self.noted: set[str] = set()
        self.functions: dict[str, Function] = {}
        self.classes: set[str] = set()
        self.class_name: str | None = None  # the class whose body is being read
        self.frame = 0  # 0: the module; n: the n-th call of a source function read
        self.frames = 0
        self.stack: list[Function] = []
        # Per function being read: each return's value, data, and data per element of a returned tuple.
        self.returns: list[list[tuple[Any, Chains | None, Parts | None]]] = []
        self.inlined = 0
        # Per source call being read: its parameters bound to literal values at the call site (a branch on
        # one of them is decided for that call).
        self.literal_args: list[dict[str, Any]] = []
        self.item_holders: set[str] = set()  # names an estimator was stored into through a subscript
        self.partials: dict[int, ast.Call] = {}  # id(a call of a name bound to functools.partial) -> the call it makes
        self.made_nodes: list[ast.AST] = []  # nodes the reader made (partial calls, df.col written as df["col"])
        self.key_readings = 0  # loop bodies read key by key so far (pybranches.MAX_KEY_READINGS)
        self.ended = False  # a return was read in the block being read: what follows it does not run
        self.targets: set[str] = set()
        self.chosen: dict[str, tuple[str, ...]] = {}  # name -> the columns it holds (y = df["label"])
        self.uses: dict[tuple[int, tuple[str, ...]], Call] = {}  # (id(call), columns) -> that use of the call
        self.series_uses: set[int] = set()
        self.base_of: dict[int, Call] = {}
        self.call_parts: dict[tuple[int, int], Parts] = {}
        self._column_references: set[str] | None = None
        self._locals: dict[int, set[str]] = {}
        # What is used: a model bound to a name the source never reads, or built in a bare expression,
        # and never fitted, has no effect in a source that fits models (see unused()).
        self.trains = False
        self.fitted: set[int] = set()
        self.bound: list[tuple[str, list[Call]]] = []
        self.bare: list[Call] = []
        self.created: dict[int, Call] = {}
        # Per source call (and loop over frames): parameter (loop variable) -> the name it stands for, the
        # changes made through it, and whether the names beyond are out of scope (a call) or not (a loop).
        self.aliases: list[tuple[dict[str, str], dict[str, Chains | None], bool]] = []
        self.frame_lists: dict[str, tuple[str, ...]] = {}  # name -> the names of the list it holds ([train, test])
        # id(function) -> parameter -> (default, its data)
        self.defaults: dict[int, dict[str, tuple[Any, Chains | None]]] = {}

    # The reader (pysource) defines these.

    @abstractmethod
    def statements(self, body: list[ast.stmt]) -> None: ...

    @abstractmethod
    def bind(self, target: ast.expr, value: Any, data: Chains | None, node: ast.expr | None = None) -> None: ...

    @abstractmethod
    def local_names(self, function: Function) -> set[str]: ...

    @abstractmethod
    def returned_value(self, function: Function, node: ast.Call, values: list[Any], literal: bool) -> Any: ...

    @abstractmethod
    def scoped(self, names: set[str]) -> AbstractContextManager[None]: ...

    # The expression part (pyexpr) defines these.

    @abstractmethod
    def expr(self, node: ast.expr) -> Any: ...

    @abstractmethod
    def resolve(self, node: ast.expr) -> str | None: ...

    @abstractmethod
    def _builtin(self, func: ast.expr) -> str | None: ...

    @staticmethod
    @abstractmethod
    def _dotted_text(node: ast.expr) -> str | None: ...

    # The call part (pycalls) defines these.

    @abstractmethod
    def _call(self, node: ast.Call) -> Any: ...

    # The loop part (pyloops) defines these.

    @abstractmethod
    def _comprehension(self, node: ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp) -> Any: ...

    @abstractmethod
    def apply_changes(self, changed: dict[str, Chains | None]) -> None: ...

    @abstractmethod
    def changed_in_place(self, name: str) -> None: ...

    # The data part (pydata) defines these.

    @abstractmethod
    def data_of(self, node: ast.expr) -> Chains | None: ...

    @abstractmethod
    def note_target(self, node: ast.expr | None) -> None: ...
