"""NB5xx: pipeline configs -- how the steps of a pipeline feed its Naive Bayes model.

These rules derive from :class:`PipelineRule` (``inputs = ("pipeline",)``): they
get a :class:`nblint.pipelines.PipelineContext` (the pipeline's steps, its final
Naive Bayes estimator, and the kinds of values reaching it) and report at the
line of the offending class or parameter.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import replace
from typing import TYPE_CHECKING

from nblint.engine import Finding, Rule, Severity

#: What every rule of this family reads (keys of nblint.engine.rule.INPUTS): the engine imports the family's
#: modules only for a run that offers one of them (nblint.engine.registry.family_reads).
INPUTS = ("pipeline", "live")

if TYPE_CHECKING:
    from nblint.pipelines.spec import Step

# The pipeline machinery (nblint.pipelines: its flows, calls and catalogue) is imported where a rule
# runs on a pipeline, not when the pack is loaded: a table's check loads every pack and runs none of these.

JSON_SCALARS = (str, int, float, bool, type(None))

ORDINAL_FIX = (
    "Encode the column with OrdinalEncoder and use CategoricalNB: one categorical distribution per "
    "variable (plan for unseen categories, see NB506)."
)


def inputs(step: Step) -> str:
    """``column 'a'``, ``columns 'a', 'b'`` where the config says which columns the step sees, else ``its input``."""
    if not step.columns:
        return "its input"
    noun = "column" if len(step.columns) == 1 else "columns"
    return f"{noun} {', '.join(map(repr, step.columns))}"


def step_evidence(step: Step, estimator: Step, **extra) -> dict:
    """The evidence of a finding about ``step`` feeding ``estimator``: the classes and their lines.

    With the words a message names them by: ``step_label`` and ``model_label`` (``OneHotEncoder (line 7)``,
    :meth:`~nblint.pipelines.spec.Step.label`) and ``inputs``, what the step reads (:func:`inputs`).
    """
    return {
        "step": step.cls,
        "step_line": step.line,
        "model": estimator.cls,
        "model_line": estimator.line,
        "step_label": step.label(),
        "model_label": estimator.label(),
        "inputs": inputs(step),
        **extra,
    }


def undecided(finding: Finding, where: str) -> Finding:
    """``finding`` about a step or model that ``where`` (a helper call) returns on a branch its arguments do not
    decide: at most ``info``, and said so (a possibility, not what the code certainly does)."""
    from nblint.pipelines.flow import undecided_message

    if "undecided_branch" in finding.evidence:  # the model and the step came from the same branch
        return finding
    return replace(
        finding,
        severity=Severity.INFO,
        message=undecided_message(finding.message, where),
        variant=f"{finding.variant}+undecided" if finding.variant else "",
        evidence={**finding.evidence, "undecided_branch": where},
    )


def literal(value):
    """A parameter value for evidence: JSON values as they are, anything else (an expression) as its text."""
    if isinstance(value, list):
        return [literal(v) for v in value]
    if isinstance(value, dict):
        return {str(k): literal(v) for k, v in value.items()}
    return value if isinstance(value, JSON_SCALARS) else str(value)


class PipelineRule(Rule):
    """Base of the NB5xx rules: runs :meth:`check_model` on pipelines ending in one of ``models``.

    Subclasses set ``models`` (nblint model names; empty means every Naive Bayes
    model: the engine gates on them, :attr:`Rule.models`) and implement :meth:`check_model`.
    """

    inputs = ("pipeline",)

    def check(self, ctx) -> Iterable[Finding]:
        from nblint.pipelines.flow import UNDECIDED_BRANCH

        if ctx.estimator is None:
            return
        # A model returned on a branch of a helper that the call does not decide may not be the model the
        # call gives: what is said about it is a possibility, so at most info.
        where = ctx.estimator.value(UNDECIDED_BRANCH)
        for finding in self.check_model(ctx, ctx.estimator):
            yield undecided(finding, where) if where else finding

    def check_model(self, ctx, estimator: Step) -> Iterable[Finding]:  # pragma: no cover - abstract
        raise NotImplementedError

    @staticmethod
    def origins(ctx, *kinds: str) -> Iterator[Step]:
        """The steps that last decided the values reaching the model, on the routes whose values are of ``kinds``.

        A categorical encoding kept through per-column scalers counts too (one-hot
        bits standardised are still one variable split into bits).
        """
        seen = set()
        for flow in ctx.flows:
            for candidate in (flow, flow.encoded):
                if candidate is not None and candidate.kind in kinds and id(candidate.origin) not in seen:
                    seen.add(id(candidate.origin))
                    yield candidate.origin

    def step_finding(
        self,
        ctx,
        step: Step,
        variant: str,
        *,
        fix: str,
        line: int | None = None,
        severity: Severity | None = None,
        **evidence,
    ) -> Finding:
        """A finding about ``step`` feeding the model: its columns, at ``line`` (default: the step's).

        Its message is the ``variant``'s template over :func:`step_evidence` (the step's and the
        model's labels, what the step reads) and ``evidence``.

        A step returned on a branch of a helper that the call does not decide is at most ``info``.
        """
        from nblint.pipelines.flow import UNDECIDED_BRANCH

        found = self.finding(
            ctx,
            variant,
            columns=step.columns or (),
            line=line or step.line,
            severity=severity,
            evidence=step_evidence(step, ctx.estimator, **evidence),
            fix=fix,
        )
        where = step.value(UNDECIDED_BRANCH) or ctx.estimator.value(UNDECIDED_BRANCH)
        return undecided(found, where) if where else found
