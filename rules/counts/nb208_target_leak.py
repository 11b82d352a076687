from nblint.analysis.context import TableContext
from nblint.engine import SUMMARIZE_ABOVE, Option, Rule, Severity

from . import fmt_value

#: How a column decides the target: one side of a cut pure (every row, or all but a few exceptions), a cut
#: giving each class, a unit identifier, or each level one class. Then the wide table's summary.
_DECIDES = "column {column!r} decides the target {target!r} on {share:.2%} of rows ({rows_decided} of {n_rows}): "
_PURE = (
    "{column} SIDE {threshold:number} gives class {one_sided[pure_class]!r} on EVERY of its {one_sided[pure_rows]} "
    "rows ({one_sided[pure_share]:.1%} of all rows), and class {one_sided[other_class]!r} lies WHERE (chance of so "
    "pure a side {one_sided[chance]:chance}, corrected for the cuts tried)"
)
_HOW = {
    "threshold": "{column} > {threshold:number} gives class {class_above!r} and the rest {class_below!r}",
    "identifier": "each of its values goes with one class: it identifies repeated units and the class is constant "
    "within each, so a model reads the unit, not what was measured on it",
    "levels": "each of its values goes with one class",
}
_SUMMARY = (
    "{instances} WHAT ({share:.0%} of the features) each decide the target {target!r} on at least {least:.2%} of "
    "rows; the first: {examples[0][message]}"
)


def _pure(symbol: str, exceptions: bool) -> str:
    """A pure side: beyond the cut (``>``) or at or below it (``<=``), with no exception or all but a few."""
    if exceptions:
        every, where = "all but {one_sided[exceptions]}", "on the other side but for those rows"
    else:
        every, where = "every one", "only on the other side"
    return _DECIDES + _PURE.replace("SIDE", symbol).replace("EVERY", every).replace("WHERE", where)


def _variants() -> dict[str, str]:
    """The rule's templates: each way of deciding after the common start, and the summaries of columns and words."""
    return {
        **{name: _DECIDES + how for name, how in _HOW.items()},
        "pure_above": _pure(">", exceptions=False),
        "pure_above_but": _pure(">", exceptions=True),
        "pure_below": _pure("<=", exceptions=False),
        "pure_below_but": _pure("<=", exceptions=True),
        "summary": _SUMMARY.replace("WHAT", "columns"),
        "summary_words": _SUMMARY.replace("WHAT", "words"),
    }


class TargetLeak(Rule):
    """A column from which the target can be read on (nearly) every row: leakage.

    ## What it does
    Finds feature columns that give the class on at least ``decides-share`` of the rows
    (99% by default), while leaving at most a tenth of the smaller classes' rows wrong:
    either each of the column's levels is (almost) always one class, with ten or more
    rows per level on average, so the target is a relabelling of the column (an identifier
    too: repeated on ten rows or more each, it names the units of a panel, a state code on
    every state-year, and a class constant within each unit is read off it); or, for a
    two-class target, one threshold on the column's values gives the class (the target
    is ``x > t``). Read from the contingency tables of columns with up to 1,000
    distinct values (and from per-class histograms of measurements with more).

    A two-class column can also decide one side: one side of a cut holds one class
    with (nearly) no exception (at least ``decides-share`` of its rows), the other
    class lies only on the other side, and the reading's errors (rows of the pure
    class the cut misses) stay within a tenth of the smaller class. That is reported
    below ``decides-share`` of all rows, with the pure side's share, when chance cannot
    explain so pure a side (its hypergeometric chance, times the cuts tried, at most
    ``separation-max-chance``): a strong feature errs on both sides of its best cut, a
    label written from the column (``card = yes`` because ``expenditure > 0``) on one.

    ## Why is this bad?
    A feature that already is the label makes every other feature irrelevant: the
    model learns the leak, scores perfectly on this table and fails on data collected
    before the label is known. Typical causes: a label derived from a feature (``y =
    purchases > 0``), a status written after the outcome, rows sorted by class and an
    ID kept.

    ## Severity
    A warning: a column this predictive is almost always leakage, but some problems do
    have a decisive feature; a person who knows how it is produced must decide.

    ## Example
    ```
    purchases,bought     # bought = purchases > 0
    0,no
    3,yes
    1,yes
    ```

    ## Use instead
    Drop the column (or the feature it is derived from) before training, and check the
    pipeline that produced the table for label information.
    """

    code = "NB208"
    status = "stable"
    since = "0.1.0"
    name = "target-leak"
    severity = Severity.WARNING
    needs_target = True
    options = (
        Option(
            "decides-share",
            0.99,
            "Share of rows whose class a column must give to be reported.",
            shared=True,
            minimum=0,
            maximum=1,
        ),
        SUMMARIZE_ABOVE,
    )
    messages = _variants()

    def cost(self, finding) -> float:
        return float(finding.evidence["rows_decided"])

    def summary_variant(self, ctx, findings) -> str:
        return "summary_words" if all(f.columns[0] in ctx.term_columns for f in findings) else "summary"

    def summary_evidence(self, ctx, findings) -> dict:
        return {"target": ctx.target, "least": min(f.evidence["share"] for f in findings)}

    def check(self, ctx: TableContext):
        classes = ctx.profile.classes
        for column, found in sorted(ctx.deciding_columns.items(), key=lambda kv: ctx.table_order[kv[0]]):
            n = sum(ctx.class_rows.values())
            if found.one_sided and found.threshold is not None:
                # One side of the cut is one class with (nearly) no exception; the other class lies only
                # on the other side: the errors are all rows of the pure class that the cut misses.
                variant = "pure_above" if found.pure_above else "pure_below"
                variant += "_but" if found.exceptions else ""
            elif found.how == "threshold" and found.above is not None and found.threshold is not None:
                variant = "threshold"
            elif ctx.kinds[column].kind == "identifier":
                # (a panel's unit id: the class is an attribute of the unit, and the id memorises it)
                variant = "identifier"
            else:
                variant = "levels"
            evidence = {
                "share": found.share,
                "rows_decided": n - found.errors,
                "n_rows": n,
                "rows_wrong": found.errors,
                "how": found.how,
                "threshold": found.threshold,
                "class_above": None if found.above is None else fmt_value(classes[found.above]),
                "target": ctx.target,
            }
            if variant == "threshold" and found.above is not None:
                evidence["class_below"] = fmt_value(classes[1 - found.above])
            if found.one_sided and found.threshold is not None:
                evidence["one_sided"] = {
                    "pure_side": "above" if found.pure_above else "at or below",
                    "pure_rows": found.pure_rows,
                    "pure_share": found.pure_rows / n,
                    "chance": found.chance,
                    "one_in": 1 / found.chance if found.chance else None,
                    "pure_class": fmt_value(classes[found.pure_class]),
                    "other_class": fmt_value(classes[1 - found.pure_class]),
                    "exceptions": found.exceptions,
                }
            fix = f"Check how {column!r} is produced; drop it if it is derived from (or written after) {ctx.target!r}."
            yield self.finding(ctx, variant, columns=[column], evidence=evidence, fix=fix)
