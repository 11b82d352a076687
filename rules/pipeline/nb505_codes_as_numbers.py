from nblint.engine import Severity

from . import ORDINAL_FIX, PipelineRule

#: How each model misreads arbitrary category codes 0, 1, 2, ...
READS_CODES_AS = {
    "gaussian": "one bell curve per class over the codes: the alphabetical order and equal spacing of the codes "
    "become a distance between categories that means nothing",
    "multinomial": "counts: the category with code 2 weighs twice the one with code 1 and the one with code 0 "
    "contributes nothing",
    "complement": "counts: the category with code 2 weighs twice the one with code 1 and the one with code 0 "
    "contributes nothing",
    "bernoulli": "bits after its default binarize=0.0: the category with code 0 becomes 0 and every other "
    "category becomes the same 1",
}


class CodesReadAsNumbers(PipelineRule):
    """OrdinalEncoder or LabelEncoder codes feed a model that reads them as numbers (GaussianNB, MultinomialNB...).

    ## What it does
    Reports an ``OrdinalEncoder`` or ``LabelEncoder`` whose integer codes reach
    GaussianNB, MultinomialNB, ComplementNB or BernoulliNB (also through
    per-column scalers, which keep the codes' arbitrary order and spacing), at
    the encoder's line. CategoricalNB is the model these codes are for. Codes of
    two categories are one bit and not reported (where the code does not say how
    many categories a column has, a column named ``sex`` or ``gender`` counts as
    two, as for NB501); neither is an encoder of the target column (``y``) alone.

    ## Why is this bad?
    The codes are labels: 0, 1, 2 follow the sorted order of the categories, not
    any quantity. GaussianNB fits a normal curve over them, as if "blue" (0) were
    closer to "green" (1) than to "red" (2); MultinomialNB and ComplementNB read
    them as counts, so one category weighs twice another and code 0 weighs
    nothing; BernoulliNB binarizes them at 0, merging every category but the first.
    Each model then learns from the accident of alphabetical order.

    ## Severity
    A warning: the model runs, but what it learns depends on how the levels happened
    to be numbered.

    ## Example
    ```yaml
    model: GaussianNB
    encoders:
      color: OrdinalEncoder
    ```

    ## Use instead
    ```yaml
    model: CategoricalNB
    params: {min_categories: 9}
    encoders:
      color: {class: OrdinalEncoder, handle_unknown: use_encoded_value, unknown_value: 8}
    ```
    """

    code = "NB505"
    status = "stable"
    since = "0.1.0"
    name = "codes-read-as-numbers"
    severity = Severity.WARNING
    #: The codes 0, 1 and 2 of the message's example ("code 2 weighs twice the one with code 1").
    message_constants = frozenset({0.0, 1.0, 2.0})
    models = frozenset(READS_CODES_AS)
    messages = {
        model: "{step_label} turns {inputs} into arbitrary integer codes for {model_label}, which reads them as "
        + reading
        for model, reading in READS_CODES_AS.items()
    }

    def check_model(self, ctx, estimator):
        from nblint.pipelines.catalog import ORDINAL_ENCODERS
        from nblint.pipelines.flow import ORDINAL

        for step in self.origins(ctx, ORDINAL):
            if step.cls in ORDINAL_ENCODERS:
                yield self.step_finding(ctx, step, ctx.model, fix=ORDINAL_FIX)
