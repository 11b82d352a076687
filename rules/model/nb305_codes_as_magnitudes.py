from nblint.analysis.context import TableContext
from nblint.engine import SUMMARIZE_ABOVE, Rule, Severity

from . import estimator, value_range


class CodesAsMagnitudes(Rule):
    """Gaussian, Multinomial or Complement NB over categorical codes: codes read as magnitudes.

    ## What it does
    With ``model = gaussian``, ``multinomial`` or ``complement``, reports categorical
    features: integer codes, and text columns (which would need codes to be fed).

    ## Why is this bad?
    Category 3 is not three times category 1. A Gaussian model fits a mean and variance
    to arbitrary labels; a multinomial model treats code 4 as four occurrences of the
    feature. The result depends on how the levels happened to be numbered.

    ## Severity
    An error when the column holds integer codes that are certainly categorical (a
    column that decodes a one-hot group, codes of a design, or a declared kind): the
    model reads them as magnitudes as they stand. A warning for text, which must be
    encoded first (as ordinal codes it is read as magnitudes; as one-hot bits it is
    NB501's matter). ``info`` when the values do not decide between codes and a
    magnitude (a handful of whole numbers: ``nblint columns`` shows both readings).

    ## Example
    ```
    region_code,income,label    # model = "gaussian"
    3,52000.0,a
    1,31000.0,b
    ```

    ## Use instead
    ``nblint.MixedNB``, which reads the codes as a categorical feature and every other
    column with its own event model; or CategoricalNB over the codes (OrdinalEncoder).
    """

    code = "NB305"
    status = "stable"
    since = "0.1.0"
    name = "codes-as-magnitudes"
    models = frozenset({"gaussian", "multinomial", "complement"})
    severity = Severity.ERROR
    options = (SUMMARIZE_ABOVE,)
    messages = {
        "codes": "column {column!r} is categorical (integer codes, {range}): {model} would read the codes as magnitudes",
        "text": "column {column!r} is categorical (text that would need codes, {range}): {model} would read the codes "
        "as magnitudes",
        "ambiguous": "column {column!r} may be categorical codes ({range}; it could also be {alternative}): if so, "
        "{model} reads the codes as magnitudes",
    }

    def check(self, ctx: TableContext):
        for column in ctx.features_of_kind("categorical"):
            kind = ctx.kinds[column]
            text = column in ctx.profile.text
            variant = "text" if text else "codes"
            # Integer codes are read as magnitudes as they stand; text must be encoded first,
            # and how (ordinal codes, or one-hot bits: NB501's matter) is not in the table.
            severity = Severity.WARNING if text else self.severity
            if kind.ambiguous:
                # The values do not decide between codes and a magnitude: say so, quietly.
                variant = "ambiguous"
                severity = Severity.INFO
            yield self.finding(
                ctx,
                variant,
                columns=[column],
                severity=severity,
                evidence={
                    "kind": "categorical",
                    "why": kind.why,
                    "alternative": kind.alternative,
                    "declared": kind.declared,
                    "range": value_range(ctx, column),
                    "model": estimator(ctx.model),
                },
                fix=f"Read {column!r} as a categorical feature: fit nblint.MixedNB (it infers that; "
                f"declare it with kinds={{{column!r}: 'categorical'}}), or CategoricalNB over ordinal codes; "
                "declare its kind in [tool.nblint.columns] if nblint reads it wrong.",
            )
