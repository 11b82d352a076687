from nblint.analysis.context import TableContext
from nblint.core.models import MODELS
from nblint.engine import Rule, Severity

from ..wording import GROUP_FIX
from . import estimator

#: What the declared model makes of a group's bits, each read as a feature of its own (the message's
#: variant): a two-level variable (a Bernoulli) per bit, but for GaussianNB, which fits a normal density to each.
READING = {"gaussian": "densities"}


class GroupUnderModel(Rule):
    """A one-hot or dummy group under a declared model that reads its bits as separate features.

    ## What it does
    Under any declared model (Bernoulli, Multinomial, Complement, Gaussian or
    Categorical), reports every one-hot (NB101) or dummy (NB102) group in the table: as
    long as the group is given as bits, the model reads them as separate features.
    ``nblint impact`` (NB401) measures what the mistake costs on this table.

    ## Why is this bad?
    The product of Bernoullis replaces the categorical likelihood theta_j of the observed
    level by theta_j times prod_{k != j}(1 - theta_k) (Williams, eqs. 1-3): the evidence
    of one variable is counted several times, posteriors become over-confident and some
    predictions flip. CategoricalNB over the bits is exactly that model (each bit is its
    own two-level variable); GaussianNB gives each bit a normal density, which counts the
    same variable as many times.

    ## Severity
    One policy for every model: an error for an exact one-hot group, which the declared
    model certainly reads as several variables; a warning for a dummy group, which is a
    conclusion from evidence.

    ## Example
    ```
    color_red,color_green,color_blue,label    # model = "bernoulli"
    1,0,0,a
    ```

    ## Use instead
    ``nblint.MixedNB``: the group collapsed into one categorical feature, the other
    columns under their own event models; or ``nblint fix`` (``CollapseGroups`` in a
    pipeline) to collapse the group for CategoricalNB.
    """

    code = "NB307"
    status = "stable"
    since = "0.1.0"
    name = "group-under-model"
    models = frozenset(MODELS)  # every declared model (NB304 and NB306 left their groups here)
    severity = Severity.ERROR
    messages = {
        "bits": "{kind} group {variable!r} ({group:names}) is read by {estimator} as {group:count} separate "
        "features: a product of Bernoullis that over-counts one variable (see {see[0]}; nblint impact measures the "
        "cost)",
        "densities": "{kind} group {variable!r} ({group:names}) is read by {estimator} as {group:count} separate "
        "features: a normal density per bit that over-counts one variable (see {see[0]}; nblint impact measures the "
        "cost)",
    }

    def check(self, ctx: TableContext):
        for group in ctx.structure.groups:
            source = "NB101" if group.kind == "one-hot" else "NB102"
            # One-hot groups are exact; a dummy group is a conclusion from evidence.
            severity = self.severity if group.kind == "one-hot" else Severity.WARNING
            yield self.finding(
                ctx,
                READING.get(ctx.model or "", "bits"),
                columns=group.members,
                severity=severity,
                evidence={
                    "group": group.members,
                    "kind": group.kind,
                    "model": ctx.model,
                    "see": [source, "NB401"],
                    "variable": group.label,
                    "estimator": estimator(ctx.model),
                },
                fix=GROUP_FIX,
            )
