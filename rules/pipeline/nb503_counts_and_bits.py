from nblint.engine import Severity
from nblint.pipelines.catalog import VECTORIZERS
from nblint.pipelines.flow import BINARY, COUNTS, WEIGHTS

from . import PipelineRule, inputs

COUNTING_STEPS = VECTORIZERS | {"TfidfTransformer"}


class CountsAndBitsMismatch(PipelineRule):
    """Counts fed to BernoulliNB, or presence bits fed to MultinomialNB/ComplementNB where counts were meant.

    ## What it does
    Reports a text vectorizer (``CountVectorizer``, ``TfidfVectorizer``,
    ``HashingVectorizer``, ``FeatureHasher``, ``TfidfTransformer``) producing
    counts or weights for BernoulliNB when BernoulliNB's ``binarize`` is left at
    its default or set to None (at the vectorizer's line, or at ``binarize=None``).
    It also reports, at severity info, a vectorizer with ``binary=True`` feeding
    MultinomialNB or ComplementNB (at the ``binary`` line).

    ## Why is this bad?
    BernoulliNB models presence and absence: by default it turns its input into
    bits with a threshold of 0.0, so a word seen ten times and a word seen once
    both become 1 and the counts the vectorizer computed are thrown away without a
    word. With ``binarize=None`` it trusts the input to be 0/1 already; counts above
    1 are then added up as if they were bits and the per-class probabilities can
    exceed 1. The opposite mistake is ``binary=True`` in front of MultinomialNB or
    ComplementNB: those models are built on how often each term occurs, and
    binary=True removes exactly that (sometimes done on purpose; suppress it then).

    ## Severity
    A warning for ``binarize=None`` on counts or weights: values above 1 are read as
    bits. ``info`` for counts binarised at BernoulliNB's default threshold, which is the
    multivariate Bernoulli model of word presence (a model choice: the counts are not
    used), and for ``binary=True`` into a count model, which can be deliberate too.

    ## Example
    ```python
    from sklearn.feature_extraction.text import CountVectorizer
    from sklearn.naive_bayes import BernoulliNB
    from sklearn.pipeline import make_pipeline

    model = make_pipeline(CountVectorizer(), BernoulliNB())
    ```

    ## Use instead
    ```python
    from sklearn.feature_extraction.text import CountVectorizer
    from sklearn.naive_bayes import BernoulliNB, MultinomialNB
    from sklearn.pipeline import make_pipeline

    model = make_pipeline(CountVectorizer(binary=True), BernoulliNB())
    # or keep the counts for the model built on them:
    model = make_pipeline(CountVectorizer(), MultinomialNB())
    ```
    """

    code = "NB503"
    status = "stable"
    since = "0.1.0"
    name = "counts-bits-mismatch"
    severity = Severity.WARNING
    #: "every non-zero value becomes 1", "probabilities can exceed 1": the value of a bit, not a measurement.
    message_constants = frozenset({1.0})
    models = frozenset({"bernoulli", "multinomial", "complement"})

    def check_model(self, ctx, estimator):
        if ctx.model == "bernoulli":
            for kind in (COUNTS, WEIGHTS):
                for step in self.origins(ctx, kind):
                    if step.cls in COUNTING_STEPS:
                        yield from self._counts_into_bernoulli(
                            ctx, step, "counts" if kind == COUNTS else "weights", estimator
                        )
            return
        for step in self.origins(ctx, BINARY):
            if step.cls in COUNTING_STEPS:
                message = (
                    f"{step.label()} has binary=True, so {estimator.label()} sees only whether each term occurs in "
                    f"{inputs(step)}, not how often: the term frequencies this model is built on are thrown away"
                )
                yield self.step_finding(
                    ctx,
                    step,
                    message,
                    line=step.line_of("binary"),
                    severity=Severity.INFO,
                    binary=True,
                    fix="Drop binary=True to give the model counts, or use BernoulliNB for presence bits.",
                )

    def _counts_into_bernoulli(self, ctx, step, what, estimator):
        if "binarize" in estimator.params and estimator.value("binarize") is None:
            message = (
                f"{estimator.label()} has binarize=None (input taken to be 0/1 already) but {step.label()} "
                f"produces {what} from {inputs(step)}: values above 1 are added up as if they were bits and the "
                "per-class probabilities can exceed 1"
            )
            line = estimator.line_of("binarize")
            severity = Severity.WARNING
        elif "binarize" not in estimator.params:
            # Binarising at 0 is the multivariate Bernoulli model of word presence (McCallum & Nigam,
            # 1998): a model choice, said once, not a defect.
            message = (
                f"{step.label()} produces {what} from {inputs(step)} for {estimator.label()}, which reads them as "
                "presence at its default binarize=0.0 (the multivariate Bernoulli model): every non-zero value "
                f"becomes 1 and how large the {what} are is not used"
            )
            line = step.line
            severity = Severity.INFO
        else:  # an explicit threshold is a decision
            return
        yield self.step_finding(
            ctx,
            step,
            message,
            line=line,
            severity=severity,
            produces=what,
            binarize=estimator.value("binarize", 0.0),
            fix=f"Set binary=True on {step.cls} for BernoulliNB, or use MultinomialNB to keep the {what}.",
        )
