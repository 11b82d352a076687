from nblint.engine import Severity

from . import PipelineRule

#: The parameter that makes each step produce negative values (the finding points at it when written).
SIGN_PARAMS = {
    "StandardScaler": "with_mean",
    "RobustScaler": "with_centering",
    "HashingVectorizer": "alternate_sign",
    "FeatureHasher": "alternate_sign",
    "MinMaxScaler": "feature_range",
    "QuantileTransformer": "output_distribution",
}
NEEDS = {
    "multinomial": "non-negative counts",
    "complement": "non-negative counts",
    "categorical": "non-negative integer category codes",
}


class NegativeValuesIntoCountModel(PipelineRule):
    """A step that can produce negative values feeds MultinomialNB, ComplementNB or CategoricalNB.

    ## What it does
    Follows every route into the pipeline's Naive Bayes estimator and reports the
    last step that makes the values signed: centring scalers (``StandardScaler``,
    ``RobustScaler``), projections (``PCA``, ``TruncatedSVD``, ``FastICA``,
    random projections...), ``PowerTransformer``, ``QuantileTransformer`` with a
    normal output, ``MinMaxScaler`` with a negative lower bound, and the hashing
    vectorizers, which flip the sign of half the features unless
    ``alternate_sign=False``; the function forms (``scale(X)``,
    ``power_transform(X)``...) as their classes. A later step that makes values non-negative again
    (``MinMaxScaler`` or ``minmax_scale``, ``KBinsDiscretizer``, an encoder...) clears the route.

    ## Why is this bad?
    MultinomialNB and ComplementNB model counts and CategoricalNB models category
    indices; none has a meaning for a negative value, and scikit-learn refuses
    negative input when fitting ("Negative values in data passed to ..."). The
    pipeline fails on its first fit, or, if the negatives are clipped away
    elsewhere, silently models something else than the data.

    ## Severity
    An error: scikit-learn refuses negative input to these models, so ``fit`` or
    ``predict`` fails on it.

    ## Example
    ```python
    from sklearn.naive_bayes import MultinomialNB
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    model = make_pipeline(StandardScaler(), MultinomialNB())
    ```

    ## Use instead
    ```python
    from sklearn.naive_bayes import GaussianNB, MultinomialNB
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import MinMaxScaler, StandardScaler

    model = make_pipeline(StandardScaler(), GaussianNB())  # real-valued features
    model = make_pipeline(MinMaxScaler(), MultinomialNB())  # or keep them non-negative
    ```
    """

    code = "NB504"
    status = "stable"
    since = "0.1.0"
    name = "negative-into-count-model"
    severity = Severity.ERROR
    models = frozenset(NEEDS)
    messages = {
        model: "{step_label} can turn {inputs} into negative values, which reach {model_label}: it needs "
        + needs
        + ", and scikit-learn refuses negative input when fitting"
        for model, needs in NEEDS.items()
    }

    def check_model(self, ctx, estimator):
        from nblint.pipelines.catalog import applied_class
        from nblint.pipelines.flow import SIGNED

        for step in self.origins(ctx, SIGNED):
            param = SIGN_PARAMS.get(applied_class(step.cls))  # scale(X, with_mean=...) as StandardScaler
            keep = (
                f"alternate_sign=False on {step.cls}" if param == "alternate_sign" else "MinMaxScaler, KBinsDiscretizer"
            )
            yield self.step_finding(
                ctx,
                step,
                ctx.model,
                line=step.line_of(param) if param else step.line,
                fix=f"Use GaussianNB for real-valued features, or keep the values non-negative ({keep}).",
            )
