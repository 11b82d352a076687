from nblint.engine import SUMMARIZE_ABOVE, Option, Rule, Severity

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

    A column of a document-term block (NB209's ``term-block``) is a word: it is rare when
    it occurs (is non-zero) in fewer than ``min-count`` rows, whatever its counts; on a
    wide table the rare words are one finding with their share of the vocabulary.

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
    options = (Option("min-count", 5, "Levels on fewer rows than this are rare.", minimum=0), SUMMARIZE_ABOVE)

    def check(self, ctx):
        kinds = ("binary", "group-member", "categorical") + (("count",) if ctx.model == "categorical" else ())
        minimum = self.settings["min-count"]
        terms = ctx.term_columns
        for column in ctx.features_of_kind(*kinds, "count", "continuous"):
            if column in terms:
                occurs = ctx.term_supports.get(column, minimum)
                if 0 < occurs < minimum:
                    yield self.finding(
                        ctx,
                        f"term {column!r} occurs in {occurs} rows only (fewer than {minimum})",
                        columns=[column],
                        evidence={"rows": occurs, "min_count": minimum, "term": True},
                        fix="Drop words seen in few documents (CountVectorizer(min_df=...)), or collect more documents.",
                    )
                continue
            if ctx.kinds[column].kind not in kinds:
                continue
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

    def reason(self, finding):
        return (finding.severity, bool(finding.evidence.get("term")))

    def summary_message(self, ctx, findings, share):
        minimum = self.settings["min-count"]
        if findings[0].evidence.get("term"):
            vocabulary = len(ctx.term_columns)
            return (
                f"{len(findings):,} of {vocabulary:,} terms ({len(findings) / vocabulary:.0%} of the vocabulary) occur in "
                f"fewer than {minimum} rows (documents): their per-class estimates rest on a handful of documents "
                "(consider min_df)"
            )
        return (
            f"{len(findings):,} columns ({share:.0%} of the features) have levels seen on fewer than {minimum} rows; "
            f"the first: {findings[0].message}"
        )
