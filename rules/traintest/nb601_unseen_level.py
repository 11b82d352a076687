from __future__ import annotations

from nblint.engine import SUMMARIZE_ABOVE, Severity

from ..counts import fmt_value
from . import TestTableRule, at_test, share

_UNSEEN = (
    "{levels} level(s) never seen in training ({shown:level}MORE) on {rows} of {test_rows} test rows ({share:.0%})"
)
#: What the test table's column is (a column, or a group read as its variable), and what the unseen levels do.
_WHAT = {"column": "column {variable!r}: ", "group": "group {variable!r} ({columns:joined}): "}
_CONSEQUENCES = {
    "": "",
    "_encoder": "; {encoder} raises on them (handle_unknown='error')",
    "_uncoded": "; CategoricalNB has no category for them (no min_categories): its encoder raises or predict fails "
    "unless unknown levels are mapped onto a reserved code",
    "_fails": "; CategoricalNB.predict fails on code {past_code:level}, past the largest training code "
    "{largest_training_code:level}",
}
_MESSAGES = {
    f"{what}{more}{consequence}": start + _UNSEEN.replace("MORE", " ..." if more else "") + text
    for what, start in _WHAT.items()
    for more in ("", "_more")
    for consequence, text in _CONSEQUENCES.items()
}


class UnseenLevel(TestTableRule):
    """A level of a discrete column in the test table that the training table never had.

    ## What it does
    For every discrete feature (categorical codes or labels, 0/1 columns, counts), lists the
    values of the test table that no training row has, with the test rows they touch. One
    finding per column, with the share of the test rows; the first test rows are the
    finding's rows. A one-hot or dummy group (NB101, NB102) is read as the variable it
    encodes: a test row that sets no member of a one-hot group (what an encoder with
    ``handle_unknown='ignore'`` makes of a new category) or two members of a group is a level
    training never had, where no training row had it.

    ## Why is this bad?
    Naive Bayes estimates one probability per (level, class) it saw. A level it never saw has
    no estimate: scikit-learn's ``CategoricalNB`` indexes its tables by the code, and a code
    at or past a feature's ``n_categories_`` makes ``predict`` fail (``IndexError``) unless
    ``min_categories`` reserved room for it; a code inside that range, or a level an encoder
    maps to all zeros (``handle_unknown='ignore'``), is predicted from the smoothing alone,
    which is no evidence. An encoder that does not handle unknown levels
    (``OrdinalEncoder``/``OneHotEncoder`` with ``handle_unknown='error'``, the default) fails
    in ``transform`` instead.

    ## Severity
    An error where the pipeline certainly fails: the model is declared ``categorical`` and an
    unseen integer code lies past the largest code training saw and any ``min_categories``
    declared with it (``CategoricalNB.predict`` fails), or an unseen level is text and no
    ``min_categories`` is declared (an encoder must turn it into a code: ``OrdinalEncoder``
    raises on it, and any code past the training ones fails in predict; only mapping unknown
    levels onto a reserved code, which a followed pipeline would show, gets through), the column's encoder in the nblint spec
    naming the table raises on unknown levels (``handle_unknown='error'``), or a live
    pipeline's steps raised on the test rows (``check_pipeline(..., X_test=...)``). Otherwise a
    warning: what the level costs depends on the encoder and the smoothing.

    ## Example
    ```
    # train.csv          # test.csv
    colour,y             colour,y
    red,a                red,a
    blue,b               green,b    # green: never seen in training
    ```

    ## Use instead
    Reserve room for new levels (``CategoricalNB(min_categories=...)``, an encoder with
    ``handle_unknown='use_encoded_value'`` or ``'infrequent_if_exist'``), map rare and new
    levels to one "other" level before fitting, or retrain with rows that have the level.
    """

    code = "NB601"
    status = "stable"
    since = "0.1.0"
    name = "unseen-level"
    severity = Severity.WARNING
    options = (SUMMARIZE_ABOVE,)
    messages = {
        "transform_error": "the pipeline's steps fail on the test rows: {error}",
        **_MESSAGES,
        "summary": "{instances} columns ({share:.0%} of the features) have test levels never seen in training; "
        "the costliest: {examples[0][message]}",
    }

    def check(self, ctx):
        test = ctx.test
        if test is not None and test.transform_error is not None:
            evidence = {"error": test.transform_error}
            fix = "Let the encoder handle unknown levels (handle_unknown='ignore' or 'use_encoded_value')."
            yield at_test(
                ctx, self.finding(ctx, "transform_error", evidence=evidence, fix=fix, severity=Severity.ERROR)
            )
            return
        if test is None or not test.n_rows:
            return
        for column in sorted(test.levels):
            met = test.levels[column]
            levels = sorted(met.unseen.items(), key=lambda item: (-item[1], str(item[0])))
            # CategoricalNB's n_categories_ for the column: the largest training code + 1, or min_categories if larger
            room = test.min_categories if isinstance(test.min_categories, (int, float)) else None
            past = [
                value
                for value, _ in levels
                if isinstance(value, float)
                and met.train_max is not None
                and value > met.train_max
                and (room is None or value >= room)
                and not isinstance(test.min_categories, (list, tuple))  # (per feature: not followed)
            ]
            # A level that is not a code (text) must be encoded before CategoricalNB reads it; without
            # min_categories no encoder short of mapping unknown levels onto a reserved code (a plan
            # nblint would see in a followed pipeline) gets it through: OrdinalEncoder raises, and a
            # code past the training ones makes predict fail.
            named = [value for value, _ in levels if not isinstance(value, float) and not met.members]
            uncoded = (
                ctx.model == "categorical"
                and test.min_categories is None
                and bool(named)
                and column not in test.strict
                and column not in test.planned
            )
            encoder = test.strict.get(column)
            fails = (ctx.model == "categorical" and bool(past)) or uncoded or encoder is not None
            rows_share = share(met.rows, test.n_rows)
            if encoder is not None:
                consequence = "_encoder"
            elif uncoded and not past:
                consequence = "_uncoded"
            else:
                consequence = "_fails" if fails else ""
            variant = ("group" if met.members else "column") + ("_more" if len(levels) > 5 else "") + consequence
            evidence = {
                "levels": len(levels),
                "rows": met.rows,
                "test_rows": test.n_rows,
                "share": rows_share,
                "unseen": [{"value": fmt_value(value), "rows": rows} for value, rows in levels[:20]],
                "largest_training_code": met.train_max if fails and encoder is None else None,
                "encoder": encoder,
                "model": ctx.model,
                "variable": column,
                "shown": [fmt_value(value) for value, _ in levels[:5]],
            }
            if consequence == "_fails":
                evidence["past_code"] = past[0]
            fix = (
                "Reserve room for new levels (CategoricalNB(min_categories=...), an encoder with "
                "handle_unknown='use_encoded_value'), or map new levels to one 'other' level."
            )
            finding = self.finding(
                ctx,
                variant,
                columns=list(met.members) or [column],
                evidence=evidence,
                fix=fix,
                severity=Severity.ERROR if fails else Severity.WARNING,
            )
            yield at_test(ctx, finding)
