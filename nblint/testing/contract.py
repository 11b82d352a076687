"""The contract every rule keeps, built-in or third-party, checked the way scikit-learn checks estimators.

:func:`nblint.testing.checks.check_rule` runs all of it on one rule class:

* :func:`check_rule_metadata`: a well-formed code and name, the documentation
  sections ``nblint rule CODE`` prints, documented options whose defaults coerce
  to themselves;
* :func:`check_case_coverage`: the rule's case file has a passing and a failing
  case (a pipeline rule: one of each in the Hydra, nblint-spec and Python forms,
  the failing ones naming their line);
* :func:`check_rule_behaviour`: on every input of :func:`contract_inputs` the engine
  would run the rule on (:func:`inputs_for`; for a
  table rule: a typical small table, an empty one, a one-row one, one with an
  all-missing column, one with a single class, no target, alpha = 0, under no
  declared model and under each model; for a pipeline rule: a spec, Hydra and
  Python configs for each model; for a live rule: unfitted live pipelines) the
  rule never raises, yields well-formed findings naming columns of the table,
  gives the same findings on a second context built afresh (deterministic), and
  the same findings when the table's columns come in reverse order;
* :func:`check_rule_templates`: the rule declares its messages as templates over evidence
  (``Rule.messages``), each well formed (:func:`nblint.testing.templates.check_templates`);
* :func:`check_messages_on` and :func:`check_messages_of_case`: each finding's message is its
  template rendered over its evidence (:mod:`nblint.testing.templates`), on the contract
  inputs and on the rule's failing cases.

:func:`nblint.testing.parametrize_with_checks` makes each (rule, check, input) a test of
its own, with the rule's documented exemptions (``Rule.contract_exemptions``).

An input nblint itself refuses (an :class:`~nblint.core.errors.NblintError`: one error
line and exit 2, as the empty table's "no data rows") reaches no rule, so no
rule is run on it; any other error while building its context fails the check.

The rule class need not be registered: it is run the way the engine runs a rule
(:func:`nblint.engine.run_rules`), on contexts built the way ``nblint check``
builds them.
"""

from __future__ import annotations

import atexit
import json
import tempfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from nblint.core.models import MODEL_CLASSES, MODELS
from nblint.engine import CODE_PATTERN, DOC_SECTIONS, INPUTS, Rule, applies, load_rules, settle
from nblint.engine.findings import Finding, Severity

#: Every declared-model setting a table rule is tried under (None: no model declared).
CONTRACT_MODELS: tuple[str | None, ...] = (None, *MODELS)


@dataclass(frozen=True)
class ContractInput:
    """One input of the behavioural contract: how to build a context, twice, from scratch."""

    name: str
    input: str  # a key of nblint.engine.INPUTS
    build: Any = field(repr=False, compare=False)  # () -> list of contexts
    columns: tuple[str, ...] = ()
    #: For a table with its columns reversed: the input whose findings it must reproduce.
    same_as: str | None = None
    #: For a table: its (target, model), which decide before it is built whether a rule runs on it.
    declared: tuple[str | None, str | None] | None = None


# --------------------------------------------------------------------------- the checks


def check_rule_metadata(rule: type[Rule]) -> None:
    """Code, name, documentation sections and options are well formed."""
    code = rule.code
    assert CODE_PATTERN.match(code), f"{rule.__qualname__}: code {code!r} is not NB followed by three digits"
    assert rule.name and rule.name == rule.name.lower() and " " not in rule.name, f"{code}: name {rule.name!r}"
    assert isinstance(rule.severity, Severity), f"{code}: severity {rule.severity!r}"
    assert rule.inputs and set(rule.inputs) <= set(INPUTS), f"{code} reads {rule.inputs!r}"
    sections = rule.doc_sections()
    for title in DOC_SECTIONS:
        assert sections.get(title), f"{code} lacks the '{title}' section"
    assert sections.get("Severity"), f"{code} must say what makes it an error (a '## Severity' section)"
    assert rule.summary() and not rule.summary().startswith("#"), f"{code}: the docstring starts with a summary line"
    for option in rule.options:
        assert option.doc.strip(), f"{code} option {option.name} is undocumented"
        assert option.name == option.name.lower() and "_" not in option.name, f"{code} option {option.name}: kebab-case"
        assert option.coerce(option.default) == option.default, f"{code} option {option.name}: default"


def check_case_coverage(rule: type[Rule], cases) -> None:
    """The rule's cases include a passing and a failing one (a pipeline rule: in each of three forms, with lines)."""
    own = [case.spec for case in cases if case.rule == rule.code]
    expects = {case["expect"] for case in own}
    assert expects == {"pass", "fail"}, f"{rule.code} needs at least one passing and one failing case"
    if "pipeline" in rule.inputs:
        covered = {(case.get("form"), case["expect"]) for case in own}
        for form in ("hydra", "spec", "python"):
            assert {(form, "pass"), (form, "fail")} <= covered, f"{rule.code} needs a passing and a failing {form} case"
        assert all("line" in case for case in own if case["expect"] == "fail" and "live" not in case), (
            f"{rule.code}: a failing config case names its line"
        )


def check_rule_behaviour(rule: type[Rule]) -> None:
    """On every contract input the rule reads: never raises, well-formed findings, deterministic, order-free."""
    from nblint.core.blas import one_blas_thread

    # BLAS on one thread as in a run, set once: threadpoolctl reads the process's
    # library map each time (2 ms), four-fifths of a rule's contract if done per input.
    with one_blas_thread():
        _check_behaviour(rule)


def _check_behaviour(rule: type[Rule]) -> None:
    seen: dict[str, str] = {}
    for item in inputs_for(rule):
        seen[item.name] = _behaviour_on(rule, item, seen)


def check_rule_behaviour_on(rule: type[Rule], name: str) -> None:
    """The behavioural contract on one input (a name of :func:`contract_inputs`): one test of its own."""
    from nblint.core.blas import one_blas_thread

    with one_blas_thread():
        _behaviour_on(rule, _input(name), {})


def _behaviour_on(rule: type[Rule], item: ContractInput, seen: dict[str, str]) -> str:
    """Never raises, well formed, deterministic; the same findings as ``item.same_as`` (from ``seen`` or run now)."""
    first = _checked_findings(rule, item, 0)
    second = _checked_findings(rule, item, 1)
    assert second == first, f"{rule.code} on {item.name}: a second run gives other findings:\n{first}\n{second}"
    if item.same_as is not None:
        expected = seen[item.same_as] if item.same_as in seen else _checked_findings(rule, _input(item.same_as), 0)
        assert first == expected, (
            f"{rule.code} on {item.name}: other findings than on {item.same_as}:\n{first}\n{expected}"
        )
    return first


def check_rule_templates(rule: type[Rule]) -> None:
    """The rule declares ``messages``, each a well-formed template (:func:`nblint.testing.templates.check_templates`)."""
    from nblint.testing.templates import check_templates

    assert rule.messages, (
        f"{rule.code} declares no messages: a message is a template over the finding's evidence "
        "(Rule.messages = {'variant': 'column {column!r} ...'}, self.finding(ctx, 'variant', evidence=...))"
    )
    check_templates(rule)


def check_messages_on(rule: type[Rule], name: str) -> None:
    """On contract input ``name``: each finding's message is its variant's template over its evidence."""
    from nblint.testing.templates import check_finding_messages

    check_finding_messages(rule, _run(rule, _input(name), 0), name)


def check_messages_of_case(rule: type[Rule], case, folder=None, findings: list[dict] | None = None) -> None:
    """On one of the rule's cases (:class:`nblint.testing.Case`): each message is a template over its evidence.

    ``findings``: the case's findings already run (:func:`nblint.testing.case_findings`), as for
    :func:`nblint.testing.check_case`: a test that runs the case anyway checks their messages without a second run.
    """
    from nblint.testing.cases import case_findings
    from nblint.testing.templates import check_json_messages

    findings = case_findings(case, folder) if findings is None else findings
    check_json_messages(rule, findings, f"case {case.name!r}")


def _checked_findings(rule: type[Rule], item: ContractInput, copy: int) -> str:
    """The rule's findings on copy ``copy`` of the input's contexts, as JSON, after checking each is well formed."""
    findings = _run(rule, item, copy)
    for finding in findings:
        assert isinstance(finding, Finding), f"{rule.code} on {item.name} yielded {finding!r}"
        where = f"{rule.code} on {item.name}: {finding.message!r}"
        assert finding.code == rule.code and finding.name == rule.name, f"{where} carries {finding.code}"
        assert isinstance(finding.severity, Severity), f"{where}: severity {finding.severity!r}"
        assert finding.message.strip(), f"{rule.code} on {item.name}: an empty message"
        if item.input == "table":
            unknown = set(finding.columns) - set(item.columns)
            assert not unknown, f"{where} names columns the table does not have: {sorted(unknown)}"
    settle(findings)  # as the engine does with the findings it keeps
    findings.sort(key=Finding.sort_key)
    return json.dumps([f.to_dict() for f in findings], sort_keys=True, allow_nan=False)


def _run(rule: type[Rule], item: ContractInput, copy: int) -> list[Finding]:
    """The rule's findings on copy ``copy`` of the input's contexts, as the rule made them (evidence not settled).

    Made afresh each time: the contexts are shared, the rule's run is not. A memo would go stale
    when a test changes the rule class between checks, and it saved 3% of the CPU of the contract and
    the case tests (bench/bench_tests.py, issue 39): a rule's run on the shared contexts is cheap.
    """
    registered = load_rules().get(rule.code) is rule
    findings: list[Finding] = []
    for ctx in _contexts(item.name, copy):
        if not applies(rule, ctx):  # the engine does not run it there
            continue
        options = ctx.rule_options.get(rule.code) if registered else None
        try:
            findings += list(rule(options).check(ctx))
        except Exception as exc:  # the contract: a rule never raises
            raise AssertionError(f"{rule.code} raised {type(exc).__name__} on {item.name}: {exc}") from exc
    return findings


# --------------------------------------------------------------------------- the inputs


def contract_inputs() -> list[ContractInput]:
    """Every input of the behavioural contract, tables first."""
    return list(_inputs())


@cache
def _inputs() -> tuple[ContractInput, ...]:
    """The inputs, made once: each builds its contexts from a copy of its table, so they can be shared."""
    return (*_table_inputs(), *_pipeline_inputs(), *_live_inputs())


def inputs_for(rule: type[Rule]) -> list[ContractInput]:
    """The contract inputs the engine can run ``rule`` on: those its checks are tried on.

    An input of another kind (a config for a table rule), or a table whose declared target and
    model the rule does not run under (:func:`nblint.engine.applies`: ``needs_target``,
    ``Rule.models``), reaches no rule code: a check there compares no findings with no findings
    and cannot fail, so it is not made. Whether nblint builds such a table without raising is
    checked by every rule that runs on it. A config's model is known only once it is read, so
    every config of the rule's kind is kept.
    """
    return [item for item in _inputs() if item.input in rule.inputs and _reaches(rule, item)]


def _reaches(rule: type[Rule], item: ContractInput) -> bool:
    """Whether the engine may run ``rule`` on ``item``, as far as is known before building it."""
    if item.declared is None:
        return True
    target, model = item.declared
    return applies(rule, _Declared(item.input, target, model))


@dataclass(frozen=True)
class _Declared:
    """What :func:`nblint.engine.applies` reads of a context, for an input not yet built."""

    input: str
    target: str | None
    model: str | None


def _input(name: str) -> ContractInput:
    """The contract input called ``name``."""
    (item,) = [i for i in _inputs() if i.name == name]
    return item


@cache
def _contexts(name: str, copy: int) -> tuple:
    """The contexts of contract input ``name`` (one per pipeline of a config), built once per copy.

    The rules share them, as in a run.  Copy 1 is built afresh, apart from copy 0.
    """
    from nblint.core.errors import NblintError

    try:
        return tuple(_input(name).build())
    except NblintError:  # nblint refuses the input itself (bad input, exit 2): no rule runs on it
        return ()


def contract_table(rows: int = 60):
    """A small table with one column of every kind nblint tells apart, and a two-class target ``y``.

    A one-hot group (``colour_*``), a drop-first dummy group (``region_*``), a
    count, a measurement with negative values, a string category, a 0/1 flag,
    integer codes, an identifier, a constant and a partly missing column.
    """
    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(0)
    colour = rng.integers(0, 3, rows)
    region = rng.integers(0, 3, rows)
    frame = pd.DataFrame(
        {
            **{f"colour_{name}": (colour == k).astype(int) for k, name in enumerate(("red", "green", "blue"))},
            **{f"region_{name}": (region == k + 1).astype(int) for k, name in enumerate(("north", "south"))},
            "visits": rng.poisson(3, rows),
            "amount": rng.normal(0, 10, rows).round(3),
            "plan": rng.choice(["basic", "pro", "team"], rows),
            "flag": rng.integers(0, 2, rows),
            "code": rng.integers(0, 5, rows),
            "row_id": np.arange(1000, 1000 + rows),
            "constant": 7,
            "score": np.where(rng.random(rows) < 0.2, np.nan, rng.random(rows).round(3)),
        }
    )
    frame["y"] = np.where(rng.random(rows) < 0.4, "yes", "no")
    return frame


def _table_inputs() -> Iterator[ContractInput]:
    import numpy as np

    typical = contract_table()
    tables = {
        "a typical table": typical,
        "an empty table": typical.iloc[:0],
        "a one-row table": typical.iloc[:1],
        "a table with an all-missing column": typical.assign(blank=np.nan),
        "a table with a single class": typical.assign(y="yes"),
    }
    for model in CONTRACT_MODELS:
        # nblint refuses an empty table ("no data rows", exit 2) before a model reads it: the
        # empty tables under one model are the empty tables under every model.
        once = () if model is None else ("an empty table",)
        for label, frame in tables.items():
            if label not in once:
                yield _table_input(f"{label}, {_model(model)}", frame, "y", model)
        for label in ("a typical table", "an empty table"):
            if label not in once:
                yield _table_input(f"{label} without a target, {_model(model)}", tables[label], None, model)
        yield _table_input(f"a typical table, {_model(model)}, alpha = 0", typical, "y", model, alpha=0.0)
        yield _table_input(
            f"a typical table with its columns reversed, {_model(model)}",
            typical[typical.columns[::-1]],
            "y",
            model,
            same_as=f"a typical table, {_model(model)}",
        )


def _model(model: str | None) -> str:
    return f"model {model}" if model else "no model"


def _table_input(
    name: str, frame, target: str | None, model: str | None, alpha: float | None = None, same_as: str | None = None
) -> ContractInput:
    def build():
        from nblint.testing.kit import context

        return [context(frame.copy(), target=target, model=model, alpha=alpha)]

    return ContractInput(name, "table", build, tuple(map(str, frame.columns)), same_as, (target, model))


#: Pipeline configs, each read as a file: (name, file suffix, text).
_CONFIGS: tuple[tuple[str, str, str], ...] = (
    *((f"an nblint spec of {cls}", ".yaml", f"model: {cls}\n") for cls in MODEL_CLASSES.values()),
    *(
        (
            f"an nblint spec of {cls} with alpha = 0 and a one-hot encoder",
            ".yaml",
            f"model: {cls}\nparams:\n  alpha: 0\nencoders:\n  channel:\n    class: OneHotEncoder\n    drop: first\n"
            "    handle_unknown: ignore\n",
        )
        for cls in MODEL_CLASSES.values()
    ),
    *(
        (
            f"a Hydra pipeline into {cls}",
            ".yaml",
            "_target_: sklearn.pipeline.make_pipeline\n_args_:\n  - _target_: sklearn.preprocessing.StandardScaler\n"
            f"  - _target_: sklearn.naive_bayes.{cls}\n",
        )
        for cls in MODEL_CLASSES.values()
    ),
    *(
        (
            f"a Python pipeline into {cls}",
            ".py",
            "from sklearn.naive_bayes import *\nfrom sklearn.pipeline import make_pipeline\n"
            "from sklearn.preprocessing import OneHotEncoder, OrdinalEncoder\n"
            f"pipe = make_pipeline(OneHotEncoder(), OrdinalEncoder(), {cls}(class_prior=[0.5, 0.6]))\n",
        )
        for cls in MODEL_CLASSES.values()
    ),
    (
        "a Python pipeline that is not Naive Bayes",
        ".py",
        "from sklearn.linear_model import LogisticRegression\nfrom sklearn.pipeline import make_pipeline\n"
        "from sklearn.preprocessing import OneHotEncoder\npipe = make_pipeline(OneHotEncoder(), LogisticRegression())\n",
    ),
    (
        "a Python source nblint cannot follow",
        ".py",
        "from project.models import *\nmodel = build(BernoulliNB(alpha=settings.alpha))\n",
    ),
)


def _pipeline_inputs() -> Iterator[ContractInput]:
    for index, (name, suffix, text) in enumerate(_CONFIGS):
        yield ContractInput(name, "pipeline", _config_builder(f"config{index}{suffix}", text))


def _config_builder(file_name: str, text: str):
    def build():
        from nblint.engine import resolved_options
        from nblint.pipelines import PipelineContext, read_config

        path = _folder() / file_name  # one path for both copies: findings carry it
        path.write_text(text, encoding="utf-8")
        config = read_config(str(path))
        specs = config.specs if config is not None else []
        return [PipelineContext(spec, resolved_options()) for spec in specs]

    return build


@lru_cache(maxsize=1)
def _folder() -> Path:
    """A temporary folder for the contract's config files, removed when the process ends."""
    folder = tempfile.TemporaryDirectory(prefix="nblint-contract-")
    atexit.register(folder.cleanup)
    return Path(folder.name)


def _live_inputs() -> Iterator[ContractInput]:
    for index, (name, suffix, text) in enumerate(_CONFIGS[:5]):
        yield ContractInput(
            f"an unfitted live pipeline like {name}", "live", _live_builder(f"config{index}{suffix}", text)
        )


def _live_builder(file_name: str, text: str):
    def build():
        from nblint.engine import resolved_options
        from nblint.pipelines.context import LiveContext

        return [
            LiveContext(context.spec, ["onehotencoder", "standardscaler"], 3, resolved_options())
            for context in _config_builder(file_name, text)()
        ]

    return build


def rules_of(package: str, rules: Iterable[type[Rule]] | None = None) -> list[type[Rule]]:
    """The registered rules whose module is in ``package`` (a pack's import name), by code."""
    rules = load_rules().values() if rules is None else rules
    return [rule for rule in rules if rule.__module__ == package or rule.__module__.startswith(f"{package}.")]
