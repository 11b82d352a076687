"""Read a live scikit-learn object (a Pipeline, an estimator) into :class:`~nblint.pipelines.calls.Call` records.

Objects are inspected by class and ``get_params(deep=False)`` only; scikit-learn
is never imported by nblint.  A user subclass is read as the first scikit-learn
or imbalanced-learn class in its method resolution order, so
``class MyNB(BernoulliNB)`` is still a BernoulliNB.  ``get_params`` reports every
parameter; those still at the default of the class's ``__init__`` are left out,
as a config would not write them (a rule can then tell "left at the default"
from "chosen").
"""

from __future__ import annotations

import inspect
from typing import Any

from nblint.pipelines import catalog
from nblint.pipelines.calls import Call, Expr


def calls_from_object(obj: Any) -> list[Call]:
    """Every estimator in ``obj`` (``obj`` first), as calls with their parameters.

    Raises
    ------
    TypeError
        When ``obj`` has no ``get_params`` (it is not a scikit-learn estimator).
    """
    if not _is_estimator(obj):
        raise TypeError(f"expected a scikit-learn estimator or Pipeline, got {type(obj).__name__}")
    reader = _LiveReader()
    reader.value(obj)
    return reader.calls


def _is_estimator(obj: Any) -> bool:
    return not isinstance(obj, type) and callable(getattr(obj, "get_params", None))


class _LiveReader:
    def __init__(self):
        self.calls: list[Call] = []
        self.memo: dict[int, Call] = {}

    def value(self, obj: Any) -> Any:
        if _is_estimator(obj):
            if id(obj) not in self.memo:
                call = Call(_target(type(obj)))
                self.memo[id(obj)] = call
                self.calls.append(call)
                defaults = _defaults(type(obj))
                for name, value in obj.get_params(deep=False).items():
                    if not _is_default(value, defaults.get(name, inspect.Parameter.empty)):
                        call.params[name] = self.value(value)
            return self.memo[id(obj)]
        if obj is None or isinstance(obj, (str, bool, int, float)):
            return obj
        if isinstance(obj, (list, tuple)):
            return [self.value(v) for v in obj]
        if isinstance(obj, dict):
            return {k: self.value(v) for k, v in obj.items()}
        if hasattr(obj, "tolist") and not isinstance(obj, type):  # numpy arrays and scalars
            return self.value(obj.tolist())
        if callable(obj):  # a function or a class (dtype=np.float64, func=pd.get_dummies)
            return Expr(f"{getattr(obj, '__module__', '')}.{getattr(obj, '__qualname__', type(obj).__name__)}")
        return Expr(f"<{type(obj).__name__}>")


def _target(cls: type) -> str:
    for klass in cls.__mro__:
        name = f"{klass.__module__}.{klass.__qualname__}"
        if catalog.is_known(name):
            return name
    return f"{cls.__module__}.{cls.__qualname__}"


def _defaults(cls: type[Any]) -> dict[str, Any]:
    try:
        parameters = inspect.signature(cls.__init__).parameters.values()
    except (TypeError, ValueError):
        return {}
    return {p.name: p.default for p in parameters}


def _is_default(value: Any, default: Any) -> bool:
    """Whether ``value`` is the default (compared only for plain values: no array comparisons)."""
    plain = (str, bool, int, float, type(None))
    return isinstance(value, plain) and isinstance(default, plain) and type(value) is type(default) and value == default
