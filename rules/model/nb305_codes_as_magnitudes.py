from nblint.engine import Rule
from nblint.findings import Severity

from . import ESTIMATOR, value_range


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
    An error when the column is certainly categorical (text, a column that decodes a
    one-hot group, or a declared kind); ``info`` when the values do not decide between
    codes and a magnitude (a handful of whole numbers: ``nblint columns`` shows both
    readings).

    ## Example
    ```
    region_code,income,label    # model = "gaussian"
    3,52000.0,a
    1,31000.0,b
    ```

    ## Use instead
    CategoricalNB over the codes (OrdinalEncoder), alone or combined with the other
    event models column by column.
    """

    code = "NB305"
    name = "codes-as-magnitudes"
    severity = Severity.ERROR

    def check(self, ctx):
        if ctx.model not in ("gaussian", "multinomial", "complement"):
            return
        for column in ctx.features_of_kind("categorical"):
            kind = ctx.kinds[column]
            how = "text that would need codes" if column in ctx.profile.text else "integer codes"
            message = (f"column {column!r} is categorical ({how}, {value_range(ctx, column)}): "
                       f"{ESTIMATOR[ctx.model]} would read the codes as magnitudes")
            severity = self.severity
            if kind.ambiguous:
                # The values do not decide between codes and a magnitude: say so, quietly.
                message = (f"column {column!r} may be categorical codes ({value_range(ctx, column)}; it could also be "
                           f"{kind.alternative}): if so, {ESTIMATOR[ctx.model]} reads the codes as magnitudes")
                severity = Severity.INFO
            yield self.finding(ctx, message, columns=[column], severity=severity,
                               evidence={"kind": "categorical", "why": kind.why, "alternative": kind.alternative,
                                         "declared": kind.declared},
                               fix=f"Read {column!r} with CategoricalNB (ordinal codes), or declare its kind in "
                                   "[tool.nblint.columns].")
