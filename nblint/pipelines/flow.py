"""What kind of values reach the final estimator: a small abstract interpretation of the steps.

Every route from the input to the estimator is followed; each known step maps
the kind of values it is given to the kind it produces (a ``StandardScaler``
produces values of either sign, a ``OneHotEncoder`` one-hot indicator bits, a
``SimpleImputer`` whatever it was given).  The result is one :class:`Flow` per
distinct route: the kind of values and the step that last decided it, which is
where a finding points.

A scaler that maps each column on its own by an increasing function
(``StandardScaler``, ``MinMaxScaler``, ``RobustScaler``, ``MaxAbsScaler``,
``QuantileTransformer``, ``PowerTransformer``, and their function forms
``scale``, ``minmax_scale``...) changes the values' range but
not what they encode: one-hot bits stay a group of columns that move together,
category codes stay arbitrary codes.  The flow keeps that encoding
(:attr:`Flow.encoded`) beside the new kind of values.

Python sources add a few facts a config cannot state, as parameters whose names
start with ``_`` (no scikit-learn parameter does): the level columns dropped by
name after ``get_dummies`` (:data:`DROPPED_LEVELS`), the categories an encoder
was fitted on (:data:`FITTED_LEVELS`), and one-hot output written into a single
column (:data:`ONE_COLUMN`), which can only be one bit; and the columns of a
frame that ``get_dummies(frame, columns=[...])`` leaves alone (:data:`UNLISTED`,
giving :data:`REST`): whatever the source did not list, which may be nothing
more than the target, so no rule takes them for raw codes.  A step (or model)
returned on a branch of a helper that the call's literal arguments do not decide
carries :data:`UNDECIDED_BRANCH` (the helper and the line of the call): it is one
of the values the call may give, not the one it gives, so what follows from it is
said at most as ``info``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from nblint.engine.messages import SUFFIXES, render
from nblint.pipelines import catalog
from nblint.pipelines.calls import Call, Expr
from nblint.pipelines.spec import Step

RAW = "raw"  # the input as given: nothing known
ONEHOT = "onehot"  # indicator bits of a one-hot encoding (K bits, one set per row and variable)
DUMMY = "dummy"  # one-hot with one level dropped (K - 1 bits, the reference level all-zero)
ORDINAL = "ordinal"  # integer codes 0..K-1 of categories
COUNTS = "counts"  # non-negative counts (term counts)
WEIGHTS = "weights"  # non-negative reals standing for counts (tf-idf, normalised counts)
BINARY = "binary"  # 0/1 presence bits that are each a variable of their own
NONNEG = "nonneg"  # non-negative reals (min-max scaled, uniform quantiles)
SIGNED = "signed"  # reals that can be negative
OPAQUE = "opaque"  # produced by a step nblint does not know
REST = "rest"  # the columns get_dummies(frame, columns=[...]) was not asked to encode: raw, if any

#: Facts Python sources establish about a step (see the module docstring).
DROPPED_LEVELS = "_dropped_levels"
FITTED_LEVELS = "_fitted_levels"
ONE_COLUMN = "_one_column"
UNLISTED = "_unlisted"
RENAMED = "_renamed"  # new column name -> the name get_dummies gave it (df.rename(columns={...}))
UNDECIDED_BRANCH = "_undecided_branch"  # "f() (called at line N)": returned on a branch the call does not decide


def undecided_message(message: str, where: str) -> str:
    """``message`` about a step or model that ``where`` (a helper call) returns on a branch it does not decide.

    The words are the engine's ``undecided`` suffix (:data:`nblint.engine.messages.SUFFIXES`): a finding
    so worded has the variant ``VARIANT+undecided``.
    """
    return message + render(SUFFIXES["undecided"], {"undecided_branch": where})


#: Encodings a per-column increasing scaler keeps (see the module docstring).
CATEGORICAL = frozenset({"onehot", "dummy", "ordinal"})
MONOTONE_SCALERS = frozenset(
    {"StandardScaler", "MinMaxScaler", "RobustScaler", "MaxAbsScaler", "QuantileTransformer", "PowerTransformer"}
)


@dataclass(frozen=True, eq=False)
class Flow:
    """The kind of values on one route into the estimator and the step that produced them.

    ``encoded`` is the categorical flow (one-hot, dummy or ordinal) the values still
    carry after per-column scalers, None when there is none.
    """

    kind: str
    origin: Step | None = None
    encoded: Flow | None = None


def flows_into(steps: Iterable[Step]) -> list[Flow]:
    """The distinct flows at the end of ``steps``.

    Parameters
    ----------
    steps : iterable of Step
        A pipeline's steps before its final estimator; the input is :data:`RAW`.

    Returns
    -------
    list of Flow
        One per distinct (kind, deciding step), in route order.
    """
    return _through(tuple(steps), [Flow(RAW)])


def _through(steps: tuple[Step, ...], flows: list[Flow]) -> list[Flow]:
    for step in steps:
        if step.parallel and step.branches:
            flows = [f for branch in step.branches for f in _through(branch, flows)]
        elif step.parallel:  # branches nblint cannot see (a variable, all dropped)
            flows = [Flow(OPAQUE, step)]
        else:
            flows = [transfer(step, f) for f in flows]
        flows = _distinct(flows)
    return flows


def _distinct(flows: list[Flow]) -> list[Flow]:
    seen, out = set(), []
    for flow in flows:
        key = (flow.kind, id(flow.origin), id(flow.encoded.origin) if flow.encoded else None)
        if key not in seen:
            seen.add(key)
            out.append(flow)
    return out


def transfer(step: Step, incoming: Flow) -> Flow:
    """The flow after ``step`` given the flow into it."""
    if not step.known:
        return Flow(OPAQUE, step)
    cls = catalog.applied_class(step.cls)  # minmax_scale(X) transforms as MinMaxScaler does
    rule = TRANSFERS.get(cls)
    kind = _fixed_kind(cls) if rule is None else rule(step, incoming)
    if kind is None:
        return incoming
    if kind in (ONEHOT, DUMMY) and step.value(ONE_COLUMN) is True:
        kind = BINARY  # written into one column: one bit
    encoded = None
    if cls in MONOTONE_SCALERS:
        encoded = incoming if incoming.kind in CATEGORICAL else incoming.encoded
    return Flow(kind, step, encoded)


def _fixed_kind(cls: str) -> str | None:
    if cls in catalog.PASS_THROUGH:
        return None
    if cls in catalog.SIGNED_OUTPUT:
        return SIGNED
    if cls in catalog.NONNEG_OUTPUT:
        return NONNEG
    if cls in catalog.ORDINAL_ENCODERS:
        return ORDINAL
    if cls in catalog.ONEHOT_ENCODERS:
        return ONEHOT
    return OPAQUE


# --------------------------------------------------------------------------- parameter-dependent steps
# Each returns the kind produced, or None when the step keeps the kind it is given.


def _onehot_encoder(step: Step, incoming: Flow) -> str:
    """drop='first' (or a list) leaves K-1 bits; with two categories that is one proper bit."""
    drop = step.value("drop")
    two_levels = _at_most_two_levels(step.value("categories")) or _two_level_names(step.columns, None)
    if drop == "first" or isinstance(drop, list):
        return BINARY if two_levels else DUMMY
    if drop == "if_binary" and two_levels:
        return BINARY
    return ONEHOT


def _at_most_two_levels(categories) -> bool:
    return (
        isinstance(categories, list)
        and bool(categories)
        and all(isinstance(c, list) and len(c) <= 2 for c in categories)
    )


def _get_dummies(step: Step, incoming: Flow) -> str:
    """``drop_first=True``, or level columns dropped by name afterwards, leave K-1 bits.

    With two levels that is one proper bit; how many levels a column has is not
    written in code, so the names decide (``Sex``; dummies ``male``/``female``).
    """
    if step.value(UNLISTED) is True:
        return REST
    dropped = step.value(DROPPED_LEVELS)
    if step.value("drop_first") is not True and not dropped:
        return ONEHOT
    return BINARY if _two_level_names(step.columns, dropped) else DUMMY


def _two_level_names(columns, dropped) -> bool:
    """Whether names say every variable has two levels: ``sex``, a dummy such as ``Sex_male``, or dropped
    dummies named by such levels (the code does not say how many levels a column has; names break the tie)."""
    if columns and all(_two_level_column(str(c).lower()) for c in columns):
        return True
    levels = [str(name).rsplit("_", 1)[-1].lower() for name in dropped or ()]
    return bool(levels) and all(level in catalog.TWO_LEVEL_VALUES for level in levels)


def _two_level_column(name: str) -> bool:
    prefix, _, level = name.rpartition("_")
    return name in catalog.TWO_LEVEL_VARIABLES or (
        prefix in catalog.TWO_LEVEL_VARIABLES and level in catalog.TWO_LEVEL_VALUES
    )


def _function_transformer(step: Step, incoming: Flow) -> str | None:
    func = step.value("func")  # a reference (pandas.get_dummies), a Hydra node, or a dotted string
    name = func.target if isinstance(func, Call) else func.text if isinstance(func, Expr) else func
    if isinstance(name, str) and catalog.short_name(name) == "get_dummies":
        kw_args = step.value("kw_args")
        return DUMMY if isinstance(kw_args, dict) and kw_args.get("drop_first") is True else ONEHOT
    return None if func is None else OPAQUE


def _ordinal_encoder(step: Step, incoming: Flow) -> str:
    """Codes of categories; with at most two categories per column (written, fitted on a list, or -- names
    breaking the tie, as for dummies -- columns named ``sex``/``gender``), one bit."""
    fitted = step.value(FITTED_LEVELS)
    if isinstance(fitted, list) and 0 < len(fitted) <= 2:
        return BINARY
    if step.columns and _two_level_names(step.columns, None):
        return BINARY
    return BINARY if step.cls == "OrdinalEncoder" and _at_most_two_levels(step.value("categories")) else ORDINAL


def _kbins(step: Step, incoming: Flow) -> str:
    return ORDINAL if step.value("encode") == "ordinal" else ONEHOT


def _count_vectorizer(step: Step, incoming: Flow) -> str:
    return BINARY if step.value("binary") is True else COUNTS


def _tfidf_vectorizer(step: Step, incoming: Flow) -> str:
    return BINARY if step.value("binary") is True else WEIGHTS


def _hashing(step: Step, incoming: Flow) -> str:
    """Both hashers flip the sign of half the hashed features unless ``alternate_sign=False``."""
    if step.value("alternate_sign", True) is not False:
        return SIGNED
    if step.value("binary") is True:
        return BINARY
    return COUNTS if step.cls == "FeatureHasher" or step.value("norm", "l2") is None else WEIGHTS


def _standard_scaler(step: Step, incoming: Flow) -> str | None:
    return None if step.value("with_mean", True) is False else SIGNED


def _robust_scaler(step: Step, incoming: Flow) -> str | None:
    return None if step.value("with_centering", True) is False else SIGNED


def _minmax_scaler(step: Step, incoming: Flow) -> str:
    low = _first(step.value("feature_range"))
    return SIGNED if is_number(low) and low < 0 else NONNEG


def _quantile(step: Step, incoming: Flow) -> str:
    return SIGNED if step.value("output_distribution") == "normal" else NONNEG


def _tfidf_transformer(step: Step, incoming: Flow) -> str:
    return SIGNED if incoming.kind == SIGNED else WEIGHTS


def _first(value):
    return value[0] if isinstance(value, (list, tuple)) and value else None


def is_number(value) -> bool:
    """A literal int or float (not a bool, not NaN)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) and not math.isnan(value)


TRANSFERS: dict[str, Callable[[Step, Flow], str | None]] = {
    "OneHotEncoder": _onehot_encoder,
    "get_dummies": _get_dummies,
    "OrdinalEncoder": _ordinal_encoder,
    "LabelEncoder": _ordinal_encoder,
    "FunctionTransformer": _function_transformer,
    "KBinsDiscretizer": _kbins,
    "CountVectorizer": _count_vectorizer,
    "TfidfVectorizer": _tfidf_vectorizer,
    "HashingVectorizer": _hashing,
    "FeatureHasher": _hashing,
    "StandardScaler": _standard_scaler,
    "RobustScaler": _robust_scaler,
    "MinMaxScaler": _minmax_scaler,
    "QuantileTransformer": _quantile,
    "TfidfTransformer": _tfidf_transformer,
    "Binarizer": lambda step, incoming: BINARY,
    "MultiLabelBinarizer": lambda step, incoming: BINARY,
    "MissingIndicator": lambda step, incoming: BINARY,
}
