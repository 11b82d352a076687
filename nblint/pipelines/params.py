"""Parameter paths (``clf__alpha``): which estimator of a pipeline a name sets, for grids and ``set_params``.

scikit-learn names a nested parameter by the path of step names to its
estimator, joined by ``__``: ``clf__alpha`` is ``alpha`` of the step named
``clf``; ``multinomialnb__alpha`` the same for ``make_pipeline``'s generated
name (the class name in lower case); ``estimator__alpha`` reaches through a
meta-estimator; ``prep__cat__drop`` through a ColumnTransformer's branch.

A parameter grid (``GridSearchCV(estimator, param_grid)``, also a list of
grids, ``RandomizedSearchCV``'s lists) gives each named parameter the values it
tries: :func:`grid_overrides` returns them as :class:`~nblint.pipelines.calls.OneOf`
values, keyed by the estimator they set, for the spec builder to apply without
changing the calls themselves (the same estimator may be used elsewhere).
"""

from __future__ import annotations

from typing import Any

from nblint.pipelines import catalog
from nblint.pipelines.calls import Call, Mark, OneOf, Param

#: The parameter of each search class holding its grid.
GRID_PARAMS = ("param_grid", "param_distributions")


def resolve_param(root: Call, key: str) -> tuple[Call, str] | None:
    """The estimator and parameter name ``key`` sets on ``root`` (None when the path cannot be followed)."""
    *path, name = key.split("__")
    call = root
    for part in path:
        found = child(call, part)
        if found is None:
            return None
        call = found
    return call, name


def child(call: Call, name: str) -> Call | None:
    """The sub-estimator of ``call`` called ``name`` (a step, a branch, a wrapped estimator)."""
    role = call.role
    if role == "meta":
        value = call.params.get(name) if name in catalog.WRAPPED_PARAMS else None
        return value if isinstance(value, Call) else None
    if role == "pipeline":
        items = call.params.get("steps")
    elif role in ("columns", "union"):
        items = call.params.get("transformer_list" if call.cls in catalog.UNIONS else "transformers")
    else:
        return None
    for item in items if isinstance(items, list) else []:
        item_name, value = _name_and_estimator(item)
        if item_name == name and isinstance(value, Call):
            return value
    return None


def _name_and_estimator(item: Any) -> tuple[str | None, Any]:
    """A step or branch as (name, estimator); unnamed ones take make_pipeline's name, the class in lower case."""
    if isinstance(item, (list, tuple)) and item:
        if isinstance(item[0], str) and len(item) >= 2:
            return item[0], item[1]
        item = item[0]  # make_column_transformer's (transformer, columns)
    if isinstance(item, Call):
        return item.cls.lower(), item
    return None, item


def grid_overrides(search: Call, estimator: Call) -> dict[int, dict[str, Param]]:
    """The values a search's grid gives each parameter, by ``id`` of the estimator it sets.

    Parameters
    ----------
    search : Call
        A meta-estimator (``GridSearchCV``...); only its grid parameter is read.
    estimator : Call
        The estimator it wraps, the root of the parameter paths.

    Returns
    -------
    dict
        ``id(call) -> {parameter: Param(name, OneOf(values), line, column)}``,
        the line being that of the grid's key where the source says.
    """
    grids = next((search.params[name] for name in GRID_PARAMS if name in search.params), None)
    if grids is None:
        return {}
    fallback = next((search.marks[name] for name in GRID_PARAMS if name in search.marks), search.mark)
    candidates: dict[tuple[int, str], tuple[Call, list, Mark]] = {}
    for grid in grids if isinstance(grids, list) else [grids]:
        if not isinstance(grid, dict):
            continue
        marks = getattr(grid, "marks", {})
        for key, values in grid.items():
            found = resolve_param(estimator, key) if isinstance(key, str) else None
            if found is None:
                continue
            call, name = found
            tried = (
                list(values.items)
                if isinstance(values, OneOf)
                else list(values)
                if isinstance(values, (list, tuple))
                else None
            )
            if tried is None:
                continue  # a distribution, or a value computed at run time
            entry = candidates.setdefault((id(call), name), (call, [], marks.get(key, fallback)))
            entry[1].extend(tried)
    overrides: dict[int, dict[str, Param]] = {}
    for (key, name), (_call, tried, mark) in candidates.items():
        overrides.setdefault(key, {})[name] = Param(name, OneOf(tried), *mark)
    return overrides
