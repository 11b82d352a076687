from nblint.engine import Severity

from . import ORDINAL_FIX, PipelineRule

#: How each model reads K one-hot bits of one variable.
READS_BITS_AS = {
    "bernoulli": "K Bernoulli features: the level that is present counts once and the K-1 absent ones count again, "
    "so one variable is scored as K independent pieces of evidence (a product of Bernoullis)",
    "categorical": "K two-level categorical features: the same product of Bernoullis as BernoulliNB, "
    "one variable scored as K independent pieces of evidence",
    "gaussian": "K Gaussian features fitted to 0/1 values: one variable scored as K independent pieces of "
    "evidence, each with a bell curve that does not fit a bit",
    "multinomial": "counts from one shared vocabulary: each variable's levels share probability mass with every "
    "other feature instead of forming a distribution of their own",
    "complement": "counts from one shared vocabulary: each variable's levels share probability mass with every "
    "other feature instead of forming a distribution of their own",
}


class OneHotIntoNaiveBayes(PipelineRule):
    """A one-hot encoder feeds a Naive Bayes model: one variable becomes K features read as independent.

    ## What it does
    Follows every route from the input to the pipeline's Naive Bayes estimator
    and reports a one-hot encoder whose bits reach it: ``OneHotEncoder``,
    ``pandas.get_dummies`` (also through ``FunctionTransformer``),
    ``DictVectorizer`` on string features, ``LabelBinarizer``, and
    ``KBinsDiscretizer`` with its default ``encode='onehot'``, also through
    per-column scalers (standardised bits are still one variable split into
    bits). The finding is at the encoder's line. A one-hot encoder that drops a
    level is NB507's finding; a variable that reaches the model as one bit (two
    levels, or a single dummy selected) is not reported.

    ## Why is this bad?
    Naive Bayes multiplies one factor per feature. One-hot encoding turns a
    K-level variable into K features that always move together (exactly one is
    1), and BernoulliNB, GaussianNB and CategoricalNB over the bits score them as
    K independent pieces of evidence: besides the factor of the level that is
    present, each class collects a factor for every level that is absent. That
    over-counts the variable, makes posteriors over-confident and can change the
    predicted class (Williams, eqs. 1-3; nblint's NB101 finds the same groups in
    a table). MultinomialNB and ComplementNB suffer less (the bits behave like a
    one-word document), but each variable's levels still share one probability
    vector with every other feature, so this is reported at severity info for them.

    ## Severity
    A warning: the model runs and often ranks well, but each one-hot variable's
    evidence is over-counted (NB401 measures by how much on a table); ``info`` under
    MultinomialNB or ComplementNB, which read each bit as one count of an event.

    ## Example
    ```yaml
    _target_: sklearn.pipeline.make_pipeline
    _args_:
      - _target_: sklearn.preprocessing.OneHotEncoder
      - _target_: sklearn.naive_bayes.BernoulliNB
    ```

    ## Use instead
    ```yaml
    _target_: sklearn.pipeline.make_pipeline
    _args_:
      - _target_: sklearn.preprocessing.OrdinalEncoder
        handle_unknown: use_encoded_value
        unknown_value: 20
      - _target_: sklearn.naive_bayes.CategoricalNB
        min_categories: 21
    ```
    """

    code = "NB501"
    status = "stable"
    since = "0.1.0"
    name = "onehot-into-nb"
    severity = Severity.WARNING
    messages = {
        model: "{step_label} one-hot encodes {inputs} for {model_label}, which reads the bits as " + reading
        for model, reading in READS_BITS_AS.items()
    }

    def check_model(self, ctx, estimator):
        from nblint.pipelines.flow import ONEHOT

        severity = Severity.INFO if ctx.model in ("multinomial", "complement") else None
        for step in self.origins(ctx, ONEHOT):
            yield self.step_finding(ctx, step, ctx.model, severity=severity, fix=ORDINAL_FIX)
