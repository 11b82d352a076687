"""NB3xx: the declared Naive Bayes event model against what the columns are."""

from __future__ import annotations

from nblint.core.models import MODEL_CLASSES


def estimator(model: str | None) -> str:
    """scikit-learn's class of the declared event model, for messages.

    The NB3xx rules run only under a declared model (``Rule.models``), so ``model`` is one.
    """
    assert model is not None, "an NB3xx rule ran with no model declared"
    return MODEL_CLASSES[model]


#: The fix for a group read as separate bits: the model and the command that read it as one variable.
GROUP_FIX = (
    "Read the group as one categorical feature: fit nblint.MixedNB (an event model per column, groups "
    "collapsed), or run `nblint fix` to write the table with the group collapsed for CategoricalNB "
    "(CollapseGroups does the same inside a pipeline)."
)


def fmt_columns(columns, limit: int = 6) -> str:
    columns = list(columns)
    shown = ", ".join(columns[:limit])
    return shown + (f", ... ({len(columns)} columns)" if len(columns) > limit else "")


def fmt_number(x: float) -> str:
    return f"{int(x)}" if float(x).is_integer() else f"{x:.4g}"


def value_range(ctx, column) -> str:
    """``min..max`` of a numeric column, or the number of levels of a text one."""
    profile = ctx.profile
    if column in profile.text:
        n = profile.n_distinct(column)
        return f"{n:.0f} text values" if n is not None else "many text values"
    j = profile.numeric.names.index(column)
    return f"{fmt_number(profile.numeric.minimum[j])}..{fmt_number(profile.numeric.maximum[j])}"


def recommendation(ctx, column) -> str:
    kind = ctx.kinds[column]
    return f"{column}: {kind.model or 'drop'} ({kind.kind})"
