from nblint.analysis.context import TableContext
from nblint.engine import Narrowing, Rule, Severity


class GaussianOnBinary(Rule):
    """Gaussian NB declared over 0/1 columns.

    ## What it does
    With ``model = gaussian``, reports the binary features that belong to no one-hot or
    dummy group. (A group's bits under GaussianNB are NB307's finding, as under every
    declared model.)

    ## Why is this bad?
    A normal density fitted to values that are only ever 0 or 1 puts probability mass
    on values that cannot occur and gets the likelihood of the two that do wrong,
    especially when a class has nearly all 0s (a tiny variance makes the rare 1 a
    near-impossible outlier). Group members are also dependent, so their evidence is
    over-counted (NB101).

    ## Severity
    A warning: the model runs and often ranks classes well, but its densities over two
    values are wrong.

    ## Example
    ```
    is_member,age,label     # model = "gaussian"
    1,31.5,a
    0,45.2,b
    ```

    ## Use instead
    Mix event models: Bernoulli for flags, Gaussian for measurements. ``nblint.MixedNB``
    is that model (``nblint columns --pipeline`` prints the code for a table).
    """

    code = "NB304"
    status = "stable"
    since = "0.1.0"
    name = "gaussian-binary"
    models = frozenset({"gaussian"})
    severity = Severity.WARNING
    narrowed = (Narrowing("one-hot and dummy groups", "NB307", "0.1.0"),)
    messages = {
        "binary": "{binary:count} binary column(s) {binary:names} under GaussianNB: a normal density over two values "
        "misstates both",
    }

    def check(self, ctx: TableContext):
        binary = ctx.features_of_kind("binary")
        if binary:
            yield self.finding(
                ctx,
                "binary",
                columns=binary,
                evidence={"binary": binary},
                fix="Read 0/1 columns with the Bernoulli event model.",
            )
