"""The analysis settings: the shared rule options the analyses read, as one typed object.

A shared option is declared by exactly one rule (the one whose finding it shapes
most) and read by the analyses and by other rules, so that no code outside a rule
names a rule code and two rules never need two options kept equal by hand. The
analyses read them as attributes of :class:`AnalysisSettings`, typed once here, not
by name with a cast at each use.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any


@dataclass(frozen=True)
class AnalysisSettings:
    """Every shared option's resolved value (the option ``min-evidence`` is ``min_evidence``).

    Attributes
    ----------
    min_evidence : float
        Nats of exclusivity evidence a stemless exclusive set needs to be a group (NB102).
    max_violation_share : float
        Largest share of rows off for a near set to be a broken group (NB103).
    wide_columns : int
        Complete 0/1 columns beyond which a table is wide (NB106).
    term_block : int
        Fewest sparse non-negative columns that make a document-term block (NB209).
    min_class_rows : int
        Classes with fewer rows are tiny (NB206), not a source of zero cells.
    separation_min_rows, separation_max_chance : int, float
        When a level seen in one class is beyond chance (NB202).
    decides_share : float
        Share of rows a leak must decide (NB208); of a giveaway word's documents in its class (NB202).
    giveaway_share : float
        Share of a class's documents a word must be present in to give the class away (NB202).
    alpha : float
        The smoothing NB401 fits with when the model's alpha is not known.
    folds, seed : int
        NB401's cross-validation.
    """

    min_evidence: float
    max_violation_share: float
    wide_columns: int
    term_block: int
    min_class_rows: int
    separation_min_rows: int
    separation_max_chance: float
    decides_share: float
    giveaway_share: float
    alpha: float
    folds: int
    seed: int

    @classmethod
    def from_options(cls, rules: dict[str, Any], rule_options: dict[str, dict[str, Any]]) -> AnalysisSettings:
        """The settings from the rules' shared options (``rules``: code -> Rule class) and the overrides.

        Raises
        ------
        RuntimeError
            A shared option declared twice, one that is no field here, or a field no rule declares.
        """
        types = {field.name: field.type for field in fields(cls)}
        values: dict[str, Any] = {}
        for code, rule in rules.items():
            for option in rule.options:
                if not option.shared:
                    continue
                name = option.name.replace("-", "_")
                if name in values:
                    raise RuntimeError(f"shared option {option.name!r} is declared twice (again by {code})")
                if name not in types:
                    raise RuntimeError(f"shared option {option.name!r} of {code} is not an analysis setting")
                value = rule_options.get(code, {}).get(option.name, option.default)
                values[name] = int(value) if types[name] == "int" else float(value)
        missing = sorted(set(types) - set(values))
        if missing:
            raise RuntimeError(f"analysis settings no rule declares: {', '.join(missing)}")
        return cls(**values)
