"""Interpret YAML, JSON and TOML documents: Hydra/OmegaConf ``_target_`` nodes, or the nblint spec.

Hydra style
    Any mapping with a ``_target_`` naming a class, at any depth, is a call;
    its other keys are the parameters (``_partial_``, ``_recursive_`` and
    ``_convert_`` are ignored, ``_args_`` are positional arguments).  A
    Pipeline's ``steps`` may be ``[name, node]`` pairs, bare nodes, or a mapping
    of name to node; a ColumnTransformer's ``transformers`` are
    ``[name, node, columns]`` triples.  ``${...}`` interpolations are values
    nblint cannot know.  A Lightning CLI / jsonargparse node (``class_path``
    with its parameters under ``init_args``) is read the same way.

Class paths
    A ``sklearn.`` path (``_target_``, ``class_path``, a spec encoder) that names
    nothing in the installed scikit-learn is an input error with the likeliest
    path meant (:mod:`nblint.pipelines.classpaths`); other libraries' paths are
    not checked.

nblint spec
    A top-level mapping whose ``model`` is a string naming a Naive Bayes model
    (``BernoulliNB``, ``sklearn.naive_bayes.BernoulliNB`` or ``bernoulli``)::

        model: CategoricalNB
        params: {alpha: 1.0, min_categories: 12}
        encoders:                    # column -> encoder (a class name, a mapping
          month: OrdinalEncoder      #   with `class` and parameters, or a list
          city:                      #   of those applied in order)
            class: OrdinalEncoder
            handle_unknown: use_encoded_value
            unknown_value: 11
        data: train.csv              # optional, relative to this file
        target: label                # optional

    Columns the spec does not list reach the model unchanged.
"""

from __future__ import annotations

from typing import Any

from nblint.core.errors import InputError
from nblint.core.runkeys import RUN_KEYS, non_empty_string
from nblint.core.suggest import closest, did_you_mean
from nblint.pipelines import catalog
from nblint.pipelines.calls import Call, Expr, Mark
from nblint.pipelines.classpaths import misnamed
from nblint.pipelines.spec import PipelineSpec, build_specs
from nblint.pipelines.tree import PosDict

HYDRA_KEYS = frozenset({"_target_", "_partial_", "_recursive_", "_convert_", "_args_"})
SPEC_KEYS = ("model", "params", "encoders", "data", "target", "test")


def read_mapping_config(documents: list, path: str) -> list[PipelineSpec] | None:
    """The pipelines in parsed documents, or None when no document is a pipeline config.

    Parameters
    ----------
    documents : list
        Documents read by :func:`nblint.pipelines.tree.read_documents` (with positions).
    path : str
        The file, for the specs.

    Returns
    -------
    list of PipelineSpec or None
        None when no document has a recognised ``_target_`` or is an nblint spec.

    Raises
    ------
    InputError
        For an nblint spec with an unknown key or a value of the wrong kind (with its line).
    """
    specs: list[PipelineSpec] = []
    recognised = False
    for document in documents:
        if looks_like_spec(document):
            _check_spec_model(document)
            specs += _nblint_spec(document, path)
            recognised = True
        else:
            reader = _HydraReader()
            reader.value(document, getattr(document, "mark", (1, 1)))
            if any(call.known for call in reader.calls):
                specs += build_specs(reader.calls, path, "hydra")
                recognised = True
    return specs if recognised else None


def is_nblint_spec(document: Any) -> bool:
    """A top-level mapping whose ``model`` is a string naming a Naive Bayes model."""
    model = document.get("model") if isinstance(document, dict) else None
    return isinstance(model, str) and catalog.model_class(model) is not None


def looks_like_spec(document: Any) -> bool:
    """Whether a document has the shape of an nblint spec, so that a mistake in it is an error, not a skip.

    A spec's ``model`` is always a string, so a top-level mapping with a string
    ``model`` qualifies when that string names a Naive Bayes model, or when every
    top-level key is a spec key (or a near-miss of one, ``encoder``): ``model:
    BernouliNB`` next to ``data`` and ``target`` is a spec with a typo, whereas
    ``model: gpt-4`` next to ``temperature`` is some other tool's file.  A
    Hydra node (a ``_target_``) or a ``model`` that is a mapping belongs to
    something else and is skipped quietly, as are files without a ``model``.
    """
    if not isinstance(document, dict) or "_target_" in document:
        return False
    model = document.get("model")
    if not isinstance(model, str):
        return False
    if catalog.model_class(model) is not None:
        return True
    return all(str(key) in SPEC_KEYS or closest(str(key), SPEC_KEYS, n=1, cutoff=0.75) for key in document)


def _check_spec_model(document: dict) -> None:
    """One error line for a spec whose ``model`` names no Naive Bayes model, with the likeliest one."""
    written = document["model"]
    if catalog.model_class(written) is not None:
        return
    line = _key_mark(document, "model", (None, None))[0]
    try:  # (the words every face says of a model that is none: :mod:`nblint.core.runkeys`)
        RUN_KEYS["model"].parse(written, f"'model' in the nblint spec at line {line}")
    except ValueError as exc:
        raise InputError(str(exc)) from None


class _HydraReader:
    """Turns every ``_target_`` mapping into a :class:`Call` (each mapping once, however often aliased)."""

    def __init__(self):
        self.calls: list[Call] = []
        self.memo: dict[int, Any] = {}
        self.active: set[int] = set()

    def value(self, value: Any, mark: Mark) -> Any:
        if isinstance(value, (dict, list)):
            key = id(value)
            if key in self.memo:
                return self.memo[key]
            if key in self.active:
                raise InputError(f"a YAML alias contains itself at line {mark[0]}")
            self.active.add(key)
            result: Call | PosDict | list
            if isinstance(value, dict):
                if isinstance(value.get("_target_"), str):
                    result = self.call(value)
                elif isinstance(value.get("class_path"), str):  # Lightning / jsonargparse
                    result = self.class_path_call(value)
                else:  # a plain mapping (a parameter grid, say) keeps its keys' positions
                    mapping = PosDict(getattr(value, "mark", mark))
                    for k, v in value.items():
                        mapping[k] = self.value(v, _key_mark(value, k, mark))
                        mapping.marks[k] = _key_mark(value, k, mark)
                    result = mapping
            else:
                marks = getattr(value, "marks", [])
                result = [self.value(v, marks[i] if i < len(marks) else mark) for i, v in enumerate(value)]
            self.active.discard(key)
            self.memo[key] = result
            return result
        if isinstance(value, str) and "${" in value:
            return Expr(value, mark)
        return value

    def call(self, node: dict, target_key: str = "_target_") -> Call:
        """The call a mapping stands for: the class under ``target_key``, the other keys its parameters."""
        call = self._new_call(node, target_key)
        args = node.get("_args_")
        if isinstance(args, list):
            marks = list(getattr(args, "marks", [])) + [call.mark] * len(args)
            call.bind_positional([(self.value(v, marks[i]), marks[i]) for i, v in enumerate(args)])
        self.fill(call, node, HYDRA_KEYS | {target_key})
        steps = call.params.get("steps")
        if call.role == "pipeline" and isinstance(steps, dict):
            call.params["steps"] = [[str(name), step] for name, step in steps.items()]
        return call

    def class_path_call(self, node: dict) -> Call:
        """``{class_path: sklearn.naive_bayes.BernoulliNB, init_args: {alpha: 0}}``: the class, with
        ``init_args`` as its parameters (Lightning CLI and jsonargparse configs)."""
        call = self._new_call(node, "class_path")
        init_args = node.get("init_args")
        if isinstance(init_args, dict):
            self.fill(call, init_args)
        return call

    def _new_call(self, node: dict, key: str) -> Call:
        """A call of the class a mapping names under ``key``; a scikit-learn path naming nothing is an error."""
        mark = _key_mark(node, key, getattr(node, "mark", (None, None)))
        target = node[key].strip()
        check_class_path(target, key, mark)
        call = Call(target, mark=mark)
        self.calls.append(call)
        return call

    def fill(self, call: Call, mapping: dict, skip: frozenset = frozenset()) -> None:
        """Add the keys of ``mapping`` (except ``skip``) to the parameters of ``call``, with their positions."""
        for key, value in mapping.items():
            if key not in skip:
                mark = _key_mark(mapping, key, call.mark)
                call.params[str(key)] = self.value(value, mark)
                call.marks[str(key)] = mark


def check_class_path(target: str, key: str, mark: Mark) -> None:
    """One error line for a ``sklearn.`` path that names nothing in the installed scikit-learn.

    Raises
    ------
    InputError
        With the line, what is missing and the likeliest path meant.
    """
    problem = misnamed(target)
    if problem is not None:
        raise InputError(f"unknown class in '{key}' at line {mark[0]}: {problem}")


def _key_mark(mapping: dict, key: Any, fallback: Mark) -> Mark:
    return getattr(mapping, "marks", {}).get(key, fallback)


# --------------------------------------------------------------------------- the nblint spec


def _nblint_spec(document: PosDict, path: str) -> list[PipelineSpec]:
    for key in document:
        if key not in SPEC_KEYS:
            raise InputError(
                f"unknown key {key!r} in the nblint spec at line {_key_mark(document, key, (None, None))[0]}"
                f"{did_you_mean(str(key), SPEC_KEYS)} (allowed: {', '.join(SPEC_KEYS)})"
            )
    reader = _HydraReader()
    model = Call(f"sklearn.naive_bayes.{catalog.model_class(document['model'])}", mark=document.marks["model"])
    params = _section(document, "params")
    _check_params(params)
    reader.fill(model, params)
    transformers = []
    encoders = _section(document, "encoders")
    for column, encoder in encoders.items():
        mark = _key_mark(encoders, column, document.marks["encoders"])
        chain = encoder if isinstance(encoder, list) else [encoder]
        item_marks = list(getattr(encoder, "marks", [])) if isinstance(encoder, list) else [mark]
        calls = [_encoder(reader, item, item_mark) for item, item_mark in zip(chain, item_marks)]
        transformer = calls[0] if len(calls) == 1 else Call("sklearn.pipeline.Pipeline", {"steps": calls}, mark)
        transformers.append([str(column), transformer, [str(column)]])
    steps: list = []
    if transformers:
        encoders_call = Call(
            "sklearn.compose.ColumnTransformer",
            {"transformers": transformers, "remainder": "passthrough"},
            document.marks["encoders"],
        )
        steps.append(["encoders", encoders_call])
    steps.append(["model", model])
    pipeline = Call("sklearn.pipeline.Pipeline", {"steps": steps}, document.mark)
    return build_specs(
        [pipeline],
        path,
        "spec",
        data=_string(document, "data"),
        target=_string(document, "target"),
        data_line=_key_mark(document, "data", (None, None))[0],
        test=_string(document, "test"),
        test_line=_key_mark(document, "test", (None, None))[0],
    )


def _section(document: PosDict, key: str) -> dict:
    value = document.get(key, {})
    if not isinstance(value, dict):
        raise InputError(f"'{key}' in the nblint spec at line {document.marks[key][0]} must be a mapping")
    return value


def _check_params(params: dict) -> None:
    """The model's parameters that nblint uses (and that carry the smoothing into the table's checks) by type and range.

    A wrong type or a non-finite number is an error naming the key; other
    parameters are left to the pipeline rules.
    """
    import math

    def number(value, minimum=None) -> bool:
        return (
            isinstance(value, (int, float))
            and not isinstance(value, bool)
            and math.isfinite(value)
            and (minimum is None or value >= minimum)
        )

    alpha = params.get("alpha")  # (the smoothing: checked as every face checks it, in the same words)
    if "alpha" in params and not isinstance(alpha, list) and not (isinstance(alpha, str) and "${" in alpha):
        line = _key_mark(params, "alpha", (None, None))[0]
        try:
            RUN_KEYS["alpha"].parse(alpha, f"'params.alpha' in the nblint spec at line {line}")
        except ValueError as exc:
            raise InputError(str(exc)) from None
    checks = {
        "alpha": (  # (a number was checked above; a list holds one per feature)
            "a list of finite numbers >= 0",
            lambda v: not isinstance(v, list) or (bool(v) and all(number(x, 0) for x in v)),
        ),
        "var_smoothing": ("a finite number >= 0", lambda v: number(v, 0)),
        "binarize": ("a finite number or null", lambda v: v is None or number(v)),
        "fit_prior": ("true or false", lambda v: isinstance(v, bool)),
        "force_alpha": ("true or false", lambda v: isinstance(v, bool)),
        "norm": ("true or false", lambda v: isinstance(v, bool)),
        "class_prior": (
            "null or a list of finite numbers",
            lambda v: v is None or (isinstance(v, list) and all(number(x) for x in v)),
        ),
        "priors": (
            "null or a list of finite numbers",
            lambda v: v is None or (isinstance(v, list) and all(number(x) for x in v)),
        ),
    }
    for key, value in params.items():
        if key in checks and not (isinstance(value, str) and "${" in value):  # (an interpolation: not known here)
            expected, valid = checks[key]
            if not valid(value):
                line = _key_mark(params, key, (None, None))[0]
                raise InputError(f"'params.{key}' in the nblint spec at line {line} must be {expected}, got {value!r}")


def _string(document: PosDict, key: str) -> str | None:
    """A path or a column name of the spec (``data``, ``target``, ``test``), checked as every face checks one."""
    value = document.get(key)
    if value is not None:
        try:
            non_empty_string(value)
        except ValueError as exc:
            raise InputError(f"'{key}' in the nblint spec at line {document.marks[key][0]} {exc}") from None
    return value


def _encoder(reader: _HydraReader, item: Any, mark: Mark) -> Call | str:
    """One encoder of the spec: a class name (or ``passthrough``), or a mapping with ``class`` (or ``_target_``)."""
    if item in ("passthrough", "drop"):
        return item
    if isinstance(item, str):
        check_class_path(item.strip(), "encoders", mark)
        return Call(item.strip(), mark=mark)
    if isinstance(item, dict) and isinstance(item.get("_target_"), str):
        return reader.call(item)
    if isinstance(item, dict) and isinstance(item.get("class"), str):
        return reader.call(item, "class")
    raise InputError(f"an encoder in the nblint spec at line {mark[0]} must be a class name or a mapping with 'class'")
