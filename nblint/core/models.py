"""The Naive Bayes vocabulary: the event models, their scikit-learn classes, and every spelling of them.

The CLI, the configuration, the nblint spec, the API, the pandera checks and the
rules name a model through these: ``bernoulli``, ``BernoulliNB`` and
``sklearn.naive_bayes.BernoulliNB`` mean the same model everywhere.
"""

from __future__ import annotations

MODELS = ("bernoulli", "multinomial", "complement", "gaussian", "categorical")
#: The column kinds a user may declare (``[tool.nblint.columns]``, the API's ``kinds=``, pandera): they win over inference.
DECLARABLE_KINDS = ("binary", "categorical", "count", "continuous", "identifier", "constant")
#: The scikit-learn class of each event model: a model may be named either way, everywhere.
MODEL_CLASSES = {
    "bernoulli": "BernoulliNB",
    "multinomial": "MultinomialNB",
    "complement": "ComplementNB",
    "gaussian": "GaussianNB",
    "categorical": "CategoricalNB",
}


def parse_model(name: str) -> str | None:
    """The event model a name means, or None.

    ``bernoulli``, ``BernoulliNB`` and ``sklearn.naive_bayes.BernoulliNB`` (in
    any case) all mean ``bernoulli``: the CLI, the configuration, the nblint
    spec, the API and the pandera checks accept every spelling.
    """
    text = name.strip()
    if "." in text:  # a dotted class path names the class
        cls = text.rsplit(".", 1)[-1].lower()
        return next((model for model, c in MODEL_CLASSES.items() if c.lower() == cls), None)
    text = text.lower()
    return next((model for model, c in MODEL_CLASSES.items() if text in (model, c.lower())), None)


def model_choices() -> str:
    """The accepted model names, for error messages and help."""
    return f"{', '.join(MODELS)} (or the class: {', '.join(MODEL_CLASSES.values())})"
