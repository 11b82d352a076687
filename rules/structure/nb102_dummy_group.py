from nblint.analysis.context import TableContext
from nblint.engine import Option, Rule, Severity
from nblint.structure.names import signed_axis

from . import COLLAPSE_FIX

#: Why the set is one variable, each said when it holds (in this order, joined by "; "): its names (a shared
#: stem, or the two directions of one axis), a column that decodes it, its exclusivity beyond chance, and the
#: alternatives when the choice was ambiguous.
_WHY = {
    "axis": "names count steps both ways on one axis",
    "stem": "names share a stem",
    "decoded": "column {decoded_by!r} decodes it",
    "exclusive": "independent columns would co-occur about {expected_cooccurrences_if_independent:.0f} times, none "
    "do (chance about e^-{exclusivity_evidence:.0f})",
    "ambiguous": "ambiguous: {alternatives[0]:names} would also fit; chosen by {chosen_by}",
}
_KNOWN = " where they are known (all of them are missing on {missing_rows} rows)"


def _dummy(known: bool, why: list[str]) -> str:
    return (
        "columns {columns:names} look like a drop-first dummy group{variable:likely}: at most one is set on any row "
        "and {reference_rows} of {n_rows} rows" + (_KNOWN if known else "") + " have none (the dropped reference "
        "level); " + "; ".join(_WHY[reason] for reason in why)
    )


_MESSAGES = {
    "_".join(["dummy", *(["known"] if known else []), *why]): _dummy(known, why)
    for known in (False, True)
    for why in [
        [*names, *decoded, *exclusive, *ambiguous]
        for names in ([], ["axis"], ["stem"])
        for decoded in ([], ["decoded"])
        for exclusive in ([], ["exclusive"])
        for ambiguous in ([], ["ambiguous"])
    ]
}


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
    messages = _MESSAGES

    def check(self, ctx: TableContext):
        known = [g for g in ctx.structure.missing_together if g.kind == "dummy"]
        for group in ctx.structure.dummy + known:
            reference = group.reference_count
            why = []
            if "shared_name_stem" in group.evidence:
                # (``lead3``, ``lag2``: one variable's levels under two direction words)
                why.append("axis" if signed_axis(group.members) else "stem")
            if "decoded_by" in group.evidence:
                why.append("decoded")
            if "exclusivity_evidence" in group.evidence:
                why.append("exclusive")
            if group.evidence.get("ambiguous"):
                why.append("ambiguous")
            variant = "_".join(["dummy", *(["known"] if group.evidence.get("missing_rows") else []), *why])
            evidence = {
                "k": len(group.members),
                "levels": group.n_levels,
                "variable": group.stem,
                "reference_rows": reference,
                "n_rows": group.n_rows,
                "level_counts": dict(zip(group.members, group.counts)),
                **{k: v for k, v in group.evidence.items() if k != "reference_rows"},
            }
            from nblint.report.figures import group_pattern  # (a figure's module: only where a finding draws one)

            # (members with missing values, or written as yes/no, are outside the co-occurrence counts the figure draws)
            figure = (
                None
                if "missing_rows" in group.evidence
                else group_pattern(ctx, group.members, {0: reference, 1: group.n_rows - reference})
            )
            yield self.finding(ctx, variant, columns=group.members, evidence=evidence, fix=COLLAPSE_FIX, figure=figure)
