from __future__ import annotations

from typing import TYPE_CHECKING

from nblint.engine import Rule, Severity

if TYPE_CHECKING:
    from nblint.pipelines.context import LiveContext


class UnfittedTableUnseen(Rule):
    """The table rules did not run: the pipeline is not fitted, so what its model would receive is unknown.

    ## What it does
    ``nblint.check_pipeline(pipe, X, y)`` lints the table the final estimator
    receives: ``X`` transformed by every step before it (``transform`` only, never
    ``fit``). When those steps are not fitted yet, nblint cannot know that table
    (an encoder's columns come from the categories it sees when fitted), so the
    table rules (NB1xx-NB4xx) do not run, and this rule says so, naming the steps
    that would change ``X``. The pipeline rules (NB5xx) still run. A pipeline whose
    steps do not change ``X`` (a Naive Bayes model alone, or only ``passthrough``
    steps) needs no fitting: its ``X`` is linted as given.

    ## Why is this bad?
    Linting the raw ``X`` instead would report on columns the model never sees:
    a ``channel`` column of codes is not "count, not binary" for a BernoulliNB
    that receives it one-hot encoded; the one-hot group the encoder writes is
    what the model reads (NB101, NB307). A silent pass would read as "the table
    is fine", when it was not checked.

    ## Severity
    Always ``info``: it says what the table rules could not see, not what is wrong.

    ## Example
    ```python
    pipe = make_pipeline(OneHotEncoder(), BernoulliNB())
    nblint.check_pipeline(pipe, X, y)          # not fitted: NB5xx findings and this note
    ```

    ## Use instead
    ```python
    pipe.fit(X, y)
    nblint.check_pipeline(pipe, X, y)          # lints what BernoulliNB receives
    ```
    """

    code = "NB511"
    status = "stable"
    since = "0.1.0"
    name = "unfitted-table-unseen"
    severity = Severity.INFO
    inputs = ("live",)
    messages = {
        "unfitted": "the pipeline is not fitted, so nblint cannot transform X ({columns_in} columns) through "
        "{changing:joined} as {model} would receive it: the table rules (NB1xx-NB4xx) did not run on it",
    }

    def check(self, ctx: LiveContext):
        estimator = ctx.spec.estimator if ctx.spec is not None else None
        model = estimator.cls if estimator is not None else "the final estimator"
        fix = "Fit the pipeline first, then call check_pipeline(pipe, X, y) to lint what the model receives."
        yield self.finding(
            ctx,
            "unfitted",
            evidence={
                "steps": ctx.steps,
                "model": model,
                "columns_in": ctx.n_columns,
                "fitted": False,
                "changing": list(dict.fromkeys(ctx.steps)),  # (each step once, as the message names them)
            },
            fix=fix,
        )
