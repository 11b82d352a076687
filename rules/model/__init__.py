"""NB3xx: the declared Naive Bayes event model against what the columns are."""

from __future__ import annotations

from nblint.core.models import MODEL_CLASSES
from nblint.engine.messages import fmt_number

#: What every rule of this family reads (keys of nblint.engine.rule.INPUTS): the engine imports the family's
#: modules only for a run that offers one of them (nblint.engine.registry.family_reads).
INPUTS = ("table",)


def estimator(model: str | None) -> str:
    """scikit-learn's class of the declared event model, for messages.

    The NB3xx rules run only under a declared model (``Rule.models``), so ``model`` is one.
    """
    assert model is not None, "an NB3xx rule ran with no model declared"
    return MODEL_CLASSES[model]


def value_range(ctx, column) -> str:
    """``min..max`` of a numeric column, or the number of levels of a text one."""
    record = ctx.column(column)
    if record.text:
        n = record.n_distinct
        return f"{n:.0f} text values" if n is not None else "many text values"
    return f"{fmt_number(record.minimum)}..{fmt_number(record.maximum)}"


def recommendation(ctx, column) -> str:
    kind = ctx.kinds[column]
    return f"{column}: {kind.model or 'drop'} ({kind.kind})"
