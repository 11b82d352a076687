"""What pipeline rules may know about one pipeline: the spec, its final Naive Bayes model, the flows into it."""

from __future__ import annotations

from functools import cached_property

from nblint.pipelines.flow import Flow, flows_into
from nblint.pipelines.spec import PipelineSpec, Step


class PipelineContext:
    """The context :class:`~nblint.engine.Rule` subclasses with ``inputs = ("pipeline",)`` receive.

    Parameters
    ----------
    spec : PipelineSpec
    rule_options : dict
        Resolved options per rule code.
    """

    input = "pipeline"

    def __init__(self, spec: PipelineSpec, rule_options: dict | None = None):
        self.spec = spec
        self.rule_options = rule_options or {}

    @property
    def path(self) -> str:
        return self.spec.path

    @property
    def model(self) -> str | None:
        """``bernoulli``, ``multinomial``, ``complement``, ``gaussian``, ``categorical``, or None (not Naive Bayes)."""
        return self.spec.model

    @property
    def estimator(self) -> Step | None:
        """The final estimator when it is a Naive Bayes model, else None (the pipeline rules then have nothing to say)."""
        return self.spec.estimator if self.spec.model else None

    @cached_property
    def flows(self) -> list[Flow]:
        """The distinct kinds of values reaching the estimator, each with the step that produced them."""
        return flows_into(self.spec.preprocessing)


class LiveContext(PipelineContext):
    """A live pipeline given with its training data that nblint could not transform (``check_pipeline``).

    Rules with ``inputs = ("live",)`` receive it. ``steps`` names the steps that
    would change the table, ``n_columns`` is the width of the table as given.
    """

    input = "live"

    def __init__(self, spec: PipelineSpec, steps: list[str], n_columns: int, rule_options: dict | None = None):
        super().__init__(spec, rule_options)
        self.steps = steps
        self.n_columns = n_columns
