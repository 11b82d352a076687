from nblint.engine import Option, Rule, Severity

from . import fmt_value


class RareLevel(Rule):
    """Levels seen on fewer rows than ``min-count``: unstable estimates, unseen at prediction time.

    ## What it does
    Lists the levels of categorical features (text, integer codes, 0/1 flags, group
    members; counts too when the declared model is categorical) that occur on fewer
    than ``min-count`` rows.

    ## Why is this bad?
    A level seen on two rows gives per-class estimates from one or two observations:
    the smoothing constant, not the data, decides them. Rare levels are also the ones
    most likely to be missing from a training split, so CategoricalNB meets them as
    unknown categories at prediction time.

    ## Severity
    Always ``info``: a rare level makes its estimates unstable, which smoothing
    tempers.

    ## Example
    ```
    country,label
    FR,a
    FR,b
    LU,a      # one row
    ```

    ## Use instead
    Merge rare levels into an "other" level (OneHotEncoder/OrdinalEncoder
    ``min_frequency`` does this), or collect more data.
    """

    code = "NB203"
    name = "rare-level"
    severity = Severity.INFO
    needs_target = True
    options = (Option("min-count", 5, "Levels on fewer rows than this are rare.", minimum=0),)

    def check(self, ctx):
        kinds = ("binary", "group-member", "categorical") + (("count",) if ctx.model == "categorical" else ())
        minimum = self.settings["min-count"]
        for column in ctx.features_of_kind(*kinds):
            levels = ctx.profile.levels(column)
            if levels is None:
                continue
            rare = [(k, int(t)) for k, t in zip(levels.keys, levels.totals) if t < minimum]
            if not rare:
                continue
            listed = ", ".join(f"{fmt_value(k)} ({t} rows)" for k, t in rare[:5])
            more = f" and {len(rare) - 5} more" if len(rare) > 5 else ""
            message = f"column {column!r}: {len(rare)} of {len(levels.keys)} levels have fewer than {minimum} rows: {listed}{more}"
            evidence = {
                "rare_levels": {fmt_value(k): t for k, t in rare},
                "levels": len(levels.keys),
                "min_count": minimum,
            }
            fix = "Merge rare levels into an 'other' level (encoder min_frequency), or collect more rows."
            yield self.finding(ctx, message, columns=[column], evidence=evidence, fix=fix)
