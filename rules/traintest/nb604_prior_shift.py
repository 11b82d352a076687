from __future__ import annotations

import math

import numpy as np

from nblint.core.tails import chi2_sf
from nblint.engine import Option, Severity

from . import TestTableRule, at_test, share


class PriorShift(TestTableRule):
    """Class proportions of the test table that differ from the training ones beyond chance.

    ## What it does
    Where the test table has the target, compares its class counts with the training ones
    (Pearson's chi-square test of homogeneity on the 2 x C table of counts) and, where the
    p-value is below ``significance``, names the class whose share moved most. Test labels
    no training row has are said too.

    ## Why is this bad?
    A Naive Bayes model adds ``log P(c)``, the training share of each class, to every row's
    score. If the test (or serving) rows come in other proportions, that term is off by
    ``log(q_c / p_c)`` on every row (p: training share, q: test share), which moves rows
    near the boundary towards the classes training over-represented. ``fit_prior=False``
    (a uniform prior) or ``class_prior=`` (the proportions the model will meet) replaces
    it. A label training never had cannot be predicted at all.

    ## Severity
    An error when the test table has labels the training table lacks: every such row is
    certainly mispredicted. Otherwise a warning: the shift is beyond chance, but whether the
    test proportions are the ones the model will serve is the user's knowledge.

    ## Example
    ```
    # train.csv: 900 rows of class a, 100 of b
    # test.csv:  500 rows of class a, 500 of b
    ```

    ## Use instead
    ``class_prior=`` with the proportions the model will meet, ``fit_prior=False`` where
    they are unknown, or a stratified split when the shift is an accident of splitting.
    """

    code = "NB604"
    status = "stable"
    since = "0.1.0"
    name = "prior-shift"
    severity = Severity.WARNING
    needs_target = True
    options = (
        Option(
            "significance",
            0.001,
            "The chi-square test's p-value below which the proportions differ beyond chance.",
            minimum=0.0,
            maximum=1.0,
        ),
    )
    _SHIFT = (
        "class {class!r} is {train_share:.0%} of the training rows and {test_share:.0%} of the test rows "
        "(chi-square {chi2:.1f}, p = {p_value:.1e})"
    )
    messages = {
        "new_classes": "{rows} of {test_rows} test rows have label(s) the training table never has ({shown:quoted}): "
        "the model cannot predict them",
        "shift": _SHIFT,
        "shift_log_odds": _SHIFT + ": the training prior is off by {log_prior_shift:+.2f} in log-odds for {class!r} on "
        "every test row; class_prior= with the test proportions removes that, fit_prior=False (uniform, {uniform:.0%} "
        "each) removes the training proportions",
    }

    def check(self, ctx):
        test = ctx.test
        if test is None or not test.has_target:
            return
        if test.new_classes:
            labels = sorted(test.new_classes)
            rows = sum(test.new_classes.values())
            evidence = {"rows": rows, "test_rows": test.n_rows, "labels": {k: test.new_classes[k] for k in labels}}
            evidence["shown"] = labels[:5]
            fix = "Train with rows of every class the model must predict, or drop those labels from the test table."
            yield at_test(ctx, self.finding(ctx, "new_classes", evidence=evidence, fix=fix, severity=Severity.ERROR))
        train = np.array(list(ctx.class_rows.values())[: len(test.classes)], dtype=np.float64)
        seen = test.class_count.astype(np.float64)
        keep = (train + seen) > 0
        if keep.sum() < 2 or seen.sum() == 0 or train.sum() == 0:
            return
        statistic, dof = homogeneity_chi2(np.vstack([train[keep], seen[keep]]))
        p_value = chi2_sf(statistic, dof)
        if not p_value < self.option_values["significance"]:
            return
        p = train / train.sum()
        q = seen / seen.sum()
        c = int(np.argmax(np.abs(q - p)))
        label = test.classes[c]
        shift = math.log(q[c] / p[c]) if p[c] > 0 and q[c] > 0 else None
        uniform = 1 / int(keep.sum())
        evidence = {
            "class": label,
            "train_share": float(p[c]),
            "test_share": float(q[c]),
            "chi2": float(statistic),
            "dof": int(dof),
            "p_value": float(p_value),
            "log_prior_shift": shift,
            "uniform": uniform,
            "train_counts": {test.classes[k]: int(train[k]) for k in np.flatnonzero(keep)},
            "test_counts": {test.classes[k]: int(seen[k]) for k in np.flatnonzero(keep)},
            "test_rows": test.n_rows,
            "share": share(int(seen[c]), test.n_rows),
        }
        fix = "Set class_prior= to the proportions the model will meet (or fit_prior=False), or stratify the split."
        variant = "shift" if shift is None else "shift_log_odds"
        yield at_test(ctx, self.finding(ctx, variant, evidence=evidence, fix=fix))


def homogeneity_chi2(table: np.ndarray) -> tuple[float, int]:
    """Pearson's chi-square statistic of homogeneity of a table of counts (no positive margin zero), and its dof.

    ``sum (O - E) ** 2 / E`` over the cells, with ``E`` the row total times the column total
    over the grand total (the counts expected were every row drawn from the same
    proportions); ``(rows - 1) (columns - 1)`` degrees of freedom. scipy's
    ``chi2_contingency(table, correction=False)`` gives the same.
    """
    expected = table.sum(axis=1, keepdims=True) * table.sum(axis=0, keepdims=True) / table.sum()
    statistic = float(((table - expected) ** 2 / expected).sum())
    return statistic, (table.shape[0] - 1) * (table.shape[1] - 1)
