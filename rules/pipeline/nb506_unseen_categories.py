from nblint.engine import Severity

from . import PipelineRule, literal

PLAN = (
    "OrdinalEncoder(handle_unknown='use_encoded_value', unknown_value=U) with CategoricalNB(min_categories=M), "
    "M > U and U at least the number of categories seen"
)


class UnseenCategoriesUnplanned(PipelineRule):
    """CategoricalNB with no plan for categories unseen in training: predict raises on the first new value.

    ## What it does
    For a CategoricalNB model, looks at what produces its codes on each route:

    * ``OrdinalEncoder`` with the default ``handle_unknown='error'``, or
      ``LabelEncoder`` (which has no such option): reported at the encoder;
    * ``OrdinalEncoder(handle_unknown='use_encoded_value')`` with an
      ``unknown_value`` that is negative or NaN, or not below CategoricalNB's
      ``min_categories``: reported at ``unknown_value``, or at the model when
      ``min_categories`` is missing;
    * codes from the raw input (or a known step that keeps it) with no
      ``min_categories``: reported at the model.

    A route through a step nblint cannot see into (a class of another library,
    an interpolation), or an encoder of another library with its own handling of
    unknown categories (category_encoders), is not reported: whether it plans for
    unseen categories cannot be told.

    ``KBinsDiscretizer(encode='ordinal')`` is a plan in itself (values outside the
    training range fall into the end bins), one-hot bits are NB501's concern, and a
    0/1 bit an encoder makes (a two-level column's dummy, ``binary=True``) has no
    third value to meet.
    In Python sources, the columns ``get_dummies(df)`` leaves alone are the frame's
    numeric columns (pandas encodes every text and category column), which reach
    the model raw and are reported; the columns ``get_dummies(df, columns=[...])``
    leaves alone are whatever the source did not list -- perhaps only the target,
    with every feature one-hot encoded -- so they are not taken for raw codes
    unless the source later selects one of them by name.

    ## Why is this bad?
    CategoricalNB sizes each feature's table from the largest code seen in
    training. A category that first appears in production makes the pipeline
    fail: OrdinalEncoder raises on it by default; a code beyond the table makes
    CategoricalNB fail with an index error; a negative code (``unknown_value=-1``)
    is refused as a negative value; NaN is refused as missing. The consistent plan is
    to reserve a code for "unknown" that the model has a (smoothed) slot for:
    ``min_categories`` makes the table large enough and ``alpha`` gives the slot
    its pseudo-counts.

    ## Severity
    A warning: prediction fails (or vetoes a class) only when a category unseen in
    training arrives, which the code cannot tell.

    ## Example
    ```python
    from sklearn.naive_bayes import CategoricalNB
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import OrdinalEncoder

    model = make_pipeline(OrdinalEncoder(), CategoricalNB())
    ```

    ## Use instead
    ```python
    from sklearn.naive_bayes import CategoricalNB
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import OrdinalEncoder

    model = make_pipeline(
        OrdinalEncoder(handle_unknown="use_encoded_value", unknown_value=50),
        CategoricalNB(min_categories=51),
    )
    ```
    """

    code = "NB506"
    status = "stable"
    since = "0.1.0"
    name = "unseen-categories-unplanned"
    severity = Severity.WARNING
    models = frozenset({"categorical"})
    messages = {
        "label_encoder": "{step_label} encodes {inputs} for {model_label} but has no way to handle a category unseen "
        "in training: transform raises on it (LabelEncoder is meant for the target)",
        "raises": "{step_label} encodes {inputs} for {model_label} with handle_unknown='error' (the default): the "
        "first category unseen in training makes predict raise",
        "refused_code": "{step_label} gives unseen categories unknown_value={written}, which {model_label} "
        "cannot take (it refuses negative and missing codes)",
        "no_min_categories": "{step_label} gives unseen categories code {unknown_value!r}, but {model_label} has no "
        "min_categories: unless training happened to contain more than {unknown_value!r} categories, that code is "
        "outside its table and predict fails",
        "too_few": "{step_label} gives unseen categories code {unknown_value!r}, but {model_label} reserves only "
        "min_categories={min_categories!r} codes: code {unknown_value!r} is outside its table",
        "raw_input": "{model_label} takes its input with no min_categories and no encoder reserving a code for unseen "
        "categories: a category code not seen in training makes predict fail",
        "raw_codes": "{model_label} takes the codes {step_label} produces with no min_categories and no encoder "
        "reserving a code for unseen categories: a category code not seen in training makes predict fail",
    }

    def check_model(self, ctx, estimator):
        from nblint.pipelines.catalog import THIRD_PARTY
        from nblint.pipelines.flow import BINARY, DUMMY, ONEHOT, OPAQUE, REST, SIGNED

        min_categories = estimator.value("min_categories")
        fix = f"Reserve a code for unseen categories: {PLAN}."
        for flow in ctx.flows:
            step = flow.origin
            # One-hot bits are NB501/NB507's finding and negative values NB504's; a 0/1 bit an encoder
            # made can only be 0 or 1, whether training saw both is the data's question, not the code's.
            # Nor can a route through a step nblint cannot see into, or an encoder of another library with
            # its own handling of unknown categories, be told to have no plan; nor the columns a
            # get_dummies(frame, columns=[...]) leaves alone, which may be none.
            if flow.kind in (ONEHOT, DUMMY, BINARY, SIGNED, OPAQUE, REST) or (
                step is not None and step.cls == "KBinsDiscretizer"
            ):
                continue
            if step is not None and step.target.startswith(THIRD_PARTY):
                continue
            found = self._problem(step, estimator, min_categories)
            if found is None:
                continue
            variant, line = found
            if step is None:
                evidence = {
                    "model": estimator.cls,
                    "min_categories": literal(min_categories),
                    "model_label": estimator.label(),
                }
                yield self.finding(ctx, variant, line=line, evidence=evidence, fix=fix)
            else:
                # the code an OrdinalEncoder gives unseen categories, which the message shows
                coded = step.cls == "OrdinalEncoder" and step.value("handle_unknown") == "use_encoded_value"
                extra = {"unknown_value": literal(step.value("unknown_value"))} if coded else {}
                if variant == "refused_code":  # (as written: JSON has no NaN)
                    extra["written"] = repr(step.value("unknown_value"))
                yield self.step_finding(
                    ctx, step, variant, line=line, min_categories=literal(min_categories), fix=fix, **extra
                )

    @staticmethod
    def _problem(step, estimator, min_categories):
        """The message's variant and the line of the route's problem, or None when the route has a plan."""
        from nblint.pipelines.flow import is_number

        if step is not None and step.cls == "LabelEncoder":
            return "label_encoder", step.line
        if step is not None and step.cls == "OrdinalEncoder":
            if step.value("handle_unknown", "error") == "error":
                return "raises", step.line_of("handle_unknown")
            if step.value("handle_unknown") != "use_encoded_value":
                return None
            unknown = step.value("unknown_value")
            if not is_number(unknown) or unknown < 0:
                return "refused_code", step.line_of("unknown_value")
            if min_categories is None:
                return "no_min_categories", estimator.line
            if _covers(min_categories, unknown) is False:
                return "too_few", step.line_of("unknown_value")
            return None
        if min_categories is None:
            return ("raw_codes" if step is not None else "raw_input"), estimator.line
        return None


def _covers(min_categories, unknown) -> bool | None:
    """Whether every feature's table has room for code ``unknown`` (None when it cannot be told)."""
    from nblint.pipelines.flow import is_number

    values = min_categories if isinstance(min_categories, list) else [min_categories]
    if not values or not all(is_number(v) for v in values):
        return None
    return all(v > unknown for v in values)
