"""The one shape every pipeline config is normalised to: :class:`PipelineSpec`.

Each reader (YAML/JSON/TOML in the Hydra style or as an nblint spec, Python
source, a live scikit-learn object) produces :class:`Call` records: a callable
named by its dotted target, its parameters (literal values, nested calls, or an
:class:`Expr` where the value is not a literal) and the source positions of the
call and of each parameter.  :func:`build_specs` then turns the calls into
pipelines: steps in order (``Pipeline``/``make_pipeline`` flattened, a
``ColumnTransformer`` or ``FeatureUnion`` as one step with parallel branches,
a meta-estimator such as ``GridSearchCV`` unwrapped to the estimator it tunes),
the columns each step sees where the config says, and the final estimator.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from typing import Any

from nblint.pipelines import catalog
from nblint.pipelines.calls import NO_MARK, Call, Expr, Note, Param


@dataclass(eq=False)
class Step:
    """One step of a pipeline.

    Attributes
    ----------
    cls : str
        Short class or function name (``OneHotEncoder``); ``<unknown>`` for a step
        the config does not name (an interpolation, a variable).
    target : str
        The callable as written.
    params : dict of str to Param
    line, column : int or None
        1-based position of the class in the source.
    name : str or None
        The step's name in its Pipeline or ColumnTransformer.
    columns : tuple of str or None
        The columns this step sees, where the config says (ColumnTransformer
        column lists, nblint spec encoders, ``get_dummies(columns=...)``).
    branches : tuple of tuple of Step
        For a ColumnTransformer or FeatureUnion: its parallel sub-pipelines; an
        empty branch passes its columns through unchanged.
    known : bool
        Whether the class comes from scikit-learn, imbalanced-learn or pandas.
    place : str or None
        Where the step is, for messages, when a line number alone does not say
        (``cell 7, line 3`` in a notebook).
    """

    cls: str
    target: str
    params: dict[str, Param] = field(default_factory=dict)
    line: int | None = None
    column: int | None = None
    name: str | None = None
    columns: tuple[str, ...] | None = None
    branches: tuple[tuple[Step, ...], ...] = ()
    known: bool = True
    place: str | None = None

    def value(self, name: str, default: Any = None) -> Any:
        """The parameter's value, or ``default`` when the config does not set it."""
        param = self.params.get(name)
        return default if param is None else param.value

    def line_of(self, name: str) -> int | None:
        """The line of parameter ``name``, or of the class when the parameter is not written."""
        param = self.params.get(name)
        return param.line if param is not None and param.line is not None else self.line

    @property
    def parallel(self) -> bool:
        return self.cls in catalog.COLUMN_TRANSFORMERS or self.cls in catalog.UNIONS or bool(self.branches)

    def label(self) -> str:
        """``OneHotEncoder (line 7)``, or with the step name where there is no line."""
        if self.place is not None:
            return f"{self.cls} ({self.place})"
        if self.line is not None:
            return f"{self.cls} (line {self.line})"
        return f"{self.cls} (step {self.name!r})" if self.name else self.cls


@dataclass(eq=False)
class PipelineSpec:
    """A pipeline read from a config: steps in order and the final estimator.

    Attributes
    ----------
    path : str
        The config file (``<pipeline>`` for a live object).
    form : str
        ``hydra``, ``spec`` (the nblint spec), ``python`` or ``live``.
    steps : tuple of Step
        In order, the final estimator last.
    estimator : Step or None
        The final estimator (None when the pipeline ends in a transformer).
    data, target : str or None
        The data file and class column an nblint spec names (``data`` as written).
    data_line : int or None
        The line of ``data:``.
    test, test_line : str or None, int or None
        The test table an nblint spec names beside its data (``test:``, as written), and its line:
        the data is compared with it (:mod:`nblint.run.pairing`).
    notes : tuple of Note
        What the reader could not follow in the source (a Python 2 file, a star
        import from a project module...); a spec may consist of notes alone.
    """

    path: str
    form: str
    steps: tuple[Step, ...]
    estimator: Step | None
    data: str | None = None
    target: str | None = None
    data_line: int | None = None
    notes: tuple[Note, ...] = ()
    test: str | None = None
    test_line: int | None = None

    @property
    def model(self) -> str | None:
        """The nblint model name of the final estimator (``bernoulli``...), None if it is not Naive Bayes."""
        return catalog.NB_MODELS.get(self.estimator.cls) if self.estimator is not None else None

    @property
    def alpha(self) -> float | None:
        """The final estimator's smoothing: its literal ``alpha``, or scikit-learn's default 1.0.

        None when the model has no ``alpha`` (GaussianNB) or sets it to something
        that is not a number written in the config.
        """
        if self.estimator is None or self.model is None or self.model == "gaussian":
            return None
        value = self.estimator.value("alpha", 1.0)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
            return None  # (not a smoothing the table's checks can use; the pipeline rules report it)
        return float(value)

    @property
    def preprocessing(self) -> tuple[Step, ...]:
        """The steps before the final estimator."""
        return self.steps[:-1] if self.estimator is not None else self.steps

    def walk(self) -> Iterator[Step]:
        """Every step, depth first, branches in order."""
        yield from _walk(self.steps)


def _walk(steps) -> Iterator[Step]:
    for step in steps:
        yield step
        for branch in step.branches:
            yield from _walk(branch)


# --------------------------------------------------------------------------- building


def build_specs(
    calls: list[Call],
    path: str,
    form: str,
    *,
    data: str | None = None,
    target: str | None = None,
    data_line: int | None = None,
    test: str | None = None,
    test_line: int | None = None,
    skip: AbstractSet[int] = frozenset(),
) -> list[PipelineSpec]:
    """The pipelines among ``calls`` (every call a reader found, in source order).

    Parameters
    ----------
    calls : list of Call
        Every call the reader found, in source order.
    path, form : str
        The file and the form it was written in (see :class:`PipelineSpec`).
    data, target, data_line, test, test_line : optional
        What an nblint spec says about its training table (and its test table).
    skip : set of int
        ``id`` of calls that have no effect (a model a script builds and never uses):
        not roots of a spec.

    Returns
    -------
    list of PipelineSpec

    Notes
    -----
    A call nested in another call's parameters belongs to that call; each call
    that is not nested is a root: a Pipeline (or make_pipeline) gives one spec,
    a Naive Bayes estimator on its own gives a one-step spec, a meta-estimator
    gives the spec of what it wraps, and any other call is searched for
    pipelines and Naive Bayes estimators among its parameters.
    """
    nested = {id(inner) for call in calls for inner in _calls_in(call.params.values())}
    specs: list[PipelineSpec] = []
    for call in calls:
        if id(call) not in nested and id(call) not in skip:
            for steps in _root_pipelines(call):
                estimator = steps[-1] if steps and _is_estimator(steps[-1]) else None
                specs.append(
                    PipelineSpec(
                        path, form, tuple(steps), estimator, data, target, data_line, test=test, test_line=test_line
                    )
                )
    return specs


def _calls_in(values) -> Iterator[Call]:
    """The calls directly inside ``values`` (through lists and dicts, not through other calls)."""
    for value in values:
        if isinstance(value, Call):
            yield value
        elif isinstance(value, dict):
            yield from _calls_in(value.values())
        elif isinstance(value, (list, tuple)):
            yield from _calls_in(value)


#: Parameters set from outside a call (a search's grid), by ``id`` of the call: name -> Param.
Overrides = dict[int, dict[str, "Param"]]


def _root_pipelines(call: Call, overrides: Overrides | None = None) -> Iterator[list[Step]]:
    role = call.role
    if role in ("pipeline", "nb"):
        yield _feeder_steps(call) + _as_steps(call, None, None, overrides)
    elif role == "meta":
        inner = _wrapped(call)
        if inner is not None:
            inner = Call(inner.target, inner.params, inner.mark, inner.marks, call.feeders + inner.feeders)
            yield from _root_pipelines(inner, _searched(call, inner, overrides))
    elif role == "other":
        for inner in _calls_in(call.params.values()):
            if call.feeders:  # an ensemble (VotingClassifier...) fitted on data fits the estimators it holds on it
                inner = Call(
                    inner.target, inner.params, inner.mark, inner.marks, call.feeders + inner.feeders, inner.columns
                )
            yield from _root_pipelines(inner)


def _searched(search: Call, inner: Call, overrides: Overrides | None) -> Overrides | None:
    """``overrides`` with the values ``search``'s parameter grid gives the estimators inside ``inner``."""
    from nblint.pipelines.params import grid_overrides

    grid = grid_overrides(search, inner)
    if not grid:
        return overrides
    merged = {key: dict(params) for key, params in (overrides or {}).items()}
    for key, params in grid.items():
        merged.setdefault(key, {}).update(params)
    return merged


def _is_estimator(step: Step) -> bool:
    return not step.parallel and not (step.known and step.cls in catalog.TRANSFORMERS) and step.cls != "<unknown>"


def _wrapped(call: Call) -> Call | None:
    for name in catalog.WRAPPED_PARAMS:
        value = call.params.get(name)
        if isinstance(value, Call):
            return value
    return None


def _feeder_steps(call: Call) -> list[Step]:
    """The data preparation a Python source applies before fitting ``call``, as steps."""
    chains = [[step for c in chain for step in _as_steps(c, None, None)] for chain in call.feeders]
    if not chains:
        return []
    if len(chains) == 1:
        return chains[0]
    return [Step("<data>", "<data>", branches=tuple(tuple(chain) for chain in chains))]


def _as_steps(
    value: Any, name: str | None, columns: tuple[str, ...] | None, overrides: Overrides | None = None
) -> list[Step]:
    """The steps one pipeline item stands for (a nested pipeline is flattened)."""
    if isinstance(value, Call):
        role = value.role
        if role == "pipeline":
            items = value.params.get("steps")
            steps = []
            for item in items if isinstance(items, list) else []:
                item_name, item_value = _named(item)
                steps += _as_steps(item_value, item_name, columns, overrides)
            return steps
        wrapped = _wrapped(value) if role == "meta" else None
        if wrapped is not None:
            return _as_steps(wrapped, name, columns, _searched(value, wrapped, overrides))
        step = _step(value, name, columns, overrides)
        if role in ("columns", "union"):
            step.branches = tuple(_branches(value, columns, overrides))
        return [step]
    if value is None or value in ("passthrough", "drop"):
        return []
    # An interpolation, a variable or an unrecognised value: a step nblint cannot see into.
    line, column = value.mark if isinstance(value, Expr) else NO_MARK
    return [Step("<unknown>", str(value), line=line, column=column, name=name, columns=columns, known=False)]


def _step(call: Call, name: str | None, columns: tuple[str, ...] | None, overrides: Overrides | None = None) -> Step:
    params = {key: Param(key, value, *call.marks.get(key, NO_MARK)) for key, value in call.params.items()}
    params.update((overrides or {}).get(id(call), {}))
    if columns is None:  # where the source says which columns this use of the call sees
        columns = call.columns
    if call.cls == "get_dummies" and columns is None:  # get_dummies(df, columns=[...]) names what it encodes
        columns = _columns(call.params.get("columns"))
    if columns is None and call.target.startswith(catalog.THIRD_PARTY):  # category_encoders: cols=[...]
        columns = _columns(call.params.get("cols"))
    return Step(call.cls, call.target, params, call.mark[0], call.mark[1], name, columns, known=call.known)


def _named(item: Any) -> tuple[str | None, Any]:
    """A Pipeline item: ``(name, estimator)`` or a bare estimator (make_pipeline)."""
    if isinstance(item, (list, tuple)) and len(item) == 2 and isinstance(item[0], str):
        return item[0], item[1]
    return None, item


def _branches(
    call: Call, columns: tuple[str, ...] | None, overrides: Overrides | None = None
) -> Iterator[tuple[Step, ...]]:
    """The parallel branches of a ColumnTransformer or FeatureUnion (dropped ones left out)."""
    cls = call.cls
    items = call.params.get("transformer_list" if cls in catalog.UNIONS else "transformers")
    for item in items if isinstance(items, list) else []:
        name, transformer, branch_columns = None, item, columns
        if isinstance(item, dict):  # {name: ..., transformer: ..., columns: ...}
            name, transformer = item.get("name"), item.get("transformer")
            branch_columns = _columns(item.get("columns"))
        elif isinstance(item, (list, tuple)):
            if cls == "ColumnTransformer" and len(item) == 3:
                name, transformer, branch_columns = item[0], item[1], _columns(item[2])
            elif cls == "make_column_transformer" and len(item) == 2:
                transformer, branch_columns = item[0], _columns(item[1])
            else:
                name, transformer = _named(item)
        if transformer == "drop":
            continue
        yield tuple(_as_steps(transformer, name if isinstance(name, str) else None, branch_columns, overrides))
    remainder = call.params.get("remainder", "drop")
    if cls in catalog.COLUMN_TRANSFORMERS and remainder != "drop":
        yield tuple(_as_steps(remainder, "remainder", None, overrides))


def _columns(value: Any) -> tuple[str, ...] | None:
    """A column selection as names, where it is literal (a name, or a list of names or positions)."""
    if isinstance(value, str):
        return (value,)
    if isinstance(value, (list, tuple)) and all(isinstance(v, (str, int)) and not isinstance(v, bool) for v in value):
        return tuple(str(v) for v in value)
    return None
