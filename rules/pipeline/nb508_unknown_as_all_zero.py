from nblint.engine import Severity

from . import PipelineRule

FIX = (
    "Encode with OrdinalEncoder(handle_unknown='use_encoded_value') for CategoricalNB with min_categories, "
    "or give unseen values a trained bucket (handle_unknown='infrequent_if_exist' with min_frequency)."
)


class UnknownAsAllZeroBits(PipelineRule):
    """OneHotEncoder(handle_unknown='ignore') feeds BernoulliNB: an unseen category becomes 'every level absent'.

    ## What it does
    Reports a ``OneHotEncoder`` whose bits reach BernoulliNB and which encodes a
    category unseen in training as all zeros: ``handle_unknown='ignore'``, or
    ``'infrequent_if_exist'``/``'warn'`` without ``min_frequency`` or
    ``max_categories`` (no infrequent bucket to fall into, so also all zeros).
    The finding is at the ``handle_unknown`` line.

    ## Why is this bad?
    BernoulliNB scores absent bits as well as present ones: for an all-zero group
    each class collects the factor "level k is absent" for every level k. That
    combination never occurred in training (one bit was always set), yet it is
    scored as strong evidence, and it favours the classes whose training rows were
    spread over many levels. The prediction for a new category is therefore
    decided by an artefact of the encoding rather than by "no information".

    ## Severity
    A warning: only rows with a category unseen in training are misread.

    ## Example
    ```python
    from sklearn.naive_bayes import BernoulliNB
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import OneHotEncoder

    model = make_pipeline(OneHotEncoder(handle_unknown="ignore"), BernoulliNB())
    ```

    ## Use instead
    ```python
    from sklearn.naive_bayes import BernoulliNB, CategoricalNB
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import OneHotEncoder, OrdinalEncoder

    # Unseen values go to the infrequent bucket, which training filled:
    model = make_pipeline(OneHotEncoder(handle_unknown="infrequent_if_exist", min_frequency=10), BernoulliNB())
    # better still, one categorical feature with a reserved unknown code:
    model = make_pipeline(
        OrdinalEncoder(handle_unknown="use_encoded_value", unknown_value=50),
        CategoricalNB(min_categories=51),
    )
    ```
    """

    code = "NB508"
    status = "stable"
    since = "0.1.0"
    name = "unknown-as-all-zero-bits"
    severity = Severity.WARNING
    messages = {
        "unknown": "{step_label} has handle_unknown={handle_unknown!r}: a category unseen in training becomes "
        "all-zero bits, which {model_label} scores as 'every level absent', a state it never saw",
        "unknown_of_columns": "{step_label} has handle_unknown={handle_unknown!r}: a category of {inputs} unseen in "
        "training becomes all-zero bits, which {model_label} scores as 'every level absent', a state it never saw",
    }
    models = frozenset({"bernoulli"})

    def check_model(self, ctx, estimator):
        from nblint.pipelines.flow import DUMMY, ONEHOT

        for step in self.origins(ctx, ONEHOT, DUMMY):
            if step.cls != "OneHotEncoder" or not _all_zero_for_unknown(step):
                continue
            handle_unknown = step.value("handle_unknown")
            variant = "unknown_of_columns" if step.columns else "unknown"
            yield self.step_finding(
                ctx, step, variant, line=step.line_of("handle_unknown"), handle_unknown=handle_unknown, fix=FIX
            )


def _all_zero_for_unknown(step) -> bool:
    handle_unknown = step.value("handle_unknown", "error")
    if handle_unknown == "ignore":
        return True
    infrequent_bucket = step.value("min_frequency") is not None or step.value("max_categories") is not None
    return handle_unknown in ("infrequent_if_exist", "warn") and not infrequent_bucket
