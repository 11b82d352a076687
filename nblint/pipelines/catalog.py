"""What nblint knows about scikit-learn, imbalanced-learn and pandas callables, by name.

Nothing here imports those libraries: a pipeline config is read, never run, so
classes are known by their short name (``OneHotEncoder``) and recognised when
they come from one of :data:`LIBRARIES` (or are written as a bare short name
nblint knows, as Hydra configs sometimes do).
"""

from __future__ import annotations

from nblint.core.models import MODEL_CLASSES, parse_model

#: Top-level packages whose classes nblint recognises in a config (and, from pandas, ``get_dummies``).
#: category_encoders' OneHotEncoder and OrdinalEncoder encode as scikit-learn's do (one-hot bits,
#: integer codes); its other encoders are steps nblint does not see into, and its own handling of
#: unknown categories is not modelled (THIRD_PARTY).
LIBRARIES = ("sklearn", "imblearn", "category_encoders")
THIRD_PARTY = ("category_encoders",)

#: The Naive Bayes estimators and the nblint model name each one declares.
NB_MODELS = {cls: model for model, cls in MODEL_CLASSES.items()}

#: Composites: a sequence of steps, parallel branches over columns, parallel branches over all columns.
PIPELINES = frozenset({"Pipeline", "make_pipeline"})
COLUMN_TRANSFORMERS = frozenset({"ColumnTransformer", "make_column_transformer"})
UNIONS = frozenset({"FeatureUnion", "make_union"})

#: Meta-estimators that wrap one estimator (``estimator=``, formerly ``base_estimator=``);
#: a pipeline ending in one of them ends, for nblint, in the estimator it wraps.
META_ESTIMATORS = frozenset(
    {
        "GridSearchCV",
        "RandomizedSearchCV",
        "HalvingGridSearchCV",
        "HalvingRandomSearchCV",
        "CalibratedClassifierCV",
        "OneVsRestClassifier",
        "OneVsOneClassifier",
        "OutputCodeClassifier",
        "MultiOutputClassifier",
        "ClassifierChain",
        "BaggingClassifier",
        "SelfTrainingClassifier",
        "FixedThresholdClassifier",
        "TunedThresholdClassifierCV",
        "BalancedBaggingClassifier",
    }
)
WRAPPED_PARAMS = ("estimator", "base_estimator")

#: Positional parameters, in order, of the callables whose positional use is common.
POSITIONAL = {
    "Pipeline": ("steps",),
    "ColumnTransformer": ("transformers",),
    "FeatureUnion": ("transformer_list",),
    "FunctionTransformer": ("func", "inverse_func"),
    "get_dummies": ("data", "prefix", "prefix_sep", "dummy_na", "columns", "sparse", "drop_first", "dtype"),
    "PCA": ("n_components",),
    "IncrementalPCA": ("n_components",),
    "KernelPCA": ("n_components",),
    "TruncatedSVD": ("n_components",),
    "FastICA": ("n_components",),
    "FactorAnalysis": ("n_components",),
    "SparsePCA": ("n_components",),
    "NMF": ("n_components",),
    "GaussianRandomProjection": ("n_components",),
    "SparseRandomProjection": ("n_components",),
    "LatentDirichletAllocation": ("n_components",),
    "Binarizer": (),
    "minmax_scale": ("X", "feature_range"),
    "normalize": ("X", "norm"),
    "power_transform": ("X", "method"),
    "scale": ("X",),
    "robust_scale": ("X",),
    "maxabs_scale": ("X",),
    "quantile_transform": ("X",),
    "binarize": ("X",),
    "SelectKBest": ("score_func",),
    "SelectPercentile": ("score_func",),
    "SelectFromModel": ("estimator",),
    "RFE": ("estimator",),
    "GridSearchCV": ("estimator", "param_grid"),
    "RandomizedSearchCV": ("estimator", "param_distributions"),
    "HalvingGridSearchCV": ("estimator", "param_grid"),
    "HalvingRandomSearchCV": ("estimator", "param_distributions"),
} | {
    # every other meta-estimator takes the estimator it wraps first
    name: ("estimator",)
    for name in sorted(META_ESTIMATORS)
    if "Search" not in name
}
#: Callables taking their steps as ``*args``: the parameter the arguments are gathered into.
VARIADIC = {"make_pipeline": "steps", "make_union": "transformer_list", "make_column_transformer": "transformers"}

#: Transformers whose output nblint understands (see :mod:`nblint.pipelines.flow`), plus
#: the pass-through ones: every class here is recognised by its bare short name.
ONEHOT_ENCODERS = frozenset({"OneHotEncoder", "get_dummies", "DictVectorizer", "LabelBinarizer"})
ORDINAL_ENCODERS = frozenset({"OrdinalEncoder", "LabelEncoder"})
VECTORIZERS = frozenset({"CountVectorizer", "TfidfVectorizer", "HashingVectorizer", "FeatureHasher"})
#: Steps that keep the kind of values they are given (imputers, feature selection, resamplers).
PASS_THROUGH = frozenset(
    {
        "SimpleImputer",
        "KNNImputer",
        "IterativeImputer",
        "VarianceThreshold",
        "SelectKBest",
        "SelectPercentile",
        "SelectFpr",
        "SelectFdr",
        "SelectFwe",
        "GenericUnivariateSelect",
        "SelectFromModel",
        "RFE",
        "RFECV",
        "SequentialFeatureSelector",
        "MaxAbsScaler",
        "Normalizer",
        "PolynomialFeatures",
        "SMOTE",
        "SMOTENC",
        "SMOTEN",
        "ADASYN",
        "BorderlineSMOTE",
        "SVMSMOTE",
        "KMeansSMOTE",
        "RandomOverSampler",
        "RandomUnderSampler",
        "TomekLinks",
        "NearMiss",
        "EditedNearestNeighbours",
        "ClusterCentroids",
        "SMOTEENN",
        "SMOTETomek",
    }
)
#: Steps whose output can be negative whatever they are given (unless a parameter says otherwise,
#: see :mod:`nblint.pipelines.flow`).
SIGNED_OUTPUT = frozenset(
    {
        "StandardScaler",
        "RobustScaler",
        "PowerTransformer",
        "PCA",
        "IncrementalPCA",
        "KernelPCA",
        "TruncatedSVD",
        "FastICA",
        "FactorAnalysis",
        "SparsePCA",
        "MiniBatchSparsePCA",
        "GaussianRandomProjection",
        "SparseRandomProjection",
        "LinearDiscriminantAnalysis",
    }
)
#: Steps whose output is never negative.
NONNEG_OUTPUT = frozenset(
    {"MinMaxScaler", "QuantileTransformer", "NMF", "LatentDirichletAllocation", "SplineTransformer"}
)
OTHER_TRANSFORMERS = frozenset(
    {
        "KBinsDiscretizer",
        "Binarizer",
        "TfidfTransformer",
        "FunctionTransformer",
        "MultiLabelBinarizer",
        "MissingIndicator",
    }
)

#: scikit-learn's function forms of its transformers: ``minmax_scale(X)`` is ``MinMaxScaler().fit_transform(X)``,
#: with the class's parameters as keywords. Recognised only where imported from scikit-learn (the bare
#: names are too common to read as scikit-learn's in a snippet).
FUNCTION_TRANSFORMS = {
    "scale": "StandardScaler",
    "minmax_scale": "MinMaxScaler",
    "robust_scale": "RobustScaler",
    "maxabs_scale": "MaxAbsScaler",
    "normalize": "Normalizer",
    "quantile_transform": "QuantileTransformer",
    "power_transform": "PowerTransformer",
    "binarize": "Binarizer",
}

TRANSFORMERS = (
    ONEHOT_ENCODERS | ORDINAL_ENCODERS | VECTORIZERS | PASS_THROUGH | SIGNED_OUTPUT | NONNEG_OUTPUT | OTHER_TRANSFORMERS
)
KNOWN_NAMES = frozenset(NB_MODELS) | PIPELINES | COLUMN_TRANSFORMERS | UNIONS | META_ESTIMATORS | TRANSFORMERS


#: Names of variables that have two levels (a tie-breaker where the code does not say how many
#: levels a column has): a column with such a name, or dummy columns named by such levels.
TWO_LEVEL_VARIABLES = frozenset({"sex", "gender"})
TWO_LEVEL_VALUES = frozenset({"male", "female", "m", "f", "yes", "no", "y", "n", "true", "false"})


def applied_class(cls: str) -> str:
    """The transformer class a step applies: ``MinMaxScaler`` for ``minmax_scale``, else ``cls`` itself."""
    return FUNCTION_TRANSFORMS.get(cls, cls)


def short_name(target: str) -> str:
    """The class or function name of a dotted target (``sklearn.naive_bayes.BernoulliNB`` -> ``BernoulliNB``)."""
    return target.rsplit(".", 1)[-1].strip()


def is_known(target: str) -> bool:
    """Whether ``target`` names something from scikit-learn or imbalanced-learn, or ``pandas.get_dummies``.

    A dotted name is recognised by its top-level package; a bare name when it is
    one of the short names nblint knows (``OneHotEncoder``, ``BernoulliNB``...).
    """
    if "." in target:
        package = target.split(".", 1)[0]
        return package in LIBRARIES or (package == "pandas" and short_name(target) == "get_dummies")
    return target in KNOWN_NAMES


def role(cls: str) -> str:
    """``nb``, ``pipeline``, ``columns`` (ColumnTransformer), ``union``, ``meta``, ``transformer`` or ``other``."""
    if cls in NB_MODELS:
        return "nb"
    if cls in PIPELINES:
        return "pipeline"
    if cls in COLUMN_TRANSFORMERS:
        return "columns"
    if cls in UNIONS:
        return "union"
    if cls in META_ESTIMATORS:
        return "meta"
    if cls in TRANSFORMERS or cls in FUNCTION_TRANSFORMS:
        return "transformer"
    return "other"


def positional_names(cls: str) -> tuple[str, ...]:
    """Names of the positional parameters of ``cls`` that nblint maps (empty if unknown)."""
    return POSITIONAL.get(cls, ())


def model_class(name: str) -> str | None:
    """The NB class a spec's ``model`` names: a class (short or dotted) or an nblint model name."""
    model = parse_model(name)
    return MODEL_CLASSES[model] if model else None
