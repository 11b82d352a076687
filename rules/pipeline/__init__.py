"""NB5xx: pipeline configs -- how the steps of a pipeline feed its Naive Bayes model.

These rules set ``applies_to = "pipeline"``: they get a
:class:`nblint.pipelines.PipelineContext` (the pipeline's steps, its final Naive
Bayes estimator, and the kinds of values reaching it) and report at the line of
the offending class or parameter.
"""

from nblint.pipelines.spec import Step

JSON_SCALARS = (str, int, float, bool, type(None))

ORDINAL_FIX = (
    "Encode the column with OrdinalEncoder and use CategoricalNB: one categorical distribution per "
    "variable (plan for unseen categories, see NB506)."
)


def inputs(step: Step) -> str:
    """``column 'a'``, ``columns 'a', 'b'`` where the config says which columns the step sees, else ``its input``."""
    if not step.columns:
        return "its input"
    noun = "column" if len(step.columns) == 1 else "columns"
    return f"{noun} {', '.join(map(repr, step.columns))}"


def of_columns(step: Step) -> str:
    """`` of column 'a'`` where the config says which columns the step sees, else nothing."""
    return f" of {inputs(step)}" if step.columns else ""


def step_evidence(step: Step, estimator: Step, **extra) -> dict:
    """The evidence of a finding about ``step`` feeding ``estimator``: the classes and their lines."""
    return {"step": step.cls, "step_line": step.line, "model": estimator.cls, "model_line": estimator.line, **extra}


def param_text(step: Step, name: str) -> str:
    """``drop='first'`` as the config wrote it, for messages."""
    return f"{name}={step.value(name)!r}"


def literal(value):
    """A parameter value for evidence: JSON values as they are, anything else (an expression) as its text."""
    if isinstance(value, list):
        return [literal(v) for v in value]
    if isinstance(value, dict):
        return {str(k): literal(v) for k, v in value.items()}
    return value if isinstance(value, JSON_SCALARS) else str(value)
