from nblint.analysis.context import TableContext
from nblint.engine import Option, Rule, Severity

#: What reading the group as bits costs (the group's measures, bits vs collapsed), then how sure that is.
COST = (
    "reading group {group!r} ({columns:count} columns) as independent bits changes the predicted class on "
    "{map_differs_share:.2%} of rows ({flips} of {rows}) and makes the model more confident on "
    "{pob_more_confident_share:.1%} (mean excess {excess_mean:+.3f}, 95th percentile {excess_p95:+.3f}); "
    "cross-validated log-loss {pob[cross_validated][log_loss]:.4f} vs {cat[cross_validated][log_loss]:.4f}, accuracy "
    "{pob[cross_validated][accuracy]:.1%} vs {cat[cross_validated][accuracy]:.1%} (bits vs collapsed); "
)
#: The paired out-of-fold comparison of log-loss, finite or not.
HOW_SURE = {
    "finite": "out of fold (paired by row) the {lower_log_loss} model's log-loss is lower by {log_loss_gap:.4f} "
    "+/- {cross_validated_difference[standard_error]:.4f} nats (z = {cross_validated_difference[z]:+.1f})",
    "infinite": "out of fold (paired by row) the difference in log-loss is not finite (alpha = 0 vetoes true classes)",
}
#: The paired comparison of decisions, and both verdicts (``beyond`` or ``within`` noise).
VERDICTS = (
    ", and the collapsed model alone is right on {{cross_validated_decisions[collapsed_only_right]:plural(row)}} "
    "against {{cross_validated_decisions[bits_only_right]}} (z = {{cross_validated_decisions[z]:+.1f}}): "
    "log-loss {loss} noise, decisions {decisions} noise"
)


class OneHotImpact(Rule):
    """What reading a one-hot or dummy group as independent bits costs, measured on this table.

    ## What it does
    For every one-hot (NB101) or dummy (NB102) group, fits two Naive Bayes models from
    the table's counts and compares them row by row: CAT reads the group as one
    categorical feature (the paper's eq. 2; for a dummy group the all-zero row is the
    reference level) and PoB reads its bits as independent Bernoulli features (eqs. 1
    and 3). Every other group is collapsed in both and every other column is read the
    same way by both (discrete columns as categorical, continuous ones as Gaussian, the
    words of a document-term block as one block, as text models read them: counts or
    weights by one multinomial per class, 0/1 words or a declared Bernoulli NB by their
    presence), with the same smoothing, so the difference is the group's encoding alone. Reports
    the share of rows whose predicted class flips, the share where PoB is more
    confident and by how much (mean and 95th percentile of the excess maximum
    posterior), and log-loss and accuracy of both models in-sample and with k-fold
    cross-validation; the table-wide comparison (all groups as bits against all
    collapsed) is in the evidence. ``nblint impact`` prints the full table and draws it.

    ## Why is this bad?
    The product of Bernoullis gives the observed level j an extra factor
    Q^{-j} = prod_{k != j}(1 - theta_k) per class (eq. 1), which makes the likelihood
    ratio between classes more extreme than the data supports (eqs. 11-13): posteriors
    are over-confident and, where the prior and the evidence compete, the predicted
    class changes. How much depends on the table; this rule measures it.

    ## Severity
    Measured on the table, and only where the out-of-fold comparison bears the cost
    out, paired by row (the same row, the same fold's fit; DESIGN.md section 5): the
    flips count only when the collapsed model's decisions are better out of fold
    (McNemar: rows only it classifies right against rows only the bits model does, at
    least ``noise-z`` standard deviations apart), and the log-loss only when each
    row's out-of-fold log-loss, bits minus collapsed, has a mean at least ``noise-z``
    standard errors above zero. The finding says both, and how sure. Then: an error
    when a model is declared (it reads the bits as bits) and the share of flipped
    predictions reaches ``flip-error`` (one decision in twenty at the default:
    material for any use of the predictions); a warning from ``flip-warning`` (one in
    two hundred), or when the cross-validated log-loss is worse by
    ``logloss-warning``; at most a warning with no model declared (reading the bits
    as bits is then what the table invites, not what is known to happen). ``info``
    otherwise: flips on a few rows, differences within noise, or a bits model with
    the lower out-of-fold log-loss are the table's noise, not a cost.

    ## Example
    ```
    nblint impact data.csv --target y
    group  K  flips  more confident  ...
    plan   3  5.75%  70.0%           ...
    ```

    ## Use instead
    ``nblint.MixedNB``, which reads the group as one categorical feature (the model
    "CAT" measured here, with the same maths), or ``nblint fix`` to write the table
    with the group collapsed for CategoricalNB (``CollapseGroups`` in a pipeline).
    """

    code = "NB401"
    status = "stable"
    since = "0.1.0"
    name = "one-hot-impact"
    severity = Severity.WARNING
    needs_target = True
    options = (
        Option(
            "alpha",
            1.0,
            "Lidstone smoothing of both models (0 = the paper's maximum likelihood); the config's top-level alpha, when set, is used instead.",
            shared=True,
            minimum=0,
        ),
        Option("folds", 5, "Folds of the cross-validation.", shared=True, minimum=2),
        Option("seed", 0, "Seed of the fold assignment.", shared=True, minimum=0),
        Option(
            "flip-error",
            0.05,
            "Share of rows whose predicted class changes that makes the finding an error.",
            minimum=0,
            maximum=1,
        ),
        Option(
            "flip-warning",
            0.005,
            "Share of rows whose predicted class changes that makes the finding a warning.",
            minimum=0,
            maximum=1,
        ),
        Option(
            "logloss-warning",
            0.01,
            "Worsening of cross-validated log-loss (nats per row) that makes the finding a warning.",
            minimum=0,
        ),
        Option(
            "noise-z",
            1.645,
            "Standard errors by which the collapsed model must beat the bits model out of fold, paired by row, "
            "before flips or log-loss count (1.645: one-sided 95%).",
            minimum=0,
        ),
    )

    #: "alpha = 0 vetoes true classes": the setting that makes a log-loss infinite, explained, not measured.
    message_constants = frozenset({0.0})
    messages = {
        f"{loss}_log_loss_{loss_verdict}_decisions_{decisions_verdict}": COST
        + HOW_SURE[loss]
        + VERDICTS.format(loss=loss_verdict, decisions=decisions_verdict)
        for loss in HOW_SURE
        for loss_verdict in ("beyond", "within")
        for decisions_verdict in ("beyond", "within")
    }

    def check(self, ctx: TableContext):
        result = ctx.impact
        if result is None:
            return
        table = {k: v for k, v in result.table.items() if k not in ("columns",)}
        from nblint.report.figures import impact_scatter  # (a figure's module: only where a finding draws one)

        figure = impact_scatter(result)  # one picture of the table, shared by its groups' findings
        for group in result.groups:
            severity = self._severity(group)
            if ctx.model is None and severity is Severity.ERROR:
                # Measured, but the flips happen only if the bits are read as bits: with no model
                # declared that is what the table invites, not what is known to happen.
                severity = Severity.WARNING
            evidence = dict(group)
            evidence["flips"] = round(group["map_differs_share"] * group["rows"])  # (the rows the share is of)
            evidence |= self._how_sure(group)
            evidence["table"] = table
            evidence["alpha"] = result.settings.alpha
            evidence["folds"] = result.settings.folds
            evidence["left_out"] = result.design.left_out
            if result.design.terms:
                evidence["terms"] = {"words": len(result.design.terms), "read_as": result.design.term_model}
            fix = (
                f"Read {group['group']!r} as one categorical feature: fit nblint.MixedNB (the collapsed model "
                "measured here), or run `nblint fix` to write the table with the group collapsed for CategoricalNB."
            )
            yield self.finding(
                ctx,
                self._variant(group),
                columns=group["columns"],
                rows=group["flipped_rows"],
                evidence=evidence,
                fix=fix,
                severity=severity,
                figure=figure,
            )

    def _verdicts(self, group) -> tuple[bool, bool]:
        """Whether, out of fold, the collapsed model's log-loss and its decisions are better beyond noise.

        Neither is, whatever the z, when the bits model's mean log-loss is the lower one.
        """
        loss, decisions = group["cross_validated_difference"], group["cross_validated_decisions"]
        mean, z, enough = loss["mean"], loss["z"], self.option_values["noise-z"]
        if mean is None or mean <= 0:
            return False, False
        if z is None:  # an infinite mean loss (alpha = 0 vetoes true classes): decisive only for the bits model
            loss_better = mean == float("inf")
        else:
            loss_better = z >= enough
        return loss_better, decisions["z"] >= enough

    def _how_sure(self, group) -> dict:
        """What the message's paired out-of-fold comparison says beyond the group's measures: the lower model, by how much."""
        mean = group["cross_validated_difference"]["mean"]
        if group["cross_validated_difference"]["z"] is None:
            return {}
        return {"lower_log_loss": "collapsed" if mean > 0 else "bits", "log_loss_gap": abs(mean)}

    def _variant(self, group) -> str:
        """The message's variant: whether the log-loss difference is finite, and both verdicts on noise."""
        loss_better, decisions_better = self._verdicts(group)
        finite = "infinite" if group["cross_validated_difference"]["z"] is None else "finite"
        verdict = {True: "beyond", False: "within"}
        return f"{finite}_log_loss_{verdict[loss_better]}_decisions_{verdict[decisions_better]}"

    def _severity(self, group) -> Severity:
        """A cost is a warning or an error only where the out-of-fold comparison bears it out."""
        loss_better, decisions_better = self._verdicts(group)
        flips = group["map_differs_share"]
        cat, pob = group["cat"]["cross_validated"]["log_loss"], group["pob"]["cross_validated"]["log_loss"]
        if decisions_better and flips >= self.option_values["flip-error"]:
            return Severity.ERROR
        if (decisions_better and flips >= self.option_values["flip-warning"]) or (
            loss_better and cat is not None and pob is not None and pob - cat >= self.option_values["logloss-warning"]
        ):
            return Severity.WARNING
        return Severity.INFO
