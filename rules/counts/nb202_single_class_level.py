from nblint.analysis.context import TableContext
from nblint.engine import SUMMARIZE_ABOVE, Option, Rule, Severity
from nblint.structure.leakage import chance_in_words

from . import fmt_class, fmt_value


class SingleClassLevel(Rule):
    """A value seen with one class only, where chance cannot explain it (likely leakage).

    ## What it does
    Scans the levels of discrete features (binary, categorical codes, group members,
    counts with few values; never many-valued measurements) for levels on at least
    ``separation-min-rows`` rows, all of them in the same class. Small levels fall in
    one class by chance, so each is weighed: under independence the ``r`` rows of a
    level share one class with probability ``sum_c C(n_c, r) / C(n, r)``; multiplied
    by the number of levels tested (over every column), it must stay below
    ``separation-max-chance``. Columns that decide the target outright are NB208's.

    ## Why is this bad?
    Perfect separation makes Naive Bayes certain: the other classes' estimates for the
    value are zero (or only alpha), so the value overrides every other feature. When a
    value is that predictive it is often the label leaking into a feature (a status
    written after the outcome, an ID range per class), and the model will fail on data
    collected before the label is known.

    ## Severity
    A warning: the level certainly separates the classes in this table, but whether
    that is leakage or a genuinely decisive value needs a person who knows how the
    column is produced.

    ## Example
    ```
    refund_status,churned
    issued,yes      # 40 rows, every one of them churned
    none,no
    ```

    ## Use instead
    Check how the column is produced; drop it if it is set after the label, otherwise
    keep smoothing on so one value cannot veto the other classes.
    """

    code = "NB202"
    status = "stable"
    since = "0.1.0"
    name = "single-class-level"
    severity = Severity.WARNING
    needs_target = True
    options = (
        Option(
            "separation-min-rows",
            5,
            "Rows a level needs before its single class counts as separation.",
            shared=True,
            minimum=1,
        ),
        Option(
            "separation-max-chance",
            0.01,
            "Largest chance (corrected for the number of levels tested) of a level this size falling in one class "
            "by accident for it to be reported.",
            shared=True,
            minimum=0,
            maximum=1,
        ),
        SUMMARIZE_ABOVE,
    )

    def check(self, ctx: TableContext):
        classes = ctx.profile.classes
        for column in ctx.profile.features:
            found = ctx.single_class_levels.get(column)
            if not found:
                continue
            first = min(found, key=lambda level: (level.corrected, -level.rows))
            more = f"; {len(found) - 1} more such values" if len(found) > 1 else ""
            message = (
                f"column {column!r}: value {fmt_value(first.value)} appears only with class {fmt_class(classes[first.klass])} "
                f"({first.rows} rows; by chance {chance_in_words(first.chance)}): the value alone decides the class{more}"
            )
            evidence = {
                "levels": [
                    {
                        "value": fmt_value(level.value),
                        "class": fmt_value(classes[level.klass]),
                        "rows": level.rows,
                        "chance": level.chance,
                        "one_in": 1 / level.chance if level.chance > 0 else None,
                        "corrected_chance": level.corrected,
                    }
                    for level in found
                ]
            }
            fix = f"Check whether {column!r} is known before the label; drop it if it leaks the label."
            yield self.finding(ctx, message, columns=[column], evidence=evidence, fix=fix)

    def summarize(self, ctx, findings, limit):
        """On a table holding a document-term block, the words that give each class away are one finding
        per class whatever their number (a text user reads "these words decide 'sci.space'", not a word each)."""
        return super().summarize(ctx, findings, 0 if ctx.term_columns else limit)

    def reason(self, finding):
        """Per class: on a wide table, the words that give each class away are one finding."""
        first = min(finding.evidence["levels"], key=lambda level: (level["corrected_chance"], -level["rows"]))
        return (finding.severity, first["class"])

    def cost(self, finding):
        return float(max(level["rows"] for level in finding.evidence["levels"]))

    def summary_message(self, ctx, findings, share):
        klass = self.reason(findings[0])[1]
        examples = ", ".join(f"{f.columns[0]!r} ({int(self.cost(f))} rows)" for f in findings[:10])
        return (
            f"{len(findings):,} columns have a value that appears only with class {klass!r}, beyond chance "
            f"({share:.1%} of the features): the value alone decides the class; the strongest: {examples}"
        )
