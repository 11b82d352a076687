"""The Python API: lint a table (any kind :func:`nblint.run.tables.open_table` accepts), or a live scikit-learn pipeline, and get a :class:`Report`."""

from __future__ import annotations

import json
import os
from collections.abc import Collection

from nblint.engine import load_rules, resolved_options, select_rules
from nblint.engine.findings import Finding
from nblint.readers.memory import through_training_vocabulary
from nblint.run.config import FileSettings, parse_settings
from nblint.run.runner import lint_source
from nblint.run.tables import open_table


class Report:
    """The findings of one table, with a readable repr and tabular/JSON views."""

    def __init__(self, findings: list[Finding], path: str):
        self.findings = findings
        self.path = path

    def __len__(self) -> int:
        return len(self.findings)

    def __iter__(self):
        return iter(self.findings)

    def __repr__(self) -> str:
        from nblint.report.formats import render_text  # (the reporters: only when a report is shown)

        return render_text(self.findings, 1).rstrip("\n")

    def codes(self) -> list[str]:
        return [f.code for f in self.findings]

    def to_frame(self):
        """One row per finding: code, name, severity, columns, rows, message, fix, evidence (JSON)."""
        import pandas as pd

        rows = []
        for f in self.findings:
            d = f.to_dict()
            d["evidence"] = json.dumps(d["evidence"], sort_keys=True)
            rows.append(d)
        columns = ["code", "name", "severity", "path", "columns", "rows", "line", "message", "evidence", "fix"]
        return pd.DataFrame(rows, columns=columns)

    def to_json(self) -> str:
        from nblint.report.formats import render_json

        return render_json(self.findings)

    def _summary(self) -> str:
        from nblint.report.summary import summary_line

        return summary_line(self.findings, 1)

    def _repr_html_(self) -> str:
        """The notebook view: a compact table, severity in colour, each finding's fix."""
        from nblint.report.html import notebook_html

        return notebook_html(self.findings, self._summary())

    def to_html(self, path=None) -> str:
        """The report as one self-contained HTML page with pictures; written to ``path`` if given."""
        from nblint.report.html import render_html
        from nblint.run.runner import FileResult, RunResult

        text = render_html(RunResult([FileResult(self.path, self.findings)]))
        if path is not None:
            with open(os.fspath(path), "w", encoding="utf-8", newline="\n") as handle:
                handle.write(text)
        return text


def check(
    data,
    y=None,
    *,
    target=None,
    model=None,
    feature_names=None,
    select=None,
    ignore=None,
    options=None,
    alpha=None,
    kinds=None,
    words=None,
    test=None,
    y_test=None,
    test_feature_names=None,
) -> Report:
    """Lint ``data`` (and the classes ``y``); see :func:`nblint.check`."""
    if isinstance(y, str):  # check(df, "label"): the class column's name, as before y existed
        y, target = None, y if target is None else target
    settings = _settings(
        target=target, model=model, select=select, ignore=ignore, options=options, alpha=alpha, columns=kinds
    )
    source, target = open_table(
        data, y, target=target, feature_names=feature_names, encoding=settings.encoding, words=words
    )
    settings = settings.replace(target=target)
    paired = test_source(test, y_test, source, target, feature_names, settings.encoding, test_feature_names)
    # (the rules that may read a table, and its test table if one is given: no other family is imported)
    codes = _codes(settings, ("table",), test_table=paired is not None)
    return Report(lint_source(source, settings, codes, test=paired), source.path)


#: The location of an in-memory test table's findings (a file's are its path).
TEST_PATH = "<test>"


def test_source(
    test, y_test, train, target: str | None, feature_names=None, encoding: str = "utf-8", test_feature_names=None
):
    """The test table of :func:`check` (any kind the training table may be), read like ``train``; None: none.

    A matrix takes the training table's column names (the columns of a matrix are positions),
    or its own ``test_feature_names`` (a vectorizer fitted on the test documents): it is then
    read through the training vocabulary (:func:`through_training_vocabulary`). ``y_test``
    becomes the target column, as ``y`` did.
    """
    if test is None:
        if y_test is not None:
            raise ValueError("y_test goes with test=: the test table it labels")
        if test_feature_names is not None:
            raise ValueError("test_feature_names goes with test=: the columns of the test matrix")
        return None
    counted = None
    if test_feature_names is not None:
        if not _is_matrix(test):
            raise ValueError(f"test_feature_names names a matrix's columns; a {type(test).__name__} names its own")
        names = [name for name in train.names if name != target]
        test, counted = through_training_vocabulary(test, test_feature_names, names)
        feature_names = names
    elif _is_matrix(test) and feature_names is None:
        names = [name for name in train.names if name != target]
        width = _width(test)
        feature_names = names if len(names) == width else None
    source, _ = open_table(
        test,
        y_test,
        target=target if y_test is not None else None,
        feature_names=feature_names,
        encoding=encoding,
        words=True if train.words is not None and _is_matrix(test) else None,
    )
    if source.path.startswith("<"):  # (in memory: <dataframe>, <array>)
        source.path = TEST_PATH
    if counted is not None:  # (what NB606 reads: each test document's tokens, and those training never had)
        source.tokens, source.unseen_tokens = counted  # type: ignore[attr-defined]
    return source


def check_pipeline(
    pipeline, X=None, y=None, *, target=None, select=None, ignore=None, options=None, X_test=None, y_test=None
) -> Report:
    """Lint a live scikit-learn pipeline and what its model receives; see :func:`nblint.check_pipeline`."""
    from nblint.engine import run_rules
    from nblint.pipelines import lint_specs
    from nblint.pipelines.context import LiveContext
    from nblint.pipelines.live import calls_from_object
    from nblint.pipelines.spec import PipelineSpec, build_specs
    from nblint.pipelines.transform import model_input, wrapped_pipeline

    if X_test is not None and X is None:
        raise ValueError("X_test goes with X: the test rows are compared with the training rows")
    settings = _settings(select=select, ignore=ignore, options=options)
    codes = _codes(settings)
    specs = build_specs(calls_from_object(pipeline), "<pipeline>", "live")
    findings = lint_specs(specs, codes, settings.rule_options)
    if X is None:
        return Report(findings, "<pipeline>")
    inner = wrapped_pipeline(pipeline)  # a search or calibration: what the model receives is its pipeline's
    received = model_input(inner, X)
    if inner is not pipeline:  # the model the table meets is the one the wrapper holds (a search's chosen alpha)
        specs = build_specs(calls_from_object(inner), "<pipeline>", "live")
    declared = [spec for spec in specs if spec.model]
    spec = declared[0] if len({(s.model, s.alpha) for s in declared}) == 1 else None
    if not received.fitted:
        # (A pipeline nblint reads nothing of has an empty spec: NB511 then names "the final estimator".)
        live = specs[0] if specs else PipelineSpec("<pipeline>", "live", (), None)
        context = LiveContext(live, received.steps, _width(X), resolved_options(settings.rule_options))
        return Report(findings + run_rules(context, codes, context.rule_options), "<pipeline>")
    names = received.names if _is_matrix(received.X) else None
    source, target = open_table(
        received.X, y, target=target, feature_names=names, notes=received.notes, words=received.words or None
    )
    if received.documents is not None:  # (NB209 says which of the vectorizer's steps made documents one)
        source.documents, source.recipe = received.documents, received.recipe
    settings = settings.replace(target=target, model=spec.model if spec else None, alpha=spec.alpha if spec else None)
    if spec is not None and spec.estimator is not None:
        settings = settings.replace(min_categories=spec.estimator.value("min_categories"))
    paired = None
    if X_test is not None:
        # The test rows as the model sees them: through the same steps, fitted (or cloned and fitted) on X.
        try:
            seen = X_test if received.apply is None else received.apply(X_test)
        except ValueError as exc:  # an encoder with handle_unknown='error' meets a new level: NB601 says so
            from nblint.run.pairing import failed

            paired = failed(TEST_PATH, " ".join(str(exc).split()))
        else:
            paired = test_source(seen, y_test, source, target, names if _is_matrix(seen) else None)
            if received.tokens is not None:  # the words the vectorizer drops from each test document
                paired.tokens, paired.unseen_tokens = received.tokens(X_test)
    return Report(findings + lint_source(source, settings, codes, test=paired), "<pipeline>")


def _is_matrix(X) -> bool:
    from nblint.readers.memory import is_sparse

    return is_sparse(X) or (hasattr(X, "ndim") and hasattr(X, "shape") and not hasattr(X, "columns"))


def _width(X) -> int:
    shape = getattr(X, "shape", None)
    if shape is not None and len(shape) == 2:
        return int(shape[1])
    return len(getattr(X, "columns", X))


def _settings(**values) -> FileSettings:
    """Validated settings from API arguments (None means not given).

    A bad one raises :class:`~nblint.core.errors.ConfigError`, a ValueError that
    ``except nblint.NblintError`` catches too.
    """
    options = values.pop("options", None) or {}
    table = {k: v for k, v in values.items() if v is not None} | dict(options)
    return parse_settings(table)


def _codes(settings: FileSettings, inputs: Collection[str] | None = None, test_table: bool = True) -> list[str]:
    """The codes ``settings`` select among the rules that may read ``inputs`` (:func:`~nblint.engine.load_rules`)."""
    return select_rules(load_rules(inputs, test_table), settings.select, settings.ignore, settings.preview)
