import math

from nblint.engine import Severity

from . import PipelineRule

#: The prior parameter of each model.
PRIOR_PARAM = {"gaussian": "priors"}
TOLERANCE = 1e-6


class InvalidPriors(PipelineRule):
    """Class priors that do not sum to 1, contain a zero, or are given to ComplementNB, which ignores them.

    ## What it does
    Reads ``class_prior`` (``priors`` for GaussianNB) of the pipeline's Naive
    Bayes model when it is a literal list, and reports it at its line when the
    values do not sum to 1, when one is zero or negative, or when the model is
    ComplementNB.

    ## Why is this bad?
    GaussianNB refuses priors that do not sum to 1 when fitting. The discrete
    models use the logarithms of the given values as they are, without
    normalising: only their ratios matter, so a list that does not sum to 1 is
    usually a typo that silently shifts every decision towards some classes. A
    prior of 0 makes its class impossible to predict whatever the evidence.
    ComplementNB does not use ``class_prior`` at all (its decision rule has no
    prior term), so the setting only looks as if it did something.

    ## Severity
    A warning: priors that do not sum to one are refused when the model is fitted, and
    ``class_prior`` given to ComplementNB is silently ignored; either way the code
    does not do what it says.

    ## Example
    ```yaml
    _target_: sklearn.naive_bayes.MultinomialNB
    class_prior: [0.3, 0.6]
    ```

    ## Use instead
    ```yaml
    _target_: sklearn.naive_bayes.MultinomialNB
    class_prior: [0.333, 0.667]
    ```
    """

    code = "NB509"
    status = "stable"
    since = "0.1.0"
    name = "invalid-priors"
    severity = Severity.WARNING
    #: "prior 0", "not 1": what a prior cannot be and what priors sum to, explained, not measured.
    message_constants = frozenset({0.0, 1.0})
    messages = {
        "ignored": "{model_label} is given {param}, which ComplementNB ignores: its decision rule has no prior term, "
        "so the setting has no effect",
        "not_positive": "{model_label} has {param} with a value of {smallest!r}: a class with prior 0 (or less) can "
        "never be predicted, whatever the evidence",
        "sum_refused": "{model_label} has {param} summing to {sum:.6g}, not 1: GaussianNB refuses it when fitting",
        "sum_as_given": "{model_label} has {param} summing to {sum:.6g}, not 1: scikit-learn uses the values as "
        "given, so the ratios between classes are what this list says",
    }

    def check_model(self, ctx, estimator):
        from nblint.pipelines.flow import is_number

        name = PRIOR_PARAM.get(ctx.model, "class_prior")
        priors = estimator.value(name)
        if priors is None:
            return
        line = estimator.line_of(name)
        if ctx.model == "complement":
            yield self.finding(
                ctx,
                "ignored",
                line=line,
                evidence={
                    "model": estimator.cls,
                    "model_line": estimator.line,
                    "model_label": estimator.label(),
                    "param": name,
                },
                fix=f"Remove {name}, or use MultinomialNB if the priors matter.",
            )
            return
        if not isinstance(priors, list) or not priors or not all(is_number(p) for p in priors):
            return
        total = math.fsum(priors)
        evidence = {"model": estimator.cls, name: priors, "sum": total, "model_label": estimator.label(), "param": name}
        if min(priors) <= 0:
            yield self.finding(
                ctx,
                "not_positive",
                line=line,
                evidence=evidence | {"smallest": min(priors)},
                fix="Give every class a positive prior (or leave the priors to the data).",
            )
        elif abs(total - 1.0) > TOLERANCE:
            yield self.finding(
                ctx,
                "sum_refused" if ctx.model == "gaussian" else "sum_as_given",
                line=line,
                evidence=evidence,
                fix=f"Make {name} sum to 1 (divide each value by {total:.6g}).",
            )
