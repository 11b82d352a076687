"""What the final estimator of a live, fitted pipeline receives: ``X`` through every step but the last.

Only ``transform`` is called, never ``fit``: a pipeline that is not fitted yet
cannot say what its steps would make of ``X`` (its encoders have not seen the
categories), and :func:`model_input` says so instead of guessing. Column names
come from the steps' ``get_feature_names_out`` where they have it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass
class ModelInput:
    """``X`` as the final estimator sees it.

    Attributes
    ----------
    X : array, sparse matrix or frame
        The transformed table (``X`` itself when no step changes it).
    names : list of str or None
        Its column names, where the steps can tell them.
    steps : list of str
        Class names of the steps ``X`` went through (empty: it reaches the model as given).
    fitted : bool
        False when steps would change ``X`` but are not fitted: then ``X`` is the input as given.
    """

    X: Any
    names: list[str] | None
    steps: list[str]
    fitted: bool = True


def model_input(obj: Any, X: Any) -> ModelInput:
    """Transform ``X`` through the steps of ``obj`` before its final estimator (see the module docstring)."""
    obj = getattr(obj, "best_estimator_", obj)  # a fitted search: the pipeline it chose
    steps = getattr(obj, "steps", None)
    if not isinstance(steps, list) or len(steps) < 2:
        return ModelInput(X, None, [])  # an estimator on its own receives X as it is
    transformers = [step for _, step in steps[:-1] if step is not None and not isinstance(step, str)]
    names = [type(step).__name__ for step in transformers]
    if not transformers:
        return ModelInput(X, None, [])
    if not all(_is_fitted(step) for step in transformers):
        return ModelInput(X, None, names, fitted=False)
    out = X
    for step in transformers:
        out = step.transform(out)
    return ModelInput(out, _names_out(obj, out), names)


def _is_fitted(step: Any) -> bool:
    """scikit-learn's own test where it is importable (it is, for its objects), else its convention."""
    try:
        from sklearn.exceptions import NotFittedError
        from sklearn.utils.validation import check_is_fitted
    except ImportError:  # pragma: no cover - a duck-typed pipeline without scikit-learn
        return any(name.endswith("_") and not name.startswith("__") for name in vars(step))
    try:
        check_is_fitted(step)
    except NotFittedError:
        return False
    except TypeError:  # not an estimator scikit-learn knows: assume it is ready
        return True
    return True


def _names_out(pipeline: Any, out: Any) -> list[str] | None:
    """The names of the columns ``out`` has, from ``get_feature_names_out`` (None where it fails)."""
    try:
        names = [str(name) for name in pipeline[:-1].get_feature_names_out()]
    except Exception:  # noqa: BLE001 - any step without names out: fall back to x0, x1, ...
        return None
    shape = getattr(out, "shape", None)
    return names if shape is not None and len(shape) == 2 and shape[1] == len(names) else None
