from nblint.analysis.context import TableContext
from nblint.engine import Option, Rule, Severity

_FOR_INSTANCE = "; e.g. rows {rows:joined}"
#: A one-hot group's rows off one: with no column set, with two or more, or both; and, where the table writes
#: its other variables as complete groups, why no level was dropped here.
_OFF = {
    "none": "{rows_summing_to_zero} rows have no column set",
    "multi": "{rows_summing_to_two_or_more} rows have two or more",
    "none_multi": "{rows_summing_to_zero} rows have no column set and {rows_summing_to_two_or_more} rows have two or "
    "more",
}
_SIBLINGS = (
    "; the table's other variables written the same way ({siblings_listed}) keep every level, so no level was "
    "dropped here"
)
_MESSAGES = {
    "dummy": "columns {columns:names} are a drop-first dummy group{variable:likely}: at most one is set on {rows_on} "
    "of {n_rows} rows (none on {rows_summing_to_zero}, the reference level), but {rows_summing_to_two_or_more} rows "
    "have two or more ({violation_share:.2%})" + _FOR_INSTANCE,
    **{
        f"onehot_{off}{siblings}": "columns {columns:names} are a one-hot group{variable:likely} on {rows_on} of "
        "{n_rows} rows but " + text + " ({violation_share:.2%})" + (_SIBLINGS if siblings else "") + _FOR_INSTANCE
        for off, text in _OFF.items()
        for siblings in ("", "_siblings")
    },
}


class BrokenGroup(Rule):
    """A one-hot group that does not sum to one on a few rows (a data error).

    ## What it does
    Finds 0/1 columns that behave as a one-hot group on most rows (nearly exclusive,
    counts adding up to about the number of rows) but where a few rows have two or
    more set; and exclusive columns whose names enumerate every level of a two-level
    variable (``smoker_yes``/``smoker_no``) but where some rows have none set. It
    reports how many rows sum to 0 and to 2+, with example row numbers (1-based data
    rows). Exclusive columns that leave rows all zero without such names are a
    drop-first group whose reference level is rare: NB102's, not a breakage, unless
    every other variable the table writes the same way (``region_*``, ``sex_*``, one
    encoder call) is a complete one-hot group: then the encoder kept every level, and
    the few all-zero rows are missing values.

    A drop-first group (its all-zero rows are the reference level) is broken when
    same-stem columns share a few rows, far fewer than independent columns would: the
    whole stem family is reported here, not an exclusive subset of it as NB102 (levels
    named by a shared prefix or suffix instead of a stem, ``vghealth, poorhealth``, alike).

    ## Why is this bad?
    Rows with no level or two levels of a categorical variable are almost always
    errors: a missing category written as all zeros, a join that duplicated flags, a
    level added to one source and not another. Any model, Naive Bayes or not, reads
    them as impossible combinations, and collapsing the group to one column fails on
    exactly these rows.

    ## Severity
    An error only when the breakage is certain: the names enumerate every level, so a
    row with none or both set cannot be right. Otherwise a warning: a few rows with two
    levels set may also be a multi-label variable whose labels rarely co-occur.

    ## Example
    ```
    pay_card,pay_cash,pay_voucher
    1,0,0
    0,0,0     <- no level
    0,1,1     <- two levels
    ```

    ## Use instead
    Fix the rows at the source, or make the missing state an explicit level
    (``pay_unknown``) so the group sums to one again.
    """

    code = "NB103"
    status = "stable"
    since = "0.1.0"
    name = "broken-group"
    severity = Severity.WARNING
    #: A row of a one-hot group's columns not summing to one is this rule's finding (pandera's check).
    row_checks = ("sum_to_one",)
    options = (
        Option(
            "max-violation-share",
            0.05,
            "Largest share of rows not summing to one for the set to still count as a group with errors "
            "(more than that and it is not one variable).",
            shared=True,
            minimum=0,
            maximum=1,
        ),
    )
    messages = _MESSAGES

    def check(self, ctx: TableContext):
        for group in ctx.structure.broken:
            share = group.violations / group.n_rows
            if group.kind == "dummy":
                # Exclusive but for a few rows, which same-stem columns share far more rarely than chance.
                variant = "dummy"
            else:
                off = "none_multi" if group.rows_zero and group.rows_multi else "none" if group.rows_zero else "multi"
                variant = f"onehot_{off}" + ("_siblings" if group.siblings else "")
            evidence = {
                "k": len(group.members),
                "kind": group.kind,
                "variable": group.stem,
                "rows_summing_to_zero": group.rows_zero,
                "rows_summing_to_two_or_more": group.rows_multi,
                "rows_summing_to_one": group.n_rows - group.rows_zero - group.rows_multi,
                "rows_with_at_most_one": group.n_rows - group.rows_multi,
                "rows_off": group.violations,
                "n_rows": group.n_rows,
                "violation_share": share,
                "rows_on": group.n_rows - group.violations,
                "level_counts": dict(zip(group.members, group.counts)),
            }
            fix = "Correct the listed rows at the source, or add an explicit level for the missing state."
            evidence["names_enumerate_every_level"] = group.complete_names
            if group.siblings:
                evidence["written_as_complete_groups"] = list(group.siblings)
                evidence["siblings_listed"] = ", ".join(f"{s}*" for s in group.siblings[:3])
            severity = Severity.ERROR if group.complete_names else self.severity
            sums = {0: group.rows_zero, 1: group.n_rows - group.rows_zero - group.rows_multi, "2+": group.rows_multi}
            from nblint.report.figures import group_pattern  # (a figure's module: only where a finding draws one)

            yield self.finding(
                ctx,
                variant,
                columns=group.members,
                rows=group.examples,
                evidence=evidence,
                fix=fix,
                severity=severity,
                figure=group_pattern(ctx, group.members, sums),
            )
