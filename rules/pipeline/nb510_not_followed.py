from __future__ import annotations

from typing import TYPE_CHECKING

from nblint.engine import Severity

if TYPE_CHECKING:
    from nblint.pipelines.context import PipelineContext

from . import PipelineRule


class NotFollowed(PipelineRule):
    """Part of a pipeline's source cannot be followed, so its checks are incomplete (said, not guessed).

    ## What it does
    Reports, at severity info, what nblint could not read where a pipeline is
    built or fed, so that a quiet run is not mistaken for a clean one:

    - a Python 2 source or notebook cell (``print x``, ``except E, e:``): its
      Python 2 statements (``print``, ``exec``, the old ``except``/``raise``
      forms) are set aside line for line and the rest is read as Python 3, which
      this says; a source still refused after that is not checked at all;
    - notebook cells that are not Python 3 (a half-written cell): the other
      cells are read, these are not;
    - code nested deeper than nblint reads (100 syntax levels: a cell spelling
      out an image as ``[0]*52 + [67] + ...`` over hundreds of terms), read down
      to that depth; and a source or cell that Python's own parser refuses as
      nested too deeply, not read at all (valid code, so not an error);
    - a scikit-learn name (``MultinomialNB``, ``OneHotEncoder``...) used but not
      imported from scikit-learn, in a source that star-imports a module of its
      own project (``from utils import *``) or ``%run``s a script: the name
      may come from there, and nblint does not read other files;
    - in YAML, JSON and TOML configs and nblint specs, a step given as an
      interpolation (``${preprocessor}``) that decides what reaches a Naive
      Bayes model: its value lives elsewhere.

    ## Why is this bad?
    A linter that silently skips what it cannot read reports nothing, which looks
    exactly like "no problem". The NB5xx rules follow names, loops, functions and
    data through a source; where that chain breaks, a one-hot encoder or
    ``alpha=0`` on the other side would go unseen. Saying so tells you where to
    look, or what to make explicit, instead of nblint guessing what the code
    means.

    ## Severity
    Always ``info``: it says what nblint could not follow, not what is wrong.

    ## Example
    ```python
    from sklearn.model_selection import cross_val_score
    from features import *

    model = BernoulliNB(alpha=0)
    scores = cross_val_score(model, X, y)
    ```

    ## Use instead
    ```python
    from sklearn.model_selection import cross_val_score
    from sklearn.naive_bayes import BernoulliNB
    from features import X, y

    model = BernoulliNB()
    scores = cross_val_score(model, X, y)
    ```
    """

    code = "NB510"
    status = "stable"
    since = "0.1.0"
    name = "not-followed"
    severity = Severity.INFO
    messages = {
        "note": "{not_followed}",
        "interpolation": "step {step_name!r} of the pipeline is the interpolation {step}, which nblint does not "
        "resolve: what it gives {model_label} is not checked",
    }

    def check(self, ctx: PipelineContext):
        from nblint.pipelines.flow import OPAQUE

        for note in ctx.spec.notes:
            yield self.finding(
                ctx,
                "note",
                line=note.line,
                evidence={"not_followed": note.message},
                fix="Make the pipeline explicit in this file (Python 3, scikit-learn names imported "
                "from scikit-learn), or check the part nblint cannot read by hand.",
            )
        if ctx.estimator is None:
            return
        for flow in ctx.flows:
            step = flow.origin
            if flow.kind == OPAQUE and step is not None and not step.known and "${" in step.target:
                yield self.finding(
                    ctx,
                    "interpolation",
                    line=step.line,
                    columns=step.columns or (),
                    evidence={
                        "step": step.target,
                        "model": ctx.estimator.cls,
                        "model_line": ctx.estimator.line,
                        "step_name": step.name or step.cls,
                        "model_label": ctx.estimator.label(),
                    },
                    fix="Check the config the interpolation resolves to as well (nblint reads each "
                    "file it is given), or write the step out here.",
                )
