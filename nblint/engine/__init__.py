"""The rule engine: findings, rules and their options (``rule.py``), packs and running (``registry.py``), selection.

This package is the door rule packs import from (``from nblint.engine import Rule,
Option, Finding, Severity``): the names below are its public surface, whichever module
defines them.
"""

from nblint.core.models import MODEL_CLASSES, MODELS, model_choices, parse_model
from nblint.engine.findings import Finding, Severity
from nblint.engine.registry import (
    BUILTIN_PACK,
    CODE_PATTERN,
    ENTRY_POINT_GROUP,
    RENAMED,
    Pack,
    PackError,
    RuleOptions,
    applies,
    describe,
    left_to_packs,
    load_rules,
    loaded_packs,
    renamed_codes,
    resolved_options,
    rule_record,
    run_rules,
    settle,
    shared_settings,
)
from nblint.engine.rule import DOC_SECTIONS, INPUTS, STATUSES, SUMMARIZE_ABOVE, Narrowing, Option, Rule
from nblint.engine.selection import (
    renamed_note,
    select_rules,
    selection_notes,
    selector_code,
    unknown_selector,
    validate_codes,
)

__all__ = [
    "Finding",
    "Severity",
    "ENTRY_POINT_GROUP",
    "CODE_PATTERN",
    "BUILTIN_PACK",
    "RENAMED",
    "STATUSES",
    "Pack",
    "PackError",
    "loaded_packs",
    "left_to_packs",
    "renamed_codes",
    "renamed_note",
    "selection_notes",
    "DOC_SECTIONS",
    "MODELS",
    "MODEL_CLASSES",
    "INPUTS",
    "Option",
    "parse_model",
    "model_choices",
    "SUMMARIZE_ABOVE",
    "Narrowing",
    "Rule",
    "load_rules",
    "select_rules",
    "selector_code",
    "unknown_selector",
    "validate_codes",
    "run_rules",
    "applies",
    "settle",
    "resolved_options",
    "RuleOptions",
    "shared_settings",
    "rule_record",
    "describe",
]
