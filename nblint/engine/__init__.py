"""The rule engine: findings, rules and their options, rule packs, selection and running.

This package is the door rule packs import from (``from nblint.engine import Rule,
Option, Finding, Severity``): the names below are its public surface, whichever module
defines them.
"""

from nblint.engine.findings import Finding, Severity
from nblint.engine.registry import (
    CODE_PATTERN,
    DOC_SECTIONS,
    ENTRY_POINT_GROUP,
    INPUTS,
    MODEL_CLASSES,
    MODELS,
    SUMMARIZE_ABOVE,
    Option,
    Rule,
    describe,
    load_rules,
    model_choices,
    parse_model,
    resolved_options,
    rule_record,
    run_rules,
    select_rules,
    selector_code,
    settle,
    shared_settings,
    unknown_selector,
    validate_codes,
)

__all__ = [
    "Finding",
    "Severity",
    "ENTRY_POINT_GROUP",
    "CODE_PATTERN",
    "DOC_SECTIONS",
    "MODELS",
    "MODEL_CLASSES",
    "INPUTS",
    "Option",
    "parse_model",
    "model_choices",
    "SUMMARIZE_ABOVE",
    "Rule",
    "load_rules",
    "select_rules",
    "selector_code",
    "unknown_selector",
    "validate_codes",
    "run_rules",
    "settle",
    "resolved_options",
    "shared_settings",
    "rule_record",
    "describe",
]
