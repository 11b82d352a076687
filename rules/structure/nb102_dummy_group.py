from nblint.analysis.context import TableContext
from nblint.engine import Option, Rule, Severity
from nblint.report.figures import group_pattern
from nblint.structure.names import signed_axis

from ..wording import fmt_columns, likely_variable
from . import COLLAPSE_FIX


class DummyGroup(Rule):
    """Mutually exclusive 0/1 columns with a dropped reference level (drop-first dummies).

    ## What it does
    Finds sets of two or more 0/1 columns of which at most one is set on any row and
    that leave some rows all zero: a categorical variable dummy-coded with one level
    (the reference) dropped, as ``pandas.get_dummies(drop_first=True)`` or
    ``OneHotEncoder(drop="first")`` write it, however rare the reference level is.
    Flags are exclusive by chance too, so a column joins a set only when the chance
    that its ones all avoid the other members' rows is small (corrected for the
    number of columns tried) or its name shares a stem with theirs; and a set is
    reported when its exclusivity is beyond chance (``min-evidence`` nats:
    ``-log P(disjoint | independent)``), its names share a stem that tells them apart
    from the other columns, or a column of the table decodes it. Where several sets
    are possible (a subtype beside a main type), a shared stem wins, then the finer
    split; the evidence says when the choice was ambiguous and what the alternatives were.
    Where the names say nothing and two sets of one size share a column, each beyond
    chance (``cyl_8`` excludes both ``cyl_6`` and ``vs`` in 32 cars), only one can be the
    column's variable and the values cannot say which: no group is reported there.

    ## Why is this bad?
    Naive Bayes over the K-1 bits treats them as independent features: the same
    product-of-Bernoullis mistake as a full one-hot group (over-counted evidence,
    over-confident posteriors), and the reference level is never modelled as a value
    of its own: it is only "all bits off".

    ## Severity
    A warning: the set is a conclusion from evidence, and reading it as separate bits
    costs what NB401 measures.

    ## Example
    ```
    size_M,size_L,label     # size_S was dropped
    0,0,a
    1,0,b
    0,1,a
    ```

    ## Use instead
    One categorical column with every level, including the reference, given to
    CategoricalNB as ordinal codes.
    """

    code = "NB102"
    status = "stable"
    since = "0.1.0"
    name = "dummy-group"
    severity = Severity.WARNING
    options = (
        Option(
            "min-evidence",
            10.0,
            "Co-occurrences that independent columns would show, summed over pairs, before an exclusive "
            "set with unrelated names counts as one variable. 10 means a chance of about exp(-10) = 4.5e-5.",
            shared=True,
            minimum=0,
        ),
    )

    def check(self, ctx: TableContext):
        known = [g for g in ctx.structure.missing_together if g.kind == "dummy"]
        for group in ctx.structure.dummy + known:
            missing = group.evidence.get("missing_rows")
            variable = likely_variable(group.stem)
            reference = group.reference_count
            why = []
            if "shared_name_stem" in group.evidence:
                # (``lead3``, ``lag2``: one variable's levels under two direction words)
                why.append(
                    "names count steps both ways on one axis" if signed_axis(group.members) else "names share a stem"
                )
            if "decoded_by" in group.evidence:
                why.append(f"column {group.evidence['decoded_by']!r} decodes it")
            if "exclusivity_evidence" in group.evidence:
                why.append(
                    f"independent columns would co-occur about "
                    f"{group.evidence['expected_cooccurrences_if_independent']:.0f} times, none do "
                    f"(chance about e^-{group.evidence['exclusivity_evidence']:.0f})"
                )
            if group.evidence.get("ambiguous"):
                alternative = group.evidence["alternatives"][0]
                why.append(
                    f"ambiguous: {fmt_columns(alternative)} would also fit; chosen by {group.evidence['chosen_by']}"
                )
            known_rows = f" where they are known (all of them are missing on {missing} rows)" if missing else ""
            message = (
                f"columns {fmt_columns(group.members)} look like a drop-first dummy group{variable}: "
                f"at most one is set on any row and {reference} of {group.n_rows} rows{known_rows} have none "
                f"(the dropped reference level); {'; '.join(why)}"
            )
            evidence = {
                "k": len(group.members),
                "levels": group.n_levels,
                "variable": group.stem,
                "reference_rows": reference,
                "n_rows": group.n_rows,
                "level_counts": dict(zip(group.members, group.counts)),
                **{k: v for k, v in group.evidence.items() if k != "reference_rows"},
            }
            # (members with missing values, or written as yes/no, are outside the co-occurrence counts the figure draws)
            figure = (
                None
                if "missing_rows" in group.evidence
                else group_pattern(ctx, group.members, {0: reference, 1: group.n_rows - reference})
            )
            yield self.finding(ctx, message, columns=group.members, evidence=evidence, fix=COLLAPSE_FIX, figure=figure)
