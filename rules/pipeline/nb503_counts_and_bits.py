from nblint.engine import Severity

from . import PipelineRule

#: The steps that count terms besides the vectorizers (nblint.pipelines.catalog's VECTORIZERS).
COUNTING_TRANSFORMERS = frozenset({"TfidfTransformer"})


class CountsAndBitsMismatch(PipelineRule):
    """Counts fed to BernoulliNB, or presence bits fed to MultinomialNB/ComplementNB where counts were meant.

    ## What it does
    Reports a text vectorizer (``CountVectorizer``, ``TfidfVectorizer``,
    ``HashingVectorizer``, ``FeatureHasher``, ``TfidfTransformer``) producing
    counts or weights for BernoulliNB when BernoulliNB's ``binarize`` is left at
    its default or set to None (at the vectorizer's line, or at ``binarize=None``).
    It also reports, at severity info, a vectorizer with ``binary=True`` feeding
    MultinomialNB or ComplementNB (at the ``binary`` line), and, as an error, a
    ``binarize`` threshold outside the range of what reaches BernoulliNB (at the
    ``binarize`` line): a threshold at or above the most a step can produce
    (tf-idf with ``norm='l2'`` or ``'l1'``, ``Normalizer`` and ``MaxAbsScaler``
    give at most 1, ``MinMaxScaler`` at most the top of its ``feature_range``,
    bits from ``Binarizer``, ``OneHotEncoder`` or ``binary=True`` are 0 or 1), or
    below the least it can produce.

    ## Why is this bad?
    BernoulliNB models presence and absence: by default it turns its input into
    bits with a threshold of 0.0, so a word seen ten times and a word seen once
    both become 1 and the counts the vectorizer computed are thrown away without a
    word. With ``binarize=None`` it trusts the input to be 0/1 already; counts above
    1 are then added up as if they were bits and the per-class probabilities can
    exceed 1. BernoulliNB sets a feature to 1 where the value is above ``binarize``:
    with a threshold of 1.0 after tf-idf (whose weights are at most 1) every feature
    of every document becomes 0, and the model learns nothing but the class priors.
    The opposite mistake is ``binary=True`` in front of MultinomialNB or
    ComplementNB: those models are built on how often each term occurs, and
    binary=True removes exactly that (sometimes done on purpose; suppress it then).

    ## Severity
    A warning for ``binarize=None`` on counts or weights: values above 1 are read as
    bits. ``info`` for counts binarised at BernoulliNB's default threshold, which is the
    multivariate Bernoulli model of word presence (a model choice: the counts are not
    used), and for ``binary=True`` into a count model, which can be deliberate too.
    An error for a threshold outside the input's range: every feature binarises to
    the same value on every row, certainly.

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
    #: "every non-zero value becomes 1", "probabilities can exceed 1", "binarises to 0", "binarize=0.0": the
    #: values of a bit and BernoulliNB's default threshold, not measurements.
    message_constants = frozenset({0.0, 1.0})
    messages = {
        "binary": "{step_label} has binary=True, so {model_label} sees only whether each term occurs in {inputs}, not "
        "how often: the term frequencies this model is built on are thrown away",
        "taken_as_bits": "{model_label} has binarize=None (input taken to be 0/1 already) but {step_label} produces "
        "{produces} from {inputs}: values above 1 are added up as if they were bits and the per-class probabilities "
        "can exceed 1",
        "presence": "{step_label} produces {produces} from {inputs} for {model_label}, which reads them as presence "
        "at its default binarize=0.0 (the multivariate Bernoulli model): every non-zero value becomes 1 and how "
        "large the {produces} are is not used",
        "all_zero": "{model_label} has binarize={binarize:g}, but every value {step_label} produces from {inputs} is "
        "at most {value_range[1]:g}: each of those features binarises to 0 on every row, so the model learns nothing "
        "from them",
        "all_one": "{model_label} has binarize={binarize:g}, but every value {step_label} produces from {inputs} is "
        "at least {value_range[0]:g}: each of those features binarises to 1 on every row, so the model learns nothing "
        "from them",
    }
    models = frozenset({"bernoulli", "multinomial", "complement"})

    def check_model(self, ctx, estimator):
        from nblint.pipelines.catalog import VECTORIZERS
        from nblint.pipelines.flow import BINARY, COUNTS, WEIGHTS

        counting_steps = VECTORIZERS | COUNTING_TRANSFORMERS
        if ctx.model == "bernoulli":
            yield from self._threshold_out_of_range(ctx, estimator)
            for kind in (COUNTS, WEIGHTS):
                for step in self.origins(ctx, kind):
                    if step.cls in counting_steps:
                        yield from self._counts_into_bernoulli(
                            ctx, step, "counts" if kind == COUNTS else "weights", estimator
                        )
            return
        for step in self.origins(ctx, BINARY):
            if step.cls in counting_steps:
                yield self.step_finding(
                    ctx,
                    step,
                    "binary",
                    line=step.line_of("binary"),
                    severity=Severity.INFO,
                    binary=True,
                    fix="Drop binary=True to give the model counts, or use BernoulliNB for presence bits.",
                )

    def _counts_into_bernoulli(self, ctx, step, what, estimator):
        if "binarize" in estimator.params and estimator.value("binarize") is None:
            variant = "taken_as_bits"
            line = estimator.line_of("binarize")
            severity = Severity.WARNING
        elif "binarize" not in estimator.params:
            # Binarising at 0 is the multivariate Bernoulli model of word presence (McCallum & Nigam,
            # 1998): a model choice, said once, not a defect.
            variant = "presence"
            line = step.line
            severity = Severity.INFO
        else:  # an explicit threshold is a decision
            return
        yield self.step_finding(
            ctx,
            step,
            variant,
            line=line,
            severity=severity,
            produces=what,
            binarize=estimator.value("binarize", 0.0),
            fix=f"Set binary=True on {step.cls} for BernoulliNB, or use MultinomialNB to keep the {what}.",
        )

    def _threshold_out_of_range(self, ctx, estimator):
        """``BernoulliNB(binarize=t)`` after a step whose values all lie on one side of ``t``."""
        from nblint.pipelines.pyvalues import is_number

        threshold = estimator.value("binarize", 0.0)
        if not is_number(threshold):
            return
        seen = set()
        for flow in ctx.flows:
            step = flow.origin
            bounds = _value_range(flow.kind, step)
            if bounds is None or id(step) in seen:
                continue
            seen.add(id(step))
            low, high = bounds
            if low <= threshold < high:
                continue
            yield self.step_finding(
                ctx,
                step,
                "all_zero" if threshold >= high else "all_one",
                line=estimator.line_of("binarize"),
                severity=Severity.ERROR,
                binarize=threshold,
                value_range=[low, high],
                fix=(
                    f"Set binarize between {low:g} and {high:g} (0.0 keeps presence of non-negative values), "
                    "or binarize=None for input that is 0/1 already."
                ),
            )


#: Steps whose every output value lies in [0, 1] (unit-norm rows, scaled by the largest absolute value).
UNIT_RANGE = frozenset({"Normalizer", "MaxAbsScaler"})


def _value_range(kind: str, step) -> tuple[float, float] | None:
    """The least and the most a step can produce on this route, where its parameters say; else None.

    Bits (one-hot, drop-first, 0/1 presence) are 0 or 1; tf-idf normalised by ``norm='l2'`` or
    ``'l1'`` (the default) lies in [0, 1]; ``MinMaxScaler`` in its ``feature_range`` (on the data
    it was fitted on); ``Normalizer`` and ``MaxAbsScaler`` of non-negative input in [0, 1].
    """
    from nblint.pipelines.flow import BINARY, DUMMY, NONNEG, ONEHOT, WEIGHTS
    from nblint.pipelines.pyvalues import is_number

    if step is None:
        return None
    if kind in (ONEHOT, DUMMY, BINARY):
        return 0.0, 1.0
    if kind == WEIGHTS and step.cls in ("TfidfVectorizer", "TfidfTransformer"):
        return (0.0, 1.0) if step.value("norm", "l2") in ("l2", "l1") else None
    if kind in (WEIGHTS, NONNEG) and step.cls in UNIT_RANGE:
        return 0.0, 1.0
    if kind == NONNEG and step.cls == "MinMaxScaler":
        written = step.value("feature_range", (0, 1))
        if isinstance(written, (list, tuple)) and len(written) == 2 and all(is_number(end) for end in written):
            low, high = float(written[0]), float(written[1])
            if low < high:
                return low, high
    return None
