import math

from nblint.engine import Option, Severity

from . import PipelineRule, literal

#: Below this, scikit-learn raises alpha when force_alpha=False.
SKLEARN_ALPHA_FLOOR = 1e-10


VETO = (
    ", so a feature value never seen with a class in training gives that class probability 0 (or nearly) and vetoes it"
)
#: How the model is given its alpha (``shown``) and what that alpha does (``effect``): a template each.
SHOWN = {
    "tried": "{model_label} is tried with alpha={alpha!r} (one of {tried_shown}, from a grid, a loop or set_params)",
    "list": "{model_label} has alpha (a list, smallest {alpha!r})",
    "written": "{model_label} has alpha={written!r}",
}
EFFECT = {
    "negative": ": a negative alpha is not smoothing at all, and scikit-learn refuses it when fitting",
    "raised": ": scikit-learn raises it to {raised_to:g} (force_alpha=False), which is still no smoothing in "
    "practice" + VETO,
    "off": ": smoothing is off" + VETO,
    "negligible": ": smoothing is negligible (below min-alpha={min_alpha:g})" + VETO,
}


class SmoothingDisabled(PipelineRule):
    """Smoothing is off or negligible: alpha=0 or tiny, or var_smoothing=0.

    ## What it does
    Reads the smoothing parameter of the pipeline's Naive Bayes model: ``alpha``
    of BernoulliNB, MultinomialNB, ComplementNB and CategoricalNB (a number or a
    per-feature list, whose smallest value counts), and ``var_smoothing`` of
    GaussianNB. Reports ``alpha`` of 0 or below ``min-alpha``, and a
    ``var_smoothing`` of 0, at the parameter's line. The values a model is tried
    with count too: a parameter grid (``GridSearchCV(nb, {"alpha": [0, 0.1, 1]})``,
    ``clf__alpha``, a list of grids, ``np.linspace(0, 1, 11)``), ``set_params``
    in a loop, and models built in a loop over values; the finding is at the
    grid's key (or the ``set_params`` argument).

    ## Why is this bad?
    With additive (Lidstone) smoothing every (feature value, class) pair gets
    ``alpha`` pseudo-counts. Without them, a value never seen with a class in
    training has probability 0 for that class: its log-probability is minus
    infinity and it vetoes the class whatever the other features say (a zero-count
    cell). A tiny alpha is nearly the same veto. In scikit-learn, ``force_alpha``
    (True by default since 1.4) keeps the value as given, so ``alpha=0`` means no
    smoothing at all and a divide-by-zero warning; with ``force_alpha=False`` an
    alpha under 1e-10 is raised to 1e-10 with a warning, which still vetoes in practice.
    For GaussianNB, ``var_smoothing`` adds a share of the largest feature variance
    to every variance; at 0, a feature that is constant within a class gets a zero
    variance and its likelihood becomes infinite or undefined.

    ## Severity
    A warning: with smoothing off, a value never seen with a class vetoes that class;
    whether such values occur depends on the data.

    ## Example
    ```yaml
    _target_: sklearn.naive_bayes.MultinomialNB
    alpha: 0
    ```

    ## Use instead
    ```yaml
    _target_: sklearn.naive_bayes.MultinomialNB
    alpha: 1.0   # or tune it, e.g. over 0.01 .. 1
    ```
    """

    code = "NB502"
    status = "stable"
    since = "0.1.0"
    name = "smoothing-disabled"
    severity = Severity.WARNING
    options = (
        Option(
            "min-alpha",
            1e-3,
            "Report a positive alpha below this: an unseen pair then weighs under a thousandth of a pair seen once.",
            minimum=0,
        ),
    )
    #: "probability 0", "a variance of 0": what no smoothing gives, explained, not measured.
    message_constants = frozenset({0.0})
    messages = {
        "not_finite": "{model_label} has alpha={alpha}: an alpha that is not a finite number swamps every count, so "
        "every feature's probabilities are uniform (or undefined) and the features are ignored",
        **{f"{shown}_{effect}": SHOWN[shown] + EFFECT[effect] for shown in SHOWN for effect in EFFECT},
        "var_smoothing": "{model_label} has var_smoothing={var_smoothing!r}: a feature that is constant within a "
        "class gets a variance of 0, and its likelihood becomes infinite or undefined",
    }

    def check_model(self, ctx, estimator):
        from nblint.pipelines.calls import OneOf
        from nblint.pipelines.flow import is_number

        if ctx.model == "gaussian":
            yield from self._var_smoothing(ctx, estimator)
            return
        alpha = estimator.value("alpha", 1.0)
        tried = list(alpha.items) if isinstance(alpha, OneOf) else None
        if tried is not None:  # a grid's or a loop's candidates: any of them fitted without smoothing
            values = [v for v in tried if is_number(v)]
        else:
            values = alpha if isinstance(alpha, list) else [alpha]
            if not all(is_number(v) for v in values):
                return
        if not values:
            return
        unbounded = [v for v in values if not math.isfinite(v)]
        if unbounded:  # inf (or nan) passes every comparison with 0 and min-alpha, and is no smoothing either
            yield self.finding(
                ctx,
                "not_finite",
                line=estimator.line_of("alpha"),
                evidence={
                    "model": estimator.cls,
                    "model_line": estimator.line,
                    "alpha": str(unbounded[0]),
                    "min_alpha": self.option_values["min-alpha"],
                    "model_label": estimator.label(),
                },
                fix="Use alpha=1.0 (Laplace) or tune alpha over a range such as 0.01 to 1.",
            )
            return
        smallest = min(values)
        threshold = self.option_values["min-alpha"]
        if smallest >= threshold:
            return
        force_alpha = estimator.value("force_alpha", True)
        shown = "tried" if tried is not None else "list" if isinstance(alpha, list) else "written"
        if smallest < 0:
            effect = "negative"
        elif force_alpha is False and smallest < SKLEARN_ALPHA_FLOOR:
            effect = "raised"
        elif smallest == 0:
            effect = "off"
        else:
            effect = "negligible"
        evidence = {
            "model": estimator.cls,
            "model_line": estimator.line,
            "alpha": smallest,
            "force_alpha": literal(force_alpha),
            "min_alpha": threshold,
            "model_label": estimator.label(),
        }
        if shown == "written":
            evidence["written"] = alpha
        if tried is not None:  # the values the message lists, or counts with its ends (as _shown does)
            ends = tried if len(tried) <= 8 else [tried[0], tried[-1]]
            evidence |= {"tried": [literal(v) for v in ends], "tried_count": len(tried), "tried_shown": _shown(tried)}
        if force_alpha is False and 0 <= smallest < SKLEARN_ALPHA_FLOOR:
            evidence["raised_to"] = SKLEARN_ALPHA_FLOOR
        yield self.finding(
            ctx,
            f"{shown}_{effect}",
            line=estimator.line_of("alpha"),
            evidence=evidence,
            fix="Use alpha=1.0 (Laplace) or tune alpha over a range such as 0.01 to 1.",
        )

    def _var_smoothing(self, ctx, estimator):
        """GaussianNB's smoothing: ``var_smoothing`` at or below 0 (the smallest of a grid's)."""
        from nblint.pipelines.calls import OneOf
        from nblint.pipelines.flow import is_number

        smoothing = estimator.value("var_smoothing")
        if isinstance(smoothing, OneOf):
            smoothing = min((v for v in smoothing.items if is_number(v)), default=None)
        if is_number(smoothing) and smoothing <= 0:
            yield self.finding(
                ctx,
                "var_smoothing",
                line=estimator.line_of("var_smoothing"),
                evidence={
                    "model": estimator.cls,
                    "model_line": estimator.line,
                    "var_smoothing": smoothing,
                    "model_label": estimator.label(),
                },
                fix="Keep the default var_smoothing=1e-9 (or a larger value).",
            )


def _shown(values: list) -> str:
    """A grid's values for a message: all of a short list, the ends of a long one."""
    if len(values) <= 8:
        return repr(values)
    return f"{len(values)} values from {values[0]!r} to {values[-1]!r}"
