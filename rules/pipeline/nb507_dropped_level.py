from nblint.engine import Severity

from . import ORDINAL_FIX, PipelineRule, literal

#: The parameter that drops a level, per encoder.
DROP_PARAMS = {"OneHotEncoder": "drop", "get_dummies": "drop_first", "FunctionTransformer": "kw_args"}


class DroppedReferenceLevel(PipelineRule):
    """A one-hot encoder that drops a level (drop='first', drop_first=True) feeds a Naive Bayes model.

    ## What it does
    Reports ``OneHotEncoder(drop=...)`` (``'first'`` or a list; ``'if_binary'``
    and two-level categories that become one proper bit are fine),
    ``pandas.get_dummies(drop_first=True)`` and, in Python sources, a level
    column dropped by name after ``get_dummies`` (``df.drop(["Embarked", "S"], axis=1)``
    after ``get_dummies(df.Embarked)``), whose bits reach the pipeline's Naive
    Bayes estimator, at the line of the ``drop`` parameter (or of the drop; where
    the dropped names come from a list written earlier, at the line of that list).
    A two-level variable left as one bit is fine: where the code does not say
    how many levels a column has, a column named ``sex``/``gender``, or dummies
    named by levels such as ``male``/``female`` or ``yes``/``no``, count as two.

    ## Why is this bad?
    Dropping a level is a fix for linear models, where K one-hot columns are
    collinear with the intercept. Naive Bayes has no intercept to collide with,
    and the K-1 remaining bits are still one variable read as K-1 independent
    pieces of evidence (the product-of-Bernoullis problem of NB501). Worse, the
    dropped reference level is no longer a value of its own: it is modelled only
    as "none of the other bits is set", an absence that every other level's bit
    also scores, so the reference category's evidence is smeared over the others.

    ## Severity
    A warning: the model runs, but the reference level is never modelled as a value of
    its own.

    ## Example
    ```yaml
    model: BernoulliNB
    encoders:
      plan: {class: OneHotEncoder, drop: first}
    ```

    ## Use instead
    ```yaml
    model: CategoricalNB
    params: {min_categories: 11}
    encoders:
      plan: {class: OrdinalEncoder, handle_unknown: use_encoded_value, unknown_value: 10}
    ```
    """

    code = "NB507"
    status = "stable"
    since = "0.1.0"
    name = "dropped-reference-level"
    severity = Severity.WARNING
    messages = {
        "by_name": "{step_label} drops a reference level of {inputs} (level {dropped_levels:choose(column,columns)} "
        "{dropped_levels:quoted} dropped by name at line {drop_line}) for {model_label}: the remaining bits are still "
        "one variable read as independent evidence, and the dropped level exists only as 'no bit set'",
        **{
            f"by_{param}": "{step_label} drops a reference level of {inputs} (" + param + "={" + param + "!r}) for "
            "{model_label}: the remaining bits are still one variable read as independent evidence, and the dropped "
            "level exists only as 'no bit set'"
            for param in sorted({*DROP_PARAMS.values(), "drop"})
        },
    }

    def check_model(self, ctx, estimator):
        from nblint.pipelines.flow import DROPPED_LEVELS, DUMMY

        for step in self.origins(ctx, DUMMY):
            by_name = bool(step.value(DROPPED_LEVELS))
            param = DROPPED_LEVELS if by_name else DROP_PARAMS.get(step.cls, "drop")
            value = literal(step.value(param))
            if by_name:  # (the line of the drop, or of the list of names it drops)
                evidence = {"dropped_levels": value, "drop_line": step.line_of(param)}
            else:
                evidence = {param: value}
            variant = "by_name" if by_name else f"by_{param}"
            yield self.step_finding(ctx, step, variant, line=step.line_of(param), fix=ORDINAL_FIX, **evidence)
