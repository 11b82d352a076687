from __future__ import annotations

from nblint.engine import Option, Severity

from . import TestTableRule, at_test, share


class UnseenWords(TestTableRule):
    """Tokens of the test documents that are outside the training vocabulary.

    ## What it does
    With a text column (``--text``), tokenises the test documents as the training ones were
    and counts the tokens the training vocabulary lacks, overall and per class where the
    test table has the target. Fires when their share is above ``max-unseen-share``.
    A pipeline's test documents are counted through its fitted vectorizer the same way, and
    a test matrix with a vocabulary of its own (``nblint.check(..., test_feature_names=)``)
    by its words outside the training vocabulary. A matrix made by the training
    vectorizer has no such word by construction (the vectorizer dropped them): the rule is
    then quiet.

    ## Why is this bad?
    A vectorizer fitted on the training documents drops every token it never saw: the model
    reads the test documents through the training vocabulary only. When a large share of
    the test tokens is dropped, the documents are decided on what is left, and a class
    whose documents lose more is predicted on less evidence (its rows drift to the prior).
    A serving corpus that moved to new words (a new product, a new language) looks like
    this.

    ## Severity
    A warning: the documents carry less evidence than the training ones did; the model
    still predicts.

    ## Example
    ```
    # train.csv                  # test.csv
    text,y                       text,y
    "cheap pills now",spam       "crypto airdrop claim",spam   # no token seen in training
    ```

    ## Use instead
    Retrain on documents from the period or source the model serves, or add subword
    features (``analyzer='char_wb'``) that carry over to new words.
    """

    code = "NB606"
    status = "stable"
    since = "0.1.0"
    name = "unseen-words"
    severity = Severity.WARNING
    options = (
        Option(
            "max-unseen-share",
            0.3,
            "The share of the test tokens outside the training vocabulary above which the rule fires.",
            minimum=0.0,
            maximum=1.0,
        ),
    )
    _UNSEEN = "{unseen} of {tokens} test tokens ({share:.0%}) are outside the training vocabulary"
    messages = {
        "unseen": _UNSEEN + ": the model drops them",
        "unseen_in_class": _UNSEEN + "; in class {worst[class]!r}, {worst[share]:.0%}: the model drops them",
    }

    def check(self, ctx):
        test = ctx.test
        if test is None or test.tokens is None:
            return
        tokens, unseen = int(test.tokens.sum()), int(test.unseen_tokens.sum())
        overall = share(unseen, tokens)
        per_class = [
            {"class": label, "tokens": int(t), "unseen": int(u), "share": share(int(u), int(t))}
            for label, t, u in zip(test.classes, test.tokens.tolist(), test.unseen_tokens.tolist())
            if t
        ]
        limit = self.option_values["max-unseen-share"]
        worst = max(per_class, key=lambda item: (item["share"], item["class"]), default=None)
        if not (overall > limit or (worst is not None and worst["share"] > limit)):
            return
        evidence = {"tokens": tokens, "unseen": unseen, "share": overall, "classes": per_class, "limit": limit}
        variant = "unseen"
        if worst is not None and test.has_target:
            variant, evidence["worst"] = "unseen_in_class", worst
        fix = "Retrain on documents like those the model serves, or add features that carry over to new words."
        yield at_test(ctx, self.finding(ctx, variant, evidence=evidence, fix=fix))
