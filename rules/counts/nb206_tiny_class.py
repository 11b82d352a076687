from nblint.analysis.context import TableContext
from nblint.engine import Option, Rule, Severity

from . import fmt_class, fmt_value


class TinyClass(Rule):
    """Classes with too few rows, a target with missing values, or a single class.

    ## What it does
    Checks the target column: classes with fewer than ``min-class-rows`` rows, rows
    whose target is missing, and a target with only one class (an error: there is
    nothing to classify).

    ## Why is this bad?
    Every per-class estimate of a small class rests on a handful of rows: zero cells
    are near certain, variances are unreliable and the class prior is noisy. Rows with
    no label are silently dropped by some tools and rejected by others. A single class
    makes every posterior 1.

    ## Severity
    An error when the target has a single class (there is certainly nothing to
    classify); a warning for small classes and missing targets.

    ## Example
    ```
    x,label
    1.0,a
    2.0,a
    3.0,b      # class b has one row
    ```

    ## Use instead
    Collect more rows for small classes or merge them, drop or label the rows with no
    target, and check that the right column is the target.
    """

    code = "NB206"
    status = "stable"
    since = "0.1.0"
    name = "tiny-class"
    severity = Severity.WARNING
    needs_target = True
    options = (
        Option(
            "min-class-rows",
            10,
            "Classes with fewer rows than this are reported (and left out of NB201's zero cells).",
            shared=True,
            minimum=0,
        ),
    )
    messages = {
        "single_class": "target {column!r} has a single class ({class!r}): there is nothing to classify",
        "small": "target {column!r}: {small_classes:plural(class,classes)} with fewer than {min_class_rows} rows: {listed}",
        "missing": "target {column!r} is missing on {missing} rows ({share:.1%})",
    }

    def check(self, ctx: TableContext):
        profile = ctx.profile
        target = profile.target
        classes, counts = tuple(ctx.class_rows), tuple(ctx.class_rows.values())
        if len(classes) == 1:
            yield self.finding(
                ctx,
                "single_class",
                columns=[target],
                evidence={"classes": 1, "class": fmt_value(classes[0])},
                fix="Check that the right column is the target, and that the data was not filtered to one class.",
                severity=Severity.ERROR,
            )
        minimum = self.option_values["min-class-rows"]
        small = [(label, int(n)) for label, n in zip(classes, counts) if n < minimum]
        if small and len(classes) > 1:
            evidence = {
                "small_classes": {str(label): n for label, n in small},
                "listed": ", ".join(f"{fmt_class(label)} ({n} rows)" for label, n in small),
                "min_class_rows": minimum,
                "class_rows": {str(label): int(n) for label, n in zip(classes, counts)},
            }
            yield self.finding(
                ctx,
                "small",
                columns=[target],
                evidence=evidence,
                fix="Collect more rows for these classes or merge them with related ones.",
            )
        if profile.target_missing:
            share = profile.target_missing / ctx.n_rows
            yield self.finding(
                ctx,
                "missing",
                columns=[target],
                evidence={"missing": profile.target_missing, "share": share},
                fix="Label these rows or drop them before training.",
            )
