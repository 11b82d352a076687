import math

import numpy as np

from nblint.analysis.context import TableContext
from nblint.engine import SUMMARIZE_ABOVE, Rule, Severity

from . import fmt_value

#: The clauses of a message: the first flat class's values (one, or several too close to tell apart),
#: how many classes more are alike, the classes too small for a variance, and the leak the flat class is.
_FLAT = "in class {flat_label!r} "
_CLAUSES = {
    "flat": _FLAT + "every one of its {first_flat_class[rows]} values is {first_flat_class[value_shown]}",
    "spread": _FLAT + "its {first_flat_class[rows]} values take {first_flat_class[distinct]} distinct values from "
    "{first_flat_class[lowest_shown]} to {first_flat_class[highest_shown]}, too close together for their "
    "variance to be told from zero in double precision",
    "alike": " ({first_flat_class[more_classes_alike]} more classes alike)",
    "tiny": "{tiny_labels:choose(class,classes)} {tiny_labels:label} {tiny_labels:choose(has,have)} fewer than 2 "
    "values, so no variance can be estimated",
    "leak": "; the column decides the target on {decides_target_share:.2%} of rows (NB208): likely leakage",
}


def _variants() -> dict[str, str]:
    """Every sentence shape: a flat class (with or without more alike), small classes, or both; a leak or not."""
    shapes = [[f, *a] for f in ("flat", "spread") for a in ([], ["alike"])]
    shapes = [*shapes, *[[*s, "tiny"] for s in shapes], ["tiny"]]
    shapes += [[*s, "leak"] for s in shapes]
    templates = {}
    for shape in shapes:
        text = "".join(("; " if part == "tiny" and shape[0] != "tiny" else "") + _CLAUSES[part] for part in shape)
        templates["_".join(shape)] = "column {column!r}: " + text
    return templates


class ZeroClassVariance(Rule):
    """A numeric feature with no variance inside a class, or a class with fewer than 2 rows.

    ## What it does
    For features a Gaussian event model reads (continuous columns; every numeric
    feature when the declared model is Gaussian), finds classes in which the column
    takes a single value (or values closer than 1e-12 of the column's largest
    magnitude: rounding noise), and classes with fewer than two rows, where a
    variance cannot be estimated at all.

    ## Why is this bad?
    Gaussian NB divides by each class's variance. With a variance of zero the density
    is a spike: infinite at the one value and zero elsewhere, so a single feature
    vetoes or decides the class. scikit-learn adds ``var_smoothing`` times the largest
    feature variance to avoid dividing by zero, which hides the problem behind an
    arbitrary tiny variance.

    ## Severity
    A warning: GaussianNB adds ``var_smoothing`` to a zero variance, so the model does
    not fail, but its density for that class becomes a spike that decides the
    posterior.

    ## Example
    ```
    dose,label
    5.0,treated
    5.0,treated
    1.2,control
    3.4,control
    ```

    ## Use instead
    Treat the column as categorical (it is a fixed setting within the class), collect
    more rows for the class, or drop the column. Where the column also decides one side
    of the target beyond chance (NB208's one-sided reading: the flat class is beyond a
    cut, ``expenditure`` at 0 for every ``card = no`` row), the finding says so and its
    advice names the leak first: a column derived from the label is to be dropped, not
    re-encoded.
    """

    code = "NB205"
    status = "stable"
    since = "0.1.0"
    name = "zero-class-variance"
    models = frozenset({None, "gaussian"})
    severity = Severity.WARNING
    options = (SUMMARIZE_ABOVE,)
    needs_target = True
    messages = _variants()
    message_constants = frozenset({2})

    def check(self, ctx: TableContext):
        profile = ctx.profile
        n_classes = len(profile.classes)
        kinds = (
            ("continuous",) if ctx.model is None else ("continuous", "count", "binary", "group-member", "categorical")
        )
        # (with no model declared, the columns Gaussian NB reads, at once: a tf-idf or hashed weight is a
        # measurement that a text model reads, and a vocabulary has tens of thousands)
        for column in ctx.features_of_kind(*kinds, model=None if ctx.model else "gaussian"):
            if column in profile.text:
                continue
            record = ctx.column(column)
            n_c, m2 = record.class_n, record.class_m2
            # Flat relative to the column's own magnitude: values of 1e-20 spread over 1e-20
            # have a variance double precision holds (1e-40), and are not a spike.
            scale = float(np.nanmax(np.abs([record.minimum, record.maximum])))
            # (compared as standard deviations: the square of 1e-12 x 1.8e308 overflows a Python float)
            flat = [c for c in range(n_classes) if n_c[c] >= 2 and math.sqrt(m2[c] / n_c[c]) <= 1e-12 * scale]
            tiny = [c for c in range(n_classes) if 0 < n_c[c] < 2]
            if not flat and not tiny:
                continue
            evidence: dict = {
                "zero_variance_classes": [str(profile.classes[c]) for c in flat],
                "classes_with_fewer_than_2_rows": [str(profile.classes[c]) for c in tiny],
                "class_rows": {str(profile.classes[c]): int(n_c[c]) for c in range(n_classes)},
            }
            shape = []
            if flat:
                c = flat[0]
                spread, shown = _flat_values(record, c)
                evidence["first_flat_class"] = {
                    "class": str(profile.classes[c]),
                    **shown,
                    "more_classes_alike": len(flat) - 1,
                }
                evidence["flat_label"] = fmt_value(profile.classes[c])
                shape += ["spread" if spread else "flat"] + (["alike"] if len(flat) > 1 else [])
            if tiny:
                evidence["tiny_labels"] = [fmt_value(profile.classes[c]) for c in tiny]
                shape.append("tiny")
            fix = f"Treat {column!r} as categorical, collect more rows for these classes, or drop it."
            leak = ctx.deciding_columns.get(column)
            if leak is not None and leak.one_sided:
                # A class flat at one value of a column that decides one side of the target beyond chance
                # is the leak's other face: the advice that matters is whether the column may be used at
                # all (NB208). (A reading without its chance, on a few rows, is left to NB208 itself.)
                shape.append("leak")
                evidence["decides_target_share"] = leak.share
                fix = (
                    f"Check first whether {column!r} leaks {ctx.target!r} (NB208) and drop it if it is derived "
                    f"from or written after the label; only if it is a legitimate feature, treat it as categorical."
                )
            yield self.finding(ctx, "_".join(shape), columns=[column], evidence=evidence, fix=fix)


def _flat_values(record, c: int) -> tuple[bool, dict]:
    """What a flat class's values are, as evidence: one value, or several whose variance underflows (True).

    Values such as 1e-320 and 0 differ, but their squared deviations are below the
    smallest double: the variance computes as zero although no value repeats. The
    column's level table (when it has one) tells the two cases apart exactly.
    """
    n = int(record.class_n[c])
    levels = record.levels
    if levels is not None:
        present = [key for key, count in zip(levels.keys, levels.table[:, c]) if count]
        if len(present) > 1:
            low, high = float(min(present)), float(max(present))
            shown = {"lowest_shown": _short(low), "highest_shown": _short(high)}
            return True, {"rows": n, "distinct": len(present), "lowest": low, "highest": high, **shown}
        if present:
            return False, {"rows": n, "value": float(present[0]), "value_shown": _short(present[0])}
    value = float(record.class_mean[c])
    return False, {"rows": n, "value": value, "value_shown": f"{value:g}"}


def _short(value: float) -> str:
    """``value`` as a message shows it: in 6 significant digits, or its shortest exact form when that is shorter (1e-320, not 9.99989e-321)."""
    return min(f"{value:g}", repr(float(value)), key=len)
