"""What the final estimator of a live pipeline receives: ``X`` through every step but the last.

Fitted steps are applied with ``transform`` only, never ``fit``: a pipeline that is
not fitted yet cannot say what most steps would make of ``X`` (its encoders have not
seen the categories), and :func:`model_input` says so instead of guessing. Text
vectorizers are the exception. When ``X`` is raw documents and the steps before the
model are scikit-learn's text vectorizers (CountVectorizer, TfidfVectorizer,
HashingVectorizer, then TfidfTransformer, or pipelines of them), fitting is cheap and
deterministic and needs nothing but the documents, so the steps that are not fitted
are fitted here, as *clones* (the user's pipeline is never changed), and ``X`` is
what ``pipeline.fit(X, y)`` would hand the model. A meta-estimator (a search,
calibration, one-vs-rest: :data:`~nblint.pipelines.catalog.META_ESTIMATORS`, the
ones the static reading unwraps too) is read as the pipeline it wraps: a fitted copy
where it keeps one (a refitted search's ``best_estimator_``), else the estimator it
was given, fitted or not (see :func:`wrapped_pipeline`).
Column names come from the steps'
``get_feature_names_out`` where they have it; a HashingVectorizer keeps no
vocabulary, so its columns are named ``hash_<bucket>`` and the buckets no document
fills are left out (both said in :attr:`ModelInput.notes`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from nblint.pipelines import catalog

#: scikit-learn's vectorizers that read raw documents (they start a text chain).
TEXT_VECTORIZERS = frozenset({"CountVectorizer", "TfidfVectorizer", "HashingVectorizer"})
#: What may follow a vectorizer in a text chain: weights over the same columns.
TEXT_WEIGHTS = frozenset({"TfidfTransformer"})


@dataclass
class ModelInput:
    """``X`` as the final estimator sees it.

    Attributes
    ----------
    X : array, sparse matrix or frame
        The transformed table (``X`` itself when no step changes it).
    names : list of str or None
        Its column names, where the steps can tell them.
    steps : list of str
        Class names of the steps ``X`` went through (empty: it reaches the model as given).
    fitted : bool
        False when steps would change ``X`` but are not fitted: then ``X`` is the input as given.
    notes : list of str
        What was done to ``X`` that a finding should say (hash-bucket names, buckets left out).
    words : bool
        ``X`` is a text vectorizer's output: one document-term block, whatever its size.
    apply : callable or None
        The same steps, as fitted here, applied to other rows (a test table: ``apply(X_test)``
        has ``X``'s columns); None where ``X`` reaches the model as given.
    tokens : callable or None
        For a text chain whose vectorizer keeps a vocabulary: ``tokens(docs)`` gives, per
        document, its tokens and those outside the vocabulary (two int arrays).
    documents : list of str or None
        The raw documents, one per row of ``X``, where :attr:`recipe` says how they became words.
    recipe : nblint.readers.text.Recipe or None
        The vectorizer's steps, read from its parameters (:func:`vectorizer_recipe`).
    """

    X: Any
    names: list[str] | None
    steps: list[str]
    fitted: bool = True
    notes: list[str] = field(default_factory=list)
    words: bool = False
    apply: Any = None
    tokens: Any = None
    documents: list[str] | None = None
    recipe: Any = None


def model_input(obj: Any, X: Any) -> ModelInput:
    """Transform ``X`` through the steps of ``obj`` before its final estimator (see the module docstring)."""
    obj = wrapped_pipeline(obj)
    steps = getattr(obj, "steps", None)
    if not isinstance(steps, list) or len(steps) < 2:
        return ModelInput(X, None, [])  # an estimator on its own receives X as it is
    transformers = [step for _, step in steps[:-1] if _is_step(step)]
    names = [type(step).__name__ for step in transformers]
    if not transformers:
        return ModelInput(X, None, [])
    chain = _text_chain(transformers)
    if chain is not None and is_documents(X):
        return _vectorized(chain, X, names)
    if not all(_is_fitted(step) for step in transformers):
        return ModelInput(X, None, names, fitted=False)

    def apply(rows: Any) -> Any:
        for step in transformers:
            rows = step.transform(rows)
        return rows

    out = apply(X)
    return ModelInput(out, _names_out(lambda: obj[:-1].get_feature_names_out(), out), names, apply=apply)


#: Meta-estimators whose fitted copies may each see other columns than ``X``'s (bagging draws
#: features as well as rows): the estimator they were given stands for them.
OWN_COLUMNS = frozenset({"BaggingClassifier", "BalancedBaggingClassifier"})


def wrapped_pipeline(obj: Any) -> Any:
    """The pipeline (or estimator) that meta-estimators around ``obj`` wrap; ``obj`` itself if none.

    A fitted wrapper gives a fitted copy, whose steps turn ``X`` into what that copy's model
    receives at predict time: a search's ``best_estimator_`` (refit), a threshold or
    self-training wrapper's ``estimator_``, a calibration's first classifier, the first of
    ``estimators_`` (one-vs-rest, one-vs-one, output codes, the first link of a chain, which
    reads only ``X``). Otherwise (not fitted, ``refit=False``, :data:`OWN_COLUMNS`) it gives
    the estimator the wrapper was given (``estimator=``, formerly ``base_estimator=``), as
    the static reading of a config does; a ``FrozenEstimator`` is read as what it freezes.
    """
    seen: set[int] = set()
    while _sklearn_class(obj) in catalog.META_ESTIMATORS and id(obj) not in seen:
        seen.add(id(obj))
        inner = _fitted_copy(obj)
        if inner is None:
            params = obj.get_params(deep=False) if callable(getattr(obj, "get_params", None)) else {}
            inner = next((params[name] for name in catalog.WRAPPED_PARAMS if params.get(name) is not None), None)
        if inner is None:
            break
        obj = getattr(inner, "estimator", inner) if _sklearn_class(inner) == "FrozenEstimator" else inner
    return obj


def _fitted_copy(wrapper: Any) -> Any:
    """A fitted copy of the estimator ``wrapper`` holds, or None (see :func:`wrapped_pipeline`)."""
    attributes = vars(wrapper)
    for name in ("best_estimator_", "estimator_"):
        if attributes.get(name) is not None:
            return attributes[name]
    calibrated = attributes.get("calibrated_classifiers_")
    if isinstance(calibrated, list) and calibrated:
        return getattr(calibrated[0], "estimator", None)
    fitted = attributes.get("estimators_")
    if _sklearn_class(wrapper) not in OWN_COLUMNS and isinstance(fitted, list) and fitted:
        return fitted[0]
    return None


def is_documents(X: Any) -> bool:
    """Whether ``X`` is raw documents: a list, tuple, 1-D array or Series whose every item is a string."""
    if isinstance(X, (str, bytes, dict)) or hasattr(X, "columns"):
        return False
    if hasattr(X, "ndim"):
        if X.ndim != 1:
            return False
    elif not isinstance(X, (list, tuple)):
        return False
    return all(isinstance(doc, str) for doc in X)


def _is_step(step: Any) -> bool:
    return step is not None and not isinstance(step, str)  # None and "passthrough" change nothing


def _text_chain(transformers: list[Any]) -> list[Any] | None:
    """The steps, nested pipelines flattened, when they are a text vectorizer then weights; else None."""
    flat: list[Any] = []
    for step in transformers:
        inner = getattr(step, "steps", None)
        if isinstance(inner, list):
            inner_steps = [s for _, s in inner if _is_step(s)]
            nested = _text_chain(inner_steps) if inner_steps else None
            if nested is None:
                return None
            flat += nested
        else:
            flat.append(step)
    kinds = [_sklearn_class(step) for step in flat]
    if not kinds or kinds[0] not in TEXT_VECTORIZERS or not all(kind in TEXT_WEIGHTS for kind in kinds[1:]):
        return None
    return flat


def _sklearn_class(step: Any) -> str | None:
    """The scikit-learn class ``step`` is, or derives from (a user subclass of CountVectorizer is one)."""
    for klass in type(step).__mro__:
        if (klass.__module__ or "").startswith("sklearn."):
            return klass.__name__
    return None


def _vectorized(chain: list[Any], docs: Any, names: list[str]) -> ModelInput:
    """``docs`` through a text chain: fitted steps transform, the others are fitted as clones first."""
    from sklearn.base import clone
    from sklearn.pipeline import Pipeline

    used, out = [], docs
    for step in chain:
        if _is_fitted(step):
            out = step.transform(out)
        else:
            step = clone(step)  # the user's step keeps its state: nblint fits its own copy
            out = step.fit_transform(out)
        used.append(step)
    fitted = Pipeline([(f"step{i}", step) for i, step in enumerate(used)])  # (reads names, fits nothing)
    columns = _names_out(fitted.get_feature_names_out, out)
    if columns is not None or "HashingVectorizer" not in {_sklearn_class(step) for step in used}:
        received = ModelInput(out, columns, names, words=True, apply=fitted.transform, tokens=_token_counter(used[0]))
    else:
        received = _hash_buckets(out, names, fitted.transform)
    received.recipe = vectorizer_recipe(used[0])
    if received.recipe is not None:
        received.documents = [str(doc) for doc in (docs.tolist() if hasattr(docs, "tolist") else docs)]
    return received


def vectorizer_recipe(step: Any):
    """How a fitted word vectorizer turns a document into terms, from its parameters; None where it cannot be read.

    Only scikit-learn's own steps are read (``analyzer="word"``, no ``preprocessor`` or
    ``tokenizer``: a callable is the user's code, never run here); ``stop_words="english"``
    is scikit-learn's list; the vocabulary is the fitted ``vocabulary_`` (a hash keeps none).
    """
    from nblint.readers.text import Recipe

    if _sklearn_class(step) not in TEXT_VECTORIZERS:
        return None
    params = step.get_params(deep=False)
    if params.get("analyzer") != "word" or params.get("preprocessor") is not None or params.get("tokenizer"):
        return None
    accents, pattern, stop = params.get("strip_accents"), params.get("token_pattern"), params.get("stop_words")
    if accents not in (None, "ascii", "unicode") or not isinstance(pattern, str):
        return None
    if stop == "english":
        from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

        stop = ENGLISH_STOP_WORDS
    elif stop is not None and not isinstance(stop, (list, tuple, set, frozenset)):
        return None
    vocabulary = vars(step).get("vocabulary_")
    defaults = {"min_df": 1, "max_df": 1.0, "max_features": None}
    cut = [
        f"{name}={params[name]!r}" for name, default in defaults.items() if name in params and params[name] != default
    ]
    if params.get("vocabulary") is not None:
        cut = ["a vocabulary given"]
    low, high = params.get("ngram_range", (1, 1))
    return Recipe(
        lowercase=bool(params.get("lowercase", True)),
        strip_accents=accents,
        token_pattern=pattern,
        stop_words=None if stop is None else frozenset(str(w) for w in stop),
        ngram_range=(int(low), int(high)),
        vocabulary=None if vocabulary is None else frozenset(vocabulary),
        cut=", ".join(cut),
    )


def _token_counter(vectorizer: Any) -> Any:
    """``docs -> (tokens, unseen)`` per document, for a fitted vectorizer with a vocabulary; else None."""
    vocabulary = getattr(vectorizer, "vocabulary_", None)
    build = getattr(vectorizer, "build_analyzer", None)
    if not isinstance(vocabulary, dict) or build is None:
        return None
    import numpy as np

    analyzer = build()

    def count(docs: Any) -> tuple[Any, Any]:
        found = [analyzer(doc) for doc in docs]
        tokens = np.array([len(doc) for doc in found], dtype=np.int64)
        known = vocabulary.__contains__  # (per token in C: a corpus is millions of them)
        unseen = tokens - np.array([sum(map(known, doc)) for doc in found], dtype=np.int64)
        return tokens, unseen

    return count


def _hash_buckets(out: Any, names: list[str], transform: Any = None) -> ModelInput:
    """A HashingVectorizer's output: the buckets some document fills, named ``hash_<bucket>``.

    ``transform`` (the fitted chain), when given, makes the ``apply`` of other rows: the same buckets.
    """
    import numpy as np
    from scipy import sparse

    matrix = sparse.csc_matrix(out)
    filled = np.flatnonzero(np.diff(matrix.indptr))
    width = matrix.shape[1]
    note = (
        f"HashingVectorizer keeps no vocabulary: columns are named hash_<bucket> (a bucket may hold several words); "
        f"the {width - len(filled):,} of {width:,} buckets no document fills are left out"
    )
    apply = None if transform is None else (lambda rows: sparse.csc_matrix(transform(rows))[:, filled].tocsr())
    return ModelInput(
        matrix[:, filled].tocsr(), [f"hash_{j}" for j in filled.tolist()], names, notes=[note], words=True, apply=apply
    )


def _is_fitted(step: Any) -> bool:
    """scikit-learn's own test where it is importable (it is, for its objects), else its convention."""
    try:
        from sklearn.exceptions import NotFittedError
        from sklearn.utils.validation import check_is_fitted
    except ImportError:  # pragma: no cover - a duck-typed pipeline without scikit-learn
        return any(name.endswith("_") and not name.startswith("__") for name in vars(step))
    try:
        check_is_fitted(step)
    except NotFittedError:
        return False
    except TypeError:  # not an estimator scikit-learn knows: assume it is ready
        return True
    return True


def _names_out(names_out: Any, out: Any) -> list[str] | None:
    """The names of the columns ``out`` has, from ``names_out()``, a ``get_feature_names_out`` (None where it fails)."""
    try:
        names = [str(name) for name in names_out()]
    except Exception:  # noqa: BLE001 - any step without names out: fall back to x0, x1, ...
        return None
    shape = getattr(out, "shape", None)
    return names if shape is not None and len(shape) == 2 and shape[1] == len(names) else None
